//! Bridge scoring: board facts, the duplicate score of a contract, matchpoints,
//! IMPs (Butler, cross-IMPs), victory points, hand records. Pure: plain data in and out.
//!
//! # Board facts (`board.rs`)
//! Boards follow the 16-board cycle, repeating (board 17 is board 1, board 0 counts as 16):
//!
//! | board | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 |
//! |-------|---|---|---|---|---|---|---|---|---|----|----|----|----|----|----|----|
//! | dealer| N | E | S | W | N | E | S | W | N | E  | S  | W  | N  | E  | S  | W  |
//! | vul.  | – | NS| EW|All| NS| EW|All| – | EW|All | –  | NS |All | –  | NS | EW |
//!
//! # The score of a board (`score.rs`, Laws of Duplicate Bridge 2017, law 77)
//! A contract is `1C` … `7NT` (`N` for `NT`), optionally `X` or `XX`, or `PASS` (0 for both
//! sides). The side of the declarer is vulnerable or not by the board. The score is given
//! for NS: the declarer's score, negated when E or W declared.
//! - **Made** (tricks ≥ level + 6), declarer scores:
//!   - *trick score* of the tricks bid beyond six: clubs and diamonds 20 each, hearts and
//!     spades 30, no trump 40 for the first and 30 for each further one; ×2 doubled, ×4
//!     redoubled;
//!   - *game bonus* 300 not vulnerable, 500 vulnerable when the trick score is 100 or more
//!     (so 2♥X = 120 is a game), else the *part-score bonus* 50;
//!   - *slam bonus*: level 6, 500 / 750 (not vulnerable / vulnerable); level 7, 1000 / 1500;
//!   - *insult*: 50 for making a doubled contract, 100 redoubled;
//!   - each *overtrick*: undoubled its trick value (20, 30, or 30 in no trump), doubled
//!     100 / 200, redoubled 200 / 400.
//!
//!   Example: 4♠X+1 vulnerable = 240 + 500 + 50 + 200 = 990.
//! - **Down** k tricks, the defenders score: undoubled 50 / 100 per trick; doubled not
//!   vulnerable 100 for the first, 200 for the second and third, 300 for each from the
//!   fourth (1–7 down: 100, 300, 500, 800, 1100, 1400, 1700); doubled vulnerable 200 for the
//!   first and 300 for each further one (200, 500, 800, 1100, 1400, 1700, 2000); redoubled,
//!   twice the doubled penalty.
//!
//! A result is the tricks taken (0–13) or the result against the contract: `=` (or `0`),
//! `+k`, `-k`; a result outside 0–13 tricks (down 8 in 1NT, +1 in a grand slam) is refused.
//!
//! # Matchpoints (`matchpoints.rs`)
//! On a board played n times, each NS score gets, on the **EBU scale**, 2 for each other NS
//! score it beats and 1 for each it ties (top 2(n − 1)); on the **ACBL scale** 1 and ½ (top
//! n − 1). The EW pair at the same table gets top − NS. Percent = 100 × MP / top (50 % when
//! the top is 0, a board played once).
//! - **Neuberg**: a board played A times when the most played board of the section has E
//!   results is factored as MP' = (MP + 1) × E / A − 1 on the EBU scale, to a top of
//!   2(E − 1); on the ACBL scale MP' = (MP + ½) × E / A − ½ (the same, halved). Example: 420,
//!   450, −50 with E = 4: raw 2, 4, 0 become 3, 5⅔, ⅓ of top 6.
//! - **Artificial adjusted scores** (`A+/A-`, `A/A`, `60/40`, …): each side separately gets
//!   60 % (average-plus), 50 % (average) or 40 % (average-minus) of the full top. These
//!   results take no part in the comparison: the real scores are matchpointed among
//!   themselves and Neuberg-factored to the full top, as if the board had been played only A
//!   times (A = the real results, E = all the results, or the expected count if larger).
//!   So A+/A+ is possible (both sides not at fault) and NS + EW need not equal the top.
//! - **Split scores** (a different assigned score for each side, e.g. NS −620 and EW −420 in
//!   NS terms): the NS pair's score is compared with the NS scores of the other real results
//!   and the EW pair's with the EW scores of the others, each taken in the same way: every
//!   ordinary result counts with its one score in both comparisons, every split result with
//!   its NS score when NS are being matchpointed and its EW score when EW are. Then NS MP =
//!   MP of its NS score in the NS field; EW MP = top − MP of its EW score in the EW field. On
//!   a board without split scores this is ordinary matchpointing.
//!
//! # IMPs (`imps.rs`)
//! The WBF table: difference 0–10 = 0, 20–40 = 1, 50–80 = 2, 90–120 = 3, 130–160 = 4,
//! 170–210 = 5, 220–260 = 6, 270–310 = 7, 320–360 = 8, 370–420 = 9, 430–490 = 10,
//! 500–590 = 11, 600–740 = 12, 750–890 = 13, 900–1090 = 14, 1100–1290 = 15, 1300–1490 = 16,
//! 1500–1740 = 17, 1750–1990 = 18, 2000–2240 = 19, 2250–2490 = 20, 2500–2990 = 21,
//! 3000–3490 = 22, 3500–3990 = 23, 4000 and more = 24; the sign is kept. A difference that
//! is not a multiple of 10 earns the IMPs of the band whose lower edge it has reached (15 = 0,
//! 45 = 1).
//! - **Butler**: the datum is the mean of the board's NS scores, after dropping one highest
//!   and one lowest when there are at least 5 scores, rounded to the nearest 10 (a mean
//!   ending in 5 rounds away from zero: 415 → 420, −415 → −420). Each NS score gets the IMPs
//!   of (score − datum); EW get the negation. Example: 620, 650, 170, 620, −100: drop 650 and
//!   −100, datum (620 + 170 + 620) / 3 = 470, IMPs 4, 5, −7, 4, −11.
//! - **Cross-IMPs**: each NS score is IMPed against every other score of the board and the
//!   IMPs averaged over the others (420, 450, −50: 4.5, 6, −10.5).
//!
//! # Victory points (`vp.rs`, WBF 2013 continuous scale)
//! For a match of N boards, B = 15·√N and τ = (√5 − 1)/2. The winner of a margin of M IMPs
//! gets VP = 10 + 10·(1 − τ^(3M/B)) / (1 − τ³), at most 20, rounded to 2 decimals; the
//! loser 20 − VP. The WBF table then applies its **concavity correction**: rounding can make
//! one more IMP worth more than the IMP before it, which the scale must never do; the
//! values are computed for every margin 0 … ⌈B⌉ in hundredths, and while some margin M has
//! VP(M+1) − VP(M) > VP(M) − VP(M−1), VP(M) is raised by 0.01 (repeated until no such
//! margin is left). Every raise is forced: at such a margin 2·VP(M) < VP(M−1) + VP(M+1) ≤
//! W(M−1) + W(M+1) ≤ 2·W(M) for any concave table W at or above VP, so W(M) > VP(M). The
//! result is therefore the lowest concave table nowhere below the rounded values, whatever
//! the order of the raises. Checks, 16 boards: 1 → 10.31, 5 → 11.48, 10 → 12.80,
//! 14 → 13.75 (13.74 by the formula alone, corrected), 60 → 20.00.
//!
//! # Hand records (`deal.rs`)
//! A PBN deal `N:AKQ.JT9.876.5432 …` gives the hands clockwise from the seat before the
//! colon, each spades.hearts.diamonds.clubs; it must hold 13 cards a hand and 52 different
//! cards. A PBN file's games give `[Board]`, `[Dealer]`, `[Vulnerable]` (default: the
//! board's place in the cycle) and `[Deal]`; errors name the line.

pub mod board;
pub mod contract;
pub mod deal;
pub mod imps;
pub mod matchpoints;
pub mod notation;
pub mod score;
pub mod vp;

pub use board::{dealer, vulnerability, Seat, Vulnerability};
pub use contract::{result_notation, tricks_from_result, Contract, Doubling, Strain};
pub use deal::{
    cycle_conflict, deal_string, holds, lead_fault, opening_leader, parse_deal_string,
    parse_pbn_deals, pbn_escape, Deal, PbnError,
};
pub use imps::{butler, butler_datum, cross_imps, imps, Butler};
pub use matchpoints::{matchpoints, parse_adjusted, Adjusted, BoardScore, Matchpoints, Scale};
pub use score::{ns_score, MAX_SCORE};
pub use vp::{victory_points, MAX_BOARDS};

use std::fmt;

/// A scoring input that cannot be right: `field` names the input at fault (`contract`,
/// `declarer`, `tricks`, `result`, `vulnerability`, `scores`, `adjusted`, …), `message` says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreError {
    pub field: &'static str,
    pub message: String,
}

impl ScoreError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScoreError {}
