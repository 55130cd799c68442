//! Standings with tie-breaks, and the crosstable of seed 000, from a section's games and byes
//! ([`crate::engine::chess::games`]).
//!
//! Points are counted in half-points internally so that ties are exact.
//!
//! Conventions (documented for directors):
//! - A forfeit win (`+/-`, `-/+`) scores a full point and counts as a win; it is not a game
//!   played and does not count towards Sonneborn-Berger. A double forfeit (`-/-`) scores nothing.
//! - Sonneborn-Berger: for every game played over the board, the opponent's total score for a
//!   win and half of it for a draw.
//! - Wins (FIDE C.07 "WIN"): the rounds in which the player scored a win's points, with or
//!   without playing: games won, forfeit wins, full-point byes. Games won (FIDE "WON"): only
//!   the games won over the board.
//! - Direct encounter: FIDE C.07's, among the players still tied (only when they all met,
//!   else only who cannot be caught; again within each smaller tie), see
//!   [`crate::engine::chess::direct_encounter`].
//! - Tie-breaks are applied in the order the event's settings give (default: direct encounter,
//!   wins, Sonneborn-Berger). Players equal on every criterion share a rank.

use crate::engine::chess::direct_encounter::DirectEncounter;
use crate::engine::chess::fide_tiebreak::{fide_tiebreaks, FideValues};

/// The records the standings are computed from, and the tie-breaks they are ordered by: named
/// here as well, so that a caller of the standings needs this one module.
pub use crate::engine::chess::games::{GameResult, ScoredBye, ScoredGame};
pub use crate::engine::chess::tiebreak_order::{
    Tiebreak, DEFAULT_TIEBREAKS, FIDE_TIEBREAKS, SWISS_TIEBREAKS,
};

/// The tie-break values and rank of one player.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Index into the player list.
    pub player: usize,
    /// 1-based rank; players equal on every criterion share it.
    pub rank: u32,
    /// Whether the rank is shared.
    pub shared: bool,
    pub half_points: u32,
    pub games_played: u32,
    /// FIDE WIN: rounds won with or without playing.
    pub wins: u32,
    /// FIDE WON: games won over the board.
    pub games_won: u32,
    /// Sonneborn-Berger in quarter points (exact).
    pub sb_quarters: u32,
    /// Half-points scored against the players tied with this one (0 when not tied).
    pub direct_half_points: u32,
    /// Swiss tie-breaks in half-points.
    pub solkoff_half: u32,
    pub modified_median_half: u32,
    pub cumulative_half: u32,
    /// The FIDE tie-breaks.
    pub fide: FideValues,
}

fn totals(n: usize, games: &[ScoredGame], byes: &[ScoredBye]) -> (Vec<u32>, Vec<u32>) {
    let mut half = vec![0u32; n];
    let mut played = vec![0u32; n];
    for g in games {
        if let Some(r) = g.result {
            let (w, b) = r.half_points();
            half[g.white] += w;
            half[g.black] += b;
            if r.played() {
                played[g.white] += 1;
                played[g.black] += 1;
            }
        }
    }
    for b in byes {
        half[b.player] += b.half_points;
    }
    (half, played)
}

/// Ranks `n` players by points, then by the tie-breaks in order. Players equal on everything
/// keep their index order (pass them in pairing-number order) and share a rank.
pub fn standings(
    n: usize,
    games: &[ScoredGame],
    byes: &[ScoredBye],
    tiebreaks: &[Tiebreak],
) -> Vec<Standing> {
    standings_rated(n, games, byes, &[], tiebreaks, false)
}

/// [`standings`] with the players' ratings (for the average rating of opponents);
/// `swiss_event` gives Sonneborn-Berger the FIDE 2023 Swiss treatment of unplayed rounds
/// ([`crate::engine::chess::fide_tiebreak`]); otherwise direct encounter counts a forfeit as
/// the game against the scheduled opponent.
pub fn standings_rated(
    n: usize,
    games: &[ScoredGame],
    byes: &[ScoredBye],
    ratings: &[Option<i32>],
    tiebreaks: &[Tiebreak],
    swiss_event: bool,
) -> Vec<Standing> {
    let (half, played) = totals(n, games, byes);
    let fide = fide_tiebreaks(n, games, byes, ratings);
    let swiss = crate::engine::chess::tiebreak::swiss_tiebreaks(n, games, byes);
    let mut sb = vec![0u32; n];
    for g in games {
        if let Some(r) = g.result.filter(|r| r.played()) {
            let (w, b) = r.half_points();
            // quarter points: win counts the opponent's half-points * 2, draw * 1
            sb[g.white] += w * half[g.black];
            sb[g.black] += b * half[g.white];
        }
    }
    if swiss_event {
        for (p, v) in fide.iter().enumerate() {
            sb[p] = v.sonneborn_berger_swiss;
        }
    }
    let encounters = DirectEncounter::new(n, games, !swiss_event);

    // Successive refinement of tied groups.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(half[p]));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in order {
        match groups.last_mut() {
            Some(g) if half[g[0]] == half[p] => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    let mut direct = vec![0u32; n];
    for tb in tiebreaks {
        let mut next = Vec::new();
        for group in groups {
            if group.len() == 1 {
                next.push(group);
                continue;
            }
            let values: Vec<u32> = match tb {
                Tiebreak::DirectEncounter => {
                    for (&p, v) in group.iter().zip(encounters.points(&group)) {
                        direct[p] = v;
                    }
                    encounters.rank(&group)
                }
                Tiebreak::SonnebornBerger => group.iter().map(|&p| sb[p]).collect(),
                Tiebreak::GamesPlayed => group.iter().map(|&p| played[p]).collect(),
                Tiebreak::Solkoff => group.iter().map(|&p| swiss.solkoff[p]).collect(),
                Tiebreak::ModifiedMedian => {
                    group.iter().map(|&p| swiss.modified_median[p]).collect()
                }
                Tiebreak::Cumulative => group.iter().map(|&p| swiss.cumulative[p]).collect(),
                fide_tb => group.iter().map(|&p| fide[p].value(*fide_tb)).collect(),
            };
            let mut members: Vec<(u32, usize)> = values.into_iter().zip(group).collect();
            members.sort_by_key(|&(v, p)| (std::cmp::Reverse(v), p));
            let mut sub: Vec<Vec<usize>> = Vec::new();
            let mut last = None;
            for (v, p) in members {
                if last == Some(v) {
                    sub.last_mut().expect("a group").push(p);
                } else {
                    sub.push(vec![p]);
                    last = Some(v);
                }
            }
            next.extend(sub);
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(n);
    let mut position = 1u32;
    for mut group in groups {
        group.sort_unstable();
        let shared = group.len() > 1;
        for &p in &group {
            out.push(Standing {
                player: p,
                rank: position,
                shared,
                half_points: half[p],
                games_played: played[p],
                wins: fide[p].wins,
                games_won: fide[p].games_won,
                sb_quarters: sb[p],
                direct_half_points: direct[p],
                solkoff_half: swiss.solkoff[p],
                modified_median_half: swiss.modified_median[p],
                cumulative_half: swiss.cumulative[p],
                fide: fide[p],
            });
        }
        position += group.len() as u32;
    }
    out
}

/// Each player's position as printed: `3`, or `3-4` for a rank shared by two players.
/// Indexed by player (`0..n`).
pub fn positions(n: usize, standing: &[Standing]) -> Vec<String> {
    let mut group_size = std::collections::HashMap::new();
    for s in standing {
        *group_size.entry(s.rank).or_insert(0u32) += 1;
    }
    let mut out = vec![String::new(); n];
    for s in standing {
        let size = group_size[&s.rank];
        out[s.player] = if size > 1 {
            format!("{}-{}", s.rank, s.rank + size - 1)
        } else {
            s.rank.to_string()
        };
    }
    out
}

/// The crosstable of seed 000: one row per player in pairing-number order, a cell per
/// opponent (`X` on the diagonal; several results, in round order, separated by a space in a
/// double round robin; empty while not played), the total and the position.
#[derive(Debug, Clone, PartialEq)]
pub struct CrosstableGrid {
    /// cells[row][column]
    pub cells: Vec<Vec<String>>,
    pub totals: Vec<u32>,
    /// "1", or "3-4" for a shared position.
    pub positions: Vec<String>,
}

/// The crosstable symbols of a result for (white, black).
fn symbols(result: GameResult) -> (&'static str, &'static str) {
    match result {
        GameResult::WhiteWin => ("1", "0"),
        GameResult::BlackWin => ("0", "1"),
        GameResult::Draw => ("½", "½"),
        GameResult::WhiteForfeitWin => ("+", "-"),
        GameResult::BlackForfeitWin => ("-", "+"),
        GameResult::DoubleForfeit => ("-", "-"),
    }
}

/// Builds the crosstable for players `0..n` (already in the order to print).
pub fn crosstable(
    n: usize,
    games: &[ScoredGame],
    byes: &[ScoredBye],
    tiebreaks: &[Tiebreak],
) -> CrosstableGrid {
    let mut cells: Vec<Vec<Vec<(u32, &str)>>> = vec![vec![Vec::new(); n]; n];
    for g in games {
        if let Some(r) = g.result {
            let (w, b) = symbols(r);
            cells[g.white][g.black].push((g.round, w));
            cells[g.black][g.white].push((g.round, b));
        }
    }
    let standing = standings(n, games, byes, tiebreaks);
    let mut totals = vec![0; n];
    for s in &standing {
        totals[s.player] = s.half_points;
    }
    let positions = positions(n, &standing);
    let cells = cells
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            row.into_iter()
                .enumerate()
                .map(|(j, mut results)| {
                    if i == j {
                        "X".to_string()
                    } else {
                        results.sort_by_key(|&(round, _)| round);
                        results
                            .iter()
                            .map(|&(_, s)| s)
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                })
                .collect()
        })
        .collect();
    CrosstableGrid {
        cells,
        totals,
        positions,
    }
}

/// Half-points as a director writes them: 3, 3½, ½.
pub fn format_half_points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_string(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;

    fn g(round: u32, white: usize, black: usize, r: GameResult) -> ScoredGame {
        ScoredGame {
            round,
            white,
            black,
            result: Some(r),
        }
    }

    #[test]
    fn parses_every_notation_and_rejects_nonsense() {
        assert_eq!(GameResult::parse("1-0"), Some(WhiteWin));
        assert_eq!(GameResult::parse(" 0 - 1 "), Some(BlackWin));
        assert_eq!(GameResult::parse("1/2-1/2"), Some(Draw));
        assert_eq!(GameResult::parse("½-½"), Some(Draw));
        assert_eq!(GameResult::parse("+/-"), Some(WhiteForfeitWin));
        assert_eq!(GameResult::parse("-/+"), Some(BlackForfeitWin));
        assert_eq!(GameResult::parse("-/-"), Some(DoubleForfeit));
        for bad in ["", "2-0", "1-1", "win", "1/2", "+/+"] {
            assert_eq!(GameResult::parse(bad), None, "{bad}");
        }
        for r in [
            WhiteWin,
            BlackWin,
            Draw,
            WhiteForfeitWin,
            BlackForfeitWin,
            DoubleForfeit,
        ] {
            assert_eq!(GameResult::parse(r.canonical()), Some(r));
        }
    }

    #[test]
    fn sonneborn_berger_and_ranks_by_hand() {
        // 4 players, all games played:
        // 0 beats 1 and 2, loses to 3 -> 2 points
        // 1 beats 2 and 3 -> 2 points
        // 2 draws 3 -> 0.5
        // 3 beats 0, draws 2 -> 1.5
        let games = vec![
            g(1, 0, 1, WhiteWin),
            g(1, 2, 3, Draw),
            g(2, 0, 2, WhiteWin),
            g(2, 1, 3, WhiteWin),
            g(3, 3, 0, WhiteWin),
            g(3, 1, 2, WhiteWin),
        ];
        let s = standings(4, &games, &[], &DEFAULT_TIEBREAKS);
        // Totals: p0 = 2, p1 = 2, p2 = 0.5, p3 = 1.5.
        // p0 v p1 direct encounter: p0 beat p1 -> p0 first.
        assert_eq!(
            s.iter().map(|x| x.player).collect::<Vec<_>>(),
            vec![0, 1, 3, 2]
        );
        assert_eq!(s[0].rank, 1);
        assert!(!s[0].shared);
        assert_eq!(s[0].direct_half_points, 2);
        // SB of p0: beat p1 (2) + beat p2 (0.5) = 2.5 -> 10 quarters
        assert_eq!(s[0].sb_quarters, 10);
        // SB of p3: beat p0 (2) + draw p2 (0.5/2) = 2.25 -> 9 quarters
        let p3 = s.iter().find(|x| x.player == 3).unwrap();
        assert_eq!(p3.sb_quarters, 9);
    }

    #[test]
    fn forfeits_score_but_are_not_played_and_ties_share_a_rank() {
        let games = vec![g(1, 0, 1, WhiteForfeitWin), g(1, 2, 3, DoubleForfeit)];
        let s = standings(4, &games, &[], &DEFAULT_TIEBREAKS);
        assert_eq!(s[0].player, 0);
        assert_eq!(s[0].half_points, 2);
        assert_eq!(s[0].games_played, 0);
        assert_eq!(s[0].wins, 1);
        assert_eq!(s[0].sb_quarters, 0);
        // 1, 2, 3 all on zero with nothing to tell them apart: shared rank 2.
        assert!(s[1..].iter().all(|x| x.rank == 2 && x.shared));
    }

    #[test]
    fn byes_add_points() {
        let s = standings(
            3,
            &[g(1, 0, 1, Draw)],
            &[ScoredBye {
                round: 1,
                player: 2,
                half_points: 2,
            }],
            &DEFAULT_TIEBREAKS,
        );
        assert_eq!(s[0].player, 2);
        assert_eq!(s[0].half_points, 2);
    }

    #[test]
    fn crosstable_has_x_on_the_diagonal_and_both_results_in_a_double_round_robin() {
        let games = vec![
            g(1, 0, 1, WhiteWin),
            g(2, 1, 0, Draw),
            ScoredGame {
                round: 1,
                white: 2,
                black: 0,
                result: None,
            },
        ];
        let c = crosstable(3, &games, &[], &DEFAULT_TIEBREAKS);
        assert_eq!(c.cells[0], vec!["X", "1 ½", ""]);
        assert_eq!(c.cells[1], vec!["0 ½", "X", ""]);
        assert_eq!(c.cells[2][2], "X");
        assert_eq!(c.totals, vec![3, 1, 0]);
        assert_eq!(c.positions, vec!["1", "2", "3"]);
        assert_eq!(format_half_points(3), "1½");
        assert_eq!(format_half_points(1), "½");
        assert_eq!(format_half_points(4), "2");
    }
}
