//! Colour allocation (C.04.3 E.1-E.5): in each case two players meet whose colours only the
//! rule under test decides; every later rule (and the plain order of pairing numbers,
//! E.5 with the initial colour white) would give the other answer.

use super::{case, facts};
use crate::engine::chess::swiss::Colour;

/// (preference, absolute, strong, imbalance) of a player of a case.
fn preference(p: &super::super::player::DutchPlayer) -> (Option<Colour>, bool, bool, u32) {
    (p.preference, p.absolute(), p.strong, p.imbalance)
}

#[test]
fn e1_both_preferences_are_granted() {
    // 1 B W B W (mild: black), 2 W B W B (mild: white): 2 gets white, though 1 is ranked
    // higher with an odd pairing number (E.4/E.5 would give 1 white).
    let c = case!("colour-e1");
    let f = facts(&c.state());
    assert_eq!(preference(&f[&1]), (Some(Colour::Black), false, false, 0));
    assert_eq!(preference(&f[&2]), (Some(Colour::White), false, false, 0));
    assert_eq!(c.paired().board_of(1), (2, 1));
}

#[test]
fn e2_the_stronger_preference_is_granted() {
    // Both want white; the lower-ranked player has the stronger preference and gets it.
    // Strong over mild: 1 W B W B (mild), 2 B W (PAB) B (colour difference -1: strong).
    let c = case!("colour-e2-strong-over-mild");
    let f = facts(&c.state());
    assert_eq!(preference(&f[&1]), (Some(Colour::White), false, false, 0));
    assert_eq!(preference(&f[&2]), (Some(Colour::White), false, true, 1));
    assert_eq!(c.paired().board_of(1), (2, 1));
    // Absolute over strong: 1 B (PAB) W B (strong), 2 W W B B (two blacks: absolute).
    let c = case!("colour-e2-absolute-over-strong");
    let f = facts(&c.state());
    assert_eq!(preference(&f[&1]), (Some(Colour::White), false, true, 1));
    assert_eq!(preference(&f[&2]), (Some(Colour::White), true, false, 0));
    assert_eq!(c.paired().board_of(1), (2, 1));
    // Two absolute preferences (topscorers of the last round): the wider colour difference.
    // 1 W W B B (difference 0), 2 B W B B (difference -2).
    let c = case!("colour-e2-wider-difference");
    let f = facts(&c.state());
    assert_eq!(preference(&f[&1]), (Some(Colour::White), true, false, 0));
    assert_eq!(preference(&f[&2]), (Some(Colour::White), true, false, 2));
    assert_eq!(c.paired().board_of(1), (2, 1));
}

#[test]
fn e3_colours_alternate_from_the_last_round_they_differed() {
    // 1 B W W B and 2 W B W B: both mild white. Rounds 4 and 3 alike; in round 2 1 had
    // white and 2 black: now 1 black, 2 white (E.4 would give 1, ranked higher, white).
    let c = case!("colour-e3");
    let f = facts(&c.state());
    assert_eq!(preference(&f[&1]), preference(&f[&2]));
    assert_eq!(c.paired().board_of(1), (2, 1));
}

#[test]
fn e3_reads_each_history_back_over_its_played_games() {
    // 1: W B (PAB) W, 2: (PAB) W B W: both strong black. Read back game by game, the two
    // played W B W alike: no difference, E.4 gives 1 (ranked higher) black. Read round by
    // round (rounds where either did not play skipped) round 2 differs (1 black, 2 white)
    // and would give 1 white. bbpPairings reads game by game, as we do.
    let c = case!("colour-e3-unplayed-games");
    let f = facts(&c.state());
    assert_eq!(f[&1].colours, f[&2].colours);
    assert_eq!(preference(&f[&1]), (Some(Colour::Black), false, true, 1));
    assert_eq!(preference(&f[&2]), (Some(Colour::Black), false, true, 1));
    let state = c.state();
    let round_2: Vec<_> = [1, 2]
        .map(|sn| {
            state
                .players
                .iter()
                .find(|p| p.start_number == sn)
                .unwrap()
                .history[1]
                .colour
        })
        .to_vec();
    assert_eq!(round_2, vec![Some(Colour::Black), Some(Colour::White)]);
    assert_eq!(c.paired().board_of(1), (2, 1));
}

#[test]
fn e4_the_higher_ranked_player_gets_his_preference() {
    // The same history (W B W B: mild white) for both. Equal scores: 1, the lower pairing
    // number, gets white.
    let c = case!("colour-e4-pairing-number");
    let f = facts(&c.state());
    assert_eq!(f[&1].colours, f[&2].colours);
    assert_eq!(f[&1].score, f[&2].score);
    assert_eq!(c.paired().board_of(1), (1, 2));
    // 2 on 4 points, 1 on 3: 2 is ranked higher (score first, A.2) and gets white.
    let c = case!("colour-e4-score");
    let f = facts(&c.state());
    assert_eq!(f[&1].colours, f[&2].colours);
    assert!(f[&2].score > f[&1].score);
    assert_eq!(c.paired().board_of(1), (2, 1));
}

#[test]
fn e5_the_pairing_number_and_the_initial_colour_from_xxc() {
    // Round 1, `XXC black1`: odd pairing numbers of the higher-ranked player take the
    // initial colour (black), even ones the other.
    let c = case!("colour-e5-xxc");
    assert_eq!(c.state().settings.first_colour, Some(Colour::Black));
    let paired = c.paired();
    assert_eq!(paired.boards, vec![(5, 1), (2, 6), (7, 3), (4, 8)]);
}

#[test]
fn e5_without_xxc_the_initial_colour_is_read_from_round_1() {
    // No XXC; in round 1 player 1 (the first who took part) had black: the initial colour
    // is black. 3, 4, 7, 8 were absent in round 1 and have no preference: 3 (odd) gets
    // black against 7, 4 (even) white against 8; with white as the initial colour both
    // would be reversed.
    let c = case!("colour-e5-read-from-round-1");
    let state = c.state();
    assert_eq!(state.settings.first_colour, None);
    let f = facts(&state);
    for sn in [3, 4, 7, 8] {
        assert_eq!(f[&sn].preference, None, "{sn}");
    }
    let paired = c.paired();
    assert_eq!(paired.board_of(3), (7, 3));
    assert_eq!(paired.board_of(4), (4, 8));
}
