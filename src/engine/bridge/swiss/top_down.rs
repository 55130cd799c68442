//! The top-down draw computed with the matching solver (the method is in the module doc of
//! `swiss`): who has met whom, the draw, the bye and the triangle, all by place (0 the
//! highest-placed); `swiss` turns contestants into places and back.

use crate::engine::matching::{BlossomSolver, Edge, MatchingProblem, MatchingSolver};

/// How far up from the bottom a triangle is sought.
const TRIANGLE_PLACES: usize = 30;
/// How many triangles that Dirac's condition cannot settle are checked by the solver.
const TRIANGLE_SOLVES: usize = 40;

/// Who has met whom, by place.
pub struct History {
    met: Vec<Vec<usize>>,
}

impl History {
    /// Meetings by place (`met[p]` = places met by place p; made symmetric here).
    pub fn new(met: Vec<Vec<usize>>) -> History {
        let mut sym = met.clone();
        for (p, list) in met.iter().enumerate() {
            for &q in list {
                if !sym[q].contains(&p) {
                    sym[q].push(p);
                }
            }
        }
        History { met: sym }
    }

    pub fn met(&self, a: usize, b: usize) -> bool {
        self.met[a].contains(&b)
    }

    /// True when every active place may still meet at least half the others: then (Dirac) the
    /// active places have a Hamiltonian cycle, so a perfect matching without repeats when their
    /// number is even.
    fn dirac(&self, active: &[bool], count: usize) -> bool {
        if count % 2 == 1 {
            return false;
        }
        (0..active.len()).filter(|&p| active[p]).all(|p| {
            let met_here = self.met[p].iter().filter(|&&q| active[q]).count();
            2 * (count - 1 - met_here) >= count
        })
    }

    /// A least-cost perfect matching of the active places (and, with `extra`, one more vertex
    /// joined to the listed places at the given costs): a repeat costs `repeat_cost` (repeats
    /// left out when it is `None`), an edge at `focus` its rank in `ranks` (the place's index
    /// there), all else nothing. Returns `mate` by place (`usize::MAX` for the extra vertex) and
    /// the repeats used, or `None` when no perfect matching exists.
    fn solve(
        &self,
        active: &[bool],
        repeat_cost: Option<i64>,
        focus: Option<(usize, &[usize])>,
        extra: Option<&[usize]>,
    ) -> Option<(Vec<usize>, usize)> {
        let places: Vec<usize> = (0..active.len()).filter(|&p| active[p]).collect();
        let mut index = vec![usize::MAX; active.len()];
        for (i, &p) in places.iter().enumerate() {
            index[p] = i;
        }
        let rank = |p: usize, q: usize| -> i64 {
            match focus {
                Some((f, ranks)) if f == p || f == q => {
                    let other = if f == p { q } else { p };
                    ranks
                        .iter()
                        .position(|&x| x == other)
                        .unwrap_or(ranks.len()) as i64
                }
                _ => 0,
            }
        };
        let mut edges = Vec::new();
        for (i, &a) in places.iter().enumerate() {
            for (j, &b) in places.iter().enumerate().skip(i + 1) {
                let repeat = self.met(a, b);
                match (repeat, repeat_cost) {
                    (true, None) => {}
                    (true, Some(c)) => edges.push(Edge::new(i, j, c + rank(a, b))),
                    (false, _) => edges.push(Edge::new(i, j, rank(a, b))),
                }
            }
        }
        let vertices = places.len() + usize::from(extra.is_some());
        if let Some(list) = extra {
            for (r, &p) in list.iter().enumerate() {
                if active[p] {
                    edges.push(Edge::new(index[p], places.len(), r as i64));
                }
            }
        }
        let m = BlossomSolver
            .solve(&MatchingProblem { vertices, edges })
            .ok()??;
        let mut mate = vec![usize::MAX; active.len()];
        let mut repeats = 0;
        for (i, &p) in places.iter().enumerate() {
            let j = m.mate[i];
            if j < places.len() {
                mate[p] = places[j];
                if i < j && self.met(p, places[j]) {
                    repeats += 1;
                }
            }
        }
        Some((mate, repeats))
    }

    /// The least number of repeat meetings in a perfect matching of the active places.
    fn fewest_repeats(&self, active: &[bool], count: usize) -> Option<usize> {
        if self.dirac(active, count) {
            return Some(0);
        }
        let big = active.len() as i64 + 1;
        self.solve(active, Some(big), None, None).map(|(_, r)| r)
    }
}

/// The top-down draw of the `active` places (an even number): pairs by place, the higher
/// first, in drawing order, and the number of repeats it needed.
///
/// For each place u, its candidates are ranked (not met first, by place; then met ones if
/// repeats are unavoidable). The first is taken at once when the last matching found still
/// pairs u with it, or when Dirac's condition holds for the rest. Otherwise one least-cost
/// matching decides: repeats cost more than any rank, u's edges cost the candidate's rank, so
/// u's partner is its best candidate for which the rest can still be drawn with the fewest
/// repeats possible — the same as trying the candidates one by one.
pub fn top_down(history: &History, active: &mut [bool]) -> (Vec<(usize, usize)>, usize) {
    let n = active.len();
    let mut count = active.iter().filter(|&&a| a).count();
    let allowed = history.fewest_repeats(active, count).unwrap_or(0);
    let big = n as i64 + 1;
    let mut used = 0;
    let mut pairs = Vec::new();
    let mut last: Option<Vec<usize>> = None;
    for u in 0..n {
        if !active[u] {
            continue;
        }
        let not_met = (u + 1..n).filter(|&v| active[v] && !history.met(u, v));
        let met = (u + 1..n).filter(|&v| active[v] && history.met(u, v));
        let candidates: Vec<usize> = if used < allowed {
            not_met.chain(met).collect()
        } else {
            not_met.collect()
        };
        let Some(&first) = candidates.first() else {
            break;
        };
        let mut chosen = None;
        if last.as_ref().is_some_and(|m| m[u] == first) {
            chosen = Some(first);
        } else if !history.met(u, first) {
            active[u] = false;
            active[first] = false;
            if history.dirac(active, count - 2) {
                chosen = Some(first);
                last = None;
            }
            active[u] = true;
            active[first] = true;
        }
        let v = match chosen {
            Some(v) => v,
            None => {
                let repeat_cost = (used < allowed).then_some(big * big);
                match history.solve(active, repeat_cost, Some((u, &candidates)), None) {
                    Some((mate, _)) if mate[u] != usize::MAX => {
                        let v = mate[u];
                        last = Some(mate);
                        v
                    }
                    _ => first,
                }
            }
        };
        active[u] = false;
        active[v] = false;
        count -= 2;
        used += usize::from(history.met(u, v));
        pairs.push((u, v));
    }
    (pairs, used)
}

/// The triangle: the lowest-placed three (by their places, from the bottom) that have not met
/// one another and leave the rest pairable without a repeat.
pub(super) fn choose_triangle(history: &History, warnings: &mut Vec<String>) -> [usize; 3] {
    let n = history.met.len();
    let low = n.saturating_sub(TRIANGLE_PLACES);
    let mut active = vec![true; n];
    let mut solves = 0;
    for a in (low..n).rev() {
        for b in (low..a).rev() {
            if history.met(a, b) {
                continue;
            }
            for c in (low..b).rev() {
                if history.met(a, c) || history.met(b, c) {
                    continue;
                }
                for p in [a, b, c] {
                    active[p] = false;
                }
                let ok = history.dirac(&active, n - 3)
                    || (solves < TRIANGLE_SOLVES && {
                        solves += 1;
                        history.solve(&active, None, None, None).is_some()
                    });
                for p in [a, b, c] {
                    active[p] = true;
                }
                if ok {
                    return [c, b, a];
                }
            }
        }
    }
    warnings.push(
        "no triangle of teams that have not met leaves the rest pairable: the lowest three play it"
            .to_string(),
    );
    [n - 3, n - 2, n - 1]
}

/// The bye, given the byes had so far by place: the lowest-placed without one whose absence
/// leaves the rest pairable without a repeat (else the lowest-placed without one; else the
/// lowest-placed with the fewest). One least-cost matching decides: an extra vertex joined to
/// the places without a bye, at the cost of their rank from the bottom, is matched with the
/// best of them that works.
pub(super) fn choose_bye(history: &History, byes: &[u32], warnings: &mut Vec<String>) -> usize {
    let n = byes.len();
    let fresh: Vec<usize> = (0..n).rev().filter(|&p| byes[p] == 0).collect();
    let mut active = vec![true; n];
    if let Some(&p) = fresh.first() {
        active[p] = false;
        let quick = history.dirac(&active, n - 1);
        active[p] = true;
        if quick {
            return p;
        }
        if let Some((mate, _)) = history.solve(&active, None, None, Some(&fresh)) {
            if let Some(p) = (0..n).find(|&p| mate[p] == usize::MAX) {
                return p;
            }
        }
        return p;
    }
    warnings.push("every contestant has had a bye: one is given a second".to_string());
    (0..n).rev().min_by_key(|&p| byes[p]).unwrap_or(0)
}
