//! Guards against credential abuse: a token in the query string is refused (it would sit in
//! access logs and browser histories), and a client address that keeps presenting bad
//! credentials is slowed down (429 with `Retry-After`) on the operations that check one (its
//! public reads go on) while everyone else is unaffected.
//!
//! Failures are counted per address **and** token (by a keyed digest, never the token):
//!
//! * one token refused `limit` times a minute from an address waits there (a script retrying
//!   a stale token, or someone guessing the same one again);
//! * an address that presented `limit` different bad tokens within a minute is guessing: its
//!   other tokens wait too, except those this server issued or accepted within the last
//!   24 hours ([`crate::store::tokens::known`]). So behind one NAT the director's token and
//!   the scorers' tokens are never refused because of someone else's bad tokens, and a
//!   guesser still gets at most `limit` guesses a minute.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, ResponseError};

use crate::error::ApiError;
use crate::server::methods::RouteTable;
use crate::store::tokens::known::{self, Fingerprint};

/// Failed credentials (one token again, or different ones) one address may present per
/// window before it must wait.
pub const MAX_FAILURES: usize = 20;
/// The window of [`MAX_FAILURES`].
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at once (the oldest forgotten first): with at most `limit` tokens
/// each, the table's memory bound.
const MAX_ADDRESSES: usize = 10_000;

/// Query parameters that would carry a credential.
const TOKEN_PARAMETERS: &[&str] = &["token", "access_token", "admin_token", "api_key"];

/// One token's failures from one address in its window.
#[derive(Debug, Clone, Copy)]
struct TokenFailures {
    token: Fingerprint,
    /// The first failure of the window.
    since: Instant,
    count: usize,
}

/// Recent credential failures per client address and token.
pub struct Failures {
    by_address: Mutex<HashMap<IpAddr, VecDeque<TokenFailures>>>,
    /// Failures of one token, and different bad tokens, one address may present per window.
    limit: usize,
}

impl Default for Failures {
    fn default() -> Self {
        Failures::with_limit(MAX_FAILURES)
    }
}

impl Failures {
    /// A table that lets `limit` failures (at least 1) through per window.
    pub fn with_limit(limit: usize) -> Self {
        Failures {
            by_address: Mutex::default(),
            limit: limit.max(1),
        }
    }

    /// The limit from `TOURNEY_AUTH_FAILURES` (bad credentials a minute per address, a whole
    /// number of at least 1; a fuzzer sending thousands of bad tokens on purpose raises it),
    /// default [`MAX_FAILURES`].
    pub fn from_env() -> Self {
        let limit = crate::limits::setting_from_env("TOURNEY_AUTH_FAILURES", MAX_FAILURES as u64);
        Failures::with_limit(usize::try_from(limit).unwrap_or(usize::MAX))
    }

    /// How long `address` must wait before presenting `token` again, if it must
    /// (`known`: the token was issued or accepted lately).
    fn wait(
        &self,
        address: IpAddr,
        token: &Fingerprint,
        known: bool,
        now: Instant,
    ) -> Option<Duration> {
        let mut table = self.by_address.lock().ok()?;
        let tokens = table.get_mut(&address)?;
        tokens.retain(|t| now.duration_since(t.since) < FAILURE_WINDOW);
        if tokens.is_empty() {
            table.remove(&address);
            return None;
        }
        let until = |t: &TokenFailures| FAILURE_WINDOW.saturating_sub(now.duration_since(t.since));
        if let Some(this) = tokens.iter().find(|t| &t.token == token) {
            if this.count >= self.limit {
                return Some(until(this));
            }
        }
        // guessing: as many different bad tokens as the limit; the oldest frees a place
        (!known && tokens.len() >= self.limit).then(|| tokens.iter().map(until).min())?
    }

    fn record(&self, address: IpAddr, token: Fingerprint, now: Instant) {
        let Ok(mut table) = self.by_address.lock() else {
            return;
        };
        if !table.contains_key(&address) && table.len() >= MAX_ADDRESSES {
            let stalest = table
                .iter()
                .min_by_key(|(_, tokens)| tokens.iter().map(|t| t.since).max())
                .map(|(a, _)| *a);
            if let Some(a) = stalest {
                table.remove(&a);
            }
        }
        let tokens = table.entry(address).or_default();
        tokens.retain(|t| now.duration_since(t.since) < FAILURE_WINDOW);
        match tokens.iter_mut().find(|t| t.token == token) {
            Some(t) => t.count += 1,
            None => {
                // a known token refused (revoked) may come past the guessing bound: keep the
                // table's size all the same
                if tokens.len() > self.limit {
                    tokens.pop_front();
                }
                tokens.push_back(TokenFailures {
                    token,
                    since: now,
                    count: 1,
                });
            }
        }
    }
}

/// The token a request presents: the bearer token as the handlers read it, else the whole
/// `Authorization` value (it is counted all the same).
fn presented_token(req: &ServiceRequest) -> String {
    let value = req
        .headers()
        .get(header::AUTHORIZATION)
        .map_or(std::borrow::Cow::Borrowed(""), |v| {
            String::from_utf8_lossy(v.as_bytes())
        });
    value
        .trim()
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map_or_else(|| value.to_string(), |(_, token)| token.trim().to_string())
}

fn refuse(req: ServiceRequest, e: ApiError, retry_after: Option<u64>) -> ServiceResponse<BoxBody> {
    let mut response = e.error_response();
    if let Some(seconds) = retry_after {
        response.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(seconds.max(1)),
        );
    }
    req.into_response(response)
}

/// The middleware (see the module's documentation).
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if let Some((name, _)) = form_urlencoded::parse(req.query_string().as_bytes())
        .find(|(name, _)| TOKEN_PARAMETERS.contains(&name.as_ref()))
    {
        let e = ApiError::bad_request(
            Some(name.as_ref()),
            "credentials go in the Authorization header (Bearer), never in the URL",
        );
        return Ok(refuse(req, e, None));
    }
    // Only a request whose operation checks its credential can be refused for it: a public
    // read ignores any token it is sent (and its answers document no 429).
    let presents_credentials = req.headers().contains_key(header::AUTHORIZATION)
        && req
            .app_data::<web::Data<RouteTable>>()
            .is_some_and(|routes| routes.checks_credentials(req.path(), req.method()));
    let failures = req.app_data::<web::Data<Failures>>().cloned();
    let address = req.peer_addr().map(|a| a.ip());
    let (Some(failures), Some(address), true) = (failures, address, presents_credentials) else {
        return next.call(req).await.map(|r| r.map_into_boxed_body());
    };
    let token = known::fingerprint(&presented_token(&req));
    let is_known = known::is_known(&token);
    if let Some(wait) = failures.wait(address, &token, is_known, Instant::now()) {
        let e = ApiError::TooManyRequests(format!(
            "too many requests with bad credentials from this address ({} a minute); retry in {} s",
            failures.limit,
            wait.as_secs().max(1)
        ));
        return Ok(refuse(req, e, Some(wait.as_secs())));
    }
    let response = next.call(req).await?;
    if response.status() == StatusCode::UNAUTHORIZED {
        known::forget(&token);
        failures.record(address, token, Instant::now());
    }
    Ok(response.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(n: u8) -> Fingerprint {
        [n; 16]
    }

    #[test]
    fn one_token_waits_after_its_failures_until_the_window_passes() {
        let failures = Failures::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        for i in 0..MAX_FAILURES {
            assert_eq!(failures.wait(a, &fp(1), false, start), None, "after {i}");
            failures.record(a, fp(1), start);
        }
        let later = start + Duration::from_secs(15);
        assert_eq!(
            failures.wait(a, &fp(1), false, later),
            Some(Duration::from_secs(45))
        );
        // even when the token is known (it was revoked since it was)
        assert!(failures.wait(a, &fp(1), true, later).is_some());
        // another token from the address, another address: unaffected
        assert_eq!(failures.wait(a, &fp(2), false, later), None);
        assert_eq!(failures.wait(b, &fp(1), false, later), None);
        assert_eq!(
            failures.wait(a, &fp(1), false, start + FAILURE_WINDOW),
            None
        );
    }

    #[test]
    fn an_address_guessing_waits_for_unknown_tokens_only() {
        let failures = Failures::with_limit(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let start = Instant::now();
        for i in 0..3 {
            let at = start + Duration::from_secs(i * 10);
            assert_eq!(failures.wait(a, &fp(i as u8), false, at), None, "guess {i}");
            failures.record(a, fp(i as u8), at);
        }
        let now = start + Duration::from_secs(25);
        // a fourth guess waits until the oldest guess's window ends
        assert_eq!(
            failures.wait(a, &fp(9), false, now),
            Some(Duration::from_secs(35))
        );
        // a token the server knows goes through
        assert_eq!(failures.wait(a, &fp(7), true, now), None);
        assert_eq!(
            failures.wait(a, &fp(9), false, start + FAILURE_WINDOW),
            None
        );
        assert_eq!(Failures::with_limit(0).limit, 1, "a limit of 0 is 1");
    }

    #[test]
    fn the_table_stays_bounded_per_address() {
        let failures = Failures::with_limit(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let now = Instant::now();
        for i in 0..50 {
            failures.record(a, fp(i), now);
        }
        assert!(failures.by_address.lock().unwrap()[&a].len() <= 4);
    }
}
