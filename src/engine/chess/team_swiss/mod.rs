//! The FIDE Swiss Team Pairing System (C.04.6, the text in force from 1 February 2026) on the
//! exact matching engine of the Dutch system
//! ([`crate::engine::chess::swiss::dutch::lex`]).
//!
//! # The facts of a team (1.1-1.7)
//! * *TPN*, its pairing number (1 to the number of teams; the competition's rules set it).
//! * *Score*: the primary score (match points by default, or game points; 1.2), and the
//!   secondary score (the other one), used for colours unless the rules say not to (4.2.2).
//!   Both are given in half-points so that comparisons are exact.
//! * Colours: a team *had* a colour in a match actually played, the colour of its first
//!   board (1.6.1); matches not played leave no colour and are skipped when colour sequences
//!   are compared (General Handling Rules 3.4). *CD*: matches with White minus matches with
//!   Black.
//! * Colour preference (1.7), by the competition's choice:
//!   - Type A (the default): White when CD < −1, or CD ∈ {0, −1} and Black in the last two
//!     played matches; Black symmetrically; else none.
//!   - Type B: *strong* as Type A's; *mild* White when CD = −1, or CD = 0, not the last
//!     round and Black in the last played match; Black symmetrically; none before the first
//!     match. (A team with CD 0 and the same colour in its last two matches has the strong
//!     preference also in the last round: the strong rule is read first.)
//!   - None: no team has a preference.
//! * *Floater* (1.5): a team that played an opponent with a different score; the engine is
//!   told which teams floated in the previous round (a pairing-allocated bye has no opponent
//!   and is no float).
//!
//! # Absolute criteria and completion (2.1-2.2)
//! [C1] two teams meet once (a match not played does not count, General Handling Rules 3.5);
//! [C2] the pairing-allocated bye (PAB) only to a team that has had no PAB, no forfeit win
//! and no full-point bye. [C3] is built in: every bracket's choice is one matching over
//! **every** team still unpaired, so the rest can always be completed.
//!
//! # The bye (3.4)
//! Among the eligible teams, by lowest score, then most matches played, then largest TPN: the
//! first whose absence leaves the others pairable (one plain matching per candidate tried).
//!
//! # The upfloaters of the top scoregroup (3.5): tiers, highest first
//! The *residents* are the teams of the highest score still unpaired. One lexicographic
//! matching over every unpaired team: a resident meets a resident or a lower team, which is
//! then an upfloater (no two upfloaters meet in a bracket of the fewest upfloaters: they
//! could both stay below). Tiers over the pairs:
//! 1. [C4] resident–lower: 1 (the number of upfloaters).
//! 2. [C5] one tier per lower score, lowest first: resident–lower of that score: 1. With the
//!    number fixed, the least count of the lowest scores first is the greatest list of
//!    upfloaters' scores in ascending order.
//! 3. [C6] when a lower scoregroup exists, the next one's teams meeting a team below it: 1
//!    (the upfloaters its own bracket will need; 0 when all of it upfloats).
//! 4. [C7] (not in the last two rounds) resident–lower where the lower team floated in the
//!    previous round: 1.
//! 5. The order of 3.5.3-3.5.4: one tier per lower team in the order (score descending, TPN
//!    ascending): the team *not* upfloated (its pair with another lower team): 1. Between
//!    sets of the same size and scores the first set in that order holds the first team
//!    where they differ, so the least of these tiers in turn gives the first set.
//!
//! # The pairing of the bracket (3.6): tiers, highest first
//! Over the bracket's legal pairs (an upfloater meets a resident):
//! 1. [C8] both teams with the same colour preference: 1 (one of them is not granted it;
//!    otherwise Article 4 grants every preference of the pair).
//! 2. [C9] (Type B) both with the same strong preference: 1.
//! 3. [C10] (not in the last two rounds) resident–upfloater where the resident floated in
//!    the previous round: 1.
//! 4. The identifier of 3.6.2: one tier per team by TPN ascending, the team a *bottom*
//!    member (its pair with a smaller TPN): 1 — the least sorted list of top members; then
//!    one tier per team by TPN ascending, the position of its bottom member when it is a
//!    top member — the least bottom members in the order of their tops.
//!
//! Each tier is a count or a position, and the lexicographic matcher finds the exact
//! lexicographic optimum over all of them (see its module doc); a star tier (every valued
//! pair at one team, as in the order tiers) is settled with at most one solve.
//!
//! # Colours (Article 4)
//! The *first-team* of a pair: the higher score, then the higher secondary score (unless
//! the rules say not to use it), then the smaller TPN. In order: both yet to play — the
//! first-team gets the initial colour (drawn by lot) when its TPN is odd, the other colour
//! when even; one preference — granted; opposite preferences — granted; (Type B) one strong
//! preference — granted; White to the lower CD; alternate to the most recent played match
//! (sequences aligned from the last played) where one had White and the other Black; the
//! first-team's preference; the first-team's colour alternated from its last played match;
//! the other team's alternated.
//!
//! # Checked
//! `check.rs` holds a second reading of the text, by enumeration (every set of upfloaters,
//! every pairing of a bracket) for events of up to 12 teams, and the properties any size
//! must show (legality, the bye, the fewest upfloaters and unfulfilled preferences by plain
//! matchings, the colours); `tests.rs` runs both on every round of generated events and
//! holds one hand-made case per rule:
//! `cargo test --locked --lib engine::chess::team_swiss`.

mod colour;
pub mod event;
mod pair;
pub mod tiebreak;
pub mod trf;

#[cfg(test)]
pub(crate) mod check;
#[cfg(test)]
mod tests;

pub use colour::{allocate, allocate_double_swiss, preference, Preference};

use crate::engine::chess::swiss::Colour;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Which colour preferences the competition uses (1.7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColourPreferences {
    /// Type A: simple preferences (the default).
    #[default]
    TypeA,
    /// Type B: strong and mild preferences.
    TypeB,
    /// No colour preferences.
    None,
}

/// What the competition's rules fix for the pairing of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamSwissSettings {
    pub preferences: ColourPreferences,
    /// The secondary score decides the first-team before the TPN (4.2.2).
    pub secondary_for_colours: bool,
    /// The colour drawn by lot before round 1 (4.1).
    pub initial_colour: Colour,
    /// The round being paired (1-based).
    pub round: u32,
    /// The number of rounds of the event (at least `round`).
    pub rounds: u32,
}

impl TeamSwissSettings {
    /// The last round: Type B mild preferences from a zero CD lapse.
    pub fn last_round(&self) -> bool {
        self.round >= self.rounds
    }

    /// One of the last two rounds: [C7] and [C10] do not apply.
    pub fn last_two(&self) -> bool {
        self.round + 1 >= self.rounds
    }

    /// The float criteria do not apply in this round: C.04.6's [C7] and [C10] in the last two
    /// rounds, C.04.5's [C7] and [C8] in the last round.
    pub fn floats_lapse(&self, text: MatchText) -> bool {
        match text {
            MatchText::TeamSwiss => self.last_two(),
            MatchText::DoubleSwiss => self.last_round(),
        }
    }
}

/// The text a round of a match Swiss is paired by. C.04.6 (teams) and C.04.5 (Double-Swiss,
/// a match of two games between two players) pair the same way, the pairing-allocated bye,
/// then the top scoregroup's upfloaters and its bracket's identifier; they differ in colours
/// and in when the float criteria lapse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MatchText {
    /// C.04.6: colour preferences of Type A, Type B or none; [C7] and [C10] lapse in the last
    /// two rounds; colours by its Article 4.
    #[default]
    TeamSwiss,
    /// C.04.5: no colour preferences (the settings' `preferences` are not read); its [C7]
    /// and [C8] (C.04.6's [C7] and [C10]) lapse in the last round; colours by its Article 4
    /// (see [`crate::engine::chess::double_swiss`]).
    DoubleSwiss,
}

/// A team as the pairing of a round sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamFacts {
    /// The pairing number, 1 to the number of teams, each once.
    pub tpn: u32,
    /// The primary score, in half-points.
    pub score: u32,
    /// The secondary score, in half-points.
    pub secondary: u32,
    /// The colour of each match actually played, in round order.
    pub colours: Vec<Colour>,
    /// TPNs of the teams met in matches actually played.
    pub opponents: Vec<u32>,
    /// Has had a pairing-allocated bye, a forfeit win or a full-point bye ([C2]).
    pub had_bye: bool,
    /// Floated in the previous round (1.5).
    pub floated: bool,
}

impl TeamFacts {
    /// A contestant yet to play: no score, colours or opponents.
    pub fn new(tpn: u32) -> TeamFacts {
        TeamFacts {
            tpn,
            score: 0,
            secondary: 0,
            colours: vec![],
            opponents: vec![],
            had_bye: false,
            floated: false,
        }
    }

    /// Matches played (3.4.3).
    pub fn played(&self) -> usize {
        self.colours.len()
    }

    /// Colour difference (1.6.2).
    pub fn cd(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }
}

/// One match of the round: the team with White on board 1 and its opponent (TPNs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TeamMatch {
    pub white: u32,
    pub black: u32,
}

/// The pairing of a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRoundPairing {
    /// Matches ordered as General Handling Rules 3.6 recommends: the higher-ranked one's
    /// score (highest first), the sum of both scores, the higher-ranked one's TPN.
    pub matches: Vec<TeamMatch>,
    /// The team given the pairing-allocated bye.
    pub bye: Option<u32>,
    /// Upfloaters over all brackets.
    pub upfloaters: usize,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamSwissError {
    /// The teams' TPNs are not 1..=n each once.
    BadTpns,
    /// No pairing satisfies the absolute criteria (3.3.3: the Chief Arbiter decides).
    Impossible,
    /// The matching solver failed.
    Solver(String),
}

impl std::fmt::Display for TeamSwissError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TeamSwissError::BadTpns => write!(f, "the teams' pairing numbers are not 1 to n"),
            TeamSwissError::Impossible => write!(
                f,
                "no pairing of the round meets the absolute criteria (3.3.3: the chief arbiter decides)"
            ),
            TeamSwissError::Solver(m) => write!(f, "the matching failed: {m}"),
        }
    }
}

impl std::error::Error for TeamSwissError {}

/// The TPNs are 1 to n, each once.
fn check_tpns(ts: &[TeamFacts]) -> Result<(), TeamSwissError> {
    let n = ts.len();
    let mut seen = vec![false; n];
    for t in ts {
        let k = t.tpn as usize;
        if k == 0 || k > n || seen[k - 1] {
            return Err(TeamSwissError::BadTpns);
        }
        seen[k - 1] = true;
    }
    Ok(())
}

/// Pairs a round of a team Swiss event by C.04.6.
pub fn pair_team_round(
    teams: &[TeamFacts],
    settings: &TeamSwissSettings,
) -> Result<TeamRoundPairing, TeamSwissError> {
    check_tpns(teams)?;
    pair::pair(teams, settings, MatchText::TeamSwiss)
}

/// Pairs a round of a match Swiss by `text`: [`pair_team_round`] for C.04.6, and for C.04.5
/// (Double-Swiss) the same procedure without colour preferences, its own colours and float
/// lapse. The TPNs must be 1 to n.
pub fn pair_match_round(
    contestants: &[TeamFacts],
    settings: &TeamSwissSettings,
    text: MatchText,
) -> Result<TeamRoundPairing, TeamSwissError> {
    check_tpns(contestants)?;
    pair::pair(contestants, settings, text)
}
