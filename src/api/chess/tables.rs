//! `/api/v1/tables/...`: stateless pairing tables for directors and other software.

use actix_web::{get, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::extract::{json_cached, QueryParams};
use crate::api::responses::StatelessRead;
use crate::engine::chess::hilton::{hilton, HiltonTable};
use crate::engine::chess::round_robin::{berger, BergerTable};
use crate::engine::chess::scheveningen::{scheveningen, ScheveningenTable};
use crate::error::{ApiError, ApiResult};

/// Parameters of a Berger table.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BergerQuery {
    /// Number of players (3 to 100); with an odd number the highest number is the bye.
    #[param(minimum = 3, maximum = 100)]
    pub players: u32,
    /// Double round robin (default false).
    pub double: Option<bool>,
}

/// The Berger all-play-all table for N players (seed 000), single or double round robin.
#[utoipa::path(
    get, path = "/api/v1/tables/berger", tag = "tables",
    params(BergerQuery),
    responses(
        (status = 200, body = BergerTable),
        StatelessRead,
    )
)]
#[get("/api/v1/tables/berger")]
pub async fn berger_table(
    req: HttpRequest,
    QueryParams(q): QueryParams<BergerQuery>,
) -> ApiResult<HttpResponse> {
    let table = berger(q.players, q.double.unwrap_or(false))
        .map_err(|e| ApiError::invalid("players", e.message))?;
    json_cached(&req, &table)
}

/// Parameters of a Scheveningen table.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ScheveningenQuery {
    /// Boards per team (2 to 20).
    #[param(minimum = 2, maximum = 20)]
    pub boards: u32,
}

/// The Scheveningen match table for two teams of N boards (seed 000): every player of team A
/// plays every player of team B; the first-named player has White.
#[utoipa::path(
    get, path = "/api/v1/tables/scheveningen", tag = "tables",
    params(ScheveningenQuery),
    responses(
        (status = 200, body = ScheveningenTable),
        StatelessRead,
    )
)]
#[get("/api/v1/tables/scheveningen")]
pub async fn scheveningen_table(
    req: HttpRequest,
    QueryParams(q): QueryParams<ScheveningenQuery>,
) -> ApiResult<HttpResponse> {
    let table = scheveningen(q.boards).map_err(|e| ApiError::invalid(e.field, e.message))?;
    json_cached(&req, &table)
}

/// Parameters of a Hilton table.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HiltonQuery {
    /// Number of teams (even, 4 to 26).
    #[param(minimum = 4, maximum = 26, multiple_of = 2)]
    pub teams: u32,
    /// Players per team (default teams − 1): fewer removes boards from the top, more repeats
    /// the top boards with colours reversed. 1 to 100.
    #[param(minimum = 1, maximum = 100)]
    pub boards: Option<u32>,
}

/// Hilton pairings for a jamboree of N teams over three rounds (seed 000): in each round every
/// team meets every other team on exactly one board.
#[utoipa::path(
    get, path = "/api/v1/tables/hilton", tag = "tables",
    params(HiltonQuery),
    responses(
        (status = 200, body = HiltonTable),
        StatelessRead,
    )
)]
#[get("/api/v1/tables/hilton")]
pub async fn hilton_table(
    req: HttpRequest,
    QueryParams(q): QueryParams<HiltonQuery>,
) -> ApiResult<HttpResponse> {
    let table = hilton(q.teams, q.boards).map_err(|e| ApiError::invalid(e.field, e.message))?;
    json_cached(&req, &table)
}
