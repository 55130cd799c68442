//! Checking a finished event: every round re-paired from the history before it, compared
//! with the pairing that was published (like bbpPairings' `-c`).

use super::{pair_dutch_accelerated, Acceleration};
use crate::engine::chess::swiss::{
    BoardPairing, Colour, RequestedBye, RoundPairing, RoundResult, SwissError, SwissState,
};
use crate::engine::matching::MatchingSolver;
use std::collections::BTreeSet;

/// One board as compared: (white, black), or (player, 0) for the pairing bye. A forfeited
/// game recorded without colours compares as (lower, higher start number) with `colourless`.
type Seat = (u32, u32);

/// The verdict on one round.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundCheck {
    /// Round number.
    pub round: u32,
    /// Boards (white, black) and the bye (player, 0) published but not ours.
    pub published_only: Vec<(u32, u32)>,
    /// Ours but not published.
    pub ours_only: Vec<(u32, u32)>,
    /// Our engine could not pair the round: why.
    pub error: Option<String>,
}

impl RoundCheck {
    /// Same pairings, colours and bye.
    pub fn agrees(&self) -> bool {
        self.error.is_none() && self.published_only.is_empty() && self.ours_only.is_empty()
    }
}

/// The state before round `round` (1-based): histories cut, the round's requested byes and
/// absences taken from its records (what did not take part in its pairing).
pub fn state_before(state: &SwissState, round: u32) -> SwissState {
    let r = round as usize - 1;
    let mut s = state.clone();
    // What the whole file says of the first colour and the number of rounds stays true.
    s.settings.first_colour = Some(super::initial_colour(state));
    if s.settings.total_rounds == 0 {
        s.settings.total_rounds = state.rounds_played();
    }
    s.round = None;
    s.requested_byes.clear();
    s.absent.clear();
    for p in &mut s.players {
        p.withdrawn = false;
        let rec = p.history.get(r).cloned();
        p.history.truncate(r);
        match rec.map(|x| x.result) {
            Some(RoundResult::FullBye) => s.requested_byes.push(RequestedBye {
                player: p.start_number,
                points: 1.0,
            }),
            Some(RoundResult::HalfBye) => s.requested_byes.push(RequestedBye {
                player: p.start_number,
                points: 0.5,
            }),
            Some(RoundResult::ZeroBye) | None => s.absent.push(p.start_number),
            _ => {}
        }
    }
    // Players with a shorter history were absent in the rounds they miss.
    let before = r;
    for p in &mut s.players {
        while p.history.len() < before {
            p.history.push(crate::engine::chess::swiss::RoundRecord {
                opponent: None,
                colour: None,
                result: RoundResult::ZeroBye,
            });
        }
    }
    s
}

/// The published boards of round `round` (1-based).
fn published(state: &SwissState, round: u32) -> BTreeSet<Seat> {
    let r = round as usize - 1;
    let mut out = BTreeSet::new();
    for p in &state.players {
        let Some(rec) = p.history.get(r) else {
            continue;
        };
        if rec.result == RoundResult::PairingBye {
            out.insert((p.start_number, 0));
        }
        if let Some(o) = rec.opponent {
            match rec.colour {
                Some(Colour::White) => {
                    out.insert((p.start_number, o));
                }
                Some(Colour::Black) => {}
                None if p.start_number < o => {
                    out.insert((p.start_number, o));
                }
                None => {}
            }
        }
    }
    out
}

fn ours(
    boards: &[BoardPairing],
    bye: Option<u32>,
    colourless: &BTreeSet<(u32, u32)>,
) -> BTreeSet<Seat> {
    let mut out: BTreeSet<Seat> = boards
        .iter()
        .map(|b| {
            let key = (b.white.min(b.black), b.white.max(b.black));
            if colourless.contains(&key) {
                key
            } else {
                (b.white, b.black)
            }
        })
        .collect();
    if let Some(b) = bye {
        out.insert((b, 0));
    }
    out
}

/// Re-pairs every round of `state` (a finished event: histories of equal length) and
/// compares each with its published pairing.
pub fn check_event(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<Vec<RoundCheck>, SwissError> {
    check_event_with(state, &|before| {
        pair_dutch_accelerated(before, solver, accel)
    })
}

/// [`check_event`] with any pairing of a round from the state before it (another system's).
pub fn check_event_with(
    state: &SwissState,
    pair: &dyn Fn(&SwissState) -> Result<RoundPairing, SwissError>,
) -> Result<Vec<RoundCheck>, SwissError> {
    state.validate_history()?;
    let rounds = state.rounds_played();
    let mut checks = Vec::new();
    for round in 1..=rounds {
        let before = state_before(state, round);
        let published = published(state, round);
        let colourless: BTreeSet<(u32, u32)> = state
            .players
            .iter()
            .filter_map(|p| {
                let rec = p.history.get(round as usize - 1)?;
                let o = rec.opponent?;
                (rec.colour.is_none()).then(|| (p.start_number.min(o), p.start_number.max(o)))
            })
            .collect();
        let (mine, error) = match pair(&before) {
            Ok(p) => {
                let bye = p
                    .byes
                    .iter()
                    .find(|b| b.kind == crate::engine::chess::swiss::ByeKind::Pairing)
                    .map(|b| b.player);
                (ours(&p.pairings, bye, &colourless), None)
            }
            Err(e) => (BTreeSet::new(), Some(e.to_string())),
        };
        checks.push(RoundCheck {
            round,
            published_only: published.difference(&mine).copied().collect(),
            ours_only: mine.difference(&published).copied().collect(),
            error,
        });
    }
    Ok(checks)
}
