//! `POST /api/v1/events/{id}/results`: enter game results, one or many per request.

use std::collections::HashMap;

use actix_web::{post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::extract::{Bearer, JsonBody};
use crate::api::responses::ScorerWrite;
use crate::domain::RoundStatus;
use crate::engine::chess::scoring::GameResult;
use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::games::{self, GameRow};
use crate::store::tokens::Role;
use crate::store::{events, now, rounds, Store};

/// One result: name the game by `game_id`, or by `round` and `board`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"round": 2, "board": 3, "result": "1/2-1/2"}))]
pub struct ResultEntry {
    pub game_id: Option<i64>,
    pub round: Option<u32>,
    pub board: Option<u32>,
    /// `1-0`, `0-1`, `1/2-1/2` (or `½-½`), `+/-` and `-/+` (forfeits), `-/-` (double forfeit).
    pub result: String,
}

/// Results to enter; all are stored or none.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"results": [
    {"round": 1, "board": 1, "result": "1-0"},
    {"game_id": 12, "result": "1/2-1/2"}
]}))]
pub struct SubmitResults {
    #[schema(min_items = 1, max_items = 5000)]
    pub results: Vec<ResultEntry>,
}

/// What happened to one result.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"game_id": 12, "round": 2, "board": 3, "result": "1/2-1/2", "changed": true}))]
pub struct EnteredResult {
    pub game_id: i64,
    pub round: u32,
    pub board: u32,
    /// The stored notation.
    pub result: String,
    /// False when the same result was already stored.
    pub changed: bool,
}

/// The results as stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"results": [{"game_id": 12, "round": 2, "board": 3, "result": "1/2-1/2", "changed": true}]}))]
pub struct EnteredResults {
    pub results: Vec<EnteredResult>,
}

fn parse_entries(entries: &[ResultEntry]) -> Result<Vec<GameResult>, ApiError> {
    let mut errors = Vec::new();
    let mut parsed = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        match (e.game_id, e.round, e.board) {
            (Some(_), None, None) | (None, Some(_), Some(_)) => {}
            _ => errors.push(FieldError {
                field: format!("results[{i}]"),
                message: "name the game by game_id, or by round and board".into(),
            }),
        }
        match GameResult::parse(&e.result) {
            Some(r) => parsed.push(r),
            None => {
                errors.push(FieldError {
                    field: format!("results[{i}].result"),
                    message: format!(
                        "{:?} is not a result; use 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-",
                        e.result
                    ),
                });
                parsed.push(GameResult::DoubleForfeit);
            }
        }
    }
    if entries.is_empty() || entries.len() > crate::limits::MAX_RESULTS {
        errors.push(FieldError {
            field: "results".into(),
            message: format!(
                "must hold 1 to {} results (a round's games)",
                crate::limits::MAX_RESULTS
            ),
        });
    }
    crate::domain::check(errors)?;
    Ok(parsed)
}

/// Enter results with the admin token or a scorer token. Sending a result that is already
/// stored changes nothing; changing a stored result needs the admin token. All or nothing.
///
/// 403: Another event's token, or a scorer changing a stored result.
/// 409: No such game, or its round is a draft.
/// 422: Unknown notation, or contradicting results for one game.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/results", tag = "results",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = SubmitResults,
    security(("bearer" = [])),
    responses(
        (status = 200, body = EnteredResults),
        ScorerWrite,
    )
)]
#[post("/api/v1/events/{event_id}/results")]
pub async fn submit_results(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<SubmitResults>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let parsed = parse_entries(&body.results)?;
    let entered = store
        .write(move |tx| {
            let credential = auth::require(tx, event_id, token.as_deref(), Role::Scorer)?;
            let by = match credential.role {
                Role::Admin => "admin".to_string(),
                Role::Scorer => format!("scorer:{}", credential.id),
            };
            let now = now();
            let mut seen: HashMap<i64, (usize, GameResult)> = HashMap::new();
            let mut out = Vec::with_capacity(parsed.len());
            for (i, (entry, result)) in body.results.iter().zip(parsed).enumerate() {
                let game: GameRow = match (entry.game_id, entry.round, entry.board) {
                    (Some(id), _, _) => games::find_by_id(tx, event_id, id)?.ok_or_else(|| {
                        ApiError::conflict(format!("results[{i}]: event {event_id} has no game {id}"))
                    })?,
                    (_, Some(r), Some(b)) => games::find_by_board(tx, event_id, r, b)?
                        .ok_or_else(|| {
                            ApiError::conflict(format!(
                                "results[{i}]: round {r} of event {event_id} has no board {b}"
                            ))
                        })?,
                    _ => {
                        return Err(ApiError::invalid(
                            format!("results[{i}]"),
                            "name the game by game_id, or by round and board",
                        ))
                    }
                };
                if rounds::find(tx, event_id, game.round)?
                    .is_some_and(|r| r.status == RoundStatus::Draft)
                {
                    return Err(ApiError::conflict(format!(
                        "results[{i}]: round {} is a draft; publish it before entering results",
                        game.round
                    )));
                }
                if let Some(&(j, earlier)) = seen.get(&game.id) {
                    if earlier != result {
                        return Err(ApiError::invalid(
                            format!("results[{i}].result"),
                            format!("contradicts results[{j}] for the same game"),
                        ));
                    }
                }
                seen.insert(game.id, (i, result));
                let stored = game.result.as_deref().and_then(GameResult::parse);
                let changed = stored != Some(result);
                if changed {
                    if stored.is_some() && credential.role != Role::Admin {
                        return Err(ApiError::Forbidden(format!(
                            "results[{i}]: round {} board {} already has {}; only the admin can change it",
                            game.round,
                            game.board,
                            game.result.as_deref().unwrap_or_default()
                        )));
                    }
                    games::set_result(tx, game.id, result.canonical(), &by, &now)?;
                }
                out.push(EnteredResult {
                    game_id: game.id,
                    round: game.round,
                    board: game.board,
                    result: result.canonical().to_string(),
                    changed,
                });
            }
            if out.iter().any(|r| r.changed) {
                events::touch(tx, event_id, &now)?;
            }
            Ok(EnteredResults { results: out })
        })
        .await?;
    Ok(HttpResponse::Ok().json(entered))
}
