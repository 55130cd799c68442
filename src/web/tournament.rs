//! `/t/{id}`: a tournament's landing page: its sections, where each stands (state, current
//! round, results entered) and the links to each section's rounds and standings.

use maud::html;
use maud::Markup;
use rusqlite::Connection;

use super::layout;
use super::text::{decimal, format_name};
use crate::api::tournaments::field::scored_field;
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
                                " · " a href={ "/api/v1/events/" (s.id) "/stream" } { "Live" }
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
                    strong { a href={ "/t/" (id) "/fields/" (k + 1) } { (name) } } ": "
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
            "This page shows each section's state when it was loaded; a section's "
            em { "Live" }
            " link is its stream of changes (server-sent events: results, rounds published)."
        }
    };
    Ok(layout(&t.tournament.name, None, content))
}

/// `/t/{id}/fields/{n}`: the n-th field scored across the field: the overall ranking (each
/// pair with its section) and every board's traveller with every section's rows.
pub fn field(conn: &Connection, id: i64, n: u32) -> Result<Markup, ApiError> {
    let t = crate::store::tournaments::get(conn, id)?;
    let scored = scored_field(conn, id, n)?;
    let f = &scored.field;
    let section_name = |event_id: i64| {
        f.sections
            .iter()
            .find(|s| s.event_id == event_id)
            .map_or("", |s| s.name.as_str())
    };
    let content = html! {
        h1 { (t.name) " · " (f.name) }
        p {
            "Scored across the field: "
            @for (k, s) in f.sections.iter().enumerate() {
                @if k > 0 { ", " }
                (crate::engine::bridge::field::section_letter(k)) " "
                a href={ "/e/" (s.event_id) } { (s.name) }
            }
        }
        @for ranking in &f.overall {
            h2 { "Overall" @if let Some(d) = ranking.direction { " " (d) } }
            div.scroll { table {
                thead { tr {
                    th.n { "#" } th { "Section" } th.n { "Pair" } th { "Names" }
                    th.n { "Total" } th.n { "%" } th.n { "Boards" }
                } }
                tbody {
                    @for e in &ranking.entries {
                        tr {
                            td.n { (e.entry.rank) }
                            td { a href={ "/e/" (e.event_id) "/standings" } { (section_name(e.event_id)) } }
                            td.n { @if let Some(l) = e.entry.line { (l) " " } (e.entry.pair) }
                            td { (e.entry.name.as_deref().unwrap_or("")) }
                            td.n { (decimal(e.entry.total)) }
                            td.n { @if let Some(p) = e.entry.percent { (decimal(p)) } }
                            td.n { (e.entry.boards) }
                        }
                    }
                }
            } }
        }
        h2 { "Travellers" }
        @for tr in &f.travellers {
            h2 { "Board " (tr.board) @if let Some(top) = tr.top { span.muted { " · top " (decimal(top)) } } }
            div.scroll { table {
                thead { tr {
                    th { "Section" } th.n { "NS" } th.n { "EW" } th { "Contract" } th { "By" }
                    th.n { "Score" } th.n { "NS" } th.n { "EW" }
                } }
                tbody {
                    @for r in &tr.results {
                        tr {
                            td { (section_name(r.event_id)) }
                            td.n { (r.line.ns_pair) }
                            td.n { (r.line.ew_pair) }
                            td { (r.line.contract.as_deref().or(r.line.adjusted.as_deref()).unwrap_or("")) " " (r.line.result.as_deref().unwrap_or("")) }
                            td { @if let Some(d) = r.line.declarer { (d.to_string()) } }
                            td.n { @if let Some(sc) = r.line.ns_score { (sc) } }
                            td.n { @if let Some(v) = r.line.ns_mp.or(r.line.ns_imps) { (decimal(v)) } }
                            td.n { @if let Some(v) = r.line.ew_mp.or(r.line.ew_imps) { (decimal(v)) } }
                        }
                    }
                }
            } }
        }
        p { a href={ "/t/" (id) } { "Back to the tournament" } }
    };
    Ok(layout(&format!("{}: {}", t.name, f.name), None, content))
}
