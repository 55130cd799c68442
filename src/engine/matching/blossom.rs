//! Edmonds' weighted blossom algorithm for minimum-cost perfect matching (exact, integer).
//!
//! # The method
//! Minimum-cost perfect matching is a linear programme once the "odd set" constraints are added
//! (Edmonds 1965): every odd set `B` of vertices must be left by at least one matched edge. Its
//! dual gives every vertex `v` a free value `y(v)` and every odd set (a *blossom*) a value
//! `z(B) >= 0`; an edge is *tight* when its reduced cost (slack) is zero. The primal-dual
//! algorithm keeps a matching made of tight edges and feasible duals, and grows it:
//!
//! 1. A *stage* takes one unmatched vertex (or the top blossom holding it) as the root of an
//!    alternating tree, labelled `S` (outer), and grows the tree along tight edges: a tight edge
//!    S–free labels the free blossom `T` (inner) and its mate `S`; a tight S–S edge closes an odd
//!    cycle, which is shrunk into a new blossom (a super-vertex labelled S); a tight edge from S
//!    to another unmatched vertex is an augmenting path: flipping it along the tree grows the
//!    matching by one pair and ends the stage.
//! 2. When no tight edge helps, the duals move by `delta`: `y += delta` on S vertices,
//!    `y -= delta` on T vertices, `z += delta` on S blossoms, `z -= delta` on T blossoms. `delta`
//!    is the largest step that keeps every slack `>= 0` and every `z >= 0`: it makes a new edge
//!    tight or brings a T blossom's `z` to 0, and that blossom is then expanded (un-shrunk).
//! 3. If no finite `delta` exists, the dual objective grows without bound, so the primal has no
//!    solution: there is no perfect matching (`None`).
//!
//! At the end every vertex is matched along tight edges and complementary slackness holds, so the
//! matching is optimal. The bookkeeping (blossom trees with the endpoints of their cycle, labels,
//! least-slack edges per blossom so that `delta` is found without rescanning the graph) follows
//! the classic O(n^3) structure described by Galil (1986) and by J. van Rantwijk's public notes,
//! written here for a sparse edge list and for the perfect, minimum-cost variant (no vertex dual
//! ever stops the search, as vertex duals are unrestricted in sign).
//!
//! # Exactness
//! Slacks are kept doubled: `slack(u, v) = 2·cost(u, v) − y(u) − y(v)` for edges between different
//! top-level blossoms (an edge inside a blossom also gets `+ 2·z(B)` for each blossom holding both
//! ends). All vertex duals start even and all labelled vertices of a stage share one parity, so the
//! half-slack step of an S–S edge is an integer: the whole run uses integers only (`i128`, so no
//! dual can overflow whatever the magnitude of the `i64` costs).
//!
//! # Speed
//! * *Jump start*: each vertex dual starts at its least incident cost, then is raised as far as its
//!   edges allow; a greedy pass matches tight edges, and a few Hopcroft–Karp-like passes augment
//!   along simple alternating paths of tight edges. On Swiss models (many equal costs) this
//!   matches about 97% of the vertices before the first stage. *Hubs*, the few vertices with
//!   edges to more than a quarter of the others (a bye vertex), are raised last, from duals
//!   the others took among themselves: raised first, a hub's cheap edges would be every
//!   vertex's tightest, and the greedy pass would match a single pair.
//! * One tree per stage (not a forest of all unmatched vertices): a stage only scans the edges of
//!   the vertices its tree labels (adjacency lists, no n×n matrix), and every per-stage reset or
//!   dual step visits only the vertices and blossoms the stage touched. A scan passes over an
//!   edge inside the scanning vertex's top blossom (36 % of the entries scanned in round 2
//!   of a 9 999-player FIDE Dutch event) or to a vertex of an inner blossom already reached
//!   before reading its cost or the far end's dual, and the adjacency keeps endpoint and
//!   vertex apart from the cost, so such an edge reads 8 bytes, not 24.
//!
//!   Why not a forest (measured with `tourney bench-dutch`, release): a forest, every unmatched vertex of one dual parity
//!   a root, all trees growing by the same dual steps, and after an augmentation only its two
//!   trees taken apart (their vertices then look again for their least-slack edge to the
//!   trees left, and so do the neighbours whose least-slack edge led to them). Round 2 of
//!   the 9 999-player event: the entries scanned fell from 630 to 187 million and the dual
//!   steps from 494 000 to 267 000, but the dissolved trees hold a score group's blossom of
//!   thousands of vertices, and looking again from their vertices read 785 million entries
//!   (31.8 s against 31.7 s one tree per stage); with that looking again put off until the
//!   next dual step, round 3 still read 395 million and took 29.4 s against 21.8 s.
//! * The slack of each remembered least-slack edge is cached until the next dual step.
//! * *Lazy duals*: a dual step visits nothing. The stage keeps the sum of its steps so far
//!   (`moved`); every vertex and top blossom of the tree holds its dual as of the moment it
//!   was labelled, with a sign (+1 outer, −1 inner), and its dual now is that value plus
//!   sign × the steps since (`State::y`). A label change settles the value first; the end of
//!   the stage settles every vertex the stage labelled, once.
//! * *A heap of dual steps*: the candidates of the next step (a free vertex's least-slack edge
//!   to the tree, the least-slack edge between two outer blossoms, an inner blossom's dual)
//!   are kept least first, keyed by the value of `moved` at which they reach 0 (constant while
//!   labels stay), so the least step is found in O(log) instead of a scan of everything the
//!   stage touched. Entries made stale by a later change are dropped when they reach the top.
//!   Ties go to the candidate found first in the order the old scan took (the stage's `dirty`
//!   list, then the kind), so the matching is the same, ties included. A least-slack edge
//!   that improves several times between two dual steps joins the heap once, at the next
//!   step (`pending`): the same candidates with fewer stale entries (FIDE Dutch, 5000
//!   players, round 2: 18.3 → 16.1 s; Swiss FIDE style at 9999: 5.08 → 4.15 s).
//! * *A blossom keeps the id of its largest outer child*: forming a blossom around an outer
//!   blossom of thousands of vertices (a Swiss score group's odd union, wrapped again and again
//!   within a stage) would relabel every vertex each time; instead the new blossom takes that
//!   child's id (the child moves to a fresh one, `State::swap_ids`) and only the other
//!   children's vertices are visited. Likewise an inner blossom expanded when its dual
//!   reaches 0 hands its id to its largest child when that child stays inner (it lies on the
//!   even path from the entry to the base, `State::stays_inner`): the child's vertices keep
//!   their top blossom and their sign, and only the other children's are visited. A nest
//!   of thousands of levels is peeled one level per dual step; visiting every vertex at
//!   each level cost 400 million visits in round 2 of a 9 999-player FIDE Dutch event
//!   (36.0 → 30.5 s). (Expanding a large blossom that does not stay inner still visits all
//!   its vertices.)
//!
//! Worst case O(n·(m + n²)) (n/2 stages; a stage scans each edge a bounded number of times and
//! takes O(n) dual steps; a step costs O(log m) now, but forming and expanding blossoms is
//! still O(n) each); in practice the stages are few and small. Measured on
//! Swiss-like models (about 50 candidates per vertex, release build): 1000 vertices ~0.01 s,
//! 10 000 vertices ~0.2 s; all pairs at 2000 vertices ~0.4 s. Memory O(n + m): about 80 bytes
//! per edge held by the solver (its copy of the edge, 32, and two adjacency entries of 24),
//! besides the caller's list.
//!
//! # Warm start (column generation)
//! [`MatchingSolver::solve_wide_more`] adds edges to a solved problem (the boards a Swiss
//! pricing pass finds, see `engine::chess::swiss::us::price`) and resumes instead of starting
//! again. The solved state is kept: matching, blossoms, duals. A new edge with a negative
//! reduced cost makes the duals infeasible, so one of its ends is freed: re-based as the base
//! of its top blossom (the blossom stays full), unmatched with its mate, and every blossom
//! holding it undone with its `z` moved into its vertices' duals (`y(v) −= z(B)` keeps the
//! reduced cost of every pair inside `B` and raises that of every pair leaving it); its dual is
//! then lowered until the edge is tight. What remains is a feasible dual solution with tight
//! matched edges and full blossoms whose cycles are tight, which is all a stage assumes, so the
//! stages only have to rematch the freed vertices. Debug builds check the optimality
//! certificate after every resumed solve as after the first. Measured (`scripts/bench-swiss
//! speed`, 5000 players, three pricing passes): 8.4 s from scratch, 4.6 s resumed.
//!
//! [`MatchingSolver::warm`] keeps that state between problems ([`super::WarmMatching`]): the
//! lexicographic stages of the FIDE Dutch engine solve the same players again and again with
//! costs changed on a few edges. `State::update_edges` takes the changes: an edge the state
//! relies on being tight (matched, or a blossom's cycle edge) whose cost changed, or which is
//! removed, frees one end; an edge whose reduced cost fell below 0 frees one end and lowers its
//! dual; a removed edge leaves the adjacency (its number stays). Every blossom id carries its
//! *birth* (a number unique in the process, new when the id takes a new blossom), so that
//! duals compared across solves ([`super::Duals::snapshot`]) tell which reduced costs may
//! have moved. When a pricing pass hands over more edges than a quarter of those held, freeing an end
//! of each would cost more than a solve from scratch: the state is solved afresh with all of
//! them (`State::restart`; FIDE Dutch, 5000 players, round 2: 240 000 edges joining 96 000,
//! 1.97 s resumed, 0.18 s afresh).
//!
//! No recursion: blossom augmentation and end-of-stage expansion walk the blossom nesting (at
//! most n/2 levels; 2543 levels in a 5093-player round 1 found by the API fuzzer) with explicit
//! stacks on the heap, so the thread's stack never limits the size of a problem.

use super::{cost_bound, matching_cost, normalise, Matching, MatchingError, MatchingProblem};
use super::{Duals, MatchingSolver, SimpleEdges, WarmMatching};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The exact blossom solver (pure Rust, the default). See the module doc.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlossomSolver;

impl MatchingSolver for BlossomSolver {
    fn name(&self) -> &'static str {
        "blossom"
    }

    fn solve_wide(
        &self,
        vertices: usize,
        edges: &[super::WideEdge],
    ) -> Result<Option<super::WideSolution>, MatchingError> {
        solve_wide_until(vertices, edges, &|| false).map(|o| o.map(|(m, d)| (m, Some(d))))
    }

    fn solve_wide_more(
        &self,
        vertices: usize,
        edges: &[super::WideEdge],
        more: &mut super::MoreEdges<'_>,
    ) -> Result<Option<super::WideSolution>, MatchingError> {
        solve_wide_more_until(vertices, edges, more, &|| false)
    }

    fn warm<'s>(
        &'s self,
        vertices: usize,
        edges: &[super::WideEdge],
    ) -> Result<Option<Box<dyn WarmMatching + 's>>, MatchingError> {
        Ok(Some(Box::new(Warm::new(vertices, edges, &|| false)?)))
    }

    fn solve(&self, problem: &MatchingProblem) -> Result<Option<Matching>, MatchingError> {
        let n = problem.vertices;
        let edges = normalise(n, &problem.edges, cost_bound(n, 1))?;
        let Some(mate) = min_cost_perfect_matching(n, &edges, true)? else {
            return Ok(None);
        };
        let cost = matching_cost(n, &edges, &mate)?;
        Ok(Some(Matching { cost, mate }))
    }

    fn solve_with_duals(
        &self,
        problem: &MatchingProblem,
    ) -> Result<Option<(Matching, Option<Duals>)>, MatchingError> {
        solve_until(problem, &|| false, true)
    }
}

/// The blossom solver that gives up before it starts and between two of its stages (one per
/// pair left unmatched by the greedy start) once `stop()` says so, with `SolverFailed`: a pairing over its time budget, or whose client has
/// gone, stops within one stage instead of one whole solve.
pub struct StoppableBlossom<F: Fn() -> bool>(pub F);

impl<F: Fn() -> bool> MatchingSolver for StoppableBlossom<F> {
    fn name(&self) -> &'static str {
        "blossom"
    }

    fn solve_wide(
        &self,
        vertices: usize,
        edges: &[super::WideEdge],
    ) -> Result<Option<super::WideSolution>, MatchingError> {
        solve_wide_until(vertices, edges, &self.0).map(|o| o.map(|(m, d)| (m, Some(d))))
    }

    fn solve_wide_more(
        &self,
        vertices: usize,
        edges: &[super::WideEdge],
        more: &mut super::MoreEdges<'_>,
    ) -> Result<Option<super::WideSolution>, MatchingError> {
        solve_wide_more_until(vertices, edges, more, &self.0)
    }

    fn warm<'s>(
        &'s self,
        vertices: usize,
        edges: &[super::WideEdge],
    ) -> Result<Option<Box<dyn WarmMatching + 's>>, MatchingError> {
        Ok(Some(Box::new(Warm::new(vertices, edges, &self.0)?)))
    }

    fn solve(&self, problem: &MatchingProblem) -> Result<Option<Matching>, MatchingError> {
        solve_until(problem, &self.0, false).map(|o| o.map(|(m, _)| m))
    }

    fn solve_with_duals(
        &self,
        problem: &MatchingProblem,
    ) -> Result<Option<(Matching, Option<Duals>)>, MatchingError> {
        solve_until(problem, &self.0, true)
    }
}

/// One solve of wide costs (see [`super::WideEdge`]) with its duals, checking `stop` before
/// every stage: the mates only (the caller knows its costs).
pub(crate) fn solve_wide_until(
    vertices: usize,
    edges: &[super::WideEdge],
    stop: &dyn Fn() -> bool,
) -> Result<Option<(Vec<usize>, Duals)>, MatchingError> {
    let edges = super::normalise_wide(vertices, edges)?;
    let mut s = State::new(vertices, &edges);
    let Some(mate) = s.run(true, stop)? else {
        return Ok(None);
    };
    Ok(Some((mate, s.duals())))
}

/// Column generation with a warm start (see [`MatchingSolver::solve_wide_more`]): after each
/// optimum the edges `more` gives are added to the solved state ([`State::add_edges`]) and
/// only the vertices they expose are matched again, instead of solving from scratch.
pub(crate) fn solve_wide_more_until(
    vertices: usize,
    edges: &[super::WideEdge],
    more: &mut super::MoreEdges<'_>,
    stop: &dyn Fn() -> bool,
) -> Result<Option<super::WideSolution>, MatchingError> {
    let edges = super::normalise_wide(vertices, edges)?;
    let mut s = State::new(vertices, &edges);
    // The state holds its own copy of the edges: the normalised list is not needed again.
    drop(edges);
    let Some(mut mate) = s.run(true, stop)? else {
        return Ok(None);
    };
    loop {
        let duals = s.duals();
        let new = more(&mate, &duals);
        if new.is_empty() {
            return Ok(Some((mate, Some(duals))));
        }
        let new = super::normalise_wide(vertices, &new)?;
        s.add_edges(&new);
        match s.stages(stop)? {
            Some(m) => mate = m,
            // Cannot happen: the previous matching is still perfect on the larger graph.
            None => return Ok(None),
        }
    }
}

/// The blossom solver's [`WarmMatching`]: the state of the last solve, changed in place by
/// [`State::update_edges`] and resumed by its stages.
struct Warm<'s> {
    s: State,
    solved: bool,
    stop: &'s dyn Fn() -> bool,
}

impl<'s> Warm<'s> {
    fn new(
        vertices: usize,
        edges: &[super::WideEdge],
        stop: &'s dyn Fn() -> bool,
    ) -> Result<Warm<'s>, MatchingError> {
        let edges = super::check_wide(vertices, edges)?;
        Ok(Warm {
            s: State::new(vertices, &edges),
            solved: false,
            stop,
        })
    }
}

impl WarmMatching for Warm<'_> {
    fn edge_count(&self) -> usize {
        self.s.eu.len()
    }

    fn update(
        &mut self,
        costs: &[(usize, i128)],
        removed: &[usize],
        added: &[super::WideEdge],
    ) -> Result<(), MatchingError> {
        let n = self.s.n;
        let added = super::check_wide(n, added)?;
        let m = self.s.eu.len();
        if costs.iter().any(|&(k, _)| k >= m) || removed.iter().any(|&k| k >= m) {
            return Err(MatchingError::SolverFailed(format!(
                "an edge number beyond the {m} edges held"
            )));
        }
        let fits = super::fits_wide(n);
        if !costs.iter().all(|&(_, c)| fits(c)) {
            return Err(MatchingError::CostOverflow);
        }
        if self.solved {
            self.s.update_edges(costs, removed, &added);
        } else {
            // Nothing solved yet: only the problem changes.
            self.s.set_edges(costs, removed, &added);
        }
        Ok(())
    }

    fn solve_more(
        &mut self,
        more: &mut super::MoreEdges<'_>,
    ) -> Result<Option<super::WideSolution>, MatchingError> {
        let first = if self.solved {
            self.s.stages(self.stop)?
        } else {
            self.solved = true;
            self.s.run(true, self.stop)?
        };
        let Some(mut mate) = first else {
            return Ok(None);
        };
        loop {
            let duals = self.s.duals();
            let new = more(&mate, &duals);
            if new.is_empty() {
                return Ok(Some((mate, Some(duals))));
            }
            let new = super::check_wide(self.s.n, &new)?;
            let r = if new.len() > self.s.eu.len() / 4 {
                // Many edges priced in at once free as many vertices: solving afresh
                // with all of them is faster than resuming (5000 players, round 2:
                // 240 000 edges joining 96 000, 1.97 s resumed).
                self.s.restart(&new);
                self.s.run(true, self.stop)?
            } else {
                self.s.add_edges(&new);
                self.s.stages(self.stop)?
            };
            match r {
                Some(m) => mate = m,
                None => return Ok(None),
            }
        }
    }
}

/// One solve (with its duals when `duals`), checking `stop` before every stage.
fn solve_until(
    problem: &MatchingProblem,
    stop: &dyn Fn() -> bool,
    duals: bool,
) -> Result<Option<(Matching, Option<Duals>)>, MatchingError> {
    let n = problem.vertices;
    let edges = normalise(n, &problem.edges, cost_bound(n, 1))?;
    let mut s = State::new(n, &edges);
    let Some(mate) = s.run(true, stop)? else {
        return Ok(None);
    };
    let cost = matching_cost(n, &edges, &mate)?;
    let duals = duals.then(|| s.duals());
    Ok(Some((Matching { cost, mate }, duals)))
}

const NONE: usize = usize::MAX;

/// The adjacency entries of all vertices (see [`csr`]): entry `i` is a remote endpoint `p`
/// (edge `p >> 1`) and remote vertex `w`, in 32 bits each (they hold them at any size
/// [`super::normalise`] admits: [`super::MAX_VERTICES`] vertices, fewer than 2³¹ pairs), and
/// beside them, in a list of its own, the doubled cost: a scan reads 8 bytes for an edge it
/// passes over (see `State::passes_over`), 24 for one it weighs.
#[derive(Default)]
struct Adjacency {
    ends: Vec<(u32, u32)>,
    c2: Vec<i128>,
}

impl Adjacency {
    /// (remote endpoint, remote vertex).
    #[inline]
    fn ends(&self, i: usize) -> (usize, usize) {
        let (p, w) = self.ends[i];
        (p as usize, w as usize)
    }

    /// Doubled cost.
    #[inline]
    fn c2(&self, i: usize) -> i128 {
        self.c2[i]
    }

    /// (remote endpoint, remote vertex, doubled cost).
    #[inline]
    fn get(&self, i: usize) -> (usize, usize, i128) {
        let (p, w) = self.ends(i);
        (p, w, self.c2[i])
    }
}

/// Labels of top-level blossoms (and of vertices, see `assign_label`).
const FREE: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;
/// Temporary mark used while looking for a common ancestor in `scan_blossom`.
const MARK: u8 = 4;

/// One step of [`State::augment_blossom`]: re-base a blossom on a vertex, match the cycle edge
/// of an endpoint, or rotate a blossom's cycle to start at its new base (child `i`).
/// A candidate dual step, ordered by its value in units of the stage's dual steps (`key`:
/// the step is `key − moved`), then as the steps were once found by scanning `dirty` in order
/// (`pos`, then `kind`), so that ties go the same way. Kind 2: the least-slack edge `which`
/// from a free vertex `x` to the tree; 3: the least-slack edge `which` between outer blossom
/// `x` and another; 4: inner blossom `x` (`which`) whose dual reaches 0.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Step {
    key: i128,
    pos: u32,
    kind: u8,
    x: usize,
    which: usize,
}

/// A new blossom takes the id of its largest outer child, and an expanded inner blossom hands
/// its id to its largest child staying inner, when that child has at least this many
/// vertices (see [`State::add_blossom`], [`State::stays_inner`]): below it, visiting the
/// child's vertices costs less than moving ids. Tests lower it to 2, so that every test
/// moves ids whenever it can.
const KEEP_ID: usize = if cfg!(test) { 2 } else { 32 };

/// A step of [`State::augment_blossom`].
enum Rebase {
    /// Make vertex `v` the base of blossom `b`; `chain` is where the blossoms from `v` up to
    /// `b` are listed in the call's list of chains, from `v` (its start and length).
    Blossom {
        b: usize,
        v: usize,
        chain: (usize, usize),
    },
    Match(usize),
    Rotate(usize, usize),
}

/// Minimum-cost perfect matching of normalised edges (one per pair, `u < v`): `mate[v]` for every
/// vertex, or `None` when no perfect matching exists. `jump_start` false skips the greedy start
/// (tests use it to exercise the stages alone). Debug builds also check the optimality
/// certificate and report a failure as `SolverFailed`.
pub(crate) fn min_cost_perfect_matching(
    n: usize,
    edges: &SimpleEdges,
    jump_start: bool,
) -> Result<Option<Vec<usize>>, MatchingError> {
    solve_with_stats(n, edges, jump_start).map(|(m, _)| m)
}

/// Counts of one run, for tests: blossoms shrunk, deepest blossom nesting created, stages
/// run (one per pair the jump start left unmatched).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RunStats {
    pub formed: usize,
    pub max_nesting: usize,
    pub stages: usize,
    /// Inner blossoms expanded with a child keeping their id ([`State::stays_inner`]).
    pub kept_inner: usize,
}

/// [`min_cost_perfect_matching`] with its [`RunStats`].
pub(crate) fn solve_with_stats(
    n: usize,
    edges: &SimpleEdges,
    jump_start: bool,
) -> Result<(Option<Vec<usize>>, RunStats), MatchingError> {
    let mut s = State::new(n, edges);
    let m = s.run(jump_start, &|| false)?;
    let stats = RunStats {
        formed: s.formed,
        max_nesting: s.max_nesting,
        stages: (s.stage_no - 1) as usize,
        kept_inner: s.kept_count,
    };
    Ok((m, stats))
}

impl State {
    /// The whole algorithm: jump start, then one stage per remaining pair.
    /// `stop` is asked before every stage; when it says so the run ends with `SolverFailed`.
    fn run(
        &mut self,
        jump_start: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<usize>>, MatchingError> {
        if self.n == 0 {
            return Ok(Some(Vec::new()));
        }
        if stop() {
            return Err(stopped());
        }
        if !self.initialise(jump_start) {
            return Ok(None);
        }
        self.stages(stop)
    }

    /// One stage per exposed vertex pair, from the current matching and duals (feasible, the
    /// matched edges tight); then the mates.
    fn stages(&mut self, stop: &dyn Fn() -> bool) -> Result<Option<Vec<usize>>, MatchingError> {
        let n = self.n;
        let s = self;
        let mut exposed = s.mate.iter().filter(|&&p| p == NONE).count();
        let mut next_root = 0;
        while exposed > 0 {
            if stop() {
                return Err(stopped());
            }
            while s.mate[next_root] != NONE {
                next_root += 1;
            }
            if !s.stage(next_root) {
                return Ok(None);
            }
            exposed -= 2;
        }
        debug_assert!(s.moved == 0 && s.sign.iter().all(|&x| x == 0));
        if cfg!(debug_assertions) {
            s.certificate().map_err(|msg| {
                MatchingError::SolverFailed(format!("blossom optimality certificate failed: {msg}"))
            })?;
        }
        Ok(Some((0..n).map(|v| s.endpoint(s.mate[v])).collect()))
    }

    /// Warm start: adds `edges` (normalised; pairs not yet in the problem) to a solved state
    /// and restores what the stages need, keeping the rest of the matching, the blossoms and
    /// the duals. A new edge whose reduced cost `c − y(u) − y(v) + Σ z(B ⊇ {u, v})` is
    /// negative makes the duals infeasible; one of its ends is then *freed*
    /// ([`State::free_vertex`]) and its dual lowered until the edge is tight, which only
    /// raises the reduced costs of its other edges. The result is what a stage assumes:
    /// feasible duals, tight matched edges, every blossom's cycle tight and its base the only
    /// vertex matched outside it (or exposed). The stages then match the exposed vertices.
    fn add_edges(&mut self, edges: &[(usize, usize, i128)]) {
        self.update_edges(&[], &[], edges);
    }

    /// Warm start after a change of the problem: edges `changed` take new costs (`(edge,
    /// cost)`), edges `removed` leave it, `added` join it (numbered from the current count,
    /// in order). What stays valid of the solved state is kept, as in
    /// [`State::add_edges`]: an edge the state relies on being tight (matched, or on a
    /// blossom's cycle) whose cost changed, or which goes, frees one of its ends
    /// ([`State::free_vertex`]); an edge whose reduced cost fell below 0 frees one of its
    /// ends and lowers that end's dual until it is tight. Every other edge keeps a reduced
    /// cost `>= 0`, so the stages only have to rematch the freed vertices.
    fn update_edges(
        &mut self,
        changed: &[(usize, i128)],
        removed: &[usize],
        added: &[(usize, usize, i128)],
    ) {
        let n = self.n;
        // The edges a blossom's cycle holds (a superset of them after each freeing).
        let mut cycle: Vec<usize> = Vec::new();
        if !changed.is_empty() || !removed.is_empty() {
            for b in n..2 * n {
                if self.base[b] != NONE {
                    cycle.extend(self.endps[b].iter().map(|&p| p >> 1));
                }
            }
            cycle.sort_unstable();
        }
        let held =
            |s: &State, k: usize| s.mate[s.eu[k]] == 2 * k + 1 || cycle.binary_search(&k).is_ok();
        let dead = |s: &State, k: usize| s.dead.get(k).copied().unwrap_or(false);
        let mut free = Vec::new();
        let mut check = Vec::new();
        for &k in removed {
            if !dead(self, k) && held(self, k) {
                free.push(self.eu[k]);
            }
        }
        for &(k, c) in changed {
            let (new, old) = (2 * c, self.c2[k]);
            if new == old || dead(self, k) {
                continue;
            }
            if held(self, k) {
                free.push(self.eu[k]);
                check.push(k);
            } else if new < old {
                check.push(k);
            }
        }
        let m0 = self.eu.len();
        self.set_edges(changed, removed, added);
        check.extend(m0..self.eu.len());
        for x in free {
            self.free_vertex(x);
        }
        for k in check {
            if dead(self, k) {
                continue;
            }
            let (u, v) = (self.eu[k], self.ev[k]);
            let reduced = self.slack(k) + self.common_z2(u, v);
            if reduced >= 0 {
                continue;
            }
            let x = if self.mate[v] == NONE && self.inblossom[v] == v {
                v
            } else {
                u
            };
            self.free_vertex(x);
            // Freeing may have moved z into the duals: the reduced cost again, now without
            // blossoms around x.
            let reduced = self.slack(k) + self.common_z2(u, v);
            if reduced < 0 {
                self.dual[x] -= -reduced;
            }
        }
    }

    /// The problem only changes: edges `changed` take new costs, `removed` ones leave the
    /// adjacency (keeping their numbers), `added` ones join, numbered on.
    fn set_edges(
        &mut self,
        changed: &[(usize, i128)],
        removed: &[usize],
        added: &[(usize, usize, i128)],
    ) {
        for &(k, c) in changed {
            self.c2[k] = 2 * c;
        }
        if !removed.is_empty() {
            self.dead.resize(self.eu.len(), false);
            for &k in removed {
                self.dead[k] = true;
            }
        }
        for &(u, v, c) in added {
            self.eu.push(u);
            self.ev.push(v);
            self.c2.push(2 * c);
        }
        if !self.dead.is_empty() {
            self.dead.resize(self.eu.len(), false);
        }
        self.rebuild_adjacency();
    }

    /// The adjacency again from the edges (the removed ones left out). The old one goes
    /// before the new one is built: both at once were the peak of a 10 000-player pairing.
    fn rebuild_adjacency(&mut self) {
        self.adj = Adjacency::default();
        let (adj_start, adj) = csr(self.n, &self.eu, &self.ev, &self.c2, &self.dead);
        self.adj_start = adj_start;
        self.adj = adj;
        self.ver += 1;
    }

    /// Makes `x` an exposed top-level vertex: the base of its top blossom (re-based there,
    /// [`State::augment_blossom`]), unmatched together with its mate outside (the base of
    /// another top blossom); then every blossom holding `x` is undone, its `z` moved into the
    /// duals of its vertices (`y(v) −= z(B)`: the reduced cost of a pair inside `B` stays the
    /// same, of a pair leaving it grows; only the base left `B` matched, and it is now exposed).
    /// So the dual of `x` can be lowered without loosening a blossom's cycle.
    fn free_vertex(&mut self, x: usize) {
        let top = self.inblossom[x];
        let base = self.base[top];
        let outside = self.mate[base];
        if top >= self.n && base != x {
            self.augment_blossom(top, x);
        }
        self.mate[x] = NONE;
        if outside != NONE {
            let w = self.endpoint(outside);
            self.mate[w] = NONE;
        }
        if top < self.n {
            return;
        }
        // The blossoms holding x, and in one walk down the top one each vertex's dual less
        // the z of those of them that hold it too; then their z is 0 and the top one's
        // expansion undoes them all at once (an expansion at the end of a stage undoes the
        // blossoms of dual 0 inside it). Level by level instead, every level visited all the
        // vertices below it again: deep nestings made that quadratic.
        let mut chain = Vec::new();
        let mut c = self.parent[x];
        while c != NONE {
            chain.push(c);
            c = self.parent[c];
        }
        chain.sort_unstable();
        let on_chain = |b: usize| chain.binary_search(&b).is_ok();
        let mut stack = vec![(top, self.dual[top])];
        while let Some((b, z)) = stack.pop() {
            for i in 0..self.childs[b].len() {
                let c = self.childs[b][i];
                if c < self.n {
                    self.dual[c] -= z;
                } else {
                    let zc = if on_chain(c) { z + self.dual[c] } else { z };
                    stack.push((c, zc));
                }
            }
        }
        for &b in &chain {
            self.dual[b] = 0;
        }
        self.expand_blossom(top, true);
        debug_assert_eq!(self.inblossom[x], x);
    }

    /// The same problem with `added` joining, as a new state to solve from scratch (edge
    /// numbers and removed edges kept).
    fn restart(&mut self, added: &[(usize, usize, i128)]) {
        // The old edges and adjacency go before the new ones are built (both at once would
        // double the peak).
        let n = self.n;
        let dead = std::mem::take(&mut self.dead);
        let (eu, ev, c2) = (
            std::mem::take(&mut self.eu),
            std::mem::take(&mut self.ev),
            std::mem::take(&mut self.c2),
        );
        self.adj = Adjacency::default();
        let mut edges: Vec<(usize, usize, i128)> = Vec::with_capacity(eu.len() + added.len());
        edges.extend((0..eu.len()).map(|k| (eu[k], ev[k], c2[k] / 2)));
        drop((eu, ev, c2));
        edges.extend_from_slice(added);
        *self = State::new(n, &edges);
        drop(edges);
        if !dead.is_empty() {
            self.dead = dead;
            self.dead.resize(self.eu.len(), false);
            self.rebuild_adjacency();
        }
    }

    /// `2·Σ z(B)` over the blossoms holding both `u` and `v`.
    fn common_z2(&self, u: usize, v: usize) -> i128 {
        if self.inblossom[u] != self.inblossom[v] {
            return 0;
        }
        let chain = |mut x: usize| {
            let mut c = Vec::new();
            while self.parent[x] != NONE {
                x = self.parent[x];
                c.push(x);
            }
            c
        };
        let (a, b) = (chain(u), chain(v));
        a.iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(p, q)| p == q)
            .map(|(&p, _)| 2 * self.dual[p])
            .sum()
    }
}

/// A number no other blossom of this process has had (see `State::born`): solver states
/// come and go, and their duals are compared across them.
fn next_birth() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static BIRTHS: AtomicU64 = AtomicU64::new(1);
    BIRTHS.fetch_add(1, Ordering::Relaxed)
}

fn stopped() -> MatchingError {
    MatchingError::SolverFailed("stopped before the optimum".into())
}

/// The adjacency of an edge list (CSR): `adj[adj_start[v]..adj_start[v + 1]]` are the edges of
/// `v` as (remote endpoint, remote vertex, twice the cost).
fn csr(
    n: usize,
    eu: &[usize],
    ev: &[usize],
    c2: &[i128],
    dead: &[bool],
) -> (Vec<usize>, Adjacency) {
    let live = |k: usize| !dead.get(k).copied().unwrap_or(false);
    let mut adj_start = vec![0usize; n + 1];
    for k in (0..eu.len()).filter(|&k| live(k)) {
        adj_start[eu[k] + 1] += 1;
        adj_start[ev[k] + 1] += 1;
    }
    for v in 0..n {
        adj_start[v + 1] += adj_start[v];
    }
    let mut fill = adj_start.clone();
    let mut adj = Adjacency {
        ends: vec![(0, 0); adj_start[n]],
        c2: vec![0; adj_start[n]],
    };
    let entry = |p: usize, w: usize| {
        debug_assert!(p <= u32::MAX as usize && w <= u32::MAX as usize);
        (p as u32, w as u32)
    };
    for k in (0..eu.len()).filter(|&k| live(k)) {
        let (u, v) = (eu[k], ev[k]);
        adj.ends[fill[u]] = entry(2 * k + 1, v);
        adj.c2[fill[u]] = c2[k];
        fill[u] += 1;
        adj.ends[fill[v]] = entry(2 * k, u);
        adj.c2[fill[v]] = c2[k];
        fill[v] += 1;
    }
    (adj_start, adj)
}

/// All the state of one run. Ids `0..n` are vertices, `n..2n` blossoms. An edge `k` has the two
/// *endpoints* `2k` (its `u`) and `2k + 1` (its `v`); `p ^ 1` is the other end of endpoint `p`.
struct State {
    n: usize,
    eu: Vec<usize>,
    ev: Vec<usize>,
    /// Twice the edge cost (`i128`: wide costs fit, see [`super::WideEdge`]).
    c2: Vec<i128>,
    /// Edges taken out of the problem by [`State::update_edges`] (empty: none ever was):
    /// they keep their number but leave the adjacency.
    dead: Vec<bool>,
    /// Adjacency (CSR): for vertex `v`, `adj[adj_start[v]..adj_start[v + 1]]` are its edges as
    /// (remote endpoint, remote vertex, twice the cost), so scans read memory sequentially.
    adj_start: Vec<usize>,
    adj: Adjacency,
    /// `mate[v]`: remote endpoint of the matched edge of vertex `v`, or NONE.
    mate: Vec<usize>,
    /// Label of a top-level blossom / of a vertex (FREE, OUTER, INNER).
    label: Vec<u8>,
    /// Endpoint through which a labelled blossom got its label (NONE for a tree root).
    labelend: Vec<usize>,
    /// Top-level blossom containing vertex `v`.
    inblossom: Vec<usize>,
    /// Immediate parent blossom, NONE for top level.
    parent: Vec<usize>,
    /// Sub-blossoms of a blossom around its odd cycle, starting at the base.
    childs: Vec<Vec<usize>>,
    /// Base vertex of a blossom (NONE for an unused blossom id).
    base: Vec<usize>,
    /// `endps[b][i]` = endpoint of the cycle edge from `childs[b][i]` to `childs[b][i + 1]`.
    endps: Vec<Vec<usize>>,
    /// Least-slack edge to an S blossom (for a free/inner vertex or an S blossom).
    bestedge: Vec<usize>,
    /// Cached slack of `bestedge[x]`, valid while `bestver[x] == ver` (duals unchanged since).
    bestslack: Vec<i128>,
    bestver: Vec<u64>,
    /// Incremented at every dual change.
    ver: u64,
    /// Ids whose label / labelend / bestedge / bestedges were set this stage (each once, by
    /// `stamp`): the per-stage resets and the dual steps only visit these.
    dirty: Vec<usize>,
    stamp: Vec<u64>,
    stage_no: u64,
    /// Every vertex that lay in a labelled top blossom this stage (each once, by
    /// `tree_stamp`): a dual step moves each by the label of its top blossom now, with no
    /// walk down the blossom trees.
    tree: Vec<usize>,
    tree_stamp: Vec<u64>,
    /// Scratch list of leaves.
    scratch: Vec<usize>,
    /// While an inner blossom is expanded: its child that stays inner and took its id, so
    /// that the child's vertices keep their top blossom and their sign (NONE otherwise).
    kept_inner: usize,
    /// For an S blossom: least-slack edges to each neighbouring S blossom (None: not computed).
    bestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    /// Doubled duals: `y(v)` for vertices, `z(B)` for blossoms, as of the start of the stage
    /// for ids whose `sign` is not 0: the dual of `x` is `dual[x] + sign[x]·moved` (see
    /// [`State::y`]).
    dual: Vec<i128>,
    /// How the dual of an id follows the stage's dual steps: +1 (outer), −1 (inner), 0 (not
    /// in the tree, or inside a blossom).
    sign: Vec<i8>,
    /// Sum of the stage's dual steps so far (0 between stages, when every `sign` is 0).
    moved: i128,
    /// The candidates for the next dual step (see [`Step`]), least first; entries made stale
    /// by a later change are dropped or re-keyed when they reach the top.
    steps: BinaryHeap<Reverse<Step>>,
    /// Position of an id in `dirty` (ties between equal steps go to the earlier one).
    dirty_pos: Vec<u32>,
    /// Ids whose least-slack edge was set since the last dual step (see `set_best`), each
    /// once: `pending_mark[x] == pending_round`.
    pending: Vec<usize>,
    pending_mark: Vec<u64>,
    pending_round: u64,
    queue: Vec<usize>,
    /// Scratch for `add_blossom`.
    best_to: Vec<usize>,
    best_to_slack: Vec<i128>,
    touched: Vec<usize>,
    /// Vertices in a blossom (1 for a vertex).
    size: Vec<usize>,
    /// Per blossom id, when it took its present meaning (a number unique in the process, see
    /// [`next_birth`]; 0 for vertices): the same id and birth is the same blossom, its inside
    /// unchanged (only a top blossom's own dual moves; what is inside it stays).
    born: Vec<u64>,
    /// Statistics for tests: blossoms shrunk, deepest nesting of blossoms created, inner
    /// blossoms expanded around a kept child.
    formed: usize,
    kept_count: usize,
    max_nesting: usize,
    nesting: Vec<usize>,
}

impl State {
    fn new<C: Copy + Into<i128>>(n: usize, edges: &[(usize, usize, C)]) -> State {
        let eu: Vec<usize> = edges.iter().map(|e| e.0).collect();
        let ev: Vec<usize> = edges.iter().map(|e| e.1).collect();
        let c2: Vec<i128> = edges.iter().map(|e| 2 * e.2.into()).collect();
        let (adj_start, adj) = csr(n, &eu, &ev, &c2, &[]);
        State {
            n,
            eu,
            ev,
            c2,
            dead: Vec::new(),
            adj_start,
            adj,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestedges: vec![None; 2 * n],
            bestslack: vec![0; 2 * n],
            bestver: vec![u64::MAX; 2 * n],
            ver: 0,
            dirty: Vec::new(),
            stamp: vec![0; 2 * n],
            stage_no: 1,
            tree: Vec::new(),
            tree_stamp: vec![0; n],
            scratch: Vec::new(),
            kept_inner: NONE,
            unused: (n..2 * n).rev().collect(),
            dual: vec![0; 2 * n],
            sign: vec![0; 2 * n],
            moved: 0,
            steps: BinaryHeap::new(),
            dirty_pos: vec![0; 2 * n],
            pending: Vec::new(),
            pending_mark: vec![0; 2 * n],
            pending_round: 1,
            queue: Vec::new(),
            best_to: vec![NONE; 2 * n],
            best_to_slack: vec![0; 2 * n],
            touched: Vec::new(),
            born: vec![0; 2 * n],
            formed: 0,
            kept_count: 0,
            max_nesting: 0,
            nesting: vec![0; 2 * n],
            size: vec![1; 2 * n],
        }
    }

    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        if p & 1 == 0 {
            self.eu[p >> 1]
        } else {
            self.ev[p >> 1]
        }
    }

    /// Slack of edge `k` between two different top-level blossoms (doubled units).
    #[inline]
    fn slack(&self, k: usize) -> i128 {
        self.c2[k] - self.y(self.eu[k]) - self.y(self.ev[k])
    }

    /// The dual of `x` now (doubled): what it was when its sign was last set, moved by the
    /// stage's dual steps since.
    #[inline]
    fn y(&self, x: usize) -> i128 {
        match self.sign[x] {
            1 => self.dual[x] + self.moved,
            -1 => self.dual[x] - self.moved,
            _ => self.dual[x],
        }
    }

    /// Sets how the dual of `x` follows the dual steps from now on (its value stays).
    #[inline]
    fn set_sign(&mut self, x: usize, sign: i8) {
        let y = self.y(x);
        self.sign[x] = sign;
        self.dual[x] = y - i128::from(sign) * self.moved;
    }

    /// Sets the dual of `x` to `y` now, following the dual steps by `sign` from now on.
    #[inline]
    fn set_dual(&mut self, x: usize, y: i128, sign: i8) {
        self.sign[x] = sign;
        self.dual[x] = y - i128::from(sign) * self.moved;
    }

    /// The value of a candidate dual step of `kind` at `x` (see [`Step`]) in units of
    /// `moved`, and its edge (or blossom): `None` when it is no longer a candidate.
    fn step_key(&mut self, kind: u8, x: usize) -> Option<(i128, usize)> {
        match kind {
            2 if x < self.n
                && self.label[self.inblossom[x]] == FREE
                && self.bestedge[x] != NONE =>
            {
                Some((self.best_slack(x) + self.moved, self.bestedge[x]))
            }
            3 if self.is_top(x) && self.label[x] == OUTER && self.bestedge[x] != NONE => {
                let s = self.best_slack(x);
                debug_assert!(s % 2 == 0, "odd S-S slack");
                Some((s / 2 + self.moved, self.bestedge[x]))
            }
            4 if x >= self.n && self.is_top(x) && self.label[x] == INNER => {
                Some((self.y(x) + self.moved, x))
            }
            _ => None,
        }
    }

    /// Notes `x` as a candidate of a dual step of `kind`, if it is one now.
    fn push_step(&mut self, kind: u8, x: usize) {
        if let Some((key, which)) = self.step_key(kind, x) {
            self.steps.push(Reverse(Step {
                key,
                pos: self.dirty_pos[x],
                kind,
                x,
                which,
            }));
        }
    }

    /// The least dual step that keeps the duals feasible: its size, kind and edge (kinds 2,
    /// 3) or inner blossom (kind 4). `None`: no step is bounded (no perfect matching).
    fn next_step(&mut self) -> Option<(i128, u8, usize)> {
        // The least-slack edges set since the last step join the heap now, each once with
        // its value now (the same candidates as pushing at every improvement, with fewer
        // entries left stale; ties are ordered by the entries, not by when they came).
        let mut pending = std::mem::take(&mut self.pending);
        self.pending_round += 1;
        for &x in &pending {
            if x < self.n {
                self.push_step(2, x);
            }
            self.push_step(3, x);
        }
        pending.clear();
        self.pending = pending;
        while let Some(&Reverse(top)) = self.steps.peek() {
            match self.step_key(top.kind, top.x) {
                Some((key, which)) if which == top.which && top.pos == self.dirty_pos[top.x] => {
                    if key == top.key {
                        return Some((key - self.moved, top.kind, which));
                    }
                    // Noted while its vertex lay in an inner blossom: its value has grown.
                    debug_assert!(key > top.key, "a dual step shrank");
                    self.steps.pop();
                    self.steps.push(Reverse(Step { key, ..top }));
                }
                _ => {
                    self.steps.pop();
                }
            }
        }
        None
    }

    /// End of a stage: every dual as it now is, all signs 0.
    fn settle(&mut self) {
        for i in 0..self.tree.len() {
            let v = self.tree[i];
            self.set_sign(v, 0);
        }
        for i in 0..self.dirty.len() {
            let x = self.dirty[i];
            if x >= self.n {
                self.set_sign(x, 0);
            }
        }
        self.moved = 0;
    }

    /// Slack of `bestedge[x]` (which must be set), from the cache when the duals are unchanged.
    #[inline]
    fn best_slack(&mut self, x: usize) -> i128 {
        if self.bestver[x] != self.ver {
            self.bestslack[x] = self.slack(self.bestedge[x]);
            self.bestver[x] = self.ver;
        }
        self.bestslack[x]
    }

    /// Note that vertex `v` lies in a labelled blossom this stage (see `tree`).
    #[inline]
    fn enter_tree(&mut self, v: usize) {
        if self.tree_stamp[v] != self.stage_no {
            self.tree_stamp[v] = self.stage_no;
            self.tree.push(v);
        }
    }

    /// Note that `x` got per-stage state (see `dirty`).
    #[inline]
    fn touch(&mut self, x: usize) {
        if self.stamp[x] != self.stage_no {
            self.stamp[x] = self.stage_no;
            self.dirty_pos[x] = self.dirty.len() as u32;
            self.dirty.push(x);
        }
    }

    /// Is `b` a top-level blossom (or top-level vertex) in use?
    #[inline]
    fn is_top(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.base[b] != NONE
    }

    #[inline]
    fn set_best(&mut self, x: usize, k: usize, slack: i128) {
        self.touch(x);
        self.bestedge[x] = k;
        self.bestslack[x] = slack;
        self.bestver[x] = self.ver;
        // Noted for the next dual step, once however often its edge improves before then.
        if self.pending_mark[x] != self.pending_round {
            self.pending_mark[x] = self.pending_round;
            self.pending.push(x);
        }
    }

    #[inline]
    fn neighbours(&self, v: usize) -> std::ops::Range<usize> {
        self.adj_start[v]..self.adj_start[v + 1]
    }

    /// Jump start: feasible even duals, raised greedily, then a greedy matching on tight edges.
    /// Returns false when some vertex has no edge at all (no perfect matching).
    fn initialise(&mut self, jump_start: bool) -> bool {
        let n = self.n;
        // Hubs (vertices with edges to a large part of the graph, such as the bye's) take
        // their duals last: the others start from their edges among themselves, each hub's
        // is then as high as they allow (a lower dual only loosens its edges). Else a hub's
        // cheap edges are every vertex's tightest and the greedy pass below matches one
        // pair (FIDE Dutch, 9 999 players, round 2: the last bracket's exchanges solve
        // matched 4 of 4 012 vertices before its stages and took 48.5 s; now 92 are left
        // unmatched and it takes 4.8 s).
        let hubs = if jump_start { self.hubs() } else { Vec::new() };
        let mut is_hub = vec![false; n];
        for &h in &hubs {
            is_hub[h] = true;
        }
        for v in 0..n {
            if self.neighbours(v).is_empty() {
                return false;
            }
            let least = |among_hubs: bool| {
                self.neighbours(v)
                    .map(|i| self.adj.get(i))
                    .filter(|&(_, w, _)| among_hubs || !is_hub[w])
                    .map(|(_, _, c2)| c2)
                    .min()
            };
            let min = least(is_hub[v]).or_else(|| least(true)).unwrap_or(0);
            // min is even (doubled cost); halve and round down to even: y(v) <= cost of each edge.
            self.dual[v] = (min / 2).div_euclid(2) * 2;
        }
        if !jump_start {
            return true;
        }
        for &h in &hubs {
            self.dual[h] = self.raised(h);
        }
        for v in (0..n).filter(|&v| !is_hub[v]).chain(hubs) {
            self.dual[v] = self.raised(v);
        }
        for v in 0..n {
            if self.mate[v] != NONE {
                continue;
            }
            for i in self.neighbours(v) {
                let (p, w) = self.adj.ends(i);
                if self.mate[w] == NONE && self.slack(p >> 1) == 0 {
                    self.mate[v] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
        // A few passes of augmenting along simple alternating paths of tight edges (no blossom
        // shrinking: whatever they miss, the stages find).
        for _ in 0..4 {
            if self.tight_augment_pass() == 0 {
                break;
            }
        }
        true
    }

    /// The highest dual `v` may take, the others' as they stand.
    fn raised(&self, v: usize) -> i128 {
        self.neighbours(v)
            .map(|i| {
                let (_, w, c2) = self.adj.get(i);
                c2 - self.dual[w]
            })
            .min()
            .unwrap_or(0)
    }

    /// The vertices with edges to more than a quarter of the others, when they are few (at
    /// most one in 16; none in a dense graph, where every vertex has as many).
    fn hubs(&self) -> Vec<usize> {
        let n = self.n;
        if n < 64 {
            return Vec::new();
        }
        let hubs: Vec<usize> = (0..n)
            .filter(|&v| self.neighbours(v).len() > n / 4)
            .collect();
        if hubs.len() > n / 16 {
            return Vec::new();
        }
        hubs
    }

    /// One pass of depth-first searches for augmenting paths made of tight edges, from every
    /// unmatched vertex, each vertex visited at most once per pass (as in Hopcroft–Karp). The
    /// duals do not change, and matched edges stay tight. Returns the number of augmentations.
    fn tight_augment_pass(&mut self) -> usize {
        let n = self.n;
        let mut visited = vec![false; n];
        // Stack of (even vertex x_i, next adjacency index, endpoint p_i used to reach w_i).
        let mut stack: Vec<(usize, usize, usize)> = Vec::new();
        let mut found = 0;
        for r in 0..n {
            if self.mate[r] != NONE || visited[r] {
                continue;
            }
            visited[r] = true;
            stack.clear();
            stack.push((r, self.adj_start[r], NONE));
            while let Some(&(x, idx, _)) = stack.last() {
                if idx == self.adj_start[x + 1] {
                    stack.pop();
                    continue;
                }
                stack.last_mut().expect("non-empty").1 += 1;
                let (p, w, c2) = self.adj.get(idx);
                if visited[w] || c2 != self.dual[x] + self.dual[w] {
                    continue;
                }
                visited[w] = true;
                if self.mate[w] == NONE {
                    // Augment: x_k–w joins, then each x_{i-1}–w_i along the stack.
                    let mut q = p;
                    for i in (0..stack.len()).rev() {
                        let xi = stack[i].0;
                        let wq = self.endpoint(q);
                        self.mate[xi] = q;
                        self.mate[wq] = q ^ 1;
                        q = stack[i].2;
                    }
                    found += 1;
                    break;
                }
                let x2 = self.endpoint(self.mate[w]);
                if visited[x2] {
                    continue;
                }
                visited[x2] = true;
                stack.push((x2, self.adj_start[x2], p));
            }
        }
        found
    }

    /// Push the leaf vertices of blossom `b` onto `out`.
    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        self.leaves_but(b, NONE, out);
    }

    /// [`State::leaves`] without those of the sub-blossom `skip`, the others in the same order.
    fn leaves_but(&self, b: usize, skip: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            for &c in self.childs[x].iter().rev() {
                if c < self.n {
                    out.push(c);
                } else if c != skip {
                    stack.push(c);
                }
            }
        }
    }

    fn leaves_vec(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    /// Label vertex `w` (and its top blossom) with `t`, reached through endpoint `p`. An inner
    /// blossom's mate is labelled outer in turn.
    fn assign_label(&mut self, mut w: usize, mut t: u8, mut p: usize) {
        loop {
            let b = self.inblossom[w];
            self.touch(w);
            self.touch(b);
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            let sign = if t == OUTER { 1 } else { -1 };
            if b >= self.n {
                self.set_sign(b, sign);
            }
            if t == OUTER {
                let mut q = std::mem::take(&mut self.queue);
                let from = q.len();
                self.leaves(b, &mut q);
                for &v in &q[from..] {
                    self.enter_tree(v);
                    self.set_sign(v, sign);
                }
                self.queue = q;
                return;
            }
            if b != self.kept_inner {
                let mut leaves = std::mem::take(&mut self.scratch);
                leaves.clear();
                self.leaves(b, &mut leaves);
                for &v in &leaves {
                    self.enter_tree(v);
                    self.set_sign(v, sign);
                }
                self.scratch = leaves;
            }
            self.push_step(4, b);
            // Inner: the base is matched (reaching an unmatched base augments instead).
            let mb = self.mate[self.base[b]];
            w = self.endpoint(mb);
            t = OUTER;
            p = mb ^ 1;
        }
    }

    /// Trace back from `v` and `w` (both outer) to find the base of a new blossom, or NONE when
    /// they lie in different trees (augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & MARK != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = OUTER | MARK;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b]);
                b = self.inblossom[v];
                v = self.endpoint(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = OUTER;
        }
        base
    }

    /// Shrink the odd cycle closed by tight edge `k` (through the common ancestor `base`) into a
    /// new outer blossom.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.eu[k], self.ev[k]);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("blossom ids exhausted");
        self.born[b] = next_birth();
        self.touch(b);
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut childs = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            childs.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        childs.push(bb);
        childs.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            childs.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.childs[b] = childs;
        self.endps[b] = endps;
        self.label[b] = OUTER;
        self.labelend[b] = self.labelend[bb];
        self.set_dual(b, 0, 1);
        self.formed += 1;
        let depth = 1 + self.childs[b]
            .iter()
            .map(|&c| self.nesting[c])
            .max()
            .unwrap_or(0);
        self.nesting[b] = depth;
        self.max_nesting = self.max_nesting.max(depth);
        let mut size = 0;
        let mut largest = NONE;
        for i in 0..self.childs[b].len() {
            let c = self.childs[b][i];
            size += self.size[c];
            if c >= self.n {
                self.set_sign(c, 0);
                if self.label[c] == OUTER
                    && self.size[c] >= KEEP_ID
                    && (largest == NONE || self.size[c] > self.size[largest])
                {
                    largest = c;
                }
            }
        }
        self.size[b] = size;
        // The largest outer child's vertices already follow the dual steps as outer and need
        // no scan: the new blossom takes that child's id (the child another), so that they
        // keep their `inblossom` too; only the other children's vertices are visited.
        let id = if largest == NONE { b } else { largest };
        let mut leaves = std::mem::take(&mut self.scratch);
        leaves.clear();
        self.leaves_but(b, largest, &mut leaves);
        for &v in &leaves {
            if self.label[self.inblossom[v]] == INNER {
                self.queue.push(v);
            }
            self.inblossom[v] = id;
            self.set_sign(v, 1);
        }
        self.scratch = leaves;
        if largest != NONE {
            self.swap_ids(b, largest);
        }
        let b = id;
        // Least-slack edges from the new blossom to each neighbouring outer blossom.
        let childs = self.childs[b].clone();
        for &c in &childs {
            match self.bestedges[c].take() {
                Some(list) => {
                    for k2 in list {
                        let (i, j) = (self.eu[k2], self.ev[k2]);
                        let j = if self.inblossom[j] == b { i } else { j };
                        self.consider_best_to(b, j, k2, |s| s.slack(k2));
                    }
                }
                None => {
                    for v in self.leaves_vec(c) {
                        let yv = self.y(v);
                        for i in self.neighbours(v) {
                            let (p, w) = self.adj.ends(i);
                            self.consider_best_to(b, w, p >> 1, |s| s.adj.c2(i) - yv - s.y(w));
                        }
                    }
                }
            }
            self.bestedge[c] = NONE;
        }
        let touched = std::mem::take(&mut self.touched);
        let mut list = Vec::with_capacity(touched.len());
        let mut best = NONE;
        let mut best_slack = 0;
        for &x in &touched {
            let k2 = self.best_to[x];
            self.best_to[x] = NONE;
            if best == NONE || self.best_to_slack[x] < best_slack {
                best = k2;
                best_slack = self.best_to_slack[x];
            }
            list.push(k2);
        }
        self.touched = touched;
        self.touched.clear();
        self.bestedges[b] = Some(list);
        if best != NONE {
            self.set_best(b, best, best_slack);
        } else {
            self.bestedge[b] = NONE;
        }
    }

    /// Exchanges the ids of blossoms `a` and `b` (their cycles, labels, duals, least-slack
    /// edges; the links of their children and parents), not the `inblossom` of their
    /// vertices, which the caller sets; their places in `dirty` go with them (both must be
    /// there), so steps noted under the old ids are stale.
    fn swap_ids(&mut self, a: usize, b: usize) {
        debug_assert!(a >= self.n && b >= self.n);
        debug_assert!(self.stamp[a] == self.stage_no && self.stamp[b] == self.stage_no);
        self.born[a] = next_birth();
        self.born[b] = next_birth();
        self.label.swap(a, b);
        self.labelend.swap(a, b);
        self.parent.swap(a, b);
        self.childs.swap(a, b);
        self.base.swap(a, b);
        self.endps.swap(a, b);
        self.bestedge.swap(a, b);
        self.bestslack.swap(a, b);
        self.bestver.swap(a, b);
        self.bestedges.swap(a, b);
        self.dual.swap(a, b);
        self.sign.swap(a, b);
        self.nesting.swap(a, b);
        self.size.swap(a, b);
        // The order of ties between dual steps goes with the blossom, not with its id.
        self.dirty_pos.swap(a, b);
        let rename = |x: usize| {
            if x == a {
                b
            } else if x == b {
                a
            } else {
                x
            }
        };
        self.parent[a] = rename(self.parent[a]);
        self.parent[b] = rename(self.parent[b]);
        // Every list that may name `a` or `b`, renamed once.
        let mut lists = vec![a, b];
        for x in [a, b] {
            let p = self.parent[x];
            if p != NONE && !lists.contains(&p) {
                lists.push(p);
            }
        }
        for x in lists {
            for i in 0..self.childs[x].len() {
                self.childs[x][i] = rename(self.childs[x][i]);
            }
        }
        for x in [a, b] {
            for i in 0..self.childs[x].len() {
                let c = self.childs[x][i];
                self.parent[c] = x;
            }
        }
    }

    /// Edge `k` leads from the new blossom `b` to vertex `j`: keep it if it is the least-slack
    /// edge so far to `j`'s outer blossom. Its slack is only worked out (by `slack`, which
    /// reads its cost and duals) when `j` lies in another outer blossom.
    #[inline]
    fn consider_best_to(
        &mut self,
        b: usize,
        j: usize,
        k: usize,
        slack: impl FnOnce(&State) -> i128,
    ) {
        let bj = self.inblossom[j];
        if bj != b && self.label[bj] == OUTER {
            let slack = slack(self);
            let cur = self.best_to[bj];
            if cur == NONE {
                self.touched.push(bj);
                self.best_to[bj] = k;
                self.best_to_slack[bj] = slack;
            } else if slack < self.best_to_slack[bj] {
                self.best_to[bj] = k;
                self.best_to_slack[bj] = slack;
            }
        }
    }

    /// Undo blossom `b` (top level): its children become top-level. At the end of a stage
    /// (`endstage`) sub-blossoms whose dual is zero are undone too, at any depth; inside a stage
    /// an inner blossom's children are relabelled along the even side of its cycle.
    ///
    /// The nesting can be thousands of levels deep (a large section of equal players), so the
    /// sub-blossoms are undone from an explicit stack of (blossom, children, next child), in the
    /// order a recursion would take, not by recursion: no input can overflow a thread's stack.
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        // Inside a stage (an inner blossom whose dual reached 0): its vertices stop following
        // the dual steps until their new top blossoms are labelled; those with an edge to the
        // tree are candidates of a dual step again if they are left free.
        let mut reached = Vec::new();
        let mut b = b;
        let mut kept = NONE;
        if !endstage && self.label[b] == INNER {
            if let Some(c) = self.stays_inner(b) {
                // The child takes the blossom's id: its vertices already lie in a top blossom
                // of that id following the dual steps as inner, and need no visit.
                self.touch(c);
                self.swap_ids(b, c);
                self.kept_count += 1;
                kept = b;
                b = c;
            }
        }
        let mut frames = vec![(b, std::mem::take(&mut self.childs[b]), 0usize)];
        while let Some((_, childs, next)) = frames.last_mut() {
            if let Some(&s) = childs.get(*next) {
                *next += 1;
                self.parent[s] = NONE;
                if s == kept {
                    continue;
                }
                if s < self.n {
                    self.inblossom[s] = s;
                    if !endstage {
                        self.set_sign(s, 0);
                        if self.bestedge[s] != NONE {
                            reached.push(s);
                        }
                    }
                } else if endstage && self.dual[s] == 0 {
                    let sub = std::mem::take(&mut self.childs[s]);
                    frames.push((s, sub, 0));
                } else {
                    let mut leaves = std::mem::take(&mut self.scratch);
                    leaves.clear();
                    self.leaves(s, &mut leaves);
                    for &v in &leaves {
                        self.inblossom[v] = s;
                    }
                    if !endstage {
                        for &v in &leaves {
                            self.set_sign(v, 0);
                            if self.bestedge[v] != NONE {
                                reached.push(v);
                            }
                        }
                    }
                    self.scratch = leaves;
                }
                continue;
            }
            let (x, childs, _) = frames.pop().expect("a frame");
            let endps = std::mem::take(&mut self.endps[x]);
            if !endstage && self.label[x] == INNER {
                self.kept_inner = kept;
                self.relabel_inner_children(x, &childs, &endps);
                self.kept_inner = NONE;
            }
            self.label[x] = FREE;
            self.labelend[x] = NONE;
            self.base[x] = NONE;
            self.bestedges[x] = None;
            self.bestedge[x] = NONE;
            self.set_dual(x, 0, 0);
            self.unused.push(x);
        }
        for v in reached {
            self.push_step(2, v);
        }
    }

    /// The largest child of the inner top blossom `b` (at least [`KEEP_ID`] vertices) when
    /// its expansion will label it inner: it lies on the even path of the cycle from the
    /// child holding the entry vertex (the one `b` was reached through) to the base, at an
    /// even distance from the entry (see [`State::relabel_inner_children`]). The entry
    /// child is found among the smaller children's vertices (the expansion visits them
    /// anyway); none of them holds the entry: the largest child does.
    fn stays_inner(&mut self, b: usize) -> Option<usize> {
        let childs = &self.childs[b];
        let len = childs.len();
        let big = (0..len).max_by_key(|&i| self.size[childs[i]])?;
        let c = childs[big];
        if c < self.n || self.size[c] < KEEP_ID {
            return None;
        }
        let entry = self.endpoint(self.labelend[b] ^ 1);
        let mut leaves = std::mem::take(&mut self.scratch);
        let mut j = big;
        for (i, &s) in childs.iter().enumerate() {
            if i == big {
                continue;
            }
            leaves.clear();
            self.leaves(s, &mut leaves);
            if leaves.contains(&entry) {
                j = i;
                break;
            }
        }
        self.scratch = leaves;
        // From the entry child the path runs to the base (index 0) the even way round; the
        // children at an even distance from the entry along it are labelled inner.
        let along = if j % 2 == 1 { len - j } else { j };
        let from_entry = if j % 2 == 1 {
            (big + len - j) % len
        } else {
            (j + len - big) % len
        };
        (from_entry <= along && from_entry % 2 == 0).then_some(c)
    }

    /// Inside a stage, the children of the expanded inner blossom `b` (cycle `childs`, `endps`)
    /// keep the tree alternating: those on the even path from the entry child to the base are
    /// labelled inner and outer in turn, the others stay free unless reached from outside.
    fn relabel_inner_children(&mut self, b: usize, childs: &[usize], endps: &[usize]) {
        let len = childs.len() as isize;
        let at = |list: &[usize], j: isize| list[j.rem_euclid(len) as usize];
        let entrychild = self.inblossom[self.endpoint(self.labelend[b] ^ 1)];
        let mut j = childs
            .iter()
            .position(|&c| c == entrychild)
            .expect("entry child") as isize;
        let (jstep, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let mut p = self.labelend[b];
        while j != 0 {
            let a = self.endpoint(p ^ 1);
            self.label[a] = FREE;
            let q = at(endps, j - trick as isize) ^ trick ^ 1;
            let qa = self.endpoint(q);
            self.label[qa] = FREE;
            self.assign_label(a, INNER, p);
            j += jstep;
            p = at(endps, j - trick as isize) ^ trick;
            j += jstep;
        }
        let bv = at(childs, j);
        let a = self.endpoint(p ^ 1);
        self.touch(a);
        self.touch(bv);
        self.label[a] = INNER;
        self.label[bv] = INNER;
        if bv >= self.n {
            self.set_sign(bv, -1);
            self.push_step(4, bv);
        }
        if bv != self.kept_inner {
            let mut leaves = std::mem::take(&mut self.scratch);
            leaves.clear();
            self.leaves(bv, &mut leaves);
            for &v in &leaves {
                self.set_sign(v, -1);
            }
            self.scratch = leaves;
        }
        self.labelend[a] = p;
        self.labelend[bv] = p;
        self.bestedge[bv] = NONE;
        j += jstep;
        while at(childs, j) != entrychild {
            let bv = at(childs, j);
            if self.label[bv] == OUTER {
                j += jstep;
                continue;
            }
            let found = self
                .leaves_vec(bv)
                .into_iter()
                .find(|&v| self.label[v] != FREE);
            if let Some(v) = found {
                self.label[v] = FREE;
                let m = self.endpoint(self.mate[self.base[bv]]);
                self.label[m] = FREE;
                self.assign_label(v, INNER, self.labelend[v]);
            }
            j += jstep;
        }
    }

    /// Swap matched/unmatched edges inside blossom `b` so that vertex `v` becomes its base.
    ///
    /// Sub-blossoms on the path are re-based in turn, as deep as the nesting goes: the steps
    /// wait on an explicit stack (in the order a recursion would take them), not on the
    /// thread's stack.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let n = self.n;
        // Each vertex's blossoms up to the one it rebases, listed once: the child of a
        // blossom that holds the vertex is the entry before it, not a walk up the nesting
        // (thousands of levels deep, walked again at each level, it cost more than the rest
        // of the rebasing).
        let mut chains: Vec<usize> = Vec::new();
        let chain_of = |x: usize, top: usize, chains: &mut Vec<usize>| {
            let from = chains.len();
            let mut t = x;
            chains.push(t);
            while t != top {
                t = self.parent[t];
                chains.push(t);
            }
            (from, chains.len() - from)
        };
        let chain = chain_of(v, b, &mut chains);
        let mut todo = vec![Rebase::Blossom { b, v, chain }];
        let mut plan = Vec::new();
        while let Some(step) = todo.pop() {
            let (b, v, (from, len)) = match step {
                Rebase::Blossom { b, v, chain } => (b, v, chain),
                Rebase::Match(p) => {
                    let (x, y) = (self.endpoint(p), self.endpoint(p ^ 1));
                    self.mate[x] = p ^ 1;
                    self.mate[y] = p;
                    continue;
                }
                Rebase::Rotate(b, i) => {
                    self.childs[b].rotate_left(i);
                    self.endps[b].rotate_left(i);
                    self.base[b] = self.base[self.childs[b][0]];
                    continue;
                }
            };
            // The steps of blossom `b`; its own cycle is only rotated by its last step.
            debug_assert_eq!(chains[from + len - 1], b);
            let t = chains[from + len - 2];
            if t >= n {
                plan.push(Rebase::Blossom {
                    b: t,
                    v,
                    chain: (from, len - 1),
                });
            }
            let len = self.childs[b].len() as isize;
            let i = self.childs[b].iter().position(|&c| c == t).expect("child");
            let mut j = i as isize;
            let (jstep, trick): (isize, usize) = if i & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let idx = |j: isize| j.rem_euclid(len) as usize;
            while j != 0 {
                j += jstep;
                let t = self.childs[b][idx(j)];
                let p = self.endps[b][idx(j - trick as isize)] ^ trick;
                if t >= n {
                    let x = self.endpoint(p);
                    let chain = chain_of(x, t, &mut chains);
                    plan.push(Rebase::Blossom { b: t, v: x, chain });
                }
                j += jstep;
                let t = self.childs[b][idx(j)];
                if t >= n {
                    let x = self.endpoint(p ^ 1);
                    let chain = chain_of(x, t, &mut chains);
                    plan.push(Rebase::Blossom { b: t, v: x, chain });
                }
                plan.push(Rebase::Match(p));
            }
            plan.push(Rebase::Rotate(b, i));
            todo.extend(plan.drain(..).rev());
        }
    }

    /// Flip the augmenting path through tight edge `k` (between two different trees).
    fn augment_matching(&mut self, k: usize) {
        for (mut s, mut p) in [(self.eu[k], 2 * k + 1), (self.ev[k], 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.labelend[bs]);
                let bt = self.inblossom[t];
                s = self.endpoint(self.labelend[bt]);
                let j = self.endpoint(self.labelend[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// One stage: grow a tree from `root` until an augmentation. False when no perfect matching
    /// exists.
    fn stage(&mut self, root: usize) -> bool {
        for x in std::mem::take(&mut self.dirty) {
            self.label[x] = FREE;
            self.labelend[x] = NONE;
            self.bestedge[x] = NONE;
            self.bestedges[x] = None;
        }
        self.stage_no += 1;
        self.queue.clear();
        self.tree.clear();
        self.steps.clear();
        self.pending.clear();
        self.pending_round += 1;
        debug_assert_eq!(self.moved, 0);
        self.assign_label(root, OUTER, NONE);
        loop {
            while let Some(v) = self.queue.pop() {
                let yv = self.y(v);
                for i in self.neighbours(v) {
                    let (p, w) = self.adj.ends(i);
                    // Most edges of a large blossom lie inside it: passed over before their
                    // cost and far end's dual are read.
                    if self.passes_over(self.inblossom[v], w) {
                        continue;
                    }
                    if self.scan_edge(v, p, w, self.adj.c2(i) - yv - self.y(w)) {
                        return true;
                    }
                }
            }
            // No tight edge helps: the least dual step that keeps the duals feasible.
            let Some((delta, kind, which)) = self.next_step() else {
                self.settle();
                return false;
            };
            self.ver += 1;
            self.moved += delta;
            match kind {
                2 | 3 => {
                    // The edge just became tight: handle it from its outer end.
                    let (i, j) = (self.eu[which], self.ev[which]);
                    let (v, p, w) = if self.label[self.inblossom[i]] == OUTER {
                        (i, 2 * which + 1, j)
                    } else {
                        (j, 2 * which, i)
                    };
                    debug_assert_eq!(self.slack(which), 0);
                    if self.scan_edge(v, p, w, 0) {
                        return true;
                    }
                }
                _ => self.expand_blossom(which, false),
            }
        }
    }

    /// The final duals (doubled), with the blossom nesting.
    fn duals(&self) -> Duals {
        let n = self.n;
        let mut z2 = vec![0i128; 2 * n];
        let mut parent = vec![NONE; 2 * n];
        for x in 0..2 * n {
            if x < n || self.base[x] != NONE {
                parent[x] = self.parent[x];
            }
            if x >= n && self.base[x] != NONE {
                z2[x] = 2 * self.dual[x];
            }
        }
        let born = (0..2 * n)
            .map(|x| {
                if x >= n && self.base[x] != NONE {
                    self.born[x]
                } else {
                    0
                }
            })
            .collect();
        Duals::new(self.dual[..n].to_vec(), parent, z2).with_births(born)
    }

    /// Check the LP optimality certificate of the final state: the matching is perfect and
    /// tight, every reduced cost `2c - y(u) - y(v) + 2·sum z(B ⊇ {u, v})` is `>= 0`, every
    /// `z(B) >= 0`, and every blossom with `z(B) > 0` holds `(|B| - 1) / 2` matched edges.
    /// Together these prove the matching optimal (LP duality). Run in debug builds and tests.
    fn certificate(&self) -> Result<(), String> {
        let n = self.n;
        let chain = |v: usize| {
            let mut c = Vec::new();
            let mut x = self.parent[v];
            while x != NONE {
                c.push(x);
                x = self.parent[x];
            }
            c.reverse(); // top-level first
            c
        };
        let chains: Vec<Vec<usize>> = (0..n).map(chain).collect();
        let common = |a: usize, b: usize| {
            chains[a]
                .iter()
                .zip(&chains[b])
                .take_while(|(x, y)| x == y)
                .map(|(x, _)| *x)
                .collect::<Vec<_>>()
        };
        for b in n..2 * n {
            if self.base[b] != NONE && self.dual[b] < 0 {
                return Err(format!("blossom {b} has negative dual"));
            }
        }
        for k in 0..self.eu.len() {
            if self.dead.get(k).copied().unwrap_or(false) {
                continue;
            }
            let (i, j) = (self.eu[k], self.ev[k]);
            let mut s = self.slack(k);
            for b in common(i, j) {
                s += 2 * self.dual[b];
            }
            if s < 0 {
                return Err(format!("edge {i}-{j} has negative reduced cost {s}"));
            }
            let matched = self.mate[i] == 2 * k + 1;
            if matched != (self.mate[j] == 2 * k) {
                return Err(format!("edge {i}-{j} matched on one side only"));
            }
            if matched && s != 0 {
                return Err(format!("matched edge {i}-{j} is not tight ({s})"));
            }
        }
        let mut inside = vec![0usize; 2 * n];
        let mut size = vec![0usize; 2 * n];
        for (v, chain) in chains.iter().enumerate() {
            if self.mate[v] == NONE {
                return Err(format!("vertex {v} unmatched"));
            }
            for &b in chain {
                size[b] += 1;
            }
            for b in common(v, self.endpoint(self.mate[v])) {
                inside[b] += 1;
            }
        }
        for b in n..2 * n {
            if self.base[b] != NONE && self.dual[b] > 0 && inside[b] + 1 != size[b] {
                return Err(format!("blossom {b} with positive dual is not full"));
            }
        }
        Ok(())
    }

    /// An edge from the outer top blossom `bv` to vertex `w` that [`State::scan_edge`] notes
    /// nothing for, whatever its slack: one inside `bv`, or one to a vertex of an inner
    /// blossom already reached.
    #[inline]
    fn passes_over(&self, bv: usize, w: usize) -> bool {
        let bw = self.inblossom[w];
        bw == bv || (self.label[bw] == INNER && self.label[w] != FREE)
    }

    /// Look at the edge from outer vertex `v` to `w = endpoint(p)` with slack `kslack`: grow the
    /// tree, shrink a blossom or augment along it when tight, else remember it as a candidate
    /// for the next dual step. True when the stage ended with an augmentation.
    fn scan_edge(&mut self, v: usize, p: usize, w: usize, kslack: i128) -> bool {
        let k = p >> 1;
        let (bv, bw) = (self.inblossom[v], self.inblossom[w]);
        if self.passes_over(bv, w) {
            return false;
        }
        if kslack == 0 {
            if self.label[bw] == FREE {
                if self.mate[self.base[bw]] == NONE {
                    // Reached another unmatched (free) blossom: augmenting path.
                    self.augment_matching(k);
                    self.end_stage();
                    return true;
                }
                self.assign_label(w, INNER, p ^ 1);
            } else if self.label[bw] == OUTER {
                let base = self.scan_blossom(v, w);
                if base != NONE {
                    self.add_blossom(base, k);
                } else {
                    // Different roots (cannot happen with one tree per stage; kept for safety).
                    self.augment_matching(k);
                    self.end_stage();
                    return true;
                }
            } else if self.label[w] == FREE {
                // w lies inside an inner blossom: note how it was reached, for its expansion.
                self.touch(w);
                self.label[w] = INNER;
                self.labelend[w] = p ^ 1;
            }
        } else if self.label[bw] == OUTER {
            if self.bestedge[bv] == NONE || kslack < self.best_slack(bv) {
                self.set_best(bv, k, kslack);
            }
        } else if self.label[w] == FREE && (self.bestedge[w] == NONE || kslack < self.best_slack(w))
        {
            self.set_best(w, k, kslack);
        }
        false
    }

    /// After an augmentation: expand outer blossoms whose dual reached zero.
    fn end_stage(&mut self) {
        self.settle();
        for i in 0..self.dirty.len() {
            let b = self.dirty[i];
            if b >= self.n && self.is_top(b) && self.label[b] == OUTER && self.dual[b] == 0 {
                self.expand_blossom(b, true);
            }
        }
    }
}
