//! Checks of a team movement, generated or typed in: every match complete (both halves on the
//! same set), no team meeting another twice, no team playing a set twice, a team's pairs seated
//! once a round; and the facts a director chooses by (matches per team, sets, copies of a set in
//! play at once, relays, seating rights).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::seating::{pair_halves, seatings_of};
use super::TeamMovement;
use crate::engine::bridge::movement::report::MinMax;
use crate::limits::MAX_MOVEMENT_ROUNDS;

/// What the validator found, with the facts of the movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TeamMovementReport {
    /// No errors.
    pub valid: bool,
    pub errors: Vec<String>,
    pub rounds: u32,
    /// Complete matches.
    pub matches: u32,
    /// Complete matches each team plays.
    pub matches_per_team: MinMax,
    /// Every pair of teams meets exactly once.
    pub everyone_meets_once: bool,
    /// The most matches between one pair of teams.
    pub max_meetings: u32,
    /// Sets of boards used.
    pub sets: u32,
    /// Sets a team never plays.
    pub sets_missed_per_team: MinMax,
    /// Distinct sets in play, per round.
    pub sets_per_round: Vec<u32>,
    /// The most tables playing one set in one round (copies needed, or sharing tables).
    pub max_tables_per_set: u32,
    /// Sets on a relay (not in play), per round.
    pub relay_sets_per_round: Vec<u32>,
    /// Matches each team plays with seating rights (as the home team).
    pub home_matches_per_team: MinMax,
    /// Every team's home and away counts differ by at most one.
    pub seating_rights_balanced: bool,
}

/// The most teams a team movement checked here may have.
pub const MAX_VALIDATED_TEAMS: u32 = 100;
/// The most tables one round of a checked team movement may list.
pub const MAX_VALIDATED_TABLES: usize = 200;

/// Whether `m` is too large to check (more than [`MAX_VALIDATED_TEAMS`] teams,
/// [`MAX_MOVEMENT_ROUNDS`] rounds or [`MAX_VALIDATED_TABLES`] tables a round): the field at
/// fault and why.
pub fn too_large(m: &TeamMovement) -> Option<(String, String)> {
    if m.teams > MAX_VALIDATED_TEAMS {
        return Some((
            "teams".into(),
            format!("at most {MAX_VALIDATED_TEAMS} teams are checked"),
        ));
    }
    if m.rounds.len() > MAX_MOVEMENT_ROUNDS {
        return Some((
            "rounds".into(),
            format!("at most {MAX_MOVEMENT_ROUNDS} rounds are checked"),
        ));
    }
    let i = m
        .rounds
        .iter()
        .position(|r| r.tables.len() > MAX_VALIDATED_TABLES)?;
    Some((
        format!("rounds[{i}].tables"),
        format!("at most {MAX_VALIDATED_TABLES} tables a round are checked"),
    ))
}

fn min_max(values: impl IntoIterator<Item = u32>) -> MinMax {
    values
        .into_iter()
        .fold(None, |acc: Option<MinMax>, v| {
            Some(match acc {
                None => MinMax { min: v, max: v },
                Some(a) => MinMax {
                    min: a.min.min(v),
                    max: a.max.max(v),
                },
            })
        })
        .unwrap_or(MinMax { min: 0, max: 0 })
}

/// Check a team movement and describe it.
pub fn report(m: &TeamMovement) -> TeamMovementReport {
    let mut errors = Vec::new();
    let n = m.teams;
    let seatings = seatings_of(m);
    for r in &m.rounds {
        let mut tables = BTreeSet::new();
        let mut ns_seen = BTreeSet::new();
        let mut ew_seen = BTreeSet::new();
        for t in &r.tables {
            if !tables.insert(t.table) {
                errors.push(format!("round {}: table {} listed twice", r.round, t.table));
            }
            let (Some(ns), Some(ew)) = (t.ns, t.ew) else {
                errors.push(format!(
                    "round {}, table {}: a team movement needs both seats filled",
                    r.round, t.table
                ));
                continue;
            };
            for team in [ns, ew] {
                if team == 0 || team > n {
                    errors.push(format!(
                        "round {}, table {}: team {team} is not one of 1..{n}",
                        r.round, t.table
                    ));
                }
            }
            if ns == ew {
                errors.push(format!(
                    "round {}, table {}: team {ns} plays itself",
                    r.round, t.table
                ));
            }
            if !ns_seen.insert(ns) {
                errors.push(format!(
                    "round {}: the NS pair of team {ns} is seated twice",
                    r.round
                ));
            }
            if !ew_seen.insert(ew) {
                errors.push(format!(
                    "round {}: the EW pair of team {ew} is seated twice",
                    r.round
                ));
            }
        }
    }
    let (pairs, alone) = pair_halves(&seatings);
    for s in &alone {
        errors.push(format!(
            "round {}, table {}: NS {} v EW {} on set {} has no other half (NS {} v EW {} on set {})",
            s.round, s.table, s.ns, s.ew, s.set, s.ew, s.ns, s.set
        ));
    }
    let mut meetings: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut sets_of_team: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut matches_of_team: BTreeMap<u32, u32> = (1..=n).map(|t| (t, 0)).collect();
    for (a, _) in &pairs {
        let key = (a.ns.min(a.ew), a.ns.max(a.ew));
        *meetings.entry(key).or_default() += 1;
        for team in [a.ns, a.ew] {
            sets_of_team.entry(team).or_default().push(a.set);
            *matches_of_team.entry(team).or_default() += 1;
        }
    }
    for ((a, b), count) in &meetings {
        if *count > 1 {
            errors.push(format!("teams {a} and {b} meet {count} times"));
        }
    }
    let all_sets: BTreeSet<u32> = seatings.iter().map(|s| s.set).collect();
    let mut missed = Vec::new();
    for team in 1..=n {
        let played = sets_of_team.get(&team).cloned().unwrap_or_default();
        let distinct: BTreeSet<u32> = played.iter().copied().collect();
        if distinct.len() < played.len() {
            errors.push(format!("team {team} plays a set in two matches"));
        }
        missed.push((all_sets.len() - distinct.len()) as u32);
    }
    // The listed matches must be the ones the seats make.
    if !m.matches.is_empty() {
        let listed: BTreeSet<(u32, u32, u32)> = m
            .matches
            .iter()
            .map(|x| (x.home.min(x.away), x.home.max(x.away), x.set))
            .collect();
        let derived: BTreeSet<(u32, u32, u32)> = pairs
            .iter()
            .map(|(a, _)| (a.ns.min(a.ew), a.ns.max(a.ew), a.set))
            .collect();
        if listed != derived || m.matches.len() != pairs.len() {
            errors.push("the listed matches are not the ones the seats make".to_string());
        }
    }
    let mut home_count: BTreeMap<u32, u32> = (1..=n).map(|t| (t, 0)).collect();
    for x in &m.matches {
        *home_count.entry(x.home).or_default() += 1;
    }
    let seating_rights_balanced = (1..=n).all(|t| {
        let home = home_count[&t];
        let away = matches_of_team[&t] - home.min(matches_of_team[&t]);
        home.abs_diff(away) <= 1
    });
    let mut max_tables_per_set = 0;
    let sets_per_round = m
        .rounds
        .iter()
        .map(|r| {
            let mut count: BTreeMap<u32, u32> = BTreeMap::new();
            for t in &r.tables {
                *count.entry(t.set).or_default() += 1;
            }
            max_tables_per_set = max_tables_per_set.max(count.values().copied().max().unwrap_or(0));
            count.len() as u32
        })
        .collect();
    let pairs_of_teams = n * n.saturating_sub(1) / 2;
    TeamMovementReport {
        valid: errors.is_empty(),
        errors,
        rounds: m.rounds.len() as u32,
        matches: pairs.len() as u32,
        matches_per_team: min_max(matches_of_team.values().copied()),
        everyone_meets_once: meetings.len() as u32 == pairs_of_teams
            && meetings.values().all(|&c| c == 1),
        max_meetings: meetings.values().copied().max().unwrap_or(0),
        sets: all_sets.len() as u32,
        sets_missed_per_team: min_max(missed),
        sets_per_round,
        max_tables_per_set,
        relay_sets_per_round: m.rounds.iter().map(|r| r.relay_sets.len() as u32).collect(),
        home_matches_per_team: min_max(home_count.values().copied()),
        seating_rights_balanced,
    }
}
