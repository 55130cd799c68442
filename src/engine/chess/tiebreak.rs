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
//! The number of rounds is the last round in which anything was scored.

use crate::engine::chess::scoring::{ScoredBye, ScoredGame};

/// Per player: (Solkoff, modified median, cumulative), each in half-points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SwissTiebreaks {
    pub solkoff: Vec<u32>,
    pub modified_median: Vec<u32>,
    pub cumulative: Vec<u32>,
}

#[derive(Clone, Copy)]
enum Cell {
    Played { opponent: usize, half: u32 },
    Unplayed { half: u32 },
}

/// Computes the three tie-breaks for players `0..n`.
pub fn swiss_tiebreaks(n: usize, games: &[ScoredGame], byes: &[ScoredBye]) -> SwissTiebreaks {
    let rounds = games
        .iter()
        .filter(|g| g.result.is_some())
        .map(|g| g.round)
        .chain(byes.iter().map(|b| b.round))
        .max()
        .unwrap_or(0) as usize;
    // cells[player][round - 1]; a round with nothing recorded is an unplayed zero
    let mut cells = vec![vec![Cell::Unplayed { half: 0 }; rounds]; n];
    for g in games {
        let Some(r) = g.result else { continue };
        let (w, b) = r.half_points();
        let k = g.round as usize - 1;
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
        let k = b.round as usize - 1;
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
                })
                .sum()
        })
        .collect();
    let mut out = SwissTiebreaks::default();
    for row in &cells {
        let contributions: Vec<u32> = row
            .iter()
            .map(|c| match c {
                Cell::Played { opponent, .. } => adjusted[*opponent],
                Cell::Unplayed { .. } => 0,
            })
            .collect();
        let solkoff: u32 = contributions.iter().sum();
        let score: u32 = row
            .iter()
            .map(|c| match c {
                Cell::Played { half, .. } | Cell::Unplayed { half } => *half,
            })
            .sum();
        let (high, low) = (
            contributions.iter().copied().max().unwrap_or(0),
            contributions.iter().copied().min().unwrap_or(0),
        );
        // score vs 50 %: in half-points, 50 % of `rounds` games is `rounds` half-points
        let median = match score.cmp(&(rounds as u32)) {
            std::cmp::Ordering::Equal => solkoff.saturating_sub(high + low),
            std::cmp::Ordering::Greater => solkoff - low,
            std::cmp::Ordering::Less => solkoff - high,
        };
        let median = if contributions.len() < 2 { 0 } else { median };
        let mut running = 0;
        let mut cumulative = 0;
        for c in row {
            match c {
                Cell::Played { half, .. } => running += half,
                Cell::Unplayed { half } => {
                    running += half;
                    cumulative -= *half as i64;
                }
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
    use crate::engine::chess::scoring::GameResult::*;

    fn g(
        round: u32,
        white: usize,
        black: usize,
        r: crate::engine::chess::scoring::GameResult,
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

    #[test]
    fn byes_are_unplayed() {
        let games = [g(1, 0, 1, Draw)];
        let byes = [ScoredBye {
            round: 1,
            player: 2,
            half_points: 2,
        }];
        let t = swiss_tiebreaks(3, &games, &byes);
        // The bye contributes nothing to Solkoff and is taken off the cumulative.
        assert_eq!(t.solkoff[2], 0);
        assert_eq!(t.cumulative[2], 0);
        assert_eq!(t.solkoff[0], 1);
        assert_eq!(t.cumulative[0], 1);
    }
}
