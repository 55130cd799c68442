//! TRF files in and out: a new event from a FIDE TRF file (a Swiss, or a round robin when
//! the file or the query says so: its players, rounds played, byes and requests, dates,
//! place, federation, arbiters and time control), and an event written as one.

use std::collections::HashMap;

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::events::event::{created_response, issue_admin_token};
use crate::api::extract::QueryParams;
use crate::api::responses::{PublicRead, PublicSubmit};
use crate::domain::section::SwissSection;
use crate::domain::{
    is_round_robin, validate_settings, CreatedEvent, EventDetails, GameKind, LotsMethod,
    NewParticipant, RoundStatus, TeamSwissEventSettings, FORMAT_DOUBLE_ROUND_ROBIN,
    FORMAT_ROUND_ROBIN, FORMAT_SWISS, FORMAT_TEAM_SWISS,
};
use crate::engine::chess::scoring::GameResult;
use crate::engine::chess::swiss::trf::{decode_trf, parse_trf, MAX_TRF_START_NUMBER};
use crate::engine::chess::swiss::trf_header::{write_event_trf, TrfHeader};
use crate::engine::chess::swiss::{
    self, Colour, ColourRule, PairingSystem, RoundResult, SwissSettings, SwissState,
};
use crate::error::{ApiError, ApiResult, Problem};
use crate::store::events::EventFields;
use crate::store::swiss::{game_result, stored_bye};
use crate::store::{events, games, now, participants, rounds, swiss as swiss_store, Store};

use crate::api::chess::swiss::{example_trf, state_error};

use crate::api::exports::trf_team::{create_team_event, read_team_file, team_records, trf_error};

/// Import query: the event's name (else the file's `012` line), its format, and a Swiss
/// event's settings.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// The event's name (default: the file's `012` line, else "Imported Swiss").
    #[param(inline, value_type = Option<crate::limits::schema::Name>)]
    pub name: Option<String>,
    /// `swiss`, `round_robin` or `double_round_robin`. Default: a round robin when the
    /// file's `092` line says so (double when two players met twice), else `swiss`.
    #[param(inline, value_type = Option<crate::domain::closed_sets::TrfFormat>)]
    pub format: Option<String>,
    /// Swiss only: `swiss` or `adjacent`.
    pub system: Option<PairingSystem>,
    /// `3a` or `3b`.
    pub colour_rule: Option<ColourRule>,
    /// Equalisation limit (default 200).
    #[param(maximum = 4000)]
    pub high_limit: Option<u32>,
    /// Alternation limit (default 80).
    #[param(maximum = 4000)]
    pub low_limit: Option<u32>,
    /// No rating limits.
    pub fide_style: Option<bool>,
    /// Seed of the coin flips (default: chosen at the next pairing and stored).
    #[param(inline, value_type = Option<crate::limits::schema::Seed>)]
    pub seed: Option<u64>,
    /// Planned number of rounds (else the file's), 1 to 99.
    #[param(minimum = 1, maximum = 99)]
    pub rounds: Option<u32>,
}

/// Writes the state's history as published rounds of a new event: each game once, from
/// White's side, boards ordered by the higher score before the round, then the lower start
/// number.
fn import_rounds(
    conn: &Connection,
    event_id: i64,
    state: &SwissState,
    pid: &HashMap<u32, i64>,
    round_robin: bool,
) -> ApiResult<()> {
    let by_number: HashMap<u32, &swiss::SwissPlayer> =
        state.players.iter().map(|p| (p.start_number, p)).collect();
    let now = now();
    for r in 0..state.rounds_played() as usize {
        let round_id = rounds::insert(conn, event_id, r as u32 + 1, RoundStatus::Published, &now)?;
        let score_before = |p: &swiss::SwissPlayer| -> u32 {
            p.history
                .iter()
                .take(r)
                .map(|h| h.result.half_points())
                .sum()
        };
        let mut boards: Vec<(u32, u32, u32, u32, GameResult)> = Vec::new();
        for p in &state.players {
            let Some(rec) = p.history.get(r) else {
                continue;
            };
            let Some(opp) = rec.opponent.filter(|_| rec.result.has_opponent()) else {
                if round_robin && rec.result == RoundResult::ZeroBye {
                    // a round robin's player sitting the round out
                    games::insert_bye(conn, round_id, pid[&p.start_number], 0.0)?;
                    continue;
                }
                let (points, kind) = stored_bye(rec.result);
                games::insert_bye_of_kind(conn, round_id, pid[&p.start_number], points, kind)?;
                continue;
            };
            let white = rec
                .colour
                .map_or(p.start_number < opp, |c| c == Colour::White);
            if !white {
                continue;
            }
            let other = by_number[&opp];
            let black_result = other
                .history
                .get(r)
                .map_or(RoundResult::ForfeitLoss, |h| h.result);
            boards.push((
                score_before(p).max(score_before(other)),
                p.start_number.min(opp),
                p.start_number,
                opp,
                game_result(rec.result, black_result),
            ));
        }
        boards.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (board, (_, _, white, black, result)) in boards.iter().enumerate() {
            let game = games::insert(conn, round_id, board as u32 + 1, pid[white], pid[black])?;
            games::set_result(conn, game, result.canonical(), "admin", &now)?;
        }
    }
    Ok(())
}

/// The format a file becomes: the query's, else a round robin when the `092` line says so
/// (double when a pair met twice), else a Swiss; a round robin's pairs checked.
fn import_format(
    query: &ImportQuery,
    header: &TrfHeader,
    state: &SwissState,
) -> Result<&'static str, ApiError> {
    let met_twice = {
        let mut meetings: HashMap<(u32, u32), u32> = HashMap::new();
        for p in &state.players {
            for o in p.history.iter().filter_map(|h| h.opponent) {
                if p.start_number < o {
                    *meetings.entry((p.start_number, o)).or_default() += 1;
                }
            }
        }
        meetings.into_iter().max_by_key(|(_, n)| *n)
    };
    let format = match query.format.as_deref() {
        Some(FORMAT_SWISS) => FORMAT_SWISS,
        Some(FORMAT_ROUND_ROBIN) => FORMAT_ROUND_ROBIN,
        Some(FORMAT_DOUBLE_ROUND_ROBIN) => FORMAT_DOUBLE_ROUND_ROBIN,
        Some(other) => {
            return Err(ApiError::invalid(
                "format",
                format!(
                "`{other}`: a TRF file becomes a swiss, round_robin or double_round_robin event"
            ),
            ))
        }
        None if header.round_robin() => {
            if met_twice.is_some_and(|(_, n)| n >= 2) {
                FORMAT_DOUBLE_ROUND_ROBIN
            } else {
                FORMAT_ROUND_ROBIN
            }
        }
        None => FORMAT_SWISS,
    };
    if format == FORMAT_SWISS {
        return Ok(format);
    }
    let swiss_only = [
        ("system", query.system.is_some()),
        ("colour_rule", query.colour_rule.is_some()),
        ("high_limit", query.high_limit.is_some()),
        ("low_limit", query.low_limit.is_some()),
        ("fide_style", query.fide_style.is_some()),
        ("seed", query.seed.is_some()),
        ("rounds", query.rounds.is_some()),
    ];
    if let Some((field, _)) = swiss_only.iter().find(|(_, given)| *given) {
        return Err(ApiError::invalid(
            *field,
            format!("a Swiss setting: the file becomes a {format} event"),
        ));
    }
    let max = crate::limits::MAX_ROUND_ROBIN_PLAYERS as usize;
    if state.players.len() > max {
        return Err(ApiError::invalid(
            "line 0",
            format!(
                "a round robin holds at most {max} players; this file has {}",
                state.players.len()
            ),
        ));
    }
    let allowed = if format == FORMAT_DOUBLE_ROUND_ROBIN {
        2
    } else {
        1
    };
    if let Some(((a, b), n)) = met_twice.filter(|(_, n)| *n > allowed) {
        return Err(ApiError::invalid(
            "line 0",
            format!("players {a} and {b} met {n} times: not a {format} (format=swiss reads it as a Swiss)"),
        ));
    }
    Ok(format)
}

/// Create an event from a FIDE TRF file (`text/plain`, or the same file as one JSON string
/// with `Content-Type: application/json`): a Swiss, or a round robin when the
/// file's `092` line says so or `format` asks (its games as the schedule: round-robin rules
/// for direct encounter and forfeits). Players with their start numbers as pairing numbers,
/// ratings, titles, sex, birth years, team codes, federations and FIDE ids (as
/// `external_id`: all digits, not all zeros, one player's only); every round played so far as
/// published rounds with results and byes; a Swiss's prohibited pairs and the byes requested
/// for the next round; the event's dates (`042`, `052`: they choose the text of the tie-break
/// regulations), place (`022`), federation (`032`), arbiters (`102`, `112`) and time control
/// (`122`). A team Swiss file (TRF-2026 `300`, `320`, `330`, `352` or `362` records, or a
/// `310` team with match points) becomes a `team_swiss` event: its teams, line-ups, matches,
/// byes and board results (the query's Swiss settings do not apply). The answer carries the
/// new event's admin token, shown once.
///
/// 422: A bad TRF line (`line N`), an inconsistent history, a round robin whose players
/// met more often than it allows, or a team Swiss file with what such an event does not hold
/// (forfeited matches, other match points, more boards, teams, rounds or reserves).
#[utoipa::path(
    post, path = "/api/v1/events/trf", tag = "events",
    params(ImportQuery),
    request_body(description = "A FIDE TRF file: as text, or as one JSON string", content(
        (String = "text/plain", example = example_trf),
        (String = "application/json", example = json!(example_trf())),
    )),
    responses(
        (status = 201, description = "Created; keep the admin_token", body = CreatedEvent),
        PublicSubmit,
    )
)]
#[post("/api/v1/events/trf")]
pub async fn import_trf(
    store: web::Data<Store>,
    crate::api::extract::TextBody(body): crate::api::extract::TextBody,
    QueryParams(query): QueryParams<ImportQuery>,
) -> ApiResult<HttpResponse> {
    let text = decode_trf(&body);
    if crate::engine::chess::team_swiss::trf::is_team_swiss(&text) {
        let file = read_team_file(&text)?;
        let name = query
            .name
            .clone()
            .or_else(|| file.header.name.clone())
            .unwrap_or_else(|| "Imported team Swiss".into());
        let created = store
            .write(move |tx| create_team_event(tx, &name, &file))
            .await?;
        return Ok(created_response(created));
    }
    let header = TrfHeader::read(&text).map_err(trf_error)?;
    let state = parse_trf(&text).map_err(trf_error)?;
    state.validate_history().map_err(state_error)?;
    if state.players.is_empty() {
        return Err(ApiError::invalid(
            "line 0",
            "the file has no 001 player lines",
        ));
    }
    let format = import_format(&query, &header, &state)?;
    let name = query
        .name
        .clone()
        .or_else(|| header.name.clone())
        .unwrap_or_else(|| {
            if format == FORMAT_SWISS {
                "Imported Swiss".into()
            } else {
                "Imported round robin".into()
            }
        });
    let details = EventDetails {
        place: header.place.clone(),
        federation: header.federation.clone(),
        chief_arbiter: header.chief_arbiter.clone(),
        deputy_arbiters: header.deputy_arbiters.clone(),
        time_control: header.time_control.clone(),
    };
    let mut errors = Vec::new();
    crate::domain::validate_name("name", &name, &mut errors);
    details.validate(&mut errors);
    crate::error::check(errors)?;
    crate::api::events::event::validate_dates(header.start_date, header.end_date)?;
    let settings = if format == FORMAT_SWISS {
        let rounds_planned = query
            .rounds
            .or(Some(state.settings.total_rounds).filter(|&r| r > 0));
        let section = SwissSection {
            system: query.system,
            colour_rule: query.colour_rule,
            high_limit: query.high_limit,
            low_limit: query.low_limit,
            fide_style: query.fide_style,
            rounds: rounds_planned,
            seed: query.seed,
            first_colour: state.settings.first_colour,
            ..Default::default()
        };
        let mut settings = serde_json::to_value(&section)
            .map_err(|e| ApiError::Internal(format!("settings: {e}")))?;
        if let Some(map) = settings.as_object_mut() {
            map.retain(|_, v| !v.is_null());
        }
        settings
    } else {
        serde_json::json!({})
    };
    validate_settings(format, &settings)?;
    let created = store
        .write(move |tx| {
            let now = now();
            let event_id = events::insert(
                tx,
                &EventFields {
                    name: name.trim(),
                    game: GameKind::Chess,
                    format,
                    start_date: header.start_date,
                    end_date: header.end_date,
                    settings: &settings,
                    details: Some(&details),
                },
                &now,
            )?;
            let mut pid = HashMap::new();
            let mut external_ids = swiss_store::external_ids_of(&state.players);
            for p in &state.players {
                let id = participants::insert(
                    tx,
                    event_id,
                    &NewParticipant::from_trf_player(
                        p,
                        external_ids.remove(&p.start_number),
                        p.team.clone(),
                    ),
                    &now,
                )?;
                participants::set_pairing_number(tx, id, p.start_number)?;
                if p.withdrawn {
                    participants::set_status(tx, id, crate::domain::ParticipantStatus::Withdrawn)?;
                }
                pid.insert(p.start_number, id);
            }
            events::set_lots(tx, event_id, LotsMethod::Rating, None, &now)?;
            import_rounds(tx, event_id, &state, &pid, is_round_robin(format))?;
            if format != FORMAT_SWISS {
                return issue_admin_token(tx, event_id, &now);
            }
            let next = state.rounds_played() + 1;
            for b in &state.requested_byes {
                swiss_store::insert_requested_bye(
                    tx,
                    event_id,
                    pid[&b.player],
                    next,
                    b.points,
                    &now,
                )?;
            }
            // prohibited pairs: as participant ids in the settings
            if !state.settings.prohibited_pairs.is_empty() {
                let mut s = events::get(tx, event_id)?.settings;
                s["prohibited_pairs"] = serde_json::json!(state
                    .settings
                    .prohibited_pairs
                    .iter()
                    .map(|[a, b]| [pid[a], pid[b]])
                    .collect::<Vec<_>>());
                events::set_settings(tx, event_id, &s, &now)?;
            }
            issue_admin_token(tx, event_id, &now)
        })
        .await?;
    Ok(created_response(created))
}

/// The event as a FIDE TRF-16 file: its tournament lines (name, place, federation, dates,
/// type, arbiters, time control), players, every round whose results are all in, and the
/// byes recorded for the next round. Chess events with pairing numbers. The rank column holds
/// each player's place in the standings of those rounds by the event's tie-breaks and text of
/// C.07. A player's federation column holds the participant's `federation` when it is a code
/// of at most 3 characters, and the FIDE id column his `external_id` when it is all digits
/// (at most 11): other ids are not FIDE ids and are left out. A team Swiss event adds its
/// TRF-2026 team records after the players: `082`, `352`, `310` (teams with match points,
/// game points, rank and players), `300` (line-ups out of the team's order) and `320`
/// (pairing-allocated byes).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/trf", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, description = "The TRF file", body = String, content_type = "text/plain"),
        (status = 409, description = "A bridge event, or no pairing numbers yet", body = Problem, content_type = "application/problem+json"),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/trf")]
pub async fn export_trf(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let text = store
        .read(move |conn| {
            let event = events::get(conn, event_id)?;
            if event.game != GameKind::Chess {
                return Err(ApiError::conflict(
                    "only chess events can be written as TRF",
                ));
            }
            let entrants = participants::all(conn, event_id)?;
            if entrants.iter().any(|p| p.pairing_number.is_none()) {
                return Err(ApiError::conflict(
                    "some participants have no pairing number yet: draw lots or pair round 1 first",
                ));
            }
            if entrants
                .iter()
                .any(|p| p.pairing_number > Some(MAX_TRF_START_NUMBER))
            {
                return Err(ApiError::conflict(format!(
                    "a TRF file holds start numbers up to {MAX_TRF_START_NUMBER}; this event has larger pairing numbers"
                )));
            }
            // the rounds whose results are all in, from the first
            let all_games = games::all(conn, event_id)?;
            let mut complete = 0;
            while let Some(r) = rounds::find(conn, event_id, complete + 1)? {
                let pending = all_games
                    .iter()
                    .any(|g| g.round == complete + 1 && g.result.is_none());
                if r.status == RoundStatus::Draft || pending {
                    break;
                }
                complete += 1;
            }
            let settings = if event.format == FORMAT_SWISS {
                let section = SwissSection::parse(&event.settings)?;
                let numbers = entrants
                    .iter()
                    .filter_map(|p| Some((p.id, p.pairing_number?)))
                    .collect();
                section.engine_settings(section.seed.unwrap_or(0), &numbers)
            } else if event.format == FORMAT_TEAM_SWISS {
                SwissSettings {
                    total_rounds: TeamSwissEventSettings::parse(&event.settings)?.rounds(),
                    ..Default::default()
                }
            } else {
                SwissSettings::default()
            };
            let section = swiss_store::load(conn, event_id, complete + 1, settings)?;
            // the standings of the rounds written, by pairing number
            let mut sheet = crate::api::events::standings::scoresheet(conn, event_id)?;
            sheet.games.retain(|g| g.round <= complete);
            sheet.byes.retain(|b| b.round <= complete);
            let standing = crate::engine::chess::scoring::standings_of(
                sheet.players.len(),
                &sheet.section(),
                &sheet.tiebreaks,
            );
            let mut rank_of: HashMap<u32, u32> = HashMap::new();
            for (place, s) in standing.iter().enumerate() {
                if let Some(n) = sheet.players[s.player].pairing_number {
                    rank_of.insert(n, place as u32 + 1);
                }
            }
            let ranks: Vec<u32> = section
                .state
                .players
                .iter()
                .map(|p| rank_of.get(&p.start_number).copied().unwrap_or(0))
                .collect();
            let details = event.details.clone().unwrap_or_default();
            let header = TrfHeader {
                name: Some(event.name.clone()),
                place: details.place,
                federation: details.federation,
                start_date: event.start_date,
                end_date: event.end_date,
                kind: Some(trf_kind(&event.format).to_string()),
                chief_arbiter: details.chief_arbiter,
                deputy_arbiters: details.deputy_arbiters,
                time_control: details.time_control,
            };
            let mut text = write_event_trf(&section.state, &header, &ranks);
            if event.format == FORMAT_TEAM_SWISS {
                text.push_str(&team_records(conn, event_id, complete)?);
            }
            Ok(text)
        })
        .await?;
    Ok(crate::api::extract::cached(
        &req,
        "text/plain; charset=utf-8",
        text.into_bytes(),
    ))
}

/// The `092` line of a format.
fn trf_kind(format: &str) -> &'static str {
    match format {
        FORMAT_SWISS => "Individual: Swiss-System",
        FORMAT_ROUND_ROBIN => "Individual: Round-Robin",
        FORMAT_DOUBLE_ROUND_ROBIN => "Individual: Double Round-Robin",
        crate::domain::FORMAT_SCHEVENINGEN => "Team: Scheveningen",
        FORMAT_TEAM_SWISS => "Team: Swiss-System",
        _ => "Team: Hilton",
    }
}
