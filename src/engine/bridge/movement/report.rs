//! The facts a director chooses a movement by (seed 002), and its balance.
//!
//! Definitions, so that every number can be checked by hand:
//! - A board is *played* at a table only when both seats are filled; a pair alone at a half
//!   table sits out that round (as does a pair listed under `sit_out`).
//! - `times_each_board_played`: for every board of the movement, the number of tables at which
//!   it is played; min and max over boards.
//! - `boards_per_pair`: boards each pair plays; min and max over pairs.
//! - `sit_outs_per_pair`: rounds in which a pair sits out; `longest_sit_out`: the most
//!   consecutive such rounds of any pair, in boards.
//! - `max_meetings`/`min_meetings`: how many rounds two pairs play each other; the minimum is
//!   over the pairs that can meet (NS against EW under Mitchell numbering, any two pairs under
//!   Howell numbering).
//! - `stationary_pairs`: pairs at the same table in every round (they may switch direction).
//! - `winners`: 2 under Mitchell numbering without arrow-switched rounds, otherwise 1.
//! - `masterpoints`: a session is the boards of its rounds (per round, the most boards at any
//!   table); a pair is scheduled the boards it plays plus those of the rounds it sits out.
//!   Eligible when the session has at least 24 boards and every pair is scheduled at least
//!   75% of them.
//! - `balance`: for each board played at t tables, every two pairs who play it score +1 if
//!   they sit the same direction at different tables, −1 if opposite directions at different
//!   tables, and t − 1 if they are opponents (an arrow-switched table swaps its pairs'
//!   directions). Summed over boards for each pair of pairs (all n(n−1)/2 of them, zero when
//!   they never share a board): the mean μ, the population standard deviation σ and
//!   100·μ²/(μ²+σ²) (100 = perfectly balanced; 0 when there is nothing to compare).
//! - `line_balance` (two-winner movements): for the two pairs of each line, the number of
//!   boards on which they sit the same direction at different tables; mean, σ, min, max.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::comparisons::{comparison_counts, ComparisonCounts};
use super::model::{is_full, seated};
use super::model::{Direction, Movement, PairId, PairNumbering, SitOut};
use super::validate::{all_pairs, validate, Finding, Severity};

/// A smallest and a largest value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MinMax {
    pub min: u32,
    pub max: u32,
}

impl MinMax {
    fn of(values: impl IntoIterator<Item = u32>) -> MinMax {
        let mut it = values.into_iter();
        let Some(first) = it.next() else {
            return MinMax { min: 0, max: 0 };
        };
        it.fold(
            MinMax {
                min: first,
                max: first,
            },
            |a, v| MinMax {
                min: a.min.min(v),
                max: a.max.max(v),
            },
        )
    }
}

/// Balance of comparisons over all pairs of pairs (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Balance {
    /// Mean comparison count μ over all pairs of pairs.
    pub mean: f64,
    /// Population standard deviation σ of the comparison counts.
    pub sd: f64,
    /// 100·μ²/(μ²+σ²): 100 = perfectly balanced.
    pub percent: f64,
}

/// Same-direction comparisons between the pairs of one line of a two-winner movement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LineBalance {
    /// The line (the pairs' home direction).
    pub direction: Direction,
    pub mean: f64,
    pub sd: f64,
    /// 100·μ²/(μ²+σ²) of these counts.
    pub percent: f64,
    pub min: u32,
    pub max: u32,
}

/// Masterpoint eligibility of the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Masterpoints {
    pub eligible: bool,
    /// Boards in the session (per round, the most boards at any table).
    pub session_boards: u32,
    /// The fewest boards any pair is scheduled (played plus sat out).
    pub min_boards_scheduled: u32,
    /// That minimum as a percentage of the session.
    pub min_percent: f64,
    /// Why, in a director's words.
    pub reason: String,
}

/// Everything a director needs to choose a movement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MovementReport {
    /// True when the validator found no errors.
    pub valid: bool,
    /// Hard errors (the movement cannot be played as written).
    pub errors: Vec<Finding>,
    /// Warnings (e.g. a set shared by two tables).
    pub warnings: Vec<Finding>,
    pub kind: String,
    pub tables: u32,
    pub pair_numbering: PairNumbering,
    /// Number of pairs named in the movement.
    pub pairs: u32,
    pub rounds: u32,
    pub boards_per_round: u32,
    /// Distinct boards needed.
    pub boards: u32,
    /// Distinct sets of boards needed.
    pub sets: u32,
    /// The most tables playing one set in one round (2 or more = sharing; with half-sets, the
    /// most tables playing one half-set in the same half of a round).
    pub max_tables_sharing_a_set: u32,
    pub times_each_board_played: MinMax,
    pub boards_per_pair: MinMax,
    /// Rounds each pair sits out.
    pub sit_outs_per_pair: MinMax,
    /// The longest run of consecutive sit-out rounds of any pair, in boards.
    pub longest_sit_out: u32,
    /// True when some round has a table with only one pair.
    pub half_table: bool,
    pub max_meetings: u32,
    pub min_meetings: u32,
    pub stationary_pairs: Vec<SitOut>,
    /// 1 or 2.
    pub winners: u8,
    pub masterpoints: Masterpoints,
    pub balance: Balance,
    /// Two-winner movements: same-direction comparisons within each line.
    pub line_balance: Vec<LineBalance>,
}

fn label(id: PairId) -> SitOut {
    match id {
        PairId::Ns(n) => SitOut::Ns(n),
        PairId::Ew(n) => SitOut::Ew(n),
        PairId::Pair(n) => SitOut::Pair(n),
    }
}

/// Mean, population sd and balance percent of counts over `total` items, of which those not
/// in `counts` are zero.
fn stats(counts: impl Iterator<Item = i64>, total: u64) -> (f64, f64, f64) {
    if total == 0 {
        return (0.0, 0.0, 0.0);
    }
    let (mut s, mut s2) = (0f64, 0f64);
    for c in counts {
        s += c as f64;
        s2 += (c as f64) * (c as f64);
    }
    let n = total as f64;
    let mean = s / n;
    let var = (s2 / n - mean * mean).max(0.0);
    let pct = if mean == 0.0 {
        0.0
    } else {
        100.0 * mean * mean / (mean * mean + var)
    };
    (mean, var.sqrt(), pct)
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Balance from the comparison counts of all n pairs (zero for pairs never compared).
fn balance_of(counts: Option<&ComparisonCounts>, n: usize) -> Balance {
    let n = n as u64;
    let (mean, sd, percent) = match counts {
        Some(c) => stats(
            c.values().iter().map(|&v| i64::from(v)),
            n * n.saturating_sub(1) / 2,
        ),
        None => (0.0, 0.0, 0.0),
    };
    Balance { mean, sd, percent }
}

/// The balance of comparisons of a movement (see the module docs).
pub fn balance(m: &Movement) -> Balance {
    let pairs = all_pairs(m);
    let index: BTreeMap<PairId, usize> = pairs.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    balance_of(comparison_counts(m, &index).as_ref(), pairs.len())
}

/// Reports on a movement: validity and every fact of the module docs.
pub fn report(m: &Movement) -> MovementReport {
    let findings = validate(m);
    let (errors, warnings): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    let pairs = all_pairs(m);
    let index: BTreeMap<PairId, usize> = pairs.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let np = pairs.len();

    let mut board_times: BTreeMap<u32, u32> = BTreeMap::new();
    let mut sets = BTreeSet::new();
    let mut boards_played = vec![0u32; np];
    let mut scheduled = vec![0u32; np];
    let mut sit_outs = vec![0u32; np];
    let mut run = vec![0u32; np];
    let mut longest = 0u32;
    let mut meetings: HashMap<(usize, usize), u32> = HashMap::new();
    // pair -> Some((table, dir)) while stationary so far, None once it moved or sat out
    let mut home: Vec<Option<Option<(u32, Direction)>>> = vec![Some(None); np];
    let mut session_boards = 0u32;
    let mut max_share = 0u32;
    let mut half_table = false;
    let switched = m
        .rounds
        .iter()
        .any(|r| r.tables.iter().any(|t| t.arrow_switch));

    for r in &m.rounds {
        let round_boards = r
            .tables
            .iter()
            .map(|t| t.boards.len() as u32)
            .max()
            .unwrap_or(m.boards_per_round);
        session_boards = session_boards.saturating_add(round_boards);
        let mut playing = vec![false; np];
        let mut present = vec![false; np];
        // (set, half, slot): a whole set is (set, 0, 0); a half-set its half and part of the round
        let mut set_count: BTreeMap<(u32, u32, usize), u32> = BTreeMap::new();
        for t in &r.tables {
            sets.extend(t.sets_played());
            if t.half_sets.is_empty() {
                *set_count.entry((t.set, 0, 0)).or_insert(0) += 1;
            }
            for (slot, h) in t.half_sets.iter().enumerate() {
                *set_count.entry((h.set, h.half, slot)).or_insert(0) += 1;
            }
            let full = is_full(t);
            half_table |= !full && (t.ns.is_some() || t.ew.is_some());
            for &b in &t.boards {
                let e = board_times.entry(b).or_insert(0);
                if full {
                    *e += 1;
                }
            }
            let ids = seated(m, t);
            for &(p, dir) in &ids {
                let i = index[&p];
                present[i] = true;
                home[i] = match home[i] {
                    Some(None) => Some(Some((t.table, dir))),
                    Some(Some(h)) if h.0 == t.table => Some(Some(h)),
                    _ => None,
                };
                if full && !playing[i] {
                    playing[i] = true;
                    boards_played[i] += t.boards.len() as u32;
                    scheduled[i] = scheduled[i].saturating_add(t.boards.len() as u32);
                }
            }
            if full {
                let (a, b) = (index[&ids[0].0], index[&ids[1].0]);
                if a != b {
                    *meetings.entry(key(a, b)).or_insert(0) += 1;
                }
            }
        }
        max_share = max_share.max(set_count.values().copied().max().unwrap_or(0));
        for s in &r.sit_out {
            if let Some(&i) = index.get(&s.pair_id()) {
                present[i] = true;
            }
        }
        for i in 0..np {
            if !present[i] {
                home[i] = None;
            }
            if present[i] && !playing[i] {
                home[i] = None;
                sit_outs[i] += 1;
                scheduled[i] = scheduled[i].saturating_add(round_boards);
                run[i] = run[i].saturating_add(round_boards);
                longest = longest.max(run[i]);
            } else {
                run[i] = 0;
            }
        }
    }

    // Two pairs can meet when NS meets EW (Mitchell numbering) or under Howell numbering.
    // Every meeting is of two such pairs, so the fewest is 0 unless all of them met.
    let count = |f: fn(&PairId) -> bool| pairs.iter().filter(|p| f(p)).count() as u64;
    let howell = count(|p| matches!(p, PairId::Pair(_)));
    let possible = count(|p| matches!(p, PairId::Ns(_))) * count(|p| matches!(p, PairId::Ew(_)))
        + howell * howell.saturating_sub(1) / 2;
    let min_meetings = if possible == 0 {
        None
    } else if (meetings.len() as u64) < possible {
        Some(0)
    } else {
        meetings.values().copied().min()
    };

    let counts = comparison_counts(m, &index);
    let balance = balance_of(counts.as_ref(), np);
    let winners: u8 = if m.pair_numbering == PairNumbering::Mitchell && !switched {
        2
    } else {
        1
    };
    let mut line_balance = Vec::new();
    if winners == 2 {
        for dir in [Direction::Ns, Direction::Ew] {
            let line: Vec<usize> = (0..np)
                .filter(|&i| {
                    matches!(
                        (pairs[i], dir),
                        (PairId::Ns(_), Direction::Ns) | (PairId::Ew(_), Direction::Ew)
                    )
                })
                .collect();
            // A pair of one line only ever sits its line's direction here (no arrow
            // switch), so two of them compare +1 on every board both play: their count.
            let mut values = Vec::new();
            if let Some(c) = &counts {
                for (k, &i) in line.iter().enumerate() {
                    values.extend(line[k + 1..].iter().map(|&j| i64::from(c.get(i, j))));
                }
            }
            let (lm, lsd, lp) = stats(values.iter().copied(), values.len() as u64);
            line_balance.push(LineBalance {
                direction: dir,
                mean: lm,
                sd: lsd,
                percent: lp,
                min: values.iter().copied().min().unwrap_or(0).max(0) as u32,
                max: values.iter().copied().max().unwrap_or(0).max(0) as u32,
            });
        }
    }

    let min_sched = scheduled.iter().copied().min().unwrap_or(0);
    let min_percent = if session_boards == 0 {
        0.0
    } else {
        100.0 * f64::from(min_sched) / f64::from(session_boards)
    };
    let long_enough = session_boards >= 24;
    let everyone = u64::from(min_sched) * 4 >= u64::from(session_boards) * 3;
    let reason = match (long_enough, everyone) {
        (false, _) => format!(
            "the session has {session_boards} boards; masterpoint sessions need at least 24"
        ),
        (true, false) => format!(
            "a pair is scheduled only {min_sched} of the {session_boards} boards ({min_percent:.0}%); every pair needs at least 75%"
        ),
        (true, true) => format!(
            "{session_boards} boards and every pair is scheduled at least {min_sched} ({min_percent:.0}%, sit-outs counting as played)"
        ),
    };

    MovementReport {
        valid: errors.is_empty(),
        errors,
        warnings,
        kind: m.kind.clone(),
        tables: m.tables,
        pair_numbering: m.pair_numbering,
        pairs: np as u32,
        rounds: m.rounds.len() as u32,
        boards_per_round: m.boards_per_round,
        boards: board_times.len() as u32,
        sets: sets.len() as u32,
        max_tables_sharing_a_set: max_share,
        times_each_board_played: MinMax::of(board_times.values().copied()),
        boards_per_pair: MinMax::of(boards_played.iter().copied()),
        sit_outs_per_pair: MinMax::of(sit_outs.iter().copied()),
        longest_sit_out: longest,
        half_table,
        max_meetings: meetings.values().copied().max().unwrap_or(0),
        min_meetings: min_meetings.unwrap_or(0),
        stationary_pairs: (0..np)
            .filter(|&i| matches!(home[i], Some(Some(_))))
            .map(|i| label(pairs[i]))
            .collect(),
        winners,
        masterpoints: Masterpoints {
            eligible: long_enough && everyone,
            session_boards,
            min_boards_scheduled: min_sched,
            min_percent,
            reason,
        },
        balance,
        line_balance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::movement::model::{Movement, TableRound};
    use crate::engine::bridge::movement::validate::tests::{mitchell3, round, tr};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn balance_of_one_board_at_two_tables_by_hand() {
        // Board 1 at table 1 (1 v 2) and table 2 (3 v 4), t = 2.
        // (1,2),(3,4) opponents: t-1 = 1 each; (1,3),(2,4) same direction: +1;
        // (1,4),(2,3) opposite directions: -1. Values 1,1,1,1,-1,-1:
        // mean 1/3, E[x²] = 1, σ² = 8/9, percent = 100·(1/9)/(1/9+8/9) = 11.11.
        let m = Movement {
            kind: "custom".into(),
            tables: 2,
            pair_numbering: PairNumbering::Howell,
            boards_per_round: 1,
            rounds: vec![round(
                1,
                vec![tr(1, 1, 2, 1, &[1]), tr(2, 3, 4, 1, &[1])],
                vec![],
            )],
        };
        let b = balance(&m);
        assert!(close(b.mean, 1.0 / 3.0));
        assert!(close(b.sd, (8.0f64 / 9.0).sqrt()));
        assert!(close(b.percent, 100.0 / 9.0));
        // Arrow-switching table 2 swaps 3 and 4: (1,4),(2,3) become +1, (1,3),(2,4) -1:
        // the same multiset of values.
        let mut s = m.clone();
        s.rounds[0].tables[1].arrow_switch = true;
        assert!(close(balance(&s).percent, 100.0 / 9.0));
        let r = report(&s);
        assert_eq!(r.winners, 1);
    }

    #[test]
    fn mitchell_facts() {
        let m = mitchell3(2);
        let r = report(&m);
        assert!(r.valid);
        assert_eq!((r.pairs, r.rounds, r.boards, r.sets), (6, 3, 6, 3));
        assert_eq!(r.times_each_board_played, MinMax { min: 3, max: 3 });
        assert_eq!(r.boards_per_pair, MinMax { min: 6, max: 6 });
        assert_eq!(r.sit_outs_per_pair, MinMax { min: 0, max: 0 });
        assert_eq!((r.max_meetings, r.min_meetings), (1, 1));
        assert_eq!(
            r.stationary_pairs,
            vec![SitOut::Ns(1), SitOut::Ns(2), SitOut::Ns(3)]
        );
        assert_eq!(r.winners, 2);
        assert!(!r.masterpoints.eligible);
        assert_eq!(r.masterpoints.session_boards, 6);
        // Each board at 3 tables: NS pairs compare +1 on each of 6 boards (6 each);
        // so within each line every two pairs have 6 same-direction comparisons.
        for l in &r.line_balance {
            assert_eq!((l.min, l.max), (6, 6));
            assert!(close(l.percent, 100.0));
        }
        // Whole-field balance by hand: NS-NS and EW-EW pairs: +6 (6 pairs of pairs);
        // NS i v EW j: meets on 2 boards (+2·2 = 4) and is at different tables with
        // opposite directions on the other 4 boards (−4): 0 (9 pairs of pairs).
        // mean = 36/15 = 2.4, E[x²] = 216/15 = 14.4, σ² = 14.4 − 5.76 = 8.64.
        assert!(close(r.balance.mean, 2.4));
        assert!(close(r.balance.percent, 100.0 * 5.76 / 14.4));
    }

    #[test]
    fn masterpoints_count_sit_outs_as_played() {
        // 8 boards a round, 3 rounds = 24 boards, all pairs play everything.
        assert!(report(&mitchell3(8)).masterpoints.eligible);
        // EW 3 sits out round 3 (half table at table 2): still 24 scheduled.
        let mut m = mitchell3(8);
        let t = m.rounds[2]
            .tables
            .iter_mut()
            .find(|t| t.ew == Some(3))
            .unwrap();
        t.ns = None;
        let table = t.table;
        m.rounds[2].sit_out.push(SitOut::Ns(table));
        let r = report(&m);
        assert!(r.half_table);
        assert_eq!(r.sit_outs_per_pair, MinMax { min: 0, max: 1 });
        assert_eq!(r.longest_sit_out, 8);
        assert_eq!(r.times_each_board_played, MinMax { min: 2, max: 3 });
        assert!(r.masterpoints.eligible, "{:?}", r.masterpoints);
        // A pair absent from two rounds (neither seated nor sitting out) is not eligible.
        let mut late = mitchell3(8);
        for r in &mut late.rounds[..2] {
            let t: &mut TableRound = r.tables.iter_mut().find(|t| t.ew == Some(1)).unwrap();
            t.ew = None;
        }
        for r in &mut late.rounds[..2] {
            r.sit_out.retain(|s| *s != SitOut::Ew(1));
        }
        let r = report(&late);
        assert_eq!(r.masterpoints.min_boards_scheduled, 8);
        assert!(!r.masterpoints.eligible);
    }
}
