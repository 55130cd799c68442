//! Who may change an event: its admin token for everything, a scorer token for results only,
//! and, for a section of a tournament, the tournament's admin token for everything too.
//! Reading needs no token.

use rusqlite::Connection;

use crate::error::{ApiError, ApiResult, FieldError};
use crate::store::tokens::{self, Credential, Role};
use crate::store::tournaments;

/// Checks inside the request's transaction that `token` may act on `event_id` with `needed`:
/// 404 for an unknown event, 401 without a live token, 403 for another event's token (or
/// another tournament's) or a scorer token where the admin is needed.
pub fn require(
    conn: &Connection,
    event_id: i64,
    token: Option<&str>,
    needed: Role,
) -> ApiResult<Credential> {
    let event = crate::store::events::get(conn, event_id)?;
    let token = token.ok_or_else(|| {
        ApiError::Unauthorized("this action needs `Authorization: Bearer <token>`".into())
    })?;
    let Some(credential) = tokens::lookup(conn, token)? else {
        return match tournaments::lookup(conn, token)? {
            Some(tournament) if event.tournament_id == Some(tournament) => Ok(Credential {
                // the tournament's admin acts as the section's admin (results record `admin`)
                id: 0,
                event_id,
                role: Role::Admin,
            }),
            Some(tournament) => Err(ApiError::Forbidden(format!(
                "the bearer token belongs to tournament {tournament}; event {event_id} is not one of its sections"
            ))),
            None => Err(ApiError::Unauthorized("the bearer token is not valid".into())),
        };
    };
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

/// Checks inside the request's transaction that `token` is the admin token of `tournament`:
/// 404 for an unknown tournament, 401 without a live token, 403 for any other token (another
/// tournament's, or a section's own: a section's token acts on its section only).
pub fn require_tournament(
    conn: &Connection,
    tournament: i64,
    token: Option<&str>,
) -> ApiResult<()> {
    tournaments::get(conn, tournament)?;
    let token = token.ok_or_else(|| {
        ApiError::Unauthorized("this action needs `Authorization: Bearer <token>`".into())
    })?;
    match tournaments::lookup(conn, token)? {
        Some(t) if t == tournament => Ok(()),
        Some(t) => Err(ApiError::Forbidden(format!(
            "the bearer token belongs to tournament {t}, not to tournament {tournament}"
        ))),
        None if tokens::lookup(conn, token)?.is_some() => Err(ApiError::Forbidden(format!(
            "an event's token acts on its event only; this needs tournament {tournament}'s admin token"
        ))),
        None => Err(ApiError::Unauthorized("the bearer token is not valid".into())),
    }
}

/// The one rule for a result already stored, in every format (chess games, bridge board
/// results, bridge matches): it changes only by the event's admin, or by a request that
/// carries `If-Match` naming the event's version it read (so the scorer has seen what it
/// replaces; `If-Match: *` is not enough). Sending a stored result again unchanged is always
/// fine. Otherwise the request is a 409 naming every field at fault, and nothing is stored:
/// two scorers entering one board at once, the second is told, whatever the format. (An admin
/// may replace a scorer's result; its answer marks the row `changed`.)
#[derive(Debug, Clone, Copy)]
pub struct ResultChanges {
    if_match: bool,
}

impl ResultChanges {
    /// The rule for this request (whether it carries an `If-Match` with a version).
    pub fn of(req: &actix_web::HttpRequest) -> ResultChanges {
        let if_match = crate::api::extract::IfMatch::of(req.headers())
            .is_some_and(|m| !m.any && !m.versions.is_empty());
        ResultChanges { if_match }
    }

    /// Whether `credential` may replace a stored result in this request.
    pub fn may_replace(&self, credential: &Credential) -> bool {
        credential.role == Role::Admin || self.if_match
    }

    /// The refusal of a replacement at `field`, of `stored` (as a person reads it).
    pub fn refusal(field: String, stored: &str) -> FieldError {
        FieldError {
            field,
            message: format!(
                "already has {stored}; to change it, read the event again and send If-Match with its ETag, or ask the event's admin"
            ),
        }
    }

    /// The answer to the refusals, if any: a 409 naming each.
    pub fn check(refused: Vec<FieldError>) -> ApiResult<()> {
        if refused.is_empty() {
            Ok(())
        } else {
            Err(ApiError::ConflictAt(refused))
        }
    }
}
