//! Methods by the book: `HEAD` answered for every `GET`, `OPTIONS` answered with `Allow`, and
//! a method a path does not take answered 405 with `Allow` instead of 404.
//!
//! Which methods a path takes is read from the OpenAPI document, the same list the routes
//! are registered from, so the two cannot disagree.

use std::collections::BTreeSet;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, Error, HttpRequest, HttpResponse};

use crate::error::{ApiError, Problem};

/// The documented paths (as templates, `{name}` for a parameter), their methods, and the
/// methods whose operation takes a credential (the document's `security`).
#[derive(Debug, Clone)]
pub struct RouteTable {
    routes: Vec<Route>,
}

#[derive(Debug, Clone)]
struct Route {
    template: Vec<String>,
    methods: BTreeSet<&'static str>,
    secured: BTreeSet<&'static str>,
}

impl RouteTable {
    /// The table of the server's OpenAPI document.
    pub fn documented() -> RouteTable {
        let doc = crate::api::openapi::document();
        let routes = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let operations = [
                    ("GET", &item.get),
                    ("HEAD", &item.get),
                    ("POST", &item.post),
                    ("PUT", &item.put),
                    ("PATCH", &item.patch),
                    ("DELETE", &item.delete),
                ];
                let mut methods = BTreeSet::from(["OPTIONS"]);
                let mut secured = BTreeSet::new();
                for (method, operation) in operations {
                    let Some(operation) = operation else { continue };
                    methods.insert(method);
                    if operation.security.as_ref().is_some_and(|s| !s.is_empty()) {
                        secured.insert(method);
                    }
                }
                Route {
                    template: segments(path),
                    methods,
                    secured,
                }
            })
            .collect();
        RouteTable { routes }
    }

    /// The documented route of `path`, or `None` when no documented path matches it. Where
    /// several templates match, the one with the most literal segments is the path's
    /// (`/events/trf` over `/events/{event_id}`), as the router picks it.
    fn route(&self, path: &str) -> Option<&Route> {
        let wanted = segments(path);
        let mut best: Option<(usize, &Route)> = None;
        for route in &self.routes {
            if route.template.len() != wanted.len() {
                continue;
            }
            let mut literal = 0;
            let fits = route.template.iter().zip(&wanted).all(|(t, w)| {
                if t == w {
                    literal += 1;
                    true
                } else {
                    t.starts_with('{') && !w.is_empty()
                }
            });
            if fits && best.is_none_or(|(most, _)| literal > most) {
                best = Some((literal, route));
            }
        }
        best.map(|(_, route)| route)
    }

    /// The methods `path` takes, or `None` when no documented path matches it.
    pub fn allowed(&self, path: &str) -> Option<String> {
        self.route(path)
            .map(|r| r.methods.iter().copied().collect::<Vec<_>>().join(", "))
    }

    /// Whether `method` is one `path` takes (unknown paths take none).
    pub fn takes(&self, path: &str, method: &Method) -> bool {
        self.route(path)
            .is_some_and(|r| r.methods.contains(method.as_str()))
    }

    /// Whether `method` on `path` checks a credential (a public read ignores any it is sent).
    pub fn checks_credentials(&self, path: &str, method: &Method) -> bool {
        self.route(path)
            .is_some_and(|r| r.secured.contains(method.as_str()))
    }
}

fn segments(path: &str) -> Vec<String> {
    path.trim_end_matches('/')
        .split('/')
        .map(str::to_string)
        .collect()
}

/// Before routing: a method the path does not take is a 405 with `Allow` (the router would
/// otherwise read `GET /movements/validate` as `/movements/{kind}`); `HEAD` is served as the
/// `GET` it asks about (the connection sends the headers only); `OPTIONS` on a known path is
/// a 204 with `Allow`.
pub async fn head_and_options(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    if let Some(answer) = not_allowed(req.request()) {
        return Ok(req.into_response(answer).map_into_right_body());
    }
    if req.method() == Method::OPTIONS {
        let allowed = req
            .app_data::<web::Data<RouteTable>>()
            .and_then(|table| table.allowed(req.path()));
        if let Some(allowed) = allowed {
            let answer = HttpResponse::NoContent()
                .insert_header((header::ALLOW, allowed))
                .finish();
            return Ok(req.into_response(answer).map_into_right_body());
        }
    }
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// What no route took: a 405 with `Allow` when the path exists with other methods, else 404.
pub async fn not_routed(req: HttpRequest) -> HttpResponse {
    not_allowed(&req).unwrap_or_else(|| {
        actix_web::ResponseError::error_response(&ApiError::not_found("no such resource"))
    })
}

/// The 405 answer for a request whose path exists but does not take its method, if so.
pub fn not_allowed(req: &HttpRequest) -> Option<HttpResponse> {
    let table = req.app_data::<web::Data<RouteTable>>()?;
    let allowed = table.allowed(req.path())?;
    if table.takes(req.path(), req.method()) {
        return None;
    }
    let problem = Problem {
        kind: "https://tourney.dev/problems/method-not-allowed".into(),
        title: "Method not allowed".into(),
        status: 405,
        detail: format!(
            "{} is not a method of this resource; use {allowed}",
            req.method()
        ),
        errors: Vec::new(),
    };
    Some(
        HttpResponse::build(StatusCode::METHOD_NOT_ALLOWED)
            .insert_header((header::ALLOW, allowed))
            .content_type("application/problem+json")
            .json(problem),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_takes_the_methods_documented_for_its_template() {
        let table = RouteTable::documented();
        assert_eq!(
            table.allowed("/api/v1/events/7").as_deref(),
            Some("DELETE, GET, HEAD, OPTIONS, PATCH")
        );
        assert_eq!(
            table.allowed("/api/v1/tables/berger").as_deref(),
            Some("GET, HEAD, OPTIONS")
        );
        assert_eq!(table.allowed("/api/v1/nothing"), None);
        assert_eq!(
            table.allowed("/api/v1/events/trf").as_deref(),
            Some("OPTIONS, POST")
        );
        assert!(!table.takes("/api/v1/events/1/participants/bulk", &Method::PATCH));
        assert!(table.takes("/api/v1/events/1/participants/7", &Method::PATCH));
        assert_eq!(table.allowed("/api/v1/events/7/nothing"), None);
        assert!(table.checks_credentials("/api/v1/events/7", &Method::PATCH));
        assert!(table.checks_credentials("/api/v1/events/7/export", &Method::GET));
        assert!(!table.checks_credentials("/api/v1/events/7", &Method::GET));
        assert!(!table.checks_credentials("/api/v1/events/7/standings", &Method::GET));
        assert!(!table.checks_credentials("/api/v1/nothing", &Method::POST));
    }
}
