//! Colours as a Swiss section records and explains them, whatever its pairing system: how a
//! colour suits a player (the WinTD codes `OK`, `AL`, `EQ`, `33`, `IMB` every explanation
//! uses), the colour a player is due, the rule that gave a board its colours, and the coin flips
//! drawn from the section's seed (round 1, and ties a system leaves to chance). How a system
//! allocates colours to a pair lives in its own module ([`super::us::colour`], the Dutch
//! system's `colour`).

use super::state::{Colour, PlayerView};
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
