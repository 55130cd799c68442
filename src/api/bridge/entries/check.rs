//! Rows checked against the movement and scored.

use std::collections::BTreeMap;

use super::{adjusted_notation, CheckedRow, Kind, ReadRows};
use crate::engine::bridge::movement::model::{Movement, TableRound};
use crate::engine::bridge::scoring::{lead_fault, ns_score, vulnerability, Deal, Seat};
use crate::engine::bridge::traveller::Outcome;
use crate::error::FieldError;

/// Checks the rows against the movement and scores them: the table plays the board that
/// round, the pairs are those seated there, the declarer pair sits on the declarer's side,
/// and once the board's hand record is loaded (`deals`) the opening leader (declarer's left)
/// holds the lead. Each board's vulnerability comes from its hand record, else the standard
/// cycle. Rows repeating a round/table/board must agree.
pub fn check_rows(
    rows: &ReadRows,
    movement: &Movement,
    deals: &[Deal],
) -> Result<Vec<CheckedRow>, Vec<FieldError>> {
    let deal_of = |board: u32| deals.iter().find(|d| d.board == board);
    let mut errors = Vec::new();
    let mut out: Vec<CheckedRow> = Vec::with_capacity(rows.0.len());
    let mut seen: BTreeMap<(u32, u32, u32), usize> = BTreeMap::new();
    for r in &rows.0 {
        let i = r.index;
        let n = r.names;
        let pre = r.prefix();
        let mut bad = |field: &'static str, message: String| {
            errors.push(FieldError {
                field: format!("results[{i}].{field}"),
                message: format!("{pre}{message}"),
            })
        };
        let Some(round) = movement.rounds.iter().find(|x| x.round == r.round) else {
            bad(
                n.round,
                format!(
                    "the movement has no round {} (it has {})",
                    r.round,
                    movement.rounds.len()
                ),
            );
            continue;
        };
        let Some(t) = round.tables.iter().find(|t| t.table == r.table) else {
            bad(
                n.table,
                format!("no table {} plays in round {}", r.table, r.round),
            );
            continue;
        };
        if !t.boards.contains(&r.board) {
            bad(
                n.board,
                format!(
                    "table {} does not play board {} in round {} (it plays {})",
                    r.table,
                    r.board,
                    r.round,
                    board_list(t)
                ),
            );
            continue;
        }
        let (Some(ns), Some(ew)) = (t.ns, t.ew) else {
            bad(
                n.table,
                format!(
                    "table {} is a half table in round {}: nobody plays there",
                    r.table, r.round
                ),
            );
            continue;
        };
        if let (Some(given), Some(label)) = (&r.section, &t.section) {
            if !given.eq_ignore_ascii_case(label) {
                bad(
                    n.section,
                    format!("table {} is in section {label}, not {given}", r.table),
                );
            }
        }
        // At an arrow-switched table the terminal may name the pairs either way round.
        let swapped = t.arrow_switch && r.ns_pair == Some(ew) && r.ew_pair == Some(ns);
        if !swapped {
            for (given, seated, field, side) in [
                (r.ns_pair, ns, n.ns_pair, "NS"),
                (r.ew_pair, ew, n.ew_pair, "EW"),
            ] {
                if let Some(p) = given.filter(|&p| p != seated) {
                    bad(
                        field,
                        format!(
                            "pair {p} does not sit {side} at table {} in round {} (pair {seated} does)",
                            r.table, r.round
                        ),
                    );
                }
            }
        }
        let outcome = match &r.kind {
            Kind::Played {
                contract,
                declarer,
                tricks,
            } => {
                if let (Some(d), Some(p)) = (declarer, r.declarer_pair) {
                    // Who holds the declarer's cards: at an arrow switch the EW pair holds NS's.
                    let holder = match (d.is_ns(), t.arrow_switch) {
                        (true, false) | (false, true) => ns,
                        _ => ew,
                    };
                    if p != holder {
                        bad(
                            "Declarer",
                            format!(
                                "pair {p} did not hold the {d} cards at table {} in round {} (pair {holder} did)",
                                r.table, r.round
                            ),
                        );
                    }
                }
                if let (Some(d), Some(lead), Some(deal)) = (declarer, &r.lead, deal_of(r.board)) {
                    if let Some(fault) = lead_fault(deal, *d, lead) {
                        bad(n.lead, fault);
                    }
                }
                let vul =
                    deal_of(r.board).map_or_else(|| vulnerability(r.board), |d| d.vulnerability);
                match ns_score(contract, declarer.unwrap_or(Seat::N), *tricks, vul) {
                    Ok(score) => Outcome {
                        contract: Some(contract.to_string()),
                        declarer: *declarer,
                        tricks: declarer.map(|_| *tricks),
                        lead: r.lead.clone(),
                        ns_score: Some(score),
                        ew_score: None,
                        adjusted: None,
                    },
                    Err(e) => {
                        let field = match e.field {
                            "declarer" => n.declarer,
                            "tricks" => n.tricks,
                            "result" => n.result,
                            _ => n.contract,
                        };
                        bad(field, e.message);
                        continue;
                    }
                }
            }
            Kind::Assigned { ns: s, ew: e } => Outcome {
                contract: None,
                declarer: None,
                tricks: None,
                lead: r.lead.clone(),
                ns_score: Some(*s),
                ew_score: *e,
                adjusted: None,
            },
            Kind::Adjusted { ns: a, ew: b } => Outcome {
                contract: None,
                declarer: None,
                tricks: None,
                lead: r.lead.clone(),
                ns_score: None,
                ew_score: None,
                adjusted: Some(adjusted_notation(*a, *b)),
            },
        };
        let row = CheckedRow {
            index: i,
            line: r.line,
            round: r.round,
            table: r.table,
            board: r.board,
            ns_pair: ns,
            ew_pair: ew,
            outcome,
        };
        match seen.get(&(r.round, r.table, r.board)) {
            Some(&j) if !out[j].same_as(&row) => bad(
                n.contract,
                format!(
                    "contradicts an earlier row for round {} table {} board {}",
                    r.round, r.table, r.board
                ),
            ),
            Some(_) => {}
            None => {
                seen.insert((r.round, r.table, r.board), out.len());
                out.push(row);
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

impl CheckedRow {
    /// Same board, same pairs, same outcome (wherever the row stood in the request).
    pub fn same_as(&self, other: &CheckedRow) -> bool {
        (
            self.round,
            self.table,
            self.board,
            self.ns_pair,
            self.ew_pair,
        ) == (
            other.round,
            other.table,
            other.board,
            other.ns_pair,
            other.ew_pair,
        ) && self.outcome == other.outcome
    }
}

fn board_list(t: &TableRound) -> String {
    let b: Vec<String> = t.boards.iter().map(u32::to_string).collect();
    b.join(", ")
}
