//! `GET /api/v1/events/{id}/stream`: the event's changes as server-sent events, for apps that
//! would otherwise poll (see [`crate::live`] for ids, replay and limits).
//!
//! Messages: `round_published` and `round_deleted` (`{"event_id", "round"}`), `result` (one
//! per changed game: `{"event_id", "game_id", "round", "board", "result"}`), `standings`
//! (`{"event_id", "href"}`: the standings changed, fetch them), `resync` (reload the event).
//! A comment line (`: heartbeat`) keeps idle connections open.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::http::header::{self, ContentEncoding};
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use futures_core::Stream;
use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::Interval;

use crate::api::responses::LiveStream;
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::store::{events, Store};

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

/// Tells the event's subscribers that round `round` is published.
pub fn round_published(live: &Live, event_id: i64, round: u32) {
    live.publish(
        event_id,
        "round_published",
        json!({"event_id": event_id, "round": round}),
    );
}

/// Tells the event's subscribers that round `round` is deleted.
pub fn round_deleted(live: &Live, event_id: i64, round: u32) {
    live.publish(
        event_id,
        "round_deleted",
        json!({"event_id": event_id, "round": round}),
    );
}

/// Tells the event's subscribers about changed results, then that the standings changed.
pub fn results_changed(live: &Live, event_id: i64, changed: &[(i64, u32, u32, String)]) {
    if changed.is_empty() {
        return;
    }
    for (game_id, round, board, result) in changed {
        live.publish(
            event_id,
            "result",
            json!({"event_id": event_id, "game_id": game_id, "round": round, "board": board, "result": result}),
        );
    }
    live.publish(
        event_id,
        "standings",
        json!({"event_id": event_id, "href": format!("/api/v1/events/{event_id}/standings")}),
    );
}
