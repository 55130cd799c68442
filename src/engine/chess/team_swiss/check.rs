//! A second reading of C.04.6, apart from the engine: the rules' own procedure by enumeration
//! (every set of upfloaters of 3.5, every pairing of a bracket of 3.6) for small events, and
//! the properties a round of any size must show, with plain matchings (no tiers) as the
//! witnesses of "fewest".

use super::{ColourPreferences, MatchText, TeamFacts, TeamRoundPairing, TeamSwissSettings};
use crate::engine::chess::swiss::Colour;
use crate::engine::matching::{BlossomSolver, Edge, MatchingProblem, MatchingSolver};
use std::cmp::Reverse;
use std::collections::HashMap;

/// A preference as the text states it: colour, strong.
type Pref = Option<(Colour, bool)>;

/// 1.7 of C.04.6, read again (C.04.5 has no preferences).
fn pref(t: &TeamFacts, s: &TeamSwissSettings, text: MatchText) -> Pref {
    let c = &t.colours;
    if c.is_empty() || s.preferences == ColourPreferences::None || text == MatchText::DoubleSwiss {
        return None;
    }
    let w = c.iter().filter(|&&x| x == Colour::White).count() as i32;
    let cd = w - (c.len() as i32 - w);
    let n = c.len();
    let two_black = n >= 2 && c[n - 1] == Colour::Black && c[n - 2] == Colour::Black;
    let two_white = n >= 2 && c[n - 1] == Colour::White && c[n - 2] == Colour::White;
    let b = s.preferences == ColourPreferences::TypeB;
    if cd < -1 || ((cd == 0 || cd == -1) && two_black) {
        Some((Colour::White, b))
    } else if cd > 1 || ((cd == 0 || cd == 1) && two_white) {
        Some((Colour::Black, b))
    } else if !b {
        None
    } else if cd == -1 || (cd == 0 && !s.last_round() && c[n - 1] == Colour::Black) {
        Some((Colour::White, false))
    } else if cd == 1 || (cd == 0 && !s.last_round() && c[n - 1] == Colour::White) {
        Some((Colour::Black, false))
    } else {
        None
    }
}

/// Article 4 of C.04.5, read again: who has White in the first game among `a` and `b`.
fn white_of_double_swiss(a: &TeamFacts, b: &TeamFacts, s: &TeamSwissSettings) -> u32 {
    let (h, o) = if (Reverse(a.score), a.tpn) < (Reverse(b.score), b.tpn) {
        (a, b)
    } else {
        (b, a)
    };
    let give = |c: Colour| if c == Colour::White { h.tpn } else { o.tpn };
    let whites = |t: &TeamFacts| t.colours.iter().filter(|&&c| c == Colour::White).count();
    let (nh, no) = (h.colours.len(), o.colours.len());
    if nh == 0 && no == 0 {
        // 4.3.1
        let odd = h.tpn % 2 == 1;
        return give(if odd {
            s.initial_colour
        } else {
            s.initial_colour.opposite()
        });
    }
    if whites(h) != whites(o) {
        // 4.3.2
        return if whites(h) < whites(o) { h.tpn } else { o.tpn };
    }
    // 4.3.3 (General Handling Rules 3.4: only played matches, aligned at the last)
    for k in 1..=nh.min(no) {
        let (x, y) = (h.colours[nh - k], o.colours[no - k]);
        if x != y {
            return give(y);
        }
    }
    if nh > 0 {
        // 4.3.4
        return give(h.colours[nh - 1].opposite());
    }
    // 4.3.5
    give(o.colours[no - 1])
}

/// Article 4 of C.04.6, read again: who has White among `a` and `b` (their TPNs).
fn white_of(a: &TeamFacts, b: &TeamFacts, s: &TeamSwissSettings, text: MatchText) -> u32 {
    if text == MatchText::DoubleSwiss {
        return white_of_double_swiss(a, b, s);
    }
    let key = |t: &TeamFacts| {
        (
            Reverse(t.score),
            Reverse(if s.secondary_for_colours {
                t.secondary
            } else {
                0
            }),
            t.tpn,
        )
    };
    let (f, o) = if key(a) < key(b) { (a, b) } else { (b, a) };
    let give = |c: Colour| if c == Colour::White { f.tpn } else { o.tpn };
    if f.colours.is_empty() && o.colours.is_empty() {
        return give(if f.tpn % 2 == 1 {
            s.initial_colour
        } else {
            s.initial_colour.opposite()
        });
    }
    let (pf, po) = (pref(f, s, text), pref(o, s, text));
    match (pf, po) {
        (Some((x, _)), None) => return give(x),
        (None, Some((y, _))) => return give(y.opposite()),
        _ => {}
    }
    if let (Some((x, xs)), Some((y, ys))) = (pf, po) {
        if x != y {
            return give(x);
        }
        if s.preferences == ColourPreferences::TypeB && xs != ys {
            return give(if xs { x } else { y.opposite() });
        }
    }
    let cd = |t: &TeamFacts| -> i32 {
        t.colours
            .iter()
            .map(|&c| if c == Colour::White { 1 } else { -1 })
            .sum()
    };
    if cd(f) != cd(o) {
        return if cd(f) < cd(o) { f.tpn } else { o.tpn };
    }
    let (nf, no) = (f.colours.len(), o.colours.len());
    for k in 1..=nf.min(no) {
        let (x, y) = (f.colours[nf - k], o.colours[no - k]);
        if x != y {
            return give(y);
        }
    }
    if let Some((x, _)) = pf {
        return give(x);
    }
    if nf > 0 {
        return give(f.colours[nf - 1].opposite());
    }
    give(o.colours[no - 1])
}

/// The teams by TPN, the pairs allowed by [C1], by position (TPN − 1).
struct Text<'a> {
    by_tpn: Vec<&'a TeamFacts>,
    legal: Vec<Vec<bool>>,
    memo: HashMap<u64, bool>,
}

impl<'a> Text<'a> {
    fn new(ts: &'a [TeamFacts]) -> Text<'a> {
        let mut by_tpn: Vec<&TeamFacts> = ts.iter().collect();
        by_tpn.sort_by_key(|t| t.tpn);
        let n = ts.len();
        let legal = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| i != j && !by_tpn[i].opponents.contains(&by_tpn[j].tpn))
                    .collect()
            })
            .collect();
        Text {
            by_tpn,
            legal,
            memo: HashMap::new(),
        }
    }

    /// The teams of `mask` can all be paired (by trying every partner of the first).
    fn pairable(&mut self, mask: u64) -> bool {
        if mask == 0 {
            return true;
        }
        if mask.count_ones() % 2 == 1 {
            return false;
        }
        if let Some(&v) = self.memo.get(&mask) {
            return v;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut ok = false;
        let mut m = rest;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.legal[i][j] && self.pairable(rest & !(1 << j)) {
                ok = true;
                break;
            }
        }
        self.memo.insert(mask, ok);
        ok
    }

    /// Every pairing of the teams of `mask` on legal pairs.
    fn pairings(
        &self,
        mask: u64,
        acc: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        if mask == 0 {
            out.push(acc.clone());
            return;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut m = rest;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.legal[i][j] {
                acc.push((i, j));
                self.pairings(rest & !(1 << j), acc, out);
                acc.pop();
            }
        }
    }

    fn score(&self, i: usize) -> u32 {
        self.by_tpn[i].score
    }

    fn members(mask: u64) -> Vec<usize> {
        (0..64).filter(|&i| mask & (1 << i) != 0).collect()
    }

    /// The fewest upfloaters the residents `res` need within `rem` ([C1], [C3], [C4]).
    fn fewest_upfloaters(&mut self, rem: u64, res: u64) -> Option<u32> {
        let pot = rem & !res;
        let mut best: Option<u32> = None;
        for sub in submasks(pot) {
            let k = sub.count_ones();
            if best.is_some_and(|b| k >= b) {
                continue;
            }
            if self.pairable(res | sub) && self.pairable(rem & !(res | sub)) {
                best = Some(k);
            }
        }
        best
    }
}

/// Every subset of `mask`.
fn submasks(mask: u64) -> Vec<u64> {
    let mut out = vec![0];
    let mut sub = mask;
    while sub != 0 {
        out.push(sub);
        sub = (sub - 1) & mask;
    }
    out
}

/// A round's pairs as TPNs (smaller first, sorted) and its bye.
pub(super) type RoundByText = (Vec<(u32, u32)>, Option<u32>);

/// The choice of 3.5.5 among the sets of upfloaters: [C6], [C7], the order of 3.5.3-3.5.4.
type SetKey = (u32, u32, Vec<(Reverse<u32>, u32)>);

/// The round as the text pairs it, by enumeration (at most 20 teams; brackets of up to 14):
/// the pairs as TPNs (smaller first, sorted) and the bye.
pub(crate) fn reference(
    ts: &[TeamFacts],
    s: &TeamSwissSettings,
    text: MatchText,
) -> Option<RoundByText> {
    let n = ts.len();
    assert!(n <= 20);
    let mut x = Text::new(ts);
    let mut rem: u64 = (1u64 << n) - 1;
    let mut bye = None;
    if n % 2 == 1 {
        let mut order: Vec<usize> = (0..n).filter(|&i| !x.by_tpn[i].had_bye).collect();
        order.sort_by_key(|&i| {
            (
                x.score(i),
                Reverse(x.by_tpn[i].colours.len()),
                Reverse(x.by_tpn[i].tpn),
            )
        });
        for i in order {
            if x.pairable(rem & !(1 << i)) {
                bye = Some(i);
                rem &= !(1 << i);
                break;
            }
        }
        bye?;
    }
    if !x.pairable(rem) {
        return None;
    }
    let floated = |x: &Text, i: usize| !s.floats_lapse(text) && x.by_tpn[i].floated;
    let mut pairs = Vec::new();
    while rem != 0 {
        let top = Text::members(rem).into_iter().map(|i| x.score(i)).max()?;
        let res: u64 = Text::members(rem)
            .into_iter()
            .filter(|&i| x.score(i) == top)
            .fold(0, |m, i| m | (1 << i));
        let pot = rem & !res;
        let next = Text::members(pot).into_iter().map(|i| x.score(i)).max();
        // 3.5.2: the sets meeting [C4] and [C5] (with a legal pairing and completion).
        type C45 = (u32, Reverse<Vec<u32>>);
        let mut cands: Vec<(C45, u64)> = Vec::new();
        for sub in submasks(pot) {
            if (res | sub).count_ones() % 2 == 1 {
                continue;
            }
            if !(x.pairable(res | sub) && x.pairable(rem & !(res | sub))) {
                continue;
            }
            let mut scores: Vec<u32> = Text::members(sub).into_iter().map(|i| x.score(i)).collect();
            scores.sort_unstable();
            cands.push(((sub.count_ones(), Reverse(scores)), sub));
        }
        let best45 = cands.iter().map(|c| c.0.clone()).min()?;
        // 3.5.5: [C6], [C7], then the first set in the order of 3.5.3-3.5.4.
        let mut chosen: Option<(SetKey, u64)> = None;
        for (_, sub) in cands.into_iter().filter(|c| c.0 == best45) {
            let rest = rem & !(res | sub);
            let c6 = match next {
                Some(sc) => {
                    let group: u64 = Text::members(rest)
                        .into_iter()
                        .filter(|&i| x.score(i) == sc)
                        .fold(0, |m, i| m | (1 << i));
                    if group == 0 {
                        0
                    } else {
                        x.fewest_upfloaters(rest, group)?
                    }
                }
                None => 0,
            };
            let c7 = Text::members(sub)
                .into_iter()
                .filter(|&i| floated(&x, i))
                .count() as u32;
            let mut list: Vec<(Reverse<u32>, u32)> = Text::members(sub)
                .into_iter()
                .map(|i| (Reverse(x.score(i)), x.by_tpn[i].tpn))
                .collect();
            list.sort();
            let key = (c6, c7, list);
            if chosen.as_ref().is_none_or(|(k, _)| key < *k) {
                chosen = Some((key, sub));
            }
        }
        let (_, ups) = chosen?;
        // 3.6: the first pairing by [C8], [C9], [C10] and then the identifier.
        let bracket = res | ups;
        let mut all = Vec::new();
        x.pairings(bracket, &mut Vec::new(), &mut all);
        let prefs: Vec<Pref> = x.by_tpn.iter().map(|t| pref(t, s, text)).collect();
        let key = |p: &Vec<(usize, usize)>| {
            let mut c8 = 0;
            let mut c9 = 0;
            let mut c10 = 0;
            for &(i, j) in p {
                if let (Some((a, sa)), Some((b, sb))) = (prefs[i], prefs[j]) {
                    if a == b {
                        c8 += 1;
                        if sa && sb {
                            c9 += 1;
                        }
                    }
                }
                let up = |k: usize| ups & (1 << k) != 0;
                if up(i) != up(j) {
                    let resident = if up(i) { j } else { i };
                    if floated(&x, resident) {
                        c10 += 1;
                    }
                }
            }
            let mut p2: Vec<(usize, usize)> =
                p.iter().map(|&(i, j)| (i.min(j), i.max(j))).collect();
            p2.sort();
            let id: Vec<usize> = p2
                .iter()
                .map(|q| q.0)
                .chain(p2.iter().map(|q| q.1))
                .collect();
            (c8, c9, c10, id)
        };
        let best = all.iter().min_by_key(|p| key(p))?;
        pairs.extend(best.iter().copied());
        rem &= !bracket;
    }
    let mut out: Vec<(u32, u32)> = pairs
        .into_iter()
        .map(|(i, j)| {
            (
                x.by_tpn[i].tpn.min(x.by_tpn[j].tpn),
                x.by_tpn[i].tpn.max(x.by_tpn[j].tpn),
            )
        })
        .collect();
    out.sort_unstable();
    Some((out, bye.map(|i| x.by_tpn[i].tpn)))
}

/// The least total cost of a perfect matching of `vs` over the legal pairs `cost` allows
/// (`None` for a pair: not allowed), by a plain matching.
fn least(vs: &[usize], cost: impl Fn(usize, usize) -> Option<i64>) -> Option<i64> {
    let mut edges = Vec::new();
    for i in 0..vs.len() {
        for j in i + 1..vs.len() {
            if let Some(c) = cost(vs[i], vs[j]) {
                edges.push(Edge::new(i, j, c));
            }
        }
    }
    BlossomSolver
        .solve(&MatchingProblem {
            vertices: vs.len(),
            edges,
        })
        .ok()
        .flatten()
        .map(|m| m.cost)
}

/// The rules a round of any size must show; the violations found, in words.
pub(crate) fn violations(
    ts: &[TeamFacts],
    s: &TeamSwissSettings,
    p: &TeamRoundPairing,
    text: MatchText,
) -> Vec<String> {
    let mut out = Vec::new();
    let n = ts.len();
    let mut by_tpn: Vec<&TeamFacts> = ts.iter().collect();
    by_tpn.sort_by_key(|t| t.tpn);
    let t = |tpn: u32| by_tpn[tpn as usize - 1];
    let met = |a: usize, b: usize| by_tpn[a].opponents.contains(&by_tpn[b].tpn);
    // Every team once; the bye only in an odd field.
    let mut seen = vec![0; n];
    for m in &p.matches {
        seen[m.white as usize - 1] += 1;
        seen[m.black as usize - 1] += 1;
        if t(m.white).opponents.contains(&m.black) {
            out.push(format!("[C1] {} and {} met before", m.white, m.black));
        }
        let w = white_of(t(m.white), t(m.black), s, text);
        if w != m.white {
            out.push(format!(
                "Article 4: {w} should have White in {}-{}",
                m.white, m.black
            ));
        }
    }
    if let Some(b) = p.bye {
        seen[b as usize - 1] += 1;
        if t(b).had_bye {
            out.push(format!("[C2] {b} had a bye or forfeit win already"));
        }
    }
    if seen.iter().any(|&k| k != 1) {
        out.push("not every team once".into());
    }
    if p.bye.is_some() != (n % 2 == 1) {
        out.push("a bye in an even field or none in an odd one".into());
    }
    // 3.4: every team before the bye's in its order leaves no legal pairing.
    let all: Vec<usize> = (0..n).collect();
    let pair_cost = |a: usize, b: usize| (!met(a, b)).then_some(0);
    if let Some(b) = p.bye {
        let mut order: Vec<usize> = (0..n).filter(|&i| !by_tpn[i].had_bye).collect();
        order.sort_by_key(|&i| {
            (
                by_tpn[i].score,
                Reverse(by_tpn[i].colours.len()),
                Reverse(by_tpn[i].tpn),
            )
        });
        for i in order {
            if by_tpn[i].tpn == b {
                break;
            }
            let rest: Vec<usize> = all.iter().copied().filter(|&k| k != i).collect();
            if least(&rest, pair_cost).is_some() {
                out.push(format!(
                    "3.4: {} should have the bye before {b}",
                    by_tpn[i].tpn
                ));
            }
        }
    }
    // Bracket by bracket from the top: the fewest upfloaters ([C4]) and then, within the
    // bracket, the fewest unfulfilled preferences ([C8]).
    let mut mate = vec![usize::MAX; n];
    for m in &p.matches {
        let (a, b) = (m.white as usize - 1, m.black as usize - 1);
        mate[a] = b;
        mate[b] = a;
    }
    let mut rem: Vec<usize> = (0..n).filter(|&i| Some(by_tpn[i].tpn) != p.bye).collect();
    let prefs: Vec<Pref> = by_tpn.iter().map(|t| pref(t, s, text)).collect();
    while !rem.is_empty() && out.is_empty() {
        let top = rem.iter().map(|&i| by_tpn[i].score).max().unwrap_or(0);
        let res: Vec<bool> = (0..n)
            .map(|i| by_tpn[i].score == top && rem.contains(&i))
            .collect();
        let ups = rem.iter().filter(|&&i| !res[i] && res[mate[i]]).count() as i64;
        let fewest = least(&rem, |a, b| {
            (!met(a, b)).then_some(i64::from(res[a] != res[b] && (res[a] || res[b])))
        });
        if fewest != Some(ups) {
            out.push(format!(
                "[C4] bracket of score {top}: {ups} upfloaters, fewest {fewest:?}"
            ));
        }
        let bracket: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&i| res[i] || res[mate[i]])
            .collect();
        let same = |a: usize, b: usize| -> i64 {
            matches!((prefs[a], prefs[b]), (Some((x, _)), Some((y, _))) if x == y).into()
        };
        let got: i64 = bracket
            .iter()
            .filter(|&&i| i < mate[i])
            .map(|&i| same(i, mate[i]))
            .sum();
        let best = least(&bracket, |a, b| {
            (!met(a, b) && (res[a] || res[b])).then(|| same(a, b))
        });
        if best != Some(got) {
            out.push(format!(
                "[C8] bracket of score {top}: {got} unfulfilled, fewest {best:?}"
            ));
        }
        rem.retain(|i| !bracket.contains(i));
    }
    out
}
