//! Berger all-play-all tables (seed 000), single and double round robin.
//!
//! The rule, for a table of `m` players (`m` even; an odd field uses the table of `m = n + 1`
//! and the highest number is the bye):
//! - player `m` is fixed; the others rotate through the numbers `1..m-1`, counted modulo `m - 1`;
//! - in round `r` the player facing `m` on board 1 is `p = (r + 1) / 2` when `r` is odd (then
//!   `p` has White) and `p = r / 2 + m / 2` when `r` is even (then `m` has White);
//! - board `j` (2 ≤ j ≤ m/2) pairs `p + (j - 1)` with White against `p - (j - 1)` with Black.
//!
//! This reproduces the seed's tables for 3–14 players exactly, except for two misprints in the
//! seed's 14-player table (round 8 prints "2- 6" and round 10 "5- 7" on board 6, where the rule
//! and the rest of the table give 3-6 and 4-7); see the tests.
//!
//! Double round robin: the second cycle repeats the first with colours reversed, and in each
//! cycle the last two rounds are exchanged to avoid three equal colours in a row — except for
//! the 4-player table (3 or 4 players), where the seed says the exchange does not work.
//!
//! With an odd number of players the game against the bye number is dropped and the remaining
//! games keep their order, renumbered from board 1.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The largest field a table is generated for (the table has about n²/2 games): see
/// [`crate::limits::MAX_ROUND_ROBIN_PLAYERS`].
pub const MAX_PLAYERS: u32 = crate::limits::MAX_ROUND_ROBIN_PLAYERS;

/// One game of a table, by pairing numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"board": 1, "white": 1, "black": 8}))]
pub struct TableGame {
    pub board: u32,
    pub white: u32,
    pub black: u32,
}

/// One round of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = RoundRobinRound, example = json!({"round": 1, "games": [{"board": 1, "white": 2, "black": 7}], "bye": 1}))]
pub struct TableRound {
    pub round: u32,
    pub games: Vec<TableGame>,
    /// The pairing number without an opponent this round (odd fields), else null.
    pub bye: Option<u32>,
}

/// A complete all-play-all table: `{"players":N,"rounds":[...]}` (public contract).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"players": 4, "rounds": [
    {"round": 1, "games": [{"board": 1, "white": 1, "black": 4}, {"board": 2, "white": 2, "black": 3}], "bye": null}
]}))]
pub struct BergerTable {
    pub players: u32,
    pub rounds: Vec<TableRound>,
}

/// Why a table cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSizeError {
    pub message: String,
}

/// The rounds of one cycle of the Berger table for `m` (even) players, as (white, black) pairs
/// in board order.
fn cycle(m: u32) -> Vec<Vec<(u32, u32)>> {
    let k = m - 1; // players rotating
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(k as i64) + 1) as u32 };
    (1..=k)
        .map(|r| {
            let p = if r % 2 == 1 {
                r.div_ceil(2)
            } else {
                r / 2 + m / 2
            };
            let mut games = Vec::with_capacity(m as usize / 2);
            games.push(if r % 2 == 1 { (p, m) } else { (m, p) });
            for j in 1..m / 2 {
                games.push((wrap(p as i64 + j as i64), wrap(p as i64 - j as i64)));
            }
            games
        })
        .collect()
}

/// The Berger table for `players` (≥ 3), single or double round robin.
pub fn berger(players: u32, double: bool) -> Result<BergerTable, TableSizeError> {
    if players < 3 {
        return Err(TableSizeError {
            message: format!("a round robin needs at least 3 players, not {players}"),
        });
    }
    if players > MAX_PLAYERS {
        return Err(TableSizeError {
            message: format!("tables are generated for at most {MAX_PLAYERS} players"),
        });
    }
    let m = players + players % 2;
    let mut first = cycle(m);
    if double && m > 4 {
        let last = first.len() - 1;
        first.swap(last - 1, last);
    }
    let mut cycles = vec![first.clone()];
    if double {
        cycles.push(
            first
                .iter()
                .map(|games| games.iter().map(|&(w, b)| (b, w)).collect())
                .collect(),
        );
    }
    let rounds = cycles
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, games)| {
            let mut bye = None;
            let mut out = Vec::with_capacity(games.len());
            for (w, b) in games {
                if w > players {
                    bye = Some(b);
                } else if b > players {
                    bye = Some(w);
                } else {
                    out.push(TableGame {
                        board: out.len() as u32 + 1,
                        white: w,
                        black: b,
                    });
                }
            }
            TableRound {
                round: i as u32 + 1,
                games: out,
                bye,
            }
        })
        .collect();
    Ok(BergerTable { players, rounds })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders a round as the seed prints it: "1-8 2-7 ...".
    fn render(t: &BergerTable, round: usize) -> String {
        t.rounds[round]
            .games
            .iter()
            .map(|g| format!("{}-{}", g.white, g.black))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn assert_table(players: u32, double: bool, expected: &[&str]) {
        let t = berger(players, double).unwrap();
        assert_eq!(t.rounds.len(), expected.len(), "{players} players: rounds");
        for (i, e) in expected.iter().enumerate() {
            assert_eq!(render(&t, i), *e, "{players} players, round {}", i + 1);
        }
    }

    #[test]
    fn seed_table_4() {
        // "Round 1: 1v4, 2v3. Round 2: 4v3, 1v2. Round 3: 2v4, 3v1."
        assert_table(4, false, &["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
    }

    #[test]
    fn seed_table_6() {
        assert_table(
            6,
            false,
            &[
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1",
            ],
        );
    }

    #[test]
    fn seed_table_8() {
        assert_table(
            8,
            false,
            &[
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1",
            ],
        );
    }

    #[test]
    fn seed_table_10() {
        assert_table(
            10,
            false,
            &[
                "1-10 2-9 3-8 4-7 5-6",
                "10-6 7-5 8-4 9-3 1-2",
                "2-10 3-1 4-9 5-8 6-7",
                "10-7 8-6 9-5 1-4 2-3",
                "3-10 4-2 5-1 6-9 7-8",
                "10-8 9-7 1-6 2-5 3-4",
                "4-10 5-3 6-2 7-1 8-9",
                "10-9 1-8 2-7 3-6 4-5",
                "5-10 6-4 7-3 8-2 9-1",
            ],
        );
    }

    #[test]
    fn seed_table_12() {
        assert_table(
            12,
            false,
            &[
                "1-12 2-11 3-10 4-9 5-8 6-7",
                "12-7 8-6 9-5 10-4 11-3 1-2",
                "2-12 3-1 4-11 5-10 6-9 7-8",
                "12-8 9-7 10-6 11-5 1-4 2-3",
                "3-12 4-2 5-1 6-11 7-10 8-9",
                "12-9 10-8 11-7 1-6 2-5 3-4",
                "4-12 5-3 6-2 7-1 8-11 9-10",
                "12-10 11-9 1-8 2-7 3-6 4-5",
                "5-12 6-4 7-3 8-2 9-1 10-11",
                "12-11 1-10 2-9 3-8 4-7 5-6",
                "6-12 7-5 8-4 9-3 10-2 11-1",
            ],
        );
    }

    #[test]
    fn seed_table_14_with_its_two_misprints_corrected() {
        // The seed prints round 8 board 6 as "2- 6" and round 10 board 6 as "5- 7": player 2
        // and player 5 would then play twice in one round. The rule gives 3-6 and 4-7.
        assert_table(
            14,
            false,
            &[
                "1-14 2-13 3-12 4-11 5-10 6-9 7-8",
                "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
                "2-14 3-1 4-13 5-12 6-11 7-10 8-9",
                "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
                "3-14 4-2 5-1 6-13 7-12 8-11 9-10",
                "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
                "4-14 5-3 6-2 7-1 8-13 9-12 10-11",
                "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
                "5-14 6-4 7-3 8-2 9-1 10-13 11-12",
                "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
                "6-14 7-5 8-4 9-3 10-2 11-1 12-13",
                "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
                "7-14 8-6 9-5 10-4 11-3 12-2 13-1",
            ],
        );
        let t = berger(14, false).unwrap();
        assert_ne!(render(&t, 7).split(' ').nth(5), Some("2-6"));
        assert_ne!(render(&t, 9).split(' ').nth(5), Some("5-7"));
    }

    #[test]
    fn seed_double_round_robin_8() {
        assert_table(
            8,
            true,
            &[
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "4-8 5-3 6-2 7-1",
                "8-7 1-6 2-5 3-4",
                "8-1 7-2 6-3 5-4",
                "5-8 4-6 3-7 2-1",
                "8-2 1-3 7-4 6-5",
                "6-8 5-7 4-1 3-2",
                "8-3 2-4 1-5 7-6",
                "8-4 3-5 2-6 1-7",
                "7-8 6-1 5-2 4-3",
            ],
        );
    }

    #[test]
    fn odd_field_gives_the_highest_number_the_bye() {
        // 11 players use the 12-player table; 12 is the bye.
        let t = berger(11, false).unwrap();
        assert_eq!(t.rounds[0].bye, Some(1));
        assert_eq!(render(&t, 0), "2-11 3-10 4-9 5-8 6-7");
        assert_eq!(t.rounds[1].bye, Some(7));
        assert_eq!(render(&t, 1), "8-6 9-5 10-4 11-3 1-2");
        let even = berger(12, false).unwrap();
        assert!(even.rounds.iter().all(|r| r.bye.is_none()));
    }

    #[test]
    fn four_player_double_round_robin_is_not_reversed() {
        let t = berger(4, true).unwrap();
        assert_eq!(render(&t, 1), "4-3 1-2");
        assert_eq!(render(&t, 2), "2-4 3-1");
        assert_eq!(render(&t, 3), "4-1 3-2");
    }

    fn colour_runs(t: &BergerTable, n: u32) -> Vec<Vec<char>> {
        let mut hist = vec![Vec::new(); n as usize + 1];
        for r in &t.rounds {
            for g in &r.games {
                hist[g.white as usize].push('W');
                hist[g.black as usize].push('B');
            }
        }
        hist
    }

    #[test]
    fn every_pair_meets_once_per_cycle_and_colours_balance_up_to_30() {
        for n in 3..=30u32 {
            for double in [false, true] {
                let t = berger(n, double).unwrap();
                let cycles = if double { 2 } else { 1 };
                let m = n + n % 2;
                assert_eq!(t.rounds.len() as u32, cycles * (m - 1), "n={n}");
                let mut met = vec![vec![0u32; n as usize + 1]; n as usize + 1];
                let mut whites = vec![vec![0u32; n as usize + 1]; n as usize + 1];
                for (i, r) in t.rounds.iter().enumerate() {
                    let mut seen = vec![false; n as usize + 1];
                    for (b, g) in r.games.iter().enumerate() {
                        assert_eq!(g.board as usize, b + 1);
                        assert_ne!(g.white, g.black);
                        for p in [g.white, g.black] {
                            assert!((1..=n).contains(&p));
                            assert!(!seen[p as usize], "n={n} round {} player {p} twice", i + 1);
                            seen[p as usize] = true;
                        }
                        met[g.white as usize][g.black as usize] += 1;
                        met[g.black as usize][g.white as usize] += 1;
                        whites[g.white as usize][g.black as usize] += 1;
                    }
                    let idle: Vec<u32> = (1..=n).filter(|&p| !seen[p as usize]).collect();
                    assert_eq!(idle, r.bye.into_iter().collect::<Vec<_>>(), "n={n}");
                }
                for a in 1..=n as usize {
                    for b in 1..=n as usize {
                        if a != b {
                            assert_eq!(met[a][b], cycles, "n={n}: {a} v {b}");
                            if double {
                                // each pair has White once each
                                assert_eq!(whites[a][b], 1, "n={n}: {a} v {b}");
                            }
                        }
                    }
                }
                for (p, h) in colour_runs(&t, n).iter().enumerate().skip(1) {
                    // Balanced within one in every cycle and so overall.
                    let per_cycle = h.len() / cycles as usize;
                    for c in h.chunks(per_cycle) {
                        let w = c.iter().filter(|&&x| x == 'W').count() as i64;
                        let b = c.len() as i64 - w;
                        assert!((w - b).abs() <= 1, "n={n} player {p}: {c:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn double_round_robin_has_no_three_equal_colours_in_a_row_at_the_seam() {
        // The point of exchanging the last two rounds (m > 4): nobody gets the same colour in
        // the last two rounds of cycle 1 and the first round of cycle 2.
        for n in [6u32, 8, 10, 12, 14, 16, 20] {
            let t = berger(n, true).unwrap();
            let k = (n - 1) as usize;
            for p in 1..=n {
                let colour = |r: usize| {
                    t.rounds[r].games.iter().find_map(|g| {
                        if g.white == p {
                            Some('W')
                        } else if g.black == p {
                            Some('B')
                        } else {
                            None
                        }
                    })
                };
                let seam: Vec<_> = [k - 2, k - 1, k].iter().map(|&r| colour(r)).collect();
                assert!(
                    !(seam[0].is_some() && seam[0] == seam[1] && seam[1] == seam[2]),
                    "n={n} player {p}: {seam:?}"
                );
            }
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert!(berger(2, false).is_err());
        assert!(berger(0, true).is_err());
        assert!(berger(MAX_PLAYERS + 1, false).is_err());
        assert!(berger(MAX_PLAYERS, false).is_ok());
    }
}
