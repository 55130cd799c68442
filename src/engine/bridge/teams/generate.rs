//! The team movement generators (see the module doc of `teams` for each rule).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::round_robin::{even_home, round_robin_even, round_robin_triangle, triangle_home};
use super::seating::{cyclic, pair_halves, Seating};
use super::{MatchHalf, TeamMatch, TeamMovement};
use crate::engine::bridge::movement::model::{set_boards, MovementError, Round, TableRound};

/// The kinds of team movement served, as the API names them.
pub const KINDS: [&str; 4] = [
    "new_england_relay",
    "american_whist",
    "round_robin",
    "mitchell_teams",
];

/// Boards in a set when the request does not say.
pub const DEFAULT_BOARDS_PER_ROUND: u32 = 8;
/// The most boards a set may hold.
pub const MAX_BOARDS_PER_ROUND: u32 = 36;

/// What a team movement is generated from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TeamMovementParams {
    pub teams: u32,
    /// Matches each team plays (curtailing); default the full movement.
    pub matches: Option<u32>,
    /// Boards in a set; default [`DEFAULT_BOARDS_PER_ROUND`].
    pub boards_per_round: Option<u32>,
}

/// Whether the first team named has seating rights against the second.
type HomeRule = Box<dyn Fn(u32, u32) -> bool>;

/// Generate a team movement of `kind`.
pub fn generate(kind: &str, p: &TeamMovementParams) -> Result<TeamMovement, MovementError> {
    let bpr = p.boards_per_round.unwrap_or(DEFAULT_BOARDS_PER_ROUND);
    if bpr == 0 || bpr > MAX_BOARDS_PER_ROUND {
        return Err(
            MovementError::new("boards_per_round", format!("{bpr} boards in a set"))
                .with_supported(format!("1 to {MAX_BOARDS_PER_ROUND}")),
        );
    }
    let n = p.teams;
    let (seatings, home): (Vec<Seating>, HomeRule) = match kind {
        "new_england_relay" => {
            sizes(n, 4, 20, true, "even numbers of teams from 4 to 20")?;
            no_curtailing(p)?;
            (new_england_relay(n), Box::new(|_, _| true))
        }
        "american_whist" => {
            sizes(n, 3, 21, false, "odd numbers of teams from 3 to 21")?;
            let full = n - 1;
            let k = p.matches.unwrap_or(full);
            if k < 2 || k > full || (full - k) % 2 == 1 {
                return Err(MovementError::new(
                    "matches",
                    format!("{n} teams cannot play {k} matches of an American Whist"),
                )
                .with_supported(format!(
                    "an even number of matches from 2 to {full} (curtailed by an even number of rounds)"
                )));
            }
            (american_whist(n, k), Box::new(|_, _| true))
        }
        "round_robin" => {
            no_curtailing(p)?;
            if n.is_multiple_of(2) {
                sizes(
                    n,
                    4,
                    24,
                    true,
                    "4 to 24 teams (an odd number from 7 uses a triangle)",
                )?;
                (
                    round_robin_even(n),
                    Box::new(move |a, b| even_home(n, a, b)),
                )
            } else {
                sizes(
                    n,
                    7,
                    23,
                    false,
                    "4 to 24 teams (an odd number from 7 uses a triangle)",
                )?;
                (
                    round_robin_triangle(n),
                    Box::new(move |a, b| triangle_home(n, a, b)),
                )
            }
        }
        "mitchell_teams" => {
            sizes(n, 6, 40, true, "even numbers of teams from 6 to 40")?;
            let h = n / 2;
            let full = if h % 2 == 1 { h } else { h - 1 };
            let k = p.matches.unwrap_or(full);
            if k == 0 || k > full {
                return Err(MovementError::new(
                    "matches",
                    format!("{n} teams cannot play {k} matches of a Mitchell teams"),
                )
                .with_supported(format!("1 to {full} matches")));
            }
            (mitchell_teams(n, k), Box::new(|_, _| true))
        }
        other => {
            return Err(
                MovementError::new("kind", format!("no team movement {other:?}"))
                    .with_supported(KINDS.join(", ")),
            )
        }
    };
    let tables = n;
    Ok(assemble(kind, n, tables, bpr, &seatings, home))
}

fn sizes(n: u32, lo: u32, hi: u32, even: bool, served: &str) -> Result<(), MovementError> {
    if n < lo || n > hi || n.is_multiple_of(2) != even {
        return Err(MovementError::new(
            "teams",
            format!("{n} teams cannot be served by this movement"),
        )
        .with_supported(served));
    }
    Ok(())
}

fn no_curtailing(p: &TeamMovementParams) -> Result<(), MovementError> {
    match p.matches {
        Some(_) => Err(MovementError::new(
            "matches",
            "this movement cannot be curtailed: every team meets every other",
        )
        .with_supported("matches only for american_whist and mitchell_teams")),
        None => Ok(()),
    }
}

/// New England Relay: round r, table t: NS t v EW t−r, set at station 2t−1 moved up r−1.
pub fn new_england_relay(n: u32) -> Vec<Seating> {
    let mut out = Vec::new();
    for r in 1..n {
        for t in 1..=n {
            out.push(Seating {
                round: r,
                table: t,
                ns: t,
                ew: cyclic(t as i64 - r as i64, n),
                set: cyclic(2 * t as i64 - 1 - (r as i64 - 1), n),
            });
        }
    }
    out
}

/// American Whist of `k` matches: played round p is the full movement's move p + c/2
/// (c = N−1−k rounds curtailed), EW offset −2(p + c/2), set t − (p−1) at table t.
pub fn american_whist(n: u32, k: u32) -> Vec<Seating> {
    let skip = (n - 1 - k) / 2;
    let mut out = Vec::new();
    for p in 1..=k {
        let step = (p + skip) as i64;
        for t in 1..=n {
            out.push(Seating {
                round: p,
                table: t,
                ns: t,
                ew: cyclic(t as i64 - 2 * step, n),
                set: cyclic(t as i64 - (p as i64 - 1), n),
            });
        }
    }
    out
}

/// Mitchell teams of `k` matches: row A (teams and tables 1..h) stationary, row B moves.
pub fn mitchell_teams(n: u32, k: u32) -> Vec<Seating> {
    let h = n / 2;
    let mut out = Vec::new();
    for r in 1..=k {
        // Row B's offset: up one table a round, plus the skip after half the rounds.
        let shift = (r - 1) as i64 + i64::from(h.is_multiple_of(2) && r > h / 2);
        for i in 1..=h {
            let b = h + cyclic(i as i64 - shift, h);
            let set = cyclic(i as i64 + r as i64 - 1, h);
            out.push(Seating {
                round: r,
                table: i,
                ns: i,
                ew: b,
                set,
            });
            out.push(Seating {
                round: r,
                table: h + i,
                ns: b,
                ew: i,
                set,
            });
        }
    }
    out
}

/// Rounds and matches from the seatings. A match's home is the NS team of its earlier half,
/// unless `home(that team, the other)` is false.
pub fn assemble(
    kind: &str,
    teams: u32,
    tables: u32,
    bpr: u32,
    seatings: &[Seating],
    home: impl Fn(u32, u32) -> bool,
) -> TeamMovement {
    let last_round = seatings.iter().map(|s| s.round).max().unwrap_or(0);
    let mut sets: Vec<u32> = seatings.iter().map(|s| s.set).collect();
    sets.sort_unstable();
    sets.dedup();
    let rounds = (1..=last_round)
        .map(|r| {
            let mut tables: Vec<TableRound> = seatings
                .iter()
                .filter(|s| s.round == r)
                .map(|s| TableRound {
                    table: s.table,
                    ns: Some(s.ns),
                    ew: Some(s.ew),
                    set: s.set,
                    boards: set_boards(s.set, bpr),
                    arrow_switch: false,
                    section: None,
                    half_sets: Vec::new(),
                })
                .collect();
            tables.sort_by_key(|t| t.table);
            let relay_sets = sets
                .iter()
                .copied()
                .filter(|s| !tables.iter().any(|t| t.set == *s))
                .collect();
            Round {
                round: r,
                tables,
                sit_out: Vec::new(),
                relay_sets,
            }
        })
        .collect();
    let (pairs, _) = pair_halves(seatings);
    let matches = pairs
        .into_iter()
        .map(|(a, b)| {
            let (h, aw) = if home(a.ns, a.ew) {
                (a.ns, a.ew)
            } else {
                (a.ew, a.ns)
            };
            TeamMatch {
                home: h,
                away: aw,
                set: a.set,
                boards: set_boards(a.set, bpr),
                halves: [a, b]
                    .iter()
                    .map(|s| MatchHalf {
                        round: s.round,
                        table: s.table,
                        ns: s.ns,
                    })
                    .collect(),
            }
        })
        .collect();
    TeamMovement {
        kind: kind.to_string(),
        teams,
        tables,
        boards_per_round: bpr,
        rounds,
        matches,
    }
}
