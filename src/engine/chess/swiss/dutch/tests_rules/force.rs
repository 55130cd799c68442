//! Forced boards in a draft of a `fide_dutch` round: the forced players are set aside and
//! the others paired by the Dutch rules as a round of their own (see [`super::super::edit`]),
//! which is what bbpPairings pairs when the forced players are absent from the round.

use super::{case, Boards};
use crate::engine::chess::swiss::dutch::{pair_round_with_fixed, Acceleration};
use crate::engine::chess::swiss::PairingSystem;
use crate::engine::matching::BlossomSolver;

#[test]
fn a_forced_board_leaves_the_rest_to_the_dutch_rules_as_bbp_pairings_pairs_it() {
    // Round 4 of 7 of 11 players, the first three paired by bbpPairings. The Dutch pairing
    // has 3-11 and 6-8; the director forces 3 (white) against 6, who have not met.
    let draft = case!("force-draft");
    let mut state = draft.state();
    state.settings.system = PairingSystem::FideDutch;
    let dutch = draft.paired();
    assert!(!dutch.meet(3, 6), "{dutch:?}");
    let forced = Boards::of(
        &pair_round_with_fixed(&state, &[(3, 6)], &BlossomSolver, &Acceleration::none()).unwrap(),
    );
    assert!(forced.boards.contains(&(3, 6)), "{forced:?}");
    // The rest (nine players: the PAB among them) is bbpPairings' pairing of the same file
    // with 3 and 6 absent for the round (`0000 - Z`), colours and PAB included.
    let rest = case!("force-draft-rest");
    let alone = rest.paired();
    let mut others: Vec<(u32, u32)> = forced
        .boards
        .iter()
        .copied()
        .filter(|&b| b != (3, 6))
        .collect();
    let mut expected = alone.boards.clone();
    others.sort_unstable();
    expected.sort_unstable();
    assert_eq!(others, expected);
    assert_eq!(forced.pab, alone.pab);
    assert!(forced.pab.is_some());
}

#[test]
fn in_round_one_the_forced_players_keep_their_pairing_numbers() {
    // Round 1 of six, XXC white1, the director forces 1-4. The rest (2, 3, 5, 6) keeps the
    // pairing numbers of the ranking list: 2 (even) gets black against 5, 3 (odd) white
    // against 6 (E.5). bbpPairings with 1 and 4 absent numbers only the four who play, 2 as
    // 1 and 3 as 2, and gives the same boards with the colours reversed.
    let c = case!("force-round-one-rest");
    let alone = c.paired();
    let mut state = c.state();
    // The file's `0000 - Z` for round 1 reads as zero-point byes requested by 1 and 4.
    let out: Vec<u32> = state.requested_byes.iter().map(|b| b.player).collect();
    assert_eq!(out, vec![1, 4]);
    state.requested_byes.clear();
    state.settings.system = PairingSystem::FideDutch;
    let forced = Boards::of(
        &pair_round_with_fixed(&state, &[(1, 4)], &BlossomSolver, &Acceleration::none()).unwrap(),
    );
    let mut ours = forced.boards.clone();
    ours.sort_unstable();
    assert_eq!(ours, vec![(1, 4), (3, 6), (5, 2)]);
    let mut reversed: Vec<(u32, u32)> = alone.boards.iter().map(|&(w, b)| (b, w)).collect();
    reversed.sort_unstable();
    assert_eq!(reversed, vec![(3, 6), (5, 2)]);
}
