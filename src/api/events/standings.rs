//! `/api/v1/events/{id}/standings` and `/crosstable`: the table of an event, computed from its
//! results by the scoring engine.

use std::collections::HashMap;

use chrono::NaiveDate;

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::extract::{
    csv_cached, csv_field, csv_number, json_cached, wants_csv, FormatQuery, QueryParams,
};
use crate::api::responses::PublicRead;
use crate::domain::{
    tiebreak_rules, tiebreaks, unrated_rating, Participant, RoundStatus, Seat, Sex, FORMAT_SWISS,
};
use crate::engine::chess::fide_tiebreak::FideTiebreaks;
use crate::engine::chess::norms::{self, Norm, NormCheck, NormPlayer};
use crate::engine::chess::rating::{
    event_year, rated_games, rating_change, KFactor, RatingChange, RatingRules,
};
use crate::engine::chess::scoring::{
    self, AskedTiebreak, Code, GameResult, ScoredBye, ScoredGame, Section, Tiebreak, TiebreakRules,
};
use crate::engine::chess::wallchart::wallchart;
use crate::error::ApiResult;
use crate::store::{events, games, participants, rounds, Store};

/// Each asked tie-break's value under the name it was asked by (`null`: the player has none),
/// in the order asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TiebreakValues(pub Vec<(String, Option<f64>)>);

impl Serialize for TiebreakValues {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"rank": 1, "shared": false, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "points": 4.5, "tiebreaks": {"BH/C1": 11.5, "DE": 0.0}, "games_played": 5, "wins": 4, "games_won": 4, "sonneborn_berger": 9.75, "direct_encounter": 0.0, "solkoff": 12.5, "modified_median": 9.0, "cumulative": 14.0, "buchholz": 13.0, "buchholz_cut1": 11.5, "buchholz_cut2": 10.0, "median_buchholz": 9.0, "progressive": 14.5, "games_with_black": 2, "aro_cut1": 1950, "koya": 2.5, "k_factor": 20, "rating_change": 12.4, "performance_rating": 2243, "norms": []}))]
pub struct StandingRow {
    /// 1-based; players equal on every criterion share it.
    pub rank: u32,
    pub shared: bool,
    pub participant: Seat,
    pub points: f64,
    /// Each tie-break of the event's order under the name it was asked by (`BH/C1`,
    /// `buchholz`…); `null` when the player has no value (no rated opponent for ARO), which
    /// ranks after every value.
    #[schema(value_type = HashMap<String, Option<f64>>)]
    pub tiebreaks: TiebreakValues,
    /// Games played over the board (forfeits excluded).
    pub games_played: u32,
    /// FIDE "WIN": rounds won with or without playing (games won, forfeit wins, full-point
    /// byes).
    pub wins: u32,
    /// FIDE "WON": games won over the board.
    pub games_won: u32,
    /// FIDE "SB" by the event's text of C.07: in a Swiss, unplayed rounds against a dummy; in
    /// a round robin, forfeits as games against the scheduled opponent.
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
    /// FIDE "BH": the opponents' adjusted scores; own unplayed rounds count a dummy.
    pub buchholz: f64,
    /// FIDE "BH/C1": less the least significant element (voluntarily unplayed first).
    pub buchholz_cut1: f64,
    /// FIDE "BH/C2".
    pub buchholz_cut2: f64,
    /// FIDE "BH/M1".
    pub median_buchholz: f64,
    /// FIDE "PS": the running scores summed.
    pub progressive: f64,
    /// FIDE "BPG": games played over the board with black.
    pub games_with_black: u32,
    /// FIDE "ARO/C1": average rating of the opponents met over the board, less the lowest
    /// (0: none).
    pub aro_cut1: u32,
    /// FIDE "KS": points against the opponents with at least half the points possible.
    pub koya: f64,
    /// The K factor of the rating change (B.02 8.3.3); null for an unrated player.
    pub k_factor: Option<u32>,
    /// The FIDE rating change from this event's games (B.02: K × the sum of W − We over the
    /// games played against rated opponents); null for an unrated player.
    pub rating_change: Option<f64>,
    /// The tournament performance rating (C.07 art. 10.2, B.02 8.1.1); null without a rated
    /// opponent over the board.
    pub performance_rating: Option<i32>,
    /// The title norms this event meets for the player (B.01; see `GET .../norms`).
    pub norms: Vec<Norm>,
}

/// The standings of an event. Titled `EventStandings` in the document: a client generator that
/// names a type and its local variable after the schema (openapi-python-client) would give
/// the field `standings` and the whole object one name.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(title = "EventStandings")]
#[schema(example = json!({"event_id": 1, "tiebreaks": ["direct_encounter", "wins", "sonneborn_berger"], "tiebreak_rules": "2026", "unrated_rating": null, "notes": [], "standings": []}))]
pub struct Standings {
    pub event_id: i64,
    /// The tie-breaks applied, in order, by the names they were asked by.
    pub tiebreaks: Vec<String>,
    /// The text of C.07 the tie-breaks follow.
    pub tiebreak_rules: TiebreakRules,
    /// The rating unrated players count with in rating-based tie-breaks (null: left out).
    pub unrated_rating: Option<i32>,
    /// What the standings left out, and why (unrated opponents in rating averages).
    pub notes: Vec<String>,
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
    pub tiebreaks: Vec<AskedTiebreak>,
    pub rules: TiebreakRules,
    pub unrated_rating: Option<i32>,
    /// The event's final round: planned (Swiss `rounds`) or scheduled; 0 when unknown.
    pub final_round: u32,
    pub start_date: Option<NaiveDate>,
    ratings: Vec<Option<i32>>,
    numbers: Vec<Option<u32>>,
}

impl Scoresheet {
    /// The section as the tie-breaks see it.
    pub fn section(&self) -> Section<'_> {
        Section {
            games: &self.games,
            byes: &self.byes,
            ratings: &self.ratings,
            pairing_numbers: &self.numbers,
            predetermined: self.format != FORMAT_SWISS,
            rules: self.rules,
            unrated_rating: self.unrated_rating,
            final_round: self.final_round,
        }
    }
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
    let all_games = games::all(conn, event_id)?;
    let scheduled = all_games.iter().map(|g| g.round).max().unwrap_or(0);
    let mut scored = Vec::new();
    for g in all_games.into_iter().filter(|g| Some(g.round) != draft) {
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
                allocated: b.kind == "pairing",
            })
        })
        .collect();
    let final_round = if event.format == FORMAT_SWISS {
        event
            .settings
            .get("rounds")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0) as u32
    } else {
        scheduled
    };
    Ok(Scoresheet {
        format: event.format.clone(),
        ratings: players.iter().map(|p| p.rating).collect(),
        numbers: players.iter().map(|p| p.pairing_number).collect(),
        players,
        games: scored,
        byes,
        tiebreaks: tiebreaks(&event.format, &event.settings),
        rules: tiebreak_rules(&event.settings, event.start_date),
        unrated_rating: unrated_rating(&event.settings),
        final_round,
        start_date: event.start_date,
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
/// Sonneborn-Berger; Swiss events: modified median, Solkoff, cumulative) by the event's text
/// of C.07, each player's rating change, performance and norms, as JSON or CSV.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/standings", tag = "results",
    params(("event_id" = i64, Path, description = "Event id"), FormatQuery),
    responses(
        (status = 200, description = "JSON, or CSV with `?format=csv` or `Accept: text/csv` (columns: Rank,No,Name,Rating,Points, then the tie-breaks in order, then K,Rtg+/-,TPR)", content(
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
    let (sheet, table) = store
        .read(move |conn| {
            let sheet = scoresheet(conn, event_id)?;
            let table = standing_rows(&sheet);
            Ok((sheet, table))
        })
        .await?;
    let printed: Vec<&str> = table.printed.iter().map(String::as_str).collect();
    if wants_csv {
        return Ok(csv_cached(
            &req,
            standings_csv(&sheet.tiebreaks, &table.rows, &printed),
        ));
    }
    json_cached(
        &req,
        &Standings {
            event_id,
            tiebreaks: sheet.tiebreaks.iter().map(|t| t.name.clone()).collect(),
            tiebreak_rules: sheet.rules,
            unrated_rating: sheet.unrated_rating,
            notes: table.notes,
            standings: table.rows,
        },
    )
}

/// The standings of a scoresheet: its rows in order, each row's printed position (`3`,
/// `3-4`), and what the standings left out.
pub(crate) struct Table {
    pub rows: Vec<StandingRow>,
    pub printed: Vec<String>,
    pub notes: Vec<String>,
}

/// Each player's rating change (B.02, the event's start date chooses the text), indexed by
/// player; `None` for the unrated.
pub(crate) fn rating_changes(sheet: &Scoresheet) -> Vec<Option<(RatingChange, Vec<u32>)>> {
    let rules = RatingRules::for_start(sheet.start_date);
    let year = event_year(sheet.start_date);
    rated_games(sheet.players.len(), &sheet.games, &sheet.ratings)
        .into_iter()
        .zip(&sheet.players)
        .map(|(list, p)| {
            let own = p.rating.filter(|&r| r > 0)?;
            let k = match p.k_factor {
                Some(k) => KFactor::Given(k),
                None => KFactor::Derived {
                    birth_year: p.birth_year,
                },
            };
            let games: Vec<_> = list.iter().map(|(_, g)| *g).collect();
            let rounds = list.iter().map(|(r, _)| *r).collect();
            Some((rating_change(own, &games, k, year, rules), rounds))
        })
        .collect()
}

/// Each player's title norm checks (B.01), indexed by player.
pub(crate) fn norm_checks(sheet: &Scoresheet) -> Vec<Vec<NormCheck>> {
    let players: Vec<NormPlayer> = sheet
        .players
        .iter()
        .map(|p| NormPlayer {
            rating: p.rating,
            title: p.title,
            federation: p.federation.clone(),
            woman: p.sex.map(|s| s == Sex::Female),
        })
        .collect();
    norms::inputs(&players, &sheet.games, &sheet.byes)
        .iter()
        .map(norms::check_all)
        .collect()
}

/// The standings rows of a scoresheet.
pub(crate) fn standing_rows(sheet: &Scoresheet) -> Table {
    let section = sheet.section();
    let n = sheet.players.len();
    let standing = scoring::standings_of(n, &section, &sheet.tiebreaks);
    let positions = scoring::positions(n, &standing);
    let fide = FideTiebreaks::new(n, section);
    let tpr = fide.values(&Tiebreak::plain(Code::TPR));
    let changes = rating_changes(sheet);
    let norms = norm_checks(sheet);
    let mut notes = Vec::new();
    if sheet.unrated_rating.is_none()
        && sheet
            .tiebreaks
            .iter()
            .any(|t| t.tiebreak.code.rating_based())
    {
        let left_out = fide.unrated_left_out();
        let affected: Vec<String> = (0..n)
            .filter(|&p| left_out[p] > 0)
            .map(|p| player_label(&sheet.players[p]))
            .collect();
        if !affected.is_empty() {
            let unrated: Vec<String> = (0..n)
                .filter(|&p| sheet.players[p].rating.is_none_or(|r| r <= 0))
                .map(|p| player_label(&sheet.players[p]))
                .collect();
            notes.push(format!(
                "{}: unrated opponents are left out of the rating averages of {} (unrated: {}). \
                 C.07 art. 10 drops rating-based tie-breaks when unrated players take part, \
                 unless the rules give them a rating: set settings.unrated_rating.",
                sheet
                    .tiebreaks
                    .iter()
                    .filter(|t| t.tiebreak.code.rating_based())
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                affected.join(", "),
                unrated.join(", ")
            ));
        }
    }
    // the printed position of each row, in row order
    let printed: Vec<String> = standing
        .iter()
        .map(|s| positions[s.player].clone())
        .collect();
    let rows = standing
        .iter()
        .map(|s| {
            let change = changes[s.player].as_ref();
            StandingRow {
                rank: s.rank,
                shared: s.shared,
                participant: seat(&sheet.players[s.player]),
                points: s.half_points as f64 / 2.0,
                tiebreaks: TiebreakValues(
                    sheet
                        .tiebreaks
                        .iter()
                        .zip(&s.values)
                        .map(|(t, v)| {
                            let unit = scoring::unit(t.tiebreak.code) as f64;
                            (t.name.clone(), v.map(|x| x as f64 / unit))
                        })
                        .collect(),
                ),
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
                k_factor: change.map(|c| c.0.k),
                rating_change: change.map(|c| c.0.total as f64 / 100.0),
                performance_rating: tpr[s.player].map(|v| v as i32),
                norms: norms[s.player]
                    .iter()
                    .filter(|c| c.met)
                    .map(|c| c.norm)
                    .collect(),
            }
        })
        .collect::<Vec<_>>();
    Table {
        rows,
        printed,
        notes,
    }
}

/// A player as the notes name them: `Name (3)`.
fn player_label(p: &Participant) -> String {
    match p.pairing_number {
        Some(n) => format!("{} ({n})", p.name),
        None => p.name.clone(),
    }
}

/// A tie-break's column title: our names as words, codes as asked.
pub(crate) fn tiebreak_title(t: &AskedTiebreak) -> &str {
    match t.name.as_str() {
        "direct_encounter" => "Direct encounter",
        "wins" => "Wins",
        "games_won" => "Games won",
        "sonneborn_berger" => "Sonneborn-Berger",
        "games_played" => "Games played",
        "solkoff" => "Solkoff",
        "modified_median" => "Modified median",
        "cumulative" => "Cumulative",
        "buchholz" => "Buchholz",
        "buchholz_cut1" => "Buchholz cut-1",
        "buchholz_cut2" => "Buchholz cut-2",
        "median_buchholz" => "Median Buchholz",
        "progressive" => "Progressive",
        "games_with_black" => "Games with black",
        "aro_cut1" => "ARO cut-1",
        "koya" => "Koya",
        code => code,
    }
}

/// The `i`th tie-break of a row as printed (empty when the player has none).
pub(crate) fn tiebreak_value(i: usize, r: &StandingRow) -> String {
    r.tiebreaks
        .0
        .get(i)
        .and_then(|(_, v)| *v)
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// `Rank,No,Name,Rating,Points`, one column per tie-break in the event's order, then
/// `K,Rtg+/-,TPR`; `printed` holds each row's position (`3`, or `3-4` when shared).
fn standings_csv(tiebreaks: &[AskedTiebreak], rows: &[StandingRow], printed: &[&str]) -> String {
    let mut out = String::from("Rank,No,Name,Rating,Points");
    for t in tiebreaks {
        out.push(',');
        out.push_str(&csv_field(tiebreak_title(t)));
    }
    out.push_str(",K,Rtg+/-,TPR\n");
    let opt = |v: Option<String>| v.unwrap_or_default();
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
        for i in 0..tiebreaks.len() {
            out.push_str(&format!(",{}", tiebreak_value(i, r)));
        }
        out.push_str(&format!(
            ",{},{},{}\n",
            opt(r.k_factor.map(|k| k.to_string())),
            opt(r.rating_change.map(|c| c.to_string())),
            opt(r.performance_rating.map(|p| p.to_string()))
        ));
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
    let grid = scoring::crosstable(sheet.players.len(), &sheet.section(), &sheet.tiebreaks);
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
    let standing = scoring::standings_of(sheet.players.len(), &sheet.section(), &sheet.tiebreaks);
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
