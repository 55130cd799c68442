//! The 1½ Appendix Mitchell and the Appendix Mitchell (seed 002).
//!
//! **1½ Appendix Mitchell** on T tables (T counts the half table): the base is a Mitchell
//! (odd base) or Skip Mitchell (even base, skip after base/2 rounds) on T − 2 tables; only
//! the base tables have sets. Table T − 1 (the full appendix table) shares table 1's set; the
//! EW seats of table T (the half appendix table) have no NS pair opposite: the EW pair there
//! sits out, then goes to table 1 at the next move. EW pairs thus travel a circuit of T places
//! (tables 1..T−1 and the sit-out at table T) while the sets circulate over the base; every EW
//! pair meets the sets in steps of two, each at most once, in the base's T − 2 rounds. Every set
//! is played T − 1 times (once at each base table, once more at the appendix table). The
//! sit-out "table" T holds no set, so it appears in the rounds only as the EW pair's sit-out.
//! Seed examples: 10½ tables (T = 11) = a 9-table Mitchell, tables 1 and 10 share, EW 11
//! sits out first; 11½ (T = 12) = a 10-table Skip Mitchell skipping after round 5.
//!
//! **Appendix Mitchell**: a prime base p ≥ 5 (commonly 7 or 11) and a = T − p appended tables,
//! 1 ≤ a < p. Appended table p + j shares the set of base table j (j = 1..a). NS pairs at
//! tables 1..a and EW pairs at the appended tables stay put; the other EW pairs move through
//! the base tables 1..p; the other NS pairs move through the p tables p+1..p+a, a+1..p (in
//! that order, skipping the base tables that have an appended table); the boards move down
//! one table within the base. Variants (`variant`): `ns_up2_ew_up1` (default, the seed's
//! diagram), `ns_down2_ew_up1`, `ns_up1_ew_up2`, `ns_up1_ew_down2`. In each, every pair
//! meets different opponents and different sets because p is prime (not divisible by 2 or 3).
//! Every set is played p + a times. A half table is the EW seats of the highest appended
//! table by default (`half_table=ew`): NS pairs coming to that table sit out.

use super::common::{
    apply_half_table, boards_per_round, build, check_sets, check_tables, half_table,
    refuse_other_options, rounds_within, wrap, Cell, MAX_TABLES,
};
use crate::engine::bridge::movement::model::{
    Direction, Movement, MovementError, MovementParams, SitOut,
};

/// Generates a 1½ Appendix Mitchell.
pub fn one_and_half_appendix_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "one_and_half_appendix_mitchell";
    refuse_other_options(
        p,
        KIND,
        &["half_table", "half_table_at", "base_tables", "sets"],
    )?;
    let t = check_tables(
        p,
        KIND,
        |t| t >= 5,
        "the base (tables − 1½) needs at least 3 full tables",
        &format!("5 to {MAX_TABLES} tables, the half table included (a base of tables − 2)"),
    )?;
    let b = boards_per_round(p)?;
    let base = t - 2;
    if p.base_tables.is_some_and(|x| x != base) {
        return Err(MovementError::new(
            "base_tables",
            format!("a 1½ Appendix Mitchell on {t} tables has a base of {base} tables"),
        )
        .with_supported(format!("base_tables={base}")));
    }
    match (p.half_table, p.half_table_at) {
        (None, None) | (Some(Direction::Ew), None) => {}
        (Some(Direction::Ew), Some(at)) if at == t => {}
        _ => {
            return Err(MovementError::new(
                "half_table",
                format!(
                "the half table of a 1½ Appendix Mitchell is the EW seat at table {t}, the highest"
            ),
            )
            .with_supported(format!("half_table=ew, half_table_at={t} (or neither)")))
        }
    }
    let rounds = rounds_within(p, base)?;
    check_sets(p, base)?;
    // The skip of an even base: after base/2 rounds, EW pairs move up two places.
    let skip = if base.is_multiple_of(2) {
        base / 2
    } else {
        rounds
    };
    let mut m = build(
        KIND,
        t,
        rounds,
        b,
        |r, table| {
            if table == t {
                return None;
            }
            let shift = i64::from(r) - 1 + i64::from(r > skip);
            let ew = wrap(i64::from(table) - shift, t);
            let set_table = if table == t - 1 { 1 } else { table };
            Some(Cell::new(
                table,
                ew,
                wrap(i64::from(set_table) + i64::from(r) - 1, base),
            ))
        },
        |_| Vec::new(),
    );
    for r in &mut m.rounds {
        let shift = i64::from(r.round) - 1 + i64::from(r.round > skip);
        r.sit_out.push(SitOut::Ew(wrap(i64::from(t) - shift, t)));
    }
    Ok(m)
}

/// The pair movement of an Appendix Mitchell: (NS step, EW step) in tables a round.
fn variant_steps(v: Option<&str>) -> Result<(i64, i64), MovementError> {
    match v.unwrap_or("ns_up2_ew_up1") {
        "ns_up2_ew_up1" => Ok((2, 1)),
        "ns_down2_ew_up1" => Ok((-2, 1)),
        "ns_up1_ew_up2" => Ok((1, 2)),
        "ns_up1_ew_down2" => Ok((1, -2)),
        other => Err(MovementError::new(
            "variant",
            format!("unknown Appendix Mitchell variant '{other}'"),
        )
        .with_supported("ns_up2_ew_up1, ns_down2_ew_up1, ns_up1_ew_up2, ns_up1_ew_down2")),
    }
}

fn is_prime(n: u32) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

/// The default base for `t` tables: the largest prime p ≥ 5 with t/2 < p ≤ t − 2 (the seed:
/// usually more than one appended table), else with p = t − 1.
fn default_base(t: u32) -> Option<u32> {
    let ok = |p: &u32| *p >= 5 && is_prime(*p) && 2 * p > t;
    (5..=t.saturating_sub(2))
        .rev()
        .find(ok)
        .or_else(|| Some(t.checked_sub(1)?).filter(ok))
}

/// Generates an Appendix Mitchell.
pub fn appendix_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "appendix_mitchell";
    refuse_other_options(
        p,
        KIND,
        &[
            "half_table",
            "half_table_at",
            "base_tables",
            "variant",
            "sets",
        ],
    )?;
    let supported = format!(
        "6 to {MAX_TABLES} tables: a prime base of 5 or more tables (commonly 7 or 11) and fewer appended tables than the base"
    );
    let t = check_tables(
        p,
        KIND,
        |t| default_base(t).is_some(),
        "no prime base fits",
        &supported,
    )?;
    let b = boards_per_round(p)?;
    let base = match p.base_tables {
        None => default_base(t).unwrap_or(5),
        Some(x) if x >= 5 && is_prime(x) && x < t && 2 * x > t => x,
        Some(x) => {
            return Err(MovementError::new(
                "base_tables",
                format!("a base of {x} tables cannot serve {t} tables"),
            )
            .with_supported(format!(
                "a prime base of at least 5, below {t} and above {}",
                t / 2
            )))
        }
    };
    let (ns_step, ew_step) = variant_steps(p.variant.as_deref())?;
    let rounds = rounds_within(p, base)?;
    check_sets(p, base)?;
    let a = t - base;
    let half = half_table(p, t, t)?;
    // The NS circuit: index q < a is appended table base+q+1, index q ≥ a is table q+1.
    let circuit = move |q: u32| if q < a { base + q + 1 } else { q + 1 };
    let index = move |table: u32| {
        if table > base {
            table - base - 1
        } else {
            table - 1
        }
    };
    let mut m = build(
        KIND,
        t,
        rounds,
        b,
        |r, table| {
            let moved = i64::from(r) - 1;
            let ns = if table <= a {
                table
            } else {
                let q0 = wrap(i64::from(index(table)) - ns_step * moved + 1, base) - 1;
                circuit(q0)
            };
            let ew = if table > base {
                table
            } else {
                wrap(i64::from(table) - ew_step * moved, base)
            };
            let set_table = if table > base { table - base } else { table };
            Some(Cell::new(ns, ew, wrap(i64::from(set_table) + moved, base)))
        },
        |_| Vec::new(),
    );
    if let Some((dir, at)) = half {
        apply_half_table(&mut m, dir, at);
    }
    Ok(m)
}
