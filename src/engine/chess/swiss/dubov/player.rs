//! What the Dubov rules need to know of one player (C.04.4.1 articles 1.5-1.8): score,
//! colour preference and its strength, the average rating of his opponents (ARO), how often
//! he has been upfloated and whether he was in the last round, whether he may receive the
//! pairing-allocated bye, whom he may not meet.

use crate::engine::chess::swiss::dutch::player::{players as dutch_players, QuickSet};
use crate::engine::chess::swiss::{Colour, SwissState};

/// The strength of a colour preference (1.6), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// Colour difference 0 (alternate), or no game yet (Black).
    Mild,
    /// Colour difference +1 or -1.
    Strong,
    /// Colour difference beyond 1, or the same colour in the last two played games.
    Absolute,
}

/// One player to pair, with the facts of the rules.
#[derive(Debug, Clone)]
pub(crate) struct DubovPlayer {
    /// Start number.
    pub sn: u32,
    /// Tournament pairing number as a position (0 = the first): the order of ties and the
    /// parity of 5.2.1.
    pub tpn: usize,
    /// Score in half-points.
    pub score: i64,
    /// Games played over the board.
    pub played: u32,
    /// Colours of the games played, oldest first (unplayed rounds left out, as the General
    /// Handling Rules 3.4 read a colour history).
    pub colours: Vec<Colour>,
    /// The due colour (1.6; every player has one: Black before his first game).
    pub preference: Colour,
    /// Its strength.
    pub strength: Strength,
    /// Average rating of the opponents met over the board, rounded half up (0 before the
    /// first game), 1.7.
    pub aro: u32,
    /// Rounds in which he was upfloated (paired against a higher score).
    pub upfloats: u32,
    /// Upfloated in the last round played.
    pub upfloated_last: bool,
    /// May receive the pairing-allocated bye (C2: no PAB, no full point without playing).
    pub bye_eligible: bool,
    /// Start numbers he may not meet: opponents of played games and the director's
    /// forbidden pairs.
    pub forbidden: QuickSet<u32>,
}

impl DubovPlayer {
    /// An absolute colour preference.
    pub fn absolute(&self) -> bool {
        self.strength == Strength::Absolute
    }
}

/// May the two meet (C1 no second game, no forbidden pair; C3 not the same absolute
/// preference)?
pub(crate) fn legal(a: &DubovPlayer, b: &DubovPlayer) -> bool {
    !(a.forbidden.contains(&b.sn)
        || b.forbidden.contains(&a.sn)
        || (a.absolute() && b.absolute() && a.preference == b.preference))
}

/// The facts of every player of the state (indexed like `state.players`), with `tpn` the
/// position among all players by start number (callers renumber it for the round).
pub(crate) fn players(state: &SwissState) -> Vec<DubovPlayer> {
    let base = dutch_players(state, &|_, _| 0);
    let played_rounds = state.rounds_played() as usize;
    let by_sn: std::collections::HashMap<u32, usize> = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_number, i))
        .collect();
    // Score before each round (half-points, the director's adjustment counted throughout).
    let before: Vec<Vec<i64>> = state
        .players
        .iter()
        .map(|p| {
            let mut s = p.adjustment_half_points as i64;
            let mut v = Vec::with_capacity(played_rounds + 1);
            for r in 0..played_rounds {
                v.push(s);
                s += p
                    .history
                    .get(r)
                    .map_or(0, |x| x.result.half_points() as i64);
            }
            v.push(s);
            v
        })
        .collect();
    base.into_iter()
        .enumerate()
        .map(|(i, d)| {
            let p = &state.players[i];
            let mut upfloats = 0;
            let mut upfloated_last = false;
            let (mut sum, mut n) = (0u64, 0u64);
            for (r, rec) in p.history.iter().enumerate() {
                let Some(&j) = rec.opponent.and_then(|o| by_sn.get(&o)) else {
                    continue;
                };
                if rec.result.is_played() {
                    sum += u64::from(state.players[j].rating);
                    n += 1;
                }
                if rec.result.has_opponent() && before[j][r] > before[i][r] {
                    upfloats += 1;
                    upfloated_last |= r + 1 == played_rounds;
                }
            }
            let strength = if d.absolute() {
                Strength::Absolute
            } else if d.strong {
                Strength::Strong
            } else {
                Strength::Mild
            };
            DubovPlayer {
                sn: d.sn,
                tpn: d.rank,
                score: d.score,
                played: d.played_games,
                preference: d.preference.unwrap_or(Colour::Black),
                strength,
                colours: d.colours,
                aro: if n == 0 {
                    0
                } else {
                    ((2 * sum + n) / (2 * n)) as u32
                },
                upfloats,
                upfloated_last,
                bye_eligible: d.bye_eligible,
                forbidden: d.forbidden,
            }
        })
        .collect()
}
