//! Howell-type layouts whose boards do not rotate with the pairs, for the sizes the
//! cyclic starters of `search` cannot serve or serve less balanced. Run offline
//! (`examples/search-movements`); the layouts found are embedded in `howell/data.rs` and
//! re-verified by tests.
//!
//! Why the cyclic 3/4 Howell fails on T tables and T + 1 rounds (10/11, 12/13, ...): with
//! sets rotating with the pairs, pair x plays set s from a seat of *value* s − x, and the
//! values of the T + 1 seats must be all of Z_(T+1); their sum is Σ(sets in play) + (the set
//! of the one table of two moving pairs), while Σ Z_(T+1) ≡ Σ(all sets), so that table's set
//! would have to be the set on the relay stand. Here the moving pairs still rotate (each
//! follows the next lower one; the stationary pairs stay at their tables), but each table's
//! set in each round is chosen by a depth-first search ([`three_quarter_free_sets`]): every
//! round plays T different sets, every pair plays every set once.
//!
//! Directions are then chosen table by table and round by round ([`improve_directions`]):
//! hill climbing on the balance, with random restarts from the best layout ("kicks"). A
//! stationary pair that changes direction stays at its table (seed 002 allows it to improve
//! the balance).

use super::search::{layout_percent, partitions, Layout, Rng};

/// Hill climbing over which pair sits NS at every table of every round of `layout`
/// (`pairs` pairs), then `kicks` times: a few random tables turned, climbed again, the best
/// kept. Deterministic for a `seed`. Returns the balance percent of the layout left in place.
pub fn improve_directions(layout: &mut Layout, pairs: usize, kicks: usize, seed: u64) -> f64 {
    let groups: Vec<Vec<(usize, usize)>> = layout
        .iter()
        .enumerate()
        .flat_map(|(r, row)| (0..row.len()).map(move |i| vec![(r, i)]))
        .collect();
    improve_directions_grouped(layout, pairs, None, &groups, kicks, seed)
}

/// [`improve_directions`] where the tables of a group always turn together (the two halves
/// of a round of a half-set layout), and the balance leaves out the `absent` pair.
pub fn improve_directions_grouped(
    layout: &mut Layout,
    pairs: usize,
    absent: Option<u32>,
    groups: &[Vec<(usize, usize)>],
    kicks: usize,
    seed: u64,
) -> f64 {
    if groups.is_empty() {
        return layout_percent(layout, pairs, absent);
    }
    let turn = |l: &mut Layout, g: &[(usize, usize)]| {
        for &(r, i) in g {
            l[r][i].swap(0, 1);
        }
    };
    let climb = |l: &mut Layout| -> f64 {
        let mut cur = layout_percent(l, pairs, absent);
        loop {
            let mut improved = false;
            for g in groups {
                turn(l, g);
                let p = layout_percent(l, pairs, absent);
                if p > cur + 1e-9 {
                    cur = p;
                    improved = true;
                } else {
                    turn(l, g);
                }
            }
            if !improved {
                return cur;
            }
        }
    };
    let mut best_p = climb(layout);
    let mut rng = Rng(seed | 1);
    for _ in 0..kicks {
        if best_p > 100.0 - 1e-9 {
            break;
        }
        let mut l = layout.clone();
        for _ in 0..3 + rng.below(4) {
            turn(&mut l, &groups[rng.below(groups.len())]);
        }
        let p = climb(&mut l);
        if p > best_p + 1e-9 {
            *layout = l;
            best_p = p;
        }
    }
    best_p
}

/// A 3/4 Howell on `tables` tables and `rounds` rounds (and sets): moving pairs 1..=rounds
/// rotating over Z_rounds as in `search::search_three_quarter` (round 1 from the first
/// `partitions_tried` partitions), the stationary pairs rounds+1..=2·tables at the highest
/// tables, and the sets searched per table and round (module docs): `restarts` random
/// depth-first fillings of at most `nodes` nodes each per partition, the directions of each
/// improved with `kicks` kicks. Returns the most balanced layout found and its balance.
pub fn three_quarter_free_sets(
    tables: u32,
    rounds: u32,
    partitions_tried: usize,
    restarts: usize,
    nodes: u64,
    kicks: usize,
) -> Option<(Layout, f64)> {
    let (t, r) = (tables as usize, rounds as usize);
    if r < t || r + 1 > 2 * t || !(2..=63).contains(&r) {
        return None;
    }
    let s_count = 2 * t - r;
    let mut budget = 1_000_000;
    let parts = partitions(r, s_count, partitions_tried, &mut budget);
    let mut rng = Rng(0x005E_ED0F_5E75 ^ ((tables as u64) << 16) ^ rounds as u64);
    let mut best: Option<(Layout, f64)> = None;
    for (singles, pairs) in &parts {
        // Round-1 tables: (first element, second element or a stationary pair).
        let tabs: Vec<(usize, Option<usize>)> = pairs
            .iter()
            .map(|&(a, b)| (a, Some(b)))
            .chain(singles.iter().map(|&a| (a, None)))
            .collect();
        for _ in 0..restarts {
            let Some(sets) = fill_sets(r, &tabs, nodes, &mut rng) else {
                continue;
            };
            let moving_tables = t - s_count;
            let mut lay: Layout = (0..r)
                .map(|rho| {
                    tabs.iter()
                        .enumerate()
                        .map(|(i, &(a, b))| {
                            let mv = |x: usize| ((x + rho) % r + 1) as u32;
                            let set = sets[rho][i] as u32 + 1;
                            match b {
                                Some(b) => [mv(a), mv(b), set],
                                None => [(r + 1 + i - moving_tables) as u32, mv(a), set],
                            }
                        })
                        .collect()
                })
                .collect();
            let p = improve_directions(&mut lay, 2 * t, kicks, rng.next());
            if best.as_ref().is_none_or(|b| p > b.1 + 1e-9) {
                best = Some((lay, p));
            }
        }
    }
    best
}

/// Sets for every table of every round (0-based): distinct within a round, never twice for
/// one pair; the table with the fewest sets left filled first, candidates in random order,
/// at most `nodes` nodes.
fn fill_sets(
    r: usize,
    tabs: &[(usize, Option<usize>)],
    nodes: u64,
    rng: &mut Rng,
) -> Option<Vec<Vec<usize>>> {
    let t = tabs.len();
    let moving_tables = tabs.iter().filter(|x| x.1.is_some()).count();
    struct Fill<'a> {
        r: usize,
        t: usize,
        moving_tables: usize,
        tabs: &'a [(usize, Option<usize>)],
        played: Vec<u64>,
        in_round: Vec<u64>,
        sets: Vec<Vec<usize>>,
        nodes: u64,
        order: Vec<Vec<usize>>,
    }
    impl Fill<'_> {
        fn pairs(&self, rho: usize, i: usize) -> (usize, usize) {
            let (a, b) = self.tabs[i];
            let mv = |x: usize| (x + rho) % self.r;
            match b {
                Some(b) => (mv(a), mv(b)),
                None => (mv(a), self.r + i - self.moving_tables),
            }
        }
        fn free(&self, cell: usize) -> u64 {
            let (rho, i) = (cell / self.t, cell % self.t);
            let (x, y) = self.pairs(rho, i);
            !(self.in_round[rho] | self.played[x] | self.played[y]) & ((1u64 << self.r) - 1)
        }
        /// Fills the open table with the fewest sets left first (none left: back up).
        fn go(&mut self, open: &mut Vec<usize>) -> bool {
            if open.is_empty() {
                return true;
            }
            if self.nodes == 0 {
                return false;
            }
            self.nodes -= 1;
            let Some((at, _)) = open
                .iter()
                .enumerate()
                .min_by_key(|(_, &c)| self.free(c).count_ones())
            else {
                return true;
            };
            let cell = open.swap_remove(at);
            let (rho, i) = (cell / self.t, cell % self.t);
            let (x, y) = self.pairs(rho, i);
            let free = self.free(cell);
            for k in 0..self.r {
                let s = self.order[cell][k];
                let bit = 1u64 << s;
                if free & bit == 0 {
                    continue;
                }
                self.in_round[rho] |= bit;
                self.played[x] |= bit;
                self.played[y] |= bit;
                self.sets[rho][i] = s;
                if self.go(open) {
                    return true;
                }
                self.in_round[rho] &= !bit;
                self.played[x] &= !bit;
                self.played[y] &= !bit;
                if self.nodes == 0 {
                    break;
                }
            }
            open.push(cell);
            let last = open.len() - 1;
            open.swap(at, last);
            false
        }
    }
    let order = (0..r * t)
        .map(|_| {
            let mut v: Vec<usize> = (0..r).collect();
            for i in (1..r).rev() {
                v.swap(i, rng.below(i + 1));
            }
            v
        })
        .collect();
    let mut f = Fill {
        r,
        t,
        moving_tables,
        tabs,
        played: vec![0; 2 * t],
        in_round: vec![0; r],
        sets: vec![vec![0; t]; r],
        nodes,
        order,
    };
    let mut open: Vec<usize> = (0..r * t).collect();
    f.go(&mut open).then_some(f.sets)
}

/// A 3/4 Howell with no rotation at all, for the sizes where pairs rotating in a cycle cannot
/// play every set once (T tables and T + 1 rounds, the sum argument of the module docs; 4
/// tables and 6 rounds): a *Howell design* H(rounds, 2·tables), i.e. per round a seating of
/// all pairs at the tables, each table playing a different set, such that every pair plays
/// every set once and no two pairs meet twice. Found by simulated annealing on the number of
/// (pair, set) plays and meetings beyond one: a move re-pairs two tables of one round or
/// gives a table another set; `restarts` runs of `steps` moves. Each design found has its
/// directions improved (`kicks`); the most balanced is returned. H(5, 8) does not exist, so
/// 4 tables and 5 rounds never succeeds.
pub fn three_quarter_design(
    tables: u32,
    rounds: u32,
    restarts: usize,
    steps: u64,
    kicks: usize,
) -> Option<(Layout, f64)> {
    let (t, r) = (tables as usize, rounds as usize);
    if r < t || r > 2 * t - 1 || t < 2 {
        return None;
    }
    let n = 2 * t;
    let mut rng = Rng(0xD5E5_1687 ^ ((tables as u64) << 20) ^ rounds as u64);
    let mut best: Option<(Layout, f64)> = None;
    for _ in 0..restarts {
        let Some(rows) = anneal(t, r, steps, &mut rng) else {
            continue;
        };
        let mut lay: Layout = rows
            .iter()
            .map(|row| {
                let mut v: Vec<[u32; 3]> = row
                    .iter()
                    .map(|&(a, b, s)| [a as u32 + 1, b as u32 + 1, s as u32 + 1])
                    .collect();
                v.sort_unstable_by_key(|c| c[2]);
                v
            })
            .collect();
        let p = improve_directions(&mut lay, n, kicks, rng.next());
        if best.as_ref().is_none_or(|b| p > b.1 + 1e-9) {
            best = Some((lay, p));
        }
    }
    best
}

/// One annealing run: rows of (pair, pair, set), 0-based, or None when `steps` run out.
fn anneal(
    t: usize,
    r: usize,
    steps: u64,
    rng: &mut Rng,
) -> Option<Vec<Vec<(usize, usize, usize)>>> {
    let n = 2 * t;
    let mut rows: Vec<Vec<(usize, usize, usize)>> = (0..r)
        .map(|_| {
            let mut p: Vec<usize> = (0..n).collect();
            let mut s: Vec<usize> = (0..r).collect();
            for i in (1..n).rev() {
                p.swap(i, rng.below(i + 1));
            }
            for i in (1..r).rev() {
                s.swap(i, rng.below(i + 1));
            }
            (0..t).map(|i| (p[2 * i], p[2 * i + 1], s[i])).collect()
        })
        .collect();
    // plays[set * n + pair], meets[a * n + b] (both orders)
    let mut plays = vec![0i32; r * n];
    let mut meets = vec![0i32; n * n];
    // cost change of adding (d = 1) or removing (d = -1) a table
    let touch = |plays: &mut Vec<i32>,
                 meets: &mut Vec<i32>,
                 (a, b, s): (usize, usize, usize),
                 d: i32|
     -> i32 {
        let mut c = 0;
        for x in [a, b] {
            let v = &mut plays[s * n + x];
            c += if d > 0 {
                i32::from(*v >= 1)
            } else {
                -i32::from(*v >= 2)
            };
            *v += d;
        }
        let v = meets[a * n + b];
        c += if d > 0 {
            i32::from(v >= 1)
        } else {
            -i32::from(v >= 2)
        };
        meets[a * n + b] += d;
        meets[b * n + a] += d;
        c
    };
    let mut cost = 0;
    for row in &rows {
        for &e in row {
            cost += touch(&mut plays, &mut meets, e, 1);
        }
    }
    let mut temp = 0.6f64;
    let cool = (0.02f64 / 0.6).powf(1.0 / steps.max(1) as f64);
    for _ in 0..steps {
        if cost == 0 {
            return Some(rows);
        }
        temp *= cool;
        let rho = rng.below(r);
        let i = rng.below(t);
        let old: Vec<(usize, (usize, usize, usize))>;
        let new: Vec<(usize, (usize, usize, usize))>;
        if rng.below(2) == 0 {
            let j = rng.below(t);
            if i == j {
                continue;
            }
            let ((a, b, si), (c, d, sj)) = (rows[rho][i], rows[rho][j]);
            old = vec![(i, rows[rho][i]), (j, rows[rho][j])];
            new = if rng.below(2) == 0 {
                vec![(i, (a, c, si)), (j, (b, d, sj))]
            } else {
                vec![(i, (a, d, si)), (j, (c, b, sj))]
            };
        } else {
            let s = rng.below(r);
            let (a, b, si) = rows[rho][i];
            if s == si {
                continue;
            }
            match rows[rho].iter().position(|e| e.2 == s) {
                Some(j) => {
                    let (c, d, _) = rows[rho][j];
                    old = vec![(i, rows[rho][i]), (j, rows[rho][j])];
                    new = vec![(i, (a, b, s)), (j, (c, d, si))];
                }
                None => {
                    old = vec![(i, rows[rho][i])];
                    new = vec![(i, (a, b, s))];
                }
            }
        }
        let mut delta = 0;
        for &(_, e) in &old {
            delta += touch(&mut plays, &mut meets, e, -1);
        }
        for &(_, e) in &new {
            delta += touch(&mut plays, &mut meets, e, 1);
        }
        let accept = delta <= 0
            || (rng.below(1 << 20) as f64) < (1u64 << 20) as f64 * (-(delta as f64) / temp).exp();
        if accept {
            cost += delta;
            for &(k, e) in &new {
                rows[rho][k] = e;
            }
        } else {
            for &(_, e) in &new {
                touch(&mut plays, &mut meets, e, -1);
            }
            for &(_, e) in &old {
                touch(&mut plays, &mut meets, e, 1);
            }
        }
    }
    (cost == 0).then_some(rows)
}
