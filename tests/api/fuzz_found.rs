//! Faults scripts/fuzz-api found (schemathesis over live events of every kind, the import
//! with changed documents), each a request that once got a 5xx or an undocumented answer.

use serde_json::{json, Value};

use crate::bridge_results::mitchell_event;
use crate::bridge_team_events::{add_bridge_team, bridge_event, draw_lots_by_rating};
use crate::client::{spawn, TestServer};
use crate::export::export;

/// A client that sends its token with every request (as schemathesis does) and has had 20
/// bad credentials refused still reads the public pages: a public read ignores the token, so
/// it is never refused for it (its answers document no 429); another guess still waits.
#[test]
fn a_public_read_with_a_token_is_not_refused_after_bad_credentials() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    let body = serde_json::json!({"name": "Guess"});
    for i in 0..tourney::server::guard::MAX_FAILURES {
        assert_eq!(
            s.send("POST", &path, Some(&format!("guess-{i}")), &body)
                .status,
            401
        );
    }
    let auth = format!("Bearer {admin}");
    let headers = [("Authorization", auth.as_str())];
    for read in [
        format!("/api/v1/events/{event}"),
        path.clone(),
        format!("/api/v1/events/{event}/standings"),
    ] {
        let r = s.request("GET", &read, &headers, None);
        assert_eq!(r.status, 200, "{read}: {}", r.text());
    }
    // The event's export checks the token: a guess waits there like at a write.
    let guess = [("Authorization", "Bearer guess-again")];
    let r = s.request(
        "GET",
        &format!("/api/v1/events/{event}/export"),
        &guess,
        None,
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(
        s.send("POST", &path, Some("guess-again"), &body).status,
        429
    );
}

/// Imports `document` and expects a 422 naming exactly `field`, with no event added.
fn refused(s: &TestServer, document: &Value, field: &str) {
    let before = s.get("/api/v1/events").json()["total"].clone();
    let r = s.send("POST", "/api/v1/events/import", None, document);
    assert_eq!(r.status, 422, "{field}: {}", r.text());
    assert_eq!(r.fields(), [field], "{}", r.text());
    assert_eq!(s.get("/api/v1/events").json()["total"], before);
}

/// An exported document with one value changed: every read of the imported event used to
/// fail (a 500 on the movement, the standings, the pages) or the import itself answered 500.
/// Each is refused with a 422 naming the cell, and nothing is written.
#[test]
fn an_import_whose_rows_the_server_cannot_read_is_refused_naming_the_cell() {
    let s = spawn();
    // A pairs event: its movement (JSON) and board results.
    let (pairs, admin) = mitchell_event(&s, json!({}));
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{pairs}/board-results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "table": 1, "board": 1, "contract": "4S", "declarer": "N", "tricks": 10}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let good = export(&s, pairs, &admin);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/tables/movements/0/movement/rounds/0/tables/0/boards/0",
            json!(-1),
            "tables.movements[0].movement",
        ),
        (
            "/tables/movements/0/movement/rounds/0/tables/0",
            json!("<script>"),
            "tables.movements[0].movement",
        ),
        (
            "/tables/movements/0/movement/tables",
            json!(4294967296u64),
            "tables.movements[0].movement",
        ),
        (
            "/tables/board_results/0/board",
            json!(4294967296u64),
            "tables.board_results[0].board",
        ),
        (
            "/tables/board_results/0/tricks",
            json!(-1),
            "tables.board_results[0].tricks",
        ),
        (
            "/tables/events/0/start_date",
            json!("<script>"),
            "tables.events[0].start_date",
        ),
        (
            "/tables/events/0/end_date",
            json!("2026-11-23T18:05:57Z"),
            "tables.events[0].end_date",
        ),
    ];
    for (pointer, value, field) in cases {
        let mut bad = good.clone();
        *bad.pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        refused(&s, &bad, field);
    }
    // Dates that read but that creating an event refuses: the end before the start.
    let mut bad = good.clone();
    *bad.pointer_mut("/tables/events/0/start_date").unwrap() = json!("2026-11-23");
    *bad.pointer_mut("/tables/events/0/end_date").unwrap() = json!("2026-11-22");
    refused(&s, &bad, "tables.events[0].end_date");
    // A movement that reads but cannot be played (table 1 twice in round 1).
    let mut bad = good.clone();
    let tables = bad
        .pointer_mut("/tables/movements/0/movement/rounds/0/tables")
        .unwrap();
    let first = tables[0].clone();
    tables.as_array_mut().unwrap().push(first);
    refused(&s, &bad, "tables.movements[0].movement");

    // A teams event: its team movement (JSON), members' boards and entered matches.
    let (teams, admin) = bridge_event(
        &s,
        "teams",
        json!({"kind": "round_robin", "boards_per_match": 2}),
    );
    for k in 1..=4 {
        assert_eq!(add_bridge_team(&s, teams, &admin, k, 4).status, 201);
    }
    assert_eq!(draw_lots_by_rating(&s, teams, &admin).status, 200);
    let m = s
        .get(&format!("/api/v1/events/{teams}/team-movement"))
        .json()["matches"][0]
        .clone();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{teams}/matches"),
        Some(&admin),
        &json!({"matches": [{"round": m["halves"][0]["round"], "home": m["home"], "away": m["away"], "vp_home": 12.5, "vp_away": 7.5}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let good = export(&s, teams, &admin);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/tables/team_schedules/0/movement/matches/0/set",
            json!([1, 2]),
            "tables.team_schedules[0].movement",
        ),
        (
            "/tables/team_schedules/0/movement/teams",
            json!(1000),
            "tables.team_schedules[0].movement",
        ),
        (
            "/tables/participants/0/team_board",
            Value::Null,
            "tables.participants[0].team_board",
        ),
        (
            "/tables/match_results/0/vp_home",
            json!(1e308),
            "tables.match_results[0].vp_home",
        ),
        (
            "/tables/teams/0/number",
            json!(-9223372036854775807i64),
            "tables.teams[0].number",
        ),
    ];
    for (pointer, value, field) in cases {
        let mut bad = good.clone();
        *bad.pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        refused(&s, &bad, field);
    }
    // The documents as exported still import, and read back.
    let r = s.send("POST", "/api/v1/events/import", None, &good);
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    for read in ["team-movement", "vp-standings", "matches", "teams"] {
        let r = s.get(&format!("/api/v1/events/{id}/{read}"));
        assert_eq!(r.status, 200, "{read}: {}", r.text());
    }
}

/// A name with a bidirectional override (U+202E) would display the rest of its standings line
/// reversed, and a line separator (U+2028) breaks lines in readers of the CSV and TRF files:
/// both are refused like the control characters, naming the field; right-to-left marks,
/// accents, other scripts and emoji are names like any other.
#[test]
fn names_with_bidi_overrides_or_line_separators_are_refused() {
    let s = spawn();
    let (event, admin) = s.create_event("swiss");
    let path = format!("/api/v1/events/{event}/participants");
    for name in [
        "Ali\u{202E}nnA",
        "one\u{2028}two",
        "x\u{2066}y\u{2069}",
        "p\u{2029}",
    ] {
        let r = s.send("POST", &path, Some(&admin), &json!({"name": name}));
        assert_eq!(r.status, 422, "{name:?}: {}", r.text());
        assert_eq!(r.fields(), ["name"], "{name:?}");
    }
    let r = s.send(
        "POST",
        &format!("{path}/bulk"),
        Some(&admin),
        &json!({"participants": [{"name": "ok"}, {"name": "b\u{202D}ad"}]}),
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.fields(), ["participants[1].name"]);
    for name in ["\u{5D3}\u{5D5}\u{5D3} \u{200F}", "Zhōu 周", "Ødegård 😀"] {
        let r = s.send("POST", &path, Some(&admin), &json!({"name": name}));
        assert_eq!(r.status, 201, "{name:?}: {}", r.text());
    }
    assert_eq!(s.get(&path).json()["total"], 3);
}

/// An event's details are an object: an array of their fields in order (`[null, null]`,
/// which serde would read as a struct) is refused naming `details`, on creation and in a
/// PATCH, and nothing is created or changed; a chess event's hand records are a 409.
#[test]
fn details_are_an_object_never_an_array_and_a_chess_event_has_no_hand_records() {
    let s = spawn();
    let events_before = s.get("/api/v1/events").json()["total"].clone();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Open", "game": "chess", "format": "round_robin", "details": [null, null]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["details".to_string()]);
    assert_eq!(s.get("/api/v1/events").json()["total"], events_before);
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}");
    let before = s.get(&path).json();
    let r = s.send("PATCH", &path, Some(&admin), &json!({"details": ["Oslo"]}));
    r.problem(422);
    assert_eq!(r.fields(), vec!["details".to_string()]);
    assert_eq!(s.get(&path).json()["details"], before["details"]);
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"details": {"place": "Oslo"}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(s.get(&path).json()["details"]["place"], "Oslo");
    s.get(&format!("/api/v1/events/{event}/deals")).problem(409);
}
