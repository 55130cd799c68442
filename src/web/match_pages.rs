//! The pages of a bridge teams or Swiss event (formats `teams`, `swiss_pairs`, `swiss_teams`):
//! the event with its rounds of matches, one round's matches, and the VP standings with the
//! cross-table. Built from the same reads as `GET .../matches` and `GET .../vp-standings`.

use maud::{html, Markup};
use rusqlite::Connection;

use super::text::{decimal, format_name};
use super::{layout, nav};
use crate::api::bridge::matches::{load, vp_standings, MatchEvent};
use crate::engine::bridge::team_event::{MatchLine, MatchSource};
use crate::error::ApiError;

/// The rounds that have matches, in order.
fn rounds_of(me: &MatchEvent) -> Vec<u32> {
    let mut rounds: Vec<u32> = me.lines.iter().map(|l| l.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    rounds
}

/// `/e/{id}` of a match event.
pub fn event(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let me = load(conn, id)?;
    let rounds = rounds_of(&me);
    let content = html! {
        h1 { (me.event.name) }
        p { (format_name(&me.event.format)) " · " (me.contestants.len()) " entries" }
        h2 { "Rounds" }
        @if rounds.is_empty() {
            p.muted { "No round is drawn yet." }
        } @else {
            p { @for r in &rounds {
                a href={ "/e/" (id) "/rounds/" (r) } { "Round " (r) } " "
            } }
        }
        p { a href={ "/e/" (id) "/standings" } { "Standings and cross-table" } }
    };
    Ok(layout(&me.event.name, nav(&me.event), content))
}

/// The result columns of one match: IMPs and VPs, or its state.
fn result_cells(line: &MatchLine) -> Markup {
    html! {
        @match &line.score {
            Some(s) => {
                td.n { (s.imps_home) "–" (s.imps_away) }
                td.n { (decimal(s.vp_home)) "–" (decimal(s.vp_away)) }
            }
            None => {
                td.n.muted colspan="2" {
                    @if line.source == MatchSource::Incomplete {
                        (line.results) "/" (2 * line.boards) " boards in"
                    }
                }
            }
        }
    }
}

/// `/e/{id}/rounds/{n}` of a match event: the round's matches (and bye).
pub fn round(conn: &Connection, id: i64, number: u32) -> Result<Markup, ApiError> {
    let me = load(conn, id)?;
    let lines: Vec<&MatchLine> = me.lines.iter().filter(|l| l.round == number).collect();
    if lines.is_empty() && !me.history.byes.iter().any(|b| b.round == number) {
        return Err(ApiError::not_found(format!(
            "{} has no round {number}",
            me.event.name
        )));
    }
    let byes: Vec<_> = me
        .history
        .byes
        .iter()
        .filter(|b| b.round == number)
        .collect();
    let content = html! {
        div.sheet {
            h1 { (me.event.name) " · Round " (number) }
            div.scroll { table {
                thead { tr {
                    th { "Home" } th { "Away" } th.n { "Boards" } th.n { "IMPs" } th.n { "VPs" }
                } }
                tbody {
                    @for l in &lines {
                        tr {
                            td { span.muted { (l.home) " " } (me.name(l.home)) }
                            td { span.muted { (l.away) " " } (me.name(l.away)) @if l.triangle { span.muted { " (triangle)" } } }
                            td.n { (l.boards) }
                            (result_cells(l))
                        }
                    }
                }
            } }
            @for b in &byes {
                p { "Bye: " span.muted { (b.contestant) " " } (me.name(b.contestant)) " (" (decimal(b.vps)) " VPs)" }
            }
        }
    };
    Ok(layout(
        &format!("{}: round {number}", me.event.name),
        nav(&me.event),
        content,
    ))
}

/// `/e/{id}/standings` (and `/crosstable`) of a match event: VPs, then IMP quotient, and the
/// cross-table of matches (IMPs won–lost and VPs per opponent).
pub fn standings(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let me = load(conn, id)?;
    let table = vp_standings(&me);
    let content = html! {
        h1 { (me.event.name) " · Standings" }
        p.hint { "Swipe the table sideways for the IMPs →" }
        div.scroll { table {
            thead { tr {
                th.n { "#" } th.n.opt { "No" } th.pin { "Name" } th.n.opt { "Matches" } th.n { "VPs" }
                th.n { "IMPs +" } th.n { "IMPs −" } th.n { "Quotient" }
            } }
            tbody {
                @for r in &table.standings {
                    tr {
                        td.n { (r.rank) } td.n.opt { (r.number) } td.pin { (r.name) }
                        td.n.opt { (r.matches) } td.n { (decimal(r.vps)) }
                        td.n { (r.imps_won) } td.n { (r.imps_lost) }
                        td.n { @if let Some(q) = r.imp_quotient { (format!("{q:.3}")) } }
                    }
                }
            }
        } }
        h2 { "Cross-table" }
        div.scroll { table {
            thead { tr { th.n { "No" } th { "Name" } th { "Matches (round: opponent, IMPs, VPs)" } } }
            tbody {
                @for row in &table.cross_table {
                    tr {
                        td.n { (row.team) }
                        td { (me.name(row.team)) }
                        td { @for c in &row.matches {
                            span.nw {
                                "R" (c.round) ": " (c.opponent)
                                @if let (Some(w), Some(l), Some(v)) = (c.imps_won, c.imps_lost, c.vps) {
                                    " " (w) "–" (l) " " (decimal(v))
                                }
                            }
                            br;
                        } }
                    }
                }
            }
        } }
    };
    Ok(layout(
        &format!("{}: standings", me.event.name),
        nav(&me.event),
        content,
    ))
}
