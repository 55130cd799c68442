//! NS rovers (seed 002, "NS Rover Mitchell").
//!
//! A half table is filled by adding a roving NS pair, numbered T+1, to a full-table movement.
//! The rover sits out round 1, then in each round sits at the table its list names; the NS pair
//! it displaces sits out that round. A rover list is correct when the rover meets each EW pair
//! at most once, plays each set at most once, and displaces each NS pair at most once — the
//! rule every list below is checked against (`check`).
//!
//! The lists (R2, R3, ... = the table for round 2, 3, ...):
//! - Mitchell on T tables, T odd and not a multiple of 3 (the seed's "prime number" table,
//!   extended to 17, 19, 23, ... as the seed says): table 2, then up two tables each round.
//!   In round r the rover sits at table 2(r−1), meets EW r−1 and plays set 3(r−1): distinct
//!   exactly when 3 does not divide T, which is why 9, 15, 21 ... need something else.
//! - Mitchell on 9 tables: the seed's special list 2, 4, 6, 9, 3, 5, 7, 8 with EW 6 and EW 9
//!   exchanging places in rounds 3, 6 and 9 (`NINE_TABLE`, `nine_table_exchange`).
//! - Mitchell on 15, 21 and 27 tables (3 divides T, so the plain rule fails; an exhaustive
//!   search shows that on 15 tables no list exists even with the 9-table's exchange in rounds
//!   3, 6, 9, ...): two EW pairs exchange places every g-th round, g a divisor of T, and the
//!   rover follows an embedded list (`EXCHANGE_ROVERS`): 15 tables EW 1 and 6 in rounds 5,
//!   10, 15; 21 tables EW 1 and 8 in rounds 7, 14, 21; 27 tables EW 15 and 24 in rounds 3,
//!   6, 9, ...; 33 tables EW 1 and 12 in rounds 11, 22, 33 (39, 45, 51, 57: none found yet). Why the Mitchell stays complete: EW a in round r sits at table a + r − 1 and
//!   plays set a + 2(r − 1); with b − a a multiple of g, standing in for b in the rounds
//!   r ≡ 0 (mod g) gives table a + (r + b − a) − 1 and set a + 2(r + (b − a)/2 − 1), where
//!   r + b − a and r + (b − a)/2 (2 is invertible, T odd) are again multiples of g: over
//!   those rounds EW a meets the same NS pairs and plays the same sets as without the
//!   exchange, only in another order (and EW b likewise). `search_exchange` finds them.
//! - Skip Mitchell on T tables, 3 not dividing T: table 2, up two tables each round until the
//!   skip, table 3 at the skip, then up two again.
//! - Skip Mitchell on 12 tables: the seed's list 2, 10, 8, 6, 4, 1, 11, 9, 5, 3 (`TWELVE_SKIP`).
//! - Share & Relay Mitchell on T tables: the rover alternates between a "low" table and the
//!   "high" table opposite it: R2 = a, R3 = a + d, R4 = a + 1, R5 = a + 1 + d, ... with
//!   a = 1, d = T/2 + 1 when 3 does not divide T, and a = T/6 + 1, d = T/2 when it does.
//!   The seed states no rule for this table; this one is read off it: it reproduces every row
//!   of the seed's table (6, 8, 10, 12, 14 tables) and is correct for every even T from 4
//!   (tested up to 30).
//! - Anything else (a late rover whose list cannot follow the rule, Skip Mitchells on 6, 18
//!   or 24 tables, Web Mitchells): a depth-first search for a correct list, preferring
//!   "up two tables" from the previous table (`search`). It gives up after `SEARCH_NODES`
//!   nodes (the Skip Mitchell on 30 tables, for one), and the request is refused by name.
//!
//! A late pair (rover_from_round = f ≥ 2) joins a running movement: it is listed as sitting
//! out before round f and follows the list from round f on.

use std::collections::HashSet;

use super::common::apply_rover;
use crate::engine::bridge::movement::model::{Movement, MovementError};

/// Entry r − 1 is the table the rover sits at in round r; None: the rover sits out.
pub type Schedule = Vec<Option<u32>>;

/// The seed's 9-table Mitchell rover list, rounds 2..=9 (published table, embedded as data).
pub const NINE_TABLE: [u32; 8] = [2, 4, 6, 9, 3, 5, 7, 8];
/// The seed's 12-table Skip Mitchell rover list, rounds 2..=11 (published table).
pub const TWELVE_SKIP: [u32; 10] = [2, 10, 8, 6, 4, 1, 11, 9, 5, 3];

/// Most search nodes tried before giving up (keeps every request fast).
const SEARCH_NODES: usize = 300_000;

/// Why a rover list is not correct for `m`, or Ok.
pub fn check(m: &Movement, schedule: &[Option<u32>]) -> Result<(), String> {
    let (mut ews, mut sets, mut nss) = (HashSet::new(), HashSet::new(), HashSet::new());
    for (r, slot) in m.rounds.iter().zip(schedule) {
        let Some(table) = slot else { continue };
        let Some(t) = r.tables.iter().find(|t| t.table == *table) else {
            return Err(format!("round {}: there is no table {table}", r.round));
        };
        let (Some(ns), Some(ew)) = (t.ns, t.ew) else {
            return Err(format!("round {}: table {table} is a half table", r.round));
        };
        if !ews.insert(ew) {
            return Err(format!("round {}: the rover meets EW {ew} again", r.round));
        }
        if !sets.insert(t.set) {
            return Err(format!(
                "round {}: the rover plays set {} again",
                r.round, t.set
            ));
        }
        if !nss.insert(ns) {
            return Err(format!("round {}: NS {ns} is displaced again", r.round));
        }
    }
    Ok(())
}

/// Builds a schedule for `rounds` rounds from a list for rounds 2, 3, ...
fn from_list(rounds: u32, list: impl Fn(u32) -> u32) -> Schedule {
    (1..=rounds)
        .map(|r| if r == 1 { None } else { Some(list(r)) })
        .collect()
}

/// Mitchell on `t` tables (odd, 3 ∤ t): table 2, then up two tables each round.
pub fn mitchell_rule(t: u32, rounds: u32) -> Schedule {
    from_list(rounds, |r| super::common::wrap(2 * (i64::from(r) - 1), t))
}

/// The 9-table Mitchell list.
pub fn nine_table(rounds: u32) -> Schedule {
    from_list(rounds, |r| NINE_TABLE[(r - 2) as usize])
}

/// EW 6 and EW 9 exchange places in rounds 3, 6 and 9 (the 9-table rover Mitchell).
pub fn nine_table_exchange(m: &mut Movement) {
    exchange(m, 6, 9, 3);
}

/// (tables, the two EW pairs that exchange, every how many rounds, the rover list R2, R3, ...).
pub type ExchangeRover = (u32, (u32, u32), u32, &'static [u32]);

/// Mitchells on T tables, 3 dividing T, that take a rover when two EW pairs exchange places
/// every g-th round (the seed's 9-table device, generalised): (tables, the two EW pairs, g,
/// the rover list R2, R3, ...). Two EW pairs a multiple of g apart visit the same tables
/// and sets in those rounds, so the Mitchell stays complete (module docs). 27 tables was
/// found by `search` over the exchanges with g = 3; 15, 21 and 33 by [`search_exchange`] (with
/// g = 3 no list exists on 15 tables: the search exhausts every exchange); re-verified by
/// `check` in the tests.
pub const EXCHANGE_ROVERS: &[ExchangeRover] = &[
    (
        15,
        (1, 6),
        5,
        &[2, 4, 7, 11, 15, 3, 6, 8, 10, 13, 1, 5, 9, 12],
    ),
    (
        21,
        (1, 8),
        7,
        &[
            2, 4, 6, 8, 10, 16, 18, 15, 7, 3, 20, 9, 5, 14, 11, 1, 12, 17, 13, 21,
        ],
    ),
    (
        33,
        (1, 12),
        11,
        &[
            2, 4, 6, 8, 10, 12, 14, 16, 18, 21, 26, 29, 31, 33, 25, 7, 17, 1, 9, 13, 22, 3, 15, 11,
            5, 20, 23, 27, 24, 19, 28, 30,
        ],
    ),
    (
        27,
        (15, 24),
        3,
        &[
            2, 4, 6, 8, 10, 12, 14, 16, 18, 21, 23, 25, 27, 3, 5, 7, 9, 11, 13, 15, 17, 19, 20, 22,
            24, 26,
        ],
    ),
];

/// The round of the first exchange of the embedded device for `t` tables (a late rover
/// arriving after it joins a movement already played without it), if one is embedded.
pub fn exchange_period(t: u32) -> Option<u32> {
    EXCHANGE_ROVERS.iter().find(|e| e.0 == t).map(|e| e.2)
}

/// EW `a` and EW `b` exchange places in rounds `period`, 2·`period`, ...
pub fn exchange(m: &mut Movement, a: u32, b: u32, period: u32) {
    for r in &mut m.rounds {
        if r.round.is_multiple_of(period) {
            for t in &mut r.tables {
                t.ew = match t.ew {
                    Some(e) if e == a => Some(b),
                    Some(e) if e == b => Some(a),
                    other => other,
                };
            }
        }
    }
}

/// The embedded exchange and list for a Mitchell on `t` tables, applied to `m`; None when
/// none is embedded.
pub fn exchange_rover(m: &mut Movement, rounds: u32) -> Option<Schedule> {
    let &(_, (a, b), period, list) = EXCHANGE_ROVERS.iter().find(|e| e.0 == m.tables)?;
    exchange(m, a, b, period);
    Some(from_list(rounds, |r| list[(r - 2) as usize]))
}

/// Skip Mitchell on `t` tables with the skip after round `k`: table 2, up two each round
/// until the skip, table 3 at the skip, then up two again.
pub fn skip_rule(t: u32, k: u32, rounds: u32) -> Schedule {
    from_list(rounds, |r| {
        let x = if r <= k {
            2 * (i64::from(r) - 1)
        } else {
            3 + 2 * (i64::from(r) - i64::from(k) - 1)
        };
        super::common::wrap(x, t)
    })
}

/// The 12-table Skip Mitchell list.
pub fn twelve_skip(rounds: u32) -> Schedule {
    from_list(rounds, |r| TWELVE_SKIP[(r - 2) as usize])
}

/// Share & Relay Mitchell on `t` tables (even): low table a + j, high table a + j + d.
pub fn share_relay_rule(t: u32, rounds: u32) -> Schedule {
    let (a, d) = if t.is_multiple_of(3) {
        (t / 6 + 1, t / 2)
    } else {
        (1, t / 2 + 1)
    };
    from_list(rounds, |r| {
        let j = r / 2 - 1;
        let x = if r.is_multiple_of(2) {
            a + j
        } else {
            a + j + d
        };
        super::common::wrap(i64::from(x), t)
    })
}

/// Searches the exchange device of a Mitchell on `t` tables (3 | t, odd): for each divisor
/// g of t (largest first) and each EW b = 1 + g, 1 + 2g, ... (EW 1 and b exchange in rounds
/// g, 2g, ...; rotating the tables makes any other a equivalent), a depth-first [`search`]
/// of at most `nodes` nodes for a rover list. Returns (the two EW pairs, g, R2, R3, ...).
/// Run offline (`cargo run --release --example search-movements -- rover 15`); the results
/// are embedded in [`EXCHANGE_ROVERS`].
pub fn search_exchange(t: u32, nodes: usize) -> Option<((u32, u32), u32, Vec<u32>)> {
    let plain = super::common::plain_grid("mitchell", t, t, 1);
    let mut divisors: Vec<u32> = (2..t).filter(|g| t.is_multiple_of(*g)).collect();
    divisors.reverse();
    for g in divisors {
        for b in (1 + g..=t).step_by(g as usize) {
            let mut m = plain.clone();
            exchange(&mut m, 1, b, g);
            if let Some(s) = search_within(&m, 2, nodes) {
                let list = s.into_iter().skip(1).map(|x| x.unwrap_or(0)).collect();
                return Some(((1, b), g, list));
            }
        }
    }
    None
}

/// Depth-first search for a correct list for rounds `from.max(2)..` of `m`: each round the
/// tables are tried from two above the previous one (table 2 first), upwards. Gives up
/// (None) after `SEARCH_NODES` nodes.
pub fn search(m: &Movement, from: u32) -> Option<Schedule> {
    search_within(m, from, SEARCH_NODES)
}

/// [`search`] with a node budget of its own.
pub fn search_within(m: &Movement, from: u32, budget: usize) -> Option<Schedule> {
    // Per round: the full tables as (table, ns bit, ew bit, set bit); numbers above 127
    // cannot be tracked and are left out.
    let bit = |x: u32| (x < 128).then(|| 1u128 << x);
    let options: Vec<Vec<(u32, u128, u128, u128)>> = m
        .rounds
        .iter()
        .map(|r| {
            let mut v: Vec<(u32, u128, u128, u128)> = r
                .tables
                .iter()
                .filter_map(|t| Some((t.table, bit(t.ns?)?, bit(t.ew?)?, bit(t.set)?)))
                .collect();
            v.sort_by_key(|o| o.0);
            v
        })
        .collect();
    struct State<'a> {
        options: &'a [Vec<(u32, u128, u128, u128)>],
        tables: u32,
        schedule: Schedule,
        nodes: usize,
        budget: usize,
    }
    fn go(s: &mut State, r: usize, prev: Option<u32>, used: (u128, u128, u128)) -> bool {
        if r > s.options.len() {
            return true;
        }
        s.nodes += 1;
        if s.nodes > s.budget {
            return false;
        }
        let first = prev.map_or(2, |p| p + 2);
        let opts = &s.options[r - 1];
        for i in 0..s.tables {
            let table = super::common::wrap(i64::from(first) + i64::from(i), s.tables);
            let Ok(j) = opts.binary_search_by_key(&table, |o| o.0) else {
                continue;
            };
            let (_, ns, ew, set) = opts[j];
            if used.0 & ns != 0 || used.1 & ew != 0 || used.2 & set != 0 {
                continue;
            }
            s.schedule[r - 1] = Some(table);
            if go(
                s,
                r + 1,
                Some(table),
                (used.0 | ns, used.1 | ew, used.2 | set),
            ) {
                return true;
            }
            s.schedule[r - 1] = None;
            if s.nodes > s.budget {
                return false;
            }
        }
        false
    }
    let mut state = State {
        options: &options,
        tables: m.tables,
        schedule: vec![None; m.rounds.len()],
        nodes: 0,
        budget,
    };
    go(&mut state, from.max(2) as usize, None, (0, 0, 0)).then_some(state.schedule)
}

/// The rover's first round: 1 unless a late pair joins at `rover_from_round`.
pub fn first_round(from: Option<u32>, rounds: u32) -> Result<u32, MovementError> {
    match from {
        None => Ok(1),
        Some(f) if (1..=rounds).contains(&f) => Ok(f),
        Some(f) => Err(MovementError::new(
            "rover_from_round",
            format!("round {f} is not a round of this movement"),
        )
        .with_supported(format!("1 to {rounds}"))),
    }
}

/// Seats the rover (NS pair `m.tables + 1`): from round `from` on it follows `rule` when the
/// rule is correct there, else a searched list. `supported` names the sizes the kind serves
/// with a rover, for the error when neither works.
pub fn add_rover(
    m: &mut Movement,
    rule: Option<Schedule>,
    from: u32,
    supported: &str,
) -> Result<(), MovementError> {
    let late = |s: Schedule| -> Schedule {
        s.into_iter()
            .enumerate()
            .map(|(i, x)| if (i as u32) + 1 < from { None } else { x })
            .collect()
    };
    let schedule = match rule.map(late).filter(|s| check(m, s).is_ok()) {
        Some(s) => s,
        None => search(m, from).ok_or_else(|| {
            MovementError::new(
                "rover",
                format!(
                    "no NS rover list serves this {} on {} tables",
                    m.kind.replace('_', " "),
                    m.tables
                ),
            )
            .with_supported(supported.to_string())
        })?,
    };
    apply_rover(m, m.tables + 1, &schedule);
    Ok(())
}
