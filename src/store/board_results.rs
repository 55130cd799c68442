//! The results of a bridge pairs session (one row per board played at a table in a round) and
//! its hand records (one deal per board). Reads are one query per event, never one per row.

use rusqlite::{params, Connection, OptionalExtension};

use crate::engine::bridge::analysis::DdTable;
use crate::engine::bridge::scoring::{Deal, Seat, Vulnerability};
use crate::engine::bridge::traveller::Outcome;
use crate::error::{ApiError, ApiResult};

/// One stored result: where it was played, who sat there, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    /// The movement's pair numbers at the NS and EW seats.
    pub ns_pair: u32,
    pub ew_pair: u32,
    pub outcome: Outcome,
    /// `admin` or `scorer:<token id>`.
    pub entered_by: String,
    pub entered_at: String,
}

fn seat_str(s: Seat) -> &'static str {
    match s {
        Seat::N => "N",
        Seat::E => "E",
        Seat::S => "S",
        Seat::W => "W",
    }
}

fn seat_of(s: &str) -> Option<Seat> {
    match s {
        "N" => Some(Seat::N),
        "E" => Some(Seat::E),
        "S" => Some(Seat::S),
        "W" => Some(Seat::W),
        _ => None,
    }
}

fn vul_str(v: Vulnerability) -> &'static str {
    match v {
        Vulnerability::None => "none",
        Vulnerability::Ns => "ns",
        Vulnerability::Ew => "ew",
        Vulnerability::Both => "both",
    }
}

fn vul_of(s: &str) -> Option<Vulnerability> {
    match s {
        "none" => Some(Vulnerability::None),
        "ns" => Some(Vulnerability::Ns),
        "ew" => Some(Vulnerability::Ew),
        "both" => Some(Vulnerability::Both),
        _ => None,
    }
}

fn corrupt(what: &str, value: &str) -> ApiError {
    ApiError::Internal(format!("stored {what} {value:?} is not valid"))
}

/// Every result of the event, by board, round and table.
pub fn all(conn: &Connection, event_id: i64) -> ApiResult<Vec<BoardResult>> {
    let mut stmt = conn.prepare_cached(
        "SELECT round, table_no, board, ns_pair, ew_pair, contract, declarer, tricks, lead,
                ns_score, ew_score, adjusted, entered_by, entered_at
         FROM board_results WHERE event_id = ?1 ORDER BY board, round, table_no",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok((
            BoardResult {
                round: r.get(0)?,
                table: r.get(1)?,
                board: r.get(2)?,
                ns_pair: r.get(3)?,
                ew_pair: r.get(4)?,
                outcome: Outcome {
                    contract: r.get(5)?,
                    declarer: None,
                    tricks: r.get(7)?,
                    lead: r.get(8)?,
                    ns_score: r.get(9)?,
                    ew_score: r.get(10)?,
                    adjusted: r.get(11)?,
                },
                entered_by: r.get(12)?,
                entered_at: r.get(13)?,
            },
            r.get::<_, Option<String>>(6)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (mut result, declarer) = row?;
        result.outcome.declarer = match declarer {
            Some(d) => Some(seat_of(&d).ok_or_else(|| corrupt("declarer", &d))?),
            None => None,
        };
        out.push(result);
    }
    Ok(out)
}

/// Stores a result, replacing what was stored for the same round, table and board.
pub fn put(conn: &Connection, event_id: i64, r: &BoardResult) -> ApiResult<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO board_results (event_id, round, table_no, board, ns_pair, ew_pair, contract,
             declarer, tricks, lead, ns_score, ew_score, adjusted, entered_by, entered_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
         ON CONFLICT (event_id, round, table_no, board) DO UPDATE SET
             ns_pair = ?5, ew_pair = ?6, contract = ?7, declarer = ?8, tricks = ?9, lead = ?10,
             ns_score = ?11, ew_score = ?12, adjusted = ?13, entered_by = ?14, entered_at = ?15",
    )?;
    let o = &r.outcome;
    stmt.execute(params![
        event_id,
        r.round,
        r.table,
        r.board,
        r.ns_pair,
        r.ew_pair,
        o.contract,
        o.declarer.map(seat_str),
        o.tricks,
        o.lead,
        o.ns_score,
        o.ew_score,
        o.adjusted,
        r.entered_by,
        r.entered_at,
    ])?;
    Ok(())
}

/// Replaces the event's hand records with `deals`. A deal already analysed (in this event or
/// another: the same four hands) keeps its double-dummy table; the others wait for the
/// analysis worker ([`pending`]).
pub fn put_deals(conn: &Connection, event_id: i64, deals: &[Deal]) -> ApiResult<()> {
    let mut known = conn.prepare_cached(
        "SELECT dd_tricks FROM deals
         WHERE north = ?1 AND east = ?2 AND south = ?3 AND west = ?4 AND dd_tricks IS NOT NULL
         LIMIT 1",
    )?;
    let mut analysed: Vec<Option<String>> = Vec::with_capacity(deals.len());
    for d in deals {
        let found: Option<String> = known
            .query_row(
                params![d.hands[0], d.hands[1], d.hands[2], d.hands[3]],
                |r| r.get(0),
            )
            .optional()?;
        analysed.push(found);
    }
    conn.execute("DELETE FROM deals WHERE event_id = ?1", [event_id])?;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO deals (event_id, board, dealer, vulnerability, north, east, south, west,
             dd_tricks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for (d, dd) in deals.iter().zip(analysed) {
        stmt.execute(params![
            event_id,
            d.board,
            seat_str(d.dealer),
            vul_str(d.vulnerability),
            d.hands[0],
            d.hands[1],
            d.hands[2],
            d.hands[3],
            dd,
        ])?;
    }
    Ok(())
}

/// A deal waiting for its double-dummy analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDeal {
    pub event_id: i64,
    pub board: u32,
    /// N, E, S, W.
    pub hands: [String; 4],
}

/// Up to `limit` deals without an analysis, oldest event first.
pub fn pending(conn: &Connection, limit: usize) -> ApiResult<Vec<PendingDeal>> {
    let mut stmt = conn.prepare_cached(
        "SELECT event_id, board, north, east, south, west FROM deals
         WHERE dd_tricks IS NULL ORDER BY event_id, board LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        Ok(PendingDeal {
            event_id: r.get(0)?,
            board: r.get(1)?,
            hands: [r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?],
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores the analysis of a pending deal, if the board still holds those hands (the hand
/// records may have been replaced while the solver ran). Returns whether it was stored.
pub fn set_analysis(conn: &Connection, deal: &PendingDeal, table: &DdTable) -> ApiResult<bool> {
    let changed = conn.execute(
        "UPDATE deals SET dd_tricks = ?7
         WHERE event_id = ?1 AND board = ?2 AND north = ?3 AND east = ?4 AND south = ?5
           AND west = ?6 AND dd_tricks IS NULL",
        params![
            deal.event_id,
            deal.board,
            deal.hands[0],
            deal.hands[1],
            deal.hands[2],
            deal.hands[3],
            table.to_pbn()
        ],
    )?;
    Ok(changed > 0)
}

/// The NS score of a stored played result, rescored (a hand record changed the board's
/// vulnerability).
pub fn set_ns_score(
    conn: &Connection,
    event_id: i64,
    r: &BoardResult,
    ns_score: i32,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE board_results SET ns_score = ?5
         WHERE event_id = ?1 AND round = ?2 AND table_no = ?3 AND board = ?4",
        params![event_id, r.round, r.table, r.board, ns_score],
    )?;
    Ok(())
}

/// A hand record with its double-dummy table (None while the analysis is pending).
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysedDeal {
    pub deal: Deal,
    pub dd: Option<DdTable>,
}

/// The event's hand records with their analyses, by board. A stored table that does not read
/// (an imported document's) counts as pending.
pub fn analysed_deals(conn: &Connection, event_id: i64) -> ApiResult<Vec<AnalysedDeal>> {
    let mut stmt = conn
        .prepare_cached("SELECT board, dd_tricks FROM deals WHERE event_id = ?1 ORDER BY board")?;
    let tables: std::collections::HashMap<u32, Option<String>> = stmt
        .query_map([event_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(deals(conn, event_id)?
        .into_iter()
        .map(|deal| {
            let dd = tables
                .get(&deal.board)
                .and_then(|t| t.as_deref())
                .and_then(DdTable::from_pbn);
            AnalysedDeal { deal, dd }
        })
        .collect())
}

/// The event's hand records, by board.
pub fn deals(conn: &Connection, event_id: i64) -> ApiResult<Vec<Deal>> {
    let mut stmt = conn.prepare_cached(
        "SELECT board, dealer, vulnerability, north, east, south, west
         FROM deals WHERE event_id = ?1 ORDER BY board",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            [r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?],
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (board, dealer, vul, hands) = row?;
        out.push(Deal {
            board,
            dealer: seat_of(&dealer).ok_or_else(|| corrupt("dealer", &dealer))?,
            vulnerability: vul_of(&vul).ok_or_else(|| corrupt("vulnerability", &vul))?,
            hands,
        });
    }
    Ok(out)
}
