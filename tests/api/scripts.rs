//! Results by script: CSV bodies (all or nothing, every bad line named) and `Idempotency-Key`
//! (a retry returns the first answer and stores nothing twice).

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};
use crate::swiss::{pair, publish, swiss_event};

/// A Swiss event of 8 players with round 1 published; its games.
fn round_one(s: &TestServer) -> (i64, String, Vec<Value>) {
    let (event, admin) = swiss_event(s, json!({"rounds": 3, "seed": 5}));
    s.add_players(event, &admin, 8);
    pair(s, event, &admin);
    let one = publish(s, event, &admin, 1);
    let games = one["games"].as_array().unwrap().clone();
    (event, admin, games)
}

fn post_csv(s: &TestServer, event: i64, token: &str, csv: &str) -> crate::client::Response {
    s.request(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        &[
            ("Content-Type", "text/csv"),
            ("Authorization", &format!("Bearer {token}")),
        ],
        Some(csv.as_bytes()),
    )
}

fn stored_results(s: &TestServer, event: i64) -> Vec<Value> {
    s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["result"].clone())
        .collect()
}

#[test]
fn csv_results_all_or_nothing_with_every_bad_line_named() {
    let s = spawn();
    let (event, admin, games) = round_one(&s);
    // Bad lines: nothing is stored, each is named.
    let r = post_csv(
        &s,
        event,
        &admin,
        "round,board,result\n1,1,1-0\n1,2,2-0\n1,9,1-0\n1,x,0-1\n",
    );
    let problem = r.problem(422);
    let fields: Vec<&str> = problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, vec!["line 3", "line 4", "line 5"], "{problem}");
    // A board that does not exist is a bad line too (checked against the event).
    let r = post_csv(&s, event, &admin, "round,board,result\n1,1,1-0\n1,9,1-0\n");
    assert_eq!(r.problem(422)["errors"][0]["field"], "line 3");
    assert!(stored_results(&s, event).iter().all(Value::is_null));

    // Good files: by board, then by pairing numbers (white first).
    let r = post_csv(
        &s,
        event,
        &admin,
        "round,board,result\n1,1,1-0\n1,2,1/2-1/2\n",
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["results"].as_array().unwrap().len(), 2);
    let (w, b) = (
        games[2]["white"]["pairing_number"].as_u64().unwrap(),
        games[2]["black"]["pairing_number"].as_u64().unwrap(),
    );
    let r = post_csv(&s, event, &admin, &format!("1,{w},{b},0-1\n"));
    assert_eq!(r.status, 200, "{}", r.text());
    // Black-first numbers name no game.
    let r = post_csv(&s, event, &admin, &format!("1,{b},{w},0-1\n"));
    assert_eq!(r.problem(422)["errors"][0]["field"], "line 1");
    let stored = stored_results(&s, event);
    assert_eq!(stored[0], "1-0");
    assert_eq!(stored[1], "1/2-1/2");
    assert_eq!(stored[2], "0-1");
    assert!(stored[3].is_null());
    // Without credentials: 401, nothing stored.
    let r = s.request(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        &[("Content-Type", "text/csv")],
        Some(b"1,4,1-0\n"),
    );
    assert_eq!(r.status, 401);
    assert!(stored_results(&s, event)[3].is_null());
}

#[test]
fn a_retried_request_with_the_same_key_returns_the_first_answer() {
    let s = spawn();
    let (event, admin, _) = round_one(&s);
    let auth = format!("Bearer {admin}");
    let send = |key: &str, body: &str| {
        s.request(
            "POST",
            &format!("/api/v1/events/{event}/participants"),
            &[
                ("Content-Type", "application/json"),
                ("Authorization", &auth),
                ("Idempotency-Key", key),
            ],
            Some(body.as_bytes()),
        )
    };
    let count = || {
        s.get(&format!("/api/v1/events/{event}/participants"))
            .json()["total"]
            .as_u64()
            .unwrap()
    };
    let before = count();
    let first = send("late-entry-1", r#"{"name": "Late Larry", "rating": 1500}"#);
    assert_eq!(first.status, 201, "{}", first.text());
    assert_eq!(first.header("Idempotent-Replayed"), None);
    let again = send("late-entry-1", r#"{"name": "Late Larry", "rating": 1500}"#);
    assert_eq!(again.status, 201);
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(again.json(), first.json());
    assert_eq!(count(), before + 1, "stored once");
    // The same key for a different request is refused; a new key is a new request.
    let other = send("late-entry-1", r#"{"name": "Someone Else"}"#);
    assert_eq!(other.problem(422)["errors"][0]["field"], "Idempotency-Key");
    assert_eq!(
        send("late-entry-2", r#"{"name": "Someone Else"}"#).status,
        201
    );
    assert_eq!(count(), before + 2);
    // An error answer is kept too (the retry does not run again).
    let bad = send("bad-1", r#"{"name": ""}"#);
    assert_eq!(bad.status, 422);
    let bad_again = send("bad-1", r#"{"name": ""}"#);
    assert_eq!(bad_again.status, 422);
    assert_eq!(bad_again.header("Idempotent-Replayed"), Some("true"));
    // A malformed key is a 400 naming the header.
    let r = send("", r#"{"name": "X"}"#);
    assert_eq!(r.problem(400)["errors"][0]["field"], "Idempotency-Key");
    // Keys are per credential: another token's identical request runs on its own (and fails
    // on its own: a scorer may not enter participants).
    let scorer = s
        .send(
            "POST",
            &format!("/api/v1/events/{event}/tokens"),
            Some(&admin),
            &json!({"label": "upload script"}),
        )
        .json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let r = s.request(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &format!("Bearer {scorer}")),
            ("Idempotency-Key", "late-entry-1"),
        ],
        Some(br#"{"name": "Late Larry", "rating": 1500}"#),
    );
    assert_eq!(r.status, 403);

    // Results by CSV with a key: the retry stores nothing twice and answers the same.
    let csv = |key: &str| {
        s.request(
            "POST",
            &format!("/api/v1/events/{event}/results"),
            &[
                ("Content-Type", "text/csv"),
                ("Authorization", &auth),
                ("Idempotency-Key", key),
            ],
            Some(b"round,board,result\n1,1,1-0\n"),
        )
    };
    let first = csv("results-r1-a");
    assert_eq!(first.status, 200, "{}", first.text());
    assert_eq!(first.json()["results"][0]["changed"], true);
    let again = csv("results-r1-a");
    assert_eq!(
        again.json(),
        first.json(),
        "the first answer, changed: true"
    );
    // Without the key the same upload runs again and reports nothing changed.
    let r = post_csv(&s, event, &admin, "round,board,result\n1,1,1-0\n");
    assert_eq!(r.json()["results"][0]["changed"], false);
}

#[test]
fn creating_an_event_with_a_key_creates_it_once() {
    let s = spawn();
    let body = br#"{"name": "Retried open", "game": "chess", "format": "swiss"}"#;
    let create = || {
        s.request(
            "POST",
            "/api/v1/events",
            &[
                ("Content-Type", "application/json"),
                ("Idempotency-Key", "0b6c3f1e-create-open"),
            ],
            Some(body),
        )
    };
    let first = create();
    assert_eq!(first.status, 201, "{}", first.text());
    let again = create();
    assert_eq!(again.status, 201);
    assert_eq!(again.json()["id"], first.json()["id"]);
    assert_eq!(s.get("/api/v1/events").json()["total"], 1);
}

/// A keyed CSV upload of round 1's first `n` boards (all won by white).
fn keyed_upload(
    s: &TestServer,
    event: i64,
    token: &str,
    key: &str,
    n: usize,
) -> crate::client::Response {
    let csv: String = (1..=n).map(|b| format!("1,{b},1-0\n")).collect();
    s.request(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        &[
            ("Content-Type", "text/csv"),
            ("Authorization", &format!("Bearer {token}")),
            ("Idempotency-Key", key),
        ],
        Some(csv.as_bytes()),
    )
}

/// Rows kept under `scope`, and how many of them hold an answer.
fn kept_rows(db: &std::path::Path, scope: &str) -> (i64, i64) {
    let db = rusqlite::Connection::open(db).unwrap();
    db.query_row(
        "SELECT count(*), count(status) FROM idempotency_keys WHERE scope = ?1",
        [scope],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// A server killed while it ran a keyed request used to leave the key "running" for a day
/// (every retry a 409, nothing stored). A key without an answer is not a running request: the
/// retry on the restarted server runs, stores once, and its answer is replayed after.
#[test]
fn a_key_left_running_by_a_dead_server_does_not_block_its_retry() {
    let s = spawn();
    let (event, admin, _) = round_one(&s);
    let path = format!("/api/v1/events/{event}/results");
    let scope = tourney::api::idempotency::scope(
        format!("Bearer {admin}").as_bytes(),
        "",
        "POST",
        &path,
        b"upload-r1",
    );
    let db = rusqlite::Connection::open(&s.db).unwrap();
    db.execute(
        "INSERT INTO idempotency_keys (scope, request_hash, created_at) VALUES (?1, 'dead', ?2)",
        rusqlite::params![scope, tourney::store::now()],
    )
    .unwrap();
    drop(db);
    let restarted = crate::client::spawn_on(&s.db);
    let first = keyed_upload(&restarted, event, &admin, "upload-r1", 3);
    assert_eq!(first.status, 200, "{}", first.text());
    assert_eq!(first.header("Idempotent-Replayed"), None);
    assert!(first.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["changed"] == true));
    let again = keyed_upload(&restarted, event, &admin, "upload-r1", 3);
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(again.json(), first.json());
    assert_eq!(
        kept_rows(&s.db, &scope),
        (1, 1),
        "kept once, with its answer"
    );
    let stored = stored_results(&restarted, event);
    assert_eq!(
        &stored[..4],
        &[json!("1-0"), json!("1-0"), json!("1-0"), Value::Null]
    );
}

/// An upload whose client is cut off right after sending it (as a crash of the scorer's
/// laptop, or of the network, would) is stored exactly once when retried, with the answer an
/// uninterrupted upload gets: either the first run finished (its answer is replayed) or it
/// was rolled back whole (the retry runs). Meanwhile the retry may be told to wait (409,
/// `Retry-After`).
#[test]
fn an_upload_cut_off_midway_is_stored_once_when_retried() {
    use std::io::Write;
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 5}));
    s.add_players(event, &admin, 200);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    for (trial, cut_after_ms) in [0u64, 1, 3, 10].into_iter().enumerate() {
        let key = format!("cut-{trial}");
        // round 1 again with other results each trial: every trial changes all 100 boards
        let result = ["1-0", "0-1"][trial % 2];
        let csv: String = (1..=100).map(|b| format!("1,{b},{result}\n")).collect();
        let head = format!(
            "POST /api/v1/events/{event}/results HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {admin}\r\n\
             Content-Type: text/csv\r\nIdempotency-Key: {key}\r\nContent-Length: {}\r\n\r\n",
            s.addr,
            csv.len()
        );
        let mut cut = std::net::TcpStream::connect(&s.addr).unwrap();
        cut.write_all(head.as_bytes()).unwrap();
        cut.write_all(csv.as_bytes()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(cut_after_ms));
        drop(cut);
        let retry = || {
            s.request(
                "POST",
                &format!("/api/v1/events/{event}/results"),
                &[
                    ("Content-Type", "text/csv"),
                    ("Authorization", &format!("Bearer {admin}")),
                    ("Idempotency-Key", &key),
                ],
                Some(csv.as_bytes()),
            )
        };
        let mut answer = retry();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while answer.status == 409 {
            assert_eq!(answer.header("retry-after"), Some("1"), "{}", answer.text());
            assert!(std::time::Instant::now() < deadline, "still running");
            std::thread::sleep(std::time::Duration::from_millis(20));
            answer = retry();
        }
        assert_eq!(answer.status, 200, "trial {trial}: {}", answer.text());
        let results = answer.json()["results"].as_array().unwrap().clone();
        assert_eq!(results.len(), 100);
        assert!(
            results
                .iter()
                .all(|r| r["changed"] == true && r["result"] == result),
            "trial {trial}: the answer of an uninterrupted upload"
        );
        let again = retry();
        assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
        assert_eq!(again.json(), answer.json());
        let stored = s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["result"] == result)
            .count();
        assert_eq!(stored, 100, "trial {trial}");
    }
}

/// The same keyed request sent twice at once: one runs; the other waits its turn and is
/// answered with the first's answer, or is told to retry (409 with `Retry-After`) while the
/// first really runs. Either way the results are stored once.
#[test]
fn concurrent_duplicates_store_once() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 5}));
    s.add_players(event, &admin, 200);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let answers: Vec<crate::client::Response> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| keyed_upload(&s, event, &admin, "same-time", 100)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let mut first = None;
    for a in &answers {
        match a.status {
            409 => assert_eq!(a.header("retry-after"), Some("1"), "{}", a.text()),
            200 => {
                let body = a.json();
                assert!(body["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|r| r["changed"] == true));
                if let Some(f) = &first {
                    assert_eq!(&body, f);
                }
                first = Some(body);
            }
            other => panic!("{other}: {}", a.text()),
        }
    }
    let last = keyed_upload(&s, event, &admin, "same-time", 100);
    assert_eq!(last.header("Idempotent-Replayed"), Some("true"));
    assert!(last.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["changed"] == true));
}
