//! The facts Burstein's order reads: the seeding acceleration of the first two rounds, and
//! each player's index (Sonneborn-Berger, Buchholz, median Buchholz, then pairing number),
//! all in half-points, with the virtual opponent of C.07 for unplayed games.

use crate::engine::chess::swiss::{RoundResult, SwissState};
use std::cmp::Ordering;

/// Took part in the pairing of a round: a game (played or forfeited) or the pairing bye.
fn took_part(r: RoundResult) -> bool {
    r.has_opponent() || r == RoundResult::PairingBye
}

/// The seeding acceleration (half-points) of each player (indexed like `state.players`)
/// for the round to pair: in the first two rounds the top half of those paired in round 1
/// (by start number) count one point more, so that round 1 pairs the top half against the
/// bottom half and round 2 pairs within the halves; none afterwards.
pub(crate) fn seeding(state: &SwissState, out: &std::collections::HashSet<u32>) -> Vec<i64> {
    let played = state.rounds_played() as usize;
    let mut accel = vec![0; state.players.len()];
    if played >= 2 {
        return accel;
    }
    let counts = |i: usize| {
        let p = &state.players[i];
        match p.history.first() {
            Some(r) => took_part(r.result),
            None => !p.withdrawn && !out.contains(&p.start_number),
        }
    };
    let mut order: Vec<usize> = (0..state.players.len()).collect();
    order.sort_by_key(|&i| state.players[i].start_number);
    let mut bound = order.iter().filter(|&&i| counts(i)).count();
    if bound <= 1 {
        return accel;
    }
    for i in order {
        accel[i] = 2;
        if counts(i) {
            bound -= 2;
            if bound <= 1 {
                break;
            }
        }
    }
    accel
}

/// One player's index (C.04.4.2: the score, then the tie-breaks, then the pairing number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Index {
    /// Score with the seeding acceleration, half-points.
    pub score: i64,
    /// Sonneborn-Berger (half-points squared).
    pub sb: i64,
    /// Buchholz (half-points).
    pub buchholz: i64,
    /// Median Buchholz: without the highest and the lowest (none before round 4).
    pub median: i64,
    /// Pairing number position (0 = first).
    pub rank: usize,
}

impl Index {
    /// `self` ranks below `other`. Within one score: SB, Buchholz, median, then the lower
    /// pairing number; across scores (a floater in a score group), the Buchholz and median
    /// scaled by the score, as bbpPairings compares them.
    pub fn below(&self, other: &Index) -> bool {
        let key = |x: &Index| {
            if self.score == other.score {
                (x.sb, x.buchholz, x.median)
            } else {
                (x.sb, x.buchholz * x.score, x.median * x.score)
            }
        };
        match key(self).cmp(&key(other)) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => self.rank > other.rank,
        }
    }
}

/// The index of every player (indexed like `state.players`). `accel`: each player's
/// seeding acceleration, `rank`: pairing number positions, `score`: scores with it.
pub(crate) fn indices(
    state: &SwissState,
    accel: &[i64],
    rank: &[usize],
    score: &[i64],
    numbered: &[bool],
) -> Vec<Index> {
    let played = state.rounds_played() as usize;
    let by_sn: std::collections::HashMap<u32, usize> = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_number, i))
        .collect();
    // An unplayed game counts as a draw in the opponents' scores.
    let adjusted: Vec<i64> = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if !numbered[i] {
                return 0;
            }
            accel[i]
                + p.history
                    .iter()
                    .take(played)
                    .map(|r| {
                        if r.result.is_played() {
                            r.result.half_points() as i64
                        } else {
                            1
                        }
                    })
                    .sum::<i64>()
        })
        .collect();
    state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut ix = Index {
                score: score[i],
                sb: 0,
                buchholz: 0,
                median: 0,
                rank: rank[i],
            };
            if !numbered[i] || played == 0 {
                return ix;
            }
            // The virtual opponent of an unplayed round: this player's score before it,
            // the opposite result, draws afterwards.
            let mut virtual_points = (played as i64 - 1) + accel[i];
            let (mut min, mut max) = (i64::MAX, i64::MIN);
            for r in p.history.iter().take(played) {
                let pts = r.result.half_points() as i64;
                let opp = match r.opponent.and_then(|o| by_sn.get(&o)) {
                    Some(&j) if r.result.is_played() => adjusted[j],
                    _ => {
                        virtual_points
                            + match r.result {
                                RoundResult::ForfeitLoss
                                | RoundResult::ZeroBye
                                | RoundResult::Loss => 2,
                                RoundResult::HalfBye | RoundResult::Draw => 1,
                                _ => 0,
                            }
                    }
                };
                ix.sb += opp * pts;
                ix.buchholz += opp;
                min = min.min(opp);
                max = max.max(opp);
                virtual_points += pts - 1;
            }
            if played > 2 {
                ix.median = ix.buchholz - min - max;
            }
            ix
        })
        .collect()
}
