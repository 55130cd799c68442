//! The director's forced boards and a director's own pairing, for the systems that pair
//! around forced boards by taking their players out of the round and pairing the rest by
//! their rules (Burstein, Dubov): one implementation of [`PairingRules`] for each of them,
//! given the system's name and its pairing around fixed boards.

use std::collections::HashSet;

use super::accel::Acceleration;
use super::round::{decided_byes, BoardPairing, ByeAward, ByeKind, ExplanationEntry, RoundPairing};
use super::rules::PairingRules;
use super::state::{SwissError, SwissState};
use crate::engine::matching::MatchingSolver;

/// A system's pairing of the round around fixed boards (`(white, black)`, colours kept).
pub type PairAround =
    fn(&SwissState, &dyn MatchingSolver, &[(u32, u32)]) -> Result<RoundPairing, SwissError>;

/// A system that pairs around forced boards by leaving their players out of the round.
pub struct AroundRules {
    /// The system's name as a director reads it (`Dubov`).
    pub name: &'static str,
    pub pair_around: PairAround,
}

/// The round as these systems answer it: the boards (`(white, black)`) numbered from 1 in the
/// order given, the pairing bye (1 point) first among the byes, and one note.
pub fn round_pairing(
    round: u32,
    boards: impl IntoIterator<Item = (u32, u32)>,
    mut byes: Vec<ByeAward>,
    pairing_bye: Option<u32>,
    note: String,
) -> RoundPairing {
    if let Some(player) = pairing_bye {
        byes.insert(
            0,
            ByeAward {
                player,
                points: 1.0,
                kind: ByeKind::Pairing,
            },
        );
    }
    RoundPairing {
        round,
        pairings: boards
            .into_iter()
            .enumerate()
            .map(|(k, (white, black))| BoardPairing {
                board: k as u32 + 1,
                white,
                black,
            })
            .collect(),
        byes,
        explanation: vec![ExplanationEntry::Note { message: note }],
    }
}

/// ` around N forced boards` for a note, or nothing.
pub fn forced_note(fixed: &[(u32, u32)]) -> String {
    if fixed.is_empty() {
        String::new()
    } else {
        format!(" around {} forced boards", fixed.len())
    }
}

fn err(field: &str, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.to_string(),
        message: message.into(),
    }
}

/// The players of the round: present, not withdrawn, no decided bye.
fn to_pair(state: &SwissState) -> HashSet<u32> {
    let (_, out) = decided_byes(state);
    state
        .players
        .iter()
        .filter(|p| !p.withdrawn && !out.contains(&p.start_number))
        .map(|p| p.start_number)
        .collect()
}

/// Each board's players are to be paired this round, none twice.
fn check_boards(state: &SwissState, boards: &[(u32, u32)], field: &str) -> Result<(), SwissError> {
    let present = to_pair(state);
    let mut seen = HashSet::new();
    for (i, &(w, b)) in boards.iter().enumerate() {
        for (side, sn) in [("white", w), ("black", b)] {
            let f = format!("{field}[{i}].{side}");
            if !present.contains(&sn) {
                return Err(err(
                    &f,
                    format!("player {sn} is not one to pair this round"),
                ));
            }
            if !seen.insert(sn) {
                return Err(err(&f, format!("player {sn} is on two boards")));
            }
        }
    }
    Ok(())
}

impl PairingRules for AroundRules {
    fn pair(
        &self,
        state: &SwissState,
        solver: &dyn MatchingSolver,
        _accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        (self.pair_around)(state, solver, &[])
    }

    fn pair_with_fixed(
        &self,
        state: &SwissState,
        fixed: &[(u32, u32)],
        solver: &dyn MatchingSolver,
        _accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        state.validate()?;
        check_boards(state, fixed, "fixed")?;
        (self.pair_around)(state, solver, fixed)
    }

    fn evaluate(
        &self,
        state: &SwissState,
        boards: &[(u32, u32)],
        byes: &[u32],
        solver: &dyn MatchingSolver,
        _accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        state.validate()?;
        check_boards(state, boards, "pairings")?;
        let present = to_pair(state);
        let on_board: HashSet<u32> = boards.iter().flat_map(|&(w, b)| [w, b]).collect();
        if byes.len() > 1 {
            return Err(err("byes[1]", "at most one pairing bye"));
        }
        if let Some(sn) = present
            .iter()
            .copied()
            .filter(|sn| !on_board.contains(sn) && !byes.contains(sn))
            .min()
        {
            return Err(err(
                "pairings",
                format!("player {sn} is neither on a board nor given the bye"),
            ));
        }
        let mut pairing = (self.pair_around)(state, solver, boards)?;
        let mine: HashSet<(u32, u32)> = boards.iter().copied().collect();
        let note = match (self.pair_around)(state, solver, &[]) {
            Ok(best) => {
                let theirs: HashSet<(u32, u32)> =
                    best.pairings.iter().map(|b| (b.white, b.black)).collect();
                let best_bye = best
                    .byes
                    .iter()
                    .find(|b| b.kind == ByeKind::Pairing)
                    .map(|b| b.player);
                if theirs == mine && best_bye == byes.first().copied() {
                    format!(
                        "the {} pairing of the round (boards, colours and bye)",
                        self.name
                    )
                } else {
                    let differ = mine.difference(&theirs).count();
                    format!(
                        "differs from the {} pairing of the round on {differ} boards",
                        self.name
                    )
                }
            }
            Err(e) => format!("the {} system finds no pairing: {}", self.name, e.message),
        };
        pairing
            .explanation
            .push(ExplanationEntry::Note { message: note });
        Ok(pairing)
    }
}
