//! Swiss rounds of an event: pair the next round as a draft, publish it, delete the last
//! round. (Changing a draft: [`crate::api::chess::pairing_edit`].)
//!
//! Every action runs in one transaction: the section is read back from the store, the engine
//! pairs or scores it, and the round is written, or nothing is.

use std::collections::HashMap;

use actix_web::{delete, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;

use crate::api::auth;
use crate::api::chess::swiss::RequestBudget;
use crate::api::events::stream::RoundWatch;
use crate::api::extract::Bearer;
use crate::api::responses::{AdminAction, AdminPairing};
use crate::domain::section::SwissSection;
use crate::domain::{Event, LotsMethod, ParticipantStatus, Round, RoundStatus, FORMAT_SWISS};
use crate::engine::chess::swiss::{RoundPairing, SwissError, SwissSettings};
use crate::engine::lots::{draw_by_rating, Entrant};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::swiss::Section;
use crate::store::tokens::Role;
use crate::store::{events, games, now, participants, rounds, swiss as swiss_store, Store};

pub(crate) fn swiss_event(conn: &Connection, event_id: i64) -> ApiResult<Event> {
    let event = events::get(conn, event_id)?;
    if event.format != FORMAT_SWISS {
        return Err(ApiError::conflict(format!(
            "event {event_id} is a {} event: its rounds are made when lots are drawn; \
             only swiss events are paired round by round",
            event.format
        )));
    }
    Ok(event)
}

/// Gives every participant without a pairing number one: by rating when no lots were drawn,
/// else late entries after the others (rating order).
fn number_everyone(conn: &Connection, event: &Event) -> ApiResult<()> {
    let all = participants::all(conn, event.id)?;
    let entrants: Vec<Entrant> = all
        .iter()
        .filter(|p| p.pairing_number.is_none())
        .map(|p| Entrant {
            key: p.id,
            rating: p.rating,
        })
        .collect();
    if entrants.is_empty() {
        return Ok(());
    }
    let mut order = draw_by_rating(&entrants);
    // withdrawn participants last
    let withdrawn: Vec<i64> = all
        .iter()
        .filter(|p| p.status == ParticipantStatus::Withdrawn)
        .map(|p| p.id)
        .collect();
    order.sort_by_key(|id| withdrawn.contains(id));
    participants::append_pairing_numbers(conn, event.id, &order)?;
    if event.lots.is_none() {
        events::set_lots(conn, event.id, LotsMethod::Rating, None, &now())?;
    }
    Ok(())
}

/// The section's settings, with the coin-flip seed (`fresh` when the event has none yet)
/// stored on first use.
fn settings_with_seed(
    conn: &Connection,
    event: &Event,
    fresh: u64,
) -> ApiResult<(SwissSection, u64)> {
    let mut section = SwissSection::parse(&event.settings)?;
    let seed = match section.seed {
        Some(s) => s,
        None => {
            let s = fresh;
            section.seed = Some(s);
            let mut settings = event.settings.clone();
            settings["seed"] = serde_json::json!(s);
            events::set_settings(conn, event.id, &settings, &now())?;
            s
        }
    };
    Ok((section, seed))
}

/// Reads the section for pairing `round`.
pub(crate) fn load_section(conn: &Connection, event: &Event, round: u32) -> ApiResult<Section> {
    load_section_seeded(conn, event, round, crate::api::events::lots::fresh_seed()?)
}

/// [`load_section`], with the seed to store when the event has none (so that a dry run and
/// the write after it read the same section).
fn load_section_seeded(
    conn: &Connection,
    event: &Event,
    round: u32,
    fresh: u64,
) -> ApiResult<Section> {
    number_everyone(conn, event)?;
    let (section, seed) = settings_with_seed(conn, event, fresh)?;
    let mut loaded = swiss_store::load(conn, event.id, round, SwissSettings::default())?;
    loaded.state.settings = section.engine_settings(seed, &loaded.start_number_of);
    Ok(loaded)
}

fn engine_error(e: SwissError) -> ApiError {
    ApiError::conflict(format!("cannot pair: {}: {}", e.field, e.message))
}

/// Writes the engine's pairing into the round (replacing what it held) and returns it.
pub(crate) fn write_pairing(
    conn: &Connection,
    event_id: i64,
    round_id: i64,
    section: &Section,
    pairing: &RoundPairing,
) -> ApiResult<()> {
    rounds::clear(conn, round_id)?;
    let pid = |n: u32| {
        section
            .participant_of
            .get(&n)
            .copied()
            .ok_or_else(|| ApiError::Internal(format!("the engine named unknown player {n}")))
    };
    for b in &pairing.pairings {
        games::insert(conn, round_id, b.board, pid(b.white)?, pid(b.black)?)?;
    }
    let requested: HashMap<u32, f64> = section
        .state
        .requested_byes
        .iter()
        .map(|b| (b.player, b.points))
        .collect();
    for b in &pairing.byes {
        let kind = match requested.get(&b.player) {
            Some(&points) => swiss_store::recorded_bye_kind(points),
            None if b.points >= 1.0 => "pairing",
            None => "absent",
        };
        games::insert_bye_of_kind(conn, round_id, pid(b.player)?, b.points, kind)?;
    }
    let details = serde_json::json!({
        "explanation": pairing.explanation,
        "seed": section.state.settings.seed,
    });
    rounds::set_details(conn, round_id, &details)?;
    events::touch(conn, event_id, &now())
}

/// Checks that round `next` may be paired now.
fn ready_for(conn: &Connection, event: &Event) -> ApiResult<u32> {
    let next = match rounds::last(conn, event.id)? {
        None => 1,
        Some(last) => {
            if last.status == RoundStatus::Draft {
                return Err(ApiError::conflict(format!(
                    "round {} is still a draft: publish or delete it first",
                    last.number
                )));
            }
            let missing: Vec<String> = games::of_round(conn, last.id)?
                .into_iter()
                .filter(|g| g.result.is_none())
                .map(|g| g.board.to_string())
                .collect();
            if !missing.is_empty() {
                return Err(ApiError::conflict(format!(
                    "round {} has no result yet on board(s) {}; enter them before pairing round {}",
                    last.number,
                    missing.join(", "),
                    last.number + 1
                )));
            }
            last.number + 1
        }
    };
    if let Some(planned) = SwissSection::parse(&event.settings)?.rounds {
        if next > planned {
            return Err(ApiError::conflict(format!(
                "the event is planned for {planned} rounds (settings.rounds); change the setting to pair round {next}"
            )));
        }
    }
    Ok(next)
}

/// Pair the next round of a Swiss event as a draft. The whole section is paired at once by
/// minimising the penalty function of seed 001 (see docs/chess.md, Swiss sections); the round
/// comes back with its explanation. Drafts are seen only with the admin token until
/// published. Pairing numbers are given by rating on the first pairing when no lots were
/// drawn; late entries get the next numbers. Admin only.
///
/// A bridge Swiss event (`swiss_pairs`, `swiss_teams`) has its next round drawn instead by the
/// bridge Swiss rule (seed 002; settings `round1`, `draw`, `bye_vps`, see
/// `engine::bridge::swiss_event`), stored and published at once; its warnings come with it.
///
/// 409: Not a Swiss event, a draft is pending, results are missing, or all planned rounds are paired.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/rounds", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The draft round (chess Swiss), or the drawn round (bridge swiss_pairs and swiss_teams: stored and published at once)", body = crate::api::bridge::swiss_draws::PairedRound),
        AdminPairing,
    )
)]
#[post("/api/v1/events/{event_id}/rounds")]
pub async fn pair_round(
    req: HttpRequest,
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    if crate::api::bridge::swiss_draws::is_bridge_swiss_event(&store, event_id).await? {
        return crate::api::bridge::swiss_draws::pair_round(&store, &live, event_id, token).await;
    }
    let turn = store.pairing_turn().await?;
    let guard = RequestBudget::start(&req);
    let budget = guard.budget();
    // The engine runs outside the single writer, which would otherwise wait for it (seconds
    // for a large section) with every write of every event: a dry run reads the section as
    // the write will (numbers and seed given, then rolled back), the engine pairs it, and the
    // write reads it again and stores the pairing only if nothing changed meanwhile.
    let seed = crate::api::events::lots::fresh_seed()?;
    let prepare = move |tx: &Connection, token: Option<&str>| -> ApiResult<(u32, Section)> {
        auth::require(tx, event_id, token, Role::Admin)?;
        let event = swiss_event(tx, event_id)?;
        let number = ready_for(tx, &event)?;
        Ok((number, load_section_seeded(tx, &event, number, seed)?))
    };
    let write_token = token.clone();
    let (number, section) = store
        .dry_run(move |tx| prepare(tx, token.as_deref()))
        .await?;
    let (section, pairing) = web::block(move || {
        let system = section.state.settings.system.as_str();
        let pairing = crate::metrics::time_pairing(system, "swiss", || {
            crate::engine::chess::swiss::pair_round(&section.state, &budget.solver())
        });
        (section, pairing)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the pairing task failed: {e}")))?;
    drop(turn);
    let pairing = pairing.map_err(|e| guard.error(e, engine_error))?;
    let round = store
        .write(move |tx| {
            let (now_number, now_section) = prepare(tx, write_token.as_deref())?;
            if now_number != number
                || now_section.state != section.state
                || now_section.participant_of != section.participant_of
            {
                return Err(ApiError::conflict(
                    "the event changed while its round was being paired; pair it again",
                ));
            }
            let round_id = rounds::insert(tx, event_id, number, RoundStatus::Draft, &now())?;
            write_pairing(tx, event_id, round_id, &now_section, &pairing)?;
            rounds::get(tx, event_id, number)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/rounds/{}", round.number),
        ))
        .json(round))
}

/// Publish a draft round: everyone can see it and results can be entered. Publishing a
/// published round changes nothing. Admin only.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/rounds/{round}/publish", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The published round", body = Round),
        AdminAction,
    )
)]
#[post("/api/v1/events/{event_id}/rounds/{round}/publish")]
pub async fn publish_round(
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    let (round, news) = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let watch = RoundWatch::start(tx, event_id)?;
            let row = rounds::find(tx, event_id, number)?.ok_or_else(|| {
                ApiError::not_found(format!("event {event_id} has no round {number}"))
            })?;
            if row.status == RoundStatus::Draft {
                rounds::set_status(tx, row.id, RoundStatus::Published)?;
                events::touch(tx, event_id, &now())?;
            }
            Ok((rounds::get(tx, event_id, number)?, watch.news(tx)?))
        })
        .await?;
    news.announce(&live);
    Ok(HttpResponse::Ok().json(round))
}

/// Delete the last round of a Swiss event (draft or published) while it has no results, to
/// pair it again (a bridge Swiss event: its last drawn round). Admin only.
///
/// 409: Not the last round, it has results, or not a Swiss event.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}/rounds/{round}", tag = "rounds",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}/rounds/{round}")]
pub async fn delete_round(
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<(i64, u32)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, number) = path.into_inner();
    if crate::api::bridge::swiss_draws::is_bridge_swiss_event(&store, event_id).await? {
        return crate::api::bridge::swiss_draws::delete_round(
            &store, &live, event_id, number, token,
        )
        .await;
    }
    let news = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            swiss_event(tx, event_id)?;
            let watch = RoundWatch::start(tx, event_id)?;
            let row = rounds::find(tx, event_id, number)?.ok_or_else(|| {
                ApiError::not_found(format!("event {event_id} has no round {number}"))
            })?;
            let last = rounds::last(tx, event_id)?.map(|r| r.number);
            if last != Some(number) {
                return Err(ApiError::conflict(format!(
                    "only the last round ({}) can be deleted",
                    last.unwrap_or(0)
                )));
            }
            let with_results = games::of_round(tx, row.id)?
                .iter()
                .filter(|g| g.result.is_some())
                .count();
            if with_results > 0 {
                return Err(ApiError::conflict(format!(
                    "round {number} has {with_results} result(s); it can no longer be deleted"
                )));
            }
            rounds::delete(tx, row.id)?;
            events::touch(tx, event_id, &now())?;
            // a draft was never public: nobody is told about it
            watch.news(tx)
        })
        .await?;
    news.announce(&live);
    Ok(HttpResponse::NoContent().finish())
}
