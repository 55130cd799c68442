//! The error answers each kind of route can give, written once for the OpenAPI document.
//!
//! A handler's `#[utoipa::path(responses(...))]` lists its success answers and one of these
//! sets, e.g. `responses((status = 200, body = Event), PublicRead)`. Every error is an
//! `application/problem+json` [`Problem`](crate::error::Problem); what a particular route
//! means by a 409 or a 422 is said in its own description. The sets follow the request's
//! path through the server: a missing or malformed body is a 400, no token or one nobody
//! issued a 401, another event's token (or a scorer's where the admin is needed) a 403, an
//! unknown event or item a 404, a clash with the event's state a 409, and a value the server
//! refuses (a path id that is not a number, a query parameter, a body field) a 422.

use std::collections::BTreeMap;

use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::IntoResponses;

/// One documented answer: its status and what it means.
struct Answer {
    status: u16,
    description: &'static str,
}

impl Answer {
    const fn new(status: u16, description: &'static str) -> Answer {
        Answer {
            status,
            description,
        }
    }
}

const NOT_MODIFIED: Answer = Answer::new(304, "Not modified: the `If-None-Match` ETag is current");
const MALFORMED: Answer = Answer::new(
    400,
    "No body, or one that cannot be read as the route's format (JSON, or TRF text)",
);
const UNAUTHORIZED: Answer = Answer::new(
    401,
    "No `Authorization: Bearer` token, or a token nobody issued",
);
const FORBIDDEN_ADMIN: Answer = Answer::new(
    403,
    "Another event's token, or a scorer token where the admin token is needed",
);
const FORBIDDEN_SCORER: Answer = Answer::new(403, "Another event's token");
const UNAUTHORIZED_SERVER: Answer = Answer::new(
    401,
    "No `Authorization: Bearer` token: the server admin token is needed",
);
const FORBIDDEN_SERVER: Answer = Answer::new(
    403,
    "A token that is not the server admin token (`TOURNEY_ADMIN_TOKEN`, or the file `<database>.admin-token`)",
);
const NOT_FOUND: Answer = Answer::new(404, "No such event, or no such item in it");
const CONFLICT: Answer = Answer::new(
    409,
    "The change does not fit the event's current state (the route says when)",
);
const INVALID: Answer = Answer::new(422, "A value the server refuses (path id, query parameter or body field); `errors[].field` names each one");
const STOPPED: Answer = Answer::new(
    503,
    "The pairing was stopped (it ran over its time budget, `TOURNEY_PAIRING_SECONDS`, or its client left), or the server was busy with other pairings (one per core at once) or other changes for longer than `TOURNEY_WRITE_WAIT_SECONDS`, or had no room for the body for 10 s (`TOURNEY_BODY_MEMORY_MIB`: the bodies being read at once); `Retry-After` says when to try again",
);
const BUSY: Answer = Answer::new(
    503,
    "The server was busy with other changes (or, for a change that pairs, with other pairings: one per core at once) for longer than `TOURNEY_WRITE_WAIT_SECONDS`, or had no room for the body for 10 s (`TOURNEY_BODY_MEMORY_MIB`: the bodies being read at once); `Retry-After` says when to try again",
);
const STALE: Answer = Answer::new(
    412,
    "The `If-Match` names a version of the event that is no longer current (another change came first); `detail` says the current one: read again, then decide",
);
const STALLED: Answer = Answer::new(408, "The body did not arrive whole within 10 s");
const TOO_LARGE: Answer = Answer::new(
    413,
    "The body is over the server's bound (4 MiB); `errors[].field` is `body`",
);
const IMPORT_TOO_LARGE: Answer = Answer::new(
    413,
    "The document is over the import's bound (64 MiB); `errors[].field` is `body`",
);
const IMPORT_BUSY: Answer = Answer::new(
    503,
    "The server was reading another import (one at a time), or busy with other changes, for longer than `TOURNEY_WRITE_WAIT_SECONDS`, or had no room for the body for 10 s (`TOURNEY_BODY_MEMORY_MIB`); `Retry-After` says when to try again",
);
const TOO_MANY: Answer = Answer::new(
    429,
    "The event has as many live subscribers as it takes; retry later",
);

const SLOWED: Answer = Answer::new(
    429,
    "Too many bad credentials from this address (20 a minute); wait `Retry-After` seconds",
);

/// The responses map of `answers`: each error an `application/problem+json` `Problem`.
fn answers(answers: &[Answer]) -> BTreeMap<String, RefOr<Response>> {
    answers
        .iter()
        .map(|a| {
            let mut response = ResponseBuilder::new().description(a.description);
            if a.status >= 400 {
                response = response.content(
                    "application/problem+json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Problem")))
                        .build(),
                );
            }
            (a.status.to_string(), RefOr::T(response.build()))
        })
        .collect()
}

/// Declares a set of answers as a type usable in `responses(...)`.
macro_rules! answer_set {
    ($(#[$doc:meta])* $name:ident: $($answer:ident),+) => {
        $(#[$doc])*
        pub struct $name;

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                answers(&[$($answer),+])
            }
        }
    };
}

answer_set!(
    /// A read of an event or of something in it: no token needed.
    PublicRead: NOT_MODIFIED, NOT_FOUND, INVALID
);
answer_set!(
    /// A read of an event that only some formats have (a bridge traveller, team standings):
    /// 409 for an event of another format.
    FormatRead: NOT_MODIFIED, NOT_FOUND, CONFLICT, INVALID
);
answer_set!(
    /// The live stream of an event: no token needed, a cap on subscribers.
    LiveStream: NOT_FOUND, TOO_MANY, INVALID
);
answer_set!(
    /// A read that needs no event: pairing tables, movements, the list of events.
    StatelessRead: NOT_MODIFIED, INVALID
);
answer_set!(
    /// A request with a body that needs no token: creating an event, importing a TRF file,
    /// stateless pairing and validation.
    PublicSubmit: MALFORMED, STALLED, TOO_LARGE, INVALID, BUSY
);
answer_set!(
    /// Importing an event document: no token, a larger body bound, one import at a time.
    PublicImport: MALFORMED, STALLED, IMPORT_TOO_LARGE, INVALID, IMPORT_BUSY
);
answer_set!(
    /// A read only the event's admin may make (its credentials).
    AdminRead: UNAUTHORIZED, FORBIDDEN_ADMIN, NOT_FOUND, INVALID, SLOWED
);
answer_set!(
    /// A read of the whole server (a backup): the server admin token.
    ServerAdminRead: UNAUTHORIZED_SERVER, FORBIDDEN_SERVER, SLOWED
);
answer_set!(
    /// A change with a body that needs the event's admin token.
    AdminWrite: MALFORMED, UNAUTHORIZED, FORBIDDEN_ADMIN, NOT_FOUND, CONFLICT, STALE, STALLED, TOO_LARGE, INVALID, SLOWED, BUSY
);
answer_set!(
    /// A change without a body that needs the event's admin token (publish, withdraw, delete).
    AdminAction: UNAUTHORIZED, FORBIDDEN_ADMIN, NOT_FOUND, CONFLICT, STALE, INVALID, SLOWED, BUSY
);
answer_set!(
    /// A change with a body that the admin token or one of the event's scorer tokens may make.
    ScorerWrite: MALFORMED, UNAUTHORIZED, FORBIDDEN_SCORER, NOT_FOUND, CONFLICT, STALE, STALLED, TOO_LARGE, INVALID, SLOWED, BUSY
);

answer_set!(
    /// A stateless Swiss pairing: a body, no token, and a time budget.
    PublicPairing: MALFORMED, STALLED, TOO_LARGE, INVALID, STOPPED
);
answer_set!(
    /// Pairing an event's next round: the admin token, and a time budget.
    AdminPairing: UNAUTHORIZED, FORBIDDEN_ADMIN, NOT_FOUND, CONFLICT, STALE, INVALID, SLOWED, STOPPED
);

/// Documents the `If-Match` header on every change of an event (every `POST`, `PUT`, `PATCH`
/// and `DELETE` under `/api/v1/events/{event_id}`), as `server::preconditions` applies it: from
/// the paths, so a new route is documented as it is served.
pub struct IfMatchHeader;

impl utoipa::Modify for IfMatchHeader {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::{ObjectBuilder, Required, Type};
        for (path, item) in openapi.paths.paths.iter_mut() {
            if !path.starts_with("/api/v1/events/{event_id}") {
                continue;
            }
            for operation in [
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ]
            .into_iter()
            .flatten()
            {
                let header = ParameterBuilder::new()
                    .name("If-Match")
                    .parameter_in(ParameterIn::Header)
                    .required(Required::False)
                    .description(Some(
                        "Make the change only if the event is still at this version, else 412. Any ETag the server sent for the event's data (`\"v42\"`, `\"v42-gz\"`, `\"v42-csv\"`, `\"v42-<hash>\"`, `W/` allowed), the bare version (`42`), or `*`; several separated by commas. Checked inside the change's transaction.",
                    ))
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .example(Some(serde_json::json!("\"v42\"")))
                    .build();
                operation
                    .parameters
                    .get_or_insert_with(Vec::new)
                    .push(header);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_is_a_problem_and_304_has_no_body() {
        let map = AdminWrite::responses();
        let statuses: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(
            statuses,
            ["400", "401", "403", "404", "408", "409", "412", "413", "422", "429", "503"]
        );
        for response in map.values() {
            let RefOr::T(r) = response else {
                panic!("inline")
            };
            assert!(r.content.contains_key("application/problem+json"));
        }
        let RefOr::T(not_modified) = &PublicRead::responses()["304"] else {
            panic!("inline")
        };
        assert!(not_modified.content.is_empty());
    }
}
