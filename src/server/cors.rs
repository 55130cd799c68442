//! Cross-origin requests: every web page may read (pairings, standings are public), only the
//! configured origins may write.
//!
//! - `GET`/`HEAD` answers carry `Access-Control-Allow-Origin: *` (and expose `ETag`).
//! - A write's answer carries `Access-Control-Allow-Origin: <origin>` only when the request's
//!   `Origin` is one of the configured ones (`--cors-origin`, `TOURNEY_CORS_ORIGINS`); by
//!   default none is, and browsers refuse to hand the answer to the page.
//! - A preflight (`OPTIONS` with `Access-Control-Request-Method`) is allowed for any origin
//!   when it asks for `GET`/`HEAD`, for the configured origins otherwise.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, Error};

/// The origins allowed to write (exact `scheme://host[:port]` strings).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorsPolicy {
    pub write_origins: Vec<String>,
}

/// What a request asks of CORS, read before it is handled.
enum Ask {
    /// No `Origin`: not a cross-origin request.
    Nothing,
    Read,
    Write(HeaderValue),
    Preflight {
        origin: HeaderValue,
        method: String,
    },
}

fn is_read(method: &str) -> bool {
    method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD")
}

fn ask(req: &ServiceRequest) -> Ask {
    let Some(origin) = req.headers().get(header::ORIGIN).cloned() else {
        return Ask::Nothing;
    };
    let requested = req
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_METHOD)
        .and_then(|v| v.to_str().ok());
    match (req.method(), requested) {
        (&Method::OPTIONS, Some(method)) => Ask::Preflight {
            origin,
            method: method.to_string(),
        },
        (method, _) if is_read(method.as_str()) => Ask::Read,
        _ => Ask::Write(origin),
    }
}

impl CorsPolicy {
    fn may_write(&self, origin: &HeaderValue) -> bool {
        origin
            .to_str()
            .is_ok_and(|o| self.write_origins.iter().any(|allowed| allowed == o))
    }

    /// The CORS headers for an answer to `ask`.
    fn decorate(&self, ask: Ask, headers: &mut HeaderMap) {
        let any = HeaderValue::from_static("*");
        match ask {
            Ask::Nothing => {}
            Ask::Read => {
                headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any);
                headers.insert(
                    header::ACCESS_CONTROL_EXPOSE_HEADERS,
                    HeaderValue::from_static("etag"),
                );
            }
            Ask::Write(origin) => {
                headers.append(header::VARY, HeaderValue::from_static("origin"));
                if self.may_write(&origin) {
                    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                }
            }
            Ask::Preflight { origin, method } => {
                headers.append(header::VARY, HeaderValue::from_static("origin"));
                let allow = if is_read(&method) {
                    Some(any)
                } else if self.may_write(&origin) {
                    Some(origin)
                } else {
                    None
                };
                if let Some(allow) = allow {
                    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allow);
                    headers.insert(
                        header::ACCESS_CONTROL_ALLOW_METHODS,
                        HeaderValue::from_static("GET, HEAD, POST, PUT, PATCH, DELETE"),
                    );
                    headers.insert(
                        header::ACCESS_CONTROL_ALLOW_HEADERS,
                        HeaderValue::from_static(
                            "authorization, content-type, accept, if-none-match, if-match",
                        ),
                    );
                    headers.insert(
                        header::ACCESS_CONTROL_MAX_AGE,
                        HeaderValue::from_static("600"),
                    );
                }
            }
        }
    }
}

/// The middleware: answers as the application does, with the CORS headers `CorsPolicy` gives.
pub async fn cors(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let policy = req
        .app_data::<web::Data<CorsPolicy>>()
        .cloned()
        .unwrap_or_else(|| web::Data::new(CorsPolicy::default()));
    let ask = ask(&req);
    let mut res = next.call(req).await?;
    policy.decorate(ask, res.headers_mut());
    Ok(res)
}
