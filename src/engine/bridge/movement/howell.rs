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
//! Half-sets: on 3 tables with an even number of boards a round, and on 2 and 3
//! tables with each round played twice (`rounds` 6 and 10), each table plays two half-sets a
//! round and the halves of a set travel apart (`half_sets`); these layouts are perfectly
//! balanced, where whole sets give 60% on 3 tables. Sizes: 2 to 30 tables; the cyclic
//! starters of 16..=30 tables were found with smaller search budgets (data.rs says which),
//! so some odd sizes there stay a little below the cyclic optimum (every one ≥ 98.3%).
//!
//! Odd numbers of pairs (`half_table`): one pair is absent (the stationary one or the highest
//! moving one, whichever balances better); the pair that would have met it sits out and its
//! set rests that round.

#[path = "howell/design.rs"]
pub mod design;
#[path = "howell/half_sets.rs"]
pub mod half_sets;
#[path = "howell/search.rs"]
pub mod search;

use super::mitchell::common::{check_sets, refuse_other_options};
use super::model::{
    set_boards, HalfSet, Movement, MovementError, MovementParams, PairNumbering, Round, SitOut,
    TableRound, MAX_BOARDS_PER_ROUND,
};
use super::report::balance;
use half_sets::HalfLayout;
use search::{expand, expand_three_quarter, Layout, Starter, ThreeQuarterStarter};

/// The options the Howells read besides tables, rounds and boards per round: `half_table`
/// (either direction: an odd number of pairs) and `sets` (the sets available).
const HOWELL_OPTIONS: &[&str] = &["half_table", "sets"];

/// Sizes served by `howell` and `three_quarter_howell`.
pub const MIN_TABLES: u32 = 2;
pub const MAX_TABLES: u32 = 30;

/// Balanced starters found by `search::search` (tables, pair N sits NS, partner of N,
/// its set, rows [NS, EW, set]); elements of Z_(2T−1), pair number = element + 1.
/// Regenerate with `examples/search-movements`; `tests::balance_meets_the_documented_level`
/// re-verifies every entry.
type Embedded = (u32, bool, u32, u32, &'static [[u32; 3]]);
/// Explicit layouts: (tables, [rounds, only for 3/4 Howells], per round [NS, EW, set]).
type Explicit = (u32, &'static [&'static [[u32; 3]]]);
type ExplicitThreeQuarter = (u32, u32, &'static [&'static [[u32; 3]]]);
/// Half-set layouts: (tables, times each round is played, per round [NS, EW, first
/// half-set, second half-set]; half-set u is half (u − 1) mod 2 + 1 of set (u − 1) div 2 + 1).
type HalfSetData = (u32, u32, &'static [&'static [[u32; 4]]]);
include!("howell/data.rs");

/// The embedded starter for `tables` tables (4..=30).
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

/// The complete whole-set Howell layout for `tables` tables (2..=30): per round, per table
/// [NS pair, EW pair, set].
pub fn layout(tables: u32) -> Option<Layout> {
    if let Some(&(_, rounds)) = LAYOUTS.iter().find(|e| e.0 == tables) {
        return Some(rounds.iter().map(|r| r.to_vec()).collect());
    }
    starter(tables).map(|st| expand(tables, &st))
}

/// The embedded half-set layout for `tables` tables with each round played `repeat` times.
pub fn half_set_layout(tables: u32, repeat: u32) -> Option<HalfLayout> {
    HALF_SET_LAYOUTS
        .iter()
        .find(|e| e.0 == tables && e.1 == repeat)
        .map(|e| e.2.iter().map(|r| r.to_vec()).collect())
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
    let cells: HalfLayout = layout
        .iter()
        .map(|r| r.iter().map(|c| [c[0], c[1], c[2], 0]).collect())
        .collect();
    from_cells(tables, &cells, boards_per_round, rounds, phantom)
}

/// [`from_layout`] for a half-set layout (`boards_per_round` even: two half-sets a round).
pub fn from_half_layout(
    tables: u32,
    layout: &HalfLayout,
    boards_per_round: u32,
    rounds: u32,
    phantom: Option<u32>,
) -> Movement {
    let cells: HalfLayout = layout
        .iter()
        .map(|r| r.iter().map(|c| [c[0], c[1], c[2], c[3].max(1)]).collect())
        .collect();
    from_cells(tables, &cells, boards_per_round, rounds, phantom)
}

/// Half-set u (1-based) of the half-set layouts.
fn half_set(u: u32) -> HalfSet {
    HalfSet {
        set: (u - 1) / 2 + 1,
        half: (u - 1) % 2 + 1,
    }
}

/// The movement of cells [NS, EW, a, b]: b = 0, whole set a; else half-sets a then b.
fn from_cells(
    tables: u32,
    layout: &HalfLayout,
    boards_per_round: u32,
    rounds: u32,
    phantom: Option<u32>,
) -> Movement {
    let whole = layout.iter().flatten().all(|c| c[3] == 0);
    let n = layout
        .iter()
        .flat_map(|r| {
            r.iter().map(|c| {
                if whole {
                    c[2]
                } else {
                    half_set(c[2]).set.max(half_set(c[3]).set)
                }
            })
        })
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
            let (ns, ew) = (Some(renumber(c[0])), Some(renumber(c[1])));
            let table = i as u32 + 1;
            tables_v.push(if c[3] == 0 {
                TableRound::whole(table, ns, ew, c[2], set_boards(c[2], boards_per_round))
            } else {
                let halves = vec![half_set(c[2]), half_set(c[3])];
                let boards = halves
                    .iter()
                    .flat_map(|h| h.boards(boards_per_round))
                    .collect();
                TableRound {
                    half_sets: halves,
                    ..TableRound::whole(table, ns, ew, half_set(c[2]).set, boards)
                }
            });
        }
        let relay_sets: Vec<u32> = (1..=n)
            .filter(|s| !tables_v.iter().any(|t| t.sets_played().contains(s)))
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
        "{MIN_TABLES} to {MAX_TABLES} tables ({} to {} pairs; an odd number of pairs with half_table); on 2 and 3 tables each round may be played twice (rounds up to 6 and 10)",
        2 * MIN_TABLES - 1,
        2 * MAX_TABLES
    )
}

fn boards_per_round(p: &MovementParams) -> Result<u32, MovementError> {
    match p.boards_per_round {
        None => Ok(2),
        Some(b) if (1..=MAX_BOARDS_PER_ROUND).contains(&b) => Ok(b),
        Some(_) => Err(MovementError::new(
            "boards_per_round",
            format!("boards per round must be between 1 and {MAX_BOARDS_PER_ROUND}"),
        )
        .with_supported(format!("1 to {MAX_BOARDS_PER_ROUND}"))),
    }
}

fn rounds(p: &MovementParams, full: u32, most: u32) -> Result<u32, MovementError> {
    match p.rounds {
        None => Ok(full),
        Some(r) if (1..=most).contains(&r) => Ok(r),
        Some(r) => Err(MovementError::new(
            "rounds",
            format!("this movement has {most} rounds; {r} cannot be played"),
        )
        .with_supported(format!("1 to {most}"))),
    }
}

/// A complete Howell for `p.tables` tables (2T pairs, or 2T − 1 with `half_table`), with
/// `boards_per_round` boards a round (default 2); `rounds` curtails it (then boards are not
/// all played equally often: the report says so). On 3 tables with an even number of boards
/// a round, the half-set layout (perfectly balanced, 6 or 5 pairs) replaces the whole-set one
/// (60%); on 2 and 3 tables `rounds` up to twice 2T − 1 plays each round twice (half-sets,
/// perfectly balanced; boards a round even).
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
    let full = 2 * p.tables - 1;
    let double = half_set_layout(p.tables, 2);
    let most = if double.is_some() { 2 * full } else { full };
    let r = rounds(p, full, most)?;
    let odd = p.half_table.is_some();
    if r > full {
        if bpr % 2 == 1 {
            return Err(MovementError::new(
                "boards_per_round",
                format!("a Howell whose rounds are played twice splits each round's boards into two half-sets: {bpr} boards cannot be split"),
            )
            .with_supported("an even number of boards per round: 2, 4, 6 or 8"));
        }
        check_sets(p, most)?;
        let h = double.unwrap_or_default();
        return Ok(best_phantom(odd, p.tables, full, (r, most), |ph, n| {
            from_half_layout(p.tables, &h, bpr, n, ph)
        }));
    }
    check_sets(p, full)?;
    if let Some(h) = half_set_layout(p.tables, 1).filter(|_| bpr % 2 == 0) {
        return Ok(best_phantom(odd, p.tables, full, (r, full), |ph, n| {
            from_half_layout(p.tables, &h, bpr, n, ph)
        }));
    }
    Ok(best_phantom(odd, p.tables, full, (r, full), |ph, n| {
        from_layout(p.tables, &lay, bpr, n, ph)
    }))
}

/// With an odd number of pairs (`odd`), the absent pair is either the highest stationary
/// pair 2T (its table is the sit-out table every round) or the highest moving pair
/// (`moving_top`); the one giving the better balance over the whole movement (`all` rounds)
/// is taken (the stationary pair on a tie). `build(absent, rounds)` builds the movement.
fn best_phantom(
    odd: bool,
    tables: u32,
    moving_top: u32,
    (rounds, all): (u32, u32),
    build: impl Fn(Option<u32>, u32) -> Movement,
) -> Movement {
    if !odd {
        return build(None, rounds);
    }
    let pct = |p: u32| balance(&build(Some(p), all)).percent;
    let phantom = if pct(moving_top) > pct(2 * tables) + 1e-9 {
        moving_top
    } else {
        2 * tables
    };
    build(Some(phantom), rounds)
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

/// The 3/4 Howell layout for `tables` tables and `rounds` rounds: an explicit one where
/// embedded (sets searched per table, or a Howell design: `design`), else the cyclic
/// starter's.
pub fn three_quarter_layout(tables: u32, rounds: u32) -> Option<Layout> {
    if let Some(e) = THREE_QUARTER_LAYOUTS
        .iter()
        .chain(THREE_QUARTER_DESIGNS)
        .find(|e| e.0 == tables && e.1 == rounds)
    {
        return Some(e.2.iter().map(|r| r.to_vec()).collect());
    }
    three_quarter_starter(tables, rounds).map(|st| expand_three_quarter(tables, rounds, &st))
}

/// The rounds a 3/4 Howell can be played in on `tables` tables, fewest first.
pub fn three_quarter_rounds(tables: u32) -> Vec<u32> {
    let mut rs: Vec<u32> = THREE_QUARTER
        .iter()
        .map(|e| (e.0, e.1))
        .chain(THREE_QUARTER_LAYOUTS.iter().map(|e| (e.0, e.1)))
        .chain(THREE_QUARTER_DESIGNS.iter().map(|e| (e.0, e.1)))
        .filter(|e| e.0 == tables)
        .map(|e| e.1)
        .collect();
    rs.sort_unstable();
    rs.dedup();
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
        let rs: Vec<String> = three_quarter_rounds(t)
            .iter()
            .map(|r| r.to_string())
            .collect();
        if !rs.is_empty() {
            parts.push(format!("{t} tables: {} rounds", rs.join("/")));
        }
    }
    parts.join("; ")
}

/// A 3/4 (shortened) Howell: `p.tables` tables (2T pairs, or 2T − 1 with `half_table`),
/// `p.rounds` rounds (default the usual one, [`usual_three_quarter_rounds`]) and as many
/// sets; 2T − rounds stationary pairs (the highest numbers, at the highest tables); the
/// moving pairs 1..rounds rotate as in a Howell (each follows the next lower). Every pair
/// plays every board once; pairs do not all meet. As seed 002 suggests, some stationary
/// pairs switch direction in some rounds to improve the balance (still at their own
/// table). Most sizes are cyclic (the sets move back one station; starters found by
/// `search::search_three_quarter`); where the cyclic form cannot exist or balances worse
/// (`design`), the sets are chosen per table and round and the layout is embedded whole. On
/// 4 tables/6 rounds and T tables/T + 1 rounds no rotation of the pairs works: those are
/// Howell designs (`design::three_quarter_design`) with no stationary pair, every pair's
/// guide card giving its table each round. The report gives the balance.
pub fn three_quarter_howell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_other_options(p, "three_quarter_howell", HOWELL_OPTIONS)?;
    let t = p.tables;
    let refuse = || {
        MovementError::new("tables", format!("no 3/4 Howell for {t} tables"))
            .with_supported(three_quarter_sizes())
    };
    if !(MIN_TABLES..=MAX_TABLES).contains(&t) {
        return Err(refuse());
    }
    let Some(r) = p.rounds.or_else(|| usual_three_quarter_rounds(t)) else {
        return Err(refuse());
    };
    let lay = three_quarter_layout(t, r).ok_or_else(|| {
        MovementError::new(
            "rounds",
            format!("no 3/4 Howell for {t} tables and {r} rounds"),
        )
        .with_supported(three_quarter_sizes())
    })?;
    let bpr = boards_per_round(p)?;
    check_sets(p, r)?;
    let mut m = best_phantom(p.half_table.is_some(), t, r, (r, r), |ph, n| {
        from_layout(t, &lay, bpr, n, ph)
    });
    m.kind = "three_quarter_howell".to_string();
    Ok(m)
}

#[cfg(test)]
#[path = "howell/tests.rs"]
mod tests;
