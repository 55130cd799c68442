//! `/api/v1/events/{id}/rounds`: the schedule, round by round.

use actix_web::{get, web, HttpRequest, HttpResponse};

use rusqlite::Connection;

use crate::api::auth;
use crate::api::extract::{json_cached, Bearer, Pagination, QueryParams};
use crate::domain::{Page, Round, RoundStatus, RoundSummary};
use crate::error::{ApiError, ApiResult, Problem};
use crate::store::tokens::Role;
use crate::store::{events, rounds, Store};

/// Whether the caller may see draft rounds: only with the event's admin token. A token that
/// is sent must be valid (401/403 otherwise); without one, drafts are simply not shown.
fn sees_drafts(conn: &Connection, event_id: i64, token: Option<&str>) -> ApiResult<bool> {
    match token {
        None => Ok(false),
        Some(t) => match auth::require(conn, event_id, Some(t), Role::Admin) {
            Ok(_) => Ok(true),
            Err(ApiError::Forbidden(_)) => Ok(false),
            Err(e) => Err(e),
        },
    }
}

/// List an event's rounds with how many results are in. A Swiss draft round is listed only
/// for the event's admin token.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/rounds", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), Pagination),
    responses(
        (status = 200, body = Page<RoundSummary>),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/api/v1/events/{event_id}/rounds")]
pub async fn list_rounds(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(page): QueryParams<Pagination>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            let drafts = sees_drafts(conn, event_id, token.as_deref())?;
            let mut items = rounds::list(conn, event_id, limit, offset)?;
            let mut total = rounds::count(conn, event_id)?;
            if !drafts {
                let before = items.len();
                items.retain(|r| r.status != RoundStatus::Draft);
                // a draft is always the last round: at most one is hidden
                if before != items.len()
                    || rounds::last(conn, event_id)?.is_some_and(|r| r.status == RoundStatus::Draft)
                {
                    total -= 1;
                }
            }
            Ok(Page {
                items,
                total,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// A round's pairings: boards with White and Black, each player's points before the round,
/// results, byes, and for Swiss rounds the explanation of every board. A draft round is
/// seen only with the event's admin token (404 otherwise).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/rounds/{round}", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    responses(
        (status = 200, body = Round),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/api/v1/events/{event_id}/rounds/{round}")]
pub async fn get_round(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let round = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            let round = rounds::get(conn, event_id, number)?;
            if round.status == RoundStatus::Draft && !sees_drafts(conn, event_id, token.as_deref())?
            {
                return Err(ApiError::not_found(format!(
                    "event {event_id} has no published round {number}"
                )));
            }
            Ok(round)
        })
        .await?;
    json_cached(&req, &round)
}
