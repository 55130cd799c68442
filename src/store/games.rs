//! Games and byes: the schedule's rows and their results.

use rusqlite::{params, Connection};

use crate::error::ApiResult;

/// A game as stored, with its round number.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: i64,
    pub round: u32,
    pub board: u32,
    pub white_id: i64,
    pub black_id: i64,
    pub result: Option<String>,
}

/// A bye as stored, with its round number.
#[derive(Debug, Clone, PartialEq)]
pub struct ByeRow {
    pub round: u32,
    pub participant_id: i64,
    pub points: f64,
    /// `pairing`, `requested`, `absent` or `bye` (a round robin's).
    pub kind: String,
}

pub fn insert(
    conn: &Connection,
    round_id: i64,
    board: u32,
    white_id: i64,
    black_id: i64,
) -> ApiResult<i64> {
    conn.execute(
        "INSERT INTO games (round_id, board, white_id, black_id) VALUES (?1, ?2, ?3, ?4)",
        params![round_id, board, white_id, black_id],
    )?;
    Ok(conn.last_insert_rowid())
}

/// A round robin's bye (kind `bye`).
pub fn insert_bye(
    conn: &Connection,
    round_id: i64,
    participant_id: i64,
    points: f64,
) -> ApiResult<()> {
    insert_bye_of_kind(conn, round_id, participant_id, points, "bye")
}

/// A bye of a given kind: `pairing`, `requested`, `absent` (Swiss) or `bye`.
pub fn insert_bye_of_kind(
    conn: &Connection,
    round_id: i64,
    participant_id: i64,
    points: f64,
    kind: &str,
) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO byes (round_id, participant_id, points, kind) VALUES (?1, ?2, ?3, ?4)",
        params![round_id, participant_id, points, kind],
    )?;
    Ok(())
}

const COLUMNS: &str = "g.id, r.number, g.board, g.white_id, g.black_id, g.result";

fn from_row(r: &rusqlite::Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        round: r.get(1)?,
        board: r.get(2)?,
        white_id: r.get(3)?,
        black_id: r.get(4)?,
        result: r.get(5)?,
    })
}

/// Every game of the event, by round and board.
pub fn all(conn: &Connection, event_id: i64) -> ApiResult<Vec<GameRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE r.event_id = ?1 ORDER BY r.number, g.board"
    ))?;
    let rows = stmt.query_map([event_id], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The games of one round, by board.
pub fn of_round(conn: &Connection, round_id: i64) -> ApiResult<Vec<GameRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE g.round_id = ?1 ORDER BY g.board"
    ))?;
    let rows = stmt.query_map([round_id], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether the participant has a game or a bye in the round.
pub fn plays_in(conn: &Connection, round_id: i64, participant_id: i64) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM games WHERE round_id = ?1 AND (white_id = ?2 OR black_id = ?2))
             OR EXISTS (SELECT 1 FROM byes WHERE round_id = ?1 AND participant_id = ?2)",
        params![round_id, participant_id],
        |r| r.get(0),
    )?)
}

/// Every bye of the event's published rounds, by round (a draft's byes do not score yet).
pub fn all_byes(conn: &Connection, event_id: i64) -> ApiResult<Vec<ByeRow>> {
    let mut stmt = conn.prepare(
        "SELECT r.number, b.participant_id, b.points, b.kind FROM byes b JOIN rounds r ON r.id = b.round_id
         WHERE r.event_id = ?1 AND r.status = 'published' ORDER BY r.number, b.participant_id",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok(ByeRow {
            round: r.get(0)?,
            participant_id: r.get(1)?,
            points: r.get(2)?,
            kind: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn count_results(conn: &Connection, event_id: i64) -> ApiResult<u64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE r.event_id = ?1 AND g.result IS NOT NULL",
        [event_id],
        |r| r.get::<_, i64>(0),
    )? as u64)
}

pub fn set_result(
    conn: &Connection,
    game_id: i64,
    result: &str,
    by: &str,
    now: &str,
) -> ApiResult<()> {
    conn.prepare_cached(
        "UPDATE games SET result = ?2, result_by = ?3, result_at = ?4 WHERE id = ?1",
    )?
    .execute(params![game_id, result, by, now])?;
    Ok(())
}

/// A game a batch of results may name, with what entering a result needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultTarget {
    pub game: GameRow,
    /// Its round is a draft (results wait for publication).
    pub draft: bool,
    /// The players' pairing numbers (CSV lines name games by them).
    pub white_number: Option<u32>,
    pub black_number: Option<u32>,
}

/// In one query, the event's games in the `rounds` (numbers) and with the `ids` a batch of
/// results names: a request of thousands of results reads the database once.
pub fn named_in_results(
    conn: &Connection,
    event_id: i64,
    rounds: &[u32],
    ids: &[i64],
) -> ApiResult<Vec<ResultTarget>> {
    let rounds = serde_json::json!(rounds).to_string();
    let ids = serde_json::json!(ids).to_string();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, r.status = 'draft', w.pairing_number, b.pairing_number
         FROM games g JOIN rounds r ON r.id = g.round_id
              JOIN participants w ON w.id = g.white_id
              JOIN participants b ON b.id = g.black_id
         WHERE r.event_id = ?1
           AND (r.number IN (SELECT value FROM json_each(?2))
                OR g.id IN (SELECT value FROM json_each(?3)))"
    ))?;
    let rows = stmt.query_map(params![event_id, rounds, ids], |r| {
        Ok(ResultTarget {
            game: from_row(r)?,
            draft: r.get(6)?,
            white_number: r.get(7)?,
            black_number: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One participant's games in the event's published rounds, by round.
pub fn of_participant(
    conn: &Connection,
    event_id: i64,
    participant_id: i64,
) -> ApiResult<Vec<GameRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE r.event_id = ?1 AND r.status = 'published' AND (g.white_id = ?2 OR g.black_id = ?2)
         ORDER BY r.number, g.board"
    ))?;
    let rows = stmt.query_map(params![event_id, participant_id], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One participant's byes in the event's published rounds: (round, points, kind), by round.
pub fn byes_of_participant(
    conn: &Connection,
    event_id: i64,
    participant_id: i64,
) -> ApiResult<Vec<(u32, f64, String)>> {
    let mut stmt = conn.prepare(
        "SELECT r.number, b.points, b.kind FROM byes b JOIN rounds r ON r.id = b.round_id
         WHERE r.event_id = ?1 AND r.status = 'published' AND b.participant_id = ?2
         ORDER BY r.number",
    )?;
    let rows = stmt.query_map(params![event_id, participant_id], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
