//! Bridge teams events (format `teams`): the team movement made when lots are drawn (called by
//! the lots handler) or when its settings change before any result, and
//! `GET /api/v1/events/{id}/team-movement`. Teams are entered through
//! `/api/v1/events/{id}/teams` as for chess team events (4 to 6 players a team). Also what a
//! change of settings may do to a bridge Swiss event once rounds are drawn.

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;

use crate::api::bridge::matches::swiss_settings;
use crate::api::bridge::team_movements::TeamMovementWithReport;
use crate::api::extract::json_cached;
use crate::api::responses::FormatRead;
use crate::domain::{is_bridge_swiss, Event, FORMAT_BRIDGE_TEAMS};
use crate::engine::bridge::team_event::TeamEventSettings;
use crate::engine::bridge::teams::generate::generate;
use crate::engine::bridge::teams::validate::report;
use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::bridge_matches;
use crate::store::{events, now, teams, Store};

/// Makes the team movement of a teams event from its settings and the teams numbered by the
/// lots, and stores it. Called by the lots handler inside its transaction. A size the movement
/// cannot serve is a 422 naming the setting (`settings.kind` for the number of teams).
pub fn make_schedule(conn: &Connection, event: &Event) -> ApiResult<()> {
    let settings = TeamEventSettings::parse(&event.settings)
        .map_err(|e| ApiError::invalid(e.field, e.message))?;
    let n = teams::count(conn, event.id)? as u32;
    let movement = generate(&settings.kind, &settings.params(n)).map_err(|e| {
        let field = match e.field.as_str() {
            "matches" => "settings.matches",
            "boards_per_round" => "settings.boards_per_match",
            _ => "settings.kind",
        };
        let served = e
            .supported
            .map(|s| format!(" (served: {s})"))
            .unwrap_or_default();
        ApiError::Validation(vec![FieldError {
            field: field.into(),
            message: format!(
                "the event has {n} teams; {} {}{served}",
                settings.kind, e.message
            ),
        }])
    })?;
    bridge_matches::put_schedule(conn, event.id, &movement, &now())
}

/// Called by the event update inside its transaction, the new settings stored: a teams event's
/// team movement is made again from them (while no result is in: 409 after), and a Swiss
/// event keeps the boards of its drawn rounds (`boards_per_match` and `odd` are then fixed).
pub fn settings_changed(conn: &Connection, before: &Event) -> ApiResult<()> {
    let after = events::get(conn, before.id)?;
    if after.format == FORMAT_BRIDGE_TEAMS && bridge_matches::schedule(conn, after.id)?.is_some() {
        let parse = |e: &Event| TeamEventSettings::parse(&e.settings).ok();
        if parse(before) != parse(&after) {
            if bridge_matches::has_results(conn, after.id)? {
                return Err(ApiError::conflict(
                    "results are in: the team movement (settings kind, matches, boards_per_match) can no longer change",
                ));
            }
            make_schedule(conn, &after)?;
        }
    }
    if is_bridge_swiss(&after.format) && bridge_matches::has_schedule(conn, after.id)? {
        let layout = |e: &Event| swiss_settings(e).ok().map(|s| s.layout());
        if layout(before) != layout(&after) {
            return Err(ApiError::conflict(
                "rounds are drawn: settings boards_per_match and odd number the boards played and can no longer change",
            ));
        }
    }
    Ok(())
}

/// The team movement of a bridge teams event, as made when lots were drawn: per round the
/// tables (NS and EW are team numbers), the sets, and the matches (two halves on one set),
/// with its report.
///
/// 404: No team movement yet (lots not drawn).
/// 409: Not a bridge teams event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/team-movement", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = TeamMovementWithReport),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/team-movement")]
pub async fn get_event_team_movement(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let movement = store
        .read(move |c| {
            let event = events::get(c, event_id)?;
            if event.format != FORMAT_BRIDGE_TEAMS {
                return Err(ApiError::conflict(format!(
                    "event {event_id} is a {} event; a team movement belongs to bridge teams events",
                    event.format
                )));
            }
            bridge_matches::schedule(c, event_id)?.ok_or_else(|| {
                ApiError::not_found(format!(
                    "event {event_id} has no team movement yet: it is made when lots are drawn"
                ))
            })
        })
        .await?;
    json_cached(
        &req,
        &TeamMovementWithReport {
            report: report(&movement),
            movement,
        },
    )
}
