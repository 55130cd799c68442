//! A paired round as every pairing system answers it: the boards, the byes and why, the
//! explanation of each board by tier; and what every system decides before pairing (the byes
//! already given: requested, absent, withdrawn) and how it numbers the players it pairs.

use super::colour::{ColourCode, ColourReason};
use super::state::SwissState;
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
