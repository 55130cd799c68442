//! Event export and import: a Swiss event with a round in progress and a bridge pairs session
//! with board results round trip (export → import → export gives the same document, and the
//! imported event goes on exactly like the original); bad documents are refused whole.

use serde_json::{json, Value};

use crate::bridge_results::{
    mitchell_event, post_csv, schedule, session_csv, vulnerability_reader,
};
use crate::client::{spawn, TestServer};
use crate::swiss::{pair, publish, swiss_event};

pub(crate) fn export(s: &TestServer, event: i64, admin: &str) -> Value {
    let auth = format!("Bearer {admin}");
    let r = s.request(
        "GET",
        &format!("/api/v1/events/{event}/export"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// Imports `document`: (new event, its admin token).
fn import(s: &TestServer, document: &Value) -> (i64, String) {
    let r = s.send("POST", "/api/v1/events/import", None, document);
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["id"].as_i64().unwrap(),
        v["admin_token"].as_str().unwrap().to_string(),
    )
}

/// A JSON text with the numbers of its `"id"`, `"participant_id"` and `"event_id"` fields blanked.
fn strip_ids(json: &str) -> String {
    let mut out = String::new();
    let mut rest = json;
    while let Some(at) = ["\"id\":", "\"participant_id\":", "\"event_id\":"]
        .iter()
        .filter_map(|k| rest.find(k).map(|i| (i, k.len())))
        .min()
    {
        let (i, len) = at;
        out.push_str(&rest[..i + len]);
        rest = rest[i + len..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
        out.push('#');
    }
    out.push_str(rest);
    out
}

fn without_time(mut document: Value) -> Value {
    document.as_object_mut().unwrap().remove("exported_at");
    document
}

fn round(s: &TestServer, event: i64, admin: &str, n: u32) -> Value {
    let auth = format!("Bearer {admin}");
    let r = s.request(
        "GET",
        &format!("/api/v1/events/{event}/rounds/{n}"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// Results for the boards of `round` in `boards` (higher-rated wins, board 3 drawn).
fn play(s: &TestServer, event: i64, admin: &str, round: &Value, boards: std::ops::Range<u64>) {
    let results: Vec<Value> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| boards.contains(&g["board"].as_u64().unwrap()))
        .map(|g| {
            let result = match (
                g["board"].as_u64(),
                g["white"]["rating"].as_i64() > g["black"]["rating"].as_i64(),
            ) {
                (Some(3), _) => "1/2-1/2",
                (_, true) => "1-0",
                (_, false) => "0-1",
            };
            json!({"game_id": g["id"], "result": result})
        })
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(admin),
        &json!({ "results": results }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

/// A round's boards by names: (board, White, Black, result).
fn boards(round: &Value) -> Vec<(u64, String, String, Value)> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["board"].as_u64().unwrap(),
                g["white"]["name"].as_str().unwrap().to_string(),
                g["black"]["name"].as_str().unwrap().to_string(),
                g["result"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_swiss_event_with_a_round_in_progress_round_trips_and_goes_on_alike() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 5}));
    let players = s.add_players(event, &admin, 11);
    let id = |i: usize| players[i]["id"].as_i64().unwrap();
    // settings naming participants, a requested bye, a withdrawal
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"rounds": 5, "prohibited_pairs": [[id(0), id(1)]]}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/byes"),
        Some(&admin),
        &json!({"participant_id": id(4), "round": 3, "points": 0.5}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    play(&s, event, &admin, &round(&s, event, &admin, 1), 1..99);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 2);
    // round 2 in progress: two results in
    play(&s, event, &admin, &round(&s, event, &admin, 2), 1..3);

    let original = export(&s, event, &admin);
    assert_eq!(
        original["tables"]["participants"].as_array().unwrap().len(),
        11
    );
    assert_eq!(original["tables"]["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(
        original["tables"]["requested_byes"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(!original["tables"]["byes"].as_array().unwrap().is_empty());
    assert!(!original.to_string().contains("token"));
    // the settings name the document's own participant numbers
    let numbers = &original["tables"]["events"][0]["settings"]["prohibited_pairs"];
    assert_eq!(numbers, &json!([[1, 2]]));

    let (copy, copy_admin) = import(&s, &original);
    assert_ne!(copy, event);
    let again = export(&s, copy, &copy_admin);
    assert_eq!(without_time(again), without_time(original.clone()));
    // the document's own numbers may be written with a zero fraction (JSON Schema's
    // integers); the rows' numbers are stored as written
    let mut floats = original.clone();
    floats["schema"] = json!(original["schema"].as_f64().unwrap());
    floats["version"] = json!(1.0);
    let (third, third_admin) = import(&s, &floats);
    let again = export(&s, third, &third_admin);
    assert_eq!(without_time(again), without_time(original.clone()));
    // the copy's settings name the copy's participants
    let copy_players = s.get(&format!("/api/v1/events/{copy}/participants")).json();
    let copy_event = s.get(&format!("/api/v1/events/{copy}")).json();
    assert_eq!(
        copy_event["settings"]["prohibited_pairs"],
        json!([[
            copy_players["items"][0]["id"],
            copy_players["items"][1]["id"]
        ]])
    );
    // the original's token does not open the copy
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{copy}"),
        Some(&admin),
        &json!({"name": "x"}),
    );
    r.problem(403);

    // Both go on alike: the rest of round 2, then round 3 paired in each.
    for (e, t) in [(event, &admin), (copy, &copy_admin)] {
        play(&s, e, t, &round(&s, e, t, 2), 3..99);
        pair(&s, e, t);
    }
    let (r3, copy_r3) = (round(&s, event, &admin, 3), round(&s, copy, &copy_admin, 3));
    assert_eq!(boards(&r3), boards(&copy_r3));
    let bye_names = |round: &Value| -> Vec<String> {
        let byes = round["byes"].as_array().unwrap();
        byes.iter()
            .map(|b| b.to_string())
            .map(|b| strip_ids(&b))
            .collect()
    };
    assert_eq!(bye_names(&r3), bye_names(&copy_r3));
    assert!(!bye_names(&r3).is_empty());
    assert_eq!(
        boards(&round(&s, event, &admin, 2)),
        boards(&round(&s, copy, &copy_admin, 2))
    );
}

#[test]
fn a_bridge_session_with_board_results_round_trips() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let sched = schedule(&s, event);
    let (csv, _) = session_csv(&sched[..10], &vulnerability_reader(&s, event));
    let r = post_csv(&s, event, &admin, &csv);
    assert_eq!(r.status, 200, "{}", r.text());

    let original = export(&s, event, &admin);
    assert!(
        original["tables"]["board_results"]
            .as_array()
            .unwrap()
            .len()
            >= 10
    );
    assert_eq!(original["tables"]["movements"].as_array().unwrap().len(), 1);
    let (copy, copy_admin) = import(&s, &original);
    assert_eq!(
        without_time(export(&s, copy, &copy_admin)),
        without_time(original)
    );
    let standings = |e: i64| {
        s.get(&format!("/api/v1/events/{e}/bridge-standings"))
            .json()
    };
    // the same standings but for the participants' ids
    let (a, b) = (standings(event), standings(copy));
    assert_eq!(strip_ids(&a.to_string()), strip_ids(&b.to_string()));
    assert!(a.to_string().contains("North11 - South11"));
}

#[test]
fn a_bad_document_is_refused_whole_with_its_paths() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({}));
    s.add_players(event, &admin, 4);
    let good = export(&s, event, &admin);
    let before = s.get("/api/v1/events").json()["total"].clone();

    let mut bad = good.clone();
    bad["tables"]["participants"][1]["name"] = json!("x".repeat(201));
    bad["tables"]["participants"][2]["rating"] = json!("high");
    bad["tables"]["games"] =
        json!([{"id": 1, "round_id": 7, "board": 1, "white_id": 1, "black_id": 99}]);
    bad["tables"]["tokens"] = json!([]);
    let r = s.send("POST", "/api/v1/events/import", None, &bad);
    r.problem(422);
    let mut fields = r.fields();
    fields.sort();
    assert_eq!(
        fields,
        [
            "tables.games[0].black_id",
            "tables.games[0].round_id",
            "tables.participants[1].name",
            "tables.participants[2].rating",
            "tables.tokens",
        ]
    );

    // A fault only the database sees (two players with one pairing number) is named by its
    // row, and nothing of the event is kept.
    let mut clash = good.clone();
    clash["tables"]["participants"][0]["pairing_number"] = json!(1);
    clash["tables"]["participants"][1]["pairing_number"] = json!(1);
    let r = s.send("POST", "/api/v1/events/import", None, &clash);
    r.problem(422);
    assert_eq!(r.fields(), ["tables.participants[1]"]);
    let mut format = good.clone();
    format["tables"]["events"][0]["format"] = json!("knockout");
    let r = s.send("POST", "/api/v1/events/import", None, &format);
    r.problem(422);
    assert_eq!(r.fields(), ["tables.events[0].format"]);
    assert_eq!(s.get("/api/v1/events").json()["total"], before);

    // Export is the admin's.
    s.request("GET", &format!("/api/v1/events/{event}/export"), &[], None)
        .problem(401);
    let (_, other) = s.create_event("swiss");
    let auth = format!("Bearer {other}");
    s.request(
        "GET",
        &format!("/api/v1/events/{event}/export"),
        &[("Authorization", &auth)],
        None,
    )
    .problem(403);
}

#[test]
fn a_document_over_the_usual_body_bound_is_imported() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({}));
    s.add_players(event, &admin, 4);
    let mut big = export(&s, event, &admin);
    // a draft round whose stored details are 5 MB (other bodies stop at 4 MiB)
    big["tables"]["rounds"] = json!([{
        "id": 1, "number": 1, "status": "draft", "created_at": "2026-11-22T10:00:00Z",
        "details": {"note": "x".repeat(5_000_000)}
    }]);
    let body = big.to_string();
    assert!(body.len() > 4 * 1024 * 1024);
    let (copy, copy_admin) = import(&s, &big);
    let again = export(&s, copy, &copy_admin);
    assert_eq!(again["tables"]["rounds"], big["tables"]["rounds"]);
}

/// The (table, home, away) of each match of a drawn bridge Swiss round.
fn bridge_draw(s: &TestServer, event: i64, admin: &str) -> Vec<(Value, Value, Value)> {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["table"].clone(), m["home"].clone(), m["away"].clone()))
        .collect()
}

#[test]
fn a_swiss_teams_event_with_entered_matches_round_trips_and_draws_alike() {
    use crate::bridge_team_events::{add_bridge_team, bridge_event, draw_lots_by_rating};
    let s = spawn();
    let (event, admin) = bridge_event(&s, "swiss_teams", json!({"rounds": 5}));
    for k in 1..=8 {
        let r = add_bridge_team(&s, event, &admin, k, 4);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = draw_lots_by_rating(&s, event, &admin);
    assert_eq!(r.status, 200, "{}", r.text());
    let first = bridge_draw(&s, event, &admin);
    assert_eq!(first.len(), 4);
    // round 1 half entered: the top two matches have results, the others not yet
    let entries: Vec<Value> = first[..2]
        .iter()
        .zip([(23, 4), (1, 15)])
        .map(|((_, h, a), (ih, ia))| json!({"round": 1, "home": h, "away": a, "imps_home": ih, "imps_away": ia}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/matches"),
        Some(&admin),
        &json!({ "matches": entries }),
    );
    assert_eq!(r.status, 200, "{}", r.text());

    let original = export(&s, event, &admin);
    for table in ["swiss_draws", "match_results"] {
        assert!(
            !original["tables"][table].as_array().unwrap().is_empty(),
            "{table} exported"
        );
    }
    let (copy, copy_admin) = import(&s, &original);
    assert_eq!(
        without_time(export(&s, copy, &copy_admin)),
        without_time(original)
    );
    let matches = |e: i64| s.get(&format!("/api/v1/events/{e}/matches")).json();
    assert_eq!(matches(event)["matches"], matches(copy)["matches"]);
    // the rest of round 1 entered alike in both, then round 2 is drawn alike
    let rest: Vec<Value> = first[2..]
        .iter()
        .map(|(_, h, a)| json!({"round": 1, "home": h, "away": a, "vp_home": 12.5, "vp_away": 7.5}))
        .collect();
    for (e, token) in [(event, &admin), (copy, &copy_admin)] {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{e}/matches"),
            Some(token),
            &json!({ "matches": rest }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    assert_eq!(
        bridge_draw(&s, event, &admin),
        bridge_draw(&s, copy, &copy_admin)
    );
}

/// One import is read at a time (a document takes several times its 64 MiB bound in memory
/// while it is checked): while a slow client holds the turn, another import waits at most the
/// write wait and gets a 503 with `Retry-After`, nothing stored; once the first is gone, the
/// same document is imported.
#[test]
fn imports_are_read_one_at_a_time_and_a_waiting_one_gets_503() {
    use std::io::Write;
    let s = crate::client::spawn_with_store(|store| {
        store.with_write_wait(std::time::Duration::from_millis(500))
    });
    let (event, admin) = swiss_event(&s, json!({}));
    s.add_players(event, &admin, 4);
    let document = export(&s, event, &admin);
    let before = s.get("/api/v1/events").json()["total"].clone();

    // A client announces a document and sends only its first bytes.
    let mut slow = std::net::TcpStream::connect(&s.addr).unwrap();
    let head = format!(
        "POST /api/v1/events/import HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{\"format_version\":",
        s.addr
    );
    slow.write_all(head.as_bytes()).unwrap();
    // It holds the turn once the server has read its head (a busy machine may take a while:
    // a fixed pause can let the other import in first).
    crate::client::wait_until(
        std::time::Duration::from_secs(20),
        "the slow import never took the turn",
        || s.store.import_underway(),
    );

    let r = s.send("POST", "/api/v1/events/import", None, &document);
    let p = r.problem(503);
    assert!(
        p["detail"].as_str().unwrap().contains("another import"),
        "{p}"
    );
    assert_eq!(r.header("retry-after"), Some("2"));
    assert_eq!(s.get("/api/v1/events").json()["total"], before);

    // The slow client leaves: its import ends, the turn is free again.
    drop(slow);
    let mut imported = None;
    for _ in 0..50 {
        let r = s.send("POST", "/api/v1/events/import", None, &document);
        if r.status == 201 {
            imported = Some(r.json());
            break;
        }
        assert_eq!(r.status, 503, "{}", r.text());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let created = imported.expect("the import is served once the slow one has left");
    let copy = created["id"].as_i64().unwrap();
    assert_eq!(
        s.get(&format!("/api/v1/events/{copy}")).json()["name"],
        s.get(&format!("/api/v1/events/{event}")).json()["name"]
    );
}
