//! `/api/v1/events/{id}/rounds`: the schedule, round by round.

use actix_web::{get, web, HttpRequest, HttpResponse};

use rusqlite::Connection;

use crate::api::auth;
use crate::api::extract::{
    csv_cached, csv_field, json_cached, wants_csv, Bearer, FormatQuery, Pagination, QueryParams,
};
use crate::api::responses::PublicRead;
use crate::domain::{Page, Round, RoundStatus, RoundSummary, Seat};
use crate::error::{ApiError, ApiResult};
use crate::store::tokens::Role;
use crate::store::{events, rounds, Store};

/// Whether the caller may see draft rounds: only with the event's admin token. Any other
/// token (a scorer's, another event's, one nobody issued) is ignored as on every public read:
/// drafts are simply not shown.
fn sees_drafts(conn: &Connection, event_id: i64, token: Option<&str>) -> ApiResult<bool> {
    match token {
        None => Ok(false),
        Some(t) => match auth::require(conn, event_id, Some(t), Role::Admin) {
            Ok(_) => Ok(true),
            Err(ApiError::Forbidden(_) | ApiError::Unauthorized(_)) => Ok(false),
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
        PublicRead,
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
                items.retain(|r| r.status != RoundStatus::Draft);
                // a draft is always the last round: at most one is hidden
                if rounds::last(conn, event_id)?.is_some_and(|r| r.status == RoundStatus::Draft) {
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
/// seen only with the event's admin token (404 otherwise). As CSV (`?format=csv`), the
/// pairing sheet a director posts: one line per board, then one per bye.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/rounds/{round}", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: Board,White No,White,White rating,White points,Result,Black points,Black rating,Black,Black No)", content(
            (Round = "application/json"),
            (String = "text/csv"),
        )),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/rounds/{round}")]
pub async fn get_round(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
    QueryParams(query): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let wants_csv = wants_csv(&req, query.format.as_deref())?;
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
    if wants_csv {
        return Ok(csv_cached(&req, pairing_sheet(&round)));
    }
    json_cached(&req, &round)
}

/// The round as a pairing sheet: `Board,White No,White,White rating,White points,Result,
/// Black points,Black rating,Black,Black No`, then byes as `Bye,No,Name,Rating,Points,kind`
/// rows with the bye's points in the Result column.
fn pairing_sheet(round: &Round) -> String {
    let number = |s: &Seat| s.pairing_number.map(|n| n.to_string()).unwrap_or_default();
    let rating = |s: &Seat| s.rating.map(|r| r.to_string()).unwrap_or_default();
    let mut out = String::from(
        "Board,White No,White,White rating,White points,Result,Black points,Black rating,Black,Black No\n",
    );
    for g in &round.games {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            g.board,
            number(&g.white),
            csv_field(&g.white.name),
            rating(&g.white),
            g.white_score,
            g.result.as_deref().unwrap_or(""),
            g.black_score,
            rating(&g.black),
            csv_field(&g.black.name),
            number(&g.black),
        ));
    }
    for b in &round.byes {
        out.push_str(&format!(
            "Bye,{},{},{},{},{} ({}),,,,\n",
            number(&b.participant),
            csv_field(&b.participant.name),
            rating(&b.participant),
            b.score,
            b.points,
            b.kind,
        ));
    }
    out
}
