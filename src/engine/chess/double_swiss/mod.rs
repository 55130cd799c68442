//! The FIDE Double-Swiss Pairing System (C.04.5, applied from 1 February 2026): every pairing
//! is a match of two games between two players, with alternating colours.
//!
//! # One procedure with the team Swiss system
//! C.04.5 pairs a round exactly as C.04.6 pairs teams: the pairing-allocated bye (3.4: [C2],
//! the lowest score, the most matches, the largest TPN, the first whose absence leaves a
//! legal pairing), then from the top scoregroup down the set of upfloaters (3.5: [C4] fewest,
//! [C5] highest scores, [C6] the next scoregroup pairable, [C7] fewest who floated last
//! round, then the first set in TPN order) and the bracket's pairing (3.6: [C8] fewest
//! upfloaters' opponents who floated last round, then the least identifier). The rounds are
//! paired by [`crate::engine::chess::team_swiss`]'s matcher with [`MatchText::DoubleSwiss`]; its
//! module doc maps each criterion to its tiers. What differs from C.04.6:
//! * no colour preferences (C.04.6's [C8] and [C9] have no counterpart);
//! * [C7] and [C8] lapse in the last round only (C.04.6: the last two);
//! * colours by Article 4 of C.04.5 (below).
//!
//! # The facts of a player (1.1-1.6)
//! A player is held as a [`TeamFacts`]: TPN; score in half-points (a match gives 0 to 4);
//! the colour of each match *had* (1.6: at least one of its games actually played; the
//! colour of the first game); the opponents of the matches regularly played; whether it had
//! the pairing-allocated bye or won a match by forfeit ([C2]); whether it floated in the
//! previous round (1.5: played an opponent with a different score). [`event::facts`] reads
//! them from the matches as played, by the Preface: a match ends by forfeit only when a
//! player forfeits both games (then the two may meet again); otherwise it counts as played
//! and any single forfeited game as played for standings.
//!
//! # Colours (Article 4)
//! The higher-ranked player (HRP: the higher score, then the smaller TPN) of each pair: both
//! yet to play a match: the initial colour (drawn by lot) when the HRP's TPN is odd, the other
//! when even (4.3.1); else White to the one with fewer Whites (4.3.2); else alternate to the
//! most recent match where one had White and the other Black, the histories aligned at their
//! last played match (4.3.3, General Handling Rules 3.4); else the HRP alternates from its
//! last played match (4.3.4), else its opponent (4.3.5). The player given White plays the
//! first game with White and the second with Black (4.4).
//!
//! # Checked
//! `tests.rs` plays generated events (8 to 200 players, single forfeited games, forfeited
//! matches, absences) and compares every round with the text's own procedure by enumeration
//! for up to 12 players, and checks every round of any size for legality, the bye, the
//! fewest upfloaters and the colours of Article 4, read again apart from the engine; one
//! hand-made case per rule: `cargo test --locked --lib engine::chess::double_swiss`.

pub mod event;

#[cfg(test)]
mod tests;

use crate::engine::chess::swiss::Colour;
use crate::engine::chess::team_swiss::{
    pair_match_round, ColourPreferences, MatchText, TeamFacts, TeamRoundPairing, TeamSwissError,
    TeamSwissSettings,
};

/// Half-points of the pairing-allocated bye by default (1.4): a match with one game won and
/// one drawn.
pub const DEFAULT_BYE_HALF_POINTS: u32 = 3;

/// What the competition fixes for the pairing of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DoubleSwissSettings {
    /// The colour drawn by lot before round 1 (4.1).
    pub initial_colour: Colour,
    /// The round being paired (1-based).
    pub round: u32,
    /// The number of rounds of the event (at least `round`).
    pub rounds: u32,
}

impl DoubleSwissSettings {
    /// The same settings as the shared matcher reads them (no preferences, no secondary
    /// score).
    pub fn matcher(&self) -> TeamSwissSettings {
        TeamSwissSettings {
            preferences: ColourPreferences::None,
            secondary_for_colours: false,
            initial_colour: self.initial_colour,
            round: self.round,
            rounds: self.rounds.max(self.round),
        }
    }
}

/// Pairs a round of a Double-Swiss event by C.04.5. `players` hold TPNs 1 to n; each match
/// comes back as the player with White in the first game and the other.
pub fn pair_double_swiss_round(
    players: &[TeamFacts],
    settings: &DoubleSwissSettings,
) -> Result<TeamRoundPairing, TeamSwissError> {
    pair_match_round(players, &settings.matcher(), MatchText::DoubleSwiss)
}
