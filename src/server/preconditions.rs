//! `If-Match` on every change of an event, and versioned ETags on every read of one.
//!
//! * A write (`POST`, `PUT`, `PATCH`, `DELETE`) under `/api/v1/events/{id}` that carries
//!   `If-Match` runs its handler with a [`Precondition`] in force: `Store::write` compares it
//!   with the event's version as its transaction starts, so a stale version is a 412 and
//!   nothing can change the event between the check and the change. The request's own checks
//!   (credentials, a missing row, a bad field) answer first, as RFC 9110 13.2.2 orders them. New routes need
//!   nothing to get this. Without `If-Match` a write goes through as before.
//! * The same holds under `/api/v1/tournaments/{id}` with the tournament's version, which moves
//!   with every change to the tournament or to any of its sections.
//! * A read under `/api/v1/events/{id}` or `/e/{id}` learns the event's version before its
//!   handler runs ([`SeenVersion`]); the handler's ETag starts with it (`"v42-<hash>"`), so the
//!   ETag of a read with a token is a valid `If-Match` too (the public read cache's ETags,
//!   `"v42"`, `"v42-gz"`..., already are). Learnt before the handler, the version is never
//!   newer than the data sent: at worst a client gets a 412 it could have been spared.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage};

use crate::api::extract::{IfMatch, SeenVersion};
use crate::store::versions::{self, Precondition};
use crate::store::Store;

fn is_change(method: &Method) -> bool {
    [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(method)
}

/// The middleware (the innermost one: the Idempotency-Key's own bookkeeping writes are not the
/// request's change).
pub async fn preconditions(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let event = super::read_cache::event_of(req.path());
    let tournament = tournament_of(req.path());
    let store = req.app_data::<web::Data<Store>>().cloned();
    let (Some((id, is_tournament)), Some(store)) = (
        event.map(|e| (e, false)).or(tournament.map(|t| (t, true))),
        store,
    ) else {
        return next.call(req).await;
    };
    if is_change(req.method()) {
        let Some(if_match) = IfMatch::of(req.headers()) else {
            return next.call(req).await;
        };
        let precondition = Precondition {
            event: id,
            tournament: is_tournament,
            versions: if_match.versions,
            any: if_match.any,
        };
        return versions::with_precondition(precondition, next.call(req)).await;
    }
    if req.method() == Method::GET || req.method() == Method::HEAD {
        let version = if is_tournament {
            store
                .read(move |conn| Ok(versions::read_tournament(conn, id)?))
                .await
        } else {
            store.event_version(id).await
        };
        if let Ok(Some(version)) = version {
            req.extensions_mut().insert(SeenVersion(version));
        }
    }
    next.call(req).await
}

/// The tournament a path is under: `/api/v1/tournaments/{id}` and below.
fn tournament_of(path: &str) -> Option<i64> {
    let rest = path.strip_prefix("/api/v1/tournaments/")?;
    let id = rest.split_once('/').map_or(rest, |(id, _)| id);
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}
