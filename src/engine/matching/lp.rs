//! The matching model as a 0/1 integer programme, solved with `good_lp` (microlp back-end).
//!
//! One binary variable `x(u, v)` per candidate pair (per layer for a [`LayeredProblem`]);
//! every vertex is covered exactly once in each layer (`sum of x over its edges = 1`); in a
//! layered problem a pair offered in several layers is used at most once over all of them
//! (`sum over layers of x(u, v) <= 1`). The objective is the total cost.
//!
//! microlp solves the LP relaxation by the simplex method and closes the integrality gap (odd
//! cycles) by branch and bound, in floating point. The returned matchings are always checked and
//! costed in exact integer arithmetic; their *optimality* is exact as long as total costs stay
//! well below 2^53 (about 9·10^15), beyond that it is as good as the floating-point solver can
//! tell. Fine for the look-ahead and for cross-checking; slow on big graphs (use
//! [`super::BlossomSolver`] for a single round).

use good_lp::{
    constraint, microlp, variable, Expression, ProblemVariables, ResolutionError, Solution,
    SolverModel, Variable, WithTimeLimit,
};

use super::{cost_bound, matching_cost, normalise, Matching, MatchingError, MatchingProblem};
use super::{LayeredProblem, MatchingSolver, SimpleEdges};

/// Integer-programming solver (good_lp + microlp). See the module doc.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LpSolver {
    /// Optional time limit in seconds. When it runs out the best matching found so far is
    /// returned (it may not be optimal); with no matching found yet, `SolverFailed`.
    pub time_limit_secs: Option<f64>,
}

impl MatchingSolver for LpSolver {
    fn name(&self) -> &'static str {
        "lp-microlp"
    }

    fn solve(&self, problem: &MatchingProblem) -> Result<Option<Matching>, MatchingError> {
        let layered = LayeredProblem {
            vertices: problem.vertices,
            layers: vec![problem.edges.clone()],
        };
        Ok(self.solve_layered(&layered)?.and_then(|mut v| v.pop()))
    }
}

impl LpSolver {
    /// Solve a [`LayeredProblem`]: one perfect matching per layer, no pair used twice, least total
    /// cost. `Ok(None)` when no such family of matchings exists. With no layers: `Ok(Some(vec![]))`.
    /// Cost bound: `|cost| <= i64::MAX / (2 * vertices * layers)`.
    pub fn solve_layered(
        &self,
        p: &LayeredProblem,
    ) -> Result<Option<Vec<Matching>>, MatchingError> {
        self.solve_layered_sitting_out(p, &[])
    }

    /// [`LpSolver::solve_layered`] where `sitting_out[i]` lists the vertices that take no part
    /// in layer `i` (a player absent from a round): they are left unmatched there (`mate` =
    /// `usize::MAX`) and their edges in that layer are ignored; every other vertex is matched
    /// in every layer. Layers beyond `sitting_out` have everybody.
    pub fn solve_layered_sitting_out(
        &self,
        p: &LayeredProblem,
        sitting_out: &[Vec<usize>],
    ) -> Result<Option<Vec<Matching>>, MatchingError> {
        let n = p.vertices;
        let bound = cost_bound(n, p.layers.len());
        let mut idle = vec![vec![false; n]; p.layers.len()];
        for (l, out) in sitting_out.iter().enumerate().take(p.layers.len()) {
            for &v in out {
                if v >= n {
                    return Err(MatchingError::SolverFailed(format!(
                        "vertex {v} sits out of layer {l} but there are {n} vertices"
                    )));
                }
                idle[l][v] = true;
            }
        }
        let layers: Vec<SimpleEdges> = p
            .layers
            .iter()
            .zip(&idle)
            .map(|(edges, idle)| {
                let mut e = normalise(n, edges, bound)?;
                e.retain(|&(u, v, _)| !idle[u] && !idle[v]);
                Ok(e)
            })
            .collect::<Result<_, MatchingError>>()?;
        if layers.is_empty() {
            return Ok(Some(Vec::new()));
        }
        if n == 0 {
            let empty = Matching {
                cost: 0,
                mate: Vec::new(),
            };
            return Ok(Some(vec![empty; layers.len()]));
        }
        // A vertex without an edge in some layer it plays: infeasible, no need to ask the
        // solver.
        for (edges, idle) in layers.iter().zip(&idle) {
            let mut seen = idle.clone();
            for &(u, v, _) in edges {
                seen[u] = true;
                seen[v] = true;
            }
            if seen.iter().any(|&s| !s) {
                return Ok(None);
            }
        }

        let mut vars = ProblemVariables::new();
        let x: Vec<Vec<Variable>> = layers
            .iter()
            .map(|edges| {
                edges
                    .iter()
                    .map(|_| vars.add(variable().binary()))
                    .collect()
            })
            .collect();
        let mut objective = Expression::from(0.0);
        for (edges, xs) in layers.iter().zip(&x) {
            for (&(_, _, c), &xv) in edges.iter().zip(xs) {
                if c != 0 {
                    objective += c as f64 * xv;
                }
            }
        }
        let mut model = vars.minimise(objective).using(microlp);
        if let Some(t) = self.time_limit_secs {
            model = model.with_time_limit(t.max(0.0));
        }
        for ((edges, xs), idle) in layers.iter().zip(&x).zip(&idle) {
            let mut cover: Vec<Expression> = vec![Expression::from(0.0); n];
            for (&(u, v, _), &xv) in edges.iter().zip(xs) {
                cover[u] += xv;
                cover[v] += xv;
            }
            for (e, &out) in cover.into_iter().zip(idle) {
                if !out {
                    model = model.with(constraint!(e == 1));
                }
            }
        }
        // Each pair at most once over all layers: gather the (layer, index) of every pair.
        if layers.len() > 1 {
            let mut uses: Vec<(usize, usize, Variable)> = Vec::new();
            for (edges, xs) in layers.iter().zip(&x) {
                for (&(u, v, _), &xv) in edges.iter().zip(xs) {
                    uses.push((u, v, xv));
                }
            }
            uses.sort_by_key(|&(u, v, _)| (u, v));
            let mut i = 0;
            while i < uses.len() {
                let mut j = i + 1;
                while j < uses.len() && (uses[j].0, uses[j].1) == (uses[i].0, uses[i].1) {
                    j += 1;
                }
                if j - i > 1 {
                    let sum: Expression = uses[i..j].iter().map(|&(_, _, xv)| xv).sum();
                    model = model.with(constraint!(sum <= 1));
                }
                i = j;
            }
        }
        let solution = match model.solve() {
            Ok(s) => s,
            Err(ResolutionError::Infeasible) => return Ok(None),
            Err(e) => return Err(MatchingError::SolverFailed(e.to_string())),
        };
        let mut out = Vec::with_capacity(layers.len());
        for ((edges, xs), idle) in layers.iter().zip(&x).zip(&idle) {
            let mut mate = vec![usize::MAX; n];
            for (&(u, v, _), &xv) in edges.iter().zip(xs) {
                if solution.value(xv) > 0.5 {
                    if mate[u] != usize::MAX || mate[v] != usize::MAX {
                        return Err(MatchingError::SolverFailed(
                            "LP solution covers a vertex twice".into(),
                        ));
                    }
                    mate[u] = v;
                    mate[v] = u;
                }
            }
            // The players of the layer only (those sitting out stay unmatched).
            let playing: Vec<usize> = (0..n).filter(|&v| !idle[v]).collect();
            let mut index = vec![usize::MAX; n];
            for (i, &v) in playing.iter().enumerate() {
                index[v] = i;
            }
            let local = |v: usize| if v == usize::MAX { v } else { index[v] };
            let sub_mate: Vec<usize> = playing.iter().map(|&v| local(mate[v])).collect();
            let sub_edges: SimpleEdges = edges
                .iter()
                .map(|&(u, v, c)| (index[u], index[v], c))
                .collect();
            let cost = matching_cost(playing.len(), &sub_edges, &sub_mate)?;
            out.push(Matching { cost, mate });
        }
        Ok(Some(out))
    }
}
