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

/// What is known of one tier over all edges.
#[derive(Clone, Default)]
struct TierFacts {
    max: i64,
    sum: i128,
    /// The one vertex every valued edge touches (a *star*: at most one valued edge can be
    /// in a matching), if any.
    star: Option<usize>,
    /// The edges with a value on this tier: (edge, value).
    valued: Vec<(usize, i64)>,
}

/// The problem with its indexes: edges per vertex, valued edges per tier.
struct Model<'a> {
    vertices: usize,
    edges: &'a [LexEdge],
    at: Vec<Vec<usize>>,
    f: Vec<TierFacts>,
    active: Vec<bool>,
    /// Edges handed to the matching solver; the others are priced after every solve.
    in_problem: Vec<bool>,
}

impl Model<'_> {
    fn new<'e>(vertices: usize, edges: &'e [LexEdge], tiers: usize, core: &[bool]) -> Model<'e> {
        let mut f = vec![TierFacts::default(); tiers];
        let mut at = vec![Vec::new(); vertices];
        // Candidate common vertices per tier.
        let mut common: Vec<Option<(usize, usize)>> = vec![None; tiers];
        let mut broken = vec![false; tiers];
        for (k, e) in edges.iter().enumerate() {
            at[e.u].push(k);
            at[e.v].push(k);
            for &(t, v) in &e.tiers {
                if v == 0 {
                    continue;
                }
                f[t].max = f[t].max.max(v);
                f[t].sum += v as i128;
                f[t].valued.push((k, v));
                common[t] = match common[t] {
                    None => Some((e.u, e.v)),
                    Some((a, b)) => {
                        let keep = |x: usize| x == e.u || x == e.v;
                        match (keep(a), keep(b)) {
                            (true, _) => Some((a, a)),
                            (false, true) => Some((b, b)),
                            _ => {
                                broken[t] = true;
                                Some((a, b))
                            }
                        }
                    }
                };
            }
        }
        for t in 0..tiers {
            f[t].star = common[t].filter(|_| !broken[t]).map(|(a, _)| a);
        }
        Model {
            vertices,
            edges,
            at,
            f,
            active: vec![true; edges.len()],
            in_problem: core.to_vec(),
        }
    }

    fn cost(&self, k: usize, weights: &[i128]) -> i128 {
        self.edges[k]
            .tiers
            .iter()
            .map(|&(t, v)| weights[t] * v as i128)
            .sum()
    }

    fn solve(
        &mut self,
        solver: &dyn MatchingSolver,
        weights: &[i128],
        stats: &mut LexStats,
    ) -> Result<Option<Vec<usize>>, LexError> {
        loop {
            let mut wide = Vec::with_capacity(self.edges.len());
            for (k, e) in self.edges.iter().enumerate() {
                if self.active[k] && self.in_problem[k] {
                    wide.push(WideEdge {
                        u: e.u,
                        v: e.v,
                        cost: self.cost(k, weights),
                    });
                }
            }
            stats.solves += 1;
            let out = solver
                .solve_wide(self.vertices, &wide)
                .map_err(|e| LexError::Solver(e.to_string()))?;
            // Price the edges left out: with the duals, one of negative reduced cost could
            // improve the matching (or make one exist), so it joins and the solve is redone;
            // none: the matching is optimal over all edges (LP duality).
            let duals = out.as_ref().and_then(|(_, d)| d.as_ref());
            let mut added = false;
            for k in 0..self.edges.len() {
                if !self.active[k] || self.in_problem[k] {
                    continue;
                }
                let e = &self.edges[k];
                let join = match (&out, duals) {
                    (Some(_), Some(d)) => d.reduced_cost2(e.u, e.v, self.cost(k, weights)) < 0,
                    // No duals, or no perfect matching on the edges handed in: all join.
                    _ => true,
                };
                if join {
                    self.in_problem[k] = true;
                    added = true;
                }
            }
            if !added {
                return Ok(out.map(|(mate, _)| mate));
            }
        }
    }

    fn matched(&self, k: usize, mate: &[usize]) -> bool {
        let e = &self.edges[k];
        self.active[k] && mate[e.u] == e.v
    }

    /// Total of tier `t` over the edges of `mate`.
    fn total(&self, mate: &[usize], t: usize) -> i128 {
        self.f[t]
            .valued
            .iter()
            .filter(|(k, _)| self.matched(*k, mate))
            .map(|(_, v)| *v as i128)
            .sum()
    }

    /// Tier `t` is optimal at 0: its valued edges go.
    fn exclude(&mut self, t: usize) {
        for i in 0..self.f[t].valued.len() {
            let k = self.f[t].valued[i].0;
            self.active[k] = false;
        }
    }

    /// The value of edge `k` on tier `t`.
    fn value(&self, k: usize, t: usize) -> i64 {
        self.edges[k]
            .tiers
            .iter()
            .filter(|(x, _)| *x == t)
            .map(|(_, v)| *v)
            .sum()
    }

    /// A star tier solved at `opt > 0`: its vertex keeps only the edges of value `opt`;
    /// when one edge is left, its other end is taken too (its other edges go).
    fn pin(&mut self, t: usize, opt: i128) {
        let Some(c) = self.f[t].star else { return };
        let mut left = Vec::new();
        for i in 0..self.at[c].len() {
            let k = self.at[c][i];
            if self.active[k] && self.value(k, t) as i128 != opt {
                self.active[k] = false;
            } else if self.active[k] {
                left.push(k);
            }
        }
        if let [k] = left[..] {
            let e = &self.edges[k];
            let m = if e.u == c { e.v } else { e.u };
            for i in 0..self.at[m].len() {
                let j = self.at[m][i];
                if j != k {
                    self.active[j] = false;
                }
            }
        }
    }

    /// `mate` is a perfect matching on the active edges.
    fn holds(&self, mate: &[usize]) -> bool {
        mate.len() == self.vertices
            && (0..self.vertices).all(|u| {
                let m = mate[u];
                m < self.vertices
                    && mate[m] == u
                    && self.at[u].iter().any(|&k| {
                        let e = &self.edges[k];
                        self.active[k] && (e.u == m || e.v == m)
                    })
            })
    }

    /// The least value a star tier can take: the least over its vertex's active edges.
    fn star_floor(&self, t: usize) -> Option<i128> {
        let c = self.f[t].star?;
        self.at[c]
            .iter()
            .filter(|&&k| self.active[k])
            .map(|&k| self.value(k, t) as i128)
            .min()
    }
}

/// The lexicographically least perfect matching over `tiers` tiers (`mate[v]` per vertex),
/// or `None` when the edges admit no perfect matching.
///
/// Three refinements keep the weights small and the solves few: the bound of a new *star*
/// tier (every valued edge at one vertex) is its largest value, as one such edge at most is
/// matched; a star solved at an optimum `T > 0` **pins** its vertex: every optimal matching
/// matches it by an edge of value `T`, so its other edges are deleted and the tier needs no
/// weight afterwards (a star of distinct values, such as "the opponent of this player",
/// fixes one board); and a star on which the current matching already takes the least value
/// of its vertex's edges is optimal without a solve.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_lex(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &[LexEdge],
    tiers: usize,
    start: Option<Vec<usize>>,
    hint_last: bool,
    core: Option<&[bool]>,
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    let all = vec![true; edges.len()];
    let mut m = Model::new(vertices, edges, tiers, core.unwrap_or(&all));
    let zero = vec![0i128; tiers];
    let mut mate = match start.filter(|s| m.holds(s)) {
        Some(s) => {
            // The start's edges are in the problem from the outset.
            for u in 0..vertices {
                for i in 0..m.at[u].len() {
                    let k = m.at[u][i];
                    let e = &m.edges[k];
                    if (e.u == u && e.v == s[u]) || (e.v == u && e.u == s[u]) {
                        m.in_problem[k] = true;
                    }
                }
            }
            s
        }
        None => match m.solve(solver, &zero, stats)? {
            Some(s) => s,
            None => return Ok(None),
        },
    };
    let budget = WIDE_COST_BOUND / (2 * vertices.max(1) as i128);
    // With `hint_last`, the last tier is not a criterion but the hint of every stage (see
    // below); else the hint is the sum of the next tiers, within 24 bits.
    let real = if hint_last {
        tiers.saturating_sub(1)
    } else {
        tiers
    };
    let hint_tier_bound = if hint_last && tiers > 0 {
        m.f[tiers - 1]
            .sum
            .min((vertices as i128 / 2) * m.f[tiers - 1].max as i128)
    } else {
        0
    };
    let reserve = if hint_last {
        128 - hint_tier_bound.leading_zeros()
    } else {
        25
    };
    if reserve >= 100 {
        return Err(LexError::TooLarge);
    }
    // The stage's weights leave `reserve` bits below them for the hint.
    let stage_budget = budget >> reserve;
    // Tiers solved with a positive optimum: (tier, optimum).
    let mut kept: Vec<(usize, i128)> = Vec::new();
    let mut s0 = 0;
    while s0 < real {
        if m.f[s0].max == 0 {
            s0 += 1;
            continue;
        }
        let now = m.total(&mate, s0);
        if now == 0 {
            m.exclude(s0);
            s0 += 1;
            continue;
        }
        if m.star_floor(s0) == Some(now) {
            m.pin(s0, now);
            s0 += 1;
            continue;
        }
        // Grow the stage while the weights fit.
        let bound_of = |m: &Model, t: usize| -> i128 {
            if t == s0 {
                now
            } else if m.f[t].star.is_some() {
                m.f[t].max as i128
            } else {
                m.f[t].sum.min((vertices as i128 / 2) * m.f[t].max as i128)
            }
        };
        let mut chosen: Option<Vec<(usize, i128)>> = None;
        let mut s1 = s0 + 1;
        loop {
            let mut stage: Vec<(usize, i128)> = kept.clone();
            for t in s0..s1 {
                if m.f[t].max > 0 {
                    stage.push((t, bound_of(&m, t)));
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
                    Some(b) if b < stage_budget => below = b,
                    _ => {
                        fits = false;
                        break;
                    }
                }
            }
            let edge_max = weights.iter().try_fold(0i128, |acc, &(t, w)| {
                w.checked_mul(m.f[t].max as i128)
                    .and_then(|x| acc.checked_add(x))
            });
            if !fits || edge_max.is_none_or(|x| x >= stage_budget) {
                break;
            }
            chosen = Some(weights);
            if s1 >= real {
                break;
            }
            s1 += 1;
        }
        let Some(weights) = chosen else {
            return Err(LexError::TooLarge);
        };
        let last = weights.iter().map(|(t, _)| *t).max().unwrap_or(s0);
        // A hint below the stage: the plain sum of the next tiers' values, so that among
        // the stage's optima the solver takes one good on what follows (which then often
        // needs no solve of its own). The stage's weights are scaled above its bound.
        let mut hint_bound: i128 = 0;
        let mut hint_end = last + 1;
        while !hint_last && hint_end < real {
            let b = bound_of(&m, hint_end).max(0);
            if hint_bound + b >= (1 << 24) {
                break;
            }
            hint_bound += b;
            hint_end += 1;
        }
        // Exact: a matching worse on a stage tier loses at least `scale·w_i` and wins back
        // at most `scale·(w_i − 1)` below it in the stage plus `hint_bound < scale`.
        if hint_last {
            hint_bound = hint_tier_bound;
        }
        let scale = hint_bound + 1;
        let mut dense = vec![0i128; tiers];
        for &(t, w) in &weights {
            dense[t] = w * scale;
        }
        for t in last + 1..hint_end {
            dense[t] = 1;
        }
        if hint_last {
            dense[tiers - 1] = 1;
        }
        let Some(next) = m.solve(solver, &dense, stats)? else {
            // Cannot happen: the previous matching is still available.
            return Err(LexError::Solver("a stage lost its perfect matching".into()));
        };
        mate = next;
        for t in s0..=last {
            if m.f[t].max == 0 {
                continue;
            }
            let opt = m.total(&mate, t);
            if opt == 0 {
                m.exclude(t);
            } else if m.f[t].star.is_some() {
                m.pin(t, opt);
            } else {
                kept.push((t, opt));
            }
        }
        s0 = last + 1;
    }
    Ok(Some(mate))
}
