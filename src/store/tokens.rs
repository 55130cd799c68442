//! Bearer credentials: only a keyed hash of each token is stored (HMAC-SHA-256 under the
//! server secret, see [`super::secret`]; tokens issued before it as a bare SHA-256).

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

/// What a credential may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Everything on its event.
    Admin,
    /// Only submitting results.
    Scorer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Scorer => "scorer",
        }
    }
}

/// A credential as listed (never with the token itself).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": 2, "role": "scorer", "label": "results upload script", "created_at": "2026-11-22T10:00:00Z", "revoked_at": null}))]
pub struct TokenInfo {
    pub id: i64,
    pub role: Role,
    pub label: Option<String>,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// A credential found for a presented token.
#[derive(Debug, Clone)]
pub struct Credential {
    pub id: i64,
    pub event_id: i64,
    pub role: Role,
}

/// The bare SHA-256 of tokens issued before the server secret (still verified).
fn legacy_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new random token: `tny_` and 64 hex digits from the operating system's generator.
pub fn generate() -> ApiResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness for a token: {e}")))?;
    Ok(format!(
        "tny_{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    ))
}

/// Issues a token for the event and returns it with its id (the token is never stored).
pub fn issue(
    conn: &Connection,
    event_id: i64,
    role: Role,
    label: Option<&str>,
    now: &str,
) -> ApiResult<(i64, String)> {
    let token = generate()?;
    conn.execute(
        "INSERT INTO tokens (event_id, role, token_hash, label, created_at)
         VALUES (?1, ?2, token_hmac(?3), ?4, ?5)",
        params![event_id, role.as_str(), token, label, now],
    )?;
    known::note(&token);
    Ok((conn.last_insert_rowid(), token))
}

/// The live credential a token stands for, if any.
pub fn lookup(conn: &Connection, token: &str) -> ApiResult<Option<Credential>> {
    let found = conn
        .query_row(
            "SELECT id, event_id, role FROM tokens
             WHERE token_hash IN (token_hmac(?1), ?2) AND revoked_at IS NULL",
            params![token, legacy_hash(token)],
            |r| {
                let role: String = r.get(2)?;
                Ok(Credential {
                    id: r.get(0)?,
                    event_id: r.get(1)?,
                    role: if role == "admin" {
                        Role::Admin
                    } else {
                        Role::Scorer
                    },
                })
            },
        )
        .optional()?;
    if found.is_some() {
        known::note(token);
    }
    Ok(found)
}

/// The tokens this server process issued or accepted lately, by a keyed digest of each (never
/// the token itself; the key is random per process). The bad-credential guard
/// (`server::guard`) lets them through while their address is refused for guessing: a
/// director's token is never held up by someone else's bad tokens from the same address.
pub mod known {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};

    /// How long a token stays known after it was last issued or accepted.
    pub const KEPT: Duration = Duration::from_secs(24 * 3600);
    /// Tokens known at once (the oldest forgotten first): the memory bound, about 5 MB.
    const MAX_KNOWN: usize = 100_000;

    /// A token's digest: the first 16 bytes of its HMAC-SHA-256 under this process's key.
    pub type Fingerprint = [u8; 16];

    struct Known {
        key: [u8; 32],
        seen: Mutex<HashMap<Fingerprint, Instant>>,
    }

    fn known() -> &'static Known {
        static KNOWN: OnceLock<Known> = OnceLock::new();
        KNOWN.get_or_init(|| {
            let mut key = [0u8; 32];
            // without randomness the digests are still not the tokens (only guessable ones)
            let _ = getrandom::fill(&mut key);
            Known {
                key,
                seen: Mutex::default(),
            }
        })
    }

    /// The digest the guard counts a presented token by.
    pub fn fingerprint(token: &str) -> Fingerprint {
        let mac = crate::store::secret::hmac_sha256(&known().key, token.as_bytes());
        let mut fp = [0u8; 16];
        fp.copy_from_slice(&mac[..16]);
        fp
    }

    /// `token` was issued or accepted now.
    pub fn note(token: &str) {
        let fp = fingerprint(token);
        let now = Instant::now();
        let mut seen = known().seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= MAX_KNOWN && !seen.contains_key(&fp) {
            seen.retain(|_, at| now.duration_since(*at) < KEPT);
            if seen.len() >= MAX_KNOWN {
                if let Some(oldest) = seen.iter().min_by_key(|(_, at)| **at).map(|(f, _)| *f) {
                    seen.remove(&oldest);
                }
            }
        }
        seen.insert(fp, now);
    }

    /// Whether the token of `fp` was issued or accepted within [`KEPT`].
    pub fn is_known(fp: &Fingerprint) -> bool {
        let seen = known().seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(fp).is_some_and(|at| at.elapsed() < KEPT)
    }

    /// The token of `fp` was refused (revoked since): no longer known.
    pub fn forget(fp: &Fingerprint) {
        let mut seen = known().seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.remove(fp);
    }
}

pub fn list(conn: &Connection, event_id: i64) -> ApiResult<Vec<TokenInfo>> {
    let mut stmt = conn.prepare(
        "SELECT id, role, label, created_at, revoked_at FROM tokens WHERE event_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        let role: String = r.get(1)?;
        Ok(TokenInfo {
            id: r.get(0)?,
            role: if role == "admin" {
                Role::Admin
            } else {
                Role::Scorer
            },
            label: r.get(2)?,
            created_at: r.get(3)?,
            revoked_at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Revokes a scorer token of the event; false when there is no such scorer token.
pub fn revoke_scorer(conn: &Connection, event_id: i64, id: i64, now: &str) -> ApiResult<bool> {
    let n = conn.execute(
        "UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?3)
         WHERE id = ?1 AND event_id = ?2 AND role = 'scorer'",
        params![id, event_id, now],
    )?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let a = generate().unwrap();
        let b = generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 4 + 64);
        assert_eq!(legacy_hash(&a).len(), 64);
        assert_ne!(legacy_hash(&a), legacy_hash(&b));
    }
}
