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
    // the board and the colour, under "Board"
    assert!(
        games[0][1].ends_with("white") || games[0][1].ends_with("black"),
        "{games:?}"
    );
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
    // the contract, then (for a phone, where their columns give way) declarer and result
    assert!(lines[0][4].starts_with("4S"), "{lines:?}");
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

/// What a phone needs: header links that wrap, a wide table that says it scrolls, points with
/// their noun, a result said from the player's side, no empty rating column for a bridge pair,
/// guide cards that name their event, and a bridge crosstable for a bridge pairs event.
#[test]
fn pages_read_on_a_phone_and_say_whose_result() {
    let s = spawn();
    let (event, _admin, players, one) = event_with_rounds(&s);
    let (_, html) = page(&s, &format!("/e/{event}"));
    assert!(html.contains("flex-wrap:wrap"), "the header wraps");
    assert!(
        html.contains(&format!(
            "Swiss open</a> <a href=\"/e/{event}/standings\">Standings</a> <a"
        )),
        "space between the header's links: {html}"
    );
    let (_, html) = page(&s, &format!("/e/{event}/crosstable"));
    assert!(
        html.contains("class=\"hint\""),
        "a wide table says it scrolls"
    );
    // the loser of round 1's first game: "lost 1-0", 0 points; the winner "1 point"
    let game = &one["games"][0];
    let (_, loser) = page(&s, &format!("/e/{event}/players/{}", game["black"]["id"]));
    let rows_of_loser = rows(&loser);
    assert!(rows_of_loser[0][4].starts_with("lost"), "{rows_of_loser:?}");
    assert!(rows_of_loser[0][4].contains("1-0"));
    assert!(loser.contains("0 points"));
    let (_, winner) = page(&s, &format!("/e/{event}/players/{}", game["white"]["id"]));
    assert!(
        winner.contains("1 point<") || winner.contains("1 point "),
        "{winner}"
    );
    assert!(!winner.contains("1 points"));
    assert_eq!(players.len(), 5);
    // standings: one notation for halves
    let s2 = spawn();
    let (e2, a2, _, one2) = event_with_rounds(&s2);
    let g = &one2["games"][1];
    let r = s2.send(
        "POST",
        &format!("/api/v1/events/{e2}/results"),
        Some(&a2),
        &json!({"results": [{"game_id": g["id"], "result": "1/2-1/2"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (_, html) = page(&s2, &format!("/e/{e2}/standings"));
    let table = rows(&html);
    assert!(table.iter().any(|r| r[3] == "½"), "{table:?}");
    assert!(
        table.iter().flatten().all(|c| !c.contains(".5")),
        "{table:?}"
    );

    // bridge: the pair's page has no rating column, the guide cards name the event, the
    // crosstable is the pairs' rounds
    let (bridge, badmin) = crate::bridge_results::mitchell_event(&s, json!({}));
    let (round, table, _, _, boards) = crate::bridge_results::schedule(&s, bridge)[0].clone();
    let row = json!({"round": round, "table": table, "board": boards[0], "contract": "3NT", "declarer": "S", "result": "="});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{bridge}/board-results"),
        Some(&badmin),
        &json!({"results": [row]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let pair = s
        .get(&format!("/api/v1/events/{bridge}/participants?limit=1"))
        .json()["items"][0]["id"]
        .clone();
    let (_, html) = page(&s, &format!("/e/{bridge}/players/{pair}"));
    assert!(!html.contains(">Rtg<"), "no rating column for a pair");
    let (_, html) = page(&s, &format!("/e/{bridge}/guide-cards"));
    let cards = elements(&html, "section.card");
    assert_eq!(cards, 14, "a card per pair");
    assert_eq!(
        elements(&html, "p.event"),
        cards,
        "each card names its event"
    );
    assert_eq!(
        html.matches("<section class=\"card\"><p class=\"event\">")
            .count(),
        cards,
        "the event's name opens each card"
    );
    assert!(html.contains("Tuesday pairs"));
    let (status, html) = page(&s, &format!("/e/{bridge}/crosstable"));
    assert_eq!(status, 200);
    assert!(html.contains("<h2>NS pairs</h2>") && html.contains("<h2>EW pairs</h2>"));
    let cross = rows(&html);
    assert_eq!(cross.len(), 14, "{cross:?}");
    assert!(
        cross
            .iter()
            .all(|r| r[2].starts_with("v EW") || r[2].starts_with("v NS")),
        "{cross:?}"
    );
    assert!(
        cross.iter().any(|r| r[2].ends_with('%')),
        "a scored round shows its percent"
    );
}
