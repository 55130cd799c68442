//! The exchange formats of a bridge event: hand records in (PBN) and out (JSON, with their
//! double-dummy analysis), results out (PBN with score tables, USEBIO 1.2 XML).

use actix_web::{get, put, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::analysis::Analysis;
use crate::api::auth;
use crate::api::bridge::matches::{self, VpStandings};
use crate::api::bridge::results::{load_session, match_event_travellers};
use crate::api::exports::club::UsebioQuery;
use crate::api::extract::{cached, json_cached, Bearer, QueryParams};
use crate::api::responses::{AdminWrite, FormatRead};
use crate::api::tournaments::field::field_number_of;
use crate::api::tournaments::field_exports::{field_pbn, field_usebio};
use crate::domain::{Event, GameKind, Participant, FORMAT_BRIDGE_TEAMS, FORMAT_PAIRS};
use crate::engine::bridge::analysis::{AnalysisStatus, DealAnalysis};
use crate::engine::bridge::movement::model::PairNumbering;
use crate::engine::bridge::pbn_export::{write_pbn, PbnEvent};
use crate::engine::bridge::pbn_export::{write_pbn_tables, MatchTotal, PbnTotals};
use crate::engine::bridge::scoring::{
    cycle_conflict, deal_string, lead_fault, ns_score, parse_pbn_deals, vulnerability, Contract,
    Deal, Seat, Vulnerability,
};
use crate::engine::bridge::swiss_event::Contestants;
use crate::engine::bridge::team_event::MatchLine;
use crate::engine::bridge::traveller::HandRecord;
use crate::engine::bridge::traveller::{BridgeStandings, Traveller};
use crate::engine::bridge::usebio::{
    players_from_name, UsebioClub, UsebioEntry, UsebioKind, UsebioMatch, UsebioPlayer,
};
use crate::engine::bridge::usebio::{write_usebio, UsebioEvent};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::board_results::{self, BoardResult};
use crate::store::tokens::Role;
use crate::store::{events, now, participants, teams, Store};
use actix_web::http::header;
use std::collections::HashMap;

/// Most deals in one hand-record file.
const MAX_DEALS: usize = 999;

/// `?non_standard=true` of `PUT .../deals`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DealsQuery {
    /// The set is dealt with dealers and vulnerabilities of its own (not the 16-board
    /// cycle): each board is scored with its hand record's vulnerability. Without it, a hand
    /// record whose `[Dealer]` or `[Vulnerable]` contradicts its board number is refused.
    pub non_standard: Option<bool>,
}

/// A stored result whose NS score changed with the hand records' vulnerability.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RescoredResult {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub contract: String,
    pub ns_score_was: i32,
    pub ns_score: i32,
}

/// A stored result whose lead the opening leader does not hold in the hand record (entered
/// before the deal was known). It is kept as entered, and reported until corrected.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeadConflict {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub declarer: Seat,
    pub lead: String,
    pub message: String,
}

/// The hand records stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"deals": 2, "boards": [1, 2], "non_standard": false, "pending": 2, "rescored": [], "lead_conflicts": []}))]
pub struct StoredDeals {
    pub deals: usize,
    /// The board numbers, in order.
    pub boards: Vec<u32>,
    /// Whether the set was stored as non-standard (`?non_standard=true`).
    pub non_standard: bool,
    /// Deals waiting for their double-dummy analysis (`GET .../deals` shows it once done).
    pub pending: usize,
    /// Stored results rescored in the same change, because their board's vulnerability
    /// changed.
    pub rescored: Vec<RescoredResult>,
    /// Stored results whose lead the opening leader does not hold.
    pub lead_conflicts: Vec<LeadConflict>,
}

/// One board's hand record with its analysis.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardDeal {
    pub board: u32,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    /// The PBN deal string, North first (`N:AKQ.JT9.876.5432 ...`).
    pub deal: String,
    pub hands: HandRecord,
    pub analysis: DealAnalysis,
}

/// An event's hand records.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventDeals {
    pub event_id: i64,
    pub deals: Vec<BoardDeal>,
    /// Deals whose analysis is still pending.
    pub pending: usize,
    /// Stored results whose lead the opening leader does not hold.
    pub lead_conflicts: Vec<LeadConflict>,
}

/// The event, if it is a bridge event (any format); else a 409.
fn bridge_event(conn: &Connection, event_id: i64) -> ApiResult<Event> {
    let event = events::get(conn, event_id)?;
    if event.game == GameKind::Bridge {
        Ok(event)
    } else {
        Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; hand records belong to bridge events",
            event.game.as_str()
        )))
    }
}

/// Stored results whose lead the hand record's opening leader does not hold.
fn lead_conflicts(results: &[BoardResult], deals: &[Deal]) -> Vec<LeadConflict> {
    results
        .iter()
        .filter_map(|r| {
            let declarer = r.outcome.declarer?;
            let lead = r.outcome.lead.as_deref()?;
            let deal = deals.iter().find(|d| d.board == r.board)?;
            let message = lead_fault(deal, declarer, lead)?;
            Some(LeadConflict {
                round: r.round,
                table: r.table,
                board: r.board,
                declarer,
                lead: lead.to_string(),
                message: format!("round {} table {}, {message}", r.round, r.table),
            })
        })
        .collect()
}

/// Rescores the stored played results whose NS score no longer matches the vulnerability of
/// their board (the hand record's, else the cycle's).
fn rescore(conn: &Connection, event_id: i64, deals: &[Deal]) -> ApiResult<Vec<RescoredResult>> {
    let mut out = Vec::new();
    for r in board_results::all(conn, event_id)? {
        let (Some(text), Some(declarer), Some(tricks), Some(was)) = (
            r.outcome.contract.as_deref(),
            r.outcome.declarer,
            r.outcome.tricks,
            r.outcome.ns_score,
        ) else {
            continue;
        };
        let Ok(contract) = text.parse::<Contract>() else {
            continue;
        };
        let vul = deals
            .iter()
            .find(|d| d.board == r.board)
            .map_or_else(|| vulnerability(r.board), |d| d.vulnerability);
        let score = ns_score(&contract, declarer, tricks, vul)
            .map_err(|e| ApiError::Internal(format!("stored result: {}", e.message)))?;
        if score != was {
            board_results::set_ns_score(conn, event_id, &r, score)?;
            out.push(RescoredResult {
                round: r.round,
                table: r.table,
                board: r.board,
                contract: text.to_string(),
                ns_score_was: was,
                ns_score: score,
            });
        }
    }
    Ok(out)
}

/// Load the event's hand records from a PBN file (as text, or as one JSON string with
/// `Content-Type: application/json`; tags `[Board]`, `[Dealer]`, `[Vulnerable]`, `[Deal]`), replacing any loaded before. Admin only; any bridge event.
/// Each deal must hold 13 cards per hand, 52 distinct; errors name the line
/// (`errors[0].field` is `pbn`). A deal whose dealer or vulnerability contradicts its board
/// number (the 16-board cycle) is refused with a 422 naming the board, unless the request
/// says the set is non-standard (`?non_standard=true`): then every board is scored with its
/// hand record's vulnerability, and stored results are rescored in the same change. Stored
/// results whose lead the opening leader does not hold are reported (`lead_conflicts`).
///
/// The answer comes at once; each deal's double-dummy table and par are worked out after it
/// (`pending`; `GET .../deals` shows them once done).
#[utoipa::path(
    put, path = "/api/v1/events/{event_id}/deals", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), DealsQuery),
    request_body(description = "A PBN file: as text, or as one JSON string", content(
        (String = "text/plain", example = json!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n")),
        (String = "application/json", example = json!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n")),
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, body = StoredDeals),
        AdminWrite,
    )
)]
#[put("/api/v1/events/{event_id}/deals")]
pub async fn put_deals(
    store: web::Data<Store>,
    analysis: web::Data<Analysis>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    QueryParams(q): QueryParams<DealsQuery>,
    crate::api::extract::TextBody(body): crate::api::extract::TextBody,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let non_standard = q.non_standard.unwrap_or(false);
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request(Some("pbn"), "the PBN file is not UTF-8 text"))?;
    let deals = parse_pbn_deals(text).map_err(|e| ApiError::invalid("pbn", e.to_string()))?;
    if deals.is_empty() {
        return Err(ApiError::invalid("pbn", "the file holds no [Deal]"));
    }
    if deals.len() > MAX_DEALS {
        return Err(ApiError::invalid(
            "pbn",
            format!("at most {MAX_DEALS} deals per event"),
        ));
    }
    if !non_standard {
        crate::error::check(
            deals
                .iter()
                .filter_map(|d| {
                    Some(FieldError {
                        field: "pbn".into(),
                        message: format!(
                            "board {}: {}; send the set with ?non_standard=true if it is dealt so",
                            d.board,
                            cycle_conflict(d)?
                        ),
                    })
                })
                .collect(),
        )?;
    }
    let answer = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            bridge_event(tx, event_id)?;
            board_results::put_deals(tx, event_id, &deals)?;
            let rescored = rescore(tx, event_id, &deals)?;
            let conflicts = lead_conflicts(&board_results::all(tx, event_id)?, &deals);
            let pending = board_results::analysed_deals(tx, event_id)?
                .iter()
                .filter(|a| a.dd.is_none())
                .count();
            events::touch(tx, event_id, &now())?;
            let mut boards: Vec<u32> = deals.iter().map(|d| d.board).collect();
            boards.sort_unstable();
            Ok(StoredDeals {
                deals: deals.len(),
                boards,
                non_standard,
                pending,
                rescored,
                lead_conflicts: conflicts,
            })
        })
        .await?;
    if answer.pending > 0 {
        analysis.wake();
    }
    Ok(HttpResponse::Ok().json(answer))
}

/// The event's hand records, each with its double-dummy analysis: the tricks each declarer
/// takes in each strain and the par score and contracts at the board's vulnerability (status
/// `pending` until the worker has analysed the deal, then `done`), and the stored results
/// whose lead the opening leader does not hold.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/deals", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id")),
    responses(
        (status = 200, body = EventDeals),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/deals")]
pub async fn get_deals(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let answer = store
        .read(move |c| {
            bridge_event(c, event_id)?;
            let analysed = board_results::analysed_deals(c, event_id)?;
            let deals: Vec<Deal> = analysed.iter().map(|a| a.deal.clone()).collect();
            let conflicts = lead_conflicts(&board_results::all(c, event_id)?, &deals);
            let boards: Vec<BoardDeal> = analysed
                .into_iter()
                .map(|a| BoardDeal {
                    board: a.deal.board,
                    dealer: a.deal.dealer,
                    vulnerability: a.deal.vulnerability,
                    deal: deal_string(&a.deal.hands),
                    analysis: DealAnalysis::of(a.dd, a.deal.vulnerability, a.deal.dealer),
                    hands: HandRecord {
                        north: a.deal.hands[0].clone(),
                        east: a.deal.hands[1].clone(),
                        south: a.deal.hands[2].clone(),
                        west: a.deal.hands[3].clone(),
                    },
                })
                .collect();
            Ok(EventDeals {
                event_id,
                pending: boards
                    .iter()
                    .filter(|b| b.analysis.status == AnalysisStatus::Pending)
                    .count(),
                deals: boards,
                lead_conflicts: conflicts,
            })
        })
        .await?;
    json_cached(&req, &answer)
}

/// What the PBN and USEBIO exports write, for any bridge format.
struct Exported {
    event: Event,
    travellers: Vec<Traveller>,
    totals: Totals,
    /// The event's participants (pairs, or the members of its teams), by id.
    participants: HashMap<i64, Participant>,
    /// A teams event's teams by number, with their members in board order.
    teams: Vec<(u32, String, Vec<i64>)>,
}

enum Totals {
    /// A pairs session: its standings, and whether its pairs are Mitchell-numbered.
    Pairs {
        standings: BridgeStandings,
        mitchell: bool,
    },
    /// A teams or Swiss event: its VP standings and its matches.
    Matches {
        standings: VpStandings,
        lines: Vec<MatchLine>,
        kind: UsebioKind,
    },
}

/// Reads what the exports write, in one transaction.
fn load_export(conn: &Connection, event_id: i64) -> ApiResult<Exported> {
    let event = events::get(conn, event_id)?;
    if event.game != GameKind::Bridge {
        return Err(ApiError::conflict(format!(
            "event {event_id} is a {} event; PBN and USEBIO exports belong to bridge events",
            event.game.as_str()
        )));
    }
    let participants: HashMap<i64, Participant> = participants::all(conn, event_id)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let mut teams_of = Vec::new();
    for t in teams::all(conn, event_id)? {
        if let Some(number) = t.number {
            let members = teams::member_boards(conn, t.id)?
                .into_iter()
                .map(|(_, id)| id)
                .collect();
            teams_of.push((number, t.name, members));
        }
    }
    let (travellers, totals) = if event.format == FORMAT_PAIRS {
        let session = load_session(conn, event_id)?;
        let mitchell = session.movement.pair_numbering == PairNumbering::Mitchell;
        (
            session.travellers(),
            Totals::Pairs {
                standings: session.standings(),
                mitchell,
            },
        )
    } else {
        let me = matches::load(conn, event_id)?;
        let kind = if event.format == FORMAT_BRIDGE_TEAMS {
            UsebioKind::Teams
        } else if matches::contestants_kind(&event) == Contestants::Teams {
            UsebioKind::SwissTeams
        } else {
            UsebioKind::SwissPairs(matches::swiss_settings(&event)?.pairs_scoring())
        };
        (
            match_event_travellers(conn, &event)?,
            Totals::Matches {
                standings: matches::vp_standings(&me),
                lines: me.lines,
                kind,
            },
        )
    };
    Ok(Exported {
        event,
        travellers,
        totals,
        participants,
        teams: teams_of,
    })
}

impl Exported {
    /// The players of a pair: as entered (`players`), else read from its name (`A - B`).
    fn pair_players(&self, participant: Option<&Participant>, name: &str) -> Vec<UsebioPlayer> {
        match participant {
            Some(p) if !p.players.is_empty() => p
                .players
                .iter()
                .map(|x| UsebioPlayer {
                    name: x.name.clone(),
                    national_id: x.national_id.clone(),
                })
                .collect(),
            _ => players_from_name(name)
                .into_iter()
                .map(|n| UsebioPlayer {
                    name: n,
                    national_id: None,
                })
                .collect(),
        }
    }

    fn team_players(&self, number: u32) -> Vec<UsebioPlayer> {
        self.teams
            .iter()
            .find(|t| t.0 == number)
            .map(|t| {
                t.2.iter()
                    .filter_map(|id| self.participants.get(id))
                    .map(|p| UsebioPlayer {
                        name: p.name.clone(),
                        national_id: p.national_id.clone().or_else(|| p.external_id.clone()),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn pbn(&self, tables: bool) -> String {
        let event = PbnEvent {
            name: &self.event.name,
            date: export_date(&self.event, "%Y.%m.%d"),
        };
        if tables {
            let scoring = match &self.totals {
                Totals::Pairs { standings, .. } if !standings.method.is_imps() => "MP",
                _ => "IMP",
            };
            return write_pbn_tables(&event, &self.travellers, scoring);
        }
        match &self.totals {
            Totals::Pairs { standings, .. } => {
                write_pbn(&event, &self.travellers, PbnTotals::Pairs(standings))
            }
            Totals::Matches { standings, .. } => {
                let totals: Vec<MatchTotal> = standings
                    .standings
                    .iter()
                    .map(|r| MatchTotal {
                        rank: r.rank.to_string(),
                        number: r.number,
                        vps: r.vps,
                        imps_won: r.imps_won,
                        imps_lost: r.imps_lost,
                        name: r.name.clone(),
                    })
                    .collect();
                write_pbn(&event, &self.travellers, PbnTotals::Matches(&totals))
            }
        }
    }

    fn usebio(&self, club: Option<UsebioClub>) -> String {
        let (kind, mitchell, winner_type, entries, matches) = match &self.totals {
            Totals::Pairs {
                standings,
                mitchell,
            } => {
                let entries: Vec<UsebioEntry> = standings
                    .rankings
                    .iter()
                    .flat_map(|r| {
                        r.entries.iter().map(move |e| {
                            let direction = r.direction.or(e.line);
                            let participant =
                                e.participant_id.and_then(|id| self.participants.get(&id));
                            UsebioEntry {
                                number: match direction {
                                    Some(d) if *mitchell => format!("{}{d}", e.pair),
                                    _ => e.pair.to_string(),
                                },
                                section: None,
                                direction,
                                team_name: None,
                                place: usebio_place(&e.rank),
                                total: e.total,
                                percentage: e.percent,
                                players: self.pair_players(
                                    participant,
                                    e.name.as_deref().unwrap_or_default(),
                                ),
                            }
                        })
                    })
                    .collect();
                (
                    UsebioKind::Pairs(standings.method),
                    *mitchell,
                    standings.rankings.len(),
                    entries,
                    Vec::new(),
                )
            }
            Totals::Matches {
                standings,
                lines,
                kind,
            } => {
                let teams = matches!(kind, UsebioKind::Teams | UsebioKind::SwissTeams);
                let entries = standings
                    .standings
                    .iter()
                    .map(|r| UsebioEntry {
                        number: r.number.to_string(),
                        section: None,
                        direction: None,
                        team_name: teams.then(|| r.name.clone()),
                        place: r.rank.to_string(),
                        total: r.vps,
                        percentage: None,
                        players: if teams {
                            self.team_players(r.number)
                        } else {
                            let p = self
                                .participants
                                .values()
                                .find(|p| p.pairing_number == Some(r.number));
                            self.pair_players(p, &r.name)
                        },
                    })
                    .collect();
                let matches = lines
                    .iter()
                    .map(|l| UsebioMatch {
                        round: l.round,
                        team: l.home,
                        opposing_team: l.away,
                        imps: l.score.as_ref().map(|s| (s.imps_home, s.imps_away)),
                        vps: l.score.as_ref().map(|s| (s.vp_home, s.vp_away)),
                    })
                    .collect();
                (*kind, false, 1, entries, matches)
            }
        };
        let event = UsebioEvent {
            id: self.event.id,
            name: &self.event.name,
            date: export_date(&self.event, "%d/%m/%Y"),
            kind,
            club,
            winner_type,
            mitchell,
            sections: Vec::new(),
        };
        write_usebio(&event, &entries, &matches, &self.travellers)
    }
}

/// `?games=boards|tables` of the PBN export.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PbnQuery {
    /// `boards` (default): one game a board, its results in a score table; `tables`: one game
    /// a table result, with its declarer, contract, tricks and score.
    #[param(inline, value_type = Option<PbnGames>)]
    pub games: Option<String>,
}

/// How the PBN export lays out its games.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // documents the closed set of `games`
pub enum PbnGames {
    Boards,
    Tables,
}

/// A place as USEBIO files write it: the number alone (`2`, not `2=`; a tie shows as two
/// entries with the same place, and importers read the place as a number).
fn usebio_place(rank: &str) -> String {
    rank.trim_end_matches('=').to_string()
}

/// The event as a PBN 2.1 file: one game per board with its deal (when loaded) and its
/// double-dummy analysis (`DoubleDummyTricks`, `OptimumScore`, `ParContract`,
/// `[OptimumResultTable]`, once done), the board's results as a `[ScoreTable]` (pairs,
/// contract, declarer, tricks, lead, scores, matchpoints or IMPs), and the totals as a
/// `[TotalScoreTable]` in the first game (a teams or Swiss event: its VP standings). The tags
/// of one table's play have no value for a whole board and are written `?` (PBN 2.1:
/// unknown).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/pbn", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), PbnQuery),
    responses(
        (status = 200, description = "PBN 2.1 text", body = String, content_type = "application/x-pbn"),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/pbn")]
pub async fn get_pbn(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(q): QueryParams<PbnQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let tables = match q.games.as_deref() {
        None | Some("boards") => false,
        Some("tables") => true,
        Some(other) => {
            return Err(ApiError::invalid(
                "games",
                format!("{other:?}: write boards (one game a board, the default) or tables"),
            ))
        }
    };
    let (text, field) = store
        .read(move |c| {
            let event = events::get(c, event_id)?;
            if let Some((t, n)) = field_number_of(c, &event)? {
                if tables {
                    return Err(ApiError::invalid(
                        "games",
                        "a section scored across the field is written as its field, one game a board; leave games out",
                    ));
                }
                return Ok((field_pbn(c, t, n)?, Some((t, n))));
            }
            Ok((load_export(c, event_id)?.pbn(tables), None))
        })
        .await?;
    Ok(of_field(
        cached(&req, "application/x-pbn; charset=utf-8", text.into_bytes()),
        field,
        "pbn",
    ))
}

/// The event as USEBIO 1.2 XML, as national bodies import it for masterpoints: the club
/// (`?club_name=`, `?club_id=`), the event (`EVENT_TYPE` `MP_PAIRS`, `BUTLER_PAIRS`,
/// `CROSS_IMP`, `TEAMS`, `SWISS_PAIRS`, `SWISS_TEAMS`), the pairs or teams with their places,
/// totals and players (names and national ids), the matches of a teams or Swiss event, every
/// board's traveller lines (`USEBIO/EVENT/BOARD/TRAVELLER_LINE`) and the hands
/// (`USEBIO/HANDSET/BOARD`). Mitchell pair numbers are written `1NS` / `1EW`.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/usebio", tag = "bridge",
    params(("event_id" = i64, Path, description = "Event id"), UsebioQuery),
    responses(
        (status = 200, description = "USEBIO 1.2 XML", body = String, content_type = "application/xml"),
        FormatRead,
    )
)]
#[get("/api/v1/events/{event_id}/usebio")]
pub async fn get_usebio(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(q): QueryParams<UsebioQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let club = q.club()?;
    let (text, field) = store
        .read(move |c| {
            let event = events::get(c, event_id)?;
            if let Some((t, n)) = field_number_of(c, &event)? {
                return Ok((field_usebio(c, t, n, club)?, Some((t, n))));
            }
            Ok((load_export(c, event_id)?.usebio(club), None))
        })
        .await?;
    Ok(of_field(
        cached(&req, "application/xml; charset=utf-8", text.into_bytes()),
        field,
        "usebio",
    ))
}

/// A section scored across the field is exported as its whole field (one file for the session,
/// every section's pairs and results, as a national body's results service takes it): the
/// answer says so with `Content-Location`, the field's own export.
fn of_field(mut answer: HttpResponse, field: Option<(i64, u32)>, kind: &str) -> HttpResponse {
    if let Some((t, n)) = field {
        if let Ok(v) = header::HeaderValue::from_str(&format!(
            "/api/v1/tournaments/{t}/across-the-field/{n}/{kind}"
        )) {
            answer.headers_mut().insert(header::CONTENT_LOCATION, v);
        }
    }
    answer
}

/// The event's start date in an export format's own notation.
fn export_date(event: &Event, format: &str) -> Option<String> {
    event.start_date.map(|d| d.format(format).to_string())
}
