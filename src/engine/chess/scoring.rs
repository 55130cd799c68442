//! Standings with tie-breaks, and the crosstable of seed 000, from a section's games and byes
//! ([`crate::engine::chess::games`]).
//!
//! Points are counted in half-points internally so that ties are exact.
//!
//! Conventions (documented for directors):
//! - A forfeit win (`+/-`, `-/+`) scores a full point and counts as a win; it is not a game
//!   played over the board. A double forfeit (`-/-`) scores nothing.
//! - The tie-breaks are FIDE C.07's ([`crate::engine::chess::fide_tiebreak`]; direct
//!   encounter [`crate::engine::chess::direct_encounter`]) by the event's text, 2023 or 2026,
//!   with the rules of a Swiss or of pre-determined pairings (round robins and team schedules:
//!   a forfeit is the game against the scheduled opponent), and US Chess's
//!   ([`crate::engine::chess::tiebreak`]).
//! - Tie-breaks are applied in the order the event's settings give (default: direct encounter,
//!   wins, Sonneborn-Berger). A player without a value (no rated opponent for ARO) ranks after
//!   those with one; a lower pairing number ranks first (TPN). Players equal on every
//!   criterion share a rank.

use crate::engine::chess::direct_encounter::DirectEncounter;
pub use crate::engine::chess::fide_tiebreak::Section;
use crate::engine::chess::fide_tiebreak::{self, FideTiebreaks};

/// The records the standings are computed from, and the tie-breaks they are ordered by: named
/// here as well, so that a caller of the standings needs this one module.
pub use crate::engine::chess::games::{GameResult, ScoredBye, ScoredGame};
pub use crate::engine::chess::tiebreak_order::{
    asked, AskedTiebreak, Code, Tiebreak, TiebreakOrder, TiebreakRules, DEFAULT_TIEBREAKS,
    FIDE_TIEBREAKS, SWISS_TIEBREAKS,
};

/// The FIDE values every standings line shows whatever the order asks (half-points; ARO in
/// rating points, 0 without a rated opponent), by the event's text of C.07.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FideValues {
    pub buchholz: u32,
    pub buchholz_cut1: u32,
    pub buchholz_cut2: u32,
    pub median_buchholz: u32,
    pub progressive: u32,
    pub games_with_black: u32,
    pub aro_cut1: u32,
    pub koya: u32,
}

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
    /// Each asked tie-break's value, in the order asked, in units of [`unit`] (`None`: the
    /// player has none, and ranks after those who have).
    pub values: Vec<Option<i64>>,
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

/// Units per point of a tie-break's value (half-points for direct encounter and the US
/// tie-breaks; [`fide_tiebreak::scale`] for the rest).
pub fn unit(code: Code) -> i64 {
    match code {
        Code::DE | Code::Solkoff | Code::ModifiedMedian | Code::Cumulative => 2,
        other => fide_tiebreak::scale(other),
    }
}

/// Ranks `n` players by points, then by the tie-breaks in order, with the pre-determined
/// pairings' rules (a round robin's), no ratings and the text in force. Players equal on
/// everything keep their index order (pass them in pairing-number order) and share a rank.
pub fn standings(
    n: usize,
    games: &[ScoredGame],
    byes: &[ScoredBye],
    tiebreaks: &[AskedTiebreak],
) -> Vec<Standing> {
    let section = Section {
        games,
        byes,
        ratings: &[],
        pairing_numbers: &[],
        predetermined: true,
        rules: TiebreakRules::C2026,
        unrated_rating: None,
        final_round: 0,
    };
    standings_of(n, &section, tiebreaks)
}

/// [`standings`] of a section: a Swiss (`predetermined` false: Sonneborn-Berger and the
/// Buchholz family count unplayed rounds against the dummy, direct encounter only games
/// played) or pre-determined pairings, by the section's text of C.07, with its ratings.
pub fn standings_of(n: usize, section: &Section, tiebreaks: &[AskedTiebreak]) -> Vec<Standing> {
    let fide = FideTiebreaks::new(n, *section);
    let (games, byes) = (section.games, section.byes);
    let swiss = crate::engine::chess::tiebreak::swiss_tiebreaks(n, games, byes);
    let of = |t: Tiebreak| fide.values(&t);
    let cut = |code, low, high| {
        let mut t = Tiebreak::plain(code);
        t.cut_low = low;
        t.cut_high = high;
        of(t)
    };
    let unsigned = |v: &Vec<Option<i64>>, p: usize| v[p].unwrap_or(0).max(0) as u32;
    let legacy = [
        of(Tiebreak::plain(Code::BH)),
        cut(Code::BH, 1, 0),
        cut(Code::BH, 2, 0),
        cut(Code::BH, 1, 1),
        of(Tiebreak::plain(Code::PS)),
        of(Tiebreak::plain(Code::BPG)),
        cut(Code::ARO, 1, 0),
        of(Tiebreak::plain(Code::KS)),
        of(Tiebreak::plain(Code::WIN)),
        of(Tiebreak::plain(Code::WON)),
        of(Tiebreak::plain(Code::SB)),
        of(Tiebreak::plain(Code::GamesPlayed)),
    ];
    let mut points = vec![0u32; n];
    for g in games {
        if let Some(r) = g.result {
            let (w, b) = r.half_points();
            points[g.white] += w;
            points[g.black] += b;
        }
    }
    for b in byes {
        points[b.player] += b.half_points;
    }
    // every asked tie-break but direct encounter, over all players
    let asked_values: Vec<Option<Vec<Option<i64>>>> = tiebreaks
        .iter()
        .map(|a| {
            let us = |v: &Vec<u32>| Some(v.iter().map(|&x| Some(x as i64)).collect());
            match a.tiebreak.code {
                Code::DE => None,
                Code::Solkoff => us(&swiss.solkoff),
                Code::ModifiedMedian => us(&swiss.modified_median),
                Code::Cumulative => us(&swiss.cumulative),
                _ => Some(fide.values(&a.tiebreak)),
            }
        })
        .collect();
    let encounter = |t: &Tiebreak| {
        DirectEncounter::with_forfeits(
            n,
            games,
            section.predetermined,
            section.predetermined || t.forfeits_played,
        )
    };

    // Successive refinement of tied groups.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(points[p]));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in order {
        match groups.last_mut() {
            Some(g) if points[g[0]] == points[p] => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    let mut direct = vec![0u32; n];
    let mut values: Vec<Vec<Option<i64>>> = vec![vec![None; tiebreaks.len()]; n];
    for (i, _) in tiebreaks.iter().enumerate() {
        for p in 0..n {
            // direct encounter: the points against the tied players, 0 when not tied
            values[p][i] = asked_values[i].as_ref().map_or(Some(0), |all| all[p]);
        }
    }
    for (i, a) in tiebreaks.iter().enumerate() {
        let encounters = (a.tiebreak.code == Code::DE).then(|| encounter(&a.tiebreak));
        let lower_first = fide_tiebreak::lower_first(&a.tiebreak);
        let mut next = Vec::new();
        for group in groups {
            if group.len() == 1 {
                next.push(group);
                continue;
            }
            // (no value, the key: higher first) of each member
            let keys: Vec<(bool, i64)> = match &encounters {
                Some(e) => {
                    for (&p, v) in group.iter().zip(e.points(&group)) {
                        direct[p] = v;
                        values[p][i] = Some(v as i64);
                    }
                    e.rank(&group)
                        .into_iter()
                        .map(|k| (false, k as i64))
                        .collect()
                }
                None => group
                    .iter()
                    .map(|&p| match values[p][i] {
                        Some(v) if lower_first => (false, -v),
                        Some(v) => (false, v),
                        None => (true, 0),
                    })
                    .collect(),
            };
            let mut members: Vec<((bool, i64), usize)> = keys.into_iter().zip(group).collect();
            members.sort_by_key(|&((none, v), p)| (none, std::cmp::Reverse(v), p));
            let mut sub: Vec<Vec<usize>> = Vec::new();
            let mut last = None;
            for (key, p) in members {
                if last == Some(key) {
                    sub.last_mut().expect("a group").push(p);
                } else {
                    sub.push(vec![p]);
                    last = Some(key);
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
            let l = |k: usize| unsigned(&legacy[k], p);
            out.push(Standing {
                player: p,
                rank: position,
                shared,
                half_points: points[p],
                games_played: l(11),
                values: std::mem::take(&mut values[p]),
                wins: l(8),
                games_won: l(9),
                sb_quarters: l(10),
                direct_half_points: direct[p],
                solkoff_half: swiss.solkoff[p],
                modified_median_half: swiss.modified_median[p],
                cumulative_half: swiss.cumulative[p],
                fide: FideValues {
                    buchholz: l(0),
                    buchholz_cut1: l(1),
                    buchholz_cut2: l(2),
                    median_buchholz: l(3),
                    progressive: l(4),
                    games_with_black: l(5),
                    aro_cut1: l(6),
                    koya: l(7),
                },
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

/// Builds the crosstable for players `0..n` (already in the order to print), placed by the
/// section's standings.
pub fn crosstable(n: usize, section: &Section, tiebreaks: &[AskedTiebreak]) -> CrosstableGrid {
    let games = section.games;
    let mut cells: Vec<Vec<Vec<(u32, &str)>>> = vec![vec![Vec::new(); n]; n];
    for g in games {
        if let Some(r) = g.result {
            let (w, b) = symbols(r);
            cells[g.white][g.black].push((g.round, w));
            cells[g.black][g.white].push((g.round, b));
        }
    }
    let standing = standings_of(n, section, tiebreaks);
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
        let s = standings(4, &games, &[], &asked(&DEFAULT_TIEBREAKS));
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
        let s = standings(4, &games, &[], &asked(&DEFAULT_TIEBREAKS));
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
                allocated: false,
            }],
            &asked(&DEFAULT_TIEBREAKS),
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
        let section = Section {
            games: &games,
            byes: &[],
            ratings: &[],
            pairing_numbers: &[],
            predetermined: true,
            rules: TiebreakRules::C2026,
            unrated_rating: None,
            final_round: 0,
        };
        let c = crosstable(3, &section, &asked(&DEFAULT_TIEBREAKS));
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
