//! A player's own view: the games of one participant round by round with `next`, and the
//! "find me" search by a piece of the name.

use serde_json::{json, Value};

use crate::client::spawn;
use crate::swiss::{pair, publish, swiss_event};

fn names(page: &Value) -> Vec<&str> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

#[test]
fn a_players_games_round_by_round_and_where_they_sit_next() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 11}));
    let people = [
        ("Anna Kowalska", 2200),
        ("Björn Änneson", 2100),
        ("Łukasz Łódź", 2000),
        ("JOHANN Berg", 1900),
        ("Zoë Ward", 1800),
    ];
    let list: Vec<Value> = people
        .iter()
        .map(|(name, rating)| json!({"name": name, "rating": rating}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": list }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let ids: Vec<i64> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();

    // A draft round is not shown to a player.
    let draft = pair(&s, event, &admin);
    let games_of = |pid: i64| {
        s.get(&format!("/api/v1/events/{event}/participants/{pid}/games"))
            .json()
    };
    let anna = games_of(ids[0]);
    assert_eq!(anna["rounds"], json!([]));
    assert_eq!(anna["next"], Value::Null);

    publish(&s, event, &admin, 1);
    let game = draft["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["white"]["id"] == ids[0] || g["black"]["id"] == ids[0])
        .expect("Anna plays round 1")
        .clone();
    let anna_white = game["white"]["id"] == ids[0];
    let opponent = if anna_white {
        &game["black"]
    } else {
        &game["white"]
    };
    // Published, no result yet: the game is the player's `next`.
    let anna = games_of(ids[0]);
    let rounds = anna["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0]["round"], 1);
    assert_eq!(rounds[0]["board"], game["board"]);
    assert_eq!(
        rounds[0]["colour"],
        if anna_white { "white" } else { "black" }
    );
    assert_eq!(rounds[0]["opponent"]["id"], opponent["id"]);
    assert_eq!(rounds[0]["opponent"]["rating"], opponent["rating"]);
    assert_eq!(rounds[0]["opponent"]["score"], 0.0);
    assert_eq!(rounds[0]["result"], Value::Null);
    assert_eq!(anna["next"]["board"], game["board"]);
    assert_eq!(anna["next"]["opponent"]["id"], opponent["id"]);

    // The odd player out has the pairing bye, and no `next`.
    let bye = &draft["byes"][0]["participant"]["id"];
    let bye_view = games_of(bye.as_i64().unwrap());
    assert_eq!(bye_view["rounds"][0]["bye"], "pairing");
    assert_eq!(bye_view["rounds"][0]["points"], 1.0);
    assert_eq!(bye_view["points"], 1.0);
    assert_eq!(bye_view["next"], Value::Null);

    // Anna wins: the result and points show, the opponent's score too, `next` is gone.
    let result = if anna_white { "1-0" } else { "0-1" };
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": game["id"], "result": result}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let anna = games_of(ids[0]);
    assert_eq!(anna["rounds"][0]["result"], result);
    assert_eq!(anna["rounds"][0]["points"], 1.0);
    assert_eq!(anna["points"], 1.0);
    assert_eq!(anna["next"], Value::Null);
    let theirs = games_of(opponent["id"].as_i64().unwrap());
    assert_eq!(theirs["rounds"][0]["points"], 0.0);
    assert_eq!(theirs["rounds"][0]["opponent"]["score"], 1.0);

    // Unknown participant or event: 404 problems.
    let r = s.get(&format!("/api/v1/events/{event}/participants/999999/games"));
    assert_eq!(r.status, 404);
    let r = s.get(&format!(
        "/api/v1/events/999999/participants/{}/games",
        ids[0]
    ));
    assert_eq!(r.status, 404);

    // "Find me": case and accents aside, a piece of the name.
    let find = |q: &str| {
        s.get(&format!("/api/v1/events/{event}/participants?search={q}"))
            .json()
    };
    let ann = find("ann");
    let mut found = names(&ann);
    found.sort();
    assert_eq!(found, vec!["Anna Kowalska", "Björn Änneson", "JOHANN Berg"]);
    assert_eq!(ann["total"], 3);
    assert_eq!(names(&find("LODZ")), vec!["Łukasz Łódź"]);
    assert_eq!(names(&find("zo%C3%AB")), vec!["Zoë Ward"]);
    assert_eq!(names(&find("zoe")), vec!["Zoë Ward"]);
    assert_eq!(find("nobody")["total"], 0);
    // Pagination applies to the matches.
    let page = s
        .get(&format!(
            "/api/v1/events/{event}/participants?search=ann&limit=2&offset=2"
        ))
        .json();
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    assert_eq!(page["total"], 3);
    // No search: everyone.
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/participants"))
            .json()["total"],
        5
    );
    // A search text has a bound.
    let long = "a".repeat(101);
    let r = s.get(&format!(
        "/api/v1/events/{event}/participants?search={long}"
    ));
    assert_eq!(r.problem(422)["errors"][0]["field"], "search");
}

#[test]
fn a_bridge_pair_sees_its_table_direction_and_opponents() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Tuesday pairs", "game": "bridge", "format": "pairs"}),
    );
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    s.add_players(event, &admin, 14);
    let first = s
        .get(&format!("/api/v1/events/{event}/participants?limit=1"))
        .json()["items"][0]["id"]
        .as_i64()
        .unwrap();
    // No movement yet: no rounds.
    let view = s
        .get(&format!(
            "/api/v1/events/{event}/participants/{first}/games"
        ))
        .json();
    assert_eq!(view["rounds"], json!([]));
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    assert_eq!(r.status, 200, "{}", r.text());
    // Each round of a pair's view is its guide card's line, with the opponents' names.
    let cards = s.get(&format!("/api/v1/events/{event}/guide-cards")).json();
    for card in cards.as_array().unwrap().iter().take(3) {
        let pid = card["participant"]["id"].as_i64().unwrap();
        let view = s
            .get(&format!("/api/v1/events/{event}/participants/{pid}/games"))
            .json();
        let rounds = view["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 7);
        for (round, line) in rounds.iter().zip(card["lines"].as_array().unwrap()) {
            assert_eq!(round["table"], line["table"]);
            assert_eq!(round["direction"], line["direction"]);
            assert_eq!(round["boards"], line["boards"]);
            assert!(round["opponent"]["name"].is_string(), "{round}");
            assert_eq!(round["board"], Value::Null);
        }
        // no result in yet: the pair sits at its round 1 table
        assert_eq!(view["next"], rounds[0]);
    }
}

/// Board results of the tables `(round, table, boards)` as JSON rows: a few different
/// contracts so that the scores differ.
fn board_rows(tables: &[(u32, u32, Vec<u32>)]) -> Value {
    const PLAYS: [(&str, &str, &str); 4] = [
        ("3NT", "N", "="),
        ("4S", "S", "+1"),
        ("2H", "E", "-1"),
        ("1NT", "W", "="),
    ];
    let mut rows = Vec::new();
    for (round, table, boards) in tables {
        for &b in boards {
            let (contract, declarer, result) = PLAYS[((b * 7 + table * 3 + round) % 4) as usize];
            rows.push(json!({"round": round, "table": table, "board": b, "contract": contract, "declarer": declarer, "result": result}));
        }
    }
    json!({ "results": rows })
}

#[test]
fn a_bridge_pairs_rounds_are_scored_as_the_standings_and_next_follows_the_results() {
    use crate::bridge_results::{mitchell_event, schedule};
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let sched = schedule(&s, event);
    let post = |tables: Vec<(u32, u32, Vec<u32>)>| {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/board-results"),
            Some(&admin),
            &board_rows(&tables),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    };
    let cards = s.get(&format!("/api/v1/events/{event}/guide-cards")).json();
    let pids: Vec<i64> = cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["participant"]["id"].as_i64().unwrap())
        .collect();
    assert_eq!(pids.len(), 14);
    let view = |pid: i64| {
        s.get(&format!("/api/v1/events/{event}/participants/{pid}/games"))
            .json()
    };
    // Nothing in: every pair's next is its round 1 table, nothing scored.
    for &pid in &pids {
        let v = view(pid);
        assert_eq!(v["next"], v["rounds"][0], "{v}");
        assert_eq!(v["next"]["round"], 1);
        assert_eq!(v["next"]["boards_scored"], 0);
        assert_eq!(v["rounds"][0]["points"], Value::Null);
        assert_eq!(v["points"], 0.0);
        assert_eq!(v["percent"], Value::Null);
    }
    // Round 1 and 2 in, round 3 in for all but the last board of table 1.
    let of_rounds = |rounds: &[u32]| -> Vec<(u32, u32, Vec<u32>)> {
        sched
            .iter()
            .filter(|t| rounds.contains(&t.0))
            .map(|(r, t, _, _, b)| (*r, *t, b.clone()))
            .collect()
    };
    post(of_rounds(&[1]));
    for &pid in &pids {
        assert_eq!(view(pid)["next"]["round"], 2, "round 1 is in");
    }
    let mut third = of_rounds(&[2, 3]);
    let short = third.iter_mut().find(|t| t.0 == 3 && t.1 == 1).unwrap();
    short.2.pop();
    post(third);

    let standings = s
        .get(&format!("/api/v1/events/{event}/bridge-standings"))
        .json();
    let mut by_participant = std::collections::HashMap::new();
    for ranking in standings["rankings"].as_array().unwrap() {
        for e in ranking["entries"].as_array().unwrap() {
            by_participant.insert(e["participant_id"].as_i64().unwrap(), e.clone());
        }
    }
    for &pid in &pids {
        let v = view(pid);
        let entry = &by_participant[&pid];
        // The pair's figures are the standings'.
        assert_eq!(v["points"], entry["total"], "{v}");
        assert_eq!(v["percent"], entry["percent"], "{v}");
        let rounds = v["rounds"].as_array().unwrap();
        // Each round is the sum of the score card's boards of that round.
        let direction = entry["line"]
            .as_str()
            .or(standings["rankings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["entries"].as_array().unwrap().contains(entry))
                .and_then(|r| r["direction"].as_str()))
            .unwrap()
            .to_ascii_lowercase();
        let card = s
            .get(&format!(
                "/api/v1/events/{event}/pairs/{}/scorecard?direction={direction}",
                entry["pair"]
            ))
            .json();
        let lines = card["lines"].as_array().unwrap();
        let mut sum = 0.0;
        let mut boards = 0;
        for r in rounds {
            let of_round: Vec<&Value> = lines.iter().filter(|l| l["round"] == r["round"]).collect();
            assert_eq!(r["boards_scored"], of_round.len(), "{r}");
            if of_round.is_empty() {
                assert_eq!(r["points"], Value::Null, "{r}");
                continue;
            }
            let card_sum: f64 = of_round.iter().map(|l| l["points"].as_f64().unwrap()).sum();
            let points = r["points"].as_f64().unwrap();
            // the card shows each board to 2 decimals, the round adds them unrounded
            assert!(
                (points - card_sum).abs() <= 0.005 * of_round.len() as f64 + 1e-9,
                "{r} {card_sum}"
            );
            assert!(r["percent"].as_f64().unwrap() >= 0.0);
            assert_eq!(r["table"], of_round[0]["table"]);
            assert_eq!(r["direction"], direction);
            sum += points;
            boards += of_round.len();
        }
        assert_eq!(boards as u64, entry["boards"].as_u64().unwrap());
        let total = entry["total"].as_f64().unwrap();
        assert!((sum - total).abs() <= 0.005 * 3.0 + 1e-9, "{sum} {total}");
        // The opponents' score is their total in the standings.
        for r in rounds {
            let o = &r["opponent"];
            assert_eq!(
                o["score"],
                by_participant[&o["id"].as_i64().unwrap()]["total"]
            );
        }
        // next: the two pairs of table 1 are still in round 3, everyone else in round 4.
        let at_short_table = rounds[2]["table"] == 1;
        if at_short_table {
            assert_eq!(v["next"]["round"], 3, "{v}");
            assert_eq!(v["next"]["boards_scored"], 2);
            assert_eq!(v["next"]["table"], 1);
        } else {
            assert_eq!(v["next"]["round"], 4, "{v}");
            assert_eq!(v["next"]["boards_scored"], 0);
            assert_eq!(v["next"]["table"], rounds[3]["table"]);
            assert_eq!(v["next"]["direction"], rounds[3]["direction"]);
        }
    }
    // The page shows the round's score and where the pair sits now.
    let pid = pids[0];
    let v = view(pid);
    let page = s.get(&format!("/e/{event}/players/{pid}")).text();
    assert!(
        page.contains(&format!("Now: round {}", v["next"]["round"])),
        "{page}"
    );
    let first = v["rounds"][0]["points"].as_f64().unwrap();
    assert!(
        page.contains(&format!("<td class=\"n\">{first}</td>")),
        "{page}"
    );
    // Every board in: no next.
    post(of_rounds(&[3, 4, 5, 6, 7]));
    for &pid in &pids {
        assert_eq!(view(pid)["next"], Value::Null);
    }
}
