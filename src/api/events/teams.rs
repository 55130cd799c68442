//! Team events (chess formats `scheveningen` and `hilton`): `/api/v1/events/{id}/teams` (teams
//! with ordered members), the drawing of team numbers and the schedule from the engines (called
//! by the lots handler), and `/api/v1/events/{id}/team-standings`.
//!
//! Team sizes: a Scheveningen match is exactly 2 teams of the same size, 2 to 20 players (the
//! number of boards); a Hilton event an even number of teams from 4 to 26, all of the same size,
//! which is the number of boards (`settings.boards` if given, which every team must then field;
//! the seed's optimum is teams − 1, fewer boards truncate the table and more extend it). Each
//! member is a participant of the event (with its team and board), so results, individual
//! standings and the crosstable work as for any event.
//!
//! Bridge team formats (`teams`, `swiss_teams`) take their teams here too: 4 to 6 players, any
//! mix of sizes; lots number the teams (the team movement or the Swiss draw is made elsewhere:
//! `api::bridge::team_events`, `api::bridge::swiss_draws`).

use std::collections::HashMap;

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::events::standings::TiebreakValues;
use crate::api::extract::{
    csv_cached, csv_field, json_cached, wants_csv, Bearer, FormatQuery, JsonBody, Pagination,
    QueryParams,
};
use crate::api::responses::{AdminAction, AdminWrite, PublicRead};
use crate::domain::closed_sets::EventFormat;
use crate::domain::{
    is_chess_team_format, is_team_format, validate_name, Event, NewParticipant, Page, Participant,
    RoundStatus, TeamSwissEventSettings, FORMAT_HILTON, FORMAT_SCHEVENINGEN, FORMAT_TEAM_SWISS,
    TEAM_SWISS_MAX_RESERVES,
};
use crate::engine::chess::hilton::{self, team_letter};
use crate::engine::chess::scheveningen;
use crate::engine::chess::scoring::{format_half_points, GameResult};
use crate::engine::chess::team_scoring::{self, TeamGameResult, TeamOrder};
use crate::engine::chess::team_swiss::tiebreak::{self, Score, TeamRows, TeamTiebreak};
use crate::engine::chess::tiebreak_order::TiebreakRules;
use crate::engine::lots::{draw_by_rating, draw_random, Entrant};
use crate::error::{check, ApiError, ApiResult, FieldError};
use crate::store::teams::{self, TeamRow};
use crate::store::tokens::Role;
use crate::store::{bridge_matches, events, games, now, participants, rounds, Store};

/// The most members a team may have (the most boards of a Hilton table).
const MAX_MEMBERS: usize = hilton::MAX_BOARDS as usize;
/// The players of a bridge team (formats `teams`, `swiss_teams`).
const BRIDGE_MEMBERS: std::ops::RangeInclusive<usize> = 4..=6;

/// A new team: its name and its players in board order (board 1 first).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Hastings", "members": [
    {"name": "A. Player", "rating": 2200, "federation": "ENG", "external_id": "ENG-1"},
    {"name": "B. Player", "rating": 2150, "federation": "ENG"}
]}))]
pub struct NewTeam {
    #[schema(value_type = crate::limits::schema::Name)]
    pub name: String,
    /// The players, board 1 first (Scheveningen 2–20, Hilton 1–100, bridge 4–6).
    #[schema(min_items = 1, max_items = 100)]
    pub members: Vec<NewParticipant>,
}

/// A member of a team on a board.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"board": 1, "participant": {"id": 7, "event_id": 1, "name": "A. Player", "rating": 2200, "club": null, "federation": "ENG", "external_id": "ENG-1", "pairing_number": 1, "status": "active"}}))]
pub struct TeamMember {
    /// 1 = top board.
    pub board: u32,
    pub participant: Participant,
}

/// A team with its members in board order.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": 1, "event_id": 1, "name": "Hastings", "number": 1, "letter": "A", "average_rating": 2175.0, "members": [
    {"board": 1, "participant": {"id": 7, "event_id": 1, "name": "A. Player", "rating": 2200, "club": null, "federation": "ENG", "external_id": "ENG-1", "pairing_number": 1, "status": "active"}}
]}))]
pub struct Team {
    pub id: i64,
    pub event_id: i64,
    pub name: String,
    /// Set when lots are drawn: 1 = team A of the table.
    pub number: Option<u32>,
    /// The table's letter (A, B, C...), once lots are drawn.
    pub letter: Option<String>,
    /// Mean rating of the rated members (null if none is rated); the draw by rating uses it.
    pub average_rating: Option<f64>,
    pub members: Vec<TeamMember>,
}

/// A team as named in the team standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": 1, "name": "Hastings", "number": 1, "letter": "A"}))]
pub struct TeamRef {
    pub id: i64,
    pub name: String,
    pub number: Option<u32>,
    pub letter: Option<String>,
}

/// One line of the team standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"rank": 1, "shared": false, "team": {"id": 1, "name": "Hastings", "number": 1, "letter": "A"}, "match_points": 2, "game_points": 6.5, "games": 12, "results": 12, "won": 1, "drawn": 0, "lost": 0}))]
pub struct TeamStandingRow {
    /// 1-based; teams equal on match and game points share it.
    pub rank: u32,
    pub shared: bool,
    pub team: TeamRef,
    /// 2 per match won, 1 per match drawn (complete matches only).
    pub match_points: u32,
    /// Points of the team's players (forfeit wins count a point).
    pub game_points: f64,
    /// Games the team's players are scheduled to play.
    pub games: u32,
    /// Of them, games with a result.
    pub results: u32,
    /// Complete matches won, drawn and lost.
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// Team Swiss: Buchholz of match points (`BH:MP`, C.07 art. 8.1 and 16: the opponents'
    /// adjusted match points, a dummy for a round not played); null in other formats.
    pub buchholz: Option<f64>,
    /// Team Swiss: Sonneborn-Berger of match points (`SB:MP`: each opponent's match points
    /// times the match points earned against it); null in other formats.
    pub sonneborn_berger: Option<f64>,
    /// Team Swiss: each team tie-break of the event's list under the code it was asked by
    /// (`BH:GP/C1`: 41.5); `null` for `EDE`, which orders a tie and has no value. Null in
    /// other formats.
    #[schema(value_type = Option<HashMap<String, Option<f64>>>)]
    pub tiebreaks: Option<crate::api::events::standings::TiebreakValues>,
}

/// The games between two teams over the event, team A (the lower number) first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"team_a": {"id": 1, "name": "Hastings", "number": 1, "letter": "A"}, "team_b": {"id": 2, "name": "Oxford", "number": 2, "letter": "B"}, "games": 36, "results": 36, "points_a": 19.5, "points_b": 16.5, "score": "19½–16½", "complete": true, "match_points_a": 2, "match_points_b": 0}))]
pub struct TeamMatch {
    pub team_a: TeamRef,
    pub team_b: TeamRef,
    pub games: u32,
    pub results: u32,
    pub points_a: f64,
    pub points_b: f64,
    /// The score as a director writes it, team A first: "6½–5½".
    pub score: String,
    /// Every game has a result.
    pub complete: bool,
    /// Match points, once the match is complete.
    pub match_points_a: Option<u32>,
    pub match_points_b: Option<u32>,
}

/// The team standings of a team event.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"event_id": 1, "format": "scheveningen", "order": "match_points", "standings": [], "matches": []}))]
pub struct TeamStandings {
    pub event_id: i64,
    #[schema(value_type = EventFormat)]
    pub format: String,
    /// What ranks first: `match_points` (Scheveningen) or `game_points` (Hilton); in a team
    /// Swiss the event's `primary_score`.
    pub order: TeamOrder,
    /// Team Swiss: the team tie-breaks after the primary score, in order; null in other
    /// formats.
    pub tiebreaks: Option<Vec<String>>,
    pub standings: Vec<TeamStandingRow>,
    /// Every pair of teams with games between them (Scheveningen: the one match).
    pub matches: Vec<TeamMatch>,
}

fn letter_of(number: Option<u32>) -> Option<String> {
    number.map(|n| team_letter(n as usize - 1))
}

pub(crate) fn team_ref(row: &TeamRow) -> TeamRef {
    TeamRef {
        id: row.id,
        name: row.name.clone(),
        number: row.number,
        letter: letter_of(row.number),
    }
}

/// The team with its members, read in the request's transaction.
fn load(conn: &Connection, event_id: i64, row: TeamRow) -> ApiResult<Team> {
    let mut members = Vec::new();
    for (board, pid) in teams::member_boards(conn, row.id)? {
        members.push(TeamMember {
            board,
            participant: participants::get(conn, event_id, pid)?,
        });
    }
    let rated: Vec<f64> = members
        .iter()
        .filter_map(|m| m.participant.rating.map(f64::from))
        .collect();
    let average_rating =
        (!rated.is_empty()).then(|| rated.iter().sum::<f64>() / rated.len() as f64);
    Ok(Team {
        id: row.id,
        event_id,
        name: row.name,
        number: row.number,
        letter: letter_of(row.number),
        average_rating,
        members,
    })
}

/// The event, if it is a team event; else a 409 saying so.
fn team_event(conn: &Connection, event_id: i64) -> ApiResult<Event> {
    let event = events::get(conn, event_id)?;
    if !is_team_format(&event.format) {
        return Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; teams belong to {FORMAT_SCHEVENINGEN}, \
             {FORMAT_HILTON} (chess), teams and swiss_teams (bridge) events",
            event.format
        )));
    }
    Ok(event)
}

fn ensure_no_schedule(conn: &Connection, event_id: i64, what: &str) -> ApiResult<()> {
    if rounds::count(conn, event_id)? > 0 || bridge_matches::has_schedule(conn, event_id)? {
        return Err(ApiError::conflict(format!(
            "the schedule is already made; {what}"
        )));
    }
    Ok(())
}

/// Enter a team with its players in board order (each becomes a participant of the event).
/// Admin only; team events only; not once the schedule is made.
///
/// 409: Not a team event, schedule already made, a third Scheveningen team, a name or external_id taken.
/// 422: Invalid values, each named (members[2].name...).
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/teams", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = NewTeam,
    security(("bearer" = [])),
    responses(
        (status = 201, body = Team),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/teams")]
pub async fn create_team(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<NewTeam>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let mut errors: Vec<FieldError> = Vec::new();
    validate_name("name", &body.name, &mut errors);
    if body.members.is_empty() || body.members.len() > MAX_MEMBERS {
        errors.push(FieldError {
            field: "members".into(),
            message: format!("must hold 1 to {MAX_MEMBERS} players, board 1 first"),
        });
    }
    for (i, m) in body.members.iter().enumerate() {
        m.validate(&format!("members[{i}]."), &mut errors);
    }
    check(errors)?;
    let team = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let event = team_event(tx, event_id)?;
            ensure_no_schedule(tx, event_id, "teams can no longer be entered")?;
            if !is_chess_team_format(&event.format) && !BRIDGE_MEMBERS.contains(&body.members.len())
            {
                return Err(ApiError::invalid(
                    "members",
                    format!(
                        "a bridge team has {} to {} players, not {}",
                        BRIDGE_MEMBERS.start(),
                        BRIDGE_MEMBERS.end(),
                        body.members.len()
                    ),
                ));
            }
            if event.format == FORMAT_TEAM_SWISS {
                let boards = TeamSwissEventSettings::parse(&event.settings)?.boards() as usize;
                let most = boards + TEAM_SWISS_MAX_RESERVES as usize;
                if !(boards..=most).contains(&body.members.len()) {
                    return Err(ApiError::invalid(
                        "members",
                        format!(
                            "a team of this event has its {boards} board players and up to \
                             {TEAM_SWISS_MAX_RESERVES} reserves ({boards} to {most} players), not {}",
                            body.members.len()
                        ),
                    ));
                }
                let max_teams = crate::domain::TEAM_SWISS_MAX_TEAMS;
                if teams::count(tx, event_id)? >= max_teams {
                    return Err(ApiError::conflict(format!(
                        "a team Swiss event has at most {max_teams} teams"
                    )));
                }
            }
            if event.format == FORMAT_SCHEVENINGEN {
                let max = scheveningen::MAX_BOARDS as usize;
                if body.members.len() > max {
                    return Err(ApiError::invalid(
                        "members",
                        format!(
                            "a Scheveningen team has 2 to {max} players, not {}",
                            body.members.len()
                        ),
                    ));
                }
                if teams::count(tx, event_id)? >= 2 {
                    return Err(ApiError::conflict(
                        "a Scheveningen match is between exactly 2 teams; this event has both",
                    ));
                }
            }
            let now = now();
            let team_id = teams::insert(tx, event_id, &body.name, &now)?;
            for (i, m) in body.members.iter().enumerate() {
                let pid = participants::insert(tx, event_id, m, &now)?;
                teams::add_member(tx, team_id, pid, i as u32 + 1)?;
            }
            events::touch(tx, event_id, &now)?;
            let row = teams::find(tx, event_id, team_id)?
                .ok_or_else(|| ApiError::Internal("team vanished".into()))?;
            load(tx, event_id, row)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/teams/{}", team.id),
        ))
        .json(team))
}

/// List an event's teams with their members (by team number once lots are drawn, else by
/// entry order).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/teams", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), Pagination),
    responses(
        (status = 200, body = Page<Team>),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/teams")]
pub async fn list_teams(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(page): QueryParams<Pagination>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            let items = teams::list(conn, event_id, limit, offset)?
                .into_iter()
                .map(|row| load(conn, event_id, row))
                .collect::<ApiResult<Vec<Team>>>()?;
            Ok(Page {
                items,
                total: teams::count(conn, event_id)?,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

fn find_team(conn: &Connection, event_id: i64, team_id: i64) -> ApiResult<TeamRow> {
    teams::find(conn, event_id, team_id)?
        .ok_or_else(|| ApiError::not_found(format!("team {team_id} is not in event {event_id}")))
}

/// Read one team with its members.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/teams/{team_id}", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), ("team_id" = i64, Path, description = "Team id")),
    responses(
        (status = 200, body = Team),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/teams/{team_id}")]
pub async fn get_team(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
) -> ApiResult<HttpResponse> {
    let (event_id, team_id) = path.into_inner();
    let team = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            let row = find_team(conn, event_id, team_id)?;
            load(conn, event_id, row)
        })
        .await?;
    json_cached(&req, &team)
}

/// Remove a team and its players (only before the schedule is made). Admin only.
///
/// 409: Schedule already made.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}/teams/{team_id}", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), ("team_id" = i64, Path, description = "Team id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed with its members"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}/teams/{team_id}")]
pub async fn delete_team(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, team_id) = path.into_inner();
    store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            find_team(tx, event_id, team_id)?;
            ensure_no_schedule(tx, event_id, "teams can no longer be removed")?;
            teams::delete(tx, team_id)?;
            events::touch(tx, event_id, &now())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The teams of a team event checked for a draw: in entry order, each with its member ids in
/// board order; and the number of boards. A 409 says what is wrong.
fn checked_teams(
    conn: &Connection,
    event: &Event,
) -> ApiResult<(Vec<TeamRow>, Vec<Vec<i64>>, u32)> {
    let loose = teams::teamless(conn, event.id)?;
    if !loose.is_empty() {
        let names: Vec<String> = loose
            .iter()
            .map(|(id, name)| format!("{name} (participant {id})"))
            .collect();
        return Err(ApiError::conflict(format!(
            "a team event plays in teams; these participants are in no team: {} (enter players \
             through POST /api/v1/events/{}/teams, or remove them)",
            names.join(", "),
            event.id
        )));
    }
    let mut rows = teams::all(conn, event.id)?;
    rows.sort_by_key(|t| t.id);
    let n = rows.len();
    if event.format == FORMAT_SCHEVENINGEN && n != 2 {
        return Err(ApiError::conflict(format!(
            "a Scheveningen match needs exactly 2 teams; the event has {n}"
        )));
    }
    if event.format == FORMAT_HILTON
        && (n % 2 == 1 || !(hilton::MIN_TEAMS as usize..=hilton::MAX_TEAMS as usize).contains(&n))
    {
        return Err(ApiError::conflict(format!(
            "a Hilton event needs an even number of teams from {} to {}; the event has {n}",
            hilton::MIN_TEAMS,
            hilton::MAX_TEAMS
        )));
    }
    let mut members = Vec::with_capacity(n);
    for t in &rows {
        let boards = teams::member_boards(conn, t.id)?;
        if let Some(gap) = (1..=boards.len() as u32).find(|&b| boards[b as usize - 1].0 != b) {
            return Err(ApiError::conflict(format!(
                "team {:?} has no player on board {gap} (a member was removed); enter the team again",
                t.name
            )));
        }
        members.push(boards.into_iter().map(|(_, pid)| pid).collect::<Vec<i64>>());
    }
    if event.format == FORMAT_TEAM_SWISS {
        // Boards and reserves are checked as entered; line-ups are per round.
        if n < 2 {
            return Err(ApiError::conflict(format!(
                "a team Swiss event needs at least 2 teams; the event has {n}"
            )));
        }
        let boards = TeamSwissEventSettings::parse(&event.settings)?.boards();
        return Ok((rows, members, boards));
    }
    if !is_chess_team_format(&event.format) {
        // Bridge: 4 to 6 players a team (checked as entered), at least two teams; the
        // movement or the draw says what else the number of teams allows.
        if n < 2 {
            return Err(ApiError::conflict(format!(
                "a bridge team event needs at least 2 teams; the event has {n}"
            )));
        }
        return Ok((rows, members, 0));
    }
    let sizes: Vec<usize> = members.iter().map(Vec::len).collect();
    if sizes.iter().any(|&s| s != sizes[0]) {
        let list: Vec<String> = rows
            .iter()
            .zip(&sizes)
            .map(|(t, s)| format!("{} {s}", t.name))
            .collect();
        return Err(ApiError::conflict(format!(
            "every team must have the same number of players (the number of boards); the teams \
             have: {}",
            list.join(", ")
        )));
    }
    let size = sizes[0] as u32;
    let boards = if event.format == FORMAT_HILTON {
        match event.settings.get("boards").and_then(|b| b.as_u64()) {
            Some(b) if b != u64::from(size) => {
                return Err(ApiError::conflict(format!(
                    "settings.boards is {b} but the teams have {size} players each; every team \
                     fields exactly one player per board"
                )))
            }
            _ => size,
        }
    } else {
        if !(scheveningen::MIN_BOARDS..=scheveningen::MAX_BOARDS).contains(&size) {
            return Err(ApiError::conflict(format!(
                "a Scheveningen match is played on {} to {} boards; the teams have {size} \
                 players each",
                scheveningen::MIN_BOARDS,
                scheveningen::MAX_BOARDS
            )));
        }
        size
    };
    Ok((rows, members, boards))
}

/// Draws the team numbers of a team event (at random from `seed`, or by average rating when
/// `seed` is None) and returns the participants in pairing-number order: team A's members by
/// board, then team B's... Called by the lots handler inside its transaction.
pub fn number_teams(conn: &Connection, event: &Event, seed: Option<u64>) -> ApiResult<Vec<i64>> {
    let (rows, members, _) = checked_teams(conn, event)?;
    let mut entrants: Vec<Entrant> = Vec::with_capacity(rows.len());
    for (t, ids) in rows.iter().zip(&members) {
        let mut ratings: Vec<i64> = Vec::with_capacity(ids.len());
        for &pid in ids {
            if let Some(r) = participants::get(conn, event.id, pid)?.rating {
                ratings.push(i64::from(r));
            }
        }
        // Hundredths of a point, so close averages are not rounded together.
        let rating = (!ratings.is_empty())
            .then(|| (ratings.iter().sum::<i64>() * 100 / ratings.len() as i64) as i32);
        entrants.push(Entrant { key: t.id, rating });
    }
    let order = match seed {
        Some(s) => draw_random(&entrants, s),
        None => draw_by_rating(&entrants),
    };
    teams::assign_numbers(conn, event.id, &order)?;
    let by_id: HashMap<i64, &Vec<i64>> = rows.iter().map(|t| t.id).zip(&members).collect();
    Ok(order
        .iter()
        .flat_map(|id| by_id[id].iter().copied())
        .collect())
}

/// Writes the whole schedule of a team event from the engine (teams already numbered), rounds
/// published. Called by the lots handler inside its transaction.
pub fn make_schedule(conn: &Connection, event: &Event) -> ApiResult<()> {
    let (_, _, boards) = checked_teams(conn, event)?;
    if event.format == FORMAT_TEAM_SWISS {
        // Paired round by round (`api::chess::team_swiss`).
        return Ok(());
    }
    // Members by team number (team A = index 0), in board order.
    let numbered = teams::all(conn, event.id)?;
    let mut squads: Vec<Vec<i64>> = Vec::with_capacity(numbered.len());
    for t in &numbered {
        squads.push(
            teams::member_boards(conn, t.id)?
                .into_iter()
                .map(|(_, pid)| pid)
                .collect(),
        );
    }
    let cannot = |e: hilton::TableError| {
        ApiError::conflict(format!("cannot make the schedule: {}", e.message))
    };
    let now = now();
    if event.format == FORMAT_SCHEVENINGEN {
        let (a, b) = (&squads[0], &squads[1]);
        for (r, round) in scheveningen::schedule(boards)
            .map_err(cannot)?
            .iter()
            .enumerate()
        {
            let round_id =
                rounds::insert(conn, event.id, r as u32 + 1, RoundStatus::Published, &now)?;
            for g in round {
                let (white, black) = if g.a_white {
                    (a[g.a], b[g.b])
                } else {
                    (b[g.b], a[g.a])
                };
                let board = g.board as u32 + 1;
                teams::insert_game(conn, round_id, board, board, white, black)?;
            }
        }
    } else {
        let table = hilton::schedule(squads.len() as u32, Some(boards)).map_err(cannot)?;
        for (r, round) in table.iter().enumerate() {
            let round_id =
                rounds::insert(conn, event.id, r as u32 + 1, RoundStatus::Published, &now)?;
            for (k, g) in round.iter().enumerate() {
                teams::insert_game(
                    conn,
                    round_id,
                    k as u32 + 1,
                    g.board as u32 + 1,
                    squads[g.white][g.board],
                    squads[g.black][g.board],
                )?;
            }
        }
    }
    Ok(())
}

pub(crate) fn team_standings(conn: &Connection, event_id: i64) -> ApiResult<TeamStandings> {
    let event = events::get(conn, event_id)?;
    if !is_chess_team_format(&event.format) {
        return Err(ApiError::not_found(format!(
            "event {event_id} is a {} event; team standings belong to {FORMAT_SCHEVENINGEN}, \
             {FORMAT_HILTON} and {FORMAT_TEAM_SWISS} events",
            event.format
        )));
    }
    let rows = teams::all(conn, event_id)?;
    let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    let sides = teams::sides(conn, event_id)?;
    let team_of = |pid: i64| sides.get(&pid).and_then(|s| index.get(&s.id).copied());
    let scored: Vec<TeamGameResult> = games::all(conn, event_id)?
        .into_iter()
        .filter_map(|g| {
            Some(TeamGameResult {
                white_team: team_of(g.white_id)?,
                black_team: team_of(g.black_id)?,
                result: g.result.as_deref().and_then(GameResult::parse),
            })
        })
        .collect();
    let mut order = if event.format == FORMAT_HILTON {
        TeamOrder::GamePoints
    } else {
        TeamOrder::MatchPoints
    };
    let mut tiebreak_names = None;
    let standings = if event.format == FORMAT_TEAM_SWISS {
        let settings = TeamSwissEventSettings::parse(&event.settings)?;
        if settings.primary_score() == Score::GamePoints {
            order = TeamOrder::GamePoints;
        }
        let list = settings.team_tiebreaks();
        tiebreak_names = Some(list.iter().map(|t| t.text.clone()).collect());
        let rules = crate::domain::tiebreak_rules(&event.settings, event.start_date);
        team_swiss_standings(conn, event_id, &rows, &scored, &settings, &list, rules)?
    } else {
        team_scoring::standings(rows.len(), &scored, order)
            .into_iter()
            .map(|s| TeamStandingRow {
                rank: s.rank,
                shared: s.shared,
                team: team_ref(&rows[s.team]),
                match_points: s.match_points,
                game_points: f64::from(s.game_half_points) / 2.0,
                games: s.games,
                results: s.results,
                won: s.won,
                drawn: s.drawn,
                lost: s.lost,
                buchholz: None,
                sonneborn_berger: None,
                tiebreaks: None,
            })
            .collect()
    };
    let matches = team_scoring::matches(rows.len(), &scored)
        .into_iter()
        .map(|m| {
            let mp = m.match_points();
            TeamMatch {
                team_a: team_ref(&rows[m.a]),
                team_b: team_ref(&rows[m.b]),
                games: m.games,
                results: m.results,
                points_a: f64::from(m.a_half) / 2.0,
                points_b: f64::from(m.b_half) / 2.0,
                score: m.score(),
                complete: m.complete(),
                match_points_a: mp.map(|p| p.0),
                match_points_b: mp.map(|p| p.1),
            }
        })
        .collect();
    Ok(TeamStandings {
        event_id,
        format: event.format,
        order,
        tiebreaks: tiebreak_names,
        standings,
        matches,
    })
}

/// The standings of a team Swiss event over its finished rounds (C.04.6 scoring: a bye is a
/// drawn match), ranked by the primary score then the event's team tie-breaks
/// ([`crate::engine::chess::team_swiss::tiebreak`]); games and results counted as played.
fn team_swiss_standings(
    conn: &Connection,
    event_id: i64,
    rows: &[TeamRow],
    scored: &[TeamGameResult],
    settings: &TeamSwissEventSettings,
    list: &[TeamTiebreak],
    rules: TiebreakRules,
) -> ApiResult<Vec<TeamStandingRow>> {
    let (numbered, recs, boards) = crate::store::team_swiss::finished_records(conn, event_id)?;
    if numbered.iter().any(|t| t.number.is_none()) {
        return Ok(Vec::new());
    }
    let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    let mut games = vec![(0u32, 0u32); rows.len()];
    for g in scored {
        for t in [g.white_team, g.black_team] {
            games[t].0 += 1;
            games[t].1 += u32::from(g.result.is_some());
        }
    }
    let mut wdl = vec![(0u32, 0u32, 0u32); numbered.len()];
    for r in &recs {
        for m in &r.matches {
            let (w, b) = m.match_points();
            for (tpn, mp) in [(m.white, w), (m.black, b)] {
                let x = &mut wdl[tpn as usize - 1];
                match mp {
                    2 => x.0 += 1,
                    1 => x.1 += 1,
                    _ => x.2 += 1,
                }
            }
        }
    }
    let team_rows = TeamRows::from_records(numbered.len(), &recs, boards);
    let primary = settings.primary_score();
    let of = |code: &str| {
        let tb = TeamTiebreak::parse(code).expect("a fixed code");
        tiebreak::values(&team_rows, primary, &tb, rules)
    };
    let (bh, sb) = (of("BH:MP"), of("SB:MP"));
    Ok(tiebreak::standings(&team_rows, primary, list, rules)
        .into_iter()
        .map(|line| {
            let t = line.team;
            let team = &numbered[t];
            let (g, res) = games[index[&team.id]];
            let (won, drawn, lost) = wdl[t];
            TeamStandingRow {
                rank: line.rank,
                shared: line.shared,
                team: team_ref(team),
                match_points: team_rows.total(t, Score::MatchPoints) as u32,
                game_points: team_rows.total(t, Score::GamePoints) as f64 / 2.0,
                games: g,
                results: res,
                won,
                drawn,
                lost,
                buchholz: bh[t].map(|v| v as f64),
                sonneborn_berger: sb[t].map(|v| v as f64),
                tiebreaks: Some(TiebreakValues(
                    list.iter()
                        .zip(&line.values)
                        .map(|(tb, v)| {
                            let unit = tb.unit(primary) as f64;
                            (tb.text.clone(), v.map(|x| x as f64 / unit))
                        })
                        .collect(),
                )),
            }
        })
        .collect())
}

/// The team standings of a team event: match points (2 a match won, 1 drawn; a match is every
/// game between two teams over the event, counted once all have results) and game points.
/// Scheveningen ranks by match points then game points, Hilton by game points then match
/// points. JSON (with every match and its score, "6½–5½") or CSV.
///
/// 404: No such event, or not a team event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/team-standings", tag = "teams",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: Rank,Team,Letter,MatchPoints,GamePoints,Games,Results,Won,Drawn,Lost)", content(
            (TeamStandings = "application/json"),
            (String = "text/csv"),
        )),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/team-standings")]
pub async fn get_team_standings(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(query): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let wants_csv = wants_csv(&req, query.format.as_deref())?;
    let table = store
        .read(move |conn| team_standings(conn, event_id))
        .await?;
    if wants_csv {
        let mut out =
            String::from("Rank,Team,Letter,MatchPoints,GamePoints,Games,Results,Won,Drawn,Lost\n");
        for r in &table.standings {
            out.push_str(&format!(
                "{}{},{},{},{},{},{},{},{},{},{}\n",
                r.rank,
                if r.shared { "=" } else { "" },
                csv_field(&r.team.name),
                r.team.letter.as_deref().unwrap_or_default(),
                r.match_points,
                format_half_points((r.game_points * 2.0) as u32),
                r.games,
                r.results,
                r.won,
                r.drawn,
                r.lost
            ));
        }
        return Ok(csv_cached(&req, out));
    }
    json_cached(&req, &table)
}
