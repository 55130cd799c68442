//! `/t/{id}`: a tournament's landing page: its sections, where each stands (state, current
//! round, results entered) and the links to each section's rounds and standings.

use maud::html;
use maud::Markup;
use rusqlite::Connection;

use super::layout;
use super::text::format_name;
use crate::api::tournaments::tournament::tournament_detail;
use crate::domain::tournament::{SectionState, TournamentSettings};
use crate::domain::GameKind;
use crate::error::ApiError;

fn state_text(state: SectionState) -> &'static str {
    match state {
        SectionState::Registration => "entries open",
        SectionState::InPlay => "in play",
        SectionState::Finished => "finished",
    }
}

/// The landing page of tournament `id`.
pub fn tournament(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let t = tournament_detail(conn, id)?;
    // the fields scored across the field, as the tournament's settings name them
    let pairs: Vec<i64> = t
        .sections
        .iter()
        .filter(|s| s.format == crate::domain::FORMAT_PAIRS)
        .map(|s| s.id)
        .collect();
    let fields = TournamentSettings::parse(Some(&t.tournament.settings))
        .map(|s| s.fields(&pairs))
        .unwrap_or_default();
    let content = html! {
        h1 { (t.tournament.name) }
        p {
            @if let Some(start) = t.tournament.start_date {
                (start)
                @if let Some(end) = t.tournament.end_date { @if end != start { " to " (end) } }
            }
            @if let Some(place) = &t.tournament.place {
                @if t.tournament.start_date.is_some() { " · " }
                (place)
            }
        }
        h2 { "Sections" }
        @if t.sections.is_empty() {
            p.muted { "No section yet." }
        } @else {
            div.scroll { table {
                thead { tr {
                    th { "Section" } th { "Format" } th.n { "Entries" } th { "State" }
                    th { "Round" } th.n { "Results" } th { "" }
                } }
                tbody {
                    @for s in &t.sections {
                        tr {
                            td { a href={ "/e/" (s.id) } { (s.name) } }
                            td { (format_name(&s.format)) }
                            td.n { (s.participants) }
                            td { (state_text(s.state)) }
                            td {
                                @if let Some(r) = s.current_round {
                                    a href={ "/e/" (s.id) "/rounds/" (r) } { "Round " (r) }
                                    @if s.rounds > 0 { span.muted { " of " (s.rounds) } }
                                } @else {
                                    span.muted { "not started" }
                                }
                            }
                            td.n { (s.results) }
                            td {
                                a href={ "/e/" (s.id) "/standings" } { "Standings" }
                                @if s.game == GameKind::Chess {
                                    " · " a href={ "/e/" (s.id) "/crosstable" } { "Crosstable" }
                                }
                            }
                        }
                    }
                }
            } }
        }
        @if !fields.is_empty() {
            h2 { "Scored across the field" }
            @for (k, (name, ids)) in fields.iter().enumerate() {
                p {
                    strong { (name) } ": "
                    @for (j, id) in ids.iter().enumerate() {
                        @if j > 0 { ", " }
                        @if let Some(s) = t.sections.iter().find(|s| s.id == *id) {
                            a href={ "/e/" (id) } { (s.name) }
                        }
                    }
                    " · "
                    a href={ "/api/v1/tournaments/" (id) "/across-the-field" } { "results (JSON)" }
                    " · "
                    a href={ "/api/v1/tournaments/" (id) "/across-the-field/" (k + 1) "/pbn" } { "PBN" }
                    " · "
                    a href={ "/api/v1/tournaments/" (id) "/across-the-field/" (k + 1) "/usebio" } { "USEBIO" }
                }
            }
        }
        p.muted {
            "Live changes of a section: "
            code { "/api/v1/events/{id}/stream" }
            " (server-sent events). This page shows the state when it was loaded."
        }
    };
    Ok(layout(&t.tournament.name, None, content))
}
