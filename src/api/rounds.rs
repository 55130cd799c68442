//! `/api/v1/events/{id}/rounds`: the schedule, round by round.

use actix_web::{get, web, HttpRequest, HttpResponse};

use crate::api::extract::{json_cached, Pagination, QueryParams};
use crate::domain::{Page, Round, RoundSummary};
use crate::error::{ApiResult, Problem};
use crate::store::{events, rounds, Store};

/// List an event's rounds with how many results are in.
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
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            Ok(Page {
                items: rounds::list(conn, event_id, limit, offset)?,
                total: rounds::count(conn, event_id)?,
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// A round's pairings: boards with White and Black, results, and byes.
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
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let round = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            rounds::get(conn, event_id, number)
        })
        .await?;
    json_cached(&req, &round)
}
