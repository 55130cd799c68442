//! FIDE TRF import and export (TRF-16 with the usual extensions).
//!
//! Read:
//! * `001` player lines (fixed columns: start number 5–8, sex 10, title 11–13, name 15–47,
//!   rating 49–52, federation 54–56, FIDE id 58–68, birth date 70–79, points 81–84, rank
//!   86–89, then one 10-column block per round from column 92:
//!   opponent (4), colour `w`/`b`/`-`, result). Results: `1` `0` `=` (played), `W` `L` `D`
//!   (played, unrated), `+` `-` (forfeits), and with opponent `0000`: `U` (pairing bye),
//!   `F` (full-point bye), `H` (half-point bye), `Z` or `-` or blank (zero-point bye).
//! * a last round column holding only `0000 … H/Z/F` entries is the requests for the round
//!   to be paired (`0000 - H` = half-point bye requested, `Z` = absent, `F` = full point);
//! * `XXR n` or `142 n`: number of rounds; `XXC white1|black1` or `152 w|b`: colour of the
//!   top player on board 1 in round 1;
//! * `240 T R s1 s2 …`: byes of type T (`F`, `H`, `Z`) requested for round R (only round
//!   R = the round to be paired is used);
//! * `260 RRR LLL s1 s2 …` (TRF-2026: rounds RRR to LLL) or `XXP s1 s2 …`: these players may
//!   not be paired with each other (a `260` applies only when the round to pair is in range);
//! * team records give the players' team codes: TRF-2026 `310` (team name in columns 9–40,
//!   match points 55–60, member start numbers from column 74) and TRF-16 `013` (team name in
//!   columns 5–36, members from column 37);
//! * a **team Swiss** file is refused by name, never read as an individual event: one with a
//!   record only team competitions have (`300` board order, `320` a team's pairing-allocated
//!   bye, `330` forfeited matches, `352` board colours, `362` match points system), a `310`
//!   team with match points, or `082` giving a number of teams (`POST /api/v1/events/trf`
//!   reads such a file as a team Swiss event: [`crate::engine::chess::team_swiss::trf`]);
//! * the tournament lines (012 name, 022 city, 042 dates, 092 type, 102 arbiters…) are read
//!   by the `trf_header` module beside this one; every other line is ignored.
//!
//! Every error starts `line N:` (0 = the file as a whole); a state that reads but cannot be
//! paired is reported at the line at fault too (see [`TrfLines::locate`]).
//!
//! Lines may end in CR, LF or CRLF.

use super::state::{
    Colour, RequestedBye, RoundRecord, RoundResult, SwissPlayer, SwissSettings, SwissState,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The largest start number a TRF file holds (columns 5-8).
pub const MAX_TRF_START_NUMBER: u32 = 9_999;

/// A TRF file could not be read: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TrfError {
    /// Line number, 1-based (0 = the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrfError {}

fn e(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// Columns `from..=to` (1-based, inclusive) of a line, trimmed.
pub(crate) fn col(chars: &[char], from: usize, to: usize) -> String {
    if from > chars.len() {
        return String::new();
    }
    chars[from - 1..to.min(chars.len())]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

struct Cell {
    opponent: u32,
    colour: char,
    result: char,
}

/// The text of a TRF file as read from disk or the network: UTF-8 when the bytes are valid
/// UTF-8, else ISO-8859-1 (Latin-1, what older Windows programs write: every byte is one
/// character, so the fixed columns stay in place). A byte-order mark is dropped.
pub fn decode_trf(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    };
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// Where the facts of a TRF file were read: to report a fault found later (when the state is
/// paired) at its line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrfLines {
    /// The `XXR` / `142` line (number of rounds).
    pub rounds: Option<usize>,
    /// The `001` line of each player, in the order of the state's players.
    pub players: Vec<usize>,
}

impl TrfLines {
    /// The error of a state read from this file, at the line at fault: a player's field at
    /// his `001` line, the round or the number of rounds at the `XXR` line (else the last
    /// player line, after which the round would be written), anything else at line 0.
    pub fn locate(&self, err: &super::state::SwissError) -> TrfError {
        let f = err.field.as_str();
        let player = f
            .strip_prefix("players[")
            .and_then(|rest| rest.split(']').next())
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| self.players.get(i).copied());
        let line = match player {
            Some(l) => l,
            None if f == "round" || f == "settings.total_rounds" => self
                .rounds
                .or_else(|| self.players.last().copied())
                .unwrap_or(0),
            None => 0,
        };
        e(line, err.to_string())
    }
}

/// Parses a TRF file into a state (settings other than rounds, first colour and prohibited
/// pairs are the defaults; the caller overlays the section's own).
pub fn parse_trf(text: &str) -> Result<SwissState, TrfError> {
    parse_trf_located(text).map(|(state, _)| state)
}

/// Records only a team competition has, by their code.
const TEAM_ONLY: [(&str, &str); 5] = [
    ("300", "a team's board order"),
    ("320", "a team's pairing-allocated bye"),
    ("330", "a forfeited team match"),
    ("352", "the board colours of team matches"),
    ("362", "the match points of team matches"),
];

fn team_swiss(ln: usize, what: &str) -> TrfError {
    e(
        ln,
        format!("this is a team Swiss file ({what}); tourney pairs individual Swiss sections only, so it is not read as one"),
    )
}

/// [`parse_trf`], with the lines the facts were read at.
pub fn parse_trf_located(text: &str) -> Result<(SwissState, TrfLines), TrfError> {
    let lines: Vec<&str> = text
        .split("\r\n")
        .flat_map(|l| l.split(['\r', '\n']))
        .collect();
    let mut settings = SwissSettings::default();
    let mut players: Vec<(usize, SwissPlayer, Vec<Option<Cell>>)> = Vec::new();
    let mut byes240: Vec<(usize, char, u32, Vec<u32>)> = Vec::new();
    #[allow(clippy::type_complexity)]
    let mut groups: Vec<(usize, Option<(u32, u32)>, Vec<u32>)> = Vec::new();
    let mut teams: Vec<(usize, String, Vec<u32>)> = Vec::new();
    let mut rounds_line = None;
    for (k, raw) in lines.iter().enumerate() {
        let ln = k + 1;
        let chars: Vec<char> = raw.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        let code: String = chars.iter().take(3).collect();
        let rest = col(&chars, 4, chars.len());
        let nums = |s: &str| -> Result<Vec<u32>, TrfError> {
            s.split_whitespace()
                .map(|t| {
                    t.parse::<u32>()
                        .map_err(|_| e(ln, format!("`{t}` is not a start number")))
                })
                .collect()
        };
        match code.as_str() {
            "001" => players.push(parse_player(ln, &chars)?),
            "XXR" | "142" => {
                rounds_line = Some(ln);
                let max = crate::limits::MAX_ROUNDS;
                settings.total_rounds = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .parse()
                    .ok()
                    .filter(|r| (1..=max).contains(r))
                    .ok_or_else(|| {
                        e(
                            ln,
                            format!("number of rounds `{rest}` is not a number from 1 to {max}"),
                        )
                    })?;
            }
            "XXC" | "152" => {
                let v = rest.to_ascii_lowercase();
                settings.first_colour = if v.starts_with("white") || v == "w" || v.starts_with("w ")
                {
                    Some(Colour::White)
                } else if v.starts_with("black") || v == "b" || v.starts_with("b ") {
                    Some(Colour::Black)
                } else {
                    None
                };
            }
            "240" => {
                let mut it = rest.split_whitespace();
                let t = it
                    .next()
                    .and_then(|t| t.chars().next())
                    .ok_or_else(|| e(ln, "240 needs a bye type"))?
                    .to_ascii_uppercase();
                if !"FHZU".contains(t) {
                    return Err(e(ln, format!("unknown bye type `{t}` (F, H, Z)")));
                }
                let r: u32 = it
                    .next()
                    .unwrap_or("")
                    .parse()
                    .map_err(|_| e(ln, "240 needs a round number"))?;
                let list = nums(&it.collect::<Vec<_>>().join(" "))?;
                byes240.push((ln, t, r, list));
            }
            // TRF-2026: `260 RRR LLL p1 p2 …` (first and last round, then the players);
            // a line with fewer than four numbers is read as players only, like `XXP`.
            "260" => {
                let all = nums(&rest)?;
                if all.len() >= 4 {
                    groups.push((ln, Some((all[0], all[1])), all[2..].to_vec()));
                } else {
                    groups.push((ln, None, all));
                }
            }
            "XXP" => groups.push((ln, None, nums(&rest)?)),
            // TRF-2026 team record: number 5-7, name 9-40, match points 55-60, game points
            // 62-67, rank 69-71, members from column 74.
            "310" => {
                let name = col(&chars, 9, 40);
                let match_points = col(&chars, 55, 60);
                if match_points.parse::<f64>().is_ok_and(|m| m > 0.0) {
                    return Err(team_swiss(
                        ln,
                        &format!("`310` team record of {name} with {match_points} match points"),
                    ));
                }
                let members = col(&chars, 74, chars.len());
                let members = nums(&members).map_err(|err| {
                    e(
                        ln,
                        format!(
                            "`310` team record: {} (members from column 74)",
                            err.message
                        ),
                    )
                })?;
                teams.push((ln, name, members));
            }
            // TRF-16 team record: name 5-36, members from column 37.
            "013" => {
                let name = col(&chars, 5, 36);
                let members = nums(&col(&chars, 37, chars.len())).map_err(|err| {
                    e(
                        ln,
                        format!(
                            "`013` team record: {} (members from column 37)",
                            err.message
                        ),
                    )
                })?;
                teams.push((ln, name, members));
            }
            "082" => {
                if rest.parse::<u32>().is_ok_and(|n| n > 0) {
                    return Err(team_swiss(ln, &format!("`082`: {rest} teams")));
                }
            }
            c => {
                if let Some((code, what)) = TEAM_ONLY.iter().find(|(code, _)| *code == c) {
                    return Err(team_swiss(ln, &format!("`{code}` record: {what}")));
                }
            }
        }
    }
    if players.is_empty() {
        return Err(e(0, "no 001 player line"));
    }
    // Unique start numbers.
    let mut index = std::collections::HashMap::new();
    for (i, (ln, p, _)) in players.iter().enumerate() {
        if index.insert(p.start_number, i).is_some() {
            return Err(e(
                *ln,
                format!("start number {} appears twice", p.start_number),
            ));
        }
    }
    // Which columns are played rounds, which (if any) is the next round's requests.
    let ncols = players.iter().map(|p| p.2.len()).max().unwrap_or(0);
    let last_is_requests = ncols > 0
        && players.iter().all(|(_, _, cells)| match cells.get(ncols - 1) {
            None | Some(None) => true,
            Some(Some(c)) => c.opponent == 0 && "HZFU-".contains(c.result),
        })
        && players.iter().any(|(_, _, cells)| matches!(cells.get(ncols - 1), Some(Some(c)) if "HZF".contains(c.result)));
    let played = if last_is_requests { ncols - 1 } else { ncols };
    let mut requested = Vec::new();
    for (ln, p, cells) in players.iter_mut() {
        for r in 0..played {
            let rec = match cells.get(r) {
                None | Some(None) => RoundRecord {
                    opponent: None,
                    colour: None,
                    result: RoundResult::ZeroBye,
                },
                Some(Some(c)) => record(*ln, r, c, p.start_number, &index)?,
            };
            p.history.push(rec);
        }
        if last_is_requests {
            if let Some(Some(c)) = cells.get(played) {
                let points = match c.result {
                    'H' => Some(0.5),
                    'F' => Some(1.0),
                    'Z' => Some(0.0),
                    _ => None,
                };
                if let Some(points) = points {
                    requested.push(RequestedBye {
                        player: p.start_number,
                        points,
                    });
                }
            }
        }
    }
    let round = played as u32 + 1;
    for (ln, t, r, list) in byes240 {
        for sn in list {
            if !index.contains_key(&sn) {
                return Err(e(ln, format!("unknown start number {sn}")));
            }
            if r == round && !requested.iter().any(|b: &RequestedBye| b.player == sn) {
                let points = match t {
                    'F' => 1.0,
                    'H' => 0.5,
                    _ => 0.0,
                };
                requested.push(RequestedBye { player: sn, points });
            }
        }
    }
    for (ln, rounds, list) in groups {
        for &x in &list {
            if !index.contains_key(&x) {
                return Err(e(ln, format!("unknown start number {x}")));
            }
        }
        if rounds.is_some_and(|(first, last)| round < first || round > last) {
            continue;
        }
        for i in 0..list.len() {
            for j in i + 1..list.len() {
                settings.prohibited_pairs.push([list[i], list[j]]);
            }
        }
    }
    for (ln, name, members) in teams {
        for sn in members {
            let Some(&i) = index.get(&sn) else {
                return Err(e(ln, format!("unknown start number {sn}")));
            };
            players[i].1.team = Some(name.clone());
        }
    }
    let located = TrfLines {
        rounds: rounds_line,
        players: players.iter().map(|(ln, _, _)| *ln).collect(),
    };
    let state = SwissState {
        settings,
        players: players.into_iter().map(|(_, p, _)| p).collect(),
        round: None,
        requested_byes: requested,
        absent: vec![],
    };
    // A fault of one player is reported at the player's line.
    state
        .validate_history()
        .map_err(|err| located.locate(&err))?;
    Ok((state, located))
}

fn parse_player(
    ln: usize,
    chars: &[char],
) -> Result<(usize, SwissPlayer, Vec<Option<Cell>>), TrfError> {
    let sn_s = col(chars, 5, 8);
    let start_number: u32 = sn_s.parse().map_err(|_| {
        e(
            ln,
            format!("start number `{sn_s}` (columns 5-8) is not a number"),
        )
    })?;
    let rating_s = col(chars, 49, 52);
    let rating: u32 = if rating_s.is_empty() {
        0
    } else {
        rating_s.parse().map_err(|_| {
            e(
                ln,
                format!("rating `{rating_s}` (columns 49-52) is not a number"),
            )
        })?
    };
    let mut cells = Vec::new();
    let mut start = 92;
    while start <= chars.len() {
        let block = col(chars, start, start + 7);
        if block.is_empty() {
            cells.push(None);
        } else {
            let opp_s = col(chars, start, start + 3);
            let opponent: u32 = if opp_s.is_empty() {
                0
            } else {
                opp_s.parse().map_err(|_| {
                    e(
                        ln,
                        format!(
                            "round {}: opponent `{opp_s}` (columns {}-{}) is not a number",
                            cells.len() + 1,
                            start,
                            start + 3
                        ),
                    )
                })?
            };
            let colour = chars
                .get(start + 4)
                .copied()
                .unwrap_or(' ')
                .to_ascii_lowercase();
            let result = chars
                .get(start + 6)
                .copied()
                .unwrap_or(' ')
                .to_ascii_uppercase();
            if !"wb- ".contains(colour) {
                return Err(e(
                    ln,
                    format!(
                        "round {}: colour `{colour}` (column {}) must be w, b or -",
                        cells.len() + 1,
                        start + 5
                    ),
                ));
            }
            cells.push(Some(Cell {
                opponent,
                colour,
                result,
            }));
        }
        start += 10;
    }
    let field = |from, to| Some(col(chars, from, to)).filter(|v| !v.is_empty());
    let player = SwissPlayer {
        start_number,
        name: col(chars, 15, 47),
        rating,
        team: None,
        unrated: rating == 0,
        history: Vec::new(),
        withdrawn: false,
        adjustment_half_points: 0,
        sex: field(10, 10),
        title: field(11, 13),
        federation: field(54, 56),
        fide_id: field(58, 68),
        birth_date: field(70, 79),
    };
    Ok((ln, player, cells))
}

fn record(
    ln: usize,
    r: usize,
    c: &Cell,
    own: u32,
    index: &std::collections::HashMap<u32, usize>,
) -> Result<RoundRecord, TrfError> {
    let colour = match c.colour {
        'w' => Some(Colour::White),
        'b' => Some(Colour::Black),
        _ => None,
    };
    if c.opponent == 0 {
        let result = match c.result {
            'U' | '+' => RoundResult::PairingBye,
            'F' => RoundResult::FullBye,
            'H' | '=' => RoundResult::HalfBye,
            'Z' | '-' | '0' | ' ' => RoundResult::ZeroBye,
            x => {
                return Err(e(
                    ln,
                    format!("round {}: result `{x}` needs an opponent", r + 1),
                ))
            }
        };
        return Ok(RoundRecord {
            opponent: None,
            colour: None,
            result,
        });
    }
    if !index.contains_key(&c.opponent) {
        return Err(e(
            ln,
            format!("round {}: unknown opponent {}", r + 1, c.opponent),
        ));
    }
    if c.opponent == own {
        return Err(e(
            ln,
            format!("round {}: player {own} is paired against himself", r + 1),
        ));
    }
    let result = match c.result {
        '1' | 'W' => RoundResult::Win,
        '0' | 'L' => RoundResult::Loss,
        '=' | 'D' => RoundResult::Draw,
        '+' => RoundResult::ForfeitWin,
        '-' => RoundResult::ForfeitLoss,
        x => return Err(e(ln, format!("round {}: unknown result `{x}`", r + 1))),
    };
    if matches!(
        result,
        RoundResult::Win | RoundResult::Loss | RoundResult::Draw
    ) && colour.is_none()
    {
        return Err(e(
            ln,
            format!("round {}: a played game needs colour w or b", r + 1),
        ));
    }
    Ok(RoundRecord {
        opponent: Some(c.opponent),
        colour,
        result,
    })
}

/// Writes a state as a TRF-16 file (LF line ends) that other TRF readers accept: `012`,
/// `XXR`, `XXC`, `001` lines with points and rank, requested byes of the next round as
/// `0000 - H|Z|F` in the next column, and TRF-2026 `260` lines (from the round to pair to the
/// last round) for prohibited pairs.
///
/// A player's sex, title, federation, FIDE id and birth date are written in their TRF-16
/// columns (10, 11–13 right-aligned, 54–56, 58–68 right-aligned, 70–79), blank when unknown.
///
/// Text from users (the tournament's and the players' names, the player fields above) is
/// written as one field: every control character (a line break would start a forged line)
/// becomes a space, and a value is cut to its columns (a name to 33) without splitting a
/// letter from its accent, an emoji sequence or a flag ([`cut_at`]), so whatever got into a
/// name, the file has exactly one `001` line per player and every column stays in place.
pub fn write_trf(state: &SwissState, tournament_name: &str) -> String {
    let mut out = String::new();
    let tournament_name = trf_text(tournament_name, usize::MAX);
    if !tournament_name.trim().is_empty() {
        out.push_str(&format!("012 {}\n", tournament_name.trim()));
    }
    out.push_str(&write_players(state, None));
    out
}

/// `XXR`, `XXC`, the `001` lines and the `260` lines; the rank column from `ranks`, else by
/// score, rating and start number.
pub(crate) fn write_players(state: &SwissState, ranks: Option<&[u32]>) -> String {
    let mut out = String::new();
    if state.settings.total_rounds > 0 {
        out.push_str(&format!("XXR {}\n", state.settings.total_rounds));
    }
    if let Some(c) = state.settings.first_colour {
        out.push_str(if c == Colour::White {
            "XXC white1\n"
        } else {
            "XXC black1\n"
        });
    }
    let score = |p: &SwissPlayer| {
        p.history
            .iter()
            .map(|r| r.result.half_points() as i64)
            .sum::<i64>()
            + p.adjustment_half_points as i64
    };
    let mut order: Vec<usize> = (0..state.players.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&state.players[a], &state.players[b]);
        score(pb)
            .cmp(&score(pa))
            .then(pb.rating.cmp(&pa.rating))
            .then(pa.start_number.cmp(&pb.start_number))
    });
    let mut rank = vec![0; state.players.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k + 1;
    }
    if let Some(given) = ranks.filter(|r| r.len() == state.players.len()) {
        for (i, &r) in given.iter().enumerate() {
            rank[i] = r as usize;
        }
    }
    let mut sorted: Vec<usize> = (0..state.players.len()).collect();
    sorted.sort_by_key(|&i| state.players[i].start_number);
    for i in sorted {
        let p = &state.players[i];
        let name = trf_text(&p.name, 33);
        let field = |value: &Option<String>, width| trf_text(value.as_deref().unwrap_or(""), width);
        let rating = if p.rating > 0 {
            format!("{:>4}", p.rating)
        } else {
            "    ".into()
        };
        let pts = score(p) as f64 / 2.0;
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {} {:<3} {:>11} {:<10} {:>4.1} {:>4}",
            p.start_number,
            field(&p.sex, 1),
            field(&p.title, 3),
            name,
            rating,
            field(&p.federation, 3),
            field(&p.fide_id, 11),
            field(&p.birth_date, 10),
            pts,
            rank[i]
        );
        for rec in &p.history {
            let opp = rec
                .opponent
                .map_or("0000".to_string(), |o| format!("{o:>4}"));
            let c = match rec.colour {
                Some(Colour::White) if rec.opponent.is_some() => 'w',
                Some(Colour::Black) if rec.opponent.is_some() => 'b',
                _ => '-',
            };
            let r = match rec.result {
                RoundResult::Win => '1',
                RoundResult::Loss => '0',
                RoundResult::Draw => '=',
                RoundResult::ForfeitWin => '+',
                RoundResult::ForfeitLoss => '-',
                RoundResult::PairingBye => 'U',
                RoundResult::FullBye => 'F',
                RoundResult::HalfBye => 'H',
                RoundResult::ZeroBye => 'Z',
            };
            line.push_str(&format!("  {opp} {c} {r}"));
        }
        if let Some(b) = state
            .requested_byes
            .iter()
            .find(|b| b.player == p.start_number)
        {
            let r = if b.points == 1.0 {
                'F'
            } else if b.points == 0.5 {
                'H'
            } else {
                'Z'
            };
            line.push_str(&format!("  0000 - {r}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let round = state.round_to_pair();
    let last = state.settings.total_rounds.max(round);
    for pp in &state.settings.prohibited_pairs {
        out.push_str(&format!(
            "260 {round:>3} {last:>3} {:>4} {:>4}\n",
            pp[0], pp[1]
        ));
    }
    out
}

/// User text as one TRF field: control characters as spaces, at most `width` characters,
/// cut where a reader sees a break between characters (see [`cut_at`]).
pub(crate) fn trf_text(text: &str, width: usize) -> String {
    let chars: Vec<char> = text
        .chars()
        .map(|c| if crate::limits::is_control(c) { ' ' } else { c })
        .collect();
    chars[..cut_at(&chars, width)].iter().collect()
}

/// How many of `chars` to keep to hold at most `width` of them without splitting what a
/// reader sees as one character: the cut backs off while the character after it is a
/// combining mark (U+0300–036F, U+1AB0–1AFF, U+1DC0–1DFF, U+20D0–20FF, U+FE20–FE2F), a
/// variation selector (U+FE00–FE0F), an emoji skin-tone modifier (U+1F3FB–1F3FF) or a
/// zero-width joiner (U+200D), while the one before it is a joiner (its follower belongs to
/// it), and while the one after it is the second regional indicator of a flag.
pub(crate) fn cut_at(chars: &[char], width: usize) -> usize {
    let regional = |c: char| ('\u{1F1E6}'..='\u{1F1FF}').contains(&c);
    let clings = |c: char| {
        matches!(c,
            '\u{0300}'..='\u{036F}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{1F3FB}'..='\u{1F3FF}'
            | '\u{200D}')
    };
    let mut k = width.min(chars.len());
    while k > 0 && k < chars.len() {
        let (before, after) = (chars[k - 1], chars[k]);
        // regional indicators pair from the first of a run: an odd number of them before
        // the cut means the one after it completes a flag
        let splits_flag = regional(after)
            && chars[..k]
                .iter()
                .rev()
                .take_while(|&&c| regional(c))
                .count()
                % 2
                == 1;
        if clings(after) || before == '\u{200D}' || splits_flag {
            k -= 1;
        } else {
            break;
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9: a name with a line break forged a player line. Even a name that got in before
    /// names were checked (an old database, a hand-made state) cannot add a line now.
    #[test]
    fn a_line_break_in_a_name_cannot_forge_a_player() {
        let mut s = parse_trf(HEAD).unwrap();
        s.players[0].name =
            "Evil\n001    9      Forged Player                     2999\r\nXXR 99".into();
        let text = write_trf(&s, "Open\n001    8      Also forged");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("001")).count(),
            3,
            "{text}"
        );
        assert!(!text.contains("XXR 99"));
        let again = parse_trf(&text).unwrap();
        assert_eq!(again.players.len(), 3);
        assert_eq!(again.settings.total_rounds, 5);
        assert!(again.players[0].name.starts_with("Evil 001"));
        assert_eq!(again.players[0].rating, 2100, "the columns stay in place");
    }

    #[test]
    fn planned_rounds_beyond_the_limit_are_refused_at_their_line() {
        for xxr in ["XXR 1000000", "XXR 100", "XXR 0", "142 4294967296"] {
            let text = HEAD.replace("XXR 5", xxr);
            let err = parse_trf(&text).unwrap_err();
            assert_eq!(err.line, 2, "{xxr}");
        }
        assert_eq!(
            parse_trf(&HEAD.replace("XXR 5", "XXR 99"))
                .unwrap()
                .settings
                .total_rounds,
            99
        );
    }

    const HEAD: &str = "012 T\nXXR 5\n\
001    1      A                                 2100                             1.0    1     2 w 1\n\
001    2      B                                 2000                             0.0    2     1 b 0\n\
001    3      C                                 1900                             1.0    3  0000 - U\n";

    #[test]
    fn prohibited_pairs_of_trf_2026_apply_in_their_rounds() {
        // round 2 is the one to pair: 1-3 prohibited in rounds 1-2, 2-3 only in rounds 4-5
        let text = format!("{HEAD}260   1   2    1    3\n260   4   5    2    3\n");
        let s = parse_trf(&text).unwrap();
        assert_eq!(s.settings.prohibited_pairs, vec![[1, 3]]);
        // and the writer emits the TRF-2026 form, which reads back the same
        let again = parse_trf(&write_trf(&s, "T")).unwrap();
        assert_eq!(again.settings.prohibited_pairs, vec![[1, 3]]);
        assert!(write_trf(&s, "T").contains("260   2   5    1    3\n"));
        // unknown players are named with their line
        let bad = format!("{HEAD}260   1   2    1    9\n");
        assert_eq!(parse_trf(&bad).unwrap_err().line, 6);
    }

    #[test]
    fn latin_1_files_and_byte_order_marks_keep_their_columns() {
        // "Müller" in Latin-1: one byte for ü, so the rating stays in columns 49-52
        let line = "001    1      M\u{fc}ller, Hans                      2100\n";
        let latin1: Vec<u8> = line.chars().map(|c| c as u8).collect();
        let text = decode_trf(&latin1);
        let s = parse_trf(&text).unwrap();
        assert_eq!(s.players[0].name, "Müller, Hans");
        assert_eq!(s.players[0].rating, 2100);
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(line.as_bytes());
        let s = parse_trf(&decode_trf(&bom)).unwrap();
        assert_eq!(s.players[0].name, "Müller, Hans");
        assert_eq!(s.players[0].rating, 2100);
    }
}
