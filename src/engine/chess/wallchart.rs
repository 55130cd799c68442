//! The Swiss crosstable ("wall chart"): one cell per round for each player, in the US Chess
//! notation: `W12`, `L3`, `D7` (a game against pairing number 12, 3, 7), `X12` / `F12` (won /
//! lost by forfeit), `B` (full-point bye), `H` (half-point bye), `U` (no game, no point).

use crate::engine::chess::games::{GameResult, ScoredBye, ScoredGame};

/// `cells[player][round - 1]` for players `0..n`; `numbers[p]` is player p's pairing number.
/// A round without a result yet shows an empty cell.
pub fn wallchart(
    numbers: &[u32],
    games: &[ScoredGame],
    byes: &[ScoredBye],
    rounds: u32,
) -> Vec<Vec<String>> {
    let mut cells = vec![vec![String::new(); rounds as usize]; numbers.len()];
    const PENDING: &str = "…";
    for g in games {
        let k = g.round as usize - 1;
        if k >= rounds as usize {
            continue;
        }
        let Some(r) = g.result else {
            cells[g.white][k] = PENDING.into();
            cells[g.black][k] = PENDING.into();
            continue;
        };
        let (w, b) = match r {
            GameResult::WhiteWin => ("W", "L"),
            GameResult::BlackWin => ("L", "W"),
            GameResult::Draw => ("D", "D"),
            GameResult::WhiteForfeitWin => ("X", "F"),
            GameResult::BlackForfeitWin => ("F", "X"),
            GameResult::DoubleForfeit => ("F", "F"),
        };
        cells[g.white][k] = format!("{w}{}", numbers[g.black]);
        cells[g.black][k] = format!("{b}{}", numbers[g.white]);
    }
    for b in byes {
        let k = b.round as usize - 1;
        if k < rounds as usize {
            cells[b.player][k] = match b.half_points {
                0 => "U",
                1 => "H",
                _ => "B",
            }
            .to_string();
        }
    }
    // in a round that was paired, a player with no game and no bye (a late entry, or one
    // withdrawn) scored nothing; a game without its result yet shows an empty cell
    for k in 0..rounds as usize {
        let paired = games.iter().any(|g| g.round as usize == k + 1);
        for row in cells.iter_mut() {
            if row[k] == PENDING {
                row[k].clear();
            } else if paired && row[k].is_empty() {
                row[k] = "U".to_string();
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_cell() {
        let g = |round, white, black, result| ScoredGame {
            round,
            white,
            black,
            result: Some(result),
        };
        let games = [
            g(1, 0, 1, GameResult::WhiteWin),
            g(2, 2, 0, GameResult::Draw),
            g(2, 1, 3, GameResult::BlackForfeitWin),
        ];
        let byes = [
            ScoredBye {
                round: 1,
                player: 2,
                half_points: 2,
                allocated: false,
            },
            ScoredBye {
                round: 1,
                player: 3,
                half_points: 1,
                allocated: false,
            },
        ];
        let cells = wallchart(&[1, 2, 3, 4], &games, &byes, 2);
        assert_eq!(cells[0], vec!["W2", "D3"]);
        assert_eq!(cells[1], vec!["L1", "F4"]);
        assert_eq!(cells[2], vec!["B", "D1"]);
        assert_eq!(cells[3], vec!["H", "X2"]);
        // a player in no round so far (a late entry)
        let cells = wallchart(&[1, 2, 3, 4, 5], &games, &byes, 2);
        assert_eq!(cells[4], vec!["U", "U"]);
    }
}
