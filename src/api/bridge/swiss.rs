//! `POST /api/v1/pairings/bridge-swiss`: the bridge Swiss draw for scoring programs that keep
//! their own data (seed 002, "Swiss pairs" and "Swiss teams"); stores nothing.

use actix_web::{post, web, HttpResponse};

use crate::api::extract::JsonBody;
use crate::api::responses::PublicSubmit;
use crate::engine::bridge::swiss::{draw, Draw, DrawRequest};
use crate::error::{ApiError, ApiResult};

/// Draw the next round of a Swiss pairs or Swiss teams event: contestants placed by score (ties
/// by seed), each drawn top-down against the highest-placed it has not met such that the rest
/// can still be drawn without a repeat; round 1 (nobody has opponents yet) by `round1`; a bye
/// to the lowest-placed without one. Ids are the caller's.
///
/// 422: A field at fault (a duplicate id, a contestant listed as its own opponent, a random
/// round 1 without `random_seed`, too many contestants).
#[utoipa::path(
    post, path = "/api/v1/pairings/bridge-swiss", tag = "tables",
    request_body = DrawRequest,
    responses(
        (status = 200, body = Draw),
        PublicSubmit,
    )
)]
#[post("/api/v1/pairings/bridge-swiss")]
pub async fn draw_bridge_swiss(
    JsonBody(request): JsonBody<DrawRequest>,
) -> ApiResult<HttpResponse> {
    let answer = web::block(move || {
        crate::metrics::time_pairing("bridge_swiss", "stateless", || draw(&request))
    })
    .await?
    .map_err(|e| ApiError::invalid(e.field, e.message))?;
    Ok(HttpResponse::Ok().json(answer))
}
