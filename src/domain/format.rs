//! The games and the event formats of each: the closed sets every other part of the domain,
//! the store and the API read.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The game an event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Chess,
    Bridge,
}

impl GameKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Bridge => "bridge",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "chess" => Some(GameKind::Chess),
            "bridge" => Some(GameKind::Bridge),
            _ => None,
        }
    }

    /// The event formats this server runs for the game.
    pub fn formats(self) -> &'static [&'static str] {
        match self {
            GameKind::Chess => &[
                FORMAT_ROUND_ROBIN,
                FORMAT_DOUBLE_ROUND_ROBIN,
                FORMAT_SWISS,
                FORMAT_SCHEVENINGEN,
                FORMAT_HILTON,
                FORMAT_TEAM_SWISS,
            ],
            GameKind::Bridge => &[
                FORMAT_PAIRS,
                FORMAT_BRIDGE_TEAMS,
                FORMAT_SWISS_PAIRS,
                FORMAT_SWISS_TEAMS,
            ],
        }
    }
}

pub const FORMAT_ROUND_ROBIN: &str = "round_robin";
pub const FORMAT_DOUBLE_ROUND_ROBIN: &str = "double_round_robin";
/// Chess Swiss section: each round paired from the results so far (seed 001).
pub const FORMAT_SWISS: &str = "swiss";
/// Bridge pairs: one session played to a movement.
pub const FORMAT_PAIRS: &str = "pairs";
/// Bridge teams of 4–6 players: a team movement (seed 002 "Teams"), matches scored in VPs.
pub const FORMAT_BRIDGE_TEAMS: &str = "teams";
/// Bridge Swiss pairs: each round drawn from the VP standings (seed 002 "Swiss pairs").
pub const FORMAT_SWISS_PAIRS: &str = "swiss_pairs";
/// Bridge Swiss teams: each round drawn from the VP standings (seed 002 "Swiss teams").
pub const FORMAT_SWISS_TEAMS: &str = "swiss_teams";

/// Chess team match: every player of team A plays every player of team B (seed 000).
pub const FORMAT_SCHEVENINGEN: &str = "scheveningen";
/// Chess jamboree of an even number of teams over three rounds (seed 000).
pub const FORMAT_HILTON: &str = "hilton";

/// Chess team Swiss: each round's team pairing by FIDE C.04.6, boards lined up per match.
pub const FORMAT_TEAM_SWISS: &str = "team_swiss";

/// Whether the format is played by teams with ordered members (chess or bridge).
pub fn is_team_format(format: &str) -> bool {
    is_chess_team_format(format) || format == FORMAT_BRIDGE_TEAMS || format == FORMAT_SWISS_TEAMS
}

/// Whether the format is a chess team format (games between team members, board by board).
pub fn is_chess_team_format(format: &str) -> bool {
    format == FORMAT_SCHEVENINGEN || format == FORMAT_HILTON || format == FORMAT_TEAM_SWISS
}

/// Whether the format is a bridge event scored by matches in VPs (teams or Swiss).
pub fn is_match_format(format: &str) -> bool {
    format == FORMAT_BRIDGE_TEAMS || is_bridge_swiss(format)
}

/// Whether the format is a bridge Swiss event (pairs or teams).
pub fn is_bridge_swiss(format: &str) -> bool {
    format == FORMAT_SWISS_PAIRS || format == FORMAT_SWISS_TEAMS
}

/// Whether a format's whole schedule is fixed when lots are drawn.
pub fn is_round_robin(format: &str) -> bool {
    format == FORMAT_ROUND_ROBIN || format == FORMAT_DOUBLE_ROUND_ROBIN
}
