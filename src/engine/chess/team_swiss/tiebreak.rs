//! The team tie-breaks of the FIDE Tie-Break Regulations (Handbook C.07) for a team Swiss:
//! the ordered list a director chooses, each computed over the matches of the teams.
//!
//! ## Scores
//! A team scores two ways in every round: match points (MP: 2 a match won, 1 drawn, 0 lost)
//! and game points (GP: its boards' points). The competition names the **primary** score
//! (MP by default, or GP: C.04.6 1.2); the standings rank by it, then by the list. A
//! pairing-allocated bye (PAB) scores a drawn match (1 MP and half the boards), as C.04.6
//! 1.4 gives it. MP are counted in MP, GP in half-points.
//!
//! ## Codes
//! | code | what | modifiers |
//! | --- | --- | --- |
//! | `MP`, `GP` | the score itself (the one not primary breaks ties: `GP` after MP) | |
//! | `MPvGP` | the score that is not the primary one (`GP` with MP primary, `MP` with GP primary) | |
//! | `BH:MP`, `BH:GP` | Buchholz of that score (C.07 art. 8.1); `BH` alone: of the primary | `/C1` `/C2` `/M1` `/M2` |
//! | `SB:MP`, `SB:GP` | Sonneborn-Berger (art. 9.1): opponent's score × own score in that match, both of that kind; `SB` alone: of the primary | `/C1` `/C2` |
//! | `EMMSB`, `EMGSB`, `EGMSB`, `EGGSB` (also `ESB:MG`…) | extended Sonneborn-Berger: the first letter the opponent's score, the second the team's own in that match (`EMGSB`: opponent's MP × own GP) | `/C1` `/C2` |
//! | `EDE` | extended direct encounter: direct encounter (art. 6) among the tied teams by the primary score, then by the other score, in turn until neither splits a tie | |
//! | `WIN` | matches won, played or not (art. 7.1 for teams) | |
//! | `TPN` | team pairing number, lower first (art. 7.8) | |
//!
//! Codes are read whatever their case. `SB:MP` is `EMMSB` and `SB:GP` is `EGGSB`.
//!
//! ## Unplayed rounds (art. 16, for teams as for players)
//! A forfeited match and a round without an opponent (PAB, full-, half- or zero-point bye, an
//! absence) are unplayed. A **voluntarily unplayed round** (VUR, art. 16.1) is an unplayed
//! round not scored as a match win, the PAB excepted (art. 16.2.1). As an opponent a team
//! counts with its **adjusted score** (16.3): its VURs without opponent after its last round
//! that is not one count as drawn matches. A team's own unplayed rounds count in Buchholz and
//! Sonneborn-Berger against a **dummy** (16.4): under the 2023 text with the team's own
//! score; under the 2026 text no more than the scheduled opponent's adjusted score for a
//! forfeit (16.4.1) and no more than a draw in every round otherwise (16.4.2). Cuts follow
//! art. 14 and 16.5 ([`crate::engine::chess::fide_tiebreak`], the same code).
//!
//! ### Worked example (the tests hold Held's team exercises)
//! Team 1 of IA Mario Held's team exercises (14 teams, 4 boards, 7 rounds) met teams with
//! 7, 10, 7 (adjusted: 6 MP and a zero-point bye in the last round counted as a draw), 10,
//! 10 and 10 MP, and won a forfeit in round 6: under the 2023 text the dummy has team 1's own
//! 10 MP, so `BH:MP` = 64; `BH:MP/C1` cuts round 1's 7: 57.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::event::RoundRecord;
use crate::engine::chess::fide_tiebreak::{cut, Element};
use crate::engine::chess::tiebreak_order::TiebreakRules;

/// A team score: match points or game points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TeamScore)]
pub enum Score {
    MatchPoints,
    GamePoints,
}

impl Score {
    pub fn other(self) -> Score {
        match self {
            Score::MatchPoints => Score::GamePoints,
            Score::GamePoints => Score::MatchPoints,
        }
    }

    /// Units per point: MP whole, GP in half-points.
    pub fn unit(self) -> i64 {
        match self {
            Score::MatchPoints => 1,
            Score::GamePoints => 2,
        }
    }

    fn letter(c: char) -> Option<Score> {
        match c {
            'M' => Some(Score::MatchPoints),
            'G' => Some(Score::GamePoints),
            _ => None,
        }
    }

    fn suffix(text: &str) -> Option<Score> {
        match text {
            "MP" => Some(Score::MatchPoints),
            "GP" => Some(Score::GamePoints),
            _ => None,
        }
    }
}

/// A round as one team lived it. `mp` in match points, `gp` in half-points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamCell {
    /// A match played over the boards.
    Played { opponent: usize, mp: u32, gp: u32 },
    /// A match forfeited, won or lost (a double forfeit is lost by both).
    Forfeit { opponent: usize, mp: u32, gp: u32 },
    /// A round without an opponent: `allocated` for the PAB; a full-, half- or zero-point bye
    /// or an absence otherwise.
    Bye { mp: u32, gp: u32, allocated: bool },
}

impl TeamCell {
    pub fn points(self, s: Score) -> i64 {
        let (TeamCell::Played { mp, gp, .. }
        | TeamCell::Forfeit { mp, gp, .. }
        | TeamCell::Bye { mp, gp, .. }) = self;
        match s {
            Score::MatchPoints => mp as i64,
            Score::GamePoints => gp as i64,
        }
    }

    fn opponent(self) -> Option<usize> {
        match self {
            TeamCell::Played { opponent, .. } | TeamCell::Forfeit { opponent, .. } => {
                Some(opponent)
            }
            TeamCell::Bye { .. } => None,
        }
    }

    /// Art. 16.1: unplayed and not scored as a match win; the PAB is never voluntary.
    fn voluntary(self) -> bool {
        match self {
            TeamCell::Played { .. } => false,
            TeamCell::Forfeit { mp, .. } => mp < 2,
            TeamCell::Bye { mp, allocated, .. } => !allocated && mp < 2,
        }
    }
}

/// Each team's rounds `1..=R`, indexed `[team][round - 1]` (team = TPN − 1).
#[derive(Debug, Clone)]
pub struct TeamRows {
    pub cells: Vec<Vec<TeamCell>>,
    pub boards: u32,
}

impl TeamRows {
    /// The rows of `n` teams from a team Swiss's finished rounds: matches played and the PAB;
    /// a team in neither is absent.
    pub fn from_records(n: usize, rounds: &[RoundRecord], boards: u32) -> TeamRows {
        let absent = TeamCell::Bye {
            mp: 0,
            gp: 0,
            allocated: false,
        };
        let mut cells = vec![vec![absent; rounds.len()]; n];
        for (k, r) in rounds.iter().enumerate() {
            if let Some(b) = r.bye {
                cells[b as usize - 1][k] = TeamCell::Bye {
                    mp: 1,
                    gp: boards,
                    allocated: true,
                };
            }
            for m in &r.matches {
                let (mw, mb) = m.match_points();
                let (w, b) = (m.white as usize - 1, m.black as usize - 1);
                cells[w][k] = TeamCell::Played {
                    opponent: b,
                    mp: mw,
                    gp: m.white_half,
                };
                cells[b][k] = TeamCell::Played {
                    opponent: w,
                    mp: mb,
                    gp: m.black_half,
                };
            }
        }
        TeamRows { cells, boards }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    fn rounds(&self) -> usize {
        self.cells.first().map_or(0, Vec::len)
    }

    /// A drawn match in that score.
    fn draw(&self, s: Score) -> i64 {
        match s {
            Score::MatchPoints => 1,
            Score::GamePoints => self.boards as i64,
        }
    }

    pub fn total(&self, t: usize, s: Score) -> i64 {
        self.cells[t].iter().map(|c| c.points(s)).sum()
    }

    /// Art. 16.3: VURs without opponent after the team's last round that is not one count
    /// as drawn matches.
    fn adjusted(&self, t: usize, s: Score) -> i64 {
        let row = &self.cells[t];
        let last = row
            .iter()
            .rposition(|c| !c.voluntary())
            .map_or(0, |k| k + 1);
        row.iter()
            .enumerate()
            .map(|(k, c)| {
                if k < last || c.opponent().is_some() {
                    c.points(s)
                } else {
                    self.draw(s)
                }
            })
            .sum()
    }
}

/// What a team tie-break computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamCode {
    /// A score (`MP`, `GP`); `None`: the one that is not primary (`MPvGP`).
    Points(Option<Score>),
    /// Buchholz of a score (`None`: the primary).
    Buchholz(Option<Score>),
    /// Sonneborn-Berger: the opponent's score times the team's own in that match.
    SonnebornBerger {
        opponent: Option<Score>,
        own: Option<Score>,
    },
    ExtendedDirectEncounter,
    Wins,
    PairingNumber,
}

/// A team tie-break with its modifiers, and the text it was asked by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamTiebreak {
    pub code: TeamCode,
    pub cut_low: u32,
    pub cut_high: u32,
    pub text: String,
}

/// The most team tie-breaks a list holds.
pub const MAX_TEAM_TIEBREAKS: usize = 12;

/// The list when the event names none: with MP primary `GP`, `BH:MP`, `SB:MP`; with GP
/// primary `MP`, `BH:GP`, `SB:GP`.
pub fn default_list(primary: Score) -> Vec<TeamTiebreak> {
    let codes: [&str; 3] = match primary {
        Score::MatchPoints => ["GP", "BH:MP", "SB:MP"],
        Score::GamePoints => ["MP", "BH:GP", "SB:GP"],
    };
    codes
        .iter()
        .map(|c| TeamTiebreak::parse(c).expect("default codes parse"))
        .collect()
}

impl TeamTiebreak {
    /// Reads a team tie-break (`BH:MP/C1`, `EMGSB`, `EDE`); the message says what is wrong.
    pub fn parse(text: &str) -> Result<TeamTiebreak, String> {
        const KNOWN: &str = "MP, GP, MPvGP, BH[:MP|:GP], SB[:MP|:GP], EMMSB, EMGSB, EGMSB, \
                             EGGSB, ESB:MM|MG|GM|GG, EDE, WIN, TPN";
        let upper = text.trim().to_ascii_uppercase();
        let mut parts = upper.split('/');
        let head = parts.next().unwrap_or_default();
        let (name, kind) = match head.split_once(':') {
            Some((n, k)) => (n, Some(k)),
            None => (head, None),
        };
        let unknown = || format!("unknown team tie-break `{text}`; codes: {KNOWN}");
        let point_kind = |k: Option<&str>| -> Result<Option<Score>, String> {
            match k {
                None => Ok(None),
                Some(k) => Score::suffix(k)
                    .map(Some)
                    .ok_or_else(|| format!("`{text}`: the score after `:` is MP or GP")),
            }
        };
        let extended = |pair: &str| -> Option<TeamCode> {
            let mut c = pair.chars();
            let (o, s) = (Score::letter(c.next()?)?, Score::letter(c.next()?)?);
            c.next().is_none().then_some(TeamCode::SonnebornBerger {
                opponent: Some(o),
                own: Some(s),
            })
        };
        let code = match name {
            "MP" | "MPTS" if kind.is_none() => TeamCode::Points(Some(Score::MatchPoints)),
            "GP" | "GPTS" if kind.is_none() => TeamCode::Points(Some(Score::GamePoints)),
            "MPVGP" if kind.is_none() => TeamCode::Points(None),
            "BH" => TeamCode::Buchholz(point_kind(kind)?),
            "SB" => {
                let s = point_kind(kind)?;
                TeamCode::SonnebornBerger {
                    opponent: s,
                    own: s,
                }
            }
            "ESB" => kind.and_then(extended).ok_or_else(unknown)?,
            "EMMSB" | "EMGSB" | "EGMSB" | "EGGSB" if kind.is_none() => {
                extended(&name[1..3]).ok_or_else(unknown)?
            }
            "EDE" if kind.is_none() => TeamCode::ExtendedDirectEncounter,
            "WIN" if kind.is_none() => TeamCode::Wins,
            "TPN" if kind.is_none() => TeamCode::PairingNumber,
            _ => return Err(unknown()),
        };
        let mut tb = TeamTiebreak {
            code,
            cut_low: 0,
            cut_high: 0,
            text: text.trim().to_string(),
        };
        for m in parts {
            let takes_median = matches!(code, TeamCode::Buchholz(_));
            let takes_cut = takes_median || matches!(code, TeamCode::SonnebornBerger { .. });
            match m {
                "C1" | "C2" if takes_cut && tb.cut_low == 0 => {
                    tb.cut_low = m[1..].parse().unwrap_or(0);
                }
                "M1" | "M2" if takes_median && tb.cut_low == 0 => {
                    let n = m[1..].parse().unwrap_or(0);
                    tb.cut_low = n;
                    tb.cut_high = n;
                }
                _ => {
                    return Err(format!(
                        "`{text}`: the modifier `/{m}` does not apply (BH takes one of /C1 /C2 \
                         /M1 /M2, SB one of /C1 /C2, the others none)"
                    ))
                }
            }
        }
        Ok(tb)
    }

    /// Units per point of the value: MP whole, GP in half-points, products multiply.
    pub fn unit(&self, primary: Score) -> i64 {
        let r = |s: Option<Score>| s.unwrap_or(primary);
        match self.code {
            TeamCode::Points(Some(s)) => s.unit(),
            TeamCode::Points(None) => primary.other().unit(),
            TeamCode::Buchholz(s) => r(s).unit(),
            TeamCode::SonnebornBerger { opponent, own } => r(opponent).unit() * r(own).unit(),
            _ => 1,
        }
    }
}

/// Each team's value of a tie-break in its units (see [`TeamTiebreak::unit`]); `None` for
/// `EDE`, which orders a tie and has no value of its own.
pub fn values(
    rows: &TeamRows,
    primary: Score,
    tb: &TeamTiebreak,
    rules: TiebreakRules,
) -> Vec<Option<i64>> {
    let r = |s: Option<Score>| s.unwrap_or(primary);
    let n = rows.len();
    match tb.code {
        TeamCode::Points(s) => {
            let s = s.unwrap_or(primary.other());
            (0..n).map(|t| Some(rows.total(t, s))).collect()
        }
        TeamCode::Buchholz(s) => contributions(rows, r(s), None, tb, rules),
        TeamCode::SonnebornBerger { opponent, own } => {
            contributions(rows, r(opponent), Some(r(own)), tb, rules)
        }
        TeamCode::ExtendedDirectEncounter => vec![None; n],
        TeamCode::Wins => (0..n)
            .map(|t| {
                Some(
                    rows.cells[t]
                        .iter()
                        .filter(|c| c.points(Score::MatchPoints) == 2)
                        .count() as i64,
                )
            })
            .collect(),
        TeamCode::PairingNumber => (0..n).map(|t| Some(-(t as i64 + 1))).collect(),
    }
}

/// Buchholz (`own` = None) or Sonneborn-Berger of each team, cut as asked.
fn contributions(
    rows: &TeamRows,
    opp: Score,
    own: Option<Score>,
    tb: &TeamTiebreak,
    rules: TiebreakRules,
) -> Vec<Option<i64>> {
    let n = rows.len();
    let r = rows.rounds();
    let adjusted: Vec<i64> = (0..n).map(|t| rows.adjusted(t, opp)).collect();
    (0..n)
        .map(|t| {
            let mine = rows.total(t, opp);
            let mut elements: Vec<Element> = rows.cells[t]
                .iter()
                .map(|&cell| {
                    let score = match (cell, rules) {
                        (TeamCell::Played { opponent, .. }, _) => adjusted[opponent],
                        (_, TiebreakRules::C2023) => mine,
                        (TeamCell::Forfeit { opponent, .. }, TiebreakRules::C2026) => {
                            mine.min(adjusted[opponent])
                        }
                        (_, TiebreakRules::C2026) => mine.min(rows.draw(opp) * r as i64),
                    };
                    Element {
                        vur: cell.voluntary(),
                        score,
                        value: own.map_or(score, |s| score * cell.points(s)),
                    }
                })
                .collect();
            let low = (tb.cut_low as usize).min(r);
            let high = (tb.cut_high as usize).min(r - low);
            cut(&mut elements, low, high);
            Some(elements.iter().map(|e| e.value).sum())
        })
        .collect()
}

/// Direct encounter (art. 6) among `group` in score `s`: the ordered parts, each still tied.
/// Only matches played over the boards are meetings (a Swiss). Everyone met: by the score
/// against the group. Not everyone met: going down by score then maximum (the score plus a
/// match won against every team of the group not met), a team is placed alone while its
/// score beats every maximum below it; the rest stay tied. Each smaller tie is split again.
fn direct_encounter(rows: &TeamRows, group: &[usize], s: Score) -> Vec<Vec<usize>> {
    if group.len() < 2 {
        return vec![group.to_vec()];
    }
    let win = 2 * rows.draw(s);
    let facts: Vec<(usize, i64, i64)> = group
        .iter()
        .map(|&t| {
            let mut score = 0;
            let mut met = 0;
            for c in &rows.cells[t] {
                if let TeamCell::Played { opponent, .. } = *c {
                    if group.contains(&opponent) {
                        score += c.points(s);
                        met += 1;
                    }
                }
            }
            let max = score + (group.len() as i64 - 1 - met) * win;
            (t, score, max)
        })
        .collect();
    let everyone_met = facts.iter().all(|f| f.1 == f.2);
    let mut ordered = facts.clone();
    ordered.sort_by_key(|&(t, score, max)| (std::cmp::Reverse(score), std::cmp::Reverse(max), t));
    let mut parts: Vec<Vec<usize>> = Vec::new();
    if everyone_met {
        for &(t, score, _) in &ordered {
            match parts.last_mut() {
                Some(p) if facts.iter().any(|f| f.0 == p[0] && f.1 == score) => p.push(t),
                _ => parts.push(vec![t]),
            }
        }
    } else {
        let mut i = 0;
        while i < ordered.len() {
            let beats_rest = ordered[i + 1..].iter().all(|f| ordered[i].1 > f.2);
            if !beats_rest {
                parts.push(ordered[i..].iter().map(|f| f.0).collect());
                break;
            }
            parts.push(vec![ordered[i].0]);
            i += 1;
        }
    }
    parts
        .into_iter()
        .flat_map(|p| {
            if p.len() > 1 && p.len() < group.len() {
                direct_encounter(rows, &p, s)
            } else {
                vec![p]
            }
        })
        .collect()
}

/// `EDE`: direct encounter by the primary score, then by the other, and again in turn on
/// the ties left, until neither splits any more (the order of FIDE TEC's TieBreakServer).
fn extended_direct_encounter(
    rows: &TeamRows,
    group: Vec<usize>,
    primary: Score,
) -> Vec<Vec<usize>> {
    let mut parts = vec![group];
    let mut s = primary;
    let mut idle = 0;
    while idle < 2 {
        let before = parts.len();
        parts = parts
            .into_iter()
            .flat_map(|p| direct_encounter(rows, &p, s))
            .collect();
        idle = if parts.len() > before { 0 } else { idle + 1 };
        s = s.other();
    }
    parts
}

/// One team's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamLine {
    /// The team (TPN − 1).
    pub team: usize,
    pub rank: u32,
    pub shared: bool,
    /// The primary score, in its units.
    pub primary: i64,
    /// Each tie-break's value in its units (see [`values`]).
    pub values: Vec<Option<i64>>,
}

/// The standings: by the primary score, then the tie-breaks in order; teams still equal
/// share a rank (listed by TPN).
pub fn standings(
    rows: &TeamRows,
    primary: Score,
    list: &[TeamTiebreak],
    rules: TiebreakRules,
) -> Vec<TeamLine> {
    let n = rows.len();
    let all: Vec<Vec<Option<i64>>> = list
        .iter()
        .map(|tb| values(rows, primary, tb, rules))
        .collect();
    let split_by = |groups: Vec<Vec<usize>>, key: &dyn Fn(usize) -> i64| -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for mut g in groups {
            g.sort_by_key(|&t| (std::cmp::Reverse(key(t)), t));
            let mut part: Vec<usize> = Vec::new();
            for t in g {
                if part.last().is_some_and(|&p| key(p) != key(t)) {
                    out.push(std::mem::take(&mut part));
                }
                part.push(t);
            }
            if !part.is_empty() {
                out.push(part);
            }
        }
        out
    };
    let mut groups = split_by(vec![(0..n).collect()], &|t| rows.total(t, primary));
    for (i, tb) in list.iter().enumerate() {
        groups = if tb.code == TeamCode::ExtendedDirectEncounter {
            groups
                .into_iter()
                .flat_map(|g| extended_direct_encounter(rows, g, primary))
                .collect()
        } else {
            split_by(groups, &|t| all[i][t].unwrap_or(i64::MIN))
        };
    }
    let mut lines = Vec::with_capacity(n);
    for mut g in groups {
        let rank = lines.len() as u32 + 1;
        let shared = g.len() > 1;
        g.sort_unstable();
        for t in g {
            lines.push(TeamLine {
                team: t,
                rank,
                shared,
                primary: rows.total(t, primary),
                values: all.iter().map(|v| v[t]).collect(),
            });
        }
    }
    lines
}

#[cfg(test)]
#[path = "tiebreak_tests.rs"]
mod tests;
