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

use super::player::QuickSet;
use crate::engine::matching::{Duals, MatchingSolver, WideEdge, WIDE_COST_BOUND};

/// A candidate pair with its tier values (tier index, value >= 0), tiers in any order.
#[derive(Debug, Clone)]
pub(crate) struct LexEdge {
    pub u: usize,
    pub v: usize,
    pub tiers: Vec<(usize, i64)>,
}

/// The pairs not handed over as edges (see [`solve_lex_lazy`]). Every vertex but the bye
/// vertex has a class: 0 *inner* (the bracket: its pairs among themselves are all edges),
/// 1 and 2 (the next score group, the players below). A pair of which at most one end is
/// inner is *lazy* unless it is an edge: its tiers are `alpha[u][class v] + alpha[v][class
/// u]` (the values of each end depend only on the class of the other), so the pairs that
/// could price in are found per class pair from lists sorted by dual, without looking at
/// the others.
pub(crate) struct Lazy<'a> {
    /// Class of each vertex (0, 1, 2; 3 for the bye vertex, which has no lazy pair).
    pub class: Vec<u8>,
    /// `alpha[u][c]`: the tiers of `u`'s end of a lazy pair with a player of class `c`
    /// (`None`: `u` has no lazy pair with that class).
    pub alpha: Vec<[Option<Values>; 3]>,
    /// The exact tiers of a pair (`None`: the pair is not allowed).
    pub pair: &'a dyn Fn(usize, usize) -> Option<Vec<(usize, i64)>>,
    /// The pairs (lower vertex first) of which at most one end is inner handed over as
    /// edges.
    pub edges: QuickSet<(usize, usize)>,
}

impl Lazy<'_> {
    /// The pair is lazy: not an edge, at most one end inner, no bye vertex.
    fn is_lazy(&self, u: usize, v: usize) -> bool {
        let (cu, cv) = (self.class[u], self.class[v]);
        cu < 3
            && cv < 3
            && (cu, cv) != (0, 0)
            && u != v
            && !self.edges.contains(&(u.min(v), u.max(v)))
    }
}

/// Tier values: (tier, value).
pub(crate) type Values = Vec<(usize, i64)>;

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

/// What the valued edges of a tier have in common, as they are seen one by one.
#[derive(Clone, Copy, Default)]
enum Common {
    #[default]
    Nothing,
    /// The ends of the first edge.
    Pair(usize, usize),
    /// The one vertex all touch.
    One(usize),
    /// No vertex is common to all.
    Broken,
}

impl Common {
    fn touch(self, u: usize, v: usize) -> Common {
        let keep = |x: usize| x == u || x == v;
        match self {
            Common::Nothing => Common::Pair(u, v),
            Common::Pair(a, _) if keep(a) => Common::One(a),
            Common::Pair(_, b) if keep(b) => Common::One(b),
            Common::One(a) if keep(a) => Common::One(a),
            _ => Common::Broken,
        }
    }
    fn star(self) -> Option<usize> {
        match self {
            Common::Pair(a, _) | Common::One(a) => Some(a),
            _ => None,
        }
    }
}

/// The value of a tier in a list of tier values.
fn value_in(tiers: &[(usize, i64)], t: usize) -> i64 {
    tiers.iter().filter(|(x, _)| *x == t).map(|(_, v)| *v).sum()
}

/// Stand-ins for "two different partners" of a lazy pair's end (no vertex has them).
const SOMEONE: usize = usize::MAX;
const SOMEONE_ELSE: usize = usize::MAX - 1;

/// Below this many vertices, debug builds check every lazy pair after each solve.
#[cfg(debug_assertions)]
const CHECK_ALL_BELOW: usize = 80;

/// The problem with its indexes: edges per vertex, valued edges per tier.
struct Model<'a> {
    vertices: usize,
    /// The caller's edges; edges priced in from `lazy` follow them in `added`.
    given: &'a [LexEdge],
    added: Vec<LexEdge>,
    added_pairs: QuickSet<(usize, usize)>,
    at: Vec<Vec<usize>>,
    f: Vec<TierFacts>,
    active: Vec<bool>,
    /// Edges handed to the matching solver; the others are priced after every solve.
    in_problem: Vec<bool>,
    /// The pairs left out of the edges, priced by class (see [`Lazy`]).
    lazy: Option<&'a Lazy<'a>>,
    /// Members of each class of `lazy`.
    sizes: [usize; 3],
    /// Tiers optimal at 0: no edge valued on them may join.
    excluded: Vec<bool>,
    /// Per vertex, the star tiers solved at a positive optimum: (tier, the value its edge
    /// must have).
    pins: Vec<Vec<(usize, i64)>>,
    /// Per vertex, the mate every optimal matching gives it, when known.
    fixed: Vec<Option<usize>>,
}

impl<'a> Model<'a> {
    fn new(
        vertices: usize,
        edges: &'a [LexEdge],
        tiers: usize,
        core: &[bool],
        lazy: Option<&'a Lazy<'a>>,
    ) -> Model<'a> {
        let mut f = vec![TierFacts::default(); tiers];
        let mut at = vec![Vec::new(); vertices];
        let mut common = vec![Common::Nothing; tiers];
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
                common[t] = common[t].touch(e.u, e.v);
            }
        }
        let mut sizes = [0usize; 3];
        if let Some(l) = lazy {
            for &c in &l.class {
                if c < 3 {
                    sizes[c as usize] += 1;
                }
            }
            // The lazy pairs' values, per end: one such pair at most per vertex in a
            // matching, so the end's value bounds the tier's total there.
            for u in 0..l.class.len() {
                let cu = l.class[u];
                for c in 0..3u8 {
                    let Some(tu) = &l.alpha[u][c as usize] else {
                        continue;
                    };
                    let others = sizes[c as usize] - usize::from(cu == c);
                    if others == 0 || cu >= 3 || (cu, c) == (0, 0) {
                        continue;
                    }
                    for &(t, v) in tu {
                        if v == 0 {
                            continue;
                        }
                        f[t].max = f[t].max.max(v);
                        f[t].sum += v as i128;
                        common[t] = if others >= 2 {
                            common[t].touch(u, SOMEONE).touch(u, SOMEONE_ELSE)
                        } else {
                            let w = (0..l.class.len())
                                .find(|&w| w != u && l.class[w] == c)
                                .unwrap_or(SOMEONE);
                            common[t].touch(u, w)
                        };
                    }
                }
            }
        }
        for t in 0..tiers {
            f[t].star = common[t].star();
        }
        Model {
            vertices,
            given: edges,
            added: Vec::new(),
            added_pairs: QuickSet::default(),
            at,
            f,
            active: vec![true; edges.len()],
            in_problem: core.to_vec(),
            lazy,
            sizes,
            excluded: vec![false; tiers],
            pins: vec![Vec::new(); vertices],
            fixed: vec![None; vertices],
        }
    }

    fn edge(&self, k: usize) -> &LexEdge {
        if k < self.given.len() {
            &self.given[k]
        } else {
            &self.added[k - self.given.len()]
        }
    }

    fn count(&self) -> usize {
        self.given.len() + self.added.len()
    }

    fn cost(&self, k: usize, weights: &[i128]) -> i128 {
        weighed(&self.edge(k).tiers, weights)
    }

    /// Edge `k` as the solver takes it, weighed by `weights`.
    fn wide(&self, k: usize, weights: &[i128]) -> WideEdge {
        let e = self.edge(k);
        WideEdge {
            u: e.u,
            v: e.v,
            cost: self.cost(k, weights),
        }
    }

    /// A lazy pair with these tiers may not join: valued on a tier optimal at 0, against
    /// a pin of either end, or not the mate an end is fixed to.
    fn dead(&self, u: usize, v: usize, tiers: &[(usize, i64)]) -> bool {
        tiers.iter().any(|&(t, x)| x != 0 && self.excluded[t])
            || [u, v].iter().any(|&a| {
                self.pins[a]
                    .iter()
                    .any(|&(t, opt)| value_in(tiers, t) != opt)
            })
            || self.fixed[u].is_some_and(|m| m != v)
            || self.fixed[v].is_some_and(|m| m != u)
    }

    /// Adds the pair u < v as an edge (not yet in the problem); returns its index.
    fn add(&mut self, u: usize, v: usize, tiers: Vec<(usize, i64)>) -> usize {
        let k = self.count();
        for &(t, x) in &tiers {
            if x != 0 {
                debug_assert!(x <= self.f[t].max, "tier {t}: {x} over its bound");
                self.f[t].max = self.f[t].max.max(x);
                self.f[t].valued.push((k, x));
            }
        }
        self.at[u].push(k);
        self.at[v].push(k);
        self.active.push(true);
        self.in_problem.push(false);
        self.added.push(LexEdge { u, v, tiers });
        self.added_pairs.insert((u, v));
        k
    }

    /// The lazy pair u–v, if it is one not yet added, allowed and alive: its tiers.
    fn lazy_pair(&self, l: &Lazy, u: usize, v: usize) -> Option<Vec<(usize, i64)>> {
        let (u, v) = (u.min(v), u.max(v));
        if !l.is_lazy(u, v) || self.added_pairs.contains(&(u, v)) {
            return None;
        }
        let t = (l.pair)(u, v)?;
        #[cfg(debug_assertions)]
        {
            let mut sum: Vec<(usize, i64)> = Vec::new();
            for &(k, x) in l.alpha[u][l.class[v] as usize]
                .iter()
                .chain(l.alpha[v][l.class[u] as usize].iter())
                .flatten()
            {
                if x != 0 {
                    sum.push((k, x));
                }
            }
            let mut exact: Vec<(usize, i64)> = t.iter().copied().filter(|x| x.1 != 0).collect();
            sum.sort_unstable();
            exact.sort_unstable();
            debug_assert_eq!(
                sum, exact,
                "lazy pair {u}-{v}: tiers not those of its class"
            );
        }
        (!self.dead(u, v, &t)).then_some(t)
    }

    /// The edges to add after a solve with these duals: the edges left out with a
    /// negative reduced cost, and the lazy pairs with one (found per class pair from the
    /// ends sorted by `2·cost of their end − 2·y`: their sum bounds the reduced cost
    /// below, the blossoms' share being `>= 0`).
    fn price(&mut self, weights: &[i128], duals: &Duals) -> Vec<WideEdge> {
        let mut new = Vec::new();
        for k in 0..self.count() {
            if !self.active[k] || self.in_problem[k] {
                continue;
            }
            let e = self.edge(k);
            let cost = self.cost(k, weights);
            if duals.reduced_cost2(e.u, e.v, cost) < 0 {
                new.push(WideEdge {
                    u: e.u,
                    v: e.v,
                    cost,
                });
                self.in_problem[k] = true;
            }
        }
        let Some(l) = self.lazy else {
            return new;
        };
        let n = l.class.len();
        // An end whose own values are on a tier optimal at 0, or (in the bracket, where the
        // other end adds nothing) against one of its pins: none of its lazy pairs of that
        // class may join.
        let own_dead = |u: usize, t: &[(usize, i64)]| {
            t.iter().any(|&(x, v)| v != 0 && self.excluded[x])
                || (l.class[u] == 0 && self.pins[u].iter().any(|&(x, opt)| value_in(t, x) != opt))
        };
        let mut found: Vec<(usize, usize, Values)> = Vec::new();
        for (a, b) in [(0u8, 1u8), (0, 2), (1, 1), (1, 2), (2, 2)] {
            let side = |c: u8, other: u8| -> Vec<(i128, usize)> {
                let mut s: Vec<(i128, usize)> = (0..n)
                    .filter(|&u| l.class[u] == c && self.fixed[u].is_none())
                    .filter_map(|u| {
                        let t = l.alpha[u][other as usize].as_ref()?;
                        (!own_dead(u, t)).then(|| (2 * weighed(t, weights) - duals.vertex2(u), u))
                    })
                    .collect();
                s.sort_unstable();
                s
            };
            let xs = side(a, b);
            let ys = if a == b { xs.clone() } else { side(b, a) };
            for (i, &(sx, x)) in xs.iter().enumerate() {
                let from = if a == b { i + 1 } else { 0 };
                if ys.get(from).is_none_or(|&(sy, _)| sx + sy >= 0) {
                    break;
                }
                for &(sy, y) in &ys[from..] {
                    if sx + sy >= 0 {
                        break;
                    }
                    // `sx + sy` plus the blossoms' share is twice the pair's reduced cost
                    // (an allowed lazy pair's tiers are its ends' values): most candidates
                    // stop here, before their tiers are built.
                    if sx + sy + duals.common_blossoms2(x, y) >= 0 {
                        continue;
                    }
                    let Some(t) = self.lazy_pair(l, x, y) else {
                        continue;
                    };
                    if duals.reduced_cost2(x, y, weighed(&t, weights)) < 0 {
                        found.push((x.min(y), x.max(y), t));
                    }
                }
            }
        }
        for (u, v, t) in found {
            if self.added_pairs.contains(&(u, v)) {
                continue;
            }
            let k = self.add(u, v, t);
            self.in_problem[k] = true;
            new.push(WideEdge {
                u,
                v,
                cost: self.cost(k, weights),
            });
        }
        new
    }

    /// Every edge left out joins, and the lazy pairs of vertices at most `width` apart;
    /// false when nothing was left to join.
    fn widen(&mut self, width: usize) -> bool {
        let mut joined = false;
        for k in 0..self.count() {
            if self.active[k] && !self.in_problem[k] {
                self.in_problem[k] = true;
                joined = true;
            }
        }
        if let Some(l) = self.lazy {
            let n = l.class.len();
            for u in 0..n {
                for v in u + 1..n.min(u.saturating_add(width).saturating_add(1)) {
                    if let Some(t) = self.lazy_pair(l, u, v) {
                        let k = self.add(u, v, t);
                        self.in_problem[k] = true;
                        joined = true;
                    }
                }
            }
        }
        joined
    }

    fn solve(
        &mut self,
        solver: &dyn MatchingSolver,
        weights: &[i128],
        stats: &mut LexStats,
    ) -> Result<Option<Vec<usize>>, LexError> {
        let mut width = 32usize;
        loop {
            let wide: Vec<WideEdge> = (0..self.count())
                .filter(|&k| self.active[k] && self.in_problem[k])
                .map(|k| self.wide(k, weights))
                .collect();
            stats.solves += 1;
            let vertices = self.vertices;
            let mut passes = 0;
            let mut more = |_: &[usize], d: &Duals| {
                let new = self.price(weights, d);
                passes += usize::from(!new.is_empty());
                new
            };
            let out = solver
                .solve_wide_more(vertices, &wide, &mut more)
                .map_err(|e| LexError::Solver(e.to_string()))?;
            stats.solves += passes;
            match out {
                Some((mate, Some(_))) => {
                    #[cfg(debug_assertions)]
                    self.check_priced(&mate, weights, solver);
                    return Ok(Some(mate));
                }
                // Without duals nothing is priced: everything joins.
                Some((mate, None)) => {
                    if !self.widen(usize::MAX) {
                        return Ok(Some(mate));
                    }
                }
                // No perfect matching on these edges: more join, the whole graph at last.
                None => {
                    if !self.widen(width) && width >= self.vertices {
                        return Ok(None);
                    }
                    width = width.saturating_mul(2);
                }
            }
        }
    }

    /// Debug builds, small problems: no lazy pair could lower the optimum found.
    #[cfg(debug_assertions)]
    fn check_priced(&self, mate: &[usize], weights: &[i128], solver: &dyn MatchingSolver) {
        let Some(l) = self.lazy else { return };
        if self.vertices > CHECK_ALL_BELOW {
            return;
        }
        let _ = solver;
        let mut all: Vec<WideEdge> = (0..self.count())
            .filter(|&k| self.active[k])
            .map(|k| self.wide(k, weights))
            .collect();
        let n = l.class.len();
        for u in 0..n {
            for v in u + 1..n {
                if let Some(t) = self.lazy_pair(l, u, v) {
                    all.push(WideEdge {
                        u,
                        v,
                        cost: weighed(&t, weights),
                    });
                }
            }
        }
        let cost = |m: &[usize], edges: &[WideEdge]| -> i128 {
            (0..m.len())
                .filter(|&u| m[u] > u)
                .map(|u| {
                    edges
                        .iter()
                        .filter(|e| (e.u.min(e.v), e.u.max(e.v)) == (u, m[u]))
                        .map(|e| e.cost)
                        .min()
                        .unwrap_or(i128::MAX / 4)
                })
                .sum()
        };
        if let Ok(Some((best, _))) =
            crate::engine::matching::BlossomSolver.solve_wide(self.vertices, &all)
        {
            assert_eq!(
                cost(mate, &all),
                cost(&best, &all),
                "a lazy pair was not priced in"
            );
        }
    }

    fn matched(&self, k: usize, mate: &[usize]) -> bool {
        let e = self.edge(k);
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
        self.excluded[t] = true;
        for i in 0..self.f[t].valued.len() {
            let k = self.f[t].valued[i].0;
            self.active[k] = false;
        }
    }

    /// The value of edge `k` on tier `t`.
    fn value(&self, k: usize, t: usize) -> i64 {
        value_in(&self.edge(k).tiers, t)
    }

    /// The lazy pairs of vertex `c` that may still join, by the class of the other end:
    /// `c`'s own values with that class when `c` is inner (the other end then adds
    /// nothing), else `None` (unknown: depends on the other end).
    fn lazy_ends(&self, c: usize) -> Vec<Option<&[(usize, i64)]>> {
        let Some(l) = self.lazy else {
            return Vec::new();
        };
        let cc = l.class[c];
        if cc >= 3 || self.fixed[c].is_some() {
            return Vec::new();
        }
        (0..3u8)
            .filter(|&k| (cc, k) != (0, 0) && self.sizes[k as usize] > usize::from(cc == k))
            .filter_map(|k| l.alpha[c][k as usize].as_deref())
            .filter_map(|t| {
                if cc != 0 {
                    return Some(None);
                }
                let alive = !t.iter().any(|&(x, v)| v != 0 && self.excluded[x])
                    && self.pins[c].iter().all(|&(x, opt)| value_in(t, x) == opt);
                alive.then_some(Some(t))
            })
            .collect()
    }

    /// A star tier solved at `opt > 0`: its vertex keeps only the edges of value `opt`;
    /// when one edge is left (and no lazy pair may have that value), its other end is
    /// taken too (its other edges go).
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
        let lazy_may = self
            .lazy_ends(c)
            .iter()
            .any(|e| e.is_none_or(|t2| value_in(t2, t) as i128 == opt));
        if self.lazy.is_some() {
            self.pins[c].push((t, opt as i64));
        }
        if let ([k], false) = (&left[..], lazy_may) {
            let k = *k;
            let e = self.edge(k);
            let m = if e.u == c { e.v } else { e.u };
            for i in 0..self.at[m].len() {
                let j = self.at[m][i];
                if j != k {
                    self.active[j] = false;
                }
            }
            if self.lazy.is_some() {
                self.fixed[c] = Some(m);
                self.fixed[m] = Some(c);
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
                        let e = self.edge(k);
                        self.active[k] && (e.u == m || e.v == m)
                    })
            })
    }

    /// The least value a star tier can take: the least over its vertex's active edges
    /// (and a lower bound of its lazy pairs').
    fn star_floor(&self, t: usize) -> Option<i128> {
        let c = self.f[t].star?;
        let core = self.at[c]
            .iter()
            .filter(|&&k| self.active[k])
            .map(|&k| self.value(k, t) as i128)
            .min();
        let lazy = self
            .lazy_ends(c)
            .iter()
            .map(|e| e.map_or(0, |t2| value_in(t2, t) as i128))
            .min();
        match (core, lazy) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// The cost of tier values under these weights.
fn weighed(tiers: &[(usize, i64)], weights: &[i128]) -> i128 {
    tiers.iter().map(|&(t, v)| weights[t] * v as i128).sum()
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
#[cfg(test)]
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
    solve_lex_lazy(
        solver, vertices, edges, tiers, start, hint_last, core, None, stats,
    )
}

/// [`solve_lex`] over `edges` and the pairs of `lazy` (none: only `edges`), which join the
/// problem only when the duals of a solve price them in (exact, LP duality).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_lex_lazy(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &[LexEdge],
    tiers: usize,
    start: Option<Vec<usize>>,
    hint_last: bool,
    core: Option<&[bool]>,
    lazy: Option<&Lazy>,
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    let all = vec![true; edges.len()];
    let mut m = Model::new(vertices, edges, tiers, core.unwrap_or(&all), lazy);
    let zero = vec![0i128; tiers];
    let mut mate = match start.filter(|s| m.holds(s)) {
        Some(s) => {
            // The start's edges are in the problem from the outset.
            for u in 0..vertices {
                for i in 0..m.at[u].len() {
                    let k = m.at[u][i];
                    let e = m.edge(k);
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
