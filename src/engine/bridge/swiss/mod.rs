//! The bridge Swiss draw (seed 002, "Swiss pairs" and "Swiss teams"): who meets whom next round.
//!
//! # The rule
//! Contestants (pairs or teams) are placed by score, highest first; ties by seeding (seeded
//! entries before unseeded ones, then the order given). The draw starts from the top: the
//! highest-placed contestant not yet drawn meets the highest-placed one it has not met,
//! *such that the rest can still be paired without any repeat*; then the next, and so on. This
//! is the seed's "1st v 2nd, 3rd v 4th ... with the proviso that pairs do not meet a second
//! time" made exact: when 2nd has met 4th and only 4th is left for 3rd, the draw becomes 1st v
//! 3rd, 2nd v 4th (the seed's own example), never a stranded pair at the bottom.
//!
//! Worked example: places 1..6, where 1 has met 2, and 5 has met 6. Top-down: 1 v 3 (2 is
//! met); 2 v 4 would leave 5 v 6, a repeat, so 2 v 5; then 4 v 6.
//!
//! # How it is computed
//! Not by search. For the highest-placed contestant u not yet drawn, its best candidate is taken
//! at once when the contestants still to be drawn after it are sure to be pairable: every one of
//! the k left may still meet at least k/2 of the others, so by Dirac's theorem they have a
//! Hamiltonian cycle and a perfect matching (the usual case in a large field). Otherwise one
//! least-cost perfect matching of everyone left decides (the blossom solver, `engine::matching`):
//! u's edges cost the rank of the candidate, every other edge nothing, so the matching pairs u
//! with its best candidate for which the rest can still be drawn; while later contestants' best
//! candidates agree with that matching, it is reused. The tests compare every draw with the
//! literal top-down rule with backtracking on random histories.
//!
//! When no draw without a repeat exists at all (an over-swissed field), the fewest repeats
//! possible are allowed (counted by a min-cost matching), the draw still top-down, preferring
//! contestants not met; a warning says so.
//!
//! # Round 1 and the bye
//! Round 1 (nobody has opponents yet) is drawn from the seeding: `split` 1 v N/2+1, 2 v N/2+2,
//! ... (the seed's "tried and tested" method), `fold` 1 v N, 2 v N−1, or `random` (shuffled
//! from a recorded seed, then 1st v 2nd, 3rd v 4th). With an odd number, the bye goes to the
//! lowest-placed contestant that has not had one and whose absence leaves the rest pairable
//! without repeats; never twice to the same contestant unless everyone has had one (then the
//! lowest-placed with the fewest, and a warning).
//!
//! For Swiss teams, an odd number may play a triangle instead (`odd: "triangle"`): three teams
//! play two half-matches each (the seed's triangle). The triangle is the lowest-placed three
//! that have not met one another and whose absence leaves the rest pairable without repeats
//! (sought among the lowest 30 places, at most 40 of them checked by the solver; else the lowest
//! three, with a warning).
//!
//! # Tables and warnings
//! The match with the highest-placed contestant is at table 1; its higher-placed contestant is
//! `home`. With `keep_home_tables`, going down the draw, a match sits at its home contestant's
//! `home_table` when no higher match took it, else at the away contestant's; the other matches
//! take the lowest free tables in order. Warnings: planned rounds above half the contestants ("over-swissed"), and below the
//! seed's minimum (9–16 contestants: 6 rounds, 17–32: 7, 33–64: 8, 65–128: 9).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::rng::SplitMix64;

mod top_down;

use top_down::{choose_bye, choose_triangle};
pub use top_down::{top_down, History};

/// The most contestants one draw takes.
pub const MAX_CONTESTANTS: usize = 2_000;
/// The most opponents one contestant may list.
pub const MAX_OPPONENTS: usize = 99;
/// The highest home table.
pub const MAX_HOME_TABLE: u32 = 9_999;

/// How round 1 is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Round1 {
    /// 1 v N/2+1, 2 v N/2+2, ...
    #[default]
    Split,
    /// 1 v N, 2 v N−1, ...
    Fold,
    /// Shuffled from `random_seed`, then 1st v 2nd, 3rd v 4th, ...
    Random,
}

/// A contestant as the caller keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Contestant {
    /// The caller's id (one contestant's only; never among its own `opponents`).
    pub id: u64,
    /// Score so far (VPs).
    #[serde(default)]
    pub score: f64,
    /// Seeding (1 = top seed); orders ties and round 1. Unseeded entries after seeded ones.
    #[serde(default)]
    pub seed: Option<u32>,
    /// Ids of the contestants already met.
    #[serde(default)]
    #[schema(max_items = 99)]
    pub opponents: Vec<u64>,
    /// Byes had so far.
    #[serde(default)]
    pub byes: u32,
    /// A stationary team's table, kept when `keep_home_tables` is set and possible.
    #[serde(default)]
    #[schema(value_type = Option<crate::limits::schema::MovementNumber>)]
    pub home_table: Option<u32>,
}

/// What an odd number of contestants does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OddNumber {
    /// One contestant has a bye.
    #[default]
    Bye,
    /// Three teams play a triangle (two half-matches each).
    Triangle,
}

/// What the draw is made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    #[schema(max_items = 2000)]
    pub contestants: Vec<Contestant>,
    /// How round 1 is drawn (used when nobody has opponents yet); default `split`.
    #[serde(default)]
    pub round1: Round1,
    /// The recorded seed of a `random` round 1.
    #[serde(default)]
    pub random_seed: Option<u64>,
    /// Rounds planned for the event, for the warnings (at most 99).
    #[serde(default)]
    #[schema(maximum = 99)]
    pub rounds: Option<u32>,
    /// An odd number: a `bye` (default) or, for teams, a `triangle`.
    #[serde(default)]
    pub odd: OddNumber,
    /// Matches sit at a contestant's `home_table` when possible.
    #[serde(default)]
    pub keep_home_tables: bool,
}

/// One match of the draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BridgeSwissMatch)]
pub struct DrawMatch {
    pub table: u32,
    /// The higher-placed contestant.
    pub home: u64,
    pub away: u64,
}

/// The draw of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BridgeSwissDraw)]
pub struct Draw {
    pub matches: Vec<DrawMatch>,
    /// The id of the contestant given the bye, or null.
    pub bye: Option<u64>,
    /// The three teams of a triangle (`odd: "triangle"`), highest-placed first; omitted otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triangle: Option<Vec<u64>>,
    pub warnings: Vec<String>,
}

/// A request the draw refuses: the field at fault and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawError {
    pub field: String,
    pub message: String,
}

fn refuse(field: impl Into<String>, message: impl Into<String>) -> DrawError {
    DrawError {
        field: field.into(),
        message: message.into(),
    }
}

/// The seed's minimum number of rounds for `n` contestants (Bridge Directing Complete), if any.
pub fn minimum_rounds(n: usize) -> Option<u32> {
    match n {
        9..=16 => Some(6),
        17..=32 => Some(7),
        33..=64 => Some(8),
        65..=128 => Some(9),
        _ => None,
    }
}

/// The warnings of planning `rounds` rounds for `n` contestants: over-swissed (more rounds than
/// half the contestants), and below the seed's minimum ([`minimum_rounds`]).
pub fn planning_warnings(rounds: u32, n: usize) -> Vec<String> {
    let mut warnings = Vec::new();
    if rounds as usize * 2 > n {
        warnings.push(format!(
            "over-swissed: {rounds} rounds for {n} contestants is more than half the number of contestants"
        ));
    }
    if let Some(min) = minimum_rounds(n) {
        if rounds < min {
            warnings.push(format!(
                "{rounds} rounds is below the minimum of {min} for {n} contestants (at most one unbeaten contestant is then not certain)"
            ));
        }
    }
    warnings
}

/// The contestants in placing order (indices into `contestants`): by score, highest first, then
/// by seed (seeded first), then as given. `by_score` false: seeding only (round 1).
pub fn placing(contestants: &[Contestant], by_score: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..contestants.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&contestants[a], &contestants[b]);
        let score = if by_score {
            y.score.total_cmp(&x.score)
        } else {
            std::cmp::Ordering::Equal
        };
        score
            .then_with(|| match (x.seed, y.seed) {
                (Some(p), Some(q)) => p.cmp(&q),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then(a.cmp(&b))
    });
    order
}

fn check(req: &DrawRequest) -> Result<(), DrawError> {
    if req.contestants.len() > MAX_CONTESTANTS {
        return Err(refuse(
            "contestants",
            format!("at most {MAX_CONTESTANTS} contestants are drawn"),
        ));
    }
    let mut seen = HashMap::new();
    for (i, c) in req.contestants.iter().enumerate() {
        if let Some(j) = seen.insert(c.id, i) {
            return Err(refuse(
                format!("contestants[{i}].id"),
                format!("id {} is also contestants[{j}]", c.id),
            ));
        }
        if c.opponents.len() > MAX_OPPONENTS {
            return Err(refuse(
                format!("contestants[{i}].opponents"),
                format!("at most {MAX_OPPONENTS} opponents"),
            ));
        }
        if c.home_table.is_some_and(|t| t == 0 || t > MAX_HOME_TABLE) {
            return Err(refuse(
                format!("contestants[{i}].home_table"),
                format!("a table from 1 to {MAX_HOME_TABLE}"),
            ));
        }
        if c.opponents.contains(&c.id) {
            return Err(refuse(
                format!("contestants[{i}].opponents"),
                format!("contestant {} cannot have met itself", c.id),
            ));
        }
    }
    // Meetings count from both sides: nobody may have met more than MAX_OPPONENTS others.
    let mut met: HashMap<u64, std::collections::HashSet<u64>> = HashMap::new();
    for c in &req.contestants {
        for &o in &c.opponents {
            met.entry(c.id).or_default().insert(o);
            met.entry(o).or_default().insert(c.id);
        }
    }
    for (i, c) in req.contestants.iter().enumerate() {
        let count = met.get(&c.id).map_or(0, |m| m.len());
        if count > MAX_OPPONENTS {
            return Err(refuse(
                format!("contestants[{i}].opponents"),
                format!(
                    "contestant {} has met {count} others by the opponents listed (at most {MAX_OPPONENTS})",
                    c.id
                ),
            ));
        }
    }
    if req.rounds.is_some_and(|r| r > crate::limits::MAX_ROUNDS) {
        return Err(refuse(
            "rounds",
            format!("at most {} rounds", crate::limits::MAX_ROUNDS),
        ));
    }
    if req.round1 == Round1::Random && req.random_seed.is_none() {
        return Err(refuse(
            "random_seed",
            "a random round 1 needs the seed it is drawn from",
        ));
    }
    Ok(())
}

/// Draw the next round.
pub fn draw(req: &DrawRequest) -> Result<Draw, DrawError> {
    check(req)?;
    let cs = &req.contestants;
    let n = cs.len();
    let mut warnings = req
        .rounds
        .map(|rounds| planning_warnings(rounds, n))
        .unwrap_or_default();
    let first_round = cs.iter().all(|c| c.opponents.is_empty() && c.byes == 0);
    let order = placing(cs, !first_round);
    let place_of: HashMap<u64, usize> = order
        .iter()
        .enumerate()
        .map(|(p, &i)| (cs[i].id, p))
        .collect();
    let met: Vec<Vec<usize>> = order
        .iter()
        .map(|&i| {
            cs[i]
                .opponents
                .iter()
                .filter_map(|id| place_of.get(id).copied())
                .collect()
        })
        .collect();
    let history = History::new(met);
    let mut active = vec![true; n];
    let (mut bye, mut triangle) = (None, None);
    if n % 2 == 1 {
        if req.odd == OddNumber::Triangle && n >= 3 {
            let t = choose_triangle(&history, &mut warnings);
            for p in t {
                active[p] = false;
            }
            triangle = Some(t.iter().map(|&p| cs[order[p]].id).collect());
        } else {
            let byes: Vec<u32> = order.iter().map(|&i| cs[i].byes).collect();
            let p = choose_bye(&history, &byes, &mut warnings);
            active[p] = false;
            bye = Some(p);
        }
    }
    let pairs = if first_round {
        round_one(&active, req.round1, req.random_seed.unwrap_or(0))
    } else {
        let (pairs, repeats) = top_down(&history, &mut active);
        if repeats > 0 {
            warnings.push(format!(
                "no draw without a repeat exists: {repeats} repeat meeting(s), the fewest possible"
            ));
        }
        pairs
    };
    let mut ordered = pairs;
    if !(first_round && req.round1 == Round1::Random) {
        ordered.sort_by_key(|&(a, b)| a.min(b));
    }
    let ordered: Vec<(usize, usize)> = ordered
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    let home_tables = |p: usize| {
        if req.keep_home_tables {
            cs[order[p]].home_table
        } else {
            None
        }
    };
    let tables = assign_tables(&ordered, home_tables);
    let matches = ordered
        .iter()
        .zip(tables)
        .map(|(&(a, b), table)| DrawMatch {
            table,
            home: cs[order[a]].id,
            away: cs[order[b]].id,
        })
        .collect();
    Ok(Draw {
        matches,
        bye: bye.map(|p| cs[order[p]].id),
        triangle,
        warnings,
    })
}

/// Tables for the matches in drawing order: a contestant's home table when asked for and still
/// free (home contestant first), else the lowest free table.
fn assign_tables(
    matches: &[(usize, usize)],
    home_table: impl Fn(usize) -> Option<u32>,
) -> Vec<u32> {
    let mut taken = std::collections::HashSet::new();
    let mut tables: Vec<Option<u32>> = matches
        .iter()
        .map(|&(a, b)| {
            let t = [home_table(a), home_table(b)]
                .into_iter()
                .flatten()
                .find(|t| !taken.contains(t))?;
            taken.insert(t);
            Some(t)
        })
        .collect();
    let mut next = 1;
    for t in tables.iter_mut().filter(|t| t.is_none()) {
        while taken.contains(&next) {
            next += 1;
        }
        taken.insert(next);
        *t = Some(next);
    }
    tables.into_iter().map(|t| t.unwrap_or(0)).collect()
}

/// Round 1 by the seeding, over the active places (in order).
fn round_one(active: &[bool], method: Round1, seed: u64) -> Vec<(usize, usize)> {
    let mut places: Vec<usize> = (0..active.len()).filter(|&p| active[p]).collect();
    let half = places.len() / 2;
    match method {
        Round1::Split => (0..half).map(|i| (places[i], places[i + half])).collect(),
        Round1::Fold => (0..half)
            .map(|i| (places[i], places[places.len() - 1 - i]))
            .collect(),
        Round1::Random => {
            SplitMix64::new(seed).shuffle(&mut places);
            places.chunks(2).map(|c| (c[0], c[1])).collect()
        }
    }
}

#[cfg(test)]
mod tests;
