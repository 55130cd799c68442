//! Swiss events through the API: pair a draft, publish, results, the next round; byes, late
//! entries, deleting a round; drafts hidden from the public.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};

pub(crate) fn swiss_event(s: &TestServer, settings: Value) -> (i64, String) {
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

pub(crate) fn pair(s: &TestServer, event: i64, admin: &str) -> Value {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

pub(crate) fn publish(s: &TestServer, event: i64, admin: &str, n: u64) -> Value {
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

/// A round's boards as (White, Black) pairing numbers.
fn board_numbers(round: &Value) -> Vec<(u64, u64)> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"]["pairing_number"].as_u64().unwrap(),
                g["black"]["pairing_number"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The stateless endpoint's boards as (White, Black) start numbers.
fn engine_pairs(answer: &Value) -> Vec<(u64, u64)> {
    answer["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["white"].as_u64().unwrap(), p["black"].as_u64().unwrap()))
        .collect()
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
    s.add_players(event, &admin, 7);

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
    let numbers: Vec<(u64, u64)> = board_numbers(&one)
        .into_iter()
        .map(|(w, b)| (w.min(b), w.max(b)))
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
    // The pairing sheet as CSV: a line per board, then the bye.
    let sheet = s
        .get(&format!("/api/v1/events/{event}/rounds/1?format=csv"))
        .text();
    let lines: Vec<&str> = sheet.lines().collect();
    assert!(lines[0].starts_with("Board,White No,White,"));
    assert_eq!(lines.len(), 1 + 3 + 1, "{sheet}");
    assert!(lines[1].starts_with("1,"), "{sheet}");
    assert!(
        lines[4].starts_with("Bye,7,Player 7,2340,0,1 (pairing)"),
        "{sheet}"
    );
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
    let mut colours: HashMap<i64, String> = HashMap::new();
    let mut record = |round: &Value| {
        for (w, b) in ids(round) {
            assert!(met.insert((w.min(b), w.max(b))), "rematch {w}-{b}");
            colours.entry(w).or_default().push('W');
            colours.entry(b).or_default().push('B');
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
    // Nobody got the bye twice; colours stay balanced: never the same colour three times in
    // a row, never two more of one colour than of the other.
    assert!(bye_count.values().all(|&c| c <= 1), "{bye_count:?}");
    for (id, c) in &colours {
        assert!(!c.contains("WWW") && !c.contains("BBB"), "{id}: {c}");
        let whites = c.matches('W').count() as i64;
        assert!((2 * whites - c.len() as i64).abs() <= 2, "{id}: {c}");
    }
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
    // The crosstable of a Swiss event: one cell per round, rows in standings order.
    let table = s.get(&format!("/api/v1/events/{event}/crosstable")).json();
    let table_rows = table["rows"].as_array().unwrap();
    assert_eq!(table_rows.len(), 7);
    for (row, standing) in table_rows.iter().zip(rows) {
        assert_eq!(row["participant"]["id"], standing["participant"]["id"]);
        let cells = row["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 4);
        let from_cells: f64 = cells
            .iter()
            .map(|c| match &c.as_str().unwrap()[..1] {
                "W" | "X" | "B" => 1.0,
                "D" | "H" => 0.5,
                _ => 0.0,
            })
            .sum();
        assert_eq!(from_cells, row["total"].as_f64().unwrap(), "{row}");
    }
    let csv = s
        .get(&format!("/api/v1/events/{event}/crosstable?format=csv"))
        .text();
    assert!(csv.starts_with("Position,No,Name,Rating,Rd 1,Rd 2,Rd 3,Rd 4,Total\n"));
    // Standings as CSV: the tie-breaks as columns, in order.
    let csv = s
        .get(&format!("/api/v1/events/{event}/standings?format=csv"))
        .text();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Rank,No,Name,Rating,Points,Modified median,Solkoff,Cumulative,K,Rtg+/-,TPR"
    );
    assert_eq!(lines.count(), 7);
    // Swiss standings default to the US Chess tie-breaks, and carry them.
    assert_eq!(
        standings["tiebreaks"],
        json!(["modified_median", "solkoff", "cumulative"])
    );
    let first = &rows[0];
    assert!(first["solkoff"].as_f64().unwrap() >= first["modified_median"].as_f64().unwrap());
    assert!(first["cumulative"].as_f64().unwrap() > 0.0);
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

    // One player cannot be paired; teams are not for a Swiss event.
    let (event, admin) = swiss_event(&s, json!({}));
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/teams"),
        Some(&admin),
        &json!({"name": "Hastings", "members": [{"name": "A"}]}),
    )
    .problem(409);
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
    s.draw_lots(event, &admin, json!({"method": "rating"}))
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

/// A TRF-16 file of 6 players after 2 rounds (columns as the FIDE format fixes them).
fn trf_file(eol: &str) -> String {
    type Line<'a> = (u32, &'a str, u32, [(u32, char, char); 2]);
    let players: [Line; 6] = [
        (1, "Anna", 2200, [(4, 'w', '1'), (2, 'b', '=')]),
        (2, "Ben", 2150, [(5, 'b', '1'), (1, 'w', '=')]),
        (3, "Cleo", 2100, [(6, 'w', '='), (4, 'b', '1')]),
        (4, "Dan", 2050, [(1, 'b', '0'), (3, 'w', '0')]),
        (5, "Eve", 2000, [(2, 'w', '0'), (6, 'b', '0')]),
        (6, "Finn", 1950, [(3, 'b', '='), (5, 'w', '1')]),
    ];
    let mut out = format!("012 Test Swiss{eol}XXR 5{eol}");
    for (n, name, rating, games) in players {
        let pts: f64 = games
            .iter()
            .map(|g| match g.2 {
                '1' => 1.0,
                '=' => 0.5,
                _ => 0.0,
            })
            .sum();
        let mut line = format!(
            "001 {n:>4}      {name:<33} {rating:>4} {:>3} {:>11} {:>10} {pts:>4.1} {n:>4}",
            "", "", ""
        );
        for (opp, c, r) in games {
            line.push_str(&format!("  {opp:>4} {c} {r}"));
        }
        out.push_str(&line);
        out.push_str(eol);
    }
    out
}

fn post_trf(s: &TestServer, path: &str, text: &str) -> crate::client::Response {
    s.request(
        "POST",
        path,
        &[("Content-Type", "text/plain")],
        Some(text.as_bytes()),
    )
}

#[test]
fn stateless_pairing_from_trf_or_json() {
    let s = spawn();
    let lf = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &trf_file("\n"));
    assert_eq!(lf.status, 200, "{}", lf.text());
    let lf = lf.json();
    assert_eq!(lf["round"], 3);
    // Every player once, no rematch, and the two leaders (Ben 1.5 v Anna 1.5 have met; Cleo 1.5)
    let pairs = engine_pairs(&lf);
    assert_eq!(pairs.len(), 3);
    let mut seen: Vec<u64> = pairs.iter().flat_map(|(w, b)| [*w, *b]).collect();
    seen.sort();
    assert_eq!(seen, vec![1, 2, 3, 4, 5, 6]);
    let played = [(1, 4), (2, 5), (3, 6), (1, 2), (3, 4), (5, 6)];
    for (w, b) in &pairs {
        assert!(!played.contains(&(*w.min(b), *w.max(b))), "rematch {w}-{b}");
    }
    assert_eq!(lf["pairings"][0]["board"], 1);
    assert!(lf["byes"].as_array().unwrap().is_empty());
    assert!(lf["explanation"].as_array().unwrap().len() >= 3);
    // CRLF and CR files give the same answer.
    for eol in ["\r\n", "\r"] {
        let other = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &trf_file(eol));
        assert_eq!(other.status, 200, "{}", other.text());
        assert_eq!(other.json()["pairings"], lf["pairings"]);
    }
    // A Latin-1 file (older Windows programs) with a "Fänn" in it: same answer.
    let latin1: Vec<u8> = trf_file("\r\n")
        .replace("Finn", "F\u{e4}nn")
        .chars()
        .map(|c| c as u8)
        .collect();
    let r = s.request(
        "POST",
        "/api/v1/pairings/swiss?seed=5",
        &[("Content-Type", "text/plain")],
        Some(&latin1),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["pairings"], lf["pairings"]);
    // Settings as query parameters are checked by name.
    let bad = post_trf(&s, "/api/v1/pairings/swiss?colour_rule=3z", &trf_file("\n"));
    assert_eq!(bad.problem(422)["errors"][0]["field"], "colour_rule");
    let bad = post_trf(&s, "/api/v1/pairings/swiss?colour=3a", &trf_file("\n"));
    bad.problem(422);

    // The same section as JSON.
    let state = json!({
        "settings": {"seed": 5, "total_rounds": 5},
        "players": [
            {"start_number": 1, "name": "Anna", "rating": 2200, "history": [
                {"opponent": 4, "colour": "white", "result": "win"},
                {"opponent": 2, "colour": "black", "result": "draw"}]},
            {"start_number": 2, "name": "Ben", "rating": 2150, "history": [
                {"opponent": 5, "colour": "black", "result": "win"},
                {"opponent": 1, "colour": "white", "result": "draw"}]},
            {"start_number": 3, "name": "Cleo", "rating": 2100, "history": [
                {"opponent": 6, "colour": "white", "result": "draw"},
                {"opponent": 4, "colour": "black", "result": "win"}]},
            {"start_number": 4, "name": "Dan", "rating": 2050, "history": [
                {"opponent": 1, "colour": "black", "result": "loss"},
                {"opponent": 3, "colour": "white", "result": "loss"}]},
            {"start_number": 5, "name": "Eve", "rating": 2000, "history": [
                {"opponent": 2, "colour": "white", "result": "loss"},
                {"opponent": 6, "colour": "black", "result": "loss"}]},
            {"start_number": 6, "name": "Finn", "rating": 1950, "history": [
                {"opponent": 3, "colour": "black", "result": "draw"},
                {"opponent": 5, "colour": "white", "result": "win"}]}
        ]
    });
    let j = s.send("POST", "/api/v1/pairings/swiss", None, &state);
    assert_eq!(j.status, 200, "{}", j.text());
    assert_eq!(j.json()["pairings"], lf["pairings"]);

    // A contradiction: Dan says he beat Anna in round 1.
    let mut wrong = state.clone();
    wrong["players"][3]["history"][0]["result"] = json!("win");
    let r = s.send("POST", "/api/v1/pairings/swiss", None, &wrong);
    assert!(r.problem(422)["errors"][0]["field"]
        .as_str()
        .unwrap()
        .starts_with("players["));
    // A player in two games: Eve claims to have played Anna in round 1 too.
    let mut wrong = state.clone();
    wrong["players"][4]["history"][0]["opponent"] = json!(1);
    let r = s.send("POST", "/api/v1/pairings/swiss", None, &wrong);
    assert!(r.problem(422)["errors"][0]["field"]
        .as_str()
        .unwrap()
        .starts_with("players["));
    // An unknown start number.
    let mut wrong = state.clone();
    wrong["players"][0]["history"][0]["opponent"] = json!(99);
    s.send("POST", "/api/v1/pairings/swiss", None, &wrong)
        .problem(422);
    // Malformed JSON names no field but is a 400; a wrong type names the field.
    let r = s.request(
        "POST",
        "/api/v1/pairings/swiss",
        &[("Content-Type", "application/json")],
        Some(b"{\"players\": ["),
    );
    r.problem(400);
    let r = s.send(
        "POST",
        "/api/v1/pairings/swiss",
        None,
        &json!({"players": [{"start_number": "x"}]}),
    );
    assert_eq!(
        r.problem(422)["errors"][0]["field"],
        "players[0].start_number"
    );
    // A malformed TRF line is named.
    let broken = trf_file("\n").replace("001    4", "001    X");
    let r = post_trf(&s, "/api/v1/pairings/swiss", &broken);
    assert_eq!(r.problem(422)["errors"][0]["field"], "line 6");
}

#[test]
fn trf_import_then_export_round_trips() {
    let s = spawn();
    let created = post_trf(&s, "/api/v1/events/trf?seed=5", &trf_file("\r\n"));
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let event = created["id"].as_i64().unwrap();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    assert_eq!(created["name"], "Test Swiss");
    assert_eq!(created["format"], "swiss");
    assert_eq!(created["settings"]["rounds"], 5);
    assert_eq!(created["rounds"], 2);
    let one = s.get(&format!("/api/v1/events/{event}/rounds/1")).json();
    assert_eq!(one["games"].as_array().unwrap().len(), 3);
    assert!(one["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| !g["result"].is_null()));
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let top = &standings["standings"][0];
    assert_eq!(top["points"], 1.5);

    // The export is a TRF file the pairing endpoint reads back to the same next round.
    let exported = s.get(&format!("/api/v1/events/{event}/trf"));
    assert_eq!(exported.status, 200);
    assert!(exported
        .header("content-type")
        .unwrap()
        .starts_with("text/plain"));
    let text = exported.text();
    assert!(text.starts_with("012 Test Swiss\n"));
    let from_export = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &text).json();
    let from_file = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &trf_file("\n")).json();
    assert_eq!(from_export["pairings"], from_file["pairings"]);

    // And the event pairs round 3 the same way (same seed), by participant.
    let three = pair(&s, event, &admin);
    assert_eq!(board_numbers(&three), engine_pairs(&from_file));

    // A finished event (XXR reached) imports; pairing it needs more rounds, by query.
    let finished = trf_file("\n").replace("XXR 5", "XXR 2");
    let r = post_trf(&s, "/api/v1/events/trf", &finished);
    assert_eq!(r.status, 201, "{}", r.text());
    let r = post_trf(&s, "/api/v1/pairings/swiss", &finished);
    assert_eq!(r.problem(422)["errors"][0]["field"], "round");
    let r = post_trf(&s, "/api/v1/pairings/swiss?rounds=3", &finished);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["round"], 3);

    // A bad file creates nothing.
    let before = s.get("/api/v1/events").json()["total"].clone();
    let broken = trf_file("\n").replace("001    2", "001    A");
    post_trf(&s, "/api/v1/events/trf", &broken).problem(422);
    assert_eq!(s.get("/api/v1/events").json()["total"], before);
}

/// Six players, five rounds: every round is a perfect one-factor of K6 minus what was played.
/// Whatever the results, the look-ahead must keep the event completable without a rematch.
#[test]
fn six_players_five_rounds_never_need_a_rematch() {
    let s = spawn();
    for seed in 1..=4u64 {
        let (event, admin) = swiss_event(&s, json!({"rounds": 5, "seed": seed}));
        s.add_players(event, &admin, 6);
        let mut met: HashSet<(i64, i64)> = HashSet::new();
        let mut x = seed;
        for n in 1..=5u64 {
            let round = publish(
                &s,
                event,
                &admin,
                pair(&s, event, &admin)["number"].as_u64().unwrap(),
            );
            assert_eq!(round["number"], n);
            let games = round["games"].as_array().unwrap();
            assert_eq!(games.len(), 3, "seed {seed} round {n}: {round}");
            let mut results = Vec::new();
            for g in games {
                let (w, b) = (
                    g["white"]["id"].as_i64().unwrap(),
                    g["black"]["id"].as_i64().unwrap(),
                );
                assert!(
                    met.insert((w.min(b), w.max(b))),
                    "seed {seed}: rematch in round {n}"
                );
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let result = ["1-0", "0-1", "1/2-1/2"][(x >> 33) as usize % 3];
                results.push(json!({"game_id": g["id"], "result": result}));
            }
            let r = s.send(
                "POST",
                &format!("/api/v1/events/{event}/results"),
                Some(&admin),
                &json!({ "results": results }),
            );
            assert_eq!(r.status, 200, "{}", r.text());
        }
        assert_eq!(met.len(), 15, "all 15 pairs of six players met once");
    }
}

fn pairs_of(round: &Value) -> HashSet<(i64, i64)> {
    ids(round).into_iter().collect()
}

#[test]
fn director_changes_a_draft_and_it_is_rescored() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 11}));
    let players = s.add_players(event, &admin, 8);
    let id = |i: usize| players[i]["id"].as_i64().unwrap();
    let draft = pair(&s, event, &admin);
    let optimum_cost: i64 = draft["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "board")
        .map(|e| e["cost"].as_i64().unwrap())
        .sum();
    let games = ids(&draft);
    let path = |what: &str| format!("/api/v1/events/{event}/rounds/1/{what}");

    // Swap the two Black players of boards 1 and 2: a worse pairing, explained as such.
    let (b1, b2) = (games[0].1, games[1].1);
    let r = s.send(
        "POST",
        &path("swap"),
        Some(&admin),
        &json!({"a": b1, "b": b2}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let swapped = r.json();
    let got = pairs_of(&swapped);
    assert!(
        got.contains(&(games[0].0, b2)) && got.contains(&(games[1].0, b1)),
        "{got:?}"
    );
    assert_eq!(swapped["status"], "draft");
    let notes: Vec<String> = swapped["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "note")
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect();
    assert!(notes.iter().any(|n| n.contains("optimum")), "{notes:?}");
    let swapped_cost: i64 = swapped["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "board")
        .map(|e| e["cost"].as_i64().unwrap())
        .sum();
    assert!(swapped_cost > optimum_cost || swapped_cost > 0, "{swapped}");

    // Swapping opponents exchanges their colours.
    let (w, b) = ids(&swapped)[0];
    let r = s.send(
        "POST",
        &path("swap"),
        Some(&admin),
        &json!({"a": w, "b": b}),
    );
    assert!(pairs_of(&r.json()).contains(&(b, w)));

    // A whole pairing of the director's own; a player left out or unknown is named.
    let mine = json!({"pairings": [
        {"white": id(0), "black": id(1)}, {"white": id(2), "black": id(3)},
        {"white": id(4), "black": id(5)}, {"white": id(6), "black": id(7)}]});
    let r = s.send("PUT", &path("pairings"), Some(&admin), &mine);
    assert_eq!(r.status, 200, "{}", r.text());
    let expected: HashSet<(i64, i64)> = [
        (id(0), id(1)),
        (id(2), id(3)),
        (id(4), id(5)),
        (id(6), id(7)),
    ]
    .into();
    assert_eq!(pairs_of(&r.json()), expected);
    let short = json!({"pairings": [{"white": id(0), "black": id(1)}]});
    let r = s.send("PUT", &path("pairings"), Some(&admin), &short);
    assert_eq!(r.problem(422)["errors"][0]["field"], "pairings");
    let unknown = json!({"pairings": [{"white": 99999, "black": id(1)}]});
    let r = s.send("PUT", &path("pairings"), Some(&admin), &unknown);
    assert_eq!(r.problem(422)["errors"][0]["field"], "pairings[0].white");
    let twice = json!({"pairings": [
        {"white": id(0), "black": id(1)}, {"white": id(0), "black": id(3)},
        {"white": id(4), "black": id(5)}, {"white": id(6), "black": id(7)}]});
    let r = s.send("PUT", &path("pairings"), Some(&admin), &twice);
    assert_eq!(r.problem(422)["errors"][0]["field"], "pairings[1].white");
    // The refused requests changed nothing.
    let auth = format!("Bearer {admin}");
    let now = s
        .request(
            "GET",
            &format!("/api/v1/events/{event}/rounds/1"),
            &[("Authorization", &auth)],
            None,
        )
        .json();
    assert_eq!(pairs_of(&now), expected);

    // Force one board: the rest is paired again around it.
    let r = s.send(
        "POST",
        &path("force"),
        Some(&admin),
        &json!({"pairings": [{"white": id(7), "black": id(0)}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let forced = r.json();
    assert!(pairs_of(&forced).contains(&(id(7), id(0))));
    let mut everyone: Vec<i64> = ids(&forced).iter().flat_map(|(w, b)| [*w, *b]).collect();
    everyone.sort();
    let mut all: Vec<i64> = (0..8).map(id).collect();
    all.sort();
    assert_eq!(everyone, all);

    // A player forced twice is named in the request's terms.
    let r = s.send(
        "POST",
        &path("force"),
        Some(&admin),
        &json!({"pairings": [{"white": id(1), "black": id(2)}, {"white": id(1), "black": id(3)}]}),
    );
    assert_eq!(r.problem(422)["errors"][0]["field"], "pairings[1].white");

    // Only drafts change, and only with the admin token.
    s.send(
        "POST",
        &path("swap"),
        None,
        &json!({"a": id(0), "b": id(1)}),
    )
    .problem(401);
    publish(&s, event, &admin, 1);
    s.send(
        "POST",
        &path("swap"),
        Some(&admin),
        &json!({"a": id(0), "b": id(1)}),
    )
    .problem(409);
    play(
        &s,
        event,
        &admin,
        &s.get(&format!("/api/v1/events/{event}/rounds/1")).json(),
    );

    // Round 2: the director forces a rematch; it is flagged.
    pair(&s, event, &admin);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds/2/force"),
        Some(&admin),
        &json!({"pairings": [{"white": id(0), "black": id(7)}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let flagged = r.json()["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["kind"] == "board" && e["rematch"] == true);
    assert!(flagged, "{}", r.text());
}

#[test]
fn forfeits_export_their_scheduled_colours_and_give_no_colour_history() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 2}));
    s.add_players(event, &admin, 4);
    let one = publish(
        &s,
        event,
        &admin,
        pair(&s, event, &admin)["number"].as_u64().unwrap(),
    );
    let games = one["games"].as_array().unwrap();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [
            {"game_id": games[0]["id"], "result": "+/-"},
            {"game_id": games[1]["id"], "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let text = s.get(&format!("/api/v1/events/{event}/trf")).text();
    let w = games[0]["white"]["pairing_number"].as_u64().unwrap();
    let b = games[0]["black"]["pairing_number"].as_u64().unwrap();
    let line = |n: u64| {
        text.lines()
            .find(|l| l.starts_with(&format!("001 {n:>4}")))
            .unwrap()
            .to_string()
    };
    assert!(line(w).ends_with(&format!("{b:>4} w +")), "{text}");
    assert!(line(b).ends_with(&format!("{w:>4} b -")), "{text}");
    // The file reads back and pairs round 2 like the event does.
    let from_file = post_trf(&s, "/api/v1/pairings/swiss?seed=2", &text);
    assert_eq!(from_file.status, 200, "{}", from_file.text());
    let two = pair(&s, event, &admin);
    assert_eq!(board_numbers(&two), engine_pairs(&from_file.json()));
}

/// Pairings queue for a slot (one per core; here one): while the slot is taken, a stateless
/// pairing and an event's pairing each wait at most the write wait and get a 503 with
/// `Retry-After` (the event keeps no round); once it is free, both are paired.
#[test]
fn pairings_wait_for_a_slot_and_a_long_wait_is_a_503() {
    let s = crate::client::spawn_with_store(|store| {
        store
            .with_write_wait(std::time::Duration::from_millis(300))
            .with_pairing_slots(1)
    });
    let (event, admin) = swiss_event(&s, json!({}));
    s.add_players(event, &admin, 6);
    let rounds = format!("/api/v1/events/{event}/rounds");
    let auth = format!("Bearer {admin}");

    let runtime = actix_web::rt::System::new();
    let slot = runtime
        .block_on(s.store.pairing_turn())
        .expect("the only slot");
    let r = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &trf_file("\n"));
    let p = r.problem(503);
    assert!(
        p["detail"].as_str().unwrap().contains("other pairings"),
        "{p}"
    );
    assert_eq!(r.header("retry-after"), Some("2"));
    let r = s.request("POST", &rounds, &[("Authorization", &auth)], None);
    r.problem(503);
    assert_eq!(s.get(&rounds).json()["items"], json!([]));

    drop(slot);
    let r = post_trf(&s, "/api/v1/pairings/swiss?seed=5", &trf_file("\n"));
    assert_eq!(r.status, 200, "{}", r.text());
    pair(&s, event, &admin);
}
