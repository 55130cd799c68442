//! Lexicographic minimum-cost perfect matching over any number of tiers.
//!
//! Every edge carries small non-negative values on some tiers (sparse); a perfect matching
//! is better than another when its total on the first tier where they differ is lower. The
//! Dutch rules have dozens of tiers (one per score group for some criteria, one per player
//! for the exchanges), too many to weigh in one 128-bit cost, so they are solved in stages:
//!
//! 1. Any perfect matching `M` (all costs 0); none: no pairing exists.
//! 2. Tiers in order. A tier on which `M` already totals 0 (and `M` is optimal on every
//!    tier above it) is optimal at 0: its edges with a value are **deleted** (no optimal
//!    matching may use them) and no solve is needed. This settles most tiers.
//! 3. Otherwise one weighted solve covers the tiers kept so far with a positive optimum
//!    (their totals `T_j` are known) plus as many new tiers as the cost bound allows. The
//!    weights are built from the last tier up: `w_last = 1`, `w_i = 1 + Σ_{j>i} w_j·B_j`,
//!    where `B_j` is the known optimum `T_j` for a tier already solved, `T_j(M)` for the
//!    first new tier (the optimum cannot exceed what `M` reaches there, since `M` is optimal
//!    on every tier above it) and an upper bound (the smaller of the sum of its values and
//!    vertices/2 × its largest value) for the later new tiers. Then a matching worse on tier
//!    `i` loses at least `w_i` there and can win back at most `Σ_{j>i} w_j·B_j < w_i` below:
//!    the weighted optimum is the lexicographic optimum on every tier of the stage.
//!
//! Ties after the last tier are broken by the solver's fixed order (edges as given).

#![allow(clippy::needless_range_loop)]

use crate::engine::matching::{MatchingSolver, WideEdge, WIDE_COST_BOUND};

/// A candidate pair with its tier values (tier index, value >= 0), tiers in any order.
#[derive(Debug, Clone)]
pub(crate) struct LexEdge {
    pub u: usize,
    pub v: usize,
    pub tiers: Vec<(usize, i64)>,
}

/// Why the lexicographic solve failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LexError {
    /// The matching solver failed.
    Solver(String),
    /// One tier alone does not fit the 128-bit cost bound.
    TooLarge,
}

/// Counts of the work done.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LexStats {
    pub solves: usize,
}

fn tier_value(e: &LexEdge, t: usize) -> i64 {
    e.tiers
        .iter()
        .filter(|(k, _)| *k == t)
        .map(|(_, v)| *v)
        .sum()
}

fn solve_weighted(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &[LexEdge],
    active: &[bool],
    weights: &[(usize, i128)],
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    let mut wide = Vec::with_capacity(edges.len());
    for (e, _) in edges.iter().zip(active).filter(|(_, a)| **a) {
        let mut c: i128 = 0;
        for &(t, v) in &e.tiers {
            if let Some((_, w)) = weights.iter().find(|(k, _)| *k == t) {
                c += w * v as i128;
            }
        }
        wide.push(WideEdge {
            u: e.u,
            v: e.v,
            cost: c,
        });
    }
    stats.solves += 1;
    let out = solver
        .solve_wide(vertices, &wide)
        .map_err(|e| LexError::Solver(e.to_string()))?;
    Ok(out.map(|(mate, _)| mate))
}

/// Total of tier `t` over the edges of `mate`.
fn total(edges: &[LexEdge], active: &[bool], mate: &[usize], t: usize) -> i128 {
    edges
        .iter()
        .zip(active)
        .filter(|(e, a)| **a && mate[e.u] == e.v)
        .map(|(e, _)| tier_value(e, t) as i128)
        .sum()
}

/// What is known of one tier over all edges.
#[derive(Clone, Default)]
struct TierFacts {
    max: i64,
    sum: i128,
    /// The one vertex every valued edge touches (a *star*: at most one valued edge can be
    /// in a matching), if any.
    star: Option<usize>,
}

fn facts(edges: &[LexEdge], tiers: usize) -> Vec<TierFacts> {
    let mut f = vec![TierFacts::default(); tiers];
    // Candidate common vertices per tier (up to two), and the values seen.
    let mut common: Vec<Option<Vec<usize>>> = vec![None; tiers];
    for e in edges {
        for &(t, v) in &e.tiers {
            if v == 0 {
                continue;
            }
            f[t].max = f[t].max.max(v);
            f[t].sum += v as i128;
            common[t] = Some(match common[t].take() {
                None => vec![e.u, e.v],
                Some(c) => c.into_iter().filter(|x| *x == e.u || *x == e.v).collect(),
            });
        }
    }
    for t in 0..tiers {
        f[t].star = common[t].as_ref().and_then(|c| c.first().copied());
    }
    f
}

/// The lexicographically least perfect matching over `tiers` tiers (`mate[v]` per vertex),
/// or `None` when the edges admit no perfect matching.
///
/// Two refinements keep the weights small: the bound of a new *star* tier (every valued
/// edge at one vertex) is its largest value, as one such edge at most is matched; and a
/// star solved at an optimum `T > 0` **pins** its vertex: every optimal matching matches it
/// by an edge of value `T`, so its other edges are deleted and the tier needs no weight
/// afterwards (a star of distinct values, such as "the opponent of this player", fixes
/// one board).
pub(crate) fn solve_lex(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &[LexEdge],
    tiers: usize,
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    let mut active = vec![true; edges.len()];
    let Some(mut mate) = solve_weighted(solver, vertices, edges, &active, &[], stats)? else {
        return Ok(None);
    };
    let budget = WIDE_COST_BOUND / (2 * vertices.max(1) as i128);
    let f = facts(edges, tiers);
    // Tiers solved with a positive optimum: (tier, optimum).
    let mut kept: Vec<(usize, i128)> = Vec::new();
    let exclude = |active: &mut Vec<bool>, t: usize| {
        for (e, a) in edges.iter().zip(active.iter_mut()) {
            if *a && tier_value(e, t) > 0 {
                *a = false;
            }
        }
    };
    // A star solved at `opt > 0`: its vertex keeps only the edges of value `opt`.
    let pin = |active: &mut Vec<bool>, t: usize, opt: i128| {
        let Some(c) = f[t].star else { return };
        for (e, a) in edges.iter().zip(active.iter_mut()) {
            if *a && (e.u == c || e.v == c) && tier_value(e, t) as i128 != opt {
                *a = false;
            }
        }
    };
    let mut s0 = 0;
    while s0 < tiers {
        if f[s0].max == 0 {
            s0 += 1;
            continue;
        }
        let now = total(edges, &active, &mate, s0);
        if now == 0 {
            exclude(&mut active, s0);
            s0 += 1;
            continue;
        }
        // Grow the stage while the weights fit.
        let bound_of = |t: usize| -> i128 {
            if t == s0 {
                now
            } else if f[t].star.is_some() {
                f[t].max as i128
            } else {
                f[t].sum.min((vertices as i128 / 2) * f[t].max as i128)
            }
        };
        let mut chosen: Option<Vec<(usize, i128)>> = None;
        let mut s1 = s0 + 1;
        loop {
            let mut stage: Vec<(usize, i128)> = kept.clone();
            for t in s0..s1 {
                if f[t].max > 0 {
                    stage.push((t, bound_of(t)));
                }
            }
            // Weights from the last tier up; the largest edge cost is at most Σ w·max.
            let mut weights = vec![(0usize, 0i128); stage.len()];
            let mut below: i128 = 0;
            let mut fits = true;
            for k in (0..stage.len()).rev() {
                let w = below + 1;
                weights[k] = (stage[k].0, w);
                match w.checked_mul(stage[k].1).and_then(|x| x.checked_add(below)) {
                    Some(b) if b < budget => below = b,
                    _ => {
                        fits = false;
                        break;
                    }
                }
            }
            let edge_max = weights.iter().try_fold(0i128, |acc, &(t, w)| {
                w.checked_mul(f[t].max as i128)
                    .and_then(|x| acc.checked_add(x))
            });
            if !fits || edge_max.is_none_or(|m| m >= budget) {
                break;
            }
            chosen = Some(weights);
            if s1 >= tiers {
                break;
            }
            s1 += 1;
        }
        let Some(weights) = chosen else {
            return Err(LexError::TooLarge);
        };
        let last = weights.iter().map(|(t, _)| *t).max().unwrap_or(s0);
        let Some(m) = solve_weighted(solver, vertices, edges, &active, &weights, stats)? else {
            // Cannot happen: the previous matching is still available.
            return Err(LexError::Solver("a stage lost its perfect matching".into()));
        };
        mate = m;
        for t in s0..=last {
            if f[t].max == 0 {
                continue;
            }
            let opt = total(edges, &active, &mate, t);
            if opt == 0 {
                exclude(&mut active, t);
            } else if f[t].star.is_some() {
                pin(&mut active, t, opt);
            } else {
                kept.push((t, opt));
            }
        }
        s0 = last + 1;
    }
    Ok(Some(mate))
}
