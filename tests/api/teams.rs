//! Chess team events (Scheveningen matches, Hilton jamboree pairings) through the API: teams,
//! lots, the schedule against the stateless tables, results, individual and team standings.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};

pub(crate) fn event_with(s: &TestServer, format: &str, settings: Value) -> (i64, String) {
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Team event", "game": "chess", "format": format, "settings": settings}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["id"].as_i64().unwrap(),
        v["admin_token"].as_str().unwrap().to_string(),
    )
}

fn team_body(name: &str, size: usize, top_rating: i64) -> Value {
    let members: Vec<Value> = (0..size)
        .map(|i| json!({"name": format!("{name} {}", i + 1), "rating": top_rating - 10 * i as i64, "federation": "ENG"}))
        .collect();
    json!({"name": name, "members": members})
}

pub(crate) fn add_team(
    s: &TestServer,
    event: i64,
    token: &str,
    name: &str,
    size: usize,
    top: i64,
) -> Value {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(token),
        &team_body(name, size, top),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(r.header("location").is_some());
    r.json()
}

fn round(s: &TestServer, event: i64, n: usize) -> Value {
    let r = s.get(&format!("/api/v1/events/{event}/rounds/{n}"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// "A3": the letter and board of a game side.
fn side_code(side: &Value) -> String {
    format!(
        "{}{}",
        side["letter"].as_str().unwrap(),
        side["board"].as_u64().unwrap()
    )
}

fn results(s: &TestServer, event: i64, token: &str, entries: Vec<Value>) {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(token),
        &json!({ "results": entries }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

/// Half-points of (white, black).
fn halves(result: &str) -> (u32, u32) {
    match result {
        "1-0" | "+/-" => (2, 0),
        "0-1" | "-/+" => (0, 2),
        "1/2-1/2" => (1, 1),
        _ => (0, 0),
    }
}

#[test]
fn scheveningen_match_from_teams_to_match_score() {
    let s = spawn();
    let (event, admin) = event_with(&s, "scheveningen", json!({}));
    let hastings = add_team(&s, event, &admin, "Hastings", 4, 2300);
    assert_eq!(hastings["members"].as_array().unwrap().len(), 4);
    assert_eq!(hastings["members"][2]["board"], 3);
    assert_eq!(hastings["members"][2]["participant"]["name"], "Hastings 3");
    assert_eq!(hastings["number"], Value::Null);
    assert_eq!(hastings["average_rating"], 2285.0);
    let oxford = add_team(&s, event, &admin, "Oxford", 4, 2400);
    // A match is between exactly two teams.
    let third = s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(&admin),
        &team_body("Cambridge", 4, 2000),
    );
    assert!(third.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains("exactly 2 teams"));

    // By rating: Oxford (higher average) is team A; its members get pairing numbers 1-4.
    let drawn = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(drawn.status, 200, "{}", drawn.text());
    let drawn = drawn.json();
    let numbered: Vec<&str> = drawn["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        numbered,
        [
            "Oxford 1",
            "Oxford 2",
            "Oxford 3",
            "Oxford 4",
            "Hastings 1",
            "Hastings 2",
            "Hastings 3",
            "Hastings 4"
        ]
    );
    let teams = s.get(&format!("/api/v1/events/{event}/teams")).json();
    assert_eq!(teams["total"], 2);
    assert_eq!(teams["items"][0]["id"], oxford["id"]);
    assert_eq!(teams["items"][0]["letter"], "A");
    assert_eq!(teams["items"][1]["letter"], "B");
    let one = s.get(&format!("/api/v1/events/{event}/teams/{}", hastings["id"]));
    assert_eq!(one.status, 200);
    assert_eq!(one.json()["number"], 2);

    // The schedule is the 4-board table, player for player.
    let table = s.get("/api/v1/tables/scheveningen?boards=4").json();
    let mut met = HashSet::new();
    let mut entries = Vec::new();
    let mut expected: HashMap<String, u32> = HashMap::new(); // team letter -> half-points
    let mut player_halves: HashMap<i64, u32> = HashMap::new();
    let notations = ["1-0", "0-1", "1/2-1/2", "1-0", "1/2-1/2"];
    for r in 1..=4 {
        let games = round(&s, event, r)["games"].as_array().unwrap().clone();
        let want = table["rounds"][r - 1]["games"].as_array().unwrap();
        assert_eq!(games.len(), 4);
        for (g, t) in games.iter().zip(want) {
            assert_eq!(g["board"], t["board"]);
            assert_eq!(g["teams"]["team_board"], t["board"]);
            assert_eq!(
                side_code(&g["teams"]["white"]),
                t["white"].as_str().unwrap()
            );
            assert_eq!(
                side_code(&g["teams"]["black"]),
                t["black"].as_str().unwrap()
            );
            let (w, b) = (&g["teams"]["white"], &g["teams"]["black"]);
            assert_ne!(w["letter"], b["letter"]);
            let (a_side, b_side) = if w["letter"] == "A" { (w, b) } else { (b, w) };
            assert!(met.insert((side_code(a_side), side_code(b_side))));
            let result = notations[entries.len() % notations.len()];
            let (wh, bh) = halves(result);
            *expected
                .entry(w["letter"].as_str().unwrap().into())
                .or_default() += wh;
            *expected
                .entry(b["letter"].as_str().unwrap().into())
                .or_default() += bh;
            *player_halves
                .entry(g["white"]["id"].as_i64().unwrap())
                .or_default() += wh;
            *player_halves
                .entry(g["black"]["id"].as_i64().unwrap())
                .or_default() += bh;
            entries.push(json!({"round": r, "board": g["board"], "result": result}));
        }
    }
    // Every A player meets every B player exactly once.
    assert_eq!(met.len(), 16);

    // The schedule is fixed: no team enters or leaves.
    s.delete(
        &format!("/api/v1/events/{event}/teams/{}", hastings["id"]),
        Some(&admin),
    )
    .problem(409);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(&admin),
        &team_body("Late", 4, 2000),
    )
    .problem(409);

    // Half the results: the match is not complete, no match points yet.
    results(&s, event, &admin, entries[..8].to_vec());
    let partial = s
        .get(&format!("/api/v1/events/{event}/team-standings"))
        .json();
    assert_eq!(partial["matches"][0]["complete"], false);
    assert_eq!(partial["matches"][0]["results"], 8);
    assert_eq!(partial["matches"][0]["match_points_a"], Value::Null);
    results(&s, event, &admin, entries[8..].to_vec());

    let ts = s
        .get(&format!("/api/v1/events/{event}/team-standings"))
        .json();
    assert_eq!(ts["order"], "match_points");
    let (a, b) = (expected["A"], expected["B"]);
    assert_eq!(a + b, 32);
    let m = &ts["matches"][0];
    assert_eq!(m["team_a"]["name"], "Oxford");
    assert_eq!(m["games"], 16);
    assert_eq!(m["complete"], true);
    assert_eq!(m["points_a"], a as f64 / 2.0);
    assert_eq!(m["points_b"], b as f64 / 2.0);
    let fmt = |h: u32| match (h / 2, h % 2) {
        (0, 1) => "½".to_string(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    };
    assert_eq!(m["score"], format!("{}–{}", fmt(a), fmt(b)));
    let (mpa, mpb) = match a.cmp(&b) {
        std::cmp::Ordering::Greater => (2, 0),
        std::cmp::Ordering::Less => (0, 2),
        std::cmp::Ordering::Equal => (1, 1),
    };
    assert_eq!(
        (m["match_points_a"].clone(), m["match_points_b"].clone()),
        (json!(mpa), json!(mpb))
    );
    let rows = ts["standings"].as_array().unwrap();
    let by_letter: HashMap<&str, &Value> = rows
        .iter()
        .map(|r| (r["team"]["letter"].as_str().unwrap(), r))
        .collect();
    assert_eq!(by_letter["A"]["match_points"], mpa);
    assert_eq!(by_letter["A"]["game_points"], a as f64 / 2.0);
    assert_eq!(by_letter["B"]["game_points"], b as f64 / 2.0);
    assert_eq!(by_letter["A"]["games"], 16);
    assert_eq!(rows[0]["rank"], 1);

    // Individual standings agree with the games, and sum to the team scores.
    let st = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let st = st["standings"].as_array().unwrap();
    assert_eq!(st.len(), 8);
    for row in st {
        let id = row["participant"]["id"].as_i64().unwrap();
        assert_eq!(row["points"], player_halves[&id] as f64 / 2.0);
    }
    let ct = s.get(&format!("/api/v1/events/{event}/crosstable")).json();
    assert_eq!(ct["rows"].as_array().unwrap().len(), 8);

    let csv = s.get(&format!("/api/v1/events/{event}/team-standings?format=csv"));
    assert_eq!(csv.status, 200);
    let text = csv.text();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("Rank,Team,Letter,MatchPoints,GamePoints,Games,Results,Won,Drawn,Lost")
    );
    assert_eq!(lines.count(), 2);

    // Lots cannot be drawn again once results exist.
    s.draw_lots(event, &admin, json!({"method": "random"}))
        .problem(409);
}

#[test]
fn hilton_jamboree_rounds_match_the_table_and_team_standings_add_up() {
    let s = spawn();
    let (event, admin) = event_with(&s, "hilton", json!({}));
    let names = ["Ashford", "Bath", "Crewe", "Derby", "Ely", "Frome"];
    for (i, name) in names.iter().enumerate() {
        add_team(&s, event, &admin, name, 5, 2000 + 37 * i as i64);
    }
    let drawn = s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    assert_eq!(drawn.status, 200, "{}", drawn.text());
    assert_eq!(drawn.json()["participants"].as_array().unwrap().len(), 30);
    let first: Vec<Value> = (1..=3).map(|r| round(&s, event, r)).collect();
    // The same seed draws the same team numbers and schedule.
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}))
            .status,
        200
    );
    let again: Vec<Value> = (1..=3).map(|r| round(&s, event, r)).collect();
    let pairs = |rs: &[Value]| -> Vec<(i64, i64)> {
        rs.iter()
            .flat_map(|r| r["games"].as_array().unwrap().clone())
            .map(|g| {
                (
                    g["white"]["id"].as_i64().unwrap(),
                    g["black"]["id"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(pairs(&first), pairs(&again));

    let table = s.get("/api/v1/tables/hilton?teams=6").json();
    assert_eq!(table["boards"], 5);
    let rounds = s.get(&format!("/api/v1/events/{event}/rounds")).json();
    assert_eq!(rounds["total"], 3);
    let mut met_team: HashSet<(i64, i64)> = HashSet::new(); // (player, opposing team)
    let mut entries = Vec::new();
    let mut team_halves: HashMap<i64, u32> = HashMap::new();
    let mut between: HashMap<(String, String), (u32, u32)> = HashMap::new();
    let notations = ["1-0", "1/2-1/2", "0-1", "1-0", "-/+", "0-1", "1/2-1/2"];
    for r in 1..=3 {
        let games = round(&s, event, r)["games"].as_array().unwrap().clone();
        let want = table["rounds"][r - 1]["games"].as_array().unwrap();
        assert_eq!(games.len(), 15);
        let mut team_pairs = HashSet::new();
        for (k, (g, t)) in games.iter().zip(want).enumerate() {
            // `board` numbers the games of the round; `team_board` is the table's board.
            assert_eq!(g["board"], k as u64 + 1);
            let tm = &g["teams"];
            assert_eq!(tm["team_board"], t["board"]);
            assert_eq!(tm["white"]["board"], t["board"]);
            assert_eq!(tm["black"]["board"], t["board"]);
            assert_eq!(tm["white"]["letter"], t["white"]);
            assert_eq!(tm["black"]["letter"], t["black"]);
            let (wt, bt) = (
                tm["white"]["id"].as_i64().unwrap(),
                tm["black"]["id"].as_i64().unwrap(),
            );
            assert!(
                team_pairs.insert((wt.min(bt), wt.max(bt))),
                "two teams met twice in round {r}"
            );
            let (wp, bp) = (
                g["white"]["id"].as_i64().unwrap(),
                g["black"]["id"].as_i64().unwrap(),
            );
            assert!(
                met_team.insert((wp, bt)),
                "a player met the same team twice"
            );
            assert!(
                met_team.insert((bp, wt)),
                "a player met the same team twice"
            );
            let result = notations[entries.len() % notations.len()];
            let (wh, bh) = halves(result);
            *team_halves.entry(wt).or_default() += wh;
            *team_halves.entry(bt).or_default() += bh;
            let (wl, bl) = (
                tm["white"]["letter"].as_str().unwrap().to_string(),
                tm["black"]["letter"].as_str().unwrap().to_string(),
            );
            if wl < bl {
                let e = between.entry((wl, bl)).or_default();
                e.0 += wh;
                e.1 += bh;
            } else {
                let e = between.entry((bl, wl)).or_default();
                e.0 += bh;
                e.1 += wh;
            }
            // Alternate the two ways of naming a game.
            entries.push(if k % 2 == 0 {
                json!({"round": r, "board": g["board"], "result": result})
            } else {
                json!({"game_id": g["id"], "result": result})
            });
        }
        // Each round every team meets every other team exactly once.
        assert_eq!(team_pairs.len(), 15);
    }
    results(&s, event, &admin, entries);

    let ts = s
        .get(&format!("/api/v1/events/{event}/team-standings"))
        .json();
    assert_eq!(ts["order"], "game_points");
    let rows = ts["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let mut total_mp = 0;
    for w in rows.windows(2) {
        assert!(w[0]["game_points"].as_f64() >= w[1]["game_points"].as_f64());
    }
    for row in rows {
        let id = row["team"]["id"].as_i64().unwrap();
        assert_eq!(row["game_points"], team_halves[&id] as f64 / 2.0);
        assert_eq!(row["games"], 15);
        assert_eq!(row["results"], 15);
        assert_eq!(
            row["won"].as_u64().unwrap()
                + row["drawn"].as_u64().unwrap()
                + row["lost"].as_u64().unwrap(),
            5
        );
        total_mp += row["match_points"].as_u64().unwrap();
    }
    assert_eq!(total_mp, 30, "15 complete matches, 2 match points each");
    let matches = ts["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 15);
    for m in matches {
        assert_eq!(m["games"], 3, "two teams meet once a round");
        assert_eq!(m["complete"], true);
        let key = (
            m["team_a"]["letter"].as_str().unwrap().to_string(),
            m["team_b"]["letter"].as_str().unwrap().to_string(),
        );
        let (a, b) = between[&key];
        assert_eq!(m["points_a"], a as f64 / 2.0);
        assert_eq!(m["points_b"], b as f64 / 2.0);
        let expect = if a > b {
            2
        } else if a == b {
            1
        } else {
            0
        };
        assert_eq!(m["match_points_a"], expect);
    }
    let st = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let total: f64 = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    let team_total: f64 = rows
        .iter()
        .map(|r| r["game_points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, team_total);
}

#[test]
fn hilton_boards_setting_extends_the_table() {
    let s = spawn();
    // Four teams of five: two boards beyond the optimum of three, colours reversed.
    let (event, admin) = event_with(&s, "hilton", json!({"boards": 5}));
    for (i, name) in ["W", "X", "Y", "Z"].iter().enumerate() {
        add_team(&s, event, &admin, name, 5, 1800 + 50 * i as i64);
    }
    let r = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let table = s.get("/api/v1/tables/hilton?teams=4&boards=5").json();
    for r in 1..=3 {
        let games = round(&s, event, r)["games"].as_array().unwrap().clone();
        let want = table["rounds"][r - 1]["games"].as_array().unwrap();
        assert_eq!(games.len(), want.len());
        assert_eq!(games.len(), 10);
        for (g, t) in games.iter().zip(want) {
            assert_eq!(g["teams"]["team_board"], t["board"]);
            assert_eq!(g["teams"]["white"]["letter"], t["white"]);
            assert_eq!(g["teams"]["black"]["letter"], t["black"]);
        }
    }
    // By rating: Z (highest average) is team A.
    let teams = s.get(&format!("/api/v1/events/{event}/teams")).json();
    assert_eq!(teams["items"][0]["name"], "Z");
    assert_eq!(teams["items"][0]["letter"], "A");
}

#[test]
fn team_entry_errors_name_the_problem() {
    let s = spawn();
    let (event, admin) = event_with(&s, "scheveningen", json!({}));
    let path = format!("/api/v1/events/{event}/teams");

    // No token 401, another event's token 403.
    s.send("POST", &path, None, &team_body("A", 2, 2000))
        .problem(401);
    let (_, other) = event_with(&s, "hilton", json!({}));
    s.send("POST", &path, Some(&other), &team_body("A", 2, 2000))
        .problem(403);

    // Bad members, each named.
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": "Empty", "members": []}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["members"]);
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": " ", "members": [{"name": "Ann", "rating": 5000}, {"name": "Bo"}, {"name": ""}]}),
    );
    r.problem(422);
    assert_eq!(
        r.fields(),
        vec!["name", "members[0].rating", "members[2].name"]
    );
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": "X", "members": [{"name": "Ann", "elo": 2000}]}),
    );
    r.problem(422);
    assert!(r.fields()[0].starts_with("members[0]"), "{:?}", r.fields());
    let r = s.send("POST", &path, Some(&admin), &team_body("Huge", 21, 2000));
    r.problem(422);
    assert_eq!(r.fields(), vec!["members"]);

    // Duplicate names 409; nothing of the refused team is stored.
    add_team(&s, event, &admin, "Hastings", 3, 2000);
    s.send("POST", &path, Some(&admin), &team_body("Hastings", 3, 2000))
        .problem(409);
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/participants"))
            .json()["total"],
        3
    );

    // One team: no match.
    let d = s
        .draw_lots(event, &admin, json!({"method": "rating"}))
        .problem(409);
    assert!(
        d["detail"].as_str().unwrap().contains("exactly 2 teams"),
        "{d}"
    );
    // Unequal sizes.
    let oxford = add_team(&s, event, &admin, "Oxford", 2, 2000);
    let d = s
        .draw_lots(event, &admin, json!({"method": "rating"}))
        .problem(409);
    let detail = d["detail"].as_str().unwrap();
    assert!(
        detail.contains("same number of players") && detail.contains("Oxford 2"),
        "{detail}"
    );
    // Delete before the schedule: 204, then it is gone with its players.
    assert_eq!(
        s.delete(&format!("{path}/{}", oxford["id"]), Some(&admin))
            .status,
        204
    );
    s.get(&format!("{path}/{}", oxford["id"])).problem(404);
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/participants"))
            .json()["total"],
        3
    );
    // A player cannot be entered outside a team.
    add_team(&s, event, &admin, "Oxford", 3, 2000);
    let loose = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        Some(&admin),
        &json!({"name": "Loose, Larry"}),
    );
    assert!(loose.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains("/teams"));
    // Nor can the format change while teams exist.
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"format": "round_robin"}),
    );
    r.problem(409);
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "rating"}))
            .status,
        200
    );
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/rounds")).json()["total"],
        3
    );

    // Scheveningen teams of one player: no match table.
    let (one, one_admin) = event_with(&s, "scheveningen", json!({}));
    add_team(&s, one, &one_admin, "P", 1, 2000);
    add_team(&s, one, &one_admin, "Q", 1, 2000);
    let d = s
        .draw_lots(one, &one_admin, json!({"method": "rating"}))
        .problem(409);
    assert!(
        d["detail"].as_str().unwrap().contains("2 to 20 boards"),
        "{d}"
    );
}

#[test]
fn team_counts_settings_and_formats_are_checked() {
    let s = spawn();
    // Teams only in team events; no team standings elsewhere.
    let (rr, rr_admin) = s.create_event("round_robin");
    let d = s
        .send(
            "POST",
            &format!("/api/v1/events/{rr}/teams"),
            Some(&rr_admin),
            &team_body("Hastings", 4, 2000),
        )
        .problem(409);
    assert!(d["detail"].as_str().unwrap().contains("round_robin"), "{d}");
    s.get(&format!("/api/v1/events/{rr}/team-standings"))
        .problem(404);

    // Hilton: the boards setting is checked when the event is made...
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "J", "game": "chess", "format": "hilton", "settings": {"boards": 0}}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.boards"]);
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "J", "game": "chess", "format": "scheveningen", "settings": {"boards": 4}}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.boards"]);

    // ...an odd number of teams, or too few, is refused at the draw...
    let (h, admin) = event_with(&s, "hilton", json!({"boards": 3}));
    for name in ["A", "B", "C"] {
        add_team(&s, h, &admin, name, 3, 2000);
    }
    let d = s
        .draw_lots(h, &admin, json!({"method": "random"}))
        .problem(409);
    assert!(
        d["detail"]
            .as_str()
            .unwrap()
            .contains("even number of teams"),
        "{d}"
    );
    add_team(&s, h, &admin, "D", 3, 2000);
    add_team(&s, h, &admin, "E", 3, 2000);
    let d = s
        .draw_lots(h, &admin, json!({"method": "random"}))
        .problem(409);
    assert!(d["detail"].as_str().unwrap().contains("has 5"), "{d}");
    // ...and every team must field exactly settings.boards players.
    add_team(&s, h, &admin, "F", 3, 2000);
    let patch = s.send(
        "PATCH",
        &format!("/api/v1/events/{h}"),
        Some(&admin),
        &json!({"settings": {"boards": 4}}),
    );
    assert_eq!(patch.status, 200, "{}", patch.text());
    let d = s
        .draw_lots(h, &admin, json!({"method": "random"}))
        .problem(409);
    assert!(
        d["detail"]
            .as_str()
            .unwrap()
            .contains("settings.boards is 4"),
        "{d}"
    );
    s.send(
        "PATCH",
        &format!("/api/v1/events/{h}"),
        Some(&admin),
        &json!({"settings": {"boards": 3}}),
    );
    // Six teams of three: the table truncated to its bottom three boards.
    assert_eq!(
        s.draw_lots(h, &admin, json!({"method": "random"})).status,
        200
    );
    let r1 = round(&s, h, 1);
    assert_eq!(r1["games"].as_array().unwrap().len(), 9);
    let table = s.get("/api/v1/tables/hilton?teams=6&boards=3").json();
    for (g, t) in r1["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(table["rounds"][0]["games"].as_array().unwrap())
    {
        assert_eq!(g["teams"]["white"]["letter"], t["white"]);
        assert_eq!(g["teams"]["black"]["letter"], t["black"]);
    }
    // Drawing again replaces the schedule while no result exists: equal averages, so by
    // rating the teams are numbered in entry order, and there are still three rounds.
    assert_eq!(
        s.draw_lots(h, &admin, json!({"method": "rating"})).status,
        200
    );
    let letters: Vec<(String, String)> = s.get(&format!("/api/v1/events/{h}/teams")).json()
        ["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().into(),
                t["letter"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = ["A", "B", "C", "D", "E", "F"]
        .iter()
        .map(|l| (l.to_string(), l.to_string()))
        .collect();
    assert_eq!(letters, want);
    assert_eq!(
        s.get(&format!("/api/v1/events/{h}/rounds")).json()["total"],
        3
    );
    let after = round(&s, h, 1);
    assert_eq!(after["games"].as_array().unwrap().len(), 9);
    for (g, t) in after["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(table["rounds"][0]["games"].as_array().unwrap())
    {
        assert_eq!(g["teams"]["white"]["name"], t["white"]);
        assert_eq!(g["teams"]["black"]["name"], t["black"]);
    }
    // Teams are fixed now.
    let team = s
        .get(&format!("/api/v1/events/{h}/teams?limit=1&offset=2"))
        .json();
    assert_eq!(team["total"], 6);
    assert_eq!(team["items"].as_array().unwrap().len(), 1);
    assert_eq!(team["items"][0]["number"], 3);
    s.delete(
        &format!("/api/v1/events/{h}/teams/{}", team["items"][0]["id"]),
        Some(&admin),
    )
    .problem(409);
    s.delete(
        &format!("/api/v1/events/{h}/teams/{}", team["items"][0]["id"]),
        None,
    )
    .problem(401);
}
