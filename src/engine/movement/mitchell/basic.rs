//! Mitchell, Skip Mitchell and Share & Relay Mitchell (seed 002).
//!
//! Conventions: NS pairs are stationary (NS t at table t), EW pairs move up one table each
//! round, boards move down one table. In round 1 EW e sits at table e and set s is on table s
//! (board numbers of set s: (s−1)·B+1 ..= s·B).
//!
//! - Mitchell: EW e is at table e + r − 1 in round r; table t plays set t + r − 1 (mod T).
//!   An EW pair meets the sets e, e+2, e+4, ...: all T of them when T is odd; when T is even a
//!   full Mitchell would bring EW pairs back to boards they played, so only a curtailed one
//!   (at most T/2 rounds) is served and the others are pointed to the Skip or Share & Relay.
//! - Skip Mitchell (T even): as a Mitchell, but after round k (default T/2; when curtailed to n
//!   rounds, any k from n − T/2) the EW pairs skip one table. Complete, it has T − 1 rounds
//!   (a T-th round would be the revenge round at the starting table, which the seed says is
//!   not usually played).
//! - Share & Relay (T even): table 1 and table T share a set; a relay stand between tables T/2
//!   and T/2 + 1 makes the board circuit T stations long (tables 1..T−1 and the relay), so the
//!   sharing tables are equidistant from the relay. T rounds: every EW meets every NS and plays
//!   every set once.
//! - A half table (Mitchell only): the NS or EW seats at one table (default the highest) are
//!   empty; the pair that would sit opposite sits out that round.

use crate::engine::movement::model::{
    set_boards, Direction, Movement, MovementError, MovementParams, PairNumbering, Round, SitOut,
    TableRound,
};

/// Boards per round when none is given.
pub const DEFAULT_BOARDS_PER_ROUND: u32 = 3;
/// The largest field served.
pub const MAX_TABLES: u32 = 60;

fn wrap(x: i64, n: u32) -> u32 {
    (x.rem_euclid(n as i64)) as u32 + 1
}

fn check_common(p: &MovementParams, min_tables: u32) -> Result<u32, MovementError> {
    if p.tables < min_tables || p.tables > MAX_TABLES {
        return Err(
            MovementError::new("tables", format!("{} tables cannot be served", p.tables))
                .with_supported(format!("{min_tables} to {MAX_TABLES} tables")),
        );
    }
    let b = p.boards_per_round.unwrap_or(DEFAULT_BOARDS_PER_ROUND);
    if !(1..=8).contains(&b) {
        return Err(
            MovementError::new("boards_per_round", "must be 1 to 8").with_supported("1 to 8")
        );
    }
    Ok(b)
}

fn refuse_unsupported(p: &MovementParams, kind: &str) -> Result<(), MovementError> {
    let unsupported = [
        ("rover", p.rover),
        ("rover_from_round", p.rover_from_round.is_some()),
        ("switch_rounds", p.switch_rounds.is_some()),
        ("web_tables", p.web_tables.is_some()),
        ("base_tables", p.base_tables.is_some()),
        ("variant", p.variant.is_some()),
        ("twin_mode", p.twin_mode.is_some()),
    ];
    for (field, present) in unsupported {
        if present {
            return Err(MovementError::new(
                field,
                format!("the option {field} is not available for {kind}"),
            ));
        }
    }
    Ok(())
}

/// The size and shape of a movement being built.
struct Shape<'a> {
    kind: &'a str,
    tables: u32,
    rounds: u32,
    boards_per_round: u32,
    /// The half table: which seats are empty, at which table (NS) or for which EW pair.
    half: Option<(Direction, u32)>,
}

/// Builds a movement from where EW pairs sit and which set each table plays.
fn build(
    shape: Shape,
    ew_at: impl Fn(u32, u32) -> u32,
    set_at: impl Fn(u32, u32) -> u32,
    relay_sets: impl Fn(u32) -> Vec<u32>,
) -> Movement {
    let Shape {
        kind,
        tables,
        rounds,
        boards_per_round,
        half,
    } = shape;
    let rounds = (1..=rounds)
        .map(|r| {
            let mut sit_out = Vec::new();
            let tables = (1..=tables)
                .map(|t| {
                    let set = set_at(t, r);
                    let mut ns = Some(t);
                    let mut ew = Some(ew_at(t, r));
                    if let Some((dir, missing)) = half {
                        match dir {
                            Direction::Ns if t == missing => {
                                ns = None;
                                sit_out.push(SitOut::Ew(ew.unwrap_or_default()));
                            }
                            Direction::Ew if ew == Some(missing) => {
                                ew = None;
                                sit_out.push(SitOut::Ns(t));
                            }
                            _ => {}
                        }
                    }
                    TableRound {
                        table: t,
                        ns,
                        ew,
                        set,
                        boards: set_boards(set, boards_per_round),
                        arrow_switch: false,
                        section: None,
                    }
                })
                .collect();
            Round {
                round: r,
                tables,
                sit_out,
                relay_sets: relay_sets(r),
            }
        })
        .collect();
    Movement {
        kind: kind.to_string(),
        tables,
        pair_numbering: PairNumbering::Mitchell,
        boards_per_round,
        rounds,
    }
}

fn rounds_within(p: &MovementParams, full: u32) -> Result<u32, MovementError> {
    match p.rounds {
        None => Ok(full),
        Some(n) if (1..=full).contains(&n) => Ok(n),
        Some(_) => Err(MovementError::new(
            "rounds",
            format!("this movement has at most {full} rounds"),
        )
        .with_supported(format!("1 to {full} rounds"))),
    }
}

/// A plain Mitchell: any number of tables (odd when complete), a half table, curtailing.
pub fn mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_unsupported(p, "mitchell")?;
    if p.skip_after.is_some() {
        return Err(MovementError::new(
            "skip_after",
            "use the skip_mitchell kind for a skip",
        ));
    }
    let b = check_common(p, 2)?;
    let t = p.tables;
    // A complete Mitchell is asked for unless `rounds` curtails it.
    let rounds = p.rounds.unwrap_or(t);
    let full = if t % 2 == 1 { t } else { t / 2 };
    if t.is_multiple_of(2) && rounds > t / 2 {
        return Err(MovementError::new(
            "tables",
            format!(
                "a Mitchell on an even number of tables ({t}) brings EW pairs back to boards they played after {} rounds",
                t / 2
            ),
        )
        .with_supported(format!(
            "an odd number of tables, or at most {} rounds here; use skip_mitchell or share_relay_mitchell for a complete movement",
            t / 2
        )));
    }
    let rounds = rounds_within(
        &MovementParams {
            rounds: Some(rounds),
            ..p.clone()
        },
        full,
    )?;
    let half = match p.half_table {
        None => {
            if p.half_table_at.is_some() {
                return Err(MovementError::new(
                    "half_table_at",
                    "needs half_table=ns or ew",
                ));
            }
            None
        }
        Some(dir) => {
            let at = p.half_table_at.unwrap_or(t);
            if !(1..=t).contains(&at) {
                return Err(
                    MovementError::new("half_table_at", "must name one of the tables")
                        .with_supported(format!("1 to {t}")),
                );
            }
            Some((dir, at))
        }
    };
    Ok(build(
        Shape {
            kind: "mitchell",
            tables: t,
            rounds,
            boards_per_round: b,
            half,
        },
        |table, r| wrap(table as i64 - r as i64, t),
        |table, r| wrap(table as i64 + r as i64 - 2, t),
        |_| Vec::new(),
    ))
}

/// A Skip Mitchell on an even number of tables.
pub fn skip_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_unsupported(p, "skip_mitchell")?;
    let b = check_common(p, 4)?;
    let t = p.tables;
    if t % 2 == 1 {
        return Err(
            MovementError::new("tables", "a Skip Mitchell needs an even number of tables")
                .with_supported(format!("even numbers of tables from 4 to {MAX_TABLES}")),
        );
    }
    if p.half_table.is_some() {
        return Err(MovementError::new(
            "half_table",
            "a Skip Mitchell is best not used with a half table (seed 002); use an NS rover or a 1½ Appendix Mitchell",
        ));
    }
    let rounds = rounds_within(p, t - 1)?;
    let earliest = rounds.saturating_sub(t / 2).max(1);
    let skip = p.skip_after.unwrap_or(t / 2);
    if skip < earliest || skip > t / 2 {
        return Err(MovementError::new(
            "skip_after",
            format!("with {rounds} rounds the skip comes after round {earliest} at the earliest and {} at the latest", t / 2),
        )
        .with_supported(format!("{earliest} to {}", t / 2)));
    }
    // EW e in round r sits at table e + r − 1, plus one after the skip.
    let offset = move |r: u32| r as i64 - 1 + if r > skip { 1 } else { 0 };
    Ok(build(
        Shape {
            kind: "skip_mitchell",
            tables: t,
            rounds,
            boards_per_round: b,
            half: None,
        },
        move |table, r| wrap(table as i64 - 1 - offset(r), t),
        |table, r| wrap(table as i64 + r as i64 - 2, t),
        |_| Vec::new(),
    ))
}

/// A Share & Relay Mitchell on an even number of tables: tables 1 and T share, the relay
/// stands between tables T/2 and T/2 + 1.
pub fn share_relay_mitchell(p: &MovementParams) -> Result<Movement, MovementError> {
    refuse_unsupported(p, "share_relay_mitchell")?;
    if p.skip_after.is_some() {
        return Err(MovementError::new(
            "skip_after",
            "a Share & Relay Mitchell has no skip",
        ));
    }
    let b = check_common(p, 4)?;
    let t = p.tables;
    if t % 2 == 1 {
        return Err(MovementError::new(
            "tables",
            "a Share & Relay Mitchell needs an even number of tables",
        )
        .with_supported(format!("even numbers of tables from 4 to {MAX_TABLES}")));
    }
    if p.half_table.is_some() {
        return Err(MovementError::new(
            "half_table",
            "a half table is not served for the Share & Relay Mitchell here; use an NS rover or a 1½ Appendix Mitchell",
        ));
    }
    let rounds = rounds_within(p, t)?;
    let half = t / 2;
    // Stations 1..=T: tables 1..T/2, the relay, tables T/2+1..T−1. Table T shares station 1.
    let station = move |table: u32| -> u32 {
        if table == t {
            1
        } else if table <= half {
            table
        } else {
            table + 1
        }
    };
    let set_at_station = move |s: u32, r: u32| wrap(s as i64 + r as i64 - 2, t);
    Ok(build(
        Shape {
            kind: "share_relay_mitchell",
            tables: t,
            rounds,
            boards_per_round: b,
            half: None,
        },
        |table, r| wrap(table as i64 - r as i64, t),
        move |table, r| set_at_station(station(table), r),
        move |r| vec![set_at_station(half + 1, r)],
    ))
}
