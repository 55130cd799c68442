//! The public web pages: each parses as HTML (the `tl` parser), holds the expected rows,
//! escapes names, hides drafts, answers 404 pages and ETags.

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};
use crate::swiss::{pair, publish, swiss_event};

/// The page's table rows (the `td` texts of each `tr` holding any), in order.
fn rows(html: &str) -> Vec<Vec<String>> {
    let dom = tl::parse(html, tl::ParserOptions::default()).expect("the page parses");
    let parser = dom.parser();
    dom.query_selector("tr")
        .expect("a selector")
        .filter_map(|h| h.get(parser)?.as_tag().cloned())
        .map(|tr| {
            tr.children()
                .top()
                .iter()
                .filter_map(|c| c.get(parser)?.as_tag())
                .filter(|t| t.name() == "td")
                .map(|td| td.inner_text(parser).trim().to_string())
                .collect::<Vec<String>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect()
}

fn page(s: &TestServer, path: &str) -> (u16, String) {
    let r = s.get(path);
    let ct = r.header("content-type").unwrap_or_default().to_string();
    assert!(ct.starts_with("text/html"), "{path}: {ct}");
    (r.status, r.text())
}

fn elements(html: &str, selector: &str) -> usize {
    let dom = tl::parse(html, tl::ParserOptions::default()).expect("the page parses");
    dom.query_selector(selector).map_or(0, |q| q.count())
}

const EVIL: &str = "<script>alert('x')</script> & Co";

/// A Swiss event of five, round 1 published with one result, round 2 a draft.
fn event_with_rounds(s: &TestServer) -> (i64, String, Vec<Value>, Value) {
    let (event, admin) = swiss_event(s, json!({"rounds": 3, "seed": 4}));
    let list: Vec<Value> = [
        ("Anna", 2200),
        (EVIL, 2100),
        ("Cleo", 2000),
        ("Dan", 1900),
        ("Eve", 1800),
    ]
    .iter()
    .map(|(n, r)| json!({"name": n, "rating": r}))
    .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": list }),
    );
    let players = r.json()["items"].as_array().unwrap().clone();
    pair(s, event, &admin);
    let one = publish(s, event, &admin, 1);
    let g = &one["games"][0];
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": g["id"], "result": "1-0"}]}),
    );
    (event, admin, players, one)
}

#[test]
fn the_event_round_standings_crosstable_and_player_pages() {
    let s = spawn();
    let (event, admin, players, one) = event_with_rounds(&s);
    let (status, html) = page(&s, &format!("/e/{event}"));
    assert_eq!(status, 200);
    assert!(html.contains("Swiss open"));
    let listed = rows(&html);
    assert_eq!(
        listed.len(),
        1,
        "round 1 only, the draft hidden: {listed:?}"
    );
    assert_eq!(listed[0][0], "Round 1");
    assert_eq!(listed[0][1], "2", "two games");
    assert_eq!(listed[0][2], "1", "one result");
    assert!(
        html.contains("href=\"/docs/\""),
        "the pages link the API docs"
    );

    // The pairing sheet: one row per board with both names and the result, then the bye.
    let (status, html) = page(&s, &format!("/e/{event}/rounds/1"));
    assert_eq!(status, 200);
    let sheet = rows(&html);
    assert_eq!(sheet.len(), 3, "2 boards and a bye: {sheet:?}");
    let g = &one["games"][0];
    assert_eq!(sheet[0][0], g["board"].to_string());
    assert!(sheet[0][1].contains(
        g["white"]["name"]
            .as_str()
            .unwrap()
            .split('<')
            .next()
            .unwrap()
    ));
    assert_eq!(sheet[0][4], "1-0");
    assert_eq!(sheet[1][4], "", "no result yet");
    assert_eq!(sheet[2][2], "pairing", "{:?}", sheet[2]);
    // The name with markup is text, never markup.
    assert_eq!(elements(&html, "script"), 0);
    assert!(html.contains("&lt;script&gt;alert('x')&lt;/script&gt; &amp; Co"));

    // Standings: every player, points, the tie-break columns.
    let (status, html) = page(&s, &format!("/e/{event}/standings"));
    assert_eq!(status, 200);
    let table = rows(&html);
    assert_eq!(table.len(), 5);
    assert_eq!(table[0][3], "1", "a win or the bye on top");
    assert_eq!(
        table[0].len(),
        4 + 3 + 4,
        "the three US tie-breaks by default, then K, rating change, TPR and norms"
    );
    assert_eq!(elements(&html, "script"), 0);

    // Crosstable (Swiss): one cell per round.
    let (status, html) = page(&s, &format!("/e/{event}/crosstable"));
    assert_eq!(status, 200);
    let cross = rows(&html);
    assert_eq!(cross.len(), 5);
    assert!(
        cross.iter().any(|r| r.contains(&"B".to_string())),
        "{cross:?}"
    );
    assert!(cross
        .iter()
        .any(|r| r.iter().any(|c| c.starts_with('W') && c.len() > 1)));

    // A player's page: the game of round 1, and `next` for the player still playing.
    let waiting = &one["games"][1]["white"];
    let (status, html) = page(&s, &format!("/e/{event}/players/{}", waiting["id"]));
    assert_eq!(status, 200);
    assert!(html.contains("Now: round 1"), "{html}");
    let games = rows(&html);
    assert_eq!(games.len(), 1);
    assert!(games[0][1].starts_with("board"));
    // The escaped player's own page.
    let evil = players.iter().find(|p| p["name"] == EVIL).unwrap();
    let (_, html) = page(&s, &format!("/e/{event}/players/{}", evil["id"]));
    assert_eq!(elements(&html, "script"), 0);
    assert!(html.contains("<title>&lt;script&gt;"));

    // Round 2 paired but a draft: on no page.
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": one["games"][1]["id"], "result": "0-1"}]}),
    );
    pair(&s, event, &admin);
    assert_eq!(rows(&page(&s, &format!("/e/{event}")).1).len(), 1);
    assert_eq!(page(&s, &format!("/e/{event}/rounds/2")).0, 404);
}

#[test]
fn pages_answer_404_pages_and_etags() {
    let s = spawn();
    let (event, _, _, _) = event_with_rounds(&s);
    for path in [
        "/e/999999".to_string(),
        format!("/e/{event}/players/999999"),
        format!("/e/{event}/rounds/9"),
        "/e/not-a-number".to_string(),
        format!("/e/{event}/players/abc"),
        format!("/e/{event}/nothing-here"),
        format!("/e/{event}/guide-cards"),
    ] {
        let (status, html) = page(&s, &path);
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("<h1>Not found</h1>"), "{path}: {html}");
    }
    let path = format!("/e/{event}/standings");
    let first = s.get(&path);
    let etag = first.header("etag").expect("an ETag").to_string();
    let again = s.request("GET", &path, &[("If-None-Match", &etag)], None);
    assert_eq!(again.status, 304);
}

#[test]
fn bridge_guide_cards_print_one_pair_per_page() {
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
    s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}),
    );
    s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    let (status, html) = page(&s, &format!("/e/{event}/guide-cards"));
    assert_eq!(status, 200);
    assert_eq!(elements(&html, "section.card"), 14);
    assert_eq!(rows(&html).len(), 14 * 7, "a line per pair and round");
    assert!(
        html.contains(".card{break-after:page"),
        "print CSS breaks pages"
    );
    let (_, event_page) = page(&s, &format!("/e/{event}"));
    assert!(event_page.contains(&format!("/e/{event}/guide-cards")));
    assert!(event_page.contains(&format!("/e/{event}/rounds/7")));
    // A round's table assignments: 7 tables, both pairs named at each.
    let (status, html) = page(&s, &format!("/e/{event}/rounds/2"));
    assert_eq!(status, 200);
    let tables = rows(&html);
    assert_eq!(tables.len(), 7);
    assert!(
        tables[0][1].starts_with("NS 1") && tables[0][2].starts_with("EW 7"),
        "{tables:?}"
    );
    assert!(tables
        .iter()
        .all(|t| t[1].contains("Player") && t[2].contains("Player")));
    assert_eq!(page(&s, &format!("/e/{event}/rounds/8")).0, 404);

    // Bridge standings per direction and a traveller, once a result is in.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "table": 1, "board": 1, "contract": "4S", "declarer": "N", "tricks": 10}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (status, html) = page(&s, &format!("/e/{event}/standings"));
    assert_eq!(status, 200);
    assert!(
        html.contains("<h2>NS</h2>") && html.contains("<h2>EW</h2>"),
        "{html}"
    );
    assert_eq!(rows(&html).len(), 14, "7 NS and 7 EW pairs");
    assert!(html.contains(&format!("/e/{event}/travellers/21")));
    let (status, html) = page(&s, &format!("/e/{event}/travellers/1"));
    assert_eq!(status, 200);
    let lines = rows(&html);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0][4], "4S");
    assert_eq!(lines[0][8], "420");
    assert_eq!(page(&s, &format!("/e/{event}/travellers/99")).0, 404);
}

#[test]
fn a_team_event_shows_team_standings_above_the_players() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "County match", "game": "chess", "format": "scheveningen"}),
    );
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    for (name, top) in [("Hastings", 2300), ("Oxford", 2400)] {
        let members: Vec<Value> = (0..2)
            .map(|i| json!({"name": format!("{name} {}", i + 1), "rating": top - 10 * i}))
            .collect();
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/teams"),
            Some(&admin),
            &json!({"name": name, "members": members}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let games = s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"].clone();
    let results: Vec<Value> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| json!({"game_id": g["id"], "result": "1-0"}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({ "results": results }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (status, html) = page(&s, &format!("/e/{event}/standings"));
    assert_eq!(status, 200);
    assert!(html.contains("<h2>Teams</h2>"));
    assert_eq!(elements(&html, "table.teams"), 1);
    let table = rows(&html);
    // two team rows, then four players
    assert_eq!(table.len(), 2 + 4, "{table:?}");
    assert!(table[0][1].contains("Oxford") || table[0][1].contains("Hastings"));
    // 2 v 2 Scheveningen: 4 games in 2 rounds, round 1 scored
    assert_eq!(table[0][7], "2/4");
}

#[test]
fn a_swiss_teams_event_shows_its_matches_and_vp_standings() {
    use crate::bridge_team_events::{bridge_event, draw_lots_by_rating};
    let s = spawn();
    let (event, admin) = bridge_event(&s, "swiss_teams", json!({"rounds": 3}));
    for k in 1..=5 {
        let name = if k == 1 {
            EVIL.to_string()
        } else {
            format!("Team {k}")
        };
        let members: Vec<Value> = (0..4)
            .map(|i| json!({"name": format!("{name} player {i}"), "rating": 2000 - 10 * k - i}))
            .collect();
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/teams"),
            Some(&admin),
            &json!({"name": name, "members": members}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
    }
    assert_eq!(draw_lots_by_rating(&s, event, &admin).status, 200);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let drawn = r.json();
    let first = &drawn["matches"][0];
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/matches"),
        Some(&admin),
        &json!({"matches": [{"round": 1, "home": first["home"], "away": first["away"], "imps_home": 30, "imps_away": 0}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());

    let (status, html) = page(&s, &format!("/e/{event}"));
    assert_eq!(status, 200);
    assert!(html.contains(&format!("/e/{event}/rounds/1")), "{html}");
    // Round 1: two matches (five teams: one bye), the first scored, the other waiting.
    let (status, html) = page(&s, &format!("/e/{event}/rounds/1"));
    assert_eq!(status, 200);
    assert!(!html.contains("<script>alert"), "names are escaped");
    let table = rows(&html);
    assert_eq!(table.len(), 2, "{table:?}");
    assert_eq!(table[0][3], "30–0", "{table:?}");
    assert!(html.contains("Bye:"), "the bye is shown");
    // Standings: every team, the winner of the scored match first with its VPs.
    let (status, html) = page(&s, &format!("/e/{event}/standings"));
    assert_eq!(status, 200);
    assert!(!html.contains("<script>alert"));
    let api = s
        .get(&format!("/api/v1/events/{event}/vp-standings"))
        .json();
    let table = rows(&html);
    let top = &api["standings"][0];
    assert_eq!(table[0][1], top["number"].to_string(), "{table:?}");
    assert_eq!(
        table.len(),
        5 + 5,
        "five standings rows and five cross-table rows"
    );
    // A round not drawn is a 404 page.
    assert_eq!(page(&s, &format!("/e/{event}/rounds/2")).0, 404);
}
