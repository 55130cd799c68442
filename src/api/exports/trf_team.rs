//! Team Swiss events in TRF-2026 files: the team records written after the players of an
//! exported event, and a team Swiss file read into a new `team_swiss` event (teams, line-ups,
//! matches, byes and board results). The records themselves:
//! [`crate::engine::chess::team_swiss::trf`].

use std::collections::HashMap;

use rusqlite::Connection;

use crate::api::events::event::issue_admin_token;
use crate::domain::{
    CreatedEvent, EventDetails, GameKind, LotsMethod, NewParticipant, RoundStatus,
    TeamSwissEventSettings, FORMAT_TEAM_SWISS, TEAM_SWISS_MAX_BOARDS, TEAM_SWISS_MAX_RESERVES,
    TEAM_SWISS_MAX_ROUNDS, TEAM_SWISS_MAX_TEAMS,
};
use crate::engine::chess::swiss::trf::{parse_trf, TrfError};
use crate::engine::chess::swiss::trf_header::TrfHeader;
use crate::engine::chess::team_swiss::tiebreak::{self, Score, TeamRows};
use crate::engine::chess::team_swiss::trf::{assemble, split, TeamTrf, TrfTeam, TrfTeamRound};
use crate::error::{ApiError, ApiResult};
use crate::store::events::EventFields;
use crate::store::swiss::game_result;
use crate::store::team_swiss::{self as store_ts, MatchRow};
use crate::store::{events, games, now, participants, rounds, swiss as swiss_store, teams};

/// A bad line of a TRF file: 422 naming `line N`.
pub(crate) fn trf_error(e: TrfError) -> ApiError {
    ApiError::invalid(format!("line {}", e.line), e.message)
}

/// The team records of a team Swiss event's first `rounds` rounds (players' start numbers
/// are their pairing numbers): teams in TPN order with their match points, game points and
/// rank in the standings of those rounds, line-ups, matches and byes.
pub(crate) fn team_records(conn: &Connection, event_id: i64, rounds: u32) -> ApiResult<String> {
    let event = events::get(conn, event_id)?;
    let settings = TeamSwissEventSettings::parse(&event.settings)?;
    let (numbered, mut recs, boards) = store_ts::finished_records(conn, event_id)?;
    recs.truncate(rounds as usize);
    let number_of: HashMap<i64, u32> = participants::all(conn, event_id)?
        .into_iter()
        .filter_map(|p| Some((p.id, p.pairing_number?)))
        .collect();
    let rows = TeamRows::from_records(numbered.len(), &recs, boards);
    let rules = crate::domain::tiebreak_rules(&event.settings, event.start_date);
    let lines = tiebreak::standings(
        &rows,
        settings.primary_score(),
        &settings.team_tiebreaks(),
        rules,
    );
    let mut trf = TeamTrf {
        boards,
        ..Default::default()
    };
    for (t, team) in numbered.iter().enumerate() {
        let members = teams::member_boards(conn, team.id)?
            .into_iter()
            .filter_map(|(_, pid)| number_of.get(&pid).copied())
            .collect();
        trf.teams.push(TrfTeam {
            tpn: t as u32 + 1,
            name: team.name.clone(),
            members,
            match_points: rows.total(t, Score::MatchPoints) as u32,
            game_half: rows.total(t, Score::GamePoints) as u32,
            rank: lines.iter().find(|l| l.team == t).map_or(0, |l| l.rank),
        });
    }
    let tpn_of: HashMap<i64, u32> = numbered
        .iter()
        .enumerate()
        .map(|(t, team)| (team.id, t as u32 + 1))
        .collect();
    for (r, rec) in recs.iter().enumerate() {
        let mut round = TrfTeamRound {
            matches: rec.matches.iter().map(|m| (m.white, m.black)).collect(),
            bye: rec.bye,
            ..Default::default()
        };
        for team in &numbered {
            let lineup = store_ts::lineup(conn, event_id, r as u32 + 1, team.id)?;
            if !lineup.is_empty() {
                round.lineups.insert(
                    tpn_of[&team.id],
                    lineup
                        .iter()
                        .filter_map(|pid| number_of.get(pid).copied())
                        .collect(),
                );
            }
        }
        trf.rounds.push(round);
    }
    Ok(trf.write())
}

/// A team Swiss TRF file read: the checked event to create.
pub(crate) struct TeamImport {
    pub header: TrfHeader,
    state: crate::engine::chess::swiss::SwissState,
    teams: TeamTrf,
    settings: serde_json::Value,
}

/// Reads and checks a team Swiss file (422 naming the line, or the setting it would break).
pub(crate) fn read_team_file(text: &str) -> ApiResult<TeamImport> {
    let header = TrfHeader::read(text).map_err(trf_error)?;
    let (records, rest) = split(text).map_err(trf_error)?;
    let state = parse_trf(&rest).map_err(trf_error)?;
    state
        .validate_history()
        .map_err(crate::api::chess::swiss::state_error)?;
    let teams = assemble(&records, &state).map_err(trf_error)?;
    let b = teams.boards;
    let at = |k: usize| format!("line {}", records.teams.get(k).map_or(0, |t| t.0));
    if !(1..=TEAM_SWISS_MAX_BOARDS).contains(&b) {
        return Err(ApiError::invalid(
            "line 0",
            format!("{b} boards a match; a team Swiss has 1 to {TEAM_SWISS_MAX_BOARDS}"),
        ));
    }
    if teams.teams.len() < 2 || teams.teams.len() as u64 > TEAM_SWISS_MAX_TEAMS {
        return Err(ApiError::invalid(
            "line 0",
            format!("a team Swiss has 2 to {TEAM_SWISS_MAX_TEAMS} teams"),
        ));
    }
    for (k, (_, t)) in records.teams.iter().enumerate() {
        let n = t.members.len() as u32;
        if n < b || n > b + TEAM_SWISS_MAX_RESERVES {
            return Err(ApiError::invalid(
                at(k),
                format!(
                    "team {} has {n} players; a team has its {b} boards and up to {TEAM_SWISS_MAX_RESERVES} reserves",
                    t.tpn
                ),
            ));
        }
    }
    let planned = state.settings.total_rounds.max(teams.rounds.len() as u32);
    if planned > TEAM_SWISS_MAX_ROUNDS {
        return Err(ApiError::invalid(
            "line 0",
            format!("{planned} rounds; a team Swiss has at most {TEAM_SWISS_MAX_ROUNDS}"),
        ));
    }
    let settings = serde_json::json!({"boards": b, "rounds": planned.max(1)});
    Ok(TeamImport {
        header,
        state,
        teams,
        settings,
    })
}

/// Creates the event of a read team Swiss file in one transaction; its admin token.
pub(crate) fn create_team_event(
    tx: &Connection,
    name: &str,
    file: &TeamImport,
) -> ApiResult<CreatedEvent> {
    let now = now();
    let h = &file.header;
    let details = EventDetails {
        place: h.place.clone(),
        federation: h.federation.clone(),
        chief_arbiter: h.chief_arbiter.clone(),
        deputy_arbiters: h.deputy_arbiters.clone(),
        time_control: h.time_control.clone(),
    };
    let mut errors = Vec::new();
    crate::domain::validate_name("name", name, &mut errors);
    details.validate(&mut errors);
    crate::error::check(errors)?;
    crate::api::events::event::validate_dates(h.start_date, h.end_date)?;
    let event_id = events::insert(
        tx,
        &EventFields {
            name: name.trim(),
            game: GameKind::Chess,
            format: FORMAT_TEAM_SWISS,
            start_date: h.start_date,
            end_date: h.end_date,
            settings: &file.settings,
            details: Some(&details),
        },
        &now,
    )?;
    let by_number: HashMap<u32, &crate::engine::chess::swiss::SwissPlayer> = file
        .state
        .players
        .iter()
        .map(|p| (p.start_number, p))
        .collect();
    let mut external_ids = swiss_store::external_ids_of(&file.state.players);
    let mut pid: HashMap<u32, i64> = HashMap::new();
    let mut team_ids = Vec::with_capacity(file.teams.teams.len());
    for t in &file.teams.teams {
        let team_name = if t.name.trim().is_empty() {
            format!("Team {}", t.tpn)
        } else {
            t.name.clone()
        };
        let team_id = teams::insert(tx, event_id, &team_name, &now)?;
        for (board, sn) in t.members.iter().enumerate() {
            let p = by_number[sn];
            let id = participants::insert(
                tx,
                event_id,
                &NewParticipant::from_trf_player(p, external_ids.remove(sn), None),
                &now,
            )?;
            teams::add_member(tx, team_id, id, board as u32 + 1)?;
            participants::set_pairing_number(tx, id, *sn)?;
            pid.insert(*sn, id);
        }
        team_ids.push(team_id);
    }
    teams::assign_numbers(tx, event_id, &team_ids)?;
    events::set_lots(tx, event_id, LotsMethod::Rating, None, &now)?;
    let boards = file.teams.boards;
    for (r, round) in file.teams.rounds.iter().enumerate() {
        let number = r as u32 + 1;
        let round_id = rounds::insert(tx, event_id, number, RoundStatus::Published, &now)?;
        let team_id = |tpn: u32| team_ids[tpn as usize - 1];
        for (k, &(white, black)) in round.matches.iter().enumerate() {
            let table = k as u32 + 1;
            store_ts::insert_match(
                tx,
                event_id,
                &MatchRow {
                    round: number,
                    table_no: Some(table),
                    white_team: team_id(white),
                    black_team: Some(team_id(black)),
                },
                &now,
            )?;
            let (ws, bs) = (&round.lineups[&white], &round.lineups[&black]);
            for (tpn, lineup) in [(white, ws), (black, bs)] {
                let ids: Vec<i64> = lineup.iter().map(|sn| pid[sn]).collect();
                store_ts::set_lineup(tx, event_id, number, team_id(tpn), &ids, "import")?;
            }
            let first = (table - 1) * boards + 1;
            for b in 0..boards as usize {
                let (w, bl) = if b % 2 == 0 {
                    (ws[b], bs[b])
                } else {
                    (bs[b], ws[b])
                };
                let game = teams::insert_game(
                    tx,
                    round_id,
                    first + b as u32,
                    b as u32 + 1,
                    pid[&w],
                    pid[&bl],
                )?;
                let (wr, br) = (
                    by_number[&w].history[r].result,
                    by_number[&bl].history[r].result,
                );
                games::set_result(tx, game, game_result(wr, br).canonical(), "admin", &now)?;
            }
        }
        if let Some(b) = round.bye {
            store_ts::insert_match(
                tx,
                event_id,
                &MatchRow {
                    round: number,
                    table_no: None,
                    white_team: team_id(b),
                    black_team: None,
                },
                &now,
            )?;
        }
    }
    issue_admin_token(tx, event_id, &now)
}
