//! The rounds of a bridge Swiss event drawn so far: each match with the draw's table (a
//! triangle's three half-matches marked), and each bye with its VPs. The event's tables
//! (`swiss_tables`) and its next draw (`swiss_event`) are read from them.

use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::bridge::teams::matches::ByeAward;

/// A match of a drawn round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct DrawnMatch {
    pub round: u32,
    pub table: u32,
    pub home: u32,
    pub away: u32,
    /// A half-match of the round's triangle.
    pub triangle: bool,
}

/// A bye of a drawn round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct DrawnBye {
    pub round: u32,
    pub contestant: u32,
    pub vps: f64,
}

/// The rounds drawn so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub matches: Vec<DrawnMatch>,
    pub byes: Vec<DrawnBye>,
}

impl History {
    /// The last round drawn (0 before round 1).
    pub fn rounds(&self) -> u32 {
        let m = self.matches.iter().map(|m| m.round).max().unwrap_or(0);
        let b = self.byes.iter().map(|b| b.round).max().unwrap_or(0);
        m.max(b)
    }

    /// The byes as standings count them, through `round`.
    pub fn bye_awards(&self, through: u32) -> Vec<ByeAward> {
        self.byes
            .iter()
            .filter(|b| b.round <= through)
            .map(|b| ByeAward {
                team: b.contestant,
                vps: b.vps,
            })
            .collect()
    }
}
