//! Reading board results as sent to `POST /api/v1/events/{id}/board-results`: JSON rows or the
//! CSV table terminals export, and checking each row against the event's movement.
//!
//! Errors name the row and field: `results[i].contract` for JSON, `results[i].Contract` (the
//! CSV column) for CSV, where i counts data rows from 0 (the message also gives the line of the
//! file). A CSV header problem names `header`.

mod check;
mod csv;

pub use check::check_rows;
pub use csv::{read_csv, CSV_HEADER};

use serde::Deserialize;
use utoipa::ToSchema;

use crate::engine::bridge::scoring::notation::{
    AssignedScore, EntryAdjusted, EntryContract, EntryLead, EntryResult, EntrySeat, EntrySection,
    Tricks,
};
use crate::engine::bridge::scoring::{
    parse_adjusted, tricks_from_result, Adjusted, Contract, Seat, MAX_SCORE,
};
use crate::engine::bridge::traveller::Outcome;
use crate::error::FieldError;
use crate::limits::schema::MovementNumber;

/// Most rows in one request.
pub const MAX_ROWS: usize = 5000;
/// Longest text in a field (contract, result, lead, section, adjusted score).
use crate::engine::bridge::scoring::notation::MAX_ENTRY_CHARS as MAX_TEXT;

/// One board result. Give either a played contract (`contract`, `declarer`, and `tricks` or
/// `result`), an assigned score (`ns_score`; with `ew_score` for a split score), or an
/// artificial adjusted score (`adjusted`: `A+/A-`, `A=`, ...).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"round": 1, "table": 3, "board": 7, "contract": "4SX", "declarer": "N", "result": "-1", "lead": "HK"}))]
pub struct BoardResultEntry {
    #[schema(value_type = MovementNumber)]
    pub round: u32,
    #[schema(value_type = MovementNumber)]
    pub table: u32,
    #[schema(value_type = MovementNumber)]
    pub board: u32,
    /// Section label, checked when the movement labels its tables.
    #[schema(value_type = Option<EntrySection>)]
    pub section: Option<String>,
    /// The pair at the NS seats and at the EW seats, checked against the movement when given.
    pub ns_pair: Option<u32>,
    pub ew_pair: Option<u32>,
    /// `4SX`, `4 H x`, `3NT`, `PASS`.
    #[schema(value_type = Option<EntryContract>)]
    pub contract: Option<String>,
    /// Declarer's seat: `N`, `E`, `S`, `W`.
    #[schema(value_type = Option<EntrySeat>)]
    pub declarer: Option<String>,
    /// Tricks declarer took (0–13), or `result` relative to the contract.
    #[schema(value_type = Option<Tricks>)]
    pub tricks: Option<u8>,
    /// `=`, `+1`, `-2`.
    #[schema(value_type = Option<EntryResult>)]
    pub result: Option<String>,
    /// Opening lead: suit then rank (`HK`, `S7`, `DT` or `D10`).
    #[schema(value_type = Option<EntryLead>)]
    pub lead: Option<String>,
    /// An assigned score, from NS's viewpoint (a multiple of 10).
    #[schema(value_type = Option<AssignedScore>)]
    pub ns_score: Option<i32>,
    /// With `ns_score`: a split score, the score the EW side is given (from NS's viewpoint).
    #[schema(value_type = Option<AssignedScore>)]
    pub ew_score: Option<i32>,
    /// An artificial adjusted score for each side: `A+/A-`, `A=`, `A-/A-`, ...
    #[schema(value_type = Option<EntryAdjusted>)]
    pub adjusted: Option<String>,
}

/// Board results to store; all are stored or none.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"results": [
    {"round": 1, "table": 1, "board": 1, "contract": "3NT", "declarer": "S", "result": "+1", "lead": "S4"},
    {"round": 1, "table": 2, "board": 1, "ns_score": -100},
    {"round": 1, "table": 3, "board": 1, "adjusted": "A+/A-"}
]}))]
pub struct SubmitBoardResults {
    /// One to 5000 results. A row is a played contract, an assigned score or an adjusted
    /// score (only one of them); a played contract needs its declarer and `tricks` or
    /// `result` (which must fit the contract); `ew_score` comes with `ns_score`. Each row must
    /// name a round, table and board of the event's movement (and, when given, the pairs
    /// sitting there): rules between fields and with the event, refused with 422 naming the row.
    #[schema(min_items = 1, max_items = 5000)]
    pub results: Vec<BoardResultEntry>,
}

/// The name of each field in the request's own language (JSON keys or CSV columns).
#[derive(Debug)]
struct Names {
    round: &'static str,
    table: &'static str,
    board: &'static str,
    section: &'static str,
    ns_pair: &'static str,
    ew_pair: &'static str,
    contract: &'static str,
    declarer: &'static str,
    tricks: &'static str,
    result: &'static str,
    lead: &'static str,
    ns_score: &'static str,
    ew_score: &'static str,
    adjusted: &'static str,
}

const JSON_NAMES: Names = Names {
    round: "round",
    table: "table",
    board: "board",
    section: "section",
    ns_pair: "ns_pair",
    ew_pair: "ew_pair",
    contract: "contract",
    declarer: "declarer",
    tricks: "tricks",
    result: "result",
    lead: "lead",
    ns_score: "ns_score",
    ew_score: "ew_score",
    adjusted: "adjusted",
};

const CSV_NAMES: Names = Names {
    round: "Round",
    table: "Table",
    board: "Board",
    section: "Section",
    ns_pair: "PairNS",
    ew_pair: "PairEW",
    contract: "Contract",
    declarer: "NS/EW",
    tricks: "Result",
    result: "Result",
    lead: "LeadCard",
    ns_score: "Contract",
    ew_score: "Contract",
    adjusted: "Contract",
};

/// What happened at the table, as read (before the board's vulnerability is known).
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Played {
        contract: Contract,
        declarer: Option<Seat>,
        tricks: u8,
    },
    Assigned {
        ns: i32,
        ew: Option<i32>,
    },
    Adjusted {
        ns: Adjusted,
        ew: Adjusted,
    },
}

/// One row read and checked for form.
#[derive(Debug, Clone)]
pub struct ReadRow {
    /// The row's index in the request (JSON rows and CSV data rows alike).
    index: usize,
    round: u32,
    table: u32,
    board: u32,
    section: Option<String>,
    ns_pair: Option<u32>,
    ew_pair: Option<u32>,
    /// CSV `Declarer`: the declaring pair's number.
    declarer_pair: Option<u32>,
    kind: Kind,
    lead: Option<String>,
    names: &'static Names,
    /// Where the row came from, for messages ("line 7: ").
    line: Option<usize>,
}

/// A row checked against the movement, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedRow {
    /// The row's index in the request, and its line in a CSV file.
    pub index: usize,
    pub line: Option<usize>,
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub ns_pair: u32,
    pub ew_pair: u32,
    pub outcome: Outcome,
}

/// Rows read from a request, each with its index.
#[derive(Debug)]
pub struct ReadRows(pub Vec<ReadRow>);

fn at(i: usize, names: &Names, field: fn(&Names) -> &'static str) -> String {
    format!("results[{i}].{}", field(names))
}

fn text(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// The canonical notation of an artificial adjusted score (`A+/A-`, `A/A`).
pub fn adjusted_notation(ns: Adjusted, ew: Adjusted) -> String {
    format!("{}/{}", ns.symbol(), ew.symbol())
}

/// An opening lead in canonical form: suit letter then rank (`HK`, `DT`), or None.
fn lead_card(s: &str) -> Option<String> {
    let up = s.trim().to_ascii_uppercase();
    let mut chars = up.chars();
    let suit = chars.next().filter(|c| "SHDC".contains(*c))?;
    let rank = match chars.as_str() {
        "10" => 'T',
        r if r.len() == 1 && "AKQJT98765432".contains(r) => r.chars().next()?,
        _ => return None,
    };
    Some(format!("{suit}{rank}"))
}

impl ReadRow {
    fn prefix(&self) -> String {
        self.line.map(|l| format!("line {l}: ")).unwrap_or_default()
    }
}

/// Reads one JSON row; errors go to `errors`.
fn read_entry(
    i: usize,
    e: &BoardResultEntry,
    names: &'static Names,
    line: Option<usize>,
    declarer_pair: Option<u32>,
    errors: &mut Vec<FieldError>,
) -> Option<ReadRow> {
    let pre = line.map(|l| format!("line {l}: ")).unwrap_or_default();
    let mut errs: Vec<FieldError> = Vec::new();
    for (value, field) in [
        (
            &e.contract,
            (|n: &Names| n.contract) as fn(&Names) -> &'static str,
        ),
        (&e.declarer, |n| n.declarer),
        (&e.result, |n| n.result),
        (&e.lead, |n| n.lead),
        (&e.section, |n| n.section),
        (&e.adjusted, |n| n.adjusted),
    ] {
        if value.as_ref().is_some_and(|v| v.chars().count() > MAX_TEXT) {
            errs.push(FieldError {
                field: at(i, names, field),
                message: format!("{pre}must be at most {MAX_TEXT} characters"),
            });
        }
    }
    if !errs.is_empty() {
        errors.extend(errs);
        return None;
    }
    let mut bad = |field: fn(&Names) -> &'static str, message: String| {
        errs.push(FieldError {
            field: at(i, names, field),
            message: format!("{pre}{message}"),
        })
    };
    for (v, field) in [
        (e.round, (|n: &Names| n.round) as fn(&Names) -> &'static str),
        (e.table, |n| n.table),
        (e.board, |n| n.board),
    ] {
        if v == 0 {
            bad(field, "must be at least 1".into());
        }
    }
    let lead = match text(&e.lead) {
        None => None,
        Some(l) => match lead_card(l) {
            Some(c) => Some(c),
            None => {
                bad(
                    |n| n.lead,
                    format!("{l:?} is not a card; write the suit then the rank (HK, S7, DT)"),
                );
                None
            }
        },
    };
    let given = [
        text(&e.contract).is_some(),
        e.ns_score.is_some(),
        text(&e.adjusted).is_some(),
    ];
    let kind = match given {
        [true, false, false] => read_played(e, &mut bad),
        [false, true, false] => {
            let mut ok = true;
            for (v, field) in [
                (
                    e.ns_score,
                    (|n: &Names| n.ns_score) as fn(&Names) -> &'static str,
                ),
                (e.ew_score, |n| n.ew_score),
            ] {
                if let Some(s) = v {
                    if s.unsigned_abs() > MAX_SCORE.unsigned_abs() || s % 10 != 0 {
                        bad(
                            field,
                            format!("{s} is not a score (a multiple of 10 up to {MAX_SCORE})"),
                        );
                        ok = false;
                    }
                }
            }
            if e.declarer.is_some() || e.tricks.is_some() || e.result.is_some() {
                bad(
                    |n| n.ns_score,
                    "an assigned score has no declarer, tricks or result".into(),
                );
                ok = false;
            }
            ok.then(|| Kind::Assigned {
                ns: e.ns_score.unwrap_or_default(),
                ew: e.ew_score,
            })
        }
        [false, false, true] => match parse_adjusted(text(&e.adjusted).unwrap_or_default()) {
            Ok((ns, ew)) => Some(Kind::Adjusted { ns, ew }),
            Err(err) => {
                bad(|n| n.adjusted, err.message);
                None
            }
        },
        [false, false, false] => {
            bad(
                |n| n.contract,
                "give a contract (with declarer and tricks or result), ns_score, or adjusted"
                    .into(),
            );
            None
        }
        _ => {
            bad(
                |n| n.contract,
                "give only one of a contract, ns_score, or adjusted".into(),
            );
            None
        }
    };
    if e.ew_score.is_some() && e.ns_score.is_none() {
        bad(|n| n.ew_score, "a split score needs ns_score too".into());
    }
    let ok = errs.is_empty();
    errors.extend(errs);
    let kind = kind?;
    ok.then(|| ReadRow {
        index: i,
        round: e.round,
        table: e.table,
        board: e.board,
        section: text(&e.section).map(str::to_string),
        ns_pair: e.ns_pair,
        ew_pair: e.ew_pair,
        declarer_pair,
        kind,
        lead,
        names,
        line,
    })
}

fn read_played(
    e: &BoardResultEntry,
    bad: &mut impl FnMut(fn(&Names) -> &'static str, String),
) -> Option<Kind> {
    let contract: Contract = match text(&e.contract).unwrap_or_default().parse() {
        Ok(c) => c,
        Err(err) => {
            bad(|n| n.contract, err.message);
            return None;
        }
    };
    if contract == Contract::PassedOut {
        if e.declarer.is_some() || e.tricks.is_some() || text(&e.result).is_some() {
            bad(
                |n| n.contract,
                "a passed-out board has no declarer, tricks or result".into(),
            );
            return None;
        }
        return Some(Kind::Played {
            contract,
            declarer: None,
            tricks: 0,
        });
    }
    let declarer = match text(&e.declarer) {
        None => {
            bad(|n| n.declarer, "is required with a contract".into());
            None
        }
        Some(d) => match d.parse::<Seat>() {
            Ok(s) if d.len() == 1 => Some(s),
            _ => {
                bad(
                    |n| n.declarer,
                    format!("{d:?} is not a seat (N, E, S or W)"),
                );
                None
            }
        },
    };
    let tricks = match (e.tricks, text(&e.result)) {
        (Some(t), None) if t <= 13 => Some(t),
        (Some(t), None) => {
            bad(|n| n.tricks, format!("{t} tricks: a deal has 13"));
            None
        }
        (None, Some(r)) => match tricks_from_result(&contract, r) {
            Ok(t) => Some(t),
            Err(err) => {
                bad(|n| n.result, err.message);
                None
            }
        },
        (None, None) => {
            bad(|n| n.result, "give the tricks taken or the result".into());
            None
        }
        (Some(_), Some(_)) => {
            bad(|n| n.result, "give tricks or result, not both".into());
            None
        }
    };
    Some(Kind::Played {
        contract,
        declarer: Some(declarer?),
        tricks: tricks?,
    })
}

/// Reads JSON rows; all errors at once.
pub fn read_json(body: &SubmitBoardResults) -> Result<ReadRows, Vec<FieldError>> {
    let mut errors = Vec::new();
    if body.results.is_empty() {
        errors.push(FieldError {
            field: "results".into(),
            message: "must hold at least one result".into(),
        });
    }
    if body.results.len() > MAX_ROWS {
        return Err(vec![FieldError {
            field: "results".into(),
            message: format!("at most {MAX_ROWS} results per request"),
        }]);
    }
    let rows: Vec<ReadRow> = body
        .results
        .iter()
        .enumerate()
        .filter_map(|(i, e)| read_entry(i, e, &JSON_NAMES, None, None, &mut errors))
        .collect();
    if errors.is_empty() {
        Ok(ReadRows(rows))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_are_a_suit_then_a_rank() {
        assert_eq!(lead_card("hk").as_deref(), Some("HK"));
        assert_eq!(lead_card("D10").as_deref(), Some("DT"));
        assert_eq!(lead_card("S7").as_deref(), Some("S7"));
        assert_eq!(lead_card("K"), None);
        assert_eq!(lead_card("X7"), None);
        assert_eq!(lead_card("H1"), None);
    }
}
