//! The bracket-by-bracket pairing: each bracket is one lexicographic matching over every
//! player still unpaired (see the module doc of [`super`] for the tiers).

use super::colour::{may_meet, pair_flags};
use super::lex::{solve_lex_lazy, Lazy, LexEdges, LexError, LexStats, Values};
use super::player::{DutchPlayer, Float, QuickSet};
use super::threads::both;
use crate::engine::matching::MatchingSolver;
use std::collections::BTreeMap;

/// The players of the round in pairing order (score descending, then start-number
/// position) and the facts the tiers need.
pub(crate) struct Round<'a> {
    pub ps: Vec<&'a DutchPlayer>,
    /// Pairing the last round (topscorer exceptions apply).
    pub last_round: bool,
    /// More than this many half-points makes a topscorer.
    pub topscore: i64,
    /// Rounds already played (float criteria need 1 or 2).
    pub played: u32,
}

/// The result: pairs of positions (higher first) and the position given the bye.
#[derive(Default)]
pub(crate) struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    pub solves: usize,
    /// Of the solves, those resumed from the solver state of the one before.
    pub resumed: usize,
}

/// Why no pairing was found.
#[derive(Debug)]
pub(crate) enum PairError {
    /// No pairing satisfies the absolute criteria.
    Impossible,
    /// The matching failed.
    Solver(String),
}

impl From<LexError> for PairError {
    fn from(e: LexError) -> Self {
        match e {
            LexError::Solver(s) => PairError::Solver(s),
            LexError::TooLarge => PairError::Solver(
                "the criteria of this bracket need more than 128-bit weights".into(),
            ),
            LexError::Unpacked => {
                PairError::Solver("the values of this bracket's pairs do not fit 32 bits".into())
            }
        }
    }
}

/// Below this many players, debug builds solve the exchanges (B1) that phase A's matching
/// makes unnecessary, and check that the heads are the same.
#[cfg(debug_assertions)]
const CHECK_SKIPS_BELOW: usize = 120;

/// Boards without value this close in the order are always handed to the solver.
const NEAR: usize = 12;

/// Two players `i` and `j` places apart in a bracket's order whose natural distance (S1 k
/// against S2 k) is `natural` rarely meet when both distances are beyond [`NEAR`]: such a
/// pair is handed to the solver only when the duals price it in.
fn far_apart(i: usize, j: usize, natural: usize) -> bool {
    let d = i.abs_diff(j);
    d > NEAR && d.abs_diff(natural) > NEAR
}

/// Allocates tier numbers in the order of priority.
#[derive(Default)]
struct Tiers {
    next: usize,
}

impl Tiers {
    fn one(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }
    /// One tier per key, in the order given.
    fn per<K: Ord + Copy>(&mut self, keys: impl IntoIterator<Item = K>) -> BTreeMap<K, usize> {
        keys.into_iter().map(|k| (k, self.one())).collect()
    }
}

/// Builds the edges of one solve over the players `alive` (positions, ascending) and the
/// bye vertex when their number is odd, then solves lexicographically. `pair(a, b)` gives
/// the tier values of the pair of positions a < b (`None`: not allowed), `bye(a)` those of
/// the bye to a (`None`: not allowed), `class(a)` where `a` stands (0: in the bracket, 1:
/// the next score group, 2: below), `meet(a, b)` whether the two may meet at all (a pair
/// that may meet and has no values is not allowed for its whole class). Returns the mate of each alive position (`None` = the
/// bye).
///
/// Only the pairs inside the bracket, the bye's, those of players close in the order and
/// those of the start's matching become edges. A pair with at most one end in the bracket
/// has the values of its ends, each depending only on the other end's class (see
/// [`Lazy`]): those are priced in with the duals when they could improve the solve, so a
/// solve's memory grows with the bracket's pairs and the field, not the field's pairs.
#[allow(clippy::too_many_arguments)]
fn solve(
    solver: &dyn MatchingSolver,
    alive: &[usize],
    tiers: usize,
    pair: &(dyn Fn(usize, usize) -> Option<Vec<(usize, i64)>> + Sync),
    bye: &dyn Fn(usize) -> Option<Vec<(usize, i64)>>,
    class: &dyn Fn(usize) -> u8,
    meet: &dyn Fn(usize, usize) -> bool,
    start: Option<&Mates>,
    hint_last: bool,
    far: &(dyn Fn(usize, usize) -> bool + Sync),
    stats: &mut LexStats,
) -> Result<Option<Mates>, PairError> {
    let n = alive.len();
    let odd = n % 2 == 1;
    let vertices = n + usize::from(odd);
    let classes: Vec<u8> = alive.iter().map(|&a| class(a)).collect();
    let inner: Vec<usize> = (0..n).filter(|&i| classes[i] == 0).collect();
    // The previous solve's matching, if it pairs exactly these players, starts this one.
    let start = start.and_then(|s| {
        let index: BTreeMap<usize, usize> =
            alive.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let mut mate = vec![usize::MAX; vertices];
        for (i, &a) in alive.iter().enumerate() {
            mate[i] = match s.get(&a)? {
                Some(b) => *index.get(b)?,
                None if odd => n,
                None => return None,
            };
            if mate[i] == n {
                mate[n] = i;
            }
        }
        Some(mate)
    });
    // Boards with no value on any tier far apart in the order (the lower brackets, there
    // only to keep the round completable), and those `far` says are unlikely, are left out
    // of the solves and priced in with the duals instead (exact either way).
    let (mut edges, mut core) = inner_pairs(alive, &inner, pair, far);
    let mut outer = QuickSet::default();
    let mut near = |i: usize, j: usize, edges: &mut LexEdges, core: &mut Vec<bool>| {
        let (i, j) = (i.min(j), i.max(j));
        if j >= n || (classes[i] == 0 && classes[j] == 0) || !outer.insert((i, j)) {
            return;
        }
        if let Some(t) = pair(alive[i], alive[j]) {
            core.push(true);
            edges.push(i, j, &merge(t));
        }
    };
    for i in 0..n {
        for j in i + 1..n.min(i + NEAR + 1) {
            near(i, j, &mut edges, &mut core);
        }
        if let Some(m) = start.as_ref().map(|s| s[i]).filter(|&m| m < n) {
            near(i, m, &mut edges, &mut core);
        }
    }
    // The bracket's players with the top of the rest (where its floaters go).
    if let Some(&last) = inner.last() {
        let below: Vec<usize> = (last + 1..n)
            .filter(|&j| classes[j] != 0)
            .take(NEAR)
            .collect();
        for &i in &inner {
            for &j in &below {
                near(i, j, &mut edges, &mut core);
            }
        }
    }
    if odd {
        for (i, &a) in alive.iter().enumerate() {
            if let Some(t) = bye(a) {
                core.push(true);
                edges.push(i, n, &merge(t));
            }
        }
    }
    // Each end's values against each class, from one allowed partner of that class (the
    // first that may meet it; none: no lazy pair of that class).
    let pair_local = |i: usize, j: usize| pair(alive[i], alive[j]).map(merge);
    let members: [Vec<usize>; 3] =
        [0u8, 1, 2].map(|c| (0..n).filter(|&i| classes[i] == c).collect());
    let mut alpha: Vec<[Option<Values>; 3]> = vec![[None, None, None]; vertices];
    for i in 0..n {
        for c in 0..3u8 {
            let own = match (classes[i], c) {
                (0, 0) => None,
                (0, _) | (1, 2) => members[c as usize]
                    .iter()
                    .find(|&&j| j != i && meet(alive[i], alive[j]))
                    .and_then(|&j| pair_local(i, j)),
                _ => Some(Vec::new()),
            };
            alpha[i][c as usize] = own;
        }
    }
    let mut class_of = classes.clone();
    if odd {
        class_of.push(3);
    }
    let lazy = Lazy {
        class: class_of,
        alpha,
        pair: &pair_local,
        edges: outer,
    };
    let Some(mate) = solve_lex_lazy(
        solver,
        vertices,
        &edges,
        tiers,
        start,
        hint_last,
        Some(core),
        Some(&lazy),
        stats,
    )?
    else {
        return Ok(None);
    };
    Ok(Some(
        (0..n)
            .map(|i| (alive[i], (mate[i] < n).then(|| alive[mate[i]])))
            .collect(),
    ))
}

/// Above this many pairs in a bracket, its pairs are valued on two threads (the tests take
/// that path on every bracket of three players or more).
const PAIRS_SPLIT: usize = if cfg!(test) { 1 } else { 200_000 };

/// The pairs of a block of rows of a large bracket (see [`inner_pairs`]; in the tests, a
/// row or two).
const PAIRS_BLOCK: usize = if cfg!(test) { 4 } else { 1 << 20 };

/// The pairs of the bracket's players `inner` (positions in `alive`, ascending) with their
/// values, and whether each is handed to the solver from the outset (see [`solve`]). A
/// large bracket's rows are shared between two threads (a 4 000-player bracket has 8
/// million pairs), each taking about half of the pairs, in blocks of rows of about
/// [`PAIRS_BLOCK`] pairs; the blocks are then copied in order into one list of the exact
/// size, each freed once copied, so that the pairs are held once and one block (not twice,
/// nor half again): the pairs come out in the same order either way.
fn inner_pairs(
    alive: &[usize],
    inner: &[usize],
    pair: &(dyn Fn(usize, usize) -> Option<Vec<(usize, i64)>> + Sync),
    far: &(dyn Fn(usize, usize) -> bool + Sync),
) -> (LexEdges, Vec<bool>) {
    let m = inner.len();
    let row = |x: usize, edges: &mut LexEdges, core: &mut Vec<bool>| {
        let i = inner[x];
        for &j in &inner[x + 1..] {
            if let Some(t) = pair(alive[i], alive[j]) {
                let tiers = merge(t);
                core.push(j - i <= NEAR || (!tiers.is_empty() && !far(alive[i], alive[j])));
                edges.push(i, j, &tiers);
            }
        }
    };
    let all = m * m.saturating_sub(1) / 2;
    if all <= PAIRS_SPLIT {
        let mut edges = LexEdges::with_capacity(all, 2 * all);
        let mut core = Vec::with_capacity(all);
        for x in 0..m {
            row(x, &mut edges, &mut core);
        }
        return (edges, core);
    }
    let blocks = |from: usize, to: usize| {
        let mut out = Vec::new();
        let mut x = from;
        while x < to {
            let start = x;
            let mut most = 0;
            while x < to && (x == start || most + (m - 1 - x) <= PAIRS_BLOCK) {
                most += m - 1 - x;
                x += 1;
            }
            let mut edges = LexEdges::with_capacity(most, 2 * most);
            let mut core = Vec::with_capacity(most);
            for r in start..x {
                row(r, &mut edges, &mut core);
            }
            out.push((edges, core));
        }
        out
    };
    // The first rows are the longest: split where half of the pairs are above.
    let mut split = 0;
    let mut above = 0;
    while 2 * above < all {
        above += m - 1 - split;
        split += 1;
    }
    let (mut first, rest) = both(|| blocks(0, split), || blocks(split, m));
    first.extend(rest);
    let pairs = first.iter().map(|b| b.0.len()).sum();
    let values = first.iter().map(|b| b.0.value_count()).sum();
    let mut edges = LexEdges::with_capacity(pairs, values);
    let mut core = Vec::with_capacity(pairs);
    for (e, c) in first {
        edges.append(&e);
        core.extend_from_slice(&c);
    }
    (edges, core)
}

/// Sums the values of one tier given twice and drops zeros (in place).
fn merge(mut t: Vec<(usize, i64)>) -> Vec<(usize, i64)> {
    t.sort_unstable_by_key(|x| x.0);
    let mut kept = 0;
    for r in 0..t.len() {
        let (k, v) = t[r];
        if v == 0 {
            continue;
        }
        if kept > 0 && t[kept - 1].0 == k {
            t[kept - 1].1 += v;
        } else {
            t[kept] = (k, v);
            kept += 1;
        }
    }
    t.truncate(kept);
    t
}

/// Where each position stands in the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Moved down from a higher bracket.
    Mdp,
    /// Of the bracket's score group.
    Resident,
    /// Of the next score group.
    Next,
    /// Lower.
    Below,
}

impl Round<'_> {
    fn meet(&self, a: usize, b: usize) -> bool {
        may_meet(self.ps[a], self.ps[b], self.last_round, self.topscore)
    }

    /// The pairing of a round in which nobody has anything behind him yet and all have the
    /// same score (round 1 without acceleration): one homogeneous bracket without colour
    /// preferences, floats, byes taken or forbidden pairs. The first candidate of the Dutch
    /// order (C.04.3 B.3, D: S1[i] against S2[i], the last player the PAB when the number is
    /// odd) then meets every criterion with nothing left to minimise, so it is the pairing
    /// and no matching is needed. `None` for any other round. (Round 1 of 9 999 players
    /// gave the solver every pair of the field: 5.9 GB.)
    pub(crate) fn untouched(&self) -> Option<Paired> {
        let first = self.ps.first()?;
        let fresh = |p: &&DutchPlayer| {
            p.score == first.score
                && p.played_games == 0
                && p.colours.is_empty()
                && p.preference.is_none()
                && p.floats == [Float::None; 2]
                && p.bye_eligible
                && p.forbidden.is_empty()
        };
        let n = self.ps.len();
        if n < 2 || !self.ps.iter().all(fresh) {
            return None;
        }
        let m = n / 2;
        Some(Paired {
            pairs: (0..m).map(|i| (i, m + i)).collect(),
            bye: (n % 2 == 1).then_some(n - 1),
            solves: 0,
            resumed: 0,
        })
    }

    /// Pairs the round. `bye_score`: none when the number is even.
    pub(crate) fn pair(&self, solver: &dyn MatchingSolver) -> Result<Paired, PairError> {
        let n = self.ps.len();
        let mut stats = LexStats::default();
        let all: Vec<usize> = (0..n).collect();
        // The score of the bye (C.04.3 C.5/C.6: the lowest score that still completes the
        // round) from a matching of two tiers: any completion, then the bye's score.
        let scores: Vec<i64> = {
            let mut s: Vec<i64> = self.ps.iter().map(|p| p.score).collect();
            s.dedup();
            s
        };
        let group_from_bottom = |a: usize| {
            scores.len()
                - 1
                - scores
                    .iter()
                    .position(|&s| s == self.ps[a].score)
                    .unwrap_or(0)
        };
        let first = solve(
            solver,
            &all,
            1,
            &|a, b| self.meet(a, b).then(Vec::new),
            &|a| {
                self.ps[a]
                    .bye_eligible
                    .then(|| vec![(0, group_from_bottom(a) as i64)])
            },
            &|_| 2,
            &|a, b| self.meet(a, b),
            None,
            false,
            &|_, _| false,
            &mut stats,
        )?
        .ok_or(PairError::Impossible)?;
        let odd = n % 2 == 1;
        let bye_score = first
            .iter()
            .find(|(_, m)| m.is_none())
            .map(|(&a, _)| self.ps[a].score);
        let top = self.ps.first().map_or(0, |p| p.score);
        // C.9 (fewest unplayed games for the bye) applies in the bracket where the bye is
        // decided alone; its rank per number of games played (most games: rank 0).
        let mut c9 = match bye_score {
            Some(b) if b >= top => first
                .iter()
                .all(|(&a, m)| self.ps[a].score < top || m.is_none_or(|m| self.ps[m].score >= top)),
            _ => false,
        };
        let mut unplayed_rank: BTreeMap<u32, i64> = BTreeMap::new();
        if let Some(b) = bye_score {
            let mut games: Vec<u32> = self
                .ps
                .iter()
                .filter(|p| p.score == b)
                .map(|p| p.played_games)
                .collect();
            games.sort_unstable_by(|x, y| y.cmp(x));
            for (k, g) in games.into_iter().enumerate() {
                unplayed_rank.insert(g, k as i64);
            }
        }

        // Score groups: (score, first position, end).
        let mut groups: Vec<(i64, usize, usize)> = Vec::new();
        for (i, p) in self.ps.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.0 == p.score => g.2 = i + 1,
                _ => groups.push((p.score, i, i + 1)),
            }
        }
        let mut alive = vec![true; n];
        let mut pairs = Vec::new();
        let mut mdps: Vec<usize> = Vec::new();
        let mut prev: Mates = first.clone();
        for gi in 0..groups.len() {
            let (_, start, end) = groups[gi];
            let next = groups.get(gi + 1).map_or((0, 0), |g| (g.1, g.2));
            let mut place = vec![Place::Below; n];
            for &m in &mdps {
                place[m] = Place::Mdp;
            }
            for p in place.iter_mut().take(end).skip(start) {
                *p = Place::Resident;
            }
            for p in place.iter_mut().take(next.1).skip(next.0) {
                *p = Place::Next;
            }
            let bracket = Bracket {
                round: self,
                place,
                bye_score: bye_score.filter(|_| odd),
                c9: c9.then_some(&unplayed_rank),
            };
            let live: Vec<usize> = (0..n).filter(|&i| alive[i]).collect();
            // Phase A: the base criteria, then which MDPs are paired and with whom.
            let mates = bracket.phase_a(solver, &live, &prev, &mut stats)?;
            let mut paired_mdps = Vec::new();
            for &m in &mdps {
                if let Some(Some(r)) = mates.get(&m) {
                    if bracket.place[*r] == Place::Resident {
                        pairs.push((m, *r));
                        alive[m] = false;
                        alive[*r] = false;
                        paired_mdps.push(m);
                    }
                }
            }
            // Phase B: the remainder (residents not paired with an MDP).
            let remainder: Vec<usize> = (start..end).filter(|&i| alive[i]).collect();
            let s1 = remainder
                .iter()
                .filter(|&&i| {
                    matches!(mates.get(&i), Some(Some(m)) if *m > i && bracket.place[*m] == Place::Resident)
                })
                .count();
            let live: Vec<usize> = (0..n).filter(|&i| alive[i]).collect();
            let unpaired: Vec<usize> = mdps.iter().copied().filter(|m| alive[*m]).collect();
            let mates =
                bracket.phase_b(solver, &live, &remainder, s1, &unpaired, &mates, &mut stats)?;
            let mut down = unpaired;
            for &r in &remainder {
                match mates.get(&r) {
                    Some(Some(m)) if bracket.place[*m] == Place::Resident => {
                        if r < *m {
                            pairs.push((r, *m));
                        }
                    }
                    _ => down.push(r),
                }
            }
            for &(a, b) in &pairs {
                alive[a] = false;
                alive[b] = false;
            }
            down.sort_unstable();
            // C.9 applies to the next bracket when it holds the bye's score and every player
            // moving down meets (in this solution) someone of the next group.
            c9 = odd
                && gi + 1 < groups.len()
                && bye_score.is_some_and(|b| b >= groups[gi + 1].0)
                && down.iter().all(|d| {
                    mates
                        .get(d)
                        .copied()
                        .flatten()
                        .is_none_or(|m| self.ps[m].score >= groups[gi + 1].0)
                });
            mdps = down;
            prev = mates;
        }
        let bye = (0..n).find(|&i| alive[i]);
        let left = (0..n).filter(|&i| alive[i]).count();
        if left > 1 || (left == 1 && !odd) {
            return Err(PairError::Impossible);
        }
        Ok(Paired {
            pairs,
            bye,
            solves: stats.solves,
            resumed: stats.resumed,
        })
    }
}

/// One bracket: the places of the players and the bye facts.
struct Bracket<'r, 'a> {
    round: &'r Round<'a>,
    place: Vec<Place>,
    bye_score: Option<i64>,
    c9: Option<&'r BTreeMap<u32, i64>>,
}

/// The tiers of the base criteria (C.5-C.21 as bbpPairings orders them).
struct Base {
    bye_over: usize,
    mdp_pair: usize,
    out_b: usize,
    mdp_out: BTreeMap<std::cmp::Reverse<i64>, usize>,
    out_bn: usize,
    group_out_bn: BTreeMap<std::cmp::Reverse<i64>, usize>,
    c9: usize,
    colour: [usize; 4],
    down: [usize; 2],
    up: [usize; 2],
    score_down: [BTreeMap<std::cmp::Reverse<i64>, usize>; 2],
    score_up: [BTreeMap<std::cmp::Reverse<i64>, usize>; 2],
}

impl Bracket<'_, '_> {
    fn p(&self, a: usize) -> &DutchPlayer {
        self.round.ps[a]
    }
    fn in_b(&self, a: usize) -> bool {
        matches!(self.place[a], Place::Mdp | Place::Resident)
    }
    fn in_bn(&self, a: usize) -> bool {
        self.in_b(a) || self.place[a] == Place::Next
    }
    /// The class of a solve's vertex (see `solve`).
    fn class(&self, a: usize) -> u8 {
        match self.place[a] {
            Place::Mdp | Place::Resident => 0,
            Place::Next => 1,
            Place::Below => 2,
        }
    }

    fn base(&self, t: &mut Tiers) -> Base {
        use std::cmp::Reverse;
        let n = self.place.len();
        let mdp_scores: Vec<Reverse<i64>> = (0..n)
            .filter(|&a| self.place[a] == Place::Mdp)
            .map(|a| Reverse(self.p(a).score))
            .collect();
        let b_scores: Vec<Reverse<i64>> = (0..n)
            .filter(|&a| self.in_b(a))
            .map(|a| Reverse(self.p(a).score))
            .collect();
        let mut mdp_scores_sorted = mdp_scores.clone();
        mdp_scores_sorted.sort();
        mdp_scores_sorted.dedup();
        let mut b_sorted = b_scores.clone();
        b_sorted.sort();
        b_sorted.dedup();
        let bye_over = t.one();
        let mdp_pair = t.one();
        let out_b = t.one();
        let mdp_out = t.per(mdp_scores_sorted.iter().copied());
        let out_bn = t.one();
        let group_out_bn = t.per(b_sorted.iter().copied());
        let c9 = t.one();
        let colour = [t.one(), t.one(), t.one(), t.one()];
        let (down1, up1) = (t.one(), t.one());
        let (down2, up2) = (t.one(), t.one());
        let sd1 = t.per(b_sorted.iter().copied());
        let su1 = t.per(mdp_scores_sorted.iter().copied());
        let sd2 = t.per(b_sorted.iter().copied());
        let su2 = t.per(mdp_scores_sorted.iter().copied());
        Base {
            bye_over,
            mdp_pair,
            out_b,
            mdp_out,
            out_bn,
            group_out_bn,
            c9,
            colour,
            down: [down1, down2],
            up: [up1, up2],
            score_down: [sd1, sd2],
            score_up: [su1, su2],
        }
    }

    /// The base values of player `a` whose mate is `other` (none: the bye).
    fn vertex(&self, b: &Base, a: usize, other: Option<usize>, out: &mut Vec<(usize, i64)>) {
        use std::cmp::Reverse;
        let played = self.round.played as usize;
        let p = self.p(a);
        let outside_b = !other.is_some_and(|o| self.in_b(o));
        let outside_bn = !other.is_some_and(|o| self.in_bn(o));
        if self.in_b(a) && outside_b {
            out.push((b.out_b, 1));
            if self.place[a] == Place::Mdp {
                out.push((b.mdp_out[&Reverse(p.score)], 1));
            }
            for k in 0..played.min(2) {
                if p.floats[k] == Float::Down {
                    if self.place[a] == Place::Resident {
                        out.push((b.down[k], 1));
                    }
                    out.push((b.score_down[k][&Reverse(p.score)], 1));
                }
            }
        }
        if self.in_bn(a) && outside_bn {
            out.push((b.out_bn, 1));
            if self.in_b(a) {
                out.push((b.group_out_bn[&Reverse(p.score)], 1));
            }
        }
    }

    /// The base values of the pair of positions x < y (None: they may not meet).
    fn pair_base(&self, b: &Base, x: usize, y: usize) -> Option<Vec<(usize, i64)>> {
        use std::cmp::Reverse;
        if !self.round.meet(x, y) {
            return None;
        }
        let mut out = Vec::new();
        self.vertex(b, x, Some(y), &mut out);
        self.vertex(b, y, Some(x), &mut out);
        let both_mdp = self.place[x] == Place::Mdp && self.place[y] == Place::Mdp;
        if both_mdp {
            out.push((b.mdp_pair, 1));
        } else if self.in_b(x) && self.in_b(y) {
            let (hi, lo) = (self.p(x), self.p(y));
            for (k, bad) in pair_flags(lo, hi).into_iter().enumerate() {
                if bad {
                    out.push((b.colour[k], 1));
                }
            }
            for k in 0..(self.round.played as usize).min(2) {
                if hi.score > lo.score && lo.floats[k] == Float::Up {
                    out.push((b.up[k], 1));
                    out.push((b.score_up[k][&Reverse(hi.score)], 1));
                }
            }
        }
        Some(out)
    }

    fn bye_base(&self, b: &Base, a: usize) -> Option<Vec<(usize, i64)>> {
        let p = self.p(a);
        if !p.bye_eligible {
            return None;
        }
        let mut out = Vec::new();
        self.vertex(b, a, None, &mut out);
        if self.bye_score.is_some_and(|s| p.score > s) {
            out.push((b.bye_over, 1));
        }
        if let (Some(ranks), Some(s)) = (self.c9, self.bye_score) {
            if p.score == s {
                out.push((b.c9, ranks.get(&p.played_games).copied().unwrap_or(0)));
            }
        }
        Some(out)
    }

    /// Phase A: base criteria; then each MDP in order paired if possible (C.04.3 B.3: the
    /// MDPs paired are the highest), then each paired MDP's opponent the highest resident.
    fn phase_a(
        &self,
        solver: &dyn MatchingSolver,
        live: &[usize],
        start: &Mates,
        stats: &mut LexStats,
    ) -> Result<Mates, PairError> {
        let mut t = Tiers::default();
        let base = self.base(&mut t);
        let mdps: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&a| self.place[a] == Place::Mdp)
            .collect();
        let residents: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&a| self.place[a] == Place::Resident)
            .collect();
        let paired = t.per(mdps.iter().copied());
        let opponent = t.per(mdps.iter().copied());
        // The hint (not a criterion): MDP k with resident k, as the order of both asks, and
        // the least sum of the positions of the residents heading a pair of residents. The
        // least such sum is that of the top residents, so among the optima a matching with
        // no exchange is taken when there is one (and a solve runs: a start that settles
        // every tier is kept as it is), and then `phase_b` needs no solve of its exchanges.
        let hint = t.one();
        let mut index = vec![0i64; self.place.len()];
        for (k, &a) in residents.iter().enumerate() {
            index[a] = k as i64;
        }
        for (k, &a) in mdps.iter().enumerate() {
            index[a] = k as i64;
        }
        let pos = |r: usize| index[r];
        let mdp_pos = |m: usize| index[m];
        let pair = |x: usize, y: usize| {
            let mut out = self.pair_base(&base, x, y)?;
            for (m, o) in [(x, y), (y, x)] {
                if self.place[m] == Place::Mdp {
                    if self.place[o] == Place::Resident {
                        out.push((opponent[&m], pos(o)));
                        out.push((hint, (mdp_pos(m) - pos(o)).pow(2)));
                    } else if self.place[o] != Place::Mdp {
                        out.push((paired[&m], 1));
                    }
                }
            }
            if self.place[x] == Place::Resident && self.place[y] == Place::Resident {
                out.push((hint, pos(x).min(pos(y))));
            }
            Some(out)
        };
        let bye = |a: usize| {
            let mut out = self.bye_base(&base, a)?;
            if self.place[a] == Place::Mdp {
                out.push((paired[&a], 1));
            }
            Some(out)
        };
        // Two residents far from each other and from the natural distance (half the
        // residents) rarely meet: priced in when they do, as in the remainder's solves.
        let half = residents.len() / 2;
        let far = |x: usize, y: usize| {
            let resident = |a: usize| self.place[a] == Place::Resident;
            resident(x) && resident(y) && far_apart(pos(x) as usize, pos(y) as usize, half)
        };
        solve(
            solver,
            live,
            t.next,
            &pair,
            &bye,
            &|a| self.class(a),
            &|a, b| self.round.meet(a, b),
            Some(start),
            true,
            &far,
            stats,
        )?
        .ok_or(PairError::Impossible)
    }

    /// Phase B: the remainder. Fewest exchanges (pairs headed by an S2 player), then the
    /// smallest sum of the heads' positions, then the lowest S1 players exchanged, the
    /// highest S2 players exchanged, and each head's opponent the highest possible
    /// (C.04.3 B.2-B.4 transpositions and exchanges in the order of the pairing numbers).
    #[allow(clippy::too_many_arguments)]
    fn phase_b(
        &self,
        solver: &dyn MatchingSolver,
        live: &[usize],
        remainder: &[usize],
        s1: usize,
        unpaired_mdps: &[usize],
        start: &Mates,
        stats: &mut LexStats,
    ) -> Result<Mates, PairError> {
        let r = Remainder {
            members: remainder,
            s1,
            unpaired_mdps,
        };
        // B1: who heads a pair (the exchanges); the order of the exchanged players only
        // when there are exchanges. Phase A's matching is optimal on the base criteria here
        // too (with the MDPs' boards it makes a matching of phase A) and pairs `s1` members
        // of the remainder: when none of them is headed by an S2 player, it has the least
        // exchanges (none) and so the least sum of the heads (those of S1), and it is an
        // optimum of B1 without a solve.
        let mates = if r.exchanges(start) > 0 {
            self.remainder_solve(solver, live, &r, Heads::Exchanges(false), start, stats)?
        } else {
            // Debug builds, small problems: B1 solved has the same heads.
            #[cfg(debug_assertions)]
            if live.len() <= CHECK_SKIPS_BELOW {
                let solved = self.remainder_solve(
                    solver,
                    live,
                    &r,
                    Heads::Exchanges(false),
                    start,
                    &mut LexStats::default(),
                )?;
                debug_assert_eq!(
                    r.heads(&solved),
                    r.heads(start),
                    "phase A's matching is no B1 optimum"
                );
            }
            start.clone()
        };
        let mates = if r.exchanges(&mates) > 0 {
            self.remainder_solve(solver, live, &r, Heads::Exchanges(true), &mates, stats)?
        } else {
            mates
        };
        // B2: the heads fixed, each one's opponent the highest possible, in order.
        let heads = r.heads(&mates);
        self.remainder_solve(solver, live, &r, Heads::Fixed(&heads), &mates, stats)
    }

    fn remainder_solve(
        &self,
        solver: &dyn MatchingSolver,
        live: &[usize],
        r: &Remainder,
        heads: Heads,
        start: &Mates,
        stats: &mut LexStats,
    ) -> Result<Mates, PairError> {
        let mut t = Tiers::default();
        let base = self.base(&mut t);
        let n = r.members.len();
        let s1 = r.s1;
        let (x1, x2) = (t.one(), t.one());
        let with_order = matches!(heads, Heads::Exchanges(true));
        let s1_bottom_up = t.per((0..if with_order { s1 } else { 0 }).rev());
        let s2_top_down = t.per(if with_order { s1..n } else { n..n });
        let fixed = match heads {
            Heads::Fixed(h) => Some(h),
            Heads::Exchanges(_) => None,
        };
        let head = t.per(if fixed.is_some() { 0..n } else { 0..0 });
        // With the heads fixed, the hint (not a criterion): the k-th head with the k-th
        // other member, the natural pairing.
        let hint = fixed.map(|_| t.one());
        let ranks: Vec<i64> = fixed.map_or(Vec::new(), |hd| {
            let mut seen = [0i64; 2];
            hd.iter()
                .map(|&h| {
                    seen[usize::from(h)] += 1;
                    seen[usize::from(h)] - 1
                })
                .collect()
        });
        let rank_among = |i: usize| ranks[i];
        let mut where_in = vec![None; self.place.len()];
        for (i, &a) in r.members.iter().enumerate() {
            where_in[a] = Some(i);
        }
        let pos = |a: usize| where_in[a];
        let mut unpaired = vec![false; self.place.len()];
        for &m in r.unpaired_mdps {
            unpaired[m] = true;
        }
        let is_unpaired_mdp = |a: usize| unpaired[a];
        let pair = |x: usize, y: usize| {
            if (is_unpaired_mdp(x) && pos(y).is_some()) || (is_unpaired_mdp(y) && pos(x).is_some())
            {
                return None;
            }
            let (px, py) = (pos(x), pos(y));
            if let Some(hd) = fixed {
                match (px, py) {
                    (Some(i), Some(j)) => {
                        let (h, o) = if i < j { (i, j) } else { (j, i) };
                        if !hd[h] || hd[o] {
                            return None;
                        }
                    }
                    (Some(i), None) | (None, Some(i)) if hd[i] => return None,
                    _ => {}
                }
            }
            let mut out = self.pair_base(&base, x, y)?;
            match (px, py) {
                (Some(i), Some(j)) => {
                    let (h, o) = if i < j { (i, j) } else { (j, i) };
                    if let Some(hint) = hint {
                        out.push((head[&h], o as i64));
                        out.push((hint, (rank_among(h) - rank_among(o)).pow(2)));
                    } else {
                        if h >= s1 {
                            out.push((x1, 1));
                        }
                        out.push((x2, h as i64));
                        if with_order {
                            if h < s1 {
                                out.push((s1_bottom_up[&h], 1));
                            }
                            if o >= s1 {
                                out.push((s2_top_down[&o], 1));
                            }
                        }
                    }
                }
                (Some(i), None) | (None, Some(i)) if with_order && i >= s1 => {
                    out.push((s2_top_down[&i], 1));
                }
                _ => {}
            }
            Some(out)
        };
        let bye = |a: usize| {
            let mut out = self.bye_base(&base, a)?;
            if let Some(i) = pos(a) {
                if fixed.is_some_and(|hd| hd[i]) {
                    return None;
                }
                if with_order && i >= s1 {
                    out.push((s2_top_down[&i], 1));
                }
            }
            Some(out)
        };
        // Two members of the remainder far from the natural distance (S1 k against S2 k)
        // and from each other rarely meet: priced in when they do.
        let far = |x: usize, y: usize| match (pos(x), pos(y)) {
            (Some(i), Some(j)) => far_apart(i, j, s1.max(n / 2)),
            _ => false,
        };
        solve(
            solver,
            live,
            t.next,
            &pair,
            &bye,
            &|a| self.class(a),
            &|a, b| self.round.meet(a, b),
            Some(start),
            hint.is_some(),
            &far,
            stats,
        )?
        .ok_or(PairError::Impossible)
    }
}

/// The mate of each player of a solve (`None`: the bye).
pub(crate) type Mates = BTreeMap<usize, Option<usize>>;

/// The remainder of a bracket: its residents in order, the size of S1, the MDPs left
/// unpaired (they may not join it).
struct Remainder<'a> {
    members: &'a [usize],
    s1: usize,
    unpaired_mdps: &'a [usize],
}

impl Remainder<'_> {
    /// Per member, in order: it heads a pair of the remainder (its mate is a later member).
    fn heads(&self, mates: &Mates) -> Vec<bool> {
        let at: BTreeMap<usize, usize> = self
            .members
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, i))
            .collect();
        self.members
            .iter()
            .enumerate()
            .map(|(i, a)| {
                mates
                    .get(a)
                    .copied()
                    .flatten()
                    .and_then(|m| at.get(&m))
                    .is_some_and(|&j| i < j)
            })
            .collect()
    }

    /// The pairs of the remainder headed by an S2 member.
    fn exchanges(&self, mates: &Mates) -> usize {
        self.heads(mates)[self.s1..].iter().filter(|&&h| h).count()
    }
}

/// What a remainder solve decides.
#[derive(Clone, Copy)]
enum Heads<'a> {
    /// Who heads the pairs: the fewest exchanges, the smallest sum of the heads'
    /// positions; with `true`, also the lowest S1 and highest S2 players exchanged.
    Exchanges(bool),
    /// The heads are these (by remainder position); each one's opponent is chosen.
    Fixed(&'a [bool]),
}
