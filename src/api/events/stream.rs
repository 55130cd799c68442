//! `GET /api/v1/events/{id}/stream`: the event's changes as server-sent events, for apps that
//! would otherwise poll (see [`crate::live`] for ids, replay, queues and limits).
//!
//! One change of the event (one request's write) is one message, however many rows it wrote:
//!
//! * `rounds` `{"event_id", "deleted": [..], "published": [..]}`: round numbers no longer
//!   published as they were, then those newly published (a Swiss round published or deleted,
//!   a round robin's or team event's schedule made or made again by drawing lots, a bridge
//!   Swiss round drawn or deleted; see [`RoundWatch`]). Reload those rounds.
//! * `results` `{"event_id", "rounds": [{"round", "boards": [..]}], "results", "standings"}`:
//!   results changed (chess games by board, bridge board results by board number; a bridge
//!   match as `{"round", "matches": [{"home", "away"}]}`), `results` how many, `standings`
//!   the API path of the standings they changed. Reload those boards and the standings.
//! * `resync` `{"event_id", "reason", "detail", "href"}`: reload the event (`href`), then go on
//!   from this message's id. `reason` is `not_kept` (the `Last-Event-ID` sent is not among the
//!   kept messages) or `fell_behind` (this connection took messages more slowly than they
//!   came: the response ends after it; reconnect with its id).
//!
//! A comment line (`: heartbeat`) keeps idle connections open. HTTP/1.1 clients get a chunked
//! response; HTTP/1.0 clients, which have no chunks, get the body as it comes and the end of
//! the connection ends it.

use std::collections::{BTreeMap, BTreeSet};
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::http::header::{self, ContentEncoding};
use actix_web::http::{ConnectionType, Version};
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use futures_core::Stream;
use rusqlite::Connection;
use serde_json::json;
use tokio::time::Interval;

use crate::api::responses::LiveStream;
use crate::error::{ApiError, ApiResult};
use crate::live::{Live, Subscription};
use crate::store::{bridge_matches, events, rounds, Store};

/// The kernel's send buffer of a stream's connection (`SO_SNDBUF`; Linux doubles it for its
/// bookkeeping): what a phone that stops reading can leave queued in the kernel, instead of up
/// to 4 MiB with the default auto-tuning. The largest message (the results of 5 000 games)
/// still fits whole.
pub const SEND_BUFFER: usize = 32 * 1024;

/// How long a stream's connection may go without its client taking anything (what was sent
/// unacknowledged, or its window shut) before the kernel gives it up (`TCP_USER_TIMEOUT`):
/// four heartbeats. A phone that left without closing, or stopped reading, frees its place
/// then.
pub const STALLED_FOR: std::time::Duration = std::time::Duration::from_secs(60);

/// The body of one subscriber's response: its messages and heartbeats.
struct EventStream {
    subscription: Subscription,
    heartbeat: Interval,
}

impl Stream for EventStream {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.subscription.poll_message(cx) {
            Poll::Ready(Some(message)) => {
                // a message is as good as a heartbeat
                self.heartbeat.reset();
                return Poll::Ready(Some(Ok(message)));
            }
            // fell behind and was sent its `resync`: end the response
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        if self.heartbeat.poll_tick(cx).is_ready() {
            return Poll::Ready(Some(Ok(Bytes::from_static(b": heartbeat\n\n"))));
        }
        Poll::Pending
    }
}

/// The event's changes as they happen (`text/event-stream`): one message per change
/// (`rounds`, `results`; `resync` to reload). Reconnect with `Last-Event-ID` to get the
/// messages missed meanwhile. An event takes `TOURNEY_STREAM_SUBSCRIBERS` subscribers (429
/// beyond; default 12 000).
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/stream", tag = "results",
    params(
        ("event_id" = i64, Path, description = "Event id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The id of the last message received, to replay what came after it"),
    ),
    responses(
        (status = 200, description = "Server-sent events, one per change of the event: `rounds` {event_id, deleted, published}, `results` {event_id, rounds: [{round, boards | matches}], results, standings}, `resync` {event_id, reason: not_kept | fell_behind, detail, href}; a `: heartbeat` comment every 15 s", body = String, content_type = "text/event-stream"),
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
    crate::api::connection::tune_long_response(&req, SEND_BUFFER, STALLED_FOR);
    let mut heartbeat = tokio::time::interval(live.heartbeat);
    // the first tick is immediate: skip it, the first heartbeat comes after one interval
    heartbeat.reset();
    let body = EventStream {
        subscription,
        heartbeat,
    };
    let mut response = HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // never compressed: a compressor would hold messages back
        .insert_header(ContentEncoding::Identity)
        .streaming(body);
    if req.version() < Version::HTTP_11 {
        // HTTP/1.0 has no chunked transfer coding: the body runs to the connection's end
        let head = response.head_mut();
        head.no_chunking(true);
        head.set_connection_type(ConnectionType::Close);
    }
    Ok(response)
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
    /// Tells the subscribers, in one `rounds` message (`{"event_id", "deleted", "published"}`),
    /// when any round changed.
    pub fn announce(&self, live: &Live) {
        if self.deleted.is_empty() && self.published.is_empty() {
            return;
        }
        live.publish(
            self.event_id,
            "rounds",
            json!({"event_id": self.event_id, "deleted": self.deleted, "published": self.published}),
        );
    }
}

/// What one write did to an event's results, told as one `results` message.
#[must_use = "tell it with `announce` once the write is committed"]
#[derive(Debug, Default)]
pub struct ResultsNews {
    boards: BTreeMap<u32, BTreeSet<u32>>,
    matches: BTreeMap<u32, BTreeSet<(u32, u32)>>,
    results: usize,
}

impl ResultsNews {
    /// A changed result on `board` of `round` (a chess game, a bridge board result).
    pub fn board(&mut self, round: u32, board: u32) {
        self.boards.entry(round).or_default().insert(board);
        self.results += 1;
    }

    /// A changed result of the match of `home` and `away` in `round` (bridge teams, Swiss).
    pub fn matched(&mut self, round: u32, home: u32, away: u32) {
        self.matches.entry(round).or_default().insert((home, away));
        self.results += 1;
    }

    /// Tells the event's subscribers, unless nothing changed: the rounds with their boards or
    /// matches, how many results, and `standings` (an API path) to fetch again.
    pub fn announce(self, live: &Live, event_id: i64, standings: &str) {
        if self.results == 0 {
            return;
        }
        let boards = self.boards.into_iter().map(|(round, boards)| {
            (
                round,
                json!({"round": round, "boards": boards.into_iter().collect::<Vec<_>>()}),
            )
        });
        let matches = self.matches.into_iter().map(|(round, matches)| {
            let matches: Vec<_> = matches
                .into_iter()
                .map(|(home, away)| json!({"home": home, "away": away}))
                .collect();
            (round, json!({"round": round, "matches": matches}))
        });
        let mut rounds: Vec<(u32, serde_json::Value)> = boards.chain(matches).collect();
        rounds.sort_by_key(|(round, _)| *round);
        let rounds: Vec<_> = rounds.into_iter().map(|(_, r)| r).collect();
        live.publish(
            event_id,
            "results",
            json!({"event_id": event_id, "rounds": rounds, "results": self.results, "standings": standings}),
        );
    }
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
        let news = compare(7, &before, &rounds(&[(1, "1:2-1"), (2, "1:3-2")]));
        // one message on the wire
        let live = Live::new(3, crate::live::HEARTBEAT);
        let mut sub = live.subscribe(7, None).unwrap();
        news.announce(&live);
        same.announce(&live);
        let text = String::from_utf8(sub.try_next().unwrap().to_vec()).unwrap();
        assert!(
            text.ends_with(
                "event: rounds\ndata: {\"deleted\":[1,2,3],\"event_id\":7,\"published\":[1,2]}\n\n"
            ),
            "{text}"
        );
        assert!(sub.try_next().is_none(), "nothing changed: nothing told");
    }

    #[test]
    fn a_write_of_many_results_is_one_message() {
        let live = Live::new(3, crate::live::HEARTBEAT);
        let mut sub = live.subscribe(7, None).unwrap();
        let mut news = ResultsNews::default();
        for board in (1..=1000).rev() {
            news.board(2, board);
        }
        news.board(1, 4);
        news.matched(3, 2, 5);
        news.announce(&live, 7, "/api/v1/events/7/standings");
        ResultsNews::default().announce(&live, 7, "/x");
        let text = String::from_utf8(sub.try_next().unwrap().to_vec()).unwrap();
        let data: serde_json::Value =
            serde_json::from_str(text.lines().nth(2).unwrap().strip_prefix("data: ").unwrap())
                .unwrap();
        assert_eq!(data["results"], 1002);
        assert_eq!(data["rounds"][0], json!({"round": 1, "boards": [4]}));
        assert_eq!(data["rounds"][1]["boards"].as_array().unwrap().len(), 1000);
        assert_eq!(data["rounds"][1]["boards"][0], 1);
        assert_eq!(
            data["rounds"][2],
            json!({"round": 3, "matches": [{"home": 2, "away": 5}]})
        );
        assert_eq!(data["standings"], "/api/v1/events/7/standings");
        assert!(sub.try_next().is_none());
    }
}
