//! `/api/v1/events/{id}/norms`: each player's title norms (FIDE B.01) as the event stands: met,
//! or what is missing. The rules: [`crate::engine::chess::norms`].

use actix_web::{get, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::events::standings::{norm_checks, scoresheet};
use crate::api::extract::json_cached;
use crate::api::responses::PublicRead;
use crate::domain::{GameKind, Seat};
use crate::engine::chess::norms::NormCheck;
use crate::error::{ApiError, ApiResult, Problem};
use crate::store::{events, Store};

/// One player's norm checks.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerNorms {
    pub participant: Seat,
    /// GM, IM, WGM, WIM (the women's norms unless the player is recorded as a man).
    pub norms: Vec<NormCheck>,
}

/// The norms of an event's players.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"event_id": 1, "players": [{"participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2350}, "norms": [{"norm": "IM", "met": false, "games": 9, "average_rating": 2291, "performance": 2406, "missing": ["performance 2406 (6 of 9): 2450 needed, i.e. 6½ points"], "points_needed": 6.5}]}]}))]
pub struct EventNorms {
    pub event_id: i64,
    pub players: Vec<PlayerNorms>,
}

/// Each player's title norms (B.01): for a GM, IM, WGM and WIM norm, whether the games so far
/// meet it (games, titled opponents, federations, the opponents' average rating with the
/// rating floor, the performance), and what is missing when they do not. What the event
/// decides (the rate of play, the arbiters, the registration) is the chief arbiter's to
/// certify and is not checked. Players in pairing-number order.
///
/// 409: A bridge event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/norms", tag = "results",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = EventNorms),
        (status = 409, description = "A bridge event", body = Problem, content_type = "application/problem+json"),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/norms")]
pub async fn get_norms(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let answer = store
        .read(move |conn| {
            if events::get(conn, event_id)?.game != GameKind::Chess {
                return Err(ApiError::conflict("title norms are for chess events"));
            }
            let sheet = scoresheet(conn, event_id)?;
            let checks = norm_checks(&sheet);
            Ok(EventNorms {
                event_id,
                players: sheet
                    .players
                    .iter()
                    .zip(checks)
                    .map(|(p, norms)| PlayerNorms {
                        participant: Seat {
                            id: p.id,
                            name: p.name.clone(),
                            pairing_number: p.pairing_number,
                            rating: p.rating,
                        },
                        norms,
                    })
                    .collect(),
            })
        })
        .await?;
    json_cached(&req, &answer)
}
