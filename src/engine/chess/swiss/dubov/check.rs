//! A checker of a Dubov round, written from the text (C.04.4.1) apart from the pairing code:
//! it re-derives every player's facts from the section, rebuilds the brackets from the
//! boards, and tests each criterion: the absolute ones and the bye (3.1) always; [C5], [C6]
//! and [C7] against the optimum of a plain weighted matching; the colours (5.2) on every
//! board; and, where the unpaired players are few, the whole procedure of 3.2 by brute
//! force: every pairing of them scored on [C5]-[C10], the first set of upfloaters of 4.2,
//! the shifters of 3.2.4/4.3 and the first transposition of 3.2.6.

use crate::engine::chess::swiss::round::ByeKind;
use crate::engine::chess::swiss::{Colour, RoundPairing, SwissState};
use crate::engine::matching::{BlossomSolver, Edge, MatchingProblem, MatchingSolver};
use std::collections::{HashMap, HashSet};

/// The remaining players at which a bracket is also checked by brute force.
pub(crate) const BRUTE_PLAYERS: usize = 12;

/// What was checked and what was found.
#[derive(Debug, Default, Clone)]
pub(crate) struct Report {
    /// Criteria tested (one per criterion per board, bracket or round).
    pub checks: usize,
    /// Brackets whose whole procedure was checked by brute force.
    pub brute: usize,
    /// Larger brackets whose [C5]-[C10] were checked together by one weighted matching.
    pub weighed: usize,
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
    tpn: usize,
    score: i64,
    games: usize,
    /// Colours of played games, oldest first.
    colours: Vec<Colour>,
    pref: Colour,
    /// 2 absolute, 1 strong, 0 mild.
    strength: u8,
    aro: i64,
    upfloats: u32,
    up_last: bool,
    eligible: bool,
    met: HashSet<u32>,
}

fn facts(state: &SwissState) -> (Vec<P>, HashSet<u32>) {
    let played = state.rounds_played() as usize;
    let out: HashSet<u32> = state
        .requested_byes
        .iter()
        .map(|b| b.player)
        .chain(state.absent.iter().copied())
        .collect();
    let present: HashSet<u32> = state
        .players
        .iter()
        .filter(|p| !p.withdrawn && !out.contains(&p.start_number))
        .map(|p| p.start_number)
        .collect();
    let rating: HashMap<u32, i64> = state
        .players
        .iter()
        .map(|p| (p.start_number, i64::from(p.rating)))
        .collect();
    let score_before = |sn: u32, r: usize| -> i64 {
        let p = state
            .players
            .iter()
            .find(|p| p.start_number == sn)
            .expect("known");
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
            present.contains(&p.start_number)
                || p.history.iter().any(|r| {
                    r.result.has_opponent()
                        || r.result == crate::engine::chess::swiss::RoundResult::PairingBye
                })
        })
        .map(|p| p.start_number)
        .collect();
    numbered.sort_unstable();
    let mut ps = Vec::new();
    for p in &state.players {
        if !present.contains(&p.start_number) {
            continue;
        }
        use crate::engine::chess::swiss::RoundResult as R;
        let colours: Vec<Colour> = p
            .history
            .iter()
            .filter(|r| matches!(r.result, R::Win | R::Draw | R::Loss))
            .filter_map(|r| r.colour)
            .collect();
        let cd: i64 = colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum();
        let n = colours.len();
        let last_two = n >= 2 && colours[n - 1] == colours[n - 2];
        let (pref, strength) = if cd < -1 {
            (Colour::White, 2)
        } else if cd > 1 {
            (Colour::Black, 2)
        } else if last_two {
            (colours[n - 1].opposite(), 2)
        } else if cd == -1 {
            (Colour::White, 1)
        } else if cd == 1 {
            (Colour::Black, 1)
        } else if n == 0 {
            (Colour::Black, 0)
        } else {
            (colours[n - 1].opposite(), 0)
        };
        let mut met: HashSet<u32> = HashSet::new();
        let (mut sum, mut count) = (0i64, 0i64);
        let (mut upfloats, mut up_last) = (0, false);
        for (r, rec) in p.history.iter().enumerate() {
            if let Some(o) = rec.opponent {
                if matches!(rec.result, R::Win | R::Draw | R::Loss) {
                    met.insert(o);
                    sum += rating[&o];
                    count += 1;
                }
                if rec.result.has_opponent() && score_before(o, r) > score_before(p.start_number, r)
                {
                    upfloats += 1;
                    up_last |= r + 1 == played;
                }
            }
        }
        for pair in &state.settings.prohibited_pairs {
            if pair[0] == p.start_number {
                met.insert(pair[1]);
            }
            if pair[1] == p.start_number {
                met.insert(pair[0]);
            }
        }
        // ARO rounded half up: floor(sum / count + 1/2).
        let aro = if count == 0 {
            0
        } else {
            (2 * sum + count).div_euclid(2 * count)
        };
        ps.push(P {
            sn: p.start_number,
            tpn: numbered.binary_search(&p.start_number).expect("numbered"),
            score: score_before(p.start_number, p.history.len()),
            games: n,
            colours,
            pref,
            strength,
            aro,
            upfloats,
            up_last,
            eligible: !p
                .history
                .iter()
                .any(|r| matches!(r.result, R::PairingBye | R::FullBye | R::ForfeitWin)),
            met,
        });
    }
    (ps, present)
}

fn legal(a: &P, b: &P) -> bool {
    let same_absolute = a.strength == 2 && b.strength == 2 && a.pref == b.pref;
    !(a.met.contains(&b.sn) || b.met.contains(&a.sn) || same_absolute)
}

/// The least cost of a perfect matching of `vs` on legal pairs (`None`: there is none).
fn least(ps: &[P], vs: &[usize], cost: &dyn Fn(usize, usize) -> i64) -> Option<i64> {
    if vs.is_empty() {
        return Some(0);
    }
    if vs.len() % 2 == 1 {
        return None;
    }
    let mut edges = Vec::new();
    for i in 0..vs.len() {
        for j in i + 1..vs.len() {
            if legal(&ps[vs[i]], &ps[vs[j]]) {
                edges.push(Edge::new(i, j, cost(vs[i], vs[j])));
            }
        }
    }
    BlossomSolver
        .solve(&MatchingProblem {
            vertices: vs.len(),
            edges,
        })
        .expect("solver")
        .map(|m| m.cost)
}

/// Every perfect matching of `vs` on legal pairs, each as its pairs.
fn all_matchings(ps: &[P], vs: &[usize], out: &mut Vec<Vec<(usize, usize)>>) {
    fn go(
        ps: &[P],
        left: &mut [usize],
        cur: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let Some(&a) = left.first() else {
            out.push(cur.clone());
            return;
        };
        for k in 1..left.len() {
            let b = left[k];
            if legal(&ps[a], &ps[b]) {
                let mut rest: Vec<usize> = left[1..].iter().copied().filter(|&x| x != b).collect();
                cur.push((a, b));
                go(ps, &mut rest, cur, out);
                cur.pop();
            }
        }
    }
    let mut left = vs.to_vec();
    go(ps, &mut left, &mut Vec::new(), out);
}

/// Ranks above (5.2.1): more points, or as many and a smaller TPN.
fn above(a: &P, b: &P) -> bool {
    a.score > b.score || (a.score == b.score && a.tpn < b.tpn)
}

/// 5.2, written out: the colour of `a` against `b`.
fn colour(a: &P, b: &P, initial: Colour) -> Colour {
    if a.games == 0 && b.games == 0 {
        let (h, a_high) = if above(a, b) { (a, true) } else { (b, false) };
        let hc = if (h.tpn + 1) % 2 == 1 {
            initial
        } else {
            initial.opposite()
        };
        return if a_high { hc } else { hc.opposite() };
    }
    if a.pref != b.pref {
        return a.pref;
    }
    if a.strength != b.strength {
        return if a.strength > b.strength {
            a.pref
        } else {
            b.pref.opposite()
        };
    }
    let (na, nb) = (a.colours.len(), b.colours.len());
    for k in 1..=na.min(nb) {
        let (x, y) = (a.colours[na - k], b.colours[nb - k]);
        if x != y {
            return y;
        }
    }
    if above(a, b) {
        a.pref
    } else {
        b.pref.opposite()
    }
}

/// 4.3.3's numbering: the middle of the list first, the higher of two middles.
fn middle_first(list: &[usize]) -> Vec<usize> {
    let mut rest = list.to_vec();
    let mut out = vec![];
    while !rest.is_empty() {
        let k = (rest.len() - 1) / 2;
        out.push(rest.remove(k));
    }
    out
}

/// Checks one round: `state` before it, `pairing` as made; `initial` the initial colour.
pub(crate) fn check_round(state: &SwissState, pairing: &RoundPairing, initial: Colour) -> Report {
    let mut rep = Report::default();
    let (ps, _) = facts(state);
    let idx: HashMap<u32, usize> = ps.iter().enumerate().map(|(i, p)| (p.sn, i)).collect();
    let round = state.round.unwrap_or(state.rounds_played() + 1);
    let last = state.settings.total_rounds > 0 && round >= state.settings.total_rounds;
    let max_t = 2 + state.settings.total_rounds.max(round) / 5;
    // Completeness: every player to pair once, on a board or as the bye.
    let pab: Vec<u32> = pairing
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::Pairing)
        .map(|b| b.player)
        .collect();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for b in &pairing.pairings {
        *seen.entry(b.white).or_default() += 1;
        *seen.entry(b.black).or_default() += 1;
    }
    for &b in &pab {
        *seen.entry(b).or_default() += 1;
    }
    for p in &ps {
        rep.expect(seen.get(&p.sn) == Some(&1), || {
            format!(
                "round {round}: player {} paired {:?} times",
                p.sn,
                seen.get(&p.sn)
            )
        });
    }
    rep.expect(pab.len() == ps.len() % 2, || {
        format!("round {round}: {} byes for {} players", pab.len(), ps.len())
    });
    let mut opp: HashMap<usize, usize> = HashMap::new();
    for b in &pairing.pairings {
        let (Some(&w), Some(&k)) = (idx.get(&b.white), idx.get(&b.black)) else {
            rep.expect(false, || {
                format!(
                    "round {round}: board {} names a player not to pair",
                    b.board
                )
            });
            continue;
        };
        opp.insert(w, k);
        opp.insert(k, w);
        let (pw, pb) = (&ps[w], &ps[k]);
        rep.expect(!pw.met.contains(&pb.sn), || {
            format!(
                "round {round}: [C1] {} and {} meet again (or are forbidden)",
                pw.sn, pb.sn
            )
        });
        rep.expect(
            !(pw.strength == 2 && pb.strength == 2 && pw.pref == pb.pref),
            || {
                format!(
                    "round {round}: [C3] {} and {} have the same absolute preference",
                    pw.sn, pb.sn
                )
            },
        );
        rep.expect(colour(pw, pb, initial) == Colour::White, || {
            format!("round {round}: 5.2 gives {} Black against {}", pw.sn, pb.sn)
        });
    }
    if !rep.violations.is_empty() {
        return rep;
    }
    let everyone: Vec<usize> = (0..ps.len()).collect();
    // The bye: [C2], then 3.1's order among those that leave the rest pairable.
    if let Some(&b) = pab.first() {
        let b = idx[&b];
        rep.expect(ps[b].eligible, || {
            format!("round {round}: [C2] {} may not have the bye", ps[b].sn)
        });
        let mut order: Vec<usize> = everyone
            .iter()
            .copied()
            .filter(|&v| ps[v].eligible)
            .collect();
        order.sort_by_key(|&v| {
            (
                ps[v].score,
                std::cmp::Reverse(ps[v].games),
                std::cmp::Reverse(ps[v].tpn),
            )
        });
        for &c in order.iter().take_while(|&&c| c != b) {
            let rest: Vec<usize> = everyone.iter().copied().filter(|&v| v != c).collect();
            rep.expect(least(&ps, &rest, &|_, _| 0).is_none(), || {
                format!("round {round}: 3.1 the bye goes to {} though {} comes first and leaves the rest pairable", ps[b].sn, ps[c].sn)
            });
        }
    }
    // The brackets, from the top.
    let mut rem: Vec<usize> = everyone
        .iter()
        .copied()
        .filter(|v| !pab.contains(&ps[*v].sn))
        .collect();
    while !rem.is_empty() {
        let top = rem.iter().map(|&v| ps[v].score).max().expect("players");
        let res: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&v| ps[v].score == top)
            .collect();
        let is_res = |v: usize| ps[v].score == top;
        let mut ups: Vec<usize> = vec![];
        for &r in &res {
            let o = opp[&r];
            if !is_res(o) {
                rep.expect(rem.contains(&o) && ps[o].score < top, || {
                    format!(
                        "round {round}: resident {} of score {top} meets {} outside the bracket",
                        ps[r].sn, ps[o].sn
                    )
                });
                ups.push(o);
            }
        }
        let bracket: Vec<usize> = res.iter().chain(&ups).copied().collect();
        let in_bracket: HashSet<usize> = bracket.iter().copied().collect();
        let ups_set: HashSet<usize> = ups.iter().copied().collect();
        // [C5] and [C6]: no pairing of the unpaired players needs fewer upfloaters, nor
        // takes them from higher scores.
        if !ups.is_empty() {
            let c5 = least(&ps, &rem, &|a, b| i64::from(is_res(a) != is_res(b))).expect("pairable");
            rep.expect(c5 == ups.len() as i64, || {
                format!(
                    "round {round}: [C5] bracket {top}: {} upfloaters, {c5} would do",
                    ups.len()
                )
            });
            let mut levels: Vec<i64> = rem
                .iter()
                .map(|&v| ps[v].score)
                .filter(|&s| s < top)
                .collect();
            levels.sort_unstable();
            levels.dedup();
            let base = ups.len() as i64 + 1;
            let fits = (levels.len() as u32 + 1) * (64 - base.leading_zeros()) <= 44;
            if fits {
                let w = |s: i64| {
                    base.pow((levels.len() - 1 - levels.binary_search(&s).unwrap()) as u32)
                };
                let big = base.pow(levels.len() as u32);
                let c6 = least(&ps, &rem, &|a, b| {
                    if is_res(a) == is_res(b) {
                        0
                    } else {
                        let low = if is_res(a) { b } else { a };
                        big + w(ps[low].score)
                    }
                })
                .expect("pairable");
                let mine: i64 = ups.iter().map(|&u| big + w(ps[u].score)).sum();
                rep.expect(c6 == mine, || {
                    format!("round {round}: [C6] bracket {top}: upfloaters' scores not the highest possible")
                });
            }
        }
        // [C7] within the bracket as chosen.
        let clash = |a: usize, b: usize| i64::from(ps[a].pref == ps[b].pref);
        let c7_mine: i64 = bracket
            .iter()
            .filter(|&&a| ps[a].tpn < ps[opp[&a]].tpn)
            .map(|&a| clash(a, opp[&a]))
            .sum();
        if c7_mine > 0 {
            let c7 = least(&ps, &bracket, &clash).expect("pairable");
            rep.expect(c7 == c7_mine, || {
                format!("round {round}: [C7] bracket {top}: {c7_mine} players without their colour, {c7} would do")
            });
        }
        if rem.len() > BRUTE_PLAYERS {
            joint(&mut rep, &ps, &rem, top, &opp, last, max_t, round);
        }
        if rem.len() <= BRUTE_PLAYERS {
            rep.brute += 1;
            brute(
                &mut rep, &ps, &rem, top, &bracket, &ups_set, &opp, last, max_t, round,
            );
        }
        rem.retain(|v| !in_bracket.contains(v));
    }
    rep
}

/// Some complete pairing of the round meets [C1]-[C3] (with a bye meeting [C2] when the
/// number is odd): when the engine finds none, this says whether it is right (1.9.3).
pub(crate) fn completable(state: &SwissState) -> bool {
    let (ps, _) = facts(state);
    let all: Vec<usize> = (0..ps.len()).collect();
    if ps.len() % 2 == 0 {
        return least(&ps, &all, &|_, _| 0).is_some();
    }
    all.iter().any(|&c| {
        let rest: Vec<usize> = all.iter().copied().filter(|&v| v != c).collect();
        ps[c].eligible && least(&ps, &rest, &|_, _| 0).is_some()
    })
}

/// The quality vector of 2.3 of a pairing of the unpaired players (lower is better).
fn quality(
    ps: &[P],
    m: &[(usize, usize)],
    top: i64,
    levels: &[i64],
    last: bool,
    max_t: u32,
) -> Vec<i64> {
    let mut v = vec![0i64; 1 + levels.len() + 4];
    for &(a, b) in m {
        let (ra, rb) = (ps[a].score == top, ps[b].score == top);
        if !ra && !rb {
            continue;
        }
        if ps[a].pref == ps[b].pref {
            v[1 + levels.len()] += 1;
        }
        if ra != rb {
            let u = if ra { b } else { a };
            v[0] += 1;
            // [C6]: the lowest scores first.
            v[1 + levels.binary_search(&ps[u].score).unwrap()] += 1;
            if !last {
                if ps[u].upfloats >= max_t {
                    v[2 + levels.len()] += 1;
                    v[3 + levels.len()] += i64::from(ps[u].upfloats);
                }
                v[4 + levels.len()] += i64::from(ps[u].up_last);
            }
        }
    }
    v
}

/// [C5]-[C10] together: the quality vector of 2.3 weighed so that a lower total is a
/// lexicographically better vector (each criterion's weight exceeds what all below it can
/// add), when the weights fit; the least total over every pairing of the unpaired players
/// must be this pairing's.
#[allow(clippy::too_many_arguments)]
fn joint(
    rep: &mut Report,
    ps: &[P],
    rem: &[usize],
    top: i64,
    opp: &HashMap<usize, usize>,
    last: bool,
    max_t: u32,
    round: u32,
) {
    let r = rem.iter().filter(|&&v| ps[v].score == top).count() as i128;
    let mut levels: Vec<i64> = rem
        .iter()
        .map(|&v| ps[v].score)
        .filter(|&s| s < top)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let most_upfloats = rem
        .iter()
        .map(|&v| i128::from(ps[v].upfloats))
        .max()
        .unwrap_or(0);
    // Bounds of each entry of the vector over any pairing: r upfloaters or boards at most.
    let mut bounds = vec![r; 1 + levels.len()];
    bounds.extend([r, r, r * most_upfloats, r]);
    let mut weights = vec![1i128; bounds.len()];
    for i in (0..bounds.len() - 1).rev() {
        weights[i] = weights[i + 1] * (bounds[i + 1] + 1);
    }
    let limit = i128::from(i64::MAX) / (4 * rem.len() as i128 + 4);
    if weights[0] * (bounds[0] + 1) > limit {
        return;
    }
    rep.weighed += 1;
    let weigh = |v: &[i64]| -> i64 {
        v.iter()
            .zip(&weights)
            .map(|(&x, &w)| i128::from(x) * w)
            .sum::<i128>() as i64
    };
    let pair_cost = |a: usize, b: usize| weigh(&quality(ps, &[(a, b)], top, &levels, last, max_t));
    let best = least(ps, rem, &pair_cost).expect("pairable");
    let mine: Vec<(usize, usize)> = rem
        .iter()
        .filter(|&&a| a < opp[&a])
        .map(|&a| (a, opp[&a]))
        .collect();
    let q = quality(ps, &mine, top, &levels, last, max_t);
    rep.expect(weigh(&q) == best, || {
        format!("round {round}: [C5]-[C10] bracket {top}: quality {q:?} is not the least")
    });
}

/// The whole of 3.2 by brute force on few players.
#[allow(clippy::too_many_arguments)]
fn brute(
    rep: &mut Report,
    ps: &[P],
    rem: &[usize],
    top: i64,
    bracket: &[usize],
    ups: &HashSet<usize>,
    opp: &HashMap<usize, usize>,
    last: bool,
    max_t: u32,
    round: u32,
) {
    let mut levels: Vec<i64> = rem
        .iter()
        .map(|&v| ps[v].score)
        .filter(|&s| s < top)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut all = vec![];
    all_matchings(ps, rem, &mut all);
    let mine: Vec<(usize, usize)> = rem
        .iter()
        .filter(|&&a| a < opp[&a])
        .map(|&a| (a, opp[&a]))
        .collect();
    let q_mine = quality(ps, &mine, top, &levels, last, max_t);
    // 4.2: candidates by score, then TPN; a set's key its sorted sequence numbers.
    let mut cands: Vec<usize> = rem.iter().copied().filter(|&v| ps[v].score < top).collect();
    cands.sort_by_key(|&v| (std::cmp::Reverse(ps[v].score), ps[v].tpn));
    let key = |set: &mut Vec<usize>| {
        let mut k: Vec<usize> = set
            .iter()
            .map(|v| cands.iter().position(|c| c == v).unwrap())
            .collect();
        k.sort_unstable();
        k
    };
    let mut best: Option<(Vec<i64>, Vec<usize>)> = None;
    for m in &all {
        let q = quality(ps, m, top, &levels, last, max_t);
        let mut set: Vec<usize> = m
            .iter()
            .filter(|&&(a, b)| (ps[a].score == top) != (ps[b].score == top))
            .map(|&(a, b)| if ps[a].score == top { b } else { a })
            .collect();
        let k = (q, key(&mut set));
        if best.as_ref().is_none_or(|b| k < *b) {
            best = Some(k);
        }
    }
    let Some((q_best, set_best)) = best else {
        rep.expect(false, || {
            format!("round {round}: [C4] bracket {top}: the unpaired players cannot be paired")
        });
        return;
    };
    rep.expect(q_mine == q_best, || {
        format!("round {round}: [C5]-[C10] bracket {top}: quality {q_mine:?}, {q_best:?} possible")
    });
    let mut mine_set: Vec<usize> = ups.iter().copied().collect();
    rep.expect(key(&mut mine_set) == set_best, || {
        format!("round {round}: 4.2 bracket {top}: not the first set of upfloaters")
    });
    if bracket.len() > 10 {
        return;
    }
    // 3.2.3-3.2.6 on the bracket as chosen.
    let unplayed = bracket.iter().all(|&v| ps[v].games == 0);
    let mut by_tpn = bracket.to_vec();
    by_tpn.sort_by_key(|&v| ps[v].tpn);
    let white_side: HashSet<usize> = if unplayed {
        by_tpn[..bracket.len() / 2].iter().copied().collect()
    } else {
        bracket
            .iter()
            .copied()
            .filter(|&v| ps[v].pref == Colour::White)
            .collect()
    };
    let mut pairings = vec![];
    all_matchings(ps, bracket, &mut pairings);
    let inside = |m: &Vec<(usize, usize)>| {
        m.iter()
            .filter(|&&(a, b)| white_side.contains(&a) == white_side.contains(&b))
            .count()
    };
    let c7 = pairings.iter().map(inside).min().expect("pairable");
    let best_pairings: Vec<&Vec<(usize, usize)>> =
        pairings.iter().filter(|m| inside(m) == c7).collect();
    let mut g1: Vec<usize> = white_side.iter().copied().collect();
    let mut g2: Vec<usize> = bracket
        .iter()
        .copied()
        .filter(|v| !white_side.contains(v))
        .collect();
    // The smaller group (G1 when equal) first, then the larger: each the first set in 4.3's
    // order with which some [C7]-best pairing has exactly those players shifted.
    let seqs = |group: &Vec<usize>, white: bool| {
        let mut l = group.clone();
        if white {
            l.sort_by_key(|&v| (ps[v].aro, ps[v].tpn));
        } else {
            l.sort_by_key(|&v| ps[v].tpn);
        }
        middle_first(&l)
    };
    let x_white = g1.len() <= g2.len();
    let (xs, ys) = if x_white {
        (seqs(&g1, true), seqs(&g2, false))
    } else {
        (seqs(&g2, false), seqs(&g1, true))
    };
    // A shifter set pair (sx, sy) works when some best pairing pairs every shifter with an
    // unshifted player of his own colour and everyone else across.
    let works = |sx: &HashSet<usize>, sy: &HashSet<usize>| {
        best_pairings.iter().any(|m| {
            m.iter().all(|&(a, b)| {
                let same = white_side.contains(&a) == white_side.contains(&b);
                let sa = sx.contains(&a) || sy.contains(&a);
                let sb = sx.contains(&b) || sy.contains(&b);
                if same {
                    sa != sb
                } else {
                    !sa && !sb
                }
            })
        })
    };
    let subsets = |list: &Vec<usize>, k: usize| -> Vec<HashSet<usize>> {
        // In 4.1.3's order: lexicographic over sequence numbers.
        let mut out = vec![];
        let n = list.len();
        let mut idx: Vec<usize> = (0..k).collect();
        if k > n {
            return out;
        }
        loop {
            out.push(idx.iter().map(|&i| list[i]).collect());
            let mut i = k;
            while i > 0 && idx[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            idx[i - 1] += 1;
            for j in i..k {
                idx[j] = idx[j - 1] + 1;
            }
        }
        out
    };
    let d = g1.len().abs_diff(g2.len()) / 2;
    let kx = (c7 - d) / 2;
    let ky = kx + d;
    let mut chosen = None;
    'x: for sx in subsets(&xs, kx) {
        for sy in subsets(&ys, ky) {
            // The first X set that works with some Y set; then the first Y set with it.
            if works(&sx, &sy) {
                chosen = Some((sx, sy));
                break 'x;
            }
        }
    }
    let Some((sx, sy)) = chosen else {
        rep.expect(false, || {
            format!("round {round}: 3.2.4 bracket {top}: no shifters found")
        });
        return;
    };
    let shifted: HashSet<usize> = sx.union(&sy).copied().collect();
    g1 = bracket
        .iter()
        .copied()
        .filter(|v| white_side.contains(v) != shifted.contains(v))
        .collect();
    g2 = by_tpn.iter().copied().filter(|v| !g1.contains(v)).collect();
    g1.sort_by_key(|&v| (ps[v].aro, ps[v].tpn));
    // 3.2.6: the first transposition of G2 (by TPN) that is legal.
    let mut perm: Vec<usize> = (0..g2.len()).collect();
    let mut found = None;
    loop {
        if g1
            .iter()
            .zip(&perm)
            .all(|(&a, &j)| legal(&ps[a], &ps[g2[j]]))
        {
            found = Some(perm.clone());
            break;
        }
        // Next permutation in lexicographic order.
        let Some(i) = (1..perm.len()).rev().find(|&i| perm[i - 1] < perm[i]) else {
            break;
        };
        let j = (i..perm.len())
            .rev()
            .find(|&j| perm[j] > perm[i - 1])
            .unwrap();
        perm.swap(i - 1, j);
        perm[i..].reverse();
    }
    let Some(t2) = found else {
        rep.expect(false, || {
            format!("round {round}: 3.2.6 bracket {top}: no legal transposition")
        });
        return;
    };
    for (&a, &j) in g1.iter().zip(&t2) {
        rep.expect(opp[&a] == g2[j], || {
            format!(
                "round {round}: 3.2.6 bracket {top}: {} meets {}, the first transposition gives {}",
                ps[a].sn, ps[opp[&a]].sn, ps[g2[j]].sn
            )
        });
    }
}
