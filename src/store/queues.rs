//! The server's queues: the writer's (one change at a time), the imports' (one at a time),
//! the chess pairings' (one per core), and the room for request bodies being read (their
//! bytes together at most `TOURNEY_BODY_MEMORY_MIB`). Each is fair (first come, first served)
//! and bounded in time: a request that waits too long gets a 503 with `Retry-After`, so a
//! burst of heavy requests queues instead of taking the server's memory.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Store;
use crate::error::{ApiError, ApiResult};

/// The unit of body room: 64 KiB.
const BODY_UNIT: usize = 64 * 1024;
/// Default room for request bodies being read at once: 512 MiB.
pub const DEFAULT_BODY_MEMORY_MIB: u64 = 512;

/// The room for bodies from `TOURNEY_BODY_MEMORY_MIB` (MiB, a whole number of at least 1),
/// default [`DEFAULT_BODY_MEMORY_MIB`].
pub(super) fn body_room_from_env() -> usize {
    let mib = crate::limits::setting_from_env("TOURNEY_BODY_MEMORY_MIB", DEFAULT_BODY_MEMORY_MIB);
    usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

/// The semaphores and their bound on waiting.
#[derive(Clone)]
pub(super) struct Queues {
    /// The writer: one change at a time.
    pub(super) writer: Arc<Semaphore>,
    /// Imports: one document read, parsed and checked at a time, as one takes several times
    /// its size (up to `limits::MAX_IMPORT_BYTES`) in memory.
    imports: Arc<Semaphore>,
    /// Chess pairings: one per core (each is CPU-bound, and a 10 000-player one holds about
    /// 250 MB while it runs).
    pairings: Arc<Semaphore>,
    /// Request bodies being read, in units of [`BODY_UNIT`].
    bodies: Arc<Semaphore>,
    body_units: u32,
    /// How long a request waits for the writer, an import's or a pairing's turn.
    pub(super) wait: Duration,
}

/// `bytes` of body room in [`BODY_UNIT`]s, rounded up.
fn units_of(bytes: usize) -> u32 {
    u32::try_from(bytes.div_ceil(BODY_UNIT)).unwrap_or(u32::MAX)
}

impl Queues {
    pub(super) fn new(wait: Duration, body_bytes: usize) -> Queues {
        let body_units = units_of(body_bytes).clamp(1, Semaphore::MAX_PERMITS as u32);
        Queues {
            writer: Arc::new(Semaphore::new(1)),
            imports: Arc::new(Semaphore::new(1)),
            pairings: Arc::new(Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()),
            )),
            bodies: Arc::new(Semaphore::new(body_units as usize)),
            body_units,
            wait,
        }
    }
}

/// Room held for one request body while its request lasts (kept in the request's extensions).
pub struct BodyRoom(#[allow(dead_code)] OwnedSemaphorePermit);

impl Store {
    /// The same store with another bound on the wait for the writer and the queues.
    pub fn with_write_wait(mut self, wait: Duration) -> Store {
        self.queues.wait = wait;
        self
    }

    /// The same store with `slots` pairings at once (at least 1) instead of one per core.
    pub fn with_pairing_slots(mut self, slots: usize) -> Store {
        self.queues.pairings = Arc::new(Semaphore::new(slots.max(1)));
        self
    }

    /// The same store with room for `bytes` of request bodies read at once.
    pub fn with_body_memory(mut self, bytes: usize) -> Store {
        let units = units_of(bytes).clamp(1, Semaphore::MAX_PERMITS as u32);
        self.queues.bodies = Arc::new(Semaphore::new(units as usize));
        self.queues.body_units = units;
        self
    }

    /// The room left for request bodies now, in bytes (a multiple of 64 KiB): 0 while the
    /// bodies being read hold all of it. For tests and probes that must see a body holding
    /// room before they go on, instead of guessing how long the server takes to get there.
    pub fn body_room_left(&self) -> usize {
        self.queues.bodies.available_permits() * BODY_UNIT
    }

    /// An import holds the import turn now (see [`Store::body_room_left`] for why).
    pub fn import_underway(&self) -> bool {
        self.queues.imports.available_permits() == 0
    }

    /// Waits for the writer's turn, at most the wait: a 503 rather than an endless queue.
    pub(super) async fn writer_turn(&self) -> ApiResult<OwnedSemaphorePermit> {
        let asked = std::time::Instant::now();
        let permit = self
            .turn(&self.queues.writer, 1, self.queues.wait, "other changes")
            .await?;
        if let Ok(mut waits) = self.waits.lock() {
            waits.observe(asked.elapsed().as_secs_f64());
        }
        Ok(permit)
    }

    /// Waits for the turn to read an event import, at most the wait (a 503 after that): one
    /// import is read, parsed and checked at a time. Hold the permit until it is written.
    pub async fn import_turn(&self) -> ApiResult<OwnedSemaphorePermit> {
        let wait = self.queues.wait;
        self.turn(&self.queues.imports, 1, wait, "another import")
            .await
    }

    /// Waits for a turn to pair a chess round (stateless or an event's, or to change a draft),
    /// at most the wait (a 503 after that). Hold the permit until the engine has answered.
    pub async fn pairing_turn(&self) -> ApiResult<OwnedSemaphorePermit> {
        let wait = self.queues.wait;
        self.turn(&self.queues.pairings, 1, wait, "other pairings")
            .await
    }

    /// Waits, at most `limits::BODY_TIMEOUT`, for room to read a request body of `bytes` (the
    /// room there is, if less): the bytes of the bodies being read at once stay within
    /// `TOURNEY_BODY_MEMORY_MIB`, so many large bodies sent at once queue instead of taking
    /// the server's memory. Hold it while the request lasts.
    pub async fn body_room(&self, bytes: usize) -> ApiResult<BodyRoom> {
        let units = units_of(bytes).min(self.queues.body_units);
        let busy_with = "other request bodies, which fill TOURNEY_BODY_MEMORY_MIB";
        self.turn(
            &self.queues.bodies,
            units,
            crate::limits::BODY_TIMEOUT,
            busy_with,
        )
        .await
        .map(BodyRoom)
    }

    /// `units` of `gate` within `wait`, else a 503 saying what the server is busy with.
    async fn turn(
        &self,
        gate: &Arc<Semaphore>,
        units: u32,
        wait: Duration,
        busy_with: &str,
    ) -> ApiResult<OwnedSemaphorePermit> {
        match tokio::time::timeout(wait, gate.clone().acquire_many_owned(units)).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_)) => Err(ApiError::Internal("a queue of the server is closed".into())),
            Err(_) => Err(ApiError::Unavailable(format!(
                "the server is busy with {busy_with} (waited {} s for its turn); retry in a moment",
                wait.as_secs_f32()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Body room is counted in 64 KiB units up to the room there is: a body as large as the
    /// whole room waits for every other body, and a waiting one is a 503 after the body
    /// timeout; freed room is taken again at once.
    #[test]
    fn bodies_wait_for_room_and_a_body_larger_than_the_room_takes_all_of_it() {
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let store = Store::open(&dir.path().join("q.db"))
            .unwrap()
            .with_body_memory(1 << 20);
        actix_web::rt::System::new().block_on(async move {
            let small = store.body_room(100).await.unwrap();
            let most = store.body_room((1 << 20) - BODY_UNIT).await.unwrap();
            // 16 units, all taken: nothing more fits now.
            let waiting = store.body_room(1);
            let answer = tokio::time::timeout(Duration::from_millis(50), waiting).await;
            assert!(answer.is_err(), "no room is left");
            drop(small);
            let again = store.body_room(BODY_UNIT).await.unwrap();
            drop((most, again));
            // A body larger than the whole room takes all of it, not more (it would never fit).
            let whole = store.body_room(64 << 20).await.unwrap();
            assert_eq!(store.queues.bodies.available_permits(), 0);
            drop(whole);
            assert_eq!(store.queues.bodies.available_permits(), 16);
        });
    }
}
