//! Health check.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiResult, Problem};
use crate::metrics::Metrics;
use crate::server::read_cache::ReadCache;
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

/// The server's figures in the Prometheus text format: requests by route and status, latency
/// histograms by route, pairing times by system and format, the read cache (hits, misses,
/// bytes held), the store's read transactions and each change's wait for the writer
/// (histogram). No credentials; no event data.
#[utoipa::path(
    get, path = "/metrics", tag = "system",
    responses((status = 200, description = "Prometheus text format 0.0.4", body = String, content_type = "text/plain; version=0.0.4"))
)]
#[get("/metrics")]
pub async fn metrics(
    store: web::Data<Store>,
    metrics: Option<web::Data<Metrics>>,
    cache: Option<web::Data<ReadCache>>,
) -> HttpResponse {
    use std::sync::atomic::Ordering::Relaxed;
    let histograms = [(
        "tourney_store_writer_wait_seconds",
        "Time each change waited for the single writer (its count: the changes that got it).",
        store.writer_waits(),
    )];
    // how many tournaments and sections the database holds (two counts, no event data)
    let held = store
        .read(|conn| {
            Ok(conn.query_row(
                "SELECT (SELECT COUNT(*) FROM tournaments),
                        (SELECT COUNT(*) FROM events WHERE tournament_id IS NOT NULL)",
                [],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
            )?)
        })
        .await
        .ok();
    let mut gauges = vec![(
        "tourney_store_reads_total",
        "Read transactions run.",
        store.reads() as f64,
    )];
    if let Some((tournaments, sections)) = held {
        gauges.extend([
            (
                "tourney_tournaments",
                "Tournaments the database holds.",
                tournaments as f64,
            ),
            (
                "tourney_tournament_sections",
                "Events that are sections of a tournament.",
                sections as f64,
            ),
        ]);
    }
    if let Some(cache) = &cache {
        gauges.extend([
            (
                "tourney_cache_hits_total",
                "Answers served from the read cache (304s included).",
                cache.hits.load(Relaxed) as f64,
            ),
            (
                "tourney_cache_misses_total",
                "Answers built and then kept by the read cache.",
                cache.misses.load(Relaxed) as f64,
            ),
            (
                "tourney_cache_bytes",
                "Bytes the read cache holds.",
                cache.bytes() as f64,
            ),
        ]);
    }
    let text = metrics.map_or_else(String::new, |m| m.render(&histograms, &gauges));
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(text)
}
