//! Swiss events through the API: pair a draft, publish, results, the next round; byes, late
//! entries, deleting a round; drafts hidden from the public.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};

fn swiss_event(s: &TestServer, settings: Value) -> (i64, String) {
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Swiss open", "game": "chess", "format": "swiss", "settings": settings}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["id"].as_i64().unwrap(),
        v["admin_token"].as_str().unwrap().to_string(),
    )
}

fn pair(s: &TestServer, event: i64, admin: &str) -> Value {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn publish(s: &TestServer, event: i64, admin: &str, n: u64) -> Value {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds/{n}/publish"),
        Some(admin),
        &json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// Higher-rated player wins; equal ratings draw.
fn play(s: &TestServer, event: i64, admin: &str, round: &Value) {
    let results: Vec<Value> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let (w, b) = (g["white"]["rating"].as_i64(), g["black"]["rating"].as_i64());
            let result = match w.cmp(&b) {
                std::cmp::Ordering::Greater => "1-0",
                std::cmp::Ordering::Less => "0-1",
                std::cmp::Ordering::Equal => "1/2-1/2",
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

fn ids(round: &Value) -> Vec<(i64, i64)> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"]["id"].as_i64().unwrap(),
                g["black"]["id"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn tally(scores: &mut HashMap<i64, f64>, round: &Value) {
    for g in round["games"].as_array().unwrap() {
        let (w, b) = (
            g["white"]["id"].as_i64().unwrap(),
            g["black"]["id"].as_i64().unwrap(),
        );
        let (pw, pb) = match g["result"].as_str().unwrap() {
            "1-0" => (1.0, 0.0),
            "0-1" => (0.0, 1.0),
            _ => (0.5, 0.5),
        };
        *scores.entry(w).or_default() += pw;
        *scores.entry(b).or_default() += pb;
    }
    for b in round["byes"].as_array().unwrap() {
        *scores
            .entry(b["participant"]["id"].as_i64().unwrap())
            .or_default() += b["points"].as_f64().unwrap();
    }
}

#[test]
fn swiss_event_from_first_pairing_to_last_round() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 4, "seed": 7}));
    let players = s.add_players(event, &admin, 7);
    let rating: HashMap<i64, i64> = players
        .iter()
        .map(|p| (p["id"].as_i64().unwrap(), p["rating"].as_i64().unwrap()))
        .collect();

    // Round 1 is a draft: numbers by rating, top half v bottom half, the bye to the lowest.
    let one = pair(&s, event, &admin);
    assert_eq!(one["status"], "draft");
    assert_eq!(one["number"], 1);
    assert_eq!(one["games"].as_array().unwrap().len(), 3);
    let byes = one["byes"].as_array().unwrap();
    assert_eq!(byes.len(), 1);
    assert_eq!(byes[0]["participant"]["pairing_number"], 7);
    assert_eq!(byes[0]["kind"], "pairing");
    assert_eq!(byes[0]["points"], 1.0);
    let numbers: Vec<(u64, u64)> = one["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let (w, b) = (
                g["white"]["pairing_number"].as_u64().unwrap(),
                g["black"]["pairing_number"].as_u64().unwrap(),
            );
            (w.min(b), w.max(b))
        })
        .collect();
    assert_eq!(numbers, vec![(1, 4), (2, 5), (3, 6)]);
    // Colours alternate down the boards.
    let top_white: Vec<bool> = one["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["white"]["pairing_number"].as_u64() < g["black"]["pairing_number"].as_u64())
        .collect();
    assert_ne!(top_white[0], top_white[1]);
    assert_ne!(top_white[1], top_white[2]);
    let explanation = one["explanation"].as_array().expect("explanation");
    assert!(explanation.iter().any(|e| e["kind"] == "board"));
    // The seed is stored in the settings.
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["settings"]["seed"],
        7
    );

    // The public does not see the draft; the admin does.
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/rounds/1")).status,
        404
    );
    let listed = s.get(&format!("/api/v1/events/{event}/rounds")).json();
    assert_eq!(listed["total"], 0);
    assert_eq!(listed["items"].as_array().unwrap().len(), 0);
    let auth = format!("Bearer {admin}");
    let seen = s.request(
        "GET",
        &format!("/api/v1/events/{event}/rounds/1"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(seen.status, 200);

    // No results on a draft, no second draft, no pairing without a token.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    r.problem(409);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&admin),
        &json!({}),
    )
    .problem(409);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        None,
        &json!({}),
    )
    .problem(401);

    let one = publish(&s, event, &admin, 1);
    assert_eq!(one["status"], "published");
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/rounds/1")).status,
        200
    );
    // Pairing round 2 before the results are in is refused.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&admin),
        &json!({}),
    );
    assert!(r.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains("no result"));
    play(&s, event, &admin, &one);

    let mut met: HashSet<(i64, i64)> = HashSet::new();
    let mut bye_count: HashMap<i64, u32> = HashMap::new();
    let mut record = |round: &Value| {
        for (w, b) in ids(round) {
            assert!(met.insert((w.min(b), w.max(b))), "rematch {w}-{b}");
        }
        for b in round["byes"].as_array().unwrap() {
            *bye_count
                .entry(b["participant"]["id"].as_i64().unwrap())
                .or_default() += 1;
        }
    };
    record(&one);
    let mut scores: HashMap<i64, f64> = HashMap::new();
    tally(
        &mut scores,
        &s.get(&format!("/api/v1/events/{event}/rounds/1")).json(),
    );

    // Round 2: paired, deleted (no results yet), paired again identically (deterministic).
    let two = pair(&s, event, &admin);
    s.delete(&format!("/api/v1/events/{event}/rounds/1"), Some(&admin))
        .problem(409);
    let r = s.delete(&format!("/api/v1/events/{event}/rounds/2"), Some(&admin));
    assert_eq!(r.status, 204, "{}", r.text());
    let again = pair(&s, event, &admin);
    assert_eq!(ids(&two), ids(&again));
    // Scores before the round are the points of round 1, and score groups are respected at
    // the top: the two winners with the most points meet.
    for g in again["games"].as_array().unwrap() {
        for side in ["white", "black"] {
            let id = g[side]["id"].as_i64().unwrap();
            assert_eq!(
                g[&format!("{side}_score")].as_f64().unwrap(),
                scores.get(&id).copied().unwrap_or(0.0)
            );
        }
    }
    let mut round = publish(&s, event, &admin, 2);
    for n in 2..=4 {
        if n > 2 {
            round = publish(
                &s,
                event,
                &admin,
                pair(&s, event, &admin)["number"].as_u64().unwrap(),
            );
        }
        assert_eq!(round["number"], n);
        record(&round);
        play(&s, event, &admin, &round);
        tally(
            &mut scores,
            &s.get(&format!("/api/v1/events/{event}/rounds/{n}")).json(),
        );
    }
    // Nobody got the bye twice; every player is in every round.
    assert!(bye_count.values().all(|&c| c <= 1), "{bye_count:?}");
    // The planned number of rounds is respected.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&admin),
        &json!({}),
    );
    assert!(r.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains("4 rounds"));

    // Standings agree with the results and byes.
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let rows = standings["items"]
        .as_array()
        .or(standings["standings"].as_array());
    let rows = rows.expect("standings rows");
    assert_eq!(rows.len(), 7);
    for row in rows {
        let id = row["participant"]["id"]
            .as_i64()
            .or(row["id"].as_i64())
            .unwrap();
        let points = row["points"].as_f64().unwrap();
        assert_eq!(points, scores[&id], "{row}");
    }
    let _ = rating;
}

#[test]
fn requested_byes_absences_and_late_entries() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"seed": 3}));
    let players = s.add_players(event, &admin, 6);
    let id = |i: usize| players[i]["id"].as_i64().unwrap();
    let bye = |body: Value| {
        s.send(
            "POST",
            &format!("/api/v1/events/{event}/byes"),
            Some(&admin),
            &body,
        )
    };
    // A half-point bye in round 1 and an absence: 4 players are paired.
    assert_eq!(
        bye(json!({"participant_id": id(0), "round": 1, "points": 0.5})).status,
        201
    );
    assert_eq!(
        bye(json!({"participant_id": id(1), "round": 1, "points": 0})).status,
        201
    );
    bye(json!({"participant_id": id(1), "round": 1, "points": 1})).problem(409);
    assert_eq!(
        bye(json!({"participant_id": id(2), "round": 1, "points": 0.25})).problem(422)["errors"][0]
            ["field"],
        "points"
    );
    assert_eq!(
        bye(json!({"participant_id": 9999, "round": 1, "points": 1})).problem(422)["errors"][0]
            ["field"],
        "participant_id"
    );
    let listed = s.get(&format!("/api/v1/events/{event}/byes")).json();
    assert_eq!(listed["total"], 2);

    let one = pair(&s, event, &admin);
    assert_eq!(one["games"].as_array().unwrap().len(), 2);
    let byes: HashMap<i64, (f64, String)> = one["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["participant"]["id"].as_i64().unwrap(),
                (
                    b["points"].as_f64().unwrap(),
                    b["kind"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect();
    assert_eq!(byes[&id(0)], (0.5, "requested".to_string()));
    assert_eq!(byes[&id(1)], (0.0, "absent".to_string()));
    // Byes of a paired round cannot be removed.
    let bye_id = listed["items"][0]["id"].as_i64().unwrap();
    s.delete(
        &format!("/api/v1/events/{event}/byes/{bye_id}"),
        Some(&admin),
    )
    .problem(409);
    publish(&s, event, &admin, 1);
    play(&s, event, &admin, &one);

    // A late entry: paired from round 2, given half a point for round 1 by the director.
    let late = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        Some(&admin),
        &json!({"name": "Late, Lucy", "rating": 2000}),
    );
    assert_eq!(late.status, 201, "{}", late.text());
    let late = late.json()["id"].as_i64().unwrap();
    assert_eq!(
        bye(json!({"participant_id": late, "round": 1, "points": 0.5})).status,
        201
    );
    // A player already in round 1 cannot be given a bye there.
    bye(json!({"participant_id": id(3), "round": 1, "points": 1})).problem(409);
    let round1 = s.get(&format!("/api/v1/events/{event}/rounds/1")).json();
    assert!(round1["byes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["participant"]["id"] == late && b["points"] == 0.5));

    let two = pair(&s, event, &admin);
    let in_round: Vec<i64> = ids(&two).iter().flat_map(|(w, b)| [*w, *b]).collect();
    assert!(in_round.contains(&late));
    assert_eq!(in_round.len() + two["byes"].as_array().unwrap().len(), 7);
    let late_pn = s
        .get(&format!("/api/v1/events/{event}/participants/{late}"))
        .json()["pairing_number"]
        .clone();
    assert_eq!(late_pn, 7);
    for g in two["games"].as_array().unwrap() {
        for side in ["white", "black"] {
            if g[side]["id"] == late {
                assert_eq!(g[&format!("{side}_score")], 0.5);
            }
        }
    }
}

#[test]
fn swiss_errors_are_clear() {
    let s = spawn();
    // Settings are checked and the field named.
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "chess", "format": "swiss", "settings": {"colour_rule": "3c"}}),
    );
    assert_eq!(r.problem(422)["errors"][0]["field"], "settings.colour_rule");
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "X", "game": "chess", "format": "swiss", "settings": {"round": 5}}),
    );
    assert_eq!(r.problem(422)["errors"][0]["field"], "settings.round");

    // A round robin is not paired round by round.
    let (rr, rr_admin) = s.create_event("round_robin");
    s.send(
        "POST",
        &format!("/api/v1/events/{rr}/rounds"),
        Some(&rr_admin),
        &json!({}),
    )
    .problem(409);

    // One player cannot be paired.
    let (event, admin) = swiss_event(&s, json!({}));
    s.add_players(event, &admin, 1);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&admin),
        &json!({}),
    )
    .problem(409);
    // Another event's token is refused.
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&rr_admin),
        &json!({}),
    )
    .problem(403);
    // Lots cannot be drawn again once a round exists.
    s.add_players(event, &admin, 3);
    pair(&s, event, &admin);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/lots"),
        Some(&admin),
        &json!({"method": "rating"}),
    )
    .problem(409);
    // Nothing was half-written by the refused requests: still one round.
    let auth = format!("Bearer {admin}");
    let listed = s.request(
        "GET",
        &format!("/api/v1/events/{event}/rounds"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(listed.json()["total"], 1);
}
