//! The double-dummy worker: hand records are analysed after they are stored, off the request
//! path. `PUT .../deals` stores the deals (each `dd_tricks` NULL: pending) and wakes the
//! worker; the worker takes the pending deals a batch at a time, solves the distinct ones
//! ([`crate::engine::bridge::analysis`]) and stores each table in one write, which moves the
//! events' versions on (so cached reads of their deals, travellers and exports are fresh).
//! A deal is analysed once: a table stays with its board until the hands change, and a deal
//! dealt again elsewhere takes the stored table (`board_results::put_deals`). The worker also
//! looks for pending deals every few seconds (an imported event, a restart).
//!
//! One analysis runs at a time ([`solve`]): the worker's batches and the stateless
//! `POST /api/v1/bridge/analyse` take turns, each spread over the cores by the solver.
//!
//! The worker holds the server's state weakly: when the server's workers are gone, it stops.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Notify;

use crate::engine::bridge::analysis::{analyse, AnalysisError, DdTable};
use crate::error::{ApiError, ApiResult};
use crate::store::{board_results, Store};

/// Deals solved in one batch (a 36-board set in one go).
pub const BATCH: usize = 36;
/// How often the worker looks for pending deals when nobody wakes it.
const POLL: Duration = Duration::from_secs(3);

/// One analysis at a time, whoever asks.
static SOLVER: Mutex<()> = Mutex::new(());

/// Solves `deals` (four hands N, E, S, W each), waiting for any analysis under way.
pub fn solve(deals: &[[String; 4]]) -> Result<Vec<DdTable>, AnalysisError> {
    let _turn = SOLVER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    analyse(deals)
}

struct Shared {
    store: Store,
    wake: Notify,
}

/// The handle the server keeps (app data): wakes the worker when deals are stored.
pub struct Analysis {
    shared: Arc<Shared>,
}

impl Analysis {
    /// Starts the worker on its own thread.
    pub fn start(store: Store) -> Analysis {
        let shared = Arc::new(Shared {
            store,
            wake: Notify::new(),
        });
        let weak = Arc::downgrade(&shared);
        let started = std::thread::Builder::new()
            .name("dd-analysis".into())
            .spawn(move || actix_web::rt::System::new().block_on(work(weak)));
        if let Err(e) = started {
            log::error!("the double-dummy worker did not start: {e}");
        }
        Analysis { shared }
    }

    /// Tells the worker that deals are waiting.
    pub fn wake(&self) {
        self.shared.wake.notify_one();
    }
}

async fn work(weak: Weak<Shared>) {
    loop {
        let Some(shared) = weak.upgrade() else {
            return;
        };
        match batch(&shared.store).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => log::warn!("double-dummy analysis: {e}"),
        }
        let _ = tokio::time::timeout(POLL, shared.wake.notified()).await;
    }
}

/// Analyses one batch of pending deals; false when none was pending.
async fn batch(store: &Store) -> ApiResult<bool> {
    let pending = store.read(|c| board_results::pending(c, BATCH)).await?;
    if pending.is_empty() {
        return Ok(false);
    }
    let mut distinct: Vec<[String; 4]> = Vec::new();
    for p in &pending {
        if !distinct.contains(&p.hands) {
            distinct.push(p.hands.clone());
        }
    }
    let started = std::time::Instant::now();
    let unsolved = distinct.clone();
    let tables = actix_web::web::block(move || solve(&unsolved))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    log::info!(
        "double-dummy analysis of {} deals in {} ms",
        distinct.len(),
        started.elapsed().as_millis()
    );
    store
        .write(move |tx| {
            for p in &pending {
                if let Some(k) = distinct.iter().position(|h| *h == p.hands) {
                    board_results::set_analysis(tx, p, &tables[k])?;
                }
            }
            Ok(())
        })
        .await?;
    Ok(true)
}
