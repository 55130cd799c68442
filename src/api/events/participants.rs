//! `/api/v1/events/{id}/participants`: enter, edit, withdraw and list players or pairs.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::auth;
use crate::api::extract::{json_cached, Bearer, JsonBody, Pagination, QueryParams};
use crate::api::responses::{AdminAction, AdminWrite, PublicRead};
use crate::domain::{
    is_team_format, NewParticipant, Page, Participant, ParticipantPatch, ParticipantStatus,
    FORMAT_SWISS,
};
use crate::error::{check, ApiError, ApiResult};
use crate::limits::{MAX_BULK_PARTICIPANTS, MAX_PARTICIPANTS};
use crate::store::tokens::Role;
use crate::store::{events, now, participants, rounds, Store};

/// Several participants at once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"participants": [{"name": "Anna", "rating": 2100}, {"name": "Ben", "rating": 1900, "club": "OXF"}]}))]
pub struct BulkParticipants {
    /// Up to 5000 participants, entered in this order.
    #[schema(min_items = 1, max_items = 5000)]
    pub participants: Vec<NewParticipant>,
}

/// The participants entered.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"items": [{"id": 1, "event_id": 1, "name": "Anna", "rating": 2100, "club": null, "federation": null, "external_id": null, "pairing_number": null, "status": "active"}]}))]
pub struct EnteredParticipants {
    pub items: Vec<Participant>,
}

/// Entries are closed once a fixed schedule (a round robin) has been drawn. A Swiss section
/// takes late entries at any time (they get the next pairing numbers and zero-point byes for
/// the rounds they missed, unless the director records other byes).
pub(crate) fn ensure_entries_open(conn: &Connection, event_id: i64) -> ApiResult<()> {
    if events::get(conn, event_id)?.format == FORMAT_SWISS {
        return Ok(());
    }
    if rounds::count(conn, event_id)? > 0
        || crate::store::bridge_matches::has_schedule(conn, event_id)?
    {
        return Err(ApiError::conflict(
            "the schedule is already made; participants can no longer be entered or removed",
        ));
    }
    Ok(())
}

fn enter(conn: &Connection, event_id: i64, list: &[NewParticipant]) -> ApiResult<Vec<Participant>> {
    ensure_entries_open(conn, event_id)?;
    let format = events::get(conn, event_id)?.format;
    if is_team_format(&format) {
        return Err(ApiError::conflict(format!(
            "a {format} event takes its players with their team: POST /api/v1/events/{event_id}/teams"
        )));
    }
    let entered = participants::count(conn, event_id)? as usize;
    if entered + list.len() > MAX_PARTICIPANTS {
        return Err(ApiError::conflict(format!(
            "the event has {entered} participants; an event holds at most {MAX_PARTICIPANTS}"
        )));
    }
    let now = now();
    let mut out = Vec::with_capacity(list.len());
    for p in list {
        let id = participants::insert(conn, event_id, p, &now)?;
        out.push(participants::get(conn, event_id, id)?);
    }
    events::touch(conn, event_id, &now)?;
    Ok(out)
}

/// Enter one participant. Admin only; not after a round-robin schedule is made.
///
/// 409: Schedule already made, or external_id taken.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/participants", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = NewParticipant,
    security(("bearer" = [])),
    responses(
        (status = 201, body = Participant),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/participants")]
pub async fn add_participant(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<NewParticipant>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let mut errors = Vec::new();
    body.validate("", &mut errors);
    check(errors)?;
    let mut added = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            enter(tx, event_id, std::slice::from_ref(&body))
        })
        .await?;
    let p = added
        .pop()
        .ok_or_else(|| ApiError::Internal("no participant entered".into()))?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/participants/{}", p.id),
        ))
        .json(p))
}

/// Enter many participants in one transaction (all or none). Admin only.
///
/// 422: Invalid entries, each named as participants[i].field.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/participants/bulk", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = BulkParticipants,
    security(("bearer" = [])),
    responses(
        (status = 201, body = EnteredParticipants),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/participants/bulk")]
pub async fn add_participants(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<BulkParticipants>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    if body.participants.is_empty() || body.participants.len() > MAX_BULK_PARTICIPANTS {
        return Err(ApiError::invalid(
            "participants",
            format!("must hold 1 to {MAX_BULK_PARTICIPANTS} entries"),
        ));
    }
    let mut errors = Vec::new();
    for (i, p) in body.participants.iter().enumerate() {
        p.validate(&format!("participants[{i}]."), &mut errors);
    }
    check(errors)?;
    let items = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            enter(tx, event_id, &body.participants)
        })
        .await?;
    Ok(HttpResponse::Created().json(EnteredParticipants { items }))
}

/// A search among an event's participants.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// A piece of the name, case and accents aside (`ann` finds Anna, Änne, Johann); at most
    /// 100 characters.
    #[param(max_length = 100)]
    pub search: Option<String>,
}

/// Longest `search` text.
pub(crate) const MAX_SEARCH: usize = 100;

impl SearchQuery {
    /// The text to search for, folded for comparing names ([`crate::name_search::fold`]);
    /// none when absent or blank; a 422 naming `search` when too long.
    pub(crate) fn folded(&self) -> ApiResult<Option<String>> {
        match self.search.as_deref().map(str::trim) {
            Some(text) if text.chars().count() > MAX_SEARCH => Err(ApiError::invalid(
                "search",
                format!("must be at most {MAX_SEARCH} characters"),
            )),
            Some("") | None => Ok(None),
            Some(text) => Ok(Some(crate::name_search::fold(text))),
        }
    }
}

/// List an event's participants (by pairing number once lots are drawn); `search` keeps those
/// whose name holds the text ([`crate::name_search`]), `total` counting the matches.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/participants", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), Pagination, SearchQuery),
    responses(
        (status = 200, body = Page<Participant>),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/participants")]
pub async fn list_participants(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(page): QueryParams<Pagination>,
    QueryParams(search): QueryParams<SearchQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let search = search.folded()?;
    let page = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            if let Some(query) = search {
                let mut found = participants::all(conn, event_id)?;
                found.retain(|p| crate::name_search::matches(&p.name, &query));
                found.sort_by_key(|p| (p.pairing_number.is_none(), p.pairing_number, p.id));
                let total = found.len() as u64;
                return Ok(Page {
                    items: found
                        .into_iter()
                        .skip(offset.min(total) as usize)
                        .take(limit as usize)
                        .collect(),
                    total,
                    limit,
                    offset,
                });
            }
            Ok(Page {
                items: participants::list(conn, event_id, limit, offset)?,
                total: participants::count(conn, event_id)?,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// Read one participant.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/participants/{participant_id}", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), ("participant_id" = i64, Path, description = "Participant id")),
    responses(
        (status = 200, body = Participant),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/participants/{participant_id}")]
pub async fn get_participant(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
) -> ApiResult<HttpResponse> {
    let (event_id, id) = path.into_inner();
    let p = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            participants::get(conn, event_id, id)
        })
        .await?;
    json_cached(&req, &p)
}

/// Change a participant's details: a JSON Merge Patch (RFC 7396), `null` removes a detail.
/// Admin only.
#[utoipa::path(
    patch, path = "/api/v1/events/{event_id}/participants/{participant_id}", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), ("participant_id" = i64, Path, description = "Participant id")),
    request_body = ParticipantPatch,
    security(("bearer" = [])),
    responses(
        (status = 200, body = Participant),
        AdminWrite,
    )
)]
#[patch("/api/v1/events/{event_id}/participants/{participant_id}")]
pub async fn update_participant(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
    JsonBody(patch): JsonBody<ParticipantPatch>,
) -> ApiResult<HttpResponse> {
    let (event_id, id) = path.into_inner();
    let mut errors = Vec::new();
    patch.validate(&mut errors);
    check(errors)?;
    let p = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let mut p = participants::get(tx, event_id, id)?;
            patch.apply(&mut p);
            participants::update(tx, &p)?;
            events::touch(tx, event_id, &now())?;
            participants::get(tx, event_id, id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(p))
}

/// Withdraw a participant: no further pairings; games already scheduled stay (enter forfeits
/// for them). Admin only.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/participants/{participant_id}/withdraw", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), ("participant_id" = i64, Path, description = "Participant id")),
    security(("bearer" = [])),
    responses(
        (status = 200, body = Participant),
        AdminAction,
    )
)]
#[post("/api/v1/events/{event_id}/participants/{participant_id}/withdraw")]
pub async fn withdraw_participant(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, id) = path.into_inner();
    let p = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            participants::get(tx, event_id, id)?;
            participants::set_status(tx, id, ParticipantStatus::Withdrawn)?;
            events::touch(tx, event_id, &now())?;
            participants::get(tx, event_id, id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(p))
}

/// Remove a participant entered by mistake (before the schedule is made). Admin only.
///
/// 409: Schedule already made: withdraw instead.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}/participants/{participant_id}", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), ("participant_id" = i64, Path, description = "Participant id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}/participants/{participant_id}")]
pub async fn delete_participant(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, id) = path.into_inner();
    store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            participants::get(tx, event_id, id)?;
            ensure_entries_open(tx, event_id)?;
            participants::delete(tx, id)?;
            events::touch(tx, event_id, &now())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
