//! SQLite storage: one read-write connection owned by a single writer at a time (so concurrent
//! writes queue instead of failing with SQLITE_BUSY), and a small pool of read-only
//! connections. Every request runs in exactly one transaction: writes are `BEGIN IMMEDIATE`
//! and commit only when the whole closure succeeds; reads see one consistent snapshot.

pub mod backup;
pub mod board_results;
pub mod bridge_matches;
pub mod events;
pub mod export;
pub mod games;
pub mod idempotency;
pub mod movements;
pub mod participants;
mod queues;
pub mod rounds;
pub mod secret;
pub mod swiss;
pub mod team_swiss;
pub mod teams;
pub mod tokens;
pub mod tournaments;
pub mod versions;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

use crate::error::{ApiError, ApiResult};
use crate::metrics::{Histogram, WAIT_BUCKETS};

/// The migrations in `sql/`, applied in order and recorded in `PRAGMA user_version`.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../sql/0001_init.sql")),
        M::up(include_str!("../../sql/0002_movements.sql")),
        M::up(include_str!("../../sql/0003_teams.sql")),
        M::up(include_str!("../../sql/0004_swiss.sql")),
        M::up(include_str!("../../sql/0005_team_games.sql")),
        M::up(include_str!("../../sql/0006_board_results.sql")),
        M::up(include_str!("../../sql/0007_idempotency.sql")),
        M::up(include_str!("../../sql/0008_event_versions.sql")),
        M::up(include_str!("../../sql/0009_bridge_matches.sql")),
        M::up(include_str!("../../sql/0011_bridge_hand_records.sql")),
        M::up(include_str!("../../sql/0012_fide_details.sql")),
        M::up(include_str!("../../sql/0013_tournaments.sql")),
        M::up(include_str!("../../sql/0014_team_swiss.sql")),
        M::up(include_str!("../../sql/0015_tournament_versions.sql")),
    ])
}

const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a change waits for the writer before it gives up with 503 (`TOURNEY_WRITE_WAIT_SECONDS`).
pub const DEFAULT_WRITE_WAIT: Duration = Duration::from_secs(10);

fn write_wait_from_env() -> Duration {
    Duration::from_secs(crate::limits::setting_from_env(
        "TOURNEY_WRITE_WAIT_SECONDS",
        DEFAULT_WRITE_WAIT.as_secs(),
    ))
}

/// How hard a commit waits for the disk (`TOURNEY_SYNCHRONOUS`). In WAL mode, `Normal` (the
/// default) never corrupts the database, but a power cut or an OS crash may lose the last
/// commits before the next checkpoint; `Full` makes every committed change survive a power
/// cut, at the cost of one more disk flush per commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    #[default]
    Normal,
    Full,
}

impl Synchronous {
    /// Reads `TOURNEY_SYNCHRONOUS`'s value (`normal` or `full`, any case; unset or empty:
    /// the default).
    pub fn parse(value: Option<&str>) -> Result<Synchronous, String> {
        match value.map(str::trim).filter(|v| !v.is_empty()) {
            None => Ok(Synchronous::default()),
            Some(v) if v.eq_ignore_ascii_case("normal") => Ok(Synchronous::Normal),
            Some(v) if v.eq_ignore_ascii_case("full") => Ok(Synchronous::Full),
            Some(v) => Err(format!(
                "TOURNEY_SYNCHRONOUS={v:?}: use normal (the default) or full"
            )),
        }
    }

    fn pragma(self) -> &'static str {
        match self {
            Synchronous::Normal => "NORMAL",
            Synchronous::Full => "FULL",
        }
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// The database handle shared by all workers.
#[derive(Clone)]
pub struct Store {
    writer: Arc<Mutex<Connection>>,
    /// The queues to the writer, to imports and pairings, and the room for request bodies.
    queues: queues::Queues,
    /// How long each change that got the writer waited for it (metrics).
    waits: Arc<Mutex<Histogram>>,
    readers: r2d2::Pool<SqliteConnectionManager>,
    versions: versions::Versions,
    reads: Arc<AtomicU64>,
    /// The database file (backups copy it).
    path: Arc<PathBuf>,
    /// The server admin token's keyed hash, and the key.
    server_admin: [u8; 32],
    key: [u8; 32],
    /// The `Idempotency-Key`s whose requests run now.
    running: idempotency::RunningKeys,
}

impl Store {
    /// Opens (creating if needed) and migrates the database file at `path`, with the
    /// durability `TOURNEY_SYNCHRONOUS` asks for.
    pub fn open(path: &Path) -> Result<Store, String> {
        let synchronous = Synchronous::parse(std::env::var("TOURNEY_SYNCHRONOUS").ok().as_deref())?;
        Store::open_with(path, synchronous)
    }

    /// [`Store::open`] with the durability chosen.
    pub fn open_with(path: &Path, synchronous: Synchronous) -> Result<Store, String> {
        let mut writer = Connection::open(path)
            .map_err(|e| format!("cannot open database {}: {e}", path.display()))?;
        let mode: String = writer
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| format!("cannot enable WAL: {e}"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(format!(
                "database {} refused WAL mode ({mode})",
                path.display()
            ));
        }
        configure(&writer).map_err(|e| format!("cannot configure database: {e}"))?;
        writer
            .pragma_update(None, "synchronous", synchronous.pragma())
            .map_err(|e| format!("cannot configure database: {e}"))?;
        migrations()
            .to_latest(&mut writer)
            .map_err(|e| format!("cannot migrate database {}: {e}", path.display()))?;
        let key = secret::load_or_create(path)?;
        let server_admin =
            backup::server_admin_token(path, std::env::var("TOURNEY_ADMIN_TOKEN").ok())?;
        secret::register(&writer, key).map_err(|e| format!("cannot configure database: {e}"))?;
        versions::watch_changes(&writer)
            .map_err(|e| format!("cannot watch changes of {}: {e}", path.display()))?;

        let manager = SqliteConnectionManager::file(path)
            .with_flags(OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .with_init(move |c: &mut Connection| {
                configure(c)?;
                secret::register(c, key)
            });
        let readers = r2d2::Pool::builder()
            .max_size(8)
            .min_idle(Some(1))
            .build(manager)
            .map_err(|e| format!("cannot open read connections: {e}"))?;
        Ok(Store {
            writer: Arc::new(Mutex::new(writer)),
            queues: queues::Queues::new(write_wait_from_env(), queues::body_room_from_env()),
            waits: Arc::new(Mutex::new(Histogram::new(&WAIT_BUCKETS))),
            readers,
            versions: versions::Versions::default(),
            reads: Arc::new(AtomicU64::new(0)),
            path: Arc::new(path.to_path_buf()),
            server_admin: secret::hmac_sha256(&key, server_admin.as_bytes()),
            key,
            running: idempotency::RunningKeys::default(),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether `token` is the server admin token (`store::backup::server_admin_token`).
    pub fn is_server_admin(&self, token: &str) -> bool {
        secret::hmac_sha256(&self.key, token.as_bytes()) == self.server_admin
    }

    /// The `Idempotency-Key`s whose requests run now (in this process).
    pub fn running_keys(&self) -> &idempotency::RunningKeys {
        &self.running
    }

    /// How long the changes that got the writer waited for it (metrics).
    pub fn writer_waits(&self) -> Histogram {
        self.waits
            .lock()
            .map_or_else(|_| Histogram::new(&WAIT_BUCKETS), |w| w.clone())
    }

    /// How many read transactions have run (tests show a 304 needs none; metrics).
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// The current version of an event (`None`: no such event), from memory once known: a
    /// database read only the first time an event is asked about.
    pub async fn event_version(&self, event: i64) -> ApiResult<Option<i64>> {
        if let Some(known) = self.versions.get(event) {
            return Ok(known);
        }
        let version = self
            .read(move |conn| Ok(versions::read(conn, event)?))
            .await?;
        self.versions.learn(event, version);
        Ok(self.versions.get(event).unwrap_or(version))
    }

    /// Runs `f` in one read-only transaction on a pooled connection, off the async workers.
    pub async fn read<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.readers.clone();
        self.reads.fetch_add(1, Ordering::Relaxed);
        actix_web::web::block(move || {
            let mut conn = pool.get()?;
            let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
            let value = f(&tx)?;
            tx.finish()?;
            Ok(value)
        })
        .await?
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction on the single read-write connection.
    /// The transaction commits when `f` returns `Ok` and rolls back otherwise, so a request
    /// changes the database whole or not at all. When the request carries an `If-Match` of its
    /// event ([`versions::Precondition`]), the transaction compares it with the event's version
    /// as it starts: 412 on a stale one (after the request's own 4xx checks, which answer
    /// first), so two directors never overwrite each other silently. Every write route gets this without doing anything.
    ///
    /// In a request sent with an `Idempotency-Key` ([`idempotency::run_keyed`]) the transaction
    /// is left open once `f` succeeds, and commits later together with the request's answer.
    pub async fn write<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> ApiResult<T> + Send + 'static,
    {
        if let Some((scope, _, held)) = idempotency::current() {
            return self.write_keyed(scope, held, f).await;
        }
        let writer = self.writer.clone();
        let known = self.versions.clone();
        let precondition = versions::pending();
        let turn = self.writer_turn().await?;
        let written = actix_web::web::block(move || {
            let _turn = turn;
            let mut conn = writer
                .lock()
                .map_err(|_| ApiError::Internal("writer connection poisoned".into()))?;
            let tx = begin(&mut conn)?;
            // The version as the transaction starts decides; the request's own checks (auth,
            // 404, 409, 422) answer first, as RFC 9110 13.2.2 orders them, and a stale
            // version then rolls the change back.
            let stale = precondition.as_ref().and_then(|p| p.check(&tx).err());
            let value = f(&tx)?;
            if let Some(stale) = stale {
                return Err(stale);
            }
            let bumped = versions::bump(&tx)?;
            tx.commit()?;
            known.apply(&bumped);
            Ok(value)
        })
        .await?;
        if written.is_ok() {
            versions::met();
        }
        written
    }

    /// [`Store::write`] for a request with an `Idempotency-Key`: the work is done and its
    /// transaction held open (with the writer's turn) for [`idempotency::Held::commit`]; a
    /// duplicate whose answer was committed while this one waited for the writer does nothing
    /// and leaves that answer for the middleware to replay.
    async fn write_keyed<T, F>(&self, scope: String, held: bool, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> ApiResult<T> + Send + 'static,
    {
        if held {
            return Err(ApiError::Internal(
                "a request with an Idempotency-Key writes once".into(),
            ));
        }
        let writer = self.writer.clone();
        let known = self.versions.clone();
        let precondition = versions::pending();
        let turn = self.writer_turn().await?;
        let expired = idempotency_expiry();
        let written = actix_web::web::block(move || {
            let mut conn = writer
                .lock()
                .map_err(|_| ApiError::Internal("writer connection poisoned".into()))?;
            let mut tx = begin(&mut conn)?;
            if let Some(kept) = idempotency::find(&tx, &scope, &expired)? {
                return Ok(Err(kept));
            }
            let stale = precondition.as_ref().and_then(|p| p.check(&tx).err());
            let value = f(&tx)?;
            if let Some(stale) = stale {
                return Err(stale);
            }
            let bumped = versions::bump(&tx)?;
            // left open: `Held` commits it with the answer, or rolls it back when dropped
            tx.set_drop_behavior(rusqlite::DropBehavior::Ignore);
            drop(tx);
            drop(conn);
            let held = idempotency::Held::new(writer.clone(), known, bumped, turn);
            Ok(Ok((value, held)))
        })
        .await?;
        match written? {
            Ok((value, held)) => {
                idempotency::hold(held);
                versions::met();
                Ok(value)
            }
            Err(kept) => {
                idempotency::found(kept);
                Err(ApiError::conflict(
                    "a request with this Idempotency-Key was answered meanwhile",
                ))
            }
        }
    }

    /// Runs `f` like [`Store::write`] but always rolls back: what a write would see (and do),
    /// without doing it. Used to prepare long work outside the writer (a pairing is computed
    /// from a dry run, then written by a real write that checks nothing changed meanwhile).
    pub async fn dry_run<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> ApiResult<T> + Send + 'static,
    {
        if idempotency::current().is_some_and(|(_, _, held)| held) {
            return Err(ApiError::Internal(
                "a request with an Idempotency-Key writes once".into(),
            ));
        }
        let writer = self.writer.clone();
        let precondition = versions::pending();
        let turn = self.writer_turn().await?;
        actix_web::web::block(move || {
            let _turn = turn;
            let mut conn = writer
                .lock()
                .map_err(|_| ApiError::Internal("writer connection poisoned".into()))?;
            let tx = begin(&mut conn)?;
            // as in `write`: the request's own checks first, then a stale If-Match (before
            // the long work, not after it)
            let stale = precondition.as_ref().and_then(|p| p.check(&tx).err());
            let value = f(&tx)?;
            tx.rollback()?;
            match stale {
                Some(stale) => Err(stale),
                None => Ok(value),
            }
        })
        .await?
    }
}

/// `BEGIN IMMEDIATE` on the writer connection. A transaction still open there (a keyed
/// request's, which its `Held` always ends; never expected) is rolled back first rather than
/// failing every later write.
fn begin(conn: &mut Connection) -> rusqlite::Result<Transaction<'_>> {
    if !conn.is_autocommit() {
        log::error!("the writer connection was left in a transaction; rolling it back");
        conn.execute_batch("ROLLBACK")?;
    }
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
}

/// How long an `Idempotency-Key`'s answer is kept.
pub const IDEMPOTENCY_KEPT_HOURS: i64 = 24;

/// Keys created before this instant (RFC 3339) have expired.
pub fn idempotency_expiry() -> String {
    (chrono::Utc::now() - chrono::Duration::hours(IDEMPOTENCY_KEPT_HOURS))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The current time as stored (RFC 3339, UTC, seconds).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Whether a constraint violation is behind a database error (for 409 mapping).
pub fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The migrations: one file of `sql/` each.
    fn migrations_count() -> i64 {
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/sql"))
            .unwrap()
            .filter(|f| f.as_ref().unwrap().path().extension() == Some("sql".as_ref()))
            .count() as i64
    }

    #[test]
    fn migrations_are_valid_and_idempotent() {
        migrations().validate().unwrap();
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let path = dir.path().join("t.db");
        drop(Store::open(&path).unwrap());
        // Re-opening applies nothing twice.
        let store = Store::open(&path).unwrap();
        let version: i64 = store
            .writer
            .lock()
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, migrations_count());
    }

    #[test]
    fn synchronous_is_normal_unless_full_is_asked_for() {
        assert_eq!(Synchronous::parse(None), Ok(Synchronous::Normal));
        assert_eq!(Synchronous::parse(Some("")), Ok(Synchronous::Normal));
        assert_eq!(Synchronous::parse(Some("FULL")), Ok(Synchronous::Full));
        assert_eq!(
            Synchronous::parse(Some(" normal ")),
            Ok(Synchronous::Normal)
        );
        assert!(Synchronous::parse(Some("off"))
            .unwrap_err()
            .contains("normal"));
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let level = |store: &Store| -> i64 {
            store
                .writer
                .lock()
                .unwrap()
                .query_row("PRAGMA synchronous", [], |r| r.get(0))
                .unwrap()
        };
        let full = Store::open_with(&dir.path().join("f.db"), Synchronous::Full).unwrap();
        assert_eq!(level(&full), 2);
        let normal = Store::open_with(&dir.path().join("n.db"), Synchronous::Normal).unwrap();
        assert_eq!(level(&normal), 1);
    }

    #[test]
    fn a_change_waits_for_the_writer_only_so_long() {
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let store = Store::open(&dir.path().join("w.db"))
            .unwrap()
            .with_write_wait(Duration::from_millis(100));
        actix_web::rt::System::new().block_on(async move {
            let busy = store.clone();
            let long = actix_web::rt::spawn(async move {
                busy.write(|_| {
                    std::thread::sleep(Duration::from_millis(600));
                    Ok(())
                })
                .await
            });
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
            let waited = std::time::Instant::now();
            match store.write(|_| Ok(())).await {
                Err(ApiError::Unavailable(m)) => assert!(m.contains("retry"), "{m}"),
                other => panic!("{other:?}"),
            }
            assert!(waited.elapsed() < Duration::from_millis(400));
            long.await.unwrap().unwrap();
            // Once the writer is free, changes go through again.
            store.write(|_| Ok(())).await.unwrap();
        });
    }
}
