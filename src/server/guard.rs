//! Guards against credential abuse: a token in the query string is refused (it would sit in
//! access logs and browser histories), and a client address that keeps presenting bad
//! credentials is slowed down (429 with `Retry-After`) on the operations that check one (its
//! public reads go on) while everyone else is unaffected.

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

/// Failed credentials one address may present per window before it must wait.
pub const MAX_FAILURES: usize = 20;
/// The window of [`MAX_FAILURES`].
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at once (the oldest forgotten first): the table's memory bound.
const MAX_ADDRESSES: usize = 10_000;

/// Query parameters that would carry a credential.
const TOKEN_PARAMETERS: &[&str] = &["token", "access_token", "admin_token", "api_key"];

/// Recent credential failures per client address.
pub struct Failures {
    by_address: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
    /// Failures one address may present per [`FAILURE_WINDOW`].
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

    /// The limit from `TOURNEY_AUTH_FAILURES` (failures per address a minute, a whole number
    /// of at least 1; a deployment behind a proxy that shows every client as one address, or
    /// a fuzzer sending thousands of bad tokens on purpose, raises it), default
    /// [`MAX_FAILURES`].
    pub fn from_env() -> Self {
        let limit = crate::limits::setting_from_env("TOURNEY_AUTH_FAILURES", MAX_FAILURES as u64);
        Failures::with_limit(usize::try_from(limit).unwrap_or(usize::MAX))
    }

    /// How long `address` must wait before presenting credentials again, if it must.
    fn wait(&self, address: IpAddr, now: Instant) -> Option<Duration> {
        let mut table = self.by_address.lock().ok()?;
        let times = table.get_mut(&address)?;
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= FAILURE_WINDOW)
        {
            times.pop_front();
        }
        if times.is_empty() {
            table.remove(&address);
            return None;
        }
        (times.len() >= self.limit)
            .then(|| FAILURE_WINDOW.saturating_sub(now.duration_since(times[0])))
    }

    fn record(&self, address: IpAddr, now: Instant) {
        let Ok(mut table) = self.by_address.lock() else {
            return;
        };
        if !table.contains_key(&address) && table.len() >= MAX_ADDRESSES {
            let stalest = table
                .iter()
                .min_by_key(|(_, times)| times.back().copied())
                .map(|(a, _)| *a);
            if let Some(a) = stalest {
                table.remove(&a);
            }
        }
        let times = table.entry(address).or_default();
        times.push_back(now);
        while times.len() > self.limit {
            times.pop_front();
        }
    }
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
    if let Some(wait) = failures.wait(address, Instant::now()) {
        let e = ApiError::TooManyRequests(format!(
            "too many requests with bad credentials from this address ({} a minute); retry in {} s",
            failures.limit,
            wait.as_secs().max(1)
        ));
        return Ok(refuse(req, e, Some(wait.as_secs())));
    }
    let response = next.call(req).await?;
    if response.status() == StatusCode::UNAUTHORIZED {
        failures.record(address, Instant::now());
    }
    Ok(response.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_waits_after_its_failures_until_the_window_passes() {
        let failures = Failures::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        for i in 0..MAX_FAILURES {
            assert_eq!(failures.wait(a, start), None, "after {i}");
            failures.record(a, start);
        }
        let wait = failures.wait(a, start + Duration::from_secs(15)).unwrap();
        assert_eq!(wait, Duration::from_secs(45));
        assert_eq!(
            failures.wait(b, start),
            None,
            "another address is unaffected"
        );
        assert_eq!(failures.wait(a, start + FAILURE_WINDOW), None);
    }

    #[test]
    fn a_chosen_limit_lets_that_many_failures_through() {
        let failures = Failures::with_limit(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(failures.wait(a, start), None, "after {i}");
            failures.record(a, start);
        }
        assert!(failures.wait(a, start).is_some(), "the fourth waits");
        assert_eq!(Failures::with_limit(0).limit, 1, "a limit of 0 is 1");
    }
}
