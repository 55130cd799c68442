//! Sections scored across the field: several pairs sections of one session playing the same
//! boards (a club's sections A, B and C, each a Mitchell) scored as one field (pure).
//!
//! # The rule
//! - **One field per board.** Every result of board *b* in every section of the field is
//!   compared with every other result of board *b* in the field, exactly as one section
//!   compares its own results ([`super::session`]): matchpoints on the EBU (2 per score beaten,
//!   1 per tie) or ACBL (1 and ½) scale, adjusted scores as a percentage of the top, split
//!   scores each side against the real scores.
//! - **Neuberg where counts differ.** The top of every board is that of the most played board
//!   of the whole field (E results: 2(E−1) EBU, E−1 ACBL); a board played fewer times (A < E,
//!   a missing result, a smaller section) is factored up by Neuberg: MP' = (MP + 1) × E / A − 1
//!   on the 2/1 scale.
//! - Under Butler the datum of a board is taken over the whole field; under cross-IMPs each
//!   score is IMPed against every other score of the board in the field.
//! - **The overall ranking** ranks every pair of the field on those scores (percent of the
//!   tops of the boards it played, or total IMPs, compared at 2 decimals, ties sharing a rank
//!   written `3=`). When every section is a two-winner movement (Mitchell numbering without
//!   arrow switches) the NS pairs of all sections rank together and the EW pairs together;
//!   otherwise everyone is in one list. Equal pairs are listed by section, then pair.
//! - **The section ranking** ranks the pairs of one section on those same scores (NS and EW
//!   apart when the section is a two-winner movement): a pair's section total is the sum of
//!   the matchpoints its travellers show, as on a scorer's section result sheet. It moves when
//!   another section enters a result of a board it played, since that result is in the field.
//! - **In the exports** each section is a letter in the field's order (`A`, `B`, ... `Z`,
//!   `AA`), written before its pair numbers (`A1NS`) or in a `Section` column.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::movement::model::{Direction, PairId};
use super::session::{
    percent_of_tops, round2, score_board, LineScore, Method, Played, RankedPair, Ranking,
    ScoredBoard, ScoringSettings, SessionScore,
};

/// One section of the field: its results and its pairs.
#[derive(Debug, Clone, Copy)]
pub struct FieldSection<'a> {
    pub played: &'a [Played],
    /// Every pair of the section's movement (ranked even before its first board).
    pub pairs: &'a [PairId],
    /// Whether the section's movement has two winners (NS and EW ranked apart).
    pub two_winners: bool,
}

/// What one result earned each side, scored across the field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldLine {
    /// The section (index into the input) and the result's index in its `played`.
    pub section: usize,
    pub index: usize,
    pub ns: f64,
    pub ew: f64,
    pub ns_percent: Option<f64>,
    pub ew_percent: Option<f64>,
}

/// One board scored across the field: its lines by section, round and table.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldBoard {
    pub board: u32,
    /// Matchpoints only: the board's top (of the most played board of the field).
    pub top: Option<f64>,
    /// Butler only: the field's datum.
    pub datum: Option<i32>,
    pub lines: Vec<FieldLine>,
}

/// A pair of the field in the overall ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEntry {
    pub section: usize,
    pub ranked: RankedPair,
}

/// One overall ranking: the NS or EW pairs of every section, or everyone.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRanking {
    pub direction: Option<Direction>,
    pub entries: Vec<FieldEntry>,
}

/// The field scored.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldScore {
    /// Boards in number order.
    pub boards: Vec<FieldBoard>,
    pub overall: Vec<FieldRanking>,
    /// Each section's own ranking on the scores across the field, in the input's order.
    pub sections: Vec<Vec<Ranking>>,
}

impl FieldScore {
    /// Section `section`'s results as the field scored them, in the shape one section's
    /// scoring has (each line's index is into that section's results, its ranking the
    /// section's pairs on the field's scores): what its travellers and standings are written
    /// from.
    pub fn section_score(&self, section: usize) -> SessionScore {
        SessionScore {
            boards: self
                .boards
                .iter()
                .map(|b| ScoredBoard {
                    board: b.board,
                    top: b.top,
                    datum: b.datum,
                    lines: b
                        .lines
                        .iter()
                        .filter(|l| l.section == section)
                        .map(|l| LineScore {
                            index: l.index,
                            ns: l.ns,
                            ew: l.ew,
                            ns_percent: l.ns_percent,
                            ew_percent: l.ew_percent,
                        })
                        .collect(),
                })
                .collect(),
            rankings: self.sections.get(section).cloned().unwrap_or_default(),
        }
    }
}

/// A section's letter in its field (`A`, `B`, ... `Z`, `AA`, `AB`, ...), as the exports write
/// it before the pair numbers; `k` is the section's place in the field, 0 the first.
pub fn section_letter(k: usize) -> String {
    let mut n = k + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[derive(Default, Clone, Copy)]
struct Tally {
    total: f64,
    top: f64,
    boards: u32,
}

/// Scores the sections as one field (see the module documentation).
pub fn score_field(sections: &[FieldSection], settings: ScoringSettings) -> FieldScore {
    // every result of the field in one list, remembering where it came from
    let mut played: Vec<Played> = Vec::new();
    let mut origin: Vec<(usize, usize)> = Vec::new();
    for (s, section) in sections.iter().enumerate() {
        for (i, p) in section.played.iter().enumerate() {
            played.push(p.clone());
            origin.push((s, i));
        }
    }
    let mut by_board: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (k, p) in played.iter().enumerate() {
        by_board.entry(p.board).or_default().push(k);
    }
    for idx in by_board.values_mut() {
        idx.sort_by_key(|&k| (origin[k].0, played[k].round, played[k].table, origin[k].1));
    }
    let expected = by_board.values().map(Vec::len).max().unwrap_or(0);
    let boards: Vec<FieldBoard> = by_board
        .values()
        .map(|idx| {
            let scored = score_board(&played, idx, expected, settings.scoring, settings.scale());
            FieldBoard {
                board: scored.board,
                top: scored.top,
                datum: scored.datum,
                lines: scored
                    .lines
                    .iter()
                    .map(|l| FieldLine {
                        section: origin[l.index].0,
                        index: origin[l.index].1,
                        ns: l.ns,
                        ew: l.ew,
                        ns_percent: l.ns_percent,
                        ew_percent: l.ew_percent,
                    })
                    .collect(),
            }
        })
        .collect();

    let mut tally: BTreeMap<(usize, PairId), Tally> = BTreeMap::new();
    for b in &boards {
        let top = b.top.unwrap_or(0.0);
        for l in &b.lines {
            let p = &sections[l.section].played[l.index];
            for (pair, points) in [(p.ns, l.ns), (p.ew, l.ew)] {
                let t = tally.entry((l.section, pair)).or_default();
                t.total += points;
                t.top += top;
                t.boards += 1;
            }
        }
    }
    let mut everyone: Vec<(usize, PairId)> = sections
        .iter()
        .enumerate()
        .flat_map(|(s, section)| section.pairs.iter().map(move |&p| (s, p)))
        .collect();
    for key in tally.keys() {
        if !everyone.contains(key) {
            everyone.push(*key);
        }
    }
    everyone.sort();
    everyone.dedup();
    let two_winners = !sections.is_empty() && sections.iter().all(|s| s.two_winners);
    let overall = directions(two_winners)
        .into_iter()
        .map(|direction| FieldRanking {
            direction,
            entries: rank(
                everyone
                    .iter()
                    .copied()
                    .filter(|(_, p)| in_line(direction, *p)),
                &tally,
                settings.scoring,
            ),
        })
        .collect();
    let by_section = sections
        .iter()
        .enumerate()
        .map(|(s, section)| {
            directions(section.two_winners)
                .into_iter()
                .map(|direction| Ranking {
                    direction,
                    entries: rank(
                        everyone
                            .iter()
                            .copied()
                            .filter(|(k, p)| *k == s && in_line(direction, *p)),
                        &tally,
                        settings.scoring,
                    )
                    .into_iter()
                    .map(|e| e.ranked)
                    .collect(),
                })
                .collect()
        })
        .collect();
    FieldScore {
        boards,
        overall,
        sections: by_section,
    }
}

/// The rankings a list of pairs gets: NS and EW apart (two winners), or one (direction None).
fn directions(two_winners: bool) -> Vec<Option<Direction>> {
    if two_winners {
        vec![Some(Direction::Ns), Some(Direction::Ew)]
    } else {
        vec![None]
    }
}

/// Whether `pair` is ranked in the ranking of `direction` (None: everyone).
fn in_line(direction: Option<Direction>, pair: PairId) -> bool {
    match direction {
        None => true,
        Some(Direction::Ns) => !matches!(pair, PairId::Ew(_)),
        Some(Direction::Ew) => matches!(pair, PairId::Ew(_)),
    }
}

fn rank(
    pairs: impl Iterator<Item = (usize, PairId)>,
    tally: &BTreeMap<(usize, PairId), Tally>,
    method: Method,
) -> Vec<FieldEntry> {
    let mut entries: Vec<FieldEntry> = pairs
        .map(|key| {
            let t = tally.get(&key).copied().unwrap_or_default();
            FieldEntry {
                section: key.0,
                ranked: RankedPair {
                    rank: String::new(),
                    pair: key.1,
                    total: round2(t.total),
                    percent: percent_of_tops(method, t.total, t.top, t.boards),
                    boards: t.boards,
                },
            }
        })
        .collect();
    let key = |e: &FieldEntry| -> Option<f64> {
        if e.ranked.boards == 0 {
            None
        } else if method == Method::Matchpoints {
            e.ranked.percent
        } else {
            Some(e.ranked.total)
        }
    };
    entries.sort_by(|a, b| {
        let by_key = match (key(a), key(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_key.then((a.section, a.ranked.pair).cmp(&(b.section, b.ranked.pair)))
    });
    let keys: Vec<Option<f64>> = entries.iter().map(key).collect();
    for (e, label) in entries.iter_mut().zip(super::session::rank_labels(&keys)) {
        e.ranked.rank = label;
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::BoardScore;
    use crate::engine::bridge::session::score_session;

    fn result(round: u32, table: u32, board: u32, ns: u32, ew: u32, score: i32) -> Played {
        Played {
            round,
            table,
            board,
            ns: PairId::Ns(ns),
            ew: PairId::Ew(ew),
            score: BoardScore::Score(score),
        }
    }

    #[test]
    fn sections_are_lettered_like_spreadsheet_columns() {
        let letters: Vec<String> = [0, 1, 25, 26, 27, 49].map(section_letter).to_vec();
        assert_eq!(letters, ["A", "B", "Z", "AA", "AB", "AX"]);
    }

    fn settings() -> ScoringSettings {
        ScoringSettings::parse(&serde_json::json!({})).unwrap()
    }

    /// One section alone is scored across its field exactly as the session scores it.
    #[test]
    fn one_section_is_its_own_field() {
        let played = vec![
            result(1, 1, 1, 1, 1, 420),
            result(1, 2, 1, 2, 2, 450),
            result(1, 3, 1, 3, 3, -50),
            result(1, 1, 2, 1, 1, 100),
            result(1, 2, 2, 2, 2, 100),
        ];
        let pairs: Vec<PairId> = (1..=3)
            .flat_map(|n| [PairId::Ns(n), PairId::Ew(n)])
            .collect();
        let field = score_field(
            &[FieldSection {
                played: &played,
                pairs: &pairs,
                two_winners: true,
            }],
            settings(),
        );
        let alone = score_session(&played, &pairs, settings(), true);
        for (f, s) in field.boards.iter().zip(&alone.boards) {
            assert_eq!((f.board, f.top), (s.board, s.top));
            for (fl, sl) in f.lines.iter().zip(&s.lines) {
                assert_eq!((fl.index, fl.ns, fl.ew), (sl.index, sl.ns, sl.ew));
            }
        }
        for (f, s) in field.overall.iter().zip(&alone.rankings) {
            let f: Vec<&RankedPair> = f.entries.iter().map(|e| &e.ranked).collect();
            let s: Vec<&RankedPair> = s.entries.iter().collect();
            assert_eq!(f, s);
        }
        assert_eq!(field.sections, vec![alone.rankings.clone()]);
        assert_eq!(field.section_score(0).rankings, alone.rankings);
    }

    /// Two sections of two tables on one board: four results, 2 per score beaten; a board
    /// one section did not finish is factored up by Neuberg to the field's top.
    #[test]
    fn a_board_is_matchpointed_over_every_section() {
        let a = vec![result(1, 1, 1, 1, 1, 420), result(1, 2, 1, 2, 2, 400)];
        let b = vec![
            result(1, 1, 1, 1, 1, 450),
            result(1, 2, 1, 2, 2, 420),
            result(1, 1, 2, 1, 1, 100),
        ];
        let a2 = [
            a.clone(),
            vec![result(1, 1, 2, 1, 1, 50), result(1, 2, 2, 2, 2, 100)],
        ]
        .concat();
        let pairs: Vec<PairId> = (1..=2)
            .flat_map(|n| [PairId::Ns(n), PairId::Ew(n)])
            .collect();
        let field = score_field(
            &[
                FieldSection {
                    played: &a2,
                    pairs: &pairs,
                    two_winners: true,
                },
                FieldSection {
                    played: &b,
                    pairs: &pairs,
                    two_winners: true,
                },
            ],
            settings(),
        );
        let board1 = &field.boards[0];
        assert_eq!(board1.top, Some(6.0));
        let ns: Vec<(usize, f64)> = board1.lines.iter().map(|l| (l.section, l.ns)).collect();
        // 420 ties 420 and beats 400: 3; 400 beats none: 0; 450: 6; 420: 3
        assert_eq!(ns, vec![(0, 3.0), (0, 0.0), (1, 6.0), (1, 3.0)]);
        // board 2: three results (100, 50, 100) of the field's four: Neuberg
        // 100 ties 100 and beats 50: MP 3 of a top of 4, (3 + 1) × 4 / 3 − 1 = 13/3
        let board2 = &field.boards[1];
        assert_eq!(board2.top, Some(6.0));
        let b2: Vec<f64> = board2.lines.iter().map(|l| l.ns).collect();
        let neuberg = |mp: f64| (mp + 1.0) * 4.0 / 3.0 - 1.0;
        let expect = [neuberg(0.0), neuberg(3.0), neuberg(3.0)];
        for (got, want) in b2.iter().zip(expect) {
            assert!((got - want).abs() < 1e-9, "{b2:?}");
        }
        // NS and EW ranked apart over both sections
        assert_eq!(field.overall.len(), 2);
        let best = &field.overall[0].entries[0];
        assert_eq!((best.section, best.ranked.pair), (1, PairId::Ns(1)));
        // each section ranks its own pairs on the field's scores: a pair's total is the sum
        // of its lines across the field (section A's NS 1: 3 on board 1, 0 on board 2)
        for (s, rankings) in field.sections.iter().enumerate() {
            let dirs: Vec<Option<Direction>> = rankings.iter().map(|r| r.direction).collect();
            assert_eq!(dirs, [Some(Direction::Ns), Some(Direction::Ew)]);
            for r in rankings {
                for e in &r.entries {
                    let played = [&a2, &b][s];
                    let sum: f64 = field
                        .boards
                        .iter()
                        .flat_map(|b| &b.lines)
                        .filter(|l| l.section == s)
                        .map(|l| {
                            let p = &played[l.index];
                            if p.ns == e.pair {
                                l.ns
                            } else if p.ew == e.pair {
                                l.ew
                            } else {
                                0.0
                            }
                        })
                        .sum();
                    assert_eq!(e.total, round2(sum), "section {s} pair {:?}", e.pair);
                }
            }
        }
        let a_ns: Vec<(PairId, f64)> = field.sections[0][0]
            .entries
            .iter()
            .map(|e| (e.pair, e.total))
            .collect();
        // NS 2: 0 + 13/3 ahead of NS 1: 3 + 1/3 (ranked on the field's scores)
        assert_eq!(
            a_ns,
            vec![
                (PairId::Ns(2), round2(neuberg(3.0))),
                (PairId::Ns(1), round2(3.0 + neuberg(0.0)))
            ]
        );
    }
}
