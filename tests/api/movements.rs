//! Bridge movements over the API: the public contract, the validator, the recommender, and
//! bridge pairs events with guide cards and scoring rows.

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::client::spawn;

#[test]
fn a_mitchell_has_the_contract_shape_and_a_report() {
    let s = spawn();
    let r = s.get("/api/v1/movements/mitchell?tables=7&boards_per_round=3");
    assert_eq!(r.status, 200, "{}", r.text());
    let m = r.json();
    assert_eq!(m["kind"], "mitchell");
    assert_eq!(m["tables"], 7);
    assert_eq!(m["pair_numbering"], "mitchell");
    assert_eq!(m["boards_per_round"], 3);
    let rounds = m["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 7);
    let t = &rounds[0]["tables"][0];
    for key in ["table", "ns", "ew", "set", "boards"] {
        assert!(t.get(key).is_some(), "table entry lacks {key}: {t}");
    }
    assert!(rounds[0]["sit_out"].is_array());
    let report = &m["report"];
    assert_eq!(report["valid"], true, "{report}");
    assert_eq!(report["errors"], json!([]));
    assert_eq!(
        report["times_each_board_played"],
        json!({"min": 7, "max": 7})
    );
    assert_eq!(report["boards_per_pair"], json!({"min": 21, "max": 21}));
    assert_eq!(report["max_meetings"], 1);
    for key in ["mean", "sd", "percent"] {
        assert!(report["balance"][key].is_number(), "balance.{key}");
    }
    // Every NS pair meets every EW pair once.
    let mut met = HashSet::new();
    for r in rounds {
        for t in r["tables"].as_array().unwrap() {
            assert!(met.insert((t["ns"].as_u64().unwrap(), t["ew"].as_u64().unwrap())));
        }
    }
    assert_eq!(met.len(), 49);
}

#[test]
fn a_howell_uses_howell_numbering() {
    let s = spawn();
    let m = s.get("/api/v1/movements/howell?tables=4").json();
    assert_eq!(m["pair_numbering"], "howell");
    assert_eq!(m["report"]["valid"], true, "{}", m["report"]);
    assert_eq!(m["rounds"].as_array().unwrap().len(), 7);
    assert_eq!(m["report"]["max_meetings"], 1);
}

#[test]
fn bad_movement_requests_name_the_field() {
    let s = spawn();
    s.get("/api/v1/movements/spiral?tables=5").problem(404);
    assert_eq!(s.get("/api/v1/movements/mitchell").fields(), vec!["tables"]);
    assert_eq!(
        s.get("/api/v1/movements/mitchell?tables=x").fields(),
        vec!["tables"]
    );
    assert_eq!(
        s.get("/api/v1/movements/mitchell?tables=7&half_table=north")
            .fields(),
        vec!["half_table"]
    );
    assert_eq!(
        s.get("/api/v1/movements/arrow_switch_mitchell?tables=7&switch_rounds=2,x")
            .fields(),
        vec!["switch_rounds"]
    );
    let r = s.get("/api/v1/movements/mitchell?tables=0");
    r.problem(422);
    assert_eq!(r.fields(), vec!["tables"]);
    let kinds = s.get("/api/v1/movements").json();
    assert_eq!(kinds["kinds"].as_array().unwrap().len(), 10);
}

fn broken_movement() -> Value {
    // Pair NS 1 is seated at two tables in round 1.
    json!({"kind": "custom", "tables": 2, "pair_numbering": "mitchell", "boards_per_round": 2, "rounds": [
        {"round": 1, "tables": [
            {"table": 1, "ns": 1, "ew": 1, "set": 1, "boards": [1, 2]},
            {"table": 2, "ns": 1, "ew": 2, "set": 2, "boards": [3, 4]}
        ], "sit_out": []}
    ]})
}

#[test]
fn the_validator_reports_errors_in_a_typed_in_movement() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/movements/validate",
        None,
        &broken_movement(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let report = r.json();
    assert_eq!(report["valid"], false);
    assert!(!report["errors"].as_array().unwrap().is_empty());
    // A generated movement validates clean when sent back.
    let mut m = s.get("/api/v1/movements/mitchell?tables=5").json();
    m.as_object_mut().unwrap().remove("report");
    let report = s
        .send("POST", "/api/v1/movements/validate", None, &m)
        .json();
    assert_eq!(report["valid"], true, "{report}");
    // Malformed shapes are 4xx, not 500.
    s.send(
        "POST",
        "/api/v1/movements/validate",
        None,
        &json!({"kind": "x"}),
    )
    .problem(422);
}

#[test]
fn the_recommender_ranks_movements() {
    let s = spawn();
    let r = s.get("/api/v1/movements/recommend?pairs=14&boards=24");
    assert_eq!(r.status, 200, "{}", r.text());
    let list = r.json();
    let list = list.as_array().unwrap();
    assert!(!list.is_empty());
    assert!(list
        .iter()
        .all(|x| x["kind"].is_string() && x["report"]["valid"] == true));
    assert_eq!(
        s.get("/api/v1/movements/recommend?boards=24").fields(),
        vec!["pairs"]
    );
}

#[test]
fn a_bridge_pairs_event_gets_guide_cards_and_scoring_rows() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Tuesday pairs", "game": "bridge", "format": "pairs"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    s.add_players(event, &admin, 14);
    let path = format!("/api/v1/events/{event}/movement");
    let r = s.send(
        "PUT",
        &path,
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["pairs"].as_array().unwrap().len(), 14);
    assert!(
        r.json()["pairs"][0]["participant"].is_null(),
        "no lots drawn yet"
    );
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    assert_eq!(r.status, 200, "{}", r.text());
    let m = s.get(&path).json();
    let seated: HashSet<i64> = m["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["participant"]["id"].as_i64().unwrap())
        .collect();
    assert_eq!(seated.len(), 14);
    assert_eq!(m["pairs"][0]["pair"], json!({"ns": 1}));
    assert_eq!(m["pairs"][7]["pair"], json!({"ew": 1}));

    let round2 = s
        .get(&format!("/api/v1/events/{event}/movement/rounds/2"))
        .json();
    let tables = round2["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 7);
    assert_eq!(tables[0]["ns"], 1);
    assert_eq!(tables[0]["ew"], 7, "EW pairs move up one table");
    assert!(tables.iter().all(
        |t| t["ns_participant"]["name"].is_string() && t["ew_participant"]["name"].is_string()
    ));
    s.get(&format!("/api/v1/events/{event}/movement/rounds/8"))
        .problem(404);
    let cards = s.get(&format!("/api/v1/events/{event}/guide-cards")).json();
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 14);
    for c in cards {
        assert!(c["participant"]["name"].is_string());
        assert_eq!(c["lines"].as_array().unwrap().len(), 7);
        let boards: HashSet<u64> = c["lines"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|l| {
                l["boards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_u64().unwrap())
            })
            .collect();
        assert_eq!(boards.len(), 21, "every pair plays 21 different boards");
    }
    let csv = s
        .get(&format!("/api/v1/events/{event}/scoring-rows?format=csv"))
        .text();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("section,table,round,ns_pair,ew_pair,low_board,high_board")
    );
    assert_eq!(lines.count(), 49);
    let rows = s
        .get(&format!("/api/v1/events/{event}/scoring-rows"))
        .json();
    let first = &rows["rows"][0];
    assert_eq!(
        first["high_board"].as_u64().unwrap() - first["low_board"].as_u64().unwrap(),
        2
    );

    // Custom movements must validate; chess events have no movement.
    let r = s.send(
        "PUT",
        &path,
        Some(&admin),
        &json!({"kind": "custom", "movement": broken_movement()}),
    );
    r.problem(422);
    assert_eq!(
        s.get(&path).json()["movement"]["kind"],
        "mitchell",
        "the failed change stored nothing"
    );
    let (chess, chess_admin) = s.create_event("round_robin");
    s.send(
        "PUT",
        &format!("/api/v1/events/{chess}/movement"),
        Some(&chess_admin),
        &json!({"kind": "mitchell", "options": {"tables": 3}}),
    )
    .problem(409);
    s.send(
        "PUT",
        &path,
        Some(&chess_admin),
        &json!({"kind": "mitchell", "options": {"tables": 3}}),
    )
    .problem(403);
}

/// Issue 14: a 3/4 Howell without `rounds` is the usual one and says which rounds exist;
/// an option a Howell does not read is a 422 naming it.
#[test]
fn a_three_quarter_howell_without_rounds_is_the_usual_one() {
    let s = spawn();
    let r = s.get("/api/v1/movements/three_quarter_howell?tables=6");
    assert_eq!(r.status, 200, "{}", r.text());
    let m = r.json();
    assert_eq!(m["rounds"].as_array().unwrap().len(), 8);
    let available = m["rounds_available"].as_array().unwrap();
    assert!(available.contains(&json!(8)) && available.contains(&json!(10)));
    assert!(s
        .get("/api/v1/movements/howell?tables=6")
        .json()
        .get("rounds_available")
        .is_none());
    for path in [
        "/api/v1/movements/howell?tables=6&rover=true",
        "/api/v1/movements/three_quarter_howell?tables=6&rover=true",
    ] {
        let r = s.get(path);
        r.problem(422);
        assert_eq!(r.fields(), vec!["rover"], "{path}");
    }
}

/// Issue 14: the 3-table Howell is served with half-sets (each table plays two half-sets a
/// round, named in `half_sets`), perfectly balanced; sent back to the validator it is clean;
/// a client that ignores `half_sets` still reads each table's `boards`; a half-set listed
/// with a half of 3 is a finding, not a 4xx or 500.
#[test]
fn a_three_table_howell_plays_half_sets() {
    let s = spawn();
    let r = s.get("/api/v1/movements/howell?tables=3&boards_per_round=4");
    assert_eq!(r.status, 200, "{}", r.text());
    let mut m = r.json();
    let pct = |r: &Value| r["balance"]["percent"].as_f64().unwrap();
    assert!(pct(&m["report"]) > 99.9999, "{}", m["report"]);
    assert_eq!(m["report"]["warnings"], json!([]));
    for round in m["rounds"].as_array().unwrap() {
        for t in round["tables"].as_array().unwrap() {
            let halves = t["half_sets"].as_array().unwrap();
            assert_eq!(halves.len(), 2, "{t}");
            assert_eq!(t["set"], halves[0]["set"]);
            assert_eq!(t["boards"].as_array().unwrap().len(), 4);
        }
    }
    m.as_object_mut().unwrap().remove("report");
    let report = s
        .send("POST", "/api/v1/movements/validate", None, &m)
        .json();
    assert_eq!(report["valid"], true, "{report}");
    assert!(pct(&report) > 99.9999);
    m["rounds"][0]["tables"][0]["half_sets"][1]["half"] = json!(3);
    let r = s.send("POST", "/api/v1/movements/validate", None, &m);
    assert_eq!(r.status, 200, "{}", r.text());
    let report = r.json();
    assert_eq!(report["valid"], false);
    assert!(
        report["errors"].to_string().contains("a half is 1 or 2"),
        "{report}"
    );
    // each round twice: rounds=10
    let m = s.get("/api/v1/movements/howell?tables=3&rounds=10").json();
    assert_eq!(m["rounds"].as_array().unwrap().len(), 10);
    assert_eq!(m["report"]["max_meetings"], 2);
    assert!(pct(&m["report"]) > 99.9999);
}
