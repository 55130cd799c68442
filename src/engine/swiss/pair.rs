//! Pairing one round: build the model, solve, look ahead, explain.

#![allow(clippy::needless_range_loop)]

use super::colour::{round_one_colour, ColourCode, ColourReason};
use super::lookahead::{feasible, Feasible, Graph};
use super::penalty::{build_model, Board, Model, COLOUR, PREFERENCE, RATING, REPEAT, SCORE, TIERS};
use super::solve::solve_lex;
use super::state::{err, view, Colour, SwissError, SwissState};
use crate::engine::matching::{Edge, LayeredProblem, LpSolver, MatchingSolver};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use utoipa::ToSchema;

/// One board of the round (public contract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BoardPairing {
    /// Board number, 1 = top.
    pub board: u32,
    /// Start number of White.
    pub white: u32,
    /// Start number of Black.
    pub black: u32,
}

/// A bye of the round (public contract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ByeAward {
    /// Start number.
    pub player: u32,
    /// Points: 1.0 for the pairing bye, or the requested value.
    pub points: f64,
}

/// The tier values of one board (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TierBreakdown {
    /// Tier 1: rematch or second full-point bye (1).
    pub repeat: i64,
    /// Tier 2: prohibited pair (2), same team code (1).
    pub preference: i64,
    /// Tier 3: 4·d² (d = score difference in half-points), +1 for a bye to an unrated player.
    pub score: i64,
    /// Tier 4: E per EQ/33 problem, 1 per AL problem, plus limit charges.
    pub colour: i64,
    /// Tier 5: 8·rating change + rank distance (at most 3) + 4 for an interchange.
    pub rating: i64,
}

/// Why a board is as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BoardExplanation {
    /// Board number (0 for the pairing bye).
    pub board: u32,
    /// White (or the bye's player).
    pub white: u32,
    /// Black (none for the bye).
    pub black: Option<u32>,
    /// Cost of this board in the objective that chose it (Σ weight·tier).
    pub cost: i64,
    /// The tier values.
    pub tiers: TierBreakdown,
    /// Colour code of White: OK, AL, 33, EQ.
    pub colour_white: ColourCode,
    /// Colour code of Black.
    pub colour_black: ColourCode,
    /// Which colour rule decided: 1, 2, 3, coin, board.
    pub colour_rule: Option<ColourReason>,
    /// Rating change from the natural pairing (points).
    pub rating_change: i64,
    /// "" (none), "LO" (within the low limit), "HI" (within the high limit), "XX" (beyond).
    pub change_code: String,
    /// The two have met before (or the bye is a second one).
    pub rematch: bool,
    /// Same team code.
    pub same_team: bool,
    /// A pair the director prohibits.
    pub prohibited: bool,
    /// Score difference in points (a drop); for the bye, points above the lowest group.
    pub score_drop: f64,
}

/// One entry of the explanation list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExplanationEntry {
    /// A board (or the pairing bye).
    Board(BoardExplanation),
    /// A note the director should read (rematch forced, look-ahead used, totals).
    Note {
        /// The text.
        message: String,
    },
}

/// The pairing of a round: the public contract of the engine endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RoundPairing {
    /// Round number.
    pub round: u32,
    /// Boards, board 1 first.
    pub pairings: Vec<BoardPairing>,
    /// Byes: the pairing bye, requested byes, absences.
    pub byes: Vec<ByeAward>,
    /// Per-board explanation and notes.
    pub explanation: Vec<ExplanationEntry>,
}

/// Above this many players, candidates are first restricted to a rank window.
pub(crate) const FULL_GRAPH_LIMIT: usize = 1100;
const WINDOW: usize = 24;

fn candidates(model: &Model, window: Option<usize>) -> Vec<Board> {
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
            let mut set = HashSet::new();
            for u in 0..n {
                let c = model.natural[u].min(n - 1);
                for v in c.saturating_sub(w)..=(c + w).min(n - 1) {
                    if v != u {
                        set.insert((u.min(v), u.max(v)));
                    }
                }
                for v in u.saturating_sub(w)..=(u + w).min(n - 1) {
                    if v != u {
                        set.insert((u.min(v), u.max(v)));
                    }
                }
            }
            pairs = set.into_iter().collect();
            pairs.sort_unstable();
        }
    }
    let mut boards: Vec<Board> = pairs.into_iter().map(|(u, v)| model.board(u, v)).collect();
    if let Some(b) = model.bye {
        for u in 0..n {
            boards.push(model.board(u, b));
        }
    }
    boards
}

/// Pairs the next round of a Swiss section.
///
/// `solver` solves the matching model (normally [`crate::engine::matching::BlossomSolver`]).
/// Returns an error naming the field at fault for an inconsistent state, or when no pairing
/// exists at all (fewer than two players).
pub fn pair_next_round(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let round = state.round_to_pair();
    let settings = &state.settings;
    let first = round_one_colour(settings.seed, settings.first_colour);
    let mut byes = Vec::new();
    let mut out: HashSet<u32> = HashSet::new();
    for b in &state.requested_byes {
        byes.push(ByeAward {
            player: b.player,
            points: b.points,
        });
        out.insert(b.player);
    }
    for &a in &state.absent {
        if out.insert(a) {
            byes.push(ByeAward {
                player: a,
                points: 0.0,
            });
        }
    }
    let views: Vec<_> = (0..state.players.len())
        .filter(|&i| !state.players[i].withdrawn && !out.contains(&state.players[i].start_number))
        .map(|i| view(state, i))
        .collect();
    let mut notes: Vec<String> = Vec::new();
    let model = build_model(views, settings, round, first);
    let n = model.players.len();
    let vertices = model.vertices();
    if n < 2 {
        return Err(err("players", "fewer than two players to pair"));
    }
    // Solve, widening the candidate window when the restricted model needs a repeat.
    let mut window = (n > FULL_GRAPH_LIMIT).then_some(WINDOW);
    let (boards, sol) = loop {
        let boards = candidates(&model, window);
        let sol = solve_lex(vertices, &boards, solver)?;
        let done = window.is_none() || sol.as_ref().is_some_and(|s| s.level == 0);
        if done {
            break (boards, sol);
        }
        // Widen ×4; the full graph only while it stays small enough (about 3·10⁷ boards).
        match window {
            Some(w) if w * 4 < n => window = Some(w * 4),
            Some(w) if n * n / 2 <= 30_000_000 || w * 4 * n > 30_000_000 => {
                if n * n / 2 <= 30_000_000 {
                    window = None;
                } else {
                    break (boards, sol);
                }
            }
            _ => window = None,
        }
    };
    let Some(sol) = sol else {
        return Err(err(
            "players",
            "no pairing exists for the available players",
        ));
    };
    if window.is_some() {
        notes.push(format!(
            "large section: candidates restricted to {} ranks around each natural opponent",
            window.unwrap_or(0)
        ));
    }
    let mut mate = sol.mate.clone();
    // Look-ahead.
    let remaining = settings.total_rounds.saturating_sub(round) as usize;
    if remaining > 0 && vertices <= 24 {
        let used: Vec<(usize, usize)> = (0..vertices)
            .filter(|&i| mate[i] > i)
            .map(|i| (i, mate[i]))
            .collect();
        let g = allowed_graph(&model, &boards, &used);
        match feasible(&g, remaining, 200_000) {
            Feasible::Yes => {}
            Feasible::Unknown => notes.push("look-ahead: check inconclusive, not applied".into()),
            Feasible::No => {
                let free = allowed_graph(&model, &boards, &[]);
                let mut layer0 = Vec::new();
                for b in boards.iter().filter(|b| b.tiers[REPEAT] == 0) {
                    let cost: i64 = (0..TIERS).map(|k| sol.weights[k] * b.tiers[k]).sum();
                    layer0.push(Edge {
                        u: b.u,
                        v: b.v,
                        cost,
                    });
                }
                let mut future = Vec::new();
                for u in 0..vertices {
                    for v in u + 1..vertices {
                        if free.adj[u][v] {
                            future.push(Edge { u, v, cost: 0 });
                        }
                    }
                }
                let mut layers = vec![layer0];
                layers.extend(std::iter::repeat_n(future, remaining));
                let lp = LpSolver {
                    time_limit_secs: Some(20.0),
                };
                match lp.solve_layered(&LayeredProblem { vertices, layers }) {
                    Ok(Some(ms)) if !ms.is_empty() => {
                        mate = ms[0].mate.clone();
                        notes.push(format!(
                            "look-ahead: the cheapest pairing would leave no rematch-free pairing for the remaining {remaining} round(s); a pairing that keeps the event completable was chosen"
                        ));
                    }
                    Ok(_) => notes.push(
                        "look-ahead: the remaining rounds cannot be completed without a rematch"
                            .into(),
                    ),
                    Err(e) => notes.push(format!("look-ahead failed: {e:?}")),
                }
            }
        }
    }
    Ok(assemble(
        state,
        &model,
        &boards,
        &mate,
        &sol.weights,
        sol.level,
        sol.solves,
        round,
        first,
        byes,
        notes,
    ))
}

fn allowed_graph(model: &Model, boards: &[Board], used: &[(usize, usize)]) -> Graph {
    let n = model.vertices();
    let mut adj = vec![vec![false; n]; n];
    for b in boards {
        if b.tiers[REPEAT] == 0 {
            adj[b.u][b.v] = true;
            adj[b.v][b.u] = true;
        }
    }
    for &(a, b) in used {
        adj[a][b] = false;
        adj[b][a] = false;
    }
    Graph { n, adj }
}

#[allow(clippy::too_many_arguments)]
fn assemble(
    _state: &SwissState,
    model: &Model,
    boards: &[Board],
    mate: &[usize],
    weights: &[i64; TIERS],
    level: usize,
    solves: usize,
    round: u32,
    first: Colour,
    mut byes: Vec<ByeAward>,
    mut notes: Vec<String>,
) -> RoundPairing {
    let n = model.players.len();
    let mut chosen: Vec<&Board> = boards.iter().filter(|b| mate[b.u] == b.v).collect();
    chosen.sort_by_key(|b| (b.v == n, b.u));
    let mut pairings = Vec::new();
    let mut explanation = Vec::new();
    let mut total = [0i64; TIERS];
    let mut board_no = 0u32;
    for b in &chosen {
        for k in 0..TIERS {
            total[k] += b.tiers[k];
        }
        let cost: i64 = (0..TIERS)
            .map(|k| weights[k].saturating_mul(b.tiers[k]))
            .fold(0i64, |a, x| a.saturating_add(x));
        let tiers = TierBreakdown {
            repeat: b.tiers[REPEAT],
            preference: b.tiers[PREFERENCE],
            score: b.tiers[SCORE],
            colour: b.tiers[COLOUR],
            rating: b.tiers[RATING],
        };
        let change_code = if b.change == 0 {
            ""
        } else if b.change <= model.low_limit {
            "LO"
        } else if b.change <= model.high_limit {
            "HI"
        } else {
            "XX"
        }
        .to_string();
        let x = &model.players[b.u];
        if Some(b.v) == model.bye {
            byes.insert(
                0,
                ByeAward {
                    player: x.sn,
                    points: 1.0,
                },
            );
            if b.rematch {
                notes.push(format!(
                    "player {} receives a second full-point bye: no other pairing exists",
                    x.sn
                ));
            }
            explanation.push(ExplanationEntry::Board(BoardExplanation {
                board: 0,
                white: x.sn,
                black: None,
                cost,
                tiers,
                colour_white: ColourCode::Ok,
                colour_black: ColourCode::Ok,
                colour_rule: None,
                rating_change: b.change,
                change_code,
                rematch: b.rematch,
                same_team: false,
                prohibited: false,
                score_drop: b.drop as f64 / 2.0,
            }));
            continue;
        }
        board_no += 1;
        let y = &model.players[b.v];
        let mut cu = b.colour_u.unwrap_or(first);
        if b.reason == Some(ColourReason::Board) {
            // Round 1 (or no colour history on either side): alternate down the boards.
            cu = if board_no % 2 == 1 {
                first
            } else {
                first.opposite()
            };
        }
        let (white, black, cw, cb) = if cu == Colour::White {
            (x.sn, y.sn, b.codes[0], b.codes[1])
        } else {
            (y.sn, x.sn, b.codes[1], b.codes[0])
        };
        if b.rematch {
            notes.push(format!(
                "REMATCH: {white} and {black} meet again in round {round}: no other pairing exists"
            ));
        }
        pairings.push(BoardPairing {
            board: board_no,
            white,
            black,
        });
        explanation.push(ExplanationEntry::Board(BoardExplanation {
            board: board_no,
            white,
            black: Some(black),
            cost,
            tiers,
            colour_white: cw,
            colour_black: cb,
            colour_rule: b.reason,
            rating_change: b.change,
            change_code,
            rematch: b.rematch,
            same_team: b.team,
            prohibited: b.prohibited,
            score_drop: b.drop as f64 / 2.0,
        }));
    }
    if solves > 1 {
        notes.push(format!("penalty tiers solved in {solves} stages"));
    }
    if level == 1 {
        notes.push("a pairing preference (team code or prohibited pair) had to be broken".into());
    }
    notes.push(format!(
        "totals: repeat {}, preference {}, score {}, colour {}, rating {}; weights {:?}",
        total[0], total[1], total[2], total[3], total[4], weights
    ));
    explanation.extend(
        notes
            .into_iter()
            .map(|message| ExplanationEntry::Note { message }),
    );
    RoundPairing {
        round,
        pairings,
        byes,
        explanation,
    }
}
