//! What players and scoring programs read off a movement: a guide card per pair (table,
//! direction and boards for each round, where to go next) and the rows scoring programs import
//! (section, table, round, NS pair, EW pair, low board, high board).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::model::{Direction, HalfSet, Movement, PairId, PairNumbering, SitOut};

/// A pair as a movement numbers it: `{"ns":3}`, `{"ew":3}` (Mitchell numbering) or `{"pair":3}`.
pub type PairLabel = SitOut;

/// The label of a pair identity.
pub fn label(id: PairId) -> PairLabel {
    match id {
        PairId::Ns(n) => SitOut::Ns(n),
        PairId::Ew(n) => SitOut::Ew(n),
        PairId::Pair(n) => SitOut::Pair(n),
    }
}

/// Every pair of the movement, in the order pairing numbers are given out: NS 1..n then
/// EW 1..n (Mitchell numbering), or pair 1..n (Howell numbering).
pub fn pairs(m: &Movement) -> Vec<PairId> {
    super::validate::all_pairs(m)
}

/// Where a pair is in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardLine {
    pub round: u32,
    /// Null when the pair sits out.
    pub table: Option<u32>,
    pub direction: Option<Direction>,
    /// The opponents (null at a half table or when sitting out).
    pub opponent: Option<PairLabel>,
    pub set: Option<u32>,
    pub boards: Vec<u32>,
    /// True when the pair plays the other direction's cards (arrow switch).
    #[serde(default)]
    pub arrow_switch: bool,
    pub section: Option<String>,
    /// Half-set movements: the two half-sets played this round, in play order (`boards` lists
    /// theirs in that order); omitted otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub half_sets: Vec<HalfSet>,
}

/// A pair's guide card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuideCard {
    pub pair: PairLabel,
    pub lines: Vec<CardLine>,
    /// Where the pair goes after each round (last: null), in a director's words.
    pub moves: Vec<Option<String>>,
}

fn place(line: &CardLine) -> String {
    match (line.table, line.direction) {
        (Some(t), Some(Direction::Ns)) => format!("table {t} NS"),
        (Some(t), Some(Direction::Ew)) => format!("table {t} EW"),
        _ => "sit out".to_string(),
    }
}

/// One guide card per pair, in `pairs` order.
pub fn guide_cards(m: &Movement) -> Vec<GuideCard> {
    pairs(m)
        .into_iter()
        .map(|id| {
            let lines: Vec<CardLine> = m
                .rounds
                .iter()
                .map(|r| {
                    for t in &r.tables {
                        for (dir, other) in [
                            (Direction::Ns, Direction::Ew),
                            (Direction::Ew, Direction::Ns),
                        ] {
                            if m.pair_at(t, dir) == Some(id) {
                                return CardLine {
                                    round: r.round,
                                    table: Some(t.table),
                                    direction: Some(dir),
                                    opponent: m.pair_at(t, other).map(label),
                                    set: Some(t.set),
                                    boards: t.boards.clone(),
                                    arrow_switch: t.arrow_switch,
                                    section: t.section.clone(),
                                    half_sets: t.half_sets.clone(),
                                };
                            }
                        }
                    }
                    CardLine {
                        round: r.round,
                        table: None,
                        direction: None,
                        opponent: None,
                        set: None,
                        boards: Vec::new(),
                        arrow_switch: false,
                        section: None,
                        half_sets: Vec::new(),
                    }
                })
                .collect();
            let moves = (0..lines.len())
                .map(|i| {
                    lines.get(i + 1).map(|next| {
                        let (here, there) = (place(&lines[i]), place(next));
                        if here == there {
                            format!("stay at {there}")
                        } else {
                            format!("go to {there}")
                        }
                    })
                })
                .collect();
            GuideCard {
                pair: label(id),
                lines,
                moves,
            }
        })
        .collect()
}

/// One row of the table a scoring program imports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScoringRow {
    /// Section label (`A` for a single section).
    pub section: String,
    pub table: u32,
    pub round: u32,
    /// NS pair number (null at a half table).
    pub ns_pair: Option<u32>,
    /// EW pair number (null at a half table).
    pub ew_pair: Option<u32>,
    pub low_board: u32,
    pub high_board: u32,
}

/// The rows by round and table. Howell numbering puts the pair numbers as they are; under
/// Mitchell numbering NS and EW numbers are separate series, as scoring programs expect. A
/// table whose boards are not one run of numbers (half-sets from two sets) gives one row per
/// run, in play order.
pub fn scoring_rows(m: &Movement) -> Vec<ScoringRow> {
    let mut rows = Vec::new();
    for r in &m.rounds {
        let mut tables: Vec<_> = r.tables.iter().collect();
        tables.sort_by_key(|t| (t.section.clone(), t.table));
        for t in tables {
            for (low, high) in board_runs(&t.boards) {
                rows.push(ScoringRow {
                    section: t.section.clone().unwrap_or_else(|| "A".to_string()),
                    table: t.table,
                    round: r.round,
                    ns_pair: t.ns,
                    ew_pair: t.ew,
                    low_board: low,
                    high_board: high,
                });
            }
        }
    }
    rows
}

/// The boards as runs of consecutive numbers (low, high), in play order; boards in any
/// other order than one run each (e.g. 3, 1, 2) give one run from the lowest to the highest.
fn board_runs(boards: &[u32]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &b in boards {
        match runs.last_mut() {
            Some(run) if run.1.checked_add(1) == Some(b) => run.1 = b,
            _ => runs.push((b, b)),
        }
    }
    let mut sorted: Vec<(u32, u32)> = runs.clone();
    sorted.sort_unstable();
    let disjoint = sorted.windows(2).all(|w| w[0].1 < w[1].0);
    if runs.len() > 1 && !disjoint {
        let (Some(&low), Some(&high)) = (boards.iter().min(), boards.iter().max()) else {
            return runs;
        };
        return vec![(low, high)];
    }
    if runs.len() > 1 && sorted.windows(2).all(|w| w[0].1 + 1 == w[1].0) {
        // one run written out of order (e.g. 3, 4, 1, 2): still one range
        return vec![(sorted[0].0, sorted[sorted.len() - 1].1)];
    }
    runs
}

/// Whether this movement names pairs per direction (two fields).
pub fn two_fields(m: &Movement) -> bool {
    m.pair_numbering == PairNumbering::Mitchell
}

#[cfg(test)]
mod tests {
    use super::super::model::{set_boards, Round, TableRound};
    use super::*;

    /// A 3-table Mitchell by hand: NS stationary, EW up one, boards down one.
    fn mitchell3() -> Movement {
        let rounds = (1..=3u32)
            .map(|r| Round {
                round: r,
                tables: (1..=3u32)
                    .map(|t| {
                        let ew = (t + 3 - (r - 1) - 1) % 3 + 1;
                        let set = (t + r - 2) % 3 + 1;
                        TableRound {
                            table: t,
                            ns: Some(t),
                            ew: Some(ew),
                            set,
                            boards: set_boards(set, 2),
                            arrow_switch: false,
                            section: None,
                            half_sets: Vec::new(),
                        }
                    })
                    .collect(),
                sit_out: vec![],
                relay_sets: vec![],
            })
            .collect();
        Movement {
            kind: "custom".into(),
            tables: 3,
            pair_numbering: PairNumbering::Mitchell,
            boards_per_round: 2,
            rounds,
        }
    }

    #[test]
    fn pairs_are_ns_then_ew() {
        let p = pairs(&mitchell3());
        assert_eq!(
            p,
            vec![
                PairId::Ns(1),
                PairId::Ns(2),
                PairId::Ns(3),
                PairId::Ew(1),
                PairId::Ew(2),
                PairId::Ew(3)
            ]
        );
    }

    #[test]
    fn guide_cards_follow_each_pair() {
        let cards = guide_cards(&mitchell3());
        assert_eq!(cards.len(), 6);
        let ns1 = &cards[0];
        assert!(ns1
            .lines
            .iter()
            .all(|l| l.table == Some(1) && l.direction == Some(Direction::Ns)));
        assert_eq!(ns1.moves[0].as_deref(), Some("stay at table 1 NS"));
        assert_eq!(ns1.moves[2], None);
        let ew1 = &cards[3];
        let tables: Vec<_> = ew1.lines.iter().map(|l| l.table.unwrap()).collect();
        assert_eq!(tables, vec![1, 2, 3]);
        assert_eq!(ew1.moves[0].as_deref(), Some("go to table 2 EW"));
        // Every card plays every board exactly once across the three rounds.
        for card in &cards {
            let mut boards: Vec<u32> = card.lines.iter().flat_map(|l| l.boards.clone()).collect();
            boards.sort();
            assert_eq!(boards, (1..=6).collect::<Vec<_>>());
        }
    }

    #[test]
    fn scoring_rows_give_board_ranges() {
        let rows = scoring_rows(&mitchell3());
        assert_eq!(rows.len(), 9);
        assert_eq!(
            rows[0],
            ScoringRow {
                section: "A".into(),
                table: 1,
                round: 1,
                ns_pair: Some(1),
                ew_pair: Some(1),
                low_board: 1,
                high_board: 2
            }
        );
        assert!(rows.iter().all(|r| r.high_board == r.low_board + 1));
    }

    #[test]
    fn half_set_tables_give_one_scoring_row_per_run_of_boards() {
        assert_eq!(board_runs(&[1, 2, 3]), vec![(1, 3)]);
        assert_eq!(board_runs(&[3, 4, 1, 2]), vec![(1, 4)]);
        assert_eq!(board_runs(&[5, 9]), vec![(5, 5), (9, 9)]);
        assert_eq!(board_runs(&[9, 10, 3, 4]), vec![(9, 10), (3, 4)]);
        assert_eq!(board_runs(&[]), vec![]);
        let p = super::super::model::MovementParams {
            tables: 3,
            boards_per_round: Some(4),
            ..Default::default()
        };
        let m = super::super::howell::howell(&p).unwrap();
        let rows = scoring_rows(&m);
        // every board of every table appears in exactly one row of its table and round
        for r in &m.rounds {
            for t in &r.tables {
                let mut from_rows: Vec<u32> = rows
                    .iter()
                    .filter(|x| x.round == r.round && x.table == t.table)
                    .flat_map(|x| x.low_board..=x.high_board)
                    .collect();
                let mut boards = t.boards.clone();
                from_rows.sort_unstable();
                boards.sort_unstable();
                assert_eq!(from_rows, boards, "round {} table {}", r.round, t.table);
            }
        }
        // the guide cards name the half-sets and every pair plays all 20 boards once
        for card in guide_cards(&m) {
            let mut boards: Vec<u32> = card.lines.iter().flat_map(|l| l.boards.clone()).collect();
            boards.sort_unstable();
            assert_eq!(boards, (1..=20).collect::<Vec<_>>());
            assert!(card.lines.iter().all(|l| l.half_sets.len() == 2));
        }
    }
}
