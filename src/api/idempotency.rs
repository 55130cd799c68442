//! `Idempotency-Key`: a POST sent again with the same key (same credential, path and body)
//! gets the first answer back, marked `Idempotent-Replayed: true`, and stores nothing twice.
//!
//! * The key is 1 to 255 visible ASCII characters; anything else is a 400 naming the header.
//! * The key is kept with its answer in the same transaction as the request's work
//!   ([`crate::store::idempotency`]): after a crash, a retry finds either the work done and
//!   its answer (replayed) or neither (the request runs afresh), never a key "running" for a
//!   request that died. Answers are kept 24 hours, whatever their status, except a server
//!   failure (5xx): its work is rolled back and the key stays free, so that a retry can run.
//! * The same key arriving while its first request really runs (in this server process) gets
//!   a 409 with `Retry-After: 1`: retry, and get the answer.
//! * The same key with a different body (or another content type) is a 422: keys name one
//!   request, not one endpoint.
//! * Keys are scoped by the credential (the `Authorization` header, kept as a digest; without
//!   one, the client's IP address), the method and the path, so one client's key never
//!   replays another's answer.
//! * The live stream hears of the request's change once it has committed.

use actix_web::body::{to_bytes, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse, ResponseError};
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::live::Live;
use crate::store::idempotency::{self, KeptAnswer, Keyed};
use crate::store::{idempotency_expiry, now, Store};

pub const HEADER: &str = "Idempotency-Key";
/// How long an answer is kept.
pub const KEPT_HOURS: i64 = crate::store::IDEMPOTENCY_KEPT_HOURS;
const MAX_KEY: usize = 255;

/// The header's value in the OpenAPI document: 1 to [`MAX_KEY`] visible ASCII characters.
pub struct IdempotencyKey;

impl utoipa::PartialSchema for IdempotencyKey {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("A key naming one request: visible ASCII characters."))
            .min_length(Some(1))
            .max_length(Some(MAX_KEY))
            .pattern(Some("^[\\x21-\\x7E]+$"))
            .into()
    }
}

impl utoipa::ToSchema for IdempotencyKey {}

fn digest(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The digest a key is kept under: the `Authorization` header (or, without one, the client's
/// address), the method, the path with its query, and the key.
pub fn scope(authorization: &[u8], address: &str, method: &str, path: &str, key: &[u8]) -> String {
    digest(&[
        authorization,
        address.as_bytes(),
        method.as_bytes(),
        path.as_bytes(),
        key,
    ])
}

fn header_bytes(req: &ServiceRequest, name: header::HeaderName) -> &[u8] {
    req.headers().get(name).map_or(&[], |v| v.as_bytes())
}

fn answer(req: ServiceRequest, response: HttpResponse) -> ServiceResponse<BoxBody> {
    req.into_response(response.map_into_boxed_body())
}

/// The middleware (wrapped around the whole app in [`crate::server`]).
pub async fn idempotency(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let key = match req.headers().get(HEADER) {
        Some(key) if req.method() == Method::POST => key.as_bytes().to_vec(),
        _ => return next.call(req).await.map(|r| r.map_into_boxed_body()),
    };
    if key.is_empty() || key.len() > MAX_KEY || !key.iter().all(|b| (0x21..=0x7e).contains(b)) {
        let e = ApiError::bad_request(
            Some(HEADER),
            format!("must be 1 to {MAX_KEY} visible ASCII characters"),
        );
        return Ok(answer(req, e.error_response()));
    }
    let Some(store) = req.app_data::<web::Data<Store>>().cloned() else {
        return next.call(req).await.map(|r| r.map_into_boxed_body());
    };
    let body = match req.extract::<crate::api::extract::RawBody>().await {
        Ok(crate::api::extract::RawBody(body)) => body,
        Err(e) => {
            return Ok(answer(req, e.error_response()));
        }
    };
    req.set_payload(Payload::from(body.clone()));
    let path = req.uri().path_and_query().map_or("", |p| p.as_str());
    // without credentials (creating an event), the client's address stands in for them, so
    // that a guessed key never hands one client another's answer (and its admin token)
    let credential = header_bytes(&req, header::AUTHORIZATION);
    let anonymous = if credential.is_empty() {
        req.peer_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_default()
    } else {
        String::new()
    };
    let scope = scope(credential, &anonymous, req.method().as_str(), path, &key);
    let request_hash = digest(&[header_bytes(&req, header::CONTENT_TYPE), &body]);
    let Some(_running) = store.running_keys().start(&scope) else {
        let e = ApiError::conflict(
            "a request with this Idempotency-Key is still running; retry in a moment to get its answer",
        );
        let mut response = e.error_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(1));
        return Ok(answer(req, response));
    };
    let kept = {
        let scope = scope.clone();
        store
            .read(move |conn| idempotency::find(conn, &scope, &idempotency_expiry()))
            .await
    };
    match kept {
        Err(e) => return Ok(answer(req, e.error_response())),
        Ok(Some(kept)) => return Ok(replay(req, kept, &request_hash)),
        Ok(None) => {}
    }
    let live = req.app_data::<web::Data<Live>>().cloned();
    let keyed = Keyed::new(scope.clone(), request_hash.clone());
    let ((response, keyed), deferred) =
        crate::live::deferring(idempotency::run_keyed(keyed, next.call(req))).await;
    let response = response?;
    let keyed = keyed.unwrap_or_else(|| Keyed::new(scope.clone(), request_hash.clone()));
    if let Some(kept) = keyed.found {
        // a duplicate committed first (this one did nothing): its answer
        let (req, _) = response.into_parts();
        return Ok(replay_to(req, kept, &request_hash));
    }
    let (req, response) = response.into_parts();
    let (response, body) = response.into_parts();
    let body = match to_bytes(body).await {
        Ok(body) => body,
        Err(e) => {
            // the held work (if any) rolls back with `keyed`
            let e: Box<dyn std::error::Error> = e.into();
            let e = ApiError::Internal(format!("response body: {e}"));
            return Ok(ServiceResponse::new(req, e.error_response()));
        }
    };
    let status = response.status();
    let kept = KeptAnswer {
        status: status.as_u16(),
        content_type: response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        body: body.to_vec(),
    };
    let stored = match (keyed.held, status.is_server_error()) {
        // a server failure: its work (if any) rolls back, the key stays free
        (_, true) => Ok(()),
        // the work and its answer, committed together
        (Some(held), false) => actix_web::web::block(move || {
            held.commit(&scope, &request_hash, &kept, &now(), &idempotency_expiry())
        })
        .await
        .unwrap_or_else(|e| Err(ApiError::Internal(format!("commit: {e}")))),
        // nothing written (a refusal, a stateless answer): the answer alone
        (None, false) => {
            store
                .write(move |tx| {
                    idempotency::keep(
                        tx,
                        &scope,
                        &request_hash,
                        &kept,
                        &now(),
                        &idempotency_expiry(),
                    )
                })
                .await
        }
    };
    match stored {
        Ok(()) => {
            if let (Some(live), false) = (live, status.is_server_error()) {
                live.send_deferred(deferred);
            }
            let response = response.set_body(body).map_into_boxed_body();
            Ok(ServiceResponse::new(req, response))
        }
        Err(e) => {
            log::error!("cannot keep the answer of an Idempotency-Key: {e}");
            Ok(ServiceResponse::new(req, e.error_response()))
        }
    }
}

/// The kept answer, when it answered this very request (else the key's reuse is a 422).
fn kept_response(kept: idempotency::Kept, request_hash: &str) -> HttpResponse {
    if kept.request_hash != request_hash {
        return ApiError::invalid(
            HEADER,
            "this key was used for a different request; use a new key for a new request",
        )
        .error_response();
    }
    let answer = kept.answer;
    let mut response =
        HttpResponse::build(StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK));
    if let Some(ct) = answer.content_type {
        response.insert_header((header::CONTENT_TYPE, ct));
    }
    response.insert_header(("Idempotent-Replayed", "true"));
    response.body(answer.body)
}

fn replay(
    req: ServiceRequest,
    kept: idempotency::Kept,
    request_hash: &str,
) -> ServiceResponse<BoxBody> {
    answer(req, kept_response(kept, request_hash))
}

fn replay_to(
    req: actix_web::HttpRequest,
    kept: idempotency::Kept,
    request_hash: &str,
) -> ServiceResponse<BoxBody> {
    ServiceResponse::new(req, kept_response(kept, request_hash))
}
