//! Participants: players (chess) or pairs (bridge) of an event.

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::domain::{NewParticipant, PairPlayer, Participant, ParticipantStatus, Sex, Title};
use crate::error::{ApiError, ApiResult};

const COLUMNS: &str = "id, event_id, name, rating, club, federation, external_id, pairing_number,
     status, national_id, player1_name, player1_national_id, player2_name, player2_national_id,
     title, sex, birth_year, k_factor";

/// A pair's players as stored: up to two (name, national id) column pairs.
fn players_of(row: &Row) -> rusqlite::Result<Vec<PairPlayer>> {
    let mut out = Vec::new();
    for k in [10, 12] {
        if let Some(name) = row.get::<_, Option<String>>(k)? {
            out.push(PairPlayer {
                name,
                national_id: row.get(k + 1)?,
            });
        }
    }
    Ok(out)
}

/// The player columns of `players` (absent players NULL).
fn player_columns(players: &[PairPlayer]) -> [Option<String>; 4] {
    let get = |k: usize| players.get(k);
    [
        get(0).map(|p| p.name.trim().to_string()),
        get(0).and_then(|p| p.national_id.clone()),
        get(1).map(|p| p.name.trim().to_string()),
        get(1).and_then(|p| p.national_id.clone()),
    ]
}

fn from_row(row: &Row) -> rusqlite::Result<Participant> {
    let status: String = row.get(8)?;
    Ok(Participant {
        id: row.get(0)?,
        event_id: row.get(1)?,
        name: row.get(2)?,
        rating: row.get(3)?,
        club: row.get(4)?,
        federation: row.get(5)?,
        external_id: row.get(6)?,
        national_id: row.get(9)?,
        players: players_of(row)?,
        pairing_number: row.get(7)?,
        status: if status == "withdrawn" {
            ParticipantStatus::Withdrawn
        } else {
            ParticipantStatus::Active
        },
        title: row
            .get::<_, Option<String>>(14)?
            .as_deref()
            .and_then(Title::parse),
        sex: row
            .get::<_, Option<String>>(15)?
            .as_deref()
            .and_then(Sex::parse),
        birth_year: row.get(16)?,
        k_factor: row.get(17)?,
    })
}

fn external_id_taken(e: &rusqlite::Error) -> bool {
    crate::store::is_constraint(e)
}

pub fn insert(conn: &Connection, event_id: i64, p: &NewParticipant, now: &str) -> ApiResult<i64> {
    let [n1, id1, n2, id2] = player_columns(p.players.as_deref().unwrap_or_default());
    conn.execute(
        "INSERT INTO participants (event_id, name, rating, club, federation, external_id, created_at,
             national_id, player1_name, player1_national_id, player2_name, player2_national_id,
             title, sex, birth_year, k_factor)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            event_id,
            p.name.trim(),
            p.rating,
            p.club,
            p.federation,
            p.external_id,
            now,
            p.national_id,
            n1,
            id1,
            n2,
            id2,
            p.title.map(Title::as_str),
            p.sex.map(Sex::as_str),
            p.birth_year,
            p.k_factor
        ],
    )
    .map_err(|e| {
        if external_id_taken(&e) {
            ApiError::conflict(format!(
                "a participant with external_id {:?} is already in this event",
                p.external_id.as_deref().unwrap_or_default()
            ))
        } else {
            e.into()
        }
    })?;
    Ok(conn.last_insert_rowid())
}

pub fn update(conn: &Connection, p: &Participant) -> ApiResult<()> {
    let [n1, id1, n2, id2] = player_columns(&p.players);
    conn.execute(
        "UPDATE participants SET name = ?2, rating = ?3, club = ?4, federation = ?5, external_id = ?6,
             national_id = ?7, player1_name = ?8, player1_national_id = ?9, player2_name = ?10,
             player2_national_id = ?11, title = ?12, sex = ?13, birth_year = ?14, k_factor = ?15
         WHERE id = ?1",
        params![
            p.id,
            p.name.trim(),
            p.rating,
            p.club,
            p.federation,
            p.external_id,
            p.national_id,
            n1,
            id1,
            n2,
            id2,
            p.title.map(Title::as_str),
            p.sex.map(Sex::as_str),
            p.birth_year,
            p.k_factor
        ],
    )
    .map_err(|e| {
        if external_id_taken(&e) {
            ApiError::conflict("another participant of this event has that external_id")
        } else {
            e.into()
        }
    })?;
    Ok(())
}

pub fn set_status(conn: &Connection, id: i64, status: ParticipantStatus) -> ApiResult<()> {
    let s = match status {
        ParticipantStatus::Active => "active",
        ParticipantStatus::Withdrawn => "withdrawn",
    };
    conn.execute(
        "UPDATE participants SET status = ?2 WHERE id = ?1",
        params![id, s],
    )?;
    Ok(())
}

/// The participant of the event, or a 404.
pub fn get(conn: &Connection, event_id: i64, id: i64) -> ApiResult<Participant> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM participants WHERE id = ?1 AND event_id = ?2"),
        params![id, event_id],
        from_row,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found(format!("participant {id} is not in event {event_id}")))
}

pub fn count(conn: &Connection, event_id: i64) -> ApiResult<u64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM participants WHERE event_id = ?1",
        [event_id],
        |r| r.get::<_, i64>(0),
    )? as u64)
}

/// A page of participants: by pairing number once lots are drawn, else by entry order.
pub fn list(
    conn: &Connection,
    event_id: i64,
    limit: u32,
    offset: u64,
) -> ApiResult<Vec<Participant>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM participants WHERE event_id = ?1
         ORDER BY pairing_number IS NULL, pairing_number, id LIMIT ?2 OFFSET ?3"
    ))?;
    let rows = stmt.query_map(params![event_id, limit, offset as i64], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// All participants of the event, by entry order.
pub fn all(conn: &Connection, event_id: i64) -> ApiResult<Vec<Participant>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM participants WHERE event_id = ?1 ORDER BY id"
    ))?;
    let rows = stmt.query_map([event_id], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Assigns pairing numbers: `order[i]` gets number i + 1; everyone else none.
pub fn assign_pairing_numbers(conn: &Connection, event_id: i64, order: &[i64]) -> ApiResult<()> {
    conn.execute(
        "UPDATE participants SET pairing_number = NULL WHERE event_id = ?1",
        [event_id],
    )?;
    let mut stmt = conn.prepare("UPDATE participants SET pairing_number = ?2 WHERE id = ?1")?;
    for (i, id) in order.iter().enumerate() {
        stmt.execute(params![id, i as i64 + 1])?;
    }
    Ok(())
}

pub fn set_pairing_number(conn: &Connection, id: i64, number: u32) -> ApiResult<()> {
    conn.execute(
        "UPDATE participants SET pairing_number = ?2 WHERE id = ?1",
        params![id, number],
    )?;
    Ok(())
}

/// Gives participants without a pairing number the next numbers, in `order`.
pub fn append_pairing_numbers(conn: &Connection, event_id: i64, order: &[i64]) -> ApiResult<()> {
    let max: Option<i64> = conn.query_row(
        "SELECT MAX(pairing_number) FROM participants WHERE event_id = ?1",
        [event_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare("UPDATE participants SET pairing_number = ?2 WHERE id = ?1")?;
    for (i, id) in order.iter().enumerate() {
        stmt.execute(params![id, max.unwrap_or(0) + i as i64 + 1])?;
    }
    Ok(())
}

/// Removes a participant who is in no round (409 otherwise: withdraw instead).
pub fn delete(conn: &Connection, id: i64) -> ApiResult<()> {
    let rounds: i64 = conn.query_row(
        "SELECT (SELECT COUNT(*) FROM games WHERE white_id = ?1 OR black_id = ?1)
              + (SELECT COUNT(*) FROM byes WHERE participant_id = ?1)",
        [id],
        |r| r.get(0),
    )?;
    if rounds > 0 {
        return Err(crate::error::ApiError::conflict(format!(
            "participant {id} is in {rounds} round(s) already; withdraw instead"
        )));
    }
    conn.execute("DELETE FROM participants WHERE id = ?1", [id])?;
    Ok(())
}

/// The participant with this id in whatever event holds it.
pub fn find_any(conn: &Connection, id: i64) -> ApiResult<Option<Participant>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM participants WHERE id = ?1"),
            [id],
            from_row,
        )
        .optional()?)
}

/// What the participant has in their event's history (games, byes, byes asked for, a team):
/// one phrase per kind, empty when nothing.
pub fn history(conn: &Connection, id: i64) -> ApiResult<Vec<String>> {
    let (games, byes, requested, team): (i64, i64, i64, Option<i64>) = conn.query_row(
        "SELECT (SELECT COUNT(*) FROM games WHERE white_id = ?1 OR black_id = ?1),
                (SELECT COUNT(*) FROM byes WHERE participant_id = ?1),
                (SELECT COUNT(*) FROM requested_byes WHERE participant_id = ?1),
                (SELECT team_id FROM participants WHERE id = ?1)",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let mut out = Vec::new();
    if games > 0 {
        out.push(format!("{games} game(s)"));
    }
    if byes > 0 {
        out.push(format!("{byes} bye(s)"));
    }
    if requested > 0 {
        out.push(format!("{requested} bye(s) asked for"));
    }
    if team.is_some() {
        out.push("a team".to_string());
    }
    Ok(out)
}

/// Whether another participant of `event_id` has this external id.
pub fn external_id_used(conn: &Connection, event_id: i64, external_id: &str) -> ApiResult<bool> {
    Ok(conn
        .query_row(
            "SELECT 1 FROM participants WHERE event_id = ?1 AND external_id = ?2",
            params![event_id, external_id],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// Moves the participant to `event_id` under the same id, without a pairing number (a late
/// entry there).
pub fn move_to(conn: &Connection, id: i64, event_id: i64) -> ApiResult<()> {
    conn.execute(
        "UPDATE participants SET event_id = ?2, pairing_number = NULL WHERE id = ?1",
        params![id, event_id],
    )?;
    Ok(())
}
