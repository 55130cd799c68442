//! The rules of C.04.4.3 one at a time, on small histories written by hand: each case is
//! built so that the rule it names decides the pairing, and asserts what that rule gives.

use super::*;
use crate::engine::chess::swiss::checked_events::hand_section;
use crate::engine::chess::swiss::ByeKind;
use crate::engine::chess::swiss::PairingSystem;
use crate::engine::matching::BlossomSolver;

/// A section of this system written by hand ([`hand_section`]).
fn section(n: u32, total: u32, rounds: &[&[(u32, u32, &str)]]) -> SwissState {
    hand_section(PairingSystem::FideLim, n, total, rounds)
}

/// The boards (white, black), sorted, and the pairing-allocated bye.
fn paired(state: &SwissState) -> (Vec<(u32, u32)>, Option<u32>) {
    let p = pair_lim(state, &BlossomSolver).expect("paired");
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
fn round_one_pairs_the_halves_and_colours_by_parity() {
    // 7.2: #1 White (drawn), the odd numbers of the upper half like #1, the even ones not:
    // 1 v 5, 6 v 2, 3 v 7, 8 v 4.
    let (boards, bye) = paired(&section(8, 5, &[]));
    assert_eq!(bye, None);
    assert_eq!(boards, vec![(1, 5), (3, 7), (6, 2), (8, 4)]);
    // 7.1: an odd number, the bye to the lowest rated.
    let (boards, bye) = paired(&section(7, 5, &[]));
    assert_eq!(bye, Some(7));
    assert_eq!(boards, vec![(1, 4), (3, 6), (5, 2)]);
}

#[test]
fn exchanges_for_number_one_follow_4_2() {
    // Round 1 with forbidden pairs (no colours yet): 1 may not meet 4 or 5; 4.2: 1 v 6,
    // then 2 v 4, 3 v 5.
    let mut s = section(6, 5, &[]);
    s.settings.prohibited_pairs = vec![[1, 4], [1, 5]];
    let (boards, _) = paired(&s);
    assert_eq!(boards, vec![(1, 6), (3, 5), (4, 2)]);
}

#[test]
fn exchanges_for_number_two_follow_4_3_and_4_4() {
    // 4.3: 1 v 6 fixed, 2 may not meet 4 or 5: the next in 2's order is 3 (1-6, 2-3, 4-5).
    let mut s = section(6, 5, &[]);
    s.settings.prohibited_pairs = vec![[1, 4], [1, 5], [2, 4], [2, 5]];
    let (boards, _) = paired(&s);
    assert!(
        meet(&boards, 1, 6) && meet(&boards, 2, 3) && meet(&boards, 4, 5),
        "{boards:?}"
    );
    // Nor 3: 2 takes 6 and 1 is exchanged to 3 (4.3's fourth column: 1-3, 2-6, 4-5).
    s.settings.prohibited_pairs.push([2, 3]);
    let (boards, _) = paired(&s);
    assert!(
        meet(&boards, 1, 3) && meet(&boards, 2, 6) && meet(&boards, 4, 5),
        "{boards:?}"
    );
}

#[test]
fn the_second_scrutiny_gives_colours_before_the_exchange_order() {
    // All drew in round 1 (1-4, 5-2, 3-6): 1, 3, 5 are due Black, 2, 4, 6 White. 1's
    // order is 4 (met), 5 (due Black too), 6: 5.2 takes 6; then 2 v 3 and 4 v 5, every
    // player his due colour.
    let s = section(6, 5, &[&[(1, 4, "="), (5, 2, "="), (3, 6, "=")]]);
    let (boards, _) = paired(&s);
    assert_eq!(boards, vec![(2, 3), (4, 5), (6, 1)]);
}

#[test]
fn groups_are_paired_top_down_bottom_up_and_the_median_last() {
    // Round 1: 1, 2, 3 won, 8-4 drawn, 5, 6, 7 lost. The top group {1, 2, 3} floats one
    // player down: 3.2.2 one of those due Black (1, 3) leaves the due colours even, 3.2.4
    // the lowest numbered: 3; 2 v 1. The bottom group {5, 6, 7}, paired upwards, floats
    // the highest numbered: 5 (3.2.4); 7 v 6. The median {4, 8} receives 3 from above and
    // 5 from below: 3 first (3.6.3), to the highest numbered (3.8): 4 v 3; then 5 v 8, both
    // due Black with the same history, the higher ranked (8, more points) gets it (5.4).
    let s = section(
        8,
        5,
        &[&[(1, 5, "1"), (6, 2, "0"), (3, 7, "1"), (8, 4, "=")]],
    );
    let p = pair_lim(&s, &BlossomSolver).expect("paired");
    let boards: Vec<(u32, u32)> = p.pairings.iter().map(|b| (b.white, b.black)).collect();
    // Listed by the General Handling Rules 3.6.
    assert_eq!(boards, vec![(2, 1), (4, 3), (5, 8), (7, 6)]);
}

#[test]
fn a_floater_with_no_opponent_in_the_next_group_is_avoided() {
    // As above, but 3 may not meet 4 or 8 (the median's residents): floating 3 would make
    // a floater of type c (3.9); 1 floats instead (2 v 3 gives both their colours, 1 v 3
    // would not), and meets the highest numbered of the median first: 4 v 1.
    let mut s = section(
        8,
        5,
        &[&[(1, 5, "1"), (6, 2, "0"), (3, 7, "1"), (8, 4, "=")]],
    );
    s.settings.prohibited_pairs = vec![[3, 4], [3, 8]];
    let (boards, _) = paired(&s);
    assert_eq!(boards, vec![(2, 3), (4, 1), (5, 8), (7, 6)]);
}

#[test]
fn a_player_who_floated_last_round_is_not_floated_again() {
    // Round 2 as above; round 3: whoever floats out of the top group did not float in
    // round 2 when another player of the group could float instead (3.10).
    let s = section(
        8,
        5,
        &[
            &[(1, 5, "1"), (6, 2, "0"), (3, 7, "1"), (8, 4, "=")],
            &[(2, 1, "="), (4, 3, "1"), (5, 8, "="), (7, 6, "1")],
        ],
    );
    let ps = player::players(&s);
    let p = pair_lim(&s, &BlossomSolver).expect("paired");
    let top = ps.iter().map(|x| x.score).max().unwrap();
    let group: Vec<u32> = ps.iter().filter(|x| x.score == top).map(|x| x.sn).collect();
    let floated: Vec<u32> = group
        .iter()
        .copied()
        .filter(|&sn| {
            p.pairings.iter().any(|b| {
                let o = if b.white == sn {
                    b.black
                } else if b.black == sn {
                    b.white
                } else {
                    return false;
                };
                ps.iter().find(|x| x.sn == o).unwrap().score != top
            })
        })
        .collect();
    assert!(!floated.is_empty(), "{group:?} {:?}", p.pairings);
    for sn in floated {
        let me = ps.iter().find(|x| x.sn == sn).unwrap();
        let others_could = group
            .iter()
            .any(|&o| o != sn && !ps.iter().find(|x| x.sn == o).unwrap().floated_last);
        assert!(
            !me.floated_last || !others_could,
            "{sn} floated again: {group:?}"
        );
    }
}

#[test]
fn the_last_round_lets_players_of_one_score_meet_against_colours() {
    // After two rounds 1 and 2 have had White twice, 3 and 4 Black twice, 1-3, 1-4, 2-3,
    // 2-4 met; everyone on 1 point. Before the last round nobody can pair 1, 2, 3, 4 (2.1:
    // 1-2 and 3-4 would give a third colour in a row).
    let rounds: &[&[(u32, u32, &str)]] = &[
        &[(1, 3, "="), (2, 4, "="), (5, 6, "=")],
        &[(1, 4, "="), (2, 3, "="), (6, 5, "=")],
    ];
    assert!(pair_lim(&section(6, 5, rounds), &BlossomSolver).is_err());
    // In the last round 6 puts the score first: 1 v 5, 6 v 2 (4.2's order) and 3 v 4, the
    // higher ranked 3 given his due White (5.4), 4 a third Black.
    let (boards, _) = paired(&section(6, 3, rounds));
    assert_eq!(boards, vec![(3, 4), (5, 1), (6, 2)]);
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_of_the_lowest_group() {
    // 1.1: 1, 2 and 3 lost round 1 (7 had the bye): 3, the lowest ranked of them.
    let s = section(
        7,
        5,
        &[&[(1, 4, "0"), (5, 2, "1"), (3, 6, "0"), (7, 0, "U")]],
    );
    let (_, bye) = paired(&s);
    assert_eq!(bye, Some(3));
    // Basic Rules 4: 7 had a full-point bye (and a penalty of a point), so he may not have
    // it though the lowest ranked of the lowest group {1, 2, 6, 7}: 6 has it.
    let mut s = section(
        7,
        5,
        &[&[(1, 4, "0"), (5, 2, "1"), (3, 6, "1"), (7, 0, "F")]],
    );
    s.players[6].adjustment_half_points = -2;
    let (_, bye) = paired(&s);
    assert_eq!(bye, Some(6));
}

#[test]
fn below_the_median_the_lower_ranked_gets_the_due_colour() {
    // 5.4: identical histories below the median: the lower ranked gets the colour both are
    // due. Round 1: 5, 6 and 7 lost with White; below the median two of them meet, both due
    // Black.
    let s = section(
        8,
        5,
        &[&[(5, 1, "0"), (6, 2, "0"), (7, 3, "0"), (8, 4, "=")]],
    );
    let p = pair_lim(&s, &BlossomSolver).expect("paired");
    let ps = player::players(&s);
    let mut seen = 0;
    for b in &p.pairings {
        let (w, k) = (&ps[b.white as usize - 1], &ps[b.black as usize - 1]);
        if w.score == 0 && k.score == 0 && w.colours == k.colours {
            // Both due Black: the lower ranked (larger number) has it.
            assert!(k.sn > w.sn, "{b:?}");
            seen += 1;
        }
    }
    assert_eq!(seen, 1, "{:?}", p.pairings);
}
