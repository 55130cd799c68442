//! Bridge pairs events: the session's movement, table assignments per round, guide cards per
//! pair, and the rows scoring programs import.

use actix_web::{get, put, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::bridge::movements::movement_error;
use crate::api::extract::{
    csv_cached, csv_field, json_cached, wants_csv, Bearer, FormatQuery, JsonBody, QueryParams,
};
use crate::api::responses::{AdminWrite, PublicRead};
use crate::domain::closed_sets::ChosenMovementKind;
use crate::domain::{Event, GameKind, Participant, ParticipantStatus, Seat, FORMAT_PAIRS};
use crate::engine::bridge::movement::cards::{
    guide_cards, label, pairs, scoring_rows, CardLine, PairLabel, ScoringRow,
};
use crate::engine::bridge::movement::generate::generate;
use crate::engine::bridge::movement::model::{Direction, Movement, MovementParams, TableRound};
use crate::engine::bridge::movement::report::{report, MovementReport};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::tokens::Role;
use crate::store::{events, movements, now, participants, Store};

/// The movement to play: a generated kind with its options, or a custom movement. A generated
/// kind needs `options` (those the kind takes, for a size it serves) and no `movement`;
/// `custom` needs `movement` and no `options`: rules between the fields, refused with 422.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}))]
pub struct ChooseMovement {
    /// A generator kind (see `GET /api/v1/movements`) or `custom`.
    #[schema(value_type = ChosenMovementKind)]
    pub kind: String,
    /// The generator's options (not for `custom`).
    pub options: Option<MovementParams>,
    /// The movement itself (only for `custom`); it must pass the validator.
    pub movement: Option<Movement>,
}

/// A pair of the movement and the participant seated as it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeatedPair {
    pub pair: PairLabel,
    /// Null until lots are drawn (pairing number k takes the k-th pair).
    pub participant: Option<Seat>,
}

/// The event's movement, its report and who sits where.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventMovement {
    pub movement: Movement,
    pub report: MovementReport,
    pub pairs: Vec<SeatedPair>,
}

/// A guide card with the participant it belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairCard {
    pub pair: PairLabel,
    pub participant: Option<Seat>,
    pub lines: Vec<CardLine>,
    /// Where to go after each round (null after the last).
    pub moves: Vec<Option<String>>,
}

/// One table in one round, with the pairs seated there.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableAssignment {
    pub table: u32,
    pub section: Option<String>,
    /// NS pair number (null at a half table) and who holds it.
    pub ns: Option<u32>,
    pub ns_participant: Option<Seat>,
    pub ew: Option<u32>,
    pub ew_participant: Option<Seat>,
    pub set: u32,
    pub boards: Vec<u32>,
    pub arrow_switch: bool,
}

/// The table assignments of one round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundAssignments {
    pub round: u32,
    pub tables: Vec<TableAssignment>,
    /// Pairs not playing this round, with who holds them.
    pub sit_out: Vec<SeatedPair>,
    /// Sets resting on a relay or bye stand.
    pub relay_sets: Vec<u32>,
}

/// The rows a scoring program imports.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoringRows {
    pub rows: Vec<ScoringRow>,
}

pub(crate) fn ensure_pairs_event(event: &Event) -> ApiResult<()> {
    if event.game == GameKind::Bridge && event.format == FORMAT_PAIRS {
        Ok(())
    } else {
        Err(ApiError::conflict(format!(
            "event {} is a {} {} event; movements belong to bridge pairs events",
            event.id,
            event.game.as_str(),
            event.format
        )))
    }
}

fn seat(p: &Participant) -> Seat {
    Seat {
        id: p.id,
        name: p.name.clone(),
        pairing_number: p.pairing_number,
        rating: p.rating,
    }
}

/// The participant holding each pair of the movement: pairing number k takes the k-th pair.
pub(crate) fn seated(conn: &Connection, event_id: i64, m: &Movement) -> ApiResult<Vec<SeatedPair>> {
    let people: Vec<Participant> = participants::all(conn, event_id)?
        .into_iter()
        .filter(|p| p.status == ParticipantStatus::Active && p.pairing_number.is_some())
        .collect();
    Ok(pairs(m)
        .into_iter()
        .enumerate()
        .map(|(i, id)| SeatedPair {
            pair: label(id),
            participant: people
                .iter()
                .find(|p| p.pairing_number == Some(i as u32 + 1))
                .map(seat),
        })
        .collect())
}

/// The event's movement and who holds each of its pairs.
pub(crate) fn movement_and_seats(
    conn: &Connection,
    event_id: i64,
) -> ApiResult<(Movement, Vec<SeatedPair>)> {
    events::get(conn, event_id)?;
    let m = movements::get(conn, event_id)?;
    let s = seated(conn, event_id, &m)?;
    Ok((m, s))
}

/// Choose the session's movement (replaces an earlier choice). Admin only.
///
/// 409: Not a bridge pairs event.
/// 422: A size the kind cannot serve, or a custom movement with errors.
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/movement", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = ChooseMovement,
    security(("bearer" = [])),
    responses(
        (status = 200, body = EventMovement),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/movement")]
pub async fn choose_movement(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<ChooseMovement>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (movement, params_json) = match (body.kind.as_str(), body.options, body.movement) {
        ("custom", None, Some(m)) => {
            let r = report(&m);
            if !r.valid {
                return Err(ApiError::Validation(
                    r.errors
                        .iter()
                        .map(|e| FieldError {
                            field: "movement".into(),
                            message: match (e.round, e.table) {
                                (Some(r), Some(t)) => {
                                    format!("round {r}, table {t}: {}", e.message)
                                }
                                (Some(r), None) => format!("round {r}: {}", e.message),
                                _ => e.message.clone(),
                            },
                        })
                        .collect(),
                ));
            }
            (m, "null".to_string())
        }
        ("custom", _, _) => {
            return Err(ApiError::invalid(
                "movement",
                "a custom movement needs `movement` and no `options`",
            ))
        }
        (kind, Some(options), None) => {
            let m = web::block({
                let kind = kind.to_string();
                let options = options.clone();
                move || generate(&kind, &options)
            })
            .await?
            .map_err(movement_error)?;
            (
                m,
                serde_json::to_string(&options).unwrap_or_else(|_| "null".into()),
            )
        }
        (_, None, _) => {
            return Err(ApiError::invalid(
                "options",
                "is required for a generated movement",
            ))
        }
        (_, Some(_), Some(_)) => {
            return Err(ApiError::invalid(
                "movement",
                "only a custom movement is sent whole",
            ))
        }
    };
    let answer = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            ensure_pairs_event(&events::get(tx, event_id)?)?;
            let now = now();
            movements::put(tx, event_id, &movement.kind, &params_json, &movement, &now)?;
            events::touch(tx, event_id, &now)?;
            Ok(EventMovement {
                report: report(&movement),
                pairs: seated(tx, event_id, &movement)?,
                movement,
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// The session's movement with its report and the pairs seated in it.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/movement", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = EventMovement),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/movement")]
pub async fn get_event_movement(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (movement, pairs) = store
        .read(move |conn| movement_and_seats(conn, event_id))
        .await?;
    let answer = EventMovement {
        report: report(&movement),
        pairs,
        movement,
    };
    json_cached(&req, &answer)
}

/// Who sits where in one round: each table's NS and EW pairs with their names, the set and
/// boards, the sit-outs and the sets on relay.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/movement/rounds/{round}", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    responses(
        (status = 200, body = RoundAssignments),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/movement/rounds/{round}")]
pub async fn get_round_assignments(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let (movement, seats) = store
        .read(move |conn| movement_and_seats(conn, event_id))
        .await?;
    let round = movement
        .rounds
        .iter()
        .find(|r| r.round == number)
        .ok_or_else(|| ApiError::not_found(format!("the movement has no round {number}")))?;
    let holder = |t: &TableRound, dir: Direction| {
        let id = movement.pair_at(t, dir)?;
        seats
            .iter()
            .find(|s| s.pair == label(id))?
            .participant
            .clone()
    };
    let answer = RoundAssignments {
        round: number,
        tables: round
            .tables
            .iter()
            .map(|t| TableAssignment {
                table: t.table,
                section: t.section.clone(),
                ns: t.ns,
                ns_participant: holder(t, Direction::Ns),
                ew: t.ew,
                ew_participant: holder(t, Direction::Ew),
                set: t.set,
                boards: t.boards.clone(),
                arrow_switch: t.arrow_switch,
            })
            .collect(),
        sit_out: round
            .sit_out
            .iter()
            .map(|s| SeatedPair {
                pair: *s,
                participant: seats
                    .iter()
                    .find(|x| x.pair == *s)
                    .and_then(|x| x.participant.clone()),
            })
            .collect(),
        relay_sets: round.relay_sets.clone(),
    };
    json_cached(&req, &answer)
}

/// A guide card per pair: table, direction, opponents and boards each round, where to go next.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/guide-cards", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = Vec<PairCard>),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/guide-cards")]
pub async fn get_guide_cards(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (movement, seats) = store
        .read(move |conn| movement_and_seats(conn, event_id))
        .await?;
    let cards: Vec<PairCard> = guide_cards(&movement)
        .into_iter()
        .map(|c| PairCard {
            participant: seats
                .iter()
                .find(|s| s.pair == c.pair)
                .and_then(|s| s.participant.clone()),
            pair: c.pair,
            lines: c.lines,
            moves: c.moves,
        })
        .collect();
    json_cached(&req, &cards)
}

/// The rows scoring programs import: section, table, round, NS pair, EW pair, low board,
/// high board; JSON or CSV.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/scoring-rows", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: section,table,round,ns_pair,ew_pair,low_board,high_board)", content(
            (ScoringRows = "application/json"),
            (String = "text/csv"),
        )),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/scoring-rows")]
pub async fn get_scoring_rows(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(q): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let csv = wants_csv(&req, q.format.as_deref())?;
    let movement = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            movements::get(conn, event_id)
        })
        .await?;
    let rows = scoring_rows(&movement);
    if csv {
        let opt = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
        let mut out = String::from("section,table,round,ns_pair,ew_pair,low_board,high_board\n");
        for r in &rows {
            out.push_str(&format!(
                "{},{},{},{},{},{},{}\n",
                csv_field(&r.section),
                r.table,
                r.round,
                opt(r.ns_pair),
                opt(r.ew_pair),
                r.low_board,
                r.high_board
            ));
        }
        return Ok(csv_cached(&req, out));
    }
    json_cached(&req, &ScoringRows { rows })
}
