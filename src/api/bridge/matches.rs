//! The matches of a bridge teams or Swiss event (formats `teams`, `swiss_teams`,
//! `swiss_pairs`): entering a match as IMPs or VPs (`POST .../matches`), the matches with
//! their results, and the VP standings with the cross-table. Scoring rules:
//! [`crate::engine::bridge::team_event`] and [`crate::engine::bridge::swiss_event`].

use std::collections::HashMap;

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use utoipa::ToSchema;

use crate::api::auth::{self, ResultChanges};
use crate::api::bridge::movement::ensure_pairs_event;
use crate::api::events::stream;
use crate::api::extract::{
    csv_cached, csv_field, json_cached, wants_csv, Bearer, FormatQuery, JsonBody, QueryParams,
};
use crate::api::responses::{FormatRead, ScorerWrite};
use crate::domain::closed_sets::EventFormat;
use crate::domain::{
    is_bridge_swiss, Event, ParticipantStatus, FORMAT_BRIDGE_TEAMS, FORMAT_PAIRS,
    FORMAT_SWISS_TEAMS,
};
use crate::engine::bridge::movement::model::Movement;
use crate::engine::bridge::swiss_event::{
    as_pair_movement, swiss_match_lines, Contestants, History, SwissEventSettings,
};
use crate::engine::bridge::team_event::{
    as_pair_movement as team_pair_movement, cross_table, match_lines, CrossRow, EnteredMatch,
    MatchLine, ScheduledMatch, TableScore,
};
use crate::engine::bridge::teams::matches::{
    match_from_imps, match_from_vps, standings, ByeAward, MatchScore,
};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::limits::schema::MovementNumber;
use crate::live::Live;
use crate::store::bridge_matches::{self, StoredMatch};
use crate::store::tokens::Role;
use crate::store::{board_results, events, movements, now, participants, teams, Store};

/// Most matches in one request.
pub(crate) const MAX_MATCHES: usize = 1000;

/// The event, if it is a bridge match event (teams or Swiss); else a 409 saying so.
pub(crate) fn match_event(conn: &Connection, event_id: i64) -> ApiResult<Event> {
    let event = events::get(conn, event_id)?;
    if event.format == FORMAT_BRIDGE_TEAMS || is_bridge_swiss(&event.format) {
        Ok(event)
    } else {
        Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; matches belong to bridge teams, swiss_pairs and \
             swiss_teams events",
            event.format
        )))
    }
}

pub(crate) fn contestants_kind(event: &Event) -> Contestants {
    if event.format == FORMAT_SWISS_TEAMS || event.format == FORMAT_BRIDGE_TEAMS {
        Contestants::Teams
    } else {
        Contestants::Pairs
    }
}

/// A Swiss event's settings (a 409 if the stored ones no longer parse).
pub(crate) fn swiss_settings(event: &Event) -> ApiResult<SwissEventSettings> {
    SwissEventSettings::parse(&event.settings, contestants_kind(event))
        .map_err(|e| ApiError::conflict(format!("the event's {}: {}", e.field, e.message)))
}

/// The movement board results are checked against: a pairs event's movement, a teams
/// event's team movement, or the tables of a Swiss event's drawn rounds.
pub(crate) fn scoring_movement(conn: &Connection, event: &Event) -> ApiResult<Movement> {
    if event.format == FORMAT_PAIRS {
        ensure_pairs_event(event)?;
        return movements::get(conn, event.id);
    }
    let event = match_event(conn, event.id).map_err(|_| {
        ApiError::conflict(format!(
            "event {} is a {} {} event; board results belong to bridge events",
            event.id,
            event.game.as_str(),
            event.format
        ))
    })?;
    if event.format == FORMAT_BRIDGE_TEAMS {
        let m = bridge_matches::schedule(conn, event.id)?.ok_or_else(|| {
            ApiError::conflict("the team movement is made when lots are drawn; draw lots first")
        })?;
        return Ok(team_pair_movement(&m));
    }
    let history = bridge_matches::history(conn, event.id)?;
    if history.matches.is_empty() {
        return Err(ApiError::conflict(
            "no round has been drawn yet: POST /api/v1/events/{id}/rounds draws the next",
        ));
    }
    let layout = swiss_settings(&event)?.layout();
    Ok(as_pair_movement(contestants_kind(&event), &history, layout))
}

/// A bridge match event read in one transaction: its contestants, matches and results.
pub(crate) struct MatchEvent {
    pub event: Event,
    /// Contestant numbers (team numbers or pairs' pairing numbers) with their names.
    pub contestants: Vec<(u32, String)>,
    pub history: History,
    pub lines: Vec<MatchLine>,
}

impl MatchEvent {
    pub fn byes(&self) -> Vec<ByeAward> {
        self.history.bye_awards(u32::MAX)
    }

    pub fn name(&self, number: u32) -> String {
        self.contestants
            .iter()
            .find(|c| c.0 == number)
            .map(|c| c.1.clone())
            .unwrap_or_default()
    }
}

/// The names of contestants still without a number from the lots (entered after the lots).
pub(crate) fn unnumbered(conn: &Connection, event: &Event) -> ApiResult<Vec<String>> {
    Ok(if contestants_kind(event) == Contestants::Teams {
        teams::all(conn, event.id)?
            .into_iter()
            .filter(|t| t.number.is_none())
            .map(|t| t.name)
            .collect()
    } else {
        participants::all(conn, event.id)?
            .into_iter()
            .filter(|p| p.status == ParticipantStatus::Active && p.pairing_number.is_none())
            .map(|p| p.name)
            .collect()
    })
}

/// The contestants by number: teams (team numbers) or pairs (pairing numbers).
pub(crate) fn contestants(
    conn: &Connection,
    event: &Event,
    active_only: bool,
) -> ApiResult<Vec<(u32, String)>> {
    if contestants_kind(event) == Contestants::Teams {
        return Ok(teams::all(conn, event.id)?
            .into_iter()
            .filter_map(|t| Some((t.number?, t.name)))
            .collect());
    }
    let mut list: Vec<(u32, String)> = participants::all(conn, event.id)?
        .into_iter()
        .filter(|p| !active_only || p.status == ParticipantStatus::Active)
        .filter_map(|p| Some((p.pairing_number?, p.name)))
        .collect();
    list.sort_by_key(|c| c.0);
    Ok(list)
}

pub(crate) fn load(conn: &Connection, event_id: i64) -> ApiResult<MatchEvent> {
    let event = match_event(conn, event_id)?;
    let tables: Vec<TableScore> = board_results::all(conn, event_id)?
        .into_iter()
        .map(|r| TableScore {
            round: r.round,
            table: r.table,
            board: r.board,
            ns_score: r.outcome.ns_score.filter(|_| r.outcome.adjusted.is_none()),
        })
        .collect();
    let entered: Vec<EnteredMatch> = bridge_matches::entered(conn, event_id)?
        .into_iter()
        .map(|m| EnteredMatch {
            round: m.round,
            score: m.score,
        })
        .collect();
    let (history, lines) = if event.format == FORMAT_BRIDGE_TEAMS {
        let schedule = bridge_matches::schedule(conn, event_id)?
            .map(|m| ScheduledMatch::of_movement(&m))
            .unwrap_or_default();
        let lines = match_lines(&schedule, &tables, &entered);
        (History::default(), lines)
    } else {
        let history = bridge_matches::history(conn, event_id)?;
        let settings = swiss_settings(&event)?;
        let lines = swiss_match_lines(
            contestants_kind(&event),
            &history,
            &settings,
            &tables,
            &entered,
        );
        (history, lines)
    };
    Ok(MatchEvent {
        contestants: contestants(conn, &event, false)?,
        event,
        history,
        lines,
    })
}

/// One match result as a scoring program sends it: IMPs won by each side (VPs then follow on
/// the WBF scale for the match's boards), or VPs (each 0–20, adding up to 20). Give both IMPs
/// or both VPs, not both pairs: a rule between fields, refused with 422.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"round": 3, "home": 5, "away": 2, "imps_home": 34, "imps_away": 12}))]
pub struct MatchEntry {
    /// The match's round as `GET .../matches` lists it (a team movement whose two halves are
    /// played in different rounds: the later one).
    #[schema(value_type = MovementNumber)]
    pub round: u32,
    /// Team (or pair) numbers of the two sides, either way round (two different sides
    /// that meet in that round).
    #[schema(value_type = MovementNumber)]
    pub home: u32,
    #[schema(value_type = MovementNumber)]
    pub away: u32,
    #[schema(maximum = 9999)]
    pub imps_home: Option<u32>,
    #[schema(maximum = 9999)]
    pub imps_away: Option<u32>,
    #[schema(minimum = 0, maximum = 20)]
    pub vp_home: Option<f64>,
    #[schema(minimum = 0, maximum = 20)]
    pub vp_away: Option<f64>,
}

/// Match results to store; all are stored or none.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"matches": [
    {"round": 1, "home": 1, "away": 4, "imps_home": 34, "imps_away": 12},
    {"round": 1, "home": 2, "away": 3, "vp_home": 8.5, "vp_away": 11.5}
]}))]
pub struct SubmitMatches {
    #[schema(min_items = 1, max_items = 1000)]
    pub matches: Vec<MatchEntry>,
}

/// What a submission stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SubmittedMatches {
    pub received: usize,
    /// The matches as stored (home and away as scheduled).
    pub matches: Vec<MatchScore>,
}

/// The IMPs-or-VPs shape of an entry, before the schedule is known; errors name the field.
fn read_entry(i: usize, e: &MatchEntry, errors: &mut Vec<FieldError>) {
    let at = |f: &str| format!("matches[{i}].{f}");
    let imps = e.imps_home.is_some() || e.imps_away.is_some();
    let vps = e.vp_home.is_some() || e.vp_away.is_some();
    let both_or_neither = |a: bool, b: bool| a == b;
    if imps == vps {
        errors.push(FieldError {
            field: at("imps_home"),
            message:
                "give the match as IMPs (imps_home and imps_away) or as VPs (vp_home and vp_away)"
                    .into(),
        });
    } else if imps && !both_or_neither(e.imps_home.is_some(), e.imps_away.is_some()) {
        errors.push(FieldError {
            field: at(if e.imps_home.is_none() {
                "imps_home"
            } else {
                "imps_away"
            }),
            message: "IMPs are given for both sides".into(),
        });
    } else if vps && !both_or_neither(e.vp_home.is_some(), e.vp_away.is_some()) {
        errors.push(FieldError {
            field: at(if e.vp_home.is_none() {
                "vp_home"
            } else {
                "vp_away"
            }),
            message: "VPs are given for both sides".into(),
        });
    }
    for (f, v) in [("imps_home", e.imps_home), ("imps_away", e.imps_away)] {
        if v.is_some_and(|x| x > 9999) {
            errors.push(FieldError {
                field: at(f),
                message: "at most 9999 IMPs".into(),
            });
        }
    }
    if e.home == e.away {
        errors.push(FieldError {
            field: at("away"),
            message: format!("{} cannot play itself", e.home),
        });
    }
}

/// Enter matches as IMPs or VPs (admin or scorer token), for a scoring program that computes
/// matches itself. Each match must be one the event plays in that round (either side may be
/// named first; it is stored as scheduled). An entered result replaces the one from board
/// results. All are stored or none; changing a stored result needs the admin token, or
/// `If-Match` with the ETag read before (the rule of every format).
///
/// 409: Not a bridge teams or Swiss event, or a stored result changed by a scorer without
/// `If-Match` (`errors` names each `matches[i]`).
/// 422: A field at fault, named (`matches[2].vp_home`: over 20; `matches[0].away`: the teams
/// do not meet in that round).
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/matches", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = SubmitMatches,
    security(("bearer" = [])),
    responses(
        (status = 200, body = SubmittedMatches),
        ScorerWrite,
    )
)]
#[post("/api/v1/events/{event_id}/matches")]
pub async fn submit_matches(
    req: HttpRequest,
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<SubmitMatches>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    if body.matches.is_empty() || body.matches.len() > MAX_MATCHES {
        return Err(ApiError::invalid(
            "matches",
            format!("send 1 to {MAX_MATCHES} matches"),
        ));
    }
    let mut errors = Vec::new();
    for (i, e) in body.matches.iter().enumerate() {
        read_entry(i, e, &mut errors);
    }
    crate::error::check(errors)?;
    let received = body.matches.len();
    let changes = ResultChanges::of(&req);
    let answer = store
        .write(move |tx| {
            let credential = auth::require(tx, event_id, token.as_deref(), Role::Scorer)?;
            let me = load(tx, event_id)?;
            let stored = bridge_matches::entered(tx, event_id)?;
            let by = match credential.role {
                Role::Admin => "admin".to_string(),
                Role::Scorer => format!("scorer:{}", credential.id),
            };
            let mut errors = Vec::new();
            let mut refused = Vec::new();
            let mut out = Vec::new();
            for (i, e) in body.matches.iter().enumerate() {
                let at = |f: &str| format!("matches[{i}].{f}");
                let Some(line) = me.lines.iter().find(|l| {
                    l.round == e.round
                        && ((l.home, l.away) == (e.home, e.away)
                            || (l.home, l.away) == (e.away, e.home))
                }) else {
                    let meets: Vec<String> = me
                        .lines
                        .iter()
                        .filter(|l| l.round == e.round && (l.home == e.home || l.away == e.home))
                        .map(|l| (if l.home == e.home { l.away } else { l.home }).to_string())
                        .collect();
                    errors.push(if meets.is_empty() {
                        FieldError {
                            field: at("home"),
                            message: format!("{} plays no match in round {}", e.home, e.round),
                        }
                    } else {
                        FieldError {
                            field: at("away"),
                            message: format!(
                                "{} does not meet {} in round {}: it meets {}",
                                e.home,
                                e.away,
                                e.round,
                                meets.join(", ")
                            ),
                        }
                    });
                    continue;
                };
                // As scheduled: the entry's sides swapped when it names the away side first.
                let swap = line.home != e.home;
                let pick = |h: Option<u32>, a: Option<u32>| if swap { (a, h) } else { (h, a) };
                let pick_f = |h: Option<f64>, a: Option<f64>| if swap { (a, h) } else { (h, a) };
                let (ih, ia) = pick(e.imps_home, e.imps_away);
                let (vh, va) = pick_f(e.vp_home, e.vp_away);
                let scored = match (ih, ia, vh, va) {
                    (Some(h), Some(a), _, _) => {
                        match_from_imps(line.home, line.away, h, a, line.boards).map(|s| (s, true))
                    }
                    (_, _, Some(h), Some(a)) => {
                        match_from_vps(line.home, line.away, h, a).map(|s| (s, false))
                    }
                    _ => continue,
                };
                let (score, imps) = match scored {
                    Ok(x) => x,
                    Err(err) => {
                        // The engine names the scheduled side; name the one the entry used.
                        let field = match (swap, err.field.as_str()) {
                            (true, "vp_home") => "vp_away".to_string(),
                            (true, "vp_away") => "vp_home".to_string(),
                            (_, f) => f.to_string(),
                        };
                        errors.push(FieldError {
                            field: at(&field),
                            message: err.message,
                        });
                        continue;
                    }
                };
                let old = stored.iter().find(|s| {
                    s.round == line.round && (s.score.home, s.score.away) == (line.home, line.away)
                });
                let same = old.is_some_and(|o| {
                    (o.score.vp_home, o.score.vp_away) == (score.vp_home, score.vp_away)
                        && (!imps
                            || (o.score.imps_home, o.score.imps_away)
                                == (score.imps_home, score.imps_away))
                });
                if let (Some(o), false) = (old, same) {
                    if !changes.may_replace(&credential) {
                        let stored = format!(
                            "VPs {}-{} (round {}, {} v {})",
                            o.score.vp_home, o.score.vp_away, line.round, line.home, line.away
                        );
                        refused.push(ResultChanges::refusal(format!("matches[{i}]"), &stored));
                        continue;
                    }
                }
                out.push((
                    StoredMatch {
                        round: line.round,
                        boards: Some(line.boards),
                        score,
                        entered_by: by.clone(),
                    },
                    imps,
                    !same,
                ));
            }
            crate::error::check(errors)?;
            ResultChanges::check(refused)?;
            let now = now();
            let mut news = stream::ResultsNews::default();
            for (m, imps, changed) in &out {
                bridge_matches::put_entered(tx, event_id, m, *imps, &now)?;
                if *changed {
                    news.matched(m.round, m.score.home, m.score.away);
                }
            }
            events::touch(tx, event_id, &now)?;
            let answer = SubmittedMatches {
                received,
                matches: out.into_iter().map(|(m, _, _)| m.score).collect(),
            };
            Ok((answer, news))
        })
        .await?;
    let (answer, news) = answer;
    news.announce(
        &live,
        event_id,
        &format!("/api/v1/events/{event_id}/vp-standings"),
    );
    Ok(HttpResponse::Ok().json(answer))
}

/// The matches of the event with their results.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventMatches {
    pub event_id: i64,
    #[schema(value_type = EventFormat)]
    pub format: String,
    pub matches: Vec<MatchLine>,
}

/// Every match of a bridge teams or Swiss event (scheduled or drawn so far) with its result:
/// from the board results (`source: boards`, each board's IMPs), as entered (`entered`), or
/// not yet (`incomplete`, with the count of board results in).
///
/// 409: Not a bridge teams or Swiss event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/matches", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = EventMatches),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/matches")]
pub async fn get_matches(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let me = store.read(move |c| load(c, event_id)).await?;
    json_cached(
        &req,
        &EventMatches {
            event_id,
            format: me.event.format,
            matches: me.lines,
        },
    )
}

/// One line of the VP standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"rank": 1, "number": 3, "name": "Hastings", "matches": 7, "vps": 98.42, "imps_won": 210, "imps_lost": 130, "imp_quotient": 1.615}))]
pub struct VpStandingRow {
    /// Shared by contestants still level after every tie-break.
    pub rank: u32,
    /// Team number (or pair number).
    pub number: u32,
    pub name: String,
    /// Matches scored.
    pub matches: u32,
    /// VPs, byes included.
    pub vps: f64,
    pub imps_won: u32,
    pub imps_lost: u32,
    /// IMPs won / IMPs lost; null when none were lost.
    pub imp_quotient: Option<f64>,
}

/// The VP standings of a bridge teams or Swiss event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VpStandings {
    pub event_id: i64,
    #[schema(value_type = EventFormat)]
    pub format: String,
    pub standings: Vec<VpStandingRow>,
    /// Each contestant's matches by opponent: IMPs won and lost and VPs.
    pub cross_table: Vec<CrossRow>,
}

pub(crate) fn vp_standings(me: &MatchEvent) -> VpStandings {
    let numbers: Vec<u32> = me.contestants.iter().map(|c| c.0).collect();
    let scored: Vec<MatchScore> = me.lines.iter().filter_map(|l| l.score.clone()).collect();
    let names: HashMap<u32, &str> = me
        .contestants
        .iter()
        .map(|(n, s)| (*n, s.as_str()))
        .collect();
    VpStandings {
        event_id: me.event.id,
        format: me.event.format.clone(),
        standings: standings(&numbers, &scored, &me.byes())
            .into_iter()
            .map(|s| VpStandingRow {
                rank: s.rank,
                number: s.team,
                name: names.get(&s.team).copied().unwrap_or_default().to_string(),
                matches: s.matches,
                vps: s.vps,
                imps_won: s.imps_won,
                imps_lost: s.imps_lost,
                imp_quotient: s.imp_quotient,
            })
            .collect(),
        cross_table: cross_table(&numbers, &me.lines),
    }
}

/// The standings as CSV, one line per contestant.
fn standings_csv(s: &VpStandings) -> String {
    let mut out = String::from("rank,number,name,matches,vps,imps_won,imps_lost,imp_quotient\n");
    for r in &s.standings {
        out.push_str(&format!(
            "{},{},{},{},{:.2},{},{},{}\n",
            r.rank,
            r.number,
            csv_field(&r.name),
            r.matches,
            r.vps,
            r.imps_won,
            r.imps_lost,
            r.imp_quotient
                .map(|q| format!("{q:.3}"))
                .unwrap_or_default()
        ));
    }
    out
}

/// The standings of a bridge teams or Swiss event: VP total (a bye its VPs), then the IMP
/// quotient (IMPs won / IMPs lost), then, for two contestants still level, the match between
/// them; and the cross-table of matches (IMPs and VPs by opponent). JSON or CSV.
///
/// 409: Not a bridge teams or Swiss event.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/vp-standings", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: rank,number,name,matches,vps,imps_won,imps_lost,imp_quotient)", content(
            (VpStandings = "application/json"),
            (String = "text/csv"),
        )),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/vp-standings")]
pub async fn get_vp_standings(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(q): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let csv = wants_csv(&req, q.format.as_deref())?;
    let me = store.read(move |c| load(c, event_id)).await?;
    let table = vp_standings(&me);
    if csv {
        return Ok(csv_cached(&req, standings_csv(&table)));
    }
    json_cached(&req, &table)
}
