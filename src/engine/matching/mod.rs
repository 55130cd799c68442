//! Exact minimum-cost perfect matching: the optimiser behind Swiss pairings.
//!
//! A Swiss round is modelled as a graph: one vertex per player to pair, one [`Edge`] per
//! acceptable pairing with an integer cost (lower is better; the Swiss rules layer builds the
//! cost from lexicographic penalty tiers). A *perfect matching* uses every vertex exactly once;
//! the solvers here return one of least total cost, or `None` when the edges admit none.
//!
//! Two solvers implement [`MatchingSolver`]:
//!
//! * [`BlossomSolver`] (the default, [`blossom`]): Edmonds' weighted blossom algorithm in its
//!   primal-dual form, in exact integer arithmetic on a sparse edge list. Worst case
//!   O(n·(m + n²)) for n vertices and m edges, in practice far less: a greedy dual "jump start"
//!   matches most vertices before the first search, and each search grows one alternating tree,
//!   scanning only the edges of the vertices it reaches. About 0.2 s for 10 000 Swiss players
//!   with 50 candidates each. See the module doc of [`blossom`] for the method.
//! * [`LpSolver`] ([`lp`]): the same model as a 0/1 integer programme solved with `good_lp`
//!   (microlp back-end). Used as an independent check and for the [`LayeredProblem`]
//!   look-ahead (several disjoint matchings at once), which a blossom algorithm cannot solve.
//!   Fast on look-ahead sizes (16 vertices, 8 layers: ~0.1 s) but slow beyond a few dozen
//!   vertices (40 sparse vertices can take over 20 s to prove optimality): microlp's branch and
//!   bound has no odd-set cuts.
//!
//! Common conventions:
//! * Parallel edges between the same pair of vertices: only the cheapest counts (ties: the first
//!   listed). Edge direction does not matter.
//! * Cost bound: every `|cost|` must be at most `i64::MAX / (2 * vertices)` (for a layered
//!   problem: `i64::MAX / (2 * vertices * layers)`), so that the total cost of any matching fits
//!   in an `i64` with a factor 4 to spare; otherwise [`MatchingError::CostOverflow`]. Internally
//!   the blossom solver keeps its dual values in `i128`, so no intermediate value can overflow.
//! * Wide costs: [`MatchingSolver::solve_wide`] takes `i128` costs ([`WideEdge`], `|cost| <=`
//!   [`WIDE_COST_BOUND`]` / vertices`) for lexicographic models whose weights outgrow 64 bits;
//!   the blossom solver keeps all its costs in `i128` anyway, other solvers narrow them.
//! * Deterministic: the same problem (same edge order) always gives the same matching.

pub mod blossom;
pub mod lp;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use blossom::{BlossomSolver, StoppableBlossom};
pub use lp::LpSolver;

/// A candidate pairing `u`–`v` with an integer cost (lower is better).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Edge {
    /// One end (a vertex index `< vertices`).
    pub u: usize,
    /// The other end (a vertex index `< vertices`, different from `u`).
    pub v: usize,
    /// Cost of using this pairing; see the module doc for the magnitude bound.
    pub cost: i64,
}

impl Edge {
    /// Shorthand constructor.
    pub fn new(u: usize, v: usize, cost: i64) -> Self {
        Edge { u, v, cost }
    }
}

/// A minimum-cost perfect matching problem on vertices `0..vertices`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MatchingProblem {
    /// Number of vertices (must be even for a perfect matching to exist).
    pub vertices: usize,
    /// The candidate pairings. Parallel edges: the cheapest counts.
    pub edges: Vec<Edge>,
}

/// A perfect matching and its total cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Matching {
    /// Sum of the costs of the used edges (the cheapest edge of each used pair).
    pub cost: i64,
    /// `mate[v]` = the vertex matched with `v` (so `mate[mate[v]] == v`).
    pub mate: Vec<usize>,
}

impl Matching {
    /// The matched pairs `(u, v)` with `u < v`, in increasing order of `u`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        (0..self.mate.len())
            .filter(|&u| self.mate[u] > u)
            .map(|u| (u, self.mate[u]))
            .collect()
    }
}

/// Why a matching problem could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum MatchingError {
    /// A perfect matching needs an even number of vertices; this many were given.
    OddVertexCount(usize),
    /// `edges[edge]` names a vertex `>= vertices`.
    VertexOutOfRange {
        /// Index of the faulty edge in the edge list (for a layered problem: in its layer).
        edge: usize,
    },
    /// `edges[edge]` has `u == v`.
    SelfLoop {
        /// Index of the faulty edge in the edge list (for a layered problem: in its layer).
        edge: usize,
    },
    /// Some `|cost|` exceeds the documented bound (see the module doc).
    CostOverflow,
    /// The solver itself failed (LP back-end error, time limit without a solution...).
    SolverFailed(String),
}

impl std::fmt::Display for MatchingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchingError::OddVertexCount(n) => {
                write!(
                    f,
                    "a perfect matching needs an even number of vertices, got {n}"
                )
            }
            MatchingError::VertexOutOfRange { edge } => {
                write!(f, "edges[{edge}] names a vertex out of range")
            }
            MatchingError::SelfLoop { edge } => write!(f, "edges[{edge}] joins a vertex to itself"),
            MatchingError::CostOverflow => {
                write!(
                    f,
                    "an edge cost is too large in magnitude (bound: i64::MAX / (2 * vertices))"
                )
            }
            MatchingError::SolverFailed(msg) => write!(f, "matching solver failed: {msg}"),
        }
    }
}

impl std::error::Error for MatchingError {}

/// The mates of a wide solve (`mate[v]` for every vertex) and the duals when the solver
/// gives them.
pub type WideSolution = (Vec<usize>, Option<Duals>);

/// A minimum-cost perfect matching solver.
pub trait MatchingSolver {
    /// Short name for logs and reports.
    fn name(&self) -> &'static str;
    /// Solve `problem`. `Ok(None)`: no perfect matching exists on these edges.
    fn solve(&self, problem: &MatchingProblem) -> Result<Option<Matching>, MatchingError>;
    /// Solve `problem` and, when the solver can, return optimal LP duals as well (used to
    /// price pairs left out of the problem). The default gives no duals.
    fn solve_with_duals(
        &self,
        problem: &MatchingProblem,
    ) -> Result<Option<(Matching, Option<Duals>)>, MatchingError> {
        Ok(self.solve(problem)?.map(|m| (m, None)))
    }
    /// Solve a problem of wide costs (see [`WideEdge`]): the mates, and the duals when the
    /// solver gives them. The default narrows the costs to `i64` when they fit the bound of
    /// [`MatchingProblem`] and fails with `CostOverflow` otherwise.
    fn solve_wide(
        &self,
        vertices: usize,
        edges: &[WideEdge],
    ) -> Result<Option<WideSolution>, MatchingError> {
        let bound = cost_bound(vertices, 1) as i128;
        let edges = edges
            .iter()
            .map(|e| {
                (e.cost.abs() <= bound)
                    .then(|| Edge::new(e.u, e.v, e.cost as i64))
                    .ok_or(MatchingError::CostOverflow)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self
            .solve_with_duals(&MatchingProblem { vertices, edges })?
            .map(|(m, d)| (m.mate, d)))
    }
    /// Column generation over wide costs: solves `edges`, asks `more` for the edges to add
    /// given that optimum's mates and duals, solves again with them, and so on until `more`
    /// gives none; returns the last optimum and its duals. Without duals nothing can be
    /// priced: the first optimum is returned. The default solves every problem from scratch;
    /// the blossom solver resumes from the previous optimum (see [`blossom`], "Warm start").
    fn solve_wide_more(
        &self,
        vertices: usize,
        edges: &[WideEdge],
        more: &mut MoreEdges<'_>,
    ) -> Result<Option<WideSolution>, MatchingError> {
        let mut all = edges.to_vec();
        loop {
            let Some((mate, duals)) = self.solve_wide(vertices, &all)? else {
                return Ok(None);
            };
            let new = match &duals {
                Some(d) => more(&mate, d),
                None => Vec::new(),
            };
            if new.is_empty() {
                return Ok(Some((mate, duals)));
            }
            all.extend(new);
        }
    }
    /// A problem to solve again and again as it changes (see [`WarmMatching`]); `None`: the
    /// solver cannot resume, solve each version with [`MatchingSolver::solve_wide_more`].
    fn warm<'s>(
        &'s self,
        vertices: usize,
        edges: &[WideEdge],
    ) -> Result<Option<Box<dyn WarmMatching + 's>>, MatchingError> {
        let _ = (vertices, edges);
        Ok(None)
    }
}

/// A solved problem kept for the next one: its costs change, edges leave and join, and the
/// next solve resumes from the previous optimum (see [`blossom`], "Warm start") instead of
/// starting again. Edges are numbered in the order they were given (the first list, then
/// every addition, including the edges `more` gives), with no reordering: one per pair.
pub trait WarmMatching {
    /// Number of edges held (removed ones included: numbers are never reused).
    fn edge_count(&self) -> usize;
    /// New costs for held edges (`(number, cost)`), edges taken out, edges added (numbered
    /// from [`WarmMatching::edge_count`] on).
    fn update(
        &mut self,
        costs: &[(usize, i128)],
        removed: &[usize],
        added: &[WideEdge],
    ) -> Result<(), MatchingError>;
    /// The optimum of the problem as it now stands, then column generation as in
    /// [`MatchingSolver::solve_wide_more`] (the edges `more` gives are numbered in order).
    /// `Ok(None)`: no perfect matching; the object should then be dropped.
    fn solve_more(
        &mut self,
        more: &mut MoreEdges<'_>,
    ) -> Result<Option<WideSolution>, MatchingError>;
}

/// The edges to add to a solved problem, given its optimal mates and duals (none: the
/// optimum stands). See [`MatchingSolver::solve_wide_more`].
pub type MoreEdges<'a> = dyn FnMut(&[usize], &Duals) -> Vec<WideEdge> + 'a;

/// A candidate pairing with a wide cost: for lexicographic models whose weighted costs need
/// more than 64 bits (a Swiss section of thousands of players with seven penalty tiers). Every
/// `|cost|` must be at most [`WIDE_COST_BOUND`]`/ vertices`, so that no dual of the blossom
/// solver (kept in `i128`) can overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WideEdge {
    /// One end.
    pub u: usize,
    /// The other end.
    pub v: usize,
    /// Cost of using this pairing.
    pub cost: i128,
}

/// The bound of wide costs times the number of vertices: `i128::MAX / 16`.
pub const WIDE_COST_BOUND: i128 = i128::MAX / 16;

/// Check wide edges as [`normalise_wide`] does, keeping them as they are (order, pairs).
pub(crate) fn check_wide(
    vertices: usize,
    edges: &[WideEdge],
) -> Result<Vec<(usize, usize, i128)>, MatchingError> {
    check_with(
        vertices,
        edges.iter().map(|e| (e.u, e.v, e.cost)),
        fits_wide(vertices),
    )
}

/// A wide cost fits a problem of `vertices` when its size is within
/// [`WIDE_COST_BOUND`] over the vertices.
pub(crate) fn fits_wide(vertices: usize) -> impl Fn(i128) -> bool {
    let bound = WIDE_COST_BOUND / vertices.max(1) as i128;
    move |c: i128| c.unsigned_abs() <= bound.unsigned_abs()
}

/// Check and reduce wide edges like [`normalise`] does narrow ones.
pub(crate) fn normalise_wide(
    vertices: usize,
    edges: &[WideEdge],
) -> Result<Vec<(usize, usize, i128)>, MatchingError> {
    Ok(cheapest_per_pair(check_wide(vertices, edges)?))
}

/// Optimal duals of a minimum-cost perfect matching (Edmonds' odd-set LP), as left by the
/// blossom solver: a value `y(v)` per vertex and `z(B) >= 0` per blossom (a nested family of
/// odd vertex sets), kept doubled so that they are integers.
///
/// The *reduced cost* of a pair u–v of cost c is `c − y(u) − y(v) + Σ z(B)` over the blossoms
/// B holding both u and v. It is `>= 0` for every edge of the solved problem and `0` for the
/// matched ones; so if it is `>= 0` for a pair that was *not* in the problem too, adding that
/// pair cannot lower the optimum (the same duals stay feasible and complementary slackness
/// still holds). This is what lets a sparse model be proven optimal over a larger graph.
#[derive(Debug, Clone)]
pub struct Duals {
    /// `2·y(v)` per vertex.
    y2: Vec<i128>,
    /// `2·Σ z(B)` over the blossom itself and every blossom above it (0 for vertices).
    zsum2: Vec<i128>,
    /// Top-level blossom (or the vertex itself) of each vertex.
    top: Vec<usize>,
    /// Depth of each node (vertex or blossom id) below its top-level blossom.
    depth: Vec<u32>,
    /// Euler tour of the blossom trees (vertices inside blossoms only), for O(1) lowest
    /// common ancestors: `first[x]` is the first position of node `x`; `sparse[k][i]` the
    /// shallowest node of `tour[i..i + 2^k]`.
    first: Vec<u32>,
    /// Per vertex, the tour span `first..=last` of its innermost blossom and that blossom's
    /// `zsum2` (an empty span for a vertex in none): when the other end of a pair lies in
    /// that span, it is their lowest common blossom (always so in a chain of blossoms, each
    /// wrapping the one before, as a Swiss score group's are), with no sparse-table lookup.
    inner: Vec<(u32, u32, i128)>,
    sparse: Vec<Vec<u32>>,
    /// The blossom forest: the children of node `x` are `kids[kid_start[x]..kid_start[x +
    /// 1]]`; `order` lists every node after its parent (the roots, vertices in no blossom
    /// and top blossoms, first).
    kid_start: Vec<u32>,
    kids: Vec<u32>,
    order: Vec<u32>,
    /// The number of roots at the head of `order`.
    roots: u32,
    /// Per node, the birth of the blossom (unique in the process; 0 for a vertex), when the
    /// solver tells it.
    births: Option<Vec<u64>>,
}

/// Two duals are equal when their values and blossoms are (the births of the blossoms are
/// facts of the run, not of the solution).
impl PartialEq for Duals {
    fn eq(&self, other: &Duals) -> bool {
        (
            &self.y2,
            &self.zsum2,
            &self.top,
            &self.depth,
            &self.first,
            &self.sparse,
        ) == (
            &other.y2,
            &other.zsum2,
            &other.top,
            &other.depth,
            &other.first,
            &other.sparse,
        )
    }
}

impl Eq for Duals {}

impl Duals {
    /// From doubled vertex duals, the blossom nesting (`parent` of every vertex and blossom
    /// id, `usize::MAX` at the top) and the doubled blossom duals.
    pub(crate) fn new(y2: Vec<i128>, parent: Vec<usize>, z2: Vec<i128>) -> Duals {
        const TOP: usize = usize::MAX;
        let n = y2.len();
        let m = parent.len();
        // The children of each node, in the order of their ids (counted, then placed).
        let mut kid_start = vec![0u32; m + 1];
        for &p in &parent {
            if p != TOP {
                kid_start[p + 1] += 1;
            }
        }
        for x in 0..m {
            kid_start[x + 1] += kid_start[x];
        }
        let mut kids = vec![0u32; kid_start[m] as usize];
        let mut fill = kid_start.clone();
        for (x, &p) in parent.iter().enumerate() {
            if p != TOP {
                kids[fill[p] as usize] = x as u32;
                fill[p] += 1;
            }
        }
        let children = |x: usize| &kids[kid_start[x] as usize..kid_start[x + 1] as usize];
        let mut order: Vec<u32> = (0..m)
            .filter(|&x| parent[x] == TOP && (x < n || !children(x).is_empty()))
            .map(|x| x as u32)
            .collect();
        let roots = order.len() as u32;
        let mut at = 0;
        while at < order.len() {
            let x = order[at] as usize;
            order.extend_from_slice(children(x));
            at += 1;
        }
        let mut depth = vec![0u32; m];
        let mut zsum2 = vec![0i128; m];
        let mut top: Vec<usize> = (0..m).collect();
        let mut first = vec![u32::MAX; m];
        let mut end = vec![0u32; m];
        let mut tour: Vec<u32> = Vec::new();
        for r in 0..m {
            if parent[r] != TOP || children(r).is_empty() {
                continue;
            }
            zsum2[r] = z2[r];
            first[r] = tour.len() as u32;
            tour.push(r as u32);
            let mut stack: Vec<(usize, usize)> = vec![(r, 0)];
            while let Some(&mut (x, ref mut next)) = stack.last_mut() {
                if let Some(&c) = children(x).get(*next) {
                    let c = c as usize;
                    *next += 1;
                    depth[c] = depth[x] + 1;
                    zsum2[c] = zsum2[x] + if c >= n { z2[c] } else { 0 };
                    top[c] = r;
                    first[c] = tour.len() as u32;
                    tour.push(c as u32);
                    stack.push((c, 0));
                } else {
                    end[x] = (tour.len() - 1) as u32;
                    stack.pop();
                    if let Some(&(p, _)) = stack.last() {
                        tour.push(p as u32);
                    }
                }
            }
        }
        // Per vertex in a blossom, the tour span and share of its own (innermost) blossom.
        let inner: Vec<(u32, u32, i128)> = (0..n)
            .map(|v| match parent[v] {
                TOP => (1, 0, 0),
                p => (first[p], end[p], zsum2[p]),
            })
            .collect();
        let mut sparse = vec![tour.clone()];
        let mut k = 1;
        while (1usize << k) <= tour.len() {
            let prev = &sparse[k - 1];
            let half = 1usize << (k - 1);
            let level: Vec<u32> = (0..tour.len() + 1 - (1 << k))
                .map(|i| {
                    let (a, b) = (prev[i], prev[i + half]);
                    if depth[a as usize] <= depth[b as usize] {
                        a
                    } else {
                        b
                    }
                })
                .collect();
            sparse.push(level);
            k += 1;
        }
        top.truncate(n);
        Duals {
            y2,
            zsum2,
            top,
            depth,
            first,
            inner,
            sparse,
            kid_start,
            kids,
            order,
            roots,
            births: None,
        }
    }

    /// With the birth of each node (0 for a vertex).
    pub(crate) fn with_births(mut self, births: Vec<u64>) -> Duals {
        self.births = Some(births);
        self
    }

    /// Per vertex, the number of its outermost blossom of `before` that is still a blossom
    /// here, the same one (same birth), `u32::MAX` for none. A pair of vertices with the same
    /// number has the same reduced cost here as in `before`, whatever happened in between:
    /// the inside of a blossom changes only when it is undone, and while it lasts its
    /// vertices' duals move together (a dual step moves every vertex of a top blossom by its
    /// label, undoing a blossom around it lowers them all by that blossom's `z`), the `z` of
    /// the blossom itself or of one around it making up for it. `None` when the solver does
    /// not tell births, or `before` is not over the same vertices.
    pub fn lasting(&self, before: &Duals) -> Option<Vec<u32>> {
        let (now, then) = (self.births.as_ref()?, before.births.as_ref()?);
        let n = self.y2.len();
        if before.y2.len() != n || now.len() != then.len() {
            return None;
        }
        // Parents before children: the outermost lasting blossom is inherited downwards.
        let mut keep = vec![u32::MAX; then.len()];
        for &x in &before.order {
            let x = x as usize;
            if keep[x] == u32::MAX && x >= n && then[x] != 0 && now[x] == then[x] {
                keep[x] = x as u32;
            }
            for &c in before.kids(x) {
                keep[c as usize] = keep[x];
            }
        }
        keep.truncate(n);
        Some(keep)
    }

    /// What may have changed since `before` (duals of the same vertices), for pricing: see
    /// [`Changes`]. `None` when the solver does not tell births.
    pub fn since<'a>(&'a self, before: &Duals) -> Option<Changes<'a>> {
        let n = self.y2.len();
        let mut moved_y = vec![false; n];
        let mut moved_in = vec![false; n];
        for v in 0..n {
            let (a, c) = (before.snapshot(v)?, self.snapshot(v)?);
            let moved = (a.top, a.birth) != (c.top, c.birth);
            moved_y[v] = moved || a.y2 != c.y2;
            moved_in[v] = moved || a.inner2 != c.inner2;
        }
        Some(Changes {
            now: self,
            moved_y,
            moved_in,
            lasting: self.lasting(before)?,
        })
    }

    /// What a pair's reduced cost depends on at `v`, besides the pair's cost: its top
    /// blossom (id and birth: the same pair means the same blossom, the same inside), its
    /// dual `2·y(v)`, and `2·y(v) − z(top)`, which a move of the whole top blossom leaves as
    /// it is. Two pairs of snapshots with equal parts have equal reduced costs: across two
    /// top blossoms it is `2c − 2y(u) − 2y(v)`; inside one, `2c − q(u) − q(v)` plus the `z`
    /// of the blossoms inside it that hold both. `None` when the solver does not tell
    /// births.
    pub fn snapshot(&self, v: usize) -> Option<DualSnapshot> {
        let births = self.births.as_ref()?;
        let top = self.top[v];
        Some(DualSnapshot {
            top,
            birth: births[top],
            y2: self.y2[v],
            inner2: self.y2[v] - if top == v { 0 } else { self.zsum2[top] / 2 },
        })
    }

    /// `2·y(v)`.
    pub fn vertex2(&self, v: usize) -> i128 {
        self.y2[v]
    }

    /// `2·Σ z(B)` over the blossoms holding both `u` and `v` (their lowest common blossom
    /// and all above it).
    pub fn common_blossoms2(&self, u: usize, v: usize) -> i128 {
        if u == v || self.top[u] != self.top[v] {
            return 0;
        }
        let (a, b) = (self.first[u], self.first[v]);
        for (x, at) in [(u, b), (v, a)] {
            let (lo, hi, share) = self.inner[x];
            if lo <= at && at <= hi {
                return share;
            }
        }
        let (a, b) = (a as usize, b as usize);
        let (l, r) = (a.min(b), a.max(b));
        let k = (usize::BITS - 1 - (r - l + 1).leading_zeros()) as usize;
        let (x, y) = (self.sparse[k][l], self.sparse[k][r + 1 - (1 << k)]);
        let lca = if self.depth[x as usize] <= self.depth[y as usize] {
            x
        } else {
            y
        };
        self.zsum2[lca as usize]
    }

    /// Every pair of a vertex `x` keyed on side `a` and a vertex `y` keyed on side `b`, `x ≠
    /// y`, with `a[x] + b[y] + common_blossoms2(x, y) < 0`, handed to `visit` once (with
    /// `same`, `a` and `b` are one side and each unordered pair comes once, `x < y`). With
    /// `a[x] = 2·c_x − 2·y(x)` where a pair's cost is `c_x + c_y`, these are exactly the
    /// pairs of negative reduced cost. The search walks the blossom forest: the pairs whose
    /// lowest common blossom is `B` have the share `zsum2(B)`, one child of `B` at each end,
    /// and no child pair whose least keys cannot reach 0 is entered; a blossom none of whose
    /// pairs (at any depth, where the share is only larger) can reach 0 is not entered at all.
    /// So the work is the forest plus the candidates, not the pairs.
    pub fn negative_pairs(
        &self,
        a: &[Option<i128>],
        b: &[Option<i128>],
        same: bool,
        visit: &mut dyn FnMut(usize, usize),
    ) {
        const NONE: i128 = i128::MAX;
        let n = self.y2.len();
        let m = self.zsum2.len();
        let key = |k: &[Option<i128>], v: usize| k.get(v).copied().flatten().unwrap_or(NONE);
        let (mut min_a, mut min_b) = (vec![NONE; m], vec![NONE; m]);
        for v in 0..n {
            min_a[v] = key(a, v);
            min_b[v] = key(b, v);
        }
        for &x in self.order.iter().rev() {
            let x = x as usize;
            for &c in self.kids(x) {
                min_a[x] = min_a[x].min(min_a[c as usize]);
                min_b[x] = min_b[x].min(min_b[c as usize]);
            }
        }
        // The leaves below `x` keyed below `limit` on side `k` (subtrees pruned by their
        // least key), sorted.
        let leaves = |x: usize, k: &[Option<i128>], mins: &[i128], limit: i128| {
            let mut out: Vec<(i128, usize)> = Vec::new();
            let mut stack = vec![x];
            while let Some(y) = stack.pop() {
                if mins[y] >= limit {
                    continue;
                }
                if y < n {
                    out.push((key(k, y), y));
                } else {
                    stack.extend(self.kids(y).iter().map(|&c| c as usize));
                }
            }
            out.sort_unstable();
            out
        };
        // The pairs of leaves under two different siblings, whose share is `share`; each
        // side's leaves gathered below the limit that pair needs.
        let siblings = |nodes: &[usize], share: i128, visit: &mut dyn FnMut(usize, usize)| {
            let sorted = |mins: &[i128]| {
                let mut s: Vec<(i128, usize)> = nodes
                    .iter()
                    .filter(|&&x| mins[x] != NONE)
                    .map(|&x| (mins[x], x))
                    .collect();
                s.sort_unstable();
                s
            };
            let (sa, sb) = (sorted(&min_a), sorted(&min_b));
            for &(ka, xa) in &sa {
                if sb.first().is_none_or(|&(kb, _)| ka + kb + share >= 0) {
                    break;
                }
                for &(kb, xb) in &sb {
                    if ka + kb + share >= 0 {
                        break;
                    }
                    if xa == xb {
                        continue;
                    }
                    let xs = leaves(xa, a, &min_a, -share - kb);
                    let ys = leaves(xb, b, &min_b, -share - ka);
                    for &(kx, x) in &xs {
                        for &(ky, y) in &ys {
                            if kx + ky + share >= 0 {
                                break;
                            }
                            if !same || x < y {
                                visit(x, y);
                            }
                        }
                    }
                }
            }
        };
        let roots: Vec<usize> = self.order[..self.roots as usize]
            .iter()
            .map(|&x| x as usize)
            .collect();
        siblings(&roots, 0, visit);
        let mut stack: Vec<usize> = roots.into_iter().filter(|&x| x >= n).collect();
        while let Some(x) = stack.pop() {
            if min_a[x] == NONE || min_b[x] == NONE || min_a[x] + min_b[x] + self.zsum2[x] >= 0 {
                continue;
            }
            let kids: Vec<usize> = self.kids(x).iter().map(|&c| c as usize).collect();
            siblings(&kids, self.zsum2[x], visit);
            stack.extend(kids.into_iter().filter(|&c| c >= n));
        }
    }

    fn kids(&self, x: usize) -> &[u32] {
        &self.kids[self.kid_start[x] as usize..self.kid_start[x + 1] as usize]
    }

    /// A lower bound of [`Duals::reduced_cost2`] from the two ends alone: the blossoms
    /// holding both share at least the `z` of their top blossom (and nothing when the ends
    /// are in different ones). Exact when the pair's lowest common blossom is its top.
    pub fn reduced_floor2(&self, u: usize, v: usize, cost: i128) -> i128 {
        let (tu, tv) = (self.top[u], self.top[v]);
        let share = if u != v && tu == tv {
            self.zsum2[tu]
        } else {
            0
        };
        2 * cost - self.y2[u] - self.y2[v] + share
    }

    /// Twice the reduced cost of the pair u–v with cost `cost`.
    pub fn reduced_cost2(&self, u: usize, v: usize, cost: i128) -> i128 {
        2 * cost - self.y2[u] - self.y2[v] + self.common_blossoms2(u, v)
    }
}

/// Which pairs may have a reduced cost other than at an earlier solve ([`Duals::since`]):
/// across two top blossoms, those with an end whose `2y` or top blossom changed; inside one,
/// those with an end whose `2y − z(top)` or top changed ([`Duals::snapshot`]); but never a
/// pair inside one blossom that lasted ([`Duals::lasting`]).
pub struct Changes<'a> {
    now: &'a Duals,
    moved_y: Vec<bool>,
    moved_in: Vec<bool>,
    lasting: Vec<u32>,
}

impl Changes<'_> {
    /// The reduced cost of the pair u–v may have changed.
    pub fn pair(&self, u: usize, v: usize) -> bool {
        if self.lasting[u] != u32::MAX && self.lasting[u] == self.lasting[v] {
            false
        } else if self.now.top[u] == self.now.top[v] {
            self.moved_in[u] || self.moved_in[v]
        } else {
            self.moved_y[u] || self.moved_y[v]
        }
    }

    /// Counts `v` among the vertices that moved (for pairs whose cost changed at `v`,
    /// looked at apart from [`Changes::pair`]).
    pub fn mark(&mut self, v: usize) {
        self.moved_y[v] = true;
        self.moved_in[v] = true;
    }

    /// The vertices some of whose pairs may have changed: every changed pair has an end
    /// here.
    pub fn moved(&self) -> Vec<usize> {
        (0..self.moved_y.len())
            .filter(|&v| self.moved_y[v] || self.moved_in[v])
            .collect()
    }

    /// The vertices outside the lasting blossom that holds the most: every changed pair has
    /// an end here too. `None` when no blossom lasted.
    pub fn outside_largest_lasting(&self) -> Option<Vec<usize>> {
        let kept = || self.lasting.iter().copied().filter(|&c| c != u32::MAX);
        let mut count = vec![0usize; kept().max()? as usize + 1];
        for c in kept() {
            count[c as usize] += 1;
        }
        let largest = (0..count.len()).max_by_key(|&c| (count[c], std::cmp::Reverse(c)))? as u32;
        Some(
            (0..self.lasting.len())
                .filter(|&v| self.lasting[v] != largest)
                .collect(),
        )
    }
}

/// See [`Duals::snapshot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DualSnapshot {
    /// Top blossom of the vertex (the vertex itself when it is in none) and its birth.
    pub top: usize,
    pub birth: u64,
    /// `2·y(v)`.
    pub y2: i128,
    /// `2·y(v) − z(top)`.
    pub inner2: i128,
}

/// Several perfect matchings found at once over the same vertices: layer 0 is the round being
/// paired, layers 1.. are later rounds. The total cost over all layers is minimised (later layers
/// usually have cost 0 edges: they only have to exist). No unordered pair `{u, v}` may be used in
/// two layers. Solved by [`LpSolver::solve_layered`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LayeredProblem {
    /// Number of vertices (even).
    pub vertices: usize,
    /// `layers[i]` = the candidate pairings of layer `i`.
    pub layers: Vec<Vec<Edge>>,
}

/// Edges after validation: one per unordered pair (the cheapest), as `(u, v, cost)` with `u < v`,
/// sorted by `(u, v)`.
pub(crate) type SimpleEdges = Vec<(usize, usize, i64)>;

/// Check the vertex count, edge ends and cost magnitudes (`|cost| <= cost_bound`), then reduce
/// parallel edges to the cheapest one (ties: the first listed). Deterministic.
pub(crate) fn normalise(
    vertices: usize,
    edges: &[Edge],
    cost_bound: i64,
) -> Result<SimpleEdges, MatchingError> {
    normalise_with(
        vertices,
        edges.iter().map(|e| (e.u, e.v, e.cost)),
        |c: i64| c.unsigned_abs() <= cost_bound.unsigned_abs(),
    )
}

/// [`normalise`] over any cost type, `fits` checking each cost's magnitude.
fn normalise_with<C: Copy + Ord>(
    vertices: usize,
    edges: impl ExactSizeIterator<Item = (usize, usize, C)>,
    fits: impl Fn(C) -> bool,
) -> Result<Vec<(usize, usize, C)>, MatchingError> {
    Ok(cheapest_per_pair(check_with(vertices, edges, fits)?))
}

/// Checked edges in order of their pairs, the cheapest of each pair only.
fn cheapest_per_pair<C: Copy + Ord>(mut edges: Vec<(usize, usize, C)>) -> Vec<(usize, usize, C)> {
    // Equal pairs and costs are the same edge: their order does not matter.
    edges.sort_unstable_by_key(|&(u, v, c)| (u, v, c));
    edges.dedup_by_key(|&mut (u, v, _)| (u, v));
    edges
}

/// The checks of [`normalise_with`]: an even number of vertices within
/// [`MAX_VERTICES`], every edge between two different vertices in range with a cost that
/// `fits`; the edges as given, each with its lower end first.
fn check_with<C: Copy>(
    vertices: usize,
    edges: impl ExactSizeIterator<Item = (usize, usize, C)>,
    fits: impl Fn(C) -> bool,
) -> Result<Vec<(usize, usize, C)>, MatchingError> {
    if vertices % 2 == 1 {
        return Err(MatchingError::OddVertexCount(vertices));
    }
    if vertices > MAX_VERTICES {
        return Err(MatchingError::SolverFailed(format!(
            "{vertices} vertices: the solvers take at most {MAX_VERTICES}"
        )));
    }
    let mut out = Vec::with_capacity(edges.len());
    for (k, (u, v, cost)) in edges.enumerate() {
        if u >= vertices || v >= vertices {
            return Err(MatchingError::VertexOutOfRange { edge: k });
        }
        if u == v {
            return Err(MatchingError::SelfLoop { edge: k });
        }
        if !fits(cost) {
            return Err(MatchingError::CostOverflow);
        }
        out.push((u.min(v), u.max(v), cost));
    }
    Ok(out)
}

/// The most vertices a problem may have: far above any section the limits admit
/// ([`crate::limits::MAX_SECTION_PLAYERS`]), and low enough that the blossom solver's
/// adjacency can name every edge end of the complete graph in 32 bits.
pub(crate) const MAX_VERTICES: usize = 1 << 16;

/// The largest `|cost|` accepted for `vertices` vertices and `layers` layers.
pub(crate) fn cost_bound(vertices: usize, layers: usize) -> i64 {
    let div = (2u128 * vertices.max(1) as u128 * layers.max(1) as u128).min(i64::MAX as u128);
    (i64::MAX as u128 / div) as i64
}

/// Check that `mate` is a perfect matching of `edges` (already normalised) and return its cost.
pub(crate) fn matching_cost(
    vertices: usize,
    edges: &SimpleEdges,
    mate: &[usize],
) -> Result<i64, MatchingError> {
    if mate.len() != vertices {
        return Err(MatchingError::SolverFailed(
            "mate has the wrong length".into(),
        ));
    }
    let mut cost: i64 = 0;
    for (u, &v) in mate.iter().enumerate() {
        if v >= vertices || mate[v] != u || v == u {
            return Err(MatchingError::SolverFailed(format!(
                "vertex {u} badly matched"
            )));
        }
        if u < v {
            let c = edge_cost(edges, u, v).ok_or_else(|| {
                MatchingError::SolverFailed(format!("pair {u}-{v} is not an edge"))
            })?;
            cost = cost.checked_add(c).ok_or(MatchingError::CostOverflow)?;
        }
    }
    Ok(cost)
}

/// Cost of the (normalised) edge `u < v`, by binary search.
pub(crate) fn edge_cost(edges: &SimpleEdges, u: usize, v: usize) -> Option<i64> {
    edges
        .binary_search_by_key(&(u, v), |&(a, b, _)| (a, b))
        .ok()
        .map(|i| edges[i].2)
}
