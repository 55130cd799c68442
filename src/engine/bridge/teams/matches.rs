//! Team matches scored and team standings ("Bridge team events"; Swiss teams).
//!
//! # A match
//! Each board of a match is played twice: at the home team's NS table (home NS v away EW) and
//! at the away team's NS table (away NS v home EW). The home team's net on the board is its NS
//! score at the first table minus the away team's NS score at the second; that difference is
//! turned into IMPs on the WBF table (positive: IMPs to the home team). A match's IMPs won by a
//! team are the sum of its positive boards; the margin is home IMPs − away IMPs; victory points
//! come from the margin on the WBF 2013 continuous scale for the match's number of boards
//! (`scoring::vp`), so a match's VPs always add up to 20.
//!
//! A scoring program may instead enter a match as IMPs (VPs then computed the same way) or as
//! VPs (each 0–20, summing to 20).
//!
//! # Standings
//! Teams are ranked by VP total (a bye counts its awarded VPs, no IMPs); ties by IMP quotient
//! (IMPs won / IMPs lost; none lost ranks above any finite quotient, and 0/0 below them); then,
//! for exactly two teams still level, by the VPs of the match between them if they met. Teams
//! still level share a rank.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::bridge::scoring::imps::imps;
use crate::engine::bridge::scoring::vp::{victory_points, MAX_BOARDS};

/// One board of a match: both tables' NS scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MatchBoard {
    pub board: u32,
    /// The NS score at the table where the home team sits NS.
    pub home_ns_score: i32,
    /// The NS score at the table where the away team sits NS.
    pub away_ns_score: i32,
}

/// A board's IMPs for the home team (negative: to the away team).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BoardImps {
    pub board: u32,
    pub imps: i32,
}

/// A match's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MatchScore {
    pub home: u32,
    pub away: u32,
    /// Per board (empty for a match entered as IMPs or VPs).
    pub boards: Vec<BoardImps>,
    pub imps_home: u32,
    pub imps_away: u32,
    pub vp_home: f64,
    pub vp_away: f64,
}

/// Why a match cannot be scored: the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchError {
    pub field: String,
    pub message: String,
}

fn refuse(field: &str, message: impl Into<String>) -> MatchError {
    MatchError {
        field: field.to_string(),
        message: message.into(),
    }
}

/// VPs (home, away) for IMPs won by each side in a match of `boards` boards.
fn vps(imps_home: u32, imps_away: u32, boards: u32) -> (f64, f64) {
    let (winner, loser) = victory_points(imps_home.abs_diff(imps_away), boards);
    if imps_home >= imps_away {
        (winner, loser)
    } else {
        (loser, winner)
    }
}

/// A match scored from its boards.
pub fn score_match(home: u32, away: u32, boards: &[MatchBoard]) -> Result<MatchScore, MatchError> {
    if boards.is_empty() || boards.len() > MAX_BOARDS as usize {
        return Err(refuse(
            "boards",
            format!("a match has 1 to {MAX_BOARDS} boards"),
        ));
    }
    let per_board: Vec<BoardImps> = boards
        .iter()
        .map(|b| BoardImps {
            board: b.board,
            imps: imps(b.home_ns_score.saturating_sub(b.away_ns_score)),
        })
        .collect();
    let imps_home = per_board.iter().map(|b| b.imps.max(0) as u32).sum();
    let imps_away = per_board.iter().map(|b| (-b.imps).max(0) as u32).sum();
    let (vp_home, vp_away) = vps(imps_home, imps_away, boards.len() as u32);
    Ok(MatchScore {
        home,
        away,
        boards: per_board,
        imps_home,
        imps_away,
        vp_home,
        vp_away,
    })
}

/// A match entered as IMPs: VPs from the margin for `boards` boards.
pub fn match_from_imps(
    home: u32,
    away: u32,
    imps_home: u32,
    imps_away: u32,
    boards: u32,
) -> Result<MatchScore, MatchError> {
    if boards == 0 || boards > MAX_BOARDS {
        return Err(refuse(
            "boards",
            format!("a match has 1 to {MAX_BOARDS} boards"),
        ));
    }
    let (vp_home, vp_away) = vps(imps_home, imps_away, boards);
    Ok(MatchScore {
        home,
        away,
        boards: Vec::new(),
        imps_home,
        imps_away,
        vp_home,
        vp_away,
    })
}

/// A match entered as VPs: each 0–20 in hundredths, adding up to 20.
pub fn match_from_vps(
    home: u32,
    away: u32,
    vp_home: f64,
    vp_away: f64,
) -> Result<MatchScore, MatchError> {
    for (field, v) in [("vp_home", vp_home), ("vp_away", vp_away)] {
        if !(0.0..=20.0).contains(&v) {
            return Err(refuse(field, format!("{v} VPs: a match gives 0 to 20")));
        }
        if ((v * 100.0).round() - v * 100.0).abs() > 1e-6 {
            return Err(refuse(field, format!("{v} VPs: VPs are in hundredths")));
        }
    }
    if ((vp_home + vp_away) * 100.0).round() != 2000.0 {
        return Err(refuse(
            "vp_away",
            format!("{vp_home} + {vp_away} VPs: a match's VPs add up to 20"),
        ));
    }
    Ok(MatchScore {
        home,
        away,
        boards: Vec::new(),
        imps_home: 0,
        imps_away: 0,
        vp_home,
        vp_away,
    })
}

/// A bye in a Swiss teams event: the VPs awarded (default 12 of 20).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ByeAward {
    pub team: u32,
    pub vps: f64,
}

/// One team's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TeamStanding {
    /// Shared by teams still level after every tie-break.
    pub rank: u32,
    pub team: u32,
    pub matches: u32,
    pub vps: f64,
    pub imps_won: u32,
    pub imps_lost: u32,
    /// IMPs won / IMPs lost; null when none were lost.
    pub imp_quotient: Option<f64>,
}

fn quotient_order(a: &TeamStanding, b: &TeamStanding) -> Ordering {
    // Higher first; none lost: above every finite quotient (0/0: below them).
    let key = |s: &TeamStanding| match s.imp_quotient {
        Some(q) => (1, q),
        None if s.imps_won > 0 => (2, 0.0),
        None => (0, 0.0),
    };
    let (ka, kb) = (key(a), key(b));
    kb.0.cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
}

/// The standings of `teams` from the matches and byes.
pub fn standings(teams: &[u32], matches: &[MatchScore], byes: &[ByeAward]) -> Vec<TeamStanding> {
    let mut lines: BTreeMap<u32, TeamStanding> = teams
        .iter()
        .map(|&t| {
            (
                t,
                TeamStanding {
                    rank: 0,
                    team: t,
                    matches: 0,
                    vps: 0.0,
                    imps_won: 0,
                    imps_lost: 0,
                    imp_quotient: None,
                },
            )
        })
        .collect();
    for m in matches {
        for (team, vp, won, lost) in [
            (m.home, m.vp_home, m.imps_home, m.imps_away),
            (m.away, m.vp_away, m.imps_away, m.imps_home),
        ] {
            if let Some(l) = lines.get_mut(&team) {
                l.matches += 1;
                l.vps += vp;
                l.imps_won += won;
                l.imps_lost += lost;
            }
        }
    }
    for b in byes {
        if let Some(l) = lines.get_mut(&b.team) {
            l.vps += b.vps;
        }
    }
    let mut out: Vec<TeamStanding> = lines
        .into_values()
        .map(|mut l| {
            l.vps = (l.vps * 100.0).round() / 100.0;
            l.imp_quotient =
                (l.imps_lost > 0).then(|| f64::from(l.imps_won) / f64::from(l.imps_lost));
            l
        })
        .collect();
    let level = |a: &TeamStanding, b: &TeamStanding| {
        b.vps.total_cmp(&a.vps).then_with(|| quotient_order(a, b))
    };
    out.sort_by(|a, b| level(a, b).then(a.team.cmp(&b.team)));
    // Exactly two teams level on VPs and quotient: the match between them decides.
    let mut i = 0;
    while i < out.len() {
        let mut j = i + 1;
        while j < out.len() && level(&out[i], &out[j]) == Ordering::Equal {
            j += 1;
        }
        let mut head_to_head = Ordering::Equal;
        if j - i == 2 {
            let (a, b) = (out[i].team, out[i + 1].team);
            let vp_of = |t: u32| -> f64 {
                matches
                    .iter()
                    .filter(|m| (m.home == a && m.away == b) || (m.home == b && m.away == a))
                    .map(|m| if m.home == t { m.vp_home } else { m.vp_away })
                    .sum()
            };
            head_to_head = vp_of(b).total_cmp(&vp_of(a));
            if head_to_head == Ordering::Greater {
                out.swap(i, i + 1);
            }
        }
        for (k, line) in out.iter_mut().enumerate().take(j).skip(i) {
            line.rank = if head_to_head != Ordering::Equal {
                (k + 1) as u32
            } else {
                (i + 1) as u32
            };
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_from_its_boards() {
        // Board 1: home NS +620, away NS +170 at the other table: +450 → 10 IMPs to home.
        // Board 2: home NS −100, away NS +600: −700 → 12 IMPs to away. Board 3: flat.
        let m = score_match(
            1,
            2,
            &[
                MatchBoard {
                    board: 1,
                    home_ns_score: 620,
                    away_ns_score: 170,
                },
                MatchBoard {
                    board: 2,
                    home_ns_score: -100,
                    away_ns_score: 600,
                },
                MatchBoard {
                    board: 3,
                    home_ns_score: 420,
                    away_ns_score: 420,
                },
            ],
        )
        .unwrap();
        assert_eq!(
            m.boards.iter().map(|b| b.imps).collect::<Vec<_>>(),
            [10, -12, 0]
        );
        assert_eq!((m.imps_home, m.imps_away), (10, 12));
        let (w, l) = victory_points(2, 3);
        assert_eq!((m.vp_home, m.vp_away), (l, w));
        assert_eq!(m.vp_home + m.vp_away, 20.0);
    }

    #[test]
    fn entered_matches_are_checked() {
        let m = match_from_imps(3, 4, 30, 5, 16).unwrap();
        assert_eq!((m.vp_home, m.vp_away), victory_points(25, 16));
        assert_eq!(
            match_from_vps(1, 2, 20.5, -0.5).unwrap_err().field,
            "vp_home"
        );
        assert_eq!(
            match_from_vps(1, 2, 12.0, 9.0).unwrap_err().field,
            "vp_away"
        );
        assert_eq!(
            match_from_vps(1, 2, 12.005, 7.995).unwrap_err().field,
            "vp_home"
        );
        assert!(match_from_vps(1, 2, 13.75, 6.25).is_ok());
        assert_eq!(match_from_imps(1, 2, 1, 0, 0).unwrap_err().field, "boards");
    }

    #[test]
    fn standings_by_vps_then_quotient_then_the_match_between() {
        let ms = vec![
            match_from_vps(1, 2, 15.0, 5.0).unwrap(),
            match_from_imps(3, 4, 20, 10, 8).unwrap(),
            match_from_imps(1, 3, 10, 20, 8).unwrap(),
            match_from_imps(2, 4, 10, 20, 8).unwrap(),
        ];
        let st = standings(&[1, 2, 3, 4], &ms, &[ByeAward { team: 5, vps: 12.0 }]);
        let total: f64 = st.iter().map(|s| s.vps).sum();
        assert!((total - 80.0).abs() < 1e-9);
        for s in &st {
            let own: f64 = ms
                .iter()
                .map(|m| {
                    if m.home == s.team {
                        m.vp_home
                    } else if m.away == s.team {
                        m.vp_away
                    } else {
                        0.0
                    }
                })
                .sum();
            assert!((own - s.vps).abs() < 0.006);
        }
        assert!(st.windows(2).all(|w| w[0].vps >= w[1].vps));
        // Two teams level on VPs and quotient: the match between them decides.
        let ms = vec![
            match_from_imps(1, 2, 5, 10, 8).unwrap(),
            match_from_imps(1, 3, 10, 5, 8).unwrap(),
            match_from_imps(2, 3, 5, 10, 8).unwrap(),
        ];
        let st = standings(&[1, 2, 3], &ms, &[]);
        // All three: equal VPs (a cycle), quotient 15/15 each: three level, one shared rank.
        assert!(st.iter().all(|s| s.rank == 1), "{st:?}");
        let ms = vec![
            match_from_vps(1, 2, 8.0, 12.0).unwrap(),
            match_from_vps(1, 3, 12.0, 8.0).unwrap(),
            match_from_vps(2, 4, 8.0, 12.0).unwrap(),
        ];
        let st = standings(&[1, 2, 3, 4], &ms, &[]);
        let order: Vec<(u32, u32)> = st.iter().map(|s| (s.team, s.rank)).collect();
        // 1 and 2 both 20 VPs, no IMPs: 2 won the match between them.
        assert_eq!(order[..2], [(2, 1), (1, 2)]);
    }
}
