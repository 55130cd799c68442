//! The boards of a US pairing as the engine weighs them: the candidate boards offered to the
//! solver (all, or a rank window around the natural opponents), a board of the result and
//! where it came from, and the tier totals, weights and names every explanation reads.

#![allow(clippy::needless_range_loop)]

use super::penalty::{Board, Model, TIERS};
use super::price::in_parallel;
use crate::engine::chess::swiss::state::Colour;

pub(crate) fn candidates(model: &Model, window: Option<usize>) -> Vec<Board> {
    let n = model.players.len();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    match window {
        None => {
            for u in 0..n {
                for v in u + 1..n {
                    pairs.push((u, v));
                }
            }
        }
        Some(w) => {
            for u in 0..n {
                let c = model.natural[u].min(n - 1);
                for v in c.saturating_sub(w)..=(c + w).min(n - 1) {
                    if v != u {
                        pairs.push((u.min(v), u.max(v)));
                    }
                }
                for v in u.saturating_sub(w)..=(u + w).min(n - 1) {
                    if v != u {
                        pairs.push((u.min(v), u.max(v)));
                    }
                }
            }
            if model.fide_style {
                colour_window(model, w, &mut pairs);
            }
            pairs.sort_unstable();
            pairs.dedup();
        }
    }
    // Every player may take the bye (the bye vertex is numbered after the players).
    if let Some(b) = model.bye {
        pairs.extend((0..n).map(|u| (u, b)));
    }
    // Building a board (colours, rematches, limits) is the costly part: on every core, into
    // one list of its final size (one more board pushed would copy it to twice its size).
    in_parallel(pairs.len(), |r| {
        pairs[r].iter().map(|&(u, v)| model.board(u, v)).collect()
    })
}

/// FIDE style: for every player, the `w` nearest players on each side, in the ranking, of his
/// natural opponent and of himself that are not due his colour. In FIDE style colours
/// outrank the distance from the natural pairing, which costs at most
/// `max_rating_tier` however far apart the two are: in a score group with more players
/// due one colour than the other, the optimum pairs players due opposite colours across
/// the group, and a window of ranks alone would leave those boards to pricing (at 10 000
/// players it added 725 000 of them, and solving again cost 95 % of the time).
fn colour_window(model: &Model, w: usize, pairs: &mut Vec<(usize, usize)>) {
    let n = model.players.len();
    let due: Vec<Option<Colour>> = model
        .players
        .iter()
        .map(crate::engine::chess::swiss::colour::due)
        .collect();
    // The players (in ranking order) who can take a player due `c` without a clash.
    let partners = |c: Option<Colour>| -> Vec<usize> {
        (0..n).filter(|&v| c.is_none() || due[v] != c).collect()
    };
    let lists = [
        partners(Some(Colour::White)),
        partners(Some(Colour::Black)),
        partners(None),
    ];
    for u in 0..n {
        let list = match due[u] {
            Some(Colour::White) => &lists[0],
            Some(Colour::Black) => &lists[1],
            None => &lists[2],
        };
        for anchor in [model.natural[u].min(n - 1), u] {
            let at = list.partition_point(|&v| v < anchor);
            let below = list[..at].iter().rev().filter(|&&v| v != u).take(w);
            let above = list[at..].iter().filter(|&&v| v != u).take(w);
            for &v in below.chain(above) {
                pairs.push((u.min(v), u.max(v)));
            }
        }
    }
}

/// Where a board of the result comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Chosen by the solver; colours by the rules.
    Engine,
    /// The director's pairing under evaluation; colours as given.
    Director,
    /// Forced by the director in [`super::pair::pair_with_fixed`]; colours as given.
    Forced,
}

/// One board of the result, scored.
pub(crate) struct Chosen {
    pub board: Board,
    pub origin: Origin,
    /// Colour of `u` by the rules (none for the bye, or when the round-1 board order decides).
    pub rule_colour: Option<Colour>,
}

impl Chosen {
    pub fn engine(model: &Model, u: usize, v: usize) -> Chosen {
        let board = model.board(u, v);
        Chosen {
            rule_colour: board.colour_u,
            board,
            origin: Origin::Engine,
        }
    }

    /// A board with the colour of `u` (the higher-ranked) given.
    pub fn given(model: &Model, u: usize, v: usize, colour_u: Colour, origin: Origin) -> Chosen {
        let rule_colour = model.board(u, v).colour_u;
        Chosen {
            board: model.board_coloured(u, v, colour_u),
            origin,
            rule_colour,
        }
    }
}

/// The boards of the solver's mates, colours by the rules.
pub(crate) fn engine_boards(model: &Model, mate: &[usize]) -> Vec<Chosen> {
    (0..model.players.len())
        .filter(|&u| mate[u] > u)
        .map(|u| Chosen::engine(model, u, mate[u]))
        .collect()
}

/// Tier totals of a set of boards.
pub(crate) fn tier_totals(chosen: &[Chosen]) -> [i64; TIERS] {
    sum_tiers(chosen.iter().map(|c| &c.board))
}

/// Tier totals of boards, each tier summed wide (a board stores its tiers narrow).
pub(crate) fn sum_tiers<'a>(boards: impl IntoIterator<Item = &'a Board>) -> [i64; TIERS] {
    let mut t = [0i64; TIERS];
    for b in boards {
        for (sum, &v) in t.iter_mut().zip(&b.tiers) {
            *sum += i64::from(v);
        }
    }
    t
}

/// Gives a weight to every tier that some pairing in `totals` uses but the solve left at 0
/// (a tier no candidate board of the solve touched, e.g. repeats when none was needed):
/// `w_k = 1 + Σ_{j>k} w_j·max T_j`, so the costs shown still order the pairings tier by tier.
/// Weights already set are kept, so the solver's own boards keep their costs.
pub(crate) fn complete_weights(mut w: [i128; TIERS], totals: &[[i64; TIERS]]) -> [i128; TIERS] {
    for k in (0..TIERS).rev() {
        if w[k] == 0 && totals.iter().any(|t| t[k] > 0) {
            let mut acc: i128 = 1;
            for j in k + 1..TIERS {
                let m = totals.iter().map(|t| t[j]).max().unwrap_or(0);
                acc = acc.saturating_add(w[j].saturating_mul(m as i128));
            }
            w[k] = acc;
        }
    }
    w
}

const TIER_NAMES: [&str; TIERS] = [
    "repeat",
    "preference",
    "absolute colour",
    "score",
    "serious colour",
    "colour",
    "rating",
];

/// Name of tier `k` (for notes).
pub(crate) fn tier_name(k: usize) -> &'static str {
    TIER_NAMES[k]
}
