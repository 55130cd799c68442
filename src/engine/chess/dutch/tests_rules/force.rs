//! Forced boards in a draft of a `fide_dutch` round: the forced players are set aside and
//! the others paired by the Dutch rules as a round of their own (see [`super::super::edit`]),
//! which is what bbpPairings pairs when the forced players are absent from the round.

use super::{case, Boards};
use crate::engine::chess::dutch::{pair_round_with_fixed, Acceleration};
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
