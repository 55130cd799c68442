//! Pairing one round: build the model, solve, look ahead, explain.

#![allow(clippy::needless_range_loop)]

use super::colour::{round_one_colour, ColourCode, ColourReason};
use super::lookahead::{self, feasible, Feasible};
use super::penalty::{
    build_model, Board, Model, ABSOLUTE_COLOUR, COLOUR, PREFERENCE, RATING, REPEAT, SCORE,
    SERIOUS_COLOUR, TIERS,
};
use super::price::{in_parallel, FullGraphPricer};
use super::solve::{solve_lex, Pricer};
use super::state::{err, view, Colour, PlayerView, SwissError, SwissSettings, SwissState};
use super::why;
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
    /// Points: 1.0 for the pairing bye, or the requested value (0 for an absence).
    pub points: f64,
    /// Which kind of bye this is.
    pub kind: ByeKind,
}

/// The kind of a bye: what a client needs to tell a pairing-allocated bye from a requested
/// full-point bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwissByeKind)]
pub enum ByeKind {
    /// The pairing bye: the odd player out, chosen by the engine (1 point).
    Pairing,
    /// A bye the player asked for in advance (0, ½ or 1 point).
    Requested,
    /// The player is absent this round (0 points).
    Absent,
}

/// The tier values of one board (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TierBreakdown {
    /// Tier 1: rematch or second full-point bye (1).
    pub repeat: i64,
    /// Tier 2: prohibited pair (2), same team code (1).
    pub preference: i64,
    /// Tier 4: 4·d² (d = score difference in half-points), +1 for a bye to an unrated player.
    pub score: i64,
    /// Serious colour problems: (run − 2)² per third (fourth...) colour in a row, (|W−B| − 2)²
    /// per imbalance beyond 2, plus the high-limit charge; a tier of its own, above the score
    /// tier in FIDE style (tier 3), between score and colour otherwise.
    pub serious_colour: i64,
    /// Tier 6: E·(|W−B| − 1)² per EQ problem, 2 per AL problem, 1 per clash (both due the
    /// same colour), plus limit charges.
    pub colour: i64,
    /// Tier 7: 8·rating change + rank distance (at most 3) + 4 for an interchange.
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
    /// Colour code of White: OK, AL, EQ, 33, IMB (the most serious problem of the colour).
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

/// Sections of at most this many vertices (players and the bye) are checked by the
/// look-ahead (see [`lookahead`]).
pub(crate) const LOOK_AHEAD_VERTICES: usize = 24;

/// Above this many players, candidates are first restricted to a rank window.
///
/// Measured (`scripts/bench-swiss crossover`, round 6 of 9, release build): the window with
/// pricing is as fast as the full graph at 200 players (0.009 s vs 0.007 s) and faster from
/// 300 (0.018 s vs 0.060 s; 1000 players 0.20 s and 20 MiB vs 0.48 s and 139 MiB).
pub(crate) const FULL_GRAPH_LIMIT: usize = 250;
const WINDOW: usize = 24;

/// How large sections are solved (tests lower the limit to make the window matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Above this many players the candidates are restricted to a rank window.
    pub full_graph: usize,
    /// Ranks around the natural opponent (and around the player) in the window.
    pub window: usize,
    /// Price the boards outside the window with the duals (false only in tests, to show
    /// that the window alone can miss the optimum).
    pub price: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            full_graph: FULL_GRAPH_LIMIT,
            window: WINDOW,
            price: true,
        }
    }
}

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
    let due: Vec<Option<Colour>> = model.players.iter().map(super::colour::due).collect();
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

/// What every way of pairing a round shares: the validated state, the byes already decided
/// (requested byes, absences) and the ranked model of the players to pair.
pub(crate) struct Prepared {
    pub round: u32,
    /// Colour of board 1's higher-ranked player in round 1.
    pub first: Colour,
    /// Requested byes and absences, in the order they are listed.
    pub byes: Vec<ByeAward>,
    pub model: Model,
    /// The players set aside this round (requested byes, absences) who are still in the
    /// section: the look-ahead expects them back in the rounds after this one.
    pub returning: Vec<PlayerView>,
}

/// Each player's pairing-number position (0 = the first) as the FIDE colour rules count it
/// (C.04.3 E.5): among the players paired now (not withdrawn, not in `out`, the start
/// numbers [`decided_byes`] sets aside) or in an earlier round, in start-number order. A
/// player who has never taken part in a pairing has none yet (`None`); bbpPairings numbers
/// them so too. Indexed like `state.players`.
pub(crate) fn pairing_positions(state: &SwissState, out: &HashSet<u32>) -> Vec<Option<usize>> {
    let numbered = |p: &super::SwissPlayer| {
        (!p.withdrawn && !out.contains(&p.start_number))
            || p.history
                .iter()
                .any(|r| r.result.has_opponent() || r.result == super::RoundResult::PairingBye)
    };
    let mut order: Vec<usize> = (0..state.players.len())
        .filter(|&i| numbered(&state.players[i]))
        .collect();
    order.sort_by_key(|&i| state.players[i].start_number);
    let mut positions = vec![None; state.players.len()];
    for (k, &i) in order.iter().enumerate() {
        positions[i] = Some(k);
    }
    positions
}

/// The byes decided before any pairing, in the order listed: requested byes, then absences
/// (a player both requested and absent counts once, as requested); and the start numbers they
/// take out of the round. Every pairing system starts from them.
pub(crate) fn decided_byes(state: &SwissState) -> (Vec<ByeAward>, HashSet<u32>) {
    let mut byes = Vec::new();
    let mut out: HashSet<u32> = HashSet::new();
    for b in &state.requested_byes {
        byes.push(ByeAward {
            player: b.player,
            points: b.points,
            kind: ByeKind::Requested,
        });
        out.insert(b.player);
    }
    for &a in &state.absent {
        if out.insert(a) {
            byes.push(ByeAward {
                player: a,
                points: 0.0,
                kind: ByeKind::Absent,
            });
        }
    }
    (byes, out)
}

/// Validates the state, sets the requested byes and absences aside and builds the model.
pub(crate) fn prepare(state: &SwissState) -> Result<Prepared, SwissError> {
    state.validate()?;
    let round = state.round_to_pair();
    let settings = &state.settings;
    let first = round_one_colour(settings.seed, settings.first_colour);
    let (byes, out) = decided_byes(state);
    let positions = pairing_positions(state, &out);
    let views: Vec<_> = (0..state.players.len())
        .filter(|&i| !state.players[i].withdrawn && !out.contains(&state.players[i].start_number))
        .map(|i| PlayerView {
            position: positions[i].unwrap_or(i),
            ..view(state, i)
        })
        .collect();
    let returning = (0..state.players.len())
        .filter(|&i| !state.players[i].withdrawn && out.contains(&state.players[i].start_number))
        .map(|i| view(state, i))
        .collect();
    let model = build_model(views, settings, round, first);
    if model.players.len() < 2 {
        return Err(err("players", "fewer than two players to pair"));
    }
    Ok(Prepared {
        round,
        first,
        byes,
        model,
        returning,
    })
}

/// The solver's answer for a round: mates (vertex indices of the model) and how it was found.
pub(crate) struct Solved {
    pub mate: Vec<usize>,
    /// Weights of the final solve (0 for a tier no candidate board touched).
    pub weights: [i128; TIERS],
    /// 0 = clean boards only, 1 = preference conflicts allowed, 2 = repeats allowed.
    pub level: usize,
    pub solves: usize,
    /// Notes of the solve (window, look-ahead).
    pub notes: Vec<String>,
}

/// Pairs the round optimally; `fixed` lists vertex pairs that must be boards (every other
/// candidate board of their players is removed). Forced boards enter the solve with all tiers
/// 0: they are in every admissible pairing, so this leaves the optimum of the rest unchanged
/// and keeps their own repeats/preferences from lifting the exclusion level.
pub(crate) fn solve_round(
    prep: &Prepared,
    settings: &SwissSettings,
    fixed: &[(usize, usize)],
    solver: &dyn MatchingSolver,
    limits: Limits,
) -> Result<Solved, SwissError> {
    let model = &prep.model;
    let round = prep.round;
    let n = model.players.len();
    let vertices = model.vertices();
    let mut partner = vec![usize::MAX; vertices];
    for &(a, b) in fixed {
        partner[a] = b;
        partner[b] = a;
    }
    let restrict = |mut boards: Vec<Board>| -> Vec<Board> {
        if fixed.is_empty() {
            return boards;
        }
        boards.retain(|b| partner[b.u] == usize::MAX && partner[b.v] == usize::MAX);
        for &(a, b) in fixed {
            let mut forced = model.board(a.min(b), a.max(b));
            forced.tiers = [0; TIERS];
            boards.push(forced);
        }
        boards
    };
    let mut notes: Vec<String> = Vec::new();
    let remaining = settings.total_rounds.saturating_sub(round) as usize;
    // The look-ahead's players: this round's, then those back from a bye or an absence.
    let everyone: Vec<&PlayerView> = model.players.iter().chain(&prep.returning).collect();
    // Their vertices: one more for the bye when their number is odd.
    let future_vertices = everyone.len() + everyone.len() % 2;
    let look_ahead = remaining > 0 && vertices.max(future_vertices) <= LOOK_AHEAD_VERTICES;
    // Large sections: a rank window of candidates, proven optimal over the full graph by
    // pricing the other boards with the blossom duals (see "Large sections" in the module doc).
    let window = (n > limits.full_graph && !look_ahead).then_some(limits.window);
    let skip: Vec<bool> = partner.iter().map(|&p| p != usize::MAX).collect();
    let pricer = FullGraphPricer { model, skip: &skip };
    let pricer_ref: Option<&dyn Pricer> = (window.is_some() && limits.price).then_some(&pricer);
    let all = candidates(model, window);
    // Without forced boards the candidates are the boards: no copy (a full graph of 1000
    // players is half a million boards).
    let forced = (!fixed.is_empty()).then(|| restrict(all.clone()));
    let boards = forced.as_deref().unwrap_or(&all);
    let mut sol = solve_lex(vertices, boards, solver, pricer_ref)?;
    let (all, boards) = if sol.is_none() && window.is_some() {
        // The window holds no perfect matching at all (forced boards can cut it): full graph.
        let all = candidates(model, None);
        let boards = restrict(all.clone());
        sol = solve_lex(vertices, &boards, solver, None)?;
        (all, boards)
    } else {
        if let (Some(w), Some(s)) = (window, &sol) {
            let p = &s.pricing;
            notes.push(if p.unproven {
                format!(
                    "large section: candidates restricted to {w} ranks around each natural opponent; the solver gives no duals, so optimality over all boards is not proven"
                )
            } else if limits.price {
                format!(
                    "large section: candidates restricted to {w} ranks around each natural opponent; the other boards were priced with the blossom duals ({} pass(es), {} board(s) added): the pairing is optimal over all boards",
                    p.passes, p.added
                )
            } else {
                format!("large section: candidates restricted to {w} ranks around each natural opponent (not priced)")
            });
        }
        let boards = forced.unwrap_or_default();
        (all, boards)
    };
    let Some(sol) = sol else {
        return Err(err(
            "players",
            "no pairing exists for the available players",
        ));
    };
    let mut mate = sol.mate.clone();
    // Look-ahead: one layer per remaining round, at most vertices − 1 (see [`lookahead`]),
    // over this round's players and those who come back after it.
    let beyond = look_ahead && remaining > lookahead::max_depth(future_vertices);
    if beyond {
        notes.push(format!(
            "look-ahead: the remaining {remaining} round(s) outnumber the {} opponents a player can meet; rematches cannot be avoided, not applied",
            lookahead::max_depth(future_vertices)
        ));
    }
    if look_ahead && !beyond {
        // At most LOOK_AHEAD_VERTICES vertices: the graph is built only here.
        let future = lookahead::future_graph(&everyone);
        // This round's bye vertex is the look-ahead's bye vertex (after every player).
        let bye_vertex = everyone.len();
        let to_future = |v: usize| if v >= n { bye_vertex } else { v };
        let mut g = future.clone();
        for i in (0..vertices).filter(|&i| mate[i] > i) {
            let (a, b) = (to_future(i), to_future(mate[i]));
            if a < g.n && b < g.n {
                g.adj[a][b] = false;
                g.adj[b][a] = false;
            }
        }
        match feasible(&g, remaining, 200_000) {
            Feasible::Yes => {}
            Feasible::Unknown => notes.push("look-ahead: check inconclusive, not applied".into()),
            Feasible::No => {
                let mut layer0 = Vec::new();
                let boards = if fixed.is_empty() { &all } else { &boards };
                for b in boards.iter().filter(|b| b.tiers[REPEAT] == 0) {
                    // At most LOOK_AHEAD_VERTICES vertices: the weights are small.
                    let cost: i128 = (0..TIERS)
                        .map(|k| sol.weights[k] * b.tiers[k] as i128)
                        .sum();
                    let cost = i64::try_from(cost).unwrap_or(i64::MAX / 1024);
                    layer0.push(Edge {
                        u: to_future(b.u),
                        v: to_future(b.v),
                        cost,
                    });
                }
                let mut later = Vec::new();
                for u in 0..future.n {
                    for v in u + 1..future.n {
                        if future.adj[u][v] {
                            later.push(Edge { u, v, cost: 0 });
                        }
                    }
                }
                // Vertices: the players, the bye vertex, one more to make the count even;
                // who takes no part in a round sits out of its layer.
                let total = bye_vertex + 1 + (bye_vertex + 1) % 2;
                let pad: Vec<usize> = (bye_vertex + 1..total).collect();
                let mut now_out: Vec<usize> = (n..bye_vertex).chain(pad.clone()).collect();
                if model.bye.is_none() {
                    now_out.push(bye_vertex);
                }
                let mut later_out = pad;
                if future.n == bye_vertex {
                    later_out.push(bye_vertex);
                }
                let mut layers = vec![layer0];
                layers.extend(std::iter::repeat_n(later, remaining));
                let mut sitting_out = vec![now_out];
                sitting_out.extend(std::iter::repeat_n(later_out, remaining));
                let lp = LpSolver {
                    time_limit_secs: Some(20.0),
                };
                let problem = LayeredProblem {
                    vertices: total,
                    layers,
                };
                match lp.solve_layered_sitting_out(&problem, &sitting_out) {
                    Ok(Some(ms)) if !ms.is_empty() => {
                        let from_future = |v: usize| if v == bye_vertex { n } else { v };
                        mate = (0..vertices)
                            .map(|u| from_future(ms[0].mate[to_future(u)]))
                            .collect();
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
    Ok(Solved {
        mate,
        weights: sol.weights,
        level: sol.level,
        solves: sol.solves,
        notes,
    })
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
    pair_next_round_with(state, solver, Limits::default())
}

/// [`pair_next_round`] with the rank window used above `full_graph` players instead of
/// [`FULL_GRAPH_LIMIT`]: for the benchmark that measures where the window starts to pay.
#[doc(hidden)]
pub fn pair_next_round_windowed_above(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    full_graph: usize,
) -> Result<RoundPairing, SwissError> {
    let limits = Limits {
        full_graph,
        ..Limits::default()
    };
    pair_next_round_with(state, solver, limits)
}

/// [`pair_next_round`] with explicit [`Limits`].
pub(crate) fn pair_next_round_with(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    limits: Limits,
) -> Result<RoundPairing, SwissError> {
    let prep = prepare(state)?;
    let mut solved = solve_round(&prep, &state.settings, &[], solver, limits)?;
    let chosen = engine_boards(&prep.model, &solved.mate);
    solved
        .notes
        .extend(why::serious_colour_notes(&prep.model, &chosen, solver)?);
    let info = SolveInfo {
        weights: solved.weights,
        level: solved.level,
        solves: solved.solves,
    };
    Ok(assemble(prep, chosen, &info, solved.notes))
}

/// Pairs the next round optimally subject to boards the director forces: each `(white,
/// black)` of `fixed` (start numbers) is played with the colours as given, and every other
/// board of those players is ruled out. The other players are paired exactly as
/// [`pair_next_round`] would pair them around the forced boards (same penalty model, same
/// look-ahead); the explanation covers every board and has a note per forced board.
///
/// Errors name the field: `fixed[i].white` / `fixed[i].black` for an unknown, unavailable
/// (withdrawn, absent, requested bye) or repeated start number.
pub fn pair_with_fixed(
    state: &SwissState,
    fixed: &[(u32, u32)],
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    let prep = prepare(state)?;
    let pairs = board_vertices(state, &prep, "fixed", fixed)?;
    let solved = solve_round(&prep, &state.settings, &pairs, solver, Limits::default())?;
    let model = &prep.model;
    let mut white_of = vec![None; model.vertices()];
    for &(w, b) in &pairs {
        white_of[w] = Some(w);
        white_of[b] = Some(w);
    }
    let mut chosen = Vec::new();
    for u in 0..model.players.len() {
        let v = solved.mate[u];
        if v < u {
            continue;
        }
        match white_of[u] {
            // A forced board: colours as given.
            Some(w) => {
                let colour = if w == u { Colour::White } else { Colour::Black };
                chosen.push(Chosen::given(model, u, v, colour, Origin::Forced));
            }
            None => chosen.push(Chosen::engine(model, u, v)),
        }
    }
    let mut info = SolveInfo {
        weights: solved.weights,
        level: solved.level,
        solves: solved.solves,
    };
    info.weights = complete_weights(info.weights, &[tier_totals(&chosen)]);
    Ok(assemble(prep, chosen, &info, solved.notes))
}

/// Checks a director's list of boards (start numbers, White first) against the players to
/// pair and returns, per board, the vertices of White and Black. `what` names the list in
/// errors (`pairings`, `fixed`).
pub(crate) fn board_vertices(
    state: &SwissState,
    prep: &Prepared,
    what: &str,
    list: &[(u32, u32)],
) -> Result<Vec<(usize, usize)>, SwissError> {
    let index = sn_index(prep);
    let mut seen: HashSet<u32> = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, &(w, b)) in list.iter().enumerate() {
        let mut ends = [0usize; 2];
        for (k, (sn, side)) in [(w, "white"), (b, "black")].into_iter().enumerate() {
            let field = format!("{what}[{i}].{side}");
            ends[k] = player_vertex(state, &index, sn, &field)?;
            if k == 1 && w == b {
                return Err(err(field, format!("player {sn} cannot play himself")));
            }
            if !seen.insert(sn) {
                return Err(err(field, format!("player {sn} appears on two boards")));
            }
        }
        out.push((ends[0], ends[1]));
    }
    Ok(out)
}

/// Start number → vertex of the players to pair.
pub(crate) fn sn_index(prep: &Prepared) -> std::collections::HashMap<u32, usize> {
    prep.model
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.sn, i))
        .collect()
}

/// The vertex of start number `sn`, or an error on `field` saying why it cannot be paired.
pub(crate) fn player_vertex(
    state: &SwissState,
    index: &std::collections::HashMap<u32, usize>,
    sn: u32,
    field: &str,
) -> Result<usize, SwissError> {
    if let Some(&v) = index.get(&sn) {
        return Ok(v);
    }
    let why = match state.players.iter().find(|p| p.start_number == sn) {
        None => format!("unknown start number {sn}"),
        Some(p) if p.withdrawn => format!("player {sn} has withdrawn"),
        Some(_) if state.requested_byes.iter().any(|b| b.player == sn) => {
            format!("player {sn} has a requested bye this round")
        }
        Some(_) if state.absent.contains(&sn) => format!("player {sn} is absent this round"),
        Some(_) => format!("player {sn} cannot be paired this round"),
    };
    Err(err(field, why))
}

/// Where a board of the result comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Chosen by the solver; colours by the rules.
    Engine,
    /// The director's pairing under evaluation; colours as given.
    Director,
    /// Forced by the director in [`pair_with_fixed`]; colours as given.
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

/// How the pairing was solved (for the notes and the board costs).
pub(crate) struct SolveInfo {
    pub weights: [i128; TIERS],
    pub level: usize,
    pub solves: usize,
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

/// The one explain path: numbers the boards (pairs by the rank of the higher-ranked player,
/// the pairing bye last), sets colours (engine boards by the rules, round 1 alternating down
/// the boards; director's and forced boards as given), and writes the explanation and notes.
pub(crate) fn assemble(
    prep: Prepared,
    mut chosen: Vec<Chosen>,
    info: &SolveInfo,
    mut notes: Vec<String>,
) -> RoundPairing {
    let Prepared {
        round,
        first,
        mut byes,
        model,
        ..
    } = prep;
    let weights = &info.weights;
    let n = model.players.len();
    chosen.sort_by_key(|c| (c.board.v == n, c.board.u));
    let mut pairings = Vec::new();
    let mut explanation = Vec::new();
    let total = tier_totals(&chosen);
    let mut board_no = 0u32;
    for c in &chosen {
        let b = &c.board;
        // Shown as i64: a weighted cost beyond it (sections of thousands of players) is
        // shown as i64::MAX; the tiers beside it are exact.
        let cost = (0..TIERS)
            .map(|k| weights[k].saturating_mul(b.tiers[k] as i128))
            .fold(0i128, |a, x| a.saturating_add(x));
        let cost = i64::try_from(cost).unwrap_or(i64::MAX);
        let tiers = TierBreakdown {
            repeat: b.tiers[REPEAT].into(),
            preference: b.tiers[PREFERENCE].into(),
            score: b.tiers[SCORE].into(),
            serious_colour: i64::from(b.tiers[ABSOLUTE_COLOUR])
                + i64::from(b.tiers[SERIOUS_COLOUR]),
            colour: b.tiers[COLOUR].into(),
            rating: b.tiers[RATING].into(),
        };
        let change_code = if b.change == 0 {
            ""
        } else if i64::from(b.change) <= model.low_limit {
            "LO"
        } else if i64::from(b.change) <= model.high_limit {
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
                    kind: ByeKind::Pairing,
                },
            );
            if b.rematch {
                notes.push(match c.origin {
                    Origin::Engine => format!(
                        "player {} receives a second full-point bye: no other pairing exists",
                        x.sn
                    ),
                    _ => format!(
                        "player {} receives a second full-point bye (director's pairing)",
                        x.sn
                    ),
                });
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
                rating_change: i64::from(b.change),
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
        // Round 1 (or no colour history on either side): alternate down the boards.
        let by_board = if board_no % 2 == 1 {
            first
        } else {
            first.opposite()
        };
        let rule = if b.reason == Some(ColourReason::Board) {
            by_board
        } else {
            c.rule_colour.unwrap_or(first)
        };
        let cu = match c.origin {
            Origin::Engine => rule,
            Origin::Director | Origin::Forced => b.colour_u.unwrap_or(rule),
        };
        let (white, black, cw, cb) = if cu == Colour::White {
            (x.sn, y.sn, b.codes[0], b.codes[1])
        } else {
            (y.sn, x.sn, b.codes[1], b.codes[0])
        };
        if b.rematch {
            notes.push(match c.origin {
                Origin::Engine => format!(
                    "REMATCH: {white} and {black} meet again in round {round}: no other pairing exists"
                ),
                Origin::Director => format!(
                    "REMATCH: {white} and {black} meet again in round {round} (director's pairing)"
                ),
                Origin::Forced => format!(
                    "REMATCH: {white} and {black} meet again in round {round} (forced by the director)"
                ),
            });
        }
        if c.origin == Origin::Forced {
            notes.push(format!(
                "board {board_no}: {white}-{black} forced by the director, colours as given"
            ));
        }
        let against_rules = c.origin != Origin::Engine && cu != rule;
        if against_rules {
            let rw = if rule == Colour::White { x.sn } else { y.sn };
            notes.push(format!(
                "board {board_no}: colours as given, against the colour rules (they give White to {rw})"
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
            colour_rule: if against_rules { None } else { b.reason },
            rating_change: i64::from(b.change),
            change_code,
            rematch: b.rematch,
            same_team: b.team,
            prohibited: b.prohibited,
            score_drop: b.drop as f64 / 2.0,
        }));
    }
    if info.solves > 1 {
        notes.push(format!("penalty tiers solved in {} stages", info.solves));
    }
    if info.level >= 1 && total[PREFERENCE] > 0 {
        notes.push("a pairing preference (team code or prohibited pair) had to be broken".into());
    }
    let serious = total[ABSOLUTE_COLOUR] + total[SERIOUS_COLOUR];
    notes.push(format!(
        "totals: repeat {}, preference {}, score {}, serious colour {serious}, colour {}, rating {}; weights {:?}",
        total[REPEAT], total[PREFERENCE], total[SCORE], total[COLOUR], total[RATING], weights
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
