//! Bridge scoring (issue 10).

pub mod board;
pub mod contract;
pub mod deal;
pub mod imps;
pub mod matchpoints;
pub mod score;

pub use board::{dealer, vulnerability, Seat, Vulnerability};
pub use contract::{result_notation, tricks_from_result, Contract, Doubling, Strain};
pub use deal::{deal_string, parse_deal_string, parse_pbn_deals, pbn_escape, Deal, PbnError};
pub use imps::{butler, butler_datum, cross_imps, imps, victory_points, Butler};
pub use matchpoints::{matchpoints, parse_adjusted, Adjusted, BoardScore, Matchpoints, Scale};
pub use score::ns_score;

use std::fmt;

/// A scoring input that cannot be right: `field` names the input at fault (`contract`,
/// `declarer`, `tricks`, `result`, `vulnerability`, `scores`, `adjusted`, …), `message` says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreError {
    pub field: &'static str,
    pub message: String,
}

impl ScoreError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScoreError {}
