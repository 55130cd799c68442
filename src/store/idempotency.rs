//! Kept answers of requests sent with an `Idempotency-Key` (sql/0007_idempotency.sql), and how
//! a keyed request's work and its answer are committed together.
//!
//! A request with a key runs inside [`run_keyed`]. Its first [`Store::write`](super::Store::write)
//! does the work in a transaction that it leaves open (holding the writer's turn); once the
//! handler has answered, [`Held::commit`] inserts the key with that answer in the same
//! transaction and commits. So the database holds either both (the retry gets the answer
//! replayed) or neither (the retry runs afresh): a server killed at any moment never leaves a
//! key "running" for a request that no longer is. A keyed request that fails, is dropped or
//! answers 5xx rolls its work back.
//!
//! A keyed request writes once (every handler does): a second write, or a dry run after the
//! write, is refused as a server fault rather than split into two transactions. Its reads go to
//! the read pool and do not see its own uncommitted work; handlers answer from what their
//! write returned.
//!
//! Which keys are running now is kept in memory ([`RunningKeys`]): the same key arriving while
//! its request runs is told to retry, and a restart forgets them all, as it should.

use std::cell::RefCell;
use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::OwnedSemaphorePermit;

use super::versions::{Bumped, Versions};
use crate::error::{ApiError, ApiResult};

/// A kept answer.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptAnswer {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// A kept answer and the digest of the request it answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    pub request_hash: String,
    pub answer: KeptAnswer,
}

/// The kept answer of `scope`, unless older than `expired_before` (RFC 3339, as
/// [`crate::store::now`] writes). Rows without an answer (left by servers that recorded a key
/// before its work) are not answers: their request is not running.
pub fn find(conn: &Connection, scope: &str, expired_before: &str) -> ApiResult<Option<Kept>> {
    Ok(conn
        .query_row(
            "SELECT request_hash, status, content_type, body FROM idempotency_keys
             WHERE scope = ?1 AND status IS NOT NULL AND created_at >= ?2",
            params![scope, expired_before],
            |r| {
                Ok(Kept {
                    request_hash: r.get(0)?,
                    answer: KeptAnswer {
                        status: r.get(1)?,
                        content_type: r.get(2)?,
                        body: r.get::<_, Option<Vec<u8>>>(3)?.unwrap_or_default(),
                    },
                })
            },
        )
        .optional()?)
}

/// Keeps `answer` for `scope` (replacing a row without an answer or an expired one), after
/// forgetting the keys created before `expired_before`.
pub fn keep(
    conn: &Connection,
    scope: &str,
    request_hash: &str,
    answer: &KeptAnswer,
    now: &str,
    expired_before: &str,
) -> ApiResult<()> {
    conn.execute(
        "DELETE FROM idempotency_keys WHERE created_at < ?1 OR (scope = ?2 AND status IS NULL)",
        params![expired_before, scope],
    )?;
    conn.execute(
        "INSERT INTO idempotency_keys (scope, request_hash, status, content_type, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (scope) DO NOTHING",
        params![
            scope,
            request_hash,
            answer.status,
            answer.content_type,
            answer.body,
            now
        ],
    )?;
    Ok(())
}

/// The keys whose requests run now, in this process.
#[derive(Clone, Default)]
pub struct RunningKeys(Arc<Mutex<HashSet<String>>>);

/// A key marked running until dropped.
pub struct Running {
    keys: RunningKeys,
    scope: String,
}

impl RunningKeys {
    /// Marks `scope` running, or `None` when a request with it runs already.
    pub fn start(&self, scope: &str) -> Option<Running> {
        let mut keys = self.0.lock().unwrap_or_else(|e| e.into_inner());
        keys.insert(scope.to_string()).then(|| Running {
            keys: self.clone(),
            scope: scope.to_string(),
        })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut keys = self.keys.0.lock().unwrap_or_else(|e| e.into_inner());
        keys.remove(&self.scope);
    }
}

/// A write's transaction left open on the writer connection, with the writer's turn, until
/// the answer is known. Dropped without [`Held::commit`], it rolls back.
pub struct Held {
    writer: Arc<Mutex<Connection>>,
    versions: Versions,
    bumped: Bumped,
    open: bool,
    // released after the rollback or commit, in field order
    _turn: OwnedSemaphorePermit,
}

impl Held {
    pub(super) fn new(
        writer: Arc<Mutex<Connection>>,
        versions: Versions,
        bumped: Bumped,
        turn: OwnedSemaphorePermit,
    ) -> Held {
        Held {
            writer,
            versions,
            bumped,
            open: true,
            _turn: turn,
        }
    }

    /// Keeps `answer` under `scope` in the held transaction and commits it (blocking: call off
    /// the async workers). On an error everything is rolled back.
    pub fn commit(
        mut self,
        scope: &str,
        request_hash: &str,
        answer: &KeptAnswer,
        now: &str,
        expired_before: &str,
    ) -> ApiResult<()> {
        let writer = self.writer.clone();
        let conn = writer
            .lock()
            .map_err(|_| ApiError::Internal("writer connection poisoned".into()))?;
        keep(&conn, scope, request_hash, answer, now, expired_before)?;
        conn.execute_batch("COMMIT")?;
        self.open = false;
        self.versions.apply(&self.bumped);
        Ok(())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if !self.open {
            return;
        }
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if !conn.is_autocommit() {
            if let Err(e) = conn.execute_batch("ROLLBACK") {
                log::error!("cannot roll back a keyed request's write: {e}");
            }
        }
    }
}

/// The request with a key being handled, as its writes see it.
pub struct Keyed {
    pub scope: String,
    pub request_hash: String,
    /// Its write, done and waiting for the answer.
    pub held: Option<Held>,
    /// The answer a duplicate committed while this request waited for the writer.
    pub found: Option<Kept>,
}

impl Keyed {
    pub fn new(scope: String, request_hash: String) -> Keyed {
        Keyed {
            scope,
            request_hash,
            held: None,
            found: None,
        }
    }
}

tokio::task_local! {
    static KEYED: RefCell<Option<Keyed>>;
}

/// Runs `handler` as the keyed request `keyed`; gives back what its writes left (the held
/// transaction, or an answer found).
pub async fn run_keyed<F: Future>(keyed: Keyed, handler: F) -> (F::Output, Option<Keyed>) {
    KEYED
        .scope(RefCell::new(Some(keyed)), async move {
            let output = handler.await;
            let keyed = KEYED.with(|k| k.borrow_mut().take());
            (output, keyed)
        })
        .await
}

/// What a write of the current request must do: `None` outside a keyed request; else the
/// scope, the request digest and whether its write is already held.
pub(super) fn current() -> Option<(String, String, bool)> {
    KEYED
        .try_with(|k| {
            k.borrow()
                .as_ref()
                .map(|k| (k.scope.clone(), k.request_hash.clone(), k.held.is_some()))
        })
        .ok()
        .flatten()
}

/// The current keyed request's write is done and held.
pub(super) fn hold(held: Held) {
    let _ = KEYED.try_with(|k| {
        if let Some(k) = k.borrow_mut().as_mut() {
            k.held = Some(held);
        }
    });
}

/// A duplicate of the current keyed request committed first: its answer.
pub(super) fn found(kept: Kept) {
    let _ = KEYED.try_with(|k| {
        if let Some(k) = k.borrow_mut().as_mut() {
            k.found = Some(kept);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn run<T>(f: impl Future<Output = T>) -> T {
        actix_web::rt::System::new().block_on(f)
    }

    fn count(store: &Store) -> i64 {
        let store = store.clone();
        run(async move {
            store
                .read(|c| {
                    Ok(c.query_row("SELECT count(*) FROM events", [], |r| r.get::<_, i64>(0))?)
                })
                .await
                .unwrap()
        })
    }

    fn create_event(tx: &rusqlite::Transaction) -> ApiResult<i64> {
        tx.execute(
            "INSERT INTO events (name, game, format, settings, created_at, updated_at)
             VALUES ('E', 'chess', 'swiss', '{}', 'now', 'now')",
            [],
        )?;
        Ok(tx.last_insert_rowid())
    }

    const OLD: &str = "2000-01-01T00:00:00Z";

    #[test]
    fn the_work_and_its_answer_commit_together_or_not_at_all() {
        let dir = crate::scratch::ScratchDir::new("keyed").unwrap();
        let store = Store::open(&dir.path().join("k.db")).unwrap();
        let answer = KeptAnswer {
            status: 201,
            content_type: Some("application/json".into()),
            body: b"{\"id\":1}".to_vec(),
        };
        // held, then committed with its answer
        let s = store.clone();
        let (id, keyed) = run(run_keyed(Keyed::new("a".into(), "h".into()), async move {
            s.write(create_event).await.unwrap()
        }));
        assert_eq!(count(&store), 0, "not visible before the answer is kept");
        let held = keyed.unwrap().held.expect("the write is held");
        held.commit("a", "h", &answer, "2030-01-01T00:00:00Z", OLD)
            .unwrap();
        assert_eq!((id, count(&store)), (1, 1));
        let s = store.clone();
        let kept = run(async move { s.read(|c| find(c, "a", OLD)).await.unwrap() });
        assert_eq!(kept.unwrap().answer, answer);

        // held, then dropped (the process died or the request was cut): nothing stays
        let s = store.clone();
        let (_, keyed) = run(run_keyed(Keyed::new("b".into(), "h".into()), async move {
            s.write(create_event).await.unwrap()
        }));
        drop(keyed);
        assert_eq!(count(&store), 1);
        let s = store.clone();
        assert!(run(async move { s.read(|c| find(c, "b", OLD)).await.unwrap() }).is_none());
        // and the writer is free again
        let s = store.clone();
        run(async move { s.write(create_event).await.unwrap() });
        assert_eq!(count(&store), 2);

        // a keyed request writes once
        let s = store.clone();
        let (second, _) = run(run_keyed(Keyed::new("c".into(), "h".into()), async move {
            s.write(create_event).await.unwrap();
            s.write(create_event).await
        }));
        assert!(matches!(second, Err(ApiError::Internal(_))), "{second:?}");
        assert_eq!(count(&store), 2);

        // a duplicate that finds the answer committed while it waited stores nothing
        let s = store.clone();
        let (r, keyed) = run(run_keyed(Keyed::new("a".into(), "h".into()), async move {
            s.write(create_event).await
        }));
        assert!(r.is_err());
        assert_eq!(keyed.unwrap().found.unwrap().answer, answer);
        assert_eq!(count(&store), 2);
    }

    #[test]
    fn a_row_without_an_answer_is_not_an_answer_and_is_replaced() {
        let dir = crate::scratch::ScratchDir::new("keyed").unwrap();
        let store = Store::open(&dir.path().join("k.db")).unwrap();
        let s = store.clone();
        run(async move {
            s.write(|tx| {
                tx.execute(
                    "INSERT INTO idempotency_keys (scope, request_hash, created_at)
                     VALUES ('x', 'h', '2030-01-01T00:00:00Z')",
                    [],
                )?;
                assert_eq!(find(tx, "x", OLD)?, None);
                let answer = KeptAnswer {
                    status: 200,
                    content_type: None,
                    body: vec![],
                };
                keep(tx, "x", "h", &answer, "2030-01-01T00:00:00Z", OLD)?;
                assert_eq!(find(tx, "x", OLD)?.unwrap().answer, answer);
                // expired
                assert_eq!(find(tx, "x", "2031-01-01T00:00:00Z")?, None);
                Ok(())
            })
            .await
            .unwrap()
        });
    }

    #[test]
    fn a_running_key_is_running_once() {
        let keys = RunningKeys::default();
        let first = keys.start("k").unwrap();
        assert!(keys.start("k").is_none());
        assert!(keys.start("other").is_some());
        drop(first);
        assert!(keys.start("k").is_some());
    }
}
