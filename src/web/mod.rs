//! Public web pages, server-rendered HTML for players' phones and for printing: the event,
//! each round's pairing sheet, standings, crosstable, one player's games, bridge guide cards.
//!
//! Templates are maud (`html!`, checked at compile time); every text is escaped by maud, so a
//! player named `<script>` shows as text. One small stylesheet (below), no JavaScript, a
//! layout that reads on a 390-pixel-wide phone (the header's links wrap; a table wider than
//! the screen scrolls sideways behind a shadow on the side with more, a line above it says
//! so, its name column stays in view, its `.opt` columns give way, their values shown beside
//! another's as `.ph`), print rules with page breaks. Draft rounds
//! never show. Pages carry an ETag like the API (304 on `If-None-Match`). An unknown event,
//! round or player is a 404 page, not JSON.

mod match_pages;
mod pages;
mod pairs_crosstable;
mod team_swiss_pages;
mod text;
mod tournament;

use actix_web::http::StatusCode;
use actix_web::{get, web, HttpRequest, HttpResponse, ResponseError};
use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::api::extract::cached;
use crate::domain::Event;
use crate::error::ApiError;
use crate::store::Store;

/// The stylesheet of every page: phone first, print rules last.
const CSS: &str = "
*{box-sizing:border-box}
body{margin:0;font:16px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111;background:#fff}
header{background:#1d3557;color:#fff;padding:.5rem .75rem;display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem 1rem}
header a{color:#fff;text-decoration:none;white-space:nowrap}
header .title{font-weight:600;white-space:normal}
main{padding:.75rem;max-width:60rem;margin:0 auto}
h1{font-size:1.3rem;margin:.25rem 0 .75rem;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;
  background:linear-gradient(to right,#fff 30%,#fff0) left/2rem 100% no-repeat local,
    linear-gradient(to left,#fff 30%,#fff0) right/2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%,#0003,#0000) left/.8rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/.8rem 100% no-repeat scroll}
.hint{display:none;color:#666;font-size:.85rem;margin:.25rem 0}
.ph{display:none}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{padding:.3rem .4rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#f1f3f5;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.nw{white-space:nowrap}
.pin{position:sticky;left:0;background:#fff;box-shadow:1px 0 0 #ddd}
th.pin{background:#f1f3f5}
.muted{color:#666}
tr.own td{background:#eef3fb;font-weight:600}
.next{border:2px solid #1d3557;border-radius:.4rem;padding:.5rem .75rem;margin:.5rem 0 1rem}
.card{border:1px solid #999;border-radius:.4rem;padding:.5rem .75rem;margin:0 0 1rem}
.card .event{margin:0;color:#666;font-size:.9rem}
footer{padding:1rem .75rem;color:#666;font-size:.85rem;text-align:center}
@media (max-width:40rem){
  .hint{display:block}
  .opt{display:none}
  .ph{display:inline}
  th,td{padding:.25rem .3rem}
}
@media print{
  header,footer,.hint,.ph{display:none}
  body{font-size:11pt}
  main{max-width:none;padding:0}
  .scroll{overflow:visible;background:none}
  .opt{display:table-cell}
  tr{break-inside:avoid}
  .sheet{break-after:page}
  .card{break-after:page;border:none}
  a{color:inherit;text-decoration:none}
}
";

/// What a page's header links to: its event, and the event's tournament when it is a section.
struct Nav<'a> {
    id: i64,
    name: &'a str,
    tournament: Option<i64>,
}

/// The frame of every page: title, navigation of the event (when there is one), content.
fn layout(title: &str, event: Option<Nav>, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    @if let Some(Nav { id, name, tournament }) = event {
                        @if let Some(t) = tournament {
                            a href={ "/t/" (t) } { "Tournament" } " "
                        }
                        a.title href={ "/e/" (id) } { (name) } " "
                        a href={ "/e/" (id) "/standings" } { "Standings" } " "
                        a href={ "/e/" (id) "/crosstable" } { "Crosstable" }
                    } @else {
                        span.title { "tourney" }
                    }
                }
                main { (content) }
                footer {
                    "tourney · "
                    a href="/docs/" { "API documentation" }
                }
            }
        }
    }
}

/// The event as the header of its pages names it (the `event` of [`layout`]).
fn nav(event: &Event) -> Option<Nav<'_>> {
    Some(Nav {
        id: event.id,
        name: event.name.as_str(),
        tournament: event.tournament_id,
    })
}

/// A page as an answer: 200 with an ETag (304 when unchanged), or the error as an HTML page.
fn answer(req: &HttpRequest, page: Result<Markup, ApiError>) -> HttpResponse {
    match page {
        Ok(markup) => cached(
            req,
            "text/html; charset=utf-8",
            markup.into_string().into_bytes(),
        ),
        Err(e) => error_page(&e),
    }
}

fn error_page(e: &ApiError) -> HttpResponse {
    let status = e.status_code();
    let (title, detail) = match e {
        ApiError::NotFound(what) => ("Not found".to_string(), what.clone()),
        ApiError::Internal(_) => (
            "Something went wrong".to_string(),
            "the server failed to show this page".to_string(),
        ),
        other => (
            status.canonical_reason().unwrap_or("Error").to_string(),
            other.to_string(),
        ),
    };
    if let ApiError::Internal(cause) = e {
        log::error!("internal error on a page: {cause}");
    }
    let page = layout(
        &title,
        None,
        html! {
            h1 { (title) }
            p { (detail) }
        },
    );
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(page.into_string())
}

/// Runs a page builder on a read transaction.
async fn render<F>(req: HttpRequest, store: web::Data<Store>, build: F) -> HttpResponse
where
    F: FnOnce(&rusqlite::Connection) -> Result<Markup, ApiError> + Send + 'static,
{
    let page = store.read(build).await;
    answer(&req, page)
}

#[get("/{event_id}")]
async fn event_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> HttpResponse {
    let id = path.into_inner();
    render(req, store, move |conn| pages::event(conn, id)).await
}

#[get("/{event_id}/rounds/{round}")]
async fn round_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> HttpResponse {
    let (id, round) = path.into_inner();
    render(req, store, move |conn| pages::round(conn, id, round)).await
}

#[get("/{event_id}/standings")]
async fn standings_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> HttpResponse {
    let id = path.into_inner();
    render(req, store, move |conn| pages::standings(conn, id)).await
}

#[get("/{event_id}/crosstable")]
async fn crosstable_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> HttpResponse {
    let id = path.into_inner();
    render(req, store, move |conn| pages::crosstable(conn, id)).await
}

#[get("/{event_id}/players/{participant_id}")]
async fn player_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
) -> HttpResponse {
    let (id, pid) = path.into_inner();
    render(req, store, move |conn| pages::player(conn, id, pid)).await
}

#[get("/{event_id}/travellers/{board}")]
async fn traveller_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> HttpResponse {
    let (id, board) = path.into_inner();
    render(req, store, move |conn| pages::traveller(conn, id, board)).await
}

#[get("/{event_id}/guide-cards")]
async fn guide_cards_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> HttpResponse {
    let id = path.into_inner();
    render(req, store, move |conn| pages::guide_cards(conn, id)).await
}

/// A path under `/e/` that names no page: a 404 page.
async fn no_page() -> HttpResponse {
    error_page(&ApiError::not_found("there is no such page"))
}

/// An id in a page's path that is not a number: the 404 page too.
#[derive(Debug)]
struct NoSuchPage;

impl std::fmt::Display for NoSuchPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("there is no such page")
    }
}

impl ResponseError for NoSuchPage {
    fn status_code(&self) -> StatusCode {
        StatusCode::NOT_FOUND
    }

    fn error_response(&self) -> HttpResponse {
        error_page(&ApiError::not_found(self.to_string()))
    }
}

#[get("/{tournament_id}")]
async fn tournament_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> HttpResponse {
    let id = path.into_inner();
    render(req, store, move |conn| tournament::tournament(conn, id)).await
}

#[get("/{tournament_id}/fields/{field}")]
async fn field_page(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, u32)>,
) -> HttpResponse {
    let (id, n) = path.into_inner();
    render(req, store, move |conn| tournament::field(conn, id, n)).await
}

/// Registers the pages (under `/e/`, and `/t/` for tournaments).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/t")
            .app_data(web::PathConfig::default().error_handler(|_, _| NoSuchPage.into()))
            .service(tournament_page)
            .service(field_page)
            .default_service(web::to(no_page)),
    );
    cfg.service(
        web::scope("/e")
            .app_data(web::PathConfig::default().error_handler(|_, _| NoSuchPage.into()))
            .service(event_page)
            .service(round_page)
            .service(standings_page)
            .service(crosstable_page)
            .service(player_page)
            .service(guide_cards_page)
            .service(traveller_page)
            .default_service(web::to(no_page)),
    );
}
