//! The CSV a table terminal exports, read into rows.

use super::{read_entry, BoardResultEntry, ReadRows, CSV_NAMES, MAX_ROWS};
use crate::engine::bridge::scoring::Contract;
use crate::error::FieldError;

/// Splits one CSV line into fields (RFC 4180 quoting; no line breaks inside fields).
fn csv_fields(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.trim().is_empty() && !was_quoted => {
                field.clear();
                quoted = true;
                was_quoted = true;
            }
            (false, ',') => {
                out.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    out.push(field);
    Ok(out)
}

/// The columns a terminal's CSV must have, and those it may have.
const CSV_REQUIRED: [&str; 9] = [
    "Table", "Round", "Board", "PairNS", "PairEW", "Declarer", "NS/EW", "Contract", "Result",
];
/// The header as terminals write it (`Section` and `LeadCard` are optional).
pub const CSV_HEADER: &str =
    "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard";

/// Reads the CSV of a table terminal: a header naming the columns
/// `Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard` (any
/// order and case; `Section` and `LeadCard` may be missing; other columns are ignored), then
/// one row per board. `Contract` may also hold an artificial adjusted score (`A+/A-`); for a
/// passed-out board `Declarer`, `NS/EW` and `Result` are ignored.
pub fn read_csv(text: &str) -> Result<ReadRows, Vec<FieldError>> {
    let header_error = |message: String| {
        vec![FieldError {
            field: "header".into(),
            message,
        }]
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(header_error("the CSV is empty".into()));
    };
    let header = csv_fields(header).map_err(|e| header_error(format!("line 1: {e}")))?;
    let find = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let missing: Vec<&str> = CSV_REQUIRED
        .iter()
        .copied()
        .filter(|c| find(c).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(header_error(format!(
            "the header lacks the column(s) {}; expected {CSV_HEADER}",
            missing.join(", "),
        )));
    }
    let col = |name: &str| find(name);
    let mut errors = Vec::new();
    let mut rows = Vec::new();
    for (i, (line_no, line)) in lines.enumerate() {
        if i >= MAX_ROWS {
            return Err(vec![FieldError {
                field: "results".into(),
                message: format!("at most {MAX_ROWS} results per request"),
            }]);
        }
        let fields = match csv_fields(line) {
            Ok(f) => f,
            Err(e) => {
                errors.push(FieldError {
                    field: format!("results[{i}]"),
                    message: format!("line {line_no}: {e}"),
                });
                continue;
            }
        };
        let get = |name: &str| -> Option<String> {
            col(name)
                .and_then(|c| fields.get(c))
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let before = errors.len();
        let mut number = |name: &'static str| -> Option<u32> {
            let v = get(name)?;
            match v.parse::<u32>() {
                Ok(n) => Some(n),
                Err(_) => {
                    errors.push(FieldError {
                        field: format!("results[{i}].{name}"),
                        message: format!("line {line_no}: {v:?} is not a number"),
                    });
                    None
                }
            }
        };
        let (round, table, board) = (number("Round"), number("Table"), number("Board"));
        let (ns_pair, ew_pair, declarer_pair) =
            (number("PairNS"), number("PairEW"), number("Declarer"));
        for (v, name) in [(round, "Round"), (table, "Table"), (board, "Board")] {
            if v.is_none() && get(name).is_none() {
                errors.push(FieldError {
                    field: format!("results[{i}].{name}"),
                    message: format!("line {line_no}: is required"),
                });
            }
        }
        if errors.len() > before {
            continue;
        }
        let contract = get("Contract");
        let adjusted = contract
            .as_deref()
            .filter(|c| c.trim_start().starts_with(['A', 'a']))
            .map(str::to_string);
        let passed = contract
            .as_deref()
            .is_some_and(|c| c.parse::<Contract>() == Ok(Contract::PassedOut));
        let played = adjusted.is_none() && !passed;
        let entry = BoardResultEntry {
            round: round.unwrap_or_default(),
            table: table.unwrap_or_default(),
            board: board.unwrap_or_default(),
            section: get("Section"),
            ns_pair,
            ew_pair,
            contract: if adjusted.is_some() { None } else { contract },
            declarer: get("NS/EW").filter(|_| played),
            tricks: None,
            result: get("Result").filter(|_| played),
            lead: get("LeadCard").filter(|_| played),
            ns_score: None,
            ew_score: None,
            adjusted,
        };
        let declarer_pair = declarer_pair.filter(|_| played);
        if let Some(row) = read_entry(
            i,
            &entry,
            &CSV_NAMES,
            Some(line_no),
            declarer_pair,
            &mut errors,
        ) {
            rows.push(row);
        }
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(FieldError {
            field: "results".into(),
            message: "the CSV holds no result rows".into(),
        });
    }
    if errors.is_empty() {
        Ok(ReadRows(rows))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Kind;
    use super::*;

    #[test]
    fn csv_fields_follow_rfc_4180_quoting() {
        assert_eq!(csv_fields("A,1,,x").unwrap(), vec!["A", "1", "", "x"]);
        assert_eq!(
            csv_fields("\"4 H x\",\"say \"\"hi\"\"\",3").unwrap(),
            vec!["4 H x", "say \"hi\"", "3"]
        );
        assert!(csv_fields("\"open,1").is_err());
    }

    #[test]
    fn a_terminal_csv_reads_with_columns_in_any_order() {
        let rows = read_csv("Board,Round,Table,PairNS,PairEW,NS/EW,Declarer,Contract,Result,Extra\r\n3,1,2,2,5,W,5,4HX,-1,ignored\r\n\r\n4,1,2,2,5,,,PASS,,\r\n")
            .unwrap();
        assert_eq!(rows.0.len(), 2);
        assert_eq!(
            (rows.0[0].board, rows.0[0].round, rows.0[0].table),
            (3, 1, 2)
        );
        assert_eq!(rows.0[0].declarer_pair, Some(5));
        assert_eq!(rows.0[0].line, Some(2));
        assert_eq!(rows.0[1].line, Some(4));
        assert!(matches!(
            rows.0[1].kind,
            Kind::Played {
                contract: Contract::PassedOut,
                ..
            }
        ));
        let e = read_csv("Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract\n").unwrap_err();
        assert_eq!(e[0].field, "header");
        assert!(e[0].message.contains("Result"));
    }
}
