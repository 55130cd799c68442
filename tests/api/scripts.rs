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
