//! What the Lim rules need to know of one player (C.04.4.3 articles 2.1, 3.10, 5): score,
//! pairing number, the colours of his played games, his due colour, the colours he may still
//! take, whether he floated in the last round, whether he may receive the pairing-allocated
//! bye, whom he may not meet.

use crate::engine::chess::swiss::dutch::player::{players as dutch_players, Float, QuickSet};
use crate::engine::chess::swiss::{Colour, SwissState};

/// One player to pair, with the facts of the rules.
#[derive(Debug, Clone)]
pub(crate) struct LimPlayer {
    /// Start number.
    pub sn: u32,
    /// Pairing number as a position (0 = #1, the highest numbered player in the text's
    /// words).
    pub tpn: usize,
    /// Score in half-points.
    pub score: i64,
    /// Colours of the games played, oldest first (unplayed rounds left out, General
    /// Handling Rules 3.4).
    pub colours: Vec<Colour>,
    /// Whites minus blacks.
    pub balance: i64,
    /// The due colour: the one he has had fewer times, else the one alternating from his
    /// last game (Basic Rules 8, articles 5.1, 5.5, 5.6), unless he may not take it (5.1.1:
    /// then the other); none before his first game.
    pub due: Option<Colour>,
    /// Transferred to another score in the last round (a game played against another
    /// score, or points without a game).
    pub floated_last: bool,
    /// May receive the pairing-allocated bye (Basic Rules 4).
    pub bye_eligible: bool,
    /// Start numbers he may not meet: opponents of played games and the director's
    /// forbidden pairs.
    pub forbidden: QuickSet<u32>,
}

impl LimPlayer {
    /// May be given `c` without the same colour three times in a row (5.1.1) or three more
    /// of one colour than the other (5.1.2).
    pub fn may_take(&self, c: Colour) -> bool {
        let n = self.colours.len();
        let twice = n >= 2 && self.colours[n - 1] == c && self.colours[n - 2] == c;
        let after = self.balance + if c == Colour::White { 1 } else { -1 };
        !twice && after.abs() <= 2
    }
}

/// The colours `a` and `b` may have without breaking 5.1.1 or 5.1.2: `a` White, `a` Black.
pub(crate) fn colour_options(a: &LimPlayer, b: &LimPlayer) -> (bool, bool) {
    (
        a.may_take(Colour::White) && b.may_take(Colour::Black),
        a.may_take(Colour::Black) && b.may_take(Colour::White),
    )
}

/// Compatible (2.1): not met, not forbidden, and a colour for each within 5.1.1 and 5.1.2;
/// in the last round players of the same score need only not have met (6).
pub(crate) fn compatible(a: &LimPlayer, b: &LimPlayer, last_round: bool) -> bool {
    if a.forbidden.contains(&b.sn) || b.forbidden.contains(&a.sn) {
        return false;
    }
    if last_round && a.score == b.score {
        return true;
    }
    let (w, b) = colour_options(a, b);
    w || b
}

/// The facts of every player of the state (indexed like `state.players`), `tpn` the
/// position among all players by start number (callers renumber it for the round).
pub(crate) fn players(state: &SwissState) -> Vec<LimPlayer> {
    dutch_players(state, &|_, _| 0)
        .into_iter()
        .map(|d| {
            let whites = d.colours.iter().filter(|c| **c == Colour::White).count() as i64;
            let balance = 2 * whites - d.colours.len() as i64;
            let wanted = match balance {
                0 => d.colours.last().map(|c| c.opposite()),
                x if x > 0 => Some(Colour::Black),
                _ => Some(Colour::White),
            };
            let mut p = LimPlayer {
                sn: d.sn,
                tpn: d.rank,
                score: d.score,
                colours: d.colours,
                balance,
                due: wanted,
                floated_last: d.floats[0] != Float::None,
                bye_eligible: d.bye_eligible,
                forbidden: d.forbidden,
            };
            // A colour he may not take (5.1.1) is not due: the other one is.
            if let Some(c) = wanted.filter(|&c| !p.may_take(c)) {
                p.due = Some(c.opposite());
            }
            p
        })
        .collect()
}
