//! `/api/v1/tournaments`: create, list and read tournaments; create their sections.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;

use crate::api::auth;
use crate::api::events::event::{
    check_new_event, created_response, insert_event, issue_admin_token,
};
use crate::api::extract::{json_cached, Bearer, JsonBody, Pagination, QueryParams};
use crate::api::responses::{AdminAction, AdminWrite, PublicRead, PublicSubmit, StatelessRead};
use crate::domain::tournament::{
    CreatedTournament, NewTournament, SectionState, SectionSummary, Tournament, TournamentDetail,
    TournamentPatch, TournamentSettings,
};
use crate::domain::{
    is_chess_team_format, merge_patch, CreatedEvent, Event, GameKind, NewEvent, Page, FORMAT_PAIRS,
    FORMAT_SWISS,
};
use crate::error::{ApiError, ApiResult};
use crate::limits::MAX_TOURNAMENT_SECTIONS;
use crate::store::{events, movements, now, tournaments, Store};

/// Create a tournament. The answer includes the tournament's admin token, shown only this
/// once: it creates the sections and administers every one of them.
#[utoipa::path(
    post, path = "/api/v1/tournaments", tag = "tournaments",
    request_body = NewTournament,
    responses(
        (status = 201, description = "Created; keep the admin_token", body = CreatedTournament),
        PublicSubmit,
    )
)]
#[post("/api/v1/tournaments")]
pub async fn create_tournament(
    store: web::Data<Store>,
    JsonBody(body): JsonBody<NewTournament>,
) -> ApiResult<HttpResponse> {
    body.validate()?;
    let created = store
        .write(move |tx| {
            let now = now();
            let id = tournaments::insert(tx, &body, &now)?;
            let admin_token = tournaments::issue_admin(tx, id, &now)?;
            Ok(CreatedTournament {
                tournament: tournaments::get(tx, id)?,
                admin_token,
            })
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/tournaments/{}", created.tournament.id),
        ))
        .json(created))
}

/// List tournaments by date: the earliest start first, undated ones last.
#[utoipa::path(
    get, path = "/api/v1/tournaments", tag = "tournaments",
    params(Pagination),
    responses(
        (status = 200, body = Page<Tournament>),
        StatelessRead,
    )
)]
#[get("/api/v1/tournaments")]
pub async fn list_tournaments(
    req: HttpRequest,
    store: web::Data<Store>,
    QueryParams(page): QueryParams<Pagination>,
) -> ApiResult<HttpResponse> {
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            Ok(Page {
                items: tournaments::list(conn, limit, offset)?,
                total: tournaments::count(conn)?,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// Read a tournament with its sections: each one's format, state, rounds, current round,
/// participants and results entered.
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    responses(
        (status = 200, body = TournamentDetail),
        PublicRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}")]
pub async fn get_tournament(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let detail = store.read(move |conn| tournament_detail(conn, id)).await?;
    json_cached(&req, &detail)
}

/// Create a section of the tournament: the body of `POST /api/v1/events`. The tournament's
/// admin token is needed; the answer also holds the section's own admin token (shown once),
/// for a director who hands one section to a deputy.
///
/// 409: The tournament already has the most sections (50).
#[utoipa::path(
    post, path = "/api/v1/tournaments/{tournament_id}/events", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    request_body = NewEvent,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created; the section's own admin_token is shown once", body = CreatedEvent),
        AdminWrite,
    )
)]
#[post("/api/v1/tournaments/{tournament_id}/events")]
pub async fn create_section(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<NewEvent>,
) -> ApiResult<HttpResponse> {
    let tournament = path.into_inner();
    let settings = check_new_event(&body)?;
    let created = store
        .write(move |tx| {
            auth::require_tournament(tx, tournament, token.as_deref())?;
            let sections = events::of_tournament(tx, tournament)?.len();
            if sections >= MAX_TOURNAMENT_SECTIONS {
                return Err(ApiError::conflict(format!(
                    "tournament {tournament} has {sections} sections; a tournament holds at most {MAX_TOURNAMENT_SECTIONS}"
                )));
            }
            let now = now();
            let id = insert_event(tx, &body, &settings, &now)?;
            events::set_tournament(tx, id, tournament)?;
            tournaments::touch(tx, tournament, &now)?;
            issue_admin_token(tx, id, &now)
        })
        .await?;
    Ok(created_response(created))
}

/// Change a tournament's name, dates, place or settings (`across_the_field`, or named
/// `groups` of its sections, each possibly scored across the field). The tournament's admin
/// token only.
///
/// 422: A setting at fault, named (`settings.groups[0].sections[2]`: not a section of this
/// tournament, or not a pairs section in a group scored across the field).
#[utoipa::path(
    patch, path = "/api/v1/tournaments/{tournament_id}", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    request_body = TournamentPatch,
    security(("bearer" = [])),
    responses(
        (status = 200, body = Tournament),
        AdminWrite,
    )
)]
#[patch("/api/v1/tournaments/{tournament_id}")]
pub async fn update_tournament(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(patch): JsonBody<TournamentPatch>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let t = store
        .write(move |tx| {
            auth::require_tournament(tx, id, token.as_deref())?;
            let mut t = tournaments::get(tx, id)?;
            match patch.name {
                Some(Some(name)) => t.name = name,
                Some(None) => {
                    return Err(ApiError::invalid(
                        "name",
                        "cannot be removed: a tournament has a name",
                    ))
                }
                None => {}
            }
            if let Some(date) = patch.start_date {
                t.start_date = date;
            }
            if let Some(date) = patch.end_date {
                t.end_date = date;
            }
            if let Some(place) = patch.place {
                t.place = place;
            }
            NewTournament {
                name: t.name.clone(),
                start_date: t.start_date,
                end_date: t.end_date,
                place: t.place.clone(),
                settings: None,
            }
            .validate()?;
            if let Some(changes) = &patch.settings {
                let mut merged = t.settings.clone();
                match changes {
                    None => merged = serde_json::json!({}),
                    Some(c) if !c.is_object() => {
                        return Err(ApiError::invalid("settings", "must be a JSON object"))
                    }
                    Some(c) => merge_patch(&mut merged, c),
                }
                let parsed = TournamentSettings::parse(Some(&merged))?;
                let sections: Vec<(i64, String)> = events::of_tournament(tx, id)?
                    .into_iter()
                    .map(|e| (e.id, e.format))
                    .collect();
                parsed.check_sections(&sections)?;
                t.settings = merged;
            }
            tournaments::update(tx, id, &t, &now())?;
            tournaments::get(tx, id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(t))
}

/// The tournament with a summary of each section.
pub(crate) fn tournament_detail(conn: &Connection, id: i64) -> ApiResult<TournamentDetail> {
    let tournament = tournaments::get(conn, id)?;
    let sections = events::of_tournament(conn, id)?
        .iter()
        .map(|e| section_summary(conn, e))
        .collect::<ApiResult<_>>()?;
    Ok(TournamentDetail {
        tournament,
        sections,
    })
}

/// Where a section stands (see [`SectionState`]).
pub(crate) fn section_summary(conn: &Connection, event: &Event) -> ApiResult<SectionSummary> {
    let (state, current_round, results) = match event.game {
        GameKind::Chess => chess_progress(conn, event)?,
        GameKind::Bridge => bridge_progress(conn, event)?,
    };
    Ok(SectionSummary {
        id: event.id,
        name: event.name.clone(),
        game: event.game,
        format: event.format.clone(),
        state,
        rounds: event.rounds,
        current_round,
        participants: event.participants,
        results,
    })
}

/// A chess section: rounds made and published, games with a result.
fn chess_progress(conn: &Connection, event: &Event) -> ApiResult<(SectionState, Option<u32>, u32)> {
    // the round in play: the first published round with a game still to finish, else the
    // last published round (a round robin publishes every round at once)
    let (made, drafts, published_max, in_play): (u32, u32, Option<u32>, Option<u32>) = conn
        .query_row(
            "SELECT COUNT(*), COALESCE(SUM(status = 'draft'), 0),
                    MAX(CASE WHEN status = 'published' THEN number END),
                    MIN(CASE WHEN status = 'published' AND EXISTS
                            (SELECT 1 FROM games g WHERE g.round_id = r.id AND g.result IS NULL)
                        THEN number END)
             FROM rounds r WHERE event_id = ?1",
            [event.id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
    let (games, results): (u32, u32) = conn.query_row(
        "SELECT COUNT(*), COUNT(g.result) FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE r.event_id = ?1",
        [event.id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    // a Swiss section plans its rounds in its settings; a round robin (or a team event)
    // makes every round at once
    let planned = if event.format == FORMAT_SWISS {
        crate::domain::section::SwissSection::parse(&event.settings)
            .ok()
            .and_then(|s| s.rounds)
    } else if is_chess_team_format(&event.format) || made > 0 {
        Some(made)
    } else {
        None
    };
    let state = if made == 0 {
        SectionState::Registration
    } else if drafts == 0 && results == games && planned.is_some_and(|p| made >= p) {
        SectionState::Finished
    } else {
        SectionState::InPlay
    };
    Ok((state, in_play.or(published_max), results))
}

/// A bridge section: board results (pairs) or match results (teams and Swiss), and for pairs
/// the rows its movement plays.
fn bridge_progress(
    conn: &Connection,
    event: &Event,
) -> ApiResult<(SectionState, Option<u32>, u32)> {
    let (results, last): (u32, Option<u32>) = conn.query_row(
        "SELECT (SELECT COUNT(*) FROM board_results WHERE event_id = ?1)
              + (SELECT COUNT(*) FROM match_results WHERE event_id = ?1),
                (SELECT MAX(round) FROM (SELECT round FROM board_results WHERE event_id = ?1
                                         UNION ALL
                                         SELECT round FROM match_results WHERE event_id = ?1))",
        [event.id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if event.rounds == 0 {
        return Ok((SectionState::Registration, last, results));
    }
    let mut state = SectionState::InPlay;
    if event.format == FORMAT_PAIRS {
        if let Some(m) = movements::find(conn, event.id)? {
            let rows: usize = m
                .rounds
                .iter()
                .flat_map(|r| &r.tables)
                .filter(|t| t.ns.is_some() && t.ew.is_some())
                .map(|t| t.boards.len())
                .sum();
            if rows > 0 && results as usize >= rows {
                state = SectionState::Finished;
            }
        }
    }
    Ok((state, last, results))
}

/// Delete a tournament that has no section left. The tournament's admin token only.
///
/// 409: The tournament still has sections (their ids are named): delete each first
/// (`DELETE /api/v1/events/{id}`, which the tournament's token may do), so that results are
/// never deleted as a side effect, and no section is left without the token that runs it.
#[utoipa::path(
    delete, path = "/api/v1/tournaments/{tournament_id}", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted, with its tokens"),
        AdminAction,
    )
)]
#[delete("/api/v1/tournaments/{tournament_id}")]
pub async fn delete_tournament(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    store
        .write(move |tx| {
            auth::require_tournament(tx, id, token.as_deref())?;
            let sections: Vec<String> = events::of_tournament(tx, id)?
                .iter()
                .map(|e| e.id.to_string())
                .collect();
            if !sections.is_empty() {
                return Err(ApiError::conflict(format!(
                    "tournament {id} still has {} section(s) (events {}); delete each section first",
                    sections.len(),
                    sections.join(", ")
                )));
            }
            tournaments::delete(tx, id)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
