//! Kept answers of requests sent with an `Idempotency-Key` (sql/0007_idempotency.sql).

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::ApiResult;

/// A kept answer.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptAnswer {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// What a request with a key finds.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// The key is new: it is now held for this request.
    New,
    /// The same request already ran: its answer.
    Replay(KeptAnswer),
    /// The same request is running now.
    InProgress,
    /// The key was used for a different request.
    Mismatch,
}

/// Claims `scope` for a request with body digest `request_hash`, after forgetting keys
/// created before `expired_before` (RFC 3339, as [`crate::store::now`] writes).
pub fn claim(
    conn: &Connection,
    scope: &str,
    request_hash: &str,
    now: &str,
    expired_before: &str,
) -> ApiResult<Claim> {
    conn.execute(
        "DELETE FROM idempotency_keys WHERE created_at < ?1",
        [expired_before],
    )?;
    let found = conn
        .query_row(
            "SELECT request_hash, status, content_type, body FROM idempotency_keys WHERE scope = ?1",
            [scope],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<u16>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<Vec<u8>>>(3)?,
                ))
            },
        )
        .optional()?;
    Ok(match found {
        None => {
            conn.execute(
                "INSERT INTO idempotency_keys (scope, request_hash, created_at) VALUES (?1, ?2, ?3)",
                params![scope, request_hash, now],
            )?;
            Claim::New
        }
        Some((hash, _, _, _)) if hash != request_hash => Claim::Mismatch,
        Some((_, None, _, _)) => Claim::InProgress,
        Some((_, Some(status), content_type, body)) => Claim::Replay(KeptAnswer {
            status,
            content_type,
            body: body.unwrap_or_default(),
        }),
    })
}

/// Keeps the answer of the request holding `scope`.
pub fn keep(conn: &Connection, scope: &str, answer: &KeptAnswer) -> ApiResult<()> {
    conn.execute(
        "UPDATE idempotency_keys SET status = ?2, content_type = ?3, body = ?4 WHERE scope = ?1",
        params![scope, answer.status, answer.content_type, answer.body],
    )?;
    Ok(())
}

/// Lets go of `scope` (the request failed on the server's side: a retry may run again).
pub fn release(conn: &Connection, scope: &str) -> ApiResult<()> {
    conn.execute("DELETE FROM idempotency_keys WHERE scope = ?1", [scope])?;
    Ok(())
}
