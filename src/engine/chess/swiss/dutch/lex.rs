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
//!    (their totals `T_j` are known) plus as many new tiers as the cost bound allows. The new
//!    tiers are weighed among themselves from the last up: `w_last = 1`, `w_i = 1 + Σ_{j>i}
//!    w_j·B_j`, where `B_j` is `T_j(M)` for the first new tier (the optimum cannot exceed
//!    what `M` reaches there, since `M` is optimal on every tier above it) and an upper bound
//!    (the smaller of the sum of its values and vertices/2 × its largest value) for the
//!    later ones; their total is `G = 1 + Σ w_j·B_j`. The kept tiers weigh `r_i·K`, with
//!    `r_last = 1`, `r_i = 1 + Σ_{j>i} r_j·T_j` among them and a multiplier `K >= G`. Then a
//!    matching worse on tier `i` loses at least its weight there and can win back less below
//!    it: the weighted optimum is the lexicographic optimum on every tier of the stage.
//!
//! Ties after the last tier are broken by the solver's fixed order (edges as given).
//!
//! With a *hint* last (a tier that is no criterion, only a preference among the optima), a
//! star tier is also settled without a solve when the duals of the last solve say so: a
//! matching as good as `M` on every tier above costs at most the hint's bound more than `M`
//! under that solve's weights, so it can hold only edges whose reduced cost is at most
//! that; when the star's cheaper edges all cost more, `M`'s value is its optimum
//! ([`Model::star_floor_within`]). In a large bracket this settles nearly every "opponent
//! of head k" tier the current matching already serves best but whose cheaper opponents
//! (say, of the wrong colour) are still edges.
//!
//! # Resuming the solver state
//! `K` is chosen once for the kept tiers (as large as the cost bound leaves room for) and
//! stays while they do, and a *settled* tier (optimal at 0, or a pinned star, below) keeps
//! the weight it had: its edges are gone, or all of them are at its star's vertex with the
//! one optimal value, so it adds the same to every matching left. So from one stage to the
//! next only the edges of the new tiers change cost, and pins delete a few: the solver state
//! of the last solve ([`WarmMatching`]) takes those changes and rematches the few vertices
//! they free, instead of solving again over thousands of players (see
//! `engine::matching::blossom`, "Warm start"). Too many changed edges (a quarter of those
//! held) and the solve starts afresh.
//!
//! A pricing pass compares each vertex's dual facts with those of the pass before
//! ([`crate::engine::matching::Duals::snapshot`]): an edge left out keeps its reduced cost
//! (`>= 0` then) unless its cost changed or an end moved: across two top blossoms its `2y`,
//! inside one its `2y − z(top)`, or its top blossom; and whatever moved, a pair inside a
//! blossom that lasted since then keeps it too
//! ([`crate::engine::matching::Duals::lasting`]; both rules are
//! [`crate::engine::matching::Changes`]). So a pair to look at has an end that
//! moved and an end outside the largest lasting blossom: the edges left out are looked at
//! from the ends of one kind or the other, whichever hold fewer, unless that is more than a
//! quarter of them; then every edge is, in order. When many edges price
//! in at once, only the most negative few at each end join ([`PRICED_PER_END`]: a problem
//! kept sparse solves faster than one given them all) and the next pass looks at every edge.
//! The lazy pairs (below) are found by the duals' search of the blossom forest
//! ([`crate::engine::matching::Duals::negative_pairs`]), which hands over only pairs whose
//! reduced cost is below 0, whatever moved.

#![allow(clippy::needless_range_loop)]

use super::player::{QuickHasher, QuickSet};
use super::threads::both;
use crate::engine::matching::{
    Changes, Duals, MatchingSolver, WarmMatching, WideEdge, WIDE_COST_BOUND,
};

/// A candidate pair with its tier values (tier index, value >= 0), tiers in any order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LexEdge<'a> {
    pub u: usize,
    pub v: usize,
    /// Packed as [`LexEdges`] holds them.
    packed: &'a [(u32, u32)],
}

impl<'a> LexEdge<'a> {
    /// The tier values: (tier index, value).
    pub fn tiers(&self) -> impl Iterator<Item = (usize, i64)> + 'a {
        self.packed.iter().map(|&(t, v)| (t as usize, i64::from(v)))
    }
}

/// Candidate pairs, their tier values held in one flat list (a large bracket's solve has
/// millions of pairs: one allocation for all of their values, not one each), each value
/// packed in 8 bytes as (tier, value): a tier index and a value below 2^32 (every value is
/// a count, a position or the square of a difference of positions, in a section of at most
/// [`crate::limits::MAX_SECTION_PLAYERS`] players).
#[derive(Debug, Clone, Default)]
pub(crate) struct LexEdges {
    ends: Vec<(u32, u32)>,
    /// Where each pair's values end in `values` (they start where the previous pair's end):
    /// below 2^32, as a section's pairs are at most 50 million (10 000 players) and a pair
    /// has values on fewer than 40 tiers.
    end: Vec<u32>,
    values: Vec<(u32, u32)>,
    /// A pair, a tier, a value or an offset did not fit its 32 bits (never within the
    /// section bounds): the list is refused ([`LexError::Unpacked`]), not read truncated.
    overflow: bool,
}

impl LexEdges {
    /// Room for `pairs` pairs holding `values` values in all.
    pub fn with_capacity(pairs: usize, values: usize) -> LexEdges {
        LexEdges {
            ends: Vec::with_capacity(pairs),
            end: Vec::with_capacity(pairs),
            values: Vec::with_capacity(values),
            overflow: false,
        }
    }

    /// Adds the pair u–v with these tier values (vertices, tiers and values below 2^32,
    /// values not negative; else the list is marked, see [`LexEdges::fits`]).
    pub fn push(&mut self, u: usize, v: usize, tiers: &[(usize, i64)]) {
        let small = |x: usize| x <= u32::MAX as usize;
        self.overflow |= !small(u)
            || !small(v)
            || tiers
                .iter()
                .any(|&(t, x)| !small(t) || !(0..=i64::from(u32::MAX)).contains(&x));
        self.ends.push((u as u32, v as u32));
        self.values
            .extend(tiers.iter().map(|&(t, x)| (t as u32, x as u32)));
        self.overflow |= !small(self.values.len()) || !small(self.ends.len());
        self.end.push(self.values.len() as u32);
    }

    /// Every pair, tier, value and offset fits its 32 bits (the lists read back as pushed).
    pub fn fits(&self) -> bool {
        !self.overflow
    }

    /// Adds the pairs of `other` after these.
    pub fn append(&mut self, other: &LexEdges) {
        let base = self.values.len() as u32;
        self.ends.extend_from_slice(&other.ends);
        self.values.extend_from_slice(&other.values);
        self.overflow |= other.overflow
            || self.values.len() > u32::MAX as usize
            || self.ends.len() > u32::MAX as usize;
        self.end
            .extend(other.end.iter().map(|&e| base.wrapping_add(e)));
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The values of all the pairs.
    pub fn value_count(&self) -> usize {
        self.values.len()
    }

    /// Pair `k`.
    pub fn get(&self, k: usize) -> LexEdge<'_> {
        let (u, v) = self.ends[k];
        let from = if k == 0 { 0 } else { self.end[k - 1] as usize };
        LexEdge {
            u: u as usize,
            v: v as usize,
            packed: &self.values[from..self.end[k] as usize],
        }
    }

    /// The ends of pair `k` (without its values).
    fn ends(&self, k: usize) -> Ends {
        let (u, v) = self.ends[k];
        Ends {
            u: u as usize,
            v: v as usize,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = LexEdge<'_>> {
        (0..self.len()).map(|k| self.get(k))
    }
}

/// The pairs not handed over as edges (see [`solve_lex_lazy`]). Every vertex but the bye
/// vertex has a class: 0 *inner* (the bracket: its pairs among themselves are all edges),
/// 1 and 2 (the next score group, the players below). A pair of which at most one end is
/// inner is *lazy* unless it is an edge: its tiers are `alpha[u][class v] + alpha[v][class
/// u]` (the values of each end depend only on the class of the other), so the pairs that
/// could price in are found per class pair from each end's key (its values less its dual)
/// and the blossom forest, without looking at the others.
pub(crate) struct Lazy<'a> {
    /// Class of each vertex (0, 1, 2; 3 for the bye vertex, which has no lazy pair).
    pub class: Vec<u8>,
    /// `alpha[u][c]`: the tiers of `u`'s end of a lazy pair with a player of class `c`
    /// (`None`: `u` has no lazy pair with that class).
    pub alpha: Vec<[Option<Values>; 3]>,
    /// The exact tiers of a pair (`None`: the pair is not allowed).
    pub pair: &'a (dyn Fn(usize, usize) -> Option<Vec<(usize, i64)>> + Sync),
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

/// A map hashed by [`QuickHasher`].
type QuickMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<QuickHasher>>;

/// The two ends of a pair.
#[derive(Debug, Clone, Copy)]
struct Ends {
    u: usize,
    v: usize,
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
    /// The pairs' values do not fit the 32 bits they are held in ([`LexEdges::fits`]).
    Unpacked,
}

/// Counts of the work done.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LexStats {
    pub solves: usize,
    /// Solves resumed from the previous one's state.
    pub resumed: usize,
    /// Star tiers settled without a solve by the last solve's duals
    /// ([`Model::star_floor_within`]).
    pub by_duals: usize,
}

/// What is known of one tier over all edges.
#[derive(Clone, Default)]
struct TierFacts {
    max: i64,
    sum: i128,
    /// The one vertex every valued edge touches (a *star*: at most one valued edge can be
    /// in a matching), if any.
    star: Option<usize>,
    /// The edges with a value on this tier (fewer than 2^32; the values are read from
    /// [`LexEdges`]), when `listed`: a tier valued on more than a quarter of the edges (the
    /// hint, the exchanges' heads: every pair of a large bracket) is not listed, its edges
    /// are found by a pass over all of them ([`Model::valued`]), as fast as reading such a
    /// list and without its memory.
    valued: Vec<u32>,
    listed: bool,
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
fn value_in(tiers: impl IntoIterator<Item = (usize, i64)>, t: usize) -> i64 {
    tiers.into_iter().filter(|x| x.0 == t).map(|x| x.1).sum()
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
    given: &'a LexEdges,
    added: LexEdges,
    added_pairs: QuickSet<(usize, usize)>,
    /// Per vertex, its edges (numbers below 2^32, as in [`TierFacts::valued`]).
    at: Vec<Vec<u32>>,
    f: Vec<TierFacts>,
    active: Bits,
    /// Edges handed to the matching solver; the others are priced after every solve.
    in_problem: Bits,
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
    /// The edges in the kept solver state ([`WarmMatching`]), where each one's cost is the
    /// one under `priced_weights`: their numbers there, and per edge whether it has one.
    slot: QuickMap<u32, u32>,
    loaded_at: Bits,
    /// How many edges have a number in the kept solver state.
    loaded: usize,
    /// Above every number an edge has had in a kept solver state.
    slot_end: usize,
    /// Per number in the kept solver state, the last [`Model::resume`] that looked at its
    /// edge (`round`: the present one).
    seen: Vec<u32>,
    round: u32,
    /// Edges of the kept state deactivated since it was solved.
    gone: Vec<usize>,
    /// Edges priced in during the current solve, in the order they were handed over.
    priced: Vec<usize>,
    /// The weights of the last pricing: each edge's cost under them is its cost in the kept
    /// solver state and the one the next pricing compares with (worked out when needed,
    /// not held: a large bracket has tens of millions of edges).
    priced_weights: Vec<i128>,
    /// How many edges (the first ones) were there at the last pricing, or priced in by it:
    /// the others' costs are not known to the solver state.
    costed: usize,
    /// The duals at the last pricing (none: look at everything).
    before: Option<Duals>,
    /// `before` are the duals the last solve ended with (its optimal ones: the last
    /// pricing handed over nothing).
    before_final: bool,
    /// Per vertex, how many of its edges (in `at`) were left out of the problem when the
    /// pricing passes last looked at them all: what the next pass weighs its ways of
    /// looking by. The edges themselves are those of `at` still active and not in the
    /// problem (an edge never comes back to either), not listed again.
    left_len: Option<Vec<usize>>,
}

/// At most this many priced edges join at each end in one pass when many are found.
const PRICED_PER_END: u32 = 32;

/// Where edge `k` of a model is: the caller's edges, then those priced in (the list, and
/// its number there).
fn locate<'e>(given: &'e LexEdges, added: &'e LexEdges, k: usize) -> (&'e LexEdges, usize) {
    if k < given.len() {
        (given, k)
    } else {
        (added, k - given.len())
    }
}

/// The ends of edge `k` of a model.
fn ends_of(given: &LexEdges, added: &LexEdges, k: usize) -> Ends {
    let (list, i) = locate(given, added, k);
    list.ends(i)
}

/// Per vertex, the numbers of its edges that `keep` keeps, of the caller's (`given`) and
/// those priced in (`added`), in order (a model's edges, `Model::at`).
fn per_vertex(
    vertices: usize,
    given: &LexEdges,
    added: &LexEdges,
    keep: impl Fn(usize) -> bool,
) -> Vec<Vec<u32>> {
    let count = given.len() + added.len();
    let mut degree = vec![0usize; vertices];
    for k in (0..count).filter(|&k| keep(k)) {
        let e = ends_of(given, added, k);
        degree[e.u] += 1;
        degree[e.v] += 1;
    }
    let mut at: Vec<Vec<u32>> = degree.into_iter().map(Vec::with_capacity).collect();
    for k in (0..count).filter(|&k| keep(k)) {
        let e = ends_of(given, added, k);
        at[e.u].push(k as u32);
        at[e.v].push(k as u32);
    }
    at
}

/// Above this many edges, a model's passes over every edge (listing them per vertex,
/// costing them, a full pricing scan) are shared with a second thread (the tests take that
/// path on every solve).
const EDGES_SPLIT: usize = if cfg!(test) { 0 } else { 200_000 };

/// A tier valued on at most this many edges is always listed ([`TierFacts::valued`]).
const LISTED_MIN: usize = if cfg!(test) { 1 } else { 1 << 16 };

/// One flag per edge, packed in bits (a large bracket has tens of millions of edges).
#[derive(Clone, Default)]
struct Bits {
    words: Vec<u64>,
    len: usize,
}

impl Bits {
    fn filled(len: usize, on: bool) -> Bits {
        let mut b = Bits {
            words: vec![if on { u64::MAX } else { 0 }; len.div_ceil(64)],
            len,
        };
        b.clear_tail();
        b
    }

    fn from_bools(flags: &[bool]) -> Bits {
        let mut b = Bits::filled(flags.len(), false);
        for (k, &on) in flags.iter().enumerate() {
            if on {
                b.set(k, true);
            }
        }
        b
    }

    /// The bits beyond `len` stay clear.
    fn clear_tail(&mut self) {
        if !self.len.is_multiple_of(64) {
            if let Some(w) = self.words.last_mut() {
                *w &= (1u64 << (self.len % 64)) - 1;
            }
        }
    }

    fn get(&self, k: usize) -> bool {
        debug_assert!(k < self.len);
        self.words[k / 64] >> (k % 64) & 1 == 1
    }

    fn set(&mut self, k: usize, on: bool) {
        debug_assert!(k < self.len);
        if on {
            self.words[k / 64] |= 1 << (k % 64);
        } else {
            self.words[k / 64] &= !(1 << (k % 64));
        }
    }

    fn push(&mut self, on: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        self.len += 1;
        self.set(self.len - 1, on);
    }
}

impl<'a> Model<'a> {
    fn new(
        vertices: usize,
        edges: &'a LexEdges,
        tiers: usize,
        core: Bits,
        lazy: Option<&'a Lazy<'a>>,
    ) -> Model<'a> {
        // Each vertex's edges (on a second thread when there are many) while the tiers'
        // facts are gathered.
        let edges_at = || per_vertex(vertices, edges, &LexEdges::default(), |_| true);
        let facts = || Model::facts(vertices, edges, tiers, core, lazy);
        let (mut m, at) = if edges.len() > EDGES_SPLIT {
            both(facts, edges_at)
        } else {
            (facts(), edges_at())
        };
        m.at = at;
        m
    }

    /// The model without its edges per vertex (`at`).
    fn facts(
        vertices: usize,
        edges: &'a LexEdges,
        tiers: usize,
        core: Bits,
        lazy: Option<&'a Lazy<'a>>,
    ) -> Model<'a> {
        let mut f = vec![TierFacts::default(); tiers];
        let mut common = vec![Common::Nothing; tiers];
        let mut count = vec![0usize; tiers];
        for e in edges.iter() {
            for (t, v) in e.tiers() {
                if v == 0 {
                    continue;
                }
                f[t].max = f[t].max.max(v);
                f[t].sum += v as i128;
                count[t] += 1;
                common[t] = common[t].touch(e.u, e.v);
            }
        }
        for t in 0..tiers {
            f[t].listed = count[t] <= LISTED_MIN.max(edges.len() / 4);
            if f[t].listed {
                f[t].valued.reserve_exact(count[t]);
            }
        }
        for (k, e) in edges.iter().enumerate() {
            for (t, v) in e.tiers() {
                if v != 0 && f[t].listed {
                    f[t].valued.push(k as u32);
                }
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
            added: LexEdges::default(),
            added_pairs: QuickSet::default(),
            at: Vec::new(),
            f,
            active: Bits::filled(edges.len(), true),
            in_problem: core,
            lazy,
            sizes,
            excluded: vec![false; tiers],
            pins: vec![Vec::new(); vertices],
            fixed: vec![None; vertices],
            slot: QuickMap::default(),
            loaded_at: Bits::filled(edges.len(), false),
            loaded: 0,
            slot_end: 0,
            seen: Vec::new(),
            round: 0,
            gone: Vec::new(),
            priced: Vec::new(),
            priced_weights: Vec::new(),
            costed: 0,
            before: None,
            before_final: false,
            left_len: None,
        }
    }

    fn edge(&self, k: usize) -> LexEdge<'_> {
        let (list, i) = locate(self.given, &self.added, k);
        list.get(i)
    }

    fn ends(&self, k: usize) -> Ends {
        ends_of(self.given, &self.added, k)
    }

    fn count(&self) -> usize {
        self.given.len() + self.added.len()
    }

    fn cost(&self, k: usize, weights: &[i128]) -> i128 {
        weighed(self.edge(k).tiers(), weights)
    }

    /// Edge `k` as the solver takes it, weighed by `weights`.
    fn wide(&self, k: usize, weights: &[i128]) -> WideEdge {
        let e = self.ends(k);
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
                    .any(|&(t, opt)| value_in(tiers.iter().copied(), t) != opt)
            })
            || self.fixed[u].is_some_and(|m| m != v)
            || self.fixed[v].is_some_and(|m| m != u)
    }

    /// Adds the pair u < v as an edge (not yet in the problem); returns its index.
    fn add(&mut self, u: usize, v: usize, tiers: &[(usize, i64)]) -> usize {
        let k = self.count();
        for &(t, x) in tiers {
            if x != 0 {
                debug_assert!(x <= self.f[t].max, "tier {t}: {x} over its bound");
                self.f[t].max = self.f[t].max.max(x);
                if self.f[t].listed {
                    self.f[t].valued.push(k as u32);
                }
            }
        }
        self.at[u].push(k as u32);
        self.at[v].push(k as u32);
        self.active.push(true);
        self.in_problem.push(false);
        self.loaded_at.push(false);
        self.added.push(u, v, tiers);
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
    /// negative reduced cost (the most negative few per end when many), and the lazy pairs
    /// with one (per class pair, each end keyed `2·cost of its end − 2·y`: two keys plus
    /// the blossoms' share are twice the reduced cost).
    fn price(&mut self, weights: &[i128], duals: &Duals) -> Vec<WideEdge> {
        // The tiers whose weight changed since the last pricing, and the cached edge costs
        // brought up to date.
        let known = self.priced_weights.len() == weights.len();
        let mut tier_changed = vec![!known; weights.len()];
        if known {
            for t in 0..weights.len() {
                tier_changed[t] = weights[t] != self.priced_weights[t];
            }
        }
        // Each edge's cost is the one under these weights from now on; the edges left out
        // counted per vertex when not kept from the last pass.
        self.costed = self.count();
        let mut left_len = match self.left_len.take() {
            Some(kept) => kept,
            None => {
                let mut degree = vec![0usize; self.vertices];
                for k in
                    (0..self.count()).filter(|&k| self.active.get(k) && !self.in_problem.get(k))
                {
                    let e = self.ends(k);
                    degree[e.u] += 1;
                    degree[e.v] += 1;
                }
                degree
            }
        };
        self.priced_weights = weights.to_vec();
        // Since the last pricing, only a pair whose cost changed or whose ends' duals moved
        // (see `Duals::snapshot`: across two top blossoms their `2y`, inside one their `2y −
        // z(top)`, and their tops) can have a reduced cost below 0 now: every other one had
        // one >= 0 then (or joined). A blossom moving as a whole moves its vertices' `2y` but
        // not the reduced costs inside it; nor does undoing a blossom around it, or anything
        // while it lasts (`Duals::lasting`: a pair in the same lasting blossom is skipped).
        let before = std::mem::take(&mut self.before);
        let mut changes = match (known, &before) {
            (true, Some(b)) => duals.since(b),
            _ => None,
        };
        // A lazy pair's cost changed when one end's values are on a tier whose weight did.
        if let (Some(c), Some(l)) = (&mut changes, self.lazy) {
            for u in 0..l.class.len() {
                if l.alpha[u]
                    .iter()
                    .flatten()
                    .any(|t| t.iter().any(|&(x, v)| v != 0 && tier_changed[x]))
                {
                    c.mark(u);
                }
            }
        }
        let incremental = changes.is_some();
        // Could the pair's reduced cost have changed since the last pricing?
        let needs = |u: usize, v: usize| changes.as_ref().is_none_or(|c| c.pair(u, v));
        let flagged: Vec<usize> = changes
            .as_ref()
            .map_or_else(|| (0..self.vertices).collect(), Changes::moved);
        let mut new = Vec::new();
        let join = |m: &Self, k: usize, out: &mut Vec<(i128, usize)>| {
            if !m.active.get(k) || m.in_problem.get(k) {
                return;
            }
            let e = m.ends(k);
            let cost = m.cost(k, weights);
            // Most pairs stop at the bound, before their lowest common blossom is sought.
            if duals.reduced_floor2(e.u, e.v, cost) >= 0 {
                return;
            }
            let r = duals.reduced_cost2(e.u, e.v, cost);
            if r < 0 {
                out.push((r, k));
            }
        };
        let mut ks = Vec::new();
        // A pair that may have changed has a flagged end, and an end outside the largest
        // lasting blossom (a stage that frees a vertex deep in a nest of blossoms undoes the
        // nest around it and flags every vertex of it, but most of the nest lasts): its
        // edges left out are looked at from the ends of one kind or the other, whichever
        // have fewer, unless that is more than a quarter of them (a pass over every edge in
        // order reads memory in order).
        let degree = |vs: &[usize]| -> usize { vs.iter().map(|&v| left_len[v]).sum() };
        let all = left_len.iter().sum::<usize>();
        let from = changes.as_ref().map(|c| match c.outside_largest_lasting() {
            Some(o) if degree(&o) < degree(&flagged) => o,
            _ => flagged.clone(),
        });
        match from.filter(|f| degree(f) <= all / 4) {
            Some(from) => {
                let mut mark = vec![false; self.vertices];
                for &v in &from {
                    mark[v] = true;
                }
                for &v in &from {
                    let mut left = 0;
                    for &k in &self.at[v] {
                        let k = k as usize;
                        if !self.active.get(k) || self.in_problem.get(k) {
                            continue;
                        }
                        left += 1;
                        let e = self.ends(k);
                        let w = if e.u == v { e.v } else { e.u };
                        // A pair with both ends looked from is met once.
                        if (!mark[w] || v < w) && needs(v, w) {
                            join(self, k, &mut ks);
                        }
                    }
                    left_len[v] = left;
                }
            }
            // Every edge in order, the two halves on two threads when there are many.
            None => {
                let scan = |from: usize, to: usize| {
                    let mut out = Vec::new();
                    for k in from..to {
                        if !self.active.get(k) || self.in_problem.get(k) {
                            continue;
                        }
                        let e = self.ends(k);
                        if !incremental || needs(e.u, e.v) {
                            join(self, k, &mut out);
                        }
                    }
                    out
                };
                let count = self.count();
                if count > EDGES_SPLIT {
                    let half = count / 2;
                    let upper;
                    (ks, upper) = both(|| scan(0, half), || scan(half, count));
                    ks.extend(upper);
                } else {
                    ks = scan(0, count);
                }
            }
        }
        self.left_len = Some(left_len);
        if incremental {
            for t in (0..weights.len()).filter(|&t| tier_changed[t]) {
                for i in 0..self.valued_len(t) {
                    if let Some(k) = self.valued(t, i) {
                        join(self, k, &mut ks);
                    }
                }
            }
        }
        // Many at once: the most negative few at each end join (column generation needs
        // only some; a problem kept sparse solves faster than one that takes them all), and
        // the next pass looks at everything again (the ones left out are still negative).
        let mut at_end = vec![0u32; self.vertices];
        let mut capped = false;
        if ks.len() > self.vertices {
            ks.sort_unstable();
        }
        for (_, k) in ks {
            if self.in_problem.get(k) {
                continue;
            }
            let e = self.ends(k);
            if at_end[e.u] >= PRICED_PER_END && at_end[e.v] >= PRICED_PER_END {
                capped = true;
                continue;
            }
            at_end[e.u] += 1;
            at_end[e.v] += 1;
            new.push(WideEdge {
                u: e.u,
                v: e.v,
                cost: self.cost(k, weights),
            });
            self.in_problem.set(k, true);
            self.priced.push(k);
        }
        // The duals are the next pass's reference unless negative edges were left out.
        let keep = (!capped).then(|| duals.clone());
        let Some(l) = self.lazy else {
            self.keep_duals(keep, new.is_empty());
            return new;
        };
        let n = l.class.len();
        if incremental && flagged.is_empty() {
            self.keep_duals(keep, new.is_empty());
            return new;
        }
        // An end whose own values are on a tier optimal at 0, or (in the bracket, where the
        // other end adds nothing) against one of its pins: none of its lazy pairs of that
        // class may join.
        let own_dead = |u: usize, t: &[(usize, i64)]| {
            t.iter().any(|&(x, v)| v != 0 && self.excluded[x])
                || (l.class[u] == 0
                    && self.pins[u]
                        .iter()
                        .any(|&(x, opt)| value_in(t.iter().copied(), x) != opt))
        };
        let mut found: Vec<(usize, usize, Values)> = Vec::new();
        for (a, b) in [(0u8, 1u8), (0, 2), (1, 1), (1, 2), (2, 2)] {
            // Each end's key: twice its values against the other class, less twice its
            // dual. A pair's keys plus the blossoms' share are twice its reduced cost (an
            // allowed lazy pair's tiers are its ends' values), so the duals' forest search
            // hands over only the pairs with one below 0.
            let keys = |c: u8, other: u8| -> Vec<Option<i128>> {
                (0..n)
                    .map(|u| {
                        if l.class[u] != c || self.fixed[u].is_some() {
                            return None;
                        }
                        let t = l.alpha[u][other as usize].as_ref()?;
                        (!own_dead(u, t))
                            .then(|| 2 * weighed(t.iter().copied(), weights) - duals.vertex2(u))
                    })
                    .collect()
            };
            let ka = keys(a, b);
            let kb = if a == b { ka.clone() } else { keys(b, a) };
            duals.negative_pairs(&ka, &kb, a == b, &mut |x, y| {
                let Some(t) = self.lazy_pair(l, x, y) else {
                    return;
                };
                if duals.reduced_cost2(x, y, weighed(t.iter().copied(), weights)) < 0 {
                    found.push((x.min(y), x.max(y), t));
                }
            });
        }
        for (u, v, t) in found {
            if self.added_pairs.contains(&(u, v)) {
                continue;
            }
            let k = self.add(u, v, &t);
            self.in_problem.set(k, true);
            self.priced.push(k);
            let cost = self.cost(k, weights);
            self.costed += 1;
            new.push(WideEdge { u, v, cost });
        }
        self.keep_duals(keep, new.is_empty());
        new
    }

    /// The duals of this pricing are the next one's reference (`None`: look at everything);
    /// with `last` (nothing handed over) they are the optimal duals of the solve.
    fn keep_duals(&mut self, keep: Option<Duals>, last: bool) {
        self.before = keep;
        self.before_final = last;
    }

    /// Every edge left out joins, and the lazy pairs of vertices at most `width` apart;
    /// false when nothing was left to join.
    fn widen(&mut self, width: usize) -> bool {
        let mut joined = false;
        for k in 0..self.count() {
            if self.active.get(k) && !self.in_problem.get(k) {
                self.in_problem.set(k, true);
                joined = true;
            }
        }
        if let Some(l) = self.lazy {
            let n = l.class.len();
            for u in 0..n {
                for v in u + 1..n.min(u.saturating_add(width).saturating_add(1)) {
                    if let Some(t) = self.lazy_pair(l, u, v) {
                        let k = self.add(u, v, &t);
                        self.in_problem.set(k, true);
                        joined = true;
                    }
                }
            }
        }
        joined
    }

    /// The optimum under `weights`: resumed from the kept solver state when there is one
    /// and few edges changed (see [`Model::resume`]), else solved afresh (the state is kept
    /// for the next solve when the solver can resume).
    fn solve<'s>(
        &mut self,
        solver: &'s dyn MatchingSolver,
        weights: &[i128],
        stats: &mut LexStats,
        warm: &mut Option<Box<dyn WarmMatching + 's>>,
    ) -> Result<Option<Vec<usize>>, LexError> {
        let mate = self.optimum(solver, weights, stats, warm)?;
        // The pairs priced in are held packed too: one that did not fit refuses the result.
        if !self.added.fits() {
            return Err(LexError::Unpacked);
        }
        Ok(mate)
    }

    /// [`Model::solve`], the pairs priced in not yet checked.
    fn optimum<'s>(
        &mut self,
        solver: &'s dyn MatchingSolver,
        weights: &[i128],
        stats: &mut LexStats,
        warm: &mut Option<Box<dyn WarmMatching + 's>>,
    ) -> Result<Option<Vec<usize>>, LexError> {
        self.before_final = false;
        if let Some(mut w) = warm.take() {
            if let Some(mate) = self.resume(&mut *w, weights, stats)? {
                *warm = Some(w);
                return Ok(Some(mate));
            }
        }
        self.unload_all();
        self.gone.clear();
        let mut width = 32usize;
        loop {
            let ks: Vec<usize> = (0..self.count())
                .filter(|&k| self.active.get(k) && self.in_problem.get(k))
                .collect();
            let wide: Vec<WideEdge> = ks.iter().map(|&k| self.wide(k, weights)).collect();
            stats.solves += 1;
            let vertices = self.vertices;
            if let Some(mut w) = solver
                .warm(vertices, &wide)
                .map_err(|e| LexError::Solver(e.to_string()))?
            {
                for (i, &k) in ks.iter().enumerate() {
                    self.load(k, i);
                }
                drop(wide);
                if let Some(mate) = self.run_warm(&mut *w, weights, stats)? {
                    *warm = Some(w);
                    return Ok(Some(mate));
                }
                self.unload_all();
                if !self.widen(width) && width >= self.vertices {
                    return Ok(None);
                }
                width = width.saturating_mul(2);
                continue;
            }
            let mut passes = 0;
            let mut more = |_: &[usize], d: &Duals| {
                let new = self.price(weights, d);
                passes += usize::from(!new.is_empty());
                new
            };
            let out = solver
                .solve_wide_more(vertices, &wide, &mut more)
                .map_err(|e| LexError::Solver(e.to_string()))?;
            self.priced.clear();
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

    /// Resumes the kept solver state under new weights: the edges whose cost changed (those
    /// valued on a tier whose weight changed) take their new costs and the deactivated ones
    /// leave it. `None` when too many changed (a fresh solve is cheaper) or the state found
    /// no perfect matching.
    fn resume(
        &mut self,
        w: &mut dyn WarmMatching,
        weights: &[i128],
        stats: &mut LexStats,
    ) -> Result<Option<Vec<usize>>, LexError> {
        // The kept state was solved, and last priced, with `priced_weights`: its edges'
        // costs are their costs under them.
        if self.priced_weights.len() != weights.len() || self.costed != self.count() {
            return Ok(None);
        }
        // Each edge of the state looked at once (a stamp per number in the state, kept
        // between resumes: no pass over all the edges, which are millions in a large
        // bracket).
        self.seen.resize(self.seen.len().max(self.slot_end), 0);
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.round = 1;
        }
        let mut costs = Vec::new();
        let mut removed = Vec::new();
        debug_assert_eq!(self.loaded, self.slot.len());
        let limit = (self.loaded / 4).max(64);
        let gone = std::mem::take(&mut self.gone);
        let changed: Vec<usize> = (0..weights.len())
            .filter(|&t| weights[t] != self.priced_weights[t])
            .collect();
        // The deactivated edges, then those of each changed tier in order.
        for source in 0..=changed.len() {
            let len = match source {
                0 => gone.len(),
                s => self.valued_len(changed[s - 1]),
            };
            for i in 0..len {
                let k = match source {
                    0 => gone[i],
                    s => match self.valued(changed[s - 1], i) {
                        Some(k) => k,
                        None => continue,
                    },
                };
                if !self.loaded_at.get(k) {
                    continue;
                }
                let at = self.slot[&(k as u32)];
                if self.seen[at as usize] == self.round {
                    continue;
                }
                self.seen[at as usize] = self.round;
                if !self.active.get(k) {
                    removed.push(at as usize);
                    self.slot.remove(&(k as u32));
                    self.loaded_at.set(k, false);
                    self.loaded -= 1;
                    continue;
                }
                let c = self.cost(k, weights);
                if c != self.cost(k, &self.priced_weights) {
                    costs.push((at as usize, c));
                }
                if costs.len() + removed.len() > limit {
                    return Ok(None);
                }
            }
        }
        w.update(&costs, &removed, &[])
            .map_err(|e| LexError::Solver(e.to_string()))?;
        stats.solves += 1;
        stats.resumed += 1;
        self.run_warm(w, weights, stats)
    }

    /// Solves the solver state as it stands, pricing in what the duals ask for (numbered in
    /// the state as they are handed over).
    fn run_warm(
        &mut self,
        w: &mut dyn WarmMatching,
        weights: &[i128],
        stats: &mut LexStats,
    ) -> Result<Option<Vec<usize>>, LexError> {
        let base = w.edge_count();
        self.priced.clear();
        let mut passes = 0;
        let out = {
            let mut more = |_: &[usize], d: &Duals| {
                let new = self.price(weights, d);
                passes += usize::from(!new.is_empty());
                new
            };
            w.solve_more(&mut more)
        };
        stats.solves += passes;
        let out = out.map_err(|e| LexError::Solver(e.to_string()))?;
        for (i, k) in std::mem::take(&mut self.priced).into_iter().enumerate() {
            self.load(k, base + i);
        }
        match out {
            Some((mate, _)) => {
                #[cfg(debug_assertions)]
                self.check_priced(&mate, weights, &crate::engine::matching::BlossomSolver);
                Ok(Some(mate))
            }
            None => Ok(None),
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
            .filter(|&k| self.active.get(k))
            .map(|k| self.wide(k, weights))
            .collect();
        let n = l.class.len();
        for u in 0..n {
            for v in u + 1..n {
                if let Some(t) = self.lazy_pair(l, u, v) {
                    all.push(WideEdge {
                        u,
                        v,
                        cost: weighed(t.iter().copied(), weights),
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

    /// Edge `k` is number `at` in the kept solver state.
    fn load(&mut self, k: usize, at: usize) {
        debug_assert!(!self.loaded_at.get(k));
        self.slot.insert(k as u32, at as u32);
        self.loaded_at.set(k, true);
        self.loaded += 1;
        self.slot_end = self.slot_end.max(at + 1);
    }

    /// No edge is in a kept solver state.
    fn unload_all(&mut self) {
        for &k in self.slot.keys() {
            self.loaded_at.set(k as usize, false);
        }
        self.slot.clear();
        self.loaded = 0;
    }

    /// Edge `k` leaves the problem for good.
    fn deactivate(&mut self, k: usize) {
        if self.active.get(k) && self.loaded_at.get(k) {
            self.gone.push(k);
        }
        self.active.set(k, false);
    }

    fn matched(&self, k: usize, mate: &[usize]) -> bool {
        let e = self.ends(k);
        self.active.get(k) && mate[e.u] == e.v
    }

    /// Total of tier `t` over the edges of `mate`.
    fn total(&self, mate: &[usize], t: usize) -> i128 {
        (0..self.valued_len(t))
            .map(|i| {
                if self.f[t].listed {
                    self.f[t].valued[i] as usize
                } else {
                    i
                }
            })
            .filter(|&k| self.matched(k, mate))
            .map(|k| i128::from(self.value(k, t)))
            .sum()
    }

    /// Tier `t` is optimal at 0: its valued edges go.
    fn exclude(&mut self, t: usize) {
        self.excluded[t] = true;
        for i in 0..self.valued_len(t) {
            if let Some(k) = self.valued(t, i) {
                self.deactivate(k);
            }
        }
    }

    /// How far [`Model::valued`] goes for tier `t`.
    fn valued_len(&self, t: usize) -> usize {
        if self.f[t].listed {
            self.f[t].valued.len()
        } else {
            self.count()
        }
    }

    /// The `i`-th edge valued on tier `t` (for `i` below [`Model::valued_len`], in the
    /// order of the edges), or `None` when the tier is not listed and edge `i` has no value
    /// on it.
    fn valued(&self, t: usize, i: usize) -> Option<usize> {
        if self.f[t].listed {
            Some(self.f[t].valued[i] as usize)
        } else {
            (self.value(i, t) != 0).then_some(i)
        }
    }

    /// The value of edge `k` on tier `t`.
    fn value(&self, k: usize, t: usize) -> i64 {
        value_in(self.edge(k).tiers(), t)
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
                    && self.pins[c]
                        .iter()
                        .all(|&(x, opt)| value_in(t.iter().copied(), x) == opt);
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
            let k = self.at[c][i] as usize;
            if self.active.get(k) && self.value(k, t) as i128 != opt {
                self.deactivate(k);
            } else if self.active.get(k) {
                left.push(k);
            }
        }
        let lazy_may = self
            .lazy_ends(c)
            .iter()
            .any(|e| e.is_none_or(|t2| value_in(t2.iter().copied(), t) as i128 == opt));
        if self.lazy.is_some() {
            self.pins[c].push((t, opt as i64));
        }
        if let ([k], false) = (&left[..], lazy_may) {
            let k = *k;
            let e = self.ends(k);
            let m = if e.u == c { e.v } else { e.u };
            for i in 0..self.at[m].len() {
                let j = self.at[m][i] as usize;
                if j != k {
                    self.deactivate(j);
                }
            }
            if self.lazy.is_some() {
                self.fixed[c] = Some(m);
                self.fixed[m] = Some(c);
            }
        }
    }

    /// The active edges of `mate`, when it is a perfect matching on them (one pass over
    /// the edges in order: looking each pair up from its ends reads the edges at random).
    fn matched_edges(&self, mate: &[usize]) -> Option<Vec<usize>> {
        let n = self.vertices;
        if mate.len() != n || (0..n).any(|u| mate[u] >= n || mate[mate[u]] != u) {
            return None;
        }
        let mut covered = vec![false; n];
        let mut out = Vec::with_capacity(n / 2);
        for k in 0..self.count() {
            let e = self.ends(k);
            if self.active.get(k) && mate[e.u] == e.v {
                covered[e.u] = true;
                covered[e.v] = true;
                out.push(k);
            }
        }
        covered.iter().all(|&c| c).then_some(out)
    }

    /// The least value star tier `t` takes in a perfect matching that costs at most
    /// `most2 / 2` more than the last solve's optimum under that solve's weights: the least
    /// over its vertex's active edges whose reduced cost by the duals of the last pricing
    /// (that solve's optimal ones) is at most that, as every edge of such a matching has
    /// (the matching's cost is the optimum plus its edges' reduced costs and the blossoms'
    /// shares, all `>= 0`). `None` when unknown (no such duals, or the vertex has lazy
    /// pairs).
    fn star_floor_within(&self, t: usize, most2: i128) -> Option<i128> {
        let c = self.f[t].star?;
        // Only the duals the last solve ended with (a solver without duals prices nothing).
        let duals = self.before.as_ref().filter(|_| self.before_final)?;
        if !self.lazy_ends(c).is_empty() || self.costed != self.count() {
            return None;
        }
        self.least_at(c, t, |k| {
            let e = self.ends(k);
            duals.reduced_cost2(e.u, e.v, self.cost(k, &self.priced_weights)) <= most2
        })
    }

    /// The least value on tier `t` of `c`'s active edges that `keep` keeps.
    fn least_at(&self, c: usize, t: usize, keep: impl Fn(usize) -> bool) -> Option<i128> {
        self.at[c]
            .iter()
            .map(|&k| k as usize)
            .filter(|&k| self.active.get(k) && keep(k))
            .map(|k| self.value(k, t) as i128)
            .min()
    }

    /// The least value a star tier can take: the least over its vertex's active edges
    /// (and a lower bound of its lazy pairs').
    fn star_floor(&self, t: usize) -> Option<i128> {
        let c = self.f[t].star?;
        let core = self.least_at(c, t, |_| true);
        let lazy = self
            .lazy_ends(c)
            .iter()
            .map(|e| e.map_or(0, |t2| value_in(t2.iter().copied(), t) as i128))
            .min();
        match (core, lazy) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// The weights of the last solve of [`solve_lex_lazy`] and what stays of them.
struct Weights {
    /// Tiers settled: optimal at 0 (their edges gone) or pinned stars.
    settled: Vec<bool>,
    /// The weight of each tier in the last solve.
    last: Vec<i128>,
    /// Per vertex, what its pinned stars add to each of its edges under `last`.
    frozen: Vec<i128>,
    frozen_max: i128,
    /// The multiplier of the kept tiers' weights, and how many kept tiers it was made for.
    multiplier: Option<(usize, i128)>,
}

impl Weights {
    /// Tier `t` found optimal at `opt`: 0 excludes its edges, a star is pinned.
    fn settle(&mut self, m: &mut Model, t: usize, opt: i128) {
        self.settled[t] = true;
        if opt == 0 {
            m.exclude(t);
            return;
        }
        if let Some(c) = m.f[t].star.filter(|&c| c < self.frozen.len()) {
            let add = self.last[t].saturating_mul(opt);
            self.frozen[c] = self.frozen[c].saturating_add(add);
            self.frozen_max = self.frozen_max.max(self.frozen[c]);
        }
        m.pin(t, opt);
    }

    /// The settled tiers' weights go (every edge changes cost: the next solve is fresh).
    fn unfreeze(&mut self) {
        for t in 0..self.last.len() {
            if self.settled[t] {
                self.last[t] = 0;
            }
        }
        self.frozen.fill(0);
        self.frozen_max = 0;
    }
}

/// The weights of tiers in order of priority whose `bounds` are the most a matching can win
/// back on each, from the last up: `w_last = 1`, `w_i = 1 + Σ_{j>i} w_j·b_j` (a matching
/// worse on tier `i` loses more there than it can win below), and their total `Σ w_j·b_j`;
/// `None` once that total reaches `cap`.
fn chain_weights(bounds: &[i128], cap: i128) -> Option<(Vec<i128>, i128)> {
    let mut weights = vec![0i128; bounds.len()];
    let mut below: i128 = 0;
    for k in (0..bounds.len()).rev() {
        weights[k] = below + 1;
        below = weights[k]
            .checked_mul(bounds[k])
            .and_then(|x| x.checked_add(below))
            .filter(|&b| b < cap)?;
    }
    Some((weights, below))
}

/// The cost of tier values under these weights.
fn weighed(tiers: impl IntoIterator<Item = (usize, i64)>, weights: &[i128]) -> i128 {
    tiers
        .into_iter()
        .map(|(t, v)| weights[t] * i128::from(v))
        .sum()
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
    edges: &LexEdges,
    tiers: usize,
    start: Option<Vec<usize>>,
    hint_last: bool,
    core: Option<&[bool]>,
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    solve_lex_lazy(
        solver,
        vertices,
        edges,
        tiers,
        start,
        hint_last,
        core.map(<[bool]>::to_vec),
        None,
        stats,
    )
}

/// [`solve_lex`] over `edges` and the pairs of `lazy` (none: only `edges`), which join the
/// problem only when the duals of a solve price them in (exact, LP duality).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_lex_lazy(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &LexEdges,
    tiers: usize,
    start: Option<Vec<usize>>,
    hint_last: bool,
    core: Option<Vec<bool>>,
    lazy: Option<&Lazy>,
    stats: &mut LexStats,
) -> Result<Option<Vec<usize>>, LexError> {
    if !edges.fits() {
        return Err(LexError::Unpacked);
    }
    // Which edges the solver has from the outset, one bit each (the flags given are freed).
    let core = match core {
        Some(c) => Bits::from_bools(&c),
        None => Bits::filled(edges.len(), true),
    };
    let mut m = Model::new(vertices, edges, tiers, core, lazy);
    let zero = vec![0i128; tiers];
    let start = start.and_then(|s| m.matched_edges(&s).map(|ks| (s, ks)));
    let mut mate = match start {
        Some((s, ks)) => {
            // The start's edges are in the problem from the outset.
            for k in ks {
                m.in_problem.set(k, true);
            }
            s
        }
        None => match m.solve(solver, &zero, stats, &mut None)? {
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
    // The weights of the last solve, and what stays of them: a settled tier (optimal at 0,
    // or a pinned star) keeps its weight, as it adds the same to every matching left (a
    // pinned star's edges all have the one value; `frozen` is what that adds per vertex),
    // so that the costs change only where the new tiers are and the solver state of the
    // last solve can be resumed (see `Model::resume`).
    let mut w = Weights {
        settled: vec![false; tiers],
        last: vec![0i128; tiers],
        frozen: vec![0i128; vertices],
        frozen_max: 0,
        multiplier: None,
    };
    let mut warm = None;
    let mut s0 = 0;
    while s0 < real {
        if m.f[s0].max == 0 {
            s0 += 1;
            continue;
        }
        let now = m.total(&mate, s0);
        if now == 0 {
            w.settle(&mut m, s0, 0);
            s0 += 1;
            continue;
        }
        // With the hint last, a matching as good as `mate` on every tier above costs at
        // most the hint's bound more than it under the last solve's weights: a star whose
        // cheaper edges all cost more than that (by their reduced costs) keeps its value.
        let plain = m.star_floor(s0) == Some(now);
        let by_duals =
            !plain && hint_last && m.star_floor_within(s0, 2 * hint_tier_bound) == Some(now);
        if plain || by_duals {
            stats.by_duals += usize::from(by_duals);
            w.settle(&mut m, s0, now);
            s0 += 1;
            continue;
        }
        let bound_of = |m: &Model, t: usize| -> i128 {
            if t == s0 {
                now
            } else if m.f[t].star.is_some() {
                m.f[t].max as i128
            } else {
                m.f[t].sum.min((vertices as i128 / 2) * m.f[t].max as i128)
            }
        };
        // The kept tiers among themselves, from the last up: `r_i = 1 + Σ_{j>i} r_j·T_j`;
        // their weights are `r_i` times a multiplier `M` kept while they stay the same.
        let optima: Vec<i128> = kept.iter().map(|k| k.1).collect();
        let (r, _) = chain_weights(&optima, i128::MAX).ok_or(LexError::TooLarge)?;
        let kmax = kept
            .iter()
            .zip(&r)
            .try_fold(0i128, |acc, (&(t, _), &ri)| {
                ri.checked_mul(m.f[t].max as i128)
                    .and_then(|x| acc.checked_add(x))
            })
            .ok_or(LexError::TooLarge)?;
        // A hint below the stage: the plain sum of the next tiers' values, so that among
        // the stage's optima the solver takes one good on what follows (which then often
        // needs no solve of its own). The stage's weights are scaled above its bound.
        let scale_after = |m: &Model, last: usize| -> (i128, usize) {
            let mut hint_bound: i128 = 0;
            let mut hint_end = last + 1;
            while !hint_last && hint_end < real {
                let b = bound_of(m, hint_end).max(0);
                if hint_bound + b >= (1 << 24) {
                    break;
                }
                hint_bound += b;
                hint_end += 1;
            }
            if hint_last {
                hint_bound = hint_tier_bound;
            }
            (hint_bound + 1, hint_end)
        };
        // Grow the stage while the weights fit: the new tiers among themselves (`w_last =
        // 1`, `w_i = 1 + Σ_{j>i} w_j·B_j`, their total `G = 1 + Σ w_j·B_j`) below the kept
        // ones, which then need `M >= G`; an edge's cost at most `scale·(M·kmax + Σ
        // w·max) + 2·frozen + hint` within the budget.
        let grow = |m: &Model, mult: i128, frozen_max: i128| -> Option<Vec<(usize, i128)>> {
            let mut chosen = None;
            let mut s1 = s0 + 1;
            loop {
                let stage: Vec<usize> = (s0..s1).filter(|&t| m.f[t].max > 0).collect();
                let bounds: Vec<i128> = stage.iter().map(|&t| bound_of(m, t)).collect();
                let Some((ws, below)) = chain_weights(&bounds, stage_budget) else {
                    break;
                };
                let weights: Vec<(usize, i128)> = stage.iter().copied().zip(ws).collect();
                let last = stage.last().copied().unwrap_or(s0);
                let (scale, _) = scale_after(m, last);
                let edge_max = weights.iter().try_fold(0i128, |acc, &(t, wt)| {
                    wt.checked_mul(m.f[t].max as i128)
                        .and_then(|x| acc.checked_add(x))
                });
                let cost = edge_max.and_then(|nmax| {
                    mult.checked_mul(kmax)?
                        .checked_add(nmax)?
                        .checked_add(1)?
                        .checked_mul(scale)?
                        .checked_add(frozen_max.checked_mul(2)?)
                });
                let ok = below < mult
                    && edge_max.is_some_and(|x| x <= mult)
                    && cost.is_some_and(|c| c < budget);
                if !ok {
                    break;
                }
                chosen = Some(weights);
                if s1 >= real {
                    break;
                }
                s1 += 1;
            }
            chosen
        };
        let mult = match w.multiplier {
            Some((n, mult)) if n == kept.len() => mult,
            _ => (stage_budget - 1) / (kmax + 4),
        };
        let mut chosen = grow(&m, mult, w.frozen_max).map(|x| (x, mult));
        if chosen.is_none() && w.frozen_max > 0 {
            // The settled weights take too much room: they go (the next solve is fresh).
            w.unfreeze();
            chosen = grow(&m, mult, 0).map(|x| (x, mult));
        }
        if chosen.is_none() {
            // The least multiplier the first tier needs, the old weights gone.
            w.unfreeze();
            chosen = grow(&m, stage_budget - 1, 0).and_then(|x| {
                let need = x.iter().map(|&(t, wt)| wt * bound_of(&m, t)).sum::<i128>() + 1;
                let need = need.max(x.iter().map(|&(t, wt)| wt * m.f[t].max as i128).sum());
                grow(&m, need, 0).map(|x| (x, need))
            });
        }
        let Some((weights, mult)) = chosen else {
            return Err(LexError::TooLarge);
        };
        w.multiplier = Some((kept.len(), mult));
        let last = weights.iter().map(|(t, _)| *t).max().unwrap_or(s0);
        let (scale, hint_end) = scale_after(&m, last);
        // Exact: a matching worse on a stage tier loses at least `scale·w_i` and wins back
        // at most `scale·(w_i − 1)` below it in the stage plus `hint_bound < scale`.
        let mut dense = vec![0i128; tiers];
        for t in 0..tiers {
            if w.settled[t] {
                dense[t] = w.last[t];
            }
        }
        for (&(t, _), &ri) in kept.iter().zip(&r) {
            dense[t] = mult * ri * scale;
        }
        for &(t, wt) in &weights {
            dense[t] = wt * scale;
        }
        for t in last + 1..hint_end {
            dense[t] = 1;
        }
        if hint_last {
            dense[tiers - 1] = 1;
        }
        let Some(next) = m.solve(solver, &dense, stats, &mut warm)? else {
            // Cannot happen: the previous matching is still available.
            return Err(LexError::Solver("a stage lost its perfect matching".into()));
        };
        w.last = dense;
        mate = next;
        for t in s0..=last {
            if m.f[t].max == 0 {
                continue;
            }
            let opt = m.total(&mate, t);
            if opt == 0 || m.f[t].star.is_some() {
                w.settle(&mut m, t, opt);
            } else {
                kept.push((t, opt));
            }
        }
        s0 = last + 1;
    }
    Ok(Some(mate))
}
