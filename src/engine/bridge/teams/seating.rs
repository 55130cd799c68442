//! A team movement as seat assignments: in a round, at a table, one team's NS pair against
//! another's EW pair on a set. The generators write a movement this way, and the halves of a
//! match are found in them again (by the generators and by the validator).

use std::collections::{HashMap, VecDeque};

use super::TeamMovement;

/// One seat assignment: in `round`, at `table`, NS of team `ns` against EW of team `ew` on `set`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seating {
    pub round: u32,
    pub table: u32,
    pub ns: u32,
    pub ew: u32,
    pub set: u32,
}

/// `x` counted cyclically into `1..=n`.
pub fn cyclic(x: i64, n: u32) -> u32 {
    ((x - 1).rem_euclid(n as i64) + 1) as u32
}

/// The halves paired into matches (A's NS v B's EW with B's NS v A's EW on the same set, the
/// earlier half first, in order of play: each half takes the earliest waiting half it
/// completes), and the halves left without a partner. Linear in the number of seats.
pub fn pair_halves(seatings: &[Seating]) -> (Vec<(Seating, Seating)>, Vec<Seating>) {
    let mut ordered = seatings.to_vec();
    ordered.sort_by_key(|s| (s.round, s.table));
    let mut waiting: HashMap<(u32, u32, u32), VecDeque<Seating>> = HashMap::new();
    let mut pairs = Vec::new();
    for s in ordered {
        let partner = waiting
            .get_mut(&(s.ew, s.ns, s.set))
            .and_then(|q| q.pop_front());
        match partner {
            Some(first) => pairs.push((first, s)),
            None => waiting.entry((s.ns, s.ew, s.set)).or_default().push_back(s),
        }
    }
    pairs.sort_by_key(|(a, _)| (a.round, a.table));
    let mut alone: Vec<Seating> = waiting.into_values().flatten().collect();
    alone.sort_by_key(|s| (s.round, s.table));
    (pairs, alone)
}

/// Every seat assignment of a movement (tables with a seat empty are left out).
pub fn seatings_of(m: &TeamMovement) -> Vec<Seating> {
    m.rounds
        .iter()
        .flat_map(|r| {
            r.tables.iter().filter_map(move |t| {
                Some(Seating {
                    round: r.round,
                    table: t.table,
                    ns: t.ns?,
                    ew: t.ew?,
                    set: t.set,
                })
            })
        })
        .collect()
}
