//! Bridge match events (sql/0009): a teams event's team movement, the draws of a Swiss event,
//! and match results entered as IMPs or VPs.

use rusqlite::{params, Connection, OptionalExtension};

use crate::engine::bridge::swiss_history::{DrawnBye, DrawnMatch, History};
use crate::engine::bridge::teams::matches::MatchScore;
use crate::engine::bridge::teams::TeamMovement;
use crate::error::{ApiError, ApiResult};

/// The drawn rounds of a bridge Swiss event by number, each with its draw as text (matches
/// and byes), in the shape of [`super::rounds::published`]: a draw is published when made.
pub fn published_draws(
    conn: &Connection,
    event_id: i64,
) -> ApiResult<std::collections::BTreeMap<u32, String>> {
    let mut stmt = conn.prepare(
        "SELECT round, group_concat(home || '-' || COALESCE(away, 'bye'), ',')
         FROM (SELECT round, home, away FROM swiss_draws WHERE event_id = ?1
               ORDER BY round, home, away)
         GROUP BY round",
    )?;
    let rows = stmt.query_map([event_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores (or replaces) the team movement of a teams event.
pub fn put_schedule(
    conn: &Connection,
    event_id: i64,
    movement: &TeamMovement,
    now: &str,
) -> ApiResult<()> {
    let json = serde_json::to_string(movement)
        .map_err(|e| ApiError::Internal(format!("team movement: {e}")))?;
    conn.execute(
        "INSERT INTO team_schedules (event_id, kind, movement, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (event_id) DO UPDATE SET kind = ?2, movement = ?3, updated_at = ?4",
        params![event_id, movement.kind, json, now],
    )?;
    Ok(())
}

/// The team movement of a teams event, if lots have been drawn.
pub fn schedule(conn: &Connection, event_id: i64) -> ApiResult<Option<TeamMovement>> {
    let json: Option<String> = conn
        .query_row(
            "SELECT movement FROM team_schedules WHERE event_id = ?1",
            [event_id],
            |r| r.get(0),
        )
        .optional()?;
    json.map(|j| {
        serde_json::from_str(&j)
            .map_err(|e| ApiError::Internal(format!("stored team movement: {e}")))
    })
    .transpose()
}

/// Whether the event has a schedule of matches (a team movement or a drawn Swiss round).
pub fn has_schedule(conn: &Connection, event_id: i64) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM team_schedules WHERE event_id = ?1)
             OR EXISTS (SELECT 1 FROM swiss_draws WHERE event_id = ?1)",
        [event_id],
        |r| r.get(0),
    )?)
}

/// Whether any result (a board result or an entered match) is stored for the event.
pub fn has_results(conn: &Connection, event_id: i64) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM board_results WHERE event_id = ?1)
             OR EXISTS (SELECT 1 FROM match_results WHERE event_id = ?1)",
        [event_id],
        |r| r.get(0),
    )?)
}

/// The rounds drawn so far of a Swiss event.
pub fn history(conn: &Connection, event_id: i64) -> ApiResult<History> {
    let mut stmt = conn.prepare_cached(
        "SELECT round, table_no, home, away, bye_vps, triangle FROM swiss_draws WHERE event_id = ?1
         ORDER BY round, table_no IS NULL, table_no",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, Option<u32>>(1)?,
            r.get::<_, u32>(2)?,
            r.get::<_, Option<u32>>(3)?,
            r.get::<_, Option<f64>>(4)?,
            r.get::<_, bool>(5)?,
        ))
    })?;
    let mut h = History::default();
    for row in rows {
        match row? {
            (round, Some(table), home, Some(away), _, triangle) => h.matches.push(DrawnMatch {
                round,
                table,
                home,
                away,
                triangle,
            }),
            (round, None, contestant, None, Some(vps), _) => h.byes.push(DrawnBye {
                round,
                contestant,
                vps,
            }),
            (round, ..) => {
                return Err(ApiError::Internal(format!(
                    "stored draw of round {round} is neither a match nor a bye"
                )))
            }
        }
    }
    Ok(h)
}

/// Stores one drawn round.
pub fn put_round(
    conn: &Connection,
    event_id: i64,
    matches: &[DrawnMatch],
    bye: Option<DrawnBye>,
    now: &str,
) -> ApiResult<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO swiss_draws (event_id, round, table_no, home, away, bye_vps, triangle, drawn_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for m in matches {
        stmt.execute(params![
            event_id,
            m.round,
            m.table,
            m.home,
            m.away,
            None::<f64>,
            m.triangle,
            now
        ])?;
    }
    if let Some(b) = bye {
        stmt.execute(params![
            event_id,
            b.round,
            None::<u32>,
            b.contestant,
            None::<u32>,
            b.vps,
            false,
            now
        ])?;
    }
    Ok(())
}

/// Whether any result (a board result or an entered match) of `round` is stored.
pub fn round_has_results(conn: &Connection, event_id: i64, round: u32) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM board_results WHERE event_id = ?1 AND round = ?2)
             OR EXISTS (SELECT 1 FROM match_results WHERE event_id = ?1 AND round = ?2)",
        params![event_id, round],
        |r| r.get(0),
    )?)
}

/// Removes a drawn round (the caller checks it has no results).
pub fn delete_round(conn: &Connection, event_id: i64, round: u32) -> ApiResult<()> {
    conn.execute(
        "DELETE FROM swiss_draws WHERE event_id = ?1 AND round = ?2",
        params![event_id, round],
    )?;
    Ok(())
}

/// A match result as entered, with who entered it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMatch {
    pub round: u32,
    pub boards: Option<u32>,
    pub score: MatchScore,
    pub entered_by: String,
}

/// The match results entered for the event, by round and home.
pub fn entered(conn: &Connection, event_id: i64) -> ApiResult<Vec<StoredMatch>> {
    let mut stmt = conn.prepare_cached(
        "SELECT round, home, away, boards, imps_home, imps_away, vp_home, vp_away, entered_by
         FROM match_results WHERE event_id = ?1 ORDER BY round, home",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok(StoredMatch {
            round: r.get(0)?,
            boards: r.get(3)?,
            score: MatchScore {
                home: r.get(1)?,
                away: r.get(2)?,
                boards: Vec::new(),
                imps_home: r.get::<_, Option<u32>>(4)?.unwrap_or(0),
                imps_away: r.get::<_, Option<u32>>(5)?.unwrap_or(0),
                vp_home: r.get(6)?,
                vp_away: r.get(7)?,
            },
            entered_by: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores (or replaces) a match result. `imps` false: entered as VPs (no IMPs stored).
pub fn put_entered(
    conn: &Connection,
    event_id: i64,
    m: &StoredMatch,
    imps: bool,
    now: &str,
) -> ApiResult<()> {
    let s = &m.score;
    conn.execute(
        "INSERT INTO match_results (event_id, round, home, away, boards, imps_home, imps_away,
             vp_home, vp_away, entered_by, entered_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (event_id, round, home, away) DO UPDATE SET boards = ?5,
             imps_home = ?6, imps_away = ?7, vp_home = ?8, vp_away = ?9, entered_by = ?10,
             entered_at = ?11",
        params![
            event_id,
            m.round,
            s.home,
            s.away,
            m.boards,
            imps.then_some(s.imps_home),
            imps.then_some(s.imps_away),
            s.vp_home,
            s.vp_away,
            m.entered_by,
            now
        ],
    )?;
    Ok(())
}
