//! A checker of a Lim round, written from the text (C.04.4.3) apart from the pairing code:
//! it re-derives every player's facts from the section, rebuilds the score groups in the
//! order of 2.2 from the boards (who was paired in which group, who floated), and tests each
//! rule: completeness, compatibility (2.1, 6) and the colours (5.3-5.6, 7.2) on every board,
//! the bye (1.1) always; in every group, no two of its floaters who could have met (2.3,
//! 4.4), no exchange of two boards and no exchange of a floater for a paired player that
//! the text prefers (3.2-3.10, 4.1-4.3, 5.2); and, where the players to pair are few, the
//! whole round by brute force: every complete pairing consistent with the order of the
//! groups scored group by group, the engine's the first.

use crate::engine::chess::swiss::round::ByeKind;
use crate::engine::chess::swiss::{Colour, RoundPairing, RoundResult as R, SwissState};
use crate::engine::matching::{BlossomSolver, Edge, MatchingProblem, MatchingSolver};
use std::collections::{HashMap, HashSet};

/// The players to pair at which a round is also checked by brute force.
pub(crate) const BRUTE_PLAYERS: usize = 12;

/// What was checked and what was found.
#[derive(Debug, Default, Clone)]
pub(crate) struct Report {
    /// Criteria tested (one per rule per board, group or round).
    pub checks: usize,
    /// Rounds checked whole by brute force.
    pub brute: usize,
    /// Violations, each naming its rule.
    pub violations: Vec<String>,
}

impl Report {
    fn expect(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.violations.push(what());
        }
    }
}

/// One player as the text defines him.
#[derive(Debug, Clone)]
struct P {
    sn: u32,
    /// Pairing number, 0 = #1.
    tpn: usize,
    score: i64,
    colours: Vec<Colour>,
    /// Whites minus blacks.
    wb: i64,
    due: Option<Colour>,
    floated_last: bool,
    eligible: bool,
    met: HashSet<u32>,
}

impl P {
    /// 5.1.1 and 5.1.2 allow him `c`.
    fn may(&self, c: Colour) -> bool {
        let n = self.colours.len();
        let third = n >= 2 && self.colours[n - 1] == c && self.colours[n - 2] == c;
        let wb = self.wb + if c == Colour::White { 1 } else { -1 };
        !third && (-2..=2).contains(&wb)
    }
}

fn facts(state: &SwissState) -> Vec<P> {
    let out: HashSet<u32> = state
        .requested_byes
        .iter()
        .map(|b| b.player)
        .chain(state.absent.iter().copied())
        .collect();
    let present = |p: &crate::engine::chess::swiss::SwissPlayer| {
        !p.withdrawn && !out.contains(&p.start_number)
    };
    let by_sn: HashMap<u32, &crate::engine::chess::swiss::SwissPlayer> =
        state.players.iter().map(|p| (p.start_number, p)).collect();
    let before = |sn: u32, r: usize| -> i64 {
        let p = by_sn[&sn];
        p.adjustment_half_points as i64
            + p.history[..r.min(p.history.len())]
                .iter()
                .map(|x| x.result.half_points() as i64)
                .sum::<i64>()
    };
    let mut numbered: Vec<u32> = state
        .players
        .iter()
        .filter(|p| {
            present(p)
                || p.history
                    .iter()
                    .any(|r| r.result.has_opponent() || r.result == R::PairingBye)
        })
        .map(|p| p.start_number)
        .collect();
    numbered.sort_unstable();
    let played = state.rounds_played() as usize;
    let mut ps = Vec::new();
    for p in state.players.iter().filter(|p| present(p)) {
        let colours: Vec<Colour> = p
            .history
            .iter()
            .filter(|r| matches!(r.result, R::Win | R::Draw | R::Loss))
            .filter_map(|r| r.colour)
            .collect();
        let wb: i64 = colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum();
        let mut met: HashSet<u32> = p
            .history
            .iter()
            .filter(|r| matches!(r.result, R::Win | R::Draw | R::Loss))
            .filter_map(|r| r.opponent)
            .collect();
        for pair in &state.settings.prohibited_pairs {
            if pair[0] == p.start_number {
                met.insert(pair[1]);
            }
            if pair[1] == p.start_number {
                met.insert(pair[0]);
            }
        }
        // The last round: a game against another score, or points without a game.
        let floated_last = played > 0
            && p.history.get(played - 1).is_some_and(|rec| {
                if matches!(rec.result, R::Win | R::Draw | R::Loss) {
                    rec.opponent.is_some_and(|o| {
                        before(o, played - 1) != before(p.start_number, played - 1)
                    })
                } else {
                    rec.result.half_points() > 0
                }
            });
        let mut q = P {
            sn: p.start_number,
            tpn: numbered.binary_search(&p.start_number).expect("numbered"),
            score: before(p.start_number, p.history.len()),
            wb,
            due: None,
            floated_last,
            eligible: !p
                .history
                .iter()
                .any(|r| matches!(r.result, R::PairingBye | R::FullBye | R::ForfeitWin)),
            met,
            colours,
        };
        // Basic Rules 8: fewer of one colour, else alternate; never one 5.1.1 forbids.
        let want = if wb > 0 {
            Some(Colour::Black)
        } else if wb < 0 {
            Some(Colour::White)
        } else {
            q.colours.last().map(|c| c.opposite())
        };
        q.due = want.map(|c| if q.may(c) { c } else { c.opposite() });
        ps.push(q);
    }
    ps
}

/// 2.1 (and 6 in the last round).
fn compatible(a: &P, b: &P, last: bool) -> bool {
    if a.met.contains(&b.sn) || b.met.contains(&a.sn) {
        return false;
    }
    last && a.score == b.score
        || (a.may(Colour::White) && b.may(Colour::Black))
        || (a.may(Colour::Black) && b.may(Colour::White))
}

/// `a` ranks above `b`: more points, or as many and a smaller pairing number.
fn above(a: &P, b: &P) -> bool {
    a.score > b.score || (a.score == b.score && a.tpn < b.tpn)
}

/// The colour `a` is to have against `b` by 7.2 and 5.3-5.6.
fn colour_by_text(a: &P, b: &P, upper: bool, first: Colour) -> Colour {
    let a_high = above(a, b);
    if a.colours.is_empty() && b.colours.is_empty() {
        // 7.2: odd numbers (#1, #3, ...) of the higher ranked get #1's colour.
        let h = if a_high { a } else { b };
        let hc = if h.tpn.is_multiple_of(2) {
            first
        } else {
            first.opposite()
        };
        return if a_high { hc } else { hc.opposite() };
    }
    let aw = a.may(Colour::White) && b.may(Colour::Black);
    let ab = a.may(Colour::Black) && b.may(Colour::White);
    if aw != ab {
        return if aw { Colour::White } else { Colour::Black };
    }
    if let Some(d) = a.due {
        if b.due != Some(d) {
            return d;
        }
    } else if let Some(d) = b.due {
        return d.opposite();
    }
    // Both due the same: back through the histories (5.4).
    let (x, y) = (&a.colours, &b.colours);
    for k in 1..=x.len().min(y.len()) {
        let (cx, cy) = (x[x.len() - k], y[y.len() - k]);
        if cx != cy {
            return cx.opposite();
        }
    }
    let d = a.due.expect("due");
    let gets = if upper { a_high } else { !a_high };
    if gets {
        d
    } else {
        d.opposite()
    }
}

/// A perfect matching of `vs` on compatible pairs exists.
fn pairable(ps: &[P], vs: &[usize], last: bool) -> bool {
    if vs.len() % 2 == 1 {
        return false;
    }
    if vs.is_empty() {
        return true;
    }
    let mut edges = Vec::new();
    for i in 0..vs.len() {
        for j in i + 1..vs.len() {
            if compatible(&ps[vs[i]], &ps[vs[j]], last) {
                edges.push(Edge::new(i, j, 0));
            }
        }
    }
    matches!(
        BlossomSolver.solve(&MatchingProblem {
            vertices: vs.len(),
            edges
        }),
        Ok(Some(_))
    )
}

/// The players of the round can all be paired (after a bye if odd): the round is possible.
pub(crate) fn completable(state: &SwissState) -> bool {
    let ps = facts(state);
    let last =
        state.settings.total_rounds > 0 && state.round_to_pair() >= state.settings.total_rounds;
    let all: Vec<usize> = (0..ps.len()).collect();
    if ps.len().is_multiple_of(2) {
        return pairable(&ps, &all, last);
    }
    (0..ps.len()).any(|b| {
        ps[b].eligible && {
            let rest: Vec<usize> = all.iter().copied().filter(|&v| v != b).collect();
            pairable(&ps, &rest, last)
        }
    })
}

/// One group as the text pairs it.
struct Group {
    score: i64,
    down: bool,
    /// Scrutiny order: floaters received (3.6, 3.7), then the residents (4.1).
    members: Vec<usize>,
    incoming: usize,
    /// Residents of the group its floaters go to.
    next: Vec<usize>,
    may_float: bool,
}

impl Group {
    /// The place of `j` in the exchange order of member `i` (positions in `members`).
    fn key(&self, ps: &[P], i: usize, j: usize) -> i64 {
        if i < self.incoming {
            // 3.8: the highest numbered first (downward), the lowest first (upward).
            let t = ps[self.members[j]].tpn as i64;
            let less = self
                .members
                .iter()
                .filter(|&&v| {
                    let u = ps[v].tpn as i64;
                    if self.down {
                        u < t
                    } else {
                        u > t
                    }
                })
                .count();
            return less as i64;
        }
        let n = self.members.len() - self.incoming;
        if j < self.incoming {
            return (n + j) as i64;
        }
        // 4.2: 1 v (h+1), then h+2 ... n, then h, h-1 ... 2.
        let h = n / 2;
        let q = j - self.incoming + 1;
        if q > h {
            (q - h - 1) as i64
        } else {
            (h + (n - h)) as i64 - q as i64
        }
    }

    /// The group's values when `boards` (positions) are its boards and `floats` its
    /// floaters: floaters, types a-c, floated last, colours missed, places of floaters,
    /// places of opponents.
    fn values(
        &self,
        ps: &[P],
        boards: &[(usize, usize)],
        floats: &[usize],
        last: bool,
        median: i64,
        first: Colour,
    ) -> Vec<i64> {
        let m = self.members.len();
        let has_next = |i: usize| {
            self.next
                .iter()
                .any(|&x| compatible(&ps[self.members[i]], &ps[x], last))
        };
        let mut v = vec![0i64; 6 + 2 * m];
        v[0] = floats.len() as i64;
        for &i in floats {
            match (i < self.incoming, has_next(i)) {
                (true, false) => v[1] += 1,
                (true, true) => v[2] += 1,
                (false, false) => v[3] += 1,
                _ => {}
            }
            if ps[self.members[i]].floated_last {
                v[4] += 1;
            }
            v[6 + i] = 1;
        }
        for &(i, j) in boards {
            let (a, b) = (&ps[self.members[i]], &ps[self.members[j]]);
            let ca = colour_by_text(a, b, self.score >= median, first);
            v[5] += i64::from(a.due.is_some_and(|d| d != ca))
                + i64::from(b.due.is_some_and(|d| d != ca.opposite()));
            v[6 + m + i] = self.key(ps, i, j);
            v[6 + m + j] = self.key(ps, j, i);
        }
        v
    }
}

/// The groups of the round in the order of 2.2, rebuilt from `mate` (position to position,
/// `None`: the bye): each group's boards and floaters. `None` when some board was not formed
/// inside one group (the pairing does not follow the text's order).
#[allow(clippy::type_complexity)]
fn groups(
    ps: &[P],
    open: &[usize],
    mate: &HashMap<usize, usize>,
    median: i64,
) -> Option<Vec<(Group, Vec<(usize, usize)>, Vec<usize>)>> {
    let mut scores: Vec<i64> = open.iter().map(|&v| ps[v].score).collect();
    scores.sort_unstable();
    scores.dedup();
    let residents = |s: i64| -> Vec<usize> {
        let mut r: Vec<usize> = open.iter().copied().filter(|&v| ps[v].score == s).collect();
        r.sort_by_key(|&v| ps[v].tpn);
        r
    };
    let above_m: Vec<i64> = scores
        .iter()
        .rev()
        .copied()
        .filter(|&s| s > median)
        .collect();
    let below_m: Vec<i64> = scores.iter().copied().filter(|&s| s < median).collect();
    let mut out = Vec::new();
    let run = |list: &[i64], down: bool, out: &mut Vec<_>| -> Option<Vec<usize>> {
        let mut carry: Vec<usize> = Vec::new();
        for (k, &s) in list.iter().enumerate() {
            let next = residents(list.get(k + 1).copied().unwrap_or(median));
            let mut inc = carry.clone();
            if down {
                inc.sort_by_key(|&v| (-ps[v].score, ps[v].tpn as i64));
            } else {
                inc.sort_by_key(|&v| (ps[v].score, -(ps[v].tpn as i64)));
            }
            let mut res = residents(s);
            if !down {
                res.reverse();
            }
            let g = Group {
                score: s,
                down,
                incoming: inc.len(),
                members: inc.into_iter().chain(res).collect(),
                next,
                may_float: true,
            };
            let (b, f) = split(&g, mate);
            carry = f.iter().map(|&i| g.members[i]).collect();
            out.push((g, b, f));
        }
        Some(carry)
    };
    let dfs = run(&above_m, true, &mut out)?;
    let ufs = run(&below_m, false, &mut out)?;
    let mut d = dfs;
    d.sort_by_key(|&v| (-ps[v].score, ps[v].tpn as i64));
    let mut u = ufs;
    u.sort_by_key(|&v| (ps[v].score, -(ps[v].tpn as i64)));
    let g = Group {
        score: median,
        down: true,
        incoming: d.len() + u.len(),
        members: d.into_iter().chain(u).chain(residents(median)).collect(),
        next: vec![],
        may_float: false,
    };
    let (b, f) = split(&g, mate);
    if !f.is_empty() {
        return None;
    }
    out.push((g, b, f));
    Some(out)
}

/// The boards inside the group and its floaters (positions in its members).
fn split(g: &Group, mate: &HashMap<usize, usize>) -> (Vec<(usize, usize)>, Vec<usize>) {
    let at: HashMap<usize, usize> = g.members.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut boards = Vec::new();
    let mut floats = Vec::new();
    for (i, v) in g.members.iter().enumerate() {
        match mate.get(v).and_then(|o| at.get(o)) {
            Some(&j) if j > i => boards.push((i, j)),
            Some(_) => {}
            None => floats.push(i),
        }
    }
    (boards, floats)
}

/// A pairing's values group by group, and its boards (start numbers).
type Scored = (Vec<i64>, Vec<(u32, u32)>);

/// A visitor of pairings (positions in the players to pair).
type Visit<'a> = dyn FnMut(&[(usize, usize)]) + 'a;

/// Checks one round paired by the engine; `first`: the colour drawn for #1 (7.2).
pub(crate) fn check_round(state: &SwissState, pairing: &RoundPairing, first: Colour) -> Report {
    let mut rep = Report::default();
    let ps = facts(state);
    let round = state.round_to_pair();
    let last = state.settings.total_rounds > 0 && round >= state.settings.total_rounds;
    let median = i64::from(round - 1);
    let at: HashMap<u32, usize> = ps.iter().enumerate().map(|(i, p)| (p.sn, i)).collect();
    let bye = pairing
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pairing)
        .map(|b| b.player);
    // Completeness: every player once, nobody else.
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for b in &pairing.pairings {
        *seen.entry(b.white).or_default() += 1;
        *seen.entry(b.black).or_default() += 1;
    }
    if let Some(b) = bye {
        *seen.entry(b).or_default() += 1;
    }
    for p in &ps {
        rep.expect(seen.get(&p.sn) == Some(&1), || {
            format!(
                "round {round}: player {} paired {} times",
                p.sn,
                seen.get(&p.sn).copied().unwrap_or(0)
            )
        });
    }
    rep.expect(seen.keys().all(|sn| at.contains_key(sn)), || {
        format!("round {round}: a player not to pair is paired")
    });
    if !rep.violations.is_empty() {
        return rep;
    }
    let mut mate: HashMap<usize, usize> = HashMap::new();
    for b in &pairing.pairings {
        let (w, k) = (at[&b.white], at[&b.black]);
        mate.insert(w, k);
        mate.insert(k, w);
        // 2.1, 5.1.1, 5.1.2 (6: the last round lets players of one score meet anyway).
        rep.expect(compatible(&ps[w], &ps[k], last), || {
            format!(
                "round {round}: {}-{} not compatible (2.1)",
                b.white, b.black
            )
        });
        let exempt = last && ps[w].score == ps[k].score;
        rep.expect(
            exempt || (ps[w].may(Colour::White) && ps[k].may(Colour::Black)),
            || format!("round {round}: {}-{} colours break 5.1", b.white, b.black),
        );
    }
    // 1.1, Basic Rules 3-4: the bye.
    let all: Vec<usize> = (0..ps.len()).collect();
    rep.expect(bye.is_some() == (ps.len() % 2 == 1), || {
        format!("round {round}: a pairing bye with an even number, or none with an odd one")
    });
    if let Some(b) = bye {
        let b = at[&b];
        rep.expect(ps[b].eligible, || {
            format!("round {round}: bye to {} who may not have it", ps[b].sn)
        });
        for c in 0..ps.len() {
            let earlier = ps[c].eligible
                && (ps[c].score < ps[b].score
                    || (ps[c].score == ps[b].score && ps[c].tpn > ps[b].tpn));
            if earlier {
                let rest: Vec<usize> = all.iter().copied().filter(|&v| v != c).collect();
                rep.expect(!pairable(&ps, &rest, last), || {
                    format!(
                        "round {round}: bye to {} where {} comes first (1.1)",
                        ps[b].sn, ps[c].sn
                    )
                });
            }
        }
    }
    let open: Vec<usize> = all
        .iter()
        .copied()
        .filter(|v| Some(ps[*v].sn) != bye)
        .collect();
    let Some(gs) = groups(&ps, &open, &mate, median) else {
        rep.expect(false, || {
            format!("round {round}: a board not formed inside one score group (2.2, 3.2.1)")
        });
        return rep;
    };
    rep.checks += 1;
    // Colours of every board, in the group that paired it.
    for (g, boards, _) in &gs {
        for &(i, j) in boards {
            let (a, b) = (&ps[g.members[i]], &ps[g.members[j]]);
            let white = pairing
                .pairings
                .iter()
                .find(|x| {
                    (x.white == a.sn && x.black == b.sn) || (x.white == b.sn && x.black == a.sn)
                })
                .map(|x| x.white)
                .expect("a board");
            let ca = colour_by_text(a, b, g.score >= median, first);
            let want = if ca == Colour::White { a.sn } else { b.sn };
            rep.expect(white == want, || {
                format!(
                    "round {round}: {}-{} colours against 5.3-5.6 (white should be {want})",
                    a.sn, b.sn
                )
            });
        }
    }
    // Each group: local exchanges the text would prefer.
    let mut done: HashSet<usize> = HashSet::new();
    for (g, boards, floats) in &gs {
        let rest_after: Vec<usize> = open
            .iter()
            .copied()
            .filter(|v| !done.contains(v) && !g.members.contains(v))
            .collect();
        let best = g.values(&ps, boards, floats, last, median, first);
        let comp = |i: usize, j: usize| compatible(&ps[g.members[i]], &ps[g.members[j]], last);
        // Two of its floaters who could meet (2.3, 4.4), the rest still pairable.
        for (x, &u) in floats.iter().enumerate() {
            for &w in &floats[x + 1..] {
                if comp(u, w) {
                    let rest: Vec<usize> = rest_after
                        .iter()
                        .copied()
                        .chain(
                            floats
                                .iter()
                                .filter(|&&k| k != u && k != w)
                                .map(|&k| g.members[k]),
                        )
                        .collect();
                    rep.expect(!pairable(&ps, &rest, last), || {
                        format!(
                            "round {round}: group {} floats {} and {} who could meet",
                            g.score, ps[g.members[u]].sn, ps[g.members[w]].sn
                        )
                    });
                }
            }
        }
        // Two boards exchanged (4.1-4.3, 5.2).
        for x in 0..boards.len() {
            for y in x + 1..boards.len() {
                let ((a, b), (c, d)) = (boards[x], boards[y]);
                for (p, q) in [((a, c), (b, d)), ((a, d), (b, c))] {
                    if comp(p.0, p.1) && comp(q.0, q.1) {
                        let mut nb = boards.clone();
                        nb[x] = p;
                        nb[y] = q;
                        let v = g.values(&ps, &nb, floats, last, median, first);
                        rep.expect(v >= best, || {
                            format!(
                                "round {round}: group {}: exchanging {}-{} and {}-{} is preferred",
                                g.score,
                                ps[g.members[a]].sn,
                                ps[g.members[b]].sn,
                                ps[g.members[c]].sn,
                                ps[g.members[d]].sn
                            )
                        });
                    }
                }
            }
        }
        // A floater exchanged for a paired player (3.2-3.10), the rest still pairable.
        if g.may_float {
            for (x, &u) in floats.iter().enumerate() {
                for (y, &(a, b)) in boards.iter().enumerate() {
                    for (stay, go) in [(a, b), (b, a)] {
                        if !comp(u, stay) {
                            continue;
                        }
                        let mut nb = boards.clone();
                        nb[y] = (u.min(stay), u.max(stay));
                        let mut nf = floats.clone();
                        nf[x] = go;
                        nf.sort_unstable();
                        let v = g.values(&ps, &nb, &nf, last, median, first);
                        if v < best {
                            let rest: Vec<usize> = rest_after
                                .iter()
                                .copied()
                                .chain(nf.iter().map(|&k| g.members[k]))
                                .collect();
                            rep.expect(!pairable(&ps, &rest, last), || {
                                format!(
                                    "round {round}: group {}: {} should float instead of {}",
                                    g.score, ps[g.members[go]].sn, ps[g.members[u]].sn
                                )
                            });
                        } else {
                            rep.checks += 1;
                        }
                    }
                }
            }
        }
        for &(i, j) in boards {
            done.insert(g.members[i]);
            done.insert(g.members[j]);
        }
    }
    // Brute force: every complete pairing following the text's order of groups.
    if open.len() <= BRUTE_PLAYERS {
        rep.brute += 1;
        let score_of = |mate: &HashMap<usize, usize>| -> Option<Vec<i64>> {
            let gs = groups(&ps, &open, mate, median)?;
            Some(
                gs.iter()
                    .flat_map(|(g, b, f)| g.values(&ps, b, f, last, median, first))
                    .collect(),
            )
        };
        let mine = score_of(&mate).expect("rebuilt above");
        let mut best: Option<Scored> = None;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        enumerate(
            &ps,
            &open,
            last,
            &mut vec![false; open.len()],
            &mut stack,
            &mut |pairs| {
                let mut m = HashMap::new();
                for &(a, b) in pairs {
                    m.insert(open[a], open[b]);
                    m.insert(open[b], open[a]);
                }
                if let Some(v) = score_of(&m) {
                    if best.as_ref().is_none_or(|(bv, _)| v < *bv) {
                        let sns = pairs
                            .iter()
                            .map(|&(a, b)| (ps[open[a]].sn, ps[open[b]].sn))
                            .collect();
                        best = Some((v, sns));
                    }
                }
            },
        );
        if let Some((bv, pairs)) = best {
            rep.expect(mine == bv, || {
                format!("round {round}: brute force prefers {pairs:?}")
            });
        }
    }
    rep
}

/// Calls `visit` with every perfect matching of `open` on compatible pairs.
fn enumerate(
    ps: &[P],
    open: &[usize],
    last: bool,
    used: &mut Vec<bool>,
    stack: &mut Vec<(usize, usize)>,
    visit: &mut Visit,
) {
    let Some(a) = used.iter().position(|u| !u) else {
        visit(stack);
        return;
    };
    used[a] = true;
    for b in a + 1..open.len() {
        if !used[b] && compatible(&ps[open[a]], &ps[open[b]], last) {
            used[b] = true;
            stack.push((a, b));
            enumerate(ps, open, last, used, stack, visit);
            stack.pop();
            used[b] = false;
        }
    }
    used[a] = false;
}
