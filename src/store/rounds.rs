//! Rounds, with their games and byes as served.

use std::collections::{BTreeMap, HashMap};

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use crate::domain::{Bye, Game, Round, RoundStatus, RoundSummary, Seat};
use crate::engine::chess::games::GameResult;
use crate::error::{ApiError, ApiResult};

fn status_str(status: RoundStatus) -> &'static str {
    match status {
        RoundStatus::Draft => "draft",
        RoundStatus::Published => "published",
    }
}

fn status_of(s: &str) -> RoundStatus {
    if s == "draft" {
        RoundStatus::Draft
    } else {
        RoundStatus::Published
    }
}

pub fn insert(
    conn: &Connection,
    event_id: i64,
    number: u32,
    status: RoundStatus,
    now: &str,
) -> ApiResult<i64> {
    let s = status_str(status);
    conn.execute(
        "INSERT INTO rounds (event_id, number, status, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![event_id, number, s, now],
    )
    .map_err(|e| {
        if crate::store::is_constraint(&e) {
            ApiError::conflict(format!("round {number} already exists"))
        } else {
            e.into()
        }
    })?;
    Ok(conn.last_insert_rowid())
}

/// Removes every round of the event with its games and byes.
pub fn delete_all(conn: &Connection, event_id: i64) -> ApiResult<()> {
    conn.execute(
        "DELETE FROM games WHERE round_id IN (SELECT id FROM rounds WHERE event_id = ?1)",
        [event_id],
    )?;
    conn.execute(
        "DELETE FROM byes WHERE round_id IN (SELECT id FROM rounds WHERE event_id = ?1)",
        [event_id],
    )?;
    conn.execute("DELETE FROM rounds WHERE event_id = ?1", [event_id])?;
    Ok(())
}

pub fn count(conn: &Connection, event_id: i64) -> ApiResult<u64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM rounds WHERE event_id = ?1",
        [event_id],
        |r| r.get::<_, i64>(0),
    )? as u64)
}

pub fn list(
    conn: &Connection,
    event_id: i64,
    limit: u32,
    offset: u64,
) -> ApiResult<Vec<RoundSummary>> {
    let mut stmt = conn.prepare(
        "SELECT r.number, r.status,
                (SELECT COUNT(*) FROM games g WHERE g.round_id = r.id),
                (SELECT COUNT(*) FROM games g WHERE g.round_id = r.id AND g.result IS NOT NULL)
         FROM rounds r WHERE r.event_id = ?1 ORDER BY r.number LIMIT ?2 OFFSET ?3",
    )?;
    let rows = stmt.query_map(params![event_id, limit, offset as i64], |r| {
        let status: String = r.get(1)?;
        Ok(RoundSummary {
            number: r.get(0)?,
            status: status_of(&status),
            games: r.get(2)?,
            results_entered: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every participant of the event as shown on a pairing, by id.
pub fn seats(conn: &Connection, event_id: i64) -> ApiResult<HashMap<i64, Seat>> {
    let mut stmt = conn
        .prepare("SELECT id, name, pairing_number, rating FROM participants WHERE event_id = ?1")?;
    let rows = stmt.query_map([event_id], |r| {
        Ok(Seat {
            id: r.get(0)?,
            name: r.get(1)?,
            pairing_number: r.get(2)?,
            rating: r.get(3)?,
        })
    })?;
    let mut map = HashMap::new();
    for seat in rows {
        let seat = seat?;
        map.insert(seat.id, seat);
    }
    Ok(map)
}

/// A round's row: id, status and stored details.
#[derive(Debug, Clone)]
pub struct RoundRow {
    pub id: i64,
    pub number: u32,
    pub status: RoundStatus,
    pub details: Value,
}

/// The round's row, if it exists.
pub fn find(conn: &Connection, event_id: i64, number: u32) -> ApiResult<Option<RoundRow>> {
    let row = conn
        .query_row(
            "SELECT id, status, details FROM rounds WHERE event_id = ?1 AND number = ?2",
            params![event_id, number],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            },
        )
        .optional()?;
    Ok(row.map(|(id, status, details)| RoundRow {
        id,
        number,
        status: status_of(&status),
        details: serde_json::from_str(&details).unwrap_or(Value::Null),
    }))
}

/// The event's published rounds, each with its pairings as one text (games by board, then
/// byes): a round made again gets equal text only when its pairings are the same. (Not the
/// round's id: SQLite gives a deleted last row's id to the next row.)
pub fn published(conn: &Connection, event_id: i64) -> ApiResult<BTreeMap<u32, String>> {
    let mut stmt = conn.prepare(
        "SELECT r.number,
                COALESCE((SELECT group_concat(board || ':' || white_id || '-' || black_id, ',')
                          FROM (SELECT board, white_id, black_id FROM games
                                WHERE round_id = r.id ORDER BY board)), '')
                || ' bye ' ||
                COALESCE((SELECT group_concat(participant_id, ',')
                          FROM (SELECT participant_id FROM byes
                                WHERE round_id = r.id ORDER BY participant_id)), '')
         FROM rounds r WHERE r.event_id = ?1 AND r.status = 'published'",
    )?;
    let rows = stmt.query_map([event_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The highest round number of the event, if any.
pub fn last(conn: &Connection, event_id: i64) -> ApiResult<Option<RoundRow>> {
    let number: Option<u32> = conn.query_row(
        "SELECT MAX(number) FROM rounds WHERE event_id = ?1",
        [event_id],
        |r| r.get(0),
    )?;
    match number {
        Some(n) => find(conn, event_id, n),
        None => Ok(None),
    }
}

pub fn set_status(conn: &Connection, round_id: i64, status: RoundStatus) -> ApiResult<()> {
    conn.execute(
        "UPDATE rounds SET status = ?2 WHERE id = ?1",
        params![round_id, status_str(status)],
    )?;
    Ok(())
}

pub fn set_details(conn: &Connection, round_id: i64, details: &Value) -> ApiResult<()> {
    conn.execute(
        "UPDATE rounds SET details = ?2 WHERE id = ?1",
        params![round_id, details.to_string()],
    )?;
    Ok(())
}

/// Removes the round's games and byes, keeping the round.
pub fn clear(conn: &Connection, round_id: i64) -> ApiResult<()> {
    conn.execute("DELETE FROM games WHERE round_id = ?1", [round_id])?;
    conn.execute("DELETE FROM byes WHERE round_id = ?1", [round_id])?;
    Ok(())
}

/// Removes one round with its games and byes.
pub fn delete(conn: &Connection, round_id: i64) -> ApiResult<()> {
    clear(conn, round_id)?;
    conn.execute("DELETE FROM rounds WHERE id = ?1", [round_id])?;
    Ok(())
}

/// Each participant's points from the rounds before `number` (games and byes).
pub fn scores_before(
    conn: &Connection,
    event_id: i64,
    number: u32,
) -> ApiResult<HashMap<i64, f64>> {
    let mut scores: HashMap<i64, f64> = HashMap::new();
    let mut stmt = conn.prepare(
        "SELECT g.white_id, g.black_id, g.result FROM games g JOIN rounds r ON r.id = g.round_id
         WHERE r.event_id = ?1 AND r.number < ?2 AND g.result IS NOT NULL",
    )?;
    let rows = stmt.query_map(params![event_id, number], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (white, black, result) = row?;
        if let Some(result) = GameResult::parse(&result) {
            let (w, b) = result.half_points();
            *scores.entry(white).or_default() += w as f64 / 2.0;
            *scores.entry(black).or_default() += b as f64 / 2.0;
        }
    }
    let mut stmt = conn.prepare(
        "SELECT b.participant_id, b.points FROM byes b JOIN rounds r ON r.id = b.round_id
         WHERE r.event_id = ?1 AND r.number < ?2",
    )?;
    let rows = stmt.query_map(params![event_id, number], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?))
    })?;
    for row in rows {
        let (pid, points) = row?;
        *scores.entry(pid).or_default() += points;
    }
    Ok(scores)
}

/// The round with its games (by board) and byes, or a 404.
pub fn get(conn: &Connection, event_id: i64, number: u32) -> ApiResult<Round> {
    let row = find(conn, event_id, number)?
        .ok_or_else(|| ApiError::not_found(format!("event {event_id} has no round {number}")))?;
    let round_id = row.id;
    let scores = scores_before(conn, event_id, number)?;
    let score = |id: i64| scores.get(&id).copied().unwrap_or(0.0);
    let seats = seats(conn, event_id)?;
    let seat = |id: i64| {
        seats
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::Internal(format!("game refers to unknown participant {id}")))
    };
    let mut stmt = conn.prepare("SELECT id, board, white_id, black_id, result FROM games WHERE round_id = ?1 ORDER BY board")?;
    let rows = stmt.query_map([round_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, u32>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, Option<String>>(4)?,
        ))
    })?;
    let mut games = Vec::new();
    for row in rows {
        let (id, board, white, black, result) = row?;
        games.push(Game {
            id,
            board,
            white: seat(white)?,
            black: seat(black)?,
            result,
            white_score: score(white),
            black_score: score(black),
            teams: None,
        });
    }
    crate::store::teams::attach_to_games(conn, event_id, round_id, &mut games)?;
    let mut stmt = conn.prepare(
        "SELECT participant_id, points, kind FROM byes WHERE round_id = ?1 ORDER BY participant_id",
    )?;
    let rows = stmt.query_map([round_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, f64>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    let mut byes = Vec::new();
    for row in rows {
        let (pid, points, kind) = row?;
        byes.push(Bye {
            participant: seat(pid)?,
            points,
            kind,
            score: score(pid),
        });
    }
    byes.sort_by_key(|b| b.participant.pairing_number);
    let explanation = row.details.get("explanation").cloned();
    Ok(Round {
        number,
        status: row.status,
        games,
        byes,
        explanation,
    })
}
