//! A bridge match event scored (formats `teams`, `swiss_teams`, `swiss_pairs`): the
//! matches of its schedule, each scored from the board results at its two tables or as a
//! scoring program entered it, and the cross-table of matches.
//!
//! # A teams event's settings
//! `{"kind": "round_robin", "matches": 6, "boards_per_match": 8}`: the team movement
//! (`new_england_relay`, `american_whist`, `round_robin`, `mitchell_teams`; default
//! `round_robin`), the matches each team plays when the movement can be curtailed, and the
//! boards of a match (a set; default 8). The movement is generated when lots are drawn, from
//! the number of teams then entered.
//!
//! # A match from board results
//! A match between A (home) and B (away) is played at two tables on the same boards: A's NS
//! against B's EW at one, B's NS against A's EW at the other (`teams::matches` has the rule:
//! per board the IMPs of A's NS score less B's NS score, the margin, the WBF VPs for the
//! match's number of boards). It is scored once every board has a numeric score at both
//! tables; an artificial adjusted score (`A+/A-`) on a board leaves the match to be entered as
//! IMPs or VPs (`POST .../matches`). An entered result replaces the one from the boards.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::bridge::movement::model::{Movement, PairNumbering};
use crate::engine::bridge::session::{read_settings, SettingsError};
use crate::engine::bridge::teams::generate::{
    TeamMovementParams, DEFAULT_BOARDS_PER_ROUND, KINDS, MAX_BOARDS_PER_ROUND,
};
use crate::engine::bridge::teams::matches::{score_match, MatchBoard, MatchScore};
use crate::engine::bridge::teams::TeamMovement;

/// The settings of a bridge `teams` event.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "round_robin", "boards_per_match": 8}))]
pub struct TeamEventSettings {
    /// The team movement (default `round_robin`).
    #[serde(default = "default_kind")]
    pub kind: String,
    /// Matches each team plays (default: the full movement).
    #[schema(value_type = Option<MatchCount>)]
    pub matches: Option<u32>,
    /// Boards of a match (default 8).
    #[schema(value_type = Option<MatchBoards>)]
    pub boards_per_match: Option<u32>,
}

crate::limits::schema::integer_bound!(
    /// Boards of a match (both halves play them).
    MatchBoards: UInt32, 1, MAX_BOARDS_PER_ROUND
);

crate::limits::schema::integer_bound!(
    /// Matches each team plays.
    MatchCount: UInt32, 1, u32::MAX
);

fn default_kind() -> String {
    "round_robin".into()
}

fn fault(field: &str, message: impl Into<String>) -> SettingsError {
    SettingsError {
        field: field.into(),
        message: message.into(),
    }
}

/// Boards of a match from a `boards_per_match` setting (default [`DEFAULT_BOARDS_PER_ROUND`]).
pub fn boards_per_match(setting: Option<u32>) -> Result<u32, SettingsError> {
    let b = setting.unwrap_or(DEFAULT_BOARDS_PER_ROUND);
    if b == 0 || b > MAX_BOARDS_PER_ROUND {
        return Err(fault(
            "settings.boards_per_match",
            format!("{b} boards: a match has 1 to {MAX_BOARDS_PER_ROUND} boards"),
        ));
    }
    Ok(b)
}

impl TeamEventSettings {
    /// Reads the settings, naming the one at fault.
    pub fn parse(settings: &serde_json::Value) -> Result<TeamEventSettings, SettingsError> {
        let s: TeamEventSettings = read_settings(settings)?;
        if !KINDS.contains(&s.kind.as_str()) {
            return Err(fault(
                "settings.kind",
                format!(
                    "no team movement {:?}; the kinds are {}",
                    s.kind,
                    KINDS.join(", ")
                ),
            ));
        }
        if s.matches == Some(0) {
            return Err(fault("settings.matches", "a team plays at least one match"));
        }
        boards_per_match(s.boards_per_match)?;
        Ok(s)
    }

    /// The generator's parameters for `teams` teams.
    pub fn params(&self, teams: u32) -> TeamMovementParams {
        TeamMovementParams {
            teams,
            matches: self.matches,
            boards_per_round: self.boards_per_match,
        }
    }
}

/// A team movement in the pair movements' model (team numbers as pair numbers, NS and EW
/// different), which board results are checked against.
pub fn as_pair_movement(m: &TeamMovement) -> Movement {
    Movement {
        kind: m.kind.clone(),
        tables: m.tables,
        pair_numbering: PairNumbering::Mitchell,
        boards_per_round: m.boards_per_round,
        rounds: m.rounds.clone(),
    }
}

/// A board result at a table as match scoring needs it: the NS score, or None for an
/// artificial adjusted score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableScore {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub ns_score: Option<i32>,
}

/// A match of the schedule: who meets whom, on which boards, at which two tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledMatch {
    /// The round the match is complete in (the later half's round).
    pub round: u32,
    pub home: u32,
    pub away: u32,
    pub boards: Vec<u32>,
    /// (round, table) where the home team sits NS.
    pub home_ns_at: (u32, u32),
    /// (round, table) where the away team sits NS.
    pub away_ns_at: (u32, u32),
}

impl ScheduledMatch {
    /// The matches of a team movement.
    pub fn of_movement(m: &TeamMovement) -> Vec<ScheduledMatch> {
        m.matches
            .iter()
            .filter_map(|x| {
                let at = |team: u32| {
                    x.halves
                        .iter()
                        .find(|h| h.ns == team)
                        .map(|h| (h.round, h.table))
                };
                Some(ScheduledMatch {
                    round: x.halves.iter().map(|h| h.round).max()?,
                    home: x.home,
                    away: x.away,
                    boards: x.boards.clone(),
                    home_ns_at: at(x.home)?,
                    away_ns_at: at(x.away)?,
                })
            })
            .collect()
    }

    /// Whether the match is between `a` and `b` (either way round).
    pub fn between(&self, a: u32, b: u32) -> bool {
        (self.home == a && self.away == b) || (self.home == b && self.away == a)
    }
}

/// Where a match's result comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MatchSource {
    /// Scored from the board results at its two tables.
    Boards,
    /// Entered as IMPs or VPs (`POST .../matches`).
    Entered,
    /// Not scored yet: board results missing (or an artificial adjusted score on a board).
    Incomplete,
}

/// A match of the event and its result so far.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MatchLine {
    pub round: u32,
    /// Team (or pair) numbers; `home` has seating rights.
    pub home: u32,
    pub away: u32,
    /// Boards in the match.
    pub boards: u32,
    /// Board results in, of 2 × boards (the two tables).
    pub results: u32,
    pub source: MatchSource,
    /// Null until scored.
    pub score: Option<MatchScore>,
    /// A half-match of a Swiss teams triangle: scored on the VP scale for its boards and
    /// counted half (its VPs add up to 10).
    pub triangle: bool,
}

/// A result a scoring program entered for the match of `round` between `score.home` and
/// `score.away`.
#[derive(Debug, Clone, PartialEq)]
pub struct EnteredMatch {
    pub round: u32,
    pub score: MatchScore,
}

/// The entered results by (round, home, away).
pub fn entered_by_match(entered: &[EnteredMatch]) -> HashMap<(u32, u32, u32), &EnteredMatch> {
    entered
        .iter()
        .map(|e| ((e.round, e.score.home, e.score.away), e))
        .collect()
}

/// Every scheduled match with its result: entered, scored from the boards, or incomplete.
pub fn match_lines(
    schedule: &[ScheduledMatch],
    tables: &[TableScore],
    entered: &[EnteredMatch],
) -> Vec<MatchLine> {
    let at: HashMap<(u32, u32, u32), Option<i32>> = tables
        .iter()
        .map(|t| ((t.round, t.table, t.board), t.ns_score))
        .collect();
    let typed = entered_by_match(entered);
    schedule
        .iter()
        .map(|m| {
            let mut results = 0;
            let mut boards = Vec::with_capacity(m.boards.len());
            let mut numeric = true;
            for &b in &m.boards {
                let home = at.get(&(m.home_ns_at.0, m.home_ns_at.1, b));
                let away = at.get(&(m.away_ns_at.0, m.away_ns_at.1, b));
                results += u32::from(home.is_some()) + u32::from(away.is_some());
                match (home.copied().flatten(), away.copied().flatten()) {
                    (Some(h), Some(a)) => boards.push(MatchBoard {
                        board: b,
                        home_ns_score: h,
                        away_ns_score: a,
                    }),
                    _ => numeric = false,
                }
            }
            let (source, score) = match typed.get(&(m.round, m.home, m.away)) {
                Some(e) => (MatchSource::Entered, Some(e.score.clone())),
                None if numeric => match score_match(m.home, m.away, &boards) {
                    Ok(s) => (MatchSource::Boards, Some(s)),
                    Err(_) => (MatchSource::Incomplete, None),
                },
                None => (MatchSource::Incomplete, None),
            };
            MatchLine {
                round: m.round,
                home: m.home,
                away: m.away,
                boards: m.boards.len() as u32,
                results,
                source,
                score,
                triangle: false,
            }
        })
        .collect()
}

/// One match in a team's row of the cross-table.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct CrossCell {
    pub opponent: u32,
    pub round: u32,
    /// Null until the match is scored.
    pub imps_won: Option<u32>,
    pub imps_lost: Option<u32>,
    pub vps: Option<f64>,
}

/// A team's row of the cross-table: its matches by opponent number.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct CrossRow {
    pub team: u32,
    pub matches: Vec<CrossCell>,
}

/// The cross-table of matches: one row per team (in `teams` order), its matches by opponent.
pub fn cross_table(teams: &[u32], lines: &[MatchLine]) -> Vec<CrossRow> {
    teams
        .iter()
        .map(|&t| {
            let mut matches: Vec<CrossCell> = lines
                .iter()
                .filter(|l| l.home == t || l.away == t)
                .map(|l| {
                    let home = l.home == t;
                    let side = |h: f64, a: f64| if home { h } else { a };
                    CrossCell {
                        opponent: if home { l.away } else { l.home },
                        round: l.round,
                        imps_won: l.score.as_ref().map(|s| {
                            if home {
                                s.imps_home
                            } else {
                                s.imps_away
                            }
                        }),
                        imps_lost: l.score.as_ref().map(|s| {
                            if home {
                                s.imps_away
                            } else {
                                s.imps_home
                            }
                        }),
                        vps: l.score.as_ref().map(|s| side(s.vp_home, s.vp_away)),
                    }
                })
                .collect();
            matches.sort_by_key(|c| (c.opponent, c.round));
            CrossRow { team: t, matches }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::vp::victory_points;
    use crate::engine::bridge::teams::generate::generate;

    #[test]
    fn settings_name_the_field_at_fault() {
        let ok = TeamEventSettings::parse(&serde_json::json!({})).unwrap();
        assert_eq!(ok.kind, "round_robin");
        let e = TeamEventSettings::parse(&serde_json::json!({"kind": "howell"})).unwrap_err();
        assert_eq!(e.field, "settings.kind");
        let e = TeamEventSettings::parse(&serde_json::json!({"boards_per_match": 0})).unwrap_err();
        assert_eq!(e.field, "settings.boards_per_match");
        let e = TeamEventSettings::parse(&serde_json::json!({"board": 8})).unwrap_err();
        assert_eq!(e.field, "settings.board");
    }

    /// A 4-team round robin of 2-board matches: one match scored by hand from its four table
    /// results, one left incomplete, one entered.
    #[test]
    fn matches_from_board_results_by_hand() {
        let m = generate(
            "round_robin",
            &TeamMovementParams {
                teams: 4,
                matches: None,
                boards_per_round: Some(2),
            },
        )
        .unwrap();
        let schedule = ScheduledMatch::of_movement(&m);
        assert_eq!(schedule.len(), 6);
        let first = &schedule[0];
        let (b1, b2) = (first.boards[0], first.boards[1]);
        // Board 1: home NS 620, away NS 170 at the other table: +450 = 10 IMPs to home.
        // Board 2: home NS -50, away NS 100: -150 = 4 IMPs to away. Margin 6 over 2 boards.
        let tables = [
            (first.home_ns_at, b1, 620),
            (first.away_ns_at, b1, 170),
            (first.home_ns_at, b2, -50),
            (first.away_ns_at, b2, 100),
        ]
        .map(|((round, table), board, s)| TableScore {
            round,
            table,
            board,
            ns_score: Some(s),
        });
        let second = &schedule[1];
        let half = [TableScore {
            round: second.home_ns_at.0,
            table: second.home_ns_at.1,
            board: second.boards[0],
            ns_score: Some(100),
        }];
        let all: Vec<TableScore> = tables.iter().chain(&half).copied().collect();
        let entered = [EnteredMatch {
            round: schedule[2].round,
            score: crate::engine::bridge::teams::matches::match_from_vps(
                schedule[2].home,
                schedule[2].away,
                15.5,
                4.5,
            )
            .unwrap(),
        }];
        let lines = match_lines(&schedule, &all, &entered);
        let s = lines[0].score.as_ref().unwrap();
        assert_eq!(lines[0].source, MatchSource::Boards);
        assert_eq!(lines[0].results, 4);
        assert_eq!((s.imps_home, s.imps_away), (10, 4));
        assert_eq!((s.vp_home, s.vp_away), victory_points(6, 2));
        assert_eq!(lines[1].source, MatchSource::Incomplete);
        assert_eq!(lines[1].results, 1);
        assert_eq!(lines[2].source, MatchSource::Entered);
        assert!(lines[3..].iter().all(|l| l.score.is_none()));
        let cross = cross_table(&[1, 2, 3, 4], &lines);
        let home_row = &cross[first.home as usize - 1];
        let cell = home_row
            .matches
            .iter()
            .find(|c| c.opponent == first.away)
            .unwrap();
        assert_eq!(cell.vps, Some(victory_points(6, 2).0));
        assert_eq!((cell.imps_won, cell.imps_lost), (Some(10), Some(4)));
        assert!(cross.iter().all(|r| r.matches.len() == 3));
    }
}
