//! `POST /api/v1/events/{id}/lots`: draw pairing numbers; for round robins this also makes the
//! whole schedule from the Berger table, in the same transaction (team events: team numbers
//! and the Scheveningen or Hilton schedule, see `api::events::teams`). The live stream hears of the
//! rounds made (and of those they replace).

use actix_web::{post, web, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::events::stream::RoundWatch;
use crate::api::extract::{Bearer, IfMatch, JsonBody};
use crate::api::responses::AdminWrite;
use crate::api::{auth, bridge::team_events, events::teams};
use crate::domain::{
    is_bridge_swiss, is_chess_team_format, is_match_format, is_round_robin, is_team_format, Event,
    LotsMethod, Participant, ParticipantStatus, RoundStatus, FORMAT_BRIDGE_TEAMS,
    FORMAT_DOUBLE_ROUND_ROBIN, FORMAT_SWISS,
};
use crate::engine::chess::round_robin::berger;
use crate::engine::lots::{draw_by_rating, draw_random, Entrant};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::tokens::Role;
use crate::store::{bridge_matches, events, games, now, participants, rounds, Store};

/// How to draw lots: at random (`seed`: the seed to use, a recorded one again to reproduce a
/// draw; omitted, a fresh seed is chosen and recorded) or by rating. A seed only goes with a
/// random draw (a rule between the two fields: the document gives each method its own
/// shape, and the server refuses a rating draw with a seed with 422).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawLots {
    pub method: LotsMethod,
    pub seed: Option<u64>,
}

impl utoipa::PartialSchema for DrawLots {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::limits::schema::from_json(serde_json::json!({
            "description": "How to draw lots: at random, with the seed to use (a recorded one again reproduces a draw; omitted, a fresh seed is chosen and recorded), or by rating, highest first (no seed: a seed only goes with a random draw).",
            "oneOf": [
                {
                    "title": "RandomDraw",
                    "type": "object",
                    "required": ["method"],
                    "properties": {
                        "method": {"type": "string", "enum": ["random"]},
                        "seed": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Seed"}]}
                    },
                    "additionalProperties": false
                },
                {
                    "title": "RatingDraw",
                    "type": "object",
                    "required": ["method"],
                    "properties": {
                        "method": {"type": "string", "enum": ["rating"]},
                        "seed": {"type": "null"}
                    },
                    "additionalProperties": false
                }
            ],
            "example": {"method": "random", "seed": 20261122}
        }))
    }
}

impl ToSchema for DrawLots {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        use crate::limits::schema::Seed;
        use utoipa::PartialSchema;
        schemas.push((Seed::name().into_owned(), Seed::schema()));
    }
}

/// The outcome of a draw.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"event": {"id": 1, "name": "Club Championship 2026", "game": "chess", "format": "round_robin", "start_date": null, "end_date": null, "settings": {}, "lots": {"method": "rating", "seed": null, "drawn_at": "2026-11-22T10:05:00Z"}, "participants": 1, "rounds": 0, "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:05:00Z"}, "participants": [{"id": 1, "event_id": 1, "name": "Anna", "rating": 2100, "club": null, "federation": null, "external_id": null, "pairing_number": 1, "status": "active"}]}))]
pub struct DrawnLots {
    pub event: Event,
    /// Active participants in pairing-number order.
    pub participants: Vec<Participant>,
}

pub(crate) fn fresh_seed() -> ApiResult<u64> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness for a seed: {e}")))?;
    // Keep seeds within i64 so they round-trip through SQLite and JSON clients unchanged.
    Ok(u64::from_le_bytes(bytes) >> 12)
}

/// Makes every round of a round robin from the Berger table: `by_number[k]` is the participant
/// with pairing number k + 1.
fn make_round_robin(conn: &Connection, event: &Event, by_number: &[i64]) -> ApiResult<()> {
    let double = event.format == FORMAT_DOUBLE_ROUND_ROBIN;
    let table = berger(by_number.len() as u32, double)
        .map_err(|e| ApiError::conflict(format!("cannot make the schedule: {}", e.message)))?;
    let now = now();
    for round in &table.rounds {
        let round_id = rounds::insert(conn, event.id, round.round, RoundStatus::Published, &now)?;
        for g in &round.games {
            games::insert(
                conn,
                round_id,
                g.board,
                by_number[g.white as usize - 1],
                by_number[g.black as usize - 1],
            )?;
        }
        if let Some(bye) = round.bye {
            games::insert_bye(conn, round_id, by_number[bye as usize - 1], 0.0)?;
        }
    }
    Ok(())
}

/// Draw lots: assign pairing numbers to the active participants at random (from a recorded
/// seed) or by rating. For a round robin the whole schedule is made at once. Drawing again
/// replaces the numbers and the schedule while no result has been entered, and needs the
/// `If-Match` of the event as the caller saw it (its ETag or version): of several draws sent
/// at once exactly one is made, the others get 409 (no `If-Match`) or 412 (a stale one).
/// Admin only.
///
/// 409: Results already entered, too few participants, or lots drawn already (and no
/// `If-Match`).
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/lots", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = DrawLots,
    security(("bearer" = [])),
    responses(
        (status = 200, body = DrawnLots),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/lots")]
pub async fn draw_lots(
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    if_match: Option<IfMatch>,
    JsonBody(body): JsonBody<DrawLots>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    // The If-Match itself is checked by the write (`Store::write`); here only whether it was sent.
    let again_allowed = if_match.is_some();
    if body.method == LotsMethod::Rating && body.seed.is_some() {
        return Err(ApiError::invalid("seed", "a draw by rating takes no seed"));
    }
    if body.seed.is_some_and(|s| s > crate::limits::MAX_SEED) {
        return Err(ApiError::invalid(
            "seed",
            format!("must be at most {}", crate::limits::MAX_SEED),
        ));
    }
    let seed = match body.method {
        LotsMethod::Random => Some(match body.seed {
            Some(s) => s,
            None => fresh_seed()?,
        }),
        LotsMethod::Rating => None,
    };
    let (drawn, news) = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let watch = RoundWatch::start(tx, event_id)?;
            let event = events::get(tx, event_id)?;
            if let (Some(lots), false) = (&event.lots, again_allowed) {
                return Err(ApiError::conflict(format!(
                    "lots were drawn already (at {}); to draw again send If-Match with the event's \
                     ETag or version as you saw it (now \"v{}\")",
                    lots.drawn_at,
                    crate::store::versions::read(tx, event_id)?.unwrap_or_default()
                )));
            }
            if event.format == FORMAT_SWISS && rounds::count(tx, event_id)? > 0 {
                return Err(ApiError::conflict(
                    "rounds have been paired; the pairing numbers can no longer be drawn again",
                ));
            }
            if is_bridge_swiss(&event.format) && bridge_matches::has_schedule(tx, event_id)? {
                return Err(ApiError::conflict(
                    "rounds have been drawn; the numbers (the seeding) can no longer be drawn again",
                ));
            }
            if is_match_format(&event.format) && bridge_matches::has_results(tx, event_id)? {
                return Err(ApiError::conflict(
                    "results have been entered; lots can no longer be drawn again",
                ));
            }
            if games::count_results(tx, event_id)? > 0 {
                return Err(ApiError::conflict(
                    "results have been entered; lots can no longer be drawn again",
                ));
            }
            let active: Vec<Participant> = participants::all(tx, event_id)?
                .into_iter()
                .filter(|p| p.status == ParticipantStatus::Active)
                .collect();
            if is_round_robin(&event.format) && active.len() < 3 {
                return Err(ApiError::conflict(format!(
                    "a round robin needs at least 3 active participants; the event has {}",
                    active.len()
                )));
            }
            let entrants: Vec<Entrant> = active
                .iter()
                .map(|p| Entrant {
                    key: p.id,
                    rating: p.rating,
                })
                .collect();
            let order = match seed {
                _ if is_team_format(&event.format) => teams::number_teams(tx, &event, seed)?,
                Some(s) => draw_random(&entrants, s),
                None => draw_by_rating(&entrants),
            };
            let now = now();
            rounds::delete_all(tx, event_id)?;
            participants::assign_pairing_numbers(tx, event_id, &order)?;
            events::set_lots(tx, event_id, body.method, seed, &now)?;
            if is_round_robin(&event.format) {
                make_round_robin(tx, &event, &order)?;
            }
            if is_chess_team_format(&event.format) {
                teams::make_schedule(tx, &event)?;
            }
            if event.format == FORMAT_BRIDGE_TEAMS {
                team_events::make_schedule(tx, &event)?;
            }
            let mut numbered: Vec<Participant> = participants::all(tx, event_id)?
                .into_iter()
                .filter(|p| p.pairing_number.is_some())
                .collect();
            numbered.sort_by_key(|p| p.pairing_number);
            let drawn = DrawnLots {
                event: events::get(tx, event_id)?,
                participants: numbered,
            };
            Ok((drawn, watch.news(tx)?))
        })
        .await?;
    // a round robin's or team event's schedule, made or made again
    news.announce(&live);
    Ok(HttpResponse::Ok().json(drawn))
}
