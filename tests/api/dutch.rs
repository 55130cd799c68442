//! The FIDE Dutch system through the API (issue 16): `system=fide_dutch` on the stateless
//! endpoint and in a Swiss event's settings.

use serde_json::{json, Value};
use tourney::engine::chess::swiss::dutch::check::state_before;
use tourney::engine::chess::swiss::trf::{decode_trf, parse_trf};
use tourney::engine::chess::swiss::Colour;

use crate::client::spawn;
use crate::swiss::{pair, swiss_event};

/// A tournament generated and paired by bbpPairings (scripts/dutch-agreement fixtures).
const BBP: &[u8] = include_bytes!("../fixtures/dutch/bbp-47.trf");

#[test]
fn stateless_dutch_pairing_reproduces_bbp_pairings_last_round() {
    let s = spawn();
    let state = parse_trf(&decode_trf(BBP)).unwrap();
    let last = state.rounds_played();
    let before = state_before(&state, last);
    // The published last round: (white, black) start numbers.
    let mut published: Vec<(u64, u64)> = state
        .players
        .iter()
        .filter_map(|p| {
            let r = p.history.last()?;
            let o = r.opponent?;
            (r.colour == Some(Colour::White)).then_some((p.start_number as u64, o as u64))
        })
        .collect();
    published.sort();
    let r = s.send(
        "POST",
        "/api/v1/pairings/swiss?system=fide_dutch",
        None,
        &serde_json::to_value(&before).unwrap(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let answer = r.json();
    let mut ours: Vec<(u64, u64)> = answer["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
        .collect();
    ours.sort();
    assert_eq!(ours, published);
    // The US engine pairs the same state differently: the system really switched.
    let us = s.send(
        "POST",
        "/api/v1/pairings/swiss",
        None,
        &serde_json::to_value(&before).unwrap(),
    );
    assert_eq!(us.status, 200, "{}", us.text());
    assert_ne!(us.json()["pairings"], answer["pairings"]);
    // An unknown system names the parameter.
    let bad = s.send(
        "POST",
        "/api/v1/pairings/swiss?system=dutch",
        None,
        &serde_json::to_value(&before).unwrap(),
    );
    assert_eq!(bad.status / 100, 4, "{}", bad.text());
    assert!(bad.text().contains("system"), "{}", bad.text());
}

#[test]
fn a_dutch_event_pairs_round_one_top_half_against_bottom_half() {
    let s = spawn();
    let (event, admin) = swiss_event(
        &s,
        json!({"system": "fide_dutch", "first_colour": "white", "rounds": 5}),
    );
    for (k, rating) in [2400, 2300, 2200, 2100, 2000, 1900].iter().enumerate() {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/participants"),
            Some(&admin),
            &json!({"name": format!("Player {k}"), "rating": rating}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let round: Value = pair(&s, event, &admin);
    let boards: Vec<(u64, u64)> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"]["pairing_number"].as_u64().unwrap(),
                g["black"]["pairing_number"].as_u64().unwrap(),
            )
        })
        .collect();
    // C.04.3: S1 = 1 2 3 against S2 = 4 5 6; E.5: odd pairing numbers take the initial colour.
    assert_eq!(boards, vec![(1, 4), (5, 2), (3, 6)]);
}

/// The notes of a draft round's explanation, joined.
fn notes(round: &Value) -> String {
    round["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "note")
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// (white, black) pairing numbers of a round's games.
fn numbers(round: &Value) -> Vec<(u64, u64)> {
    let mut b: Vec<(u64, u64)> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"]["pairing_number"].as_u64().unwrap(),
                g["black"]["pairing_number"].as_u64().unwrap(),
            )
        })
        .collect();
    b.sort();
    b
}

#[test]
fn draft_edits_of_a_dutch_event_use_the_dutch_rules() {
    let s = spawn();
    let (event, admin) = swiss_event(
        &s,
        json!({"system": "fide_dutch", "first_colour": "white", "rounds": 5}),
    );
    let mut id = Vec::new();
    for (k, rating) in [2400, 2300, 2200, 2100, 2000, 1900].iter().enumerate() {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/participants"),
            Some(&admin),
            &json!({"name": format!("Player {k}"), "rating": rating}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
        id.push(r.json()["id"].as_i64().unwrap());
    }
    let dutch = pair(&s, event, &admin);
    assert_eq!(numbers(&dutch), vec![(1, 4), (3, 6), (5, 2)]);

    // Force 2 against 1: the other four are paired by the Dutch rules as a round of their
    // own (S1 = 3 4 against S2 = 5 6, pairing number 3 White by E.5 as the highest ranked).
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds/1/force"),
        Some(&admin),
        &json!({"pairings": [{"white": id[1], "black": id[0]}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let forced = r.json();
    assert_eq!(
        numbers(&forced),
        vec![(2, 1), (3, 5), (6, 4)],
        "{}",
        r.text()
    );
    assert!(
        notes(&forced).contains("FIDE Dutch system"),
        "{}",
        notes(&forced)
    );

    // The director's own pairing: the Dutch pairing itself is identical to the optimum.
    let put = |boards: &[(usize, usize)]| {
        let pairings: Vec<Value> = boards
            .iter()
            .map(|&(w, b)| json!({"white": id[w - 1], "black": id[b - 1]}))
            .collect();
        s.send(
            "PUT",
            &format!("/api/v1/events/{event}/rounds/1/pairings"),
            Some(&admin),
            &json!({"pairings": pairings}),
        )
    };
    let r = put(&[(1, 4), (5, 2), (3, 6)]);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        notes(&r.json()).contains("identical to the Dutch pairing"),
        "{}",
        r.text()
    );
    // A swap of 4 and 5: the boards 1-5 and 4-2 differ; colours here lose no criterion
    // counted (round 1), so the note names the two boards and the later criteria.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/rounds/1/swap"),
        Some(&admin),
        &json!({"a": id[3], "b": id[4]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let swapped = r.json();
    assert_eq!(numbers(&swapped), vec![(1, 5), (3, 6), (4, 2)]);
    let n = notes(&swapped);
    assert!(n.contains("2 of 3 boards differ"), "{n}");
    // A player left out is refused, naming the field.
    let r = put(&[(1, 4), (5, 2)]);
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("\"pairings\""), "{}", r.text());
}

/// Round 1 of eight players, 9 rounds: (white, black) pairs as unordered pairs, sorted.
fn unordered(pairing: &Value, key: (&str, &str)) -> Vec<(u64, u64)> {
    let mut b: Vec<(u64, u64)> = pairing[key.0]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let num = |side: &str| {
                let v = &g[side];
                v.as_u64().or_else(|| v["pairing_number"].as_u64()).unwrap()
            };
            let (w, b) = (num("white"), num(key.1));
            (w.min(b), w.max(b))
        })
        .collect();
    b.sort();
    b
}

/// The Baku round 1 of eight players: 1-4 carry a virtual point, so they meet each other
/// (S1 = 1 2 against S2 = 3 4) and 5-8 likewise; without it, 1-4 meet 5-8.
const BAKU_ROUND_ONE: [(u64, u64); 4] = [(1, 3), (2, 4), (5, 7), (6, 8)];
const PLAIN_ROUND_ONE: [(u64, u64); 4] = [(1, 5), (2, 6), (3, 7), (4, 8)];

fn eight_player_trf(accelerated: bool) -> String {
    let mut t = String::from("012 Baku test\nXXR 9\nXXC white1\n");
    for sn in 1..=8u32 {
        t.push_str(&format!(
            "001 {sn:>4}      {:<34}{:>4}\n",
            format!("Player {sn}"),
            2500 - sn * 10
        ));
    }
    if accelerated {
        for sn in 1..=4u32 {
            t.push_str(&format!("XXA {sn:>4}  1.0\n"));
        }
    }
    t
}

#[test]
fn the_stateless_endpoint_honours_trf_acceleration_records_and_the_baku_parameter() {
    let s = spawn();
    let post = |path: &str, body: &str| {
        s.request(
            "POST",
            path,
            &[("Content-Type", "text/plain")],
            Some(body.as_bytes()),
        )
    };
    let base = "/api/v1/pairings/swiss?system=fide_dutch";
    let plain = post(base, &eight_player_trf(false));
    assert_eq!(plain.status, 200, "{}", plain.text());
    assert_eq!(
        unordered(&plain.json(), ("pairings", "black")),
        PLAIN_ROUND_ONE
    );
    // XXA records: players 1-4 have one point more in round 1.
    let xxa = post(base, &eight_player_trf(true));
    assert_eq!(xxa.status, 200, "{}", xxa.text());
    assert_eq!(
        unordered(&xxa.json(), ("pairings", "black")),
        BAKU_ROUND_ONE
    );
    // The same through the query parameter on a file without records.
    let baku = post(
        &format!("{base}&acceleration=baku"),
        &eight_player_trf(false),
    );
    assert_eq!(baku.status, 200, "{}", baku.text());
    assert_eq!(
        unordered(&baku.json(), ("pairings", "black")),
        BAKU_ROUND_ONE
    );
    // An unknown method names the parameter; a bad record names its line.
    let bad = post(
        &format!("{base}&acceleration=fast"),
        &eight_player_trf(false),
    );
    assert_eq!(bad.status, 422, "{}", bad.text());
    assert!(
        bad.fields().contains(&"acceleration".to_string()),
        "{}",
        bad.text()
    );
    let bad = post(base, &format!("{}XXA    1  x.y\n", eight_player_trf(false)));
    assert_eq!(bad.status, 422, "{}", bad.text());
    assert!(
        bad.fields().iter().any(|f| f.starts_with("line ")),
        "{}",
        bad.text()
    );
}

#[test]
fn a_dutch_event_with_baku_acceleration_pairs_the_accelerated_round_one() {
    let s = spawn();
    let settings = json!({"system": "fide_dutch", "first_colour": "white", "rounds": 9, "acceleration": "baku"});
    let (event, admin) = swiss_event(&s, settings);
    for sn in 1..=8u32 {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/participants"),
            Some(&admin),
            &json!({"name": format!("Player {sn}"), "rating": 2500 - sn * 10}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let round = pair(&s, event, &admin);
    assert_eq!(unordered(&round, ("games", "black")), BAKU_ROUND_ONE);
    // The Baku method belongs to the Dutch system: refused for the US rules, naming it.
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "US open", "game": "chess", "format": "swiss",
                "settings": {"rounds": 9, "acceleration": "baku"}}),
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.fields(), vec!["settings.acceleration".to_string()]);
}
