//! Team movements (seed 002, "Teams"): which team's NS and EW pairs sit at which table with
//! which set in every round, and so which two teams meet in which match.
//!
//! # The model
//! One model serves every kind: the pair movements' rounds (`rounds[].tables[]` with `table`,
//! `ns`, `ew` = team numbers, `set`, `boards`; `relay_sets` for sets on a relay stand) plus the
//! list of `matches`. A *match* between teams A and B is two halves on the same set: A's NS
//! against B's EW, and B's NS against A's EW. The halves may be played in the same round (a
//! round robin, a Mitchell teams) or in different rounds (New England Relay, American Whist,
//! the triangle): scoring up waits until both are in. A team's NS pair always sits at the
//! team's home table (the table with its number), except in the Mitchell teams where row B
//! moves. The `home` team of a match is the one with seating rights (the first named).
//!
//! # The kinds
//! * **New England Relay** (even teams 4–20): tables in two rows as a Twin Mitchell, table t
//!   and t+N/2 share station 2t−1, a relay at each even station; N stations, N sets.
//!   Round r: NS t against EW t−r; EW up one table, boards up one station. Every team meets
//!   every other; each team misses one set (the one at the relay it never reaches).
//! * **American Whist** (odd teams 3–21): N tables, N sets, round p: set t−(p−1) at table t,
//!   EW up two tables, boards up one. Full: N−1 matches. Curtailed by an even number c of
//!   rounds (`matches` = N−1−c): the first move takes EW up a further two tables for every two
//!   rounds curtailed, so the played EW offsets stay symmetric and every started match is
//!   completed (the seed's 7-team, 4-match table is reproduced exactly in the tests).
//! * **Round robin** (even teams 4–24): the seed's method. Round r: N v r, then column j
//!   (2..N/2) plays N+1−j+r−1 v j+r−1 counted cyclically in 1..N−1 (the seed's "enter teams
//!   in ascending order down each column"). Seating rights: the seed prints team N first in
//!   every round and asks for about half its matches to be rotated: N is home in odd rounds,
//!   its opponent in even rounds, which leaves every team's home count within one of its away
//!   count. Every match of round r plays set r (duplicated boards).
//! * **Round robin with a triangle** (odd teams 7–23): team 1 stays in the triangle; rounds
//!   2k−1 and 2k hold teams 1, 2k, 2k+1 there in a mini Mitchell (EW up one table, boards
//!   down one: T1 1 v 2k+1 on set 2k−1, T(2k) 2k v 1 on set 2k, T(2k+1) 2k+1 v 2k on the extra
//!   set Δ; then 1 v 2k, 2k v 2k+1, 2k+1 v 1). The main group plays a round robin of the other
//!   teams around the triangle (found by a small exact search: each round a perfect matching of
//!   the teams outside the triangle, no repeat). Seating rights by the cyclic rule: A is home
//!   against B when B−A mod N is in 1..(N−1)/2, so every team is home exactly (N−1)/2 times.
//!   Five teams cannot be served: the two teams outside the first triangle would meet twice
//!   (the seed's advice for an odd number is then the American Whist).
//! * **Mitchell teams** (even teams 6–40): row A = teams 1..N/2 (stationary), row B = teams
//!   N/2+1..N; table i and table N/2+i share set. Round 1: the EW pairs swap with the
//!   corresponding pair of the other row; then row B's NS and row B's EW (sitting in row A)
//!   move up one table, boards down one. With an even number of tables a row, row B skips one
//!   table after half the rounds (else it would replay its first set), so at most N/2−1 matches
//!   (N/2 for an odd row). Curtailable (`matches`). Teams meet only the other row.

pub mod generate;
pub mod matches;
pub mod round_robin;
pub mod seating;
pub mod validate;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::bridge::movement::model::Round;

/// One half of a match: where and when one team's NS pair met the other's EW pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamMovementMatchHalf)]
pub struct MatchHalf {
    pub round: u32,
    pub table: u32,
    /// The team sitting NS in this half.
    pub ns: u32,
}

/// A match between two teams: both halves on the same set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamMovementMatch)]
pub struct TeamMatch {
    /// The team with seating rights (the first named).
    pub home: u32,
    pub away: u32,
    pub set: u32,
    pub boards: Vec<u32>,
    /// The two halves, the earlier first.
    pub halves: Vec<MatchHalf>,
}

/// A team movement: the pair movements' rounds (team numbers in `ns` and `ew`) plus the matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TeamMovement {
    /// The generator that built it (a kind of `GET /api/v1/movements/team/{kind}`), or a label
    /// of the director's own for a movement made by hand (e.g. `custom`).
    pub kind: String,
    #[schema(maximum = 100)]
    pub teams: u32,
    /// Tables in the room (each a team's home table).
    pub tables: u32,
    /// Boards in a set (one half of a match).
    pub boards_per_round: u32,
    #[schema(max_items = 500)]
    pub rounds: Vec<Round>,
    #[schema(max_items = 2000)]
    pub matches: Vec<TeamMatch>,
}
