//! The Web Mitchell (seed 002): an even number W of web tables, attached to S ≥ 0 full
//! Mitchell sections, all tables numbered in one series and all played with N sets (N odd).
//!
//! Layout: the Mitchell sections come first (tables 1..N, N+1..2N, ...), each with its own
//! box of the N sets; then the web, in two groups of g = W/2 tables, each with its own box.
//! Every EW pair moves up one table each round through all T tables (from table T to
//! table 1), ignoring section and group boundaries; NS pairs stay put; boards move down one
//! table within their own section or group. N rounds.
//! - In a Mitchell section, local table q plays set q + r − 1 (mod N), as usual.
//! - In web group 1, set s starts on local table s (the surplus sets N > g wait at its highest
//!   table and are fed in there): local table q plays set q + r − 1 (mod N).
//! - In web group 2 the sets go backwards: the highest set on the highest table, set 1 on the
//!   second highest, set 2 on the next, ..., the surplus at the highest table; local table q
//!   plays set g − q − (r − 1) (mod N, 0 meaning N). For 14 tables and 9 sets: set 9 on
//!   table 14, set 1 on 13, ..., set 6 on 8; sets 7/8 wait at table 14.
//!
//! An EW pair's sets go up by two a round in the Mitchell sections and group 1 and down by two
//! in group 2, reflecting at the group boundaries so that in N rounds it plays every set
//! once: every pair plays all the boards, each set is played T times.
//!
//! Options: `web_tables` (default: all T tables when T is even; 4 — the seed's 13-table
//! example — when T is odd, 2 for 5 tables), `sets` (N; default: the most rounds, i.e. the
//! largest odd N ≥ g with T − W a multiple of N, or for a web alone g or g + 1, whichever is
//! odd), `rounds`, `half_table` / `half_table_at` (default the highest table), `rover` /
//! `rover_from_round` (a searched rover list). Sets that rest on a relay everywhere in a round
//! are listed in `relay_sets`. The duplicated boxes mean one set may be in play at several
//! tables in one round; they are different copies of the same deals, not a shared set.

use super::common::{
    apply_half_table, boards_per_round, build, check_tables, half_table, refuse_other_options,
    refuse_rover_with_half, rounds_within, wrap, Cell, MAX_TABLES,
};
use super::rover::{self, add_rover};
use crate::engine::bridge::movement::model::{Movement, MovementError, MovementParams};

/// The number of sets served by default for `t` tables, `w` of them in the web.
fn default_sets(t: u32, w: u32) -> Option<u32> {
    let g = w / 2;
    if t == w {
        return Some(if g % 2 == 1 { g } else { g + 1 }.max(3));
    }
    let rest = t - w;
    (1..=rest)
        .map(|s| rest / s)
        .find(|&n| rest.is_multiple_of(n) && n % 2 == 1 && n >= g && n >= 3)
}

/// Generates a Web Mitchell.
pub fn web_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "web_mitchell";
    refuse_other_options(
        p,
        KIND,
        &[
            "half_table",
            "half_table_at",
            "rover",
            "rover_from_round",
            "web_tables",
            "sets",
        ],
    )?;
    let t = check_tables(
        p,
        KIND,
        |t| t >= 4,
        "a Web Mitchell needs at least 4 tables",
        &format!("4 to {MAX_TABLES} tables: an even web of W tables plus Mitchell sections of N tables each, N odd and at least W/2"),
    )?;
    let b = boards_per_round(p)?;
    refuse_rover_with_half(p)?;
    let w = p.web_tables.unwrap_or(if t.is_multiple_of(2) {
        t
    } else if t >= 7 {
        4
    } else {
        2
    });
    if w < 2 || w % 2 == 1 || w > t {
        return Err(MovementError::new(
            "web_tables",
            format!("{w} web tables: the web needs an even number of tables, at most {t}"),
        )
        .with_supported(format!("even numbers from 2 to {t}")));
    }
    let g = w / 2;
    let n = match p.sets {
        Some(n) => n,
        None => default_sets(t, w).ok_or_else(|| {
            MovementError::new(
                "web_tables",
                format!(
                    "the {} tables outside a {w}-table web cannot form Mitchell sections of an odd number of tables, at least {g}",
                    t - w
                ),
            )
            .with_supported("web_tables such that the other tables form equal Mitchell sections of an odd number N ≥ web_tables/2 of tables")
        })?,
    };
    if n.is_multiple_of(2) || n < 3 || n < g || !(t - w).is_multiple_of(n) {
        return Err(MovementError::new(
            "sets",
            format!(
                "{n} sets cannot serve a {w}-table web with {} other tables",
                t - w
            ),
        )
        .with_supported(format!(
            "an odd number of sets, at least 3 and at least {g}, dividing the {} tables outside the web",
            t - w
        )));
    }
    let rounds = rounds_within(p, n)?;
    let half = half_table(p, t, t)?;
    let mitchell_tables = t - w;
    let set_at = move |r: u32, table: u32| -> u32 {
        let moved = i64::from(r) - 1;
        if table <= mitchell_tables {
            wrap(i64::from((table - 1) % n + 1) + moved, n)
        } else if table <= mitchell_tables + g {
            wrap(i64::from(table - mitchell_tables) + moved, n)
        } else {
            let q = i64::from(table - mitchell_tables - g);
            wrap(i64::from(g) - q - moved, n)
        }
    };
    let mut m = build(
        KIND,
        t,
        rounds,
        b,
        |r, table| {
            let ew = wrap(i64::from(table) - i64::from(r) + 1, t);
            Some(Cell::new(table, ew, set_at(r, table)))
        },
        |r| {
            let in_play: Vec<u32> = (1..=t).map(|table| set_at(r, table)).collect();
            (1..=n).filter(|s| !in_play.contains(s)).collect()
        },
    );
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    if p.rover {
        let from = rover::first_round(p.rover_from_round, rounds)?;
        add_rover(
            &mut m,
            None,
            from,
            "web Mitchells for which a rover list exists (searched)",
        )?;
    }
    Ok(m)
}
