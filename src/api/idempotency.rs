//! `Idempotency-Key`: a POST sent again with the same key (same credential, path and body)
//! gets the first answer back, marked `Idempotent-Replayed: true`, and stores nothing twice.
//!
//! * The key is 1 to 255 visible ASCII characters; anything else is a 400 naming the header.
//! * The first request holds the key while it runs; the same key arriving meanwhile gets a 409
//!   (retry later). Its answer is kept 24 hours, whatever its status, except a server failure
//!   (5xx), after which the key is let go so that a retry can run again.
//! * The same key with a different body (or another content type) is a 422: keys name one
//!   request, not one endpoint.
//! * Keys are scoped by the credential (the `Authorization` header, kept as a digest; without
//!   one, the client's IP address), the method and the path, so one client's key never
//!   replays another's answer.

use actix_web::body::{to_bytes, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse, ResponseError};
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::store::idempotency::{self, Claim, KeptAnswer};
use crate::store::{now, Store};

pub const HEADER: &str = "Idempotency-Key";
/// How long an answer is kept.
pub const KEPT_HOURS: i64 = 24;
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
    let scope = digest(&[
        credential,
        anonymous.as_bytes(),
        req.method().as_str().as_bytes(),
        path.as_bytes(),
        &key,
    ]);
    let request_hash = digest(&[header_bytes(&req, header::CONTENT_TYPE), &body]);
    let claimed = {
        let scope = scope.clone();
        store
            .write(move |tx| {
                let expired = (chrono::Utc::now() - chrono::Duration::hours(KEPT_HOURS))
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
                idempotency::claim(tx, &scope, &request_hash, &now(), &expired)
            })
            .await
    };
    match claimed {
        Err(e) => Ok(answer(req, e.error_response())),
        Ok(Claim::Mismatch) => {
            let e = ApiError::invalid(
                HEADER,
                "this key was used for a different request; use a new key for a new request",
            );
            Ok(answer(req, e.error_response()))
        }
        Ok(Claim::InProgress) => {
            let e = ApiError::conflict(
                "a request with this Idempotency-Key is still running; retry in a moment",
            );
            Ok(answer(req, e.error_response()))
        }
        Ok(Claim::Replay(kept)) => {
            let mut response =
                HttpResponse::build(StatusCode::from_u16(kept.status).unwrap_or(StatusCode::OK));
            if let Some(ct) = kept.content_type {
                response.insert_header((header::CONTENT_TYPE, ct));
            }
            response.insert_header(("Idempotent-Replayed", "true"));
            Ok(answer(req, response.body(kept.body)))
        }
        Ok(Claim::New) => {
            let response = next.call(req).await?;
            let (req, response) = response.into_parts();
            let (response, body) = response.into_parts();
            let body = to_bytes(body).await.map_err(|e| {
                let e: Box<dyn std::error::Error> = e.into();
                actix_web::Error::from(ApiError::Internal(format!("response body: {e}")))
            })?;
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
            let stored = store
                .write(move |tx| {
                    if status.is_server_error() {
                        idempotency::release(tx, &scope)
                    } else {
                        idempotency::keep(tx, &scope, &kept)
                    }
                })
                .await;
            if let Err(e) = stored {
                log::error!("cannot keep the answer of an Idempotency-Key: {e}");
            }
            let response = response.set_body(body).map_into_boxed_body();
            Ok(ServiceResponse::new(req, response))
        }
    }
}
