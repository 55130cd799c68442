//! Half-set Howells: each round's boards are played as two half-sets, and the two
//! halves of a set travel separately, so a set's first half may be at one table and its
//! second half at another in the same round (the tables exchange them at half time). On 2
//! and 3 tables this is what lets a Howell be perfectly balanced: with whole sets the
//! 3-table Howell reaches 60%.
//!
//! A half-set layout: per round, per table, [NS, EW, first half-set, second half-set], where
//! half-set u (1-based) is half (u − 1) mod 2 + 1 of set (u − 1) div 2 + 1. The pairs meet as
//! in the circle method (pair 2T stationary at table T, the others in a cycle), played
//! `repeat` times for the movements in which each round is played twice. The search fills
//! the half-sets depth-first in random order (every pair plays every half-set once; no
//! half-set at two tables in the same half of a round), then chooses the directions by hill
//! climbing (`design::improve_directions_grouped`), restarting until it reaches 100% or its
//! restarts run out. Run offline (`examples/search-movements`); results are embedded in
//! `howell/data.rs` and re-verified by tests.

use super::design::improve_directions_grouped;
use super::search::{layout_percent, Layout, Rng};

/// Per round, per table: [NS, EW, first half-set, second half-set] (module docs).
pub type HalfLayout = Vec<Vec<[u32; 4]>>;

/// The layout of half-rounds: round ρ becomes half-rounds 2ρ and 2ρ + 1, each half-set a
/// "set" of its own. Balance is counted board by board, so this is the movement's balance.
pub fn as_layout(h: &HalfLayout) -> Layout {
    h.iter()
        .flat_map(|round| [2, 3].map(|slot| round.iter().map(|c| [c[0], c[1], c[slot]]).collect()))
        .collect()
}

/// The circle method on `tables` tables, `repeat` times: per round, per table (NS, EW).
pub fn circle_schedule(tables: u32, repeat: u32) -> Vec<Vec<(u32, u32)>> {
    let n = 2 * tables - 1;
    (0..n * repeat)
        .map(|rho| {
            let rho = rho % n;
            let mut row: Vec<(u32, u32)> = (1..tables)
                .map(|i| ((rho + i) % n + 1, (rho + n - i) % n + 1))
                .collect();
            row.push((2 * tables, rho + 1));
            row
        })
        .collect()
}

/// Searches a half-set Howell on `tables` tables, each round played `repeat` times; with
/// `absent = Some(p)` pair p does not play (an odd number of pairs) and the balance is that
/// of the others. `restarts` fillings, each with `kicks` kicks of the direction climbing.
/// Returns the most balanced layout and its balance.
pub fn search_half_sets(
    tables: u32,
    repeat: u32,
    absent: Option<u32>,
    restarts: usize,
    kicks: usize,
) -> Option<(HalfLayout, f64)> {
    let pairs = 2 * tables as usize;
    let sched = circle_schedule(tables, repeat);
    let rounds = sched.len();
    let units = 2 * rounds;
    if units > 64 {
        return None;
    }
    let mut rng = Rng(0x4A1F_5E75 ^ ((tables as u64) << 8) ^ u64::from(repeat));
    let groups: Vec<Vec<(usize, usize)>> = (0..rounds)
        .flat_map(|r| (0..tables as usize).map(move |i| vec![(2 * r, i), (2 * r + 1, i)]))
        .collect();
    let mut best: Option<(HalfLayout, f64)> = None;
    for _ in 0..restarts {
        let Some(fill) = fill_units(&sched, units, pairs, &mut rng) else {
            continue;
        };
        let h: HalfLayout = sched
            .iter()
            .zip(&fill)
            .map(|(row, f)| {
                row.iter()
                    .zip(f)
                    .map(|(&(a, b), &[u, v])| [a, b, u as u32 + 1, v as u32 + 1])
                    .collect()
            })
            .collect();
        let mut lay = as_layout(&h);
        let p = improve_directions_grouped(&mut lay, pairs, absent, &groups, kicks, rng.next());
        let turned: HalfLayout = h
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let [ns, ew, _] = lay[2 * r][i];
                        [ns, ew, c[2], c[3]]
                    })
                    .collect()
            })
            .collect();
        if best.as_ref().is_none_or(|b| p > b.1 + 1e-9) {
            best = Some((turned, p));
        }
        if p > 100.0 - 1e-9 {
            break;
        }
    }
    best
}

/// Balance percent of a half-set layout (`absent` as in [`layout_percent`]).
pub fn half_percent(h: &HalfLayout, pairs: usize, absent: Option<u32>) -> f64 {
    layout_percent(&as_layout(h), pairs, absent)
}

/// Half-sets (0-based) for both halves of every table of every round: every pair plays
/// every half-set once, no half-set twice in one half of a round; random order.
fn fill_units(
    sched: &[Vec<(u32, u32)>],
    units: usize,
    pairs: usize,
    rng: &mut Rng,
) -> Option<Vec<Vec<[usize; 2]>>> {
    let t = sched[0].len();
    let cells = sched.len() * t * 2;
    let mut played = vec![0u64; pairs + 1];
    let mut in_half = vec![0u64; sched.len() * 2];
    let mut out = vec![vec![[0usize; 2]; t]; sched.len()];
    let order: Vec<Vec<usize>> = (0..cells)
        .map(|_| {
            let mut v: Vec<usize> = (0..units).collect();
            for i in (1..units).rev() {
                v.swap(i, rng.below(i + 1));
            }
            v
        })
        .collect();
    let mut nodes = 2_000_000u64;
    #[allow(clippy::too_many_arguments)]
    fn go(
        cell: usize,
        sched: &[Vec<(u32, u32)>],
        order: &[Vec<usize>],
        played: &mut [u64],
        in_half: &mut [u64],
        out: &mut [Vec<[usize; 2]>],
        nodes: &mut u64,
    ) -> bool {
        let t = sched[0].len();
        if cell == sched.len() * t * 2 {
            return true;
        }
        if *nodes == 0 {
            return false;
        }
        *nodes -= 1;
        let (r, rest) = (cell / (2 * t), cell % (2 * t));
        let (i, slot) = (rest / 2, rest % 2);
        let (a, b) = sched[r][i];
        let (a, b) = (a as usize, b as usize);
        let half = 2 * r + slot;
        for &u in &order[cell] {
            let bit = 1u64 << u;
            if (played[a] | played[b] | in_half[half]) & bit != 0 {
                continue;
            }
            played[a] |= bit;
            played[b] |= bit;
            in_half[half] |= bit;
            out[r][i][slot] = u;
            if go(cell + 1, sched, order, played, in_half, out, nodes) {
                return true;
            }
            played[a] &= !bit;
            played[b] &= !bit;
            in_half[half] &= !bit;
            if *nodes == 0 {
                return false;
            }
        }
        false
    }
    go(
        0,
        sched,
        &order,
        &mut played,
        &mut in_half,
        &mut out,
        &mut nodes,
    )
    .then_some(out)
}
