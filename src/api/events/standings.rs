//! `/api/v1/events/{id}/standings` and `/crosstable`: the table of an event, computed from its
//! results by the scoring engine.

use std::collections::HashMap;

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::extract::{
    csv_cached, csv_field, csv_number, json_cached, wants_csv, FormatQuery, QueryParams,
};
use crate::api::responses::PublicRead;
use crate::domain::{tiebreaks, Participant, RoundStatus, Seat, FORMAT_SWISS};
use crate::engine::chess::scoring::{self, GameResult, ScoredBye, ScoredGame, Tiebreak};
use crate::engine::chess::wallchart::wallchart;
use crate::error::ApiResult;
use crate::store::{events, games, participants, rounds, Store};

/// One line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"rank": 1, "shared": false, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "points": 4.5, "games_played": 5, "wins": 4, "games_won": 4, "sonneborn_berger": 9.75, "direct_encounter": 0.0, "solkoff": 12.5, "modified_median": 9.0, "cumulative": 14.0, "buchholz": 13.0, "buchholz_cut1": 11.5, "buchholz_cut2": 10.0, "median_buchholz": 9.0, "progressive": 14.5, "games_with_black": 2, "aro_cut1": 1950, "koya": 2.5}))]
pub struct StandingRow {
    /// 1-based; players equal on every criterion share it.
    pub rank: u32,
    pub shared: bool,
    pub participant: Seat,
    pub points: f64,
    /// Games played over the board (forfeits excluded).
    pub games_played: u32,
    /// FIDE "WIN": rounds won with or without playing (games won, forfeit wins, full-point
    /// byes).
    pub wins: u32,
    /// FIDE "WON": games won over the board.
    pub games_won: u32,
    /// Games over the board: the opponent's score for a win, half for a draw. Swiss events:
    /// FIDE 2023, unplayed rounds counted against a dummy with the player's own score.
    pub sonneborn_berger: f64,
    /// Points scored against the players still tied with this one when direct encounter is
    /// reached in the tie-break order (0 when not tied then). It ranks the tie as FIDE C.07
    /// says: by these points only when all of them met (round robins: always), again within
    /// each smaller tie.
    pub direct_encounter: f64,
    /// Swiss: the opponents' adjusted scores summed (unplayed games count as draws for them).
    pub solkoff: f64,
    /// Swiss: Solkoff without the extreme opponents (US Chess modified median).
    pub modified_median: f64,
    /// Swiss: the running scores summed, unplayed wins and byes not counted.
    pub cumulative: f64,
    /// FIDE 2023: the opponents' adjusted scores; own unplayed rounds count the own score.
    pub buchholz: f64,
    /// FIDE Buchholz less the least significant contribution (voluntarily unplayed first).
    pub buchholz_cut1: f64,
    /// FIDE Buchholz less the two least significant contributions.
    pub buchholz_cut2: f64,
    /// FIDE median-1 Buchholz.
    pub median_buchholz: f64,
    /// FIDE progressive score (the running scores summed).
    pub progressive: f64,
    /// Games played over the board with black.
    pub games_with_black: u32,
    /// Average rating of the opponents met over the board, less the lowest (0: none).
    pub aro_cut1: u32,
    /// Koya: points against the opponents with at least half the points possible.
    pub koya: f64,
}

/// The standings of an event. Titled `EventStandings` in the document: a client generator that
/// names a type and its local variable after the schema (openapi-python-client) would give
/// the field `standings` and the whole object one name.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(title = "EventStandings")]
#[schema(example = json!({"event_id": 1, "tiebreaks": ["direct_encounter", "wins", "sonneborn_berger"], "standings": [{"rank": 1, "shared": false, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "points": 4.5, "games_played": 5, "wins": 4, "games_won": 4, "sonneborn_berger": 9.75, "direct_encounter": 0.0, "solkoff": 12.5, "modified_median": 9.0, "cumulative": 14.0, "buchholz": 13.0, "buchholz_cut1": 11.5, "buchholz_cut2": 10.0, "median_buchholz": 9.0, "progressive": 14.5, "games_with_black": 2, "aro_cut1": 1950, "koya": 2.5}]}))]
pub struct Standings {
    pub event_id: i64,
    /// The tie-breaks applied, in order.
    pub tiebreaks: Vec<Tiebreak>,
    pub standings: Vec<StandingRow>,
}

/// One row of the crosstable.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"number": 1, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "cells": ["X", "1", "½", "0"], "total": 1.5, "position": "2-3"}))]
pub struct CrosstableRow {
    /// Pairing number (the row and column index).
    pub number: u32,
    pub participant: Seat,
    /// One cell per pairing number: `X` on the diagonal, `1`, `½`, `0`, `+`, `-` per game
    /// (several, in round order, in a double round robin), empty while not played. Swiss
    /// events: one cell per round, `W12` / `L3` / `D7` (result and the opponent's pairing
    /// number), `X12` / `F12` (forfeit won / lost), `B`, `H`, `U` (full, half, zero-point bye).
    pub cells: Vec<String>,
    pub total: f64,
    /// `1`, or `3-4` for a shared place.
    pub position: String,
}

/// The crosstable of seed 000.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"event_id": 1, "rows": [{"number": 1, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "cells": ["X", "1", "½", "0"], "total": 1.5, "position": "2-3"}]}))]
pub struct Crosstable {
    pub event_id: i64,
    pub rows: Vec<CrosstableRow>,
}

/// What the scoring engine needs, indexed by position in pairing-number order.
pub(crate) struct Scoresheet {
    pub format: String,
    pub players: Vec<Participant>,
    pub games: Vec<ScoredGame>,
    pub byes: Vec<ScoredBye>,
    pub tiebreaks: Vec<Tiebreak>,
}

pub(crate) fn scoresheet(conn: &Connection, event_id: i64) -> ApiResult<Scoresheet> {
    let event = events::get(conn, event_id)?;
    let mut players = participants::all(conn, event_id)?;
    players.sort_by_key(|p| (p.pairing_number.is_none(), p.pairing_number, p.id));
    let index: HashMap<i64, usize> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    // a Swiss draft round is not public: leave its games out
    let draft = rounds::last(conn, event_id)?
        .filter(|r| r.status == RoundStatus::Draft)
        .map(|r| r.number);
    let mut scored = Vec::new();
    for g in games::all(conn, event_id)?
        .into_iter()
        .filter(|g| Some(g.round) != draft)
    {
        if let (Some(&white), Some(&black)) = (index.get(&g.white_id), index.get(&g.black_id)) {
            scored.push(ScoredGame {
                round: g.round,
                white,
                black,
                result: g.result.as_deref().and_then(GameResult::parse),
            });
        }
    }
    let byes = games::all_byes(conn, event_id)?
        .into_iter()
        .filter_map(|b| {
            Some(ScoredBye {
                round: b.round,
                player: *index.get(&b.participant_id)?,
                half_points: (b.points * 2.0).round() as u32,
            })
        })
        .collect();
    Ok(Scoresheet {
        format: event.format.clone(),
        players,
        games: scored,
        byes,
        tiebreaks: tiebreaks(&event.format, &event.settings),
    })
}

fn seat(p: &Participant) -> Seat {
    Seat {
        id: p.id,
        name: p.name.clone(),
        pairing_number: p.pairing_number,
        rating: p.rating,
    }
}

/// The standings: points, then the event's tie-breaks (default: direct encounter, wins,
/// Sonneborn-Berger; Swiss events: modified median, Solkoff, cumulative), as JSON or CSV.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/standings", tag = "results",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: Rank,No,Name,Rating,Points, then the tie-breaks in order)", content(
            (Standings = "application/json"),
            (String = "text/csv"),
        )),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/standings")]
pub async fn get_standings(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(query): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let wants_csv = wants_csv(&req, query.format.as_deref())?;
    let (sheet, rows, printed) = store
        .read(move |conn| {
            let sheet = scoresheet(conn, event_id)?;
            let (rows, printed) = standing_rows(&sheet);
            Ok((sheet, rows, printed))
        })
        .await?;
    let printed: Vec<&str> = printed.iter().map(String::as_str).collect();
    if wants_csv {
        return Ok(csv_cached(
            &req,
            standings_csv(&sheet.tiebreaks, &rows, &printed),
        ));
    }
    json_cached(
        &req,
        &Standings {
            event_id,
            tiebreaks: sheet.tiebreaks,
            standings: rows,
        },
    )
}

/// The standings rows of a scoresheet, with each row's printed position (`3`, `3-4`).
pub(crate) fn standing_rows(sheet: &Scoresheet) -> (Vec<StandingRow>, Vec<String>) {
    let ratings: Vec<Option<i32>> = sheet.players.iter().map(|p| p.rating).collect();
    let standing = scoring::standings_rated(
        sheet.players.len(),
        &sheet.games,
        &sheet.byes,
        &ratings,
        &sheet.tiebreaks,
        sheet.format == FORMAT_SWISS,
    );
    let positions = scoring::positions(sheet.players.len(), &standing);
    // the printed position of each row, in row order
    let printed: Vec<String> = standing
        .iter()
        .map(|s| positions[s.player].clone())
        .collect();
    let rows = standing
        .iter()
        .map(|s| StandingRow {
            rank: s.rank,
            shared: s.shared,
            participant: seat(&sheet.players[s.player]),
            points: s.half_points as f64 / 2.0,
            games_played: s.games_played,
            wins: s.wins,
            games_won: s.games_won,
            sonneborn_berger: s.sb_quarters as f64 / 4.0,
            direct_encounter: s.direct_half_points as f64 / 2.0,
            solkoff: s.solkoff_half as f64 / 2.0,
            modified_median: s.modified_median_half as f64 / 2.0,
            cumulative: s.cumulative_half as f64 / 2.0,
            buchholz: s.fide.buchholz as f64 / 2.0,
            buchholz_cut1: s.fide.buchholz_cut1 as f64 / 2.0,
            buchholz_cut2: s.fide.buchholz_cut2 as f64 / 2.0,
            median_buchholz: s.fide.median_buchholz as f64 / 2.0,
            progressive: s.fide.progressive as f64 / 2.0,
            games_with_black: s.fide.games_with_black,
            aro_cut1: s.fide.aro_cut1,
            koya: s.fide.koya as f64 / 2.0,
        })
        .collect::<Vec<_>>();
    (rows, printed)
}

pub(crate) fn tiebreak_title(t: Tiebreak) -> &'static str {
    match t {
        Tiebreak::DirectEncounter => "Direct encounter",
        Tiebreak::Wins => "Wins",
        Tiebreak::GamesWon => "Games won",
        Tiebreak::SonnebornBerger => "Sonneborn-Berger",
        Tiebreak::GamesPlayed => "Games played",
        Tiebreak::Solkoff => "Solkoff",
        Tiebreak::ModifiedMedian => "Modified median",
        Tiebreak::Cumulative => "Cumulative",
        Tiebreak::Buchholz => "Buchholz",
        Tiebreak::BuchholzCut1 => "Buchholz cut-1",
        Tiebreak::BuchholzCut2 => "Buchholz cut-2",
        Tiebreak::MedianBuchholz => "Median Buchholz",
        Tiebreak::Progressive => "Progressive",
        Tiebreak::GamesWithBlack => "Games with black",
        Tiebreak::AroCut1 => "ARO cut-1",
        Tiebreak::Koya => "Koya",
    }
}

pub(crate) fn tiebreak_value(t: Tiebreak, r: &StandingRow) -> f64 {
    match t {
        Tiebreak::DirectEncounter => r.direct_encounter,
        Tiebreak::Wins => r.wins as f64,
        Tiebreak::GamesWon => r.games_won as f64,
        Tiebreak::SonnebornBerger => r.sonneborn_berger,
        Tiebreak::GamesPlayed => r.games_played as f64,
        Tiebreak::Solkoff => r.solkoff,
        Tiebreak::ModifiedMedian => r.modified_median,
        Tiebreak::Cumulative => r.cumulative,
        Tiebreak::Buchholz => r.buchholz,
        Tiebreak::BuchholzCut1 => r.buchholz_cut1,
        Tiebreak::BuchholzCut2 => r.buchholz_cut2,
        Tiebreak::MedianBuchholz => r.median_buchholz,
        Tiebreak::Progressive => r.progressive,
        Tiebreak::GamesWithBlack => r.games_with_black as f64,
        Tiebreak::AroCut1 => r.aro_cut1 as f64,
        Tiebreak::Koya => r.koya,
    }
}

/// `Rank,No,Name,Rating,Points` and one column per tie-break, in the event's order; `printed`
/// holds each row's position (`3`, or `3-4` when shared).
fn standings_csv(tiebreaks: &[Tiebreak], rows: &[StandingRow], printed: &[&str]) -> String {
    let mut out = String::from("Rank,No,Name,Rating,Points");
    for t in tiebreaks {
        out.push(',');
        out.push_str(tiebreak_title(*t));
    }
    out.push('\n');
    for (r, position) in rows.iter().zip(printed) {
        out.push_str(&format!(
            "{position},{},{},{},{}",
            r.participant
                .pairing_number
                .map(|n| n.to_string())
                .unwrap_or_default(),
            csv_field(&r.participant.name),
            r.participant
                .rating
                .map(|x| x.to_string())
                .unwrap_or_default(),
            r.points
        ));
        for t in tiebreaks {
            out.push_str(&format!(",{}", tiebreak_value(*t, r)));
        }
        out.push('\n');
    }
    out
}

/// The crosstable: players × players with each result, X on the diagonal, total and position
/// (seed 000), as JSON or CSV. For a Swiss event: rows in standings order with one cell per
/// round (`W12`, `L3`, `D7`, `X12`/`F12` forfeits, `B`/`H`/`U` byes; CSV columns Position, No,
/// Name, Rating, Rd 1..R, Total).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/crosstable", tag = "results",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: No,Name,1..N,Total,Position)", content(
            (Crosstable = "application/json"),
            (String = "text/csv"),
        )),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/crosstable")]
pub async fn get_crosstable(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
    QueryParams(query): QueryParams<FormatQuery>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let wants_csv = wants_csv(&req, query.format.as_deref())?;
    let (swiss, rows, rounds) = store
        .read(move |conn| {
            let sheet = scoresheet(conn, event_id)?;
            let (rows, rounds) = crosstable_rows(&sheet);
            Ok((sheet.format == FORMAT_SWISS, rows, rounds))
        })
        .await?;
    if !wants_csv {
        return json_cached(&req, &Crosstable { event_id, rows });
    }
    let out = if swiss {
        swiss_crosstable_csv(&rows, rounds)
    } else {
        crosstable_csv(&rows)
    };
    Ok(csv_cached(&req, out))
}

/// The crosstable's rows, and the number of rounds (a Swiss event's columns). A round robin:
/// numbered players in pairing-number order, a cell per opponent. A Swiss event: rows in
/// standings order with one cell per round (`W12`, `L3`, `D7`, `X12`/`F12` forfeits,
/// `B`/`H`/`U` byes; see [`crate::engine::chess::wallchart`]).
pub(crate) fn crosstable_rows(sheet: &Scoresheet) -> (Vec<CrosstableRow>, u32) {
    let rounds = sheet
        .games
        .iter()
        .map(|g| g.round)
        .chain(sheet.byes.iter().map(|b| b.round))
        .max()
        .unwrap_or(0);
    if sheet.format == FORMAT_SWISS {
        return (swiss_rows(sheet, rounds), rounds);
    }
    // Only numbered players have a row and column.
    let numbered: Vec<usize> = (0..sheet.players.len())
        .filter(|&i| sheet.players[i].pairing_number.is_some())
        .collect();
    let grid = scoring::crosstable(
        sheet.players.len(),
        &sheet.games,
        &sheet.byes,
        &sheet.tiebreaks,
    );
    let rows = numbered
        .iter()
        .map(|&i| CrosstableRow {
            number: sheet.players[i].pairing_number.unwrap_or_default(),
            participant: seat(&sheet.players[i]),
            cells: numbered.iter().map(|&j| grid.cells[i][j].clone()).collect(),
            total: grid.totals[i] as f64 / 2.0,
            position: grid.positions[i].clone(),
        })
        .collect();
    (rows, rounds)
}

fn crosstable_csv(rows: &[CrosstableRow]) -> String {
    let mut out = String::from("No,Name");
    for r in rows {
        out.push_str(&format!(",{}", r.number));
    }
    out.push_str(",Total,Position\n");
    for r in rows {
        out.push_str(&format!("{},{}", r.number, csv_field(&r.participant.name)));
        for c in &r.cells {
            out.push(',');
            out.push_str(&csv_number(c));
        }
        out.push_str(&format!(
            ",{},{}\n",
            scoring::format_half_points((r.total * 2.0) as u32),
            r.position
        ));
    }
    out
}

fn swiss_rows(sheet: &Scoresheet, rounds: u32) -> Vec<CrosstableRow> {
    let numbers: Vec<u32> = sheet
        .players
        .iter()
        .map(|p| p.pairing_number.unwrap_or_default())
        .collect();
    let cells = wallchart(&numbers, &sheet.games, &sheet.byes, rounds);
    let ratings: Vec<Option<i32>> = sheet.players.iter().map(|p| p.rating).collect();
    let standing = scoring::standings_rated(
        sheet.players.len(),
        &sheet.games,
        &sheet.byes,
        &ratings,
        &sheet.tiebreaks,
        sheet.format == FORMAT_SWISS,
    );
    let positions = scoring::positions(sheet.players.len(), &standing);
    standing
        .iter()
        .filter(|s| sheet.players[s.player].pairing_number.is_some())
        .map(|s| CrosstableRow {
            number: numbers[s.player],
            participant: seat(&sheet.players[s.player]),
            cells: cells[s.player].clone(),
            total: s.half_points as f64 / 2.0,
            position: positions[s.player].clone(),
        })
        .collect()
}

fn swiss_crosstable_csv(rows: &[CrosstableRow], rounds: u32) -> String {
    let mut out = String::from("Position,No,Name,Rating");
    for r in 1..=rounds {
        out.push_str(&format!(",Rd {r}"));
    }
    out.push_str(",Total\n");
    for r in rows {
        out.push_str(&format!(
            "{},{},{},{}",
            r.position,
            r.number,
            csv_field(&r.participant.name),
            r.participant
                .rating
                .map(|x| x.to_string())
                .unwrap_or_default()
        ));
        for c in &r.cells {
            out.push(',');
            out.push_str(c);
        }
        out.push_str(&format!(
            ",{}\n",
            scoring::format_half_points((r.total * 2.0) as u32)
        ));
    }
    out
}
