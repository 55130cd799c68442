//! The pairing-allocated bye: never to a player who has had one or who has scored a win's
//! points in one round without playing (a full-point bye, a win by forfeit: C.04.1 rule 4
//! in the 2025 text, C.04.3 C.2); to the lowest score that can take it and still let the
//! round be completed (C.4, C.5); among those, to the player with the fewest unplayed games
//! (C.9).

use super::super::check::state_before;
use super::{case, facts, Boards};
use crate::engine::chess::swiss::dutch::{evaluate_round_pairing, pair_dutch, Acceleration};
use crate::engine::chess::swiss::trf::{decode_trf, parse_trf};
use crate::engine::chess::swiss::{PairingSystem, RoundResult};
use crate::engine::matching::BlossomSolver;

#[test]
fn the_pab_skips_the_lowest_score_when_it_has_had_a_pab_a_full_point_bye_or_a_forfeit_win() {
    // Five players, three rounds played. 5 is alone on the lowest score (1 point: a PAB, a
    // requested full-point bye or a forfeit win in round 1, then two losses); above him 3
    // on 1.5, who has played every round. The PAB goes to 3 (the lowest score of an
    // eligible player, C.5), never to 5. bbpPairings: the same in all three.
    for (c, first) in [
        (case!("bye-not-after-pab"), RoundResult::PairingBye),
        (case!("bye-not-after-full-point-bye"), RoundResult::FullBye),
        (case!("bye-not-after-forfeit-win"), RoundResult::ForfeitWin),
    ] {
        let name = c.name;
        let state = c.state();
        let p5 = state.players.iter().find(|p| p.start_number == 5).unwrap();
        assert_eq!(p5.history[0].result, first, "{name}");
        let f = facts(&state);
        assert!(!f[&5].bye_eligible, "{name}");
        assert!(f[&3].bye_eligible, "{name}");
        let lowest = f.values().map(|p| p.score).min().unwrap();
        assert_eq!((f[&5].score, f[&3].score), (lowest, lowest + 1), "{name}");
        let paired = c.paired();
        assert_eq!(paired.pab, Some(3), "{name}");
    }
    // A forfeited game is no game: 5 and 4, whose round-1 game was forfeited, may meet again.
    assert!(case!("bye-not-after-forfeit-win").paired().meet(5, 4));
}

#[test]
fn a_half_point_bye_leaves_the_player_eligible_for_the_pab() {
    // The same event with a half-point bye for 5 in round 1: 5 (0.5, the lowest) gets the
    // PAB. bbpPairings: the same.
    let c = case!("bye-after-half-point-bye");
    assert!(facts(&c.state())[&5].bye_eligible);
    assert_eq!(c.paired().pab, Some(5));
}

#[test]
fn the_pab_goes_to_the_fewest_unplayed_games() {
    // Seven players after two rounds: 6 and 7 on 0 points; 7, the lower-ranked, was absent
    // in round 2 (one unplayed game), 6 played both. C.9: the PAB to 6. bbpPairings: the same.
    let c = case!("bye-fewest-unplayed-games");
    let f = facts(&c.state());
    assert_eq!((f[&6].score, f[&7].score), (0, 0));
    assert_eq!((f[&6].played_games, f[&7].played_games), (2, 1));
    assert_eq!(c.paired().pab, Some(6));
}

#[test]
fn no_pab_of_the_generated_tournaments_goes_to_an_ineligible_player() {
    // Every round of bbpPairings' generated tournaments (tests/fixtures/dutch/): our PAB,
    // when there is one, goes to a player without a PAB, full-point bye or forfeit win.
    let files: [&[u8]; 5] = [
        include_bytes!("../../../../../../tests/fixtures/dutch/bbp-5.trf"),
        include_bytes!("../../../../../../tests/fixtures/dutch/bbp-19.trf"),
        include_bytes!("../../../../../../tests/fixtures/dutch/bbp-47.trf"),
        include_bytes!("../../../../../../tests/fixtures/dutch/bbp-94.trf"),
        include_bytes!("../../../../../../tests/fixtures/dutch/bbp-113.trf"),
    ];
    let mut byes = 0;
    for bytes in files {
        let state = parse_trf(&decode_trf(bytes)).unwrap();
        for round in 1..=state.rounds_played() {
            let before = state_before(&state, round);
            let paired = Boards::of(&pair_dutch(&before, &BlossomSolver).unwrap());
            if let Some(sn) = paired.pab {
                byes += 1;
                assert!(facts(&before)[&sn].bye_eligible, "round {round}: {sn}");
            }
        }
    }
    assert!(byes >= 5, "{byes} PABs");
}

#[test]
fn where_bbp_pairings_gives_another_pab_ours_has_fewer_unplayed_games() {
    // Round 8 of an event of scripts/dutch-made-events (seed 14), one of the 8 rounds of
    // 2071 where bbpPairings differs, all of this kind. 8 and 11 are on 3 points, both
    // eligible; the PAB goes to one of them and the other meets 6, who floats down. 8 has
    // one unplayed game (a forfeit), 11 three (two absences, a half-point bye): C.9 (the
    // fewest unplayed games) gives it to 8. bbpPairings gives it to 11 (its C.9 applies
    // only in some states of its bracket-by-bracket matching, see the module doc), which
    // grants one more colour preference (C.12, a later criterion). Compared as a director's
    // pairing, it loses on C.9 and wins on C.12/C.13 only.
    let c = case!("bye-c9-unlike-bbp-pairings");
    let mut state = c.state();
    state.settings.system = PairingSystem::FideDutch;
    let ours = Boards::of(&pair_dutch(&state, &BlossomSolver).unwrap());
    let theirs = Boards::of_bbp(c.bbp);
    assert_eq!((ours.pab, theirs.pab), (Some(8), Some(11)));
    assert!(ours.meet(6, 11) && theirs.meet(6, 8));
    let f = facts(&state);
    assert_eq!(f[&8].score, f[&11].score);
    assert!(f[&8].bye_eligible && f[&11].bye_eligible);
    assert_eq!((f[&8].played_games, f[&11].played_games), (6, 4));
    let director = evaluate_round_pairing(
        &state,
        &theirs.boards,
        &[11],
        &BlossomSolver,
        &Acceleration::none(),
    )
    .unwrap();
    let note = format!("{:?}", director.explanation);
    assert!(
        note.contains("it loses on: unplayed games of the PAB's player (C.9) 3 vs 1; better"),
        "{note}"
    );
    assert!(
        note.contains("better on a lower criterion: colour preferences not granted (C.12) 3 vs 4; strong or absolute colour preferences not granted (C.13) 0 vs 1\""),
        "{note}"
    );
}

#[test]
fn the_pab_rises_to_the_lowest_score_that_lets_the_round_be_completed() {
    // Seven players, three rounds played: 1-4 have played one another (all draws: 1.5
    // each), 5 and 6 drew in round 1 and were absent since (0.5), 7 was always absent (0).
    // A PAB to 5, 6 or 7 leaves four players of 1-4 for the two others of 5-7: no pairing.
    // The lowest score that completes the round (C.4 before C.5) is 1.5: the PAB to 4, the
    // lowest ranked there. bbpPairings: the same.
    let c = case!("bye-lowest-score-that-completes-the-round");
    let f = facts(&c.state());
    for sn in [5, 6, 7] {
        assert!(f[&sn].bye_eligible && f[&sn].score < f[&4].score, "{sn}");
    }
    let paired = c.paired();
    assert_eq!(paired.pab, Some(4));
    for sn in [1, 2, 3] {
        let (w, b) = paired.board_of(sn);
        assert!(w >= 5 || b >= 5, "{sn} meets one of 5-7");
    }
}
