//! The FIDE Lim system through the API: `system=fide_lim` on the stateless endpoint and
//! in a Swiss event's settings.

use serde_json::{json, Value};
use tourney::engine::chess::swiss::lim::pair_lim;
use tourney::engine::chess::swiss::simulate::{shaped_state, HistoryShape};
use tourney::engine::chess::swiss::PairingSystem;
use tourney::engine::matching::BlossomSolver;

use crate::client::spawn;
use crate::swiss::{pair, swiss_event};

#[test]
fn stateless_lim_pairing_is_the_engines() {
    let s = spawn();
    let mut state = shaped_state(30, 4, HistoryShape::Open, 5);
    state.settings.system = PairingSystem::FideLim;
    let engine = pair_lim(&state, &BlossomSolver).unwrap();
    let mut state_json = serde_json::to_value(&state).unwrap();
    state_json["settings"]["system"] = json!("swiss");
    let r = s.send(
        "POST",
        "/api/v1/pairings/swiss?system=fide_lim",
        None,
        &state_json,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let answer = r.json();
    let boards: Vec<(u64, u64)> = answer["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(u64, u64)> = engine
        .pairings
        .iter()
        .map(|b| (b.white as u64, b.black as u64))
        .collect();
    assert_eq!(boards, expected);
    assert!(answer.to_string().contains("Lim"), "{answer}");
}

#[test]
fn a_lim_event_pairs_round_one_upper_half_against_lower_half() {
    let s = spawn();
    let (event, admin) = swiss_event(
        &s,
        json!({"system": "fide_lim", "first_colour": "white", "rounds": 5}),
    );
    for (k, rating) in [2400, 2300, 2200, 2100, 2000, 1900, 1800]
        .iter()
        .enumerate()
    {
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
        .filter(|g| !g["black"].is_null())
        .map(|g| {
            (
                g["white"]["pairing_number"].as_u64().unwrap(),
                g["black"]["pairing_number"].as_u64().unwrap(),
            )
        })
        .collect();
    // 7.1: the bye to the lowest rated (7); 7.2: 1 2 3 against 4 5 6, #1 White, the odd
    // numbers of the upper half like him.
    assert_eq!(boards, vec![(1, 4), (5, 2), (3, 6)], "{round}");
    let byes = round["byes"].as_array().unwrap();
    assert_eq!(byes[0]["participant"]["pairing_number"], 7, "{round}");
    assert_eq!(byes[0]["kind"], "pairing");
}
