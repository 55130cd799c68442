//! The read cache: public GETs of an event's data (rounds, standings, crosstables, movements,
//! travellers, exports, pages) answered from encoded bodies kept in memory, keyed by the
//! event's version (see `store::versions`), the URL, the representation asked for (`Accept:
//! text/csv` or not) and gzip or not. The ETag is the version plus the representation, so
//! `If-None-Match` gets its 304 from memory: no database read, nothing built or hashed.
//!
//! Only anonymous requests are served from or stored in the cache: a request with credentials
//! may see drafts, so it always goes to the handler (and keeps the handler's own ETag).
//! Memory is bounded (least recently used out).

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use actix_web::body::{to_bytes, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;

use crate::store::Store;

/// Default bound of the cached bodies (`TOURNEY_CACHE_MIB`).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// The bound set by `TOURNEY_CACHE_MIB` (0 turns the cache off), else the default.
pub fn bound_from_env() -> usize {
    std::env::var("TOURNEY_CACHE_MIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(DEFAULT_CACHE_BYTES, |mib| mib.saturating_mul(1 << 20))
}

/// What a published answer says about caching: anyone may keep it, but must ask again.
pub const PUBLIC_CACHE_CONTROL: &str = "public, max-age=0, must-revalidate";

/// One kept answer.
struct Kept {
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
    size: usize,
    used: u64,
}

#[derive(Default)]
struct Lru {
    entries: HashMap<String, Kept>,
    by_use: BTreeMap<u64, String>,
    clock: u64,
    bytes: usize,
}

/// The cache, shared by all workers.
pub struct ReadCache {
    lru: Mutex<Lru>,
    max_bytes: usize,
    /// Answers served from memory (304s included).
    pub hits: AtomicU64,
    /// Answers built by a handler and then kept.
    pub misses: AtomicU64,
}

impl ReadCache {
    pub fn new(max_bytes: usize) -> ReadCache {
        ReadCache {
            lru: Mutex::new(Lru::default()),
            max_bytes,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lru.lock().map_or(0, |l| l.bytes)
    }

    fn get(&self, key: &str) -> Option<(Vec<(HeaderName, HeaderValue)>, Bytes)> {
        let mut lru = self.lru.lock().ok()?;
        lru.clock += 1;
        let now = lru.clock;
        let kept = lru.entries.get_mut(key)?;
        let before = std::mem::replace(&mut kept.used, now);
        let answer = (kept.headers.clone(), kept.body.clone());
        lru.by_use.remove(&before);
        lru.by_use.insert(now, key.to_string());
        Some(answer)
    }

    fn put(&self, key: String, headers: Vec<(HeaderName, HeaderValue)>, body: Bytes) {
        let size = body.len()
            + key.len()
            + headers
                .iter()
                .map(|(n, v)| n.as_str().len() + v.len())
                .sum::<usize>()
            + 128;
        if size > self.max_bytes {
            return;
        }
        let Ok(mut lru) = self.lru.lock() else { return };
        lru.clock += 1;
        let used = lru.clock;
        if let Some(old) = lru.entries.remove(&key) {
            lru.by_use.remove(&old.used);
            lru.bytes -= old.size;
        }
        while lru.bytes + size > self.max_bytes {
            let Some((_, oldest)) = lru.by_use.pop_first() else {
                break;
            };
            if let Some(old) = lru.entries.remove(&oldest) {
                lru.bytes -= old.size;
            }
        }
        lru.by_use.insert(used, key.clone());
        lru.bytes += size;
        lru.entries.insert(
            key,
            Kept {
                headers,
                body,
                size,
                used,
            },
        );
    }
}

/// The event a public path reads, if it is one the cache serves: `/api/v1/events/{id}` and
/// below (not the endless `/stream`), and the pages `/e/{id}` and below.
pub(crate) fn event_of(path: &str) -> Option<i64> {
    let rest = path
        .strip_prefix("/api/v1/events/")
        .or_else(|| path.strip_prefix("/e/"))?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    if tail == "stream" || id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

fn header_has(req: &ServiceRequest, name: HeaderName, needle: &str) -> bool {
    req.headers()
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains(needle))
}

fn accepts_gzip(req: &ServiceRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let refused = |p: &str| {
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            };
            parts.next().is_some_and(|c| c.eq_ignore_ascii_case("gzip")) && !parts.any(refused)
        })
}

fn if_none_match(req: &ServiceRequest, etag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == etag)
}

fn gzip(body: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4 + 64),
        flate2::Compression::fast(),
    );
    encoder.write_all(body)?;
    encoder.finish()
}

/// Headers of a handler's answer worth keeping (the cache sets its own validators, length and
/// coding).
fn kept_headers(headers: &header::HeaderMap) -> Vec<(HeaderName, HeaderValue)> {
    headers
        .iter()
        .filter(|(name, _)| {
            ![
                header::ETAG,
                header::CACHE_CONTROL,
                header::CONTENT_LENGTH,
                header::CONTENT_ENCODING,
                header::VARY,
            ]
            .contains(name)
        })
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect()
}

fn answer(
    etag: &str,
    gzipped: bool,
    headers: &[(HeaderName, HeaderValue)],
    body: Option<Bytes>,
) -> HttpResponse {
    let mut response = match body {
        Some(_) => HttpResponse::Ok(),
        None => HttpResponse::NotModified(),
    };
    for (name, value) in headers {
        response.insert_header((name.clone(), value.clone()));
    }
    response
        .insert_header((header::ETAG, etag.to_string()))
        .insert_header((header::CACHE_CONTROL, PUBLIC_CACHE_CONTROL))
        .insert_header((header::VARY, "Accept, Accept-Encoding"));
    match body {
        Some(body) => {
            if gzipped {
                response.insert_header((header::CONTENT_ENCODING, "gzip"));
            }
            response.body(body)
        }
        None => response.finish(),
    }
}

/// The middleware (see the module's documentation).
pub async fn read_cache(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let pass = |req| async { next.call(req).await.map(|r| r.map_into_boxed_body()) };
    let event = match event_of(req.path()) {
        Some(event)
            if req.method() == Method::GET
                && !req.headers().contains_key(header::AUTHORIZATION) =>
        {
            event
        }
        _ => return pass(req).await,
    };
    let (Some(cache), Some(store)) = (
        req.app_data::<web::Data<ReadCache>>().cloned(),
        req.app_data::<web::Data<Store>>().cloned(),
    ) else {
        return pass(req).await;
    };
    let Ok(Some(version)) = store.event_version(event).await else {
        return pass(req).await;
    };
    let csv = header_has(&req, header::ACCEPT, "text/csv");
    let gz = accepts_gzip(&req);
    let representation = match (csv, gz) {
        (false, false) => "",
        (false, true) => "-gz",
        (true, false) => "-csv",
        (true, true) => "-csv-gz",
    };
    let etag = format!("\"v{version}{representation}\"");
    let target = req.uri().path_and_query().map_or("", |p| p.as_str());
    let key = format!("{event} {version} {representation} {target}");

    if let Some((headers, body)) = cache.get(&key) {
        cache.hits.fetch_add(1, Ordering::Relaxed);
        let body = (!if_none_match(&req, &etag)).then_some(body);
        return Ok(req.into_response(answer(&etag, gz, &headers, body)));
    }
    if if_none_match(&req, &etag) {
        // The client holds this version; nothing to build.
        cache.hits.fetch_add(1, Ordering::Relaxed);
        return Ok(req.into_response(answer(&etag, gz, &[], None)));
    }

    let response = next.call(req).await?;
    if response.status() != StatusCode::OK {
        return Ok(response.map_into_boxed_body());
    }
    let (req, response) = response.into_parts();
    let headers = kept_headers(response.headers());
    let (_, body) = response.into_parts();
    let body = to_bytes(body)
        .await
        .map_err(|e| actix_web::error::ErrorInternalServerError(e.into()))?;
    let body = if gz {
        Bytes::from(gzip(&body).map_err(actix_web::error::ErrorInternalServerError)?)
    } else {
        body
    };
    cache.misses.fetch_add(1, Ordering::Relaxed);
    cache.put(key, headers.clone(), body.clone());
    Ok(ServiceResponse::new(
        req,
        answer(&etag, gz, &headers, Some(body)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_event_paths_are_cached() {
        assert_eq!(event_of("/api/v1/events/12"), Some(12));
        assert_eq!(event_of("/api/v1/events/12/rounds/3"), Some(12));
        assert_eq!(event_of("/e/7/standings"), Some(7));
        assert_eq!(event_of("/api/v1/events/12/stream"), None);
        assert_eq!(event_of("/api/v1/events"), None);
        assert_eq!(event_of("/api/v1/events/x/rounds"), None);
        assert_eq!(event_of("/healthz"), None);
    }

    #[test]
    fn memory_stays_under_the_bound_least_recently_used_out() {
        let cache = ReadCache::new(3 * 1200);
        let body = || Bytes::from(vec![b'x'; 1000]);
        cache.put("a".into(), vec![], body());
        cache.put("b".into(), vec![], body());
        cache.put("c".into(), vec![], body());
        assert!(cache.get("a").is_some()); // a is now the most recently used
        cache.put("d".into(), vec![], body());
        assert!(cache.bytes() <= 3 * 1200);
        assert!(cache.get("b").is_none(), "the least recently used went out");
        assert!(cache.get("a").is_some() && cache.get("c").is_some() && cache.get("d").is_some());
        // A body larger than the whole bound is never kept.
        cache.put("huge".into(), vec![], Bytes::from(vec![0; 5000]));
        assert!(cache.get("huge").is_none());
    }
}
