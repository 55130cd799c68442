//! `/api/v1/tournaments/{id}/participants`: a player found in any section, and a late change
//! of section (before the player has played).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::events::participants::{ensure_entries_open, SearchQuery};
use crate::api::extract::{json_cached, Bearer, JsonBody, Pagination, QueryParams};
use crate::api::responses::{AdminWrite, PublicRead};
use crate::domain::{is_team_format, Page, Participant};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::limits::MAX_PARTICIPANTS;
use crate::store::{events, now, participants, tournaments, Store};

/// List the participants of every section of a tournament (by section, then by pairing
/// number once lots are drawn); `search` keeps those whose name holds the text, case and
/// accents aside, `total` counting the matches. Each participant's `event_id` is their section.
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}/participants", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id"), Pagination, SearchQuery),
    responses(
        (status = 200, body = Page<Participant>),
        PublicRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}/participants")]
pub async fn search_participants(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(page): QueryParams<Pagination>,
    QueryParams(search): QueryParams<SearchQuery>,
) -> ApiResult<HttpResponse> {
    let tournament = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let query = search.folded()?;
    let page = store
        .read(move |conn| {
            tournaments::get(conn, tournament)?;
            let mut found = Vec::new();
            for section in events::of_tournament(conn, tournament)? {
                let mut list = participants::all(conn, section.id)?;
                if let Some(q) = &query {
                    list.retain(|p| crate::name_search::matches(&p.name, q));
                }
                list.sort_by_key(|p| (p.pairing_number.is_none(), p.pairing_number, p.id));
                found.extend(list);
            }
            let total = found.len() as u64;
            Ok(Page {
                items: found
                    .into_iter()
                    .skip(offset.min(total) as usize)
                    .take(limit as usize)
                    .collect(),
                total,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// Where a player moves.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"event_id": 12}))]
pub struct SectionMove {
    /// The section (an event of the same tournament, of the same game) the player moves to.
    pub event_id: i64,
}

/// Move a player to another section of the tournament before he has played (a late change of
/// section): same participant id, no pairing number there yet (a late entry), nothing of the
/// old section carried over. The tournament's admin token only.
///
/// 409: The player has played or is drawn in his section (`participant_id`), or the new
/// section takes no more entries (`event_id`). 422: `event_id` is not another section of the
/// tournament of the same game.
#[utoipa::path(
    post, path = "/api/v1/tournaments/{tournament_id}/participants/{participant_id}/move", tag = "tournaments",
    params(
        ("tournament_id" = i64, Path, description = "Tournament id"),
        ("participant_id" = i64, Path, description = "Participant id"),
    ),
    request_body = SectionMove,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The participant in the new section", body = Participant),
        AdminWrite,
    )
)]
#[post("/api/v1/tournaments/{tournament_id}/participants/{participant_id}/move")]
pub async fn move_participant(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<SectionMove>,
) -> ApiResult<HttpResponse> {
    let (tournament, id) = path.into_inner();
    let moved = store
        .write(move |tx| {
            auth::require_tournament(tx, tournament, token.as_deref())?;
            move_between_sections(tx, tournament, id, body.event_id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(moved))
}

fn conflict_at(field: &str, message: String) -> ApiError {
    ApiError::ConflictAt(vec![FieldError {
        field: field.into(),
        message,
    }])
}

/// The move, checked whole before anything is written.
fn move_between_sections(
    tx: &Connection,
    tournament: i64,
    id: i64,
    to: i64,
) -> ApiResult<Participant> {
    let player = participants::find_any(tx, id)?
        .ok_or_else(|| ApiError::not_found(format!("participant {id} does not exist")))?;
    let from = events::get(tx, player.event_id)?;
    if from.tournament_id != Some(tournament) {
        return Err(ApiError::not_found(format!(
            "participant {id} is not in a section of tournament {tournament}"
        )));
    }
    let target = match events::find(tx, to)? {
        Some(e) if e.tournament_id == Some(tournament) => e,
        _ => {
            return Err(ApiError::invalid(
                "event_id",
                format!("event {to} is not a section of tournament {tournament}"),
            ))
        }
    };
    if target.id == from.id {
        return Err(ApiError::invalid(
            "event_id",
            format!("participant {id} is already in section {to}"),
        ));
    }
    if target.game != from.game {
        return Err(ApiError::invalid(
            "event_id",
            format!(
                "section {to} is a {} section; participant {id} plays {}",
                target.game.as_str(),
                from.game.as_str()
            ),
        ));
    }
    if is_team_format(&target.format) || is_team_format(&from.format) {
        return Err(ApiError::invalid(
            "event_id",
            "players of a team event belong to its teams; enter them with their team",
        ));
    }
    let history = participants::history(tx, id)?;
    if !history.is_empty() {
        return Err(conflict_at(
            "participant_id",
            format!(
                "has played in section {}: {}; only a player without history changes section",
                from.id,
                history.join(", ")
            ),
        ));
    }
    if let Some(n) = player.pairing_number {
        return Err(conflict_at(
            "participant_id",
            format!(
                "holds pairing number {n} in section {} (lots are drawn there); only a player not yet drawn changes section",
                from.id
            ),
        ));
    }
    let named = from
        .settings
        .get("prohibited_pairs")
        .and_then(|p| p.as_array())
        .is_some_and(|pairs| {
            pairs
                .iter()
                .filter_map(|pair| pair.as_array())
                .flatten()
                .any(|v| v.as_i64() == Some(id))
        });
    if named {
        return Err(conflict_at(
            "participant_id",
            format!(
                "is named in section {}'s settings.prohibited_pairs; take him out there first",
                from.id
            ),
        ));
    }
    ensure_entries_open(tx, target.id).map_err(|e| match e {
        ApiError::Conflict(m) => conflict_at("event_id", format!("section {to}: {m}")),
        other => other,
    })?;
    if target.participants as usize >= MAX_PARTICIPANTS {
        return Err(conflict_at(
            "event_id",
            format!("section {to} holds {MAX_PARTICIPANTS} participants, the most an event holds"),
        ));
    }
    if let Some(x) = &player.external_id {
        if participants::external_id_used(tx, target.id, x)? {
            return Err(conflict_at(
                "event_id",
                format!("section {to} already has a participant with external_id {x:?}"),
            ));
        }
    }
    participants::move_to(tx, id, target.id)?;
    let now = now();
    events::touch(tx, from.id, &now)?;
    events::touch(tx, target.id, &now)?;
    participants::get(tx, target.id, id)
}
