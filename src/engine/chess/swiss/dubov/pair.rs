//! The pairing of a round (articles 3 and 4): the pairing-allocated bye, then the score
//! groups from the top, each bracket in three lexicographic matchings ([`lex`]): the
//! upfloaters (over every player still unpaired, so the rest can always be completed), the
//! shifters between G1 and G2, and the transposition of G2 (see the module doc of
//! [`super`]).

use super::player::{legal, DubovPlayer};
use crate::engine::chess::swiss::dutch::lex::{
    solve_lex_lazy, Lazy, LexEdges, LexError, LexStats, Values,
};
use crate::engine::chess::swiss::dutch::player::QuickSet;
use crate::engine::chess::swiss::Colour;
use crate::engine::matching::{Edge, MatchingProblem, MatchingSolver};
use std::cmp::Reverse;

/// The players to pair (the section's forced boards and decided byes set aside).
pub(crate) struct Field<'a> {
    pub ps: Vec<&'a DubovPlayer>,
    /// The last round of the event: [C8]-[C10] do not apply.
    pub last_round: bool,
    /// MaxT (1.8.2): a player upfloated this many times is a maximum upfloater.
    pub max_t: u32,
}

/// Why no pairing was found.
#[derive(Debug)]
pub(crate) enum PairError {
    /// No pairing satisfies the absolute criteria (1.9.3: the arbiter decides).
    Impossible,
    /// An odd number to pair and nobody may receive the bye ([C2]).
    NoBye,
    /// The matching failed.
    Solver(String),
}

impl From<LexError> for PairError {
    fn from(e: LexError) -> Self {
        PairError::Solver(format!("{e:?}"))
    }
}

/// The pairing: boards as (player of G1, player of G2), positions in [`Field::ps`].
#[derive(Default, Debug)]
pub(crate) struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    pub solves: usize,
    pub upfloaters: usize,
    pub shifters: usize,
}

fn lex(
    solver: &dyn MatchingSolver,
    vertices: usize,
    edges: &LexEdges,
    tiers: usize,
    start: Option<Vec<usize>>,
    core: &[bool],
    stats: &mut LexStats,
) -> Result<Vec<usize>, PairError> {
    solve_lex_lazy(
        solver,
        vertices,
        edges,
        tiers,
        start,
        true,
        Some(core.to_vec()),
        None,
        stats,
    )?
    .ok_or(PairError::Impossible)
}

/// A perfect matching of `vs` exists on the legal pairs at most `window` apart in the list
/// (`usize::MAX`: every pair). Finding one proves the players can be paired; not finding one
/// with a window proves nothing.
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
            if legal(f.ps[vs[i]], f.ps[vs[j]]) {
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

/// A perfect matching of the vertices in `order` (all of `0..order.len()`) on the pairs
/// `allowed` allows and the `extra` pairs, found on the pairs near in `order` first, then on
/// wider windows, every pair at last; `None` when there is none. A lexicographic solve
/// started from it needs no search for a first matching (which, on near pairs that admit
/// none, would hand it every pair).
fn any_matching(
    order: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
    extra: &[(usize, usize)],
    solver: &dyn MatchingSolver,
) -> Option<Vec<usize>> {
    let n = order.len();
    for window in [16, 128, usize::MAX] {
        let mut edges: Vec<Edge> = extra.iter().map(|&(u, v)| Edge::new(u, v, 0)).collect();
        for i in 0..n {
            for j in i + 1..n.min(i.saturating_add(window).saturating_add(1)) {
                if allowed(order[i], order[j]) {
                    edges.push(Edge::new(order[i], order[j], 0));
                }
            }
        }
        if let Ok(Some(m)) = solver.solve(&MatchingProblem { vertices: n, edges }) {
            return Some(m.mate);
        }
        if window >= n {
            break;
        }
    }
    None
}

/// The list folded in two, its first half interleaved with its second (`a b c d e` ->
/// `a d b e c`): a narrow window of it holds the pairs half the list apart, which a group
/// of players who may not meet one another (all due the same colour absolutely, say) needs.
pub(crate) fn folded<T: Copy>(list: &[T]) -> Vec<T> {
    let h = list.len().div_ceil(2);
    let mut out = Vec::with_capacity(list.len());
    for i in 0..h {
        out.push(list[i]);
        if let Some(&x) = list.get(i + h) {
            out.push(x);
        }
    }
    out
}

/// Pairable, tried first on a narrow window of the list and of the list folded (cheap),
/// then on every pair.
fn certainly_pairable(f: &Field, vs: &[usize], solver: &dyn MatchingSolver) -> bool {
    pairable(f, vs, 16, solver)
        || (vs.len() > 17
            && (pairable(f, &folded(vs), 16, solver) || pairable(f, vs, usize::MAX, solver)))
}

/// The order of 4.3.3: from the middle of the list outwards, the higher of two middles first.
pub(crate) fn middle_out<T: Copy>(list: &[T]) -> Vec<T> {
    let mut rest: Vec<T> = list.to_vec();
    let mut out = Vec::with_capacity(list.len());
    while !rest.is_empty() {
        let len = rest.len();
        let k = if len % 2 == 1 { len / 2 } else { len / 2 - 1 };
        out.push(rest.remove(k));
    }
    out
}

/// The pairs handed to a bracket's solve beside the residents' own: those of players at
/// most this far apart in the order, and the residents with this many players below them;
/// the others are priced in by the duals when they could improve the solve.
const NEAR: usize = 12;

/// Pairs the field.
pub(crate) fn pair(f: &Field, solver: &dyn MatchingSolver) -> Result<Paired, PairError> {
    let n = f.ps.len();
    let mut out = Paired::default();
    let mut stats = LexStats::default();
    let mut rem: Vec<usize> = (0..n).collect();
    rem.sort_by_key(|&v| (Reverse(f.ps[v].score), f.ps[v].tpn));
    let mut bye_open = n % 2 == 1;
    if bye_open {
        // 3.1: eligible, the lowest score, the most games, the largest TPN; the first of
        // them whose absence leaves the rest pairable. The first is tried cheaply.
        let mut order: Vec<usize> = (0..n).filter(|&v| f.ps[v].bye_eligible).collect();
        order.sort_by_key(|&v| (f.ps[v].score, Reverse(f.ps[v].played), Reverse(f.ps[v].tpn)));
        let Some(&first) = order.first() else {
            return Err(PairError::NoBye);
        };
        let others: Vec<usize> = rem.iter().copied().filter(|&v| v != first).collect();
        if pairable(f, &others, 16, solver) {
            out.bye = Some(first);
            rem = others;
            bye_open = false;
        }
    }
    while !rem.is_empty() {
        let top = f.ps[rem[0]].score;
        let r = rem.iter().take_while(|&&v| f.ps[v].score == top).count();
        // [C5] at 0 when the residents pair among themselves and the rest does too.
        let plain = !bye_open
            && certainly_pairable(f, &rem[..r], solver)
            && certainly_pairable(f, &rem[r..], solver);
        let bracket: Vec<usize> = if plain {
            rem[..r].to_vec()
        } else {
            let (bracket, bye, ups) = upfloaters(f, &rem, r, bye_open, solver, &mut stats)?;
            if let Some(b) = bye {
                out.bye = Some(b);
                bye_open = false;
            }
            out.upfloaters += ups;
            bracket
        };
        let (pairs, shifters) = pair_bracket(f, &bracket, solver, &mut stats)?;
        out.pairs.extend(pairs);
        out.shifters += shifters;
        let gone: std::collections::HashSet<usize> =
            bracket.iter().copied().chain(out.bye).collect();
        rem.retain(|v| !gone.contains(v));
    }
    out.solves = stats.solves;
    Ok(out)
}

/// The bracket of the residents `rem[..r]`: its upfloaters (3.2.1-3.2.2, 4.2) chosen by one
/// lexicographic matching over every player of `rem` (and the bye vertex while the bye is
/// open, 3.1). Returns the bracket (residents, bye excepted, and upfloaters), the bye, and
/// the number of upfloaters.
fn upfloaters(
    f: &Field,
    rem: &[usize],
    r: usize,
    bye_open: bool,
    solver: &dyn MatchingSolver,
    stats: &mut LexStats,
) -> Result<(Vec<usize>, Option<usize>, usize), PairError> {
    let m = rem.len();
    let p = |k: usize| f.ps[rem[k]];
    let mut levels: Vec<i64> = rem[r..].iter().map(|&v| f.ps[v].score).collect();
    levels.sort_unstable();
    levels.dedup();
    let level = |k: usize| levels.binary_search(&p(k).score).expect("a level");
    let quality = !f.last_round;
    let t_bye = 0;
    let t_c5 = 1;
    let t_c6 = 2;
    let t_c7 = t_c6 + levels.len();
    let t_star = t_c7 + 1 + if quality { 3 } else { 0 };
    // 3.1's order of the bye candidates.
    let mut bye_order: Vec<usize> = (0..m).filter(|&k| p(k).bye_eligible).collect();
    bye_order.sort_by_key(|&k| (p(k).score, Reverse(p(k).played), Reverse(p(k).tpn)));
    let mut bye_pos = vec![None; m];
    for (i, &k) in bye_order.iter().enumerate() {
        bye_pos[k] = Some(i);
    }
    if bye_open && bye_order.is_empty() {
        return Err(PairError::NoBye);
    }
    let vertices = m + usize::from(bye_open);
    let own = |b: usize, hint: usize| -> Values {
        let u = p(b);
        let mut t = vec![(t_c5, 1), (t_c6 + level(b), 1)];
        if quality {
            if u.upfloats >= f.max_t {
                t.push((t_c7 + 1, 1));
                if u.upfloats > 0 {
                    t.push((t_c7 + 2, i64::from(u.upfloats)));
                }
            }
            if u.upfloated_last {
                t.push((t_c7 + 3, 1));
            }
        }
        if b > r {
            t.push((hint, (b - r) as i64));
        }
        t
    };
    // The tiers of the pair a-b (a < b), `None` when the two may not meet.
    let values = |a: usize, b: usize, star: &[Option<usize>], hint: usize| -> Option<Values> {
        let (a, b) = (a.min(b), a.max(b));
        if !legal(p(a), p(b)) {
            return None;
        }
        let mut t: Values = Vec::new();
        if b < r {
            if p(a).preference == p(b).preference {
                t.push((t_c7, 1));
            }
        } else if a < r {
            if p(a).preference == p(b).preference {
                t.push((t_c7, 1));
            }
            t.extend(own(b, hint));
        } else {
            for x in [a, b] {
                if let Some(s) = star[x] {
                    t.push((t_star + s, 1));
                }
            }
        }
        Some(t)
    };
    // Classes of the lazy pairs: 0 the residents, 1 and 2 the lower players due White and
    // Black (a resident's [C7] against a lower player depends only on that), 3 the bye.
    let class: Vec<u8> = (0..vertices)
        .map(|k| {
            if k == m {
                3
            } else if k < r {
                0
            } else if p(k).preference == Colour::White {
                1
            } else {
                2
            }
        })
        .collect();
    let solve = |star: &[Option<usize>],
                 stars: usize,
                 start: Option<Vec<usize>>,
                 stats: &mut LexStats|
     -> Result<Vec<usize>, PairError> {
        let hint = t_star + stars;
        let mut edges = LexEdges::with_capacity(r * r / 2 + m * NEAR, r * r + 4 * m * NEAR);
        let mut core = Vec::new();
        let mut outer: QuickSet<(usize, usize)> = QuickSet::default();
        for a in 0..r {
            for b in a + 1..r {
                if let Some(t) = values(a, b, star, hint) {
                    edges.push(a, b, &t);
                    // Far pairs join the solve when the duals price them in.
                    let started = start.as_ref().is_some_and(|s| s[a] == b);
                    core.push(b - a <= NEAR || started);
                }
            }
        }
        let mut near = |a: usize, b: usize, edges: &mut LexEdges, core: &mut Vec<bool>| {
            let (a, b) = (a.min(b), a.max(b));
            if b >= m || b < r || !outer.insert((a, b)) {
                return;
            }
            if let Some(t) = values(a, b, star, hint) {
                edges.push(a, b, &t);
                core.push(true);
            }
        };
        for a in 0..m {
            for b in a + 1..m.min(a + NEAR + 1) {
                near(a, b, &mut edges, &mut core);
            }
            if let Some(s) = &start {
                near(a, s[a], &mut edges, &mut core);
            }
        }
        for a in 0..r {
            for b in r..m.min(r + NEAR) {
                near(a, b, &mut edges, &mut core);
            }
        }
        if bye_open {
            for k in 0..m {
                if let Some(i) = bye_pos[k] {
                    let mut t = vec![];
                    if i > 0 {
                        t.push((t_bye, i as i64));
                    }
                    if let Some(s) = star[k] {
                        t.push((t_star + s, 1));
                    }
                    edges.push(k, m, &t);
                    core.push(true);
                }
            }
        }
        // Each end's values against each class (none: no partner of that class).
        let mut alpha: Vec<[Option<Values>; 3]> = vec![[None, None, None]; vertices];
        for (u, slot) in alpha.iter_mut().enumerate().take(m) {
            for c in 0..3u8 {
                if (class[u], c) == (0, 0) {
                    continue;
                }
                let partner = (0..m).any(|w| w != u && class[w] == c && legal(p(u), p(w)));
                if !partner {
                    continue;
                }
                slot[c as usize] = Some(match (class[u], c) {
                    (0, c) => {
                        let due = if c == 1 { Colour::White } else { Colour::Black };
                        if p(u).preference == due {
                            vec![(t_c7, 1)]
                        } else {
                            vec![]
                        }
                    }
                    (_, 0) => own(u, hint),
                    _ => star[u].map(|s| vec![(t_star + s, 1)]).unwrap_or_default(),
                });
            }
        }
        let pair_of = |a: usize, b: usize| values(a, b, star, hint);
        let lazy = Lazy {
            class: class.clone(),
            alpha,
            pair: &pair_of,
            edges: outer,
        };
        solve_lex_lazy(
            solver,
            vertices,
            &edges,
            hint + 1,
            start,
            true,
            Some(core),
            Some(&lazy),
            stats,
        )?
        .ok_or(PairError::Impossible)
    };
    let ups = |mate: &[usize]| -> Vec<usize> {
        (0..r)
            .map(|a| mate[a])
            .filter(|&b| b >= r && b < m)
            .collect()
    };
    let bye_pairs: Vec<(usize, usize)> = if bye_open {
        bye_order.iter().map(|&k| (k, m)).collect()
    } else {
        Vec::new()
    };
    let order: Vec<usize> = (0..vertices).collect();
    let first = any_matching(
        &order,
        |a, b| b < m && legal(p(a), p(b)),
        &bye_pairs,
        solver,
    );
    let mut mate = solve(&vec![None; m], 0, first, stats)?;
    let first = ups(&mate);
    if !first.is_empty() {
        // 4.2: the first set in the order of the candidates (score, then TPN); [C5]-[C6]
        // fix how many come from each score, so only the candidates of those scores compete.
        let used: Vec<usize> = first.iter().map(|&b| level(b)).collect();
        let mut star = vec![None; m];
        let mut s = 0;
        for (k, slot) in star.iter_mut().enumerate().skip(r) {
            if used.contains(&level(k)) {
                *slot = Some(s);
                s += 1;
            }
        }
        mate = solve(&star, s, Some(mate), stats)?;
    }
    let bye = bye_open.then(|| rem[mate[m]]);
    let chosen = ups(&mate);
    let mut bracket: Vec<usize> = rem[..r]
        .iter()
        .copied()
        .filter(|&v| Some(v) != bye)
        .collect();
    bracket.extend(chosen.iter().map(|&k| rem[k]));
    Ok((bracket, bye, chosen.len()))
}

/// Pairs a bracket (3.2.3-3.2.6): G1 the White seekers (the first half by TPN when nobody
/// of the bracket has played), the shifters chosen by 4.3, then S1 (G1 by ARO, then TPN)
/// against the first legal transposition of G2 (by TPN). Returns the boards (G1 player
/// first) and the number of shifters.
fn pair_bracket(
    f: &Field,
    bracket: &[usize],
    solver: &dyn MatchingSolver,
    stats: &mut LexStats,
) -> Result<(Vec<(usize, usize)>, usize), PairError> {
    let b = bracket.len();
    if b == 0 {
        return Ok((vec![], 0));
    }
    let p = |k: usize| f.ps[bracket[k]];
    let mut by_tpn: Vec<usize> = (0..b).collect();
    by_tpn.sort_by_key(|&k| p(k).tpn);
    let unplayed = (0..b).all(|k| p(k).played == 0);
    let mut cls = vec![1u8; b];
    if unplayed {
        for &k in &by_tpn[..b / 2] {
            cls[k] = 0;
        }
    } else {
        for (k, c) in cls.iter_mut().enumerate() {
            if p(k).preference == Colour::White {
                *c = 0;
            }
        }
    }
    // 4.3: each class's possible shifters, sequence numbers from the middle out.
    let mut seq = vec![0usize; b];
    let mut size = [0usize; 2];
    for c in 0..2u8 {
        let mut list: Vec<usize> = (0..b).filter(|&k| cls[k] == c).collect();
        if c == 0 {
            list.sort_by_key(|&k| (p(k).aro, p(k).tpn));
        } else {
            list.sort_by_key(|&k| p(k).tpn);
        }
        size[c as usize] = list.len();
        for (i, k) in middle_out(&list).into_iter().enumerate() {
            seq[k] = i;
        }
    }
    // The identity transposition is the first: when S1[i] may meet G2[i] for every i, it
    // is the pairing, with no shifter and no matching.
    let natural = |g1: &[bool]| -> Option<Vec<(usize, usize)>> {
        let mut s1: Vec<usize> = (0..b).filter(|&k| g1[k]).collect();
        s1.sort_by_key(|&k| (p(k).aro, p(k).tpn));
        let g2: Vec<usize> = by_tpn.iter().copied().filter(|&k| !g1[k]).collect();
        (s1.len() == g2.len() && s1.iter().zip(&g2).all(|(&a, &c)| legal(p(a), p(c)))).then(|| {
            s1.iter()
                .zip(&g2)
                .map(|(&a, &c)| (bracket[a], bracket[c]))
                .collect()
        })
    };
    if let Some(pairs) = natural(&cls.iter().map(|&c| c == 0).collect::<Vec<_>>()) {
        return Ok((pairs, 0));
    }
    let x = if size[0] <= size[1] { 0u8 } else { 1u8 };
    let same = |a: usize, c: usize| cls[a] == cls[c];
    // The shifter of a pair of one class: the one with the lower sequence number.
    let shifter = |a: usize, c: usize| same(a, c) && seq[a] < seq[c];
    let mut place = vec![0usize; b];
    for (i, &k) in by_tpn.iter().enumerate() {
        place[k] = i;
    }
    let near = |a: usize, c: usize| place[a].abs_diff(place[c]) <= 2 * NEAR;
    let legal_pairs: Vec<(usize, usize)> = (0..b)
        .flat_map(|a| (a + 1..b).map(move |c| (a, c)))
        .filter(|&(a, c)| legal(p(a), p(c)))
        .collect();
    // The larger group's first shifters by 4.3, when [C7] needs no more than the
    // difference of the groups: if S1 may then meet G2 in order, that is the pairing.
    if size[0] != size[1] {
        let y = 1 - x;
        let d = size[0].abs_diff(size[1]) / 2;
        let g1: Vec<bool> = (0..b)
            .map(|k| (cls[k] == 0) != (cls[k] == y && seq[k] < d))
            .collect();
        if let Some(pairs) = natural(&g1) {
            return Ok((pairs, d));
        }
    }
    // Step A, the first matching: [C7] (pairs of one class), hint: the shifters' numbers.
    let mut edges = LexEdges::with_capacity(legal_pairs.len(), 2 * legal_pairs.len());
    let mut core = Vec::with_capacity(legal_pairs.len());
    for &(a, c) in &legal_pairs {
        if same(a, c) {
            edges.push(a, c, &[(0, 1), (1, seq[a].min(seq[c]) as i64)]);
        } else {
            edges.push(a, c, &[]);
        }
        core.push(near(a, c));
    }
    let mut mate = lex(solver, b, &edges, 2, None, &core, stats)?;
    let c7 = (0..b).filter(|&a| mate[a] > a && same(a, mate[a])).count();
    let mut g1: Vec<bool> = (0..b).map(|k| cls[k] == 0).collect();
    let mut shifted = 0;
    if c7 > 0 {
        let d = size[0].abs_diff(size[1]) / 2;
        let k_small = (c7 - d) / 2;
        // 3.2.4: the smaller group's shifters first (none when [C7] needs none), then the
        // larger group's; each the first set in 4.3's order.
        let nx = size[x as usize];
        let tier_of = |v: usize| -> usize {
            if cls[v] == x {
                1 + seq[v]
            } else {
                1 + nx + seq[v]
            }
        };
        let hint = 1 + b;
        let mut edges = LexEdges::with_capacity(legal_pairs.len(), 4 * legal_pairs.len());
        let mut t: Vec<(usize, i64)> = Vec::with_capacity(b);
        let mut core = Vec::with_capacity(legal_pairs.len());
        for &(a, c) in &legal_pairs {
            if k_small == 0 && cls[a] == x && cls[c] == x {
                continue;
            }
            core.push(near(a, c));
            t.clear();
            if same(a, c) {
                t.push((0, 1));
                t.push((hint, seq[a].min(seq[c]) as i64));
            }
            for (v, o) in [(a, c), (c, a)] {
                let counts = cls[v] != x || k_small > 0;
                if counts && !shifter(v, o) {
                    t.push((tier_of(v), 1));
                }
            }
            edges.push(a, c, &t);
        }
        // Tiers with no value on any edge are harmless; a star whose every edge has the
        // value 1 is settled without a solve.
        mate = lex(solver, b, &edges, hint + 1, Some(mate), &core, stats)?;
        for a in 0..b {
            let o = mate[a];
            if shifter(a, o) {
                g1[a] = !g1[a];
                shifted += 1;
            }
        }
    }
    if let Some(pairs) = natural(&g1) {
        return Ok((pairs, shifted));
    }
    // Step B: S1 against the first legal transposition of G2.
    let mut s1: Vec<usize> = (0..b).filter(|&k| g1[k]).collect();
    s1.sort_by_key(|&k| (p(k).aro, p(k).tpn));
    let g2: Vec<usize> = by_tpn.iter().copied().filter(|&k| !g1[k]).collect();
    let mut pos = vec![0usize; b];
    for (i, &k) in s1.iter().enumerate() {
        pos[k] = i;
    }
    for (i, &k) in g2.iter().enumerate() {
        pos[k] = i;
    }
    let h = s1.len();
    let mut edges = LexEdges::with_capacity(legal_pairs.len(), 2 * legal_pairs.len());
    let mut core = Vec::with_capacity(legal_pairs.len());
    for &(a, c) in &legal_pairs {
        if g1[a] == g1[c] {
            continue;
        }
        let (head, other) = if g1[a] { (a, c) } else { (c, a) };
        core.push(pos[head].abs_diff(pos[other]) <= NEAR);
        let mut t = Vec::with_capacity(2);
        if pos[other] > 0 {
            t.push((pos[head], pos[other] as i64));
        }
        let off = pos[head].abs_diff(pos[other]);
        if off > 0 {
            t.push((h, off as i64));
        }
        edges.push(a, c, &t);
    }
    let mate = lex(solver, b, &edges, h + 1, Some(mate), &core, stats)?;
    let pairs = s1.iter().map(|&k| (bracket[k], bracket[mate[k]])).collect();
    Ok((pairs, shifted))
}
