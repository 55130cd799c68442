//! `/api/v1/events/{id}/participants/{pid}/games`: one player's event round by round, for an
//! app on the player's phone: board and colour (bridge: table and direction), the opponent
//! with rating and score, the result; and `next`, where the player sits now.

use std::collections::{BTreeSet, HashMap};

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::bridge::results::load_session;
use crate::api::events::standings::{norm_checks, rating_changes, scoresheet};
use crate::api::extract::json_cached;
use crate::api::responses::PublicRead;
use crate::domain::{RoundStatus, Seat, FORMAT_PAIRS};
use crate::engine::bridge::movement::cards::guide_cards;
use crate::engine::bridge::movement::model::{Direction, PairId};
use crate::engine::bridge::session::RankedPair;
use crate::engine::bridge::traveller::{round_scores, RoundScore};
use crate::engine::chess::fide_tiebreak::FideTiebreaks;
use crate::engine::chess::norms::NormCheck;
use crate::engine::chess::rating::RatingChange;
use crate::engine::chess::scoring::{Code, GameResult, Tiebreak};
pub use crate::engine::chess::swiss::Colour;
use crate::error::ApiResult;
use crate::store::{events, games, movements, participants, rounds, Store};

/// An opponent with the points scored so far.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": 8, "name": "Hugo", "pairing_number": 8, "rating": 1950, "score": 2.5}))]
pub struct Opponent {
    pub id: i64,
    pub name: String,
    pub pairing_number: Option<u32>,
    pub rating: Option<i32>,
    /// Chess: points in the published rounds. Bridge: the pair's total so far (matchpoints or
    /// IMPs, as in the standings).
    pub score: Option<f64>,
}

/// One round of the player.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"round": 3, "board": 2, "colour": "black", "table": null, "direction": null, "boards": null, "boards_scored": null, "opponent": {"id": 8, "name": "Hugo", "pairing_number": 8, "rating": 1950, "score": 2.5}, "result": "0-1", "points": 1.0, "percent": null, "bye": null}))]
pub struct PlayerRound {
    pub round: u32,
    /// Chess: the board.
    pub board: Option<u32>,
    /// Chess: the player's colour.
    pub colour: Option<Colour>,
    /// Bridge: the table.
    pub table: Option<u32>,
    /// Bridge: `ns` or `ew`.
    pub direction: Option<Direction>,
    /// Bridge: the boards played at the table.
    pub boards: Option<Vec<u32>>,
    /// Bridge: how many of those boards have a result in (null when sitting out).
    pub boards_scored: Option<u32>,
    /// Null for a bye or a sit-out.
    pub opponent: Option<Opponent>,
    /// Chess: the game's result (`1-0`, `0-1`, `1/2-1/2`, `+/-`, `-/+`, `-/-`); null while not
    /// played.
    pub result: Option<String>,
    /// The player's points from the round; null while the game is not played. Bridge: the
    /// pair's matchpoints or IMPs on the round's boards with a result (to 2 decimals), null
    /// before the first.
    pub points: Option<f64>,
    /// Bridge, matchpoint scoring: the round's matchpoints over the tops of its boards with a
    /// result × 100 (as the standings' percent). Null otherwise.
    pub percent: Option<f64>,
    /// A bye's kind (`pairing`, `requested`, `absent`, `bye`); null when paired.
    pub bye: Option<String>,
    /// Chess: the FIDE rating change of the game (B.02: K × (W − We)), for a rated game
    /// (played over the board, both players rated); null otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<f64>,
}

/// A player's event.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"event_id": 1, "participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "points": 1.0, "percent": null, "rounds": [{"round": 1, "board": 1, "colour": "white", "table": null, "direction": null, "boards": null, "boards_scored": null, "opponent": {"id": 8, "name": "Hugo", "pairing_number": 8, "rating": 1950, "score": 0.0}, "result": "1-0", "points": 1.0, "percent": null, "bye": null}], "next": null}))]
pub struct PlayerGames {
    pub event_id: i64,
    pub participant: Seat,
    /// Chess: points in the published rounds. Bridge: the pair's total in the standings
    /// (matchpoints or IMPs; null before lots are drawn).
    pub points: Option<f64>,
    /// Bridge, matchpoint scoring: the pair's percent in the standings. Null otherwise.
    pub percent: Option<f64>,
    /// Chess: the published rounds the player has a game or a bye in. Bridge: every round of
    /// the movement.
    pub rounds: Vec<PlayerRound>,
    /// Chess: the player's game in the latest published round while it has no result (null
    /// otherwise). Bridge: the first round at a table without all its boards' results (null
    /// once every round is in).
    pub next: Option<PlayerRound>,
    /// Chess: the K factor of the rating change (null for an unrated player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k_factor: Option<u32>,
    /// Chess: the FIDE rating change from the event's rated games (the sum of `rounds[].rating_change`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<f64>,
    /// Chess: the tournament performance rating (C.07 art. 10.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance_rating: Option<i32>,
    /// Chess: each title norm (B.01) checked against the event so far: met, or what is
    /// missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub norms: Vec<NormCheck>,
}

fn chess_rounds(
    conn: &Connection,
    event_id: i64,
    pid: i64,
) -> ApiResult<(Vec<PlayerRound>, Option<PlayerRound>, f64)> {
    // scores count the published rounds: a draft is only ever the last round
    let draft = rounds::last(conn, event_id)?
        .filter(|r| r.status == RoundStatus::Draft)
        .map(|r| r.number);
    let scores = rounds::scores_before(conn, event_id, draft.unwrap_or(u32::MAX))?;
    let seats = rounds::seats(conn, event_id)?;
    let opponent = |id: i64| -> Option<Opponent> {
        let s = seats.get(&id)?;
        Some(Opponent {
            id,
            name: s.name.clone(),
            pairing_number: s.pairing_number,
            rating: s.rating,
            score: Some(scores.get(&id).copied().unwrap_or(0.0)),
        })
    };
    let mut out: Vec<PlayerRound> = games::of_participant(conn, event_id, pid)?
        .into_iter()
        .map(|g| {
            let white = g.white_id == pid;
            let points = g.result.as_deref().and_then(GameResult::parse).map(|r| {
                let (w, b) = r.half_points();
                (if white { w } else { b }) as f64 / 2.0
            });
            PlayerRound {
                round: g.round,
                board: Some(g.board),
                colour: Some(if white { Colour::White } else { Colour::Black }),
                table: None,
                direction: None,
                boards: None,
                boards_scored: None,
                opponent: opponent(if white { g.black_id } else { g.white_id }),
                result: g.result,
                points,
                percent: None,
                bye: None,
                rating_change: None,
            }
        })
        .collect();
    for (round, points, kind) in games::byes_of_participant(conn, event_id, pid)? {
        out.push(PlayerRound {
            round,
            board: None,
            colour: None,
            table: None,
            direction: None,
            boards: None,
            boards_scored: None,
            opponent: None,
            result: None,
            points: Some(points),
            percent: None,
            bye: Some(kind),
            rating_change: None,
        });
    }
    out.sort_by_key(|r| r.round);
    let latest_published = match draft {
        Some(d) => d.checked_sub(1),
        None => rounds::last(conn, event_id)?.map(|r| r.number),
    };
    let next = out
        .iter()
        .find(|r| Some(r.round) == latest_published && r.bye.is_none() && r.result.is_none())
        .cloned();
    let points = scores.get(&pid).copied().unwrap_or(0.0);
    Ok((out, next, points))
}

/// A pair's rounds in a bridge pairs event, with `next`, its total and percent.
struct BridgeRounds {
    rounds: Vec<PlayerRound>,
    next: Option<PlayerRound>,
    total: Option<f64>,
    percent: Option<f64>,
}

/// The pair's guide card, each round scored from the board results in (the session's own
/// scoring: each round's matchpoints or IMPs add up to the standings' figures), and `next`:
/// the first round at a table without all its boards' results.
fn bridge_rounds(conn: &Connection, event_id: i64, pid: i64) -> ApiResult<BridgeRounds> {
    let mut out = BridgeRounds {
        rounds: Vec::new(),
        next: None,
        total: None,
        percent: None,
    };
    if movements::find(conn, event_id)?.is_none() {
        // no movement chosen yet: nothing to show
        return Ok(out);
    }
    let session = load_session(conn, event_id)?;
    let Some(pair) = session
        .holders
        .iter()
        .find(|(_, h)| h.participant_id == pid)
        .map(|(p, _)| *p)
    else {
        // lots not drawn yet: the participant has no seat
        return Ok(out);
    };
    let seats = rounds::seats(conn, event_id)?;
    let standing: HashMap<PairId, &RankedPair> = session
        .score
        .rankings
        .iter()
        .flat_map(|r| &r.entries)
        .map(|e| (e.pair, e))
        .collect();
    let mut boards_in: HashMap<(u32, u32), BTreeSet<u32>> = HashMap::new();
    for r in &session.results {
        boards_in
            .entry((r.round, r.table))
            .or_default()
            .insert(r.board);
    }
    let method = session.settings.scoring;
    let scored: HashMap<u32, RoundScore> =
        round_scores(pair, &session.results, &session.score, method)
            .into_iter()
            .map(|r| (r.round, r))
            .collect();
    let card = guide_cards(&session.movement)
        .into_iter()
        .find(|c| c.pair.pair_id() == pair);
    out.rounds = card
        .map(|c| c.lines)
        .unwrap_or_default()
        .into_iter()
        .map(|line| {
            let opponent = line.opponent.map(|o| o.pair_id());
            let score = scored.get(&line.round);
            let scored_boards = line.table.map(|t| {
                boards_in.get(&(line.round, t)).map_or(0, |b| {
                    line.boards.iter().filter(|x| b.contains(x)).count() as u32
                })
            });
            PlayerRound {
                round: line.round,
                board: None,
                colour: None,
                table: line.table,
                direction: line.direction,
                boards_scored: scored_boards,
                boards: Some(line.boards),
                opponent: opponent
                    .and_then(|o| Some((o, session.holders.get(&o)?)))
                    .and_then(|(o, h)| {
                        let s = seats.get(&h.participant_id)?;
                        Some(Opponent {
                            id: s.id,
                            name: s.name.clone(),
                            pairing_number: s.pairing_number,
                            rating: s.rating,
                            score: standing.get(&o).map(|e| e.total),
                        })
                    }),
                result: None,
                points: score.map(|s| s.total),
                percent: score.and_then(|s| s.percent),
                bye: line.table.is_none().then(|| "sit_out".to_string()),
                rating_change: None,
            }
        })
        .collect();
    out.next = out
        .rounds
        .iter()
        .find(|r| r.table.is_some() && r.boards_scored < r.boards.as_ref().map(|b| b.len() as u32))
        .cloned();
    let own = standing.get(&pair);
    out.total = Some(own.map_or(0.0, |e| e.total));
    out.percent = own.and_then(|e| e.percent);
    Ok(out)
}

/// A chess player's rating change, performance and norms.
struct FideView {
    change: Option<(RatingChange, Vec<u32>)>,
    performance: Option<i32>,
    norms: Vec<NormCheck>,
}

fn fide_view(conn: &Connection, event_id: i64, pid: i64) -> ApiResult<FideView> {
    let sheet = scoresheet(conn, event_id)?;
    let Some(me) = sheet.players.iter().position(|p| p.id == pid) else {
        return Ok(FideView {
            change: None,
            performance: None,
            norms: Vec::new(),
        });
    };
    let tpr = FideTiebreaks::new(sheet.players.len(), sheet.section())
        .values(&Tiebreak::plain(Code::TPR))[me]
        .map(|v| v as i32);
    Ok(FideView {
        change: rating_changes(&sheet).swap_remove(me),
        performance: tpr,
        norms: norm_checks(&sheet).swap_remove(me),
    })
}

/// One player's event, as the games endpoint and the player's page show it.
pub(crate) fn player_games(conn: &Connection, event_id: i64, pid: i64) -> ApiResult<PlayerGames> {
    let event = events::get(conn, event_id)?;
    let p = participants::get(conn, event_id, pid)?;
    let participant = Seat {
        id: p.id,
        name: p.name,
        pairing_number: p.pairing_number,
        rating: p.rating,
    };
    if event.format == FORMAT_PAIRS {
        let bridge = bridge_rounds(conn, event_id, pid)?;
        return Ok(PlayerGames {
            event_id,
            participant,
            points: bridge.total,
            percent: bridge.percent,
            rounds: bridge.rounds,
            next: bridge.next,
            k_factor: None,
            rating_change: None,
            performance_rating: None,
            norms: Vec::new(),
        });
    }
    let (mut rounds, next, points) = chess_rounds(conn, event_id, pid)?;
    let fide = fide_view(conn, event_id, pid)?;
    if let Some((change, of_rounds)) = &fide.change {
        for (round, hundredths) in of_rounds.iter().zip(&change.per_game) {
            // one rated game a round (a double round robin plays each pairing in its own round)
            if let Some(r) = rounds
                .iter_mut()
                .find(|r| r.round == *round && r.bye.is_none())
            {
                r.rating_change = Some(*hundredths as f64 / 100.0);
            }
        }
    }
    Ok(PlayerGames {
        event_id,
        participant,
        points: Some(points),
        percent: None,
        rounds,
        next,
        k_factor: fide.change.as_ref().map(|c| c.0.k),
        rating_change: fide.change.as_ref().map(|c| c.0.total as f64 / 100.0),
        performance_rating: fide.performance,
        norms: fide.norms,
    })
}

/// One player's rounds: board and colour (bridge: table, direction and boards), opponent with
/// rating and score, result; `next` is the player's game in the latest published round while
/// it has no result. Draft rounds are never shown.
#[utoipa::path(
    get, path = "/api/v1/events/{event_id}/participants/{participant_id}/games", tag = "participants",
    params(("event_id" = i64, Path, description = "Event id"), ("participant_id" = i64, Path, description = "Participant id")),
    responses(
        (status = 200, body = PlayerGames),
        PublicRead,
    )
)]
#[get("/api/v1/events/{event_id}/participants/{participant_id}/games")]
pub async fn get_player_games(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<(i64, i64)>,
) -> ApiResult<HttpResponse> {
    let (event_id, pid) = path.into_inner();
    let answer = store
        .read(move |conn| player_games(conn, event_id, pid))
        .await?;
    json_cached(&req, &answer)
}
