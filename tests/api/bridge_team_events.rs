//! Bridge teams events (format `teams`) through the API: teams, lots and the team movement,
//! board results scored into matches, matches entered as IMPs or VPs, VP standings and the
//! cross-table, and bad input refused with nothing stored.

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::client::{spawn, Response, TestServer};

/// Creates a bridge event of `format` with `settings`; (id, admin token).
pub fn bridge_event(s: &TestServer, format: &str, settings: Value) -> (i64, String) {
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Bridge event", "game": "bridge", "format": format, "settings": settings}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["id"].as_i64().unwrap(),
        v["admin_token"].as_str().unwrap().to_string(),
    )
}

/// Enters team `k` with `size` players (average rating falling with k).
pub fn add_bridge_team(s: &TestServer, event: i64, token: &str, k: usize, size: usize) -> Response {
    let members: Vec<Value> = (0..size)
        .map(|i| json!({"name": format!("Team {k} player {}", i + 1), "rating": 2000 - 10 * k as i64 - i as i64}))
        .collect();
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(token),
        &json!({"name": format!("Team {k}"), "members": members}),
    )
}

/// Draws lots by rating as a director who has just read the event (its ETag as `If-Match`,
/// which drawing again needs).
pub fn draw_lots_by_rating(s: &TestServer, event: i64, token: &str) -> Response {
    s.draw_lots(event, token, json!({"method": "rating"}))
}

fn get_ok(s: &TestServer, path: &str) -> Value {
    let r = s.get(path);
    assert_eq!(r.status, 200, "{path}: {}", r.text());
    r.json()
}

fn teams_event(s: &TestServer, settings: Value, teams: usize) -> (i64, String) {
    let (id, token) = bridge_event(s, "teams", settings);
    for k in 1..=teams {
        let r = add_bridge_team(s, id, &token, k, 4 + k % 3);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    (id, token)
}

#[test]
fn a_round_robin_teams_event_meets_every_team_once_and_scores_board_results() {
    let s = spawn();
    let (id, token) = teams_event(&s, json!({"kind": "round_robin", "boards_per_match": 2}), 6);
    let r = draw_lots_by_rating(&s, id, &token);
    assert_eq!(r.status, 200, "{}", r.text());
    // The schedule is written at lots: every team meets every other exactly once.
    let m = get_ok(&s, &format!("/api/v1/events/{id}/team-movement"));
    assert_eq!(m["kind"], "round_robin");
    assert_eq!(m["report"]["valid"], true, "{}", m["report"]);
    let mut met = HashSet::new();
    for x in m["matches"].as_array().unwrap() {
        let (a, b) = (x["home"].as_u64().unwrap(), x["away"].as_u64().unwrap());
        assert!(met.insert((a.min(b), a.max(b))), "{a} v {b} twice");
    }
    assert_eq!(met.len(), 15);
    // The first match of round 1: both halves in round 1, on boards 1 and 2.
    let first = m["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["halves"][0]["round"] == 1)
        .unwrap()
        .clone();
    let (home, away) = (
        first["home"].as_u64().unwrap(),
        first["away"].as_u64().unwrap(),
    );
    assert_eq!(first["boards"], json!([1, 2]));
    let table_of = |ns: u64| {
        first["halves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["ns"] == ns)
            .unwrap()["table"]
            .as_u64()
            .unwrap()
    };
    let (home_table, away_table) = (table_of(home), table_of(away));
    // By hand. Board 1 (nobody vulnerable): home NS 4S by N, 10 tricks = +420; away NS 3NT by
    // S, 9 tricks = +400: +20 = 1 IMP to home. Board 2 (NS vulnerable): home NS an assigned
    // −100; away NS 4H by N, 10 tricks = +620: −720 = 12 IMPs to away. Margin 11 IMPs to away
    // over 2 boards: WBF 20-point scale, B = 15·√2 = 21.21, τ = 0.618:
    // 10 + 10·(1 − τ^(3·11/21.21))/(1 − τ³) = 16.90 to away, 3.10 to home.
    let rows = json!({"results": [
        {"round": 1, "table": home_table, "board": 1, "contract": "4S", "declarer": "N", "tricks": 10},
        {"round": 1, "table": away_table, "board": 1, "contract": "3NT", "declarer": "S", "result": "="},
        {"round": 1, "table": home_table, "board": 2, "ns_score": -100},
        {"round": 1, "table": away_table, "board": 2, "contract": "4H", "declarer": "N", "tricks": 10},
    ]});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/board-results"),
        Some(&token),
        &rows,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let scores: Vec<i64> = r.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["ns_score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, [420, 400, -100, 620]);
    let matches = get_ok(&s, &format!("/api/v1/events/{id}/matches"));
    let line = matches["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["home"] == home && l["away"] == away)
        .unwrap()
        .clone();
    assert_eq!(line["source"], "boards", "{line}");
    assert_eq!(line["results"], 4);
    let score = &line["score"];
    assert_eq!(
        score["boards"],
        json!([{"board": 1, "imps": 1}, {"board": 2, "imps": -12}])
    );
    assert_eq!(
        (score["imps_home"].as_u64(), score["imps_away"].as_u64()),
        (Some(1), Some(12))
    );
    assert_eq!(score["vp_home"].as_f64(), Some(3.10));
    assert_eq!(score["vp_away"].as_f64(), Some(16.90));
    // Another match of round 1 entered as VPs by a scoring program, named away side first.
    let other = matches["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["round"] == 1 && l["home"] != home)
        .unwrap()
        .clone();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/matches"),
        Some(&token),
        &json!({"matches": [{"round": 1, "home": other["away"], "away": other["home"], "vp_home": 14.25, "vp_away": 5.75}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let stored = &r.json()["matches"][0];
    assert_eq!(
        (stored["home"].clone(), stored["vp_home"].as_f64()),
        (other["home"].clone(), Some(5.75))
    );
    // Standings: VP totals, the away team of the scored match first; the cross-table.
    let st = get_ok(&s, &format!("/api/v1/events/{id}/vp-standings"));
    let rows = st["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0]["number"], away);
    assert_eq!(rows[0]["vps"].as_f64(), Some(16.90));
    assert_eq!(rows[0]["imp_quotient"].as_f64(), Some(12.0));
    let total: f64 = rows.iter().map(|r| r["vps"].as_f64().unwrap()).sum();
    assert!((total - 40.0).abs() < 1e-9, "{total}");
    let csv = s.get(&format!("/api/v1/events/{id}/vp-standings?format=csv"));
    assert_eq!(csv.status, 200);
    let text = csv.text();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("rank,number,name,matches,vps,imps_won,imps_lost,imp_quotient")
    );
    assert_eq!(
        lines.next().unwrap(),
        format!("1,{away},Team {away},1,16.90,12,1,12.000")
    );
    assert_eq!(lines.count(), 5);
    let cross = st["cross_table"].as_array().unwrap();
    let home_row = cross.iter().find(|r| r["team"] == home).unwrap();
    assert_eq!(home_row["matches"].as_array().unwrap().len(), 5);
    let cell = home_row["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["opponent"] == away)
        .unwrap();
    assert_eq!(cell["vps"].as_f64(), Some(3.10));
    assert_eq!(
        (cell["imps_won"].as_u64(), cell["imps_lost"].as_u64()),
        (Some(1), Some(12))
    );
}

#[test]
fn bad_input_is_refused_naming_the_field_and_nothing_is_stored() {
    let s = spawn();
    // An odd number of teams for a New England Relay: refused at lots, nothing drawn.
    let (id, token) = teams_event(&s, json!({"kind": "new_england_relay"}), 5);
    let r = draw_lots_by_rating(&s, id, &token);
    r.problem(422);
    assert_eq!(r.fields(), ["settings.kind"], "{}", r.text());
    assert!(r.text().contains("even numbers of teams"), "{}", r.text());
    assert_eq!(
        get_ok(&s, &format!("/api/v1/events/{id}"))["lots"],
        Value::Null
    );
    s.get(&format!("/api/v1/events/{id}/team-movement"))
        .problem(404);
    // A team of 3 players, and an unknown movement.
    add_bridge_team(&s, id, &token, 9, 3).problem(422);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "x", "game": "bridge", "format": "teams", "settings": {"kind": "howell"}}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["settings.kind"]);

    let (id, token) = teams_event(&s, json!({"kind": "round_robin", "boards_per_match": 4}), 4);
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let lines = get_ok(&s, &format!("/api/v1/events/{id}/matches"))["matches"].clone();
    let round1: Vec<&Value> = lines
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["round"] == 1)
        .collect();
    let (a, b) = (round1[0]["home"].clone(), round1[0]["away"].clone());
    let c = round1[1]["home"].clone();
    let post = |body: Value| {
        s.send(
            "POST",
            &format!("/api/v1/events/{id}/matches"),
            Some(&token),
            &body,
        )
    };
    // Teams that do not meet that round; VPs over 20; both in one request with a good one.
    let r = post(json!({"matches": [
        {"round": 1, "home": a, "away": b, "imps_home": 20, "imps_away": 3},
        {"round": 1, "home": a, "away": c, "imps_home": 10, "imps_away": 0},
        {"round": 1, "home": c, "away": round1[1]["away"], "vp_home": 21, "vp_away": -1},
    ]}));
    r.problem(422);
    assert_eq!(
        r.fields(),
        ["matches[1].away", "matches[2].vp_home"],
        "{}",
        r.text()
    );
    let r = post(json!({"matches": [{"round": 1, "home": a, "away": b, "vp_home": 12.5}]}));
    r.problem(422);
    assert_eq!(r.fields(), ["matches[0].vp_away"]);
    let r = post(
        json!({"matches": [{"round": 9, "home": a, "away": b, "imps_home": 1, "imps_away": 0}]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["matches[0].home"]);
    // Nothing stored: every match still without a result.
    let after = get_ok(&s, &format!("/api/v1/events/{id}/matches"));
    assert!(after["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["source"] == "incomplete" && l["score"].is_null()));
    // Matches of another format, and no token.
    let (chess, chess_token) = s.create_event("swiss");
    s.send(
        "POST",
        &format!("/api/v1/events/{chess}/matches"),
        Some(&chess_token),
        &json!({"matches": [{"round": 1, "home": 1, "away": 2, "vp_home": 10, "vp_away": 10}]}),
    )
    .problem(409);
    post_without_token(&s, id).problem(401);
}

fn post_without_token(s: &TestServer, id: i64) -> Response {
    s.send(
        "POST",
        &format!("/api/v1/events/{id}/matches"),
        None,
        &json!({"matches": [{"round": 1, "home": 1, "away": 2, "vp_home": 10, "vp_away": 10}]}),
    )
}

/// The WBF IMP table: the differences at which each IMP starts (20 → 1 ... 4000 → 24).
const IMP_STEPS: [i64; 24] = [
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750,
    2000, 2250, 2500, 3000, 3500, 4000,
];

fn imps(difference: i64) -> i64 {
    let n = IMP_STEPS.iter().filter(|&&s| difference.abs() >= s).count() as i64;
    n * difference.signum()
}

/// Every movement kind through the API: results at every table of every round, and every
/// match then scored from its two halves (wherever and whenever they were played), checked
/// against IMPs computed here.
#[test]
fn every_match_of_every_movement_is_scored_from_its_two_halves() {
    let s = spawn();
    let mut state = 0x7ea_u64;
    for (settings, teams) in [
        (
            json!({"kind": "new_england_relay", "boards_per_match": 2}),
            8,
        ),
        (json!({"kind": "round_robin", "boards_per_match": 2}), 7),
        (
            json!({"kind": "american_whist", "matches": 4, "boards_per_match": 2}),
            7,
        ),
        (json!({"kind": "mitchell_teams", "boards_per_match": 2}), 8),
    ] {
        let (id, token) = teams_event(&s, settings.clone(), teams);
        assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
        let m = get_ok(&s, &format!("/api/v1/events/{id}/team-movement"));
        assert_eq!(m["report"]["valid"], true, "{settings}: {}", m["report"]);
        let rounds = m["rounds"].as_array().unwrap();
        let event = get_ok(&s, &format!("/api/v1/events/{id}"));
        assert_eq!(event["rounds"].as_u64(), Some(rounds.len() as u64));
        let mut scores = std::collections::HashMap::new();
        let mut rows = Vec::new();
        for r in rounds {
            for t in r["tables"].as_array().unwrap() {
                if t["ns"].is_null() || t["ew"].is_null() {
                    continue;
                }
                for b in t["boards"].as_array().unwrap() {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let score = 10 * ((state >> 33) % 160) as i64 - 800;
                    let at = (
                        r["round"].as_u64().unwrap(),
                        t["table"].as_u64().unwrap(),
                        b.as_u64().unwrap(),
                    );
                    scores.insert(at, score);
                    rows.push(json!({"round": at.0, "table": at.1, "board": at.2, "ns_pair": t["ns"], "ew_pair": t["ew"], "ns_score": score}));
                }
            }
        }
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/board-results"),
            Some(&token),
            &json!({ "results": rows }),
        );
        assert_eq!(r.status, 200, "{settings}: {}", r.text());
        let lines = get_ok(&s, &format!("/api/v1/events/{id}/matches"))["matches"].clone();
        let lines = lines.as_array().unwrap();
        let planned = m["matches"].as_array().unwrap();
        assert_eq!(lines.len(), planned.len(), "{settings}");
        let mut met = HashSet::new();
        for x in planned {
            let (home, away) = (x["home"].as_u64().unwrap(), x["away"].as_u64().unwrap());
            assert!(
                met.insert((home.min(away), home.max(away))),
                "{settings}: {home} v {away} twice"
            );
            let half = |ns: u64| {
                let h = x["halves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|h| h["ns"] == ns)
                    .unwrap();
                (h["round"].as_u64().unwrap(), h["table"].as_u64().unwrap())
            };
            let (hr, ht) = half(home);
            let (ar, at) = half(away);
            let per_board: Vec<i64> = x["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    let b = b.as_u64().unwrap();
                    imps(scores[&(hr, ht, b)] - scores[&(ar, at, b)])
                })
                .collect();
            let line = lines
                .iter()
                .find(|l| l["home"] == home && l["away"] == away)
                .unwrap();
            assert_eq!(line["source"], "boards", "{settings}: {line}");
            let got: Vec<i64> = line["score"]["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["imps"].as_i64().unwrap())
                .collect();
            assert_eq!(got, per_board, "{settings}: {home} v {away}");
            let won: i64 = per_board.iter().filter(|&&i| i > 0).sum();
            assert_eq!(line["score"]["imps_home"].as_i64(), Some(won));
            let vps = line["score"]["vp_home"].as_f64().unwrap()
                + line["score"]["vp_away"].as_f64().unwrap();
            assert!((vps - 20.0).abs() < 1e-9);
        }
        if settings["kind"] != "american_whist" && settings["kind"] != "mitchell_teams" {
            assert_eq!(
                met.len(),
                teams * (teams - 1) / 2,
                "{settings}: every team meets every other"
            );
        }
    }
}

#[test]
fn a_scorer_enters_matches_but_only_the_admin_changes_them() {
    let s = spawn();
    let (id, admin) = teams_event(&s, json!({"boards_per_match": 4}), 4);
    assert_eq!(draw_lots_by_rating(&s, id, &admin).status, 200);
    let issued = s.send(
        "POST",
        &format!("/api/v1/events/{id}/tokens"),
        Some(&admin),
        &json!({"label": "scoring program"}),
    );
    assert_eq!(issued.status, 201, "{}", issued.text());
    let scorer = issued.json()["token"].as_str().unwrap().to_string();
    let lines = get_ok(&s, &format!("/api/v1/events/{id}/matches"))["matches"].clone();
    let (h, a) = (lines[0]["home"].clone(), lines[0]["away"].clone());
    let post = |token: &str, imps: u32| {
        s.send(
            "POST",
            &format!("/api/v1/events/{id}/matches"),
            Some(token),
            &json!({"matches": [{"round": 1, "home": h, "away": a, "imps_home": imps, "imps_away": 0}]}),
        )
    };
    assert_eq!(post(&scorer, 10).status, 200);
    // The same again changes nothing; a different result needs the admin.
    assert_eq!(post(&scorer, 10).status, 200);
    post(&scorer, 30).problem(409);
    let line = |s: &TestServer| {
        get_ok(s, &format!("/api/v1/events/{id}/matches"))["matches"][0]["score"].clone()
    };
    assert_eq!(line(&s)["imps_home"], 10);
    assert_eq!(post(&admin, 30).status, 200);
    assert_eq!(line(&s)["imps_home"], 30);
    assert_eq!(line(&s)["boards"], json!([]), "entered as IMPs: no boards");
    // A change moves the event's version: the standings' ETag changes.
    let before = s.get(&format!("/api/v1/events/{id}/vp-standings"));
    let etag = before.header("etag").unwrap().to_string();
    assert_eq!(post(&admin, 31).status, 200);
    let after = s.get(&format!("/api/v1/events/{id}/vp-standings"));
    assert_ne!(after.header("etag").unwrap(), etag);
}

#[test]
fn settings_change_the_team_movement_until_results_are_in() {
    let s = spawn();
    let (id, token) = teams_event(&s, json!({"boards_per_match": 4}), 4);
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let patch = |settings: Value| {
        s.send(
            "PATCH",
            &format!("/api/v1/events/{id}"),
            Some(&token),
            &json!({ "settings": settings }),
        )
    };
    let movement = || get_ok(&s, &format!("/api/v1/events/{id}/team-movement"));
    // A movement the teams cannot play: refused, the old one stays.
    let r = patch(json!({"kind": "american_whist"}));
    r.problem(422);
    assert_eq!(r.fields(), ["settings.kind"]);
    assert_eq!(movement()["kind"], "round_robin");
    assert_eq!(patch(json!({"boards_per_match": 6})).status, 200);
    assert_eq!(movement()["boards_per_round"], 6);
    let line = get_ok(&s, &format!("/api/v1/events/{id}/matches"))["matches"][0].clone();
    assert_eq!(line["boards"], 6);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/matches"),
        Some(&token),
        &json!({"matches": [{"round": 1, "home": line["home"], "away": line["away"], "vp_home": 12, "vp_away": 8}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    patch(json!({"boards_per_match": 8})).problem(409);
    assert_eq!(movement()["boards_per_round"], 6);

    let (id, token) =
        crate::bridge_team_events::bridge_event(&s, "swiss_teams", json!({"boards_per_match": 4}));
    for k in 1..=4 {
        assert_eq!(add_bridge_team(&s, id, &token, k, 4).status, 201);
    }
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&token),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let patch = |settings: Value| {
        s.send(
            "PATCH",
            &format!("/api/v1/events/{id}"),
            Some(&token),
            &json!({ "settings": settings }),
        )
    };
    patch(json!({"boards_per_match": 6})).problem(409);
    assert_eq!(
        patch(json!({"boards_per_match": 4, "rounds": 3})).status,
        200
    );
}
