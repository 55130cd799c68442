//! `GET /api/v1/tournaments/{id}/export` and `POST /api/v1/tournaments/import`: a tournament
//! with every section as one JSON document and back (`event_document::tournament`).

use actix_web::{get, post, web, HttpRequest, HttpResponse};

use crate::api::auth;
use crate::api::exports::event::check_event;
use crate::api::extract::{parse_json_keeping, read_body_up_to, Bearer};
use crate::api::responses::{AdminRead, PublicImport};
use crate::domain::tournament::{CreatedTournament, NewTournament, TournamentSettings};
use crate::error::ApiResult;
use crate::event_document::tournament::{
    map_group_sections, prefixed, TournamentDocument, TournamentFields, KIND, VERSION,
};
use crate::limits;
use crate::store::{events, export, now, tournaments, Store};

/// Export a tournament: its name, dates, place and settings, and every section as
/// `GET /api/v1/events/{id}/export` writes it; tokens are left out. The tournament's admin
/// token only.
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}/export", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    security(("bearer" = [])),
    responses(
        (status = 200, body = TournamentDocument),
        AdminRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}/export")]
pub async fn export_tournament(
    store: web::Data<Store>,
    path: web::Path<i64>,
    Bearer(token): Bearer,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let document = store
        .read(move |conn| {
            auth::require_tournament(conn, id, token.as_deref())?;
            let t = tournaments::get(conn, id)?;
            let at = now();
            let list = events::of_tournament(conn, id)?;
            let sections = list
                .iter()
                .map(|e| export::export(conn, e.id, &at))
                .collect::<ApiResult<Vec<_>>>()?;
            // groups name sections by position in the document, not by this server's ids
            let mut settings = t.settings;
            map_group_sections(&mut settings, |id| {
                list.iter().position(|e| e.id == id).map(|p| p as i64 + 1)
            });
            Ok(TournamentDocument {
                kind: KIND.into(),
                version: VERSION,
                schema: export::schema(conn)?,
                exported_at: at,
                tournament: TournamentFields {
                    name: t.name,
                    start_date: t.start_date,
                    end_date: t.end_date,
                    place: t.place,
                    settings,
                },
                sections,
            })
        })
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"tournament-{id}.json\""),
        ))
        .insert_header(("Cache-Control", "no-store"))
        .json(document))
}

/// Import a tournament exported by `GET .../export`: a new tournament with every section (new
/// ids), written whole in one transaction or not at all, and a fresh tournament admin token
/// (shown once) that administers every section (the sections get no token of their own;
/// issue scorer tokens as usual). No token needed. A fault is a 422 naming its JSON path
/// (`sections[1].tables.games[3].white_id`). The document may be up to 64 MiB in all.
#[utoipa::path(
    post, path = "/api/v1/tournaments/import", tag = "tournaments",
    request_body = TournamentDocument,
    responses(
        (status = 201, description = "Created; keep the admin_token", body = CreatedTournament),
        PublicImport,
    )
)]
#[post("/api/v1/tournaments/import")]
pub async fn import_tournament(
    req: HttpRequest,
    store: web::Data<Store>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let _turn = store.import_turn().await?;
    let body = read_body_up_to(&req, payload, limits::MAX_IMPORT_BYTES).await?;
    let document: TournamentDocument = parse_json_keeping(&body, "sections")?;
    for (i, section) in document.sections.iter().enumerate() {
        check_event(section).map_err(|e| prefixed(&format!("sections[{i}]."), e))?;
    }
    let created = store
        .write(move |tx| {
            document.check(export::schema(tx)?)?;
            let now = now();
            let t = &document.tournament;
            let id = tournaments::insert(
                tx,
                &NewTournament {
                    name: t.name.clone(),
                    start_date: t.start_date,
                    end_date: t.end_date,
                    place: t.place.clone(),
                    settings: None,
                },
                &now,
            )?;
            let mut ids = Vec::with_capacity(document.sections.len());
            for (i, section) in document.sections.iter().enumerate() {
                let event = export::import(tx, section)
                    .map_err(|e| prefixed(&format!("sections[{i}]."), e))?;
                events::set_tournament(tx, event, id)?;
                ids.push(event);
            }
            // the groups' positions become the new sections' ids
            let mut settings = t.settings.clone();
            map_group_sections(&mut settings, |p| ids.get((p - 1) as usize).copied());
            let parsed = TournamentSettings::parse(Some(&settings))
                .map_err(|e| prefixed("tournament.", e))?;
            let formats: Vec<(i64, String)> = events::of_tournament(tx, id)?
                .into_iter()
                .map(|e| (e.id, e.format))
                .collect();
            parsed
                .check_sections(&formats)
                .map_err(|e| prefixed("tournament.", e))?;
            let mut stored = tournaments::get(tx, id)?;
            stored.settings = settings;
            tournaments::update(tx, id, &stored, &now)?;
            let admin_token = tournaments::issue_admin(tx, id, &now)?;
            Ok(CreatedTournament {
                tournament: tournaments::get(tx, id)?,
                admin_token,
            })
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/tournaments/{}", created.tournament.id),
        ))
        .json(created))
}
