//! Hand records end to end: a whole Mitchell and a whole Howell pairs session and a teams
//! event played through the API on 36 seeded deals, each board's double-dummy table and par
//! compared with endplay's (which binds the C++ DDS; `tests/fixtures/bridge/endplay_36.json`,
//! written by `scripts/bridge-readers.py fixture`), the PBN and USEBIO exports read back
//! (every traveller line and player present, well-formed XML), and bad hand records and
//! leads refused naming the board or row with nothing stored.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value};

use crate::bridge_team_events::{add_bridge_team, bridge_event, draw_lots_by_rating};
use crate::client::{spawn, wait_until, TestServer};

const FIXTURE: &str = include_str!("../fixtures/bridge/endplay_36.json");

/// The fixture's boards by number.
fn fixture() -> BTreeMap<u32, Value> {
    let doc: Value = serde_json::from_str(FIXTURE).unwrap();
    doc["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["board"].as_u64().unwrap() as u32, b.clone()))
        .collect()
}

/// A PBN hand-record file of the fixture's `boards`.
fn pbn_of(boards: &[u32]) -> String {
    let f = fixture();
    let mut out = String::from("% PBN 2.1\n");
    for b in boards {
        let x = &f[b];
        let vul = match x["vulnerability"].as_str().unwrap() {
            "none" => "None",
            "ns" => "NS",
            "ew" => "EW",
            _ => "All",
        };
        out.push_str(&format!(
            "\n[Board \"{b}\"]\n[Dealer \"{}\"]\n[Vulnerable \"{vul}\"]\n[Deal \"{}\"]\n",
            x["dealer"].as_str().unwrap(),
            x["deal"].as_str().unwrap()
        ));
    }
    out
}

fn put_deals(
    s: &TestServer,
    event: i64,
    token: &str,
    pbn: &str,
    query: &str,
) -> crate::client::Response {
    let auth = format!("Bearer {token}");
    s.request(
        "PUT",
        &format!("/api/v1/events/{event}/deals{query}"),
        &[("Content-Type", "text/plain"), ("Authorization", &auth)],
        Some(pbn.as_bytes()),
    )
}

/// Waits for the worker to analyse every deal of the event; the deals JSON then.
fn analysed(s: &TestServer, event: i64) -> Value {
    let mut last = Value::Null;
    wait_until(
        Duration::from_secs(600),
        "the double-dummy analysis",
        || {
            last = s.get(&format!("/api/v1/events/{event}/deals")).json();
            last["pending"] == 0
        },
    );
    last
}

/// Every board's table and par equal endplay's (DDS) for that deal, vulnerability and dealer.
fn assert_like_endplay(deals: &Value) {
    let f = fixture();
    for d in deals["deals"].as_array().unwrap() {
        let b = d["board"].as_u64().unwrap() as u32;
        let a = &d["analysis"];
        assert_eq!(a["status"], "done", "board {b}");
        assert_eq!(
            a["double_dummy"], f[&b]["double_dummy"],
            "board {b}'s table"
        );
        assert_eq!(
            a["par"]["score"], f[&b]["par"]["score"],
            "board {b}'s par score"
        );
        let set = |v: &Value| {
            let mut c: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|c| format!("{} {} {}", c["contract"], c["declarer"], c["result"]))
                .collect();
            c.sort();
            c.dedup();
            c
        };
        assert_eq!(
            set(&a["par"]["contracts"]),
            set(&f[&b]["par"]["contracts"]),
            "board {b}'s par contracts"
        );
    }
}

/// The PBN `DoubleDummyTricks` value of a fixture table (declarers N, S, E, W; NT S H D C).
fn dd_tricks(table: &Value) -> String {
    ["N", "S", "E", "W"]
        .iter()
        .flat_map(|seat| {
            ["NT", "S", "H", "D", "C"]
                .iter()
                .map(move |st| table[seat][st].as_u64().unwrap())
        })
        .map(|t| std::char::from_digit(t as u32, 16).unwrap())
        .collect()
}

/// (round, table, boards) of every table of a movement's JSON.
fn tables_of(rounds: &Value) -> Vec<(u64, u64, Vec<u32>)> {
    let mut out = Vec::new();
    for r in rounds.as_array().unwrap() {
        for t in r["tables"].as_array().unwrap() {
            if t["ns"].is_null() || t["ew"].is_null() {
                continue;
            }
            let boards = t["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap() as u32)
                .collect();
            out.push((
                r["round"].as_u64().unwrap(),
                t["table"].as_u64().unwrap(),
                boards,
            ));
        }
    }
    out
}

/// A result for every board at every table: 3NT by North taking its double-dummy tricks, led
/// by East (who holds the lead), with a passed-out board and an adjusted score among them.
fn play_everything(
    s: &TestServer,
    event: i64,
    token: &str,
    tables: &[(u64, u64, Vec<u32>)],
) -> usize {
    let f = fixture();
    let mut rows = Vec::new();
    for (k, (round, table, boards)) in tables.iter().enumerate() {
        for (j, b) in boards.iter().enumerate() {
            let x = &f[b];
            let row = match (k, j) {
                (0, 0) => json!({"round": round, "table": table, "board": b, "adjusted": "A+/A-"}),
                (1, 0) => json!({"round": round, "table": table, "board": b, "contract": "PASS"}),
                _ => {
                    let east = x["deal"].as_str().unwrap()[2..].split(' ').nth(1).unwrap();
                    let suits: Vec<&str> = east.split('.').collect();
                    let (suit, cards) = ["S", "H", "D", "C"]
                        .iter()
                        .zip(&suits)
                        .find(|(_, c)| !c.is_empty())
                        .unwrap();
                    json!({"round": round, "table": table, "board": b, "contract": "3NT",
                           "declarer": "N", "tricks": x["double_dummy"]["N"]["NT"],
                           "lead": format!("{suit}{}", &cards[..1])})
                }
            };
            rows.push(row);
        }
    }
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(token),
        &json!({ "results": rows }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    rows.len()
}

fn pairs_event(s: &TestServer, movement: Value, pairs: usize) -> (i64, String) {
    let (event, token) = bridge_event(s, "pairs", json!({}));
    let list: Vec<Value> = (1..=pairs)
        .map(|i| {
            json!({"name": format!("Pair {i}"), "players": [
                {"name": format!("Ann O'Hara {i}"), "national_id": format!("EBU{i:04}1")},
                {"name": format!("Bob <Smith> & Co {i}"), "national_id": format!("EBU{i:04}2")}
            ]})
        })
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&token),
        &json!({ "participants": list }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&token),
        &movement,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.draw_lots(event, &token, json!({"method": "random", "seed": 5}));
    assert_eq!(r.status, 200, "{}", r.text());
    (event, token)
}

/// The text of every `<name>` element in document order.
fn elements<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    xml.match_indices(&open)
        .map(|(i, _)| {
            let rest = &xml[i + open.len()..];
            &rest[..rest.find(&close).unwrap()]
        })
        .collect()
}

/// A pairs session end to end; `mitchell` says how its pair numbers are written.
fn a_pairs_session(movement: Value, pairs: usize, mitchell: bool) {
    let s = spawn();
    let (event, token) = pairs_event(&s, movement, pairs);
    let m = s.get(&format!("/api/v1/events/{event}/movement")).json();
    let tables = tables_of(&m["movement"]["rounds"]);
    let mut boards: Vec<u32> = tables.iter().flat_map(|t| t.2.clone()).collect();
    boards.sort_unstable();
    boards.dedup();
    let r = put_deals(&s, event, &token, &pbn_of(&boards), "");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["deals"], boards.len());
    assert!(r.json()["pending"].as_u64().unwrap() <= boards.len() as u64);
    let played = play_everything(&s, event, &token, &tables);
    let deals = analysed(&s, event);
    assert_eq!(deals["deals"].as_array().unwrap().len(), boards.len());
    assert_like_endplay(&deals);
    assert_eq!(deals["lead_conflicts"], json!([]));

    // every traveller line is there, with the analysis beside it
    let mut lines = 0;
    for b in &boards {
        let t = s
            .get(&format!("/api/v1/events/{event}/travellers/{b}"))
            .json();
        lines += t["results"].as_array().unwrap().len();
        assert_eq!(t["analysis"]["status"], "done");
        assert_eq!(t["analysis"]["double_dummy"], fixture()[b]["double_dummy"]);
    }
    assert_eq!(lines, played);

    // PBN: unknown play tags are `?`, every board has its analysis, percentages have 2 decimals
    let pbn = s.get(&format!("/api/v1/events/{event}/pbn")).text();
    assert!(!pbn.contains("[Contract \"\"]") && !pbn.contains("[Declarer \"\"]"));
    assert_eq!(pbn.matches("[Contract \"?\"]").count(), boards.len());
    for b in &boards {
        let game = &pbn[pbn.find(&format!("[Board \"{b}\"]")).unwrap()..];
        let game = &game[..game.find("\r\n\r\n").unwrap_or(game.len())];
        let f = &fixture()[b];
        assert!(
            game.contains(&format!(
                "[DoubleDummyTricks \"{}\"]",
                dd_tricks(&f["double_dummy"])
            )),
            "board {b}: {game}"
        );
        let score = f["par"]["score"].as_i64().unwrap();
        let optimum = if score < 0 {
            format!("EW {}", -score)
        } else {
            format!("NS {score}")
        };
        assert!(
            game.contains(&format!("[OptimumScore \"{optimum}\"]")),
            "board {b}"
        );
        assert_eq!(
            game.matches("\r\nN NT ").count(),
            1,
            "board {b}: the optimum result table"
        );
    }
    let rows = tourney::engine::bridge::pbn_export::read_score_tables(&pbn).unwrap();
    assert_eq!(rows.len(), played);

    // USEBIO: well formed; every pair, player and traveller line where importers look
    let xml = s
        .get(&format!(
            "/api/v1/events/{event}/usebio?club_name=Duke's%20%26%20Co&club_id=4680"
        ))
        .text();
    let names = tourney::engine::bridge::usebio::check_well_formed(&xml).unwrap();
    assert_eq!(names[0], "USEBIO");
    assert_eq!(elements(&xml, "CLUB_NAME"), ["Duke&apos;s &amp; Co"]);
    assert_eq!(
        names.iter().filter(|n| *n == "TRAVELLER_LINE").count(),
        played
    );
    assert_eq!(names.iter().filter(|n| *n == "PAIR").count(), pairs);
    assert_eq!(elements(&xml, "PLAYER_NAME").len(), 2 * pairs);
    let ids = elements(&xml, "NATIONAL_ID_NUMBER");
    assert_eq!(ids.len(), 2 * pairs);
    for i in 1..=pairs {
        assert!(ids.contains(&format!("EBU{i:04}1").as_str()), "{i}");
        assert!(elements(&xml, "PLAYER_NAME")
            .contains(&format!("Bob &lt;Smith&gt; &amp; Co {i}").as_str()));
    }
    let numbers = elements(&xml, "PAIR_NUMBER");
    assert_eq!(numbers.iter().any(|n| n.ends_with("NS")), mitchell);
    for n in elements(&xml, "NS_PAIR_NUMBER") {
        assert!(numbers.contains(&n), "traveller pair {n} is a participant");
    }
    assert!(elements(&xml, "PERCENTAGE")
        .iter()
        .all(|p| p.split('.').nth(1).map(str::len) == Some(2)));
    assert!(
        elements(&xml, "LEAD")
            .iter()
            .all(|l| "AKQJT98765432".contains(&l[..1])),
        "rank first"
    );
    assert_eq!(elements(&xml, "ADJUSTED_SCORE"), ["A+/A-"]);
    // places are numbers (an importer reads them with int()); ties share one
    assert!(elements(&xml, "PLACE")
        .iter()
        .all(|p| p.parse::<u32>().is_ok()));
    assert!(elements(&xml, "SCORE")
        .iter()
        .all(|s| s.parse::<i32>().is_ok()));
    let handset = &xml[xml.find("<HANDSET>").unwrap()..];
    assert_eq!(handset.matches("<BOARD_NUMBER>").count(), boards.len());
    assert!(xml.find("</EVENT>").unwrap() < xml.find("<HANDSET>").unwrap());

    // the public hand-record page shows the table and the par
    let page = s
        .get(&format!("/e/{event}/travellers/{}", boards[0]))
        .text();
    assert!(
        page.contains("Double dummy") && page.contains("Par "),
        "{page}"
    );
}

#[test]
fn a_whole_mitchell_session_with_its_hand_records() {
    a_pairs_session(
        json!({"kind": "mitchell", "options": {"tables": 5, "boards_per_round": 2}}),
        10,
        true,
    );
}

#[test]
fn a_whole_howell_session_with_its_hand_records() {
    a_pairs_session(
        json!({"kind": "howell", "options": {"tables": 3, "boards_per_round": 2}}),
        6,
        false,
    );
}

#[test]
fn a_teams_event_has_hand_records_travellers_pbn_and_usebio() {
    let s = spawn();
    let (event, token) = bridge_event(
        &s,
        "teams",
        json!({"kind": "round_robin", "boards_per_match": 3}),
    );
    for k in 1..=4 {
        let r = add_bridge_team(&s, event, &token, k, 4);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = draw_lots_by_rating(&s, event, &token);
    assert_eq!(r.status, 200, "{}", r.text());
    let m = s
        .get(&format!("/api/v1/events/{event}/team-movement"))
        .json();
    let tables = tables_of(&m["rounds"]);
    let mut boards: Vec<u32> = tables.iter().flat_map(|t| t.2.clone()).collect();
    boards.sort_unstable();
    boards.dedup();
    let r = put_deals(&s, event, &token, &pbn_of(&boards), "");
    assert_eq!(r.status, 200, "{}", r.text());
    let played = play_everything(&s, event, &token, &tables);
    assert_like_endplay(&analysed(&s, event));
    // both tables of each board, IMPed against each other
    let mut lines = 0;
    for b in &boards {
        let t = s.get(&format!("/api/v1/events/{event}/travellers/{b}"));
        assert_eq!(t.status, 200, "{}", t.text());
        let t = t.json();
        let results = t["results"].as_array().unwrap();
        lines += results.len();
        // a board with an adjusted score at a table has no IMPs at that match's other table
        if results.iter().all(|l| l["adjusted"].is_null()) {
            for l in results {
                assert!(l.get("ns_imps").is_some(), "board {b}: {l}");
                assert_eq!(
                    l["ns_imps"].as_f64().unwrap(),
                    -l["ew_imps"].as_f64().unwrap()
                );
            }
        }
    }
    assert_eq!(lines, played);
    let pbn = s.get(&format!("/api/v1/events/{event}/pbn"));
    assert_eq!(pbn.status, 200, "{}", pbn.text());
    let pbn = pbn.text();
    assert!(pbn.contains("[Scoring \"IMP\"]"));
    assert!(pbn.contains("[TotalScoreTable \"Rank\\3R;TeamId\\2R;TotalVP\\6R"));
    assert_eq!(
        tourney::engine::bridge::pbn_export::read_score_tables(&pbn)
            .unwrap()
            .len(),
        played
    );
    let xml = s.get(&format!("/api/v1/events/{event}/usebio")).text();
    let names = tourney::engine::bridge::usebio::check_well_formed(&xml).unwrap();
    assert!(xml.contains("<EVENT EVENT_TYPE=\"TEAMS\">"));
    // four TEAMs in PARTICIPANTS (each MATCH names its two teams' numbers in TEAM too)
    assert_eq!(elements(&xml, "TEAM_NAME").len(), 4);
    assert_eq!(elements(&xml, "PLAYER_NAME").len(), 16);
    assert_eq!(
        names.iter().filter(|n| *n == "TRAVELLER_LINE").count(),
        played
    );
    assert_eq!(
        names.iter().filter(|n| *n == "MATCH").count(),
        m["matches"].as_array().unwrap().len()
    );
    // the deals JSON is there for every bridge format
    for format in ["swiss_pairs", "swiss_teams"] {
        let (e, t) = bridge_event(&s, format, json!({}));
        let r = put_deals(&s, e, &t, &pbn_of(&[1, 2]), "");
        assert_eq!(r.status, 200, "{format}: {}", r.text());
    }
}

#[test]
fn bad_hand_records_and_leads_are_refused_naming_the_board_and_nothing_is_stored() {
    let s = spawn();
    let (event, token) = pairs_event(
        &s,
        json!({"kind": "mitchell", "options": {"tables": 3, "boards_per_round": 2}}),
        6,
    );
    let good = pbn_of(&[1, 2, 3, 4, 5, 6]);
    let f = fixture();
    let deal1 = f[&1]["deal"].as_str().unwrap().to_string();
    // a hand of 14 cards (one taken from the next hand): refused naming the line and the hand
    let mut hands: Vec<String> = deal1[2..].split(' ').map(str::to_string).collect();
    let moved = hands[1].remove(0);
    hands[0].insert(0, moved);
    let fourteen = good.replace(&deal1, &format!("N:{}", hands.join(" ")));
    let r = put_deals(&s, event, &token, &fourteen, "");
    let p = r.problem(422);
    assert_eq!(r.fields(), ["pbn"]);
    assert!(
        p.to_string().contains("14 cards") || p.to_string().contains("12 cards"),
        "{p}"
    );
    // a card twice
    let first_card = &deal1[2..3];
    let twice = good.replace(&deal1, &deal1.replacen(' ', &format!(" {first_card}"), 1));
    let r = put_deals(&s, event, &token, &twice, "");
    r.problem(422);
    // a vulnerability the board number contradicts: board 2 is NS, not EW
    let wrong = good.replace(
        "[Board \"2\"]\n[Dealer \"E\"]\n[Vulnerable \"NS\"]",
        "[Board \"2\"]\n[Dealer \"E\"]\n[Vulnerable \"EW\"]",
    );
    assert_ne!(wrong, good);
    let r = put_deals(&s, event, &token, &wrong, "");
    let p = r.problem(422);
    assert!(
        p.to_string().contains("board 2") && p.to_string().contains("non_standard"),
        "{p}"
    );
    // nothing was stored
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/deals")).json()["deals"],
        json!([])
    );

    // a result entered before the deals: its lead is checked once they are in
    let m = s.get(&format!("/api/v1/events/{event}/movement")).json();
    let tables = tables_of(&m["movement"]["rounds"]);
    let (round, table, boards) = &tables[0];
    let b = boards[0];
    let west = f[&b]["deal"].as_str().unwrap()[2..]
        .split(' ')
        .nth(3)
        .unwrap()
        .to_string();
    let north = f[&b]["deal"].as_str().unwrap()[2..]
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let card_of = |hand: &str| {
        let suits: Vec<&str> = hand.split('.').collect();
        let k = suits.iter().position(|c| !c.is_empty()).unwrap();
        format!("{}{}", ["S", "H", "D", "C"][k], &suits[k][..1])
    };
    // 4S by South: West leads; North's card is not West's
    let not_held = card_of(&north);
    let row = json!({"results": [{"round": round, "table": table, "board": b, "contract": "4S",
        "declarer": "S", "tricks": 10, "lead": not_held}]});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&token),
        &row,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // the set as non-standard: board 2 EW vulnerable is taken, results rescored, the lead reported
    let r = put_deals(&s, event, &token, &wrong, "?non_standard=true");
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["non_standard"], true);
    assert_eq!(v["lead_conflicts"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["lead_conflicts"][0]["message"]
        .as_str()
        .unwrap()
        .contains(&format!("board {b}")));
    let deals = s.get(&format!("/api/v1/events/{event}/deals")).json();
    assert_eq!(deals["deals"][1]["vulnerability"], "ew");
    assert_eq!(deals["lead_conflicts"].as_array().unwrap().len(), 1);
    // a lead the opening leader does not hold, once the deal is known: 422 naming the row
    let bad = json!({"results": [
        {"round": round, "table": table, "board": boards[1], "contract": "3NT", "declarer": "N", "tricks": 9},
        {"round": round, "table": table, "board": b, "contract": "4S", "declarer": "S", "tricks": 10, "lead": not_held}]});
    let before = s
        .get(&format!("/api/v1/events/{event}/travellers/{}", boards[1]))
        .json();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&token),
        &bad,
    );
    let p = r.problem(422);
    assert_eq!(r.fields(), ["results[1].lead"], "{p}");
    assert!(
        p.to_string().contains(&format!("board {b}")) && p.to_string().contains("W"),
        "{p}"
    );
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/travellers/{}", boards[1]))
            .json(),
        before
    );
    // the lead West holds is taken
    let ok = json!({"results": [{"round": round, "table": table, "board": b, "contract": "4S",
        "declarer": "S", "tricks": 10, "lead": card_of(&west)}]});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&token),
        &ok,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/deals")).json()["lead_conflicts"],
        json!([])
    );
}

#[test]
fn a_non_standard_vulnerability_rescores_stored_results_in_the_same_change() {
    let s = spawn();
    let (event, token) = pairs_event(
        &s,
        json!({"kind": "mitchell", "options": {"tables": 3, "boards_per_round": 2}}),
        6,
    );
    let m = s.get(&format!("/api/v1/events/{event}/movement")).json();
    let tables = tables_of(&m["movement"]["rounds"]);
    let (round, table, _) = tables.iter().find(|t| t.2.contains(&1)).unwrap();
    // board 1: nobody vulnerable, 4S made by N = +420
    let row = json!({"results": [{"round": round, "table": table, "board": 1, "contract": "4S",
        "declarer": "N", "tricks": 10}]});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&token),
        &row,
    );
    assert_eq!(r.json()["results"][0]["ns_score"], 420);
    // the set dealt with board 1 all vulnerable: the stored 4S becomes +620 at once
    let pbn = pbn_of(&[1]).replace("[Vulnerable \"None\"]", "[Vulnerable \"All\"]");
    let r = put_deals(&s, event, &token, &pbn, "?non_standard=true");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["rescored"][0]["ns_score_was"], 420);
    assert_eq!(r.json()["rescored"][0]["ns_score"], 620);
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/1"))
        .json();
    assert_eq!(t["vulnerability"], "both");
    assert_eq!(t["results"][0]["ns_score"], 620);
    // back to the standard set: scored not vulnerable again
    let r = put_deals(&s, event, &token, &pbn_of(&[1]), "");
    assert_eq!(r.json()["rescored"][0]["ns_score"], 420);
}

#[test]
fn the_stateless_analysis_answers_the_table_and_par() {
    let s = spawn();
    let f = fixture();
    // all 36 fixture deals in one request: tables, par scores and par contracts as endplay's
    let deals: Vec<Value> = (1..=36)
        .map(|b| json!({"deal": f[&b]["deal"], "board": b}))
        .collect();
    let r = s.send(
        "POST",
        "/api/v1/bridge/analyse",
        None,
        &json!({ "deals": deals }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let results: Vec<Value> = r.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(k, x)| {
            let b = k as u32 + 1;
            assert_eq!(x["dealer"], f[&b]["dealer"]);
            assert_eq!(x["vulnerability"], f[&b]["vulnerability"]);
            json!({"board": b, "analysis": {"status": "done", "double_dummy": x["double_dummy"], "par": x["par"]}})
        })
        .collect();
    assert_eq!(results.len(), 36);
    assert_like_endplay(&json!({ "deals": results }));
    // one deal, its vulnerability and dealer given
    let r = s.send(
        "POST",
        "/api/v1/bridge/analyse",
        None,
        &json!({"deal": f[&5]["deal"], "dealer": "N", "vulnerability": "ns"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["results"][0]["vulnerability"], "ns");
    // bad input
    let r = s.send(
        "POST",
        "/api/v1/bridge/analyse",
        None,
        &json!({"deal": "N:AKQ"}),
    );
    assert_eq!(r.fields(), ["deal"]);
    let r = s.send(
        "POST",
        "/api/v1/bridge/analyse",
        None,
        &json!({"deals": [{"deal": f[&1]["deal"], "dealer": "Q"}]}),
    );
    assert_eq!(r.fields(), ["deals[0].dealer"]);
    let many: Vec<Value> = (0..37).map(|_| json!({"deal": f[&1]["deal"]})).collect();
    let r = s.send(
        "POST",
        "/api/v1/bridge/analyse",
        None,
        &json!({ "deals": many }),
    );
    assert_eq!(r.fields(), ["deals"]);
    let r = s.send("POST", "/api/v1/bridge/analyse", None, &json!({}));
    r.problem(422);
}

#[test]
fn a_swiss_pairs_round_has_travellers_pbn_and_usebio() {
    let s = spawn();
    let (event, token) = bridge_event(
        &s,
        "swiss_pairs",
        json!({"boards_per_match": 3, "scoring": "butler"}),
    );
    let people: Vec<Value> = (1..=4)
        .map(|i| {
            json!({"name": format!("Pair {i}"), "rating": 2000 - i,
            "players": [{"name": format!("A{i}"), "national_id": format!("N{i}a")},
                        {"name": format!("B{i}"), "national_id": format!("N{i}b")}]})
        })
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&token),
        &json!({ "participants": people }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(draw_lots_by_rating(&s, event, &token).status, 200);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        Some(&token),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let drawn = r.json();
    let tables: Vec<(u64, u64, Vec<u32>)> = drawn["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let boards = m["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap() as u32)
                .collect();
            (1, m["table"].as_u64().unwrap(), boards)
        })
        .collect();
    assert_eq!(tables.len(), 2);
    let r = put_deals(&s, event, &token, &pbn_of(&[1, 2, 3]), "");
    assert_eq!(r.status, 200, "{}", r.text());
    let played = play_everything(&s, event, &token, &tables);
    assert_like_endplay(&analysed(&s, event));
    // board 3 has two real scores, IMPed against the field's datum (Butler)
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/3"))
        .json();
    assert_eq!(t["results"].as_array().unwrap().len(), 2);
    assert!(t["datum"].is_i64(), "{t}");
    assert!(t["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["ns_imps"].is_f64()));
    let pbn = s.get(&format!("/api/v1/events/{event}/pbn")).text();
    assert_eq!(
        tourney::engine::bridge::pbn_export::read_score_tables(&pbn)
            .unwrap()
            .len(),
        played
    );
    let xml = s.get(&format!("/api/v1/events/{event}/usebio")).text();
    let names = tourney::engine::bridge::usebio::check_well_formed(&xml).unwrap();
    assert!(xml.contains("<EVENT EVENT_TYPE=\"SWISS_PAIRS\">"));
    assert_eq!(names.iter().filter(|n| *n == "PAIR").count(), 4);
    assert_eq!(elements(&xml, "NATIONAL_ID_NUMBER").len(), 8);
    assert_eq!(names.iter().filter(|n| *n == "MATCH").count(), 2);
    assert_eq!(
        names.iter().filter(|n| *n == "TRAVELLER_LINE").count(),
        played
    );
    assert!(xml.contains("<NS_BUTLER_POINTS>"));
}
