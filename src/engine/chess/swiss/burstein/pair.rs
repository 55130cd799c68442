//! The pairing of a round: the score groups fixed from the top (merged with the next one
//! while they cannot be paired), then each group paired from its highest index down, each
//! player against the lowest one the rest of the round allows; every step one lexicographic
//! matching ([`lex`]) over all the players (see the module doc of [`super`]).

use super::index::Index;
use crate::engine::chess::swiss::dutch::colour::compatible;
use crate::engine::chess::swiss::dutch::lex::{solve_lex_lazy, LexEdges, LexError, LexStats};
use crate::engine::chess::swiss::dutch::player::{DutchPlayer, QuickHasher};
use crate::engine::matching::MatchingSolver;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// One candidate pair: both in the same (merged) score group, and (only within the group
/// being paired) colour preferences that do not clash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pair {
    same: bool,
    colour: bool,
}

/// The players to pair (the bye already set aside), highest first, with their indices.
pub(crate) struct Field<'a> {
    pub ps: Vec<&'a DutchPlayer>,
    pub ix: Vec<Index>,
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
        PairError::Solver(format!("{e:?}"))
    }
}

/// The result: pairs of positions (higher first), and the work done.
#[derive(Default)]
pub(crate) struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub solves: usize,
}

type Pairs = HashMap<(usize, usize), Pair, BuildHasherDefault<QuickHasher>>;

struct Work<'a, 'f> {
    f: &'f Field<'a>,
    n: usize,
    pairs: Pairs,
    /// The partner of each finalised player.
    fixed: Vec<Option<usize>>,
    solver: &'f dyn MatchingSolver,
    stats: LexStats,
}

/// May the two meet (no rematch, no forbidden pair, not the same absolute preference)?
fn may_meet(a: &DutchPlayer, b: &DutchPlayer) -> bool {
    !(a.forbidden.contains(&b.sn)
        || b.forbidden.contains(&a.sn)
        || (a.absolute() && b.absolute() && a.preference == b.preference))
}

impl Work<'_, '_> {
    fn set(&mut self, a: usize, b: usize, p: Option<Pair>) {
        let key = (a.min(b), a.max(b));
        match p {
            Some(p) => {
                self.pairs.insert(key, p);
            }
            None => {
                self.pairs.remove(&key);
            }
        }
    }

    fn weigh(&mut self, a: usize, b: usize, same: bool, due_colour: bool) {
        let (pa, pb) = (self.f.ps[a], self.f.ps[b]);
        let p = may_meet(pa, pb).then(|| Pair {
            same,
            colour: same && due_colour && compatible(pa.preference, pb.preference),
        });
        self.set(a, b, p);
    }

    /// The lexicographic optimum over every player: the most pairs (a player `v` left
    /// unpaired meets his twin `n + v`), the most pairs inside a score group, the most
    /// pairs without clashing colours, then for each player of `order` in turn the lowest
    /// possible opponent among those after him in `order`.
    fn solve(&mut self, order: &[usize]) -> Result<Vec<usize>, PairError> {
        let n = self.n;
        let mut keys: Vec<((usize, usize), Pair)> = self
            .pairs
            .iter()
            .filter(|((a, b), _)| self.fixed[*a].is_none() && self.fixed[*b].is_none())
            .map(|(k, p)| (*k, *p))
            .collect();
        keys.sort_unstable_by_key(|(k, _)| *k);
        let mut pos = vec![usize::MAX; n];
        for (k, &v) in order.iter().enumerate() {
            pos[v] = k;
        }
        let len = order.len();
        let mut edges = LexEdges::with_capacity(2 * keys.len() + n, 4 * keys.len() + n);
        let mut tiers = Vec::with_capacity(4);
        for &((a, b), p) in &keys {
            tiers.clear();
            if !p.same {
                tiers.push((1, 1));
            }
            if !p.colour {
                tiers.push((2, 1));
            }
            // The hint (below every criterion): the group's natural pairing, first against
            // last, so that most stars already hold their best value and are settled by
            // the duals without a solve.
            let hint = match (pos[a], pos[b]) {
                (usize::MAX, usize::MAX) => 0,
                (i, j) if i != usize::MAX && j != usize::MAX => {
                    let (i, j) = (i.min(j), i.max(j));
                    (len - 1 - i).abs_diff(j)
                }
                _ => len,
            };
            if hint > 0 && len > 0 {
                tiers.push((3 + len, hint as i64));
            }
            // Player v's star: the later the opponent in `order`, the better.
            for (x, y) in [(a, b), (b, a)] {
                if pos[x] != usize::MAX {
                    let value = if pos[y] != usize::MAX && pos[y] > pos[x] {
                        len - 1 - pos[y]
                    } else {
                        len
                    };
                    tiers.push((3 + pos[x], value as i64));
                }
            }
            edges.push(a, b, &tiers);
            edges.push(n + a, n + b, &[]);
        }
        for (v, &fixed) in self.fixed.iter().enumerate() {
            match fixed {
                Some(w) if w > v => {
                    edges.push(v, w, &[]);
                    edges.push(n + v, n + w, &[]);
                }
                Some(_) => {}
                None => {
                    let mut t = vec![(0, 1)];
                    if pos[v] != usize::MAX {
                        t.push((3 + pos[v], len as i64));
                        t.push((3 + len, len as i64));
                    }
                    edges.push(v, n + v, &t);
                }
            }
        }
        let mut stats = LexStats::default();
        let mate = solve_lex_lazy(
            self.solver,
            2 * n,
            &edges,
            3 + len + usize::from(len > 0),
            None,
            len > 0,
            None,
            None,
            &mut stats,
        )?
        .ok_or(PairError::Impossible)?;
        self.stats.solves += stats.solves;
        self.stats.by_duals += stats.by_duals;
        // A player left unpaired is his own mate.
        Ok((0..n)
            .map(|v| if mate[v] >= n { v } else { mate[v] })
            .collect())
    }
}

/// At most one player of each group (two when the players above and in it are odd in
/// number) meets someone outside it, and nobody above the last group is left unpaired.
fn groups_hold(mate: &[usize], groups: &[usize]) -> bool {
    let last = *groups.last().expect("groups");
    let before_last = groups[groups.len() - 2];
    let mut it = 0;
    let mut outside = 0;
    let mut begin = 0;
    for (v, &m) in mate.iter().enumerate() {
        if v >= last {
            return true;
        }
        if v >= groups[it] {
            outside = 0;
            begin = v;
            while v >= groups[it] {
                it += 1;
            }
        }
        if m == v && v < before_last {
            return false;
        }
        if m == v || m < begin || m >= groups[it] {
            outside += 1;
            if outside > if groups[it] % 2 == 1 { 2 } else { 1 } {
                return false;
            }
        }
    }
    true
}

/// Pairs the field (even in number, highest first).
pub(crate) fn pair(field: &Field, solver: &dyn MatchingSolver) -> Result<Paired, PairError> {
    let n = field.ps.len();
    let mut w = Work {
        f: field,
        n,
        pairs: Pairs::default(),
        fixed: vec![None; n],
        solver,
        stats: LexStats::default(),
    };
    let score = |v: usize| field.ps[v].score;
    // The score groups: boundaries, a boundary listed twice when no player may float out
    // of the group above it (an even number of players up to it).
    let mut groups: Vec<usize> = vec![0, 0];
    let mut holds = true;
    while *groups.last().expect("groups") < n {
        groups.push(*groups.last().expect("groups"));
        loop {
            let len = groups.len();
            let begin = groups[len - 1];
            loop {
                let (a, b, c) = (groups[len - 3], groups[len - 2], groups[len - 1]);
                for v in a..c {
                    w.weigh(c, v, v >= b, false);
                }
                groups[len - 1] += 1;
                let c = groups[len - 1];
                if !(c < n && score(begin) == score(c)) {
                    break;
                }
            }
            let (b, c) = (groups[len - 2], groups[len - 1]);
            // An odd group may leave one player to the first of the next score.
            if c % 2 == 1 {
                for v in b..c {
                    w.set(
                        c,
                        v,
                        Some(Pair {
                            same: false,
                            colour: false,
                        }),
                    );
                }
            }
            let mate = w.solve(&[])?;
            holds = groups_hold(&mate, &groups);
            if c >= n || holds {
                break;
            }
        }
        let c = *groups.last().expect("groups");
        if c < n && c.is_multiple_of(2) {
            groups.push(c);
        }
    }
    // The last group cannot be paired: merge it with the one above, and so on.
    while groups.len() > 3 && !holds {
        groups.pop();
        let boundary = groups.pop().expect("groups");
        let begin = groups.pop().expect("groups");
        let above = *groups.last().expect("groups");
        for outer in above..boundary {
            for inner in boundary..n {
                w.weigh(outer, inner, outer >= begin, false);
            }
        }
        groups.push(begin);
        groups.push(n);
        let mate = w.solve(&[])?;
        holds = groups_hold(&mate, &groups);
    }
    if !holds {
        return Err(PairError::Impossible);
    }
    // Each group from its highest index: the lowest opponent that keeps the rest pairable.
    let mut out = Paired::default();
    let mut floater: Option<usize> = None;
    let mut begin = groups[0];
    for &end in &groups[1..] {
        if begin == end {
            continue;
        }
        let mut full: Vec<usize> = (begin..end).collect();
        if let Some(f) = floater.take() {
            full.push(f);
        }
        full.sort_by(|&a, &b| {
            if field.ix[b].below(&field.ix[a]) {
                std::cmp::Ordering::Less
            } else if field.ix[a].below(&field.ix[b]) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        for (k, &a) in full.iter().enumerate() {
            for &b in &full[k + 1..] {
                w.weigh(a, b, true, true);
            }
        }
        let mate = w.solve(&full)?;
        for &v in &full {
            if w.fixed[v].is_some() {
                continue;
            }
            let m = mate[v];
            if m == v {
                return Err(PairError::Impossible);
            }
            if m >= end {
                floater = Some(v);
            } else {
                w.fixed[v] = Some(m);
                w.fixed[m] = Some(v);
                out.pairs.push((v, m));
            }
        }
        begin = end;
    }
    if out.pairs.len() * 2 != n {
        return Err(PairError::Impossible);
    }
    out.solves = w.stats.solves;
    Ok(out)
}
