//! The exchange formats of a bridge pairs session: hand records in (PBN), results out (PBN with
//! score tables, USEBIO 1.2 XML).

use actix_web::{get, put, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::bridge::movement::ensure_pairs_event;
use crate::api::bridge::results::{load_session, Session};
use crate::api::extract::{cached, Bearer};
use crate::api::responses::{AdminWrite, FormatRead};
use crate::engine::bridge::pbn_export::{write_pbn, PbnEvent};
use crate::engine::bridge::scoring::parse_pbn_deals;
use crate::engine::bridge::usebio::{write_usebio, UsebioEvent};
use crate::error::{ApiError, ApiResult};
use crate::store::board_results;
use crate::store::tokens::Role;
use crate::store::{events, now, Store};

/// Most deals in one hand-record file.
const MAX_DEALS: usize = 999;

/// The hand records stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"deals": 2, "boards": [1, 2]}))]
pub struct StoredDeals {
    pub deals: usize,
    /// The board numbers, in order.
    pub boards: Vec<u32>,
}

/// Load the session's hand records from a PBN file (as text, or as one JSON string with
/// `Content-Type: application/json`; tags `[Board]`, `[Dealer]`,
/// `[Vulnerable]`, `[Deal]`), replacing any loaded before. Admin only. Each deal must hold 13
/// cards per hand, 52 distinct; errors name the line (`errors[0].field` is `pbn`). Travellers
/// and exports show the deals.
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/deals", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body(description = "A PBN file: as text, or as one JSON string", content(
        (String = "text/plain", example = json!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n")),
        (String = "application/json", example = json!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n")),
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, body = StoredDeals),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/deals")]
pub async fn put_deals(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    crate::api::extract::TextBody(body): crate::api::extract::TextBody,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request(Some("pbn"), "the PBN file is not UTF-8 text"))?;
    let deals = parse_pbn_deals(text).map_err(|e| ApiError::invalid("pbn", e.to_string()))?;
    if deals.is_empty() {
        return Err(ApiError::invalid("pbn", "the file holds no [Deal]"));
    }
    if deals.len() > MAX_DEALS {
        return Err(ApiError::invalid(
            "pbn",
            format!("at most {MAX_DEALS} deals per event"),
        ));
    }
    let answer = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            ensure_pairs_event(&events::get(tx, event_id)?)?;
            board_results::put_deals(tx, event_id, &deals)?;
            events::touch(tx, event_id, &now())?;
            let mut boards: Vec<u32> = deals.iter().map(|d| d.board).collect();
            boards.sort_unstable();
            Ok(StoredDeals {
                deals: deals.len(),
                boards,
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// The session as a PBN 2.1 file: one game per board with its deal (when loaded), the
/// board's results as a `[ScoreTable]` (pairs, contract, declarer, tricks, lead, scores,
/// matchpoints or IMPs), and the totals as a `[TotalScoreTable]` in the first game.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/pbn", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, description = "PBN 2.1 text", body = String, content_type = "application/x-pbn"),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/pbn")]
pub async fn get_pbn(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    export(
        &req,
        &store,
        path.into_inner(),
        "application/x-pbn; charset=utf-8",
        |s| {
            let event = PbnEvent {
                name: &s.event.name,
                date: export_date(s, "%Y.%m.%d"),
            };
            write_pbn(&event, &s.travellers(), &s.standings())
        },
    )
    .await
}

/// The session as USEBIO 1.2 XML (the EBU's results exchange format): the event, the pairs
/// with their totals and places, every board's traveller lines with matchpoints or IMPs, and
/// the hands when loaded.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/usebio", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, description = "USEBIO 1.2 XML", body = String, content_type = "application/xml"),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/usebio")]
pub async fn get_usebio(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    export(
        &req,
        &store,
        path.into_inner(),
        "application/xml; charset=utf-8",
        |s| {
            let event = UsebioEvent {
                name: &s.event.name,
                date: export_date(s, "%d/%m/%Y"),
            };
            write_usebio(&event, &s.travellers(), &s.standings())
        },
    )
    .await
}

/// The event's start date in an export format's own notation.
fn export_date(session: &Session, format: &str) -> Option<String> {
    session
        .event
        .start_date
        .map(|d| d.format(format).to_string())
}

/// One export of the session: read it, write it in the format, answer it with an ETag.
async fn export(
    req: &HttpRequest,
    store: &Store,
    event_id: i64,
    content_type: &str,
    write: impl FnOnce(&Session) -> String,
) -> ApiResult<HttpResponse> {
    let session = store.read(move |c| load_session(c, event_id)).await?;
    Ok(cached(req, content_type, write(&session).into_bytes()))
}
