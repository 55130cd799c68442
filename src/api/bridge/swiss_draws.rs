//! The rounds of a bridge Swiss event (`swiss_pairs`, `swiss_teams`): `POST .../rounds` draws
//! the next round (the handler of chess rounds hands bridge Swiss events here) and
//! `GET .../draws/{round}` shows a drawn round. The rule: [`crate::engine::bridge::swiss`];
//! what a round is drawn from: [`crate::engine::bridge::swiss_event`].

use std::collections::HashMap;

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::bridge::matches::{
    contestants, contestants_kind, load, match_event, swiss_settings, unnumbered, MatchEvent,
};
use crate::api::extract::json_cached;
use crate::api::responses::FormatRead;
use crate::api::{auth, events::stream};
use crate::domain::{is_bridge_swiss, LotsMethod};
use crate::engine::bridge::swiss::{draw, planning_warnings, Round1};
use crate::engine::bridge::swiss_event::{
    next_round_request, Contestants, DrawnBye, DrawnMatch, NotReady, SwissEventSettings,
};
use crate::engine::bridge::swiss_tables::team_tables;
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::bridge_matches;
use crate::store::tokens::Role;
use crate::store::{events, now, Store};

/// A match of a drawn round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SwissMatch {
    /// The match's table (1 = the highest-placed match).
    pub table: u32,
    /// The tables it is played at: Swiss teams 2t−1 (home NS) and 2t (away NS); Swiss pairs t.
    pub tables: Vec<u32>,
    /// Team or pair numbers; `home` is the higher-placed.
    pub home: u32,
    pub home_name: String,
    pub away: u32,
    pub away_name: String,
    /// The boards of the match (of a triangle half-match: its half set).
    pub boards: Vec<u32>,
    /// A half-match of the round's triangle (scored on the VP scale for its boards, counted
    /// half).
    pub triangle: bool,
}

/// The contestant with the bye of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SwissBye {
    pub number: u32,
    pub name: String,
    pub vps: f64,
}

/// The answer to `POST /api/v1/events/{id}/rounds`: a chess Swiss event's draft round, or a
/// bridge Swiss event's drawn round.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum PairedRound {
    Chess(crate::domain::Round),
    Bridge(SwissRound),
}

/// A drawn round of a bridge Swiss event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SwissRound {
    pub round: u32,
    pub matches: Vec<SwissMatch>,
    pub bye: Option<SwissBye>,
    /// Swiss teams with `odd: "triangle"`: the three teams of the round's triangle,
    /// highest-placed first (they play two half-matches each).
    pub triangle: Option<Vec<u32>>,
    /// The draw's warnings (over-swissed, below the seed's minimum of rounds, a repeat that
    /// could not be avoided, a second bye); `GET .../draws/{n}` repeats the first two.
    pub warnings: Vec<String>,
}

fn round_view(
    me: &MatchEvent,
    settings: &SwissEventSettings,
    round: u32,
    warnings: Vec<String>,
) -> SwissRound {
    let layout = settings.layout();
    let drawn: Vec<&DrawnMatch> = me
        .history
        .matches
        .iter()
        .filter(|m| m.round == round)
        .collect();
    // Where each match is played: its tables and boards, by (home, away).
    let places: HashMap<(u32, u32), (Vec<u32>, Vec<u32>)> = match contestants_kind(&me.event) {
        Contestants::Teams => team_tables(layout, &me.history.matches)
            .into_iter()
            .filter(|(m, _)| m.round == round)
            .map(|(m, [a, b])| {
                let mut tables = vec![a.table, b.table];
                tables.sort_unstable();
                ((m.home, m.away), (tables, m.boards))
            })
            .collect(),
        Contestants::Pairs => drawn
            .iter()
            .map(|m| {
                (
                    (m.home, m.away),
                    (vec![m.table], layout.round_boards(round)),
                )
            })
            .collect(),
    };
    let mut triangle: Vec<&&DrawnMatch> = drawn.iter().filter(|m| m.triangle).collect();
    triangle.sort_by_key(|m| m.table);
    SwissRound {
        round,
        matches: drawn
            .iter()
            .map(|m| {
                let (tables, boards) = places.get(&(m.home, m.away)).cloned().unwrap_or_default();
                SwissMatch {
                    table: m.table,
                    tables,
                    home: m.home,
                    home_name: me.name(m.home),
                    away: m.away,
                    away_name: me.name(m.away),
                    boards,
                    triangle: m.triangle,
                }
            })
            .collect(),
        bye: me
            .history
            .byes
            .iter()
            .find(|b| b.round == round)
            .map(|b| SwissBye {
                number: b.contestant,
                name: me.name(b.contestant),
                vps: b.vps,
            }),
        triangle: match triangle[..] {
            [first, second, ..] => Some(vec![first.home, first.away, second.away]),
            _ => None,
        },
        warnings,
    }
}

/// Draws and stores the next round of a bridge Swiss event (inside the write).
fn draw_next(conn: &Connection, event_id: i64) -> ApiResult<SwissRound> {
    let me = load(conn, event_id)?;
    let settings = swiss_settings(&me.event)?;
    let next = me.history.rounds() + 1;
    if let Some(planned) = settings.rounds.filter(|&p| next > p) {
        return Err(ApiError::conflict(format!(
            "the event is planned for {planned} rounds (settings.rounds); change the setting to draw round {next}"
        )));
    }
    let Some(lots) = &me.event.lots else {
        return Err(ApiError::conflict(
            "draw lots first: the numbers from the lots are the seeding of the draw",
        ));
    };
    let late = unnumbered(conn, &me.event)?;
    if !late.is_empty() {
        return Err(ApiError::conflict(format!(
            "{} entered after the lots and {} no number: draw lots again",
            late.join(", "),
            if late.len() == 1 { "has" } else { "have" }
        )));
    }
    let active: Vec<u32> = contestants(conn, &me.event, true)?
        .into_iter()
        .map(|c| c.0)
        .collect();
    if active.len() < 2 {
        return Err(ApiError::conflict(format!(
            "a Swiss event needs at least 2 contestants with numbers from the lots; it has {}",
            active.len()
        )));
    }
    let lots_seed = lots.seed.filter(|_| lots.method == LotsMethod::Random);
    if settings.round1 == Round1::Random && settings.random_seed.or(lots_seed).is_none() {
        return Err(ApiError::conflict(
            "settings.round1 is random: set settings.random_seed, or draw lots at random (the draw then uses that seed)",
        ));
    }
    let request = next_round_request(&settings, &active, &me.history, &me.lines, next, lots_seed)
        .map_err(|NotReady(m)| ApiError::conflict(m))?;
    let drawn = draw(&request).map_err(|e| {
        ApiError::conflict(format!(
            "the round cannot be drawn: {}: {}",
            e.field, e.message
        ))
    })?;
    let mut matches: Vec<DrawnMatch> = drawn
        .matches
        .iter()
        .map(|m| DrawnMatch {
            round: next,
            table: m.table,
            home: m.home as u32,
            away: m.away as u32,
            triangle: false,
        })
        .collect();
    // A triangle X, Y, Z: the half-matches X v Y, X v Z, Y v Z after the matches' tables.
    if let Some([x, y, z]) = drawn.triangle.as_deref() {
        let after = matches.len() as u32;
        for (k, (home, away)) in [(x, y), (x, z), (y, z)].into_iter().enumerate() {
            matches.push(DrawnMatch {
                round: next,
                table: after + k as u32 + 1,
                home: *home as u32,
                away: *away as u32,
                triangle: true,
            });
        }
    }
    let bye = drawn.bye.map(|b| DrawnBye {
        round: next,
        contestant: b as u32,
        vps: settings.bye_vps(),
    });
    let now = now();
    bridge_matches::put_round(conn, event_id, &matches, bye, &now)?;
    events::touch(conn, event_id, &now)?;
    let me = load(conn, event_id)?;
    Ok(round_view(&me, &settings, next, drawn.warnings))
}

/// `POST /api/v1/events/{id}/rounds` for a bridge Swiss event: the next round drawn and
/// stored (published at once: the live stream says `rounds`), 201 with the round.
/// Admin only.
pub(crate) async fn pair_round(
    store: &Store,
    live: &Live,
    event_id: i64,
    token: Option<String>,
) -> ApiResult<HttpResponse> {
    let (round, news) = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let watch = stream::RoundWatch::start(tx, event_id)?;
            let round = draw_next(tx, event_id)?;
            Ok((round, watch.news(tx)?))
        })
        .await?;
    news.announce(live);
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/events/{event_id}/draws/{}", round.round),
        ))
        .json(round))
}

/// `DELETE /api/v1/events/{id}/rounds/{round}` for a bridge Swiss event: the last drawn round
/// removed while it has no results, to draw it again (the live stream says `rounds`).
/// Admin only.
pub(crate) async fn delete_round(
    store: &Store,
    live: &Live,
    event_id: i64,
    round: u32,
    token: Option<String>,
) -> ApiResult<HttpResponse> {
    let news = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let watch = stream::RoundWatch::start(tx, event_id)?;
            let last = bridge_matches::history(tx, event_id)?.rounds();
            if round == 0 || round > last {
                return Err(ApiError::not_found(format!(
                    "event {event_id} has no round {round}"
                )));
            }
            if round != last {
                return Err(ApiError::conflict(format!(
                    "only the last round ({last}) can be deleted"
                )));
            }
            if bridge_matches::round_has_results(tx, event_id, round)? {
                return Err(ApiError::conflict(format!(
                    "round {round} has results; it can no longer be deleted"
                )));
            }
            bridge_matches::delete_round(tx, event_id, round)?;
            events::touch(tx, event_id, &now())?;
            watch.news(tx)
        })
        .await?;
    news.announce(live);
    Ok(HttpResponse::NoContent().finish())
}

/// Whether `POST .../rounds` of the event is a bridge Swiss draw.
pub(crate) async fn is_bridge_swiss_event(store: &Store, event_id: i64) -> ApiResult<bool> {
    let format = store
        .read(move |c| Ok(events::get(c, event_id)?.format))
        .await?;
    Ok(is_bridge_swiss(&format))
}

/// A drawn round of a bridge Swiss event (`swiss_pairs`, `swiss_teams`): each match's table
/// (teams play at tables 2t−1 and 2t), the two sides (home the higher-placed), the boards,
/// and the bye with its VPs. `POST /api/v1/events/{id}/rounds` draws the next round.
///
/// 409: Not a bridge Swiss event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/draws/{round}", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), ("round" = u32, Path, description = "Round number")),
    responses(
        (status = 200, body = SwissRound),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/draws/{round}")]
pub async fn get_draw(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> ApiResult<HttpResponse> {
    let (event_id, round) = path.into_inner();
    let view = store
        .read(move |c| {
            let event = match_event(c, event_id)?;
            if !is_bridge_swiss(&event.format) {
                return Err(ApiError::conflict(format!(
                    "event {event_id} is a {} event; draws belong to swiss_pairs and swiss_teams events",
                    event.format
                )));
            }
            let me = load(c, event_id)?;
            if round == 0 || round > me.history.rounds() {
                return Err(ApiError::not_found(format!(
                    "round {round} is not drawn (rounds drawn: {})",
                    me.history.rounds()
                )));
            }
            let settings = swiss_settings(&me.event)?;
            // The planning warnings, for the contestants drawn in that round.
            let drawn = me.history.matches.iter().filter(|m| m.round == round);
            let mut seated = std::collections::HashSet::new();
            for m in drawn {
                seated.insert(m.home);
                seated.insert(m.away);
            }
            seated.extend(me.history.byes.iter().filter(|b| b.round == round).map(|b| b.contestant));
            let warnings = settings
                .rounds
                .map(|r| planning_warnings(r, seated.len()))
                .unwrap_or_default();
            Ok(round_view(&me, &settings, round, warnings))
        })
        .await?;
    json_cached(&req, &view)
}
