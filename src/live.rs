//! The live feed of each event: what changed, kept in memory for the subscribers of
//! `GET /api/v1/events/{id}/stream` (the messages are described in
//! [`crate::api::events::stream`]).
//!
//! * One change of an event (one request's write) is one message, however many rows it wrote:
//!   a 1 000-result upload is one `results` message naming its rounds and boards.
//! * Every message has an id `<epoch>-<n>`: `epoch` is this server process (its start time in
//!   milliseconds), `n` counts the event's messages from 1.
//! * The last [`KEPT`] messages of each event are kept. A subscriber reconnecting with
//!   `Last-Event-ID` gets the messages after it. When that id is unknown (from before a server
//!   restart, or older than what is kept) it gets one `resync` message instead (reason
//!   `not_kept`): reload the event, then follow the stream.
//! * Each subscriber has a queue of at most [`QUEUE`] messages (shared bytes: a message is
//!   built once for all subscribers). A subscriber whose queue is full when a message comes
//!   has fallen behind: it is dropped from the feed at once (its queue freed, nothing more
//!   queued for it), and its stream ends with one `resync` message (reason `fell_behind`, its
//!   id the latest), so a phone that comes back reloads, then reconnects from there.
//! * At most `max_subscribers` responses per event (`TOURNEY_STREAM_SUBSCRIBERS`, default
//!   [`DEFAULT_MAX_SUBSCRIBERS`]). A response counts until it is dropped (its connection
//!   closed, or its stream ended), a dropped subscriber's too: what the stalled connections
//!   of an event hold is bounded by the cap.
//! * Messages of a request whose transaction commits after its handler (one sent with an
//!   `Idempotency-Key`) wait for that commit ([`deferring`]): nothing is told that may still
//!   roll back.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use actix_web::web::Bytes;
use serde_json::{json, Value};

/// Messages kept per event for replay.
pub const KEPT: usize = 256;
/// Default subscriber cap per event: the phones of a 10 000-player hall, and a fifth more for
/// phones reconnecting while their old connection is not yet known to be gone.
pub const DEFAULT_MAX_SUBSCRIBERS: usize = 12_000;
/// Default interval of the heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// Messages waiting for one subscriber before it counts as fallen behind.
pub const QUEUE: usize = 64;
/// Subscribers a worker thread wakes at a time (see [`Hub`]): about 1 ms of their writes (a
/// chunk written to a connection, some 10-30 us), the most that a step of another request (its
/// body read, its answer from the store) waits behind a fan-out on its worker.
const WAKE_BATCH: usize = 32;

/// The subscribers of one worker thread that messages woke, and the task on that thread that
/// wakes them [`WAKE_BATCH`] at a time. A worker runs its ready tasks in order; the hub's task
/// is one of them, so it wakes the next batch only once the tasks ahead of it (the batch before,
/// and whatever else came meanwhile: a health check, a request, the I/O of other connections)
/// have run. A message to thousands of phones thus never puts more than a batch of their
/// writes ahead of another request on any worker, and the publishing request's worker does
/// not flood the others: each paces its own subscribers.
#[derive(Default)]
struct Hub {
    pending: Mutex<VecDeque<Waker>>,
    /// The hub's task, when it waits for work.
    task: Mutex<Option<Waker>>,
    /// False once its task is gone (its runtime stopped): wakers are then woken at once.
    alive: std::sync::atomic::AtomicBool,
}

thread_local! {
    static HUB: RefCell<Option<Arc<Hub>>> = const { RefCell::new(None) };
}

impl Hub {
    /// This thread's hub, its task started on first use; `None` outside an actix runtime
    /// (subscribers are then woken at once).
    fn here() -> Option<Arc<Hub>> {
        use std::sync::atomic::Ordering;
        // an actix thread (a worker, or a system's own) runs a local task set to spawn on
        actix_web::rt::System::try_current()?;
        HUB.with(|hub| {
            let mut hub = hub.borrow_mut();
            if let Some(h) = hub.as_ref().filter(|h| h.alive.load(Ordering::Acquire)) {
                return Some(h.clone());
            }
            let h = Arc::new(Hub::default());
            h.alive.store(true, Ordering::Release);
            actix_web::rt::spawn(HubTask(h.clone()).run());
            *hub = Some(h.clone());
            Some(h)
        })
    }

    /// Hands `wakers` to the hub's task (or wakes them at once if it is gone).
    fn wake(&self, wakers: Vec<Waker>) {
        {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if self.alive.load(std::sync::atomic::Ordering::Acquire) {
                pending.extend(wakers);
            } else {
                drop(pending);
                wakers.into_iter().for_each(Waker::wake);
                return;
            }
        }
        let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = task {
            task.wake();
        }
    }
}

/// The hub's task; when dropped (its runtime stopping) the hub wakes what it still holds at once.
struct HubTask(Arc<Hub>);

impl HubTask {
    async fn run(self) {
        loop {
            let batch: Vec<Waker> = std::future::poll_fn(|cx| {
                let mut pending = self.0.pending.lock().unwrap_or_else(|e| e.into_inner());
                if pending.is_empty() {
                    // registered under the pending lock: a wake handed over after this sees it
                    *self.0.task.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(cx.waker().clone());
                    return Poll::Pending;
                }
                let n = pending.len().min(WAKE_BATCH);
                Poll::Ready(pending.drain(..n).collect())
            })
            .await;
            batch.into_iter().for_each(Waker::wake);
            // behind the batch just woken in the worker's queue
            tokio::task::yield_now().await;
        }
    }
}

impl Drop for HubTask {
    fn drop(&mut self) {
        self.0
            .alive
            .store(false, std::sync::atomic::Ordering::Release);
        let left: Vec<Waker> = self
            .0
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
            .collect();
        left.into_iter().for_each(Waker::wake);
    }
}

/// The subscriber cap from `TOURNEY_STREAM_SUBSCRIBERS` (a whole number of at least 1),
/// default [`DEFAULT_MAX_SUBSCRIBERS`].
pub fn max_subscribers_from_env() -> usize {
    let n = crate::limits::setting_from_env(
        "TOURNEY_STREAM_SUBSCRIBERS",
        DEFAULT_MAX_SUBSCRIBERS as u64,
    );
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// What one subscriber has not yet taken.
#[derive(Default)]
struct Slot {
    queue: VecDeque<Bytes>,
    /// Fallen behind: the `resync` to send, then the end.
    resync: Option<Bytes>,
    waker: Option<Waker>,
    /// The hub of the worker thread it is read on (`None`: woken at once).
    hub: Option<Arc<Hub>>,
}

type SharedSlot = Arc<Mutex<Slot>>;

fn lock(slot: &SharedSlot) -> MutexGuard<'_, Slot> {
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Default)]
struct Feed {
    last: u64,
    kept: VecDeque<(u64, Bytes)>,
    next_subscriber: u64,
    /// Those the messages go to.
    subscribers: HashMap<u64, SharedSlot>,
    /// Responses not yet dropped (the subscribers and those dropped for falling behind).
    responses: usize,
}

type Feeds = Arc<Mutex<HashMap<i64, Feed>>>;

/// One subscriber: first its backlog (missed messages, or a `resync`), then what comes.
pub struct Subscription {
    backlog: VecDeque<Bytes>,
    slot: SharedSlot,
    feeds: Feeds,
    event_id: i64,
    id: u64,
    ended: bool,
}

impl Subscription {
    /// The next message: `Ready(None)` once the subscriber has fallen behind and been sent its
    /// `resync`.
    pub fn poll_message(&mut self, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        if let Some(message) = self.backlog.pop_front() {
            return Poll::Ready(Some(message));
        }
        if self.ended {
            return Poll::Ready(None);
        }
        let mut slot = lock(&self.slot);
        if let Some(message) = slot.queue.pop_front() {
            return Poll::Ready(Some(message));
        }
        if let Some(resync) = slot.resync.take() {
            self.ended = true;
            return Poll::Ready(Some(resync));
        }
        if !slot.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            slot.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }

    /// The next message now, if any (tests).
    pub fn try_next(&mut self) -> Option<Bytes> {
        let waker = Waker::noop();
        match self.poll_message(&mut Context::from_waker(waker)) {
            Poll::Ready(message) => message,
            Poll::Pending => None,
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(feed) = feeds.get_mut(&self.event_id) {
            feed.subscribers.remove(&self.id);
            feed.responses = feed.responses.saturating_sub(1);
        }
    }
}

/// The live feeds of all events.
pub struct Live {
    epoch: u64,
    feeds: Feeds,
    pub max_subscribers: usize,
    pub heartbeat: Duration,
}

impl Default for Live {
    /// The cap from `TOURNEY_STREAM_SUBSCRIBERS`, a heartbeat every [`HEARTBEAT`].
    fn default() -> Self {
        Live::new(max_subscribers_from_env(), HEARTBEAT)
    }
}

/// One server-sent event as sent on the wire.
fn frame(id: Option<&str>, event: &str, data: &Value) -> Bytes {
    let mut out = String::new();
    if let Some(id) = id {
        out.push_str(&format!("id: {id}\n"));
    }
    // serde_json never writes a raw newline, so the data fits one `data:` line
    out.push_str(&format!("event: {event}\ndata: {data}\n\n"));
    Bytes::from(out)
}

/// Why a subscriber must reload the event.
#[derive(Debug, Clone, Copy)]
enum Resync {
    /// Its `Last-Event-ID` is not among the kept messages.
    NotKept,
    /// It could not take the messages as fast as they came.
    FellBehind,
}

tokio::task_local! {
    static DEFERRED: RefCell<Vec<(i64, &'static str, Value)>>;
}

/// Messages held back until their request's transaction has committed.
#[must_use = "send them once committed, or drop them"]
pub struct Deferred(Vec<(i64, &'static str, Value)>);

/// Runs `handler` with its messages held back: [`Live::publish`] inside it keeps them for
/// [`Live::send_deferred`].
pub async fn deferring<F: Future>(handler: F) -> (F::Output, Deferred) {
    DEFERRED
        .scope(RefCell::new(Vec::new()), async move {
            let output = handler.await;
            let held = DEFERRED.with(|d| std::mem::take(&mut *d.borrow_mut()));
            (output, Deferred(held))
        })
        .await
}

impl Live {
    pub fn new(max_subscribers: usize, heartbeat: Duration) -> Live {
        let epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Live {
            epoch,
            feeds: Arc::default(),
            max_subscribers: max_subscribers.max(1),
            heartbeat,
        }
    }

    fn feeds(&self) -> MutexGuard<'_, HashMap<i64, Feed>> {
        // a panic while holding the lock leaves plain data behind: keep serving
        self.feeds.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn resync(&self, event_id: i64, last: u64, why: Resync) -> Bytes {
        let (reason, detail) = match why {
            Resync::NotKept => (
                "not_kept",
                "the messages after your Last-Event-ID are no longer kept",
            ),
            Resync::FellBehind => (
                "fell_behind",
                "messages came faster than this connection took them",
            ),
        };
        frame(
            Some(&format!("{}-{last}", self.epoch)),
            "resync",
            &json!({
                "event_id": event_id,
                "reason": reason,
                "detail": detail,
                "href": format!("/api/v1/events/{event_id}"),
            }),
        )
    }

    /// Sends `event` with `data` to the event's subscribers and keeps it for replay; inside
    /// [`deferring`], keeps it for later instead.
    pub fn publish(&self, event_id: i64, event: &'static str, data: Value) {
        let mut data = Some(data);
        let _ = DEFERRED.try_with(|d| {
            if let Some(data) = data.take() {
                d.borrow_mut().push((event_id, event, data));
            }
        });
        if let Some(data) = data {
            self.send(event_id, event, data);
        }
    }

    /// Sends what [`deferring`] held back.
    pub fn send_deferred(&self, deferred: Deferred) {
        for (event_id, event, data) in deferred.0 {
            self.send(event_id, event, data);
        }
    }

    fn send(&self, event_id: i64, event: &str, data: Value) {
        // the wakers of each worker thread's subscribers, and of those woken at once
        let mut by_hub: Vec<(Arc<Hub>, Vec<Waker>)> = Vec::new();
        let mut at_once = Vec::new();
        {
            let mut feeds = self.feeds();
            let feed = feeds.entry(event_id).or_default();
            feed.last += 1;
            let n = feed.last;
            // the message's bytes, made once: every subscriber's queue holds the same buffer
            let bytes = frame(Some(&format!("{}-{n}", self.epoch)), event, &data);
            feed.kept.push_back((n, bytes.clone()));
            if feed.kept.len() > KEPT {
                feed.kept.pop_front();
            }
            let mut behind = Vec::new();
            let mut resync = None;
            for (&id, slot) in &feed.subscribers {
                let mut s = lock(slot);
                if s.queue.len() >= QUEUE {
                    // fallen behind: its queue is freed, it gets a resync and ends
                    s.queue.clear();
                    let message =
                        resync.get_or_insert_with(|| self.resync(event_id, n, Resync::FellBehind));
                    s.resync = Some(message.clone());
                    behind.push(id);
                } else {
                    s.queue.push_back(bytes.clone());
                }
                // one waiting for a message is woken; one already woken takes this one too
                let Some(waker) = s.waker.take() else {
                    continue;
                };
                match &s.hub {
                    Some(hub) => match by_hub.iter_mut().find(|(h, _)| Arc::ptr_eq(h, hub)) {
                        Some((_, wakers)) => wakers.push(waker),
                        None => by_hub.push((hub.clone(), vec![waker])),
                    },
                    None => at_once.push(waker),
                }
            }
            for id in behind {
                feed.subscribers.remove(&id);
            }
        }
        for (hub, wakers) in by_hub {
            hub.wake(wakers);
        }
        at_once.into_iter().for_each(Waker::wake);
    }

    /// A new subscriber of `event_id`, after `last_event_id` when reconnecting; `None` when
    /// the event already has `max_subscribers`.
    pub fn subscribe(&self, event_id: i64, last_event_id: Option<&str>) -> Option<Subscription> {
        let mut feeds = self.feeds();
        let feed = feeds.entry(event_id).or_default();
        if feed.responses >= self.max_subscribers {
            return None;
        }
        let backlog = match last_event_id {
            None => VecDeque::new(),
            Some(id) => {
                let known = id
                    .split_once('-')
                    .filter(|(epoch, _)| *epoch == self.epoch.to_string())
                    .and_then(|(_, n)| n.parse::<u64>().ok())
                    .filter(|&n| {
                        let oldest = feed.kept.front().map_or(feed.last + 1, |k| k.0);
                        n <= feed.last && n + 1 >= oldest
                    });
                match known {
                    Some(n) => feed
                        .kept
                        .iter()
                        .filter(|(k, _)| *k > n)
                        .map(|(_, b)| b.clone())
                        .collect(),
                    None => VecDeque::from([self.resync(event_id, feed.last, Resync::NotKept)]),
                }
            }
        };
        feed.next_subscriber += 1;
        let id = feed.next_subscriber;
        let slot = SharedSlot::new(Mutex::new(Slot {
            hub: Hub::here(),
            ..Slot::default()
        }));
        feed.subscribers.insert(id, slot.clone());
        feed.responses += 1;
        Some(Subscription {
            backlog,
            slot,
            feeds: self.feeds.clone(),
            event_id,
            id,
            ended: false,
        })
    }

    /// Responses of an event's stream now (what the cap counts).
    pub fn subscribers(&self, event_id: i64) -> usize {
        self.feeds().get(&event_id).map_or(0, |f| f.responses)
    }

    /// Subscribers the messages of an event go to now.
    pub fn listening(&self, event_id: i64) -> usize {
        self.feeds()
            .get(&event_id)
            .map_or(0, |f| f.subscribers.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(b: &Bytes) -> String {
        String::from_utf8(b.to_vec()).unwrap()
    }

    fn id_of(b: &Bytes) -> String {
        text(b)
            .lines()
            .next()
            .unwrap()
            .strip_prefix("id: ")
            .unwrap()
            .to_string()
    }

    #[test]
    fn replays_what_a_reconnecting_subscriber_missed() {
        let live = Live::new(10, HEARTBEAT);
        let mut first = live.subscribe(1, None).unwrap();
        live.publish(1, "rounds", json!({"published": [1]}));
        live.publish(
            1,
            "results",
            json!({"rounds": [{"round": 1, "boards": [2]}]}),
        );
        let got = first.try_next().unwrap();
        assert!(
            text(&got).contains("event: rounds\ndata: {\"published\":[1]}\n\n"),
            "{}",
            text(&got)
        );
        // reconnect after the first message: the second is replayed
        let mut again = live.subscribe(1, Some(&id_of(&got))).unwrap();
        assert!(text(&again.try_next().unwrap()).contains("event: results"));
        assert!(again.try_next().is_none());
        // other events' messages never reach this feed
        live.publish(2, "results", json!({}));
        assert!(text(&first.try_next().unwrap()).contains("event: results"));
        assert!(first.try_next().is_none());
    }

    #[test]
    fn an_unknown_id_asks_for_a_resync_from_the_latest() {
        let live = Live::new(10, HEARTBEAT);
        live.publish(1, "results", json!({}));
        for stale in ["1-1", "garbage", &format!("{}-99", live.epoch)] {
            let mut s = live.subscribe(1, Some(stale)).unwrap();
            let resync = s.try_next().unwrap();
            assert!(
                text(&resync).contains("event: resync\ndata: {\"detail\":"),
                "{stale}: {}",
                text(&resync)
            );
            assert!(text(&resync).contains("\"reason\":\"not_kept\""));
            // its id is the latest: reconnecting with it replays nothing more
            assert_eq!(id_of(&resync), format!("{}-1", live.epoch));
            let mut after = live.subscribe(1, Some(&id_of(&resync))).unwrap();
            assert!(after.try_next().is_none());
        }
        // older than what is kept
        for _ in 0..KEPT + 5 {
            live.publish(1, "results", json!({}));
        }
        let mut s = live
            .subscribe(1, Some(&format!("{}-1", live.epoch)))
            .unwrap();
        assert!(text(&s.try_next().unwrap()).contains("event: resync"));
        let mut s = live
            .subscribe(1, Some(&format!("{}-{}", live.epoch, KEPT)))
            .unwrap();
        let replayed = std::iter::from_fn(|| s.try_next()).count();
        assert_eq!(replayed, 6);
    }

    #[test]
    fn caps_subscribers_and_forgets_those_gone_at_once() {
        let live = Live::new(2, HEARTBEAT);
        let a = live.subscribe(7, None).unwrap();
        let _b = live.subscribe(7, None).unwrap();
        assert!(live.subscribe(7, None).is_none());
        assert!(live.subscribe(8, None).is_some(), "the cap is per event");
        drop(a);
        assert_eq!(live.subscribers(7), 1);
        assert!(live.subscribe(7, None).is_some());
    }

    #[test]
    fn a_subscriber_that_falls_behind_is_dropped_with_a_resync() {
        let live = Live::new(2, HEARTBEAT);
        let mut slow = live.subscribe(1, None).unwrap();
        let mut quick = live.subscribe(1, None).unwrap();
        for i in 0..QUEUE + 1 {
            live.publish(1, "results", json!({"i": i}));
            assert!(quick.try_next().is_some());
        }
        assert_eq!(live.listening(1), 1, "dropped at once");
        assert_eq!(live.subscribers(1), 2, "its response counts until it ends");
        // its queue was freed: the resync comes next, then the end
        let resync = slow.try_next().unwrap();
        assert!(text(&resync).contains("\"reason\":\"fell_behind\""));
        assert_eq!(id_of(&resync), format!("{}-{}", live.epoch, QUEUE + 1));
        let waker = Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert_eq!(slow.poll_message(&mut cx), Poll::Ready(None));
        drop(slow);
        assert_eq!(live.subscribers(1), 1);
        // the quick one goes on
        live.publish(1, "results", json!({}));
        assert!(quick.try_next().is_some());
    }

    #[test]
    fn a_message_to_many_subscribers_wakes_every_one_in_batches() {
        let live = std::sync::Arc::new(Live::new(5 * WAKE_BATCH, HEARTBEAT));
        actix_web::rt::System::new().block_on(async {
            let waiting: Vec<_> = (0..3 * WAKE_BATCH + 7)
                .map(|_| {
                    let mut sub = live.subscribe(1, None).unwrap();
                    actix_web::rt::spawn(async move {
                        std::future::poll_fn(|cx| sub.poll_message(cx)).await
                    })
                })
                .collect();
            // every task is waiting before the message comes
            actix_web::rt::task::yield_now().await;
            live.publish(1, "results", json!({}));
            for task in waiting {
                let got = tokio::time::timeout(Duration::from_secs(5), task)
                    .await
                    .expect("woken")
                    .unwrap();
                assert!(text(&got.unwrap()).contains("event: results"));
            }
        });
    }

    #[test]
    fn a_task_behind_a_fan_out_waits_for_one_batch_at_most() {
        use std::cell::Cell;
        use std::rc::Rc;
        let n = 20 * WAKE_BATCH;
        let live = std::sync::Arc::new(Live::new(n, HEARTBEAT));
        actix_web::rt::System::new().block_on(async {
            let (started, done) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
            let probe_saw = Rc::new(Cell::new(None));
            let waiting: Vec<_> = (0..n)
                .map(|_| {
                    let mut sub = live.subscribe(1, None).unwrap();
                    let (started, done) = (started.clone(), done.clone());
                    let probe_saw = probe_saw.clone();
                    actix_web::rt::spawn(async move {
                        started.set(started.get() + 1);
                        std::future::poll_fn(|cx| sub.poll_message(cx)).await;
                        done.set(done.get() + 1);
                        if done.get() == 1 {
                            // a request that comes now is queued behind what the fan-out woke
                            actix_web::rt::spawn(async move { probe_saw.set(Some(done.get())) });
                        }
                    })
                })
                .collect();
            while started.get() < n {
                actix_web::rt::task::yield_now().await;
            }
            live.publish(1, "results", json!({}));
            for task in waiting {
                tokio::time::timeout(Duration::from_secs(5), task)
                    .await
                    .expect("woken")
                    .unwrap();
            }
            let saw = probe_saw.get().unwrap();
            assert!(saw <= 2 * WAKE_BATCH, "{saw} subscribers served before it");
        });
    }

    #[test]
    fn messages_wait_inside_deferring_until_sent() {
        let live = Live::new(2, HEARTBEAT);
        let mut sub = live.subscribe(1, None).unwrap();
        let (_, deferred) = actix_web::rt::System::new().block_on(deferring(async {
            live.publish(1, "results", json!({}));
        }));
        assert!(sub.try_next().is_none());
        live.send_deferred(deferred);
        assert!(sub.try_next().is_some());
    }
}
