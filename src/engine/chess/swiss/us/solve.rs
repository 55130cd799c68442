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
//! **Wide weights.** Weighted costs are `i128` and the blossom solver works on them directly
//! ([`crate::engine::matching::WideEdge`]): a board may cost up to 2^123 / vertices, where
//! 64 bits allowed 2^62 / vertices. Seven tiers of a 10 000-player section fit in one weighted
//! solve or a few staged ones, so "too large for exact penalty weights" (still checked, never a
//! wrong answer) needs tier totals whose product exceeds about 2^110, far beyond any state
//! the limits of [`crate::limits`] let through in practice (the test
//! `weights_beyond_64_bits_are_exact` solves one needing 2^120).
//!
//! **Pricing** (large sections, see "Large sections" in [`super`]): when the boards handed in
//! are only part of the full graph, every solve is followed by pricing: the boards left out are
//! priced with the blossom duals of that solve, those with a negative reduced cost are added
//! and the solve is repeated until none is left. The weights are then taken from upper bounds
//! of the tiers over the *full* graph (worst-case weights), or from the totals of the previous
//! stage's optimum, which is itself proven over the full graph (staged weights): either way
//! they are exact for every board, not only for the candidates.
//!
//! Ties between pairings of equal cost are broken by the solver on the fixed order of the
//! boards (vertices in rank order, boards sorted by (u, v)): the same state and seed always
//! give the same pairing.

#![allow(clippy::needless_range_loop)]

use super::penalty::{Board, TIERS};
use crate::engine::chess::swiss::state::{err, SwissError};
use crate::engine::matching::{Duals, MatchingSolver, WideEdge, WIDE_COST_BOUND};

/// The largest weighted cost of one board the solver is handed: wide (`i128`) costs, so the
/// weights of seven tiers fit at any section size the limits allow (see [`WideEdge`]).
fn cost_budget(vertices: usize) -> i128 {
    WIDE_COST_BOUND / (2 * vertices.max(1) as i128)
}

/// Prices the boards of the full graph that are not among the candidates.
pub(crate) trait Pricer {
    /// Upper bounds of every tier over all boards of the full graph.
    fn max_tiers(&self) -> [i64; TIERS];
    /// The boards allowed at `level` (see [`Solution::level`]) whose reduced cost under
    /// `weights` and `duals` is negative. Boards of the solved problem never are (their reduced
    /// costs are `>= 0`), so they need not be excluded.
    fn price(&self, level: usize, weights: &[i128; TIERS], duals: &Duals) -> Vec<Board>;
}

/// Counts of the pricing.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PricingStats {
    /// Boards added by pricing.
    pub added: usize,
    /// Pricing passes (one per solve).
    pub passes: usize,
    /// The solver gave no duals: optimality over the full graph is not proven.
    pub unproven: bool,
}

/// The solution: mates and the weights of the final solve.
pub(crate) struct Solution {
    pub mate: Vec<usize>,
    pub weights: [i128; TIERS],
    /// 0 = clean boards only, 1 = preference conflicts allowed, 2 = repeats allowed.
    pub level: usize,
    pub solves: usize,
    pub pricing: PricingStats,
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

/// The boards of one level: the candidates allowed there plus those priced in so far.
fn level_boards<'a>(base: &[&'a Board], extra: &'a [Board]) -> Vec<&'a Board> {
    base.iter().copied().chain(extra.iter()).collect()
}

/// One weighted solve; with a pricer, the boards it prices in are added and the solve
/// resumed until none is left (then the matching is optimal over the full graph for these
/// weights). The blossom solver resumes from the previous optimum instead of starting again
/// ([`MatchingSolver::solve_wide_more`]).
#[allow(clippy::too_many_arguments)]
fn run(
    vertices: usize,
    base: &[&Board],
    extra: &mut Vec<Board>,
    weights: &[i128; TIERS],
    level: usize,
    solver: &dyn MatchingSolver,
    pricer: Option<&dyn Pricer>,
    stats: &mut PricingStats,
) -> Result<Option<Vec<usize>>, SwissError> {
    let budget = cost_budget(vertices);
    let too_large = || {
        err(
            "players",
            "the section is too large for exact penalty weights",
        )
    };
    let cost = |b: &Board| -> Option<WideEdge> {
        let c: i128 = (0..TIERS).map(|k| weights[k] * b.tiers[k] as i128).sum();
        (c < budget).then_some(WideEdge {
            u: b.u,
            v: b.v,
            cost: c,
        })
    };
    let edges = level_boards(base, extra)
        .into_iter()
        .map(cost)
        .collect::<Option<Vec<_>>>()
        .ok_or_else(too_large)?;
    let Some(pricer) = pricer else {
        return match solver.solve_wide(vertices, &edges) {
            Ok(x) => Ok(x.map(|(mate, _)| mate)),
            Err(e) => Err(err("solver", format!("{} failed: {e:?}", solver.name()))),
        };
    };
    let mut failed = false;
    let mut priced = |_: &[usize], duals: &Duals| -> Vec<WideEdge> {
        stats.passes += 1;
        let new = pricer.price(level, weights, duals);
        let Some(edges) = new.iter().map(cost).collect::<Option<Vec<_>>>() else {
            failed = true;
            return Vec::new();
        };
        stats.added += new.len();
        extra.extend(new);
        edges
    };
    let solved = solver.solve_wide_more(vertices, &edges, &mut priced);
    drop(edges);
    if failed {
        return Err(too_large());
    }
    match solved {
        Ok(Some((mate, duals))) => {
            stats.unproven |= duals.is_none();
            Ok(Some(mate))
        }
        Ok(None) => Ok(None),
        Err(e) => Err(err("solver", format!("{} failed: {e:?}", solver.name()))),
    }
}

/// Finds the lexicographically smallest perfect matching, or none. With a `pricer`, `all`
/// may be any part of the full graph (holding a perfect matching): the result is the
/// lexicographic optimum over the full graph.
pub(crate) fn solve_lex(
    vertices: usize,
    all: &[Board],
    solver: &dyn MatchingSolver,
    pricer: Option<&dyn Pricer>,
) -> Result<Option<Solution>, SwissError> {
    if vertices == 0 {
        return Ok(Some(Solution {
            mate: vec![],
            weights: [0; TIERS],
            level: 0,
            solves: 0,
            pricing: PricingStats::default(),
        }));
    }
    let mut stats = PricingStats::default();
    let mut extra: Vec<Board> = Vec::new();
    let budget = cost_budget(vertices);
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
        // The candidates' maxima bound the edge costs handed to the solver (boards priced in
        // later are checked one by one); `max` below also covers the full graph.
        let max_candidates = max;
        if let Some(p) = pricer {
            // Bounds over the full graph, as far as this level admits boards.
            let g = p.max_tiers();
            for k in 0..TIERS {
                let admitted = match level {
                    0 => k >= 2,
                    1 => k >= 1,
                    _ => true,
                };
                if admitted {
                    max[k] = max[k].max(g[k] as i128);
                }
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
            let r = run(
                vertices, &boards, &mut extra, &w, level, solver, pricer, &mut stats,
            )?;
            match r {
                Some(mate) => return Ok(Some(finish(mate, w, level, solves, stats))),
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
                let t = totals(&level_boards(&boards, &extra), m);
                for i in (0..s).rev() {
                    let mut acc: i128 = 1;
                    for &j in &active[i + 1..=s] {
                        acc += ws[j] * t[j];
                    }
                    ws[active[i]] = acc;
                }
            }
            let per: i128 = (0..TIERS)
                .map(|k| ws[k].saturating_mul(max_candidates[k]))
                .sum();
            if per >= budget {
                return Err(err(
                    "players",
                    "the section is too large for exact penalty weights",
                ));
            }
            solves += 1;
            let r = run(
                vertices, &boards, &mut extra, &ws, level, solver, pricer, &mut stats,
            )?;
            match r {
                Some(m) => prev = Some(m),
                None => break,
            }
            weights = ws;
        }
        if let Some(mate) = prev {
            return Ok(Some(finish(mate, weights, level, solves, stats)));
        }
    }
    Ok(None)
}

fn finish(
    mate: Vec<usize>,
    weights: [i128; TIERS],
    level: usize,
    solves: usize,
    pricing: PricingStats,
) -> Solution {
    Solution {
        mate,
        weights,
        level,
        solves,
        pricing,
    }
}

#[cfg(test)]
mod tests {
    use super::super::penalty::{COLOUR, RATING, SCORE, SERIOUS_COLOUR};
    use super::*;
    use crate::engine::matching::BlossomSolver;

    fn board(u: usize, v: usize, tiers: [i64; TIERS]) -> Board {
        Board {
            u,
            v,
            tiers: tiers.map(super::super::penalty::narrow),
            colour_u: None,
            reason: None,
            codes: [crate::engine::chess::swiss::ColourCode::Ok; 2],
            change: 0,
            drop: 0,
            rematch: false,
            team: false,
            prohibited: false,
        }
    }

    /// Tier values whose lexicographic weights need about 2^120 (far beyond i64, where the
    /// old solver answered "too large for exact penalty weights"): the optimum is still exact.
    #[test]
    fn weights_beyond_64_bits_are_exact() {
        let big = 1i64 << 30;
        let t = |score: i64, serious: i64, colour: i64, rating: i64| {
            let mut x = [0i64; TIERS];
            x[SCORE] = score;
            x[SERIOUS_COLOUR] = serious;
            x[COLOUR] = colour;
            x[RATING] = rating;
            x
        };
        // Three perfect matchings of 4 vertices: A = {01, 23}, B = {02, 13}, C = {03, 12}.
        // A: score 1 (worst on the top tier). B and C tie on score and serious colour;
        // C has less colour even though its rating is huge: C is the optimum.
        let boards = vec![
            board(0, 1, t(1, 0, 0, 0)),
            board(2, 3, t(0, 0, 0, 0)),
            board(0, 2, t(0, big, big + 1, 0)),
            board(1, 3, t(0, big, big, 0)),
            board(0, 3, t(0, big, big, big)),
            board(1, 2, t(0, big, big, big)),
        ];
        let s = solve_lex(4, &boards, &BlossomSolver, None)
            .unwrap()
            .unwrap();
        assert_eq!(s.mate, vec![3, 2, 1, 0]);
        assert!(s.weights[SCORE] > i64::MAX as i128, "{:?}", s.weights);
    }
}
