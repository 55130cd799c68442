//! The search that finds balanced Howell starters (run offline; its results are embedded in
//! `howell.rs` as data and re-verified by tests).
//!
//! A complete Howell for N = 2T pairs has one stationary pair N; the moving pairs and the sets
//! are the elements of Z_n, n = 2T − 1. In round ρ (0-based) the pair written x in round 1
//! becomes x + ρ and the set s becomes s + ρ (so each moving pair follows the next lower one
//! and the boards move back one station). Round 1 (the *starter*) is T tables: the table of
//! pair N (partner `a0`, set `s0`) and T − 1 tables (NS `a`, EW `b`, set `s`). It is a Howell
//! when
//! 1. the moving pairs of round 1 are all of Z_n (each pair seated once);
//! 2. the differences ±(a − b) are all the non-zero elements once (each two pairs meet once);
//! 3. the sets are distinct, and the *values* s − a, s − b, s0 − a0 are all of Z_n (pair x
//!    plays set s from the seat whose value is s − x, so every pair plays every set once).
//!
//! Balance. Let D(v) = +1 when the seat of value v is NS, −1 when EW. Two moving pairs x and
//! x + k are compared with count T + A(k), A(k) = Σ_v D(v)·D(v + k) (the periodic
//! autocorrelation of D); pair N and any pair have count T − 1, the mean. So the Howell is
//! perfectly balanced exactly when A(k) = −1 for every k ≠ 0 (a perfect ±1 sequence, which
//! exists only for n ≡ 3 mod 4, i.e. an even number of tables), and its variance is
//! proportional to Σ_k (A(k) + 1)² otherwise.
//!
//! The search: (1) ±1 sequences D with the least Σ(A+1)² (quadratic residues for prime n,
//! else a deterministic local search), and their shifts, multiples and negation (same
//! quality); (2) for each, a depth-first search matching NS values to EW values with distinct
//! differences; (3) a depth-first tiling choosing the sets. Deterministic, with node budgets.

/// A Howell starter in Z_n (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starter {
    /// Pair N sits NS (else EW).
    pub stationary_ns: bool,
    /// Pair N's partner in round 1 and the set they play.
    pub partner: u32,
    pub partner_set: u32,
    /// The other tables of round 1: [NS pair, EW pair, set].
    pub rows: Vec<[u32; 3]>,
}

/// Σ_{k=1}^{n−1} (A(k) + 1)² of a ±1 sequence (0 = perfect).
pub fn quality(d: &[i32]) -> i64 {
    let n = d.len();
    (1..n)
        .map(|k| {
            let a: i64 = (0..n).map(|v| i64::from(d[v] * d[(v + k) % n])).sum();
            (a + 1) * (a + 1)
        })
        .sum()
}

/// A tiny deterministic generator (xorshift), so searches are reproducible.
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn is_prime(n: usize) -> bool {
    n >= 2
        && (2..n)
            .take_while(|i| i * i <= n)
            .all(|i| !n.is_multiple_of(i))
}

/// Candidate sequences D of length n with sum ±1, best quality first.
fn sequences(n: usize, restarts: usize) -> Vec<Vec<i32>> {
    let mut found: Vec<Vec<i32>> = Vec::new();
    if is_prime(n) && n % 4 == 3 {
        // Quadratic residues: a perfect sequence.
        let mut d = vec![-1; n];
        d[0] = 1;
        for x in 1..n {
            d[x * x % n] = 1;
        }
        found.push(d);
    }
    if let Some(p) = (3..n).find(|&p| p * (p + 2) == n && is_prime(p) && is_prime(p + 2)) {
        // Twin primes (Stanton–Sprott): v is + when v ≡ 0 (mod p + 2), or when v is a
        // non-zero residue mod both and its quadratic characters mod p and p + 2 agree.
        let q = p + 2;
        let chi = |x: usize, m: usize| (1..m).any(|y| y * y % m == x % m);
        let d: Vec<i32> = (0..n)
            .map(|v| {
                let (a, b) = (v % p, v % q);
                let plus = b == 0 || (a != 0 && chi(a, p) == chi(b, q));
                if plus {
                    1
                } else {
                    -1
                }
            })
            .collect();
        found.push(d);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    for _ in 0..restarts {
        let mut d: Vec<i32> = (0..n).map(|i| if i < n / 2 { 1 } else { -1 }).collect();
        for i in (1..n).rev() {
            let j = rng.below(i + 1);
            d.swap(i, j);
        }
        let mut q = quality(&d);
        let mut stale = 0;
        while stale < 4 * n * n && q > 0 {
            let (i, j) = (rng.below(n), rng.below(n));
            if d[i] == d[j] {
                continue;
            }
            d.swap(i, j);
            let q2 = quality(&d);
            if q2 <= q {
                if q2 < q {
                    stale = 0;
                } else {
                    stale += 1;
                }
                q = q2;
            } else {
                d.swap(i, j);
                stale += 1;
            }
        }
        if !found.contains(&d) {
            found.push(d);
        }
    }
    found.sort_by_key(|d| quality(d));
    found
}

/// Equivalent sequences: shifts, multiplier decimations and negation keep the quality.
fn variants(d: &[i32]) -> Vec<Vec<i32>> {
    let n = d.len();
    let mut out: Vec<Vec<i32>> = Vec::new();
    for m in (1..n).filter(|m| gcd(*m, n) == 1) {
        for c in 0..n {
            for sign in [1, -1] {
                let v: Vec<i32> = (0..n).map(|x| sign * d[(m * x + c) % n]).collect();
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Tries to realise D as a starter: pair N sits on the side with fewer seats' values.
fn realise(d: &[i32], budget: &mut u64) -> Option<Starter> {
    let n = d.len();
    let plus: Vec<usize> = (0..n).filter(|&v| d[v] == 1).collect();
    let minus: Vec<usize> = (0..n).filter(|&v| d[v] == -1).collect();
    // The side with T values holds the partner of N (who sits opposite N).
    let (stationary_ns, big, small) = if minus.len() > plus.len() {
        (true, minus, plus) // partner EW: values of EW seats are `big`
    } else {
        (false, plus, minus)
    };
    for &u in &big {
        let others: Vec<usize> = big.iter().copied().filter(|&v| v != u).collect();
        let mut pairs: Vec<(usize, usize)> = Vec::new(); // (small value, big value)
        let mut used_big = vec![false; others.len()];
        let mut used_diff = vec![false; n];
        if let Some(rows) = match_values(
            n,
            &small,
            &others,
            &mut used_big,
            &mut used_diff,
            &mut pairs,
            u,
            budget,
        ) {
            // rows: (small value, big value, a_small, a_big, s)
            let starter_rows = rows
                .1
                .iter()
                .map(|&(sv, bv, ps, pb, s)| {
                    let _ = (sv, bv);
                    if stationary_ns {
                        // small side = NS values, big side = EW values
                        [ps as u32, pb as u32, s as u32]
                    } else {
                        [pb as u32, ps as u32, s as u32]
                    }
                })
                .collect();
            return Some(Starter {
                stationary_ns,
                partner: rows.0 .0 as u32,
                partner_set: rows.0 .1 as u32,
                rows: starter_rows,
            });
        }
        if *budget == 0 {
            return None;
        }
    }
    None
}

type Tiling = ((usize, usize), Vec<(usize, usize, usize, usize, usize)>);

/// Matches each small-side value with a big-side value so that the differences ±(x − y) are
/// distinct, then tiles; returns the partner (pair, set) and the rows.
#[allow(clippy::too_many_arguments)]
fn match_values(
    n: usize,
    small: &[usize],
    big: &[usize],
    used_big: &mut Vec<bool>,
    used_diff: &mut Vec<bool>,
    pairs: &mut Vec<(usize, usize)>,
    u: usize,
    budget: &mut u64,
) -> Option<Tiling> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let i = pairs.len();
    if i == small.len() {
        return tile(n, pairs, u, budget);
    }
    let x = small[i];
    for j in 0..big.len() {
        if used_big[j] {
            continue;
        }
        let y = big[j];
        let dd = (x + n - y) % n;
        if used_diff[dd] || used_diff[n - dd] {
            continue;
        }
        used_big[j] = true;
        used_diff[dd] = true;
        used_diff[n - dd] = true;
        pairs.push((x, y));
        if let Some(t) = match_values(n, small, big, used_big, used_diff, pairs, u, budget) {
            return Some(t);
        }
        pairs.pop();
        used_big[j] = false;
        used_diff[dd] = false;
        used_diff[n - dd] = false;
        if *budget == 0 {
            return None;
        }
    }
    None
}

/// Chooses the sets: pair = set − value, so that the pairs cover Z_n and the sets differ.
fn tile(n: usize, pairs: &[(usize, usize)], u: usize, budget: &mut u64) -> Option<Tiling> {
    struct St<'a> {
        n: usize,
        pairs: &'a [(usize, usize)],
        u: usize,
        covered: Vec<bool>,
        set_used: Vec<bool>,
        block_used: Vec<bool>,
        partner: Option<(usize, usize)>,
        rows: Vec<(usize, usize, usize, usize, usize)>,
    }
    fn go(st: &mut St, budget: &mut u64) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let Some(x) = (0..st.n).find(|&x| !st.covered[x]) else {
            return true;
        };
        let n = st.n;
        if st.partner.is_none() {
            let s = (x + st.u) % n;
            if !st.set_used[s] {
                st.set_used[s] = true;
                st.covered[x] = true;
                st.partner = Some((x, s));
                if go(st, budget) {
                    return true;
                }
                st.partner = None;
                st.covered[x] = false;
                st.set_used[s] = false;
            }
        }
        for i in 0..st.pairs.len() {
            if st.block_used[i] {
                continue;
            }
            let (sv, bv) = st.pairs[i];
            for x_is_small in [true, false] {
                let s = if x_is_small {
                    (x + sv) % n
                } else {
                    (x + bv) % n
                };
                let other = if x_is_small {
                    (s + n - bv) % n
                } else {
                    (s + n - sv) % n
                };
                if st.set_used[s] || st.covered[other] {
                    continue;
                }
                let (ps, pb) = if x_is_small { (x, other) } else { (other, x) };
                st.set_used[s] = true;
                st.covered[x] = true;
                st.covered[other] = true;
                st.block_used[i] = true;
                st.rows.push((sv, bv, ps, pb, s));
                if go(st, budget) {
                    return true;
                }
                st.rows.pop();
                st.block_used[i] = false;
                st.covered[other] = false;
                st.covered[x] = false;
                st.set_used[s] = false;
            }
        }
        false
    }
    let mut st = St {
        n,
        pairs,
        u,
        covered: vec![false; n],
        set_used: vec![false; n],
        block_used: vec![false; pairs.len()],
        partner: None,
        rows: Vec::new(),
    };
    let mut local = (*budget).min(20_000);
    let before = local;
    let ok = go(&mut st, &mut local);
    *budget -= before - local;
    if ok {
        Some((st.partner?, st.rows))
    } else {
        None
    }
}

/// Searches a starter for a complete Howell of `tables` tables (4 ≤ tables): among the
/// sequences of best quality, up to `candidates` realisations are compared by full-movement
/// balance, then by the balance with an absent pair (half table; the better of the
/// stationary pair or the highest moving pair absent). Returns the starter and its quality.
pub fn search(
    tables: u32,
    restarts: usize,
    budget_per_sequence: u64,
    candidates: usize,
) -> Option<(Starter, i64)> {
    let n = (2 * tables - 1) as usize;
    if n < 3 {
        return None;
    }
    let seqs = sequences(n, restarts);
    let mut best: Option<(Starter, i64, (f64, f64))> = None;
    let mut tried = 0;
    for d in &seqs {
        let q = quality(d);
        if best.as_ref().is_some_and(|b| b.1 < q) {
            break; // only the best quality that can be realised
        }
        for v in variants(d) {
            let mut budget = budget_per_sequence;
            let Some(s) = realise(&v, &mut budget) else {
                continue;
            };
            let lay = expand(tables, &s);
            let pairs = 2 * tables as usize;
            let full = layout_percent(&lay, pairs, None);
            let half = layout_percent(&lay, pairs, Some(2 * tables)).max(layout_percent(
                &lay,
                pairs,
                Some(2 * tables - 1),
            ));
            let better = best.as_ref().is_none_or(|b| {
                full > b.2 .0 + 1e-9 || (full > b.2 .0 - 1e-9 && half > b.2 .1 + 1e-9)
            });
            if better {
                best = Some((s, q, (full, half)));
            }
            tried += 1;
            if tried >= candidates {
                return best.map(|b| (b.0, b.1));
            }
        }
    }
    best.map(|b| (b.0, b.1))
}

/// One round of an explicit layout: per table [NS pair, EW pair, set], pairs 1..=2T and sets
/// 1..=2T−1.
pub type Layout = Vec<Vec<[u32; 3]>>;

/// Balance percent of an explicit layout with one board per set (more boards per set scale
/// every count alike and leave the percent unchanged).
/// With `absent = Some(p)`, pair p does not play (its tables are skipped) and is left out.
pub fn layout_percent(layout: &Layout, pairs: usize, absent: Option<u32>) -> f64 {
    let mut by_set: std::collections::BTreeMap<u32, Vec<(usize, usize)>> = Default::default();
    for round in layout {
        for c in round
            .iter()
            .filter(|c| absent != Some(c[0]) && absent != Some(c[1]))
        {
            by_set
                .entry(c[2])
                .or_default()
                .push((c[0] as usize - 1, c[1] as usize - 1));
        }
    }
    let mut cnt = vec![0i64; pairs * pairs];
    for plays in by_set.values() {
        let t = plays.len() as i64;
        for (i, &(a, b)) in plays.iter().enumerate() {
            cnt[a * pairs + b] += t - 1;
            cnt[b * pairs + a] += t - 1;
            for &(c, d) in &plays[i + 1..] {
                for (x, y, v) in [(a, c, 1), (b, d, 1), (a, d, -1), (b, c, -1)] {
                    cnt[x * pairs + y] += v;
                    cnt[y * pairs + x] += v;
                }
            }
        }
    }
    let (mut s, mut s2, mut k) = (0f64, 0f64, 0f64);
    let skip = absent.map_or(usize::MAX, |p| p as usize - 1);
    for x in (0..pairs).filter(|&x| x != skip) {
        for y in (x + 1..pairs).filter(|&y| y != skip) {
            let c = cnt[x * pairs + y] as f64;
            s += c;
            s2 += c * c;
            k += 1.0;
        }
    }
    if k == 0.0 {
        return 0.0;
    }
    let mean = s / k;
    let var = (s2 / k - mean * mean).max(0.0);
    if mean == 0.0 {
        return 0.0;
    }
    100.0 * mean * mean / (mean * mean + var)
}

/// Expands a cyclic starter into its 2T − 1 rounds: tables in station order (by their
/// round-1 set), pair 2T's table last; sets renumbered so that table 1 starts with set 1.
pub fn expand(tables: u32, st: &Starter) -> Layout {
    let n = 2 * tables - 1;
    let mut rows: Vec<[u32; 3]> = st.rows.clone();
    rows.sort_by_key(|r| r[2]);
    let shift = rows.first().map_or(st.partner_set, |r| r[2]);
    let set_no = |s: u32, rho: u32| (s + n - shift + rho) % n + 1;
    let pair_no = |p: u32, rho: u32| (p + rho) % n + 1;
    (0..n)
        .map(|rho| {
            let mut round: Vec<[u32; 3]> = rows
                .iter()
                .map(|r| [pair_no(r[0], rho), pair_no(r[1], rho), set_no(r[2], rho)])
                .collect();
            let partner = pair_no(st.partner, rho);
            let (ns, ew) = if st.stationary_ns {
                (2 * tables, partner)
            } else {
                (partner, 2 * tables)
            };
            round.push([ns, ew, set_no(st.partner_set, rho)]);
            round
        })
        .collect()
}

/// Search for the sizes the cyclic construction cannot serve. With sets rotating with the
/// pairs, the values s − pair summed over all seats give 2·Σs + s0 ≡ 0 (mod n), impossible
/// for n = 3 with distinct sets, and no cyclic 3-table starter exists either (the search
/// above finds none): the seed notes the 3-table Howell's board movement is irregular.
/// Here the pairs still rotate (pair 2T stationary at table T, the patterned starter
/// {i, n − i} at table i), but the sets are chosen per round (each pair plays each set once,
/// no set at two tables in a round) and the directions per table by hill climbing, keeping
/// the most balanced layout among the first `cap` set assignments. When no assignment
/// without shared sets exists, the fewest tables possible share a set within a round.
pub fn search_small(tables: u32, cap: usize) -> Option<(Layout, f64)> {
    let t = tables as usize;
    let n = 2 * t - 1;
    let big = 2 * t;
    // cells[r][i] = (pair a, pair b) as pair numbers 1..=2T
    let cells: Vec<Vec<(u32, u32)>> = (0..n)
        .map(|r| {
            let mut row: Vec<(u32, u32)> = (1..t)
                .map(|i| (((i + r) % n + 1) as u32, ((n - i + r) % n + 1) as u32))
                .collect();
            row.push((big as u32, (r % n + 1) as u32));
            row
        })
        .collect();
    // enumerate set assignments
    let mut sols: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut cur: Vec<Vec<usize>> = vec![vec![usize::MAX; t]; n];
    let mut pair_sets = vec![vec![false; n]; big + 1];
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        cell: usize,
        t: usize,
        n: usize,
        cells: &[Vec<(u32, u32)>],
        cur: &mut Vec<Vec<usize>>,
        pair_sets: &mut Vec<Vec<bool>>,
        sols: &mut Vec<Vec<Vec<usize>>>,
        cap: usize,
        shares: usize,
        per_round: usize,
    ) {
        if sols.len() >= cap {
            return;
        }
        if cell == n * t {
            sols.push(cur.clone());
            return;
        }
        let (r, i) = (cell / t, cell % t);
        let (a, b) = cells[r][i];
        let choices: Vec<usize> = if r == 0 && shares == 0 {
            vec![i]
        } else {
            (0..n).collect()
        };
        for s in choices {
            let already = cur[r][..i].iter().filter(|x| **x == s).count();
            let shared = already > 0;
            if (shared && shares == 0)
                || already >= per_round
                || pair_sets[a as usize][s]
                || pair_sets[b as usize][s]
            {
                continue;
            }
            let left = shares - usize::from(shared);
            cur[r][i] = s;
            pair_sets[a as usize][s] = true;
            pair_sets[b as usize][s] = true;
            dfs(
                cell + 1,
                t,
                n,
                cells,
                cur,
                pair_sets,
                sols,
                cap,
                left,
                per_round,
            );
            pair_sets[a as usize][s] = false;
            pair_sets[b as usize][s] = false;
            cur[r][i] = usize::MAX;
        }
    }
    // The fewest shared sets first (2 tables: 3 sets cannot reach all 4 pairs otherwise).
    // A set at two tables at most, if possible.
    'outer: for per_round in 2..=t {
        for shares in 0..=n * t {
            dfs(
                0,
                t,
                n,
                &cells,
                &mut cur,
                &mut pair_sets,
                &mut sols,
                cap,
                shares,
                per_round,
            );
            if !sols.is_empty() {
                break 'outer;
            }
        }
    }
    let build = |sets: &Vec<Vec<usize>>, flip: &[bool]| -> Layout {
        (0..n)
            .map(|r| {
                (0..t)
                    .map(|i| {
                        let (a, b) = cells[r][i];
                        let (ns, ew) = if flip[r * t + i] { (b, a) } else { (a, b) };
                        [ns, ew, sets[r][i] as u32 + 1]
                    })
                    .collect()
            })
            .collect()
    };
    let mut best: Option<(Layout, f64)> = None;
    let mut rng = Rng(0xDEAD_BEEF_1234_5678 ^ tables as u64);
    for sets in &sols {
        for restart in 0..8 {
            let mut flip: Vec<bool> = (0..n * t)
                .map(|_| restart > 0 && rng.next() % 2 == 1)
                .collect();
            let mut cur_p = layout_percent(&build(sets, &flip), big, None);
            loop {
                let mut improved = false;
                for c in 0..n * t {
                    flip[c] = !flip[c];
                    let p = layout_percent(&build(sets, &flip), big, None);
                    if p > cur_p + 1e-9 {
                        cur_p = p;
                        improved = true;
                    } else {
                        flip[c] = !flip[c];
                    }
                }
                if !improved {
                    break;
                }
            }
            if best.as_ref().is_none_or(|b| cur_p > b.1 + 1e-9) {
                best = Some((build(sets, &flip), cur_p));
            }
        }
    }
    best
}

/// Stationary partners and moving-pair tables of a 3/4 Howell round 1.
pub type Partition = (Vec<usize>, Vec<(usize, usize)>);

/// Search for a 3/4 Howell (shortened Howell): `tables` tables, `rounds` rounds and sets,
/// S = 2·tables − rounds stationary pairs (numbered rounds+1 ..= 2·tables, at the highest
/// tables) and `rounds` moving pairs rotating over Z_rounds with the sets, as in a Howell.
/// Round 1 needs: the moving pairs cover Z_rounds; the differences ±(a − b) of the
/// moving-pair tables are distinct (and not rounds/2, which would meet twice); the sets are
/// distinct; the values set − pair over the moving seats cover Z_rounds (every pair plays
/// every set once). Among the first `cap` such starters found depth-first (node budget
/// `budget`), the directions are chosen by hill climbing and the most balanced layout kept.
pub fn search_three_quarter(
    tables: u32,
    rounds: u32,
    cap: usize,
    budget: u64,
) -> Option<(ThreeQuarterStarter, f64)> {
    let (t, r) = (tables as usize, rounds as usize);
    if r < t || r + 1 > 2 * t || r < 2 {
        return None;
    }
    let s_count = 2 * t - r; // stationary pairs
    let mut budget = budget;
    // Step A: partitions of Z_r into s_count singles and t - s_count pairs.
    let parts = partitions(r, s_count, cap, &mut budget);
    // Step B: sets for each partition.
    let mut starters: Vec<Vec<(Option<usize>, usize, usize)>> = Vec::new(); // (b, a, set)
    for (singles, pairs) in &parts {
        let tabs: Vec<(Option<usize>, usize)> = pairs
            .iter()
            .map(|&(a, b)| (Some(b), a))
            .chain(singles.iter().map(|&a| (None, a)))
            .collect();
        let mut sets = vec![usize::MAX; tabs.len()];
        let mut set_used = vec![false; r];
        let mut val_used = vec![false; r];
        #[allow(clippy::too_many_arguments)]
        fn assign(
            i: usize,
            r: usize,
            tabs: &[(Option<usize>, usize)],
            sets: &mut Vec<usize>,
            set_used: &mut Vec<bool>,
            val_used: &mut Vec<bool>,
            budget: &mut u64,
        ) -> bool {
            if i == tabs.len() {
                return true;
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let (b, a) = tabs[i];
            for s in 0..r {
                let va = (s + r - a) % r;
                let vb = b.map(|b| (s + r - b) % r);
                if set_used[s] || val_used[va] || vb.is_some_and(|v| val_used[v]) {
                    continue;
                }
                set_used[s] = true;
                val_used[va] = true;
                if let Some(v) = vb {
                    val_used[v] = true;
                }
                sets[i] = s;
                if assign(i + 1, r, tabs, sets, set_used, val_used, budget) {
                    return true;
                }
                set_used[s] = false;
                val_used[va] = false;
                if let Some(v) = vb {
                    val_used[v] = false;
                }
            }
            false
        }
        let mut local = budget.min(50_000);
        let before = local;
        let ok = assign(
            0,
            r,
            &tabs,
            &mut sets,
            &mut set_used,
            &mut val_used,
            &mut local,
        );
        budget -= before - local;
        if ok {
            starters.push(
                tabs.iter()
                    .zip(&sets)
                    .map(|(&(b, a), &s)| (b, a, s))
                    .collect(),
            );
        }
        if budget == 0 {
            break;
        }
    }
    // Step C: directions by hill climbing (bit per round-1 table; rotation keeps them).
    let big = 2 * t;
    let make = |st: &[(Option<usize>, usize, usize)], flip: &[bool]| ThreeQuarterStarter {
        moving: st
            .iter()
            .zip(flip)
            .filter_map(|(&(b, a, s), &f)| b.map(|b| [a as u32, b as u32, s as u32, u32::from(f)]))
            .collect(),
        stationary: st
            .iter()
            .zip(flip)
            .filter(|(x, _)| x.0.is_none())
            .map(|(&(_, a, s), &f)| [a as u32, s as u32, u32::from(f), 0])
            .collect(),
    };
    let build = |st: &[(Option<usize>, usize, usize)], flip: &[bool]| -> Layout {
        expand_three_quarter(tables, rounds, &make(st, flip))
    };
    let mut best: Option<(ThreeQuarterStarter, f64)> = None;
    let mut rng = Rng(0xC0FF_EE00_D15E_A5E5 ^ ((tables as u64) << 8) ^ rounds as u64);
    for st in &starters {
        for restart in 0..6 {
            let mut flip: Vec<bool> = (0..t).map(|_| restart > 0 && rng.next() % 2 == 1).collect();
            let mut cur = layout_percent(&build(st, &flip), big, None);
            loop {
                let mut improved = false;
                for c in 0..t {
                    flip[c] = !flip[c];
                    let p = layout_percent(&build(st, &flip), big, None);
                    if p > cur + 1e-9 {
                        cur = p;
                        improved = true;
                    } else {
                        flip[c] = !flip[c];
                    }
                }
                if !improved {
                    break;
                }
            }
            if best.as_ref().is_none_or(|b| cur > b.1 + 1e-9) {
                best = Some((make(st, &flip), cur));
            }
        }
    }
    // Step D (seed 002: "some stationary pairs may switch for some rounds to improve
    // balance"): hill climbing over the rounds in which each stationary pair sits the other
    // way.
    let (mut st, mut cur) = best?;
    loop {
        let mut improved = false;
        for k in 0..st.stationary.len() {
            for rho in 0..rounds.min(32) {
                st.stationary[k][3] ^= 1 << rho;
                let p = layout_percent(&expand_three_quarter(tables, rounds, &st), big, None);
                if p > cur + 1e-9 {
                    cur = p;
                    improved = true;
                } else {
                    st.stationary[k][3] ^= 1 << rho;
                }
            }
        }
        if !improved {
            break;
        }
    }
    Some((st, cur))
}

/// Round 1 of a 3/4 Howell's moving pairs (step A of [`search_three_quarter`]): the first
/// `cap` partitions of Z_r into `s_count` singles (the stationary pairs' partners) and
/// tables of two moving pairs whose differences ±(a − b) are distinct and not r/2 (so no
/// two pairs meet twice as they rotate), depth-first within `budget` nodes.
pub fn partitions(r: usize, s_count: usize, cap: usize, budget: &mut u64) -> Vec<Partition> {
    struct A<'a> {
        r: usize,
        singles_left: usize,
        covered: Vec<bool>,
        diff: Vec<bool>,
        singles: Vec<usize>,
        pairs: Vec<(usize, usize)>,
        out: &'a mut Vec<Partition>,
        cap: usize,
    }
    fn part(a: &mut A, budget: &mut u64) {
        if *budget == 0 || a.out.len() >= a.cap {
            return;
        }
        *budget -= 1;
        let Some(x) = (0..a.r).find(|&x| !a.covered[x]) else {
            if a.singles_left == 0 {
                a.out.push((a.singles.clone(), a.pairs.clone()));
            }
            return;
        };
        a.covered[x] = true;
        if a.singles_left > 0 {
            a.singles_left -= 1;
            a.singles.push(x);
            part(a, budget);
            a.singles.pop();
            a.singles_left += 1;
        }
        for y in x + 1..a.r {
            let d = y - x;
            if a.covered[y] || a.diff[d] || a.diff[a.r - d] || 2 * d == a.r {
                continue;
            }
            a.covered[y] = true;
            a.diff[d] = true;
            a.diff[a.r - d] = true;
            a.pairs.push((x, y));
            part(a, budget);
            a.pairs.pop();
            a.diff[d] = false;
            a.diff[a.r - d] = false;
            a.covered[y] = false;
        }
        a.covered[x] = false;
    }
    let mut parts = Vec::new();
    part(
        &mut A {
            r,
            singles_left: s_count,
            covered: vec![false; r],
            diff: vec![false; r],
            singles: vec![],
            pairs: vec![],
            out: &mut parts,
            cap: cap.max(1),
        },
        budget,
    );
    parts
}

/// Round 1 of a 3/4 Howell in Z_rounds: tables of two moving pairs [a, b, set, flip] then
/// tables of a stationary pair [partner, set, flip, switched] (flip 1: the first-named pair
/// sits EW; the stationary pair is first-named; bit ρ of `switched` set: the stationary pair
/// takes the other direction in round ρ + 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreeQuarterStarter {
    pub moving: Vec<[u32; 4]>,
    pub stationary: Vec<[u32; 4]>,
}

/// Expands a 3/4 Howell starter: moving pair x (element x − 1) and set s advance by one
/// each round; stationary pairs rounds+1.. sit at the highest tables.
pub fn expand_three_quarter(tables: u32, rounds: u32, st: &ThreeQuarterStarter) -> Layout {
    let _ = tables;
    let r = rounds;
    (0..r)
        .map(|rho| {
            let mv = |x: u32| (x + rho) % r + 1;
            let mut row: Vec<[u32; 3]> = st
                .moving
                .iter()
                .map(|&[a, b, s, f]| {
                    let (x, y) = (mv(a), mv(b));
                    if f == 1 {
                        [y, x, mv(s)]
                    } else {
                        [x, y, mv(s)]
                    }
                })
                .collect();
            for (k, &[a, s, f, switched]) in st.stationary.iter().enumerate() {
                let z = r + 1 + k as u32;
                // `switched` has a bit for each of the first 32 rounds
                let f = f ^ (switched.checked_shr(rho).unwrap_or(0) & 1);
                row.push(if f == 1 {
                    [mv(a), z, mv(s)]
                } else {
                    [z, mv(a), mv(s)]
                });
            }
            row
        })
        .collect()
}
