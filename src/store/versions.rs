//! Event versions: which events a write transaction changed, and the version each now has.
//!
//! The writer connection carries TEMP triggers on every table that holds an event's data; they
//! note the event of each inserted, updated or deleted row in `temp.changed_events`. Before a
//! write commits, [`bump`] gives every noted event the next value of the store-wide counter (in
//! the same transaction), and after the commit [`Versions`] learns them. Handlers do nothing:
//! a change cannot forget to move the version.
//!
//! A bridge section scored across the field shows every section's results of its boards, so a
//! change to one section of a field moves the version of every section of that field; a change
//! to a tournament (its settings name the fields) or to which sections it has moves every
//! section of the tournament (`temp.changed_tournaments`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, RwLock};

use rusqlite::{params, Connection};

use crate::error::ApiError;

/// The tables of an event's data, and how a row names its event. A table added here must also
/// be added to the event export (`event_document::TABLES`; a test says so).
const EVENT_TABLES: &[(&str, &str)] = &[
    ("events", "{row}.id"),
    ("participants", "{row}.event_id"),
    ("rounds", "{row}.event_id"),
    (
        "games",
        "(SELECT event_id FROM main.rounds WHERE id = {row}.round_id)",
    ),
    (
        "byes",
        "(SELECT event_id FROM main.rounds WHERE id = {row}.round_id)",
    ),
    ("movements", "{row}.event_id"),
    ("teams", "{row}.event_id"),
    ("requested_byes", "{row}.event_id"),
    ("board_results", "{row}.event_id"),
    ("deals", "{row}.event_id"),
    ("team_schedules", "{row}.event_id"),
    ("swiss_draws", "{row}.event_id"),
    ("match_results", "{row}.event_id"),
    ("team_swiss_matches", "{row}.event_id"),
    ("team_lineups", "{row}.event_id"),
];

/// How a row of `table` names its event (an SQL expression over `{row}`), if the table holds
/// an event's data.
pub fn event_of_row(table: &str) -> Option<&'static str> {
    EVENT_TABLES
        .iter()
        .find(|(name, _)| *name == table)
        .map(|(_, event)| *event)
}

/// The tables holding an event's data (the export's list is checked against it).
pub fn event_tables() -> Vec<&'static str> {
    EVENT_TABLES.iter().map(|(name, _)| *name).collect()
}

/// Creates the change log and its triggers on the writer connection (TEMP objects live as long
/// as the connection and are never written to the database file).
pub fn watch_changes(conn: &Connection) -> rusqlite::Result<()> {
    let mut sql = String::from(
        "CREATE TEMP TABLE IF NOT EXISTS changed_events (event_id INTEGER PRIMARY KEY);\n",
    );
    for (table, event) in EVENT_TABLES {
        for (when, rows) in [
            ("INSERT", &["NEW"][..]),
            ("UPDATE", &["OLD", "NEW"][..]),
            ("DELETE", &["OLD"][..]),
        ] {
            let notes: String = rows
                .iter()
                .map(|row| {
                    let id = event.replace("{row}", row);
                    // Not `INSERT OR IGNORE`: the conflict policy of the statement that fired
                    // the trigger (an upsert's) would override it.
                    format!(
                        "INSERT INTO temp.changed_events (event_id) SELECT e FROM (SELECT {id} AS e) \
                         WHERE e IS NOT NULL \
                         AND NOT EXISTS (SELECT 1 FROM temp.changed_events WHERE event_id = e);"
                    )
                })
                .collect();
            sql.push_str(&format!(
                "CREATE TEMP TRIGGER IF NOT EXISTS note_{table}_{w} AFTER {when} ON main.{table} \
                 BEGIN {notes} END;\n",
                w = when.to_lowercase(),
            ));
        }
    }
    sql.push_str(TOURNAMENT_TRIGGERS);
    conn.execute_batch(&sql)
}

/// Notes a tournament whose sections may all read differently: its row changed (the fields its
/// settings name), or a section joined or left it.
const TOURNAMENT_TRIGGERS: &str = "
CREATE TEMP TABLE IF NOT EXISTS changed_tournaments (tournament_id INTEGER PRIMARY KEY);
CREATE TEMP TRIGGER IF NOT EXISTS note_tournaments_insert AFTER INSERT ON main.tournaments BEGIN
  INSERT INTO temp.changed_tournaments (tournament_id) SELECT NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tournaments WHERE tournament_id = NEW.id);
END;
CREATE TEMP TRIGGER IF NOT EXISTS note_tournaments_update AFTER UPDATE OF name, start_date, end_date, place, settings ON main.tournaments BEGIN
  INSERT INTO temp.changed_tournaments (tournament_id) SELECT NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tournaments WHERE tournament_id = NEW.id);
END;
CREATE TEMP TRIGGER IF NOT EXISTS note_tournament_sections_insert AFTER INSERT ON main.events
WHEN NEW.tournament_id IS NOT NULL BEGIN
  INSERT INTO temp.changed_tournaments (tournament_id) SELECT NEW.tournament_id
  WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tournaments WHERE tournament_id = NEW.tournament_id);
END;
CREATE TEMP TRIGGER IF NOT EXISTS note_tournament_sections_delete AFTER DELETE ON main.events
WHEN OLD.tournament_id IS NOT NULL BEGIN
  INSERT INTO temp.changed_tournaments (tournament_id) SELECT OLD.tournament_id
  WHERE NOT EXISTS (SELECT 1 FROM temp.changed_tournaments WHERE tournament_id = OLD.tournament_id);
END;
CREATE TEMP TRIGGER IF NOT EXISTS note_tournament_sections_move AFTER UPDATE OF tournament_id ON main.events
WHEN OLD.tournament_id IS NOT NEW.tournament_id BEGIN
  INSERT INTO temp.changed_tournaments (tournament_id) SELECT t FROM (SELECT OLD.tournament_id AS t
  UNION SELECT NEW.tournament_id) WHERE t IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM temp.changed_tournaments WHERE tournament_id = t);
END;
";

/// The events a write changed: those noted, every section of a tournament noted, and every
/// section of a field (scored across the field) one of whose sections was noted; and the
/// tournaments it changed: those noted and those of every changed section.
fn changed_with_fields(
    conn: &Connection,
    noted: Vec<i64>,
) -> rusqlite::Result<(Vec<i64>, Vec<i64>)> {
    use crate::domain::tournament::TournamentSettings;
    use std::collections::BTreeSet;
    let whole: BTreeSet<i64> = conn
        .prepare_cached("SELECT tournament_id FROM temp.changed_tournaments")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let touched: BTreeSet<i64> = conn
        .prepare_cached(
            "SELECT DISTINCT e.tournament_id FROM main.events e \
             JOIN temp.changed_events c ON c.event_id = e.id WHERE e.tournament_id IS NOT NULL",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut out: BTreeSet<i64> = noted.into_iter().collect();
    for t in whole.union(&touched) {
        let sections: Vec<(i64, bool)> = conn
            .prepare_cached(
                "SELECT id, format = 'pairs' FROM main.events WHERE tournament_id = ?1 ORDER BY id",
            )?
            .query_map([t], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if whole.contains(t) {
            out.extend(sections.iter().map(|(id, _)| *id));
            continue;
        }
        let settings: String = conn.query_row(
            "SELECT settings FROM main.tournaments WHERE id = ?1",
            [t],
            |r| r.get(0),
        )?;
        let Ok(settings) = serde_json::from_str::<serde_json::Value>(&settings) else {
            continue;
        };
        let Ok(settings) = TournamentSettings::parse(Some(&settings)) else {
            continue;
        };
        let pairs: Vec<i64> = sections
            .iter()
            .filter(|(_, pairs)| *pairs)
            .map(|(id, _)| *id)
            .collect();
        for (_, members) in settings.fields(&pairs) {
            if members.iter().any(|m| out.contains(m)) {
                out.extend(members);
            }
        }
    }
    Ok((
        out.into_iter().collect(),
        whole.union(&touched).copied().collect(),
    ))
}

/// What a transaction did to event versions: the new version of each changed event, and the
/// events it deleted.
#[derive(Debug, Default)]
pub struct Bumped {
    changed: Vec<(i64, i64)>,
    deleted: Vec<i64>,
}

/// Moves every event the transaction changed to the next store-wide version, and empties the
/// change log. Called by `Store::write` just before it commits.
pub fn bump(conn: &Connection) -> rusqlite::Result<Bumped> {
    let noted: Vec<i64> = conn
        .prepare_cached("SELECT event_id FROM temp.changed_events")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let (noted, tournaments) = changed_with_fields(conn, noted)?;
    conn.execute("DELETE FROM temp.changed_tournaments", [])?;
    if noted.is_empty() && tournaments.is_empty() {
        return Ok(Bumped::default());
    }
    let latest: i64 = conn.query_row(
        "UPDATE change_counter SET latest = latest + 1 WHERE only_row = 1 RETURNING latest",
        [],
        |r| r.get(0),
    )?;
    let mut set_tournament =
        conn.prepare_cached("UPDATE tournaments SET version = ?1 WHERE id = ?2")?;
    for id in tournaments {
        set_tournament.execute(params![latest, id])?;
    }
    let mut set = conn.prepare_cached("UPDATE events SET version = ?1 WHERE id = ?2")?;
    let mut bumped = Bumped::default();
    for id in noted {
        if set.execute(params![latest, id])? == 1 {
            bumped.changed.push((id, latest));
        } else {
            bumped.deleted.push(id);
        }
    }
    conn.execute("DELETE FROM temp.changed_events", [])?;
    Ok(bumped)
}

/// The current version of each event the server has seen, kept in memory so a conditional GET
/// is answered without the database. `None` for an event that does not exist (any more).
#[derive(Clone, Default)]
pub struct Versions {
    known: Arc<RwLock<HashMap<i64, Option<i64>>>>,
}

impl Versions {
    /// The version last learnt for `event`, if any (outer `None`: not known yet).
    pub fn get(&self, event: i64) -> Option<Option<i64>> {
        self.known.read().ok()?.get(&event).copied()
    }

    /// Records a version read from the database, unless a write has set one meanwhile (the write
    /// is newer than the snapshot that was read).
    pub fn learn(&self, event: i64, version: Option<i64>) {
        if let Ok(mut known) = self.known.write() {
            known.entry(event).or_insert(version);
        }
    }

    /// Records what a committed write did (called under the writer lock, so in commit order).
    pub fn apply(&self, bumped: &Bumped) {
        if bumped.changed.is_empty() && bumped.deleted.is_empty() {
            return;
        }
        if let Ok(mut known) = self.known.write() {
            for &(id, version) in &bumped.changed {
                known.insert(id, Some(version));
            }
            for &id in &bumped.deleted {
                known.insert(id, None);
            }
        }
    }
}

/// What a request's `If-Match` asks of its event: the change is made only while the event's
/// version is one of `versions` (`any`: while the event exists, `If-Match: *`). Checked inside
/// the write transaction, before the change, so no other write can slip in between.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Precondition {
    /// The event, or the tournament when `tournament`.
    pub event: i64,
    pub tournament: bool,
    pub versions: Vec<i64>,
    pub any: bool,
}

impl Precondition {
    /// Refuses with 412 unless the event's current version is one the precondition accepts.
    /// An event that does not exist is left to the handler (its 404).
    pub fn check(&self, conn: &Connection) -> Result<(), ApiError> {
        let current = if self.tournament {
            read_tournament(conn, self.event)?
        } else {
            read(conn, self.event)?
        };
        let Some(current) = current else {
            return Ok(());
        };
        if self.any || self.versions.contains(&current) {
            return Ok(());
        }
        let what = if self.tournament {
            "tournament"
        } else {
            "event"
        };
        Err(ApiError::PreconditionFailed(format!(
            "the {what} changed since you read it: its version is now {current} (ETag \"v{current}\"); \
             read it again and send If-Match: \"v{current}\" if the change still applies"
        )))
    }
}

tokio::task_local! {
    /// The precondition of the request being handled (set by the server's If-Match middleware
    /// around the handler); taken by its first committed write.
    static PRECONDITION: RefCell<Option<Precondition>>;
}

/// Runs `handler` with `precondition` in force for its writes.
pub async fn with_precondition<F: Future>(precondition: Precondition, handler: F) -> F::Output {
    PRECONDITION
        .scope(RefCell::new(Some(precondition)), handler)
        .await
}

/// The precondition the current request's next write must meet, if any.
pub fn pending() -> Option<Precondition> {
    PRECONDITION.try_with(|p| p.borrow().clone()).ok().flatten()
}

/// The request's write committed: the version it was checked against is gone, and the
/// request's further writes (if any) follow from its own.
pub fn met() {
    let _ = PRECONDITION.try_with(|p| p.borrow_mut().take());
}

/// Reads a tournament's version (None when there is no such tournament): it moves with every
/// change to the tournament or to any of its sections.
pub fn read_tournament(conn: &Connection, tournament: i64) -> rusqlite::Result<Option<i64>> {
    use rusqlite::OptionalExtension;
    conn.query_row(
        "SELECT version FROM tournaments WHERE id = ?1",
        [tournament],
        |r| r.get(0),
    )
    .optional()
}

/// Reads an event's version (None when there is no such event).
pub fn read(conn: &Connection, event: i64) -> rusqlite::Result<Option<i64>> {
    use rusqlite::OptionalExtension;
    conn.query_row("SELECT version FROM events WHERE id = ?1", [event], |r| {
        r.get(0)
    })
    .optional()
}

#[cfg(test)]
mod tests {
    use crate::error::ApiResult;
    use crate::store::Store;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        actix_web::rt::System::new().block_on(f)
    }

    async fn sql(store: &Store, sql: &'static str) -> ApiResult<()> {
        store.write(move |tx| Ok(tx.execute_batch(sql)?)).await
    }

    #[test]
    fn every_change_moves_its_event_and_only_its_event() {
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let store = Store::open(&dir.path().join("v.db")).unwrap();
        run(async {
            sql(
                &store,
                "INSERT INTO events (id, name, game, format, created_at, updated_at) VALUES
                (1, 'A', 'chess', 'swiss', 'x', 'x'), (2, 'B', 'chess', 'swiss', 'x', 'x')",
            )
            .await
            .unwrap();
            let v1 = store.event_version(1).await.unwrap().unwrap();
            let v2 = store.event_version(2).await.unwrap().unwrap();
            assert!(v1 > 0 && v2 > 0);

            // A write that changes nothing moves nothing.
            sql(&store, "SELECT 1").await.unwrap();
            assert_eq!(store.event_version(1).await.unwrap(), Some(v1));

            // An upsert that updates moves the version too.
            sql(
                &store,
                "INSERT INTO events (id, name, game, format, created_at, updated_at)
                VALUES (1, 'A2', 'chess', 'swiss', 'x', 'x')
                ON CONFLICT (id) DO UPDATE SET name = 'A2'",
            )
            .await
            .unwrap();
            let v1 = store.event_version(1).await.unwrap().unwrap();
            assert_eq!(store.event_version(2).await.unwrap(), Some(v2));

            // A game (which names its event through its round) moves event 1 only.
            sql(&store, "INSERT INTO participants (id, event_id, name, created_at) VALUES (1, 1, 'x', 'x'), (2, 1, 'y', 'x');
                         INSERT INTO rounds (id, event_id, number, created_at) VALUES (1, 1, 1, 'x')")
                .await
                .unwrap();
            let after_round = store.event_version(1).await.unwrap().unwrap();
            assert!(after_round > v1);
            sql(
                &store,
                "INSERT INTO games (round_id, board, white_id, black_id) VALUES (1, 1, 1, 2)",
            )
            .await
            .unwrap();
            let after_game = store.event_version(1).await.unwrap().unwrap();
            assert!(after_game > after_round);
            assert_eq!(store.event_version(2).await.unwrap(), Some(v2));

            // A failed write leaves the version where it was.
            let failed = store
                .write(|tx| {
                    tx.execute("UPDATE events SET name = 'C' WHERE id = 1", [])?;
                    Err::<(), _>(crate::error::ApiError::invalid("name", "refused"))
                })
                .await;
            assert!(failed.is_err());
            assert_eq!(store.event_version(1).await.unwrap(), Some(after_game));

            // The database agrees with memory (a restarted server starts from it).
            let stored = store.read(|c| Ok(super::read(c, 1)?)).await.unwrap();
            assert_eq!(stored, Some(after_game));

            // A deleted event has no version; an event that reuses its id never gets an old one.
            sql(&store, "DELETE FROM events WHERE id = 2")
                .await
                .unwrap();
            assert_eq!(store.event_version(2).await.unwrap(), None);
            sql(
                &store,
                "INSERT INTO events (id, name, game, format, created_at, updated_at) VALUES
                (2, 'B again', 'chess', 'swiss', 'x', 'x')",
            )
            .await
            .unwrap();
            let reborn = store.event_version(2).await.unwrap().unwrap();
            assert!(reborn > after_game && reborn > v2);
        });
    }
}
