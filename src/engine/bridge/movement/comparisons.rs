//! Comparison counts of a movement (the `balance` of `report`), in time bounded by the
//! movement's size rather than by the square of the tables that share a board.
//!
//! The rule (see `report`): on a board played at t tables, two pairs score +1 when they sit
//! the same direction at different tables, −1 when opposite directions at different tables,
//! and t − 1 when they are opponents. Write, for one board, v[p] = (times p sits NS) − (times
//! p sits EW). Then the count of two pairs x ≠ y on that board is v[x]·v[y] (+1 same
//! direction, −1 opposite) plus t for every table where they meet (v[x]·v[y] gave −1 there,
//! the rule asks t − 1). This is exactly the rule summed over every two tables, yet it needs
//! only the pairs that play the board, never every two tables.
//!
//! Boards that are played at exactly the same tables (the boards of one set, almost always)
//! give the same counts, so they are grouped into classes and counted once, times the class
//! size. Counts are 32-bit: a valid movement's are at most boards × tables (10⁷); an
//! invalid one (a pair playing a board thousands of times) may wrap, never panic. The work
//! is the sum over classes of (pairs playing the class)², at most
//! `pairs × (seats filled)`, and the counts live in one triangular table of
//! `pairs·(pairs − 1)/2` numbers; the number of pairs is bounded by [`MAX_MOVEMENT_PAIRS`].

use std::collections::{BTreeMap, HashMap};

use super::model::{is_full, seated, Movement, PairId};
use crate::limits::MAX_MOVEMENT_PAIRS;

/// Comparison counts of every two pairs (by pair index), zero for pairs that share no board.
pub struct ComparisonCounts {
    n: usize,
    /// Row x holds the pairs y > x, from `row_start[x]`.
    row_start: Vec<usize>,
    counts: Vec<i32>,
}

impl ComparisonCounts {
    fn new(n: usize) -> Self {
        let mut row_start = Vec::with_capacity(n);
        let mut at = 0usize;
        for x in 0..n {
            row_start.push(at);
            at += n - x - 1;
        }
        ComparisonCounts {
            n,
            row_start,
            counts: vec![0; at],
        }
    }

    fn slot(&self, x: usize, y: usize) -> usize {
        let (x, y) = (x.min(y), x.max(y));
        self.row_start[x] + (y - x - 1)
    }

    /// The count of pairs `x` and `y` (x ≠ y).
    pub fn get(&self, x: usize, y: usize) -> i32 {
        self.counts[self.slot(x, y)]
    }

    /// Every count, each two pairs once.
    pub fn values(&self) -> &[i32] {
        &self.counts
    }

    /// Number of pairs.
    pub fn pairs(&self) -> usize {
        self.n
    }
}

/// The comparison counts of `m`, pairs numbered by `index` (see the module docs), or None
/// when the movement names more than [`MAX_MOVEMENT_PAIRS`] pairs (the validator refuses it).
pub fn comparison_counts(
    m: &Movement,
    index: &BTreeMap<PairId, usize>,
) -> Option<ComparisonCounts> {
    let n = index.len();
    if n > MAX_MOVEMENT_PAIRS {
        return None;
    }
    // Every full table of every round: its (NS, EW) pair indices, arrow switch applied.
    let mut plays: Vec<(usize, usize)> = Vec::new();
    // board -> the plays at which it is played, in order.
    let mut board_plays: HashMap<u32, Vec<u32>> = HashMap::new();
    for r in &m.rounds {
        for t in r.tables.iter().filter(|t| is_full(t)) {
            let ids = seated(m, t);
            let (Some(&a), Some(&b)) = (index.get(&ids[0].0), index.get(&ids[1].0)) else {
                continue;
            };
            let play = plays.len() as u32;
            plays.push(if t.arrow_switch { (b, a) } else { (a, b) });
            for &board in &t.boards {
                let at = board_plays.entry(board).or_default();
                if at.last() != Some(&play) {
                    at.push(play);
                }
            }
        }
    }
    // Boards played at the same tables count alike: one class, weighted by its size.
    let mut classes: HashMap<Vec<u32>, i32> = HashMap::new();
    for (_, at) in board_plays {
        *classes.entry(at).or_insert(0) += 1;
    }

    let mut out = ComparisonCounts::new(n);
    let mut v = vec![0i32; n];
    let mut u = vec![0i32; n];
    let mut members: Vec<usize> = Vec::new();
    for (at, weight) in &classes {
        let t = at.len() as i32;
        for &p in at {
            let (ns, ew) = plays[p as usize];
            for (pair, d) in [(ns, 1), (ew, -1)] {
                if v[pair] == 0 {
                    members.push(pair);
                }
                v[pair] = v[pair].wrapping_add(d);
            }
        }
        members.sort_unstable();
        members.dedup();
        // A pair whose seats cancel (NS once, EW once) adds nothing.
        members.retain(|&p| v[p] != 0);
        // A class most pairs play is added along whole rows (u is 0 for the others), with
        // additions the compiler turns into vector instructions; a sparse one pair by pair.
        let dense = members.len() * 4 > n;
        if dense {
            for &x in &members {
                u[x] = weight.wrapping_mul(v[x]);
            }
        }
        for (i, &x) in members.iter().enumerate() {
            let row = out.row_start[x];
            if dense {
                let cells = &mut out.counts[row..row + (n - x - 1)];
                let us = &u[x + 1..];
                match v[x] {
                    1 => cells
                        .iter_mut()
                        .zip(us)
                        .for_each(|(c, &a)| *c = c.wrapping_add(a)),
                    -1 => cells
                        .iter_mut()
                        .zip(us)
                        .for_each(|(c, &a)| *c = c.wrapping_sub(a)),
                    vx => cells
                        .iter_mut()
                        .zip(us)
                        .for_each(|(c, &a)| *c = c.wrapping_add(a.wrapping_mul(vx))),
                }
            } else {
                let wx = weight.wrapping_mul(v[x]);
                for &y in &members[i + 1..] {
                    let c = &mut out.counts[row + (y - x - 1)];
                    *c = c.wrapping_add(wx.wrapping_mul(v[y]));
                }
            }
        }
        if dense {
            for &x in &members {
                u[x] = 0;
            }
        }
        for &p in at {
            let (ns, ew) = plays[p as usize];
            if ns != ew {
                let s = out.slot(ns, ew);
                out.counts[s] = out.counts[s].wrapping_add(weight.wrapping_mul(t));
            }
        }
        for &p in at {
            let (ns, ew) = plays[p as usize];
            v[ns] = 0;
            v[ew] = 0;
        }
        members.clear();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::movement::generate::{generate, KINDS};
    use crate::engine::bridge::movement::model::{
        MovementParams, PairNumbering, Round, TableRound,
    };
    use crate::engine::bridge::movement::validate::all_pairs;

    /// The rule read literally: every two tables that play a board.
    fn by_every_two_tables(
        m: &Movement,
        index: &BTreeMap<PairId, usize>,
    ) -> HashMap<(usize, usize), i64> {
        let mut by_board: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
        for r in &m.rounds {
            for t in r.tables.iter().filter(|t| is_full(t)) {
                let ids = seated(m, t);
                let (a, b) = (index[&ids[0].0], index[&ids[1].0]);
                let (ns, ew) = if t.arrow_switch { (b, a) } else { (a, b) };
                let mut boards = t.boards.clone();
                boards.sort_unstable();
                boards.dedup();
                for board in boards {
                    by_board.entry(board).or_default().push((ns, ew));
                }
            }
        }
        let mut all = HashMap::new();
        let mut add = |a: usize, b: usize, v: i64| {
            if a != b {
                *all.entry((a.min(b), a.max(b))).or_insert(0) += v;
            }
        };
        for plays in by_board.values() {
            let t = plays.len() as i64;
            for (i, &(ns_i, ew_i)) in plays.iter().enumerate() {
                add(ns_i, ew_i, t - 1);
                for &(ns_j, ew_j) in &plays[i + 1..] {
                    add(ns_i, ns_j, 1);
                    add(ew_i, ew_j, 1);
                    add(ns_i, ew_j, -1);
                    add(ew_i, ns_j, -1);
                }
            }
        }
        all
    }

    fn assert_same_counts(m: &Movement) {
        let pairs = all_pairs(m);
        let index: BTreeMap<PairId, usize> =
            pairs.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let fast = comparison_counts(m, &index).unwrap();
        let slow = by_every_two_tables(m, &index);
        for x in 0..pairs.len() {
            for y in x + 1..pairs.len() {
                let want = slow.get(&(x, y)).copied().unwrap_or(0);
                assert_eq!(
                    i64::from(fast.get(x, y)),
                    want,
                    "{} pairs {x},{y} of {}",
                    m.kind,
                    m.tables
                );
            }
        }
    }

    #[test]
    fn equal_to_the_rule_on_every_generated_movement() {
        let mut checked = 0;
        for kind in KINDS {
            for tables in 3..=11 {
                for rover in [false, true] {
                    let p = MovementParams {
                        tables,
                        rover,
                        ..Default::default()
                    };
                    if let Ok(m) = generate(kind, &p) {
                        assert_same_counts(&m);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 60, "{checked} movements checked");
    }

    /// Random seatings and boards, shared sets, a pair at two tables, arrow switches and
    /// boards listed twice: the counts still follow the rule, term for term.
    #[test]
    fn equal_to_the_rule_on_disorderly_movements() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        for case in 0..40 {
            let tables = 2 + next(6);
            let rounds = (1..=1 + next(5))
                .map(|r| Round {
                    round: r,
                    tables: (1..=tables)
                        .map(|t| {
                            let boards = (0..1 + next(3)).map(|_| 1 + next(6)).collect();
                            TableRound {
                                table: t,
                                ns: Some(1 + next(9)),
                                ew: (next(5) > 0).then(|| 1 + next(9)),
                                set: 1 + next(4),
                                boards,
                                arrow_switch: next(4) == 0,
                                section: None,
                                half_sets: Vec::new(),
                            }
                        })
                        .collect(),
                    sit_out: vec![],
                    relay_sets: vec![],
                })
                .collect();
            let m = Movement {
                kind: format!("case {case}"),
                tables,
                pair_numbering: if case % 2 == 0 {
                    PairNumbering::Howell
                } else {
                    PairNumbering::Mitchell
                },
                boards_per_round: 2,
                rounds,
            };
            assert_same_counts(&m);
        }
    }

    #[test]
    fn too_many_pairs_are_not_counted() {
        let index: BTreeMap<PairId, usize> = (0..=MAX_MOVEMENT_PAIRS)
            .map(|i| (PairId::Pair(i as u32 + 1), i))
            .collect();
        let m = generate(
            "howell",
            &MovementParams {
                tables: 4,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(comparison_counts(&m, &index).is_none());
    }
}
