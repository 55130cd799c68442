//! `GET /api/v1/tournaments/{id}/across-the-field/{field}/pbn` and `.../usebio`: a field of
//! sections scored across the field as PBN 2.1 and USEBIO 1.2 (the writers:
//! `engine::bridge::pbn_export`, `engine::bridge::usebio`). Each section is a letter (`A`,
//! `B`, ... in the field's order); pair numbers are written after it.

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;

use crate::api::exports::club::UsebioQuery;
use crate::api::extract::{cached, QueryParams};
use crate::api::responses::PublicRead;
use crate::api::tournaments::field::scored_field;
use crate::engine::bridge::movement::model::PairId;
use crate::engine::bridge::pbn_export::{write_pbn, FieldTotals, PbnEvent, PbnTotals};
use crate::engine::bridge::usebio::{
    players_from_name, write_usebio, UsebioClub, UsebioEntry, UsebioEvent, UsebioKind, UsebioPlayer,
};
use crate::error::ApiResult;
use crate::store::{participants, tournaments, Store};

/// Field `n` of tournament `id` as PBN 2.1 text.
pub(crate) fn field_pbn(conn: &Connection, id: i64, n: u32) -> ApiResult<String> {
    let t = tournaments::get(conn, id)?;
    let scored = scored_field(conn, id, n)?;
    let name = format!("{} - {}", t.name, scored.field.name);
    let event = PbnEvent {
        name: &name,
        date: t.start_date.map(|d| d.format("%Y.%m.%d").to_string()),
    };
    let totals = FieldTotals {
        method: scored.settings.scoring,
        entries: scored
            .entries
            .iter()
            .map(|(letter, direction, _, e)| (letter.clone(), *direction, e.clone()))
            .collect(),
    };
    Ok(write_pbn(
        &event,
        &scored.travellers,
        PbnTotals::Field(&totals),
    ))
}

/// Field `field` (1 the first, in the order of `GET .../across-the-field`) as a PBN 2.1 file:
/// one game per board with every section's results in its `[ScoreTable]`, each row's
/// `Section` (the section's letter) first, and the overall ranking as the first game's
/// `[TotalScoreTable]` (with a `Section` column).
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}/across-the-field/{field}/pbn", tag = "tournaments",
    params(
        ("tournament_id" = i64, Path, description = "Tournament id"),
        ("field" = u32, Path, description = "The field, 1 the first"),
    ),
    responses(
        (status = 200, description = "PBN 2.1 text", body = String, content_type = "application/x-pbn"),
        PublicRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}/across-the-field/{field}/pbn")]
pub async fn get_field_pbn(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> ApiResult<HttpResponse> {
    let (id, n) = path.into_inner();
    let text = store.read(move |conn| field_pbn(conn, id, n)).await?;
    Ok(cached(
        &req,
        "application/x-pbn; charset=utf-8",
        text.into_bytes(),
    ))
}

/// Field `field` (1 the first) as USEBIO 1.2 XML: one `EVENT` with `SECTION_COUNT` the
/// field's sections and, under `SESSION SESSION_ID="1"`, one `SECTION SECTION_ID="A"` per
/// section holding its `PARTICIPANTS` (its pairs, `PAIR_NUMBER` after the section's letter:
/// `A1NS`, `PLACE` in the overall ranking; NS and EW ranked apart when every section is a
/// two-winner movement, `WINNER_TYPE` 2) and its `BOARD`s (its traveller lines, scored across
/// the field). The club as in the event export (`?club_name=`, `?club_id=`).
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}/across-the-field/{field}/usebio", tag = "tournaments",
    params(
        ("tournament_id" = i64, Path, description = "Tournament id"),
        ("field" = u32, Path, description = "The field, 1 the first"),
        UsebioQuery,
    ),
    responses(
        (status = 200, description = "USEBIO 1.2 XML", body = String, content_type = "application/xml"),
        PublicRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}/across-the-field/{field}/usebio")]
pub async fn get_field_usebio(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
    QueryParams(q): QueryParams<UsebioQuery>,
) -> ApiResult<HttpResponse> {
    let (id, n) = path.into_inner();
    let club = q.club()?;
    let text = store
        .read(move |conn| field_usebio(conn, id, n, club))
        .await?;
    Ok(cached(
        &req,
        "application/xml; charset=utf-8",
        text.into_bytes(),
    ))
}

/// Field `n` of tournament `id` as USEBIO 1.2 XML.
pub(crate) fn field_usebio(
    conn: &Connection,
    id: i64,
    n: u32,
    club: Option<UsebioClub>,
) -> ApiResult<String> {
    let t = tournaments::get(conn, id)?;
    let scored = scored_field(conn, id, n)?;
    let name = format!("{} - {}", t.name, scored.field.name);
    let mitchell = scored
        .travellers
        .iter()
        .flat_map(|t| &t.results)
        .any(|l| matches!(l.ns_id, Some(PairId::Ns(_))));
    let mut entries = Vec::new();
    for (letter, direction, event_id, e) in &scored.entries {
        let line = direction.or(e.line).filter(|_| mitchell);
        let participant = match e.participant_id {
            Some(pid) => participants::get(conn, *event_id, pid).ok(),
            None => None,
        };
        let name = e.name.clone().unwrap_or_default();
        let players = match participant {
            Some(p) if !p.players.is_empty() => p
                .players
                .iter()
                .map(|x| UsebioPlayer {
                    name: x.name.clone(),
                    national_id: x.national_id.clone(),
                })
                .collect(),
            _ => players_from_name(&name)
                .into_iter()
                .map(|n| UsebioPlayer {
                    name: n,
                    national_id: None,
                })
                .collect(),
        };
        entries.push(UsebioEntry {
            number: format!("{}{}", e.pair, line.unwrap_or_default()),
            section: Some(letter.clone()),
            direction: line,
            team_name: None,
            place: e.rank.trim_end_matches('=').to_string(),
            total: e.total,
            percentage: e.percent,
            players,
        });
    }
    let event = UsebioEvent {
        id,
        name: &name,
        date: t.start_date.map(|d| d.format("%d/%m/%Y").to_string()),
        kind: UsebioKind::Pairs(scored.settings.scoring),
        club,
        winner_type: if scored.two_winners { 2 } else { 1 },
        mitchell,
        sections: scored.marks.iter().map(|m| m.section.clone()).collect(),
    };
    Ok(write_usebio(&event, &entries, &[], &scored.travellers))
}
