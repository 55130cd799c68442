//! What a scored session shows: each board's traveller, the standings and a pair's personal
//! score card (pure; built from the results and [`super::session::score_session`]). The PBN
//! and USEBIO writers read these same values, so every output agrees.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::analysis::DealAnalysis;
use super::movement::model::{Direction, PairId};
use super::scoring::{
    dealer, parse_adjusted, result_notation, vulnerability, BoardScore, Contract, Deal, Scale,
    Seat, Vulnerability,
};
use super::session::{percent_of_tops, round2, Method, Played, ScoringSettings, SessionScore};

/// What was recorded for one board at one table: a played contract, an assigned score, a split
/// score or an artificial adjusted score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Canonical contract (`4SX`, `3NT`, `PASS`); None for assigned and adjusted scores.
    pub contract: Option<String>,
    pub declarer: Option<Seat>,
    pub tricks: Option<u8>,
    pub lead: Option<String>,
    /// The NS score (NS side of a split score); None for an artificial adjusted score.
    pub ns_score: Option<i32>,
    /// The EW side of a split score, from NS's viewpoint.
    pub ew_score: Option<i32>,
    /// Artificial adjusted score, canonical (`A+/A-`).
    pub adjusted: Option<String>,
}

impl Outcome {
    /// The score the engine compares; None when the stored values do not make one.
    pub fn board_score(&self) -> Option<BoardScore> {
        match (&self.adjusted, self.ns_score, self.ew_score) {
            (Some(a), None, None) => {
                let (ns, ew) = parse_adjusted(a).ok()?;
                Some(BoardScore::Adjusted { ns, ew })
            }
            (None, Some(ns), Some(ew)) => Some(BoardScore::Split { ns, ew }),
            (None, Some(ns), None) => Some(BoardScore::Score(ns)),
            _ => None,
        }
    }

    /// The result relative to the contract (`=`, `+1`, `-2`), for a played contract.
    pub fn result(&self) -> Option<String> {
        let contract: Contract = self.contract.as_deref()?.parse().ok()?;
        let r = result_notation(&contract, self.tricks.unwrap_or(0));
        (!r.is_empty()).then_some(r)
    }
}

/// One result of the session: where, who held the NS and EW cards, and what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct TableResult {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub ns: PairId,
    pub ew: PairId,
    pub outcome: Outcome,
}

impl TableResult {
    /// The engine's view of this result (None when the outcome holds no score).
    pub fn played(&self) -> Option<Played> {
        Some(Played {
            round: self.round,
            table: self.table,
            board: self.board,
            ns: self.ns,
            ew: self.ew,
            score: self.outcome.board_score()?,
        })
    }
}

/// The pair number as the movement prints it.
pub fn pair_number(p: PairId) -> u32 {
    match p {
        PairId::Ns(n) | PairId::Ew(n) | PairId::Pair(n) => n,
    }
}

pub fn line_name(p: PairId) -> Option<&'static str> {
    match p {
        PairId::Ns(_) => Some("NS"),
        PairId::Ew(_) => Some("EW"),
        PairId::Pair(_) => None,
    }
}

/// One line of a traveller. `ns_pair` / `ew_pair` hold the NS and EW cards.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TravellerLine {
    pub round: u32,
    pub table: u32,
    pub ns_pair: u32,
    pub ew_pair: u32,
    /// The pairs holding the NS and EW cards with their line (`NS 3`, `EW 3`, or pair 3 of a
    /// Howell), for the exports that write `3NS` / `3EW`; None where unknown.
    #[serde(skip)]
    pub ns_id: Option<PairId>,
    #[serde(skip)]
    pub ew_id: Option<PairId>,
    /// Canonical contract; null for an assigned or adjusted score.
    pub contract: Option<String>,
    pub declarer: Option<Seat>,
    /// Tricks declarer took.
    pub tricks: Option<u8>,
    /// `=`, `+1`, `-2`.
    pub result: Option<String>,
    pub lead: Option<String>,
    /// The NS score (null for an artificial adjusted score).
    pub ns_score: Option<i32>,
    /// A split score: the score the EW side is given (from NS's viewpoint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ew_score: Option<i32>,
    /// An artificial adjusted score (`A+/A-`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
    /// Matchpoints of each side (matchpoint scoring).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ns_mp: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ew_mp: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ns_percent: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ew_percent: Option<f64>,
    /// IMPs of each side (Butler or cross-IMP scoring).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ns_imps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ew_imps: Option<f64>,
    /// The section's letter in a field scored across sections (`A`, `B`, ...), which the
    /// exports write with the pair numbers; omitted for a section scored alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// A board's hand record.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct HandRecord {
    /// Hands as `spades.hearts.diamonds.clubs` (`AKQ.JT9.876.5432`).
    pub north: String,
    pub east: String,
    pub south: String,
    pub west: String,
}

/// Every result of one board.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Traveller {
    pub board: u32,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    /// The hand record, when one was loaded.
    pub deal: Option<HandRecord>,
    /// The hand record's double-dummy table and par (status `pending` until the worker has
    /// analysed it); omitted without a hand record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<DealAnalysis>,
    /// Matchpoint scoring: the board's top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
    /// Butler scoring: the board's datum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datum: Option<i32>,
    /// In round and table order (a section scored across the field: every section's results,
    /// each with its `section` letter, by section, then round and table).
    pub results: Vec<TravellerLine>,
    /// The field this section is scored in, when it is scored across the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_the_field: Option<AcrossTheFieldMark>,
}

/// Where a section scored across the field belongs: its scores are those of the field (every
/// result of a board in every section of the field compared together).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AcrossTheFieldMark {
    pub tournament_id: i64,
    /// The field's number, 1 the first, as `GET /api/v1/tournaments/{id}/across-the-field`
    /// lists them (its page `/t/{id}/fields/{field}`, its exports
    /// `/api/v1/tournaments/{id}/across-the-field/{field}/pbn` and `/usebio`).
    #[schema(minimum = 1)]
    pub field: u32,
    /// The field's name.
    pub name: String,
    /// This section's letter in the field (`A`, `B`, ...), as the field's travellers and
    /// exports write it.
    pub section: String,
}

/// Who holds a pair (from the drawing of lots).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub participant_id: i64,
    pub name: String,
}

/// The travellers of `boards` (every board the movement plays), with the deals known.
pub fn travellers(
    boards: &[u32],
    results: &[TableResult],
    score: &SessionScore,
    deals: &[Deal],
    method: Method,
) -> Vec<Traveller> {
    let lines = score.lines_by_index(results.len());
    let mut by_board: BTreeMap<u32, Vec<usize>> = boards.iter().map(|&b| (b, vec![])).collect();
    for (i, r) in results.iter().enumerate() {
        by_board.entry(r.board).or_default().push(i);
    }
    by_board
        .into_iter()
        .map(|(board, mut idx)| {
            idx.sort_by_key(|&i| (results[i].round, results[i].table));
            let scored = score.boards.iter().find(|b| b.board == board);
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
                top: scored.and_then(|b| b.top),
                datum: scored.and_then(|b| b.datum),
                results: idx
                    .iter()
                    .map(|&i| {
                        let r = &results[i];
                        let l = lines[i];
                        let mp = |v: Option<f64>| v.filter(|_| !method.is_imps()).map(round2);
                        let im = |v: Option<f64>| v.filter(|_| method.is_imps()).map(round2);
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
                            ns_mp: mp(l.map(|l| l.ns)),
                            ew_mp: mp(l.map(|l| l.ew)),
                            ns_percent: mp(l.and_then(|l| l.ns_percent)),
                            ew_percent: mp(l.and_then(|l| l.ew_percent)),
                            ns_imps: im(l.map(|l| l.ns)),
                            ew_imps: im(l.map(|l| l.ew)),
                            section: None,
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A pair's place in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BridgeStandingEntry {
    /// `1`, `2=`, ...
    pub rank: String,
    /// The movement's pair number.
    pub pair: u32,
    /// `NS` or `EW` when one ranking holds both lines of a Mitchell-numbered movement (arrow
    /// switch); omitted otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<&'static str>,
    pub participant_id: Option<i64>,
    pub name: Option<String>,
    /// Matchpoints or IMPs, to 2 decimals.
    pub total: f64,
    /// Matchpoint percent, to 2 decimals (null for IMP scoring and before the first board).
    pub percent: Option<f64>,
    pub boards: u32,
}

/// One ranking: `NS` or `EW` (two-winner movements) or everyone (null).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BridgeRanking {
    #[schema(value_type = Option<String>, example = "NS")]
    pub direction: Option<&'static str>,
    pub entries: Vec<BridgeStandingEntry>,
}

/// The standings of a pairs event.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BridgeStandings {
    /// `matchpoints`, `butler` or `cross_imps`.
    pub method: Method,
    /// The matchpoint scale (`ebu` or `acbl`); omitted for IMP scoring.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    pub rankings: Vec<BridgeRanking>,
    /// The field this section is scored in, when it is scored across the field: the rankings
    /// are then of this section's pairs on the field's scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_the_field: Option<AcrossTheFieldMark>,
}

/// The standings, with who holds each pair.
pub fn standings(
    score: &SessionScore,
    settings: ScoringSettings,
    holders: &BTreeMap<PairId, Holder>,
) -> BridgeStandings {
    BridgeStandings {
        method: settings.scoring,
        scale: (!settings.scoring.is_imps()).then(|| settings.scale()),
        rankings: score
            .rankings
            .iter()
            .map(|r| BridgeRanking {
                direction: r.direction.map(|d| match d {
                    Direction::Ns => "NS",
                    Direction::Ew => "EW",
                }),
                entries: r
                    .entries
                    .iter()
                    .map(|e| {
                        let holder = holders.get(&e.pair);
                        BridgeStandingEntry {
                            rank: e.rank.clone(),
                            pair: pair_number(e.pair),
                            line: if r.direction.is_none() {
                                line_name(e.pair)
                            } else {
                                None
                            },
                            participant_id: holder.map(|h| h.participant_id),
                            name: holder.map(|h| h.name.clone()),
                            total: e.total,
                            percent: e.percent,
                            boards: e.boards,
                        }
                    })
                    .collect(),
            })
            .collect(),
        across_the_field: None,
    }
}

/// One board on a pair's score card, from the pair's side.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ScorecardLine {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    /// The cards the pair held: `NS` or `EW`.
    pub direction: &'static str,
    /// The opponents' pair number and who they are.
    pub opponent: u32,
    pub opponent_name: Option<String>,
    pub contract: Option<String>,
    pub declarer: Option<Seat>,
    pub result: Option<String>,
    pub tricks: Option<u8>,
    /// The pair's own score (negative when the opponents scored); null for an adjusted score.
    pub score: Option<i32>,
    pub adjusted: Option<String>,
    /// Matchpoints or IMPs the pair earned on the board.
    pub points: f64,
    /// Matchpoint scoring: the pair's share of the top.
    pub percent: Option<f64>,
}

/// A pair's personal score card.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Scorecard {
    pub pair: u32,
    /// `NS` or `EW` under Mitchell numbering, null under Howell numbering.
    #[schema(value_type = Option<String>)]
    pub direction: Option<&'static str>,
    pub participant_id: Option<i64>,
    pub name: Option<String>,
    pub method: Method,
    pub rank: Option<String>,
    pub total: f64,
    pub percent: Option<f64>,
    pub boards: u32,
    /// In round and board order.
    pub lines: Vec<ScorecardLine>,
}

/// The score card of `pair`.
pub fn scorecard(
    pair: PairId,
    results: &[TableResult],
    score: &SessionScore,
    method: Method,
    holders: &BTreeMap<PairId, Holder>,
) -> Scorecard {
    let lines = score.lines_by_index(results.len());
    let mut card: Vec<ScorecardLine> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ns == pair || r.ew == pair)
        .map(|(i, r)| {
            let ns_side = r.ns == pair;
            let l = lines[i];
            let opponent = if ns_side { r.ew } else { r.ns };
            let own = |ns: i32, ew: Option<i32>| {
                if ns_side {
                    ns
                } else {
                    -ew.unwrap_or(ns)
                }
            };
            ScorecardLine {
                round: r.round,
                table: r.table,
                board: r.board,
                direction: if ns_side { "NS" } else { "EW" },
                opponent: pair_number(opponent),
                opponent_name: holders.get(&opponent).map(|h| h.name.clone()),
                contract: r.outcome.contract.clone(),
                declarer: r.outcome.declarer,
                result: r.outcome.result(),
                tricks: r.outcome.tricks,
                score: r.outcome.ns_score.map(|s| own(s, r.outcome.ew_score)),
                adjusted: r.outcome.adjusted.clone(),
                points: round2(l.map_or(0.0, |l| if ns_side { l.ns } else { l.ew })),
                percent: l
                    .and_then(|l| if ns_side { l.ns_percent } else { l.ew_percent })
                    .map(round2),
            }
        })
        .collect();
    card.sort_by_key(|l| (l.round, l.board));
    let entry = score
        .rankings
        .iter()
        .flat_map(|r| &r.entries)
        .find(|e| e.pair == pair);
    let holder = holders.get(&pair);
    Scorecard {
        pair: pair_number(pair),
        direction: line_name(pair),
        participant_id: holder.map(|h| h.participant_id),
        name: holder.map(|h| h.name.clone()),
        method,
        rank: entry.map(|e| e.rank.clone()),
        total: entry.map_or(0.0, |e| e.total),
        percent: entry.and_then(|e| e.percent),
        boards: entry.map_or(0, |e| e.boards),
        lines: card,
    }
}

/// What a pair scored in one round of the session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundScore {
    pub round: u32,
    /// Boards of the round with a result.
    pub boards: u32,
    /// Matchpoints or IMPs on those boards, to 2 decimals.
    pub total: f64,
    /// Matchpoint scoring: over the tops of those boards × 100, as the standings' percent.
    pub percent: Option<f64>,
}

/// The rounds in which `pair` has results, in round order: its lines of the score card summed
/// by round, unrounded before the sum (so the rounds add up to the standings' total, up to
/// the rounding to 2 decimals).
pub fn round_scores(
    pair: PairId,
    results: &[TableResult],
    score: &SessionScore,
    method: Method,
) -> Vec<RoundScore> {
    // round -> (matchpoints or IMPs, tops, boards)
    let mut by_round: BTreeMap<u32, (f64, f64, u32)> = BTreeMap::new();
    for b in &score.boards {
        let top = b.top.unwrap_or(0.0);
        for l in &b.lines {
            let Some(r) = results.get(l.index) else {
                continue;
            };
            let points = if r.ns == pair {
                l.ns
            } else if r.ew == pair {
                l.ew
            } else {
                continue;
            };
            let t = by_round.entry(r.round).or_default();
            t.0 += points;
            t.1 += top;
            t.2 += 1;
        }
    }
    by_round
        .into_iter()
        .map(|(round, (total, top, boards))| RoundScore {
            round,
            boards,
            total: round2(total),
            percent: percent_of_tops(method, total, top, boards),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::session::score_session;

    fn played(round: u32, table: u32, board: u32, ns: u32, ew: u32, score: i32) -> TableResult {
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
    fn a_pairs_rounds_add_its_boards_of_each_round() {
        // Round 1: NS 1 v EW 1 plays boards 1-2 at table 1, NS 2 v EW 2 boards 3-4 at table 2.
        // Round 2: NS 1 v EW 3 plays boards 3-4, NS 2 v EW 4 boards 1-2.
        let results = vec![
            played(1, 1, 1, 1, 1, 420),
            played(1, 1, 2, 1, 1, -100),
            played(1, 2, 3, 2, 2, 140),
            played(1, 2, 4, 2, 2, 50),
            played(2, 1, 3, 1, 3, 140),
            played(2, 1, 4, 1, 3, -110),
            played(2, 2, 1, 2, 4, 400),
            played(2, 2, 2, 2, 4, -100),
        ];
        let all: Vec<Played> = results.iter().map(|r| r.played().unwrap()).collect();
        let pairs = [1, 2].map(PairId::Ns);
        let settings = ScoringSettings::default();
        let score = score_session(&all, &pairs, settings, true);
        // Two scores per board, EBU: top 2. NS 1: round 1 board 1 beats 400 (2), board 2
        // ties -100 (1); round 2 board 3 ties 140 (1), board 4 loses to 50 (0).
        let ns1 = round_scores(PairId::Ns(1), &results, &score, settings.scoring);
        assert_eq!(
            ns1,
            vec![
                RoundScore {
                    round: 1,
                    boards: 2,
                    total: 3.0,
                    percent: Some(75.0)
                },
                RoundScore {
                    round: 2,
                    boards: 2,
                    total: 1.0,
                    percent: Some(25.0)
                },
            ]
        );
        // EW 3 played round 2 only: board 3 ties (1), board 4 beats NS 50 (2).
        let ew3 = round_scores(PairId::Ew(3), &results, &score, settings.scoring);
        assert_eq!(
            ew3,
            vec![RoundScore {
                round: 2,
                boards: 2,
                total: 3.0,
                percent: Some(75.0)
            }]
        );
        // The rounds add up to the standings' total of the pair.
        for ranking in &score.rankings {
            for e in &ranking.entries {
                let rounds = round_scores(e.pair, &results, &score, settings.scoring);
                let sum: f64 = rounds.iter().map(|r| r.total).sum();
                assert_eq!(round2(sum), e.total, "{:?}", e.pair);
                assert_eq!(rounds.iter().map(|r| r.boards).sum::<u32>(), e.boards);
            }
        }
        // Under IMPs there is no percent.
        let imps = ScoringSettings {
            scoring: Method::CrossImps,
            scale: None,
        };
        let score = score_session(&all, &pairs, imps, true);
        let ns1 = round_scores(PairId::Ns(1), &results, &score, imps.scoring);
        // Cross-IMPs, one other score per board: 420 v 400 = 1, -100 v -100 = 0;
        // 140 v 140 = 0, -110 v 50 = -160: -4.
        assert_eq!(ns1[0].total, 1.0);
        assert_eq!(ns1[1].total, -4.0);
        assert_eq!(ns1[0].percent, None);
    }
}
