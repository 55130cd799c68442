//! Swiss sections: requested byes, and the section's history read back as the engine's
//! [`SwissState`] (start numbers = pairing numbers).

use std::collections::{BTreeMap, HashMap};

use rusqlite::{params, Connection, OptionalExtension};

use crate::domain::{Participant, ParticipantStatus, Sex, Title};
use crate::engine::chess::games::GameResult;
use crate::engine::chess::swiss::{
    Colour, RequestedBye, RoundRecord, RoundResult, SwissPlayer, SwissSettings, SwissState,
};
use crate::error::{ApiError, ApiResult};
use crate::store::{games, participants};

/// A bye the director recorded for a participant and a round.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[schema(example = json!({"id": 3, "participant_id": 12, "round": 4, "points": 0.5}))]
pub struct RequestedByeRow {
    pub id: i64,
    pub participant_id: i64,
    pub round: u32,
    /// 1 (full-point bye), 0.5 (half-point bye) or 0 (absent).
    pub points: f64,
}

fn bye_from_row(r: &rusqlite::Row) -> rusqlite::Result<RequestedByeRow> {
    Ok(RequestedByeRow {
        id: r.get(0)?,
        participant_id: r.get(1)?,
        round: r.get(2)?,
        points: r.get(3)?,
    })
}

pub fn insert_requested_bye(
    conn: &Connection,
    event_id: i64,
    participant_id: i64,
    round: u32,
    points: f64,
    now: &str,
) -> ApiResult<i64> {
    conn.execute(
        "INSERT INTO requested_byes (event_id, participant_id, round, points, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![event_id, participant_id, round, points, now],
    )
    .map_err(|e| {
        if crate::store::is_constraint(&e) {
            ApiError::conflict(format!(
                "participant {participant_id} already has a bye recorded for round {round}"
            ))
        } else {
            e.into()
        }
    })?;
    Ok(conn.last_insert_rowid())
}

pub fn requested_byes(conn: &Connection, event_id: i64) -> ApiResult<Vec<RequestedByeRow>> {
    let mut stmt = conn.prepare(
        "SELECT id, participant_id, round, points FROM requested_byes WHERE event_id = ?1
         ORDER BY round, participant_id",
    )?;
    let rows = stmt.query_map([event_id], bye_from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn find_requested_bye(
    conn: &Connection,
    event_id: i64,
    id: i64,
) -> ApiResult<Option<RequestedByeRow>> {
    Ok(conn
        .query_row(
            "SELECT id, participant_id, round, points FROM requested_byes
             WHERE event_id = ?1 AND id = ?2",
            params![event_id, id],
            bye_from_row,
        )
        .optional()?)
}

pub fn delete_requested_bye(conn: &Connection, id: i64) -> ApiResult<()> {
    conn.execute("DELETE FROM requested_byes WHERE id = ?1", [id])?;
    Ok(())
}

/// The byes of the event with their kind, as (round, participant id, points, kind).
fn byes_with_kind(conn: &Connection, event_id: i64) -> ApiResult<Vec<(u32, i64, f64, String)>> {
    let mut stmt = conn.prepare(
        "SELECT r.number, b.participant_id, b.points, b.kind FROM byes b
         JOIN rounds r ON r.id = b.round_id WHERE r.event_id = ?1",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A section read back for the engine.
#[derive(Debug, Clone)]
pub struct Section {
    /// The state to pair round `state.round`.
    pub state: SwissState,
    /// Participant id of each start number.
    pub participant_of: HashMap<u32, i64>,
    /// Start number of each participant id.
    pub start_number_of: HashMap<i64, u32>,
}

/// The bye result a stored bye stands for.
pub fn bye_result(points: f64, kind: &str) -> RoundResult {
    if points >= 1.0 {
        if kind == "pairing" {
            RoundResult::PairingBye
        } else {
            RoundResult::FullBye
        }
    } else if points > 0.0 {
        RoundResult::HalfBye
    } else {
        RoundResult::ZeroBye
    }
}

/// How a bye recorded in advance is stored: `requested` when it brings points, else `absent`.
/// (The odd player's bye is stored as `pairing`.)
pub fn recorded_bye_kind(points: f64) -> &'static str {
    if points > 0.0 {
        "requested"
    } else {
        "absent"
    }
}

/// How a bye result is stored, as (points, kind): the inverse of [`bye_result`].
pub fn stored_bye(result: RoundResult) -> (f64, &'static str) {
    match result {
        RoundResult::PairingBye => (1.0, "pairing"),
        RoundResult::FullBye => (1.0, recorded_bye_kind(1.0)),
        RoundResult::HalfBye => (0.5, recorded_bye_kind(0.5)),
        _ => (0.0, recorded_bye_kind(0.0)),
    }
}

/// The two players' records of a game with a result (white's, black's).
pub fn game_records(result: GameResult) -> (RoundResult, RoundResult) {
    use RoundResult::*;
    match result {
        GameResult::WhiteWin => (Win, Loss),
        GameResult::BlackWin => (Loss, Win),
        GameResult::Draw => (Draw, Draw),
        GameResult::WhiteForfeitWin => (ForfeitWin, ForfeitLoss),
        GameResult::BlackForfeitWin => (ForfeitLoss, ForfeitWin),
        GameResult::DoubleForfeit => (ForfeitLoss, ForfeitLoss),
    }
}

/// The game result of White's and Black's records: the inverse of [`game_records`].
pub fn game_result(white: RoundResult, black: RoundResult) -> GameResult {
    match (white, black) {
        (RoundResult::Win, _) => GameResult::WhiteWin,
        (RoundResult::Loss, _) => GameResult::BlackWin,
        (RoundResult::Draw, _) => GameResult::Draw,
        (RoundResult::ForfeitWin, _) => GameResult::WhiteForfeitWin,
        (_, RoundResult::ForfeitWin) => GameResult::BlackForfeitWin,
        _ => GameResult::DoubleForfeit,
    }
}

/// Reads the event's rounds before `round` into the engine's state for pairing `round`.
/// Every participant must have a pairing number and every earlier game a result (the caller
/// checks both). A participant missing from an earlier round (a late entry) gets a zero-point
/// bye there.
pub fn load(
    conn: &Connection,
    event_id: i64,
    round: u32,
    settings: SwissSettings,
) -> ApiResult<Section> {
    let people: Vec<Participant> = participants::all(conn, event_id)?;
    let mut participant_of = HashMap::new();
    let mut start_number_of = HashMap::new();
    for p in &people {
        let n = p.pairing_number.ok_or_else(|| {
            ApiError::Internal(format!("participant {} has no pairing number", p.id))
        })?;
        participant_of.insert(n, p.id);
        start_number_of.insert(p.id, n);
    }
    // records[participant][round] for the rounds before `round`
    let mut records: HashMap<i64, BTreeMap<u32, RoundRecord>> = HashMap::new();
    for g in games::all(conn, event_id)? {
        if g.round >= round {
            continue;
        }
        let result = g
            .result
            .as_deref()
            .and_then(GameResult::parse)
            .ok_or_else(|| {
                ApiError::conflict(format!(
                    "round {} board {} has no result yet; enter it before pairing round {round}",
                    g.round, g.board
                ))
            })?;
        // forfeits keep their scheduled colour: the engine counts colours of played games
        // only, and a TRF export writes the scheduled colour as the format asks
        let (w, b) = game_records(result);
        let (white_n, black_n) = (start_number_of[&g.white_id], start_number_of[&g.black_id]);
        records.entry(g.white_id).or_default().insert(
            g.round,
            RoundRecord {
                opponent: Some(black_n),
                colour: Some(Colour::White),
                result: w,
            },
        );
        records.entry(g.black_id).or_default().insert(
            g.round,
            RoundRecord {
                opponent: Some(white_n),
                colour: Some(Colour::Black),
                result: b,
            },
        );
    }
    for (r, pid, points, kind) in byes_with_kind(conn, event_id)? {
        if r < round {
            records.entry(pid).or_default().insert(
                r,
                RoundRecord {
                    opponent: None,
                    colour: None,
                    result: bye_result(points, &kind),
                },
            );
        }
    }
    let mut players: Vec<SwissPlayer> = people
        .iter()
        .map(|p| {
            let mine = records.remove(&p.id).unwrap_or_default();
            let history = (1..round)
                .map(|r| {
                    mine.get(&r).cloned().unwrap_or(RoundRecord {
                        opponent: None,
                        colour: None,
                        result: RoundResult::ZeroBye,
                    })
                })
                .collect();
            SwissPlayer {
                start_number: start_number_of[&p.id],
                name: p.name.clone(),
                rating: p.rating.unwrap_or(0).max(0) as u32,
                team: p.club.clone().filter(|c| !c.trim().is_empty()),
                unrated: p.rating.is_none(),
                history,
                withdrawn: p.status == ParticipantStatus::Withdrawn,
                federation: trf_federation(p.federation.as_deref()),
                fide_id: trf_fide_id(p.external_id.as_deref()),
                title: p.title.map(trf_title),
                sex: p
                    .sex
                    .map(|s| if s == Sex::Female { "w" } else { "m" }.to_string()),
                birth_date: p.birth_year.map(|y| y.to_string()),
                ..Default::default()
            }
        })
        .collect();
    players.sort_by_key(|p| p.start_number);
    let requested_byes = requested_byes(conn, event_id)?
        .into_iter()
        .filter(|b| b.round == round)
        .filter_map(|b| {
            Some(RequestedBye {
                player: *start_number_of.get(&b.participant_id)?,
                points: b.points,
            })
        })
        .collect();
    Ok(Section {
        state: SwissState {
            settings,
            players,
            round: Some(round),
            requested_byes,
            absent: Vec::new(),
        },
        participant_of,
        start_number_of,
    })
}

/// A FIDE title as TRF-16 writes it (columns 11-13: `g`, `m`, `wg`, `f`, `wm`, `c`, `wf`, `wc`).
fn trf_title(t: Title) -> String {
    match t {
        Title::GM => "g",
        Title::IM => "m",
        Title::WGM => "wg",
        Title::FM => "f",
        Title::WIM => "wm",
        Title::CM => "c",
        Title::WFM => "wf",
        Title::WCM => "wc",
    }
    .to_string()
}

/// The participant's federation as the TRF's federation column holds it: a code of 1 to 3
/// characters (`NOR`); a longer text (`Norway`) is no FIDE code and is left out rather than
/// cut.
fn trf_federation(federation: Option<&str>) -> Option<String> {
    let code = federation?.trim();
    (!code.is_empty() && code.chars().count() <= 3).then(|| code.to_string())
}

/// The participant's external id as a FIDE id: only when it is all digits (1 to 11, the width
/// of the TRF column); any other id (a national membership number like `GB-1234`) is not a
/// FIDE id and is left out.
fn trf_fide_id(external_id: Option<&str>) -> Option<String> {
    let id = external_id?.trim();
    (!id.is_empty() && id.len() <= 11 && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.to_string())
}

/// The FIDE ids of a TRF's players that can be kept as their participants' external ids, by
/// start number: all digits and not all zeros (some programs write `0` for "none"), and held
/// by one player only (an external id is unique in an event; a file giving two players the
/// same id keeps it for neither).
pub(crate) fn external_ids_of(players: &[SwissPlayer]) -> HashMap<u32, String> {
    let mut holders: HashMap<String, Vec<u32>> = HashMap::new();
    for p in players {
        if let Some(id) = trf_fide_id(p.fide_id.as_deref()) {
            if id.bytes().any(|b| b != b'0') {
                holders.entry(id).or_default().push(p.start_number);
            }
        }
    }
    holders
        .into_iter()
        .filter_map(|(id, sns)| match sns[..] {
            [sn] => Some((sn, id)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_code_and_a_digit_id_reach_the_fide_columns() {
        assert_eq!(trf_federation(Some(" NOR ")).as_deref(), Some("NOR"));
        assert_eq!(trf_federation(Some("Norway")), None);
        assert_eq!(trf_federation(Some("  ")), None);
        assert_eq!(trf_federation(None), None);
        assert_eq!(trf_fide_id(Some("1503014")).as_deref(), Some("1503014"));
        assert_eq!(
            trf_fide_id(Some("12345678901")).as_deref(),
            Some("12345678901")
        );
        assert_eq!(trf_fide_id(Some("123456789012")), None);
        assert_eq!(trf_fide_id(Some("GB-1234")), None);
        assert_eq!(trf_fide_id(Some("١٢٣")), None, "ASCII digits only");
        assert_eq!(trf_fide_id(Some("")), None);
    }

    #[test]
    fn a_trf_fide_id_becomes_an_external_id_only_when_it_is_one_players() {
        let player = |sn, id: &str| SwissPlayer {
            start_number: sn,
            fide_id: Some(id.to_string()),
            ..Default::default()
        };
        let ids = external_ids_of(&[
            player(1, "1503014"),
            player(2, "0"),
            player(3, "4100018"),
            player(4, "4100018"),
            player(5, "A123"),
            SwissPlayer {
                start_number: 6,
                ..Default::default()
            },
        ]);
        assert_eq!(ids, HashMap::from([(1, "1503014".to_string())]));
    }

    #[test]
    fn stored_results_and_byes_read_back_unchanged() {
        for result in [
            GameResult::WhiteWin,
            GameResult::BlackWin,
            GameResult::Draw,
            GameResult::WhiteForfeitWin,
            GameResult::BlackForfeitWin,
            GameResult::DoubleForfeit,
        ] {
            let (w, b) = game_records(result);
            assert_eq!(game_result(w, b), result);
        }
        for bye in [
            RoundResult::PairingBye,
            RoundResult::FullBye,
            RoundResult::HalfBye,
            RoundResult::ZeroBye,
        ] {
            let (points, kind) = stored_bye(bye);
            assert_eq!(bye_result(points, kind), bye);
        }
    }
}
