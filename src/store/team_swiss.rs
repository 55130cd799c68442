//! A chess team Swiss event's rounds: the team pairing of each round, the line-ups, the
//! captains' tokens, and the rounds read back with their games as the engine records them.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::domain::TeamSwissEventSettings;
use crate::engine::chess::games::GameResult;
use crate::engine::chess::team_swiss::event::{PlayedMatch, RoundRecord};
use crate::error::{ApiError, ApiResult};
use crate::store::teams::{self, TeamRow};
use crate::store::tokens::{generate, known};
use crate::store::{events, games, rounds};

/// A match of a round as stored (team ids); a bye has no black team and no table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchRow {
    pub round: u32,
    pub table_no: Option<u32>,
    pub white_team: i64,
    pub black_team: Option<i64>,
}

pub fn insert_match(conn: &Connection, event_id: i64, m: &MatchRow, now: &str) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO team_swiss_matches (event_id, round, table_no, white_team, black_team, paired_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![event_id, m.round, m.table_no, m.white_team, m.black_team, now],
    )?;
    Ok(())
}

/// Every match and bye of the event, by round then table (byes last).
pub fn matches(conn: &Connection, event_id: i64) -> ApiResult<Vec<MatchRow>> {
    let mut stmt = conn.prepare(
        "SELECT round, table_no, white_team, black_team FROM team_swiss_matches
         WHERE event_id = ?1 ORDER BY round, table_no IS NULL, table_no",
    )?;
    let rows = stmt.query_map([event_id], |r| {
        Ok(MatchRow {
            round: r.get(0)?,
            table_no: r.get(1)?,
            white_team: r.get(2)?,
            black_team: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The line-up of a team in a round: participant ids, board 1 first (empty: none yet).
pub fn lineup(conn: &Connection, event_id: i64, round: u32, team_id: i64) -> ApiResult<Vec<i64>> {
    let mut stmt = conn.prepare(
        "SELECT participant_id FROM team_lineups
         WHERE event_id = ?1 AND round = ?2 AND team_id = ?3 ORDER BY board",
    )?;
    let rows = stmt.query_map(params![event_id, round, team_id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Replaces the line-up of a team in a round.
pub fn set_lineup(
    conn: &Connection,
    event_id: i64,
    round: u32,
    team_id: i64,
    players: &[i64],
    entered_by: &str,
) -> ApiResult<()> {
    conn.execute(
        "DELETE FROM team_lineups WHERE event_id = ?1 AND round = ?2 AND team_id = ?3",
        params![event_id, round, team_id],
    )?;
    for (i, pid) in players.iter().enumerate() {
        conn.execute(
            "INSERT INTO team_lineups (event_id, round, team_id, board, participant_id, entered_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![event_id, round, team_id, i as u32 + 1, pid, entered_by],
        )?;
    }
    Ok(())
}

/// Issues a captain's token for the team; returns its id and the token (never stored).
pub fn issue_captain(
    conn: &Connection,
    event_id: i64,
    team_id: i64,
    now: &str,
) -> ApiResult<(i64, String)> {
    let token = generate()?;
    conn.execute(
        "INSERT INTO captain_tokens (event_id, team_id, token_hash, created_at)
         VALUES (?1, ?2, token_hmac(?3), ?4)",
        params![event_id, team_id, token, now],
    )?;
    known::note(&token);
    Ok((conn.last_insert_rowid(), token))
}

/// The live captain's token: (token id, event id, team id).
pub fn captain(conn: &Connection, token: &str) -> ApiResult<Option<(i64, i64, i64)>> {
    let found = conn
        .query_row(
            "SELECT id, event_id, team_id FROM captain_tokens
             WHERE token_hash = token_hmac(?1) AND revoked_at IS NULL",
            [token],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    if found.is_some() {
        known::note(token);
    }
    Ok(found)
}

/// The event's rounds as read from the store: each match with its games.
pub struct Played {
    pub teams: Vec<TeamRow>,
    /// Per round (1 first): the matches and the bye.
    pub rounds: Vec<Vec<MatchView>>,
}

pub struct MatchView {
    pub row: MatchRow,
    /// (team board, round board, white id, black id, result)
    pub games: Vec<(u32, u32, i64, i64, Option<String>)>,
    pub white_in: bool,
    pub black_in: bool,
}

impl MatchView {
    /// Half-points of the white team and the black team, and whether every game has a result.
    pub fn points(&self) -> (u32, u32, bool) {
        let (mut w, mut b) = (0, 0);
        let mut complete = !self.games.is_empty();
        for (board, _, _, _, result) in &self.games {
            match result.as_deref().and_then(GameResult::parse) {
                Some(r) => {
                    let (x, y) = r.half_points();
                    // The white team's player has White on the odd boards.
                    if board % 2 == 1 {
                        w += x;
                        b += y;
                    } else {
                        w += y;
                        b += x;
                    }
                }
                None => complete = false,
            }
        }
        (w, b, complete)
    }
}

pub fn read_played(conn: &Connection, event_id: i64) -> ApiResult<Played> {
    let teams = teams::all(conn, event_id)?;
    let mut rounds_out: Vec<Vec<MatchView>> = Vec::new();
    for row in matches(conn, event_id)? {
        while rounds_out.len() < row.round as usize {
            rounds_out.push(Vec::new());
        }
        let mut view = MatchView {
            games: Vec::new(),
            white_in: !lineup(conn, event_id, row.round, row.white_team)?.is_empty(),
            black_in: match row.black_team {
                Some(b) => !lineup(conn, event_id, row.round, b)?.is_empty(),
                None => false,
            },
            row,
        };
        if let (Some(t), Some(r)) = (
            view.row.table_no,
            rounds::find(conn, event_id, view.row.round)?,
        ) {
            let boards_per = boards_of(conn, event_id)?;
            let first = (t - 1) * boards_per + 1;
            for g in games::of_round(conn, r.id)? {
                if (first..first + boards_per).contains(&g.board) {
                    view.games.push((
                        g.board - first + 1,
                        g.board,
                        g.white_id,
                        g.black_id,
                        g.result,
                    ));
                }
            }
        }
        rounds_out[view.row.round as usize - 1].push(view);
    }
    Ok(Played {
        teams,
        rounds: rounds_out,
    })
}

pub fn boards_of(conn: &Connection, event_id: i64) -> ApiResult<u32> {
    Ok(TeamSwissEventSettings::parse(&events::get(conn, event_id)?.settings)?.boards())
}

/// The engine's records of the rounds played (team numbers as TPNs).
pub fn records(p: &Played, boards: u32) -> ApiResult<Vec<RoundRecord>> {
    let tpn: HashMap<i64, u32> = p
        .teams
        .iter()
        .filter_map(|t| t.number.map(|n| (t.id, n)))
        .collect();
    let mut out = Vec::with_capacity(p.rounds.len());
    for (r, ms) in p.rounds.iter().enumerate() {
        let mut rec = RoundRecord::default();
        for m in ms {
            match m.row.black_team {
                None => rec.bye = Some(tpn[&m.row.white_team]),
                Some(black) => {
                    let (w, b, complete) = m.points();
                    if !complete || m.games.len() as u32 != boards {
                        return Err(ApiError::conflict(format!(
                            "round {} is not finished: table {} needs both line-ups and every result",
                            r + 1,
                            m.row.table_no.unwrap_or(0)
                        )));
                    }
                    rec.matches.push(PlayedMatch {
                        white: tpn[&m.row.white_team],
                        black: tpn[&black],
                        white_half: w,
                        black_half: b,
                    });
                }
            }
        }
        out.push(rec);
    }
    Ok(out)
}

/// The records of a team Swiss event's finished rounds (for the team standings): rounds with
/// an unfinished match are left out, as are byes of those rounds.
pub fn finished_records(
    conn: &Connection,
    event_id: i64,
) -> ApiResult<(Vec<TeamRow>, Vec<RoundRecord>, u32)> {
    let boards = boards_of(conn, event_id)?;
    let mut p = read_played(conn, event_id)?;
    let all = std::mem::take(&mut p.rounds);
    let mut recs = Vec::new();
    for ms in all {
        p.rounds = vec![ms];
        match records(&p, boards) {
            Ok(mut r) => recs.append(&mut r),
            Err(_) => break,
        }
    }
    Ok((p.teams, recs, boards))
}
