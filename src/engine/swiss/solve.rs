//! Lexicographic minimum-cost perfect matching over the candidate boards.
//!
//! 1. **Exclusion first.** The two top tiers (repeats, preferences) are solved by leaving
//!    their boards out: first only clean boards; if no perfect matching exists, boards with a
//!    preference conflict are added; if still none, repeated pairings and byes too. When the
//!    optimum of a tier is 0 this is exactly lexicographic, and cheap.
//! 2. **One weighted solve** when worst-case weights fit: the weight of a tier is 1 + the
//!    largest total all lower tiers could reach (boards × largest board value).
//! 3. **Staged solves** otherwise (very large sections): stage s minimises tiers 1..s with
//!    weights taken from the totals of stage s−1's optimum (w_i = 1 + Σ_{j>i} w_j·T_j(M_{s−1})),
//!    which is exact because M_{s−1} is optimal on every tier above s.
//!
//! Ties between pairings of equal cost are broken by the solver on the fixed order of the
//! boards (vertices in rank order, boards sorted by (u, v)): the same state and seed always
//! give the same pairing.

#![allow(clippy::needless_range_loop)]

use super::penalty::{Board, TIERS};
use super::state::{err, SwissError};
use crate::engine::matching::{Edge, MatchingProblem, MatchingSolver};

/// The solution: mates and the weights of the final solve.
pub(crate) struct Solution {
    pub mate: Vec<usize>,
    pub weights: [i64; TIERS],
    /// 0 = clean boards only, 1 = preference conflicts allowed, 2 = repeats allowed.
    pub level: usize,
    pub solves: usize,
}

fn totals(boards: &[&Board], mate: &[usize]) -> [i128; TIERS] {
    let mut t = [0i128; TIERS];
    for b in boards {
        if mate[b.u] == b.v {
            for k in 0..TIERS {
                t[k] += b.tiers[k] as i128;
            }
        }
    }
    t
}

fn run(
    vertices: usize,
    boards: &[&Board],
    weights: &[i128; TIERS],
    solver: &dyn MatchingSolver,
) -> Result<Option<Vec<usize>>, SwissError> {
    let mut edges = Vec::with_capacity(boards.len());
    for b in boards {
        let mut c: i128 = 0;
        for k in 0..TIERS {
            c += weights[k] * b.tiers[k] as i128;
        }
        edges.push(Edge {
            u: b.u,
            v: b.v,
            cost: i64::try_from(c).map_err(|_| err("settings", "penalty overflow"))?,
        });
    }
    let p = MatchingProblem { vertices, edges };
    // Remove duplicate-free guarantee: boards are unique by construction.
    match solver.solve(&p) {
        Ok(Some(m)) => Ok(Some(m.mate)),
        Ok(None) => Ok(None),
        Err(e) => Err(err("solver", format!("{} failed: {e:?}", solver.name()))),
    }
}

/// Finds the lexicographically smallest perfect matching, or none.
pub(crate) fn solve_lex(
    vertices: usize,
    all: &[Board],
    solver: &dyn MatchingSolver,
) -> Result<Option<Solution>, SwissError> {
    if vertices == 0 {
        return Ok(Some(Solution {
            mate: vec![],
            weights: [0; TIERS],
            level: 0,
            solves: 0,
        }));
    }
    let budget: i128 = (i64::MAX / (4 * vertices as i64)) as i128;
    let pairs = (vertices / 2) as i128;
    let mut solves = 0;
    let mut last_count = usize::MAX;
    for level in 0..3 {
        let boards: Vec<&Board> = all
            .iter()
            .filter(|b| match level {
                0 => b.tiers[0] == 0 && b.tiers[1] == 0,
                1 => b.tiers[0] == 0,
                _ => true,
            })
            .collect();
        if level > 0 && boards.len() == last_count {
            continue; // nothing new at this level
        }
        last_count = boards.len();
        let mut max = [0i128; TIERS];
        for b in &boards {
            for k in 0..TIERS {
                max[k] = max[k].max(b.tiers[k] as i128);
            }
        }
        let active: Vec<usize> = (0..TIERS).filter(|&k| max[k] > 0).collect();
        // Worst-case weights.
        let mut w = [0i128; TIERS];
        let mut below: i128 = 0;
        let mut fits = true;
        for &k in active.iter().rev() {
            w[k] = below + 1;
            below = match below.checked_add(w[k].saturating_mul(pairs.saturating_mul(max[k]))) {
                Some(x) if x < budget => x,
                _ => {
                    fits = false;
                    break;
                }
            };
        }
        if active.is_empty() {
            w = [1; TIERS];
        }
        let per_edge: i128 = (0..TIERS).map(|k| w[k].saturating_mul(max[k])).sum();
        if fits && per_edge < budget {
            solves += 1;
            match run(vertices, &boards, &w, solver)? {
                Some(mate) => return Ok(Some(finish(mate, w, level, solves))),
                None => continue,
            }
        }
        // Staged.
        let mut prev: Option<Vec<usize>> = None;
        let mut weights = [0i128; TIERS];
        for s in 0..active.len() {
            let mut ws = [0i128; TIERS];
            ws[active[s]] = 1;
            if let Some(m) = &prev {
                let t = totals(&boards, m);
                for i in (0..s).rev() {
                    let mut acc: i128 = 1;
                    for &j in &active[i + 1..=s] {
                        acc += ws[j] * t[j];
                    }
                    ws[active[i]] = acc;
                }
            }
            let per: i128 = (0..TIERS).map(|k| ws[k].saturating_mul(max[k])).sum();
            if per >= budget {
                return Err(err(
                    "players",
                    "the section is too large for exact penalty weights",
                ));
            }
            solves += 1;
            match run(vertices, &boards, &ws, solver)? {
                Some(m) => prev = Some(m),
                None => break,
            }
            weights = ws;
        }
        if let Some(mate) = prev {
            return Ok(Some(finish(mate, weights, level, solves)));
        }
    }
    Ok(None)
}

fn finish(mate: Vec<usize>, w: [i128; TIERS], level: usize, solves: usize) -> Solution {
    let mut weights = [0i64; TIERS];
    for k in 0..TIERS {
        weights[k] = w[k] as i64;
    }
    Solution {
        mate,
        weights,
        level,
        solves,
    }
}
