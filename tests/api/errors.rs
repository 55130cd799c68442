//! Bad input gets a clear 4xx problem and changes nothing.

use serde_json::json;

use crate::client::spawn;

#[test]
fn malformed_and_invalid_bodies_name_the_field() {
    let s = spawn();
    let r = s.request("POST", "/api/v1/events", &[], Some(b"{\"name\": "));
    r.problem(400);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"game": "chess", "format": "round_robin"}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["name"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "go", "format": "round_robin"}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["game"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "chess", "format": "knockout"}),
    );
    assert_eq!(r.fields(), vec!["format"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "chess", "format": "round_robin", "start_date": "2026-13-01"}),
    );
    assert_eq!(r.fields(), vec!["start_date"]);
    let r = s.send("POST", "/api/v1/events", None, &json!({"name": "X", "game": "chess", "format": "round_robin", "start_date": "2026-12-02", "end_date": "2026-12-01"}));
    assert_eq!(r.fields(), vec!["end_date"]);
    let r = s.send("POST", "/api/v1/events", None, &json!({"name": "X", "game": "chess", "format": "round_robin", "settings": {"tiebreaks": ["coin"]}}));
    assert_eq!(r.fields(), vec!["settings.tiebreaks[0]"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "chess", "format": "round_robin", "colour": "red"}),
    );
    r.problem(422);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "  ", "game": "chess", "format": "round_robin"}),
    );
    assert_eq!(r.fields(), vec!["name"]);
    // Nothing was created by any of these.
    assert_eq!(s.get("/api/v1/events").json()["total"], 0);
    // Unknown ids and paths.
    s.get("/api/v1/events/12345").problem(404);
    assert_eq!(s.get("/api/v1/events/abc").fields(), ["event_id"]);
    s.get("/api/v1/nothing").problem(404);
    s.get("/api/v1/events?limit=0").problem(422);
}

#[test]
fn a_bulk_entry_is_all_or_nothing() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants/bulk");
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"participants": [{"name": "A"}, {"name": ""}, {"name": "C", "rating": -5}]}),
    );
    r.problem(422);
    assert_eq!(
        r.fields(),
        vec!["participants[1].name", "participants[2].rating"]
    );
    // A duplicate external id conflicts: the first entry must not stay behind.
    let r = s.send("POST", &path, Some(&admin), &json!({"participants": [{"name": "A", "external_id": "7"}, {"name": "B", "external_id": "7"}]}));
    r.problem(409);
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["participants"],
        0
    );
}

#[test]
fn bad_results_are_refused_and_store_nothing() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 4);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/lots"),
        Some(&admin),
        &json!({"method": "random", "seed": 1}),
    );
    let path = format!("/api/v1/events/{event}/results");
    let r = s.send("POST", &path, Some(&admin), &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}, {"round": 1, "board": 2, "result": "2-0"}]}));
    r.problem(422);
    assert_eq!(r.fields(), vec!["results[1].result"]);
    // A game that is not there: 409, and the valid first entry is not stored either.
    let r = s.send("POST", &path, Some(&admin), &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}, {"round": 9, "board": 1, "result": "1-0"}]}));
    r.problem(409);
    // Two results for one game that contradict each other.
    let r = s.send("POST", &path, Some(&admin), &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}, {"round": 1, "board": 1, "result": "0-1"}]}));
    r.problem(422);
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"results": [{"game_id": 1, "round": 1, "result": "1-0"}]}),
    );
    r.problem(422);
    s.send("POST", &path, Some(&admin), &json!({"results": []}))
        .problem(422);
    let round = s.get(&format!("/api/v1/events/{event}/rounds/1")).json();
    assert!(round["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["result"].is_null()));
    // A wrong lots method.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/lots"),
        Some(&admin),
        &json!({"method": "rating", "seed": 4}),
    );
    assert_eq!(r.fields(), vec!["seed"]);
}
