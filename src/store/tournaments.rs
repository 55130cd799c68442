//! Tournaments: rows of `tournaments` and their credentials, `tournament_tokens` (only a keyed
//! hash of each token is stored, as for an event's tokens).

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::domain::tournament::{NewTournament, Tournament};
use crate::error::{ApiError, ApiResult};
use crate::store::tokens;

const COLUMNS: &str = "t.id, t.name, t.start_date, t.end_date, t.place, t.settings, \
     t.created_at, t.updated_at, \
     (SELECT COUNT(*) FROM events e WHERE e.tournament_id = t.id)";

fn from_row(row: &Row) -> rusqlite::Result<Tournament> {
    let settings: String = row.get(5)?;
    Ok(Tournament {
        id: row.get(0)?,
        name: row.get(1)?,
        start_date: row.get(2)?,
        end_date: row.get(3)?,
        place: row.get(4)?,
        settings: serde_json::from_str(&settings).unwrap_or_else(|_| serde_json::json!({})),
        section_count: row.get(8)?,
        created_at: row.get(6)?,
        updated_at: row.get(7)?,
    })
}

pub fn insert(conn: &Connection, t: &NewTournament, now: &str) -> ApiResult<i64> {
    let settings = t.settings.clone().unwrap_or_else(|| serde_json::json!({}));
    conn.execute(
        "INSERT INTO tournaments (name, start_date, end_date, place, settings, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        params![
            t.name.trim(),
            t.start_date,
            t.end_date,
            t.place.as_deref().map(str::trim),
            settings.to_string(),
            now
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn find(conn: &Connection, id: i64) -> ApiResult<Option<Tournament>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM tournaments t WHERE t.id = ?1"),
            [id],
            from_row,
        )
        .optional()?)
}

/// The tournament, or a 404 naming it.
pub fn get(conn: &Connection, id: i64) -> ApiResult<Tournament> {
    find(conn, id)?.ok_or_else(|| {
        ApiError::not_found(format!("tournament {id} (tournament_id) does not exist"))
    })
}

/// Writes the tournament's fields (checked by the caller).
pub fn update(conn: &Connection, id: i64, t: &Tournament, now: &str) -> ApiResult<()> {
    conn.execute(
        "UPDATE tournaments SET name = ?2, start_date = ?3, end_date = ?4, place = ?5,
         settings = ?6, updated_at = ?7 WHERE id = ?1",
        params![
            id,
            t.name.trim(),
            t.start_date,
            t.end_date,
            t.place.as_deref().map(str::trim),
            t.settings.to_string(),
            now
        ],
    )?;
    Ok(())
}

/// Deletes a tournament and its tokens (its sections are the caller's to refuse).
pub fn delete(conn: &Connection, id: i64) -> ApiResult<()> {
    conn.execute(
        "DELETE FROM tournament_tokens WHERE tournament_id = ?1",
        [id],
    )?;
    let deleted = conn.execute("DELETE FROM tournaments WHERE id = ?1", [id])?;
    if deleted == 0 {
        return Err(ApiError::not_found(format!("no tournament {id}")));
    }
    Ok(())
}

/// Marks the tournament changed.
pub fn touch(conn: &Connection, id: i64, now: &str) -> ApiResult<()> {
    conn.execute(
        "UPDATE tournaments SET updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

pub fn count(conn: &Connection) -> ApiResult<u64> {
    Ok(conn.query_row("SELECT COUNT(*) FROM tournaments", [], |r| {
        r.get::<_, i64>(0)
    })? as u64)
}

/// A page of tournaments by date: the earliest start first (undated ones last), then in the
/// order they were created.
pub fn list(conn: &Connection, limit: u32, offset: u64) -> ApiResult<Vec<Tournament>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM tournaments t
         ORDER BY t.start_date IS NULL, t.start_date, t.id LIMIT ?1 OFFSET ?2"
    ))?;
    let rows = stmt.query_map(params![limit, offset as i64], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Issues the tournament's admin token (the token is never stored, only its keyed hash).
pub fn issue_admin(conn: &Connection, tournament: i64, now: &str) -> ApiResult<String> {
    let token = tokens::generate()?;
    conn.execute(
        "INSERT INTO tournament_tokens (tournament_id, role, token_hash, label, created_at)
         VALUES (?1, 'admin', token_hmac(?2), 'admin', ?3)",
        params![tournament, token, now],
    )?;
    tokens::known::note(&token);
    Ok(token)
}

/// The tournament whose live admin token `token` is, if any.
pub fn lookup(conn: &Connection, token: &str) -> ApiResult<Option<i64>> {
    let found: Option<i64> = conn
        .query_row(
            "SELECT tournament_id FROM tournament_tokens
             WHERE token_hash = token_hmac(?1) AND revoked_at IS NULL",
            [token],
            |r| r.get(0),
        )
        .optional()?;
    if found.is_some() {
        tokens::known::note(token);
    }
    Ok(found)
}
