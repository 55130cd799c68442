//! Bridge Swiss events (formats `swiss_teams`, `swiss_pairs`) through the API: each round
//! drawn by `POST .../rounds` and checked against the top-down rule recomputed here from the
//! standings, results as board results or entered matches, byes, and the VP standings
//! recomputed independently.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::bridge_team_events::{add_bridge_team, bridge_event, draw_lots_by_rating};
use crate::client::{spawn, TestServer};

/// A small deterministic generator (xorshift64*), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) % n
    }
}

/// Scored matches: (round, home, away) → (VPs home, VPs away, IMPs home, IMPs away).
type Scored = HashMap<(u32, u32, u32), (f64, f64, u64, u64)>;

fn key(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// The seed's rule, literally: the highest-placed not yet drawn meets the highest-placed it
/// has not met such that the rest can still be drawn without a repeat (search with
/// backtracking).
fn top_down(rest: &[u32], met: &HashSet<(u32, u32)>) -> Option<Vec<(u32, u32)>> {
    let Some((&u, others)) = rest.split_first() else {
        return Some(Vec::new());
    };
    for (i, &v) in others.iter().enumerate() {
        if met.contains(&key(u, v)) {
            continue;
        }
        let mut next = others.to_vec();
        next.remove(i);
        if let Some(mut pairs) = top_down(&next, met) {
            pairs.insert(0, (u, v));
            return Some(pairs);
        }
    }
    None
}

/// Places by VPs (highest first), ties by number (the seeding of lots by rating).
fn placing(numbers: &[u32], vps: &HashMap<u32, f64>) -> Vec<u32> {
    let mut order = numbers.to_vec();
    let score = |n: &u32| (vps.get(n).copied().unwrap_or(0.0) * 100.0).round() as i64;
    order.sort_by(|a, b| score(b).cmp(&score(a)).then(a.cmp(b)));
    order
}

fn draw_round(s: &TestServer, id: i64, token: &str) -> Value {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(token),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn drawn_pairs(round: &Value) -> Vec<(u32, u32, u32)> {
    round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["table"].as_u64().unwrap() as u32,
                m["home"].as_u64().unwrap() as u32,
                m["away"].as_u64().unwrap() as u32,
            )
        })
        .collect()
}

/// The VPs of every scored match from `GET .../matches`: (round, home, away) → (home, away).
fn match_vps(s: &TestServer, id: i64) -> Scored {
    let r = s.get(&format!("/api/v1/events/{id}/matches"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| !l["score"].is_null())
        .map(|l| {
            let sc = &l["score"];
            (
                (
                    l["round"].as_u64().unwrap() as u32,
                    l["home"].as_u64().unwrap() as u32,
                    l["away"].as_u64().unwrap() as u32,
                ),
                (
                    sc["vp_home"].as_f64().unwrap(),
                    sc["vp_away"].as_f64().unwrap(),
                    sc["imps_home"].as_u64().unwrap(),
                    sc["imps_away"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

/// Checks the VP standings against totals recomputed from the matches and byes.
fn check_standings(
    s: &TestServer,
    id: i64,
    numbers: &[u32],
    matches: &Scored,
    byes: &HashMap<u32, f64>,
) {
    let mut vps: HashMap<u32, f64> = byes.clone();
    let mut imps: HashMap<u32, (u64, u64)> = HashMap::new();
    for (&(_, h, a), &(vh, va, ih, ia)) in matches {
        assert!((vh + va - 20.0).abs() < 1e-9, "{h} v {a}: {vh} + {va}");
        *vps.entry(h).or_default() += vh;
        *vps.entry(a).or_default() += va;
        let e = imps.entry(h).or_default();
        *e = (e.0 + ih, e.1 + ia);
        let e = imps.entry(a).or_default();
        *e = (e.0 + ia, e.1 + ih);
    }
    let r = s.get(&format!("/api/v1/events/{id}/vp-standings"));
    assert_eq!(r.status, 200, "{}", r.text());
    let rows = r.json()["standings"].as_array().unwrap().clone();
    assert_eq!(rows.len(), numbers.len());
    let mut previous: Option<(f64, f64)> = None;
    for (i, row) in rows.iter().enumerate() {
        let n = row["number"].as_u64().unwrap() as u32;
        let expected = (vps.get(&n).copied().unwrap_or(0.0) * 100.0).round() / 100.0;
        assert!(
            (row["vps"].as_f64().unwrap() - expected).abs() < 1e-9,
            "{row}"
        );
        let (won, lost) = imps.get(&n).copied().unwrap_or((0, 0));
        assert_eq!(
            (row["imps_won"].as_u64(), row["imps_lost"].as_u64()),
            (Some(won), Some(lost))
        );
        // VPs never rise down the table; level VPs: the IMP quotient never rises.
        let q = if lost > 0 {
            won as f64 / lost as f64
        } else {
            f64::INFINITY
        };
        if let Some((pv, pq)) = previous {
            assert!(expected <= pv + 1e-9, "row {i} {row}");
            if (expected - pv).abs() < 1e-9 && won + lost > 0 {
                assert!(q <= pq + 1e-9, "row {i} {row}");
            }
        }
        previous = Some((expected, q));
    }
}

#[test]
fn a_swiss_teams_event_of_24_teams_and_7_rounds_follows_the_top_down_rule() {
    let s = spawn();
    let (id, token) = bridge_event(
        &s,
        "swiss_teams",
        json!({"rounds": 7, "boards_per_match": 8}),
    );
    for k in 1..=24 {
        assert_eq!(add_bridge_team(&s, id, &token, k, 4).status, 201);
    }
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let numbers: Vec<u32> = (1..=24).collect();
    let mut rng = Rng(0x5eed_0015);
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut vps: HashMap<u32, f64> = HashMap::new();
    for round in 1..=7u32 {
        let drawn = draw_round(&s, id, &token);
        assert_eq!(drawn["round"], round);
        assert_eq!(drawn["bye"], Value::Null);
        assert_eq!(
            drawn["warnings"],
            json!([]),
            "24 teams, 7 rounds: the seed's minimum"
        );
        let order = placing(&numbers, &vps);
        let expected: Vec<(u32, u32)> = if round == 1 {
            (0..12).map(|i| (order[i], order[i + 12])).collect()
        } else {
            top_down(&order, &met).expect("a draw without repeats exists")
        };
        let got = drawn_pairs(&drawn);
        let got_pairs: Vec<(u32, u32)> = got.iter().map(|&(_, h, a)| (h, a)).collect();
        assert_eq!(got_pairs, expected, "round {round}");
        // Tables from the top: the match of the highest-placed at table 1.
        assert_eq!(
            got.iter().map(|m| m.0).collect::<Vec<_>>(),
            (1..=12).collect::<Vec<_>>()
        );
        for &(_, h, a) in &got {
            assert!(met.insert(key(h, a)), "round {round}: {h} v {a} met before");
        }
        // Results: table 1 from board results at its two tables, the others entered as IMPs.
        let (_, h1, a1) = got[0];
        let boards: Vec<u64> = drawn["matches"][0]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap())
            .collect();
        assert_eq!(boards.len(), 8);
        let mut rows = Vec::new();
        for &b in &boards {
            for table in [1, 2] {
                rows.push(json!({"round": round, "table": table, "board": b,
                    "ns_score": 10 * (rng.below(140) as i64 - 70)}));
            }
        }
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/board-results"),
            Some(&token),
            &json!({ "results": rows }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let entries: Vec<Value> = got[1..]
            .iter()
            .map(|&(_, h, a)| {
                json!({"round": round, "home": h, "away": a,
                    "imps_home": rng.below(45), "imps_away": rng.below(45)})
            })
            .collect();
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/matches"),
            Some(&token),
            &json!({ "matches": entries }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let scored = match_vps(&s, id);
        assert_eq!(scored.len() as u32, 12 * round, "every match scored");
        assert!(scored.contains_key(&(round, h1, a1)));
        vps.clear();
        for (&(_, h, a), &(vh, va, _, _)) in &scored {
            *vps.entry(h).or_default() += vh;
            *vps.entry(a).or_default() += va;
        }
        check_standings(&s, id, &numbers, &scored, &HashMap::new());
    }
    // The planned rounds are drawn.
    s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&token),
        &json!({}),
    )
    .problem(409);
    let r = s.get(&format!("/api/v1/events/{id}/draws/7"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["matches"][0]["tables"], json!([1, 2]));
}

#[test]
fn swiss_pairs_with_byes_butler_results_and_the_delayed_draw() {
    let s = spawn();
    let (id, token) = bridge_event(
        &s,
        "swiss_pairs",
        json!({"rounds": 5, "round1": "fold", "bye_vps": 12, "boards_per_match": 3}),
    );
    s.add_players(id, &token, 9);
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let numbers: Vec<u32> = (1..=9).collect();
    let mut rng = Rng(0x00b1_dde5);
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut byes: HashMap<u32, f64> = HashMap::new();
    let mut vps: HashMap<u32, f64> = HashMap::new();
    for round in 1..=5u32 {
        let drawn = draw_round(&s, id, &token);
        // 5 rounds for 9: over half the contestants, and below the seed's minimum of 6.
        let warnings = drawn["warnings"].to_string();
        assert!(warnings.contains("over-swissed"), "{warnings}");
        assert!(warnings.contains("below the minimum of 6"), "{warnings}");
        let order = placing(&numbers, &vps);
        // The bye: the lowest-placed without one whose absence leaves the rest drawable.
        let bye = *order
            .iter()
            .rev()
            .find(|n| {
                !byes.contains_key(n) && {
                    let rest: Vec<u32> = order.iter().copied().filter(|x| x != *n).collect();
                    round == 1 || top_down(&rest, &met).is_some()
                }
            })
            .unwrap();
        assert_eq!(drawn["bye"]["number"], bye, "round {round}");
        assert_eq!(drawn["bye"]["vps"], 12.0);
        byes.insert(bye, 12.0);
        let rest: Vec<u32> = order.iter().copied().filter(|&x| x != bye).collect();
        let expected: Vec<(u32, u32)> = if round == 1 {
            (0..4).map(|i| (rest[i], rest[7 - i])).collect()
        } else {
            top_down(&rest, &met).unwrap()
        };
        let got = drawn_pairs(&drawn);
        let got_pairs: Vec<(u32, u32)> = got.iter().map(|&(_, h, a)| (h, a)).collect();
        assert_eq!(got_pairs, expected, "round {round}");
        for &(_, h, a) in &got {
            assert!(met.insert(key(h, a)), "round {round}: {h} v {a} met before");
        }
        // Every table's board results: scored by Butler against the round's datum.
        let mut rows = Vec::new();
        for &(table, _, _) in &got {
            for b in drawn["matches"][0]["boards"].as_array().unwrap() {
                rows.push(json!({"round": round, "table": table, "board": b,
                    "ns_score": 10 * (rng.below(100) as i64 - 50)}));
            }
        }
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/board-results"),
            Some(&token),
            &json!({ "results": rows }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let scored = match_vps(&s, id);
        assert_eq!(scored.len() as u32, 4 * round);
        vps = byes.clone();
        for (&(_, h, a), &(vh, va, _, _)) in &scored {
            *vps.entry(h).or_default() += vh;
            *vps.entry(a).or_default() += va;
        }
        check_standings(&s, id, &numbers, &scored, &byes);
    }
    assert_eq!(byes.len(), 5, "five different byes");
    // A drawn round read again repeats the planning warnings.
    let again = s.get(&format!("/api/v1/events/{id}/draws/1")).json();
    assert!(
        again["warnings"].to_string().contains("over-swissed"),
        "{again}"
    );
    assert_eq!(again["bye"]["vps"], 12.0);
    s.get(&format!("/api/v1/events/{id}/draws/6")).problem(404);

    // Live draw: round 2 waits for round 1's results; the delayed draw does not.
    for (draw, second) in [("live", 409), ("delayed", 201)] {
        let (id, token) = bridge_event(&s, "swiss_teams", json!({"draw": draw}));
        for k in 1..=6 {
            assert_eq!(add_bridge_team(&s, id, &token, k, 5).status, 201);
        }
        assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
        let first = draw_round(&s, id, &token);
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/rounds"),
            Some(&token),
            &json!({}),
        );
        assert_eq!(r.status, second, "{draw}: {}", r.text());
        if second == 201 {
            // Round 2 by seeding, avoiding round 1's opponents.
            let one: HashSet<(u32, u32)> = drawn_pairs(&first)
                .iter()
                .map(|&(_, h, a)| key(h, a))
                .collect();
            let two = drawn_pairs(&r.json());
            let expected = top_down(&(1..=6).collect::<Vec<_>>(), &one).unwrap();
            assert_eq!(
                two.iter().map(|&(_, h, a)| (h, a)).collect::<Vec<_>>(),
                expected
            );
        }
    }
}

#[test]
fn a_random_round_one_is_reproduced_from_its_seed_and_the_last_round_can_be_drawn_again() {
    let s = spawn();
    let mut firsts = Vec::new();
    for _ in 0..2 {
        let (id, token) = bridge_event(
            &s,
            "swiss_teams",
            json!({"round1": "random", "keep_home_tables": true, "boards_per_match": 2}),
        );
        for k in 1..=8 {
            assert_eq!(add_bridge_team(&s, id, &token, k, 4).status, 201);
        }
        let r = s.draw_lots(id, &token, json!({"method": "random", "seed": 99}));
        assert_eq!(r.status, 200, "{}", r.text());
        let first = drawn_pairs(&draw_round(&s, id, &token));
        // Drawn again after a delete: the same round (the seed is the lots' recorded seed).
        assert_eq!(
            s.delete(&format!("/api/v1/events/{id}/rounds/1"), Some(&token))
                .status,
            204
        );
        assert_eq!(s.get(&format!("/api/v1/events/{id}")).json()["rounds"], 0);
        assert_eq!(drawn_pairs(&draw_round(&s, id, &token)), first);
        // With a result in, the round stays.
        let (_, h, a) = first[0];
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/matches"),
            Some(&token),
            &json!({"matches": [{"round": 1, "home": h, "away": a, "imps_home": 9, "imps_away": 2}]}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        s.delete(&format!("/api/v1/events/{id}/rounds/1"), Some(&token))
            .problem(409);
        let rest: Vec<Value> = first[1..]
            .iter()
            .map(|&(_, h, a)| json!({"round": 1, "home": h, "away": a, "vp_home": 10, "vp_away": 10}))
            .collect();
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/matches"),
            Some(&token),
            &json!({ "matches": rest }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        // Home tables kept: the top match of round 2 sits at its home team's round-1 table.
        let second = drawn_pairs(&draw_round(&s, id, &token));
        let (table, home, _) = second[0];
        let home_table = first.iter().find(|m| m.1 == home || m.2 == home).unwrap().0;
        assert_eq!(table, home_table, "{second:?} after {first:?}");
        firsts.push(first);
    }
    assert_eq!(firsts[0], firsts[1]);
    // Seeded by the lots, not in number order: round 1 is not simply 1 v 2, 3 v 4 ...
    assert_ne!(
        firsts[0].iter().map(|m| (m.1, m.2)).collect::<Vec<_>>(),
        [(1, 2), (3, 4), (5, 6), (7, 8)]
    );
}

#[test]
fn seven_swiss_teams_play_a_triangle_instead_of_a_bye() {
    let s = spawn();
    let (id, token) = bridge_event(
        &s,
        "swiss_teams",
        json!({"odd": "triangle", "boards_per_match": 4, "rounds": 3}),
    );
    for k in 1..=7 {
        assert_eq!(add_bridge_team(&s, id, &token, k, 6).status, 201);
    }
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let mut rng = Rng(0x0007_7e3a);
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut boards_seen: HashSet<u64> = HashSet::new();
    for round in 1..=3u32 {
        let drawn = draw_round(&s, id, &token);
        assert_eq!(drawn["bye"], Value::Null);
        let triangle: Vec<u32> = drawn["triangle"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(triangle.len(), 3);
        let matches = drawn["matches"].as_array().unwrap();
        assert_eq!(matches.len(), 5, "two matches and three half-matches");
        let mut rows = Vec::new();
        let mut tables_used = HashSet::new();
        for m in matches {
            let (h, a) = (
                m["home"].as_u64().unwrap() as u32,
                m["away"].as_u64().unwrap() as u32,
            );
            assert!(met.insert(key(h, a)), "round {round}: {h} v {a} met before");
            let half = m["triangle"].as_bool().unwrap();
            assert_eq!(half, triangle.contains(&h) && triangle.contains(&a), "{m}");
            let boards = m["boards"].as_array().unwrap();
            assert_eq!(boards.len(), if half { 2 } else { 4 });
            for b in boards {
                boards_seen.insert(b.as_u64().unwrap());
            }
            for t in m["tables"].as_array().unwrap() {
                assert!(tables_used.insert(t.as_u64().unwrap()), "table {t} twice");
                for b in boards {
                    rows.push(json!({"round": round, "table": t, "board": b,
                        "ns_score": 10 * (rng.below(120) as i64 - 60)}));
                }
            }
        }
        assert_eq!(
            tables_used.len(),
            10,
            "4 tables of matches, 3 triangle tables twice"
        );
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{id}/board-results"),
            Some(&token),
            &json!({ "results": rows }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let lines = s.get(&format!("/api/v1/events/{id}/matches")).json()["matches"].clone();
        let mut total = 0.0;
        for l in lines
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["round"] == round)
        {
            assert_eq!(l["source"], "boards", "{l}");
            let vps =
                l["score"]["vp_home"].as_f64().unwrap() + l["score"]["vp_away"].as_f64().unwrap();
            let full = if l["triangle"] == true { 10.0 } else { 20.0 };
            assert!((vps - full).abs() < 1e-9, "{l}");
            total += vps;
        }
        assert!(
            (total - 70.0).abs() < 1e-9,
            "7 teams: 10 VPs a team a round"
        );
    }
    // Each round's boards: 4 for the matches and 2 more for the triangle's extra set.
    assert_eq!(boards_seen, (1..=18).collect::<HashSet<u64>>());
    let st = s.get(&format!("/api/v1/events/{id}/vp-standings")).json();
    let total: f64 = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["vps"].as_f64().unwrap())
        .sum();
    assert!((total - 210.0).abs() < 1e-6, "{total}");
}

#[test]
fn late_entries_need_the_lots_again_entries_close_at_the_first_draw_and_withdrawn_pairs_rest() {
    let s = spawn();
    let (id, token) = bridge_event(&s, "swiss_pairs", json!({"boards_per_match": 2}));
    s.add_players(id, &token, 4);
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let late = s.add_players(id, &token, 1);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&token),
        &json!({}),
    );
    assert!(r.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains("draw lots again"));
    assert_eq!(draw_lots_by_rating(&s, id, &token).status, 200);
    let one = draw_round(&s, id, &token);
    assert_eq!(
        one["bye"]["number"], 5,
        "five pairs: the lowest-placed has the bye"
    );
    // Entries are closed once a round is drawn.
    s.send(
        "POST",
        &format!("/api/v1/events/{id}/participants"),
        Some(&token),
        &json!({"name": "Too late"}),
    )
    .problem(409);
    // The pair with the bye withdraws: round 2 draws the four others, no bye.
    assert!(late[0]["pairing_number"].is_null());
    let people = s.get(&format!("/api/v1/events/{id}/participants")).json();
    let pid = people["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pairing_number"] == 5)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/participants/{pid}/withdraw"),
        Some(&token),
        &json!({}),
    );
    assert!(r.status < 300, "{}", r.text());
    let entries: Vec<Value> = drawn_pairs(&one)
        .iter()
        .map(|&(_, h, a)| json!({"round": 1, "home": h, "away": a, "imps_home": 5, "imps_away": 1}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/matches"),
        Some(&token),
        &json!({ "matches": entries }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let two = draw_round(&s, id, &token);
    assert_eq!(two["bye"], Value::Null);
    assert_eq!(two["matches"].as_array().unwrap().len(), 2);
    assert!(!two.to_string().contains("\"home\":5") && !two.to_string().contains("\"away\":5"));
    // The withdrawn pair keeps its bye in the standings.
    let st = s.get(&format!("/api/v1/events/{id}/vp-standings")).json();
    let five = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["number"] == 5)
        .unwrap()
        .clone();
    assert_eq!(five["vps"], 12.0);
}
