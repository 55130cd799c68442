//! Acceleration: virtual points added to a player's score for pairing only (C.04.5.1, the
//! Baku method), read from a TRF file.
//!
//! * `XXA NNNN p1   p2   …`: player NNNN's acceleration in rounds 1, 2, … (columns 10-13,
//!   15-18, …; blank = 0), as JaVaFo and bbpPairings read it;
//! * `250 MMMM GGGG RRR LLL FFFF LLLL` (TRF-2026): GGGG game points for players FFFF to LLLL
//!   in rounds RRR to LLL;
//! * a `092`/`192` tournament type ending in `_BAKU` (e.g. `FIDE_DUTCH_2025_BAKU`) with no
//!   explicit records: the Baku method. The first half of the players by pairing number
//!   (rounded up: group A) get 1 point in the first ⌊(⌊(R−1)/2⌋)/2⌋+1 rounds and ½ point up
//!   to round ⌊(R−1)/2⌋+1 of an R-round event (9 rounds: 1 point in rounds 1-3, ½ in 4-5),
//!   the reading of bbpPairings.
//!
//! Scores in the pairing are then score + acceleration of the round being paired (floats
//! of earlier rounds compare the accelerated scores of those rounds); boards are still
//! ordered by the real scores.

pub use crate::engine::chess::swiss::state::AccelerationMethod;
use crate::engine::chess::swiss::SwissState;
use std::collections::HashMap;

/// The acceleration of every player, in half-points per round (index 0 = round 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Acceleration {
    by_player: HashMap<u32, Vec<i64>>,
}

impl Acceleration {
    /// No acceleration.
    pub fn none() -> Acceleration {
        Acceleration::default()
    }

    /// Player `sn`'s acceleration in round `round` (0-based), half-points.
    pub fn of(&self, sn: u32, round: usize) -> i64 {
        self.by_player
            .get(&sn)
            .and_then(|v| v.get(round))
            .copied()
            .unwrap_or(0)
    }

    /// True when some player has some acceleration.
    pub fn is_some(&self) -> bool {
        self.by_player.values().any(|v| v.iter().any(|x| *x != 0))
    }

    /// The acceleration the section's settings ask for (`none` gives `given`, e.g. a TRF's
    /// records; `baku` the Baku method).
    pub fn for_settings(state: &SwissState, given: Acceleration) -> Acceleration {
        match state.settings.acceleration {
            AccelerationMethod::None => given,
            AccelerationMethod::Baku => Acceleration::baku(state),
        }
    }

    /// The Baku method for the players of `state` and its planned rounds.
    pub fn baku(state: &SwissState) -> Acceleration {
        let rounds = state.settings.total_rounds.max(state.rounds_played()) as usize;
        let mut order: Vec<u32> = state.players.iter().map(|p| p.start_number).collect();
        order.sort_unstable();
        let mut by_player = HashMap::new();
        if rounds == 0 || order.is_empty() {
            return Acceleration { by_player };
        }
        let last_accelerated = (rounds - 1) / 2;
        let last_full = last_accelerated / 2;
        let group_a = (order.len() - 1) / 2 + 1;
        for &sn in order.iter().take(group_a) {
            let v: Vec<i64> = (0..=last_accelerated)
                .map(|r| if r <= last_full { 2 } else { 1 })
                .collect();
            by_player.insert(sn, v);
        }
        Acceleration { by_player }
    }
}

/// Points written in four columns ("1.0", " 0.5", blank = 0) as half-points.
fn half_points(field: &str) -> Result<i64, String> {
    let t = field.trim();
    if t.is_empty() {
        return Ok(0);
    }
    let x: f64 = t
        .parse()
        .map_err(|_| format!("`{t}` is not a number of points"))?;
    let h = x * 2.0;
    if !(0.0..=198.0).contains(&h) || h.fract() != 0.0 {
        return Err(format!("`{t}` is not a number of half-points from 0 to 99"));
    }
    Ok(h as i64)
}

fn field(line: &str, from: usize, to: usize) -> &str {
    line.get(from..to.min(line.len())).unwrap_or("")
}

fn number(s: &str, what: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{what} `{}` is not a number", s.trim()))
}

/// Reads the acceleration records of a TRF file (see the module doc) for `state` (the
/// state read from the same file). Errors name the line (1-based).
pub fn read_acceleration(text: &str, state: &SwissState) -> Result<Acceleration, String> {
    let max_rounds = crate::limits::MAX_ROUNDS as usize;
    let mut by_player: HashMap<u32, Vec<i64>> = HashMap::new();
    let mut explicit = false;
    let mut baku = false;
    for (k, line) in text.split(['\n', '\r']).enumerate() {
        let at = |m: String| format!("line {}: {m}", k + 1);
        if line.starts_with("XXA") {
            explicit = true;
            let sn = number(field(line, 4, 8), "the start number").map_err(at)? as u32;
            let mut v = Vec::new();
            let mut i = 9;
            while i < line.len() {
                if v.len() >= max_rounds {
                    return Err(at(format!("more than {max_rounds} rounds")));
                }
                v.push(half_points(field(line, i, i + 4)).map_err(at)?);
                i += 5;
            }
            by_player.insert(sn, v);
        } else if line.starts_with("250 ") {
            explicit = true;
            let points = half_points(field(line, 9, 13)).map_err(at)?;
            let first_round = number(field(line, 14, 17), "the first round").map_err(at)?;
            let last_round = number(field(line, 18, 21), "the last round").map_err(at)?;
            let first = number(field(line, 22, 26), "the first player").map_err(at)? as u32;
            let last = number(field(line, 27, 31), "the last player").map_err(at)? as u32;
            if first_round == 0 || first_round > last_round || last_round > max_rounds {
                return Err(at(format!("rounds {first_round} to {last_round}")));
            }
            for p in state
                .players
                .iter()
                .filter(|p| (first..=last).contains(&p.start_number))
            {
                let v = by_player.entry(p.start_number).or_default();
                if v.len() < last_round {
                    v.resize(last_round, 0);
                }
                for x in &mut v[first_round - 1..last_round] {
                    *x = points;
                }
            }
        } else if (line.starts_with("092 ") || line.starts_with("192 "))
            && line.trim_end().ends_with("_BAKU")
        {
            baku = true;
        }
    }
    if !explicit && baku {
        return Ok(Acceleration::baku(state));
    }
    Ok(Acceleration { by_player })
}
