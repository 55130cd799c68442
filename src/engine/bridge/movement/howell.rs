//! Howell movements (seed 002): one winner, every pair meets every other pair and plays every
//! board; one stationary pair; sets = rounds = pairs − 1; relays as needed; boards move back
//! one station through tables and relay stands; each moving pair follows the next lower
//! numbered moving pair (pair 1 follows the highest moving pair).
//!
//! Construction (see `search` for the proof sketch): pair 2T is stationary at the
//! highest table; in round r every moving pair p becomes p + 1 and every set s becomes s + 1
//! (both cyclic over 1..2T−1) at the seat it held in round r − 1. Round 1 is a *starter*
//! found offline by `search::search` and embedded below; tests rebuild every size and
//! check it against the validator and the balance it is documented to reach.
//!
//! 2 and 3 tables have no cyclic starter (see `search::search_small`): their layouts
//! are embedded whole; there tables share sets in some rounds (all 2 tables every round; all
//! 3 tables in round 1 of the 3-table Howell), which the validator reports as warnings.
//!
//! Odd numbers of pairs (`half_table`): one pair is absent (the stationary one or the highest
//! moving one, whichever balances better); the pair that would have met it sits out and its
//! set rests that round.

#[path = "howell/search.rs"]
pub mod search;

use super::mitchell::common::{check_sets, refuse_other_options};
use super::model::{
    set_boards, Movement, MovementError, MovementParams, PairNumbering, Round, SitOut, TableRound,
};
use super::report::balance;
use search::{expand, expand_three_quarter, Layout, Starter, ThreeQuarterStarter};

/// The options the Howells read besides tables, rounds and boards per round: `half_table`
/// (either direction: an odd number of pairs) and `sets` (the sets available).
const HOWELL_OPTIONS: &[&str] = &["half_table", "sets"];

/// Sizes served by `howell`.
pub const MIN_TABLES: u32 = 2;
pub const MAX_TABLES: u32 = 15;

/// Balanced starters found by `search::search` (tables, pair N sits NS, partner of N,
/// its set, rows [NS, EW, set]); elements of Z_(2T−1), pair number = element + 1.
/// Regenerate with the scratch `search` binary; `tests::embedded_starters_are_balanced_howells`
/// re-verifies every entry.
type Embedded = (u32, bool, u32, u32, &'static [[u32; 3]]);
include!("howell/data.rs");

/// The embedded starter for `tables` tables (4..=15).
pub fn starter(tables: u32) -> Option<Starter> {
    STARTERS.iter().find(|e| e.0 == tables).map(
        |&(_, stationary_ns, partner, partner_set, rows)| Starter {
            stationary_ns,
            partner,
            partner_set,
            rows: rows.to_vec(),
        },
    )
}

/// The complete Howell layout for `tables` tables (2..=15): per round, per table
/// [NS pair, EW pair, set].
pub fn layout(tables: u32) -> Option<Layout> {
    if let Some(&(_, rounds)) = LAYOUTS.iter().find(|e| e.0 == tables) {
        return Some(rounds.iter().map(|r| r.to_vec()).collect());
    }
    starter(tables).map(|st| expand(tables, &st))
}

/// Builds a movement from a layout, `rounds` rounds of `boards_per_round` boards. With
/// `phantom = Some(p)`, pair p is absent: its table holds the sit-out of its opponent, its
/// set rests that round, and the pairs above p are renumbered one lower.
pub fn from_layout(
    tables: u32,
    layout: &Layout,
    boards_per_round: u32,
    rounds: u32,
    phantom: Option<u32>,
) -> Movement {
    let n = layout
        .iter()
        .flat_map(|r| r.iter().map(|c| c[2]))
        .max()
        .unwrap_or(0);
    let renumber = |q: u32| match phantom {
        Some(p) if q > p => q - 1,
        _ => q,
    };
    let mut out = Vec::new();
    for (rho, cells) in layout.iter().take(rounds as usize).enumerate() {
        let mut tables_v = Vec::new();
        let mut sit_out = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            if phantom == Some(c[0]) || phantom == Some(c[1]) {
                let other = if phantom == Some(c[0]) { c[1] } else { c[0] };
                sit_out.push(SitOut::Pair(renumber(other)));
                continue;
            }
            tables_v.push(TableRound {
                table: i as u32 + 1,
                ns: Some(renumber(c[0])),
                ew: Some(renumber(c[1])),
                set: c[2],
                boards: set_boards(c[2], boards_per_round),
                arrow_switch: false,
                section: None,
            });
        }
        let relay_sets: Vec<u32> = (1..=n)
            .filter(|s| !tables_v.iter().any(|t| t.set == *s))
            .collect();
        out.push(Round {
            round: rho as u32 + 1,
            tables: tables_v,
            sit_out,
            relay_sets,
        });
    }
    Movement {
        kind: "howell".to_string(),
        tables,
        pair_numbering: PairNumbering::Howell,
        boards_per_round,
        rounds: out,
    }
}

fn supported() -> String {
    format!(
        "{MIN_TABLES} to {MAX_TABLES} tables ({} to {} pairs; an odd number of pairs with half_table)",
        2 * MIN_TABLES - 1,
        2 * MAX_TABLES
    )
}

fn boards_per_round(p: &MovementParams) -> Result<u32, MovementError> {
    match p.boards_per_round {
        None => Ok(2),
        Some(b) if (1..=8).contains(&b) => Ok(b),
        Some(_) => Err(MovementError::new(
            "boards_per_round",
            "boards per round must be between 1 and 8",
        )
        .with_supported("1 to 8")),
    }
}

fn rounds(p: &MovementParams, full: u32) -> Result<u32, MovementError> {
    match p.rounds {
        None => Ok(full),
        Some(r) if (1..=full).contains(&r) => Ok(r),
        Some(r) => Err(MovementError::new(
            "rounds",
            format!("this movement has {full} rounds; {r} cannot be played"),
        )
        .with_supported(format!("1 to {full}"))),
    }
}

/// A complete Howell for `p.tables` tables (2T pairs, or 2T − 1 with `half_table`), with
/// `boards_per_round` boards a round (default 2); `rounds` curtails it (then boards are not
/// all played equally often: the report says so).
pub fn howell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_other_options(p, "howell", HOWELL_OPTIONS)?;
    if !(MIN_TABLES..=MAX_TABLES).contains(&p.tables) {
        return Err(
            MovementError::new("tables", format!("no Howell for {} tables", p.tables))
                .with_supported(supported()),
        );
    }
    let lay = layout(p.tables).ok_or_else(|| {
        MovementError::new("tables", format!("no Howell for {} tables", p.tables))
            .with_supported(supported())
    })?;
    let bpr = boards_per_round(p)?;
    let r = rounds(p, 2 * p.tables - 1)?;
    check_sets(p, 2 * p.tables - 1)?;
    if p.half_table.is_none() {
        return Ok(from_layout(p.tables, &lay, bpr, r, None));
    }
    Ok(best_phantom(p.tables, &lay, bpr, r, 2 * p.tables - 1))
}

/// With an odd number of pairs, the absent pair is either the highest stationary pair 2T
/// (its table is the sit-out table every round) or the highest moving pair; the one giving the
/// better balance over the full movement is taken (the stationary pair on a tie).
fn best_phantom(tables: u32, lay: &Layout, bpr: u32, rounds: u32, moving_top: u32) -> Movement {
    let full = lay.len() as u32;
    let pct = |p: u32| balance(&from_layout(tables, lay, 1, full, Some(p))).percent;
    let phantom = if pct(moving_top) > pct(2 * tables) + 1e-9 {
        moving_top
    } else {
        2 * tables
    };
    from_layout(tables, lay, bpr, rounds, Some(phantom))
}

/// The embedded 3/4 Howell starter for `tables` tables and `rounds` rounds.
pub fn three_quarter_starter(tables: u32, rounds: u32) -> Option<ThreeQuarterStarter> {
    THREE_QUARTER
        .iter()
        .find(|e| e.0 == tables && e.1 == rounds)
        .map(|&(_, _, moving, stationary)| ThreeQuarterStarter {
            moving: moving.to_vec(),
            stationary: stationary.to_vec(),
        })
}

/// The rounds a 3/4 Howell can be played in on `tables` tables, fewest first.
pub fn three_quarter_rounds(tables: u32) -> Vec<u32> {
    let mut rs: Vec<u32> = THREE_QUARTER
        .iter()
        .filter(|e| e.0 == tables)
        .map(|e| e.1)
        .collect();
    rs.sort_unstable();
    rs
}

/// The usual 3/4 Howell on `tables` tables: about three quarters of the full Howell's
/// 2T − 1 rounds, the nearest served (the fewer rounds on a tie).
pub fn usual_three_quarter_rounds(tables: u32) -> Option<u32> {
    let target = 3 * (2 * tables).saturating_sub(1); // four times the wanted rounds
    three_quarter_rounds(tables)
        .into_iter()
        .min_by_key(|&r| (4 * r).abs_diff(target))
}

/// The (tables, rounds) a 3/4 Howell is embedded for, as a director reads them.
pub fn three_quarter_sizes() -> String {
    let mut parts = Vec::new();
    for t in MIN_TABLES..=MAX_TABLES {
        let rs: Vec<String> = THREE_QUARTER
            .iter()
            .filter(|e| e.0 == t)
            .map(|e| e.1.to_string())
            .collect();
        if !rs.is_empty() {
            parts.push(format!("{t} tables: {} rounds", rs.join("/")));
        }
    }
    parts.join("; ")
}

/// A 3/4 (shortened) Howell: `p.tables` tables (2T pairs, or 2T − 1 with `half_table`),
/// `p.rounds` rounds (default the usual one, [`usual_three_quarter_rounds`]) and as many sets; 2T − rounds stationary pairs (the highest
/// numbers, at the highest tables); the moving pairs 1..rounds rotate as in a Howell (each
/// follows the next lower) and the sets move back one station. Every pair plays every
/// board once; pairs do not all meet. As seed 002 suggests, some stationary pairs switch
/// direction in some rounds to improve the balance (still at their own table). The starters
/// are found by `search::search_three_quarter` and embedded; the report gives their balance.
pub fn three_quarter_howell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_other_options(p, "three_quarter_howell", HOWELL_OPTIONS)?;
    let t = p.tables;
    if !(MIN_TABLES..=MAX_TABLES).contains(&t) {
        return Err(
            MovementError::new("tables", format!("no 3/4 Howell for {t} tables"))
                .with_supported(three_quarter_sizes()),
        );
    }
    let Some(r) = p.rounds.or_else(|| usual_three_quarter_rounds(t)) else {
        return Err(
            MovementError::new("tables", format!("no 3/4 Howell for {t} tables"))
                .with_supported(three_quarter_sizes()),
        );
    };
    let st = three_quarter_starter(t, r).ok_or_else(|| {
        MovementError::new(
            "rounds",
            format!("no 3/4 Howell for {t} tables and {r} rounds"),
        )
        .with_supported(three_quarter_sizes())
    })?;
    let bpr = boards_per_round(p)?;
    check_sets(p, r)?;
    let lay = expand_three_quarter(t, r, &st);
    let mut m = if p.half_table.is_none() {
        from_layout(t, &lay, bpr, r, None)
    } else {
        best_phantom(t, &lay, bpr, r, r)
    };
    m.kind = "three_quarter_howell".to_string();
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::search::{layout_percent, search, search_small};
    use super::*;
    use crate::engine::bridge::movement::model::Direction;
    use crate::engine::bridge::movement::report::{report, MinMax};

    /// Balance percent reached (floored to 0.01) per size: (tables, full, with a half table).
    /// Even table counts are perfectly balanced except 14 (27 moving pairs: no cyclic ±1
    /// sequence of length 27 has two-level autocorrelation, and 98.66% is the cyclic optimum,
    /// as are the odd sizes' levels). 2 tables with a half table is 3 pairs: every board is
    /// played once, so nothing is compared (0).
    const HOWELL_LEVELS: &[(u32, f64, f64)] = &[
        (2, 100.00, 0.00),
        (3, 60.00, 38.46),
        (4, 100.00, 100.00),
        (5, 83.33, 81.81),
        (6, 100.00, 100.00),
        (7, 91.30, 94.93),
        (8, 100.00, 96.92),
        (9, 94.73, 96.07),
        (10, 100.00, 100.00),
        (11, 96.49, 98.06),
        (12, 100.00, 100.00),
        (13, 97.50, 98.37),
        (14, 98.66, 98.73),
        (15, 98.13, 98.33),
    ];

    fn params(tables: u32, half: bool, bpr: u32) -> MovementParams {
        MovementParams {
            tables,
            boards_per_round: Some(bpr),
            half_table: half.then_some(Direction::Ew),
            ..Default::default()
        }
    }

    #[test]
    fn every_size_is_a_complete_howell() {
        for t in MIN_TABLES..=MAX_TABLES {
            for half in [false, true] {
                let bpr = 3;
                let m = howell(&params(t, half, bpr)).unwrap();
                let r = report(&m);
                let n = 2 * t - 1; // rounds = sets
                let pairs = if half { 2 * t - 1 } else { 2 * t };
                assert!(r.valid, "{t} {half}: {:?}", r.errors);
                assert_eq!(
                    (r.pairs, r.rounds, r.sets, r.boards),
                    (pairs, n, n, n * bpr)
                );
                // every pair meets every other exactly once
                assert_eq!((r.min_meetings, r.max_meetings), (1, 1), "{t} {half}");
                // every pair plays every board once, except its sit-out round
                let per_pair = if half { (n - 1) * bpr } else { n * bpr };
                assert_eq!(
                    r.boards_per_pair,
                    MinMax {
                        min: per_pair,
                        max: per_pair
                    }
                );
                let times = if half { t - 1 } else { t };
                assert_eq!(
                    r.times_each_board_played,
                    MinMax {
                        min: times,
                        max: times
                    }
                );
                let sit = u32::from(half);
                assert_eq!(r.sit_outs_per_pair, MinMax { min: sit, max: sit });
                assert_eq!(r.winners, 1);
                if !half {
                    assert_eq!(r.stationary_pairs, vec![SitOut::Pair(2 * t)], "{t}");
                }
                // sharing only where no other layout exists (2 and 3 tables)
                if t >= 4 {
                    assert!(r.warnings.is_empty(), "{t} {half}: {:?}", r.warnings);
                }
            }
        }
    }

    #[test]
    fn balance_meets_the_documented_level() {
        for &(t, full, half) in HOWELL_LEVELS {
            let f = report(&howell(&params(t, false, 2)).unwrap())
                .balance
                .percent;
            let h = report(&howell(&params(t, true, 2)).unwrap())
                .balance
                .percent;
            assert!(f >= full, "{t}: {f} < {full}");
            assert!(h >= half, "{t} half: {h} < {half}");
            if t % 2 == 0 && t != 14 {
                assert!(f > 99.999_999, "{t} tables must be perfectly balanced: {f}");
            }
        }
    }

    #[test]
    fn moving_pairs_follow_the_next_lower_and_boards_move_one_station() {
        for t in 4..=MAX_TABLES {
            let m = howell(&params(t, false, 1)).unwrap();
            let n = 2 * t - 1;
            let seat = |round: usize, pair: u32| {
                m.rounds[round]
                    .tables
                    .iter()
                    .find_map(|x| {
                        (x.ns == Some(pair))
                            .then_some((x.table, Direction::Ns))
                            .or((x.ew == Some(pair)).then_some((x.table, Direction::Ew)))
                    })
                    .unwrap()
            };
            for r in 1..n as usize {
                for p in 1..=n {
                    let lower = if p == 1 { n } else { p - 1 };
                    assert_eq!(seat(r, p), seat(r - 1, lower), "{t} round {r} pair {p}");
                }
                for (a, b) in m.rounds[r - 1].tables.iter().zip(&m.rounds[r].tables) {
                    assert_eq!(b.set, a.set % n + 1);
                }
                // relay stands hold exactly the sets not in play
                assert_eq!(m.rounds[r].relay_sets.len() as u32, n - t);
            }
        }
    }

    #[test]
    fn embedded_data_is_reproduced_by_the_search() {
        // The search is deterministic; the small sizes are re-run here (the embedded data
        // came from `search(t, 40, 100_000, 5_000)` and `search_small(t, 3_000)`).
        for t in 4..=6 {
            let (st, _) = search(t, 40, 100_000, 5_000).unwrap();
            assert_eq!(Some(st), starter(t), "{t}");
        }
        for t in 2..=3 {
            let (lay, _) = search_small(t, 3_000).unwrap();
            assert_eq!(Some(lay), layout(t));
        }
        // 2 and 3 tables have no cyclic starter.
        assert!(search(2, 5, 10_000, 10).is_none());
        assert!(search(3, 5, 10_000, 10).is_none());
    }

    #[test]
    fn layout_percent_agrees_with_the_report() {
        for t in MIN_TABLES..=MAX_TABLES {
            let lay = layout(t).unwrap();
            let a = layout_percent(&lay, 2 * t as usize, None);
            let b = report(&from_layout(t, &lay, 2, 2 * t - 1, None))
                .balance
                .percent;
            assert!((a - b).abs() < 1e-9, "{t}: {a} {b}");
        }
    }

    #[test]
    fn sizes_it_cannot_serve_are_clear_errors() {
        for t in [0, 1, 16, 40] {
            let e = howell(&params(t, false, 2)).unwrap_err();
            assert_eq!(e.field, "tables");
            assert!(e.supported.unwrap().contains("2 to 15 tables"));
        }
        let mut p = params(5, false, 2);
        p.rounds = Some(10);
        assert_eq!(howell(&p).unwrap_err().field, "rounds");
        p.rounds = Some(0);
        assert_eq!(howell(&p).unwrap_err().field, "rounds");
        assert_eq!(
            howell(&params(5, false, 0)).unwrap_err().field,
            "boards_per_round"
        );
        // curtailed: valid, fewer rounds
        p.rounds = Some(6);
        let r = report(&howell(&p).unwrap());
        assert!(r.valid);
        assert_eq!(r.rounds, 6);
    }

    /// 3/4 Howell balance reached (floored to 0.01): (tables, rounds, full, half table).
    const THREE_QUARTER_LEVELS: &[(u32, u32, f64, f64)] = &[
        (3, 3, 56.84, 30.00),
        (3, 4, 64.00, 53.33),
        (5, 5, 68.58, 62.50),
        (5, 6, 69.86, 58.53),
        (5, 7, 84.08, 82.35),
        (6, 8, 82.64, 71.38),
        (6, 9, 90.68, 90.90),
        (6, 10, 87.41, 79.05),
        (7, 7, 80.63, 75.58),
        (7, 8, 74.55, 70.46),
        (7, 9, 83.87, 80.98),
        (7, 10, 81.24, 78.70),
        (7, 11, 91.12, 93.32),
        (7, 12, 89.81, 83.57),
        (8, 10, 82.49, 75.67),
        (8, 11, 88.03, 85.55),
        (8, 12, 87.43, 81.95),
        (8, 13, 90.35, 86.03),
        (8, 14, 95.27, 90.46),
        (9, 9, 83.06, 80.78),
        (9, 10, 82.59, 80.68),
        (9, 11, 82.49, 80.59),
        (9, 12, 87.31, 83.26),
        (9, 13, 90.08, 88.32),
        (9, 14, 90.79, 92.04),
        (9, 15, 94.46, 92.48),
        (9, 16, 93.95, 89.54),
        (10, 12, 82.15, 80.07),
        (10, 13, 86.44, 83.98),
        (10, 14, 90.11, 87.27),
        (10, 15, 93.10, 89.42),
        (10, 16, 93.05, 93.82),
        (10, 17, 94.61, 92.14),
        (10, 18, 97.38, 94.22),
        (11, 11, 90.67, 88.99),
        (11, 12, 83.69, 81.82),
        (11, 13, 82.36, 81.21),
        (11, 14, 87.02, 85.69),
        (11, 15, 89.70, 87.83),
        (11, 16, 92.14, 89.83),
        (11, 17, 92.08, 90.90),
        (11, 18, 93.48, 93.97),
        (11, 19, 96.25, 96.93),
        (11, 20, 96.37, 95.12),
        (12, 14, 85.17, 83.87),
        (12, 15, 85.01, 83.80),
        (12, 16, 89.78, 88.61),
        (12, 17, 90.26, 89.84),
        (12, 18, 90.92, 89.17),
        (12, 19, 93.81, 91.77),
        (12, 20, 94.84, 94.68),
        (12, 21, 96.06, 96.57),
        (12, 22, 96.98, 95.60),
        (13, 13, 92.42, 90.28),
        (13, 14, 85.95, 84.76),
        (13, 15, 84.62, 83.09),
        (13, 16, 84.01, 83.64),
        (13, 17, 88.40, 86.50),
        (13, 18, 90.45, 88.78),
        (13, 19, 91.78, 90.99),
        (13, 20, 93.49, 91.68),
        (13, 21, 94.92, 94.80),
        (13, 22, 94.27, 93.11),
        (13, 23, 97.30, 96.38),
        (14, 16, 85.23, 84.40),
        (14, 17, 84.16, 83.43),
        (14, 18, 88.70, 87.25),
        (14, 19, 91.63, 89.83),
        (14, 20, 90.15, 89.65),
        (14, 21, 95.55, 94.42),
        (14, 22, 93.22, 92.12),
        (14, 23, 95.28, 94.93),
        (14, 24, 95.97, 96.74),
        (14, 25, 97.36, 96.09),
        (14, 26, 98.37, 97.02),
        (15, 15, 93.47, 92.20),
        (15, 16, 86.00, 85.29),
        (15, 17, 84.56, 84.25),
        (15, 18, 84.01, 82.93),
        (15, 19, 88.67, 88.01),
        (15, 20, 94.91, 93.63),
        (15, 21, 93.11, 91.97),
        (15, 22, 91.26, 90.24),
        (15, 23, 92.11, 91.21),
        (15, 24, 94.03, 92.81),
        (15, 25, 95.96, 95.44),
        (15, 26, 95.76, 95.66),
        (15, 27, 97.96, 97.64),
        (15, 28, 97.91, 96.86),
    ];

    #[test]
    fn every_three_quarter_howell_is_valid_and_plays_every_board_once() {
        assert_eq!(THREE_QUARTER.len(), THREE_QUARTER_LEVELS.len());
        for &(t, r, full, half_level) in THREE_QUARTER_LEVELS {
            for half in [false, true] {
                let mut p = params(t, half, 2);
                p.rounds = Some(r);
                let m = three_quarter_howell(&p).unwrap();
                let rep = report(&m);
                assert!(rep.valid, "{t} {r} {half}: {:?}", rep.errors);
                assert!(
                    rep.warnings.is_empty(),
                    "{t} {r} {half}: {:?}",
                    rep.warnings
                );
                assert_eq!((rep.rounds, rep.sets), (r, r));
                assert_eq!(rep.max_meetings, 1, "{t} {r}");
                let per = if half { (r - 1) * 2 } else { r * 2 };
                let (lo, hi) = (rep.boards_per_pair.min, rep.boards_per_pair.max);
                // the absent pair's opponent sits out one round, everyone else plays all
                assert_eq!(hi, r * 2, "{t} {r} {half}");
                assert!(lo == per || (!half && lo == hi), "{t} {r} {half}");
                let times = if half { t - 1 } else { t };
                assert!(m
                    .rounds
                    .iter()
                    .all(|x| x.tables.len() as u32 == t - u32::from(half)
                        || x.tables.len() as u32 == t));
                if !half {
                    assert!(m.rounds.iter().all(|x| x.tables.len() as u32 == t));
                    assert_eq!(
                        rep.times_each_board_played,
                        MinMax {
                            min: times,
                            max: times
                        },
                        "{t} {r}"
                    );
                    assert_eq!(rep.stationary_pairs.len() as u32, 2 * t - r);
                }
                let level = if half { half_level } else { full };
                assert!(rep.balance.percent >= level, "{t} {r} {half}");
            }
        }
    }

    #[test]
    fn three_quarter_errors_name_the_sizes() {
        let mut p = params(4, false, 2);
        assert_eq!(three_quarter_howell(&p).unwrap_err().field, "tables");
        p.rounds = Some(6); // no 3/4 Howell for 4 tables, 6 rounds
        let e = three_quarter_howell(&p).unwrap_err();
        assert_eq!(e.field, "rounds");
        assert!(e.supported.unwrap().contains("5 tables: 5/6/7 rounds"));
        p.tables = 20;
        assert_eq!(three_quarter_howell(&p).unwrap_err().field, "tables");
    }

    /// Without `rounds`, the usual 3/4 Howell: about 3/4 of the full Howell's rounds.
    #[test]
    fn three_quarter_without_rounds_is_the_usual_one() {
        for (t, usual) in [(5, 7), (6, 8), (7, 10), (8, 11), (10, 14), (12, 17)] {
            assert_eq!(usual_three_quarter_rounds(t), Some(usual), "{t} tables");
            let m = three_quarter_howell(&params(t, false, 2)).unwrap();
            assert_eq!(m.rounds.len() as u32, usual);
            assert!(three_quarter_rounds(t).contains(&usual));
        }
    }

    /// Options a Howell does not read are refused, naming them, as on Mitchells; `sets`
    /// fewer than the movement needs too.
    #[test]
    fn howells_refuse_options_they_do_not_read() {
        for kind in ["howell", "three_quarter_howell"] {
            let gen = |p: &MovementParams| match kind {
                "howell" => howell(p),
                _ => three_quarter_howell(p),
            };
            let mut p = params(6, false, 2);
            p.rover = true;
            let e = gen(&p).unwrap_err();
            assert_eq!(e.field, "rover", "{kind}");
            assert!(e.message.contains("does not apply"), "{}", e.message);
            let mut p = params(6, true, 2);
            p.half_table_at = Some(2);
            assert_eq!(gen(&p).unwrap_err().field, "half_table_at");
            let mut p = params(6, false, 2);
            p.sets = Some(5);
            assert_eq!(gen(&p).unwrap_err().field, "sets");
            p.sets = Some(11);
            assert!(gen(&p).is_ok(), "{kind}");
        }
    }
}
