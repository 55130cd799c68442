//! The pairing of a round (articles 1-4): the pairing-allocated bye, then the score groups
//! in the order of 2.2, each one lexicographic matching ([`lex`]) of its players, the
//! floaters it sends on chosen in the same solve (see the module doc of [`super`]).

use super::player::{colour_options, compatible, LimPlayer};
use crate::engine::chess::swiss::dutch::lex::{
    solve_lex_lazy, LexEdges, LexError, LexStats, Values,
};
use crate::engine::chess::swiss::Colour;
use crate::engine::matching::{Edge, MatchingProblem, MatchingSolver};
use std::cmp::Reverse;

/// The players to pair (the section's forced boards and decided byes set aside).
pub(crate) struct Field<'a> {
    pub ps: Vec<&'a LimPlayer>,
    /// The median score (2.2) in half-points: half the rounds played.
    pub median: i64,
    /// The last round of the event (6).
    pub last_round: bool,
}

impl Field<'_> {
    fn compatible(&self, a: usize, b: usize) -> bool {
        compatible(self.ps[a], self.ps[b], self.last_round)
    }
}

/// Why no pairing was found.
#[derive(Debug)]
pub(crate) enum PairError {
    /// No pairing of the players meets article 2.1 (with 6 in the last round).
    Impossible,
    /// An odd number to pair and nobody may receive the bye (Basic Rules 4).
    NoBye,
    /// The matching failed.
    Solver(String),
}

impl From<LexError> for PairError {
    fn from(e: LexError) -> Self {
        PairError::Solver(format!("{e:?}"))
    }
}

/// A board: the two players (positions in [`Field::ps`]) and the score of the group that
/// paired them.
pub(crate) type Board = (usize, usize, i64);

/// The pairing.
#[derive(Default, Debug)]
pub(crate) struct Paired {
    pub boards: Vec<Board>,
    pub bye: Option<usize>,
    /// Players transferred out of a score group (each time they were).
    pub floaters: usize,
    pub solves: usize,
}

/// The direction a group is paired in (2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Down,
    Up,
}

/// How many players of `a` and `b` miss their due colour when the two meet, the colours
/// given as well as 5.1.1 and 5.1.2 allow (as well as possible when nothing does, in the last
/// round).
pub(crate) fn colour_misses(a: &LimPlayer, b: &LimPlayer) -> i64 {
    let miss = |p: &LimPlayer, c: Colour| i64::from(p.due.is_some_and(|d| d != c));
    let cost = |a_white: bool| {
        let (ca, cb) = if a_white {
            (Colour::White, Colour::Black)
        } else {
            (Colour::Black, Colour::White)
        };
        miss(a, ca) + miss(b, cb)
    };
    let (w, bl) = colour_options(a, b);
    match (w, bl) {
        (true, false) => cost(true),
        (false, true) => cost(false),
        _ => cost(true).min(cost(false)),
    }
}

/// A perfect matching of `vs` exists on the compatible pairs at most `window` apart in the
/// list (`usize::MAX`: every pair).
fn pairable(f: &Field, vs: &[usize], window: usize, solver: &dyn MatchingSolver) -> bool {
    if vs.len() % 2 == 1 {
        return false;
    }
    if vs.is_empty() {
        return true;
    }
    let mut edges = Vec::new();
    for i in 0..vs.len() {
        for j in i + 1..vs.len().min(i.saturating_add(window).saturating_add(1)) {
            if f.compatible(vs[i], vs[j]) {
                edges.push(Edge::new(i, j, 0));
            }
        }
    }
    matches!(
        solver.solve(&MatchingProblem {
            vertices: vs.len(),
            edges
        }),
        Ok(Some(_))
    )
}

/// The players `vs` can all be paired (tried first on a narrow window of the order by score
/// and number, then on every pair).
pub(crate) fn certainly_pairable(f: &Field, vs: &[usize], solver: &dyn MatchingSolver) -> bool {
    let mut vs = vs.to_vec();
    vs.sort_by_key(|&v| (Reverse(f.ps[v].score), f.ps[v].tpn));
    pairable(f, &vs, 16, solver) || (vs.len() > 17 && pairable(f, &vs, usize::MAX, solver))
}

/// Pairs the field.
pub(crate) fn pair(f: &Field, solver: &dyn MatchingSolver) -> Result<Paired, PairError> {
    let n = f.ps.len();
    let mut out = Paired::default();
    let mut stats = LexStats::default();
    let mut open = vec![true; n];
    if n % 2 == 1 {
        // 1.1 and Basic Rules 3-4: the lowest ranked eligible player of the lowest score
        // group, the first of them whose absence leaves the others pairable.
        let mut order: Vec<usize> = (0..n).filter(|&v| f.ps[v].bye_eligible).collect();
        if order.is_empty() {
            return Err(PairError::NoBye);
        }
        order.sort_by_key(|&v| (f.ps[v].score, Reverse(f.ps[v].tpn)));
        let all: Vec<usize> = (0..n).collect();
        let bye = order
            .into_iter()
            .find(|&c| {
                let others: Vec<usize> = all.iter().copied().filter(|&v| v != c).collect();
                certainly_pairable(f, &others, solver)
            })
            .ok_or(PairError::Impossible)?;
        out.bye = Some(bye);
        open[bye] = false;
    }
    let mut scores: Vec<i64> = (0..n).filter(|&v| open[v]).map(|v| f.ps[v].score).collect();
    scores.sort_unstable_by_key(|&s| Reverse(s));
    scores.dedup();
    let residents = |s: i64, open: &[bool]| -> Vec<usize> {
        let mut r: Vec<usize> = (0..n).filter(|&v| open[v] && f.ps[v].score == s).collect();
        r.sort_by_key(|&v| f.ps[v].tpn);
        r
    };
    let above: Vec<i64> = scores.iter().copied().filter(|&s| s > f.median).collect();
    let below: Vec<i64> = scores
        .iter()
        .rev()
        .copied()
        .filter(|&s| s < f.median)
        .collect();
    let mut ctx = Ctx {
        f,
        solver,
        stats: &mut stats,
        open,
        out: &mut out,
    };
    // 2.2: from the top down to just before the median, from the bottom up to it, the
    // median last; a floater goes to the next group in the direction of pairing (3.2.1).
    let mut down: Vec<usize> = Vec::new();
    for (k, &s) in above.iter().enumerate() {
        let next = residents(above.get(k + 1).copied().unwrap_or(f.median), &ctx.open);
        let res = residents(s, &ctx.open);
        down = ctx.group(s, &res, &down, &[], Direction::Down, &next, true)?;
    }
    let mut up: Vec<usize> = Vec::new();
    for (k, &s) in below.iter().enumerate() {
        let next = residents(below.get(k + 1).copied().unwrap_or(f.median), &ctx.open);
        let res = residents(s, &ctx.open);
        up = ctx.group(s, &res, &[], &up, Direction::Up, &next, true)?;
    }
    let res = residents(f.median, &ctx.open);
    let left = ctx.group(f.median, &res, &down, &up, Direction::Down, &[], false)?;
    if !left.is_empty() {
        return Err(PairError::Impossible);
    }
    out.solves = stats.solves;
    Ok(out)
}

/// What the groups of a round share while they are paired.
struct Ctx<'f, 'a> {
    f: &'f Field<'a>,
    solver: &'f dyn MatchingSolver,
    stats: &'f mut LexStats,
    /// Players not yet paired (nor given the bye).
    open: Vec<bool>,
    out: &'f mut Paired,
}

/// The tiers of a group's solve, highest first (the module doc of [`super`] names them).
const T_FLOATERS: usize = 0;
const T_TYPE_A: usize = 1;
const T_TYPE_B: usize = 2;
const T_TYPE_C: usize = 3;
const T_FLOATED_LAST: usize = 4;
const T_COLOUR: usize = 5;
const T_POSITION: usize = 6;

impl Ctx<'_, '_> {
    /// Pairs one score group: `res` its residents (by pairing number), `dfs` and `ufs` the
    /// floaters it receives from above and from below, `next` the residents of the group its
    /// floaters go to, `may_float` false for the median group. Returns its floaters.
    #[allow(clippy::too_many_arguments)]
    fn group(
        &mut self,
        score: i64,
        res: &[usize],
        dfs: &[usize],
        ufs: &[usize],
        dir: Direction,
        next: &[usize],
        may_float: bool,
    ) -> Result<Vec<usize>, PairError> {
        let f = self.f;
        let p = |v: usize| f.ps[v];
        // Scrutiny order: floaters from above (3.6: the highest score, then the highest
        // numbered), then from below (3.7: the lowest score, then the lowest numbered),
        // then the residents from #1 down (from the last up when pairing upwards, 4.1).
        let mut dfs = dfs.to_vec();
        dfs.sort_by_key(|&v| (Reverse(p(v).score), p(v).tpn));
        let mut ufs = ufs.to_vec();
        ufs.sort_by_key(|&v| (p(v).score, Reverse(p(v).tpn)));
        let mut res = res.to_vec();
        if dir == Direction::Up {
            res.reverse();
        }
        let incoming = dfs.len() + ufs.len();
        let members: Vec<usize> = dfs.into_iter().chain(ufs).chain(res).collect();
        let m = members.len();
        if m == 0 {
            return Ok(vec![]);
        }
        let n = m - incoming;
        let h = n / 2;
        // Each member's rank in the direction of pairing (3.8: a floater's opponents from
        // the highest numbered down, or the lowest up).
        let mut by_rank: Vec<usize> = (0..m).collect();
        by_rank.sort_by_key(|&i| match dir {
            Direction::Down => (p(members[i]).tpn as i64, 0),
            Direction::Up => (-(p(members[i]).tpn as i64), 0),
        });
        let mut rank = vec![0usize; m];
        for (k, &i) in by_rank.iter().enumerate() {
            rank[i] = k;
        }
        // The place of `j` in the exchange order of `i` (4.2-4.3): a resident looks first
        // at the lower half in order, then at the upper half from its last up.
        let key = |i: usize, j: usize| -> i64 {
            if i < incoming {
                return rank[j] as i64;
            }
            if j < incoming {
                return (n + j) as i64;
            }
            let q = j - incoming + 1;
            if q > h {
                (q - h - 1) as i64
            } else {
                (n - q) as i64
            }
        };
        let has_next: Vec<bool> = members
            .iter()
            .map(|&v| next.iter().any(|&x| f.compatible(v, x)))
            .collect();
        let float_values = |i: usize, counted: bool| -> Values {
            let mut t = Vec::with_capacity(4);
            if counted {
                t.push((T_FLOATERS, 1));
            }
            let kind = match (i < incoming, has_next[i]) {
                (true, false) => Some(T_TYPE_A),
                (true, true) => Some(T_TYPE_B),
                (false, false) => Some(T_TYPE_C),
                (false, true) => None,
            };
            if let Some(k) = kind {
                t.push((k, 1));
            }
            if p(members[i]).floated_last {
                t.push((T_FLOATED_LAST, 1));
            }
            t.push((T_POSITION + i, 1));
            t
        };
        let t_star = T_POSITION + m;
        let t_hint = t_star + m;
        let tiers = t_hint + 1;
        let pair_values = |i: usize, j: usize| -> Values {
            let mut t = Vec::with_capacity(4);
            let c = colour_misses(p(members[i]), p(members[j]));
            if c > 0 {
                t.push((T_COLOUR, c));
            }
            let (ki, kj) = (key(i, j), key(j, i));
            if ki > 0 {
                t.push((t_star + i, ki));
            }
            if kj > 0 {
                t.push((t_star + j, kj));
            }
            if ki + kj > 0 {
                t.push((t_hint, ki + kj));
            }
            t
        };
        let others: Vec<usize> = (0..f.ps.len())
            .filter(|&v| self.open[v] && !members.contains(&v))
            .collect();
        let mut floaters: Option<Vec<usize>> = None;
        // The proposed pairing of 2.4 when it stands as it is: no floater received, every
        // board compatible with both colours due granted, the one floater (an odd group)
        // the last resident, who has an opponent in the next group and did not float last.
        if incoming == 0 && (n.is_multiple_of(2) || may_float) {
            let even = n - n % 2;
            let half = even / 2;
            let fits = (0..half).all(|k| {
                let (a, b) = (members[k], members[k + half]);
                f.compatible(a, b) && colour_misses(p(a), p(b)) == 0
            }) && (n.is_multiple_of(2)
                || (has_next[n - 1] && !p(members[n - 1]).floated_last));
            if fits {
                let fl: Vec<usize> = (even..n).map(|k| members[k]).collect();
                let rest: Vec<usize> = others.iter().copied().chain(fl.iter().copied()).collect();
                if fl.is_empty() && others.is_empty() || certainly_pairable(f, &rest, self.solver) {
                    for k in 0..half {
                        self.board(members[k], members[k + half], score);
                    }
                    floaters = Some(fl);
                }
            }
        }
        if floaters.is_none() {
            floaters = self.local(
                &members,
                &others,
                may_float,
                score,
                tiers,
                &pair_values,
                &float_values,
            )?;
        }
        let floaters = match floaters {
            Some(fl) => fl,
            None => self.global(&members, &others, score, tiers, &pair_values, &float_values)?,
        };
        self.out.floaters += floaters.len();
        Ok(floaters)
    }

    fn board(&mut self, a: usize, b: usize, score: i64) {
        self.open[a] = false;
        self.open[b] = false;
        self.out.boards.push((a, b, score));
    }

    /// The group alone: as few floaters as it allows, then the tiers; `None` when its
    /// floaters would leave the rest of the round unpairable.
    #[allow(clippy::too_many_arguments)]
    fn local(
        &mut self,
        members: &[usize],
        others: &[usize],
        may_float: bool,
        score: i64,
        tiers: usize,
        pair_values: &dyn Fn(usize, usize) -> Values,
        float_values: &dyn Fn(usize, bool) -> Values,
    ) -> Result<Option<Vec<usize>>, PairError> {
        let f = self.f;
        let m = members.len();
        let mut compat: Vec<(usize, usize)> = Vec::new();
        for i in 0..m {
            for j in i + 1..m {
                if f.compatible(members[i], members[j]) {
                    compat.push((i, j));
                }
            }
        }
        // The fewest floaters (2.3, 4.4): `k` sinks, each open to every member.
        let feasible = |k: usize| -> bool {
            let mut edges: Vec<Edge> = compat.iter().map(|&(i, j)| Edge::new(i, j, 0)).collect();
            for i in 0..m {
                for s in 0..k {
                    edges.push(Edge::new(i, m + s, 0));
                }
            }
            matches!(
                self.solver.solve(&MatchingProblem {
                    vertices: m + k,
                    edges
                }),
                Ok(Some(_))
            )
        };
        // Feasible for `k` sinks means feasible for `k + 2` (two paired players go to the new
        // sinks), and `m` sinks are always enough (every member at one): the fewest is found
        // by halving, in pairs of sinks, when the group does not pair whole.
        let low = m % 2;
        let whole = feasible(low);
        if !whole && !may_float {
            return Ok(None);
        }
        let (mut lo, mut hi) = (0usize, if whole { 0 } else { (m - low) / 2 });
        while lo < hi {
            let mid = (lo + hi) / 2;
            if feasible(low + 2 * mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let k = low + 2 * lo;
        let mut edges = LexEdges::with_capacity(compat.len() + m * k, 4 * compat.len() + 4 * m * k);
        for &(i, j) in &compat {
            edges.push(i, j, &pair_values(i, j));
        }
        for i in 0..m {
            let t = float_values(i, false);
            for s in 0..k {
                edges.push(i, m + s, &t);
            }
        }
        let mate = solve_lex_lazy(
            self.solver,
            m + k,
            &edges,
            tiers,
            None,
            true,
            None,
            None,
            self.stats,
        )?
        .ok_or(PairError::Impossible)?;
        let floaters: Vec<usize> = (0..m)
            .filter(|&i| mate[i] >= m)
            .map(|i| members[i])
            .collect();
        let rest: Vec<usize> = others
            .iter()
            .copied()
            .chain(floaters.iter().copied())
            .collect();
        if !rest.is_empty() && !certainly_pairable(f, &rest, self.solver) {
            return Ok(None);
        }
        for i in 0..m {
            if mate[i] < m && mate[i] > i {
                self.board(members[i], members[mate[i]], score);
            }
        }
        Ok(Some(floaters))
    }

    /// The group in one solve over every player still to pair, so that the rest can be
    /// completed (in place of the cracking of 2.6): a member matched outside the group is
    /// its floater, the fewest of them first.
    fn global(
        &mut self,
        members: &[usize],
        others: &[usize],
        score: i64,
        tiers: usize,
        pair_values: &dyn Fn(usize, usize) -> Values,
        float_values: &dyn Fn(usize, bool) -> Values,
    ) -> Result<Vec<usize>, PairError> {
        let f = self.f;
        let m = members.len();
        let all: Vec<usize> = members.iter().chain(others).copied().collect();
        let mut edges = LexEdges::default();
        for a in 0..all.len() {
            for b in a + 1..all.len() {
                if !f.compatible(all[a], all[b]) {
                    continue;
                }
                if b < m {
                    edges.push(a, b, &pair_values(a, b));
                } else if a < m {
                    edges.push(a, b, &float_values(a, true));
                } else {
                    edges.push(a, b, &[]);
                }
            }
        }
        let mate = solve_lex_lazy(
            self.solver,
            all.len(),
            &edges,
            tiers,
            None,
            true,
            None,
            None,
            self.stats,
        )?
        .ok_or(PairError::Impossible)?;
        for i in 0..m {
            if mate[i] < m && mate[i] > i {
                self.board(members[i], members[mate[i]], score);
            }
        }
        Ok((0..m)
            .filter(|&i| mate[i] >= m)
            .map(|i| members[i])
            .collect())
    }
}
