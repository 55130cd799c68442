//! The Skip Mitchell (seed 002): an even number of tables; as a Mitchell, but after round k
//! the EW pairs move up two tables instead of one.
//!
//! In round r EW e sits at table e + r − 1 (+1 after the skip) and table t plays set
//! t + r − 1. EW e therefore plays sets e + 2(r−1) before the skip (even offsets) and
//! e + 2(r−1) + 1 after it (odd offsets): no set twice as long as at most T/2 rounds come
//! before the skip and at most T/2 after it. With n rounds the skip may come after any round
//! k with n − T/2 ≤ k ≤ T/2 — the seed's "earliest skip is after round n − ½T"; the default
//! is k = T/2. Complete, the movement has T − 1 rounds; a T-th round would bring every EW pair
//! back to its first table and opponents (the seed's "revenge round") and is not served.
//!
//! Options: `rounds`, `skip_after`, `half_table` / `half_table_at` (served, though the seed
//! says a skip is best not used with a half table), `rover`, `rover_from_round`.

use super::common::{
    apply_half_table, boards_per_round, build, check_sets, check_tables, half_table,
    refuse_other_options, refuse_rover_with_half, rounds_within, wrap, Cell, MAX_TABLES,
};
use super::rover::{self, add_rover};
use crate::engine::bridge::movement::model::{Movement, MovementError, MovementParams};

/// Sizes served with an NS rover.
pub const ROVER_SUPPORTED: &str =
    "even numbers of full tables not divisible by 3 (the seed's rule), 12 (the seed's list), 6, 18 and 24 (searched lists)";

/// The skip point for `t` tables and `rounds` rounds: `asked` or T/2, checked.
pub(crate) fn skip_point(t: u32, rounds: u32, asked: Option<u32>) -> Result<u32, MovementError> {
    let latest = t / 2;
    let earliest = rounds.saturating_sub(t / 2).max(1);
    let k = asked.unwrap_or(latest);
    if k < earliest || k > latest {
        return Err(MovementError::new(
            "skip_after",
            format!(
                "with {rounds} rounds on {t} tables the skip comes after round {earliest} at the earliest and round {latest} at the latest"
            ),
        )
        .with_supported(format!("skip_after={earliest}..{latest}")));
    }
    Ok(k)
}

/// The Skip Mitchell grid: `t` tables, `rounds` rounds, the skip after round `k`.
pub(crate) fn grid(kind: &str, t: u32, rounds: u32, k: u32, b: u32) -> Movement {
    build(
        kind,
        t,
        rounds,
        b,
        |r, table| {
            let shift = i64::from(r) - 1 + i64::from(r > k);
            let x = i64::from(table);
            Some(Cell::new(
                table,
                wrap(x - shift, t),
                wrap(x + i64::from(r) - 1, t),
            ))
        },
        |_| Vec::new(),
    )
}

/// Generates a Skip Mitchell.
pub fn skip_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "skip_mitchell";
    refuse_other_options(
        p,
        KIND,
        &[
            "half_table",
            "half_table_at",
            "rover",
            "rover_from_round",
            "skip_after",
            "sets",
        ],
    )?;
    let t = check_tables(
        p,
        KIND,
        |t| t >= 4 && t.is_multiple_of(2),
        "a Skip Mitchell needs an even number of tables, at least 4",
        &format!("even numbers of tables from 4 to {MAX_TABLES}"),
    )?;
    let b = boards_per_round(p)?;
    refuse_rover_with_half(p)?;
    let rounds = rounds_within(p, t - 1)?;
    let k = skip_point(t, rounds, p.skip_after)?;
    check_sets(p, t)?;
    let half = half_table(p, t, t)?;
    let mut m = grid(KIND, t, rounds, k, b);
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    if p.rover {
        add_skip_rover(&mut m, k, p.rover_from_round)?;
    }
    Ok(m)
}

/// Adds the NS rover to a Skip Mitchell grid with the skip after round `k`.
pub(crate) fn add_skip_rover(
    m: &mut Movement,
    k: u32,
    from: Option<u32>,
) -> Result<(), MovementError> {
    let t = m.tables;
    let n = m.rounds.len() as u32;
    let from = rover::first_round(from, n)?;
    let rule = if t == 12 && k == 6 {
        Some(rover::twelve_skip(n))
    } else if !t.is_multiple_of(3) {
        Some(rover::skip_rule(t, k, n))
    } else {
        None
    };
    add_rover(m, rule, from, ROVER_SUPPORTED)
}
