//! Unit tests of the Burstein engine: small cases worked by hand, and every round of
//! tournaments generated and paired by bbpPairings' `--burstein` (fixtures in
//! tests/fixtures/burstein/, written by `scripts/burstein-agreement fixtures`, never edited
//! by hand).

use super::*;
use crate::engine::chess::swiss::dutch::check::check_event_with;
use crate::engine::chess::swiss::trf::{decode_trf, parse_trf};
use crate::engine::chess::swiss::ByeKind;
use crate::engine::matching::BlossomSolver;

const FIXTURES: [(&str, &[u8]); 4] = [
    (
        "bbp-5",
        include_bytes!("../../../../../tests/fixtures/burstein/bbp-5.trf"),
    ),
    (
        "bbp-18",
        include_bytes!("../../../../../tests/fixtures/burstein/bbp-18.trf"),
    ),
    (
        "bbp-20",
        include_bytes!("../../../../../tests/fixtures/burstein/bbp-20.trf"),
    ),
    (
        "bbp-47",
        include_bytes!("../../../../../tests/fixtures/burstein/bbp-47.trf"),
    ),
];

#[test]
fn every_round_of_bbp_pairings_burstein_tournaments_is_reproduced() {
    for (name, bytes) in FIXTURES {
        let state = parse_trf(&decode_trf(bytes)).unwrap();
        let checks =
            check_event_with(&state, &|before| pair_burstein(before, &BlossomSolver)).unwrap();
        assert!(!checks.is_empty());
        for c in checks {
            assert!(c.agrees(), "{name} round {}: {c:?}", c.round);
        }
    }
}

/// A field of `n` players rated in start-number order, `rounds` planned.
fn field(n: u32) -> SwissState {
    let mut trf = String::from("012 t\nXXR 5\nXXC white1\n");
    for k in 1..=n {
        trf.push_str(&format!(
            "001 {k:>4}      Player{k:<28} {:>4}\n",
            2500 - 10 * k
        ));
    }
    parse_trf(&trf).expect("trf")
}

fn boards(p: &RoundPairing) -> Vec<(u32, u32)> {
    let mut b: Vec<(u32, u32)> = p.pairings.iter().map(|b| (b.white, b.black)).collect();
    b.sort_unstable();
    b
}

#[test]
fn round_one_seeds_the_halves_and_pairs_first_against_last() {
    // 1-5 count a point more: two groups, each paired first against last; the odd upper
    // group floats its middle player (3) to the lower group, where he ranks first (the
    // higher score) and meets its lowest.
    let p = pair_burstein(&field(10), &BlossomSolver).expect("pairs");
    let mut pairs: Vec<(u32, u32)> = boards(&p)
        .into_iter()
        .map(|(w, b)| (w.min(b), w.max(b)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, vec![(1, 5), (2, 4), (3, 10), (6, 9), (7, 8)]);
}

#[test]
fn round_one_colours_alternate_by_pairing_number() {
    // No preferences: the higher pairing number of each board decides (E.5), the top
    // player having the initial colour.
    let p = pair_burstein(&field(10), &BlossomSolver).expect("pairs");
    assert_eq!(boards(&p), vec![(1, 5), (3, 10), (4, 2), (7, 8), (9, 6)]);
}

#[test]
fn the_bye_goes_to_the_lowest_player() {
    let p = pair_burstein(&field(11), &BlossomSolver).expect("pairs");
    let bye: Vec<u32> = p
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Pairing)
        .map(|b| b.player)
        .collect();
    assert_eq!(bye, vec![11]);
    assert_eq!(p.pairings.len(), 5);
}

#[test]
fn the_section_setting_chooses_burstein() {
    let mut state = field(11);
    state.settings.system = crate::engine::chess::swiss::PairingSystem::FideBurstein;
    let by_setting = crate::engine::chess::swiss::pair_round(&state, &BlossomSolver).unwrap();
    let direct = pair_burstein(&state, &BlossomSolver).unwrap();
    assert_eq!(by_setting, direct);
}
