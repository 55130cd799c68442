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
//! counts them ([`super::pair::pairing_positions`]: the players paired now or before, in
//! start-number order). It differs from the rules above in the minus groups (rule 3a gives
//! the due colour to the lower-ranked player, E.4 to the higher), in the last round (no coin
//! flip), when E.5 decides after a player numbered has missed a round (by pairing number,
//! not by board), and where a repeated colour outranks an imbalance of 1 (A.6).

use super::state::{Colour, ColourRule, PlayerView};
use crate::engine::chess::dutch::colour::{allocate, Allocation};
use crate::engine::chess::dutch::player::DutchPlayer;
use crate::engine::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How a colour suits a player (WinTD's log vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub enum ColourCode {
    /// The due colour, or no colour due.
    #[serde(rename = "OK")]
    Ok,
    /// Alternation problem: the same colour as in the previous game (WB → WBB).
    #[serde(rename = "AL")]
    Al,
    /// Same colour for the third game in a row (WW → WWW).
    #[serde(rename = "33")]
    ThreeInRow,
    /// Equalisation problem: one colour two more times than the other (WBW → WBWW).
    #[serde(rename = "EQ")]
    Eq,
    /// Imbalance beyond 2: one colour three or more times more than the other (WW → WWW,
    /// BWWWW → BWWWWW). The most serious problem (FIDE C.04.1 f).
    #[serde(rename = "IMB")]
    Imb,
}

impl ColourCode {
    /// True for the serious class (equalisation, three in a row, imbalance beyond 2).
    pub fn is_serious(self) -> bool {
        matches!(
            self,
            ColourCode::Eq | ColourCode::ThreeInRow | ColourCode::Imb
        )
    }
}

/// What giving colour `c` to a player does to his colour history, measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ColourEffect {
    /// Whites minus blacks after the game.
    pub imbalance: i64,
    /// Games in a row with colour `c`, this one included.
    pub run: i64,
    /// Colour `c` is the one of his previous game.
    pub repeats_last: bool,
    /// Colour `c` moves him further from balance (|W−B| grows).
    pub worsens: bool,
}

impl ColourEffect {
    pub fn of(p: &PlayerView, c: Colour) -> ColourEffect {
        let d = if c == Colour::White { 1 } else { -1 };
        let run = 1 + p.colours.iter().rev().take_while(|&&x| x == c).count() as i64;
        let before = p.imbalance();
        ColourEffect {
            imbalance: before + d,
            run,
            repeats_last: run >= 2,
            worsens: (before + d).abs() > before.abs(),
        }
    }

    /// |W−B| after the game when the colour made it grow, else 0 (a player at −5 given
    /// White is corrected, not out of balance).
    fn excess(self) -> i64 {
        if self.worsens {
            self.imbalance.abs()
        } else {
            0
        }
    }

    /// The code shown for it, the most serious first: IMB, 33, EQ, AL, OK.
    pub fn code(self) -> ColourCode {
        if self.excess() > 2 {
            ColourCode::Imb
        } else if self.run >= 3 {
            ColourCode::ThreeInRow
        } else if self.excess() == 2 {
            ColourCode::Eq
        } else if self.repeats_last {
            ColourCode::Al
        } else {
            ColourCode::Ok
        }
    }

    /// The serious-colour tier of this player: `(run − 2)²` for a third (fourth...) colour in
    /// a row plus `(|imbalance| − 2)²` for an imbalance beyond 2. Convex, so a problem left
    /// uncorrected costs more each round it grows (a fourth in a row costs 4, a fifth 9).
    /// The imbalance counts only when the colour makes it grow.
    pub fn serious(self) -> i64 {
        let run = (self.run - 2).max(0);
        let imb = (self.excess() - 2).max(0);
        run * run + imb * imb
    }

    /// Units of equalisation: `(|imbalance| − 1)²` once the imbalance reaches 2 (2 → 1,
    /// 3 → 4, 4 → 9: the further out of balance, the dearer), 1 for a third colour in a row
    /// that leaves the balance within 1 (BBWW → BBWWW), 0 otherwise.
    pub fn equalisation(self) -> i64 {
        let i = self.excess();
        if i >= 2 {
            (i - 1) * (i - 1)
        } else {
            i64::from(self.run >= 3)
        }
    }
}

/// What giving colour `c` does to the player.
pub(crate) fn classify(p: &PlayerView, c: Colour) -> ColourCode {
    ColourEffect::of(p, c).code()
}

/// The colour a player is due, if any: the one that equalises, else the one that alternates
/// (none before his first game).
pub(crate) fn due(p: &PlayerView) -> Option<Colour> {
    let i = p.imbalance();
    if i > 0 {
        Some(Colour::Black)
    } else if i < 0 {
        Some(Colour::White)
    } else {
        p.colours.last().map(|c| c.opposite())
    }
}

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

/// Which rule decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum ColourReason {
    /// Rule 1 (equalisation) or both players due different colours.
    #[serde(rename = "1")]
    Equalisation,
    /// Rule 2 (least recently).
    #[serde(rename = "2")]
    Alternation,
    /// Rule 3a / 3b (identical histories).
    #[serde(rename = "3")]
    Identical,
    /// Coin flip (29I4, last round, identical histories).
    #[serde(rename = "coin")]
    Coin,
    /// Round 1 / no colour history: by board.
    #[serde(rename = "board")]
    Board,
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

/// The coin of one pair in one round: a SplitMix64 stream seeded from the section seed, the
/// round and both start numbers, so it does not depend on the order pairs are looked at.
pub(crate) fn pair_coin(seed: u64, round: u32, a: u32, b: u32) -> bool {
    let (x, y) = (a.min(b) as u64, a.max(b) as u64);
    let mix = seed
        ^ (round as u64).wrapping_mul(0xA24B_AED4_963E_E407)
        ^ (x << 32 | y).wrapping_mul(0x9FB2_1C65_1E98_DF25);
    SplitMix64::new(mix).coin()
}

/// Colour of the higher-ranked player on board 1 in round 1: the setting, or a coin flip
/// from the seed (the first output of `SplitMix64::new(seed)`).
pub(crate) fn round_one_colour(seed: u64, setting: Option<Colour>) -> Colour {
    setting.unwrap_or_else(|| {
        if SplitMix64::new(seed).coin() {
            Colour::White
        } else {
            Colour::Black
        }
    })
}
