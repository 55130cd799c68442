//! The exchange formats of a bridge event: hand records in (PBN) and out (JSON, with their
//! double-dummy analysis), results out (PBN with score tables, USEBIO 1.2 XML).

use actix_web::{get, put, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::analysis::Analysis;
use crate::api::auth;
use crate::api::bridge::results::{load_session, Session};
use crate::api::extract::{cached, json_cached, Bearer, QueryParams};
use crate::api::responses::{AdminWrite, FormatRead, PublicRead};
use crate::domain::{Event, GameKind};
use crate::engine::bridge::analysis::{AnalysisStatus, DealAnalysis};
use crate::engine::bridge::pbn_export::{write_pbn, PbnEvent};
use crate::engine::bridge::scoring::{
    cycle_conflict, deal_string, lead_fault, ns_score, parse_pbn_deals, vulnerability, Contract,
    Deal, Seat, Vulnerability,
};
use crate::engine::bridge::traveller::HandRecord;
use crate::engine::bridge::usebio::{write_usebio, UsebioEvent};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::board_results::{self, BoardResult};
use crate::store::tokens::Role;
use crate::store::{events, now, Store};

/// Most deals in one hand-record file.
const MAX_DEALS: usize = 999;

/// `?non_standard=true` of `PUT .../deals`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DealsQuery {
    /// The set is dealt with dealers and vulnerabilities of its own (not the 16-board
    /// cycle): each board is scored with its hand record's vulnerability. Without it, a hand
    /// record whose `[Dealer]` or `[Vulnerable]` contradicts its board number is refused.
    pub non_standard: Option<bool>,
}

/// A stored result whose NS score changed with the hand records' vulnerability.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RescoredResult {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub contract: String,
    pub ns_score_was: i32,
    pub ns_score: i32,
}

/// A stored result whose lead the opening leader does not hold in the hand record (entered
/// before the deal was known). It is kept as entered, and reported until corrected.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeadConflict {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub declarer: Seat,
    pub lead: String,
    pub message: String,
}

/// The hand records stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"deals": 2, "boards": [1, 2], "non_standard": false, "pending": 2, "rescored": [], "lead_conflicts": []}))]
pub struct StoredDeals {
    pub deals: usize,
    /// The board numbers, in order.
    pub boards: Vec<u32>,
    /// Whether the set was stored as non-standard (`?non_standard=true`).
    pub non_standard: bool,
    /// Deals waiting for their double-dummy analysis (`GET .../deals` shows it once done).
    pub pending: usize,
    /// Stored results rescored in the same change, because their board's vulnerability
    /// changed.
    pub rescored: Vec<RescoredResult>,
    /// Stored results whose lead the opening leader does not hold.
    pub lead_conflicts: Vec<LeadConflict>,
}

/// One board's hand record with its analysis.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardDeal {
    pub board: u32,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    /// The PBN deal string, North first (`N:AKQ.JT9.876.5432 ...`).
    pub deal: String,
    pub hands: HandRecord,
    pub analysis: DealAnalysis,
}

/// An event's hand records.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventDeals {
    pub event_id: i64,
    pub deals: Vec<BoardDeal>,
    /// Deals whose analysis is still pending.
    pub pending: usize,
    /// Stored results whose lead the opening leader does not hold.
    pub lead_conflicts: Vec<LeadConflict>,
}

/// The event, if it is a bridge event (any format); else a 409.
fn bridge_event(conn: &Connection, event_id: i64) -> ApiResult<Event> {
    let event = events::get(conn, event_id)?;
    if event.game == GameKind::Bridge {
        Ok(event)
    } else {
        Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; hand records belong to bridge events",
            event.game.as_str()
        )))
    }
}

/// Stored results whose lead the hand record's opening leader does not hold.
fn lead_conflicts(results: &[BoardResult], deals: &[Deal]) -> Vec<LeadConflict> {
    results
        .iter()
        .filter_map(|r| {
            let declarer = r.outcome.declarer?;
            let lead = r.outcome.lead.as_deref()?;
            let deal = deals.iter().find(|d| d.board == r.board)?;
            let message = lead_fault(deal, declarer, lead)?;
            Some(LeadConflict {
                round: r.round,
                table: r.table,
                board: r.board,
                declarer,
                lead: lead.to_string(),
                message: format!("round {} table {}, {message}", r.round, r.table),
            })
        })
        .collect()
}

/// Rescores the stored played results whose NS score no longer matches the vulnerability of
/// their board (the hand record's, else the cycle's).
fn rescore(conn: &Connection, event_id: i64, deals: &[Deal]) -> ApiResult<Vec<RescoredResult>> {
    let mut out = Vec::new();
    for r in board_results::all(conn, event_id)? {
        let (Some(text), Some(declarer), Some(tricks), Some(was)) = (
            r.outcome.contract.as_deref(),
            r.outcome.declarer,
            r.outcome.tricks,
            r.outcome.ns_score,
        ) else {
            continue;
        };
        let Ok(contract) = text.parse::<Contract>() else {
            continue;
        };
        let vul = deals
            .iter()
            .find(|d| d.board == r.board)
            .map_or_else(|| vulnerability(r.board), |d| d.vulnerability);
        let score = ns_score(&contract, declarer, tricks, vul)
            .map_err(|e| ApiError::Internal(format!("stored result: {}", e.message)))?;
        if score != was {
            board_results::set_ns_score(conn, event_id, &r, score)?;
            out.push(RescoredResult {
                round: r.round,
                table: r.table,
                board: r.board,
                contract: text.to_string(),
                ns_score_was: was,
                ns_score: score,
            });
        }
    }
    Ok(out)
}

/// Load the event's hand records from a PBN file (tags `[Board]`, `[Dealer]`,
/// `[Vulnerable]`, `[Deal]`), replacing any loaded before. Admin only; any bridge event.
/// Each deal must hold 13 cards per hand, 52 distinct; errors name the line
/// (`errors[0].field` is `pbn`). A deal whose dealer or vulnerability contradicts its board
/// number (the 16-board cycle) is refused with a 422 naming the board, unless the request
/// says the set is non-standard (`?non_standard=true`): then every board is scored with its
/// hand record's vulnerability, and stored results are rescored in the same change. Stored
/// results whose lead the opening leader does not hold are reported (`lead_conflicts`).
///
/// The answer comes at once; each deal's double-dummy table and par are worked out after it
/// (`pending`; `GET .../deals` shows them once done).
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/deals", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), DealsQuery),
    request_body(content = String, content_type = "text/plain", description = "A PBN file", example = json!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n")),
    security(("bearer" = [])),
    responses(
        (status = 200, body = StoredDeals),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/deals")]
pub async fn put_deals(
    store: web::Data<Store>,
    analysis: web::Data<Analysis>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    QueryParams(q): QueryParams<DealsQuery>,
    crate::api::extract::RawBody(body): crate::api::extract::RawBody,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let non_standard = q.non_standard.unwrap_or(false);
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
    if !non_standard {
        crate::error::check(
            deals
                .iter()
                .filter_map(|d| {
                    Some(FieldError {
                        field: "pbn".into(),
                        message: format!(
                            "board {}: {}; send the set with ?non_standard=true if it is dealt so",
                            d.board,
                            cycle_conflict(d)?
                        ),
                    })
                })
                .collect(),
        )?;
    }
    let answer = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            bridge_event(tx, event_id)?;
            board_results::put_deals(tx, event_id, &deals)?;
            let rescored = rescore(tx, event_id, &deals)?;
            let conflicts = lead_conflicts(&board_results::all(tx, event_id)?, &deals);
            let pending = board_results::analysed_deals(tx, event_id)?
                .iter()
                .filter(|a| a.dd.is_none())
                .count();
            events::touch(tx, event_id, &now())?;
            let mut boards: Vec<u32> = deals.iter().map(|d| d.board).collect();
            boards.sort_unstable();
            Ok(StoredDeals {
                deals: deals.len(),
                boards,
                non_standard,
                pending,
                rescored,
                lead_conflicts: conflicts,
            })
        })
        .await?;
    if answer.pending > 0 {
        analysis.wake();
    }
    Ok(HttpResponse::Ok().json(answer))
}

/// The event's hand records, each with its double-dummy analysis: the tricks each declarer
/// takes in each strain and the par score and contracts at the board's vulnerability (status
/// `pending` until the worker has analysed the deal, then `done`), and the stored results
/// whose lead the opening leader does not hold.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/deals", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = EventDeals),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/deals")]
pub async fn get_deals(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let answer = store
        .read(move |c| {
            bridge_event(c, event_id)?;
            let analysed = board_results::analysed_deals(c, event_id)?;
            let deals: Vec<Deal> = analysed.iter().map(|a| a.deal.clone()).collect();
            let conflicts = lead_conflicts(&board_results::all(c, event_id)?, &deals);
            let boards: Vec<BoardDeal> = analysed
                .into_iter()
                .map(|a| BoardDeal {
                    board: a.deal.board,
                    dealer: a.deal.dealer,
                    vulnerability: a.deal.vulnerability,
                    deal: deal_string(&a.deal.hands),
                    analysis: DealAnalysis::of(a.dd, a.deal.vulnerability, a.deal.dealer),
                    hands: HandRecord {
                        north: a.deal.hands[0].clone(),
                        east: a.deal.hands[1].clone(),
                        south: a.deal.hands[2].clone(),
                        west: a.deal.hands[3].clone(),
                    },
                })
                .collect();
            Ok(EventDeals {
                event_id,
                pending: boards
                    .iter()
                    .filter(|b| b.analysis.status == AnalysisStatus::Pending)
                    .count(),
                deals: boards,
                lead_conflicts: conflicts,
            })
        })
        .await?;
    json_cached(&req, &answer)
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
