//! Health check.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiResult, Problem};
use crate::store::Store;

/// The server's health.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "version": "0.1.0"}))]
pub struct Health {
    /// `ok` when the database answers.
    pub status: String,
    pub version: String,
}

/// Whether the server and its database answer.
#[utoipa::path(
    get, path = "/healthz", tag = "system",
    responses((status = 200, body = Health), (status = 500, body = Problem, content_type = "application/problem+json"))
)]
#[get("/healthz")]
pub async fn healthz(store: web::Data<Store>) -> ApiResult<HttpResponse> {
    store
        .read(|conn| Ok(conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?))
        .await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    }))
}
