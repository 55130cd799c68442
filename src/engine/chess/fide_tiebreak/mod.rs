//! The individual tie-breaks of the FIDE Play-Off and Tie-Break Regulations (Handbook C.07),
//! in both texts an arbiter meets: the 2023 text (FIDE-rated events from 1 April 2024) and
//! the text as amended by the FIDE Council on 2 February 2026 (in force from 1 March 2026).
//! Codes and modifiers: [`crate::engine::chess::tiebreak_order`]; direct encounter:
//! [`crate::engine::chess::direct_encounter`].
//!
//! Points are counted in half-points, Sonneborn-Berger in quarter points, ratings in rating
//! points. `R` is the number of rounds scored so far: the last round in which any result or
//! bye is recorded. A tie-break is computed as if the event had ended after round R.
//!
//! ## A player's rounds
//! Every round `1..=R` of a player is one of:
//! * a **game played** over the board (won, drawn or lost, with white or black);
//! * an **unplayed round** (art. 16.2): the pairing-allocated bye (PAB) or a full-point bye
//!   (16.2.1), a forfeit won (16.2.2), a half- or zero-point bye or an absence (16.2.3 and
//!   16.2.5), a forfeit lost, a double forfeit included (16.2.4);
//! * a game still **pending** (paired, no result yet): it counts for nothing.
//!
//! A **voluntarily unplayed round** (VUR, art. 16.1) is an unplayed round that did not score
//! a win's points: a forfeit lost, a half- or zero-point bye, an absence.
//!
//! ## As someone's opponent: the adjusted score (art. 16.3)
//! A player counts with the points actually scored, except that the VURs without an opponent
//! *after the player's last round that was not a VUR* (a withdrawal, byes to the end) count
//! as draws. With pre-determined pairings (round robins, team schedules) they count as
//! nothing.
//!
//! ## A player's own unplayed rounds: the dummy (art. 16.4)
//! For the Buchholz family and Sonneborn-Berger, each of a player's own unplayed rounds is a
//! game against a **dummy** opponent whose score is the player's own score.
//! * **2023**: the dummy has the player's own score, always.
//! * **2026**: the dummy's score is capped: for a forfeit (won or lost) at the scheduled
//!   opponent's adjusted score (16.4.1); for every other unplayed round at a draw in every
//!   round, ½ × R (16.4.2). Example: 14 rounds, a half-point bye in round 1, a final score
//!   of 10½: under 2023 the bye's round counts 10½ in the Buchholz, under 2026 7.
//!
//! ## The cuts (art. 14, 16.5)
//! `/C1` (`/C2`) drops the one (two) least significant elements, `/M1` (`/M2`) also the one
//! (two) most significant. The least significant element is the lowest opponent's score
//! (for Sonneborn-Berger too: the game against the lowest-scoring opponent, art. 14.1), the
//! lower contribution among equal scores, the earlier round among equal ones. While a player
//! has VURs, the lowest contribution among them is cut instead, as long as it is not lower
//! than the least significant element's; each further cut applies the rule again to what is
//! left (16.5.2). A cut never takes more than R elements.
//!
//! ## The tie-breaks
//! * **BH** (8.1): the sum of the elements: the opponent's adjusted score for a game
//!   played, the dummy's for an unplayed round. `/P`: a forfeit counts as a game against the
//!   scheduled opponent.
//! * **FB**, Fore Buchholz (8.3): Buchholz as if every game of the final round had been
//!   drawn: a player paired in the final round counts with a draw there and no adjustment
//!   of earlier rounds, and a forfeit of the final round is a game. While the final round
//!   (the planned rounds) is not yet scored, FB equals BH.
//! * **AOB** (8.2): the average of the opponents' Buchholz (`/F`: Fore Buchholz) over the
//!   games played over the board, to the hundredth of a point, half up.
//! * **SB** (9.1): each element times the points scored in that round (a win counts it
//!   whole, a draw half), unplayed rounds included against the dummy.
//! * **KS**, Koya (9.2): the points scored against the opponents (played or forfeited) with
//!   at least half the points possible: half of R; in a round robin the games each player
//!   plays (a player sitting out every cycle once loses a round, and a player never paired
//!   one more). `/L40` makes it 40 %, `/L+2` (`/L-2`) moves it one point up (down).
//! * **WIN** (7.1): rounds scored as a win, played or not. **WON** (7.2): games won over the
//!   board. **BPG** (7.3): games played with black. **BWG** (7.4): games won with black.
//! * **PS** (7.5): the running score after each round, summed; `/C1` (`/C2`) leaves out
//!   the first one (two) rounds.
//! * **GE** (2023) and **REP** (2026, 7.6): the rounds the player elected to play: R less
//!   the half- and zero-point byes, absences and forfeits lost.
//! * **TPN** (7.8): the pairing number, lower first; `/R` higher first.
//! * **ARO** (10.1): the average rating of the opponents met over the board, rounded half
//!   up; `/C1`, `/M1`… cut the lowest (and highest) ratings. **TPR** (10.2) and **PTP**
//!   (10.3): [`crate::engine::chess::rating`]. **APRO**, **APPO** (10.4, 10.5): the average of
//!   the opponents' TPR (PTP), rounded half up.
//!
//! With pre-determined pairings a forfeit is the game against the scheduled opponent (art.
//! 15) for direct encounter, the Buchholz family, Sonneborn-Berger and Koya; the rating-based
//! tie-breaks and WON, BPG, BWG count games played over the board only.
//!
//! ## Unrated players (art. 10)
//! The rules of the tournament may give unrated players a rating (`unrated_rating`): they
//! then count with it in every average. Without it an unrated opponent is left out of the
//! averages (the cuts are taken from the opponents counted), and the standings say whom it
//! left out. C.07 itself drops rating-based tie-breaks in that case: leave them out of the
//! list, or give the unrated a rating.
//!
//! ### Worked example (the tests hold more)
//! Player 12 of FIDE's 2024 tie-break exercise (5 rounds): lost to 4 (3½), a full-point bye,
//! a forfeit win, then absent twice; final score 2. Elements: 3½ (game), 2, 2 (unplayed,
//! not voluntary: the dummy has 2), 2, 2 (absences: VURs). Buchholz 11½; cut-1 cuts a VUR's
//! 2, not the lowest element: 9½. Under the 2026 text the absences' dummy is capped at ½ × 5
//! = 2½, above 2: nothing changes.

mod buchholz;
pub(crate) use buchholz::{cut, Element};
#[cfg(test)]
mod held;
mod ratings;
mod rounds;
#[cfg(test)]
mod tests;

use crate::engine::chess::games::{ScoredBye, ScoredGame};
use crate::engine::chess::tiebreak_order::{Code, Tiebreak, TiebreakRules};
use rounds::{Cell, Rows};

/// What the FIDE tie-breaks of a section are computed from.
#[derive(Debug, Clone, Copy)]
pub struct Section<'a> {
    pub games: &'a [ScoredGame],
    pub byes: &'a [ScoredBye],
    /// Each player's rating (missing or not positive: unrated); shorter: the rest unrated.
    pub ratings: &'a [Option<i32>],
    /// Each player's pairing number (TPN).
    pub pairing_numbers: &'a [Option<u32>],
    /// Pre-determined pairings: a round robin or a team schedule (art. 15).
    pub predetermined: bool,
    pub rules: TiebreakRules,
    /// The rating the rules of the tournament give unrated players (art. 10).
    pub unrated_rating: Option<i32>,
    /// The event's final round (Fore Buchholz): the planned rounds, else R.
    pub final_round: u32,
}

/// A section's FIDE tie-breaks, ready to be asked for any of them.
pub struct FideTiebreaks<'a> {
    rows: Rows,
    section: Section<'a>,
}

/// Units per point of a tie-break's value: half-points, quarter points (SB), hundredths
/// (AOB), or whole numbers (counts, ratings, pairing numbers).
pub fn scale(code: Code) -> i64 {
    match code {
        Code::BH | Code::FB | Code::PS | Code::KS => 2,
        Code::SB => 4,
        Code::AOB => 100,
        _ => 1,
    }
}

impl<'a> FideTiebreaks<'a> {
    pub fn new(n: usize, section: Section<'a>) -> FideTiebreaks<'a> {
        FideTiebreaks {
            rows: Rows::new(n, section.games, section.byes, section.predetermined),
            section,
        }
    }

    /// R: the rounds counted.
    pub fn rounds(&self) -> u32 {
        self.rows.rounds() as u32
    }

    /// Each player's value of `tb` in [`scale`] units (`None`: no value, ranked last). Not for
    /// direct encounter or the US tie-breaks, which have their own modules.
    pub fn values(&self, tb: &Tiebreak) -> Vec<Option<i64>> {
        let rows = &self.rows;
        let count = |f: &dyn Fn(Cell) -> bool| -> Vec<Option<i64>> {
            rows.cells
                .iter()
                .map(|row| Some(row.iter().filter(|c| f(**c)).count() as i64))
                .collect()
        };
        let final_round = (self.section.final_round as usize).max(rows.rounds());
        let ratings = ratings::Ratings {
            ratings: self.section.ratings,
            unrated: self.section.unrated_rating,
        };
        match tb.code {
            Code::WIN => count(&|c| c.half() == 2),
            Code::WON => count(&|c| matches!(c, Cell::Played { half: 2, .. })),
            Code::BPG => count(&|c| matches!(c, Cell::Played { black: true, .. })),
            Code::BWG => count(&|c| {
                matches!(
                    c,
                    Cell::Played {
                        black: true,
                        half: 2,
                        ..
                    }
                )
            }),
            Code::GE | Code::REP => count(&|c| {
                matches!(
                    c,
                    Cell::Played { .. }
                        | Cell::Bye {
                            allocated: true,
                            ..
                        }
                ) || c.half() == 2
            }),
            Code::GamesPlayed => count(&|c| matches!(c, Cell::Played { .. })),
            Code::PS => rows
                .cells
                .iter()
                .map(|row| {
                    let mut running = 0i64;
                    let mut sum = 0;
                    for (k, c) in row.iter().enumerate() {
                        running += c.half() as i64;
                        if k >= tb.cut_low as usize {
                            sum += running;
                        }
                    }
                    Some(sum)
                })
                .collect(),
            Code::TPN => (0..rows.len())
                .map(|p| {
                    self.section
                        .pairing_numbers
                        .get(p)
                        .copied()
                        .flatten()
                        .map(i64::from)
                })
                .collect(),
            Code::BH | Code::FB | Code::SB => {
                buchholz::values(rows, tb, self.section.rules, final_round)
                    .into_iter()
                    .map(Some)
                    .collect()
            }
            Code::AOB => buchholz::average_of_buchholz(rows, tb, self.section.rules, final_round),
            Code::KS => self.koya(tb),
            Code::ARO | Code::TPR | Code::PTP | Code::APRO | Code::APPO => {
                ratings::values(rows, tb, &ratings)
            }
            Code::DE | Code::Solkoff | Code::ModifiedMedian | Code::Cumulative => {
                vec![None; rows.len()]
            }
        }
    }

    /// Koya (art. 9.2) with its limit.
    fn koya(&self, tb: &Tiebreak) -> Vec<Option<i64>> {
        let rows = &self.rows;
        let n = rows.len();
        let r = rows.rounds();
        let mut games = r as i64;
        if rows.predetermined && n > 0 {
            // a round robin with an odd number: every player sits out once a cycle
            if r.is_multiple_of(n) {
                games -= (r / n) as i64;
            }
            games -= (0..n).filter(|&p| rows.last_paired(p) == 0).count() as i64;
        }
        // the limit in hundredths of a half-point
        let limit = tb.koya.percent as i64 * 2 * games + tb.koya.half_points as i64 * 100;
        (0..n)
            .map(|p| {
                Some(
                    rows.cells[p]
                        .iter()
                        .filter_map(|c| {
                            let o = c.opponent()?;
                            (rows.points[o] as i64 * 100 >= limit).then_some(c.half() as i64)
                        })
                        .sum(),
                )
            })
            .collect()
    }

    /// For each player, the opponents over the board left out of the rating averages (no
    /// rating and no `unrated_rating`).
    pub fn unrated_left_out(&self) -> Vec<usize> {
        ratings::left_out(
            &self.rows,
            &ratings::Ratings {
                ratings: self.section.ratings,
                unrated: self.section.unrated_rating,
            },
        )
    }
}

/// Whether a lower value ranks higher (TPN, unless reversed).
pub fn lower_first(tb: &Tiebreak) -> bool {
    tb.code == Code::TPN && !tb.reverse
}
