//! The FIDE Dutch system through the API (issue 16): `system=fide_dutch` on the stateless
//! endpoint and in a Swiss event's settings.

use serde_json::{json, Value};
use tourney::engine::chess::dutch::check::state_before;
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
