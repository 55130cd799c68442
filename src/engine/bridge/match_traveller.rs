//! The travellers of a bridge teams or Swiss event (formats `teams`, `swiss_teams`,
//! `swiss_pairs`): every result of a board, with the IMPs each line earned (pure).
//!
//! - **Teams** (`teams`, `swiss_teams`): a match plays each board at two tables, the home
//!   team NS at one and the away team NS at the other. Each line's IMPs are those of the
//!   board in its match, seen from the side holding that table's NS cards: NS IMPs =
//!   IMPs(this table's NS score − the other table's NS score), EW IMPs the opposite. So the
//!   home team's IMPs on a board show on the line where it sat NS (as NS IMPs) and on the
//!   line where it sat EW (as EW IMPs), the same number: the match's IMPs on the board.
//!   A line without its other table yet, or with an artificial adjusted score at either
//!   table, has no IMPs.
//! - **Swiss pairs** (`swiss_pairs`): each round plays its own boards at every table, and a
//!   match's IMPs come from the field (the event's `scoring`): Butler, each NS score against
//!   the board's datum (the mean without the top and bottom score from 5 results, rounded to
//!   10), or cross-IMPs, against every other score averaged. Adjusted scores take no part.

use std::collections::BTreeMap;

use super::scoring::{butler, cross_imps, dealer, imps, vulnerability, Deal};
use super::session::{round2, Method};
use super::team_event::ScheduledMatch;
use super::traveller::{pair_number, HandRecord, TableResult, Traveller, TravellerLine};

/// How a board's results earn IMPs.
#[derive(Debug, Clone, Copy)]
pub enum BoardImps<'a> {
    /// Teams: the two tables of each match against each other.
    Matches(&'a [ScheduledMatch]),
    /// Swiss pairs: each score against the board's field, by Butler or cross-IMPs.
    Field(Method),
}

/// The NS score a line's IMPs are worked from (None for an artificial adjusted score or a
/// split score, which take no part).
fn numeric(r: &TableResult) -> Option<i32> {
    match (&r.outcome.adjusted, r.outcome.ns_score, r.outcome.ew_score) {
        (None, Some(s), None) => Some(s),
        _ => None,
    }
}

/// Each result's NS IMPs, by index into `results`.
fn ns_imps(results: &[TableResult], how: BoardImps) -> (Vec<Option<f64>>, BTreeMap<u32, i32>) {
    let mut out = vec![None; results.len()];
    let mut datums = BTreeMap::new();
    match how {
        BoardImps::Matches(schedule) => {
            let at: BTreeMap<(u32, u32, u32), usize> = results
                .iter()
                .enumerate()
                .map(|(i, r)| ((r.round, r.table, r.board), i))
                .collect();
            for m in schedule {
                for &b in &m.boards {
                    let home = at.get(&(m.home_ns_at.0, m.home_ns_at.1, b)).copied();
                    let away = at.get(&(m.away_ns_at.0, m.away_ns_at.1, b)).copied();
                    let (Some(h), Some(a)) = (home, away) else {
                        continue;
                    };
                    if let (Some(hs), Some(as_)) = (numeric(&results[h]), numeric(&results[a])) {
                        let swing = imps(hs.saturating_sub(as_));
                        out[h] = Some(f64::from(swing));
                        out[a] = Some(f64::from(-swing));
                    }
                }
            }
        }
        BoardImps::Field(method) => {
            let mut by_board: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
            for (i, r) in results.iter().enumerate() {
                if numeric(r).is_some() {
                    by_board.entry(r.board).or_default().push(i);
                }
            }
            for (board, idx) in by_board {
                let scores: Vec<i32> = idx.iter().filter_map(|&i| numeric(&results[i])).collect();
                let values = if method == Method::CrossImps {
                    cross_imps(&scores)
                } else {
                    let b = butler(&scores);
                    datums.insert(board, b.datum);
                    b.ns_imps
                };
                for (&i, v) in idx.iter().zip(values) {
                    out[i] = Some(v);
                }
            }
        }
    }
    (out, datums)
}

/// The travellers of `boards` (every board the event plays so far), with the deals known.
pub fn match_travellers(
    boards: &[u32],
    results: &[TableResult],
    how: BoardImps,
    deals: &[Deal],
) -> Vec<Traveller> {
    let (imps, datums) = ns_imps(results, how);
    let mut by_board: BTreeMap<u32, Vec<usize>> = boards.iter().map(|&b| (b, vec![])).collect();
    for (i, r) in results.iter().enumerate() {
        by_board.entry(r.board).or_default().push(i);
    }
    by_board
        .into_iter()
        .map(|(board, mut idx)| {
            idx.sort_by_key(|&i| (results[i].round, results[i].table));
            let deal = deals.iter().find(|d| d.board == board);
            Traveller {
                board,
                dealer: deal.map_or_else(|| dealer(board), |d| d.dealer),
                vulnerability: deal.map_or_else(|| vulnerability(board), |d| d.vulnerability),
                deal: deal.map(|d| HandRecord {
                    north: d.hands[0].clone(),
                    east: d.hands[1].clone(),
                    south: d.hands[2].clone(),
                    west: d.hands[3].clone(),
                }),
                analysis: None,
                across_the_field: None,
                top: None,
                datum: datums.get(&board).copied(),
                results: idx
                    .iter()
                    .map(|&i| {
                        let r = &results[i];
                        let ns = imps[i].map(round2);
                        TravellerLine {
                            round: r.round,
                            table: r.table,
                            ns_pair: pair_number(r.ns),
                            ew_pair: pair_number(r.ew),
                            ns_id: Some(r.ns),
                            ew_id: Some(r.ew),
                            contract: r.outcome.contract.clone(),
                            declarer: r.outcome.declarer,
                            tricks: r.outcome.tricks,
                            result: r.outcome.result(),
                            lead: r.outcome.lead.clone(),
                            ns_score: r.outcome.ns_score,
                            ew_score: r.outcome.ew_score,
                            adjusted: r.outcome.adjusted.clone(),
                            ns_mp: None,
                            ew_mp: None,
                            ns_percent: None,
                            ew_percent: None,
                            ns_imps: ns,
                            ew_imps: ns.map(|x| if x == 0.0 { 0.0 } else { -x }),
                            section: None,
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::movement::model::PairId;
    use crate::engine::bridge::traveller::Outcome;

    fn result(round: u32, table: u32, board: u32, ns: u32, ew: u32, score: i32) -> TableResult {
        TableResult {
            round,
            table,
            board,
            ns: PairId::Ns(ns),
            ew: PairId::Ew(ew),
            outcome: Outcome {
                contract: None,
                declarer: None,
                tricks: None,
                lead: None,
                ns_score: Some(score),
                ew_score: None,
                adjusted: None,
            },
        }
    }

    #[test]
    fn a_teams_board_is_imped_between_its_two_tables() {
        // Team 1 (home) v team 2: home NS at table 1, away NS at table 2, boards 1-2.
        let schedule = [ScheduledMatch {
            round: 1,
            home: 1,
            away: 2,
            boards: vec![1, 2],
            home_ns_at: (1, 1),
            away_ns_at: (1, 2),
        }];
        let results = [
            result(1, 1, 1, 1, 2, 620),  // the home team NS made a game
            result(1, 2, 1, 2, 1, -170), // the home team EW made a part score
            result(1, 1, 2, 1, 2, 100),  // board 2: one table in so far
        ];
        let t = match_travellers(&[1, 2], &results, BoardImps::Matches(&schedule), &[]);
        // 620 − (−170) = 790 → 13 IMPs to the home team; the away team's NS lost 13
        assert_eq!(t[0].results[0].ns_imps, Some(13.0));
        assert_eq!(t[0].results[0].ew_imps, Some(-13.0));
        assert_eq!(t[0].results[1].ns_imps, Some(-13.0));
        assert_eq!(t[0].results[1].ew_imps, Some(13.0));
        assert_eq!(t[1].results[0].ns_imps, None);
        assert_eq!(t[1].results.len(), 1);
    }

    #[test]
    fn swiss_pairs_boards_are_imped_against_the_field() {
        let results = [
            result(1, 1, 1, 1, 2, 420),
            result(1, 2, 1, 3, 4, 420),
            result(1, 3, 1, 5, 6, -50),
        ];
        let t = match_travellers(&[1], &results, BoardImps::Field(Method::Butler), &[]);
        // datum (420 + 420 − 50) / 3 = 263.3 → 260; +160 = 4 IMPs, −310 = −7
        assert_eq!(t[0].datum, Some(260));
        assert_eq!(t[0].results[0].ns_imps, Some(4.0));
        assert_eq!(t[0].results[2].ns_imps, Some(-7.0));
        let x = match_travellers(&[1], &results, BoardImps::Field(Method::CrossImps), &[]);
        // 420 v 420 = 0, 420 v −50 = 470 → 10: (0 + 10) / 2 = 5
        assert_eq!(x[0].results[0].ns_imps, Some(5.0));
    }
}
