//! Chess team Swiss events (C.04.6) through the API: teams with reserves, lots, each round's
//! team pairing, line-ups by captains, board results, team standings and the public page.

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};
use crate::teams::event_with;

fn team(s: &TestServer, event: i64, token: &str, name: &str, size: usize) -> Value {
    let members: Vec<Value> = (0..size)
        .map(|i| json!({"name": format!("{name} {}", i + 1), "rating": 2000 - 10 * i as i64}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(token),
        &json!({"name": name, "members": members}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn lineup(s: &TestServer, event: i64, round: u64, team: &Value, token: &str) -> u16 {
    // The first two members, or the reserve on board 2 in even rounds.
    let ids: Vec<i64> = team["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["participant"]["id"].as_i64().unwrap())
        .collect();
    let players = if round.is_multiple_of(2) && ids.len() > 2 {
        vec![ids[0], ids[2]]
    } else {
        vec![ids[0], ids[1]]
    };
    s.send(
        "PUT",
        &format!(
            "/api/v1/events/{event}/team-rounds/{round}/lineups/{}",
            team["id"]
        ),
        Some(token),
        &json!({ "players": players }),
    )
    .status
}

#[test]
fn team_swiss_round_trip_with_captains_results_and_standings() {
    let s = spawn();
    let (event, admin) = event_with(&s, "team_swiss", json!({"boards": 2, "rounds": 3}));
    // Bounds: boards and up to 5 reserves.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(&admin),
        &json!({"name": "Too many", "members": (0..8).map(|i| json!({"name": format!("P{i}")})).collect::<Vec<_>>()}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["members"]);
    let teams: Vec<Value> = (0..5)
        .map(|i| team(&s, event, &admin, &format!("Club <{i}>"), 2 + i % 2))
        .collect();
    // No round before lots.
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/team-rounds"),
        Some(&admin),
        &json!({}),
    )
    .problem(409);
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "random", "seed": 3}))
            .status,
        200
    );
    let teams: Vec<Value> = teams
        .iter()
        .map(|t| {
            s.get(&format!("/api/v1/events/{event}/teams/{}", t["id"]))
                .json()
        })
        .collect();
    assert!(teams.iter().all(|t| t["number"].is_u64()));
    // A captain's token for each team.
    let captains: Vec<String> = teams
        .iter()
        .map(|t| {
            let r = s.send(
                "POST",
                &format!("/api/v1/events/{event}/teams/{}/captain-token", t["id"]),
                Some(&admin),
                &json!({}),
            );
            assert_eq!(r.status, 201, "{}", r.text());
            r.json()["token"].as_str().unwrap().to_string()
        })
        .collect();
    let mut met: HashSet<(i64, i64)> = HashSet::new();
    let mut byes: Vec<i64> = Vec::new();
    for round in 1..=3u64 {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/team-rounds"),
            Some(&admin),
            &json!({}),
        );
        assert_eq!(r.status, 201, "round {round}: {}", r.text());
        let paired = r.json();
        assert_eq!(paired["round"], round);
        let matches = paired["matches"].as_array().unwrap().clone();
        assert_eq!(matches.len(), 2);
        let bye = paired["bye"]["id"].as_i64().unwrap();
        assert!(!byes.contains(&bye), "[C2] a second bye for {bye}");
        byes.push(bye);
        let mut seen = HashSet::from([bye]);
        for m in &matches {
            let (w, b) = (
                m["white_team"]["id"].as_i64().unwrap(),
                m["black_team"]["id"].as_i64().unwrap(),
            );
            assert!(seen.insert(w) && seen.insert(b));
            assert!(
                met.insert((w.min(b), w.max(b))),
                "[C1] {w} and {b} met again"
            );
        }
        assert_eq!(seen.len(), 5);
        // Not finished: the next round waits.
        s.send(
            "POST",
            &format!("/api/v1/events/{event}/team-rounds"),
            Some(&admin),
            &json!({}),
        )
        .problem(409);
        let team_of = |id: i64| teams.iter().position(|t| t["id"] == id).unwrap();
        // The bye's team lines up no one.
        assert_eq!(lineup(&s, event, round, &teams[team_of(bye)], &admin), 409);
        for (k, m) in matches.iter().enumerate() {
            let w = team_of(m["white_team"]["id"].as_i64().unwrap());
            let b = team_of(m["black_team"]["id"].as_i64().unwrap());
            // Another team's captain may not; the team's own captain may (white), the admin
            // too (black).
            assert_eq!(lineup(&s, event, round, &teams[w], &captains[b]), 403);
            assert_eq!(lineup(&s, event, round, &teams[w], &captains[w]), 200);
            assert_eq!(lineup(&s, event, round, &teams[b], &admin), 200);
            // Made: no change now.
            assert_eq!(lineup(&s, event, round, &teams[w], &captains[w]), 409);
            let view = s
                .get(&format!("/api/v1/events/{event}/team-rounds/{round}"))
                .json();
            let boards = view["matches"][k]["boards"].as_array().unwrap().clone();
            assert_eq!(boards.len(), 2);
            // Board 1: the White team's player has White; board 2: Black.
            let white_members: Vec<i64> = teams[w]["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["participant"]["id"].as_i64().unwrap())
                .collect();
            assert!(white_members.contains(&boards[0]["white"]["participant_id"].as_i64().unwrap()));
            assert!(white_members.contains(&boards[1]["black"]["participant_id"].as_i64().unwrap()));
            // Results: the White team wins board 1, board 2 drawn.
            let entries: Vec<Value> = boards
                .iter()
                .map(|g| {
                    let result = if g["board"] == 1 { "1-0" } else { "1/2-1/2" };
                    json!({"round": round, "board": g["round_board"], "result": result})
                })
                .collect();
            let r = s.send(
                "POST",
                &format!("/api/v1/events/{event}/results"),
                Some(&admin),
                &json!({ "results": entries }),
            );
            assert_eq!(r.status, 200, "{}", r.text());
        }
        let view = s
            .get(&format!("/api/v1/events/{event}/team-rounds/{round}"))
            .json();
        for m in view["matches"].as_array().unwrap() {
            assert_eq!(m["complete"], true);
            assert_eq!(
                (m["white_points"].as_f64(), m["black_points"].as_f64()),
                (Some(1.5), Some(0.5))
            );
            assert_eq!(
                (
                    m["white_match_points"].as_u64(),
                    m["black_match_points"].as_u64()
                ),
                (Some(2), Some(0))
            );
        }
    }
    // All rounds paired.
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/team-rounds"),
        Some(&admin),
        &json!({}),
    )
    .problem(409);
    let st = s
        .get(&format!("/api/v1/events/{event}/team-standings"))
        .json();
    let rows = st["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    // 6 matches won (2 MP each) and 3 byes (1 MP each).
    let mp: u64 = rows
        .iter()
        .map(|r| r["match_points"].as_u64().unwrap())
        .sum();
    assert_eq!(mp, 6 * 2 + 3);
    let gp: f64 = rows
        .iter()
        .map(|r| r["game_points"].as_f64().unwrap())
        .sum();
    assert_eq!(gp, 6.0 * 2.0 + 3.0);
    assert_eq!(
        st["tiebreaks"],
        json!(["GP", "BH:MP", "SB:MP"]),
        "the default list"
    );
    for r in rows {
        assert_eq!(r["tiebreaks"]["GP"], r["game_points"]);
        assert_eq!(r["tiebreaks"]["BH:MP"], r["buchholz"]);
        assert_eq!(r["tiebreaks"]["SB:MP"], r["sonneborn_berger"]);
    }
    for w in rows.windows(2) {
        assert!(w[0]["match_points"].as_u64() >= w[1]["match_points"].as_u64());
    }
    // The public standings page shows the teams, names escaped.
    let page = s.get(&format!("/e/{event}/standings")).text();
    assert!(page.contains("Club &lt;0&gt;"), "{page}");

    // Exported and imported, the event holds its pairings and line-ups: the same document,
    // the same rounds board by board, the same standings.
    let document = crate::export::export(&s, event, &admin);
    for table in ["team_swiss_matches", "team_lineups"] {
        assert!(
            !document["tables"][table].as_array().unwrap().is_empty(),
            "{table}"
        );
    }
    let r = s.send("POST", "/api/v1/events/import", None, &document);
    assert_eq!(r.status, 201, "{}", r.text());
    let copy = r.json()["id"].as_i64().unwrap();
    let copy_admin = r.json()["admin_token"].as_str().unwrap().to_string();
    let mut again = crate::export::export(&s, copy, &copy_admin);
    let mut first = document.clone();
    for d in [&mut again, &mut first] {
        d.as_object_mut().unwrap().remove("exported_at");
    }
    assert_eq!(again, first);
    let names = |e: i64, path: &str| -> Vec<Value> {
        let v = s.get(&format!("/api/v1/events/{e}/{path}")).json();
        let rows = v["standings"]
            .as_array()
            .or(v["matches"].as_array())
            .unwrap();
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                strip_ids(&mut r);
                r
            })
            .collect()
    };
    assert_eq!(
        names(event, "team-standings"),
        names(copy, "team-standings")
    );
    assert_eq!(names(event, "team-rounds/1"), names(copy, "team-rounds/1"));
}

/// Removes every id (they are the database's own) from a JSON value.
fn strip_ids(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| !(k == "id" || k.ends_with("_id")));
            map.values_mut().for_each(strip_ids);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_ids),
        _ => {}
    }
}

#[test]
fn team_swiss_refusals_name_the_field() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "T", "game": "chess", "format": "team_swiss", "settings": {"boards": 0, "rounds": 31}}),
    );
    r.problem(422);
    let mut fields = r.fields();
    fields.sort();
    assert_eq!(fields, vec!["settings.boards", "settings.rounds"]);
    let (event, admin) = event_with(&s, "team_swiss", json!({"boards": 2}));
    let a = team(&s, event, &admin, "A", 2);
    let b = team(&s, event, &admin, "B", 3);
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "random", "seed": 1}))
            .status,
        200
    );
    assert_eq!(
        s.send(
            "POST",
            &format!("/api/v1/events/{event}/team-rounds"),
            Some(&admin),
            &json!({})
        )
        .status,
        201
    );
    let path = |t: &Value| format!("/api/v1/events/{event}/team-rounds/1/lineups/{}", t["id"]);
    let a_ids: Vec<i64> = a["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["participant"]["id"].as_i64().unwrap())
        .collect();
    let b_first = b["members"][0]["participant"]["id"].as_i64().unwrap();
    let r = s.send(
        "PUT",
        &path(&a),
        Some(&admin),
        &json!({"players": [a_ids[0]]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["players"]);
    let r = s.send(
        "PUT",
        &path(&a),
        Some(&admin),
        &json!({"players": [a_ids[0], b_first]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["players[1]"]);
    let r = s.send(
        "PUT",
        &path(&a),
        Some(&admin),
        &json!({"players": [a_ids[0], a_ids[0]]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["players[1]"]);
    s.send("PUT", &path(&a), None, &json!({"players": a_ids}))
        .problem(401);
    s.get(&format!("/api/v1/events/{event}/team-rounds/2"))
        .problem(404);
}

/// Pairs the next round, lines up every match's first two members (admin) and scores it
/// 1½-½ for the White team (board 1 won, board 2 drawn). Returns the (white, black) team ids
/// and the bye's.
fn play_round(s: &TestServer, event: i64, admin: &str, teams: &[Value]) -> (Vec<(i64, i64)>, i64) {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/team-rounds"),
        Some(admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let paired = r.json();
    let round = paired["round"].as_u64().unwrap();
    let mut out = Vec::new();
    for m in paired["matches"].as_array().unwrap() {
        let ids = (
            m["white_team"]["id"].as_i64().unwrap(),
            m["black_team"]["id"].as_i64().unwrap(),
        );
        for id in [ids.0, ids.1] {
            let t = teams.iter().find(|t| t["id"] == id).unwrap();
            assert_eq!(lineup(s, event, round, t, admin), 200);
        }
        out.push(ids);
    }
    let view = s
        .get(&format!("/api/v1/events/{event}/team-rounds/{round}"))
        .json();
    let entries: Vec<Value> = view["matches"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["boards"].as_array().unwrap().clone())
        .map(|g| {
            let result = if g["board"] == 1 { "1-0" } else { "1/2-1/2" };
            json!({"round": round, "board": g["round_board"], "result": result})
        })
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(admin),
        &json!({ "results": entries }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    (out, paired["bye"]["id"].as_i64().unwrap())
}

/// Game points primary and a chosen list: the standings rank by GP, then the list, and each
/// value is the one computed by hand from the rounds (C.07 2023: a bye's dummy has the team's
/// own score).
#[test]
fn team_swiss_tiebreak_settings_rank_the_standings() {
    let s = spawn();
    let settings = json!({"boards": 2, "rounds": 3, "tiebreak_rules": "2023",
        "primary_score": "game_points", "tiebreaks": ["BH:MP", "emgsb", "WIN", "TPN"]});
    let (event, admin) = event_with(&s, "team_swiss", settings);
    let teams: Vec<Value> = (0..5)
        .map(|i| team(&s, event, &admin, &format!("T{i}"), 2))
        .collect();
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "random", "seed": 5}))
            .status,
        200
    );
    let mut rounds = Vec::new();
    for _ in 0..3 {
        rounds.push(play_round(&s, event, &admin, &teams));
    }
    // By hand: the White team wins 2 MP and 1½ GP, Black 0 and ½; a bye 1 MP and 1 GP.
    let ids: Vec<i64> = teams.iter().map(|t| t["id"].as_i64().unwrap()).collect();
    let mut mp = std::collections::HashMap::new();
    let mut gp = std::collections::HashMap::new();
    for (matches, bye) in &rounds {
        *mp.entry(*bye).or_insert(0.0) += 1.0;
        *gp.entry(*bye).or_insert(0.0) += 1.0;
        for (w, b) in matches {
            *mp.entry(*w).or_insert(0.0) += 2.0;
            *gp.entry(*w).or_insert(0.0) += 1.5;
            *mp.entry(*b).or_insert(0.0) += 0.0;
            *gp.entry(*b).or_insert(0.0) += 0.5;
        }
    }
    let mut bh = std::collections::HashMap::new();
    let mut emgsb = std::collections::HashMap::new();
    let mut wins = std::collections::HashMap::new();
    for &t in &ids {
        let (mut b, mut e, mut w) = (0.0, 0.0, 0.0);
        for (matches, bye) in &rounds {
            if *bye == t {
                b += mp[&t];
                e += mp[&t] * 1.0;
            }
            for (white, black) in matches {
                if *white == t {
                    b += mp[black];
                    e += mp[black] * 1.5;
                    w += 1.0;
                } else if *black == t {
                    b += mp[white];
                    e += mp[white] * 0.5;
                }
            }
        }
        bh.insert(t, b);
        emgsb.insert(t, e);
        wins.insert(t, w);
    }
    let st = s
        .get(&format!("/api/v1/events/{event}/team-standings"))
        .json();
    assert_eq!(st["order"], "game_points");
    assert_eq!(st["tiebreaks"], json!(["BH:MP", "emgsb", "WIN", "TPN"]));
    let rows = st["standings"].as_array().unwrap();
    let mut keys = Vec::new();
    for r in rows {
        let t = r["team"]["id"].as_i64().unwrap();
        assert_eq!(r["game_points"].as_f64().unwrap(), gp[&t], "GP of {t}");
        assert_eq!(r["match_points"].as_f64().unwrap(), mp[&t], "MP of {t}");
        assert_eq!(
            r["tiebreaks"]["BH:MP"].as_f64().unwrap(),
            bh[&t],
            "BH:MP of {t}"
        );
        assert_eq!(
            r["tiebreaks"]["emgsb"].as_f64().unwrap(),
            emgsb[&t],
            "EMGSB of {t}"
        );
        assert_eq!(
            r["tiebreaks"]["WIN"].as_f64().unwrap(),
            wins[&t],
            "WIN of {t}"
        );
        let tpn = r["team"]["number"].as_f64().unwrap();
        assert_eq!(
            r["tiebreaks"]["TPN"].as_f64().unwrap(),
            -tpn,
            "TPN: lower first"
        );
        keys.push((gp[&t], bh[&t], emgsb[&t], wins[&t], -tpn));
        assert_eq!(r["shared"], false, "TPN leaves no tie");
    }
    assert!(
        keys.windows(2).all(|w| w[0] > w[1]),
        "ranked by GP then the list: {keys:?}"
    );
    // A list that cannot be read names its entry; too long a list names the list.
    let bad = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"tiebreaks": ["GP", "BH:XP", "SB/M1"]}}),
    );
    bad.problem(422);
    assert_eq!(
        bad.fields(),
        vec!["settings.tiebreaks[1]", "settings.tiebreaks[2]"]
    );
    let long: Vec<&str> = vec!["GP"; 13];
    let bad = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"tiebreaks": long}}),
    );
    bad.problem(422);
    assert_eq!(bad.fields(), vec!["settings.tiebreaks"]);
    let bad = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"primary_score": "points"}}),
    );
    bad.problem(422);
}

/// A team Swiss event written as a TRF-2026 file (its `310`, `300`, `320` and `352` records)
/// and read back: a new event with the same teams, members, line-ups, results and
/// standings, which writes the same file again.
#[test]
fn team_swiss_trf_round_trip() {
    let s = spawn();
    let (event, admin) = event_with(&s, "team_swiss", json!({"boards": 2, "rounds": 3}));
    let teams: Vec<Value> = (0..5)
        .map(|i| team(&s, event, &admin, &format!("Club <é> {i}"), 3))
        .collect();
    assert_eq!(
        s.draw_lots(event, &admin, json!({"method": "random", "seed": 9}))
            .status,
        200
    );
    for round in 1..=3u64 {
        // Even rounds: the reserve on board 2 (an out-of-order line-up, a `300` record).
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/team-rounds"),
            Some(&admin),
            &json!({}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
        for m in r.json()["matches"].as_array().unwrap() {
            for side in ["white_team", "black_team"] {
                let t = teams.iter().find(|t| t["id"] == m[side]["id"]).unwrap();
                assert_eq!(lineup(&s, event, round, t, &admin), 200);
            }
        }
        let view = s
            .get(&format!("/api/v1/events/{event}/team-rounds/{round}"))
            .json();
        let entries: Vec<Value> = view["matches"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["boards"].as_array().unwrap().clone())
            .map(|g| {
                let result = if g["board"] == 1 { "0-1" } else { "1/2-1/2" };
                json!({"round": round, "board": g["round_board"], "result": result})
            })
            .collect();
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/results"),
            Some(&admin),
            &json!({ "results": entries }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let trf = s.get(&format!("/api/v1/events/{event}/trf"));
    assert_eq!(trf.status, 200, "{}", trf.text());
    let text = trf.text();
    let lines = |code: &str| text.lines().filter(|l| l.starts_with(code)).count();
    assert_eq!(lines("310"), 5, "{text}");
    assert_eq!(lines("320"), 1, "{text}");
    assert_eq!(
        lines("300"),
        4,
        "round 2: four teams line up a reserve: {text}"
    );
    assert_eq!(lines("001"), 15);
    assert!(text.contains("\n352 WB\n"), "{text}");
    assert!(text.contains("092 Team: Swiss-System"), "{text}");
    let r = s.send("POST", "/api/v1/events/trf", None, &json!(text));
    assert_eq!(r.status, 201, "{}", r.text());
    let copy = r.json()["id"].as_i64().unwrap();
    let read = |e: i64, path: &str| -> Value {
        let mut v = s.get(&format!("/api/v1/events/{e}/{path}")).json();
        strip_ids(&mut v);
        v
    };
    assert_eq!(read(copy, "team-standings"), read(event, "team-standings"));
    for round in 1..=3 {
        let path = format!("team-rounds/{round}");
        assert_eq!(read(copy, &path), read(event, &path), "{path}");
    }
    let members = |e: i64| -> Vec<Value> {
        let mut v = s.get(&format!("/api/v1/events/{e}/teams")).json();
        strip_ids(&mut v);
        v["teams"]
            .as_array()
            .or(v["items"].as_array())
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(members(copy), members(event));
    let again = s.get(&format!("/api/v1/events/{copy}/trf")).text();
    assert_eq!(again, text, "the copy writes the same file");

    // The round page: each match with its score and boards, names escaped; the bye.
    let page = s.get(&format!("/e/{event}/rounds/2"));
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(html.contains("Table 1: "), "{html}");
    assert!(html.contains("Table 2: "), "{html}");
    assert!(
        html.contains("Club &lt;é&gt; 0 1"),
        "a player, escaped: {html}"
    );
    assert!(!html.contains("Club <é>"), "nothing unescaped: {html}");
    assert!(html.contains("match points 0–2"), "{html}");
    assert!(html.contains("Bye: "), "{html}");
    assert_eq!(
        html.matches("<td class=\"nw\">½-½</td>").count()
            + html.matches("<td class=\"nw\">1/2-1/2</td>").count(),
        2,
        "board 2 of each match drawn: {html}"
    );
    for missing in [0, 4] {
        assert_eq!(s.get(&format!("/e/{event}/rounds/{missing}")).status, 404);
    }

    // What a team Swiss here does not hold is refused, naming the line.
    let forfeits = format!("{text}330 +- 001 001 002\n");
    let r = s.send("POST", "/api/v1/events/trf", None, &json!(forfeits));
    r.problem(422);
    let at = format!("line {}", forfeits.lines().count());
    assert_eq!(r.fields(), vec![at.as_str()]);
}
