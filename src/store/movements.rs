//! The movement chosen for a bridge pairs event.

use rusqlite::{params, Connection, OptionalExtension};

use crate::engine::bridge::movement::model::Movement;
use crate::error::{ApiError, ApiResult};

/// Stores (or replaces) the event's movement.
pub fn put(
    conn: &Connection,
    event_id: i64,
    kind: &str,
    params_json: &str,
    movement: &Movement,
    now: &str,
) -> ApiResult<()> {
    let json = serde_json::to_string(movement)
        .map_err(|e| ApiError::Internal(format!("movement: {e}")))?;
    conn.execute(
        "INSERT INTO movements (event_id, kind, params, movement, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (event_id) DO UPDATE SET kind = ?2, params = ?3, movement = ?4, updated_at = ?5",
        params![event_id, kind, params_json, json, now],
    )?;
    Ok(())
}

/// The event's movement, if one is chosen.
pub fn find(conn: &Connection, event_id: i64) -> ApiResult<Option<Movement>> {
    let json: Option<String> = conn
        .query_row(
            "SELECT movement FROM movements WHERE event_id = ?1",
            [event_id],
            |r| r.get(0),
        )
        .optional()?;
    json.map(|j| {
        serde_json::from_str(&j).map_err(|e| ApiError::Internal(format!("stored movement: {e}")))
    })
    .transpose()
}

/// The event's movement, or a 404.
pub fn get(conn: &Connection, event_id: i64) -> ApiResult<Movement> {
    find(conn, event_id)?
        .ok_or_else(|| ApiError::not_found(format!("event {event_id} has no movement yet")))
}
