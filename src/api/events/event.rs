//! `/api/v1/events`: create, list, read, change and delete events.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};

use crate::api::auth;
use crate::api::extract::{json_cached, Bearer, JsonBody, Pagination, QueryParams};
use crate::api::responses::{AdminAction, AdminWrite, PublicRead, PublicSubmit, StatelessRead};
use crate::domain::{
    is_team_format, merge_patch, validate_name, validate_settings, CreatedEvent, Event,
    EventDetails, EventPatch, GameKind, NewEvent, Page,
};
use crate::error::{check, ApiError, ApiResult, FieldError};
use crate::store::events::{self, EventFields};
use crate::store::tokens::{self, Role};
use crate::store::{now, Store};

pub(crate) fn validate_format(game: GameKind, format: &str) -> Result<(), ApiError> {
    if game.formats().contains(&format) {
        Ok(())
    } else if game.formats().is_empty() {
        Err(ApiError::invalid(
            "format",
            format!("no {} event formats are available yet", game.as_str()),
        ))
    } else {
        Err(ApiError::invalid(
            "format",
            format!(
                "unknown format {format:?} for {}; use one of: {}",
                game.as_str(),
                game.formats().join(", ")
            ),
        ))
    }
}

/// An event's dates: the end not before the start.
pub(crate) fn validate_dates(
    start: Option<chrono::NaiveDate>,
    end: Option<chrono::NaiveDate>,
) -> Result<(), ApiError> {
    match (start, end) {
        (Some(s), Some(e)) if e < s => Err(ApiError::invalid(
            "end_date",
            "must not be before start_date",
        )),
        _ => Ok(()),
    }
}

/// Create an event. The answer includes the event's admin token, shown only this once.
#[utoipa::path(
    post, path = "/api/v1/events", tag = "events",
    request_body = NewEvent,
    responses(
        (status = 201, description = "Created; keep the admin_token", body = CreatedEvent),
        PublicSubmit,
    )
)]
#[post("/api/v1/events")]
pub async fn create_event(
    store: web::Data<Store>,
    JsonBody(body): JsonBody<NewEvent>,
) -> ApiResult<HttpResponse> {
    let settings = check_new_event(&body)?;
    let created = store
        .write(move |tx| {
            let now = now();
            let id = insert_event(tx, &body, &settings, &now)?;
            issue_admin_token(tx, id, &now)
        })
        .await?;
    Ok(created_response(created))
}

/// Checks a new event's body before any database work; answers the settings to store.
pub(crate) fn check_new_event(body: &NewEvent) -> ApiResult<serde_json::Value> {
    let mut errors: Vec<FieldError> = Vec::new();
    validate_name("name", &body.name, &mut errors);
    if let Some(d) = &body.details {
        d.validate(&mut errors);
    }
    check(errors)?;
    validate_format(body.game, &body.format)?;
    validate_dates(body.start_date, body.end_date)?;
    let settings = body
        .settings
        .clone()
        .unwrap_or_else(|| serde_json::json!({}));
    validate_settings(&body.format, &settings)?;
    Ok(settings)
}

/// Writes a checked new event ([`check_new_event`]); answers its id.
pub(crate) fn insert_event(
    tx: &rusqlite::Connection,
    body: &NewEvent,
    settings: &serde_json::Value,
    now: &str,
) -> ApiResult<i64> {
    events::insert(
        tx,
        &EventFields {
            name: body.name.trim(),
            game: body.game,
            format: &body.format,
            start_date: body.start_date,
            end_date: body.end_date,
            settings,
            details: body.details.as_ref(),
        },
        now,
    )
}

/// Issues a new event's admin token and returns the event with it (shown once).
pub(crate) fn issue_admin_token(
    tx: &rusqlite::Connection,
    event_id: i64,
    now: &str,
) -> ApiResult<CreatedEvent> {
    let (_, token) = tokens::issue(tx, event_id, Role::Admin, Some("admin"), now)?;
    Ok(CreatedEvent {
        event: events::get(tx, event_id)?,
        admin_token: token,
    })
}

/// 201 with the event's location.
pub(crate) fn created_response(created: CreatedEvent) -> HttpResponse {
    HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/events/{}", created.event.id)))
        .json(created)
}

/// List events, oldest first.
#[utoipa::path(
    get, path = "/api/v1/events", tag = "events",
    params(Pagination),
    responses(
        (status = 200, body = Page<Event>),
        StatelessRead,
    )
)]
#[get("/api/v1/events")]
pub async fn list_events(
    req: HttpRequest,
    store: web::Data<Store>,
    QueryParams(page): QueryParams<Pagination>,
) -> ApiResult<HttpResponse> {
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            Ok(Page {
                items: events::list(conn, limit, offset)?,
                total: events::count(conn)?,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// Read an event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = Event),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}")]
pub async fn get_event(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let event = store.read(move |conn| events::get(conn, id)).await?;
    json_cached(&req, &event)
}

/// Change an event's name, dates, settings or (before lots are drawn) format. Admin only.
///
/// The body is a JSON Merge Patch (RFC 7396): what it names changes, `null` removes, the rest
/// stays; `settings` merge key by key (`{"settings": {"rounds": 7}}` keeps every other
/// setting). The settings are checked against the event's format as they are after the merge
/// (a setting of another format is a 422 naming it).
///
/// 409: Format change after the draw.
#[utoipa::path(
    patch, path = "/api/v1/events/{event_id}", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = EventPatch,
    security(("bearer" = [])),
    responses(
        (status = 200, body = Event),
        AdminWrite,
    )
)]
#[patch("/api/v1/events/{event_id}")]
pub async fn update_event(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(patch): JsonBody<EventPatch>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let mut errors = Vec::new();
    match &patch.name {
        Some(Some(name)) => validate_name("name", name, &mut errors),
        Some(None) => errors.push(FieldError {
            field: "name".into(),
            message: "cannot be removed: an event has a name".into(),
        }),
        None => {}
    }
    if patch.format == Some(None) {
        errors.push(FieldError {
            field: "format".into(),
            message: "cannot be removed: an event has a format".into(),
        });
    }
    check(errors)?;
    let event = store
        .write(move |tx| {
            auth::require(tx, id, token.as_deref(), Role::Admin)?;
            let current = events::get(tx, id)?;
            let format = patch
                .format
                .clone()
                .flatten()
                .unwrap_or(current.format.clone());
            if format != current.format {
                validate_format(current.game, &format)?;
                if current.lots.is_some() || current.rounds > 0 {
                    return Err(ApiError::conflict(
                        "the format cannot change once lots are drawn",
                    ));
                }
                if (is_team_format(&format) || is_team_format(&current.format))
                    && current.participants > 0
                {
                    return Err(ApiError::conflict(
                        "players of a team event belong to teams: remove the participants before changing to or from a team format",
                    ));
                }
            }
            let start_date = patch.start_date.unwrap_or(current.start_date);
            let end_date = patch.end_date.unwrap_or(current.end_date);
            validate_dates(start_date, end_date)?;
            let mut settings = current.settings.clone();
            match &patch.settings {
                Some(Some(changes)) if !changes.is_object() => {
                    return Err(ApiError::invalid("settings", "must be a JSON object"))
                }
                Some(Some(changes)) => merge_patch(&mut settings, changes),
                Some(None) => settings = serde_json::json!({}),
                None => {}
            }
            validate_settings(&format, &settings)?;
            let details = match &patch.details {
                None => current.details.clone(),
                Some(None) => None,
                Some(Some(changes)) if !changes.is_object() => {
                    return Err(ApiError::invalid("details", "must be a JSON object"))
                }
                Some(Some(changes)) => {
                    let mut merged = serde_json::to_value(current.details.clone().unwrap_or_default())
                        .map_err(|e| ApiError::Internal(format!("event details: {e}")))?;
                    merge_patch(&mut merged, changes);
                    let details: EventDetails = serde_json::from_value(merged)
                        .map_err(|e| ApiError::invalid("details", e.to_string()))?;
                    let mut errors = Vec::new();
                    details.validate(&mut errors);
                    check(errors)?;
                    Some(details).filter(|d| !d.is_empty())
                }
            };
            events::update(
                tx,
                id,
                &EventFields {
                    name: patch.name.clone().flatten().as_deref().unwrap_or(&current.name).trim(),
                    game: current.game,
                    format: &format,
                    start_date,
                    end_date,
                    settings: &settings,
                    details: details.as_ref(),
                },
                &now(),
            )?;
            crate::api::bridge::team_events::settings_changed(tx, &current)?;
            events::get(tx, id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(event))
}

/// Delete an event with everything in it. Admin only.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}")]
pub async fn delete_event(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    store
        .write(move |tx| {
            auth::require(tx, id, token.as_deref(), Role::Admin)?;
            events::delete(tx, id)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
