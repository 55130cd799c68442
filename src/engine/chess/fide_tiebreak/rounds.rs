//! A section's rounds as each player lived them, and the scores the tie-breaks count:
//! points, the adjusted score (C.07 art. 16.3) and its Fore form (art. 8.3).

use crate::engine::chess::games::{ScoredBye, ScoredGame};

/// A round as one player lived it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cell {
    /// A game played over the board.
    Played {
        opponent: usize,
        half: u32,
        black: bool,
    },
    /// A game scheduled against `opponent` and not played: a forfeit won or lost (a double
    /// forfeit is lost by both).
    Forfeit { opponent: usize, half: u32 },
    /// A round without an opponent: `allocated` for the pairing-allocated bye; a full-point
    /// bye, a half- or zero-point bye, or nothing recorded at all (absent) otherwise.
    Bye { half: u32, allocated: bool },
    /// Paired, no result yet: counts for nothing.
    Pending { opponent: usize },
}

impl Cell {
    pub(super) fn half(self) -> u32 {
        match self {
            Cell::Played { half, .. } | Cell::Forfeit { half, .. } | Cell::Bye { half, .. } => half,
            Cell::Pending { .. } => 0,
        }
    }

    /// A voluntarily unplayed round (art. 16.1): unplayed and not scored as a win.
    pub(super) fn voluntary(self) -> bool {
        matches!(self, Cell::Forfeit { half, .. } | Cell::Bye { half, .. } if half < 2)
    }

    /// The scheduled opponent (played, forfeited or pending).
    pub(super) fn opponent(self) -> Option<usize> {
        match self {
            Cell::Played { opponent, .. }
            | Cell::Forfeit { opponent, .. }
            | Cell::Pending { opponent } => Some(opponent),
            Cell::Bye { .. } => None,
        }
    }

    /// Paired in the round: against an opponent, or given the pairing-allocated bye.
    pub(super) fn paired(self) -> bool {
        self.opponent().is_some()
            || matches!(
                self,
                Cell::Bye {
                    allocated: true,
                    ..
                }
            )
    }
}

/// Each player's rounds `1..=R` (R: the last round with a result or a bye), indexed
/// `[player][round - 1]`, and what every tie-break starts from.
pub(super) struct Rows {
    pub cells: Vec<Vec<Cell>>,
    /// Points, in half-points.
    pub points: Vec<u32>,
    /// Pre-determined pairings (round robins, team schedules): a forfeit is the game against
    /// the scheduled opponent; a round without an opponent is no round of the player's.
    pub predetermined: bool,
}

impl Rows {
    pub(super) fn new(
        n: usize,
        games: &[ScoredGame],
        byes: &[ScoredBye],
        predetermined: bool,
    ) -> Rows {
        let last = games
            .iter()
            .filter(|g| g.result.is_some())
            .map(|g| g.round)
            .chain(byes.iter().map(|b| b.round))
            .max()
            .unwrap_or(0) as usize;
        let absent = Cell::Bye {
            half: 0,
            allocated: false,
        };
        let mut cells = vec![vec![absent; last]; n];
        for g in games
            .iter()
            .filter(|g| (1..=last).contains(&(g.round as usize)))
        {
            let k = g.round as usize - 1;
            let (white, black) = match g.result {
                None => (
                    Cell::Pending { opponent: g.black },
                    Cell::Pending { opponent: g.white },
                ),
                Some(r) => {
                    let (w, b) = r.half_points();
                    if r.played() {
                        (
                            Cell::Played {
                                opponent: g.black,
                                half: w,
                                black: false,
                            },
                            Cell::Played {
                                opponent: g.white,
                                half: b,
                                black: true,
                            },
                        )
                    } else {
                        (
                            Cell::Forfeit {
                                opponent: g.black,
                                half: w,
                            },
                            Cell::Forfeit {
                                opponent: g.white,
                                half: b,
                            },
                        )
                    }
                }
            };
            cells[g.white][k] = white;
            cells[g.black][k] = black;
        }
        for b in byes.iter().filter(|b| b.round >= 1) {
            if let Cell::Bye { half, allocated } = &mut cells[b.player][b.round as usize - 1] {
                *half += b.half_points;
                *allocated |= b.allocated;
            }
        }
        let points = cells
            .iter()
            .map(|row| row.iter().map(|c| c.half()).sum())
            .collect();
        Rows {
            cells,
            points,
            predetermined,
        }
    }

    /// R: the rounds counted.
    pub(super) fn rounds(&self) -> usize {
        self.cells.first().map_or(0, Vec::len)
    }

    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The last round (1-based) the player was paired in, 0 when never.
    pub(super) fn last_paired(&self, p: usize) -> usize {
        self.cells[p]
            .iter()
            .rposition(|c| c.paired())
            .map_or(0, |k| k + 1)
    }

    /// Each player's (adjusted score, own score) in half-points: the adjusted score counts
    /// the voluntarily unplayed rounds without an opponent after the player's last round
    /// that was not one as draws (in a Swiss; as nothing with pre-determined pairings).
    ///
    /// `fore_round`: Fore Buchholz's final round. A player paired in it counts every round
    /// as scored (no adjustment), and a game of it as a draw, in both scores.
    pub(super) fn scores(&self, fore_round: Option<usize>) -> Vec<(i64, i64)> {
        (0..self.len())
            .map(|p| {
                let row = &self.cells[p];
                let mut last_scored = row
                    .iter()
                    .rposition(|c| !c.voluntary())
                    .map_or(0, |k| k + 1);
                let fore = fore_round.filter(|&f| f >= 1 && self.last_paired(p) == f);
                if let Some(f) = fore {
                    last_scored = f;
                }
                let empty = if self.predetermined { 0 } else { 1 };
                let mut adjusted: i64 = row
                    .iter()
                    .enumerate()
                    .map(|(k, c)| {
                        if k < last_scored || c.opponent().is_some() {
                            c.half() as i64
                        } else {
                            empty
                        }
                    })
                    .sum();
                let mut own = self.points[p] as i64;
                if let Some(f) = fore {
                    let c = row[f - 1];
                    if c.opponent().is_some() {
                        let to_draw = 1 - c.half() as i64;
                        adjusted += to_draw;
                        own += to_draw;
                    }
                }
                (adjusted, own)
            })
            .collect()
    }
}
