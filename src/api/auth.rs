//! Who may change an event: its admin token for everything, a scorer token for results only.
//! Reading needs no token.

use rusqlite::Connection;

use crate::error::{ApiError, ApiResult};
use crate::store::tokens::{self, Credential, Role};

/// Checks inside the request's transaction that `token` may act on `event_id` with `needed`:
/// 404 for an unknown event, 401 without a live token, 403 for another event's token or a
/// scorer token where the admin is needed.
pub fn require(
    conn: &Connection,
    event_id: i64,
    token: Option<&str>,
    needed: Role,
) -> ApiResult<Credential> {
    crate::store::events::get(conn, event_id)?;
    let token = token.ok_or_else(|| {
        ApiError::Unauthorized("this action needs `Authorization: Bearer <token>`".into())
    })?;
    let credential = tokens::lookup(conn, token)?
        .ok_or_else(|| ApiError::Unauthorized("the bearer token is not valid".into()))?;
    if credential.event_id != event_id {
        return Err(ApiError::Forbidden(format!(
            "the bearer token belongs to another event, not to event {event_id}"
        )));
    }
    if needed == Role::Admin && credential.role != Role::Admin {
        return Err(ApiError::Forbidden(
            "a scorer token may only submit results; this needs the event's admin token".into(),
        ));
    }
    Ok(credential)
}
