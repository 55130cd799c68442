//! The rating-based tie-breaks (C.07 art. 10): ARO with its cuts, TPR, PTP, and the
//! opponents' averages APRO and APPO. Only games played over the board count, in every kind
//! of event (art. 15: forfeits stay unplayed for rating-based tie-breaks).

use super::rounds::{Cell, Rows};
use crate::engine::chess::rating::{
    average_rating, perfect_performance, performance_rating, round_half_up,
};
use crate::engine::chess::tiebreak_order::{Code, Tiebreak};

/// The ratings the averages count: each player's, and the rating given to the unrated.
pub(super) struct Ratings<'a> {
    pub ratings: &'a [Option<i32>],
    pub unrated: Option<i32>,
}

impl Ratings<'_> {
    fn of(&self, p: usize) -> Option<i32> {
        self.ratings
            .get(p)
            .copied()
            .flatten()
            .filter(|&r| r > 0)
            .or(self.unrated)
    }
}

/// Each player's games over the board as (opponent, half-points scored), in round order.
fn games(rows: &Rows, p: usize) -> Vec<(usize, u32)> {
    rows.cells[p]
        .iter()
        .filter_map(|c| match *c {
            Cell::Played { opponent, half, .. } => Some((opponent, half)),
            _ => None,
        })
        .collect()
}

/// How many of each player's opponents over the board have no rating to count (unrated,
/// and no `unrated_rating`): they are left out of the averages.
pub(super) fn left_out(rows: &Rows, ratings: &Ratings) -> Vec<usize> {
    (0..rows.len())
        .map(|p| {
            games(rows, p)
                .iter()
                .filter(|(o, _)| ratings.of(*o).is_none())
                .count()
        })
        .collect()
}

/// ARO (with its cuts), TPR or PTP of every player; `None` without a rated opponent.
fn own_values(rows: &Rows, tb: &Tiebreak, ratings: &Ratings) -> Vec<Option<i64>> {
    let r = rows.rounds();
    (0..rows.len())
        .map(|p| {
            // (rating, half-points) of the opponents with a rating, in round order
            let mut counted: Vec<(i32, u32)> = games(rows, p)
                .into_iter()
                .filter_map(|(o, half)| Some((ratings.of(o)?, half)))
                .collect();
            let low = (tb.cut_low as usize).min(r);
            let high = (tb.cut_high as usize).min(r - low);
            // the lowest (highest) rating cut; the earliest (latest) among equal ones
            counted.sort_by_key(|&(rating, _)| rating);
            let end = counted.len().saturating_sub(high);
            let kept = &counted[low.min(end)..end];
            let list: Vec<i32> = kept.iter().map(|c| c.0).collect();
            let score: u32 = kept.iter().map(|c| c.1).sum();
            match tb.code {
                Code::TPR | Code::APRO => performance_rating(score, &list),
                Code::PTP | Code::APPO => perfect_performance(score, &list),
                _ => average_rating(&list),
            }
            .map(i64::from)
        })
        .collect()
}

/// The values of ARO, TPR, PTP, APRO or APPO, in rating points.
pub(super) fn values(rows: &Rows, tb: &Tiebreak, ratings: &Ratings) -> Vec<Option<i64>> {
    let own = own_values(rows, tb, ratings);
    if !matches!(tb.code, Code::APRO | Code::APPO) {
        return own;
    }
    (0..rows.len())
        .map(|p| {
            let of_opponents: Vec<i64> =
                games(rows, p).iter().filter_map(|(o, _)| own[*o]).collect();
            (!of_opponents.is_empty())
                .then(|| round_half_up(of_opponents.iter().sum(), of_opponents.len() as i64))
        })
        .collect()
}
