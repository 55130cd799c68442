//! Chess team Swiss events (`team_swiss`, FIDE C.04.6): the team pairing of the next round
//! (`/api/v1/events/{id}/team-rounds`), each team's line-up for a round (by the event's admin
//! or the team's captain, with a captain's token from
//! `/api/v1/events/{id}/teams/{team_id}/captain-token`), and a round board by board.
//!
//! The flow: teams entered with their players (boards, then up to 5 reserves) through
//! `/teams`; lots number the teams (the TPN of C.04.6 1.1); each round is paired from the
//! results so far ([`crate::engine::chess::team_swiss`]); each team lines up `boards` of its
//! players; once both line-ups of a match are in, its games are made (the team with White on
//! board 1 has White on the odd boards) and results are entered as for any event
//! (`/results`, by round and board: the match at table `t` holds boards
//! `(t − 1) × boards + 1` onwards). The next round is paired when every game has a result.

use std::collections::HashMap;

use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::events::teams::{team_ref, TeamRef};
use crate::api::extract::{json_cached, Bearer, JsonBody};
use crate::api::responses::{AdminWrite, PublicRead};
use crate::domain::{
    Event, RoundStatus, TeamSwissEventSettings, FORMAT_TEAM_SWISS, TEAM_SWISS_MAX_TEAMS,
};
use crate::engine::chess::swiss::Colour;
use crate::engine::chess::team_swiss::event::{facts, PlayedMatch};
use crate::engine::chess::team_swiss::tiebreak::Score;
use crate::engine::chess::team_swiss::{pair_team_round, TeamSwissError, TeamSwissSettings};
use crate::error::{ApiError, ApiResult, Problem};
use crate::store::team_swiss::{self as store_ts, read_played, records, MatchRow};
use crate::store::teams::{self, TeamRow};
use crate::store::tokens::Role;
use crate::store::{events, games, now, participants, rounds, Store};

/// A player on a board of a match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinedUpPlayer {
    pub participant_id: i64,
    pub name: String,
}

/// One board of a match: its game once both line-ups are in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchBoard {
    /// The team board, 1 first.
    pub board: u32,
    /// The game's board number in the round (what `/results` takes).
    pub round_board: u32,
    pub white: LinedUpPlayer,
    pub black: LinedUpPlayer,
    /// `1-0`, `½-½` (as entered), ... ; null until entered.
    pub result: Option<String>,
}

/// A match of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamSwissMatch {
    pub table: u32,
    /// The team with White on board 1 (and on the odd boards).
    pub white_team: TeamRef,
    pub black_team: TeamRef,
    pub white_lineup_in: bool,
    pub black_lineup_in: bool,
    /// The games, once both line-ups are in.
    pub boards: Vec<MatchBoard>,
    pub white_points: f64,
    pub black_points: f64,
    /// Every game has a result.
    pub complete: bool,
    /// Match points (2 win, 1 draw), once complete.
    pub white_match_points: Option<u32>,
    pub black_match_points: Option<u32>,
}

/// A round of a team Swiss event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamSwissRound {
    pub event_id: i64,
    pub round: u32,
    pub matches: Vec<TeamSwissMatch>,
    /// The team given the pairing-allocated bye (scored as a drawn match).
    pub bye: Option<TeamRef>,
}

/// A team's line-up for a round: participant ids of its members, board 1 first, exactly the
/// event's `boards`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": [7, 8, 9, 11]}))]
pub struct Lineup {
    #[schema(min_items = 1, max_items = 20)]
    pub players: Vec<i64>,
}

/// A captain's token, shown once.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CaptainToken {
    pub id: i64,
    pub team_id: i64,
    /// Good for this team's line-ups only; keep it, it is not shown again.
    pub token: String,
}

/// The event, if it is a team Swiss event, and its settings; else a 409.
fn team_swiss_event(
    conn: &Connection,
    event_id: i64,
) -> ApiResult<(Event, TeamSwissEventSettings)> {
    let event = events::get(conn, event_id)?;
    if event.format != FORMAT_TEAM_SWISS {
        return Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; team rounds belong to {FORMAT_TEAM_SWISS} events",
            event.format
        )));
    }
    let settings = TeamSwissEventSettings::parse(&event.settings)?;
    Ok((event, settings))
}

/// The teams by number (TPN − 1); a 409 before lots.
fn numbered_teams(conn: &Connection, event_id: i64) -> ApiResult<Vec<TeamRow>> {
    let rows = teams::all(conn, event_id)?;
    if rows.is_empty() || rows.iter().any(|t| t.number.is_none()) {
        return Err(ApiError::conflict(
            "the teams are numbered when lots are drawn (POST /api/v1/events/{id}/lots); draw them first",
        ));
    }
    Ok(rows)
}

fn player(conn: &Connection, event_id: i64, id: i64) -> ApiResult<LinedUpPlayer> {
    Ok(LinedUpPlayer {
        participant_id: id,
        name: participants::get(conn, event_id, id)?.name,
    })
}

/// A round as served.
pub(crate) fn round_view(
    conn: &Connection,
    event_id: i64,
    number: u32,
) -> ApiResult<TeamSwissRound> {
    let p = read_played(conn, event_id)?;
    let Some(ms) = p
        .rounds
        .get(number as usize - 1)
        .filter(|ms| !ms.is_empty())
    else {
        return Err(ApiError::not_found(format!(
            "round {number} of event {event_id} is not paired"
        )));
    };
    let by_id: HashMap<i64, &TeamRow> = p.teams.iter().map(|t| (t.id, t)).collect();
    let mut out = TeamSwissRound {
        event_id,
        round: number,
        matches: Vec::new(),
        bye: None,
    };
    for m in ms {
        let Some(black) = m.row.black_team else {
            out.bye = Some(team_ref(by_id[&m.row.white_team]));
            continue;
        };
        let (w, b, complete) = m.points();
        let mp = complete.then(|| {
            PlayedMatch {
                white: 0,
                black: 0,
                white_half: w,
                black_half: b,
            }
            .match_points()
        });
        let mut boards = Vec::new();
        for (board, round_board, white, black_id, result) in &m.games {
            boards.push(MatchBoard {
                board: *board,
                round_board: *round_board,
                white: player(conn, event_id, *white)?,
                black: player(conn, event_id, *black_id)?,
                result: result.clone(),
            });
        }
        out.matches.push(TeamSwissMatch {
            table: m.row.table_no.unwrap_or(0),
            white_team: team_ref(by_id[&m.row.white_team]),
            black_team: team_ref(by_id[&black]),
            white_lineup_in: m.white_in,
            black_lineup_in: m.black_in,
            boards,
            white_points: f64::from(w) / 2.0,
            black_points: f64::from(b) / 2.0,
            complete,
            white_match_points: mp.map(|x| x.0),
            black_match_points: mp.map(|x| x.1),
        });
    }
    Ok(out)
}

/// Pair the next round of a team Swiss event by FIDE C.04.6 from the results so far (match
/// points the score, game points for colours; Type A colour preferences unless the settings
/// say otherwise). Admin only. Every game of the rounds before must have a result.
///
/// 409: Not a team Swiss event, lots not drawn, a round unfinished, all rounds paired, more
/// than 200 teams, or no pairing meets the absolute criteria (C.04.6 3.3.3: the chief
/// arbiter decides).
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/team-rounds", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id")),
    security(("bearer" = [])),
    responses(
        (status = 201, body = TeamSwissRound),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/team-rounds")]
pub async fn pair_team_round_handler(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let round = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let (_, settings) = team_swiss_event(tx, event_id)?;
            let rows = numbered_teams(tx, event_id)?;
            if rows.len() as u64 > TEAM_SWISS_MAX_TEAMS || rows.len() < 2 {
                return Err(ApiError::conflict(format!(
                    "a team Swiss event pairs 2 to {TEAM_SWISS_MAX_TEAMS} teams; the event has {}",
                    rows.len()
                )));
            }
            let played = read_played(tx, event_id)?;
            let recs = records(&played, settings.boards())?;
            let number = recs.len() as u32 + 1;
            if number > settings.rounds() {
                return Err(ApiError::conflict(format!(
                    "all {} rounds are paired (settings.rounds)",
                    settings.rounds()
                )));
            }
            let mut ts = facts(rows.len(), &recs, settings.boards());
            if settings.primary_score() == Score::GamePoints {
                // C.04.6 1.2.1: game points primary, match points secondary (both doubled
                // into half-points as the engine counts them).
                for t in &mut ts {
                    std::mem::swap(&mut t.secondary, &mut t.score);
                }
            }
            let s = TeamSwissSettings {
                preferences: settings.colour_preferences.unwrap_or_default(),
                secondary_for_colours: true,
                initial_colour: settings.initial_colour.unwrap_or(Colour::White),
                round: number,
                rounds: settings.rounds(),
            };
            let pairing = pair_team_round(&ts, &s).map_err(|e| match e {
                TeamSwissError::Solver(m) => ApiError::Internal(m),
                other => ApiError::conflict(format!("cannot pair round {number}: {other}")),
            })?;
            let id_of = |tpn: u32| rows[tpn as usize - 1].id;
            let now = now();
            rounds::insert(tx, event_id, number, RoundStatus::Published, &now)?;
            for (k, m) in pairing.matches.iter().enumerate() {
                store_ts::insert_match(
                    tx,
                    event_id,
                    &MatchRow {
                        round: number,
                        table_no: Some(k as u32 + 1),
                        white_team: id_of(m.white),
                        black_team: Some(id_of(m.black)),
                    },
                    &now,
                )?;
            }
            if let Some(b) = pairing.bye {
                store_ts::insert_match(
                    tx,
                    event_id,
                    &MatchRow {
                        round: number,
                        table_no: None,
                        white_team: id_of(b),
                        black_team: None,
                    },
                    &now,
                )?;
            }
            events::touch(tx, event_id, &now)?;
            round_view(tx, event_id, number)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/team-rounds/{}", round.round),
        ))
        .json(round))
}

/// A round of a team Swiss event: its matches, line-ups and games board by board with their
/// results, and the bye.
///
/// 404: No such event or round. 409: Not a team Swiss event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/team-rounds/{round}", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, minimum = 1, maximum = 30, description = "Round number")),
    responses(
        (status = 200, body = TeamSwissRound),
        (status = 409, description = "Not a team Swiss event", body = Problem, content_type = "application/problem+json"),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/team-rounds/{round}")]
pub async fn get_team_round(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let round = store
        .read(move |conn| {
            team_swiss_event(conn, event_id)?;
            if number == 0 {
                return Err(ApiError::invalid("round", "rounds are numbered from 1"));
            }
            round_view(conn, event_id, number)
        })
        .await?;
    json_cached(&req, &round)
}

/// Line up a team for a round: `boards` of its members, board 1 first, each once. By the
/// event's admin token or the team's captain token. Once both teams of the match are lined
/// up the match's games are made; a line-up can be changed until then.
///
/// 403: Another team's captain token. 404: No such team or round. 409: The team has a bye
/// this round, or the match's games are made. 422: Not the number of boards, a player twice,
/// or not a member of the team (`players[i]`).
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/team-rounds/{round}/lineups/{team_id}", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, minimum = 1, maximum = 30, description = "Round number"), ("team_id" = i64, Path, description = "Team id")),
    request_body = Lineup,
    security(("bearer" = [])),
    responses(
        (status = 200, body = TeamSwissRound),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/team-rounds/{round}/lineups/{team_id}")]
pub async fn set_lineup(
    store: web::Data<Store>,
    path: web::Path<(i64, u32, i64)>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<Lineup>,
) -> ApiResult<HttpResponse> {
    let (event_id, number, team_id) = path.into_inner();
    let round = store
        .write(move |tx| {
            let entered_by = require_captain(tx, event_id, token.as_deref(), team_id)?;
            let (_, settings) = team_swiss_event(tx, event_id)?;
            teams::find(tx, event_id, team_id)?.ok_or_else(|| {
                ApiError::not_found(format!("team {team_id} is not in event {event_id}"))
            })?;
            let boards = settings.boards();
            if body.players.len() != boards as usize {
                return Err(ApiError::invalid(
                    "players",
                    format!(
                        "a line-up has exactly {boards} players (settings.boards), not {}",
                        body.players.len()
                    ),
                ));
            }
            let members: Vec<i64> = teams::member_boards(tx, team_id)?
                .into_iter()
                .map(|(_, pid)| pid)
                .collect();
            for (i, pid) in body.players.iter().enumerate() {
                if !members.contains(pid) {
                    return Err(ApiError::invalid(
                        format!("players[{i}]"),
                        format!("participant {pid} is not a member of team {team_id}"),
                    ));
                }
                if body.players[..i].contains(pid) {
                    return Err(ApiError::invalid(
                        format!("players[{i}]"),
                        format!("participant {pid} is lined up twice"),
                    ));
                }
            }
            let all = store_ts::matches(tx, event_id)?;
            let Some(m) = all.iter().find(|m| {
                m.round == number
                    && (m.white_team == team_id || m.black_team == Some(team_id))
            }) else {
                return Err(ApiError::not_found(format!(
                    "round {number} of event {event_id} is not paired"
                )));
            };
            let (Some(table), Some(black)) = (m.table_no, m.black_team) else {
                return Err(ApiError::conflict(format!(
                    "team {team_id} has the bye in round {number}; it lines up no one"
                )));
            };
            let other = if m.white_team == team_id { black } else { m.white_team };
            let round_row = rounds::find(tx, event_id, number)?
                .ok_or_else(|| ApiError::Internal("a paired round has no row".into()))?;
            let first = (table - 1) * boards + 1;
            if games::of_round(tx, round_row.id)?
                .iter()
                .any(|g| (first..first + boards).contains(&g.board))
            {
                return Err(ApiError::conflict(format!(
                    "the games of table {table} in round {number} are made; line-ups no longer change"
                )));
            }
            store_ts::set_lineup(tx, event_id, number, team_id, &body.players, &entered_by)?;
            let theirs = store_ts::lineup(tx, event_id, number, other)?;
            if !theirs.is_empty() {
                let mine = &body.players;
                let (white_side, black_side) = if m.white_team == team_id {
                    (mine.as_slice(), theirs.as_slice())
                } else {
                    (theirs.as_slice(), mine.as_slice())
                };
                for k in 0..boards as usize {
                    let (w, b) = if k % 2 == 0 {
                        (white_side[k], black_side[k])
                    } else {
                        (black_side[k], white_side[k])
                    };
                    teams::insert_game(tx, round_row.id, first + k as u32, k as u32 + 1, w, b)?;
                }
            }
            events::touch(tx, event_id, &now())?;
            round_view(tx, event_id, number)
        })
        .await?;
    Ok(HttpResponse::Ok().json(round))
}

/// Admin, or the captain of `team_id`: who entered the line-up.
fn require_captain(
    conn: &Connection,
    event_id: i64,
    token: Option<&str>,
    team_id: i64,
) -> ApiResult<String> {
    if let Some(t) = token {
        if let Some((id, event, team)) = store_ts::captain(conn, t)? {
            events::get(conn, event_id)?;
            if event != event_id || team != team_id {
                return Err(ApiError::Forbidden(format!(
                    "this captain's token is for another team; team {team_id} of event {event_id} needs its own captain's token or the admin token"
                )));
            }
            return Ok(format!("captain:{id}"));
        }
    }
    auth::require(conn, event_id, token, Role::Admin)?;
    Ok("admin".into())
}

/// Issue a captain's token for a team of a team Swiss event: good for that team's line-ups
/// only. Admin only. The token is shown once.
///
/// 404: No such team. 409: Not a team Swiss event.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/teams/{team_id}/captain-token", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), ("team_id" = i64, Path, description = "Team id")),
    security(("bearer" = [])),
    responses(
        (status = 201, body = CaptainToken),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/teams/{team_id}/captain-token")]
pub async fn issue_captain_token(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, team_id) = path.into_inner();
    let issued = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            team_swiss_event(tx, event_id)?;
            teams::find(tx, event_id, team_id)?.ok_or_else(|| {
                ApiError::not_found(format!("team {team_id} is not in event {event_id}"))
            })?;
            let (id, token) = store_ts::issue_captain(tx, event_id, team_id, &now())?;
            Ok(CaptainToken { id, team_id, token })
        })
        .await?;
    Ok(HttpResponse::Created().json(issued))
}
