//! The full life of round-robin events through the API.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::client::{spawn, spawn_on};

fn round(server: &crate::client::TestServer, event: i64, n: u64) -> Value {
    let r = server.get(&format!("/api/v1/events/{event}/rounds/{n}"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

#[test]
fn single_round_robin_from_creation_to_crosstable() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 6);
    let one = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        Some(&admin),
        &json!({"name": "Late, Lucy", "rating": 1500, "club": "XYZ", "federation": "ENG", "external_id": "L1"}),
    );
    assert_eq!(one.status, 201, "{}", one.text());
    assert!(one.header("location").is_some());

    // Draw lots at random with a seed: numbers 1..7, recorded seed.
    let drawn = s.draw_lots(event, &admin, json!({"method": "random", "seed": 42}));
    assert_eq!(drawn.status, 200, "{}", drawn.text());
    let drawn = drawn.json();
    assert_eq!(drawn["event"]["lots"]["seed"], 42);
    let numbers: Vec<u64> = drawn["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pairing_number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=7).collect::<Vec<_>>());
    let order: Vec<i64> = drawn["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();

    // The same seed reproduces the same draw (no results yet).
    let again = s
        .draw_lots(event, &admin, json!({"method": "random", "seed": 42}))
        .json();
    let order2: Vec<i64> = again["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(order, order2);

    // 7 players: the 8-player table, 7 rounds, 3 games and a bye each.
    let rounds = s.get(&format!("/api/v1/events/{event}/rounds")).json();
    assert_eq!(rounds["total"], 7);
    let mut met = HashSet::new();
    let mut byes = HashMap::new();
    let mut game_ids = Vec::new();
    for n in 1..=7 {
        let r = round(&s, event, n);
        assert_eq!(r["games"].as_array().unwrap().len(), 3);
        assert_eq!(r["byes"].as_array().unwrap().len(), 1);
        *byes
            .entry(r["byes"][0]["participant"]["id"].as_i64().unwrap())
            .or_insert(0) += 1;
        for (b, g) in r["games"].as_array().unwrap().iter().enumerate() {
            assert_eq!(g["board"], b as u64 + 1);
            let (w, bl) = (
                g["white"]["id"].as_i64().unwrap(),
                g["black"]["id"].as_i64().unwrap(),
            );
            assert!(met.insert((w.min(bl), w.max(bl))), "pair met twice");
            game_ids.push(g["id"].as_i64().unwrap());
        }
    }
    assert_eq!(met.len(), 21);
    assert!(byes.values().all(|&c| c == 1) && byes.len() == 7);

    // Entries are closed once the schedule exists.
    let late = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        Some(&admin),
        &json!({"name": "Too late"}),
    );
    late.problem(409);

    // Results: all 21 games, by id and by round/board, various notations.
    let notations = ["1-0", "0-1", "1/2-1/2", "½-½", "+/-", "-/+", "1-0"];
    let entries: Vec<Value> = game_ids
        .iter()
        .enumerate()
        .map(|(i, id)| json!({"game_id": id, "result": notations[i % notations.len()]}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": entries}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["changed"] == true));
    assert_eq!(r.json()["results"][3]["result"], "1/2-1/2");

    // The same again changes nothing.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    let first = round(&s, event, 1)["games"][0]["result"].clone();
    if first == "1-0" {
        assert_eq!(r.json()["results"][0]["changed"], false);
    }

    // Standings: 21 games, each worth one point, all decided.
    let st = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let rows = st["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let total: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 21.0);
    let points: Vec<f64> = rows.iter().map(|r| r["points"].as_f64().unwrap()).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "sorted by points");
    assert_eq!(rows[0]["rank"], 1);

    // Crosstable: X on the diagonal, totals equal the standings.
    let ct = s.get(&format!("/api/v1/events/{event}/crosstable")).json();
    let ct_rows = ct["rows"].as_array().unwrap();
    assert_eq!(ct_rows.len(), 7);
    for (i, row) in ct_rows.iter().enumerate() {
        assert_eq!(row["number"], i as u64 + 1);
        let cells = row["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 7);
        assert_eq!(cells[i], "X");
        assert!(cells
            .iter()
            .enumerate()
            .all(|(j, c)| j == i || !c.as_str().unwrap().is_empty()));
        let id = row["participant"]["id"].as_i64().unwrap();
        let standing = rows.iter().find(|r| r["participant"]["id"] == id).unwrap();
        assert_eq!(row["total"], standing["points"]);
    }
    let csv = s.get(&format!("/api/v1/events/{event}/crosstable?format=csv"));
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").unwrap().starts_with("text/csv"));
    let text = csv.text();
    assert!(text.starts_with("No,Name,1,2,3,4,5,6,7,Total,Position\n"));
    assert_eq!(text.lines().count(), 8);
    let by_accept = s.request(
        "GET",
        &format!("/api/v1/events/{event}/crosstable"),
        &[("Accept", "text/csv")],
        None,
    );
    assert_eq!(by_accept.text(), text);

    // Lots cannot be drawn again once results exist.
    s.draw_lots(event, &admin, json!({"method": "rating"}))
        .problem(409);
}

#[test]
fn scorer_tokens_enter_results_but_only_the_admin_changes_them() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 4);
    s.draw_lots(event, &admin, json!({"method": "rating"}));
    let issued = s.send(
        "POST",
        &format!("/api/v1/events/{event}/tokens"),
        Some(&admin),
        &json!({"label": "upload script"}),
    );
    assert_eq!(issued.status, 201, "{}", issued.text());
    let scorer = issued.json()["token"].as_str().unwrap().to_string();
    let token_id = issued.json()["id"].as_i64().unwrap();

    let path = format!("/api/v1/events/{event}/results");
    let r = s.send(
        "POST",
        &path,
        Some(&scorer),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // Same result again: fine, unchanged.
    let r = s.send(
        "POST",
        &path,
        Some(&scorer),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    assert_eq!(r.json()["results"][0]["changed"], false);
    // A different result: the scorer may not (409 naming the field, as in every format).
    let p = s
        .send(
            "POST",
            &path,
            Some(&scorer),
            &json!({"results": [{"round": 1, "board": 1, "result": "0-1"}]}),
        )
        .problem(409);
    assert_eq!(p["errors"][0]["field"], "results[0].result", "{p}");
    assert_eq!(round(&s, event, 1)["games"][0]["result"], "1-0");
    // The admin may.
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "0-1"}]}),
    );
    assert_eq!(r.json()["results"][0]["changed"], true);
    assert_eq!(round(&s, event, 1)["games"][0]["result"], "0-1");
    // A scorer may not do admin things.
    s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&scorer),
        &json!({"name": "x"}),
    )
    .problem(403);
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/tokens"),
        Some(&scorer),
        &json!({}),
    )
    .problem(403);
    // Tokens are listed without the secret; a revoked token stops working.
    let list = s
        .request(
            "GET",
            &format!("/api/v1/events/{event}/tokens"),
            &[("Authorization", &format!("Bearer {admin}"))],
            None,
        )
        .json();
    assert_eq!(list["items"].as_array().unwrap().len(), 2);
    assert!(!list.to_string().contains(&scorer));
    assert_eq!(
        s.delete(
            &format!("/api/v1/events/{event}/tokens/{token_id}"),
            Some(&admin)
        )
        .status,
        204
    );
    s.send(
        "POST",
        &path,
        Some(&scorer),
        &json!({"results": [{"round": 1, "board": 2, "result": "1-0"}]}),
    )
    .problem(401);
}

#[test]
fn double_round_robin_reverses_colours_in_the_second_cycle() {
    let s = spawn();
    let (event, admin) = s.create_event("double_round_robin");
    s.add_players(event, &admin, 6);
    let r = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/rounds")).json()["total"],
        10
    );
    let mut white_count: HashMap<(i64, i64), u32> = HashMap::new();
    for n in 1..=10 {
        for g in round(&s, event, n)["games"].as_array().unwrap() {
            *white_count
                .entry((
                    g["white"]["id"].as_i64().unwrap(),
                    g["black"]["id"].as_i64().unwrap(),
                ))
                .or_default() += 1;
        }
    }
    assert_eq!(white_count.len(), 30, "every ordered pair exactly once");
    assert!(white_count.values().all(|&c| c == 1));
    // By rating: the highest rated gets number 1.
    let numbers = s
        .get(&format!("/api/v1/events/{event}/participants"))
        .json();
    assert_eq!(numbers["items"][0]["name"], "Player 1");
    assert_eq!(numbers["items"][0]["pairing_number"], 1);
}

#[test]
fn data_survives_a_restart_and_events_can_be_deleted() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 3);
    let restarted = spawn_on(&s.db);
    let e = restarted.get(&format!("/api/v1/events/{event}")).json();
    assert_eq!(e["participants"], 3);
    // Updating and deleting need the admin token.
    let r = restarted.send("PATCH", &format!("/api/v1/events/{event}"), Some(&admin), &json!({"name": "Renamed", "start_date": "2026-12-01", "settings": {"tiebreaks": ["sonneborn_berger", "wins"]}}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["name"], "Renamed");
    assert_eq!(r.json()["start_date"], "2026-12-01");
    assert_eq!(
        restarted
            .delete(&format!("/api/v1/events/{event}"), Some(&admin))
            .status,
        204
    );
    restarted
        .get(&format!("/api/v1/events/{event}"))
        .problem(404);
}

#[test]
fn participants_are_edited_withdrawn_and_removed() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let players = s.add_players(event, &admin, 4);
    let id = players[0]["id"].as_i64().unwrap();
    let path = format!("/api/v1/events/{event}/participants/{id}");
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"rating": 2222, "club": "ABC"}),
    );
    assert_eq!(r.json()["rating"], 2222);
    assert_eq!(r.json()["club"], "ABC");
    assert_eq!(r.json()["name"], "Player 1");
    let r = s.send(
        "POST",
        &format!("{path}/withdraw"),
        Some(&admin),
        &json!({}),
    );
    assert_eq!(r.json()["status"], "withdrawn");
    let other = players[1]["id"].as_i64().unwrap();
    assert_eq!(
        s.delete(
            &format!("/api/v1/events/{event}/participants/{other}"),
            Some(&admin)
        )
        .status,
        204
    );
    // Two active players left: too few for a round robin.
    s.draw_lots(event, &admin, json!({"method": "rating"}))
        .problem(409);
    // Pagination.
    let page = s
        .get(&format!(
            "/api/v1/events/{event}/participants?limit=2&offset=1"
        ))
        .json();
    assert_eq!(page["total"], 3);
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
}

#[test]
fn concurrent_writes_all_succeed() {
    let s = std::sync::Arc::new(spawn());
    let (event, admin) = s.create_event("round_robin");
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let s = s.clone();
            let admin = admin.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let r = s.send(
                        "POST",
                        &format!("/api/v1/events/{event}/participants"),
                        Some(&admin),
                        &json!({"name": format!("T{t} P{i}")}),
                    );
                    assert_eq!(r.status, 201, "{}", r.text());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["participants"],
        200
    );
}

#[test]
fn unchanged_resources_answer_304() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    let first = s.get(&path);
    let etag = first.header("etag").unwrap().to_string();
    assert_eq!(
        s.request("GET", &path, &[("If-None-Match", &etag)], None)
            .status,
        304
    );
    s.add_players(event, &admin, 1);
    let changed = s.request("GET", &path, &[("If-None-Match", &etag)], None);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag").unwrap(), etag);
}

#[test]
fn a_whole_event_of_results_in_one_request() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 20);
    let lots = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(lots.status, 200, "{}", lots.text());
    // 19 rounds of 10 games: name them by id, by round and board, alternately.
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    for n in 1..=19u64 {
        for (i, g) in round(&s, event, n)["games"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let result = ["1-0", "0-1", "1/2-1/2"][(n as usize + i) % 3];
            expected.push((g["id"].as_i64().unwrap(), result));
            entries.push(if i % 2 == 0 {
                json!({"game_id": g["id"], "result": result})
            } else {
                json!({"round": n, "board": g["board"], "result": result})
            });
        }
    }
    assert_eq!(entries.len(), 190);
    let path = format!("/api/v1/events/{event}/results");
    let r = s.send("POST", &path, Some(&admin), &json!({ "results": entries }));
    assert_eq!(r.status, 200, "{}", r.text());
    let answered = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(answered.len(), 190);
    assert!(answered.iter().all(|a| a["changed"] == true));
    let stored: Vec<(i64, String)> = (1..=19u64)
        .flat_map(|n| round(&s, event, n)["games"].as_array().unwrap().clone())
        .map(|g| {
            (
                g["id"].as_i64().unwrap(),
                g["result"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (id, result) in &expected {
        assert!(stored.contains(&(*id, result.to_string())), "game {id}");
    }
    // The same batch again changes nothing; one unknown board refuses the whole batch.
    let r = s.send("POST", &path, Some(&admin), &json!({ "results": entries }));
    assert!(r.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["changed"] == false));
    let mut bad = entries.clone();
    bad[0] = json!({"game_id": expected[0].0, "result": "0-1"});
    bad.push(json!({"round": 1, "board": 11, "result": "1-0"}));
    let r = s.send("POST", &path, Some(&admin), &json!({ "results": bad }));
    let p = r.problem(409);
    assert!(
        p["detail"].as_str().unwrap().contains("has no board 11"),
        "{p}"
    );
    let first = round(&s, event, 1)["games"][0].clone();
    assert_eq!(first["id"].as_i64().unwrap(), expected[0].0);
    assert_eq!(first["result"], expected[0].1, "all or nothing");
}
