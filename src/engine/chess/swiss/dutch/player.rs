//! What the Dutch rules need to know of one player (C.04.1 and C.04.3 A): score, colour
//! difference and preference, floats of the last two rounds, whether he may receive the
//! pairing-allocated bye, whom he may not meet.

use crate::engine::chess::swiss::{Colour, RoundResult, SwissPlayer, SwissState};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// A quick hasher for the engine's small integer keys (start numbers, pairs of positions):
/// one multiply per word instead of SipHash, which showed in the profiles of large rounds.
#[derive(Default, Clone, Copy)]
pub(crate) struct QuickHasher(u64);

impl QuickHasher {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(b as u64);
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.add(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

/// A set hashed by [`QuickHasher`].
pub(crate) type QuickSet<T> = HashSet<T, BuildHasherDefault<QuickHasher>>;

/// The float of one earlier round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    /// Paired with a lower score, or given a bye or a forfeit win (points without a game).
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// One player to pair, with the facts of the rules.
#[derive(Debug, Clone)]
pub(crate) struct DutchPlayer {
    /// Start number (the pairing number, C.04.3 A.2 orders by it within a score).
    pub sn: u32,
    /// Position among all players in start-number order (0 = the first): its parity decides
    /// colours when nothing else does (C.04.3 E.5).
    pub rank: usize,
    /// Score in half-points, including the acceleration of this round.
    pub score: i64,
    /// Games played over the board.
    pub played_games: u32,
    /// |whites − blacks|.
    pub imbalance: u32,
    /// The colour preference (C.04.3 A.6), if any.
    pub preference: Option<Colour>,
    /// Same colour in the last two played games: that colour.
    pub repeated: Option<Colour>,
    /// Strong preference: imbalance 1, not absolute.
    pub strong: bool,
    /// Colours of the games played, oldest first.
    pub colours: Vec<Colour>,
    /// Float of the last round and of the round before.
    pub floats: [Float; 2],
    /// May receive the pairing-allocated bye (C.04.1 c: no PAB, no full-point bye or forfeit
    /// win so far).
    pub bye_eligible: bool,
    /// Start numbers he may not meet: opponents of played games and the director's
    /// forbidden pairs.
    pub forbidden: QuickSet<u32>,
}

impl DutchPlayer {
    /// Absolute colour preference: imbalance beyond 1, or the same colour twice in a row.
    pub fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }
    /// Imbalance beyond 1.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// A player known by his colours alone (C.04.3 A.6: imbalance, preference and its
    /// strength from the colours of his played games, oldest first): no floats, no bye
    /// taken, nobody forbidden.
    pub fn by_colours(sn: u32, rank: usize, score: i64, colours: Vec<Colour>) -> DutchPlayer {
        let whites = colours.iter().filter(|c| **c == Colour::White).count() as i64;
        let blacks = colours.len() as i64 - whites;
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = (whites - blacks).unsigned_abs() as u32;
        let last = colours.last().copied();
        let run = last.map_or(0, |c| colours.iter().rev().take_while(|x| **x == c).count());
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        DutchPlayer {
            sn,
            rank,
            score,
            played_games: colours.len() as u32,
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
            colours,
            floats: [Float::None; 2],
            bye_eligible: true,
            forbidden: QuickSet::default(),
        }
    }
}

/// Points of one round in half-points (missing rounds: absent, 0).
fn points(p: &SwissPlayer, round: usize) -> i64 {
    p.history
        .get(round)
        .map_or(0, |r| r.result.half_points() as i64)
}

/// Score of `p` before the last `back` rounds of `played` (plus the adjustment).
fn score_before(p: &SwissPlayer, played: usize, back: usize, accel: i64) -> i64 {
    let all: i64 = (0..played).map(|r| points(p, r)).sum::<i64>() + p.adjustment_half_points as i64;
    all - (played - back..played).map(|r| points(p, r)).sum::<i64>() + accel
}

/// The float of `p` in round `played - back` (0-based), `back` >= 1.
fn float(
    state: &SwissState,
    by_sn: &std::collections::HashMap<u32, usize>,
    i: usize,
    back: usize,
    accel: &dyn Fn(usize, usize) -> i64,
) -> Float {
    let played = state.rounds_played() as usize;
    if back > played {
        return Float::None;
    }
    let p = &state.players[i];
    let round = played - back;
    let Some(rec) = p.history.get(round) else {
        return Float::None;
    };
    if !rec.result.is_played() {
        return if rec.result.half_points() > 0 {
            Float::Down
        } else {
            Float::None
        };
    }
    let Some(&j) = rec.opponent.and_then(|o| by_sn.get(&o)) else {
        return Float::None;
    };
    let mine = score_before(p, played, back, accel(i, round));
    let theirs = score_before(&state.players[j], played, back, accel(j, round));
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// The facts of every player of the state (indexed like `state.players`). `accel(i, r)` is
/// the acceleration (half-points) of player `i` in round `r` (0-based).
pub(crate) fn players(state: &SwissState, accel: &dyn Fn(usize, usize) -> i64) -> Vec<DutchPlayer> {
    let played = state.rounds_played() as usize;
    let by_sn: std::collections::HashMap<u32, usize> = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_number, i))
        .collect();
    let mut order: Vec<usize> = (0..state.players.len()).collect();
    order.sort_by_key(|&i| state.players[i].start_number);
    let mut rank = vec![0; state.players.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    let mut forbidden: Vec<QuickSet<u32>> = vec![QuickSet::default(); state.players.len()];
    for pair in &state.settings.prohibited_pairs {
        if let (Some(&a), Some(&b)) = (by_sn.get(&pair[0]), by_sn.get(&pair[1])) {
            forbidden[a].insert(pair[1]);
            forbidden[b].insert(pair[0]);
        }
    }
    state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let colours: Vec<Colour> = p
                .history
                .iter()
                .filter(|r| r.result.is_played())
                .filter_map(|r| r.colour)
                .collect();
            let mut f = forbidden[i].clone();
            for r in &p.history {
                if r.result.is_played() {
                    if let Some(o) = r.opponent {
                        f.insert(o);
                    }
                }
            }
            let bye_eligible = !p.history.iter().any(|r| {
                matches!(
                    r.result,
                    RoundResult::PairingBye | RoundResult::FullBye | RoundResult::ForfeitWin
                )
            });
            let score = score_before(p, played, 0, accel(i, played));
            DutchPlayer {
                floats: [
                    float(state, &by_sn, i, 1, accel),
                    float(state, &by_sn, i, 2, accel),
                ],
                bye_eligible,
                forbidden: f,
                ..DutchPlayer::by_colours(p.start_number, rank[i], score, colours)
            }
        })
        .collect()
}
