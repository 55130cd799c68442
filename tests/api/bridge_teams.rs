//! Bridge team movements and the stateless Swiss draw for bridge over the API.

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::client::spawn;

#[test]
fn a_new_england_relay_has_the_movement_shape_matches_and_a_report() {
    let s = spawn();
    let r = s.get("/api/v1/movements/team/new_england_relay?teams=8&boards_per_round=6");
    assert_eq!(r.status, 200, "{}", r.text());
    let m = r.json();
    assert_eq!(m["kind"], "new_england_relay");
    assert_eq!(m["teams"], 8);
    let rounds = m["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 7);
    let t = &rounds[0]["tables"][0];
    for key in ["table", "ns", "ew", "set", "boards"] {
        assert!(t.get(key).is_some(), "table entry lacks {key}: {t}");
    }
    assert_eq!(t["boards"].as_array().unwrap().len(), 6);
    assert_eq!(m["report"]["valid"], true, "{}", m["report"]);
    // Every pair of teams meets exactly once, in a match of two halves on one set, where A's
    // NS met B's EW and B's NS met A's EW.
    let matches = m["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 28);
    let mut met = HashSet::new();
    for x in matches {
        let (a, b) = (x["home"].as_u64().unwrap(), x["away"].as_u64().unwrap());
        assert!(met.insert((a.min(b), a.max(b))));
        let halves = x["halves"].as_array().unwrap();
        let mut seen = Vec::new();
        for h in halves {
            let round = &rounds[h["round"].as_u64().unwrap() as usize - 1];
            let table = round["tables"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["table"] == h["table"])
                .unwrap();
            assert_eq!(table["set"], x["set"]);
            seen.push((table["ns"].as_u64().unwrap(), table["ew"].as_u64().unwrap()));
        }
        seen.sort();
        let mut want = vec![(a, b), (b, a)];
        want.sort();
        assert_eq!(seen, want);
    }
}

#[test]
fn every_team_movement_kind_is_served_with_a_valid_report() {
    let s = spawn();
    for (q, everyone) in [
        ("american_whist?teams=7&matches=4", false),
        ("american_whist?teams=9", true),
        ("round_robin?teams=8", true),
        ("round_robin?teams=9", true),
        ("mitchell_teams?teams=10", false),
    ] {
        let m = s.get(&format!("/api/v1/movements/team/{q}")).json();
        assert_eq!(m["report"]["valid"], true, "{q}: {}", m["report"]);
        assert_eq!(m["report"]["everyone_meets_once"], everyone, "{q}");
        assert_eq!(m["report"]["max_meetings"], 1, "{q}");
    }
}

#[test]
fn team_movement_sizes_refused_name_the_field_and_the_sizes_served() {
    let s = spawn();
    let r = s.get("/api/v1/movements/team/new_england_relay?teams=7");
    r.problem(422);
    assert_eq!(r.fields(), ["teams"]);
    let detail = r.json()["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        detail.contains("even numbers of teams from 4 to 20"),
        "{detail}"
    );
    let r = s.get("/api/v1/movements/team/american_whist?teams=7&matches=3");
    r.problem(422);
    assert_eq!(r.fields(), ["matches"]);
    let r = s.get("/api/v1/movements/team/round_robin?teams=30");
    r.problem(422);
    assert_eq!(r.fields(), ["teams"]);
    let r = s.get("/api/v1/movements/team/round_robin?teams=8&boards_per_round=0");
    assert_eq!(r.fields(), ["boards_per_round"]);
    s.get("/api/v1/movements/team/spiral?teams=8").problem(404);
    let r = s.get("/api/v1/movements/team/round_robin?teams=eight");
    assert!(r.status == 400 || r.status == 422, "{}", r.status);
    let _: Value = r.problem(r.status);
}

#[test]
fn the_bridge_swiss_draw_has_the_contract_shape() {
    let s = spawn();
    let body = json!({
        "contestants": [
            {"id": 11, "score": 40.0, "seed": 1, "opponents": [12], "byes": 0},
            {"id": 12, "score": 35.5, "seed": 2, "opponents": [11], "byes": 0},
            {"id": 13, "score": 30.0, "seed": 3, "opponents": [14], "byes": 0},
            {"id": 14, "score": 25.0, "seed": 4, "opponents": [13], "byes": 0},
            {"id": 15, "score": 20.0, "seed": 5, "opponents": [], "byes": 1}
        ],
        "round1": "split",
        "rounds": 3
    });
    let r = s.send("POST", "/api/v1/pairings/bridge-swiss", None, &body);
    assert_eq!(r.status, 200, "{}", r.text());
    let d = r.json();
    assert_eq!(
        d["matches"],
        json!([{"table": 1, "home": 11, "away": 13}, {"table": 2, "home": 12, "away": 15}])
    );
    assert_eq!(d["bye"], 14);
    assert!(
        d["warnings"][0].as_str().unwrap().contains("over-swissed"),
        "{d}"
    );
    // Round 1, an even number: split by seed; no bye.
    let body =
        json!({"contestants": (1..=6).map(|i| json!({"id": i, "seed": i})).collect::<Vec<_>>()});
    let d = s
        .send("POST", "/api/v1/pairings/bridge-swiss", None, &body)
        .json();
    assert_eq!(d["bye"], Value::Null);
    assert_eq!(d["matches"][0], json!({"table": 1, "home": 1, "away": 4}));
}

#[test]
fn bad_bridge_swiss_requests_name_the_field() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/pairings/bridge-swiss",
        None,
        &json!({"contestants": [{"id": 1}, {"id": 1}]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["contestants[1].id"]);
    let r = s.send(
        "POST",
        "/api/v1/pairings/bridge-swiss",
        None,
        &json!({"contestants": [{"id": 1}, {"id": 2}], "round1": "random"}),
    );
    assert_eq!(r.fields(), ["random_seed"]);
    // The fuzzer's find: 2^31 planned rounds were taken.
    let r = s.send(
        "POST",
        "/api/v1/pairings/bridge-swiss",
        None,
        &json!({"contestants": [{"id": 1}, {"id": 2}], "rounds": 2147483648u64}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["rounds"]);
    let r = s.send(
        "POST",
        "/api/v1/pairings/bridge-swiss",
        None,
        &json!({"contestants": [{"id": 1, "colour": "w"}]}),
    );
    assert!(r.status == 400 || r.status == 422, "{}", r.status);
    r.problem(r.status);
}

#[test]
fn a_typed_in_team_movement_is_validated() {
    let s = spawn();
    let mut m = s
        .get("/api/v1/movements/team/american_whist?teams=5")
        .json();
    m.as_object_mut().unwrap().remove("report");
    let r = s.send("POST", "/api/v1/movements/team/validate", None, &m);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["valid"], true);
    assert_eq!(r.json()["everyone_meets_once"], true);
    // One EW pair sent to the wrong table: two matches lose a half.
    m["rounds"][0]["tables"][0]["ew"] = json!(2);
    let rep = s
        .send("POST", "/api/v1/movements/team/validate", None, &m)
        .json();
    assert_eq!(rep["valid"], false);
    assert!(rep["errors"].to_string().contains("no other half"), "{rep}");
    m["teams"] = json!(1000);
    let r = s.send("POST", "/api/v1/movements/team/validate", None, &m);
    r.problem(422);
    assert_eq!(r.fields(), ["teams"]);
}

/// The literal top-down rule with backtracking over places `0..n` (`met[p]` by place).
fn top_down(met: &[HashSet<usize>], active: &mut Vec<bool>) -> Option<Vec<(usize, usize)>> {
    let Some(u) = active.iter().position(|&a| a) else {
        return Some(Vec::new());
    };
    active[u] = false;
    for v in u + 1..active.len() {
        if active[v] && !met[u].contains(&v) {
            active[v] = false;
            if let Some(mut rest) = top_down(met, active) {
                active[u] = true;
                active[v] = true;
                rest.insert(0, (u, v));
                return Some(rest);
            }
            active[v] = true;
        }
    }
    active[u] = true;
    None
}

#[test]
fn a_swiss_teams_event_of_23_teams_over_7_rounds_through_the_stateless_draw() {
    let s = spawn();
    let n = 23usize;
    let mut score = vec![0.0f64; n + 1];
    let mut opponents: Vec<Vec<u64>> = vec![Vec::new(); n + 1];
    let mut byes = vec![0u32; n + 1];
    let mut state = 99u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    for round in 1..=7 {
        let contestants: Vec<Value> = (1..=n)
            .map(|id| {
                json!({"id": id, "score": score[id], "seed": id, "opponents": opponents[id], "byes": byes[id]})
            })
            .collect();
        let r = s.send(
            "POST",
            "/api/v1/pairings/bridge-swiss",
            None,
            &json!({"contestants": contestants, "rounds": 7}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let d = r.json();
        // The same draw by the literal rule: place by score, then seed (= id).
        let mut order: Vec<usize> = (1..=n).collect();
        order.sort_by(|&a, &b| score[b].total_cmp(&score[a]).then(a.cmp(&b)));
        let place = |id: usize| order.iter().position(|&x| x == id).unwrap();
        let bye = d["bye"].as_u64().unwrap() as usize;
        assert_eq!(byes[bye], 0, "round {round}: a second bye");
        let met: Vec<HashSet<usize>> = order
            .iter()
            .map(|&id| opponents[id].iter().map(|&o| place(o as usize)).collect())
            .collect();
        let mut active = vec![true; n];
        active[place(bye)] = false;
        let got: Vec<(usize, usize)> = d["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["home"].as_u64().unwrap() as usize,
                    m["away"].as_u64().unwrap() as usize,
                )
            })
            .collect();
        if round > 1 {
            let want = top_down(&met, &mut active).expect("a draw without repeats");
            let want: Vec<(usize, usize)> = want
                .into_iter()
                .map(|(a, b)| (order[a], order[b]))
                .collect();
            assert_eq!(got, want, "round {round}");
        }
        // Score each match: a random IMP margin on 8 boards, VPs from the server.
        for (t, &(home, away)) in got.iter().enumerate() {
            assert_eq!(d["matches"][t]["table"], t as u64 + 1);
            assert!(
                !opponents[home].contains(&(away as u64)),
                "a repeat meeting"
            );
            let margin = next() % 40;
            let vp = s
                .get(&format!("/api/v1/bridge/vp?imps={margin}&boards=8"))
                .json();
            let (w, l) = (
                vp["winner"].as_f64().unwrap(),
                vp["loser"].as_f64().unwrap(),
            );
            assert!((w + l - 20.0).abs() < 1e-9, "VPs sum to 20");
            let (h, a) = if next() % 2 == 0 { (w, l) } else { (l, w) };
            score[home] += h;
            score[away] += a;
            opponents[home].push(away as u64);
            opponents[away].push(home as u64);
        }
        score[bye] += 12.0;
        byes[bye] += 1;
    }
    let total: f64 = score.iter().sum();
    // 7 rounds of 11 matches at 20 VPs, and 7 byes at 12.
    assert!(
        (total - (7.0 * 11.0 * 20.0 + 7.0 * 12.0)).abs() < 1e-6,
        "{total}"
    );
}

#[test]
fn the_bridge_swiss_draw_takes_a_triangle_and_home_tables() {
    let s = spawn();
    let contestants: Vec<Value> = (1..=5)
        .map(|i| {
            json!({"id": i, "score": 50 - i, "opponents": if i <= 2 { vec![3 - i] } else { vec![] },
                   "home_table": 10 + i})
        })
        .collect();
    let d = s
        .send(
            "POST",
            "/api/v1/pairings/bridge-swiss",
            None,
            &json!({"contestants": contestants, "odd": "triangle", "keep_home_tables": true}),
        )
        .json();
    assert_eq!(d["bye"], Value::Null);
    assert_eq!(d["triangle"], json!([2, 4, 5]));
    assert_eq!(d["matches"], json!([{"table": 11, "home": 1, "away": 3}]));
}
