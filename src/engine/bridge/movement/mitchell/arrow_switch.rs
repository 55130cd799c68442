//! The Arrow-switch Mitchell (seed 002): a Mitchell (odd tables) or Skip Mitchell (even
//! tables) in which some rounds are arrow-switched — the EW pair plays the NS cards — so that
//! one field and one winner come out of it.
//!
//! Pairs get individual numbers (Howell numbering): NS k is pair k and EW k is pair N + k,
//! where N is the number of NS pairs (T, or T + 1 with an NS rover, which is then pair T + 1).
//! The switched rounds (`switch_rounds`, e.g. `3,6`) are the director's choice; by default
//! about one round in eight is switched (at least one), the first of them in round 1 (the
//! seed: "consider having the switch round(s) first") and the others spread evenly:
//! k = max(1, round(n/8)) rounds, round 1 + ⌊i·n/k⌋ for i = 0..k. Every table with a game in a
//! switched round carries `arrow_switch: true`.
//!
//! The base movement's options are served as they are: `rounds`, `half_table`,
//! `half_table_at`, `rover`, `rover_from_round`, `skip_after` (even tables).

use super::basic::mitchell;
use super::common::refuse_other_options;
use super::skip::skip_mitchell;
use crate::engine::bridge::movement::model::{
    Movement, MovementError, MovementParams, PairNumbering, SitOut,
};

/// The default switched rounds for an `n`-round movement.
pub fn default_switch_rounds(n: u32) -> Vec<u32> {
    let k = ((n + 4) / 8).max(1);
    (0..k).map(|i| 1 + i * n / k).collect()
}

/// Generates an Arrow-switch Mitchell.
pub fn arrow_switch_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    const KIND: &str = "arrow_switch_mitchell";
    refuse_other_options(
        p,
        KIND,
        &[
            "half_table",
            "half_table_at",
            "rover",
            "rover_from_round",
            "skip_after",
            "switch_rounds",
            "sets",
        ],
    )?;
    let base = MovementParams {
        switch_rounds: None,
        ..p.clone()
    };
    let mut m = if p.tables % 2 == 1 {
        if p.skip_after.is_some() {
            return Err(MovementError::new(
                "skip_after",
                "an odd number of tables runs as a plain Mitchell, with no skip",
            )
            .with_supported("skip_after with an even number of tables"));
        }
        mitchell(&base)
    } else {
        skip_mitchell(&base)
    }
    .map_err(|mut e| {
        if e.field == "tables" {
            e.supported = Some("3 to 60 tables (odd: a Mitchell, even: a Skip Mitchell)".into());
        }
        e
    })?;
    let n = m.rounds.len() as u32;
    let switched = match &p.switch_rounds {
        None => default_switch_rounds(n),
        Some(v) => {
            let mut v = v.clone();
            v.sort_unstable();
            v.dedup();
            if v.is_empty() || v.iter().any(|r| !(1..=n).contains(r)) {
                return Err(MovementError::new(
                    "switch_rounds",
                    "the switched rounds must be one or more rounds of the movement",
                )
                .with_supported(format!("round numbers from 1 to {n}, e.g. switch_rounds=1")));
            }
            v
        }
    };
    let ns_pairs = m.tables + u32::from(p.rover);
    for r in &mut m.rounds {
        let switch = switched.contains(&r.round);
        for t in &mut r.tables {
            t.ew = t.ew.map(|e| e + ns_pairs);
            t.arrow_switch = switch && t.ns.is_some() && t.ew.is_some();
        }
        for s in &mut r.sit_out {
            *s = match *s {
                SitOut::Ns(k) => SitOut::Pair(k),
                SitOut::Ew(k) => SitOut::Pair(k + ns_pairs),
                other => other,
            };
        }
        r.sit_out.sort();
    }
    m.kind = KIND.to_string();
    m.pair_numbering = PairNumbering::Howell;
    Ok(m)
}
