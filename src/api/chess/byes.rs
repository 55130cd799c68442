//! `/api/v1/events/{id}/byes`: byes a Swiss director records in advance (full, half or zero
//! points for a given round), honoured when that round is paired. For a round already paired,
//! a bye can be given to a participant who is not in it (a late entry's score).

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::chess::pairing::swiss_event;
use crate::api::extract::{json_cached, Bearer, JsonBody, Pagination, QueryParams};
use crate::api::responses::{AdminAction, AdminWrite, PublicRead};
use crate::domain::section::SwissSection;
use crate::domain::{Page, RoundStatus};
use crate::error::{ApiError, ApiResult};
use crate::limits::MAX_ROUNDS;
use crate::store::swiss::{self as swiss_store, RequestedByeRow};
use crate::store::tokens::Role;
use crate::store::{events, games, now, participants, rounds, Store};

/// A bye to record.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"participant_id": 12, "round": 4, "points": 0.5}))]
pub struct NewBye {
    /// A participant of the event.
    pub participant_id: i64,
    /// The round (1 = first), at most the event's planned rounds.
    #[schema(value_type = crate::limits::schema::RoundNumber)]
    pub round: u32,
    /// 1 (full-point bye), 0.5 (half-point bye) or 0 (absent).
    #[schema(value_type = crate::engine::chess::swiss::state::ByePoints)]
    pub points: f64,
}

/// Record a bye for a participant and round of a Swiss event. For a round not yet paired it is
/// honoured when the round is paired; for a published round it is added at once, if the
/// participant is not in that round (a late entry). Admin only.
///
/// 409: Not a Swiss event, the round is a draft, the participant already plays that round, or a bye is already recorded.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/byes", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = NewBye,
    security(("bearer" = [])),
    responses(
        (status = 201, body = RequestedByeRow),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/byes")]
pub async fn add_bye(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<NewBye>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    if !crate::engine::chess::swiss::state::BYE_POINTS.contains(&body.points) {
        return Err(ApiError::invalid("points", "must be 1, 0.5 or 0"));
    }
    if !(1..=MAX_ROUNDS).contains(&body.round) {
        return Err(ApiError::invalid(
            "round",
            format!("rounds are numbered from 1 to {MAX_ROUNDS}"),
        ));
    }
    let row = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let event = swiss_event(tx, event_id)?;
            if let Some(planned) = SwissSection::parse(&event.settings)?.rounds {
                if body.round > planned {
                    return Err(ApiError::invalid(
                        "round",
                        format!(
                            "the event is planned for {planned} rounds (settings.rounds); round {} is not one of them",
                            body.round
                        ),
                    ));
                }
            }
            participants::get(tx, event_id, body.participant_id).map_err(|_| {
                ApiError::invalid(
                    "participant_id",
                    format!(
                        "event {event_id} has no participant {}",
                        body.participant_id
                    ),
                )
            })?;
            let now = now();
            if let Some(round) = rounds::find(tx, event_id, body.round)? {
                if round.status == RoundStatus::Draft {
                    return Err(ApiError::conflict(format!(
                        "round {} is a draft: delete it, record the bye, and pair the round again",
                        body.round
                    )));
                }
                if games::plays_in(tx, round.id, body.participant_id)? {
                    return Err(ApiError::conflict(format!(
                        "participant {} is already in round {}",
                        body.participant_id, body.round
                    )));
                }
                games::insert_bye_of_kind(
                    tx,
                    round.id,
                    body.participant_id,
                    body.points,
                    swiss_store::recorded_bye_kind(body.points),
                )?;
            }
            let id = swiss_store::insert_requested_bye(
                tx,
                event_id,
                body.participant_id,
                body.round,
                body.points,
                &now,
            )?;
            events::touch(tx, event_id, &now)?;
            swiss_store::find_requested_bye(tx, event_id, id)?
                .ok_or_else(|| ApiError::Internal("the bye just recorded is gone".into()))
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/byes/{}", row.id),
        ))
        .json(row))
}

/// The byes recorded for an event, by round (paginated).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/byes", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), Pagination),
    responses(
        (status = 200, body = Page<RequestedByeRow>),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/byes")]
pub async fn list_byes(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(page): QueryParams<Pagination>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let (limit, offset) = page.resolve()?;
    let page = store
        .read(move |conn| {
            events::get(conn, event_id)?;
            let all = swiss_store::requested_byes(conn, event_id)?;
            Ok(Page {
                total: all.len() as u64,
                items: all
                    .into_iter()
                    .skip(offset as usize)
                    .take(limit as usize)
                    .collect(),
                limit,
                offset,
            })
        })
        .await?;
    json_cached(&req, &page)
}

/// Remove a recorded bye, while its round is not paired yet. Admin only.
///
/// 409: The round is already paired.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}/byes/{bye_id}", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("bye_id" = i64, Path, description = "Bye id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}/byes/{bye_id}")]
pub async fn delete_bye(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, id) = path.into_inner();
    store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let bye = swiss_store::find_requested_bye(tx, event_id, id)?
                .ok_or_else(|| ApiError::not_found(format!("event {event_id} has no bye {id}")))?;
            if rounds::find(tx, event_id, bye.round)?.is_some() {
                return Err(ApiError::conflict(format!(
                    "round {} is already paired; delete the round (while it has no results) first",
                    bye.round
                )));
            }
            swiss_store::delete_requested_bye(tx, id)?;
            events::touch(tx, event_id, &now())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
