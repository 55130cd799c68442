//! Teams with ordered members.

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::{ApiError, ApiResult};

/// A team as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamRow {
    pub id: i64,
    pub name: String,
    /// 1 = team A, once lots are drawn.
    pub number: Option<u32>,
}

pub fn insert(conn: &Connection, event_id: i64, name: &str, now: &str) -> ApiResult<i64> {
    conn.execute(
        "INSERT INTO teams (event_id, name, created_at) VALUES (?1, ?2, ?3)",
        params![event_id, name.trim(), now],
    )
    .map_err(|e| {
        if crate::store::is_constraint(&e) {
            ApiError::conflict(format!(
                "a team named {:?} is already in this event",
                name.trim()
            ))
        } else {
            e.into()
        }
    })?;
    Ok(conn.last_insert_rowid())
}

/// Makes participant `participant_id` the member on `board` of the team.
pub fn add_member(
    conn: &Connection,
    team_id: i64,
    participant_id: i64,
    board: u32,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE participants SET team_id = ?1, team_board = ?2 WHERE id = ?3",
        params![team_id, board, participant_id],
    )?;
    Ok(())
}

/// The event's teams, by number once drawn, else by entry order.
pub fn all(conn: &Connection, event_id: i64) -> ApiResult<Vec<TeamRow>> {
    let mut stmt = conn.prepare(
        "SELECT id, name, number FROM teams WHERE event_id = ?1 ORDER BY number IS NULL, number, id",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok(TeamRow {
            id: r.get(0)?,
            name: r.get(1)?,
            number: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn find(conn: &Connection, event_id: i64, team_id: i64) -> ApiResult<Option<TeamRow>> {
    Ok(conn
        .query_row(
            "SELECT id, name, number FROM teams WHERE id = ?1 AND event_id = ?2",
            params![team_id, event_id],
            |r| {
                Ok(TeamRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    number: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Member participant ids of a team in board order.
pub fn members(conn: &Connection, team_id: i64) -> ApiResult<Vec<i64>> {
    let mut stmt =
        conn.prepare("SELECT id FROM participants WHERE team_id = ?1 ORDER BY team_board")?;
    let rows = stmt.query_map([team_id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Numbers the teams: `order[i]` becomes team number i + 1.
pub fn assign_numbers(conn: &Connection, event_id: i64, order: &[i64]) -> ApiResult<()> {
    conn.execute(
        "UPDATE teams SET number = NULL WHERE event_id = ?1",
        [event_id],
    )?;
    let mut stmt = conn.prepare("UPDATE teams SET number = ?2 WHERE id = ?1")?;
    for (i, id) in order.iter().enumerate() {
        stmt.execute(params![id, i as i64 + 1])?;
    }
    Ok(())
}

pub fn delete(conn: &Connection, team_id: i64) -> ApiResult<()> {
    conn.execute("DELETE FROM participants WHERE team_id = ?1", [team_id])?;
    conn.execute("DELETE FROM teams WHERE id = ?1", [team_id])?;
    Ok(())
}
