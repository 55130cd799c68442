//! Changing a Swiss draft round: the director's whole pairing, a swap of two players, or
//! forced boards with the rest paired again. Each result is re-scored by the section's
//! system (the Dutch criteria for `fide_dutch`, the US penalty otherwise, one dispatch in
//! [`swiss::pair_round_with_fixed`] / [`swiss::evaluate_round_pairing`]) and explained, in
//! one transaction.

use actix_web::{post, put, web, HttpResponse};
use rusqlite::Connection;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::chess::pairing::{load_section, swiss_event, write_pairing};
use crate::api::extract::{Bearer, JsonBody};
use crate::api::responses::AdminWrite;
use crate::domain::{Event, Round, RoundStatus};
use crate::engine::chess::swiss::{self, Acceleration};
use crate::engine::chess::swiss::{RoundPairing, SwissError};
use crate::engine::matching::BlossomSolver;
use crate::error::{ApiError, ApiResult};
use crate::store::swiss::Section;
use crate::store::tokens::Role;
use crate::store::{rounds, Store};

/// The draft round `number` of a Swiss event, for changing.
fn draft(conn: &Connection, event_id: i64, number: u32) -> ApiResult<(Event, rounds::RoundRow)> {
    let event = swiss_event(conn, event_id)?;
    let row = rounds::find(conn, event_id, number)?
        .ok_or_else(|| ApiError::not_found(format!("event {event_id} has no round {number}")))?;
    if row.status != RoundStatus::Draft {
        return Err(ApiError::conflict(format!(
            "round {number} is published; delete it (while it has no results) and pair it again to change it"
        )));
    }
    Ok((event, row))
}

/// A board the director sets: participant ids.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChosenBoard {
    /// Participant id of White.
    pub white: i64,
    /// Participant id of Black.
    pub black: i64,
}

/// A whole pairing set by the director.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"pairings": [{"white": 3, "black": 8}, {"white": 5, "black": 1}], "byes": [7]}))]
pub struct ChosenPairing {
    /// Every board, colours as wanted.
    pub pairings: Vec<ChosenBoard>,
    /// The participant given the pairing bye (odd number of players), if any.
    #[serde(default)]
    pub byes: Vec<i64>,
}

/// Two participants to exchange (two different ones, both in the round).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"a": 3, "b": 5}))]
pub struct Swap {
    /// Participant id.
    pub a: i64,
    /// Participant id.
    pub b: i64,
}

/// Boards to force; the rest of the round is paired again around them.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"pairings": [{"white": 3, "black": 8}]}))]
pub struct ForcedBoards {
    /// At least one board.
    #[schema(min_items = 1)]
    pub pairings: Vec<ChosenBoard>,
}

fn start_number(section: &Section, pid: i64, field: String) -> Result<u32, ApiError> {
    section
        .start_number_of
        .get(&pid)
        .copied()
        .ok_or_else(|| ApiError::invalid(field, format!("participant {pid} is not in this event")))
}

/// The boards as start numbers; an unknown participant is named by its field.
fn chosen_numbers(section: &Section, boards: &[ChosenBoard]) -> ApiResult<Vec<(u32, u32)>> {
    boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            Ok((
                start_number(section, b.white, format!("pairings[{i}].white"))?,
                start_number(section, b.black, format!("pairings[{i}].black"))?,
            ))
        })
        .collect()
}

/// The engine's field names start numbers; turn its complaints into a 422 on the request.
fn choice_error(e: SwissError) -> ApiError {
    ApiError::invalid(e.field, e.message)
}

/// What a draft change works on: the section as the engine sees it and the draft as stored.
fn read_draft(
    conn: &Connection,
    event_id: i64,
    number: u32,
    token: Option<&str>,
) -> ApiResult<(Section, Round)> {
    auth::require(conn, event_id, token, Role::Admin)?;
    let (event, _) = draft(conn, event_id, number)?;
    let current = rounds::get(conn, event_id, number)?;
    Ok((load_section(conn, &event, number)?, current))
}

/// One draft change: the admin's token checked, `choose` run on the section and the current
/// draft, the result stored and answered. The engine runs outside the single writer (a large
/// section takes seconds, and every write of every event would wait): a dry run reads the
/// draft, the engine chooses, and the write reads it again and stores the choice only if
/// nothing changed meanwhile (else 409), all of it in one transaction.
async fn edit_draft(
    store: web::Data<Store>,
    (event_id, number): (i64, u32),
    token: Option<String>,
    choose: impl FnOnce(&Section, &Round) -> ApiResult<RoundPairing> + Send + 'static,
) -> ApiResult<HttpResponse> {
    let write_token = token.clone();
    let (section, current) = store
        .dry_run(move |tx| read_draft(tx, event_id, number, token.as_deref()))
        .await?;
    let turn = store.pairing_turn().await?;
    let (section, current, pairing) = web::block(move || {
        let pairing = crate::metrics::time_pairing("swiss_draft_change", "swiss", || {
            choose(&section, &current)
        });
        (section, current, pairing)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the pairing task failed: {e}")))?;
    drop(turn);
    let pairing = pairing?;
    let round = store
        .write(move |tx| {
            let (now_section, now_current) =
                read_draft(tx, event_id, number, write_token.as_deref())?;
            let unchanged = now_section.state == section.state
                && now_section.participant_of == section.participant_of
                && serde_json::to_value(&now_current).ok() == serde_json::to_value(&current).ok();
            if !unchanged {
                return Err(ApiError::conflict(
                    "the event changed while the draft was being re-paired; try again",
                ));
            }
            let (_, row) = draft(tx, event_id, number)?;
            write_pairing(tx, event_id, row.id, &now_section, &pairing)?;
            rounds::get(tx, event_id, number)
        })
        .await?;
    Ok(HttpResponse::Ok().json(round))
}

/// The director's pairing scored by the section's system (the Dutch criteria for
/// `fide_dutch`, the US penalty otherwise).
fn evaluate(section: &Section, boards: &[(u32, u32)], byes: &[u32]) -> ApiResult<RoundPairing> {
    swiss::evaluate_round_pairing(
        &section.state,
        boards,
        byes,
        &BlossomSolver,
        &Acceleration::none(),
    )
    .map_err(choice_error)
}

/// Replace a draft round's pairing with the director's own. The pairing is checked (every
/// available player exactly once), re-scored by the section's system and explained, with a
/// note comparing it with the engine's optimum (for `fide_dutch`: the Dutch criteria it
/// loses). Admin only.
///
/// 409: Not a draft of a Swiss event.
/// 422: A player missing, twice, or unknown.
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/rounds/{round}/pairings", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    request_body = ChosenPairing,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The draft, re-scored", body = Round),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/rounds/{round}/pairings")]
pub async fn set_pairings(
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<ChosenPairing>,
) -> ApiResult<HttpResponse> {
    edit_draft(store, path.into_inner(), token, move |section, _| {
        let boards = chosen_numbers(section, &body.pairings)?;
        let mut byes = Vec::new();
        for (i, p) in body.byes.iter().enumerate() {
            byes.push(start_number(section, *p, format!("byes[{i}]"))?);
        }
        evaluate(section, &boards, &byes).map_err(|e| rename_fields(e, section))
    })
    .await
}

/// Exchange two participants in a draft round: opponents swap colours; players on different
/// boards (or one with the bye) swap places. The result is re-scored and explained. Admin only.
///
/// 409: Not a draft of a Swiss event.
/// 422: A participant not paired in this round.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/rounds/{round}/swap", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    request_body = Swap,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The draft, re-scored", body = Round),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/rounds/{round}/swap")]
pub async fn swap_players(
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<Swap>,
) -> ApiResult<HttpResponse> {
    edit_draft(store, path.into_inner(), token, move |section, current| {
        if body.a == body.b {
            return Err(ApiError::invalid("b", "must differ from a"));
        }
        let mut boards: Vec<(i64, i64)> = current
            .games
            .iter()
            .map(|g| (g.white.id, g.black.id))
            .collect();
        let mut byes: Vec<i64> = current
            .byes
            .iter()
            .filter(|b| b.kind == "pairing")
            .map(|b| b.participant.id)
            .collect();
        let placed =
            |pid: i64| boards.iter().any(|(w, b)| *w == pid || *b == pid) || byes.contains(&pid);
        for (field, pid) in [("a", body.a), ("b", body.b)] {
            if !placed(pid) {
                return Err(ApiError::invalid(
                    field,
                    format!(
                        "participant {pid} is not paired in round {}",
                        current.number
                    ),
                ));
            }
        }
        let exchange = |x: &mut i64| {
            if *x == body.a {
                *x = body.b
            } else if *x == body.b {
                *x = body.a
            }
        };
        for (w, b) in boards.iter_mut() {
            exchange(w);
            exchange(b);
        }
        byes.iter_mut().for_each(exchange);
        let to_n = |pid: i64| start_number(section, pid, "a".into());
        let boards = boards
            .iter()
            .map(|(w, b)| Ok((to_n(*w)?, to_n(*b)?)))
            .collect::<ApiResult<Vec<_>>>()?;
        let byes = byes
            .iter()
            .map(|p| to_n(*p))
            .collect::<ApiResult<Vec<_>>>()?;
        evaluate(section, &boards, &byes)
    })
    .await
}

/// Force boards in a draft round (colours as given): the rest of the round is paired again
/// optimally around them, re-scored and explained. Admin only.
///
/// 409: Not a draft of a Swiss event.
/// 422: A participant unknown, unavailable or named twice.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/rounds/{round}/force", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    request_body = ForcedBoards,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The draft, paired again around the forced boards", body = Round),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/rounds/{round}/force")]
pub async fn force_boards(
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<ForcedBoards>,
) -> ApiResult<HttpResponse> {
    edit_draft(store, path.into_inner(), token, move |section, _| {
        if body.pairings.is_empty() {
            return Err(ApiError::invalid(
                "pairings",
                "must name at least one board",
            ));
        }
        let fixed = chosen_numbers(section, &body.pairings)?;
        swiss::pair_round_with_fixed(
            &section.state,
            &fixed,
            &BlossomSolver,
            &Acceleration::none(),
        )
        .map_err(|mut e| {
            // the engine calls the forced boards `fixed`; the request calls them `pairings`
            if let Some(rest) = e.field.strip_prefix("fixed") {
                e.field = format!("pairings{rest}");
            }
            choice_error(e)
        })
        .map_err(|e| rename_fields(e, section))
    })
    .await
}

/// The engine names players by start number; the request named participant ids. Messages
/// that quote a start number get the participant id beside it.
fn rename_fields(e: ApiError, section: &Section) -> ApiError {
    match e {
        ApiError::Validation(errors) => ApiError::Validation(
            errors
                .into_iter()
                .map(|mut f| {
                    for (n, pid) in &section.participant_of {
                        let needle = format!("player {n}");
                        if f.message.contains(&needle) && !f.message.contains("participant") {
                            f.message = f
                                .message
                                .replace(&needle, &format!("player {n} (participant {pid})"));
                            break;
                        }
                    }
                    f
                })
                .collect(),
        ),
        other => other,
    }
}
