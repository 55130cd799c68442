//! Look-ahead for short events (rounds close to the number of players).
//!
//! After the best pairing of this round is found, we check that the remaining rounds can
//! still be paired without a rematch (and without a second bye): the pairs still allowed
//! must contain one perfect matching per remaining round, no pair used twice. The remaining
//! rounds have every player still in the section: this round's and those who sit it out
//! (a requested bye, an absence) and come back ([`future_graph`]; planning without them
//! chose round 5 of a simulated 8-player event so that rounds 6 and 7 had no rematch-free
//! pairing once they returned, and 95 of 400 such events had a rematch, now 79). A small
//! depth-first search answers this (with a node budget; when the budget runs out the check
//! is skipped and a note says so). If the check fails, the round is re-paired with the
//! layered model of [`crate::engine::matching::LpSolver::solve_layered_sitting_out`]: layer
//! 0 is this round with its penalties (those who sit it out take no part), layers 1.. are
//! the remaining rounds, no pair used twice (the bye vertex is one vertex in every layer, so
//! no second bye either).
//!
//! # Depth
//! The work grows with the number of layers, so it is bounded by the section, never by the
//! planned rounds: a player meets at most `v − 1` different opponents (v vertices, the bye
//! vertex counted), so when more rounds remain than that, no pairing of this round can keep
//! the event free of rematches and the look-ahead is skipped with a note. Otherwise it builds
//! one layer per remaining round, at most `max_depth(v)` = v − 1 ≤ 23 (the look-ahead runs
//! only for sections of at most `LOOK_AHEAD_VERTICES` = 24 vertices). Seeing every remaining
//! round is what "completable" means (a model of fewer rounds would only prove those rounds
//! pairable), and it is already the whole rest of the event whenever the check can succeed.
//! A section planned for 10⁶ rounds builds no layer at all, and the planned rounds are
//! bounded by [`crate::limits::MAX_ROUNDS`] at entry anyway.

/// The most remaining rounds a section of `vertices` vertices can play without a rematch:
/// the look-ahead's deepest model.
pub(crate) fn max_depth(vertices: usize) -> usize {
    vertices.saturating_sub(1)
}

/// Allowed-pair graph on `n` vertices (vertex n−1 may be the bye).
#[derive(Clone)]
pub(crate) struct Graph {
    pub n: usize,
    pub adj: Vec<Vec<bool>>,
}

/// Result of the feasibility check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Feasible {
    Yes,
    No,
    Unknown,
}

/// Can `k` edge-disjoint perfect matchings be found in `g`?
pub(crate) fn feasible(g: &Graph, k: usize, budget: usize) -> Feasible {
    let mut adj = g.adj.clone();
    let mut nodes = 0usize;
    match rounds(&mut adj, g.n, k, &mut nodes, budget) {
        Some(true) => Feasible::Yes,
        Some(false) => Feasible::No,
        None => Feasible::Unknown,
    }
}

fn rounds(
    adj: &mut Vec<Vec<bool>>,
    n: usize,
    k: usize,
    nodes: &mut usize,
    budget: usize,
) -> Option<bool> {
    if k == 0 {
        return Some(true);
    }
    // Every vertex needs degree >= k.
    if (0..n).any(|i| adj[i].iter().filter(|&&x| x).count() < k) {
        return Some(false);
    }
    let mut mate = vec![usize::MAX; n];
    one(adj, n, k, &mut mate, nodes, budget)
}

fn one(
    adj: &mut Vec<Vec<bool>>,
    n: usize,
    k: usize,
    mate: &mut Vec<usize>,
    nodes: &mut usize,
    budget: usize,
) -> Option<bool> {
    *nodes += 1;
    if *nodes > budget {
        return None;
    }
    // Most constrained free vertex first.
    let free: Vec<usize> = (0..n).filter(|&i| mate[i] == usize::MAX).collect();
    if free.is_empty() {
        let pairs: Vec<(usize, usize)> = (0..n)
            .filter(|&i| mate[i] > i)
            .map(|i| (i, mate[i]))
            .collect();
        for &(a, b) in &pairs {
            adj[a][b] = false;
            adj[b][a] = false;
        }
        let r = rounds(adj, n, k - 1, nodes, budget);
        for &(a, b) in &pairs {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        return r;
    }
    let &i = free
        .iter()
        .min_by_key(|&&i| free.iter().filter(|&&j| adj[i][j]).count())
        .expect("non-empty");
    let options: Vec<usize> = free.iter().copied().filter(|&j| adj[i][j]).collect();
    for j in options {
        mate[i] = j;
        mate[j] = i;
        let r = one(adj, n, k, mate, nodes, budget);
        mate[i] = usize::MAX;
        mate[j] = usize::MAX;
        match r {
            Some(true) => return Some(true),
            None => return None,
            Some(false) => {}
        }
    }
    Some(false)
}

/// The pairs allowed in the rounds after this one, among `players` (this round's and those
/// back from a bye or an absence), with a bye vertex after them when their number is odd: two
/// players who have not met, and the bye for a player who has not had a full-point bye.
pub(crate) fn future_graph(players: &[&crate::engine::chess::swiss::state::PlayerView]) -> Graph {
    let k = players.len();
    let n = k + k % 2;
    let mut adj = vec![vec![false; n]; n];
    for a in 0..k {
        for b in a + 1..k {
            let (x, y) = (players[a], players[b]);
            let allowed = !x.met.contains(&y.sn) && !y.met.contains(&x.sn);
            adj[a][b] = allowed;
            adj[b][a] = allowed;
        }
        if n > k {
            adj[a][k] = !players[a].had_full_bye;
            adj[k][a] = adj[a][k];
        }
    }
    Graph { n, adj }
}
