//! `GET /api/v1/events/{id}/export` and `POST /api/v1/events/import`: an event as one JSON
//! document and back (the document: `event_document`; the rows: `store::export`).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde_json::Value;

use crate::api::auth;
use crate::api::events::event::{
    created_response, issue_admin_token, validate_dates, validate_format,
};
use crate::api::extract::{parse_json_keeping, read_body_up_to, Bearer};
use crate::api::responses::{AdminRead, PublicImport};
use crate::domain::{validate_settings, CreatedEvent, GameKind};
use crate::error::{ApiError, ApiResult};
use crate::event_document::EventDocument;
use crate::limits;
use crate::store::tokens::Role;
use crate::store::{export, now, Store};

/// Export an event: every row of it (participants, teams, rounds with drafts, games, byes,
/// requested byes, the movement, board results, hand records) in one JSON document, with ids
/// of the document's own; tokens are left out. `POST /api/v1/events/import` makes a new event
/// of it. Admin only.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/export", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    security(("bearer" = [])),
    responses(
        (status = 200, body = EventDocument),
        AdminRead,
    )
)]
#[get("/api/v1/events/{event_id}/export")]
pub async fn export_event(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let event = path.into_inner();
    let document = store
        .read(move |conn| {
            auth::require(conn, event, token.as_deref(), Role::Admin)?;
            export::export(conn, event, &now())
        })
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"event-{event}.json\""),
        ))
        .insert_header(("Cache-Control", "no-store"))
        .json(document))
}

/// The event row's game, format, settings and dates, checked as creating an event checks them.
pub(crate) fn check_event(document: &EventDocument) -> ApiResult<()> {
    let Some(event) = document.tables.get("events").and_then(|rows| rows.first()) else {
        return Ok(()); // named by the document's own check
    };
    let at = |column: &str| format!("tables.events[0].{column}");
    let game: GameKind = serde_json::from_value(event.get("game").cloned().unwrap_or_default())
        .map_err(|_| ApiError::invalid(at("game"), "must be chess or bridge"))?;
    let format = event
        .get("format")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let settings = event
        .get("settings")
        .cloned()
        .unwrap_or_else(|| serde_json::json!({}));
    let rename = |e: ApiError| match e {
        ApiError::Validation(errors) => ApiError::Validation(
            errors
                .into_iter()
                .map(|mut f| {
                    f.field = at(&f.field);
                    f
                })
                .collect(),
        ),
        other => other,
    };
    let mut dates = [None, None];
    for (date, column) in dates.iter_mut().zip(["start_date", "end_date"]) {
        if let Some(text) = event.get(column).and_then(Value::as_str) {
            *date = Some(
                text.parse::<chrono::NaiveDate>()
                    .map_err(|_| ApiError::invalid(at(column), "must be a date (YYYY-MM-DD)"))?,
            );
        }
    }
    validate_dates(dates[0], dates[1]).map_err(rename)?;
    validate_format(game, format).map_err(rename)?;
    validate_settings(format, &settings).map_err(rename)
}

/// Import an event exported by `GET .../export` (from this server or another): a new event
/// with new ids, written whole in one transaction or not at all, and a fresh admin token
/// (shown once), like creating an event. No token needed. A document the server refuses is a
/// 422 naming the JSON path of each fault (`tables.games[3].white_id`). The document may be
/// up to 64 MiB (other bodies: 4 MiB); the server reads one import at a time (another waits
/// up to `TOURNEY_WRITE_WAIT_SECONDS`, then gets a 503 with `Retry-After`).
#[utoipa::path(
    post, path = "/api/v1/events/import", tag = "events",
    request_body = EventDocument,
    responses(
        (status = 201, description = "Created; keep the admin_token", body = CreatedEvent),
        PublicImport,
    )
)]
#[post("/api/v1/events/import")]
pub async fn import_event(
    req: HttpRequest,
    store: web::Data<Store>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let _turn = store.import_turn().await?;
    let body = read_body_up_to(&req, payload, limits::MAX_IMPORT_BYTES).await?;
    let document: EventDocument = parse_json_keeping(&body, "tables")?;
    check_event(&document)?;
    let created = store
        .write(move |tx| {
            let id = export::import(tx, &document)?;
            issue_admin_token(tx, id, &now())
        })
        .await?;
    Ok(created_response(created))
}
