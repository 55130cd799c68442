//! Colour allocation for one pair (seed 001, "The WinTD Color Balancing Procedure").
//!
//! Given two players to be paired (`hi` the higher-ranked), colours are assigned by:
//! 1. **Equalisation**: a player who has had more of one colour gets the other; if both lean
//!    the same way, the more unequal one gets his colour (A had BB, B had bye+B: A is −2,
//!    B is −1, A gets White).
//! 2. **Alternation**: otherwise each gets the colour had least recently: walk both lists of
//!    played colours backwards from the last game; at the first game where they differ each
//!    gets the opposite of what he had then (BWBW v BWWB: A gets Black; BWW v WBW: A gets
//!    Black).
//! 3. **Identical histories**: the due colour (the opposite of the shared last colour, or the
//!    section's first colour when neither has played) goes to the higher-ranked player under
//!    rule 3b; under rule 3a (variation 29I1) to the higher-ranked in even or plus score
//!    groups and to the lower-ranked in minus groups, and in the last round by a coin flip
//!    (29I4) drawn from the stored seed.
//!
//! Byes and forfeits give no colour: only games played over the board are counted.
//!
//! *FIDE style* allocates instead by FIDE C.04.3 E.1-E.5, through the Dutch engine's own
//! code ([`assign_fide`]): both preferences; else the stronger one (absolute over strong over
//! mild; of two absolute, the wider colour difference); else alternate from the most recent
//! round with different colours; else the higher-ranked player's preference; else by his
//! pairing number (odd: the initial colour). Pairing numbers are counted as the Dutch engine
//! counts them ([`crate::engine::chess::swiss::round::pairing_positions`]: the players paired now or before, in
//! start-number order). It differs from the rules above in the minus groups (rule 3a gives
//! the due colour to the lower-ranked player, E.4 to the higher), in the last round (no coin
//! flip), when E.5 decides after a player numbered has missed a round (by pairing number,
//! not by board), and where a repeated colour outranks an imbalance of 1 (A.6).

use crate::engine::chess::swiss::colour::{pair_coin, ColourReason};
use crate::engine::chess::swiss::dutch::colour::{allocate, Allocation};
use crate::engine::chess::swiss::dutch::player::DutchPlayer;
use crate::engine::chess::swiss::state::{Colour, ColourRule, PlayerView};

/// Everything besides the two histories that the colour rules need.
pub(crate) struct ColourContext {
    pub rule: ColourRule,
    /// The round being paired is the last one of the section.
    pub last_round: bool,
    /// Score (half-points) at or above which a group is "even or plus".
    pub even_threshold: i64,
    /// Due colour when neither player has played a game.
    pub first_colour: Colour,
    pub seed: u64,
    pub round: u32,
}

/// Colour of the higher-ranked player `hi` against `lo`.
pub(crate) fn assign(
    hi: &PlayerView,
    lo: &PlayerView,
    ctx: &ColourContext,
) -> (Colour, ColourReason) {
    let (ih, il) = (hi.imbalance(), lo.imbalance());
    let want = |i: i64| {
        if i > 0 {
            Some(Colour::Black)
        } else if i < 0 {
            Some(Colour::White)
        } else {
            None
        }
    };
    // Rule 1.
    match (want(ih), want(il)) {
        (Some(a), Some(b)) if a != b => return (a, ColourReason::Equalisation),
        (Some(a), Some(_)) => {
            if ih.abs() > il.abs() {
                return (a, ColourReason::Equalisation);
            } else if il.abs() > ih.abs() {
                return (a.opposite(), ColourReason::Equalisation);
            }
        }
        (Some(a), None) => return (a, ColourReason::Equalisation),
        (None, Some(b)) => return (b.opposite(), ColourReason::Equalisation),
        (None, None) => {}
    }
    // Rule 2.
    let (a, b) = (&hi.colours, &lo.colours);
    for k in 1..=a.len().min(b.len()) {
        let (ca, cb) = (a[a.len() - k], b[b.len() - k]);
        if ca != cb {
            return (ca.opposite(), ColourReason::Alternation);
        }
    }
    // One has played fewer games, identical as far as both go: the longer history decides.
    if a.len() != b.len() {
        let longer_hi = a.len() > b.len();
        let (long, short) = if longer_hi { (a, b) } else { (b, a) };
        let c = long[long.len() - short.len() - 1].opposite();
        return (
            if longer_hi { c } else { c.opposite() },
            ColourReason::Alternation,
        );
    }
    // Rule 3.
    let due = a.last().map_or(ctx.first_colour, |c| c.opposite());
    if a.is_empty() {
        return (due, ColourReason::Board);
    }
    match ctx.rule {
        ColourRule::Rule3b => (due, ColourReason::Identical),
        ColourRule::Rule3a => {
            if ctx.last_round {
                let heads = pair_coin(ctx.seed, ctx.round, hi.sn, lo.sn);
                (if heads { due } else { due.opposite() }, ColourReason::Coin)
            } else if hi.score >= ctx.even_threshold {
                (due, ColourReason::Identical)
            } else {
                (due.opposite(), ColourReason::Identical)
            }
        }
    }
}

/// The player as the FIDE Dutch colour rules see him (C.04.3 A.6): his pairing number is
/// his start number's position among the players numbered (`position`).
pub(crate) fn fide_view(p: &PlayerView) -> DutchPlayer {
    DutchPlayer::by_colours(p.sn, p.position, p.score, p.colours.clone())
}

/// FIDE style: the colour of the higher-ranked player `hi` against `lo` by C.04.3 E.1-E.5,
/// the Dutch engine's own allocation ([`fide_view`] of both players); `initial` is the
/// colour of pairing number 1 in round 1. The reason shown: `1` for E.1/E.2 (preferences),
/// `2` for E.3 (history), `3` for E.4/E.5 (rank, pairing number).
pub(crate) fn assign_fide(
    hi: &DutchPlayer,
    lo: &DutchPlayer,
    initial: Colour,
) -> (Colour, ColourReason) {
    let (c, rule) = allocate(hi, lo, initial);
    let reason = match rule {
        Allocation::BothPreferences | Allocation::Stronger => ColourReason::Equalisation,
        Allocation::History => ColourReason::Alternation,
        Allocation::HigherRanked | Allocation::PairingNumber => ColourReason::Identical,
    };
    (c, reason)
}
