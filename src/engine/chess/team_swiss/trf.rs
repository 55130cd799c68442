//! A team Swiss in a FIDE TRF-2026 file: the team records written after the players' `001`
//! lines, and read back into the event's teams, line-ups, matches and byes.
//!
//! Records (TRF-2026, "Team Section" and after; columns 1-based):
//! * `352` the colours of a match's boards for the team with White on board 1 (`WBWB…`, one
//!   letter a board): it gives the number of boards.
//! * `310` a team: its pairing number (5-7), name (9-40), nickname (42-46, left blank),
//!   strength factor (48-53, left blank), match points (55-60), game points (62-67), rank
//!   (69-71), then its players' start numbers in board order, 4 columns each from column 74
//!   with one space between (74-77, 79-82, …). The text lists 14 players; a team with more
//!   (up to 25 here) continues the same pattern.
//! * `300` a team's line-up of a round when it is not its first players in `310` order:
//!   round (5-7), team (9-11), scheduled opponent (13-15), the players board by board
//!   (17-20, 22-25, …).
//! * `320` the pairing-allocated bye: its match points (5-8) and game points (10-13), then
//!   the team given it in each round (15-17 round 1, 19-21 round 2, …; `000` none).
//! * `082` the number of teams.
//!
//! Read as well, and refused when they ask what a team Swiss here does not hold: `330`
//! forfeited matches, `362` a match points system other than 2-1-0, a `320` bye scored other
//! than a drawn match. The players' games are their `001` lines, read as for any TRF file;
//! a team's players who were not lined up, and the players of the team with the bye, have no
//! game that round (`Z`).

use std::collections::HashMap;

use crate::engine::chess::swiss::trf::{col, trf_text, TrfError};
use crate::engine::chess::swiss::{Colour, SwissState};

/// A team as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfTeam {
    pub tpn: u32,
    pub name: String,
    /// Start numbers, board order.
    pub members: Vec<u32>,
    pub match_points: u32,
    /// Game points in half-points.
    pub game_half: u32,
    pub rank: u32,
}

/// A round: its matches (white team, black team; TPNs), the bye, each team's line-up
/// (start numbers, board 1 first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrfTeamRound {
    pub matches: Vec<(u32, u32)>,
    pub bye: Option<u32>,
    pub lineups: HashMap<u32, Vec<u32>>,
}

/// The team part of a team Swiss file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamTrf {
    pub boards: u32,
    pub teams: Vec<TrfTeam>,
    pub rounds: Vec<TrfTeamRound>,
}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// `01.5` in `width` columns, zero-padded as the text's `320` example writes it.
fn points(half: u32, width: usize) -> String {
    format!("{:0width$.1}", f64::from(half) / 2.0)
}

impl TeamTrf {
    /// The team records (`082`, `352`, `310`, `300`, `320`), each line ending in LF.
    pub fn write(&self) -> String {
        let mut out = format!("082 {}\n", self.teams.len());
        let colours: String = (0..self.boards)
            .map(|k| if k % 2 == 0 { 'W' } else { 'B' })
            .collect();
        out.push_str(&format!("352 {colours}\n"));
        for t in &self.teams {
            let mut line = format!(
                "310 {:>3} {:<32} {:5} {:6} {:>6.1} {:>6.1} {:>3} ",
                t.tpn,
                trf_text(&t.name, 32),
                "",
                "",
                f64::from(t.match_points),
                f64::from(t.game_half) / 2.0,
                t.rank,
            );
            for m in &t.members {
                line.push_str(&format!(" {m:>4}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for (r, round) in self.rounds.iter().enumerate() {
            for &(w, b) in &round.matches {
                for (team, opponent) in [(w, b), (b, w)] {
                    let Some(lineup) = round.lineups.get(&team) else {
                        continue;
                    };
                    if *lineup == self.default_lineup(team) {
                        continue;
                    }
                    let mut line = format!("300 {:03} {team:03} {opponent:03}", r + 1);
                    for p in lineup {
                        line.push_str(&format!(" {p:04}"));
                    }
                    out.push_str(&line);
                    out.push('\n');
                }
            }
        }
        if self.rounds.iter().any(|r| r.bye.is_some()) {
            let mut line = format!("320 {} {}", points(2, 4), points(self.boards, 4));
            for r in &self.rounds {
                line.push_str(&format!(" {:03}", r.bye.unwrap_or(0)));
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// A team's first `boards` players in `310` order.
    fn default_lineup(&self, tpn: u32) -> Vec<u32> {
        self.teams
            .iter()
            .find(|t| t.tpn == tpn)
            .map(|t| {
                t.members
                    .iter()
                    .take(self.boards as usize)
                    .copied()
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// What [`split`] read: the team records, with the lines they were on.
#[derive(Debug, Clone, Default)]
pub struct TeamRecords {
    /// (line, team): match points, game points and rank are the file's and not checked.
    pub teams: Vec<(usize, TrfTeam)>,
    pub boards: Option<u32>,
    /// (line, round, team, line-up).
    pub lineups: Vec<(usize, u32, u32, Vec<u32>)>,
    /// The `320` line and the team with the bye in each round (0: none).
    pub byes: Option<(usize, Vec<u32>)>,
}

/// Whether the file is a team Swiss: it has a `310` team with match points, a `320`, `300`,
/// `330`, `352` or `362` record.
pub fn is_team_swiss(text: &str) -> bool {
    text.lines().any(|l| {
        let code = l.get(..3).unwrap_or("");
        matches!(code, "320" | "300" | "330" | "352" | "362")
            || (code == "310"
                && col(&l.chars().collect::<Vec<_>>(), 55, 60)
                    .parse::<f64>()
                    .is_ok_and(|m| m > 0.0))
    })
}

/// Takes the team records out of a team Swiss file: the records, and the text left for the
/// player reader (each team line blanked, so line numbers stay).
pub fn split(text: &str) -> Result<(TeamRecords, String), TrfError> {
    let mut rec = TeamRecords::default();
    let mut rest = String::with_capacity(text.len());
    let lines: Vec<&str> = text
        .split("\r\n")
        .flat_map(|l| l.split(['\r', '\n']))
        .collect();
    for (k, raw) in lines.iter().enumerate() {
        let ln = k + 1;
        let chars: Vec<char> = raw.chars().collect();
        let code: String = chars.iter().take(3).collect();
        let number = |from: usize, to: usize, what: &str| -> Result<u32, TrfError> {
            let v = col(&chars, from, to);
            v.parse().map_err(|_| {
                err(
                    ln,
                    format!("{what} (columns {from}-{to}) `{v}` is not a number"),
                )
            })
        };
        let half = |from: usize, to: usize, what: &str| -> Result<u32, TrfError> {
            let v = col(&chars, from, to);
            if v.is_empty() {
                return Ok(0);
            }
            v.parse::<f64>()
                .ok()
                .filter(|p| *p >= 0.0 && *p <= 9999.0 && (p * 2.0).fract() == 0.0)
                .map(|p| (p * 2.0) as u32)
                .ok_or_else(|| {
                    err(
                        ln,
                        format!("{what} (columns {from}-{to}) `{v}` is not points"),
                    )
                })
        };
        let list = |from: usize| -> Result<Vec<u32>, TrfError> {
            col(&chars, from, chars.len())
                .split_whitespace()
                .map(|t| {
                    t.parse()
                        .map_err(|_| err(ln, format!("`{t}` is not a start number")))
                })
                .collect()
        };
        let team_line = matches!(
            code.as_str(),
            "310" | "300" | "320" | "330" | "352" | "362" | "082"
        );
        match code.as_str() {
            "310" => {
                let team = TrfTeam {
                    tpn: number(5, 7, "team pairing number")?,
                    name: col(&chars, 9, 40),
                    members: list(74)?,
                    match_points: half(55, 60, "match points")? / 2,
                    game_half: half(62, 67, "game points")?,
                    rank: col(&chars, 69, 71).parse().unwrap_or(0),
                };
                rec.teams.push((ln, team));
            }
            "352" => {
                let seq = col(&chars, 5, chars.len());
                if seq.is_empty() || !seq.chars().all(|c| matches!(c, 'W' | 'B' | 'w' | 'b')) {
                    return Err(err(
                        ln,
                        format!("`352` colours `{seq}`: W and B, one a board"),
                    ));
                }
                rec.boards = Some(seq.chars().count() as u32);
            }
            "300" => {
                let round = number(5, 7, "round")?;
                let team = number(9, 11, "team")?;
                rec.lineups.push((ln, round, team, list(17)?));
            }
            "320" => {
                if half(5, 8, "PAB match points")? != 2 {
                    return Err(err(
                        ln,
                        "`320`: the pairing-allocated bye scores a drawn match (1.0 match point) here",
                    ));
                }
                rec.byes = Some((ln, list(15)?));
            }
            "330" => {
                return Err(err(
                    ln,
                    "`330`: forfeited matches are not held by a team Swiss event here",
                ))
            }
            "362" => {
                let text = col(&chars, 5, chars.len()).to_ascii_uppercase();
                let mut it = text.split_whitespace();
                while let Some(code) = it.next() {
                    let value: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(-1.0);
                    let default = match code {
                        "TW" => 2.0,
                        "TD" => 1.0,
                        "TL" => 0.0,
                        _ => {
                            return Err(err(
                                ln,
                                format!("`362`: unknown result `{code}` (TW, TD, TL)"),
                            ))
                        }
                    };
                    if value != default {
                        return Err(err(
                            ln,
                            "`362`: match points here are 2 won, 1 drawn, 0 lost",
                        ));
                    }
                }
            }
            _ => {}
        }
        if !team_line {
            rest.push_str(raw);
        }
        rest.push('\n');
    }
    if rec.teams.is_empty() {
        return Err(err(0, "a team Swiss file needs its `310` team records"));
    }
    Ok((rec, rest))
}

/// The teams and rounds of a team Swiss from its records and the players read from the same
/// file (`state`, start numbers as in the file). Each team's line-up of a round is its `300`
/// record, else its first players; its players on the line-up meet the opponent team's on the
/// same boards, White on the odd boards for the team with White on board 1.
pub fn assemble(rec: &TeamRecords, state: &SwissState) -> Result<TeamTrf, TrfError> {
    let mut teams: Vec<TrfTeam> = rec.teams.iter().map(|(_, t)| t.clone()).collect();
    teams.sort_by_key(|t| t.tpn);
    let n = teams.len() as u32;
    let mut team_of: HashMap<u32, u32> = HashMap::new();
    for (ln, t) in &rec.teams {
        if t.tpn == 0 || t.tpn > n || teams.iter().filter(|x| x.tpn == t.tpn).count() > 1 {
            return Err(err(
                *ln,
                format!(
                    "team pairing numbers run from 1 to {n}, each once; `{}` does not",
                    t.tpn
                ),
            ));
        }
        for m in &t.members {
            if !state.players.iter().any(|p| p.start_number == *m) {
                return Err(err(*ln, format!("player {m} has no `001` line")));
            }
            if team_of.insert(*m, t.tpn).is_some() {
                return Err(err(*ln, format!("player {m} is in two teams")));
            }
        }
    }
    if let Some(p) = state
        .players
        .iter()
        .find(|p| !team_of.contains_key(&p.start_number))
    {
        return Err(err(
            0,
            format!("player {} is in no `310` team", p.start_number),
        ));
    }
    let by_number: HashMap<u32, &crate::engine::chess::swiss::SwissPlayer> =
        state.players.iter().map(|p| (p.start_number, p)).collect();
    let played_rounds = state
        .players
        .iter()
        .map(|p| p.history.len())
        .max()
        .unwrap_or(0);
    let bye_rounds = rec.byes.as_ref().map_or(0, |b| b.1.len());
    let round_count = played_rounds.max(bye_rounds);
    let boards = match rec.boards {
        Some(b) => b,
        None => teams
            .iter()
            .map(|t| t.members.len() as u32)
            .min()
            .unwrap_or(0),
    };
    let mut rounds = Vec::with_capacity(round_count);
    let mut mp: HashMap<u32, u32> = teams.iter().map(|t| (t.tpn, 0)).collect();
    for r in 0..round_count {
        let number = r as u32 + 1;
        let mut round = TrfTeamRound {
            bye: rec
                .byes
                .as_ref()
                .and_then(|b| b.1.get(r).copied())
                .filter(|&t| t > 0),
            ..Default::default()
        };
        let line = |t: u32| {
            rec.lineups
                .iter()
                .find(|l| l.1 == number && l.2 == t)
                .map_or(rec.teams[0].0, |l| l.0)
        };
        for t in &teams {
            let lineup: Vec<u32> = rec
                .lineups
                .iter()
                .find(|l| l.1 == number && l.2 == t.tpn)
                .map(|l| l.3.clone())
                .unwrap_or_else(|| t.members.iter().take(boards as usize).copied().collect());
            let games = t
                .members
                .iter()
                .filter(|m| {
                    by_number[m]
                        .history
                        .get(r)
                        .is_some_and(|h| h.opponent.is_some() && h.result.has_opponent())
                })
                .count();
            if games == 0 {
                continue;
            }
            if lineup.len() != boards as usize {
                return Err(err(
                    line(t.tpn),
                    format!("team {} lines up {} players in round {number}; a match has {boards} boards", t.tpn, lineup.len()),
                ));
            }
            round.lineups.insert(t.tpn, lineup);
        }
        let mut paired: Vec<u32> = Vec::new();
        for t in &teams {
            let Some(mine) = round.lineups.get(&t.tpn) else {
                continue;
            };
            let first = by_number.get(&mine[0]).and_then(|p| p.history.get(r));
            let Some(h) = first.filter(|h| h.opponent.is_some()) else {
                return Err(err(
                    line(t.tpn),
                    format!("round {number}: board 1 of team {} has no game", t.tpn),
                ));
            };
            let opponent_team = team_of.get(&h.opponent.unwrap_or(0)).copied().unwrap_or(0);
            let Some(theirs) = round.lineups.get(&opponent_team) else {
                return Err(err(
                    line(t.tpn),
                    format!(
                        "round {number}: team {}'s board 1 plays no team's line-up",
                        t.tpn
                    ),
                ));
            };
            let white = h.colour == Some(Colour::White);
            for k in 0..boards as usize {
                let p = by_number.get(&mine[k]).and_then(|p| p.history.get(r));
                let expected = (k % 2 == 0) == white;
                let ok = p.is_some_and(|h| {
                    h.opponent == Some(theirs[k])
                        && h.colour.is_none_or(|c| (c == Colour::White) == expected)
                });
                if !ok {
                    return Err(err(
                        line(t.tpn),
                        format!(
                            "round {number}: board {} of team {} (player {}) does not meet board {} of team {opponent_team}",
                            k + 1,
                            t.tpn,
                            mine[k],
                            k + 1
                        ),
                    ));
                }
            }
            if white {
                round.matches.push((t.tpn, opponent_team));
            }
            paired.push(t.tpn);
        }
        for t in &teams {
            let has_bye = round.bye == Some(t.tpn);
            if paired.contains(&t.tpn) == has_bye {
                return Err(err(
                    rec.byes.as_ref().map_or(0, |b| b.0),
                    format!(
                        "round {number}: team {} {}",
                        t.tpn,
                        if has_bye {
                            "has the bye and a match"
                        } else {
                            "has neither a match nor the bye"
                        }
                    ),
                ));
            }
        }
        if round.matches.len() * 2 != paired.len() {
            return Err(err(
                0,
                format!("round {number}: the matches do not pair the teams two by two"),
            ));
        }
        // Tables as the pairing numbers them: the higher match points before the round
        // first, then the lower TPN.
        round
            .matches
            .sort_by_key(|&(w, b)| (std::cmp::Reverse(mp[&w].max(mp[&b])), w.min(b)));
        let half = |tpn: u32| -> u32 {
            round.lineups[&tpn]
                .iter()
                .map(|sn| by_number[sn].history[r].result.half_points())
                .sum()
        };
        let points = |mine: u32, theirs: u32| match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        };
        for &(w, b) in &round.matches {
            let (hw, hb) = (half(w), half(b));
            *mp.entry(w).or_default() += points(hw, hb);
            *mp.entry(b).or_default() += points(hb, hw);
        }
        if let Some(t) = round.bye {
            *mp.entry(t).or_default() += 1;
        }
        rounds.push(round);
    }
    Ok(TeamTrf {
        boards,
        teams,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(tpn: u32, name: &str, members: Vec<u32>) -> TrfTeam {
        TrfTeam {
            tpn,
            name: name.into(),
            members,
            match_points: 3,
            game_half: 5,
            rank: tpn,
        }
    }

    #[test]
    fn records_sit_in_their_columns_and_read_back() {
        let mut lineups = HashMap::new();
        lineups.insert(1, vec![3, 1]);
        lineups.insert(2, vec![4, 5]);
        let t = TeamTrf {
            boards: 2,
            teams: vec![
                team(1, "Club \u{7}<1>", vec![1, 2, 3]),
                team(2, &"N".repeat(40), vec![4, 5]),
                team(3, "Third", vec![6, 7]),
            ],
            rounds: vec![TrfTeamRound {
                matches: vec![(1, 2)],
                bye: Some(3),
                lineups,
            }],
        };
        let text = t.write();
        let line = |code: &str| {
            text.lines()
                .filter(|l| l.starts_with(code))
                .collect::<Vec<_>>()
        };
        let t1: Vec<char> = line("310")[0].chars().collect();
        assert_eq!(col(&t1, 5, 7), "1");
        assert_eq!(
            col(&t1, 9, 40),
            "Club  <1>",
            "a control character is a space"
        );
        assert_eq!(col(&t1, 55, 60), "3.0");
        assert_eq!(col(&t1, 62, 67), "2.5");
        assert_eq!(col(&t1, 69, 71), "1");
        assert_eq!(col(&t1, 74, 77), "1");
        assert_eq!(col(&t1, 79, 82), "2");
        assert_eq!(col(&t1, 84, 87), "3");
        let t2: Vec<char> = line("310")[1].chars().collect();
        assert_eq!(
            col(&t2, 9, 40),
            "N".repeat(32),
            "a name is cut to its 32 columns"
        );
        assert_eq!(line("352"), ["352 WB"]);
        // Team 1 lines up out of its order: a 300 record; team 2 in order: none.
        assert_eq!(line("300"), ["300 001 001 002 0003 0001"]);
        assert_eq!(
            line("320"),
            ["320 01.0 01.0 003"],
            "a drawn match: 1 MP, 1 of 2 GP"
        );
        let (rec, rest) = split(&text).unwrap();
        assert_eq!(rec.boards, Some(2));
        assert_eq!(rec.teams.len(), 3);
        assert_eq!(rec.teams[1].1.members, vec![4, 5]);
        assert_eq!(rec.teams[0].1.match_points, 3);
        assert_eq!(rec.lineups[0].3, vec![3, 1]);
        assert_eq!(rec.byes.as_ref().unwrap().1, vec![3]);
        assert!(
            rest.lines().all(|l| l.is_empty()),
            "every line was a team record"
        );
        assert!(is_team_swiss(&text));
    }

    #[test]
    fn what_a_team_swiss_here_does_not_hold_is_refused_by_line() {
        for (bad, line) in [
            ("310   1 A\n330 +- 001 001 002\n", 2),
            ("310   1 A\n362 TW 3.0 TD 1.0 TL 0.0\n", 2),
            ("320 02.0 02.0 001\n", 1),
            ("352 WX\n", 1),
        ] {
            let e = split(bad).unwrap_err();
            assert_eq!(e.line, line, "{bad}: {}", e.message);
        }
        assert!(split("001    1\n").is_err(), "no 310 records");
    }

    #[test]
    fn every_player_is_in_one_team() {
        let player = |n| crate::engine::chess::swiss::SwissPlayer {
            start_number: n,
            ..Default::default()
        };
        let state = SwissState {
            settings: Default::default(),
            players: vec![player(1), player(2), player(3)],
            round: None,
            requested_byes: Vec::new(),
            absent: Vec::new(),
        };
        let rec = |teams: Vec<TrfTeam>| TeamRecords {
            teams: teams
                .into_iter()
                .enumerate()
                .map(|(k, t)| (k + 1, t))
                .collect(),
            boards: Some(1),
            ..Default::default()
        };
        let e = assemble(
            &rec(vec![team(1, "A", vec![1]), team(2, "B", vec![2])]),
            &state,
        )
        .unwrap_err();
        assert!(
            e.message.contains("player 3 is in no `310` team"),
            "{}",
            e.message
        );
        let e = assemble(
            &rec(vec![team(1, "A", vec![1, 3]), team(2, "B", vec![2, 3])]),
            &state,
        )
        .unwrap_err();
        assert_eq!(e.line, 2, "{}", e.message);
        assert!(e.message.contains("in two teams"));
        let e = assemble(
            &rec(vec![team(1, "A", vec![1, 2, 3]), team(3, "B", vec![])]),
            &state,
        )
        .unwrap_err();
        assert_eq!(e.line, 2, "TPN 3 of 2 teams: {}", e.message);
        let ok = assemble(
            &rec(vec![team(2, "B", vec![2]), team(1, "A", vec![1, 3])]),
            &state,
        )
        .unwrap();
        assert_eq!(ok.teams.iter().map(|t| t.tpn).collect::<Vec<_>>(), [1, 2]);
        assert!(ok.rounds.is_empty(), "no games: no rounds");
    }
}
