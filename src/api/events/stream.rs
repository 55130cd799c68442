//! `GET /api/v1/events/{id}/stream`: the event's changes as server-sent events, for apps that
//! would otherwise poll (see [`crate::live`] for ids, replay and limits).
//!
//! Messages: `round_published` and `round_deleted` (`{"event_id", "round"}`; every format:
//! a Swiss round published or deleted, a round robin's or team event's schedule made or made
//! again by drawing lots, see [`RoundWatch`]), `result` (one per changed result: a game
//! `{"event_id", "game_id", "round", "board", "result"}`, a bridge board
//! `{"event_id", "round", "table", "board", "ns_pair", "ew_pair", "contract", "declarer",
//! "tricks", "ns_score", ...}` as the board-results answer stores it), `standings`
//! (`{"event_id", "href"}`: the standings changed, fetch them), `resync` (reload the event).
//! A comment line (`: heartbeat`) keeps idle connections open.

use std::collections::{BTreeMap, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::http::header::{self, ContentEncoding};
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use futures_core::Stream;
use rusqlite::Connection;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::time::Interval;

use crate::api::responses::LiveStream;
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::{bridge_matches, events, rounds, Store};

/// The body of one subscriber's response: the backlog, then live messages and heartbeats.
struct EventStream {
    backlog: VecDeque<Bytes>,
    receiver: mpsc::Receiver<Bytes>,
    heartbeat: Interval,
}

impl Stream for EventStream {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(message) = self.backlog.pop_front() {
            return Poll::Ready(Some(Ok(message)));
        }
        match self.receiver.poll_recv(cx) {
            Poll::Ready(Some(message)) => return Poll::Ready(Some(Ok(message))),
            // dropped by the feed (too slow): end the response, the client reconnects
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        if self.heartbeat.poll_tick(cx).is_ready() {
            return Poll::Ready(Some(Ok(Bytes::from_static(b": heartbeat\n\n"))));
        }
        Poll::Pending
    }
}

/// The event's changes as they happen (`text/event-stream`). Reconnect with `Last-Event-ID`
/// to get the messages missed meanwhile; a `resync` message means reload the event. At most a
/// few hundred subscribers per event (429 beyond).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/stream", tag = "results",
    params(
        ("event_id" = i64, Path, description = "Event id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The id of the last message received, to replay what came after it"),
    ),
    responses(
        (status = 200, description = "Server-sent events: round_published, round_deleted, result, standings, resync; a `: heartbeat` comment every 15 s", body = String, content_type = "text/event-stream"),
        LiveStream,
    )
)]
#[get("/api/v1/events/{event_id}/stream")]
pub async fn stream_event(
    req: HttpRequest,
    store: web::Data<Store>,
    live: web::Data<Live>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    store.read(move |conn| events::get(conn, event_id)).await?;
    let last = req
        .headers()
        .get("Last-Event-ID")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let subscription = live.subscribe(event_id, last).ok_or_else(|| {
        ApiError::TooManyRequests(format!(
            "event {event_id} already has {} live subscribers; retry later",
            live.max_subscribers
        ))
    })?;
    let mut heartbeat = tokio::time::interval(live.heartbeat);
    // the first tick is immediate: skip it, the first heartbeat comes after one interval
    heartbeat.reset();
    let body = EventStream {
        backlog: subscription.backlog.into(),
        receiver: subscription.receiver,
        heartbeat,
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // never compressed: a compressor would hold messages back
        .insert_header(ContentEncoding::Identity)
        .streaming(body))
}

/// The published rounds of an event as a write begins: after the write's changes,
/// [`RoundWatch::news`] says which rounds went (deleted, or made again with other pairings)
/// and which were published. One path for every format: a Swiss round published or deleted,
/// a round robin's or a team event's whole schedule made, or made again, when lots are drawn,
/// a bridge Swiss round drawn or deleted.
pub struct RoundWatch {
    event_id: i64,
    before: BTreeMap<u32, String>,
}

impl RoundWatch {
    /// Notes the published rounds; call inside the write, before its changes.
    pub fn start(conn: &Connection, event_id: i64) -> ApiResult<RoundWatch> {
        Ok(RoundWatch {
            event_id,
            before: published(conn, event_id)?,
        })
    }

    /// What the write changed; call inside the write, after its changes.
    pub fn news(self, conn: &Connection) -> ApiResult<RoundNews> {
        let after = published(conn, self.event_id)?;
        Ok(compare(self.event_id, &self.before, &after))
    }
}

/// An event's published rounds: its rounds, or the draws of a bridge Swiss event (an event has
/// one or the other).
fn published(conn: &Connection, event_id: i64) -> ApiResult<BTreeMap<u32, String>> {
    let mut all = rounds::published(conn, event_id)?;
    all.extend(bridge_matches::published_draws(conn, event_id)?);
    Ok(all)
}

/// Rounds to announce once the write is committed (a write rolled back announces nothing).
#[must_use = "announce the news once the write is committed"]
#[derive(Debug, PartialEq, Eq)]
pub struct RoundNews {
    event_id: i64,
    /// Round numbers no longer published as they were, in order.
    deleted: Vec<u32>,
    /// Round numbers newly published (a draft published, a round made), in order.
    published: Vec<u32>,
}

/// The rounds (pairings by number) of `before` not in `after` as they were, and those of
/// `after` new or changed: a round made again with other pairings is both.
fn compare(
    event_id: i64,
    before: &BTreeMap<u32, String>,
    after: &BTreeMap<u32, String>,
) -> RoundNews {
    let only = |a: &BTreeMap<u32, String>, b: &BTreeMap<u32, String>| -> Vec<u32> {
        a.iter()
            .filter(|(n, pairings)| b.get(n) != Some(pairings))
            .map(|(&n, _)| n)
            .collect()
    };
    RoundNews {
        event_id,
        deleted: only(before, after),
        published: only(after, before),
    }
}

impl RoundNews {
    /// Tells the subscribers: `round_deleted` for each round gone, then `round_published` for
    /// each new one (`{"event_id", "round"}`).
    pub fn announce(&self, live: &Live) {
        let messages = self
            .deleted
            .iter()
            .map(|r| ("round_deleted", r))
            .chain(self.published.iter().map(|r| ("round_published", r)));
        for (kind, round) in messages {
            live.publish(
                self.event_id,
                kind,
                json!({"event_id": self.event_id, "round": round}),
            );
        }
    }
}

/// Tells the event's subscribers about changed results (each a JSON object, given the
/// `event_id`), then that the standings at `standings` (an API path) changed. Nothing when
/// nothing changed.
pub fn results_changed(live: &Live, event_id: i64, changed: Vec<Value>, standings: &str) {
    if changed.is_empty() {
        return;
    }
    for mut result in changed {
        if let Some(fields) = result.as_object_mut() {
            fields.insert("event_id".into(), json!(event_id));
        }
        live.publish(event_id, "result", result);
    }
    live.publish(
        event_id,
        "standings",
        json!({"event_id": event_id, "href": standings}),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_announces_the_rounds_it_deleted_then_those_it_published() {
        let rounds = |list: &[(u32, &str)]| -> BTreeMap<u32, String> {
            list.iter().map(|&(n, p)| (n, p.to_string())).collect()
        };
        let before = rounds(&[(1, "1:1-2"), (2, "1:2-3"), (3, "1:3-1")]);
        // round 3 deleted; nothing else
        let news = compare(7, &before, &rounds(&[(1, "1:1-2"), (2, "1:2-3")]));
        assert_eq!((news.deleted, news.published), (vec![3], vec![]));
        // a draft published as round 4
        let after = rounds(&[(1, "1:1-2"), (2, "1:2-3"), (3, "1:3-1"), (4, "1:1-3")]);
        let news = compare(7, &before, &after);
        assert_eq!((news.deleted, news.published), (vec![], vec![4]));
        // the schedule made again: rounds 1 and 2 with other pairings, round 3 gone
        let news = compare(7, &before, &rounds(&[(1, "1:2-1"), (2, "1:3-2")]));
        assert_eq!(
            (&news.deleted, &news.published),
            (&vec![1, 2, 3], &vec![1, 2])
        );
        // made again the same: nothing to tell
        let same = compare(7, &before, &before.clone());
        assert!(same.deleted.is_empty() && same.published.is_empty());
        // the order on the wire
        let live = Live::default();
        let mut sub = live.subscribe(7, None).unwrap();
        news.announce(&live);
        let mut wire = Vec::new();
        while let Ok(b) = sub.receiver.try_recv() {
            let text = String::from_utf8(b.to_vec()).unwrap();
            wire.push(
                text.lines().nth(1).unwrap().to_string() + " " + text.lines().nth(2).unwrap(),
            );
        }
        assert_eq!(
            wire,
            [
                r#"event: round_deleted data: {"event_id":7,"round":1}"#,
                r#"event: round_deleted data: {"event_id":7,"round":2}"#,
                r#"event: round_deleted data: {"event_id":7,"round":3}"#,
                r#"event: round_published data: {"event_id":7,"round":1}"#,
                r#"event: round_published data: {"event_id":7,"round":2}"#,
            ]
        );
    }
}
