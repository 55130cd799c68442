//! Pairing one round: build the model, solve, look ahead, explain.

#![allow(clippy::needless_range_loop)]

use super::boards::{candidates, complete_weights, engine_boards, tier_totals, Chosen, Origin};
use super::lookahead::{self, feasible, Feasible};
use super::penalty::{
    build_model, Board, Model, ABSOLUTE_COLOUR, COLOUR, PREFERENCE, RATING, REPEAT, SCORE,
    SERIOUS_COLOUR, TIERS,
};
use super::price::FullGraphPricer;
use super::solve::{solve_lex, Pricer};
use super::why;
use crate::engine::chess::swiss::colour::{round_one_colour, ColourCode, ColourReason};
use crate::engine::chess::swiss::round::{
    decided_byes, pairing_positions, BoardExplanation, BoardPairing, ByeAward, ByeKind,
    ExplanationEntry, RoundPairing, TierBreakdown,
};
use crate::engine::chess::swiss::state::{
    err, view, Colour, PlayerView, SwissError, SwissSettings, SwissState,
};
use crate::engine::matching::{Edge, LayeredProblem, LpSolver, MatchingSolver};
use std::collections::HashSet;

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
/// The most boards one pricing pass adds per player: his most negative ones (see "Large
/// sections" in [`super`]).
pub(crate) const PRICE_PER_PLAYER: usize = 8;

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
    /// The most boards a pricing pass adds per player (0 = every negative board).
    pub price_per_player: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            full_graph: FULL_GRAPH_LIMIT,
            window: WINDOW,
            price: true,
            price_per_player: PRICE_PER_PLAYER,
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
    let pricer = FullGraphPricer {
        model,
        skip: &skip,
        per_player: limits.price_per_player,
    };
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
/// [`FULL_GRAPH_LIMIT`] and at most `price_per_player` boards added per player and pricing
/// pass instead of [`PRICE_PER_PLAYER`] (0: every negative board), when given: for the
/// benchmark that measures where the window starts to pay and what the cap saves.
#[doc(hidden)]
pub fn pair_next_round_tuned(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    full_graph: Option<usize>,
    price_per_player: Option<usize>,
) -> Result<RoundPairing, SwissError> {
    let default = Limits::default();
    let limits = Limits {
        full_graph: full_graph.unwrap_or(default.full_graph),
        price_per_player: price_per_player.unwrap_or(default.price_per_player),
        ..default
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

/// How the pairing was solved (for the notes and the board costs).
pub(crate) struct SolveInfo {
    pub weights: [i128; TIERS],
    pub level: usize,
    pub solves: usize,
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
