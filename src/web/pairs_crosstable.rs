//! `/e/{id}/crosstable` of a bridge pairs event: each pair's session round by round, ranked
//! as the standings rank it (NS and EW apart in a two-winner movement). A cell is the round's
//! opponents (from the movement, as the guide cards name them) and what the pair scored on
//! the boards with a result: its percent of the tops (matchpoints) or its IMPs.

use maud::{html, Markup};
use rusqlite::Connection;

use super::text::{decimal, label_text};
use super::{layout, nav};
use crate::api::bridge::results::load_session;
use crate::domain::Event;
use crate::engine::bridge::movement::cards::{guide_cards, label};
use crate::engine::bridge::movement::model::Direction;
use crate::engine::bridge::session::Method;
use crate::engine::bridge::traveller::scorecard;
use crate::error::ApiError;

/// What a pair scored in one round: the sum of its points and of its boards' percents.
#[derive(Default, Clone, Copy)]
struct RoundScore {
    points: f64,
    percent_sum: f64,
    boards: u32,
}

pub fn page(conn: &Connection, event: &Event) -> Result<Markup, ApiError> {
    let session = load_session(conn, event.id)?;
    let cards = guide_cards(&session.movement);
    let mut rounds: Vec<u32> = session.movement.rounds.iter().map(|r| r.round).collect();
    rounds.sort_unstable();
    let method = session.settings.scoring;
    let matchpoints = method == Method::Matchpoints;
    let cell = |s: &RoundScore| -> String {
        if s.boards == 0 {
            String::new()
        } else if matchpoints {
            format!("{}%", decimal(s.percent_sum / f64::from(s.boards)))
        } else if s.points > 0.0 {
            format!("+{}", decimal(s.points))
        } else {
            decimal(s.points)
        }
    };
    let content = html! {
        h1 { (event.name) " · Crosstable" }
        p.muted {
            "Each round: the opponents, then "
            @if matchpoints { "the pair's percent on the boards scored" } @else { "the pair's IMPs" }
            "."
        }
        p.hint { "Swipe the table sideways for every round and the total →" }
        @for ranking in &session.score.rankings {
            @match ranking.direction {
                Some(Direction::Ns) => h2 { "NS pairs" },
                Some(Direction::Ew) => h2 { "EW pairs" },
                None => {},
            }
            div.scroll { table {
                thead { tr {
                    th.n { "#" } th.pin { "Pair" }
                    @for r in &rounds { th.nw { "Rd " (r) } }
                    th.n { "Total" }
                    @if matchpoints { th.n { "%" } }
                } }
                tbody {
                    @for entry in &ranking.entries {
                        @let pair = label(entry.pair);
                        @let card = cards.iter().find(|c| c.pair == pair);
                        @let lines = scorecard(entry.pair, &session.results, &session.score, method, &session.holders).lines;
                        tr {
                            td.n { (entry.rank) }
                            td.pin {
                                span.nw { (label_text(pair)) }
                                @if let Some(h) = session.holders.get(&entry.pair) {
                                    " " a href={ "/e/" (event.id) "/players/" (h.participant_id) } { (h.name) }
                                }
                            }
                            @for r in &rounds {
                                @let opponent = card
                                    .and_then(|c| c.lines.iter().find(|l| l.round == *r))
                                    .and_then(|l| l.opponent);
                                @let scored = lines.iter().filter(|l| l.round == *r).fold(RoundScore::default(), |s, l| RoundScore {
                                    points: s.points + l.points,
                                    percent_sum: s.percent_sum + l.percent.unwrap_or(0.0),
                                    boards: s.boards + 1,
                                });
                                td.nw {
                                    @match opponent {
                                        Some(o) => { span.muted { "v " (label_text(o)) } br; (cell(&scored)) }
                                        None => { span.muted { "sits out" } }
                                    }
                                }
                            }
                            td.n { (decimal(entry.total)) }
                            @if matchpoints { td.n { @if let Some(p) = entry.percent { (decimal(p)) } } }
                        }
                    }
                }
            } }
        }
    };
    Ok(layout(
        &format!("{}: crosstable", event.name),
        nav(event),
        content,
    ))
}
