//! The tie-breaks of the FIDE Tie-Break Regulations (Handbook C.07, 2023 edition, in force for
//! all FIDE-rated events from 1 April 2024), as a director checks them by hand.
//!
//! Points are counted in half-points; ratings in rating points. `R` is the number of rounds
//! scored so far: the last round in which any result or bye is recorded.
//!
//! ## A player's rounds
//! Every round `1..=R` of a player is one of:
//! * a **game played** over the board (a win, draw or loss, with white or black);
//! * an **unplayed round**: a forfeit won or lost (`+/-`, `-/+`, `-/-`), a bye of any value, or
//!   nothing at all (absent, not paired);
//! * a game still **pending** (paired, no result yet): it counts for nothing below.
//!
//! A **voluntarily unplayed round** (VUR) is an unplayed round that did not score a win's
//! points: a forfeit lost (or a double forfeit), a half- or zero-point bye, an absence. A forfeit
//! won and a full-point bye (the pairing-allocated bye) are unplayed but not voluntary.
//!
//! ## Opponents who did not play (art. 16.3): the adjusted score
//! When a player is someone's opponent, that player counts with an **adjusted score**: the
//! points actually scored, except that the VURs without an opponent *after the player's last
//! round that was not a VUR* (the rounds after a withdrawal) count as draws (½ each). Earlier
//! byes and every forfeit keep the points actually scored.
//!
//! ## A player's own unplayed rounds (art. 16.4): the dummy opponent
//! For the tie-breaks built on opponents' scores, each of a player's own unplayed rounds
//! (forfeits won or lost, byes, absences) counts as a game against a **dummy opponent** whose
//! score is the player's own final score.
//!
//! ## The tie-breaks
//! * **Buchholz** (`buchholz`): the sum, over rounds `1..=R`, of the round's contribution: the
//!   opponent's adjusted score for a game played, the player's own score for an unplayed round.
//! * **Buchholz cut-1 / cut-2** (`buchholz_cut1`, `buchholz_cut2`): Buchholz less its one (two)
//!   least significant contributions. A VUR's contribution is cut first, whatever its value
//!   (art. 14.6: a player may not profit from a round they chose not to play); then the lowest.
//! * **Median Buchholz** (`median_buchholz`, median-1): Buchholz less the contribution cut-1 cuts
//!   and the highest contribution.
//! * **Progressive score** (`progressive`): the sum of the player's running score after each
//!   round `1..=R` (every point, byes and forfeits included).
//! * **Games with black** (`games_with_black`): games played over the board with black.
//! * **Average rating of opponents, cut-1** (`aro_cut1`): the mean rating of the opponents met
//!   over the board, less the lowest-rated; unrated opponents are left out; rounded to the
//!   nearest whole rating point (half up); 0 when no rated opponent is left.
//! * **Koya** (`koya`, for round robins): the points scored against the opponents (over the
//!   board or by forfeit) whose score is at least half of the `R` points possible.
//! * **Sonneborn-Berger in a Swiss** (`sonneborn_berger` of a Swiss event): each round's
//!   Buchholz contribution times the points the player scored in that round (a win counts it
//!   whole, a draw half), unplayed rounds included against the dummy. In a round robin the
//!   regulations leave unplayed games out, which is the Sonneborn-Berger of
//!   [`crate::engine::chess::scoring`] (games over the board, the opponents' scores).
//!
//! * **Number of wins** (`wins`, FIDE "WIN"): the rounds in which the player scored a win's
//!   points, with or without playing: games won, forfeit wins, full-point byes.
//! * **Games won** (`games_won`, FIDE "WON"): the games won over the board.
//!
//! Direct encounter has its own page: [`crate::engine::chess::direct_encounter`].
//!
//! ### Worked example (the tests hold more)
//! Player 12 of FIDE's 2024 tie-break exercise (5 rounds): lost to 4 (3½), a full-point bye,
//! a forfeit win, then absent twice; final score 2. Contributions: 3½ (game), 2, 2 (unplayed,
//! not voluntary: the dummy has 2), 2, 2 (absences: VURs). Buchholz 11½; cut-1 cuts a VUR's 2,
//! not the lowest contribution: 9½.

use crate::engine::chess::games::{ScoredBye, ScoredGame};
use crate::engine::chess::tiebreak_order::Tiebreak;

/// A round as one player lived it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Round {
    Played {
        opponent: usize,
        half: u32,
        black: bool,
    },
    Unplayed {
        opponent: Option<usize>,
        half: u32,
    },
    Pending,
}

impl Round {
    fn half(self) -> u32 {
        match self {
            Round::Played { half, .. } | Round::Unplayed { half, .. } => half,
            Round::Pending => 0,
        }
    }

    /// A voluntarily unplayed round: unplayed and not scored as a win.
    fn voluntary(self) -> bool {
        matches!(self, Round::Unplayed { half, .. } if half < 2)
    }
}

/// The FIDE tie-break values of one player (half-points unless said otherwise).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FideValues {
    pub buchholz: u32,
    pub buchholz_cut1: u32,
    pub buchholz_cut2: u32,
    pub median_buchholz: u32,
    pub progressive: u32,
    pub games_with_black: u32,
    /// Rounds scored as a win, played or not (WIN).
    pub wins: u32,
    /// Games won over the board (WON).
    pub games_won: u32,
    /// Rating points.
    pub aro_cut1: u32,
    pub koya: u32,
    /// Sonneborn-Berger with the Swiss treatment of unplayed rounds, in quarter points.
    pub sonneborn_berger_swiss: u32,
}

/// Each player's rounds `1..=R`, indexed `[player][round - 1]`.
fn rounds_of(n: usize, games: &[ScoredGame], byes: &[ScoredBye]) -> Vec<Vec<Round>> {
    let last = games
        .iter()
        .filter(|g| g.result.is_some())
        .map(|g| g.round)
        .chain(byes.iter().map(|b| b.round))
        .max()
        .unwrap_or(0) as usize;
    let mut rounds = vec![
        vec![
            Round::Unplayed {
                opponent: None,
                half: 0
            };
            last
        ];
        n
    ];
    for g in games
        .iter()
        .filter(|g| (1..=last).contains(&(g.round as usize)))
    {
        let k = g.round as usize - 1;
        let (white, black) = match g.result {
            None => (Round::Pending, Round::Pending),
            Some(r) => {
                let (w, b) = r.half_points();
                if r.played() {
                    (
                        Round::Played {
                            opponent: g.black,
                            half: w,
                            black: false,
                        },
                        Round::Played {
                            opponent: g.white,
                            half: b,
                            black: true,
                        },
                    )
                } else {
                    (
                        Round::Unplayed {
                            opponent: Some(g.black),
                            half: w,
                        },
                        Round::Unplayed {
                            opponent: Some(g.white),
                            half: b,
                        },
                    )
                }
            }
        };
        rounds[g.white][k] = white;
        rounds[g.black][k] = black;
    }
    for b in byes.iter().filter(|b| b.round >= 1) {
        if let Round::Unplayed {
            opponent: None,
            half,
        } = &mut rounds[b.player][b.round as usize - 1]
        {
            *half += b.half_points;
        }
    }
    rounds
}

/// The score a player counts with as someone's opponent (art. 16.3, see the module doc).
fn adjusted_score(rounds: &[Round]) -> u32 {
    let last_not_voluntary = rounds.iter().rposition(|r| !r.voluntary());
    rounds
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let after_withdrawal = matches!(r, Round::Unplayed { opponent: None, .. })
                && r.voluntary()
                && last_not_voluntary.is_none_or(|last| k > last);
            if after_withdrawal {
                1
            } else {
                r.half()
            }
        })
        .sum()
}

/// Buchholz less `cut` least significant contributions (VURs first) and `top` highest ones.
/// `contributions` holds (value, voluntarily unplayed).
fn buchholz_cut(contributions: &[(u32, bool)], cut: usize, top: usize) -> u32 {
    let mut left = contributions.to_vec();
    for _ in 0..cut {
        let victim = left
            .iter()
            .enumerate()
            .filter(|(_, c)| c.1)
            .min_by_key(|(_, c)| c.0)
            .or_else(|| left.iter().enumerate().min_by_key(|(_, c)| c.0))
            .map(|(i, _)| i);
        match victim {
            Some(i) => {
                left.swap_remove(i);
            }
            None => break,
        }
    }
    for _ in 0..top {
        match left
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.0)
            .map(|(i, _)| i)
        {
            Some(i) => {
                left.swap_remove(i);
            }
            None => break,
        }
    }
    left.iter().map(|c| c.0).sum()
}

/// Average rating, less the lowest, rounded half up; 0 when none is left.
fn average_cut1(mut ratings: Vec<u32>) -> u32 {
    ratings.sort_unstable();
    let kept = ratings.get(1..).unwrap_or_default();
    if kept.is_empty() {
        return 0;
    }
    let sum: u64 = kept.iter().map(|&r| r as u64).sum();
    let count = kept.len() as u64;
    ((2 * sum + count) / (2 * count)) as u32
}

/// The FIDE tie-breaks of players `0..n`. `ratings[p]` is player `p`'s rating (missing or not
/// positive: unrated); a shorter slice leaves the rest unrated.
pub fn fide_tiebreaks(
    n: usize,
    games: &[ScoredGame],
    byes: &[ScoredBye],
    ratings: &[Option<i32>],
) -> Vec<FideValues> {
    let rounds = rounds_of(n, games, byes);
    let r = rounds.first().map_or(0, |row| row.len()) as u32;
    let score: Vec<u32> = rounds
        .iter()
        .map(|row| row.iter().map(|x| x.half()).sum())
        .collect();
    let adjusted: Vec<u32> = rounds.iter().map(|row| adjusted_score(row)).collect();
    let rating = |p: usize| -> Option<u32> {
        ratings
            .get(p)
            .copied()
            .flatten()
            .filter(|&x| x > 0)
            .map(|x| x as u32)
    };
    rounds
        .iter()
        .enumerate()
        .map(|(p, row)| {
            // (contribution, points scored in the round) for Sonneborn-Berger
            let weighted: u32 = row
                .iter()
                .map(|x| match *x {
                    Round::Played { opponent, half, .. } => adjusted[opponent] * half,
                    Round::Unplayed { half, .. } => score[p] * half,
                    Round::Pending => 0,
                })
                .sum();
            let contributions: Vec<(u32, bool)> = row
                .iter()
                .filter_map(|x| match *x {
                    Round::Played { opponent, .. } => Some((adjusted[opponent], false)),
                    Round::Unplayed { .. } => Some((score[p], x.voluntary())),
                    Round::Pending => None,
                })
                .collect();
            let mut running = 0;
            let mut progressive = 0;
            for x in row {
                running += x.half();
                progressive += running;
            }
            let opponents_met = row.iter().filter_map(|x| match *x {
                Round::Played { opponent, .. } => Some(opponent),
                _ => None,
            });
            FideValues {
                buchholz: buchholz_cut(&contributions, 0, 0),
                buchholz_cut1: buchholz_cut(&contributions, 1, 0),
                buchholz_cut2: buchholz_cut(&contributions, 2, 0),
                median_buchholz: buchholz_cut(&contributions, 1, 1),
                progressive,
                games_with_black: row
                    .iter()
                    .filter(|x| matches!(x, Round::Played { black: true, .. }))
                    .count() as u32,
                wins: row.iter().filter(|x| x.half() == 2).count() as u32,
                games_won: row
                    .iter()
                    .filter(|x| matches!(x, Round::Played { half: 2, .. }))
                    .count() as u32,
                aro_cut1: average_cut1(opponents_met.filter_map(rating).collect()),
                koya: row
                    .iter()
                    .filter_map(|x| match *x {
                        Round::Played { opponent, half, .. }
                        | Round::Unplayed {
                            opponent: Some(opponent),
                            half,
                        } if score[opponent] >= r => Some(half),
                        _ => None,
                    })
                    .sum(),
                sonneborn_berger_swiss: weighted,
            }
        })
        .collect()
}

impl FideValues {
    /// The value a FIDE tie-break ranks by (higher is better); 0 for the other tie-breaks.
    pub fn value(&self, tiebreak: Tiebreak) -> u32 {
        match tiebreak {
            Tiebreak::Buchholz => self.buchholz,
            Tiebreak::BuchholzCut1 => self.buchholz_cut1,
            Tiebreak::BuchholzCut2 => self.buchholz_cut2,
            Tiebreak::MedianBuchholz => self.median_buchholz,
            Tiebreak::Progressive => self.progressive,
            Tiebreak::GamesWithBlack => self.games_with_black,
            Tiebreak::Wins => self.wins,
            Tiebreak::GamesWon => self.games_won,
            Tiebreak::AroCut1 => self.aro_cut1,
            Tiebreak::Koya => self.koya,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::scoring::{self, GameResult, GameResult::*};

    fn g(round: u32, white: usize, black: usize, r: GameResult) -> ScoredGame {
        ScoredGame {
            round,
            white,
            black,
            result: Some(r),
        }
    }

    /// A hand-made event, 4 players, 3 rounds; ratings 2000, 1800, 1600, unrated.
    /// R1: 0-1 1-0, 2-3 ½;  R2: 1-2 0-1, 3-0 0-1;  R3: 0-2 ½, 1-3 forfeit won by 3 (-/+).
    fn hand_made_games() -> [ScoredGame; 6] {
        [
            g(1, 0, 1, WhiteWin),
            g(1, 2, 3, Draw),
            g(2, 1, 2, BlackWin),
            g(2, 3, 0, BlackWin),
            g(3, 0, 2, Draw),
            g(3, 1, 3, BlackForfeitWin),
        ]
    }

    fn hand_made() -> Vec<FideValues> {
        let ratings = [Some(2000), Some(1800), Some(1600), None];
        fide_tiebreaks(4, &hand_made_games(), &[], &ratings)
    }

    #[test]
    fn buchholz_family_by_hand() {
        // Scores (half-points): 0: 2+2+1 = 5; 1: 0; 2: 1+2+1 = 4; 3: 1+0+2 = 3.
        // Adjusted scores equal them: no one has a voluntarily unplayed round without an
        // opponent (1's forfeit loss keeps its 0).
        let t = hand_made();
        // Player 0 met 1 (0), 3 (3), 2 (4): Buchholz 7; cut-1 drops 0 -> 7; cut-2 drops 0 and
        // 3 -> 4; median drops 0 and 4 -> 3.
        assert_eq!(
            (t[0].buchholz, t[0].buchholz_cut1, t[0].buchholz_cut2),
            (7, 7, 4)
        );
        assert_eq!(t[0].median_buchholz, 3);
        // Player 1: 0 (5), 2 (4), forfeit lost in R3 = a VUR against the dummy with 1's own 0:
        // Buchholz 9; cut-1 cuts the VUR -> 9; median cuts it and 5 -> 4.
        assert_eq!((t[1].buchholz, t[1].buchholz_cut1), (9, 9));
        assert_eq!(t[1].median_buchholz, 4);
        // Player 3: 2 (4), 0 (5), forfeit won (not voluntary) against the dummy with 3's own 3:
        // Buchholz 12; cut-1 drops the lowest, 3 -> 9; cut-2 also 4 -> 5.
        assert_eq!(
            (t[3].buchholz, t[3].buchholz_cut1, t[3].buchholz_cut2),
            (12, 9, 5)
        );
        // Player 2: 3 (3), 1 (0), 0 (5) -> 8.
        assert_eq!(t[2].buchholz, 8);
    }

    #[test]
    fn wins_with_or_without_playing_and_games_won_by_hand() {
        // The hand-made event and a 5th player with a full-point (pairing) bye in R1, a
        // half-point bye in R2 and nothing in R3.
        let games = hand_made_games();
        let bye = |round, half_points| ScoredBye {
            round,
            player: 4,
            half_points,
        };
        let t = fide_tiebreaks(5, &games, &[bye(1, 2), bye(2, 1)], &[]);
        // WIN: 0 won R1 and R2 (2); 1 none; 2 R2 (1); 3 the R3 forfeit (1); 4 the R1 bye
        // (1; the half-point bye is not a win).
        let wins: Vec<u32> = t.iter().map(|v| v.wins).collect();
        assert_eq!(wins, vec![2, 0, 1, 1, 1]);
        // WON: over the board only: 3's forfeit and 4's bye do not count.
        let won: Vec<u32> = t.iter().map(|v| v.games_won).collect();
        assert_eq!(won, vec![2, 0, 1, 0, 0]);
    }

    #[test]
    fn progressive_black_games_ratings_and_koya_by_hand() {
        let t = hand_made();
        // Progressive: 0 runs 2, 4, 5 -> 11; 3 runs 1, 1, 3 -> 5 (the forfeit win counts).
        assert_eq!(t[0].progressive, 11);
        assert_eq!(t[3].progressive, 5);
        assert_eq!(t[1].progressive, 0);
        // With black over the board: 0 in R2; 2 in R2 and R3; 3 in R1 (R3 was a forfeit).
        assert_eq!(
            t.iter().map(|v| v.games_with_black).collect::<Vec<_>>(),
            vec![1, 1, 2, 1]
        );
        // ARO cut-1: 0 met 1 (1800), 3 (unrated, left out), 2 (1600): cut 1600 -> 1800.
        // 2 met 3 (unrated), 1 (1800), 0 (2000) -> 2000. 3 met 2 (1600), 0 (2000) -> 2000;
        // 1 met 0 (2000) and 2 (1600) over the board -> 2000.
        assert_eq!(
            t.iter().map(|v| v.aro_cut1).collect::<Vec<_>>(),
            vec![1800, 2000, 2000, 2000]
        );
        // Koya: half of the 3 points possible is 1½ (3 half-points): players 0 (5), 2 (4) and
        // 3 (3) qualify. 0 scored 2 v 3 and 1 v 2 -> 3; 2 scored 1 v 3 and 1 v 0 -> 2;
        // 3 scored 1 v 2, 0 v 0 (the forfeit v 1 does not qualify) -> 1; 1 -> 0.
        assert_eq!(
            t.iter().map(|v| v.koya).collect::<Vec<_>>(),
            vec![3, 0, 2, 1]
        );
    }

    #[test]
    fn swiss_sonneborn_berger_counts_unplayed_rounds_against_the_dummy() {
        let t = hand_made();
        // Quarter points. Player 3: drew 2 (4) -> 4; lost to 0 -> 0; forfeit won: the dummy
        // has 3's own 3, times the 2 half-points won -> 6. Total 10 (2½ points); over the board
        // only it would be 4.
        assert_eq!(t[3].sonneborn_berger_swiss, 10);
        // Player 0: beat 1 (0) -> 0, beat 3 (3) -> 6, drew 2 (4) -> 4: 10.
        assert_eq!(t[0].sonneborn_berger_swiss, 10);
        // Player 2: drew 3 (3) -> 3, beat 1 (0) -> 0, drew 0 (5) -> 5: 8.
        assert_eq!(t[2].sonneborn_berger_swiss, 8);
        // Player 1 scored nothing in any round.
        assert_eq!(t[1].sonneborn_berger_swiss, 0);
    }

    #[test]
    fn average_rating_rounds_half_up_after_the_cut() {
        // 1500 cut; (1601 + 1700 + 1800) / 3 = 1700.33 -> 1700.
        assert_eq!(average_cut1(vec![1700, 1500, 1800, 1601]), 1700);
        // 1600 cut; (1701 + 1800) / 2 = 1750.5 -> 1751.
        assert_eq!(average_cut1(vec![1600, 1701, 1800]), 1751);
        assert_eq!(average_cut1(vec![2000]), 0);
        assert_eq!(average_cut1(vec![]), 0);
    }

    #[test]
    fn a_pending_game_counts_for_nothing() {
        let games = [
            g(1, 0, 1, WhiteWin),
            ScoredGame {
                round: 1,
                white: 2,
                black: 3,
                result: None,
            },
        ];
        let t = fide_tiebreaks(4, &games, &[], &[]);
        assert_eq!(t[0].buchholz, 0);
        assert_eq!(t[1].buchholz, 2);
        assert_eq!(t[2], FideValues::default());
    }

    /// FIDE's tie-break exercise for the 2023 regulations (TEC, 18 March 2024): 16 players,
    /// 5 rounds. Cells: `+W9` won with white against 9, `=B13` drawn with black, `-F11` lost by
    /// forfeit, `+F9` won by forfeit, `=BYE` half-point bye, `+BYE` pairing-allocated bye,
    /// `--` absent.
    const EXERCISE: [&str; 16] = [
        "+W9 =B13 =W2 +B15 =W4",
        "+B10 +W7 =B1 +W16 =B3",
        "=W11 +B6 +W8 =B4 =W2",
        "+B12 =BYE +W13 =W3 =B1",
        "-W13 -B15 +W11 =B7 +W10",
        "-B14 -W3 +BYE +W10 +B8",
        "+W15 -B2 -B16 =W5 -B11",
        "=B16 +W14 -B3 +W13 -W6",
        "-B1 -W10 =BYE -F11 +BYE",
        "-W2 +B9 -W15 -B6 -B5",
        "=B3 -W16 -B5 +F9 +W7",
        "-W4 +BYE +F14 -- --",
        "+B5 =W1 -B4 -B8 -W14",
        "+W6 -B8 -F12 -- +B13",
        "-B7 +W5 +B10 -W1 -B16",
        "=W8 +B11 +W7 -B2 +W15",
    ];

    fn exercise() -> (Vec<ScoredGame>, Vec<ScoredBye>) {
        let mut games = Vec::new();
        let mut byes = Vec::new();
        for (p, row) in EXERCISE.iter().enumerate() {
            for (k, cell) in row.split(' ').enumerate() {
                let round = k as u32 + 1;
                let (result, rest) = cell.split_at(1);
                match (result, rest) {
                    (_, "-") => {}
                    ("=", "BYE") => byes.push(ScoredBye {
                        round,
                        player: p,
                        half_points: 1,
                    }),
                    ("+", "BYE") => byes.push(ScoredBye {
                        round,
                        player: p,
                        half_points: 2,
                    }),
                    // each game once: from white's row; a forfeit from the winner's row
                    (_, r) if r.starts_with('W') || (result == "+" && r.starts_with('F')) => {
                        let opponent: usize = r[1..].parse::<usize>().unwrap() - 1;
                        let result = match (result, r.starts_with('F')) {
                            ("+", true) => WhiteForfeitWin,
                            ("+", false) => WhiteWin,
                            ("=", _) => Draw,
                            _ => BlackWin,
                        };
                        games.push(g(round, p, opponent, result));
                    }
                    _ => {}
                }
            }
        }
        (games, byes)
    }

    #[test]
    fn fide_exercise_2024_published_answers() {
        let (games, byes) = exercise();
        // 80 player-rounds less 5 byes and 3 absences, two per game
        assert_eq!(games.len(), 36);
        assert_eq!(byes.len(), 5);
        let t = fide_tiebreaks(16, &games, &byes, &[]);
        let bh = |player: usize| t[player - 1].buchholz as f64 / 2.0;
        let cut1 = |player: usize| t[player - 1].buchholz_cut1 as f64 / 2.0;
        // Buchholz. Player 11 won a forfeit against 9 (score 1½): that round counts with
        // 11's own 2½, not 9's score (13½, not 12½).
        for (player, value) in [
            (1, 12.5),
            (2, 13.0),
            (3, 15.5),
            (4, 15.0),
            (5, 8.5),
            (8, 13.5),
            (11, 13.5),
            (16, 12.5),
        ] {
            assert_eq!(bh(player), value, "Buchholz of {player}");
        }
        // Buchholz cut-1: 14's voluntarily unplayed rounds (a forfeit lost, an absence; the
        // dummy has 14's own 2) are cut before the lower 1½ of player 13: 9, not 9½. Player 4
        // met 12, who left after round 3: 12's two absences count as draws (3, not 2).
        for (player, value) in [
            (1, 11.0),
            (3, 13.0),
            (4, 11.5),
            (5, 7.5),
            (7, 12.5),
            (8, 12.0),
            (9, 7.5),
            (11, 12.0),
            (12, 9.5),
            (13, 12.0),
            (14, 9.0),
            (15, 11.0),
            (16, 11.0),
        ] {
            assert_eq!(cut1(player), value, "Buchholz cut-1 of {player}");
        }
    }

    #[test]
    fn the_fide_preset_ranks_by_buchholz_cut1_first() {
        let (games, byes) = exercise();
        let s = scoring::standings(16, &games, &byes, &scoring::FIDE_TIEBREAKS);
        // 2, 3 and 1 lead: 2 on 4 points; 3 and 1 on 3½ with cut-1 13 and 11.
        let order: Vec<usize> = s.iter().take(3).map(|x| x.player + 1).collect();
        assert_eq!(order[0], 2);
        assert_eq!(s[0].half_points, 8);
        let three = s.iter().position(|x| x.player == 2).unwrap();
        let one = s.iter().position(|x| x.player == 0).unwrap();
        assert!(three < one, "3 (cut-1 13) before 1 (cut-1 11)");
        assert_eq!(s[three].fide.buchholz_cut1, 26);
    }
}
