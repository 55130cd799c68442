//! `POST /api/v1/events/{id}/results`: enter game results, one or many per request.

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::{post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth::{self, ResultChanges};
use crate::api::events::results_csv::{self, GameRef};
use crate::api::events::stream;
use crate::api::extract::{parse_json, Bearer};
use crate::api::responses::ScorerWrite;
use crate::engine::chess::games::GameResultText;
use crate::engine::chess::scoring::GameResult;
use crate::error::{ApiError, ApiResult, FieldError};
use crate::limits::schema::{GameBoard, GameRound};
use crate::live::Live;
use crate::store::games;
use crate::store::tokens::Role;
use crate::store::{events, now, Store};

/// One result: name the game by `game_id`, or by `round` and `board`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"round": 2, "board": 3, "result": "1/2-1/2"}))]
pub struct ResultEntry {
    pub game_id: Option<i64>,
    /// With `board`, instead of `game_id`.
    #[schema(value_type = Option<GameRound>)]
    pub round: Option<u32>,
    #[schema(value_type = Option<GameBoard>)]
    pub board: Option<u32>,
    /// `1-0`, `0-1`, `1/2-1/2` (or `½-½`), `+/-` and `-/+` (forfeits), `-/-` (double forfeit).
    #[schema(value_type = GameResultText)]
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

/// One result to store, with the name of its place in the request (`results[2]`, `line 3`).
struct Wanted {
    place: String,
    game: GameRef,
    result: GameResult,
}

fn from_json(entries: &[ResultEntry]) -> Result<Vec<Wanted>, ApiError> {
    let mut errors = Vec::new();
    let mut wanted = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let game = match (e.game_id, e.round, e.board) {
            (Some(id), None, None) => Some(GameRef::Id(id)),
            (None, Some(round), Some(board)) => Some(GameRef::Board { round, board }),
            _ => {
                errors.push(FieldError {
                    field: format!("results[{i}]"),
                    message: "name the game by game_id, or by round and board".into(),
                });
                None
            }
        };
        let result = GameResult::parse(&e.result);
        if result.is_none() {
            errors.push(FieldError {
                field: format!("results[{i}].result"),
                message: format!(
                    "{:?} is not a result; use 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-",
                    e.result
                ),
            });
        }
        if let (Some(game), Some(result)) = (game, result) {
            wanted.push(Wanted {
                place: format!("results[{i}]"),
                game,
                result,
            });
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
    crate::error::check(errors)?;
    Ok(wanted)
}

/// The good lines, and the bad lines' errors (the good ones are still checked against the
/// event, so that one answer names every bad line).
fn from_csv(body: &[u8]) -> Result<(Vec<Wanted>, Vec<FieldError>), ApiError> {
    let text =
        std::str::from_utf8(body).map_err(|_| ApiError::invalid("body", "must be UTF-8 text"))?;
    let (lines, errors) = results_csv::parse(text);
    if lines.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let wanted = lines
        .into_iter()
        .map(|l| Wanted {
            place: format!("line {}", l.line),
            game: l.game,
            result: l.result,
        })
        .collect();
    Ok((wanted, errors))
}

/// The games a batch names, read once and looked up by each of the three ways to name one.
struct Named {
    games: Vec<games::ResultTarget>,
    by_id: HashMap<i64, usize>,
    by_board: HashMap<(u32, u32), usize>,
    by_numbers: HashMap<(u32, u32, u32), usize>,
}

impl Named {
    fn read(conn: &Connection, event_id: i64, wanted: &[Wanted]) -> ApiResult<Named> {
        let mut rounds = Vec::new();
        let mut ids = Vec::new();
        for w in wanted {
            match w.game {
                GameRef::Id(id) => ids.push(id),
                GameRef::Board { round, .. } | GameRef::Numbers { round, .. } => rounds.push(round),
            }
        }
        rounds.sort_unstable();
        rounds.dedup();
        ids.sort_unstable();
        ids.dedup();
        let games = games::named_in_results(conn, event_id, &rounds, &ids)?;
        let mut named = Named {
            by_id: HashMap::with_capacity(games.len()),
            by_board: HashMap::with_capacity(games.len()),
            by_numbers: HashMap::with_capacity(games.len()),
            games: Vec::new(),
        };
        for (i, t) in games.iter().enumerate() {
            named.by_id.insert(t.game.id, i);
            named.by_board.insert((t.game.round, t.game.board), i);
            if let (Some(white), Some(black)) = (t.white_number, t.black_number) {
                named.by_numbers.insert((t.game.round, white, black), i);
            }
        }
        named.games = games;
        Ok(named)
    }

    fn find(&self, event_id: i64, game: GameRef) -> Result<&games::ResultTarget, String> {
        let found = match game {
            GameRef::Id(id) => self.by_id.get(&id),
            GameRef::Board { round, board } => self.by_board.get(&(round, board)),
            GameRef::Numbers {
                round,
                white,
                black,
            } => self.by_numbers.get(&(round, white, black)),
        };
        found.map(|&i| &self.games[i]).ok_or_else(|| match game {
            GameRef::Id(id) => format!("event {event_id} has no game {id}"),
            GameRef::Board { round, board } => {
                format!("round {round} of event {event_id} has no board {board}")
            }
            GameRef::Numbers {
                round,
                white,
                black,
            } => format!(
                "round {round} of event {event_id} has no game of {white} (white) v {black} (black)"
            ),
        })
    }
}

fn enter(
    tx: &Connection,
    event_id: i64,
    token: Option<&str>,
    wanted: Vec<Wanted>,
    line_errors: Option<Vec<FieldError>>,
    changes: ResultChanges,
) -> ApiResult<EnteredResults> {
    let per_line = line_errors.is_some();
    let mut line_errors = line_errors.unwrap_or_default();
    let credential = auth::require(tx, event_id, token, Role::Scorer)?;
    let by = match credential.role {
        Role::Admin => "admin".to_string(),
        Role::Scorer => format!("scorer:{}", credential.id),
    };
    let now = now();
    let mut seen: HashMap<i64, (&str, GameResult)> = HashMap::new();
    let mut out = Vec::with_capacity(wanted.len());
    let mut refused = Vec::new();
    let mut bad = |place: &str, message: String| -> ApiResult<()> {
        if per_line {
            line_errors.push(FieldError {
                field: place.to_string(),
                message,
            });
            Ok(())
        } else {
            Err(ApiError::conflict(format!("{place}: {message}")))
        }
    };
    let named = Named::read(tx, event_id, &wanted)?;
    for w in &wanted {
        let (place, result) = (w.place.as_str(), w.result);
        let (game, draft) = match named.find(event_id, w.game) {
            Ok(target) => (&target.game, target.draft),
            Err(message) => {
                bad(place, message)?;
                continue;
            }
        };
        if draft {
            bad(
                place,
                format!(
                    "round {} is a draft; publish it before entering results",
                    game.round
                ),
            )?;
            continue;
        }
        if let Some(&(earlier, first)) = seen.get(&game.id) {
            if first != result {
                let field = if per_line {
                    place.to_string()
                } else {
                    format!("{place}.result")
                };
                return Err(ApiError::invalid(
                    field,
                    format!("contradicts {earlier} for the same game"),
                ));
            }
        }
        // The same result named twice is entered once (the games were read before either).
        let repeated = seen.insert(game.id, (place, result)).is_some();
        let stored = game.result.as_deref().and_then(GameResult::parse);
        let changed = !repeated && stored != Some(result);
        if changed {
            if stored.is_some() && !changes.may_replace(&credential) {
                let field = if per_line {
                    place.to_string()
                } else {
                    format!("{place}.result")
                };
                let stored = format!(
                    "{} (round {}, board {})",
                    game.result.as_deref().unwrap_or_default(),
                    game.round,
                    game.board
                );
                refused.push(ResultChanges::refusal(field, &stored));
                continue;
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
    line_errors.sort_by_key(|e| {
        e.field
            .strip_prefix("line ")
            .and_then(|n| n.parse::<usize>().ok())
    });
    crate::error::check(line_errors)?;
    ResultChanges::check(refused)?;
    if out.iter().any(|r| r.changed) {
        events::touch(tx, event_id, &now)?;
    }
    Ok(EnteredResults { results: out })
}

/// Enter results with the admin token or a scorer token, as JSON or as CSV (`text/csv`:
/// `round,board,result` or `round,white,black,result` with pairing numbers; see
/// [`results_csv`]). Sending a result that is already stored changes nothing; changing a
/// stored result needs the admin token, or `If-Match` with the ETag read before (the rule of
/// every format: [`ResultChanges`]). All or nothing. Send an `Idempotency-Key` to retry
/// safely.
///
/// 403: Another event's token.
/// 409: A stored result changed by a scorer without `If-Match` (`errors` names each:
/// `results[i].result`, or `line N`); JSON: no such game, or its round is a draft.
/// 422: Unknown notation, or contradicting results for one game; CSV: every bad line, named `line N`.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/results", tag = "results",
    params(
        ("event_id" = i64, Path, description = "Event id"),
        ("Idempotency-Key" = inline(Option<crate::api::idempotency::IdempotencyKey>), Header, description = "Retry safely: the same key returns the first answer (kept 24 h)"),
    ),
    request_body(content(
        (SubmitResults = "application/json"),
        (String = "text/csv", example = "round,board,result\n2,1,1-0\n2,2,1/2-1/2\n"),
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, body = EnteredResults),
        ScorerWrite,
    )
)]
#[post("/api/v1/events/{event_id}/results")]
pub async fn submit_results(
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
        .is_some_and(|ct| ct.trim().to_ascii_lowercase().starts_with("text/csv"));
    let (wanted, line_errors) = if csv {
        let (wanted, errors) = from_csv(&body)?;
        (wanted, Some(errors))
    } else {
        (
            from_json(&parse_json::<SubmitResults>(&body)?.results)?,
            None,
        )
    };
    let changes = ResultChanges::of(&req);
    let entered = store
        .write(move |tx| enter(tx, event_id, token.as_deref(), wanted, line_errors, changes))
        .await?;
    let mut news = stream::ResultsNews::default();
    for r in entered.results.iter().filter(|r| r.changed) {
        news.board(r.round, r.board);
    }
    news.announce(
        &live,
        event_id,
        &format!("/api/v1/events/{event_id}/standings"),
    );
    Ok(HttpResponse::Ok().json(entered))
}
