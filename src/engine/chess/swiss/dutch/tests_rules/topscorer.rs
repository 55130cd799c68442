//! The topscorers of the last round (C.04.3 A.7: more than half the maximum score when the
//! last round is paired): C.3 lets them meet with equal absolute colour preferences, C.10
//! and C.11 then minimise the colour differences beyond 2 and the third colours in a row
//! they get, in that order, above the other colour criteria.

use super::{case, facts};
use crate::engine::chess::swiss::dutch::{evaluate_round_pairing, Acceleration};
use crate::engine::chess::swiss::{Colour, PairingSystem};
use crate::engine::matching::BlossomSolver;

#[test]
fn two_topscorers_with_the_same_absolute_preference_meet_only_in_the_last_round() {
    // 8 players, 3 rounds played: 1 and 2 have 3/3, both W B B (absolute preference for
    // white), and have not met. 4 rounds: the last round, they are topscorers and meet
    // (C.6: the most pairs in their bracket); 1 is ranked higher and the histories are the
    // same, so 1 gets white (E.4) and 2 a third black in a row. bbpPairings: the same.
    let last = case!("topscorers-meet-last-round");
    let state = last.state();
    let f = facts(&state);
    for sn in [1, 2] {
        assert!(f[&sn].absolute(), "{sn}");
        assert_eq!(f[&sn].preference, Some(Colour::White), "{sn}");
        assert_eq!(f[&sn].score, 6, "{sn}");
    }
    let paired = last.paired();
    assert_eq!(paired.board_of(1), (1, 2));

    // The same history with one more round to play: not the last round, no topscorer, C.3
    // forbids the board and both are paired below (bbpPairings: 1-4, 2-3).
    let before = case!("topscorers-not-last-round");
    let s = before.state();
    assert_eq!(s.players, state.players);
    assert_eq!(s.settings.total_rounds, state.settings.total_rounds + 1);
    let paired = before.paired();
    assert!(!paired.meet(1, 2), "{paired:?}");
    assert!(paired.meet(1, 4) && paired.meet(2, 3), "{paired:?}");
}

#[test]
fn a_topscorer_has_more_than_half_the_maximum_score() {
    // Last round (4), 3 played, maximum 3 points, topscorers above 1.5. 5 and 6 (2.5, both
    // B W W: absolute black) are topscorers and meet, 5 (ranked higher) keeps black and 6
    // gets a third white; 1 and 2 (1.5 each, exactly half: no topscorers, both W B B:
    // absolute white) are alone in their score group and may still not meet: both go
    // down. bbpPairings: the same.
    let c = case!("topscorer-more-than-half");
    let f = facts(&c.state());
    for (a, b, score, colour) in [(5, 6, 5, Colour::Black), (1, 2, 3, Colour::White)] {
        for sn in [a, b] {
            assert!(f[&sn].absolute(), "{sn}");
            assert_eq!(f[&sn].preference, Some(colour), "{sn}");
            assert_eq!(f[&sn].score, score, "{sn}");
        }
        assert!(!f[&a].forbidden.contains(&b), "{a} and {b} have met");
    }
    let paired = c.paired();
    assert_eq!(paired.board_of(5), (6, 5));
    assert!(!paired.meet(1, 2), "{paired:?}");
    assert!(paired.meet(1, 7) && paired.meet(2, 8), "{paired:?}");
}

#[test]
fn a_third_colour_in_a_row_is_preferred_to_a_colour_difference_of_three() {
    // Last round (5), four topscorers on 3.5: 1 W W B W and 3 W B W W (colour difference
    // +2 each), 2 B W B B (-2), 4 B B W W (0, two whites in a row); 1-2 and 3-4 have met.
    // 1-3, 2-4 (the first in the order of pairing numbers) gives 1 or 3 a colour
    // difference of +3 (C.10); 1-4, 2-3 gives 4 a third white in a row (C.11); each
    // denies one colour preference (C.12 equal). C.10 is minimised first: 1-4 with 1
    // black (E.2, the wider colour difference) and 2-3 (2 white: E.1). bbpPairings: the same.
    let c = case!("topscorer-c10-before-c11");
    let f = facts(&c.state());
    assert_eq!((f[&1].imbalance, f[&3].imbalance), (2, 2));
    assert_eq!(f[&1].preference, Some(Colour::Black));
    assert_eq!(f[&3].preference, Some(Colour::Black));
    assert_eq!(f[&4].repeated, Some(Colour::White));
    let paired = c.paired();
    assert_eq!(paired.board_of(1), (4, 1));
    assert_eq!(paired.board_of(2), (2, 3));
    assert!(!paired.meet(1, 3));
}

#[test]
fn topscorers_get_equal_absolute_preferences_only_when_needed() {
    // Last round, four topscorers: 1 and 3 W W B B (absolute white), 2 and 4 B B W W
    // (absolute black). 1-3 and 2-4 are allowed (topscorers) but each gives a third colour
    // in a row (C.11); 1-4 and 2-3 grant every preference: that is the pairing, though
    // 1-3, 2-4 come first in the order of pairing numbers. bbpPairings: the same.
    let c = case!("topscorer-colours-only-when-needed");
    let paired = c.paired();
    assert_eq!(paired.board_of(1), (1, 4));
    assert_eq!(paired.board_of(2), (3, 2));
}

#[test]
fn a_director_pairing_giving_a_colour_difference_of_three_loses_on_c10() {
    // The case above paired by the director in the order of pairing numbers, 1-3 and 2-4
    // (the boards below as the Dutch pairing has them):
    // compared with the Dutch pairing it loses on C.10 (1 gets a colour difference of +3)
    // and is better only on C.11 (no third colour in a row).
    let c = case!("topscorer-c10-before-c11");
    let mut state = c.state();
    state.settings.system = PairingSystem::FideDutch;
    let director = evaluate_round_pairing(
        &state,
        &[(1, 3), (2, 4), (7, 5), (6, 8)],
        &[],
        &BlossomSolver,
        &Acceleration::none(),
    )
    .unwrap();
    let note = format!("{:?}", director.explanation);
    assert!(
        note.contains(
            "it loses on: topscorers or their opponents given a colour difference beyond 2 (C.10) 1 vs 0; better on a lower criterion: topscorers or their opponents given a colour a third time in a row (C.11) 0 vs 1\""
        ),
        "{note}"
    );
}

#[test]
fn a_topscorer_may_meet_a_non_topscorer_with_the_same_absolute_preference() {
    // 3 rounds played: 1 (3 points, a topscorer) and 2 (1.5, exactly half: not one) both
    // W B B, absolute white; 1 is alone on top and 2 alone on the next score. C.3 forbids
    // only two non-topscorers: in the last round 1 meets 2 (white to 1: E.4), one round
    // earlier 1 meets 6, 2 meets 3. bbpPairings: the same.
    let last = case!("topscorer-meets-non-topscorer");
    let f = facts(&last.state());
    assert_eq!((f[&1].score, f[&2].score), (6, 3));
    for sn in [1, 2] {
        assert!(f[&sn].absolute(), "{sn}");
        assert_eq!(f[&sn].preference, Some(Colour::White), "{sn}");
    }
    assert_eq!(last.paired().board_of(1), (1, 2));
    let before = case!("topscorer-meets-non-topscorer-not-last-round");
    let paired = before.paired();
    assert!(!paired.meet(1, 2), "{paired:?}");
    assert_eq!(paired.board_of(1), (1, 6));
}

#[test]
fn a_third_colour_in_a_row_weighs_more_than_colour_preferences() {
    // Last round (5), six topscorers on 3 points: 1 and 2 W W B B (absolute white), 3 and
    // 5 mild white, 4 and 6 mild black; 1 and 2 have met 4 and 6. 1-2, 3-4, 5-6 denies
    // one preference (C.12) but gives 2 a third black (C.11); without 1-2, 1 and 2 meet 3
    // and 5 and three preferences are denied. C.11 comes first: 1-3, 2-5, 4-6.
    // bbpPairings: the same.
    let c = case!("topscorer-c11-before-c12");
    let paired = c.paired();
    assert_eq!(&paired.boards[..3], &[(1, 3), (2, 5), (4, 6)]);
    let mut state = c.state();
    state.settings.system = PairingSystem::FideDutch;
    let mut director = vec![(1, 2), (3, 4), (5, 6)];
    director.extend_from_slice(&paired.boards[3..]);
    let compared = evaluate_round_pairing(
        &state,
        &director,
        &[],
        &BlossomSolver,
        &Acceleration::none(),
    )
    .unwrap();
    let note = format!("{:?}", compared.explanation);
    assert!(
        note.contains(
            "it loses on: topscorers or their opponents given a colour a third time in a row (C.11) 1 vs 0; strong or absolute colour preferences not granted (C.13) 1 vs 0; better on a lower criterion: colour preferences not granted (C.12) 1 vs 3\""
        ),
        "{note}"
    );
}
