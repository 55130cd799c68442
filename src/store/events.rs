//! Events: rows of `events`.

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::domain::{Event, GameKind, Lots, LotsMethod};
use crate::error::{ApiError, ApiResult};

/// An event's rounds: the rounds made (chess) plus the rounds of its movement (bridge pairs,
/// whose rounds are the movement's and have no rows of `rounds`), of its team movement
/// (bridge teams) or drawn (bridge Swiss).
const COLUMNS: &str = "e.id, e.name, e.game, e.format, e.start_date, e.end_date, e.settings, \
     e.lots_method, e.lots_seed, e.lots_drawn_at, e.created_at, e.updated_at, \
     (SELECT COUNT(*) FROM participants p WHERE p.event_id = e.id), \
     (SELECT COUNT(*) FROM rounds r WHERE r.event_id = e.id) \
     + COALESCE((SELECT json_array_length(m.movement, '$.rounds') FROM movements m \
                 WHERE m.event_id = e.id), 0) \
     + COALESCE((SELECT json_array_length(t.movement, '$.rounds') FROM team_schedules t \
                 WHERE t.event_id = e.id), 0) \
     + (SELECT COALESCE(MAX(d.round), 0) FROM swiss_draws d WHERE d.event_id = e.id), \
     e.details, e.tournament_id";

fn from_row(row: &Row) -> rusqlite::Result<Event> {
    let game: String = row.get(2)?;
    let settings: String = row.get(6)?;
    let lots_method: Option<String> = row.get(7)?;
    let lots = match lots_method.as_deref() {
        Some(m) => Some(Lots {
            method: if m == "rating" {
                LotsMethod::Rating
            } else {
                LotsMethod::Random
            },
            seed: row.get::<_, Option<i64>>(8)?.map(|s| s as u64),
            drawn_at: row.get::<_, Option<String>>(9)?.unwrap_or_default(),
        }),
        None => None,
    };
    Ok(Event {
        id: row.get(0)?,
        name: row.get(1)?,
        game: GameKind::parse(&game).unwrap_or(GameKind::Chess),
        format: row.get(3)?,
        start_date: row.get(4)?,
        end_date: row.get(5)?,
        settings: serde_json::from_str(&settings).unwrap_or_else(|_| serde_json::json!({})),
        lots,
        created_at: row.get(10)?,
        updated_at: row.get(11)?,
        participants: row.get(12)?,
        rounds: row.get(13)?,
        details: row
            .get::<_, Option<String>>(14)?
            .and_then(|d| serde_json::from_str(&d).ok()),
        tournament_id: row.get(15)?,
    })
}

/// The fields of an event as they are written.
pub struct EventFields<'a> {
    pub name: &'a str,
    pub game: GameKind,
    pub format: &'a str,
    pub start_date: Option<chrono::NaiveDate>,
    pub end_date: Option<chrono::NaiveDate>,
    pub settings: &'a serde_json::Value,
    /// Place, federation, arbiters, time control (none: unknown).
    pub details: Option<&'a crate::domain::EventDetails>,
}

/// The details as stored: a JSON object, or NULL when there are none.
fn details_text(f: &EventFields) -> Option<String> {
    f.details
        .filter(|d| !d.is_empty())
        .map(|d| serde_json::to_string(d).unwrap_or_default())
}

pub fn insert(conn: &Connection, f: &EventFields, now: &str) -> ApiResult<i64> {
    conn.execute(
        "INSERT INTO events (name, game, format, start_date, end_date, settings, created_at, updated_at, details)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)",
        params![
            f.name,
            f.game.as_str(),
            f.format,
            f.start_date,
            f.end_date,
            f.settings.to_string(),
            now,
            details_text(f)
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn update(conn: &Connection, id: i64, f: &EventFields, now: &str) -> ApiResult<()> {
    conn.execute(
        "UPDATE events SET name = ?2, format = ?3, start_date = ?4, end_date = ?5, settings = ?6,
         updated_at = ?7, details = ?8 WHERE id = ?1",
        params![
            id,
            f.name,
            f.format,
            f.start_date,
            f.end_date,
            f.settings.to_string(),
            now,
            details_text(f)
        ],
    )?;
    Ok(())
}

/// Marks the event changed (its ETag-relevant timestamp).
pub fn touch(conn: &Connection, id: i64, now: &str) -> ApiResult<()> {
    conn.execute(
        "UPDATE events SET updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

pub fn find(conn: &Connection, id: i64) -> ApiResult<Option<Event>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM events e WHERE e.id = ?1"),
            [id],
            from_row,
        )
        .optional()?)
}

/// The event, or a 404.
pub fn get(conn: &Connection, id: i64) -> ApiResult<Event> {
    find(conn, id)?.ok_or_else(|| ApiError::not_found(format!("event {id} does not exist")))
}

/// Makes the event (just created or imported) a section of `tournament`; its `updated_at`
/// stays (an imported section keeps its document's).
pub fn set_tournament(conn: &Connection, id: i64, tournament: i64) -> ApiResult<()> {
    conn.execute(
        "UPDATE events SET tournament_id = ?2 WHERE id = ?1",
        params![id, tournament],
    )?;
    Ok(())
}

/// The sections of `tournament`, in the order they were created.
pub fn of_tournament(conn: &Connection, tournament: i64) -> ApiResult<Vec<Event>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM events e WHERE e.tournament_id = ?1 ORDER BY e.id"
    ))?;
    let rows = stmt.query_map([tournament], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn count(conn: &Connection) -> ApiResult<u64> {
    Ok(conn.query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))? as u64)
}

pub fn list(conn: &Connection, limit: u32, offset: u64) -> ApiResult<Vec<Event>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM events e ORDER BY e.id LIMIT ?1 OFFSET ?2"
    ))?;
    let rows = stmt.query_map(params![limit, offset as i64], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn delete(conn: &Connection, id: i64) -> ApiResult<()> {
    // Games reference participants without cascading; remove the schedule first.
    conn.execute(
        "DELETE FROM games WHERE round_id IN (SELECT id FROM rounds WHERE event_id = ?1)",
        [id],
    )?;
    conn.execute(
        "DELETE FROM byes WHERE round_id IN (SELECT id FROM rounds WHERE event_id = ?1)",
        [id],
    )?;
    conn.execute("DELETE FROM events WHERE id = ?1", [id])?;
    Ok(())
}

pub fn set_lots(
    conn: &Connection,
    id: i64,
    method: LotsMethod,
    seed: Option<u64>,
    now: &str,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE events SET lots_method = ?2, lots_seed = ?3, lots_drawn_at = ?4, updated_at = ?4
         WHERE id = ?1",
        params![id, method.as_str(), seed.map(|s| s as i64), now],
    )?;
    Ok(())
}

/// Replaces the event's settings (e.g. to record the seed a Swiss section chose).
pub fn set_settings(
    conn: &Connection,
    id: i64,
    settings: &serde_json::Value,
    now: &str,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE events SET settings = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, settings.to_string(), now],
    )?;
    Ok(())
}
