//! The Twin Mitchell (seed 002): an even number T of tables in two rows of m = T/2, tables
//! 1..m and m+1..T, table t beside table t + m. Each row moves as a Mitchell (a Skip
//! Mitchell, skip after m/2 rounds, when m is even) with its EW pairs staying in their row;
//! the boards move down one table and tables t and t + m share set t's boards.
//!
//! `twin_mode`:
//! - `stanzas` (default, the pure form): the movement is played twice. Stanza 1 uses sets
//!   1..m; then every EW pair changes places with the EW pair beside it in the other row and
//!   the movement is played again with sets m+1..2m. Scored as one section (two winners);
//!   when m is odd every NS pair meets every EW pair.
//! - `sections`: run once with sets 1..m, scored as two sections: tables 1..m are section
//!   "A", tables m+1..T section "B". Pair numbers stay in one series (the numbering travellers
//!   use); a scoring program set up for two sections reads pair n of section B as n − m.
//!
//! A half table (`half_table`, default at table T) is served as for a Mitchell.

use super::common::{
    apply_half_table, boards_per_round, build, check_sets, check_tables, half_table,
    refuse_other_options, rounds_within, wrap, Cell, MAX_TABLES,
};
use crate::engine::bridge::movement::model::{Movement, MovementError, MovementParams, TWIN_MODES};

/// Generates a Twin Mitchell.
pub fn twin_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "twin_mitchell";
    refuse_other_options(
        p,
        KIND,
        &["half_table", "half_table_at", "twin_mode", "sets"],
    )?;
    let t = check_tables(
        p,
        KIND,
        |t| t >= 6 && t.is_multiple_of(2),
        "a Twin Mitchell needs two rows of at least 3 tables (an even number of tables)",
        &format!("even numbers of tables from 6 to {MAX_TABLES}"),
    )?;
    let b = boards_per_round(p)?;
    let stanzas = match p.twin_mode.as_deref() {
        None | Some("stanzas") => true,
        Some("sections") => false,
        Some(other) => {
            return Err(
                MovementError::new("twin_mode", format!("unknown twin_mode '{other}'"))
                    .with_supported(TWIN_MODES.join(", ")),
            )
        }
    };
    let m_row = t / 2;
    // Rounds of one row's movement, and its skip (none when the row is odd).
    let (row_rounds, skip) = if m_row % 2 == 1 {
        (m_row, m_row)
    } else {
        (m_row - 1, m_row / 2)
    };
    let full = if stanzas { 2 * row_rounds } else { row_rounds };
    let rounds = rounds_within(p, full)?;
    check_sets(p, if stanzas { 2 * m_row } else { m_row })?;
    let half = half_table(p, t, t)?;
    let mut m = build(
        KIND,
        t,
        rounds,
        b,
        |r, table| {
            let stanza = u32::from(r > row_rounds);
            let lr = r - stanza * row_rounds; // round within the stanza
            let row = u32::from(table > m_row); // 0: tables 1..m, 1: tables m+1..T
            let local = table - row * m_row;
            let shift = i64::from(lr) - 1 + i64::from(lr > skip);
            let local_ew = wrap(i64::from(local) - shift, m_row);
            // In stanza 2 the EW pairs of the two rows have changed places.
            let ew_row = (row + stanza) % 2;
            let set = wrap(i64::from(local) + i64::from(lr) - 1, m_row) + stanza * m_row;
            Some(Cell {
                section: (!stanzas).then(|| if row == 0 { "A" } else { "B" }.to_string()),
                ..Cell::new(table, local_ew + ew_row * m_row, set)
            })
        },
        |_| Vec::new(),
    );
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    Ok(m)
}
