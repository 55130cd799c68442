//! A bridge event as a PBN 2.1 file (pure, text out), and a reader for its score tables.
//!
//! One game per board played: the identification tags (`Event`, `Site`, `Date`, `Board`, the
//! four player tags, `Dealer`, `Vulnerable`, `Deal` when the hand record is known, `Scoring`,
//! `Declarer`, `Contract`, `Result`), then the board's double-dummy analysis when it is in
//! (`DoubleDummyTricks`: 20 hexadecimal digits, declarers N, S, E, W, each NT, S, H, D, C;
//! `OptimumScore` `NS 420`; `ParContract` `NS 4S`; the `[OptimumResultTable]` of §5.7, one row
//! a declarer and strain), then the board's results as a `[ScoreTable]` (PBN 2.1 §5.2/§5.9 table syntax: the tag value lists the columns as
//! `Name\widthAlignment`, separated by `;`; one row per line, values separated by spaces, a
//! value with a space in double quotes, `-` for no value). The first game also holds the
//! event's `[TotalScoreTable]` (§5.10). Tag values and quoted table values are escaped
//! (backslash and double quote).
//!
//! A game is one board, not one table, so the tags of one table's play have no single value:
//! PBN 2.1 §3.4 writes an unknown value as `?` (`[Declarer "?"]`, `[Contract "?"]`,
//! `[Result "?"]`, the player tags `[North "?"]`); an empty value would mean "not applicable",
//! which readers take for a passed-out board. The results are all in the score table.
//!
//! Score table columns: `Round`, `Table`, `PairId_NS`, `PairId_EW` (the pairs holding the NS
//! and EW cards), `Contract` (`4SX`, `Pass`), `Declarer`, `Result` (tricks taken), `Lead`,
//! `Score_NS`, `Score_EW` (the score of the side that scored, `-` for the other), then
//! `MP_NS`, `MP_EW`, `Percentage_NS`, `Percentage_EW` (matchpoints; percentages with two
//! decimals) or `IMP_NS`, `IMP_EW` (Butler, cross-IMPs, and teams and Swiss events, where the
//! pair columns hold team or pair numbers). The totals of a teams or Swiss event are its VP
//! standings (`Rank`, `TeamId`, `TotalVP`, `IMPsWon`, `IMPsLost`, `Names`). Sections scored
//! across the field write one game per board with every section's rows, each row's `Section`
//! (the section's letter) first, and the overall ranking with a `Section` column.
//! An assigned score has no contract; a split score fills both `Score_NS` and `Score_EW`
//! (each side's own score); an artificial adjusted score writes each side's `A+`, `A` or `A-`
//! in `Score_NS` / `Score_EW`.

use super::analysis::{DealAnalysis, STRAINS};
use super::scoring::{deal_string, parse_adjusted, pbn_escape, Seat};
use super::traveller::{BridgeStandingEntry, BridgeStandings, Outcome, Traveller, TravellerLine};

/// The totals of the event: a pairs event's standings, or a teams or Swiss event's VP
/// standings.
#[derive(Debug, Clone, Copy)]
pub enum PbnTotals<'a> {
    Pairs(&'a BridgeStandings),
    Matches(&'a [MatchTotal]),
    /// Sections scored across the field: the overall ranking, each pair with its section.
    Field(&'a FieldTotals),
}

/// The overall ranking of sections scored across the field.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldTotals {
    pub method: super::session::Method,
    /// (section letter, the ranking's direction `NS`/`EW` or none, the pair's entry).
    pub entries: Vec<(String, Option<&'static str>, BridgeStandingEntry)>,
}

/// One contestant of a teams or Swiss event in the VP standings.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchTotal {
    pub rank: String,
    /// Team (or pair) number.
    pub number: u32,
    pub vps: f64,
    pub imps_won: u32,
    pub imps_lost: u32,
    pub name: String,
}

/// The event as the file names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PbnEvent<'a> {
    pub name: &'a str,
    /// `YYYY.MM.DD`, or None (written `????.??.??`).
    pub date: Option<String>,
}

fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[{name} \"{}\"]\r\n", pbn_escape(value)));
}

/// A table value: quoted when it holds a space or a quote, `-` when empty.
fn cell(v: &str) -> String {
    if v.is_empty() {
        "-".into()
    } else if v.contains([' ', '"', '\\']) {
        format!("\"{}\"", pbn_escape(v))
    } else {
        v.to_string()
    }
}

/// Writes a table: the tag, then one line per row with each value padded to its column.
fn table(out: &mut String, name: &str, columns: &[(&str, usize, bool)], rows: &[Vec<String>]) {
    let spec: Vec<String> = columns
        .iter()
        .map(|(c, w, right)| format!("{c}\\{w}{}", if *right { "R" } else { "L" }))
        .collect();
    // The column list is our own text (no quotes), written as PBN files show it: `Rank\3R`.
    out.push_str(&format!("[{name} \"{}\"]\r\n", spec.join(";")));
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(columns)
            .map(|(v, (_, w, right))| {
                if *right {
                    format!("{v:>w$}")
                } else {
                    format!("{v:<w$}")
                }
            })
            .collect();
        out.push_str(cells.join(" ").trim_end());
        out.push_str("\r\n");
    }
}

fn num(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into())
}

fn score_cells(l: &TravellerLine) -> (String, String) {
    if let Some(a) = &l.adjusted {
        if let Ok((ns, ew)) = parse_adjusted(a) {
            return (ns.symbol().to_string(), ew.symbol().to_string());
        }
    }
    match (l.ns_score, l.ew_score) {
        // A split score: each side's own score.
        (Some(ns), Some(ew)) => (ns.to_string(), (-ew).to_string()),
        (Some(s), None) if s >= 0 => (s.to_string(), "-".into()),
        (Some(s), None) => ("-".into(), (-s).to_string()),
        _ => ("-".into(), "-".into()),
    }
}

fn score_row(l: &TravellerLine, imps: bool) -> Vec<String> {
    let (score_ns, score_ew) = score_cells(l);
    let contract = match l.contract.as_deref() {
        Some("PASS") => "Pass".to_string(),
        Some(c) => c.to_string(),
        None => "-".into(),
    };
    let played = l.declarer.is_some();
    let mut row = vec![
        l.round.to_string(),
        l.table.to_string(),
        l.ns_pair.to_string(),
        l.ew_pair.to_string(),
        contract,
        l.declarer
            .map(|d| d.to_string())
            .unwrap_or_else(|| "-".into()),
        if played {
            l.tricks
                .map(|t| t.to_string())
                .unwrap_or_else(|| "-".into())
        } else {
            "-".into()
        },
        cell(l.lead.as_deref().unwrap_or_default()),
        score_ns,
        score_ew,
    ];
    if imps {
        row.extend([num(l.ns_imps), num(l.ew_imps)]);
    } else {
        row.extend([
            num(l.ns_mp),
            num(l.ew_mp),
            num(l.ns_percent),
            num(l.ew_percent),
        ]);
    }
    row
}

/// A board's double-dummy analysis as PBN tags and the optimum result table (nothing while
/// the analysis is pending).
fn write_analysis(out: &mut String, analysis: Option<&DealAnalysis>) {
    let Some((dd, par)) = analysis.and_then(|a| Some((a.double_dummy?, a.par.as_ref()?))) else {
        return;
    };
    tag(out, "DoubleDummyTricks", &dd.to_pbn());
    tag(out, "OptimumScore", &par.optimum_score());
    tag(out, "ParContract", &par.par_contract());
    let columns = [
        ("Declarer", 1, false),
        ("Denomination", 2, true),
        ("Result", 2, true),
    ];
    let rows: Vec<Vec<String>> = [Seat::N, Seat::S, Seat::E, Seat::W]
        .iter()
        .flat_map(|&seat| {
            let tricks = dd.declarer(seat).as_array();
            STRAINS
                .iter()
                .zip(tricks)
                .map(move |(strain, t)| vec![seat.to_string(), strain.to_string(), t.to_string()])
        })
        .collect();
    table(out, "OptimumResultTable", &columns, &rows);
}

/// The whole event as PBN text (CRLF line ends; import format, since a board without a hand
/// record has no `[Deal]`).
pub fn write_pbn(event: &PbnEvent, travellers: &[Traveller], totals: PbnTotals) -> String {
    let (imps, scoring) = match totals {
        PbnTotals::Pairs(s) => (
            s.method.is_imps(),
            match s.method {
                super::session::Method::Matchpoints => "MP",
                super::session::Method::Butler => "IMP;Butler",
                super::session::Method::CrossImps => "IMP;Cross",
            },
        ),
        PbnTotals::Matches(_) => (true, "IMP"),
        PbnTotals::Field(f) => (
            f.method.is_imps(),
            match f.method {
                super::session::Method::Matchpoints => "MP",
                super::session::Method::Butler => "IMP;Butler",
                super::session::Method::CrossImps => "IMP;Cross",
            },
        ),
    };
    // a field scored across sections: every row names its section first
    let sections = travellers
        .iter()
        .flat_map(|t| &t.results)
        .any(|l| l.section.is_some());
    let mut out = String::from("% PBN 2.1\r\n% Written by tourney\r\n");
    let date = event.date.clone().unwrap_or_else(|| "????.??.??".into());
    let mut score_columns: Vec<(&str, usize, bool)> = Vec::new();
    if sections {
        score_columns.push(("Section", 2, false));
    }
    score_columns.extend([
        ("Round", 2, true),
        ("Table", 2, true),
        ("PairId_NS", 2, true),
        ("PairId_EW", 2, true),
        ("Contract", 4, false),
        ("Declarer", 1, true),
        ("Result", 2, true),
        ("Lead", 3, false),
        ("Score_NS", 5, true),
        ("Score_EW", 5, true),
    ]);
    if imps {
        score_columns.extend([("IMP_NS", 6, true), ("IMP_EW", 6, true)]);
    } else {
        score_columns.extend([
            ("MP_NS", 6, true),
            ("MP_EW", 6, true),
            ("Percentage_NS", 3, true),
            ("Percentage_EW", 3, true),
        ]);
    }
    let played: Vec<&Traveller> = travellers
        .iter()
        .filter(|t| !t.results.is_empty() || t.deal.is_some())
        .collect();
    for (k, t) in played.iter().enumerate() {
        if k > 0 {
            out.push_str("\r\n");
        }
        tag(&mut out, "Event", event.name);
        tag(&mut out, "Site", "");
        tag(&mut out, "Date", &date);
        tag(&mut out, "Board", &t.board.to_string());
        for seat in ["West", "North", "East", "South"] {
            tag(&mut out, seat, "?");
        }
        tag(&mut out, "Dealer", &t.dealer.to_string());
        tag(&mut out, "Vulnerable", t.vulnerability.pbn_name());
        if let Some(d) = &t.deal {
            let hands = [
                d.north.clone(),
                d.east.clone(),
                d.south.clone(),
                d.west.clone(),
            ];
            tag(&mut out, "Deal", &deal_string(&hands));
        }
        tag(&mut out, "Scoring", scoring);
        tag(&mut out, "Declarer", "?");
        tag(&mut out, "Contract", "?");
        tag(&mut out, "Result", "?");
        write_analysis(&mut out, t.analysis.as_ref());
        let rows: Vec<Vec<String>> = t
            .results
            .iter()
            .map(|l| {
                let row = score_row(l, imps);
                if sections {
                    let mut with = vec![cell(l.section.as_deref().unwrap_or_default())];
                    with.extend(row);
                    with
                } else {
                    row
                }
            })
            .collect();
        table(&mut out, "ScoreTable", &score_columns, &rows);
        if k == 0 {
            match totals {
                PbnTotals::Pairs(s) => write_totals(&mut out, s),
                PbnTotals::Matches(m) => write_match_totals(&mut out, m),
                PbnTotals::Field(f) => write_field_totals(&mut out, f),
            }
        }
    }
    out
}

/// The overall ranking of a field: `[TotalScoreTable]` with each pair's `Section` first.
fn write_field_totals(out: &mut String, totals: &FieldTotals) {
    let imps = totals.method.is_imps();
    let mut columns: Vec<(&str, usize, bool)> = vec![
        ("Rank", 3, true),
        ("Section", 2, false),
        ("PairId", 2, true),
        ("Direction", 2, false),
    ];
    if imps {
        columns.push(("TotalIMP", 7, true));
    } else {
        columns.extend([("TotalScoreMP", 7, true), ("TotalPercentage", 6, true)]);
    }
    columns.extend([("NrBoards", 2, true), ("Names", 40, false)]);
    let rows: Vec<Vec<String>> = totals
        .entries
        .iter()
        .map(|(section, direction, e)| {
            let mut row = vec![
                e.rank.clone(),
                cell(section),
                e.pair.to_string(),
                direction.or(e.line).unwrap_or("-").to_string(),
                format!("{:.2}", e.total),
            ];
            if !imps {
                row.push(num(e.percent));
            }
            row.push(e.boards.to_string());
            row.push(format!(
                "\"{}\"",
                pbn_escape(e.name.as_deref().unwrap_or_default())
            ));
            row
        })
        .collect();
    table(out, "TotalScoreTable", &columns, &rows);
}

fn write_totals(out: &mut String, totals: &BridgeStandings) {
    let imps = totals.method.is_imps();
    let mut columns: Vec<(&str, usize, bool)> = vec![
        ("Rank", 3, true),
        ("PairId", 2, true),
        ("Direction", 2, false),
    ];
    if imps {
        columns.push(("TotalIMP", 7, true));
    } else {
        columns.extend([("TotalScoreMP", 7, true), ("TotalPercentage", 6, true)]);
    }
    columns.extend([("NrBoards", 2, true), ("Names", 40, false)]);
    let rows: Vec<Vec<String>> = totals
        .rankings
        .iter()
        .flat_map(|r| {
            r.entries.iter().map(move |e| {
                let mut row = vec![
                    e.rank.clone(),
                    e.pair.to_string(),
                    r.direction.or(e.line).unwrap_or("-").to_string(),
                    format!("{:.2}", e.total),
                ];
                if !imps {
                    row.push(num(e.percent));
                }
                row.push(e.boards.to_string());
                row.push(format!(
                    "\"{}\"",
                    pbn_escape(e.name.as_deref().unwrap_or_default())
                ));
                row
            })
        })
        .collect();
    table(out, "TotalScoreTable", &columns, &rows);
}

/// The event as one PBN game per table result (`?games=tables`): each game a table's play of
/// a board (`Round`, `Table`, the board's deal), its `Declarer`, `Contract` and `Result` (tricks
/// taken) and its `Score` (`NS 420`). A passed-out board is `[Contract "Pass"]` with an empty
/// declarer and result (not applicable); an assigned or adjusted score has `?` there (nothing
/// was played) and its score in `Score` (`NS -100`, `NS A+ EW A-`). Readers that take one game
/// per table (as a played-games database does) read the session this way.
pub fn write_pbn_tables(event: &PbnEvent, travellers: &[Traveller], scoring: &str) -> String {
    let mut out = String::from("% PBN 2.1\r\n% Written by tourney\r\n");
    let date = event.date.clone().unwrap_or_else(|| "????.??.??".into());
    let mut first = true;
    for t in travellers {
        for l in &t.results {
            if !first {
                out.push_str("\r\n");
            }
            first = false;
            tag(&mut out, "Event", event.name);
            tag(&mut out, "Site", "");
            tag(&mut out, "Date", &date);
            tag(&mut out, "Round", &l.round.to_string());
            tag(&mut out, "Table", &l.table.to_string());
            tag(&mut out, "Board", &t.board.to_string());
            for seat in ["West", "North", "East", "South"] {
                tag(&mut out, seat, "?");
            }
            tag(&mut out, "Dealer", &t.dealer.to_string());
            tag(&mut out, "Vulnerable", t.vulnerability.pbn_name());
            if let Some(d) = &t.deal {
                let hands = [
                    d.north.clone(),
                    d.east.clone(),
                    d.south.clone(),
                    d.west.clone(),
                ];
                tag(&mut out, "Deal", &deal_string(&hands));
            }
            tag(&mut out, "Scoring", scoring);
            let (declarer, contract, result) = match (l.contract.as_deref(), l.declarer) {
                (Some("PASS"), _) => (String::new(), "Pass".to_string(), String::new()),
                (Some(c), Some(d)) => (
                    d.to_string(),
                    c.to_string(),
                    l.tricks
                        .map(|t| t.to_string())
                        .unwrap_or_else(|| "?".into()),
                ),
                _ => ("?".into(), "?".into(), "?".into()),
            };
            tag(&mut out, "Declarer", &declarer);
            tag(&mut out, "Contract", &contract);
            tag(&mut out, "Result", &result);
            let (ns, ew) = score_cells(l);
            let score = match (l.adjusted.is_some(), l.ns_score, l.ew_score) {
                (true, _, _) => format!("NS {ns} EW {ew}"),
                (false, Some(s), None) => format!("NS {s}"),
                (false, Some(s), Some(e)) => format!("NS {s} EW {}", -e),
                _ => "?".into(),
            };
            tag(&mut out, "Score", &score);
        }
    }
    out
}

fn write_match_totals(out: &mut String, totals: &[MatchTotal]) {
    let columns: Vec<(&str, usize, bool)> = vec![
        ("Rank", 3, true),
        ("TeamId", 2, true),
        ("TotalVP", 6, true),
        ("IMPsWon", 4, true),
        ("IMPsLost", 4, true),
        ("Names", 40, false),
    ];
    let rows: Vec<Vec<String>> = totals
        .iter()
        .map(|t| {
            vec![
                t.rank.clone(),
                t.number.to_string(),
                format!("{:.2}", t.vps),
                t.imps_won.to_string(),
                t.imps_lost.to_string(),
                format!("\"{}\"", pbn_escape(&t.name)),
            ]
        })
        .collect();
    table(out, "TotalScoreTable", &columns, &rows);
}

/// One row of a score table read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreTableRow {
    pub board: u32,
    pub round: Option<u32>,
    pub table: Option<u32>,
    /// The pairs holding the NS and EW cards.
    pub ns_pair: u32,
    pub ew_pair: u32,
    pub outcome: Outcome,
}

/// Splits a table line into values: double-quoted strings (`\"` and `\\` escaped, any other
/// backslash kept, as in `Rank\3R`) or
/// runs of non-space characters.
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                        s.push(chars.next().unwrap_or_default())
                    }
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => return Err("a quoted value is not closed".into()),
                }
            }
            out.push(s);
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                s.push(c);
                chars.next();
            }
            out.push(s);
        }
    }
    Ok(out)
}

/// A tag line `[Name "value"]`: (name, unescaped value).
fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = tokens(rest).ok()?.into_iter().next().unwrap_or_default();
    Some((name.to_string(), value))
}

fn score_of(v: &str) -> Result<Option<i32>, String> {
    if v == "-" || v.is_empty() {
        return Ok(None);
    }
    v.parse()
        .map(Some)
        .map_err(|_| format!("{v:?} is not a score"))
}

/// Reads the `[ScoreTable]` rows of a PBN file written by [`write_pbn`] (columns found by
/// name). Errors name the line.
pub fn read_score_tables(text: &str) -> Result<Vec<ScoreTableRow>, String> {
    let mut rows = Vec::new();
    let mut board: Option<u32> = None;
    let mut columns: Option<Vec<String>> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |m: String| format!("line {}: {m}", n + 1);
        if line.is_empty() || line.starts_with('%') {
            columns = None;
            continue;
        }
        if line.starts_with('[') {
            let (name, value) = read_tag(line).ok_or_else(|| at("not a tag".into()))?;
            columns = None;
            match name.as_str() {
                "Board" => board = Some(value.parse().map_err(|_| at(format!("board {value:?}")))?),
                "ScoreTable" => {
                    columns = Some(
                        value
                            .split(';')
                            .map(|c| c.split('\\').next().unwrap_or_default().to_string())
                            .collect(),
                    )
                }
                _ => {}
            }
            continue;
        }
        let Some(cols) = &columns else { continue };
        let values = tokens(line).map_err(at)?;
        let get = |name: &str| -> &str {
            cols.iter()
                .position(|c| c == name)
                .and_then(|i| values.get(i))
                .map_or("-", String::as_str)
        };
        let number = |name: &str| -> Result<Option<u32>, String> {
            match get(name) {
                "-" => Ok(None),
                v => v.parse().map(Some).map_err(|_| at(format!("{name} {v:?}"))),
            }
        };
        let board = board.ok_or_else(|| at("a score table before any [Board]".into()))?;
        let (score_ns, score_ew) = (get("Score_NS"), get("Score_EW"));
        let adjusted = score_ns
            .starts_with('A')
            .then(|| parse_adjusted(&format!("{score_ns}/{score_ew}")))
            .transpose()
            .map_err(|e| at(e.message))?;
        let (ns_score, ew_score) = if adjusted.is_some() {
            (None, None)
        } else {
            match (
                score_of(score_ns).map_err(at)?,
                score_of(score_ew).map_err(at)?,
            ) {
                (Some(ns), Some(ew)) => (Some(ns), Some(-ew)),
                (Some(ns), None) => (Some(ns), None),
                (None, Some(ew)) => (Some(-ew), None),
                (None, None) => return Err(at("a row without a score".into())),
            }
        };
        let contract = match get("Contract") {
            "-" => None,
            "Pass" | "PASS" => Some("PASS".to_string()),
            c => Some(c.to_string()),
        };
        let declarer = match get("Declarer") {
            "-" => None,
            d => Some(d.parse::<Seat>().map_err(|e| at(e.message))?),
        };
        let tricks = number("Result")?
            .map(|t| u8::try_from(t).map_err(|_| at(format!("{t} tricks"))))
            .transpose()?;
        let lead = match get("Lead") {
            "-" => None,
            l => Some(l.to_string()),
        };
        let (Some(ns_pair), Some(ew_pair)) = (number("PairId_NS")?, number("PairId_EW")?) else {
            return Err(at("a row without PairId_NS and PairId_EW".into()));
        };
        rows.push(ScoreTableRow {
            board,
            round: number("Round")?,
            table: number("Table")?,
            ns_pair,
            ew_pair,
            outcome: Outcome {
                contract,
                declarer,
                tricks,
                lead,
                ns_score,
                ew_score,
                adjusted: adjusted.map(|(a, b)| format!("{}/{}", a.symbol(), b.symbol())),
            },
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::{Adjusted, Vulnerability};
    use crate::engine::bridge::session::Method;
    use crate::engine::bridge::traveller::{
        BridgeRanking, BridgeStandingEntry, HandRecord, Traveller,
    };

    fn line(round: u32, table: u32, ns: u32, ew: u32) -> TravellerLine {
        TravellerLine {
            round,
            table,
            ns_pair: ns,
            ew_pair: ew,
            ns_id: None,
            ew_id: None,
            contract: None,
            declarer: None,
            tricks: None,
            result: None,
            lead: None,
            ns_score: None,
            ew_score: None,
            adjusted: None,
            ns_mp: Some(1.0),
            ew_mp: Some(1.0),
            ns_percent: Some(50.0),
            ew_percent: Some(50.0),
            ns_imps: None,
            ew_imps: None,
            section: None,
        }
    }

    fn session() -> (Vec<Traveller>, BridgeStandings) {
        let played = TravellerLine {
            contract: Some("4SX".into()),
            declarer: Some(Seat::W),
            tricks: Some(9),
            lead: Some("HK".into()),
            ns_score: Some(300),
            ..line(1, 1, 1, 1)
        };
        let passed = TravellerLine {
            contract: Some("PASS".into()),
            ns_score: Some(0),
            ..line(2, 2, 2, 3)
        };
        let assigned = TravellerLine {
            ns_score: Some(-420),
            ..line(1, 3, 3, 2)
        };
        let split = TravellerLine {
            ns_score: Some(-420),
            ew_score: Some(-620),
            ..line(2, 1, 1, 3)
        };
        let adjusted = TravellerLine {
            adjusted: Some(format!(
                "{}/{}",
                Adjusted::AveragePlus.symbol(),
                Adjusted::AverageMinus.symbol()
            )),
            ..line(3, 1, 2, 1)
        };
        let travellers = vec![
            Traveller {
                board: 1,
                dealer: Seat::N,
                vulnerability: Vulnerability::None,
                deal: Some(HandRecord {
                    north: "AKQJ.AKQ.AKQ.AKQ".into(),
                    east: "T98.JT9.JT9.JT98".into(),
                    south: "765.876.876.7654".into(),
                    west: "432.5432.5432.32".into(),
                }),
                analysis: None,
                across_the_field: None,
                top: Some(2.0),
                datum: None,
                results: vec![played, passed, assigned],
            },
            Traveller {
                board: 2,
                dealer: Seat::E,
                vulnerability: Vulnerability::Ns,
                deal: None,
                analysis: None,
                across_the_field: None,
                top: Some(2.0),
                datum: None,
                results: vec![split, adjusted],
            },
        ];
        let totals = BridgeStandings {
            method: Method::Matchpoints,
            scale: None,
            across_the_field: None,
            rankings: vec![BridgeRanking {
                direction: Some("NS"),
                entries: vec![BridgeStandingEntry {
                    rank: "1".into(),
                    pair: 1,
                    line: None,
                    participant_id: Some(7),
                    name: Some("Smith \"Jr\" - Jones".into()),
                    total: 3.0,
                    percent: Some(75.0),
                    boards: 2,
                }],
            }],
        };
        (travellers, totals)
    }

    #[test]
    fn the_score_tables_read_back_as_written() {
        let (travellers, totals) = session();
        let event = PbnEvent {
            name: "Tuesday \"Pairs\"",
            date: Some("2026.11.24".into()),
        };
        let text = write_pbn(&event, &travellers, PbnTotals::Pairs(&totals));
        assert!(text.contains("[Event \"Tuesday \\\"Pairs\\\"\"]"));
        assert!(text.contains("[Deal \"N:AKQJ.AKQ.AKQ.AKQ "));
        assert!(text.contains("[Vulnerable \"NS\"]"));
        assert!(text.contains("[TotalScoreTable \"Rank\\3R;PairId\\2R;Direction\\2L;"));
        assert!(text.contains("\"Smith \\\"Jr\\\" - Jones\""));
        let rows = read_score_tables(&text).unwrap();
        let expected: Vec<ScoreTableRow> = travellers
            .iter()
            .flat_map(|t| {
                t.results.iter().map(|l| ScoreTableRow {
                    board: t.board,
                    round: Some(l.round),
                    table: Some(l.table),
                    ns_pair: l.ns_pair,
                    ew_pair: l.ew_pair,
                    outcome: Outcome {
                        contract: l.contract.clone(),
                        declarer: l.declarer,
                        tricks: l.tricks,
                        lead: l.lead.clone(),
                        ns_score: l.ns_score,
                        ew_score: l.ew_score,
                        adjusted: l.adjusted.clone(),
                    },
                })
            })
            .collect();
        assert_eq!(rows, expected);
    }

    #[test]
    fn unknown_play_tags_are_question_marks_and_the_analysis_is_written() {
        use crate::engine::bridge::analysis::{DdTable, DealAnalysis};
        use crate::engine::bridge::scoring::Vulnerability;
        let (mut travellers, totals) = session();
        let dd = DdTable::from_pbn("89a7b45a6a89a7b45a6a").unwrap();
        travellers[0].analysis = Some(DealAnalysis::of(Some(dd), Vulnerability::None, Seat::N));
        let event = PbnEvent {
            name: "x",
            date: None,
        };
        let text = write_pbn(&event, &travellers, PbnTotals::Pairs(&totals));
        for t in ["Declarer", "Contract", "Result", "North"] {
            assert!(text.contains(&format!("[{t} \"?\"]")), "{t}");
            assert!(!text.contains(&format!("[{t} \"\"]")), "{t}");
        }
        assert!(text.contains("[DoubleDummyTricks \"89a7b45a6a89a7b45a6a\"]"));
        assert!(text.contains("[OptimumScore \"NS "));
        assert!(text.contains("[OptimumResultTable \"Declarer\\1L;Denomination\\2R;Result\\2R\"]\r\nN NT  8\r\nN  S  9\r\n"));
        // board 2 has no analysis: no optimum tags in its game
        let second = &text[text.find("[Board \"2\"]").unwrap()..];
        assert!(!second.contains("DoubleDummyTricks"));
        // percentages to two decimals
        assert!(text.contains(" 50.00"));
    }

    #[test]
    fn one_game_per_table() {
        let (travellers, _) = session();
        let text = write_pbn_tables(
            &PbnEvent {
                name: "x",
                date: None,
            },
            &travellers,
            "MP",
        );
        assert_eq!(text.matches("[Board ").count(), 5);
        assert!(text.contains(
            "[Declarer \"W\"]\r\n[Contract \"4SX\"]\r\n[Result \"9\"]\r\n[Score \"NS 300\"]"
        ));
        assert!(text.contains("[Declarer \"\"]\r\n[Contract \"Pass\"]\r\n[Result \"\"]"));
        assert!(text.contains("[Contract \"?\"]\r\n[Result \"?\"]\r\n[Score \"NS -420\"]"));
        assert!(text.contains("[Score \"NS A+ EW A-\"]"));
        assert!(text.contains("[Round \"2\"]\r\n[Table \"1\"]"));
    }

    #[test]
    fn reader_errors_name_the_line() {
        let text =
            "[Board \"1\"]\n[ScoreTable \"PairId_NS;PairId_EW;Score_NS;Score_EW\"]\n1 1 x -\n";
        let e = read_score_tables(text).unwrap_err();
        assert!(e.starts_with("line 3:"), "{e}");
    }
}
