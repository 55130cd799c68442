//! The Swiss tie-breaks of US Chess (the rules seed 001 follows), in half-points:
//!
//! * **Adjusted score** of a player: points from games played over the board, plus ½ for
//!   every round without a played game (bye, forfeit, absence) — unplayed games count as
//!   draws when a player is someone's opponent.
//! * **Solkoff**: the sum of the adjusted scores of the player's opponents; a round without a
//!   played game contributes 0.
//! * **Modified median**: Solkoff without its highest and lowest contribution for a player
//!   with exactly 50 %, without the lowest for a plus score, without the highest for a minus
//!   score (the per-round contributions, zeros of unplayed rounds included).
//! * **Cumulative**: the sum of the player's running score after each round, less the points
//!   of each unplayed win or bye (points not earned over the board).
//!
//! The rounds counted are those up to the last round with a game result: a round not yet
//! played is not a bye, and a game still without a result is not yet one of the player's
//! rounds.

use crate::engine::chess::games::{ScoredBye, ScoredGame};

/// Per player: (Solkoff, modified median, cumulative), each in half-points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SwissTiebreaks {
    pub solkoff: Vec<u32>,
    pub modified_median: Vec<u32>,
    pub cumulative: Vec<u32>,
}

#[derive(Clone, Copy)]
enum Cell {
    Played {
        opponent: usize,
        half: u32,
    },
    Unplayed {
        half: u32,
    },
    /// A game paired but without a result yet: not a round of the player's so far.
    Pending,
}

/// Computes the three tie-breaks for players `0..n`.
///
/// Only rounds up to the last one with a game result count: a round not yet played is not a
/// bye (a round robin knows its byes of every round from the start, a Swiss round has its
/// byes as soon as it is paired). In a round being played, a game without a result yet is
/// left out of the player's rounds until it has one.
pub fn swiss_tiebreaks(n: usize, games: &[ScoredGame], byes: &[ScoredBye]) -> SwissTiebreaks {
    let rounds = games
        .iter()
        .filter(|g| g.result.is_some())
        .map(|g| g.round)
        .max()
        .unwrap_or(0) as usize;
    let round = |r: u32| (r as usize).checked_sub(1).filter(|&k| k < rounds);
    // cells[player][round - 1]; a round with nothing recorded is an unplayed zero
    let mut cells = vec![vec![Cell::Unplayed { half: 0 }; rounds]; n];
    for g in games {
        let Some(k) = round(g.round) else { continue };
        let Some(r) = g.result else {
            cells[g.white][k] = Cell::Pending;
            cells[g.black][k] = Cell::Pending;
            continue;
        };
        let (w, b) = r.half_points();
        if r.played() {
            cells[g.white][k] = Cell::Played {
                opponent: g.black,
                half: w,
            };
            cells[g.black][k] = Cell::Played {
                opponent: g.white,
                half: b,
            };
        } else {
            cells[g.white][k] = Cell::Unplayed { half: w };
            cells[g.black][k] = Cell::Unplayed { half: b };
        }
    }
    for b in byes {
        let Some(k) = round(b.round) else { continue };
        if let Cell::Unplayed { half } = &mut cells[b.player][k] {
            *half += b.half_points;
        }
    }
    let adjusted: Vec<u32> = cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    Cell::Played { half, .. } => *half,
                    Cell::Unplayed { .. } => 1,
                    Cell::Pending => 0,
                })
                .sum()
        })
        .collect();
    let mut out = SwissTiebreaks::default();
    for row in &cells {
        let counted: Vec<&Cell> = row.iter().filter(|c| !matches!(c, Cell::Pending)).collect();
        let contributions: Vec<u32> = counted
            .iter()
            .map(|c| match c {
                Cell::Played { opponent, .. } => adjusted[*opponent],
                _ => 0,
            })
            .collect();
        let solkoff: u32 = contributions.iter().sum();
        let score: u32 = counted
            .iter()
            .map(|c| match c {
                Cell::Played { half, .. } | Cell::Unplayed { half } => *half,
                Cell::Pending => 0,
            })
            .sum();
        let (high, low) = (
            contributions.iter().copied().max().unwrap_or(0),
            contributions.iter().copied().min().unwrap_or(0),
        );
        // score vs 50 %: in half-points, 50 % of `k` games is `k` half-points
        let median = match score.cmp(&(counted.len() as u32)) {
            std::cmp::Ordering::Equal => solkoff.saturating_sub(high + low),
            std::cmp::Ordering::Greater => solkoff - low,
            std::cmp::Ordering::Less => solkoff - high,
        };
        let median = if contributions.len() < 2 { 0 } else { median };
        let mut running = 0;
        let mut cumulative = 0;
        for c in counted {
            match c {
                Cell::Played { half, .. } => running += half,
                Cell::Unplayed { half } => {
                    running += half;
                    cumulative -= *half as i64;
                }
                Cell::Pending => {}
            }
            cumulative += running as i64;
        }
        out.solkoff.push(solkoff);
        out.modified_median.push(median);
        out.cumulative.push(cumulative.max(0) as u32);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::games::GameResult::*;

    fn g(
        round: u32,
        white: usize,
        black: usize,
        r: crate::engine::chess::games::GameResult,
    ) -> ScoredGame {
        ScoredGame {
            round,
            white,
            black,
            result: Some(r),
        }
    }

    #[test]
    fn worked_by_hand() {
        // 4 players, 3 rounds.
        // R1: 0-1 1-0, 2-3 ½;  R2: 0-2 1-0, 1 v 3 forfeit win for 1;  R3: 0-3 ½, 1-2 0-1.
        let games = [
            g(1, 0, 1, WhiteWin),
            g(1, 2, 3, Draw),
            g(2, 0, 2, WhiteWin),
            g(2, 1, 3, WhiteForfeitWin),
            g(3, 0, 3, Draw),
            g(3, 1, 2, BlackWin),
        ];
        let t = swiss_tiebreaks(4, &games, &[]);
        // Scores (half-points): 0: 2+2+1 = 5; 1: 0+2+0 = 2; 2: 1+0+2 = 3; 3: 1+0+1 = 2.
        // Adjusted: 0: 5; 1: 0 + 1 (unplayed) + 0 = 1; 2: 3; 3: 1 + 1 + 1 = 3.
        // Player 0 met 1, 2, 3: contributions 1, 3, 3 -> Solkoff 7; plus score: drop lowest -> 6.
        assert_eq!(t.solkoff[0], 7);
        assert_eq!(t.modified_median[0], 6);
        // Player 1: 0 (5), unplayed (0), 2 (3) -> 8; minus score (2 < 3): drop highest -> 3.
        assert_eq!(t.solkoff[1], 8);
        assert_eq!(t.modified_median[1], 3);
        // Player 2: 3 (3), 0 (5), 1 (1) -> 9; even score (3 = 3): drop 5 and 1 -> 3.
        assert_eq!(t.solkoff[2], 9);
        assert_eq!(t.modified_median[2], 3);
        // Cumulative: player 0 runs 2, 4, 5 -> 11; player 1 runs 0, 2, 2 -> 4, less the
        // forfeit win's 2 -> 2.
        assert_eq!(t.cumulative[0], 11);
        assert_eq!(t.cumulative[1], 2);
    }

    /// Issue 9: a three-player round robin after two of its three rounds. The byes of every
    /// round are known from the start, but round 3 is not played yet: it must count for no
    /// one (Ben's Solkoff was 2.5 with opponents on 0 and ½: round 3 counted as a draw for
    /// both).
    #[test]
    fn a_round_not_yet_played_is_not_a_bye() {
        // 0 Anna, 1 Ben, 2 Cleo. R1: Anna-Ben 0-1, Cleo bye. R2: Ben-Cleo ½, Anna bye.
        // R3: Cleo-Anna, not played yet; Ben's bye already recorded.
        let mut games = vec![
            g(1, 0, 1, BlackWin),
            g(2, 1, 2, Draw),
            ScoredGame {
                round: 3,
                white: 2,
                black: 0,
                result: None,
            },
        ];
        let bye = |round, player| ScoredBye {
            round,
            player,
            half_points: 0,
            allocated: false,
        };
        let byes = [bye(1, 2), bye(2, 0), bye(3, 1)];
        let t = swiss_tiebreaks(3, &games, &byes);
        // Adjusted (a bye counts as a draw) over rounds 1-2: Anna 0 + 1 = 1, Ben 2 + 1 = 3,
        // Cleo 1 + 1 = 2. Ben met Anna (1) and Cleo (2): 3 half-points, not 5.
        assert_eq!(t.solkoff, vec![3, 3, 3]);
        // Cumulative: Anna 0, 0 -> 0; Ben 2, 3 -> 5 (not 8); Cleo 0, 1 -> 1.
        assert_eq!(t.cumulative, vec![0, 5, 1]);
        // Ben's plus score (3 of 4 half-points) drops his lowest opponent.
        assert_eq!(t.modified_median[1], 2);
        // Once round 3 is played, Ben's bye is a round of his.
        games[2].result = Some(Draw);
        let t = swiss_tiebreaks(3, &games, &byes);
        assert_eq!(t.cumulative[1], 8, "Ben: 2 + 3 + 3, less the bye's 0");
    }

    #[test]
    fn byes_are_unplayed() {
        let games = [g(1, 0, 1, Draw)];
        let byes = [ScoredBye {
            round: 1,
            player: 2,
            half_points: 2,
            allocated: false,
        }];
        let t = swiss_tiebreaks(3, &games, &byes);
        // The bye contributes nothing to Solkoff and is taken off the cumulative.
        assert_eq!(t.solkoff[2], 0);
        assert_eq!(t.cumulative[2], 0);
        assert_eq!(t.solkoff[0], 1);
        assert_eq!(t.cumulative[0], 1);
    }
}
