//! The Share & Relay Mitchell (seed 002): an even number T of tables; table 1 shares its
//! set with table T, and a relay stand between tables T/2 and T/2 + 1 holds the set not in
//! play, so the sharing tables are equidistant from the relay (T/2 tables on each side).
//!
//! The boards travel down a circuit of T stations: the shared station (tables 1 and T),
//! tables 2..T/2, the relay stand, tables T/2+1..T−1, back to the shared station. Set s starts
//! on table s for s < T (set 1 on tables 1 and T together) and set T starts on the relay.
//! EW pairs move up one table through all T tables, so in T rounds every EW pair meets every
//! NS pair; moving one station against the boards, plus one extra at the relay and one fewer
//! between table T and table 1, it meets each of the T sets exactly once.
//!
//! Options: `rounds` (curtailing: the seed does not recommend it, because the shared and
//! relayed sets are then played unequal numbers of times), `half_table` / `half_table_at`
//! (anywhere, default the highest table), `rover`, `rover_from_round`.

use super::common::{
    apply_half_table, boards_per_round, build, check_sets, check_tables, half_table,
    refuse_other_options, refuse_rover_with_half, rounds_within, wrap, Cell, MAX_TABLES,
};
use super::rover::{self, add_rover};
use crate::engine::bridge::movement::model::{Movement, MovementError, MovementParams};

/// Sizes served with an NS rover.
pub const ROVER_SUPPORTED: &str = "even numbers of full tables from 4";

/// The station (0..T) of table `table`; the relay is station T/2.
fn station(t: u32, table: u32) -> u32 {
    let h = t / 2;
    if table == 1 || table == t {
        0
    } else if table <= h {
        table - 1
    } else {
        table
    }
}

/// The set that starts at station `q`.
fn starting_set(t: u32, q: u32) -> u32 {
    let h = t / 2;
    match q {
        0 => 1,
        q if q < h => q + 1,
        q if q == h => t,
        q => q,
    }
}

/// The set at station `q` in round `r` (boards move down one station a round).
fn set_at(t: u32, q: u32, r: u32) -> u32 {
    starting_set(t, (q + r - 1) % t)
}

/// Generates a Share & Relay Mitchell.
pub fn share_relay_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "share_relay_mitchell";
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
        |t| t >= 4 && t.is_multiple_of(2),
        "a Share & Relay Mitchell needs an even number of tables, at least 4",
        &format!("even numbers of tables from 4 to {MAX_TABLES}"),
    )?;
    let b = boards_per_round(p)?;
    refuse_rover_with_half(p)?;
    let rounds = rounds_within(p, t)?;
    check_sets(p, t)?;
    let half = half_table(p, t, t)?;
    let mut m = build(
        KIND,
        t,
        rounds,
        b,
        |r, table| {
            let ew = wrap(i64::from(table) - i64::from(r) + 1, t);
            Some(Cell::new(table, ew, set_at(t, station(t, table), r)))
        },
        |r| vec![set_at(t, t / 2, r)],
    );
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    if p.rover {
        let n = m.rounds.len() as u32;
        let from = rover::first_round(p.rover_from_round, n)?;
        add_rover(
            &mut m,
            Some(rover::share_relay_rule(t, n)),
            from,
            ROVER_SUPPORTED,
        )?;
    }
    Ok(m)
}
