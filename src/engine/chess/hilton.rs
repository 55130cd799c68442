//! Hilton pairings (seed 000): jamboree team events with few rounds and many players.
//!
//! N teams (N even, lettered A, B, C...) of N − 1 players each play three rounds. On each board
//! the N teams are paired among themselves, so in each round every team meets every other team
//! on exactly one of its boards, and a player never meets the same team twice.
//!
//! The rule behind the seed's tables (4, 6, 8, 10 and 12 teams), which a director can check by
//! hand. Number the teams 0..N−1 (A = 0); the last letter is the fixed team X; M = N − 1.
//! - Factor p (0 ≤ p < M) is the circle-method pairing "round" of an all-play-all: X plays team
//!   p (the pivot), and for i = 1 … N/2 − 1 team p + i plays team p − i (mod M), listed in that
//!   order with the pivot game last.
//! - Round r, board k (1-based) uses factor p = k − 1 + s(r) (mod M), with shifts
//!   s = 0, 2, 3: round 2 takes the factors two boards further down round 1, round 3 three.
//! - Colours in round 1: in the pair (p + i, p − i) team p − i has White when i is odd, team
//!   p + i when i is even (so a team's colour is White exactly when its offset from the pivot,
//!   taken in 1..M−1, is even); X has White on the odd boards. Rounds 2 and 3 reverse all of
//!   this: p + i has White when i is odd, p − i when i is even, and X has Black on odd boards.
//! - Four teams (three boards) cannot use shift 3 (3 ≡ 0 mod 3 would repeat round 1): the seed
//!   rotates round 1 down one board each round instead (round r, board k = round 1, board
//!   k − (r − 1) cyclically), colours unchanged.
//!
//! So a player's colours are White exactly at even offsets in round 1 and at odd offsets in
//! rounds 2 and 3, the offset dropping by 2 and then by 1: nobody has the same colour three
//! times, and on each board (N ≥ 6) exactly four players repeat a colour once: X's player
//! (W B B or B W W), team p + 1's player (B B W), the player meeting X in round 2, and one
//! player meeting X in round 1 or 3; everybody else alternates.
//!
//! Other board counts, as the seed prescribes: with B < N − 1 boards the top boards are removed
//! (the table keeps base boards N − B … N − 1, renumbered 1 … B); with B > N − 1 the top board
//! pairings are repeated with colours reversed (board M + j is board j reversed; a third layer
//! would be board j again, and so on).
//!
//! Odd numbers of teams are refused (the contract has no bye entry; a director can add a dummy
//! team and treat its games as byes with an even count).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::engine::chess::scheveningen::TableError;

/// The fewest teams served (two teams cannot play three rounds without repeats).
pub const MIN_TEAMS: u32 = 4;
/// The most teams served: one letter per team.
pub const MAX_TEAMS: u32 = 26;
/// The most boards served (each board beyond N − 1 repeats a pairing with colours reversed).
pub const MAX_BOARDS: u32 = 100;

crate::limits::schema::integer_bound!(
    /// Boards per team of a Hilton event: every team fields exactly that many.
    HiltonBoards: UInt32, 1, MAX_BOARDS
);
/// Hilton events have three rounds.
pub const ROUNDS: usize = 3;

/// One game of the contract table: team `white`'s player on `board` has White against team
/// `black`'s player on the same board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"board": 1, "white": "C", "black": "B"}))]
pub struct HiltonGame {
    /// Board number, 1-based (both players sit on this board of their team).
    pub board: u32,
    /// Letter of the team whose player has White.
    pub white: String,
    /// Letter of the team whose player has Black.
    pub black: String,
}

/// One round of the contract table: every game of the round, board by board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HiltonRound {
    /// Round number, 1-based.
    pub round: u32,
    /// The games, by board, several per board (N/2 per board).
    pub games: Vec<HiltonGame>,
}

/// A whole Hilton table: `{"teams":N,"boards":M,"rounds":[...]}` (public contract).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HiltonTable {
    /// Number of teams.
    pub teams: u32,
    /// Players (boards) per team.
    pub boards: u32,
    /// The three rounds.
    pub rounds: Vec<HiltonRound>,
}

/// A game in structured form for event code (all indices 0-based): the player on board
/// `board` of team `white` has White against the player on the same board of team `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TeamGame {
    /// Round index, 0-based.
    pub round: usize,
    /// Board index, 0-based.
    pub board: usize,
    /// Team index (A = 0) of the White player.
    pub white: usize,
    /// Team index (A = 0) of the Black player.
    pub black: usize,
}

/// The letter of team index `t` (A = 0).
pub fn team_letter(t: usize) -> String {
    char::from(b'A' + t as u8).to_string()
}

/// The games of factor `p` on a table of `n` teams, as (white, black), pivot game last.
/// `reversed` swaps the colours of the non-pivot pairs; `fixed_white` gives the pivot game.
fn factor(n: usize, p: usize, reversed: bool, fixed_white: bool) -> Vec<(usize, usize)> {
    let m = n - 1;
    let mut games: Vec<(usize, usize)> = (1..n / 2)
        .map(|i| {
            let (plus, minus) = ((p + i) % m, (p + m - i) % m);
            // Round-1 orientation: p − i has White for odd i, p + i for even i.
            if (i % 2 == 1) != reversed {
                (minus, plus)
            } else {
                (plus, minus)
            }
        })
        .collect();
    games.push(if fixed_white { (m, p) } else { (p, m) });
    games
}

/// The base table of `n` teams on its n − 1 boards: `base[r][k]` lists the games of round r on
/// board k (0-based), as (white, black) team indices.
fn base_table(n: usize) -> Vec<Vec<Vec<(usize, usize)>>> {
    let m = n - 1;
    // Round 1: board k uses factor k; X has White on odd boards (k even, 0-based).
    let first: Vec<_> = (0..m).map(|k| factor(n, k, false, k % 2 == 0)).collect();
    if n == 4 {
        // The seed's four-team table: round 1 rotated down one board per round.
        return (0..ROUNDS)
            .map(|r| (0..m).map(|k| first[(k + m - r % m) % m].clone()).collect())
            .collect();
    }
    let mut rounds = vec![first];
    for shift in [2, 3] {
        // Rounds 2 and 3: colours reversed, X Black on odd boards.
        rounds.push(
            (0..m)
                .map(|k| factor(n, (k + shift) % m, true, k % 2 == 1))
                .collect(),
        );
    }
    rounds
}

fn check(teams: u32, boards: Option<u32>) -> Result<(usize, usize), TableError> {
    if !(MIN_TEAMS..=MAX_TEAMS).contains(&teams) || teams % 2 == 1 {
        return Err(TableError {
            field: "teams",
            message: format!(
                "Hilton tables are made for an even number of teams from {MIN_TEAMS} to \
                 {MAX_TEAMS}, not {teams} (with an odd number, add a dummy team for byes)"
            ),
        });
    }
    let boards = boards.unwrap_or(teams - 1);
    if !(1..=MAX_BOARDS).contains(&boards) {
        return Err(TableError {
            field: "boards",
            message: format!(
                "a Hilton table has 1 to {MAX_BOARDS} boards per team (default {}), not {boards}",
                teams - 1
            ),
        });
    }
    Ok((teams as usize, boards as usize))
}

/// The schedule for `teams` teams of `boards` players (default teams − 1): per round, the
/// games board by board. Boards are truncated from the top or extended by repeating the top
/// boards with colours reversed, as the seed prescribes.
pub fn schedule(teams: u32, boards: Option<u32>) -> Result<Vec<Vec<TeamGame>>, TableError> {
    let (n, boards) = check(teams, boards)?;
    let m = n - 1;
    let base = base_table(n);
    Ok(base
        .iter()
        .enumerate()
        .map(|(round, base_round)| {
            (0..boards)
                .flat_map(|board| {
                    // Truncated: keep the bottom `boards` boards. Extended: layer L ≥ 1 repeats
                    // the base boards, colours reversed on odd layers.
                    let (k, reversed) = if boards < m {
                        (board + m - boards, false)
                    } else {
                        (board % m, (board / m) % 2 == 1)
                    };
                    base_round[k].iter().map(move |&(w, b)| {
                        let (white, black) = if reversed { (b, w) } else { (w, b) };
                        TeamGame {
                            round,
                            board,
                            white,
                            black,
                        }
                    })
                })
                .collect()
        })
        .collect())
}

/// The table in the public contract's shape (`boards` defaults to teams − 1).
pub fn hilton(teams: u32, boards: Option<u32>) -> Result<HiltonTable, TableError> {
    let rounds = schedule(teams, boards)?;
    let boards = boards.unwrap_or(teams - 1);
    Ok(HiltonTable {
        teams,
        boards,
        rounds: rounds
            .into_iter()
            .enumerate()
            .map(|(r, games)| HiltonRound {
                round: r as u32 + 1,
                games: games
                    .into_iter()
                    .map(|g| HiltonGame {
                        board: g.board as u32 + 1,
                        white: team_letter(g.white),
                        black: team_letter(g.black),
                    })
                    .collect(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders a table like the seed: one line per board, "CB DA | BA DC | AC BD" (White first,
    /// rounds separated by `|`).
    fn render(teams: u32, boards: Option<u32>) -> Vec<String> {
        let t = hilton(teams, boards).unwrap();
        (1..=t.boards)
            .map(|b| {
                t.rounds
                    .iter()
                    .map(|r| {
                        r.games
                            .iter()
                            .filter(|g| g.board == b)
                            .map(|g| format!("{}{}", g.white, g.black))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect()
    }

    #[test]
    fn seed_table_4() {
        assert_eq!(
            render(4, None),
            [
                "CB DA | BA DC | AC BD",
                "AC BD | CB DA | BA DC",
                "BA DC | AC BD | CB DA",
            ]
        );
    }

    #[test]
    fn seed_table_6() {
        assert_eq!(
            render(6, None),
            [
                "EB CD FA | DB AE CF | EC BA DF",
                "AC DE BF | EC BA FD | AD CB FE",
                "BD EA FC | AD CB EF | BE DC AF",
                "CE AB DF | BE DC FA | CA ED FB",
                "DA BC FE | CA ED BF | DB AE CF",
            ]
        );
    }

    #[test]
    fn seed_table_8() {
        assert_eq!(
            render(8, None),
            [
                "GB CF ED HA | DB AE FG CH | EC BF GA DH",
                "AC DG FE BH | EC BF GA HD | FD CG AB HE",
                "BD EA GF HC | FD CG AB EH | GE DA BC FH",
                "CE FB AG DH | GE DA BC HF | AF EB CD HG",
                "DF GC BA HE | AF EB CD GH | BG FC DE AH",
                "EG AD CB FH | BG FC DE HA | CA GD EF HB",
                "FA BE DC HG | CA GD EF BH | DB AE FG CH",
            ]
        );
    }

    #[test]
    fn seed_table_10() {
        assert_eq!(
            render(10, None),
            [
                "IB CH GD EF JA | DB AE FI HG CJ | EC BF GA IH DJ",
                "AC DI HE FG BJ | EC BF GA IH JD | FD CG HB AI JE",
                "BD EA IF GH JC | FD CG HB AI EJ | GE DH IC BA FJ",
                "CE FB AG HI DJ | GE DH IC BA JF | HF EI AD CB JG",
                "DF GC BH IA JE | HF EI AD CB GJ | IG FA BE DC HJ",
                "EG HD CI AB FJ | IG FA BE DC JH | AH GB CF ED JI",
                "FH IE DA BC JG | AH GB CF ED IJ | BI HC DG FE AJ",
                "GI AF EB CD HJ | BI HC DG FE JA | CA ID EH GF JB",
                "HA BG FC DE JI | CA ID EH GF BJ | DB AE FI HG CJ",
            ]
        );
    }

    /// The seed's 12-team table as printed, with three corrections (PDF extraction errors; the
    /// rule and the table's own other cells agree on the corrected forms):
    /// - board 2, round 3 is printed in reverse order, "AI HB CG FD LE JK": same games as
    ///   "FD CG HB AI JK LE";
    /// - board 6, round 2 prints "IF GJ" for "IG FJ" (as printed, I would meet F twice in
    ///   round 2, on boards 6 and 11, and never meet G; board 5, round 3 has the same factor
    ///   printed correctly as "IG FJ");
    /// - board 7, round 3 prints "HI KA" for "KI HA" (likewise; board 8, round 2 has the same
    ///   factor printed correctly as "KI HA").
    #[test]
    fn seed_table_12() {
        assert_eq!(
            render(12, None),
            [
                "KB CJ ID EH GF LA | DB AE FK JG HI CL | EC BF GA KH IJ DL",
                "AC DK JE FI HG BL | EC BF GA KH IJ LD | FD CG HB AI JK LE",
                "BD EA KF GJ IH LC | FD CG HB AI JK EL | GE DH IC BJ KA FL",
                "CE FB AG HK JI DL | GE DH IC BJ KA LF | HF EI JD CK AB LG",
                "DF GC BH IA KJ LE | HF EI JD CK AB GL | IG FJ KE DA BC HL",
                "EG HD CI JB AK FL | IG FJ KE DA BC LH | JH GK AF EB CD LI",
                "FH IE DJ KC BA LG | JH GK AF EB CD IL | KI HA BG FC DE JL",
                "GI JF EK AD CB HL | KI HA BG FC DE LJ | AJ IB CH GD EF LK",
                "HJ KG FA BE DC LI | AJ IB CH GD EF KL | BK JC DI HE FG AL",
                "IK AH GB CF ED JL | BK JC DI HE FG LA | CA KD EJ IF GH LB",
                "JA BI HC DG FE LK | CA KD EJ IF GH BL | DB AE FK JG HI CL",
            ]
        );
    }

    #[test]
    fn truncated_and_extended_follow_the_seed() {
        let full = render(6, None);
        // Three boards: the top two removed.
        assert_eq!(render(6, Some(3)), full[2..]);
        // Seven boards: boards 6 and 7 repeat boards 1 and 2 with colours reversed.
        let ext = render(6, Some(7));
        assert_eq!(ext[..5], full[..]);
        assert_eq!(ext[5], "BE DC AF | BD EA FC | CE AB FD");
        assert_eq!(ext[6], "CA ED FB | CE AB DF | DA BC EF");
        // Eleven boards: board 11 is board 1 again, as it is.
        assert_eq!(render(6, Some(11))[10], full[0]);
    }

    /// Checks one table mechanically and returns the number of colour repeats (the same colour
    /// in consecutive rounds) over all players.
    fn check_properties(n: usize, boards: usize) -> usize {
        let s = schedule(n as u32, Some(boards as u32)).unwrap();
        let m = n - 1;
        assert_eq!(s.len(), ROUNDS);
        // colours[team][board] = White flags by round; met[team][board] = opponents.
        let mut colours = vec![vec![Vec::new(); boards]; n];
        let mut met = vec![vec![Vec::new(); boards]; n];
        for (r, games) in s.iter().enumerate() {
            let mut plays = vec![vec![0; boards]; n];
            let mut meetings = vec![vec![0; n]; n];
            for g in games {
                assert_eq!(g.round, r);
                assert_ne!(g.white, g.black);
                for (me, other, white) in [(g.white, g.black, true), (g.black, g.white, false)] {
                    plays[me][g.board] += 1;
                    met[me][g.board].push(other);
                    colours[me][g.board].push(white);
                }
                meetings[g.white][g.black] += 1;
                meetings[g.black][g.white] += 1;
            }
            // Every player plays once a round.
            assert!(plays.iter().flatten().all(|&p| p == 1), "{n}/{boards}");
            // With the full N − 1 boards every team meets every other team exactly once in
            // each round; with fewer, at most once.
            for (a, row) in meetings.iter().enumerate() {
                for (b, &c) in row.iter().enumerate() {
                    if boards == m {
                        assert_eq!(c, usize::from(a != b), "{n} teams, round {}", r + 1);
                    } else if boards < m {
                        assert!(c <= 1, "{n} teams, {boards} boards, round {}", r + 1);
                    }
                }
            }
        }
        let mut repeats = 0;
        for t in 0..n {
            for b in 0..boards {
                let o = &met[t][b];
                assert!(
                    o[0] != o[1] && o[1] != o[2] && o[0] != o[2],
                    "{n}/{boards}: {o:?}"
                );
                let c = &colours[t][b];
                assert!(!(c[0] == c[1] && c[1] == c[2]), "{n}/{boards}: {c:?}");
                repeats += c.windows(2).filter(|w| w[0] == w[1]).count();
            }
        }
        repeats
    }

    #[test]
    fn every_size_has_the_properties() {
        for n in (MIN_TEAMS as usize..=MAX_TEAMS as usize).step_by(2) {
            let m = n - 1;
            for boards in (1..=3 * m).chain([MAX_BOARDS as usize]) {
                check_properties(n, boards);
            }
            // Alternation as far as possible: on each board of the full table four of the 2N
            // round-to-round transitions repeat a colour (see the module doc; four teams: 8 in
            // all), and none twice for a player (checked above).
            let repeats = check_properties(n, m);
            assert_eq!(repeats, if n == 4 { 8 } else { 4 * m }, "{n} teams");
        }
    }

    #[test]
    fn unsupported_sizes_are_refused() {
        for n in [0, 1, 2, 3, 5, 7, 25, 27, 28] {
            let e = hilton(n, None).unwrap_err();
            assert_eq!(e.field, "teams", "{n}");
        }
        assert_eq!(hilton(6, Some(0)).unwrap_err().field, "boards");
        assert_eq!(hilton(6, Some(MAX_BOARDS + 1)).unwrap_err().field, "boards");
    }

    #[test]
    fn json_follows_the_contract() {
        let v = serde_json::to_value(hilton(4, None).unwrap()).unwrap();
        assert_eq!(v["teams"], 4);
        assert_eq!(v["boards"], 3);
        assert_eq!(
            v["rounds"][0]["games"][0],
            serde_json::json!({"board": 1, "white": "C", "black": "B"})
        );
        assert_eq!(v["rounds"][2]["round"], 3);
        assert_eq!(v["rounds"][0]["games"].as_array().unwrap().len(), 6);
        let back: HiltonTable = serde_json::from_value(v).unwrap();
        assert_eq!(back, hilton(4, None).unwrap());
    }
}
