//! `/api/v1/movements`: bridge pair movements generated, validated and recommended (seed 002).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::extract::{json_cached, JsonBody, QueryParams};
use crate::api::responses::{PublicRead, PublicSubmit, StatelessRead};
use crate::domain::closed_sets::{MovementKind, TwinMode};
use crate::engine::bridge::movement::generate::{generate, KINDS};
use crate::engine::bridge::movement::howell::three_quarter_rounds;
use crate::engine::bridge::movement::model::{Direction, Movement, MovementError, MovementParams};
use crate::engine::bridge::movement::recommend::{recommend, RecommendQuery, Recommendation};
use crate::engine::bridge::movement::report::{report, MovementReport};
use crate::error::{ApiError, ApiResult, FieldError};

/// A movement with its report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MovementWithReport {
    #[serde(flatten)]
    pub movement: Movement,
    pub report: MovementReport,
    /// 3/4 Howells: the rounds one can be played in on these tables (without `rounds` the
    /// usual one is given, about three quarters of the full Howell's rounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds_available: Option<Vec<u32>>,
}

/// The kinds of movement this server generates.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MovementKinds {
    pub kinds: Vec<String>,
}

/// Options of a generated movement (each kind reads the ones that apply to it).
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MovementQuery {
    /// Number of tables, a half table included.
    pub tables: u32,
    /// Rounds to play (curtailing); default the full movement.
    pub rounds: Option<u32>,
    /// Boards per round (1 to 8).
    #[param(minimum = 1, maximum = 8)]
    pub boards_per_round: Option<u32>,
    /// A half table: `ns` or `ew` seats empty (Howells: an odd number of pairs).
    #[param(inline, value_type = Option<Direction>)]
    pub half_table: Option<String>,
    /// The table with the half table (default the highest).
    pub half_table_at: Option<u32>,
    /// Add an NS rover (pair T+1).
    pub rover: Option<bool>,
    /// The round a late rover joins.
    pub rover_from_round: Option<u32>,
    /// Skip Mitchell: skip after this round.
    pub skip_after: Option<u32>,
    /// Arrow-switch: the switched rounds, comma-separated (`3,6`).
    #[param(inline, value_type = Option<RoundList>)]
    pub switch_rounds: Option<String>,
    /// Web Mitchell: the number of web tables (even).
    pub web_tables: Option<u32>,
    /// Appendix Mitchells: the base tables.
    pub base_tables: Option<u32>,
    /// Appendix Mitchell pair-movement variant.
    pub variant: Option<String>,
    /// Twin Mitchell: `stanzas` or `sections`.
    #[param(inline, value_type = Option<TwinMode>)]
    pub twin_mode: Option<String>,
    /// Sets of boards available.
    pub sets: Option<u32>,
}

/// Rounds as a comma-separated list (`3,6`), as `switch_rounds` reads it: each item a round
/// number (spaces around it allowed) or nothing.
struct RoundList;

impl utoipa::PartialSchema for RoundList {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let w = crate::limits::schema::space();
        let item = format!("{w}(?:0*[0-9]{{1,9}})?{w}");
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("Round numbers, comma-separated (`3,6`)."))
            .pattern(Some(format!("^{item}(?:,{item})*$")))
            .into()
    }
}

impl utoipa::ToSchema for RoundList {}

fn field_error(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::invalid(field, message)
}

impl MovementQuery {
    fn params(self) -> Result<MovementParams, ApiError> {
        let half_table = match self.half_table.as_deref() {
            None => None,
            Some("ns") => Some(Direction::Ns),
            Some("ew") => Some(Direction::Ew),
            Some(other) => {
                return Err(field_error(
                    "half_table",
                    format!("{other:?} is not a direction; use ns or ew"),
                ))
            }
        };
        let switch_rounds = match self.switch_rounds.as_deref() {
            None => None,
            Some(list) => Some(
                list.split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| {
                        s.trim().parse::<u32>().map_err(|_| {
                            field_error(
                                "switch_rounds",
                                format!("{s:?} is not a round number (use e.g. 3,6)"),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(MovementParams {
            tables: self.tables,
            rounds: self.rounds,
            boards_per_round: self.boards_per_round,
            half_table,
            half_table_at: self.half_table_at,
            rover: self.rover.unwrap_or(false),
            rover_from_round: self.rover_from_round,
            skip_after: self.skip_after,
            switch_rounds,
            web_tables: self.web_tables,
            base_tables: self.base_tables,
            variant: self.variant,
            twin_mode: self.twin_mode,
            sets: self.sets,
        })
    }
}

/// A generator's refusal as a 422 naming the field and the sizes it can serve.
pub fn movement_error(e: MovementError) -> ApiError {
    let message = match &e.supported {
        Some(s) => format!("{} (supported: {s})", e.message),
        None => e.message.clone(),
    };
    ApiError::Validation(vec![FieldError {
        field: e.field,
        message,
    }])
}

/// The movement kinds this server generates.
#[utoipa::path(
    get, path = "/api/v1/movements", tag = "movements",
    responses((status = 200, body = MovementKinds), StatelessRead)
)]
#[get("/api/v1/movements")]
pub async fn list_kinds(req: HttpRequest) -> ApiResult<HttpResponse> {
    json_cached(
        &req,
        &MovementKinds {
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
        },
    )
}

/// Movements suited to a number of pairs and boards, best first, the way seed 002 asks a
/// director to weigh them.
#[utoipa::path(
    get, path = "/api/v1/movements/recommend", tag = "movements",
    params(RecommendQuery),
    responses(
        (status = 200, body = Vec<Recommendation>),
        StatelessRead,
    )
)]
#[get("/api/v1/movements/recommend")]
pub async fn recommend_movements(
    req: HttpRequest,
    QueryParams(q): QueryParams<RecommendQuery>,
) -> ApiResult<HttpResponse> {
    let list = web::block(move || recommend(&q))
        .await?
        .map_err(movement_error)?;
    json_cached(&req, &list)
}

/// Generate a movement of a kind for T tables, with its report.
///
/// 404: Unknown kind.
/// 422: A size or option the kind cannot serve.
#[utoipa::path(
    get, path = "/api/v1/movements/{kind}", tag = "movements",
    params(("kind" = inline(MovementKind), Path, description = "The movement generator"), MovementQuery),
    responses(
        (status = 200, body = MovementWithReport),
        PublicRead,
    )
)]
#[get("/api/v1/movements/{kind}")]
pub async fn get_movement(
    req: HttpRequest,
    path: web::Path<String>,
    QueryParams(q): QueryParams<MovementQuery>,
) -> ApiResult<HttpResponse> {
    let kind = path.into_inner();
    if !KINDS.contains(&kind.as_str()) {
        return Err(ApiError::not_found(format!(
            "no movement kind {kind:?}; kinds: {}",
            KINDS.join(", ")
        )));
    }
    let params = q.params()?;
    let answer = web::block(move || {
        generate(&kind, &params).map(|movement| MovementWithReport {
            report: report(&movement),
            rounds_available: (kind == "three_quarter_howell")
                .then(|| three_quarter_rounds(movement.tables)),
            movement,
        })
    })
    .await?
    .map_err(movement_error)?;
    json_cached(&req, &answer)
}

/// Check any movement (ours, or one typed in from a card): hard errors, warnings, and the facts
/// a director chooses by, balance included.
#[utoipa::path(
    post, path = "/api/v1/movements/validate", tag = "movements",
    request_body = Movement,
    responses(
        (status = 200, body = MovementReport),
        PublicSubmit,
    )
)]
#[post("/api/v1/movements/validate")]
pub async fn validate_movement(JsonBody(movement): JsonBody<Movement>) -> ApiResult<HttpResponse> {
    use crate::limits::{MAX_MOVEMENT_ROUNDS, MAX_MOVEMENT_TABLES};
    if movement.rounds.len() > MAX_MOVEMENT_ROUNDS {
        return Err(ApiError::invalid(
            "rounds",
            format!("at most {MAX_MOVEMENT_ROUNDS} rounds are checked"),
        ));
    }
    if movement.tables > MAX_MOVEMENT_TABLES {
        return Err(ApiError::invalid(
            "tables",
            format!("at most {MAX_MOVEMENT_TABLES} tables are checked"),
        ));
    }
    let r = web::block(move || report(&movement)).await?;
    Ok(HttpResponse::Ok().json(r))
}
