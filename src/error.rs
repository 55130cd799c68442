//! The one error type of the server, mapped to `application/problem+json` (RFC 9457).
//!
//! Every handler returns `Result<_, ApiError>`; engines return their own plain error values
//! which the handlers convert here, so the HTTP mapping lives in one place.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// One field at fault in a request.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[schema(example = json!({"field": "results[0].result", "message": "\"2-0\" is not a result"}))]
pub struct FieldError {
    /// The request field (JSON path or query parameter) at fault, e.g. `players` or `results[2].result`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "https://tourney.dev/problems/validation",
    "title": "Invalid request",
    "status": 422,
    "detail": "players: must be at least 3",
    "errors": [{"field": "players", "message": "must be at least 3"}]
}))]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong in this request.
    pub detail: String,
    /// The fields at fault (validation problems only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// Everything that can go wrong while serving a request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request body or query could not be parsed at all.
    #[error("{detail}")]
    BadRequest {
        detail: String,
        field: Option<String>,
    },
    /// 422: well-formed but invalid values.
    #[error("{}", describe(.0))]
    Validation(Vec<FieldError>),
    /// 401: no credentials, or credentials nobody issued.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: valid credentials that do not allow this action.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such resource.
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// 409: fields of the request conflict with what is stored (a result another request
    /// stored first), each named.
    #[error("{}", describe(.0))]
    ConflictAt(Vec<FieldError>),
    /// 412: the request's `If-Match` names a version of the event that is no longer current.
    #[error("{0}")]
    PreconditionFailed(String),
    /// 408: the request body stalled (`limits::BODY_TIMEOUT`).
    #[error("{0}")]
    RequestTimeout(String),
    /// 413: a request body over the server's bound (`limits::MAX_BODY_BYTES`).
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 429: a limit on concurrent use is reached (e.g. live-stream subscribers of an event).
    #[error("{0}")]
    TooManyRequests(String),
    /// 503: the work was stopped (a pairing over its time budget); try again later or
    /// with a smaller request.
    #[error("{0}")]
    Unavailable(String),
    /// 500: a fault of ours (database failure...). Never for bad input.
    #[error("{0}")]
    Internal(String),
}

fn describe(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect::<Vec<_>>()
        .join("; ")
}

impl ApiError {
    /// A 422 naming one field.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::Validation(vec![FieldError {
            field: field.into(),
            message: message.into(),
        }])
    }

    /// A 400 naming one field.
    pub fn bad_request(field: Option<&str>, detail: impl Into<String>) -> Self {
        ApiError::BadRequest {
            detail: detail.into(),
            field: field.map(str::to_string),
        }
    }

    pub fn not_found(what: impl Into<String>) -> Self {
        ApiError::NotFound(what.into())
    }

    pub fn conflict(detail: impl Into<String>) -> Self {
        ApiError::Conflict(detail.into())
    }

    fn kind_and_title(&self) -> (&'static str, &'static str) {
        match self {
            ApiError::BadRequest { .. } => ("malformed-request", "Malformed request"),
            ApiError::Validation(_) => ("validation", "Invalid request"),
            ApiError::Unauthorized(_) => ("unauthorized", "Credentials required"),
            ApiError::Forbidden(_) => ("forbidden", "Not allowed"),
            ApiError::NotFound(_) => ("not-found", "Not found"),
            ApiError::Conflict(_) | ApiError::ConflictAt(_) => {
                ("conflict", "Conflict with the current state")
            }
            ApiError::PreconditionFailed(_) => ("precondition-failed", "Precondition failed"),
            ApiError::RequestTimeout(_) => ("request-timeout", "Request body too slow"),
            ApiError::PayloadTooLarge(_) => ("payload-too-large", "Request body too large"),
            ApiError::TooManyRequests(_) => ("too-many-requests", "Too many requests"),
            ApiError::Unavailable(_) => ("unavailable", "Service unavailable"),
            ApiError::Internal(_) => ("internal", "Internal error"),
        }
    }

    /// The problem document for this error.
    pub fn problem(&self) -> Problem {
        let (kind, title) = self.kind_and_title();
        let errors = match self {
            ApiError::Validation(errors) | ApiError::ConflictAt(errors) => errors.clone(),
            ApiError::BadRequest {
                field: Some(field),
                detail,
            } => vec![FieldError {
                field: field.clone(),
                message: detail.clone(),
            }],
            ApiError::PayloadTooLarge(detail) => vec![FieldError {
                field: "body".into(),
                message: detail.clone(),
            }],
            _ => Vec::new(),
        };
        let detail = match self {
            ApiError::Internal(_) => "the server failed to complete the request".to_string(),
            other => other.to_string(),
        };
        Problem {
            kind: format!("https://tourney.dev/problems/{kind}"),
            title: title.to_string(),
            status: self.status_code().as_u16(),
            detail,
            errors,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::ConflictAt(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(cause) = self {
            log::error!("internal error: {cause}");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if matches!(self, ApiError::Unavailable(_)) {
            // busy (the writer's queue) or stopped (a pairing's budget): worth a retry soon
            response.insert_header((header::RETRY_AFTER, "2"));
        }
        if matches!(self, ApiError::Unauthorized(_)) {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        response.body(serde_json::to_string(&self.problem()).unwrap_or_default())
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::Internal(format!("database: {e}"))
    }
}

impl From<r2d2::Error> for ApiError {
    fn from(e: r2d2::Error) -> Self {
        ApiError::Internal(format!("connection pool: {e}"))
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> Self {
        ApiError::Internal(format!("worker: {e}"))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Turns collected field errors into a 422, or Ok when there are none.
pub fn check(errors: Vec<FieldError>) -> Result<(), ApiError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Validation(errors))
    }
}
