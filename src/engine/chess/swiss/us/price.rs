//! Pricing the boards outside the candidate window of a large section (column generation).
//!
//! A solve over the candidate boards leaves blossom duals `y(v)`, `z(B)` (see
//! [`crate::engine::matching::Duals`]). A board u–v outside the candidates whose weighted cost
//! `c(u, v)` has `c(u, v) − y(u) − y(v) + Σ z(B ⊇ {u, v}) >= 0` cannot improve the matching;
//! boards with a negative value are returned and the solve is repeated with them: of each
//! player's boards with lower-ranked players, at most [`FullGraphPricer::per_player`], the most
//! negative first (ties by rank), so a pass adds O(n) boards whatever the history, and
//! the pass that finds none proves the optimum as before. A pass that finds at most
//! [`ALL_BELOW_PER_PLAYER`] negative boards per player in all adds every one: the cut rows
//! are priced again without the cap (at 9 999 players of `bench-swiss --shape`, `draws`
//! pairs in 5 passes instead of 7, `late` in 7 instead of 9, `open` in 8 instead of 9).
//!
//! Computing the full board (colours, rematches) for all n²/2 pairs would be slow, so a cheap
//! lower bound is tried first: `z >= 0`, every tier is `>= 0`, so
//! `c(u, v) >= w_score·4d² + w_serious·limit + w_colour·limit(change) + w_rating·8·min(change,
//! cap) + colours(u, v)` with d the score difference and `change` the rating change, both read
//! off the ranked model in O(1), and `colours` what the colours cost whichever way they go:
//! when both players are out of balance the same way (imbalances i and j of one sign), one of
//! them takes the colour that takes him to min(|i|, |j|) + 1, an equalisation of
//! min(|i|, |j|)² units (and the serious or absolute tier's (min(|i|, |j|) − 1)² beyond 2),
//! and two players due the same colour clash. On a history with many draws at 10 000 players
//! (`bench-swiss --shape draws`) this settles most pairs of a score group without building
//! their boards (11.4 s of CPU to 7.9 s for the whole pairing).
//! A whole score group is skipped when even `w_score·4d² − y(u) − max y(group)` is `>= 0`.
//! Only when the bound does not settle a pair is its board built.
//!
//! A pass prices the players' rows on the machine's cores ([`in_parallel`], at most 4 threads:
//! the duals and the model are only read); the boards come back in the order one thread would
//! give them, so the solve that follows, and the pairing, do not depend on the thread count.
//! The candidate boards of the window are built the same way (`pair::candidates`).

#![allow(clippy::needless_range_loop)]

use super::penalty::{
    Board, Model, ABSOLUTE_COLOUR, COLOUR, PREFERENCE, RATING, REPEAT, SCORE, SERIOUS_COLOUR, TIERS,
};
use super::solve::Pricer;
use crate::engine::chess::swiss::colour::due;
use crate::engine::chess::swiss::state::Colour;
use crate::engine::matching::Duals;

/// Pricer over every pair of players of `model` (the bye's boards are always candidates).
pub(crate) struct FullGraphPricer<'a> {
    pub model: &'a Model,
    /// Vertices whose boards are fixed (forced by the director): never priced.
    pub skip: &'a [bool],
    /// The most boards one pass adds per player (his boards with lower-ranked players, most
    /// negative reduced cost first); 0 = every negative board.
    pub per_player: usize,
}

impl FullGraphPricer<'_> {
    /// Score groups of the ranked players: ranges of equal score.
    fn groups(&self) -> Vec<(usize, usize)> {
        let p = &self.model.players;
        let mut out = Vec::new();
        let mut a = 0;
        while a < p.len() {
            let mut b = a;
            while b < p.len() && p[b].score == p[a].score {
                b += 1;
            }
            out.push((a, b));
            a = b;
        }
        out
    }
}

impl Pricer for FullGraphPricer<'_> {
    fn max_tiers(&self) -> [i64; TIERS] {
        let m = self.model;
        let max_score = m.players.iter().map(|p| p.score).max().unwrap_or(0);
        let d = max_score - m.min_score;
        let mut t = [0i64; TIERS];
        t[REPEAT] = 1;
        t[PREFERENCE] = 2 * i64::from(!m.prohibited.is_empty()) + i64::from(m.avoid_teams);
        t[SCORE] = 4 * d * d + 1;
        // Serious colour: every player's worse colour; colour: both players' equalisation
        // at the largest imbalance, alternation, clash and limit charges.
        let serious = m.high_serious - 1;
        let worst = m
            .players
            .iter()
            .map(|p| p.colours.len() as i64 + 1)
            .max()
            .unwrap_or(1);
        if m.fide_style {
            t[ABSOLUTE_COLOUR] = serious;
        } else {
            t[SERIOUS_COLOUR] = serious + m.high_serious;
        }
        t[COLOUR] = 2 * m.eq_weight * worst * worst + 5 + m.eq_weight;
        t[RATING] = m.max_rating_tier();
        t
    }

    fn price(&self, level: usize, w: &[i128; TIERS], duals: &Duals) -> Vec<Board> {
        let m = self.model;
        let n = m.players.len();
        let groups = self.groups();
        let y: Vec<i128> = (0..n).map(|v| duals.vertex2(v)).collect();
        let max_y: Vec<i128> = groups
            .iter()
            .map(|&(a, b)| {
                (a..b)
                    .filter(|&v| !self.skip[v])
                    .map(|v| y[v])
                    .max()
                    .unwrap_or(i128::MIN / 4)
            })
            .collect();
        let mut group_of = vec![0usize; n];
        for (g, &(a, b)) in groups.iter().enumerate() {
            group_of[a..b].fill(g);
        }
        let limit = |change: i64| -> i128 {
            if m.fide_style {
                0
            } else if change > m.high_limit {
                m.eq_weight as i128
            } else if change > m.low_limit {
                2
            } else {
                0
            }
        };
        let serious = |change: i64| -> i128 {
            if !m.fide_style && change > m.high_limit {
                m.high_serious as i128
            } else {
                0
            }
        };
        // What colours cost at least, whichever colours the board gives: a player's
        // imbalance (whites − blacks) and the colour he is due.
        let imbalance: Vec<i64> = m.players.iter().map(|p| p.imbalance()).collect();
        let due: Vec<Option<Colour>> = m.players.iter().map(due).collect();
        let (serious_tier, colour_unit, clash_unit) = if m.fide_style {
            (ABSOLUTE_COLOUR, 1i128, m.eq_weight as i128)
        } else {
            (SERIOUS_COLOUR, m.eq_weight as i128, 1i128)
        };
        let colours = |u: usize, v: usize| -> i128 {
            let (a, b) = (imbalance[u], imbalance[v]);
            // Both out of balance the same way: one of them takes the colour that makes
            // his imbalance grow to |i| + 1 >= 2, an equalisation of (|i|)² units, and an
            // imbalance beyond 2 when |i| >= 2 (see `ColourEffect`).
            let i = if a != 0 && a.signum() == b.signum() {
                a.abs().min(b.abs()) as i128
            } else {
                0
            };
            let clash = i128::from(due[u].is_some() && due[u] == due[v]);
            let beyond = (i - 1).max(0);
            w[COLOUR] * (colour_unit * i * i + clash_unit * clash)
                + w[serious_tier] * beyond * beyond
        };
        // The boards u–v (v > u) with a negative reduced cost of the player `u`, at most `cap`
        // of them (0: all; the most negative first, ties by rank), in the order of v, into
        // `row`; how many there were when the cap cut the row.
        let price_row = |u: usize, cap: usize, row: &mut Vec<(i128, Board)>| -> Option<usize> {
            if self.skip[u] {
                return None;
            }
            let su = m.players[u].score;
            for gv in group_of[u]..groups.len() {
                let (va, vb) = groups[gv];
                let d = (su - m.players[va].score) as i128;
                let score_lb = w[SCORE] * 4 * d * d;
                if 2 * score_lb - y[u] - max_y[gv] >= 0 {
                    continue;
                }
                for v in va.max(u + 1)..vb {
                    if self.skip[v] {
                        continue;
                    }
                    let (change, rank) = m.change(u, v);
                    let lb = score_lb
                        + w[SERIOUS_COLOUR] * serious(change)
                        + w[COLOUR] * limit(change)
                        + w[RATING] * m.rating_tier(u, v, change, rank) as i128
                        + colours(u, v);
                    let slack = 2 * lb - y[u] - y[v];
                    if slack >= 0 || slack + duals.common_blossoms2(u, v) >= 0 {
                        continue;
                    }
                    let b = m.board(u, v);
                    let allowed = match level {
                        0 => b.tiers[REPEAT] == 0 && b.tiers[PREFERENCE] == 0,
                        1 => b.tiers[REPEAT] == 0,
                        _ => true,
                    };
                    if !allowed {
                        continue;
                    }
                    let c: i128 = (0..TIERS).map(|k| w[k] * b.tiers[k] as i128).sum();
                    let reduced = duals.reduced_cost2(u, v, c);
                    if reduced < 0 {
                        row.push((reduced, b));
                    }
                }
            }
            let found = row.len();
            if cap > 0 && found > cap {
                row.sort_by_key(|(reduced, b)| (*reduced, b.v));
                row.truncate(cap);
                row.sort_by_key(|(_, b)| b.v);
                return Some(found);
            }
            None
        };
        // The boards of the players `rows` in the order (u, v), and the rows the cap cut.
        let price_rows = |rows: &mut dyn Iterator<Item = usize>, cap: usize| -> Vec<Priced> {
            let mut out = Vec::new();
            let mut row: Vec<(i128, Board)> = Vec::new();
            for u in rows {
                if let Some(found) = price_row(u, cap, &mut row) {
                    out.push(Priced::Cut(u, found));
                }
                out.extend(row.drain(..).map(|(_, b)| Priced::Board(b)));
            }
            out
        };
        let mut cut = vec![false; n];
        let mut found = 0;
        let mut boards: Vec<Board> =
            in_parallel(n, |r| price_rows(&mut r.into_iter(), self.per_player))
                .into_iter()
                .filter_map(|p| match p {
                    Priced::Board(b) => {
                        found += 1;
                        Some(b)
                    }
                    Priced::Cut(u, all) => {
                        cut[u] = true;
                        found += all - self.per_player;
                        None
                    }
                })
                .collect();
        // Few negative boards in all: every one is added, the cut rows priced again without
        // the cap (which is there to keep a pass from adding millions).
        let cut_rows: Vec<usize> = (0..n).filter(|&u| cut[u]).collect();
        if !cut_rows.is_empty() && found <= ALL_BELOW_PER_PLAYER * n {
            boards.retain(|b| !cut[b.u]);
            let whole = in_parallel(cut_rows.len(), |r| {
                price_rows(&mut r.map(|i| cut_rows[i]), 0)
            });
            boards.extend(whole.into_iter().filter_map(|p| match p {
                Priced::Board(b) => Some(b),
                Priced::Cut(..) => None,
            }));
            boards.sort_by_key(|b| (b.u, b.v));
        }
        boards
    }
}

/// What pricing a row gives: a board with a negative reduced cost, or the note that the cap
/// cut the row of a player (and how many negative boards it held).
enum Priced {
    Board(Board),
    Cut(usize, usize),
}

/// A pass that finds at most this many negative boards per player in all adds every one.
const ALL_BELOW_PER_PLAYER: usize = 2;

/// `rows(range)` over `0..items` cut into consecutive ranges, run on the machine's cores (at
/// most [`THREADS`]), the results concatenated in the order of the ranges: the same list as
/// `rows(0..items)` gives, so the answer does not depend on the number of threads.
pub(crate) fn in_parallel<T: Send>(
    items: usize,
    rows: impl Fn(std::ops::Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(THREADS);
    if threads < 2 || items < 2 * CHUNK {
        return rows(0..items);
    }
    // Small ranges taken in turn by whichever thread is free: rows of very different cost
    // (a player near the top of the ranking has more boards to price) even out.
    let ranges: Vec<std::ops::Range<usize>> = (0..items)
        .step_by(CHUNK)
        .map(|a| a..(a + CHUNK).min(items))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(r) = ranges.get(i) else { break };
                        mine.push((i, rows(r.clone())));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("a pricing thread panicked"))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    // Allocated once at its final size, each range freed as it is moved in: a list grown
    // by doubling held up to three times its size at the last copy (at 10 000 players in
    // FIDE style, the candidate boards are the largest allocation of the pairing).
    let mut all = Vec::with_capacity(done.iter().map(|(_, v)| v.len()).sum());
    for (_, v) in done {
        all.extend(v);
    }
    all
}

/// The most threads a pricing pass (or the building of the candidate boards) uses.
const THREADS: usize = 4;
/// Players per range of [`in_parallel`].
const CHUNK: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges run on several threads give the list one pass over all rows gives, in the
    /// same order, whatever the number of rows (fewer than a range, not a multiple of it).
    #[test]
    fn parallel_rows_come_back_in_order() {
        let rows = |r: std::ops::Range<usize>| -> Vec<(usize, usize)> {
            r.flat_map(|u| (0..u % 5).map(move |k| (u, k))).collect()
        };
        for items in [0, 1, CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 7, 37 * CHUNK + 3] {
            assert_eq!(in_parallel(items, rows), rows(0..items), "{items} rows");
        }
    }
}
