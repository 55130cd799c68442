//! Results of a bridge pairs session: entering board results (JSON or a terminal's CSV), the
//! travellers, the standings and each pair's score card. Scoring rules:
//! [`crate::engine::bridge::session`].

use std::collections::BTreeMap;

use actix_web::http::header;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::auth::{self, ResultChanges};
use crate::api::bridge::entries::{
    check_rows, read_csv, read_json, CheckedRow, SubmitBoardResults,
};
pub(crate) use crate::api::bridge::session::{
    card_holders, hand_records, movement_boards, with_analyses,
};
use crate::api::events::stream;
use crate::api::extract::{
    csv_cached, csv_field, json_cached, parse_json, wants_csv, Bearer, FormatQuery, QueryParams,
};
use crate::api::responses::{FormatRead, ScorerWrite};
pub(crate) use crate::api::tournaments::field::load_session;
use crate::domain::Event;
use crate::engine::bridge::movement::cards::pairs;
use crate::engine::bridge::movement::model::{PairId, PairNumbering};
use crate::engine::bridge::scoring::Seat;
use crate::engine::bridge::traveller::{
    scorecard, BridgeStandings, Scorecard, TableResult, Traveller,
};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::board_results::{self, BoardResult};
use crate::store::tokens::Role;
use crate::store::{events, now, Store};

/// The travellers of a bridge teams or Swiss event: every result of each board played so
/// far, with the IMPs of the board in its match (teams) or against the field (Swiss pairs);
/// see [`crate::engine::bridge::match_traveller`].
pub(crate) fn match_event_travellers(
    conn: &Connection,
    event: &Event,
) -> ApiResult<Vec<Traveller>> {
    use crate::api::bridge::matches::{contestants_kind, swiss_settings};
    use crate::engine::bridge::match_traveller::{match_travellers, BoardImps};
    use crate::engine::bridge::swiss_event::Contestants;
    use crate::engine::bridge::team_event::ScheduledMatch;
    let movement = crate::api::bridge::matches::scoring_movement(conn, event)?;
    let results: Vec<TableResult> = board_results::all(conn, event.id)?
        .into_iter()
        .map(|r| {
            let (ns, ew) = card_holders(&movement, &r);
            TableResult {
                round: r.round,
                table: r.table,
                board: r.board,
                ns,
                ew,
                outcome: r.outcome,
            }
        })
        .collect();
    let schedule: Vec<ScheduledMatch>;
    let how = if event.format == crate::domain::FORMAT_BRIDGE_TEAMS {
        schedule = crate::store::bridge_matches::schedule(conn, event.id)?
            .map(|m| ScheduledMatch::of_movement(&m))
            .unwrap_or_default();
        BoardImps::Matches(&schedule)
    } else {
        let settings = swiss_settings(event)?;
        let history = crate::store::bridge_matches::history(conn, event.id)?;
        if contestants_kind(event) == Contestants::Teams {
            schedule = crate::engine::bridge::swiss_tables::team_tables(
                settings.layout(),
                &history.matches,
            )
            .into_iter()
            .map(|(m, _)| m)
            .collect();
            BoardImps::Matches(&schedule)
        } else {
            BoardImps::Field(settings.pairs_scoring())
        }
    };
    let (deals, tables) = hand_records(conn, event.id)?;
    Ok(with_analyses(
        match_travellers(&movement_boards(&movement), &results, how, &deals),
        &tables,
    ))
}

/// One row as stored by a submission.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredRow {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    /// The pairs at the NS and EW seats.
    pub ns_pair: u32,
    pub ew_pair: u32,
    pub contract: Option<String>,
    pub declarer: Option<Seat>,
    pub tricks: Option<u8>,
    pub ns_score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ew_score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
    /// False when the same result was already stored.
    pub changed: bool,
}

/// What a submission stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"received": 2, "changed": 1, "unchanged": 1, "results": [
    {"round": 1, "table": 1, "board": 1, "ns_pair": 1, "ew_pair": 1, "contract": "3NT", "declarer": "S", "tricks": 10, "ns_score": 430, "changed": true}
]}))]
pub struct SubmittedResults {
    /// Rows in the request.
    pub received: usize,
    pub changed: usize,
    pub unchanged: usize,
    /// One per distinct round, table and board, in request order.
    pub results: Vec<StoredRow>,
}

fn describe(r: &BoardResult) -> String {
    let o = &r.outcome;
    match (&o.adjusted, &o.contract, o.ns_score) {
        (Some(a), _, _) => format!("the adjusted score {a}"),
        (None, Some(c), Some(s)) => {
            let by = o.declarer.map(|d| format!(" by {d}")).unwrap_or_default();
            format!(
                "{c}{by} {}(NS {s:+})",
                o.result().map(|r| r + " ").unwrap_or_default()
            )
        }
        (None, None, Some(s)) => format!("the assigned score NS {s:+}"),
        _ => "a result".into(),
    }
}

/// Store board results (admin or scorer token), as JSON or as the CSV a table terminal
/// exports. Each row is checked against the movement (that table played that board in that
/// round; the pairs named are those seated there). All rows are stored or none; re-sending a
/// stored row changes nothing; changing a stored row needs the admin token, or `If-Match`
/// with the ETag read before (the rule of every format; else a 409 naming each `results[i]`).
///
/// CSV (`Content-Type: text/csv`): a header
/// `Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard` (any
/// order; `Section` and `LeadCard` optional; other columns ignored), one row per board:
/// `Declarer` the declaring pair's number, `NS/EW` the declarer's seat, `Contract` like `4 H x`,
/// `4HX` or `PASS` (or an adjusted score `A+/A-`), `Result` `=`, `+1`, `-2`. Errors name
/// `results[i].Column` (i counting data rows from 0) and give the file's line.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/board-results", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body(content(
        (SubmitBoardResults = "application/json"),
        (String = "text/csv", example = json!("Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\nA,1,1,1,1,1,1,N,4 H x,-1,SA\n"))
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, body = SubmittedResults),
        ScorerWrite,
    )
)]
#[post("/api/v1/events/{event_id}/board-results")]
pub async fn submit_board_results(
    req: HttpRequest,
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    crate::api::extract::RawBody(body): crate::api::extract::RawBody,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let csv = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/csv"));
    let rows = if csv {
        let text = std::str::from_utf8(&body)
            .map_err(|_| ApiError::bad_request(None, "the CSV is not UTF-8 text"))?;
        read_csv(text)
    } else {
        read_json(&parse_json::<SubmitBoardResults>(&body)?)
    }
    .map_err(ApiError::Validation)?;
    let received = rows.0.len();
    let changes = ResultChanges::of(&req);
    let answer = store
        .write(move |tx| {
            let credential = auth::require(tx, event_id, token.as_deref(), Role::Scorer)?;
            let event = events::get(tx, event_id)?;
            let movement = crate::api::bridge::matches::scoring_movement(tx, &event)?;
            let deals = board_results::deals(tx, event_id)?;
            let checked = check_rows(&rows, &movement, &deals).map_err(ApiError::Validation)?;
            let stored: BTreeMap<(u32, u32, u32), BoardResult> = board_results::all(tx, event_id)?
                .into_iter()
                .map(|r| ((r.round, r.table, r.board), r))
                .collect();
            let by = match credential.role {
                Role::Admin => "admin".to_string(),
                Role::Scorer => format!("scorer:{}", credential.id),
            };
            let now = now();
            let mut out = Vec::with_capacity(checked.len());
            let mut refused = Vec::new();
            for row in checked {
                let old = stored.get(&(row.round, row.table, row.board));
                let same = old.is_some_and(|o| {
                    o.outcome == row.outcome && (o.ns_pair, o.ew_pair) == (row.ns_pair, row.ew_pair)
                });
                if let (Some(o), false) = (old, same) {
                    if !changes.may_replace(&credential) {
                        let line = row.line.map(|l| format!(", line {l}")).unwrap_or_default();
                        let stored = format!(
                            "{} (round {}, table {}, board {}{line})",
                            describe(o),
                            row.round,
                            row.table,
                            row.board
                        );
                        refused.push(ResultChanges::refusal(
                            format!("results[{}]", row.index),
                            &stored,
                        ));
                        continue;
                    }
                }
                if !same {
                    board_results::put(tx, event_id, &stored_row(&row, &by, &now))?;
                }
                out.push(StoredRow {
                    round: row.round,
                    table: row.table,
                    board: row.board,
                    ns_pair: row.ns_pair,
                    ew_pair: row.ew_pair,
                    contract: row.outcome.contract,
                    declarer: row.outcome.declarer,
                    tricks: row.outcome.tricks,
                    ns_score: row.outcome.ns_score,
                    ew_score: row.outcome.ew_score,
                    adjusted: row.outcome.adjusted,
                    changed: !same,
                });
            }
            ResultChanges::check(refused)?;
            let changed = out.iter().filter(|r| r.changed).count();
            if changed > 0 {
                events::touch(tx, event_id, &now)?;
            }
            // match events rank by VPs; a pairs session by its own standings
            let standings = if crate::domain::is_match_format(&event.format) {
                "vp-standings"
            } else {
                "bridge-standings"
            };
            let answer = SubmittedResults {
                received,
                changed,
                unchanged: out.len() - changed,
                results: out,
            };
            Ok((answer, standings))
        })
        .await?;
    let (answer, standings) = answer;
    let mut news = stream::ResultsNews::default();
    for r in answer.results.iter().filter(|r| r.changed) {
        news.board(r.round, r.board);
    }
    news.announce(
        &live,
        event_id,
        &format!("/api/v1/events/{event_id}/{standings}"),
    );
    Ok(HttpResponse::Ok().json(answer))
}

fn stored_row(row: &CheckedRow, by: &str, now: &str) -> BoardResult {
    BoardResult {
        round: row.round,
        table: row.table,
        board: row.board,
        ns_pair: row.ns_pair,
        ew_pair: row.ew_pair,
        outcome: row.outcome.clone(),
        entered_by: by.to_string(),
        entered_at: now.to_string(),
    }
}

/// The travellers of any bridge event: a pairs session's, or a teams or Swiss event's.
pub(crate) fn event_travellers(conn: &Connection, event_id: i64) -> ApiResult<Vec<Traveller>> {
    let event = events::get(conn, event_id)?;
    if event.format == crate::domain::FORMAT_PAIRS {
        Ok(load_session(conn, event_id)?.travellers())
    } else {
        match_event_travellers(conn, &event)
    }
}

/// Every result of one board with its score: the pairs (holding the NS and EW cards),
/// contract, declarer, tricks, NS score, and each side's matchpoints and percent (matchpoint
/// scoring) or IMPs (Butler, cross-IMPs); the deal when a hand record is loaded, with its
/// double-dummy analysis. In a teams or Swiss event, the pair numbers are team or pair
/// numbers and the IMPs those of the board in its match (teams: the two tables against each
/// other) or against the round's field (Swiss pairs: Butler or cross-IMPs).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/travellers/{board}", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), ("board" = u32, Path, description = "Board number")),
    responses(
        (status = 200, body = Traveller),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/travellers/{board}")]
pub async fn get_traveller(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> ApiResult<HttpResponse> {
    let (event_id, board) = path.into_inner();
    let travellers = store.read(move |c| event_travellers(c, event_id)).await?;
    let traveller = travellers
        .into_iter()
        .find(|t| t.board == board)
        .ok_or_else(|| ApiError::not_found(format!("the event plays no board {board}")))?;
    json_cached(&req, &traveller)
}

fn fmt2(x: f64) -> String {
    format!("{x:.2}")
}

/// The standings as CSV: one line per pair, rankings one after the other.
fn standings_csv(s: &BridgeStandings) -> String {
    let mut out = String::from("direction,rank,pair,participant_id,name,total,percent,boards\n");
    for r in &s.rankings {
        for e in &r.entries {
            let direction = r.direction.or(e.line).unwrap_or_default();
            out.push_str(&format!(
                "{direction},{},{},{},{},{},{},{}\n",
                e.rank,
                e.pair,
                e.participant_id.map(|i| i.to_string()).unwrap_or_default(),
                csv_field(e.name.as_deref().unwrap_or_default()),
                fmt2(e.total),
                e.percent.map(fmt2).unwrap_or_default(),
                e.boards
            ));
        }
    }
    out
}

/// The standings of a pairs event: one ranking per direction for a two-winner movement
/// (Mitchell), one ranking (direction null) otherwise. `pair` is the movement's pair number;
/// `total` the matchpoints or IMPs; `percent` the matchpoint percentage (null for IMPs).
/// Ties share the rank (`2=`). JSON or CSV.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/bridge-standings", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: direction,rank,pair,participant_id,name,total,percent,boards)", content(
            (BridgeStandings = "application/json"),
            (String = "text/csv"),
        )),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/bridge-standings")]
pub async fn get_bridge_standings(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(q): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let csv = wants_csv(&req, q.format.as_deref())?;
    let session = store.read(move |c| load_session(c, event_id)).await?;
    let s = session.standings();
    if csv {
        return Ok(csv_cached(&req, standings_csv(&s)));
    }
    json_cached(&req, &s)
}

/// `?direction=ns|ew` of a score card.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ScorecardQuery {
    /// `ns` or `ew`: which line's pair (needed under Mitchell numbering, where NS 3 and EW 3
    /// are different pairs).
    #[param(inline, value_type = Option<crate::engine::bridge::movement::model::Direction>)]
    pub direction: Option<String>,
}

/// A pair's personal score card: each board it played (round, table, the cards it held,
/// opponents, contract, its own score, its matchpoints or IMPs), with its total and rank.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/pairs/{pair}/scorecard", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), ("pair" = u32, Path, description = "The movement's pair number"), ScorecardQuery),
    responses(
        (status = 200, body = Scorecard),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/pairs/{pair}/scorecard")]
pub async fn get_scorecard(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    QueryParams(q): QueryParams<ScorecardQuery>,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let session = store.read(move |c| load_session(c, event_id)).await?;
    let direction = q.direction.as_deref().map(str::to_ascii_lowercase);
    let pair = match (session.movement.pair_numbering, direction.as_deref()) {
        (PairNumbering::Howell, None) => PairId::Pair(number),
        (PairNumbering::Mitchell, Some("ns")) => PairId::Ns(number),
        (PairNumbering::Mitchell, Some("ew")) => PairId::Ew(number),
        (PairNumbering::Mitchell, None) => {
            return Err(ApiError::invalid(
                "direction",
                "is required under Mitchell numbering: ns or ew",
            ))
        }
        (PairNumbering::Howell, Some(_)) => {
            return Err(ApiError::invalid(
                "direction",
                "a Howell-numbered movement has one pair per number; leave direction out",
            ))
        }
        (PairNumbering::Mitchell, Some(other)) => {
            return Err(ApiError::invalid(
                "direction",
                format!("{other:?} is not a direction; use ns or ew"),
            ))
        }
    };
    if !pairs(&session.movement).contains(&pair) {
        return Err(ApiError::not_found(format!(
            "the movement has no pair {number}{}",
            q.direction
                .map(|d| format!(" {}", d.to_ascii_uppercase()))
                .unwrap_or_default()
        )));
    }
    let card = scorecard(
        pair,
        &session.results,
        &session.score,
        session.settings.scoring,
        &session.holders,
    );
    json_cached(&req, &card)
}
