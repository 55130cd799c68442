//! `/api/v1/events/{id}/tokens`: scorer credentials that may only submit results.

use actix_web::{delete, get, post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::auth;
use crate::api::extract::{Bearer, JsonBody};
use crate::api::responses::{AdminAction, AdminRead, AdminWrite};
use crate::error::{ApiError, ApiResult};
use crate::store::tokens::{self, Role, TokenInfo};
use crate::store::{now, Store};

/// A new scorer token.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"label": "results upload script"}))]
pub struct NewScorerToken {
    /// What the token is for.
    #[schema(value_type = Option<crate::limits::schema::PlainText>)]
    pub label: Option<String>,
}

/// A scorer token, shown once.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": 2, "role": "scorer", "label": "results upload script", "token": "tny_5f0c...e9"}))]
pub struct IssuedToken {
    pub id: i64,
    pub role: Role,
    pub label: Option<String>,
    /// Send as `Authorization: Bearer <token>`. Only its hash is stored.
    pub token: String,
}

/// The event's credentials (without the tokens themselves).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"items": [{"id": 1, "role": "admin", "label": "admin", "created_at": "2026-11-22T10:00:00Z", "revoked_at": null}]}))]
pub struct TokenList {
    pub items: Vec<TokenInfo>,
}

/// Create a scorer token (may only submit results). Admin only.
#[utoipa::path(
    post, path = "/api/v1/events/{event_id}/tokens", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    request_body = NewScorerToken,
    security(("bearer" = [])),
    responses(
        (status = 201, body = IssuedToken),
        AdminWrite,
    )
)]
#[post("/api/v1/events/{event_id}/tokens")]
pub async fn create_token(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
    JsonBody(body): JsonBody<NewScorerToken>,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    if let Some(fault) = body
        .label
        .as_deref()
        .and_then(|l| crate::limits::text_fault(l, crate::limits::MAX_NAME_CHARS))
    {
        return Err(ApiError::invalid("label", fault));
    }
    let issued = store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            let (id, token) =
                tokens::issue(tx, event_id, Role::Scorer, body.label.as_deref(), &now())?;
            Ok(IssuedToken {
                id,
                role: Role::Scorer,
                label: body.label,
                token,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(issued))
}

/// List the event's credentials. Admin only.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/tokens", tag = "events",
    params(("event_id" = i64, Path, description = "Event id")),
    security(("bearer" = [])),
    responses(
        (status = 200, body = TokenList),
        AdminRead,
    )
)]
#[get("/api/v1/events/{event_id}/tokens")]
pub async fn list_tokens(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let event_id = path.into_inner();
    let items = store
        .read(move |conn| {
            auth::require(conn, event_id, token.as_deref(), Role::Admin)?;
            tokens::list(conn, event_id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(TokenList { items }))
}

/// Revoke a scorer token. Admin only.
#[utoipa::path(
    delete, path = "/api/v1/events/{event_id}/tokens/{token_id}", tag = "events",
    params(("event_id" = i64, Path, description = "Event id"), ("token_id" = i64, Path, description = "Token id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Revoked"),
        AdminAction,
    )
)]
#[delete("/api/v1/events/{event_id}/tokens/{token_id}")]
pub async fn revoke_token(
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let (event_id, token_id) = path.into_inner();
    store
        .write(move |tx| {
            auth::require(tx, event_id, token.as_deref(), Role::Admin)?;
            if tokens::revoke_scorer(tx, event_id, token_id, &now())? {
                Ok(())
            } else {
                Err(ApiError::not_found(format!(
                    "event {event_id} has no scorer token {token_id}"
                )))
            }
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
