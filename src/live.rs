//! The live feed of each event: what changed (a round published or deleted, a result, the
//! standings), kept in memory for the subscribers of `GET /api/v1/events/{id}/stream`.
//!
//! * Every message has an id `<epoch>-<n>`: `epoch` is this server process (its start time in
//!   milliseconds), `n` counts the event's messages from 1.
//! * The last [`KEPT`] messages of each event are kept. A subscriber reconnecting with
//!   `Last-Event-ID` gets the messages after it. When that id is unknown (from before a server
//!   restart, or older than what is kept) it gets one `resync` message instead: reload the
//!   event, then follow the stream.
//! * At most `max_subscribers` per event; each has a small buffer, and a subscriber too slow to
//!   empty it is dropped (it reconnects and replays from its last id).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use actix_web::web::Bytes;
use serde_json::Value;
use tokio::sync::mpsc;

/// Messages kept per event for replay.
pub const KEPT: usize = 256;
/// Default subscriber cap per event.
pub const MAX_SUBSCRIBERS: usize = 500;
/// Default interval of the heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// Messages waiting for one subscriber before it counts as too slow.
const BUFFER: usize = 64;

#[derive(Default)]
struct Feed {
    last: u64,
    kept: VecDeque<(u64, Bytes)>,
    subscribers: Vec<mpsc::Sender<Bytes>>,
}

/// What a new subscriber gets.
pub struct Subscription {
    /// Messages to send first (missed ones, or a `resync`).
    pub backlog: Vec<Bytes>,
    pub receiver: mpsc::Receiver<Bytes>,
}

/// The live feeds of all events.
pub struct Live {
    epoch: u64,
    feeds: Mutex<HashMap<i64, Feed>>,
    pub max_subscribers: usize,
    pub heartbeat: Duration,
}

impl Default for Live {
    fn default() -> Self {
        Live::new(MAX_SUBSCRIBERS, HEARTBEAT)
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

impl Live {
    pub fn new(max_subscribers: usize, heartbeat: Duration) -> Live {
        let epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Live {
            epoch,
            feeds: Mutex::new(HashMap::new()),
            max_subscribers,
            heartbeat,
        }
    }

    fn feeds(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Feed>> {
        // a panic while holding the lock leaves plain data behind: keep serving
        self.feeds.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `event` with `data` to the event's subscribers and keeps it for replay.
    pub fn publish(&self, event_id: i64, event: &str, data: Value) {
        let mut feeds = self.feeds();
        let feed = feeds.entry(event_id).or_default();
        feed.last += 1;
        let bytes = frame(Some(&format!("{}-{}", self.epoch, feed.last)), event, &data);
        feed.kept.push_back((feed.last, bytes.clone()));
        if feed.kept.len() > KEPT {
            feed.kept.pop_front();
        }
        // a closed or full channel: the subscriber is gone or too slow, drop it
        feed.subscribers
            .retain(|tx| tx.try_send(bytes.clone()).is_ok());
    }

    /// A new subscriber of `event_id`, after `last_event_id` when reconnecting; `None` when
    /// the event already has `max_subscribers`.
    pub fn subscribe(&self, event_id: i64, last_event_id: Option<&str>) -> Option<Subscription> {
        let mut feeds = self.feeds();
        let feed = feeds.entry(event_id).or_default();
        feed.subscribers.retain(|tx| !tx.is_closed());
        if feed.subscribers.len() >= self.max_subscribers {
            return None;
        }
        let backlog = match last_event_id {
            None => Vec::new(),
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
                    None => vec![frame(
                        None,
                        "resync",
                        &serde_json::json!({"event_id": event_id, "reason": "missed messages are no longer kept; reload the event"}),
                    )],
                }
            }
        };
        let (tx, receiver) = mpsc::channel(BUFFER);
        feed.subscribers.push(tx);
        Some(Subscription { backlog, receiver })
    }

    /// Subscribers of an event now.
    pub fn subscribers(&self, event_id: i64) -> usize {
        let mut feeds = self.feeds();
        feeds.get_mut(&event_id).map_or(0, |f| {
            f.subscribers.retain(|tx| !tx.is_closed());
            f.subscribers.len()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(b: &Bytes) -> String {
        String::from_utf8(b.to_vec()).unwrap()
    }

    #[test]
    fn replays_what_a_reconnecting_subscriber_missed() {
        let live = Live::new(10, HEARTBEAT);
        let mut first = live.subscribe(1, None).unwrap();
        live.publish(1, "round_published", json!({"round": 1}));
        live.publish(1, "result", json!({"round": 1, "board": 2}));
        let got = text(&first.receiver.try_recv().unwrap());
        let id = got
            .lines()
            .next()
            .unwrap()
            .strip_prefix("id: ")
            .unwrap()
            .to_string();
        assert!(
            got.contains("event: round_published\ndata: {\"round\":1}\n\n"),
            "{got}"
        );
        // reconnect after the first message: the second is replayed
        let again = live.subscribe(1, Some(&id)).unwrap();
        assert_eq!(again.backlog.len(), 1);
        assert!(text(&again.backlog[0]).contains("event: result"));
        // other events' messages never reach this feed
        live.publish(2, "result", json!({}));
        assert!(text(&first.receiver.try_recv().unwrap()).contains("event: result"));
        assert!(first.receiver.try_recv().is_err());
    }

    #[test]
    fn an_unknown_id_asks_for_a_resync() {
        let live = Live::new(10, HEARTBEAT);
        live.publish(1, "result", json!({}));
        for stale in ["1-1", "garbage", &format!("{}-99", live.epoch)] {
            let s = live.subscribe(1, Some(stale)).unwrap();
            assert_eq!(s.backlog.len(), 1, "{stale}");
            assert!(
                text(&s.backlog[0]).starts_with("event: resync\n"),
                "{stale}"
            );
        }
        // older than what is kept
        for _ in 0..KEPT + 5 {
            live.publish(1, "result", json!({}));
        }
        let s = live
            .subscribe(1, Some(&format!("{}-1", live.epoch)))
            .unwrap();
        assert!(text(&s.backlog[0]).starts_with("event: resync\n"));
        let s = live
            .subscribe(1, Some(&format!("{}-{}", live.epoch, KEPT)))
            .unwrap();
        assert_eq!(s.backlog.len(), 6);
    }

    #[test]
    fn caps_subscribers_and_forgets_those_gone() {
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
    fn a_slow_subscriber_is_dropped() {
        let live = Live::new(2, HEARTBEAT);
        let _slow = live.subscribe(1, None).unwrap();
        for _ in 0..BUFFER + 1 {
            live.publish(1, "result", json!({}));
        }
        assert_eq!(live.subscribers(1), 0);
    }
}
