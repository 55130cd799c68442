//! Shared pieces of the Mitchell family: option checks, the grid builder and the plain
//! Mitchell grid, and the two transformations every kind may apply to a full movement (a half
//! table, an NS rover).
//!
//! Conventions used by every kind (seed 002, "the usual form"): NS pairs are stationary
//! (NS t at table t), EW pairs move up one table, boards move down one table. In round 1
//! EW e sits at table e and set s is on table s. Set s holds boards (s−1)·B+1 ..= s·B.

use crate::engine::bridge::movement::model::{
    set_boards, Direction, Movement, MovementError, MovementParams, PairNumbering, Round, SitOut,
    TableRound, MAX_BOARDS_PER_ROUND,
};

/// Boards per round when the request gives none.
pub const DEFAULT_BOARDS_PER_ROUND: u32 = 3;
/// The largest room served (tables, a half table included).
pub const MAX_TABLES: u32 = 60;

/// `x` reduced into `1..=n`.
pub(crate) fn wrap(x: i64, n: u32) -> u32 {
    (x - 1).rem_euclid(i64::from(n)) as u32 + 1
}

/// What one table holds in one round, before half tables and rovers are applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cell {
    pub ns: Option<u32>,
    pub ew: Option<u32>,
    pub set: u32,
    pub section: Option<String>,
}

impl Cell {
    pub fn new(ns: u32, ew: u32, set: u32) -> Self {
        Cell {
            ns: Some(ns),
            ew: Some(ew),
            set,
            section: None,
        }
    }
}

/// Builds a Mitchell-numbered movement: `cell(round, table)` says who sits where and which
/// set is played (None: the table is not used that round); `relay(round)` lists the sets
/// resting on relay or bye stands.
pub(crate) fn build(
    kind: &str,
    tables: u32,
    rounds: u32,
    boards_per_round: u32,
    cell: impl Fn(u32, u32) -> Option<Cell>,
    relay: impl Fn(u32) -> Vec<u32>,
) -> Movement {
    let rounds = (1..=rounds)
        .map(|r| Round {
            round: r,
            tables: (1..=tables)
                .filter_map(|t| {
                    cell(r, t).map(|c| TableRound {
                        table: t,
                        ns: c.ns,
                        ew: c.ew,
                        set: c.set,
                        boards: set_boards(c.set, boards_per_round),
                        arrow_switch: false,
                        section: c.section,
                        half_sets: Vec::new(),
                    })
                })
                .collect(),
            sit_out: Vec::new(),
            relay_sets: relay(r),
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

/// The plain Mitchell on `t` tables for `rounds` rounds: NS t at table t, EW e at table
/// e + r − 1 and set t + r − 1 at table t in round r (mod `t`), nothing applied.
pub(crate) fn plain_grid(kind: &str, t: u32, rounds: u32, b: u32) -> Movement {
    build(
        kind,
        t,
        rounds,
        b,
        |r, table| {
            let (r, x) = (i64::from(r), i64::from(table));
            Some(Cell::new(table, wrap(x - r + 1, t), wrap(x + r - 1, t)))
        },
        |_| Vec::new(),
    )
}

/// Checks `tables` against a kind's rule; `supported` says in words which sizes it serves.
pub(crate) fn check_tables(
    p: &MovementParams,
    kind: &str,
    ok: impl Fn(u32) -> bool,
    why: &str,
    supported: &str,
) -> Result<u32, MovementError> {
    if p.tables > MAX_TABLES || !ok(p.tables) {
        return Err(MovementError::new(
            "tables",
            format!("{kind} cannot be run on {} tables: {why}", p.tables),
        )
        .with_supported(supported.to_string()));
    }
    Ok(p.tables)
}

/// Boards per round asked for, or the default.
pub(crate) fn boards_per_round(p: &MovementParams) -> Result<u32, MovementError> {
    let b = p.boards_per_round.unwrap_or(DEFAULT_BOARDS_PER_ROUND);
    if !(1..=MAX_BOARDS_PER_ROUND).contains(&b) {
        return Err(MovementError::new(
            "boards_per_round",
            format!("{b} boards a round cannot be served"),
        )
        .with_supported(format!("1 to {MAX_BOARDS_PER_ROUND} boards a round")));
    }
    Ok(b)
}

/// Rounds asked for (curtailing), at most `full`; default `full`.
pub(crate) fn rounds_within(p: &MovementParams, full: u32) -> Result<u32, MovementError> {
    match p.rounds {
        None => Ok(full),
        Some(n) if (1..=full).contains(&n) => Ok(n),
        Some(n) => Err(MovementError::new(
            "rounds",
            format!("{n} rounds: this movement has {full} rounds when complete"),
        )
        .with_supported(format!("1 to {full} rounds"))),
    }
}

/// The options, by query-parameter name, that are set in `p` (besides `tables`, `rounds`
/// and `boards_per_round`, which every kind reads).
fn options_present(p: &MovementParams) -> Vec<&'static str> {
    let mut v = Vec::new();
    let flags = [
        ("half_table", p.half_table.is_some()),
        ("half_table_at", p.half_table_at.is_some()),
        ("rover", p.rover),
        ("rover_from_round", p.rover_from_round.is_some()),
        ("skip_after", p.skip_after.is_some()),
        ("switch_rounds", p.switch_rounds.is_some()),
        ("web_tables", p.web_tables.is_some()),
        ("base_tables", p.base_tables.is_some()),
        ("variant", p.variant.is_some()),
        ("twin_mode", p.twin_mode.is_some()),
        ("sets", p.sets.is_some()),
    ];
    for (name, set) in flags {
        if set {
            v.push(name);
        }
    }
    v
}

/// Refuses, naming it, the first option the kind does not read.
pub(crate) fn refuse_other_options(
    p: &MovementParams,
    kind: &str,
    allowed: &[&str],
) -> Result<(), MovementError> {
    if let Some(o) = options_present(p)
        .into_iter()
        .find(|o| !allowed.contains(o))
    {
        let mut list: Vec<&str> = vec!["tables", "rounds", "boards_per_round"];
        list.extend_from_slice(allowed);
        return Err(
            MovementError::new(o, format!("the option {o} does not apply to {kind}"))
                .with_supported(format!("options of {kind}: {}", list.join(", "))),
        );
    }
    Ok(())
}

/// Refuses when `sets` is given and fewer than the movement needs.
pub(crate) fn check_sets(p: &MovementParams, needed: u32) -> Result<(), MovementError> {
    match p.sets {
        Some(s) if s < needed => Err(MovementError::new(
            "sets",
            format!("this movement needs {needed} sets of boards; {s} are available"),
        )
        .with_supported(format!("{needed} or more sets"))),
        _ => Ok(()),
    }
}

/// The half table asked for: which seats are empty, at which table (default `default_at`).
pub(crate) fn half_table(
    p: &MovementParams,
    tables: u32,
    default_at: u32,
) -> Result<Option<(Direction, u32)>, MovementError> {
    match p.half_table {
        None if p.half_table_at.is_some() => Err(MovementError::new(
            "half_table_at",
            "half_table_at needs half_table=ns or half_table=ew",
        )
        .with_supported("half_table=ns|ew with half_table_at=1..tables")),
        None => Ok(None),
        Some(dir) => {
            let at = p.half_table_at.unwrap_or(default_at);
            if !(1..=tables).contains(&at) {
                return Err(
                    MovementError::new("half_table_at", format!("there is no table {at}"))
                        .with_supported(format!("1 to {tables}")),
                );
            }
            Ok(Some((dir, at)))
        }
    }
}

/// Makes table `at`'s `dir` seats empty in round 1: the pair that would sit there is absent
/// (a phantom) all session. Wherever the phantom would be, its seats are null and the pair
/// opposite sits out. Works for any movement whose pairs keep their identity.
pub(crate) fn apply_half_table(m: &mut Movement, dir: Direction, at: u32) {
    let seat = |t: &TableRound| match dir {
        Direction::Ns => t.ns,
        Direction::Ew => t.ew,
    };
    let Some(phantom) = m
        .rounds
        .first()
        .and_then(|r| r.tables.iter().find(|t| t.table == at))
        .and_then(seat)
    else {
        return;
    };
    for r in &mut m.rounds {
        r.sit_out.retain(|s| {
            *s != match dir {
                Direction::Ns => SitOut::Ns(phantom),
                Direction::Ew => SitOut::Ew(phantom),
            }
        });
        for t in &mut r.tables {
            match dir {
                Direction::Ns if t.ns == Some(phantom) => {
                    t.ns = None;
                    if let Some(e) = t.ew {
                        r.sit_out.push(SitOut::Ew(e));
                    }
                }
                Direction::Ew if t.ew == Some(phantom) => {
                    t.ew = None;
                    if let Some(n) = t.ns {
                        r.sit_out.push(SitOut::Ns(n));
                    }
                }
                _ => {}
            }
        }
        r.sit_out.sort();
    }
}

/// Seats NS pair `rover` at `schedule[r − 1]` in each round r (None: the rover sits out);
/// the NS pair it displaces sits out that round.
pub(crate) fn apply_rover(m: &mut Movement, rover: u32, schedule: &[Option<u32>]) {
    for (i, r) in m.rounds.iter_mut().enumerate() {
        match schedule.get(i).copied().flatten() {
            Some(table) => {
                if let Some(t) = r.tables.iter_mut().find(|t| t.table == table) {
                    if let Some(displaced) = t.ns.replace(rover) {
                        r.sit_out.push(SitOut::Ns(displaced));
                    }
                }
            }
            None => r.sit_out.push(SitOut::Ns(rover)),
        }
        r.sit_out.sort();
    }
}

/// Refuses a half table together with a rover (the rover is what fills the half table).
pub(crate) fn refuse_rover_with_half(p: &MovementParams) -> Result<(), MovementError> {
    if p.rover && p.half_table.is_some() {
        return Err(MovementError::new(
            "rover",
            "an NS rover takes the place of a half table: ask for one or the other",
        )
        .with_supported("rover=true on full tables, or half_table=ns|ew without a rover"));
    }
    if p.rover_from_round.is_some() && !p.rover {
        return Err(
            MovementError::new("rover_from_round", "rover_from_round needs rover=true")
                .with_supported("rover=true&rover_from_round=2..rounds"),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_reduces_into_one_based_range() {
        assert_eq!(wrap(0, 5), 5);
        assert_eq!(wrap(5, 5), 5);
        assert_eq!(wrap(6, 5), 1);
        assert_eq!(wrap(-1, 5), 4);
    }

    #[test]
    fn unknown_options_are_named() {
        let p = MovementParams {
            tables: 5,
            web_tables: Some(2),
            ..Default::default()
        };
        let e = refuse_other_options(&p, "mitchell", &["half_table"]).unwrap_err();
        assert_eq!(e.field, "web_tables");
        assert!(e.supported.unwrap().contains("half_table"));
    }
}
