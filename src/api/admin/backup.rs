//! The server's own operations, for whoever runs it (not an event's director):
//! `GET /api/v1/admin/backup`, a consistent copy of the whole database taken while the server
//! goes on writing. Guarded by the server admin token (`TOURNEY_ADMIN_TOKEN`, or the file
//! `<database>.admin-token` created at first start; see `store::backup`).

use std::io::Read;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{get, HttpResponse};

use crate::api::extract::Bearer;
use crate::api::responses::ServerAdminRead;
use crate::error::{ApiError, ApiResult};
use crate::store::backup::Snapshot;
use crate::store::Store;

/// The media type of an SQLite database file.
pub const SQLITE_MEDIA_TYPE: &str = "application/vnd.sqlite3";
const CHUNK: usize = 64 * 1024;

/// Who may take a backup: the server admin token, nobody else (event tokens included).
fn require_server_admin(store: &Store, token: Option<&str>) -> ApiResult<()> {
    match token {
        None => Err(ApiError::Unauthorized(
            "the server admin token is needed (TOURNEY_ADMIN_TOKEN, or the file <database>.admin-token)"
                .into(),
        )),
        Some(t) if store.is_server_admin(t) => Ok(()),
        Some(_) => Err(ApiError::Forbidden(
            "this token is not the server admin token".into(),
        )),
    }
}

/// The snapshot's bytes, read chunk by chunk as the client takes them (the file is removed
/// when the answer ends, whole or cut short).
struct Chunks(Snapshot);

impl futures_core::Stream for Chunks {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut buffer = vec![0; CHUNK];
        Poll::Ready(match self.0.read(&mut buffer) {
            Ok(0) => None,
            Ok(n) => {
                buffer.truncate(n);
                Some(Ok(Bytes::from(buffer)))
            }
            Err(e) => Some(Err(e)),
        })
    }
}

/// Download a backup of the whole database: a consistent copy (`VACUUM INTO`, one snapshot
/// while writes go on), checked with `PRAGMA integrity_check` before it is sent. Restore it with
/// `tourney restore --db PATH FILE` (server stopped). The token secret (`<database>.secret`) is
/// not in it: keep that file with your backups, or the restored event tokens will not verify.
/// Needs the server admin token.
#[utoipa::path(
    get, path = "/api/v1/admin/backup", tag = "system",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The database file (SQLite 3)", content_type = "application/vnd.sqlite3", body = String),
        ServerAdminRead,
    )
)]
#[get("/api/v1/admin/backup")]
pub async fn backup(store: web::Data<Store>, Bearer(token): Bearer) -> ApiResult<HttpResponse> {
    require_server_admin(&store, token.as_deref())?;
    let db = store.path().to_path_buf();
    let snapshot = web::block(move || Snapshot::take(&db))
        .await?
        .map_err(ApiError::Internal)?;
    let name = format!("tourney-{}.db", chrono::Utc::now().format("%Y%m%dT%H%M%SZ"));
    let len = snapshot.len;
    Ok(HttpResponse::Ok()
        .content_type(SQLITE_MEDIA_TYPE)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .no_chunking(len)
        .streaming(Chunks(snapshot)))
}
