//! Rounds, with their games and byes as served.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::domain::{Bye, Game, Round, RoundStatus, RoundSummary, Seat};
use crate::error::{ApiError, ApiResult};

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
    let s = match status {
        RoundStatus::Draft => "draft",
        RoundStatus::Published => "published",
    };
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

fn seats(conn: &Connection, event_id: i64) -> ApiResult<HashMap<i64, Seat>> {
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

/// The round with its games (by board) and byes, or a 404.
pub fn get(conn: &Connection, event_id: i64, number: u32) -> ApiResult<Round> {
    let (round_id, status): (i64, String) = conn
        .query_row(
            "SELECT id, status FROM rounds WHERE event_id = ?1 AND number = ?2",
            params![event_id, number],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("event {event_id} has no round {number}")))?;
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
            teams: None,
        });
    }
    crate::store::teams::attach_to_games(conn, event_id, round_id, &mut games)?;
    let mut stmt = conn.prepare(
        "SELECT participant_id, points FROM byes WHERE round_id = ?1 ORDER BY participant_id",
    )?;
    let rows = stmt.query_map([round_id], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?))
    })?;
    let mut byes = Vec::new();
    for row in rows {
        let (pid, points) = row?;
        byes.push(Bye {
            participant: seat(pid)?,
            points,
        });
    }
    byes.sort_by_key(|b| b.participant.pairing_number);
    Ok(Round {
        number,
        status: status_of(&status),
        games,
        byes,
    })
}
