//! The Mitchell (seed 002): NS stationary, EW up one table, boards down one table.
//!
//! In round r EW e sits at table e + r − 1 and table t plays set t + r − 1 (mod T), so NS t
//! meets EW t − (r − 1) and EW e plays sets e, e+2, e+4, ...: all T sets in T rounds when T is
//! odd. When T is even an EW pair comes back to its first set after T/2 rounds, so a plain
//! Mitchell on an even number of tables is served curtailed to at most T/2 rounds only (the
//! complete movements are `skip_mitchell` and `share_relay_mitchell`).
//!
//! Options: `rounds` (curtailing), `half_table=ns|ew` with `half_table_at` (default the
//! highest table), `rover=true` (NS rover, pair T+1; see `rover`) and `rover_from_round`.

use super::common::{
    apply_half_table, boards_per_round, check_sets, check_tables, half_table, plain_grid,
    refuse_other_options, refuse_rover_with_half, rounds_within, MAX_TABLES,
};
use super::rover::{self, add_rover};
use crate::engine::bridge::movement::model::{Movement, MovementError, MovementParams};

/// Sizes served with an NS rover.
pub const ROVER_SUPPORTED: &str =
    "odd numbers of full tables not divisible by 3 (5, 7, 11, 13, 17, 19, 23, 25, 29, ...), 9, 15, 21, 27 and 33";

/// Generates a Mitchell.
pub fn mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "mitchell";
    refuse_other_options(
        p,
        KIND,
        &[
            "half_table",
            "half_table_at",
            "rover",
            "rover_from_round",
            "sets",
        ],
    )?;
    let t = check_tables(
        p,
        KIND,
        |t| t >= 3,
        "a Mitchell needs at least 3 tables",
        &format!("3 to {MAX_TABLES} tables (complete when odd; even only curtailed to half the tables in rounds)"),
    )?;
    let b = boards_per_round(p)?;
    refuse_rover_with_half(p)?;
    let full = if t % 2 == 1 { t } else { t / 2 };
    if t.is_multiple_of(2) && p.rounds.is_none_or(|n| n > full) {
        return Err(MovementError::new(
            "tables",
            format!(
                "a Mitchell on {t} tables brings EW pairs back to boards they played after {full} rounds"
            ),
        )
        .with_supported(format!(
            "an odd number of tables; on {t} tables at most {full} rounds (rounds=1..{full}), or use skip_mitchell or share_relay_mitchell"
        )));
    }
    let rounds = rounds_within(p, full)?;
    check_sets(p, t)?;
    let half = half_table(p, t, t)?;
    let mut m = plain_grid(KIND, t, rounds, b);
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    if p.rover {
        add_mitchell_rover(&mut m, p)?;
    }
    Ok(m)
}

/// Adds the NS rover to a plain Mitchell grid (odd T).
fn add_mitchell_rover(m: &mut Movement, p: &MovementParams) -> Result<(), MovementError> {
    let t = m.tables;
    let n = m.rounds.len() as u32;
    let from = rover::first_round(p.rover_from_round, n)?;
    if t.is_multiple_of(2) {
        return Err(MovementError::new(
            "rover",
            "an NS rover needs a complete Mitchell (odd number of tables)",
        )
        .with_supported(ROVER_SUPPORTED));
    }
    let rule = if !t.is_multiple_of(3) {
        Some(rover::mitchell_rule(t, n))
    } else if t == 9 && from <= 3 {
        // The exchange starts in round 3: a late pair arriving later joins a movement
        // already played without it.
        rover::nine_table_exchange(m);
        Some(rover::nine_table(n))
    } else if rover::exchange_period(t).is_some_and(|g| from <= g) {
        rover::exchange_rover(m, n)
    } else if from > 1 {
        None // a late pair: search the rounds left
    } else {
        return Err(MovementError::new(
            "tables",
            format!("the seed gives no NS rover Mitchell on {t} tables"),
        )
        .with_supported(ROVER_SUPPORTED));
    };
    add_rover(m, rule, from, ROVER_SUPPORTED)
}
