//! Issue 9, security and availability: bounded work, text that cannot forge a file, safe CSV,
//! bounded answers and parameters.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};

fn text_post(s: &TestServer, path: &str, text: &str) -> crate::client::Response {
    s.request(
        "POST",
        path,
        &[("Content-Type", "text/plain")],
        Some(text.as_bytes()),
    )
}

const TRF: &str = "012 Club Swiss\nXXR 5\n\
001    1      Anna                              2100                    1.0    1     3 w 1\n\
001    2      Ben                               2000                    0.0    3     4 b 0\n\
001    3      Cleo                              1900                    0.0    4     1 b 0\n\
001    4      Dan                               1800                    1.0    2     2 w 1\n";

/// The crash of issue 9: `?rounds=1000000` (or `XXR 1000000`, or `settings.total_rounds`)
/// built a look-ahead layer per round (69 s, 2.1 GB; 10⁷ rounds aborted the process). Now a
/// 422 naming the field, at once.
#[test]
fn a_million_rounds_are_refused_at_once() {
    let s = spawn();
    let started = Instant::now();
    for rounds in ["1000000", "10000000", "100", "0"] {
        let r = text_post(&s, &format!("/api/v1/pairings/swiss?rounds={rounds}"), TRF);
        r.problem(422);
        assert_eq!(r.fields(), vec!["rounds"], "{rounds}: {}", r.text());
    }
    let r = text_post(
        &s,
        "/api/v1/pairings/swiss",
        &TRF.replace("XXR 5", "XXR 1000000"),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["line 2"]);
    let state = json!({"settings": {"total_rounds": 1000000}, "players": [
        {"start_number": 1}, {"start_number": 2}, {"start_number": 3}, {"start_number": 4}
    ]});
    let r = s.send("POST", "/api/v1/pairings/swiss", None, &state);
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.total_rounds"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    // The largest planned event still pairs, and the server is still there.
    let r = text_post(&s, "/api/v1/pairings/swiss?rounds=99", TRF);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Long", "game": "chess", "format": "swiss", "settings": {"rounds": 100}}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.rounds"]);
}

/// Integers inside the JSON state are bounded: an adjustment of ±2³¹ overflowed the cost.
#[test]
fn integers_in_the_swiss_state_are_bounded() {
    let s = spawn();
    let player = |sn: u32, extra: Value| {
        let mut p = json!({"start_number": sn, "name": format!("P{sn}"), "rating": 2000});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        p
    };
    let cases = [
        (
            json!({"adjustment_half_points": 2147483647}),
            "players[1].adjustment_half_points",
        ),
        (
            json!({"adjustment_half_points": -2147483648}),
            "players[1].adjustment_half_points",
        ),
        (json!({"rating": 4294967295u32}), "players[1].rating"),
        (
            json!({"start_number": 4000000000u32}),
            "players[1].start_number",
        ),
        (
            json!({"name": "Evil\n001 9 Forged Player"}),
            "players[1].name",
        ),
    ];
    for (extra, field) in cases {
        let state =
            json!({"players": [player(1, json!({})), player(2, extra), player(3, json!({}))]});
        let r = s.send("POST", "/api/v1/pairings/swiss", None, &state);
        r.problem(422);
        assert_eq!(r.fields(), vec![field], "{}", r.text());
    }
}

/// Names and every text field refuse control characters at entry, naming the field.
#[test]
fn control_characters_are_refused_at_entry() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    for (body, field) in [
        (json!({"name": "Evil\n001 9 Forged Player"}), "name"),
        (json!({"name": "Tab\there"}), "name"),
        (json!({"name": "Ok", "club": "A\rB"}), "club"),
        (
            json!({"name": "Ok", "federation": "\u{1b}[31m"}),
            "federation",
        ),
        (
            json!({"name": "Ok", "external_id": "x".repeat(65)}),
            "external_id",
        ),
    ] {
        let r = s.send("POST", &path, Some(&admin), &body);
        r.problem(422);
        assert_eq!(r.fields(), vec![field], "{}", r.text());
    }
    let r = s.send(
        "POST",
        &format!("{path}/bulk"),
        Some(&admin),
        &json!({"participants": [{"name": "Fine"}, {"name": "Bad\u{0}"}]}),
    );
    assert_eq!(r.fields(), vec!["participants[1].name"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Open\n2026", "game": "chess", "format": "swiss"}),
    );
    assert_eq!(r.fields(), vec!["name"]);
    // Nothing was entered.
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["participants"],
        0
    );
    // Letters of every script are fine.
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": "Müller, Zoë 王"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
}

/// A TRF export of an event re-imports with the same players, whatever their names.
#[test]
fn trf_export_reimports_the_same_players() {
    let s = spawn();
    let r = text_post(&s, "/api/v1/events/trf", TRF);
    assert_eq!(r.status, 201, "{}", r.text());
    let event = r.json()["id"].as_i64().unwrap();
    let text = s.get(&format!("/api/v1/events/{event}/trf")).text();
    assert_eq!(text.lines().filter(|l| l.starts_with("001")).count(), 4);
    let again = text_post(&s, "/api/v1/events/trf", &text);
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(again.json()["participants"], 4);
    // A name that got into the database before names were checked cannot forge a line.
    let conn = rusqlite::Connection::open(&s.db).unwrap();
    let forged = "Evil\n001    9      Forged Player                     2999";
    let changed = conn
        .execute(
            "UPDATE participants SET name = ?1 WHERE event_id = ?2 AND pairing_number = 2",
            rusqlite::params![forged, event],
        )
        .unwrap();
    assert_eq!(changed, 1);
    let text = s.get(&format!("/api/v1/events/{event}/trf")).text();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("001")).count(),
        4,
        "{text}"
    );
    let again = text_post(&s, "/api/v1/events/trf", &text);
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(again.json()["participants"], 4);
    // A file whose names hold control characters is refused at the player's line.
    let bad = TRF.replace("Ben    ", "Ben\u{7}   ");
    let r = text_post(&s, "/api/v1/events/trf", &bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["line 4"]);
    assert!(r.text().contains("players[1].name"), "{}", r.text());
}

/// CSV exports: a name a spreadsheet would run as a formula is written as text (OWASP), in
/// standings, crosstable and pairing sheet alike; numbers stay numbers.
#[test]
fn csv_exports_do_not_run_formulas() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let names = [
        "=HYPERLINK(\"http://evil\",\"x\")",
        "+SUM(1)",
        "-2+3",
        "@cmd",
    ];
    let list: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": list }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 3}));
    assert_eq!(r.status, 200, "{}", r.text());
    for path in ["standings", "crosstable", "rounds/1"] {
        let csv = s
            .get(&format!("/api/v1/events/{event}/{path}?format=csv"))
            .text();
        for cell in csv.lines().flat_map(split_csv) {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']) || is_number(&cell),
                "{path}: cell {cell:?} in\n{csv}"
            );
        }
        assert!(csv.contains("'=HYPERLINK"), "{path}: {csv}");
        assert!(csv.contains("'-2+3"), "{path}: {csv}");
    }
}

fn is_number(cell: &str) -> bool {
    cell.parse::<f64>().is_ok()
}

/// Splits one CSV line (RFC 4180 quoting) into its cells.
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            (c, _) => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

/// Huge answers to small requests: round robin tables stop at 100 players.
#[test]
fn round_robin_tables_stop_at_100_players() {
    let s = spawn();
    let r = s.get("/api/v1/tables/berger?players=1000&double=true");
    r.problem(422);
    assert_eq!(r.fields(), vec!["players"]);
    s.get("/api/v1/tables/berger?players=101").problem(422);
    let r = s.get("/api/v1/tables/berger?players=100&double=true");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["rounds"].as_array().unwrap().len(), 198);
    assert!(r.body.len() < 1_000_000, "{} bytes", r.body.len());
}

/// `?offset=2⁶³` wrapped to a negative SQLite offset (page 1); now a 422.
#[test]
fn offsets_beyond_sqlite_integers_are_refused() {
    let s = spawn();
    s.create_event("round_robin");
    let r = s.get("/api/v1/events?offset=9223372036854775808");
    r.problem(422);
    assert_eq!(r.fields(), vec!["offset"]);
    let r = s.get("/api/v1/events?offset=9223372036854775807");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["items"], json!([]));
}

/// A bye for round 100 000 of a 5-round event is refused.
#[test]
fn byes_only_for_the_planned_rounds() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Swiss", "game": "chess", "format": "swiss", "settings": {"rounds": 5}}),
    );
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    let players = s.add_players(event, &admin, 4);
    let id = players[0]["id"].as_i64().unwrap();
    let path = format!("/api/v1/events/{event}/byes");
    for round in [100_000, 6, 0] {
        let r = s.send(
            "POST",
            &path,
            Some(&admin),
            &json!({"participant_id": id, "round": round, "points": 0.5}),
        );
        r.problem(422);
        assert_eq!(r.fields(), vec!["round"], "{round}");
    }
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"participant_id": id, "round": 5, "points": 0.5}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
}

/// A bridge event counts its movement's rounds.
#[test]
fn a_bridge_event_counts_its_movement_rounds() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Tuesday pairs", "game": "bridge", "format": "pairs"}),
    );
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    s.add_players(event, &admin, 14);
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["rounds"],
        0
    );
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["rounds"],
        7
    );
}

/// Movement validation of pair, set and board numbers of 4·10⁹: invalid, not a crash.
#[test]
fn movement_numbers_of_four_billion_are_invalid() {
    let s = spawn();
    let mut m = s
        .get("/api/v1/movements/mitchell?tables=3&boards_per_round=2")
        .json();
    m.as_object_mut().unwrap().remove("report");
    let check = |m: &Value| {
        let r = s.send("POST", "/api/v1/movements/validate", None, m);
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["valid"].as_bool().unwrap()
    };
    assert!(check(&m));
    for pointer in [
        "/rounds/0/tables/0/ns",
        "/rounds/0/tables/0/set",
        "/rounds/0/tables/0/boards/0",
        "/boards_per_round",
    ] {
        let mut bad = m.clone();
        *bad.pointer_mut(pointer).unwrap() = json!(4_000_000_000u32);
        assert!(!check(&bad), "{pointer}");
    }
}
