//! Scoring a pairing the director chose (a swap, a hand-made round) with the same penalty
//! model as [`super::pair_next_round`], and comparing it with the engine's optimum.

use super::boards::{complete_weights, engine_boards, tier_name, tier_totals, Chosen, Origin};
use super::pair::{
    assemble, board_vertices, player_vertex, prepare, sn_index, solve_round, Limits, SolveInfo,
};
use super::penalty::TIERS;
use crate::engine::chess::swiss::round::RoundPairing;
use crate::engine::chess::swiss::state::{err, Colour, SwissError, SwissState};
use crate::engine::matching::BlossomSolver;

/// Scores a director's pairing of the round to pair.
///
/// `boards` are `(white, black)` start numbers; the colours are kept as given, and a board
/// whose colours go against the rules shows it in its colour codes (EQ/AL/33) and in a note.
/// `byes` lists the player given the pairing bye (at most one, and only when the number of
/// players to pair is odd). Every player to pair (not withdrawn, absent or on a requested bye)
/// must appear exactly once.
///
/// The result has the shape of [`super::pair_next_round`]'s: boards re-numbered in the usual
/// board order, requested byes and absences in `byes`, and the explanation (tiers, colour
/// codes, rematch flags per board; the totals; a note comparing the tier totals with the
/// engine's optimum, e.g. `director's pairing: score tier 8 vs optimum 4`).
///
/// Errors name the field: `pairings[i].white` / `pairings[i].black` (unknown, unavailable or
/// repeated start number), `byes[k]`, or `pairings` for a player left out.
pub fn evaluate_pairing(
    state: &SwissState,
    boards: &[(u32, u32)],
    byes: &[u32],
) -> Result<RoundPairing, SwissError> {
    let prep = prepare(state)?;
    let pairs = board_vertices(state, &prep, "pairings", boards)?;
    let model = &prep.model;
    let n = model.players.len();
    let mut used = vec![false; n];
    for &(w, b) in &pairs {
        used[w] = true;
        used[b] = true;
    }
    let index = sn_index(&prep);
    let mut bye_player = None;
    for (k, &sn) in byes.iter().enumerate() {
        let field = format!("byes[{k}]");
        let v = player_vertex(state, &index, sn, &field)?;
        if used[v] {
            return Err(err(field, format!("player {sn} is also paired on a board")));
        }
        if model.bye.is_none() {
            return Err(err(
                field,
                format!("{n} players to pair: an even number gets no pairing bye"),
            ));
        }
        if bye_player.is_some() {
            return Err(err(field, "at most one pairing bye"));
        }
        used[v] = true;
        bye_player = Some(v);
    }
    let missing: Vec<u32> = (0..n)
        .filter(|&v| !used[v])
        .map(|v| model.players[v].sn)
        .collect();
    if let Some(&sn) = missing.first() {
        if model.bye.is_some() && bye_player.is_none() && missing.len() == 1 {
            return Err(err(
                "byes",
                format!("{n} players to pair: player {sn} needs the pairing bye"),
            ));
        }
        return Err(err(
            "pairings",
            format!("player {sn} is neither paired nor given the pairing bye"),
        ));
    }

    // The engine's optimum, for the comparison and the weights of the costs shown.
    let solved = solve_round(
        &prep,
        &state.settings,
        &[],
        &BlossomSolver,
        Limits::default(),
    )?;
    let optimum = engine_boards(model, &solved.mate);
    let opt = tier_totals(&optimum);

    let mut chosen: Vec<Chosen> = pairs
        .iter()
        .map(|&(w, b)| {
            let (u, v) = (w.min(b), w.max(b));
            let colour = if u == w { Colour::White } else { Colour::Black };
            Chosen::given(model, u, v, colour, Origin::Director)
        })
        .collect();
    if let (Some(u), Some(bv)) = (bye_player, model.bye) {
        chosen.push(Chosen::given(model, u, bv, Colour::White, Origin::Director));
    }
    let own = tier_totals(&chosen);
    let same_boards = {
        let mut a: Vec<(usize, usize)> = chosen.iter().map(|c| (c.board.u, c.board.v)).collect();
        let mut b: Vec<(usize, usize)> = optimum.iter().map(|c| (c.board.u, c.board.v)).collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    };
    let info = SolveInfo {
        weights: complete_weights(solved.weights, &[own, opt]),
        level: 0,
        solves: 0,
    };
    let mut comparison = match (0..TIERS).find(|&k| own[k] != opt[k]) {
        None if same_boards => {
            "director's pairing: the same boards as the engine's optimum".to_string()
        }
        None => "director's pairing: the same tier totals as the engine's optimum".to_string(),
        Some(k) if own[k] > opt[k] => format!(
            "director's pairing: {} tier {} vs optimum {}",
            tier_name(k),
            own[k],
            opt[k]
        ),
        Some(k) => format!(
            "director's pairing: {} tier {} vs {} in the engine's pairing ({})",
            tier_name(k),
            own[k],
            opt[k],
            if solved.notes.is_empty() {
                "the engine's pairing is optimal over its candidate boards".to_string()
            } else {
                solved.notes.join("; ")
            }
        ),
    };
    // Every tier by its name (the style leaves some at 0 always).
    let totals: Vec<String> = (0..TIERS)
        .map(|k| format!("{} {}", tier_name(k), opt[k]))
        .collect();
    comparison.push_str(&format!("; optimum totals: {}", totals.join(", ")));
    let mut result = assemble(prep, chosen, &info, Vec::new());
    result
        .explanation
        .push(crate::engine::chess::swiss::round::ExplanationEntry::Note {
            message: comparison,
        });
    Ok(result)
}
