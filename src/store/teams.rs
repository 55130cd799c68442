//! Teams with ordered members.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::domain::{Game, GameTeams, TeamSide};
use crate::engine::chess::hilton::team_letter;
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

pub fn count(conn: &Connection, event_id: i64) -> ApiResult<u64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM teams WHERE event_id = ?1",
        [event_id],
        |r| r.get::<_, i64>(0),
    )? as u64)
}

/// A page of the event's teams, in the order of [`all`].
pub fn list(conn: &Connection, event_id: i64, limit: u32, offset: u64) -> ApiResult<Vec<TeamRow>> {
    let mut stmt = conn.prepare(
        "SELECT id, name, number FROM teams WHERE event_id = ?1
         ORDER BY number IS NULL, number, id LIMIT ?2 OFFSET ?3",
    )?;
    let rows = stmt.query_map(params![event_id, limit, offset as i64], |r| {
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

/// Member (board, participant id) pairs of a team, in board order.
pub fn member_boards(conn: &Connection, team_id: i64) -> ApiResult<Vec<(u32, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT team_board, id FROM participants WHERE team_id = ?1 ORDER BY team_board",
    )?;
    let rows = stmt.query_map([team_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Participants of the event in no team (entered through the participants endpoints).
pub fn teamless(conn: &Connection, event_id: i64) -> ApiResult<Vec<(i64, String)>> {
    let mut stmt = conn.prepare(
        "SELECT id, name FROM participants WHERE event_id = ?1 AND team_id IS NULL ORDER BY id",
    )?;
    let rows = stmt.query_map([event_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every team member of the event: participant id -> their team and board.
pub fn sides(conn: &Connection, event_id: i64) -> ApiResult<HashMap<i64, TeamSide>> {
    let mut stmt = conn.prepare(
        "SELECT p.id, p.team_board, t.id, t.name, t.number
         FROM participants p JOIN teams t ON t.id = p.team_id WHERE p.event_id = ?1",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        let number: Option<u32> = r.get(4)?;
        Ok((
            r.get::<_, i64>(0)?,
            TeamSide {
                id: r.get(2)?,
                name: r.get(3)?,
                number,
                letter: number.map(|n| team_letter(n as usize - 1)),
                board: r.get(1)?,
            },
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A game of a team event: `board` is its number within the round, `team_board` the board of
/// the table it belongs to.
pub fn insert_game(
    conn: &Connection,
    round_id: i64,
    board: u32,
    team_board: u32,
    white_id: i64,
    black_id: i64,
) -> ApiResult<i64> {
    conn.execute(
        "INSERT INTO games (round_id, board, team_board, white_id, black_id)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![round_id, board, team_board, white_id, black_id],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Fills in the team side of the games of a round of a team event (games without a table
/// board, i.e. of other formats, stay as they are).
pub fn attach_to_games(
    conn: &Connection,
    event_id: i64,
    round_id: i64,
    games: &mut [Game],
) -> ApiResult<()> {
    let mut stmt = conn.prepare(
        "SELECT id, team_board FROM games WHERE round_id = ?1 AND team_board IS NOT NULL",
    )?;
    let boards: HashMap<i64, u32> = stmt
        .query_map([round_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    if boards.is_empty() {
        return Ok(());
    }
    let sides = sides(conn, event_id)?;
    for g in games.iter_mut() {
        if let (Some(&team_board), Some(white), Some(black)) = (
            boards.get(&g.id),
            sides.get(&g.white.id),
            sides.get(&g.black.id),
        ) {
            g.teams = Some(GameTeams {
                team_board,
                white: white.clone(),
                black: black.clone(),
            });
        }
    }
    Ok(())
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
