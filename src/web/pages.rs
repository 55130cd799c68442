//! The pages' contents (maud templates over the same reads the API answers with).

use maud::{html, Markup};
use rusqlite::Connection;

use super::text::{decimal, format_name, label_text, points_phrase, score};
use super::{layout, nav};
use crate::api::bridge::movement::movement_and_seats;
use crate::api::bridge::results::{event_travellers, load_session};
use crate::api::events::player::{player_games, Colour, PlayerRound};
use crate::api::events::standings::{crosstable_rows, scoresheet, standing_rows, tiebreak_title};
use crate::api::events::teams::team_standings;
use crate::domain::{
    is_chess_team_format, is_match_format, Event, GameKind, RoundStatus, Seat, FORMAT_PAIRS,
    FORMAT_SWISS,
};
use crate::engine::bridge::analysis::STRAINS;
use crate::engine::bridge::movement::cards::{guide_cards as cards_of, label};
use crate::engine::bridge::movement::model::{Direction, TableRound};
use crate::engine::bridge::scoring::Seat as BridgeSeat;
use crate::engine::bridge::traveller::{AcrossTheFieldMark, Traveller, TravellerLine};
use crate::error::ApiError;
use crate::store::{events, movements, rounds};

/// Most rounds an event page lists.
const MAX_ROUNDS_LISTED: u32 = 500;

/// A chess score as every page writes it (`1½`).
fn points(p: f64) -> String {
    score(p)
}

/// A player's name linking to their page, with the pairing number before it.
fn who(event_id: i64, seat: &Seat) -> Markup {
    html! {
        @if let Some(n) = seat.pairing_number { span.muted { (n) " " } }
        a href={ "/e/" (event_id) "/players/" (seat.id) } { (seat.name) }
    }
}

/// A rating change with its sign: `+7.2`, `-0.8`, `0`.
fn signed(c: f64) -> String {
    if c > 0.0 {
        format!("+{c}")
    } else {
        c.to_string()
    }
}

fn rating(r: Option<i32>) -> String {
    r.map(|x| x.to_string()).unwrap_or_default()
}

/// `/e/{id}`: the event, its published rounds and the links to everything else.
pub fn event(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if is_match_format(&event.format) {
        return super::match_pages::event(conn, id);
    }
    let list: Vec<_> = rounds::list(conn, id, MAX_ROUNDS_LISTED, 0)?
        .into_iter()
        .filter(|r| r.status == RoundStatus::Published)
        .collect();
    let bridge = event.format == FORMAT_PAIRS;
    let content = html! {
        h1 { (event.name) }
        p {
            (format_name(&event.format))
            @if let Some(start) = event.start_date {
                " · " (start)
                @if let Some(end) = event.end_date { @if end != start { " to " (end) } }
            }
            " · " (event.participants) @if bridge { " pairs" } @else { " players" }
        }
        @if bridge {
            p { a href={ "/e/" (id) "/guide-cards" } { "Guide cards (printable)" } }
            @if let Some(m) = movements::find(conn, id)? {
                h2 { "Rounds" }
                p { @for r in &m.rounds {
                    a href={ "/e/" (id) "/rounds/" (r.round) } { "Round " (r.round) } " "
                } }
            }
        } @else {
            h2 { "Rounds" }
            @if list.is_empty() {
                p.muted { "No round is published yet." }
            } @else {
                div.scroll { table {
                    thead { tr { th { "Round" } th.n { "Games" } th.n { "Results" } th { "State" } } }
                    tbody {
                        @for r in &list {
                            tr {
                                td { a href={ "/e/" (id) "/rounds/" (r.number) } { "Round " (r.number) } }
                                td.n { (r.games) }
                                td.n { (r.results_entered) }
                                td { @if r.results_entered == r.games { "finished" } @else { "in play" } }
                            }
                        }
                    }
                } }
            }
            p {
                a href={ "/e/" (id) "/standings" } { "Standings" } " · "
                a href={ "/e/" (id) "/crosstable" } { "Crosstable" }
            }
        }
    };
    Ok(layout(&event.name, nav(&event), content))
}

/// `/e/{id}/rounds/{n}`: the pairing sheet of a published round, byes after.
pub fn round(conn: &Connection, id: i64, number: u32) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if event.format == FORMAT_PAIRS {
        return bridge_round(conn, &event, number);
    }
    if is_match_format(&event.format) {
        return super::match_pages::round(conn, id, number);
    }
    if event.format == crate::domain::FORMAT_TEAM_SWISS {
        return super::team_swiss_pages::round(conn, &event, number);
    }
    let not_found = || ApiError::not_found(format!("{} has no round {number}", event.name));
    let round = match rounds::get(conn, id, number) {
        Ok(r) if r.status == RoundStatus::Published => r,
        Ok(_) | Err(ApiError::NotFound(_)) => return Err(not_found()),
        Err(e) => return Err(e),
    };
    let title = format!("{}: round {number}", event.name);
    let content = html! {
        div.sheet {
            h1 { (event.name) " · Round " (number) }
            div.scroll { table {
                thead { tr {
                    th.n { "Bd" } th { "White" } th.n.opt { "Rtg" } th.n.opt { "Pts" }
                    th { "Result" }
                    th { "Black" } th.n.opt { "Rtg" } th.n.opt { "Pts" }
                } }
                tbody {
                    @for g in &round.games {
                        tr {
                            td.n { (g.board) }
                            td { (who(id, &g.white)) span.ph.muted.nw { " (" (points(g.white_score)) ")" } }
                            td.n.opt { (rating(g.white.rating)) }
                            td.n.opt { (points(g.white_score)) }
                            td.nw { (g.result.as_deref().unwrap_or("")) }
                            td { (who(id, &g.black)) span.ph.muted.nw { " (" (points(g.black_score)) ")" } }
                            td.n.opt { (rating(g.black.rating)) }
                            td.n.opt { (points(g.black_score)) }
                        }
                    }
                }
            } }
            @if !round.byes.is_empty() {
                h2 { "Byes" }
                div.scroll { table {
                    thead { tr { th { "Player" } th.n { "Pts" } th { "Bye" } th.n { "Points for it" } } }
                    tbody {
                        @for b in &round.byes {
                            tr {
                                td { (who(id, &b.participant)) }
                                td.n { (points(b.score)) }
                                td { (b.kind) }
                                td.n { (points(b.points)) }
                            }
                        }
                    }
                } }
            }
        }
    };
    Ok(layout(&title, nav(&event), content))
}

/// A bridge round: who sits where at each table, the boards, the sit-outs.
fn bridge_round(conn: &Connection, event: &Event, number: u32) -> Result<Markup, ApiError> {
    let not_found = || ApiError::not_found(format!("{} has no round {number}", event.name));
    if movements::find(conn, event.id)?.is_none() {
        return Err(not_found());
    }
    let (movement, seated) = movement_and_seats(conn, event.id)?;
    let round = movement
        .rounds
        .iter()
        .find(|r| r.round == number)
        .ok_or_else(not_found)?;
    let holder = |t: &TableRound, dir: Direction| -> Markup {
        let Some(id) = movement.pair_at(t, dir) else {
            return html! { span.muted { "(empty)" } };
        };
        let label = label(id);
        html! {
            (label_text(label))
            @if let Some(p) = seated.iter().find(|s| s.pair == label).and_then(|s| s.participant.as_ref()) {
                " " (who(event.id, p))
            }
        }
    };
    let content = html! {
        div.sheet {
            h1 { (event.name) " · Round " (number) }
            div.scroll { table {
                thead { tr { th.n { "Table" } th { "North-South" } th { "East-West" } th { "Boards" } } }
                tbody {
                    @for t in &round.tables {
                        tr {
                            td.n { (t.table) @if let Some(sec) = &t.section { " " (sec) } }
                            td { (holder(t, Direction::Ns)) }
                            td { (holder(t, Direction::Ew)) @if t.arrow_switch { " (arrow switch)" } }
                            td { (board_list(&t.boards)) }
                        }
                    }
                }
            } }
            @if !round.sit_out.is_empty() {
                p { "Sitting out: " (round.sit_out.iter().map(|s| label_text(*s)).collect::<Vec<_>>().join(", ")) }
            }
        }
    };
    Ok(layout(
        &format!("{}: round {number}", event.name),
        nav(event),
        content,
    ))
}

/// `/e/{id}/standings`: points, then the event's tie-breaks in order.
pub fn standings(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if event.format == FORMAT_PAIRS {
        return bridge_standings(conn, &event);
    }
    if is_match_format(&event.format) {
        return super::match_pages::standings(conn, id);
    }
    let sheet = scoresheet(conn, id)?;
    let table = standing_rows(&sheet);
    let (rows, printed) = (&table.rows, &table.printed);
    let rated = rows.iter().any(|r| r.k_factor.is_some());
    let teams = if is_chess_team_format(&event.format) {
        Some(team_standings(conn, id)?)
    } else {
        None
    };
    let content = html! {
        h1 { (event.name) " · Standings" }
        @if let Some(t) = &teams {
            h2 { "Teams" }
            div.scroll { table.teams {
                thead { tr {
                    th.n { "#" } th { "Team" } th.n { "MP" } th.n { "GP" }
                    th.n { "W" } th.n { "D" } th.n { "L" } th.n { "Results" }
                } }
                tbody {
                    @for r in &t.standings {
                        tr {
                            td.n { (r.rank) @if r.shared { "=" } }
                            td { @if let Some(l) = &r.team.letter { span.muted { (l) " " } } (r.team.name) }
                            td.n { (r.match_points) }
                            td.n { (points(r.game_points)) }
                            td.n { (r.won) } td.n { (r.drawn) } td.n { (r.lost) }
                            td.n { (r.results) "/" (r.games) }
                        }
                    }
                }
            } }
            @if !t.matches.is_empty() {
                p { @for m in &t.matches {
                    (m.team_a.name) " " span.nw { (m.score) } " " (m.team_b.name)
                    @if !m.complete { span.muted { " (in play)" } }
                    br;
                } }
            }
            h2 { "Players" }
        }
        @if sheet.tiebreaks.len() > 1 { p.hint { "Swipe the table sideways for every tie-break →" } }
        div.scroll { table {
            thead { tr {
                th.n { "#" } th.pin { "Name" } th.n.opt { "Rtg" } th.n { "Pts" }
                @for t in &sheet.tiebreaks { th.n { (tiebreak_title(t)) } }
                @if rated { th.n { "K" } th.n { "Rtg+/-" } th.n { "TPR" } th { "Norm" } }
            } }
            tbody {
                @for (r, place) in rows.iter().zip(printed) {
                    tr {
                        td.n { (place) }
                        td.pin { (who(id, &r.participant)) }
                        td.n.opt { (rating(r.participant.rating)) }
                        td.n { (points(r.points)) }
                        @for i in 0..sheet.tiebreaks.len() { td.n { (tiebreak_cell(i, r)) } }
                        @if rated {
                            td.n { @if let Some(k) = r.k_factor { (k) } }
                            td.n { @if let Some(c) = r.rating_change { (signed(c)) } }
                            td.n { @if let Some(p) = r.performance_rating { (p) } }
                            td { (r.norms.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(" ")) }
                        }
                    }
                }
            }
        } }
        p.muted { "Tie-breaks by the " (sheet.rules.as_str()) " text of FIDE C.07." }
        @for note in &table.notes { p.muted { (note) } }
    };
    Ok(layout(
        &format!("{}: standings", event.name),
        nav(&event),
        content,
    ))
}

/// A bridge pairs event's standings: one ranking per direction (two-winner movements) or one.
fn bridge_standings(conn: &Connection, event: &Event) -> Result<Markup, ApiError> {
    let session = load_session(conn, event.id)?;
    let standings = session.standings();
    let boards = session.boards();
    let content = html! {
        h1 { (event.name) " · Standings" }
        @if let Some(f) = &standings.across_the_field { (field_note(f)) }
        @for ranking in &standings.rankings {
            @if let Some(d) = ranking.direction { h2 { (d) } }
            div.scroll { table {
                thead { tr { th.n { "#" } th.n { "Pair" } th { "Names" } th.n { "Total" } th.n { "%" } th.n { "Boards" } } }
                tbody {
                    @for e in &ranking.entries {
                        tr {
                            td.n { (e.rank) }
                            td.n { @if let Some(l) = e.line { (l) " " } (e.pair) }
                            td { (e.name.as_deref().unwrap_or("")) }
                            td.n { (decimal(e.total)) }
                            td.n { @if let Some(p) = e.percent { (decimal(p)) } }
                            td.n { (e.boards) }
                        }
                    }
                }
            } }
        }
        h2 { "Travellers" }
        p { @for b in &boards {
            a href={ "/e/" (event.id) "/travellers/" (b) } { (b) } " "
        } }
    };
    Ok(layout(
        &format!("{}: standings", event.name),
        nav(event),
        content,
    ))
}

/// What a section scored across the field says at the top of its standings and travellers:
/// the field it is scored in, its letter there, and the link to the overall ranking.
fn field_note(f: &AcrossTheFieldMark) -> Markup {
    html! {
        p.next {
            "Scored across the field (" (f.name) "), as section " strong { (f.section) } ": "
            "every board is matchpointed over every section's results, and the ranking below is "
            "this section's pairs on those scores. "
            a href={ "/t/" (f.tournament_id) "/fields/" (f.field) } { "Overall ranking and every section" }
        }
    }
}

/// A hand record as printed: the four hands around the table, then the double-dummy table
/// (tricks for each declarer in each strain) and the par, once analysed.
fn hand_record(t: &Traveller) -> Markup {
    let Some(d) = &t.deal else {
        return html! {};
    };
    let hand = |h: &str| {
        let suits: Vec<&str> = h.split('.').collect();
        html! {
            @for (k, symbol) in ["♠", "♥", "♦", "♣"].iter().enumerate() {
                (symbol) " " (suits.get(k).copied().filter(|s| !s.is_empty()).unwrap_or("—")) br;
            }
        }
    };
    html! {
        h2 { "Hand record" }
        p { "Dealer " (t.dealer) " · Vulnerable: " (t.vulnerability.pbn_name()) }
        table.deal {
            tr { td {} td { b { "North" } br; (hand(&d.north)) } td {} }
            tr { td { b { "West" } br; (hand(&d.west)) } td {} td { b { "East" } br; (hand(&d.east)) } }
            tr { td {} td { b { "South" } br; (hand(&d.south)) } td {} }
        }
        @if let Some(a) = &t.analysis {
            @match (&a.double_dummy, &a.par) {
                (Some(dd), Some(par)) => {
                    h2 { "Double dummy" }
                    table {
                        thead { tr { th {} @for s in STRAINS { th.n { (strain_symbol(s)) } } } }
                        tbody {
                            @for seat in [BridgeSeat::N, BridgeSeat::S, BridgeSeat::E, BridgeSeat::W] {
                                tr {
                                    th { (seat) }
                                    @for t in dd.declarer(seat).as_array() { td.n { (t) } }
                                }
                            }
                        }
                    }
                    p { "Par " (par.optimum_score()) ": " (par.par_contract()) }
                }
                _ => { p { "Double-dummy analysis: pending." } }
            }
        }
    }
}

fn strain_symbol(s: &str) -> &'static str {
    match s {
        "S" => "♠",
        "H" => "♥",
        "D" => "♦",
        "C" => "♣",
        _ => "NT",
    }
}

/// `/e/{id}/travellers/{board}`: every result of one board of a bridge event, with its hand
/// record and double-dummy analysis.
pub fn traveller(conn: &Connection, id: i64, board: u32) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if event.game != GameKind::Bridge {
        return Err(ApiError::not_found(format!(
            "{} is not a bridge event: it has no travellers",
            event.name
        )));
    }
    let t = event_travellers(conn, id)?
        .into_iter()
        .find(|t| t.board == board)
        .ok_or_else(|| ApiError::not_found(format!("{} plays no board {board}", event.name)))?;
    let imps = event.format != FORMAT_PAIRS || t.results.iter().any(|r| r.ns_imps.is_some());
    let opt = |x: Option<f64>| x.map(decimal).unwrap_or_default();
    let field = t.across_the_field.as_ref();
    let own = |r: &TravellerLine| field.is_some_and(|f| r.section.as_ref() == Some(&f.section));
    let content = html! {
        h1 { (event.name) " · Board " (board) }
        @if let Some(f) = field { (field_note(f)) }
        div.scroll { table {
            thead { tr {
                @if field.is_some() { th { "Section" } }
                th.n.opt { "Rd" } th.n.opt { "Table" } th.n { "NS" } th.n { "EW" } th { "Contract" } th.opt { "By" }
                th.opt { "Result" } th.opt { "Lead" } th.n { "NS score" }
                @if imps { th.n { "NS IMPs" } th.n { "EW IMPs" } } @else { th.n { "NS %" } th.n { "EW %" } }
            } }
            tbody {
                @for r in &t.results {
                    @let declarer = r.declarer.map(|d| format!("{d:?}")).unwrap_or_default();
                    @let result = r.result.as_deref().unwrap_or("");
                    tr.own[own(r)] {
                        @if field.is_some() { td { (r.section.as_deref().unwrap_or("")) } }
                        td.n.opt { (r.round) } td.n.opt { (r.table) } td.n { (r.ns_pair) } td.n { (r.ew_pair) }
                        td.nw {
                            (r.contract.as_deref().or(r.adjusted.as_deref()).unwrap_or(""))
                            span.ph { " " (declarer) " " (result) }
                        }
                        td.opt { (declarer) }
                        td.nw.opt { (result) }
                        td.opt { (r.lead.as_deref().unwrap_or("")) }
                        td.n { @if let Some(s) = r.ns_score { (s) } }
                        @if imps { td.n { (opt(r.ns_imps)) } td.n { (opt(r.ew_imps)) } }
                        @else { td.n { (opt(r.ns_percent)) } td.n { (opt(r.ew_percent)) } }
                    }
                }
            }
        } }
        (hand_record(&t))
    };
    Ok(layout(
        &format!("{}: board {board}", event.name),
        nav(&event),
        content,
    ))
}

/// `/e/{id}/crosstable`: the wall chart (Swiss: `W12 L3 D7` per round; round robin: one
/// column per opponent).
pub fn crosstable(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if is_match_format(&event.format) {
        return super::match_pages::standings(conn, id);
    }
    if event.format == FORMAT_PAIRS {
        return super::pairs_crosstable::page(conn, &event);
    }
    let sheet = scoresheet(conn, id)?;
    let (rows, rounds) = crosstable_rows(&sheet);
    let swiss = sheet.format == FORMAT_SWISS;
    let content = html! {
        h1 { (event.name) " · Crosstable" }
        p.hint { "Swipe the table sideways for every round and the total →" }
        div.scroll { table {
            thead { tr {
                @if swiss { th.n { "#" } }
                th.n { "No" } th.pin { "Name" } th.n.opt { "Rtg" }
                @if swiss {
                    @for r in 1..=rounds { th.nw { "Rd " (r) } }
                } @else {
                    @for r in &rows { th { (r.number) } }
                }
                th.n { "Total" }
                @if !swiss { th.n { "Place" } }
            } }
            tbody {
                @for r in &rows {
                    tr {
                        @if swiss { td.n { (r.position) } }
                        td.n { (r.number) }
                        td.pin { a href={ "/e/" (id) "/players/" (r.participant.id) } { (r.participant.name) } }
                        td.n.opt { (rating(r.participant.rating)) }
                        @for c in &r.cells { td.nw { (c) } }
                        td.n { (points(r.total)) }
                        @if !swiss { td.n { (r.position) } }
                    }
                }
            }
        } }
    };
    Ok(layout(
        &format!("{}: crosstable", event.name),
        nav(&event),
        content,
    ))
}

/// A chess game's result from the player's side: `won`, `lost`, `drew`, `won by forfeit` ...,
/// with the game's notation after it, so `1-0` is never read as the wrong player's win.
fn own_result(r: &PlayerRound) -> Markup {
    let Some(result) = r.result.as_deref() else {
        return html! {};
    };
    let forfeit = result.contains('+') || result == "-/-";
    let word = match (r.points, forfeit) {
        (_, true) if result == "-/-" => "double forfeit",
        (Some(p), true) if p > 0.0 => "won by forfeit",
        (_, true) => "lost by forfeit",
        (Some(p), false) if p >= 1.0 => "won",
        (Some(p), false) if p > 0.0 => "drew",
        (Some(_), false) => "lost",
        (None, false) => "",
    };
    html! { (word) " " span.muted.nw { (result) } }
}

fn where_to_sit(r: &PlayerRound) -> Markup {
    html! {
        @if let Some(b) = r.board { "board " (b) }
        @if let Some(t) = r.table { "table " (t) }
        @match r.colour { Some(Colour::White) => { ", white" } Some(Colour::Black) => { ", black" } None => {} }
        @match r.direction { Some(Direction::Ns) => { ", North-South" } Some(Direction::Ew) => { ", East-West" } None => {} }
    }
}

/// [`where_to_sit`] for a cell under "Board" or "Table": `4, white`, `3 EW`.
fn seat_cell(r: &PlayerRound) -> Markup {
    html! {
        @if let Some(b) = r.board { (b) }
        @if let Some(t) = r.table { (t) }
        @match r.colour { Some(Colour::White) => { ", white" } Some(Colour::Black) => { ", black" } None => {} }
        @match r.direction { Some(Direction::Ns) => { " NS" } Some(Direction::Ew) => { " EW" } None => {} }
    }
}

/// `/e/{id}/players/{pid}`: one player's games round by round, and where they sit next.
/// Bridge: each round's matchpoints or IMPs (and percent) from the results in.
pub fn player(conn: &Connection, id: i64, pid: i64) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    let bridge = event.format == FORMAT_PAIRS;
    let view = player_games(conn, id, pid)?;
    let name = &view.participant.name;
    // chess points in halves (`1½`); a bridge pair's matchpoints or IMPs are decimals
    let pts = |x: f64| if bridge { decimal(x) } else { score(x) };
    // matchpoint scoring: the percent says more than the matchpoints, which give way on a phone
    let percent = bridge && view.percent.is_some();
    // a rating column only where an opponent has one (a bridge pair has none)
    let rated = !bridge
        && view
            .rounds
            .iter()
            .any(|r| r.opponent.as_ref().is_some_and(|o| o.rating.is_some()));
    let content = html! {
        h1 { (name) }
        p.muted {
            @if let Some(n) = view.participant.pairing_number { "No " (n) " · " }
            @if let Some(r) = view.participant.rating { "rating " (r) " · " }
            @if let Some(p) = view.points {
                @if bridge { (decimal(p)) " in all" } @else { (points_phrase(p)) }
            }
            @if let Some(p) = view.percent { " · " (decimal(p)) "%" }
            @if let Some(p) = view.performance_rating { " · performance " (p) }
            @if let Some(c) = view.rating_change {
                " · rating change " (signed(c))
                @if let Some(k) = view.k_factor { " (K " (k) ")" }
            }
        }
        @for n in &view.norms {
            p {
                strong { (n.norm.as_str()) " norm: " }
                @if n.met { "met" } @else { (n.missing.join("; ")) }
            }
        }
        @if let Some(next) = &view.next {
            div.next {
                strong { "Now: round " (next.round) ", " (where_to_sit(next)) }
                @if let Some(o) = &next.opponent { " against " (o.name) }
                @if let (Some(done), Some(boards)) = (next.boards_scored, &next.boards) {
                    span.muted { " · boards " (board_list(boards)) ", " (done) " of " (boards.len()) " scored" }
                }
            }
        }
        @if view.rounds.is_empty() {
            p.muted { "No published round yet." }
        } @else {
            div.scroll { table {
                thead { tr {
                    th.n { "Rd" } th { @if bridge { "Table" } @else { "Board" } } th { "Opponent" }
                    @if rated { th.n.opt { "Rtg" } }
                    @if bridge { th { "Boards" } } @else { th { (name) "'s result" } }
                    @if percent { th.n.opt { "Score" } } @else { th.n { @if bridge { "Score" } @else { "Pts" } } }
                    @if bridge { th.n { "%" } } @else if view.rating_change.is_some() { th.n { "Rtg+/-" } }
                } }
                tbody {
                    @for r in &view.rounds {
                        tr {
                            td.n { (r.round) }
                            td { (seat_cell(r)) @if let Some(kind) = &r.bye { (kind.replace('_', " ")) " bye" } }
                            td {
                                @if let Some(o) = &r.opponent {
                                    a href={ "/e/" (id) "/players/" (o.id) } { (o.name) }
                                    @if let Some(s) = o.score { span.muted.nw { " (" (pts(s)) ")" } }
                                }
                            }
                            @if rated { td.n.opt { @if let Some(o) = &r.opponent { (rating(o.rating)) } } }
                            @if bridge {
                                td { @if let Some(b) = &r.boards { (board_list(b)) } }
                            } @else {
                                td { (own_result(r)) }
                            }
                            @if percent { td.n.opt { @if let Some(p) = r.points { (pts(p)) } } }
                            @else { td.n { @if let Some(p) = r.points { (pts(p)) } } }
                            @if bridge { td.n { @if let Some(p) = r.percent { (decimal(p)) } } }
                            @else if view.rating_change.is_some() { td.n { @if let Some(c) = r.rating_change { (signed(c)) } } }
                        }
                    }
                }
            } }
        }
    };
    Ok(layout(
        &format!("{name}: {}", event.name),
        nav(&event),
        content,
    ))
}

/// The `i`th tie-break of a standings row as the page writes numbers (`1½`; empty when the
/// player has none).
fn tiebreak_cell(i: usize, r: &crate::api::events::standings::StandingRow) -> String {
    r.tiebreaks
        .0
        .get(i)
        .and_then(|(_, v)| *v)
        .map(score)
        .unwrap_or_default()
}

/// A table's boards: runs of consecutive boards as ranges (`1–3`, `10–12, 15`).
fn board_list(boards: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &b in boards {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == b => *last = b,
            _ => runs.push((b, b)),
        }
    }
    runs.iter()
        .map(|&(first, last)| match last - first {
            0 => first.to_string(),
            1 => format!("{first}, {last}"),
            _ => format!("{first}–{last}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `/e/{id}/guide-cards`: a bridge pairs event's guide cards, one per pair and per printed
/// page.
pub fn guide_cards(conn: &Connection, id: i64) -> Result<Markup, ApiError> {
    let event = events::get(conn, id)?;
    if event.format != FORMAT_PAIRS {
        return Err(ApiError::not_found(format!(
            "{} is not a bridge pairs event: it has no guide cards",
            event.name
        )));
    }
    let (movement, seated) = movement_and_seats(conn, id)?;
    let holder = |label| {
        seated
            .iter()
            .find(|s| s.pair == label)
            .and_then(|s| s.participant.as_ref())
    };
    let cards = cards_of(&movement);
    let content = html! {
        @for card in &cards {
            section.card {
                p.event { (event.name) }
                h1 {
                    "Pair " (label_text(card.pair))
                    @if let Some(p) = holder(card.pair) { " · " (p.name) }
                }
                div.scroll { table {
                    thead { tr { th.n { "Rd" } th.n { "Table" } th.opt { "Sits" } th { "Against" } th { "Boards" } th { "Then" } } }
                    tbody {
                        @for (line, then) in card.lines.iter().zip(&card.moves) {
                            @let sits = match line.direction { Some(Direction::Ns) => "NS", Some(Direction::Ew) => "EW", None => "" };
                            tr {
                                td.n { (line.round) }
                                td.n { @if let Some(t) = line.table { (t) span.ph { " " (sits) @if line.arrow_switch { " (arrow switch)" } } } @else { "sit out" } }
                                td.opt { (sits) @if line.arrow_switch { " (arrow switch)" } }
                                td { @if let Some(o) = line.opponent {
                                        (label_text(o))
                                        @if let Some(p) = holder(o) { " " span.muted { (p.name) } }
                                } }
                                td { (board_list(&line.boards)) }
                                td { (then.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                } }
            }
        }
    };
    Ok(layout(
        &format!("{}: guide cards", event.name),
        nav(&event),
        content,
    ))
}
