//! Edmonds' weighted blossom algorithm for minimum-cost perfect matching (exact, integer).
//!
//! # The method
//! Minimum-cost perfect matching is a linear programme once the "odd set" constraints are added
//! (Edmonds 1965): every odd set `B` of vertices must be left by at least one matched edge. Its
//! dual gives every vertex `v` a free value `y(v)` and every odd set (a *blossom*) a value
//! `z(B) >= 0`; an edge is *tight* when its reduced cost (slack) is zero. The primal-dual
//! algorithm keeps a matching made of tight edges and feasible duals, and grows it:
//!
//! 1. A *stage* labels every unmatched vertex (or the top blossom holding it) `S` (outer) and
//!    grows alternating trees from them along tight edges: a tight edge S–free labels the free
//!    blossom `T` (inner) and its mate `S`; a tight S–S edge inside one tree closes an odd cycle,
//!    which is shrunk into a new blossom (a super-vertex labelled S); a tight S–S edge between two
//!    trees is an augmenting path: flipping it grows the matching by one pair and ends the stage.
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
//!   edges allow, and a greedy pass matches the tight edges. On Swiss models (many equal costs)
//!   this matches most vertices before the first stage.
//! * Only the edges incident to labelled vertices are scanned (adjacency lists, no n×n matrix),
//!   and per-stage resets touch only what the stage changed.
//!
//! Worst case O(n·(m + n²))-ish (n stages, each O(n) dual updates costing O(n) plus edge scans);
//! the measured behaviour on Swiss-like graphs is reported in the project benchmarks.

use super::{cost_bound, matching_cost, normalise, Matching, MatchingError, MatchingProblem};
use super::{MatchingSolver, SimpleEdges};

/// The exact blossom solver (pure Rust, the default). See the module doc.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlossomSolver;

impl MatchingSolver for BlossomSolver {
    fn name(&self) -> &'static str {
        "blossom"
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
}

const NONE: usize = usize::MAX;

/// Labels of top-level blossoms (and of vertices, see `assign_label`).
const FREE: u8 = 0;
const OUTER: u8 = 1;
const INNER: u8 = 2;
/// Temporary mark used while looking for a common ancestor in `scan_blossom`.
const MARK: u8 = 4;

/// Minimum-cost perfect matching of normalised edges (one per pair, `u < v`): `mate[v]` for every
/// vertex, or `None` when no perfect matching exists. `jump_start` false skips the greedy start
/// (tests use it to exercise the stages alone). Debug builds also check the optimality
/// certificate and report a failure as `SolverFailed`.
pub(crate) fn min_cost_perfect_matching(
    n: usize,
    edges: &SimpleEdges,
    jump_start: bool,
) -> Result<Option<Vec<usize>>, MatchingError> {
    if n == 0 {
        return Ok(Some(Vec::new()));
    }
    let mut s = State::new(n, edges);
    if !s.initialise(jump_start) {
        return Ok(None);
    }
    let mut exposed = s.mate.iter().filter(|&&p| p == NONE).count();
    while exposed > 0 {
        if !s.stage() {
            return Ok(None);
        }
        exposed -= 2;
    }
    if cfg!(debug_assertions) {
        s.certificate().map_err(|msg| {
            MatchingError::SolverFailed(format!("blossom optimality certificate failed: {msg}"))
        })?;
    }
    Ok(Some((0..n).map(|v| s.endpoint(s.mate[v])).collect()))
}

/// All the state of one run. Ids `0..n` are vertices, `n..2n` blossoms. An edge `k` has the two
/// *endpoints* `2k` (its `u`) and `2k + 1` (its `v`); `p ^ 1` is the other end of endpoint `p`.
struct State {
    n: usize,
    eu: Vec<usize>,
    ev: Vec<usize>,
    /// Twice the edge cost.
    c2: Vec<i128>,
    /// Adjacency (CSR): for vertex `v`, `adj[adj_start[v]..adj_start[v + 1]]` are the remote
    /// endpoints of its edges.
    adj_start: Vec<usize>,
    adj: Vec<usize>,
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
    /// For an S blossom: least-slack edges to each neighbouring S blossom (None: not computed).
    bestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    /// Doubled duals: `y(v)` for vertices, `z(B)` for blossoms.
    dual: Vec<i128>,
    /// Edge known to be tight in this stage.
    allow: Vec<bool>,
    allowed_list: Vec<usize>,
    queue: Vec<usize>,
    /// Scratch for `add_blossom`.
    best_to: Vec<usize>,
    touched: Vec<usize>,
}

impl State {
    fn new(n: usize, edges: &SimpleEdges) -> State {
        let m = edges.len();
        let mut deg = vec![0usize; n + 1];
        for &(u, v, _) in edges {
            deg[u] += 1;
            deg[v] += 1;
        }
        let mut adj_start = vec![0usize; n + 1];
        for v in 0..n {
            adj_start[v + 1] = adj_start[v] + deg[v];
        }
        let mut fill = adj_start.clone();
        let mut adj = vec![0usize; 2 * m];
        for (k, &(u, v, _)) in edges.iter().enumerate() {
            adj[fill[u]] = 2 * k + 1;
            fill[u] += 1;
            adj[fill[v]] = 2 * k;
            fill[v] += 1;
        }
        State {
            n,
            eu: edges.iter().map(|e| e.0).collect(),
            ev: edges.iter().map(|e| e.1).collect(),
            c2: edges.iter().map(|e| 2 * e.2 as i128).collect(),
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
            unused: (n..2 * n).rev().collect(),
            dual: vec![0; 2 * n],
            allow: vec![false; m],
            allowed_list: Vec::new(),
            queue: Vec::new(),
            best_to: vec![NONE; 2 * n],
            touched: Vec::new(),
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
        self.c2[k] - self.dual[self.eu[k]] - self.dual[self.ev[k]]
    }

    #[inline]
    fn neighbours(&self, v: usize) -> std::ops::Range<usize> {
        self.adj_start[v]..self.adj_start[v + 1]
    }

    /// Jump start: feasible even duals, raised greedily, then a greedy matching on tight edges.
    /// Returns false when some vertex has no edge at all (no perfect matching).
    fn initialise(&mut self, jump_start: bool) -> bool {
        let n = self.n;
        for v in 0..n {
            let r = self.neighbours(v);
            if r.is_empty() {
                return false;
            }
            let min = r.map(|i| self.c2[self.adj[i] >> 1]).min().unwrap_or(0);
            // min is even (doubled cost); halve and round down to even: y(v) <= cost of each edge.
            self.dual[v] = (min / 2).div_euclid(2) * 2;
        }
        if !jump_start {
            return true;
        }
        for v in 0..n {
            let best = self
                .neighbours(v)
                .map(|i| {
                    let p = self.adj[i];
                    self.c2[p >> 1] - self.dual[self.endpoint(p)]
                })
                .min()
                .unwrap_or(0);
            self.dual[v] = best;
        }
        for v in 0..n {
            if self.mate[v] != NONE {
                continue;
            }
            for i in self.neighbours(v) {
                let p = self.adj[i];
                let w = self.endpoint(p);
                if self.mate[w] == NONE && self.slack(p >> 1) == 0 {
                    self.mate[v] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
        true
    }

    /// Push the leaf vertices of blossom `b` onto `out`.
    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            for &c in self.childs[x].iter().rev() {
                if c < self.n {
                    out.push(c);
                } else {
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

    fn set_allowed(&mut self, k: usize) {
        if !self.allow[k] {
            self.allow[k] = true;
            self.allowed_list.push(k);
        }
    }

    /// Label vertex `w` (and its top blossom) with `t`, reached through endpoint `p`. An inner
    /// blossom's mate is labelled outer in turn.
    fn assign_label(&mut self, mut w: usize, mut t: u8, mut p: usize) {
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == OUTER {
                let mut q = std::mem::take(&mut self.queue);
                self.leaves(b, &mut q);
                self.queue = q;
                return;
            }
            // Inner: the base is matched (all unmatched vertices are tree roots).
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
        self.dual[b] = 0;
        for v in self.leaves_vec(b) {
            if self.label[self.inblossom[v]] == INNER {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // Least-slack edges from the new blossom to each neighbouring outer blossom.
        let childs = self.childs[b].clone();
        for &c in &childs {
            match self.bestedges[c].take() {
                Some(list) => {
                    for k2 in list {
                        self.consider_best_to(b, k2);
                    }
                }
                None => {
                    for v in self.leaves_vec(c) {
                        for i in self.neighbours(v) {
                            let k2 = self.adj[i] >> 1;
                            self.consider_best_to(b, k2);
                        }
                    }
                }
            }
            self.bestedge[c] = NONE;
        }
        let touched = std::mem::take(&mut self.touched);
        let mut list = Vec::with_capacity(touched.len());
        let mut best = NONE;
        for &x in &touched {
            let k2 = self.best_to[x];
            self.best_to[x] = NONE;
            if best == NONE || self.slack(k2) < self.slack(best) {
                best = k2;
            }
            list.push(k2);
        }
        self.touched = touched;
        self.touched.clear();
        self.bestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    #[inline]
    fn consider_best_to(&mut self, b: usize, k: usize) {
        let (i, j) = (self.eu[k], self.ev[k]);
        let j = if self.inblossom[j] == b { i } else { j };
        let bj = self.inblossom[j];
        if bj != b && self.label[bj] == OUTER {
            let cur = self.best_to[bj];
            if cur == NONE {
                self.touched.push(bj);
                self.best_to[bj] = k;
            } else if self.slack(k) < self.slack(cur) {
                self.best_to[bj] = k;
            }
        }
    }

    /// Undo blossom `b` (top level): its children become top-level. Inside a stage (`endstage`
    /// false) an inner blossom's children are relabelled along the even side of its cycle.
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = std::mem::take(&mut self.childs[b]);
        for &s in &childs {
            self.parent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_vec(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        let endps = std::mem::take(&mut self.endps[b]);
        if !endstage && self.label[b] == INNER {
            let len = childs.len() as isize;
            let at = |list: &Vec<usize>, j: isize| list[j.rem_euclid(len) as usize];
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
                let q = at(&endps, j - trick as isize) ^ trick ^ 1;
                let qa = self.endpoint(q);
                self.label[qa] = FREE;
                self.assign_label(a, INNER, p);
                self.set_allowed(at(&endps, j - trick as isize) >> 1);
                j += jstep;
                p = at(&endps, j - trick as isize) ^ trick;
                self.set_allowed(p >> 1);
                j += jstep;
            }
            let bv = at(&childs, j);
            let a = self.endpoint(p ^ 1);
            self.label[a] = INNER;
            self.label[bv] = INNER;
            self.labelend[a] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&childs, j) != entrychild {
                let bv = at(&childs, j);
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
        self.label[b] = FREE;
        self.labelend[b] = NONE;
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.bestedge[b] = NONE;
        self.dual[b] = 0;
        self.unused.push(b);
    }

    /// Swap matched/unmatched edges inside blossom `b` so that vertex `v` becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
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
            if t >= self.n {
                let e = self.endpoint(p);
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = self.childs[b][idx(j)];
            if t >= self.n {
                let e = self.endpoint(p ^ 1);
                self.augment_blossom(t, e);
            }
            let (x, y) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[x] = p ^ 1;
            self.mate[y] = p;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
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

    /// One stage: grow the forest until an augmentation. False when no perfect matching exists.
    fn stage(&mut self) -> bool {
        let n = self.n;
        self.label.fill(FREE);
        self.bestedge.fill(NONE);
        for b in n..2 * n {
            self.bestedges[b] = None;
        }
        for k in std::mem::take(&mut self.allowed_list) {
            self.allow[k] = false;
        }
        self.queue.clear();
        for v in 0..n {
            if self.mate[v] == NONE && self.label[self.inblossom[v]] == FREE {
                self.assign_label(v, OUTER, NONE);
            }
        }
        loop {
            while let Some(v) = self.queue.pop() {
                for i in self.neighbours(v) {
                    let p = self.adj[i];
                    let k = p >> 1;
                    let w = self.endpoint(p);
                    let (bv, bw) = (self.inblossom[v], self.inblossom[w]);
                    if bv == bw {
                        continue;
                    }
                    let mut kslack = 0;
                    if !self.allow[k] {
                        kslack = self.slack(k);
                        if kslack <= 0 {
                            self.set_allowed(k);
                        }
                    }
                    if self.allow[k] {
                        if self.label[bw] == FREE {
                            self.assign_label(w, INNER, p ^ 1);
                        } else if self.label[bw] == OUTER {
                            let base = self.scan_blossom(v, w);
                            if base != NONE {
                                self.add_blossom(base, k);
                            } else {
                                self.augment_matching(k);
                                self.end_stage();
                                return true;
                            }
                        } else if self.label[w] == FREE {
                            self.label[w] = INNER;
                            self.labelend[w] = p ^ 1;
                        }
                    } else if self.label[bw] == OUTER {
                        let cur = self.bestedge[bv];
                        if cur == NONE || kslack < self.slack(cur) {
                            self.bestedge[bv] = k;
                        }
                    } else if self.label[w] == FREE {
                        let cur = self.bestedge[w];
                        if cur == NONE || kslack < self.slack(cur) {
                            self.bestedge[w] = k;
                        }
                    }
                }
            }
            // No tight edge helps: find the dual step.
            let mut delta: Option<i128> = None;
            let mut kind = 0u8;
            let mut which = NONE;
            for v in 0..n {
                if self.label[self.inblossom[v]] == FREE && self.bestedge[v] != NONE {
                    let d = self.slack(self.bestedge[v]);
                    if delta.is_none_or(|x| d < x) {
                        delta = Some(d);
                        kind = 2;
                        which = self.bestedge[v];
                    }
                }
            }
            for b in 0..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == OUTER
                    && self.bestedge[b] != NONE
                {
                    let s = self.slack(self.bestedge[b]);
                    debug_assert!(s % 2 == 0, "odd S-S slack");
                    let d = s / 2;
                    if delta.is_none_or(|x| d < x) {
                        delta = Some(d);
                        kind = 3;
                        which = self.bestedge[b];
                    }
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE && self.parent[b] == NONE && self.label[b] == INNER {
                    let d = self.dual[b];
                    if delta.is_none_or(|x| d < x) {
                        delta = Some(d);
                        kind = 4;
                        which = b;
                    }
                }
            }
            let Some(delta) = delta else {
                return false;
            };
            for v in 0..n {
                match self.label[self.inblossom[v]] {
                    OUTER => self.dual[v] += delta,
                    INNER => self.dual[v] -= delta,
                    _ => {}
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE && self.parent[b] == NONE {
                    match self.label[b] {
                        OUTER => self.dual[b] += delta,
                        INNER => self.dual[b] -= delta,
                        _ => {}
                    }
                }
            }
            match kind {
                2 => {
                    self.set_allowed(which);
                    let (i, j) = (self.eu[which], self.ev[which]);
                    let i = if self.label[self.inblossom[i]] == FREE {
                        j
                    } else {
                        i
                    };
                    self.queue.push(i);
                }
                3 => {
                    self.set_allowed(which);
                    self.queue.push(self.eu[which]);
                }
                _ => self.expand_blossom(which, false),
            }
        }
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
        for v in 0..n {
            if self.mate[v] == NONE {
                return Err(format!("vertex {v} unmatched"));
            }
            for &b in &chains[v] {
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

    /// After an augmentation: expand outer blossoms whose dual reached zero.
    fn end_stage(&mut self) {
        for b in self.n..2 * self.n {
            if self.parent[b] == NONE
                && self.base[b] != NONE
                && self.label[b] == OUTER
                && self.dual[b] == 0
            {
                self.expand_blossom(b, true);
            }
        }
    }
}
