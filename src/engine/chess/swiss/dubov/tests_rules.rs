//! The rules of C.04.4.1 one at a time, on small histories written by hand: each case is
//! built so that the rule it names decides the pairing, and asserts what that rule gives.

use super::player::{DubovPlayer, Strength};
use super::*;
use crate::engine::chess::swiss::checked_events::hand_section;
use crate::engine::chess::swiss::dutch::player::QuickSet;
use crate::engine::chess::swiss::ByeKind;
use crate::engine::chess::swiss::PairingSystem;
use crate::engine::matching::BlossomSolver;

/// A section of this system written by hand ([`hand_section`]).
fn section(n: u32, total: u32, rounds: &[&[(u32, u32, &str)]]) -> SwissState {
    hand_section(PairingSystem::FideDubov, n, total, rounds)
}

/// The boards (white, black), sorted, and the pairing-allocated bye.
fn paired(state: &SwissState) -> (Vec<(u32, u32)>, Option<u32>) {
    let p = pair_dubov(state, &BlossomSolver).expect("paired");
    let mut boards: Vec<(u32, u32)> = p.pairings.iter().map(|b| (b.white, b.black)).collect();
    boards.sort_unstable();
    let bye = p
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pairing)
        .map(|b| b.player);
    (boards, bye)
}

fn meet(boards: &[(u32, u32)], a: u32, b: u32) -> bool {
    boards.contains(&(a, b)) || boards.contains(&(b, a))
}

#[test]
fn round_one_pairs_the_halves_by_tpn_and_colours_by_parity() {
    // 3.2.3: nobody has played, G1 the first half; 5.2.1: the higher ranked gets the
    // initial colour (White) when his TPN is odd. 3.1: the bye to the largest TPN.
    let (boards, bye) = paired(&section(7, 5, &[]));
    assert_eq!(bye, Some(7));
    assert_eq!(boards, vec![(1, 4), (3, 6), (5, 2)]);
}

#[test]
fn c1_no_second_game_the_next_transposition() {
    // All drew: White seekers 2, 4, 6 (S1 by ARO: 2 met 5, 6 met 3, 4 met 1), Black seekers
    // 1, 3, 5. The identity (2-1, 6-3, 4-5) repeats 3-6; the next transposition pairs 6-5
    // and 4-3.
    let s = section(6, 5, &[&[(1, 4, "="), (5, 2, "="), (3, 6, "=")]]);
    let (boards, _) = paired(&s);
    assert!(!meet(&boards, 3, 6));
    assert!(
        meet(&boards, 2, 1) && meet(&boards, 6, 5) && meet(&boards, 4, 3),
        "{boards:?}"
    );
}

#[test]
fn c2_the_bye_skips_a_player_who_scored_a_full_point_without_playing() {
    // 3, 4, 5 have 0 points and no game; 5 (the largest TPN) had a full-point bye (and a
    // penalty of a point): [C2] passes him over for 4.
    let mut s = section(5, 5, &[&[(1, 2, "="), (5, 0, "F")]]);
    s.players[4].adjustment_half_points = -2;
    let (_, bye) = paired(&s);
    assert_eq!(bye, Some(4));
}

#[test]
fn the_bye_goes_to_the_player_with_the_most_games_among_the_lowest() {
    // 3.1.4: 3, 4 and 5 have no point; 5 did not play (absent), 3 and 4 lost: 4, the larger
    // TPN of the two who played.
    let s = section(5, 5, &[&[(1, 3, "1"), (2, 4, "1")]]);
    let (_, bye) = paired(&s);
    assert_eq!(bye, Some(4));
}

#[test]
fn the_bye_leaves_the_rest_pairable() {
    // 3.1.2: the director forbids 1 to meet 2, 3 or 4; without 5 the rest cannot be paired,
    // so the bye goes to 4, and 1 meets 5.
    let mut s = section(5, 5, &[]);
    s.settings.prohibited_pairs = vec![[1, 2], [1, 3], [1, 4]];
    let (boards, bye) = paired(&s);
    assert_eq!(bye, Some(4));
    assert!(meet(&boards, 1, 5));
}

#[test]
fn c3_two_absolute_preferences_for_the_same_colour_do_not_meet() {
    // 1 and 2 lead with White twice each (both due Black absolutely): they may not meet, so
    // each takes an upfloater: 1 the first of score 1 he may meet (6: 3 is due Black
    // absolutely too), 2 the only one left to him (4, [C6] can do no better).
    let s = section(
        6,
        5,
        &[
            &[(1, 4, "1"), (2, 5, "1"), (3, 6, "0")],
            &[(1, 5, "1"), (2, 6, "1"), (3, 4, "1")],
        ],
    );
    let (boards, _) = paired(&s);
    assert!(!meet(&boards, 1, 2));
    assert!(meet(&boards, 1, 6) && meet(&boards, 2, 4), "{boards:?}");
}

/// Round 2 of ten: 1, 2 and 10 lead with a point (due Black, White, White), 3, 4, 8 and 9
/// have half a point (due Black, White, White, Black).
fn odd_top_group() -> SwissState {
    section(
        10,
        5,
        &[&[
            (1, 6, "1"),
            (7, 2, "0"),
            (3, 8, "="),
            (9, 4, "="),
            (5, 10, "0"),
        ]],
    )
}

#[test]
fn c5_c6_one_upfloater_from_the_next_score() {
    // The odd top group takes exactly one upfloater ([C5]), of half a point ([C6]); the
    // half-point group, three left, then takes one of no point.
    let (boards, _) = paired(&odd_top_group());
    let score = |sn: u32| match sn {
        1 | 2 | 10 => 2,
        3 | 4 | 8 | 9 => 1,
        _ => 0,
    };
    let across: Vec<&(u32, u32)> = boards
        .iter()
        .filter(|(w, b)| score(*w).max(score(*b)) == 2 && score(*w) != score(*b))
        .collect();
    assert_eq!(across.len(), 1, "{boards:?}");
    let (w, b) = *across[0];
    assert_eq!(score(w).min(score(b)), 1);
    let below: Vec<&(u32, u32)> = boards
        .iter()
        .filter(|(w, b)| score(*w).max(score(*b)) == 1 && score(*w) != score(*b))
        .collect();
    assert_eq!(below.len(), 1, "{boards:?}");
}

#[test]
fn c7_the_upfloater_who_lets_everyone_have_his_colour_then_the_first_by_tpn() {
    // Two White seekers (2, 10) and one Black seeker (1): a Black seeker floats up ([C7]),
    // the first of them by 4.2 (3 before 9). S1 = 2 (ARO 2280), 10 (ARO 2320); G2 = 1, 3.
    let (boards, _) = paired(&odd_top_group());
    assert!(boards.contains(&(2, 1)), "{boards:?}");
    assert!(boards.contains(&(10, 3)), "{boards:?}");
}

/// Round 3 of ten: 2 leads alone (due Black); 3 and 9 follow with 1.5, both due White, 3
/// upfloated in round 2.
fn lone_leader(total: u32) -> SwissState {
    section(
        10,
        total,
        &[
            &[
                (1, 6, "1"),
                (7, 2, "0"),
                (3, 8, "="),
                (9, 4, "="),
                (5, 10, "0"),
            ],
            &[
                (2, 1, "1"),
                (10, 3, "0"),
                (6, 9, "0"),
                (4, 8, "="),
                (5, 7, "="),
            ],
        ],
    )
}

#[test]
fn c10_not_the_upfloater_of_the_last_round() {
    // 3 comes first by 4.2 but floated up in round 2: 9 floats up instead.
    let (boards, _) = paired(&lone_leader(5));
    assert!(meet(&boards, 2, 9), "{boards:?}");
}

#[test]
fn c10_does_not_apply_in_the_last_round() {
    let (boards, _) = paired(&lone_leader(3));
    assert!(meet(&boards, 2, 3), "{boards:?}");
}

/// A bracket of one leader (4 points, due White) and two candidates of 2 points (due
/// Black), the first by TPN upfloated `first` times, the second `second` times, and one
/// player of 0 points: the leader's opponent, paired by the engine's bracket procedure.
fn leader_meets(first: u32, second: u32, last_round: bool) -> u32 {
    use Colour::{Black as B, White as W};
    let mut ps = [
        facts_of(&[W, B, W, B], 0, 8),
        facts_of(&[W, B, B, W], 1, 4),
        facts_of(&[W, B, B, W], 2, 4),
        facts_of(&[B, W, W, B], 3, 0),
    ];
    ps[1].upfloats = first;
    ps[2].upfloats = second;
    let field = pair::Field {
        ps: ps.iter().collect(),
        last_round,
        max_t: 2,
    };
    let out = pair::pair(&field, &BlossomSolver).expect("paired");
    let (a, b) = *out
        .pairs
        .iter()
        .find(|&&(a, b)| a == 0 || b == 0)
        .expect("leader");
    ps[a + b].sn
}

#[test]
fn c8_a_maximum_upfloater_floats_only_when_nobody_else_can() {
    // MaxT 2: the first candidate (sn 2) has floated up twice, the second (sn 3) never.
    assert_eq!(leader_meets(2, 0, false), 3);
    assert_eq!(leader_meets(1, 0, false), 2);
    // [C8]-[C10] do not apply in the last round: the first by 4.2.
    assert_eq!(leader_meets(2, 0, true), 2);
}

#[test]
fn c9_of_two_maximum_upfloaters_the_one_upfloated_fewer_times() {
    assert_eq!(leader_meets(4, 2, false), 3);
    assert_eq!(leader_meets(2, 3, false), 2);
}

#[test]
fn shifters_are_numbered_from_the_middle() {
    // Winners 1, 2, 3 (due Black, White in round 1) and 8 (due White): one Black seeker
    // shifts to G1, the middle one of 1, 2, 3 by TPN (4.3.3): 2. S1 = 2 (ARO 2300), 8
    // (ARO 2340); G2 = 1, 3.
    let s = section(
        8,
        5,
        &[&[(1, 5, "1"), (2, 6, "1"), (3, 7, "1"), (4, 8, "0")]],
    );
    let (boards, _) = paired(&s);
    assert!(boards.contains(&(2, 1)), "{boards:?}");
    assert!(boards.contains(&(8, 3)), "{boards:?}");
}

fn facts_of(colours: &[Colour], tpn: usize, score: i64) -> DubovPlayer {
    let d = crate::engine::chess::swiss::dutch::player::DutchPlayer::by_colours(
        tpn as u32 + 1,
        tpn,
        score,
        colours.to_vec(),
    );
    DubovPlayer {
        sn: d.sn,
        tpn,
        score,
        played: colours.len() as u32,
        colours: colours.to_vec(),
        preference: d.preference.unwrap_or(Colour::Black),
        strength: if d.absolute() {
            Strength::Absolute
        } else if d.strong {
            Strength::Strong
        } else {
            Strength::Mild
        },
        aro: 0,
        upfloats: 0,
        upfloated_last: false,
        bye_eligible: true,
        forbidden: QuickSet::default(),
    }
}

#[test]
fn colours_follow_5_2_in_order() {
    use Colour::{Black as B, White as W};
    // 5.2.2: both preferences.
    let p = facts_of(&[W], 0, 2);
    let o = facts_of(&[B], 1, 2);
    assert_eq!(colour_of(&p, &o, W), B);
    // 5.2.3: the absolute preference (B, B: White) over the mild one (W, B: White).
    let p = facts_of(&[W, B, B], 0, 2);
    let o = facts_of(&[B, W, B], 1, 2);
    assert_eq!(p.strength, Strength::Absolute);
    assert_eq!(colour_of(&o, &p, W), B);
    // 5.2.4: both mild for White; from the end B/B, W/W, then W against B: alternate.
    let p = facts_of(&[B, W, W, B], 0, 2);
    let o = facts_of(&[W, B, W, B], 1, 2);
    assert_eq!(colour_of(&p, &o, W), B);
    assert_eq!(colour_of(&o, &p, W), W);
    // 5.2.5: identical histories: the higher ranked gets his preference.
    let p = facts_of(&[W, B], 3, 2);
    let o = facts_of(&[W, B], 1, 2);
    assert_eq!(colour_of(&o, &p, W), W);
    let hi = facts_of(&[W, B], 3, 4);
    assert_eq!(colour_of(&hi, &o, W), W);
    assert_eq!(colour_of(&o, &hi, W), B);
    // 5.2.1: neither has played: the higher ranked, TPN 2 (even), gets the other colour.
    let p = facts_of(&[], 1, 0);
    let o = facts_of(&[], 4, 0);
    assert_eq!(colour_of(&p, &o, W), B);
}
