//! Why a serious colour problem (`33`, `IMB`) was not avoided: the note the explanation gives.
//!
//! For every player the chosen pairing gives a serious colour problem, the round is solved
//! again without the boards that would give him one (his colour on each board is the one the
//! rules assign). The first tier, highest first, on which that pairing is worse than the
//! chosen one is the reason the note names: a rematch, a broken preference, a larger score
//! difference, more serious colour problems for others, and so on. When no pairing exists
//! without the problem, the note says so. The extra solves are made only for sections of at
//! most [`EXPLAINED_PLAYERS`] players and at most [`EXPLAINED_PROBLEMS`] problems (a larger
//! round gets one note listing the players and the tiers that rank above the problem).

use super::boards::{candidates, sum_tiers, tier_name, tier_totals, Chosen};
use super::penalty::{Board, Model, ABSOLUTE_COLOUR, TIERS};
use super::solve::solve_lex;
use crate::engine::chess::swiss::colour::{ColourCode, ColourEffect};
use crate::engine::chess::swiss::state::{Colour, SwissError};
use crate::engine::matching::MatchingSolver;

/// Sections up to this many players get one re-solve per serious problem.
pub(crate) const EXPLAINED_PLAYERS: usize = 200;
/// At most this many problems are explained one by one.
pub(crate) const EXPLAINED_PROBLEMS: usize = 8;

/// One serious colour problem of the chosen pairing: vertex, colour, effect.
struct Problem {
    vertex: usize,
    colour: Colour,
    effect: ColourEffect,
}

fn problems(model: &Model, chosen: &[Chosen]) -> Vec<Problem> {
    let mut out = Vec::new();
    for c in chosen {
        let b = &c.board;
        let Some(cu) = b.colour_u else { continue };
        if Some(b.v) == model.bye {
            continue;
        }
        for (vertex, colour) in [(b.u, cu), (b.v, cu.opposite())] {
            let effect = ColourEffect::of(&model.players[vertex], colour);
            if effect.serious() > 0 {
                out.push(Problem {
                    vertex,
                    colour,
                    effect,
                });
            }
        }
    }
    out
}

/// The colour `vertex` gets on board `b` by the rules (none for the bye).
fn colour_of(b: &Board, vertex: usize) -> Option<Colour> {
    let cu = b.colour_u?;
    if b.u == vertex {
        Some(cu)
    } else {
        Some(cu.opposite())
    }
}

fn describe(model: &Model, p: &Problem) -> String {
    let sn = model.players[p.vertex].sn;
    let colour = match p.colour {
        Colour::White => "White",
        Colour::Black => "Black",
    };
    let code = match p.effect.code() {
        ColourCode::Imb => "IMB",
        _ => "33",
    };
    let mut what = Vec::new();
    if p.effect.run >= 3 {
        what.push(format!("{} times in a row", p.effect.run));
    }
    if p.effect.worsens && p.effect.imbalance.abs() > 2 {
        what.push(format!("W−B {:+}", p.effect.imbalance));
    }
    format!("player {sn} gets {colour} ({code}: {})", what.join(", "))
}

/// The notes for the serious colour problems of an engine pairing (see the module doc).
pub(crate) fn serious_colour_notes(
    model: &Model,
    chosen: &[Chosen],
    solver: &dyn MatchingSolver,
) -> Result<Vec<String>, SwissError> {
    let found = problems(model, chosen);
    if found.is_empty() {
        return Ok(Vec::new());
    }
    // The tiers that rank above the serious colour tier in this style.
    let above = if model.fide_style {
        ABSOLUTE_COLOUR
    } else {
        super::penalty::SERIOUS_COLOUR
    };
    if model.players.len() > EXPLAINED_PLAYERS || found.len() > EXPLAINED_PROBLEMS {
        let who: Vec<String> = found.iter().map(|p| describe(model, p)).collect();
        let tiers: Vec<&str> = (0..above).map(tier_name).collect();
        return Ok(vec![format!(
            "serious colour problems not avoidable without a worse {}: {}",
            tiers.join(", "),
            who.join("; ")
        )]);
    }
    let all = candidates(model, None);
    let own = tier_totals(chosen);
    let mut notes = Vec::new();
    for p in &found {
        let boards: Vec<Board> = all
            .iter()
            .filter(|b| {
                let touches = b.u == p.vertex || b.v == p.vertex;
                !touches
                    || colour_of(b, p.vertex).is_none_or(|c| {
                        ColourEffect::of(&model.players[p.vertex], c).serious() == 0
                    })
            })
            .cloned()
            .collect();
        let what = describe(model, p);
        let Some(alt) = solve_lex(model.vertices(), &boards, solver, None)? else {
            notes.push(format!("{what}: no pairing exists without it"));
            continue;
        };
        let t = sum_tiers(boards.iter().filter(|b| alt.mate[b.u] == b.v));
        let reason = match (0..TIERS).find(|&k| t[k] != own[k]) {
            Some(k) if t[k] > own[k] => format!(
                "every pairing without it is worse on the {} tier ({} instead of {})",
                tier_name(k),
                t[k],
                own[k]
            ),
            Some(_) => "the look-ahead chose it to keep the event completable".to_string(),
            None => "a pairing without it costs the same on every tier (the fixed order decided)"
                .to_string(),
        };
        notes.push(format!("{what}: {reason}"));
    }
    Ok(notes)
}
