//! `GET /api/v1/movements/team/{kind}`: bridge team movements generated and checked (seed 002,
//! "Teams"); `POST /api/v1/movements/team/validate` checks any team movement.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::bridge::movements::movement_error;
use crate::api::extract::{json_cached, JsonBody, QueryParams};
use crate::api::responses::{PublicRead, PublicSubmit};
use crate::domain::closed_sets::TeamMovementKind;
use crate::engine::bridge::teams::generate::{generate, TeamMovementParams, KINDS};
use crate::engine::bridge::teams::validate::{report, too_large, TeamMovementReport};
use crate::engine::bridge::teams::TeamMovement;
use crate::error::{ApiError, ApiResult};

/// A team movement with its report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamMovementWithReport {
    #[serde(flatten)]
    pub movement: TeamMovement,
    pub report: TeamMovementReport,
}

/// The size of a generated team movement.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TeamMovementQuery {
    /// Number of teams.
    #[param(maximum = 40)]
    pub teams: u32,
    /// Matches each team plays (American Whist: curtailed by an even number; Mitchell teams);
    /// default the full movement.
    pub matches: Option<u32>,
    /// Boards in a set (one half of a match), 1 to 36; default 8.
    #[param(inline, value_type = Option<crate::engine::bridge::team_event::MatchBoards>)]
    pub boards_per_round: Option<u32>,
}

/// Generate a team movement of a kind for N teams, with its report: per round the tables (NS
/// and EW are team numbers), and the matches (two halves on the same set).
///
/// 404: Unknown kind.
/// 422: A size the kind cannot serve (the message names the sizes served).
#[utoipa::path(
    get, path = "/api/v1/movements/team/{kind}", tag = "movements",
    params(("kind" = inline(TeamMovementKind), Path, description = "The team movement generator"), TeamMovementQuery),
    responses(
        (status = 200, body = TeamMovementWithReport),
        PublicRead,
    )
)]
#[get("/api/v1/movements/team/{kind}")]
pub async fn get_team_movement(
    req: HttpRequest,
    path: web::Path<String>,
    QueryParams(q): QueryParams<TeamMovementQuery>,
) -> ApiResult<HttpResponse> {
    let kind = path.into_inner();
    if !KINDS.contains(&kind.as_str()) {
        return Err(ApiError::not_found(format!(
            "no team movement kind {kind:?}; kinds: {}",
            KINDS.join(", ")
        )));
    }
    let params = TeamMovementParams {
        teams: q.teams,
        matches: q.matches,
        boards_per_round: q.boards_per_round,
    };
    let answer = web::block(move || {
        generate(&kind, &params).map(|movement| TeamMovementWithReport {
            report: report(&movement),
            movement,
        })
    })
    .await?
    .map_err(movement_error)?;
    json_cached(&req, &answer)
}

/// Check any team movement (ours, or one typed in from a card): every match complete (both
/// halves on the same set), no team meeting another twice or playing a set twice, and the facts
/// a director chooses by.
///
/// 422: A movement too large to check (more than 100 teams, 500 rounds or 200 tables a round).
#[utoipa::path(
    post, path = "/api/v1/movements/team/validate", tag = "movements",
    request_body = TeamMovement,
    responses(
        (status = 200, body = TeamMovementReport),
        PublicSubmit,
    )
)]
#[post("/api/v1/movements/team/validate")]
pub async fn validate_team_movement(
    JsonBody(movement): JsonBody<TeamMovement>,
) -> ApiResult<HttpResponse> {
    if let Some((field, message)) = too_large(&movement) {
        return Err(ApiError::invalid(field, message));
    }
    let r = web::block(move || report(&movement)).await?;
    Ok(HttpResponse::Ok().json(r))
}
