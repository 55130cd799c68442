//! The round page of a chess team Swiss event (`team_swiss`): each match with its score and
//! board by board, and the bye. Built from the same read as `GET .../team-rounds/{n}`.

use maud::{html, Markup};
use rusqlite::Connection;

use super::text::score;
use super::{layout, nav};
use crate::api::chess::team_swiss::{round_view, TeamSwissMatch};
use crate::api::events::teams::TeamRef;
use crate::domain::Event;
use crate::error::ApiError;

/// A team as a page names it: its number, then its name.
fn team(t: &TeamRef) -> Markup {
    html! {
        @if let Some(n) = t.number { span.muted { (n) " " } }
        (t.name)
    }
}

/// One match: the teams with the score, then its boards (or what is still awaited).
fn one_match(event_id: i64, m: &TeamSwissMatch) -> Markup {
    html! {
        h2 {
            "Table " (m.table) ": " (team(&m.white_team)) " "
            span.nw { (score(m.white_points)) "–" (score(m.black_points)) } " "
            (team(&m.black_team))
            @if let (Some(w), Some(b)) = (m.white_match_points, m.black_match_points) {
                span.muted { " (match points " (w) "–" (b) ")" }
            }
        }
        @if m.boards.is_empty() {
            p.muted {
                "Line-ups: " (m.white_team.name) " "
                @if m.white_lineup_in { "in" } @else { "awaited" }
                ", " (m.black_team.name) " "
                @if m.black_lineup_in { "in" } @else { "awaited" }
                "."
            }
        } @else {
            div.scroll { table {
                thead { tr { th.n { "Bd" } th { "White" } th { "Result" } th { "Black" } } }
                tbody {
                    @for b in &m.boards {
                        tr {
                            td.n { (b.board) }
                            td { a href={ "/e/" (event_id) "/players/" (b.white.participant_id) } { (b.white.name) } }
                            td.nw { (b.result.as_deref().unwrap_or("")) }
                            td { a href={ "/e/" (event_id) "/players/" (b.black.participant_id) } { (b.black.name) } }
                        }
                    }
                }
            } }
        }
    }
}

/// `/e/{id}/rounds/{n}` of a team Swiss event.
pub fn round(conn: &Connection, event: &Event, number: u32) -> Result<Markup, ApiError> {
    let not_found = || ApiError::not_found(format!("{} has no round {number}", event.name));
    if number == 0 {
        return Err(not_found());
    }
    let view = match round_view(conn, event.id, number) {
        Ok(v) => v,
        Err(ApiError::NotFound(_)) => return Err(not_found()),
        Err(e) => return Err(e),
    };
    let content = html! {
        div.sheet {
            h1 { (event.name) " · Round " (number) }
            @for m in &view.matches { (one_match(event.id, m)) }
            @if let Some(b) = &view.bye {
                p { "Bye: " (team(b)) " (a drawn match: 1 match point)" }
            }
        }
    };
    Ok(layout(
        &format!("{}: round {number}", event.name),
        nav(event),
        content,
    ))
}
