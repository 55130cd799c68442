//! Team scoring for team events (Scheveningen matches, Hilton jamboree pairings): game points,
//! team-vs-team matches and match points, and the team ranking.
//!
//! Definitions (documented for directors):
//! - Game points: the sum of the team's players' points, forfeits as in individual scoring
//!   (`+/-` a point to the winner, `-/-` nothing to either).
//! - A match between two teams is every game between a player of one and a player of the other
//!   over the whole event: the whole Scheveningen match; in a Hilton event the games the two
//!   teams play on their various boards, summed over the three rounds.
//! - A match is complete when every one of its games has a result. Only complete matches earn
//!   match points: 2 to the team with more game points in it, 1 each when level, 0 to the loser.
//!   Incomplete matches show their score so far.
//! - Ranking: Scheveningen by match points, then game points; Hilton by game points (primary:
//!   it is what a jamboree is played for), then match points. Teams equal on both share a rank.
//!
//! Points are counted in half-points so that comparisons are exact.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::chess::games::GameResult;
use crate::engine::chess::scoring::format_half_points;

/// One game as team scoring sees it (team indices 0-based, A = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamGameResult {
    /// Team of the White player.
    pub white_team: usize,
    /// Team of the Black player.
    pub black_team: usize,
    /// None while not played.
    pub result: Option<GameResult>,
}

/// What decides the team ranking first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamOrder {
    /// Match points, then game points (Scheveningen).
    MatchPoints,
    /// Game points, then match points (Hilton).
    GamePoints,
}

/// The games between two teams `a` < `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchScore {
    pub a: usize,
    pub b: usize,
    /// Games between the two teams.
    pub games: u32,
    /// Games with a result.
    pub results: u32,
    /// Half-points of team a and team b so far.
    pub a_half: u32,
    pub b_half: u32,
}

impl MatchScore {
    /// Every game has a result.
    pub fn complete(&self) -> bool {
        self.results == self.games
    }

    /// Match points of (a, b): only for a complete match.
    pub fn match_points(&self) -> Option<(u32, u32)> {
        if !self.complete() {
            return None;
        }
        Some(match self.a_half.cmp(&self.b_half) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Less => (0, 2),
            std::cmp::Ordering::Equal => (1, 1),
        })
    }

    /// The score as a director writes it, team a first: "6½–5½".
    pub fn score(&self) -> String {
        format_score(self.a_half, self.b_half)
    }
}

/// "6½–5½" (with an en dash) from half-points.
pub fn format_score(a_half: u32, b_half: u32) -> String {
    format!(
        "{}\u{2013}{}",
        format_half_points(a_half),
        format_half_points(b_half)
    )
}

/// One team's line of the team standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamStanding {
    /// Team index.
    pub team: usize,
    /// 1-based; teams equal on both criteria share it.
    pub rank: u32,
    pub shared: bool,
    pub game_half_points: u32,
    /// Games the team's players are scheduled to play, and how many have a result.
    pub games: u32,
    pub results: u32,
    pub match_points: u32,
    /// Complete matches: won, drawn, lost.
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

/// Every pair of teams that has at least one game between them, by (a, b) with a < b.
pub fn matches(teams: usize, games: &[TeamGameResult]) -> Vec<MatchScore> {
    let mut grid: Vec<Vec<Option<MatchScore>>> = vec![vec![None; teams]; teams];
    for g in games {
        let (w, b) = (g.white_team, g.black_team);
        if w == b || w >= teams || b >= teams {
            continue;
        }
        let (a, other) = (w.min(b), w.max(b));
        let m = grid[a][other].get_or_insert(MatchScore {
            a,
            b: other,
            games: 0,
            results: 0,
            a_half: 0,
            b_half: 0,
        });
        m.games += 1;
        if let Some(r) = g.result {
            m.results += 1;
            let (wh, bh) = r.half_points();
            if w == a {
                m.a_half += wh;
                m.b_half += bh;
            } else {
                m.a_half += bh;
                m.b_half += wh;
            }
        }
    }
    grid.into_iter().flatten().flatten().collect()
}

/// The team standings, best first (equal teams by index).
pub fn standings(teams: usize, games: &[TeamGameResult], order: TeamOrder) -> Vec<TeamStanding> {
    let mut rows: Vec<TeamStanding> = (0..teams)
        .map(|team| TeamStanding {
            team,
            rank: 0,
            shared: false,
            game_half_points: 0,
            games: 0,
            results: 0,
            match_points: 0,
            won: 0,
            drawn: 0,
            lost: 0,
        })
        .collect();
    for g in games {
        if g.white_team >= teams || g.black_team >= teams {
            continue;
        }
        let (wh, bh) = g.result.map(GameResult::half_points).unwrap_or((0, 0));
        for (t, half) in [(g.white_team, wh), (g.black_team, bh)] {
            rows[t].games += 1;
            rows[t].results += u32::from(g.result.is_some());
            rows[t].game_half_points += half;
        }
    }
    for m in matches(teams, games) {
        if let Some((pa, pb)) = m.match_points() {
            for (t, p) in [(m.a, pa), (m.b, pb)] {
                rows[t].match_points += p;
                match p {
                    2 => rows[t].won += 1,
                    1 => rows[t].drawn += 1,
                    _ => rows[t].lost += 1,
                }
            }
        }
    }
    let key = |r: &TeamStanding| match order {
        TeamOrder::MatchPoints => (r.match_points, r.game_half_points),
        TeamOrder::GamePoints => (r.game_half_points, r.match_points),
    };
    rows.sort_by(|x, y| key(y).cmp(&key(x)).then(x.team.cmp(&y.team)));
    let keys: Vec<(u32, u32)> = rows.iter().map(key).collect();
    for i in 0..rows.len() {
        let first = keys.iter().position(|k| *k == keys[i]).unwrap_or(i);
        let count = keys.iter().filter(|k| **k == keys[i]).count();
        rows[i].rank = first as u32 + 1;
        rows[i].shared = count > 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;

    fn g(white_team: usize, black_team: usize, result: Option<GameResult>) -> TeamGameResult {
        TeamGameResult {
            white_team,
            black_team,
            result,
        }
    }

    #[test]
    fn score_is_written_with_halves_and_an_en_dash() {
        assert_eq!(format_score(13, 11), "6½–5½");
        assert_eq!(format_score(8, 0), "4–0");
        assert_eq!(format_score(1, 1), "½–½");
    }

    #[test]
    fn scheveningen_match_score_and_match_points() {
        // A 2-board match (4 games): A wins 2, one draw, one B forfeit win.
        let games = [
            g(0, 1, Some(WhiteWin)),
            g(1, 0, Some(BlackWin)),
            g(0, 1, Some(Draw)),
            g(0, 1, Some(BlackForfeitWin)),
        ];
        let ms = matches(2, &games);
        assert_eq!(ms.len(), 1);
        let m = ms[0];
        assert_eq!((m.a, m.b, m.games, m.results), (0, 1, 4, 4));
        assert_eq!((m.a_half, m.b_half), (5, 3));
        assert_eq!(m.score(), "2½–1½");
        assert_eq!(m.match_points(), Some((2, 0)));
        let st = standings(2, &games, TeamOrder::MatchPoints);
        assert_eq!(st[0].team, 0);
        assert_eq!((st[0].match_points, st[0].game_half_points), (2, 5));
        assert_eq!((st[0].won, st[0].drawn, st[0].lost), (1, 0, 0));
        assert_eq!((st[1].match_points, st[1].game_half_points), (0, 3));
        assert_eq!((st[1].won, st[1].drawn, st[1].lost), (0, 0, 1));
        assert_eq!((st[0].rank, st[1].rank), (1, 2));
        assert!(!st[0].shared);
    }

    #[test]
    fn incomplete_match_earns_no_match_points_yet() {
        let games = [g(0, 1, Some(WhiteWin)), g(1, 0, None)];
        let m = matches(2, &games)[0];
        assert!(!m.complete());
        assert_eq!(m.match_points(), None);
        assert_eq!(m.score(), "1–0");
        let st = standings(2, &games, TeamOrder::MatchPoints);
        assert_eq!(st[0].match_points + st[1].match_points, 0);
        // Game points still count; the leader is A.
        assert_eq!((st[0].team, st[0].game_half_points), (0, 2));
        assert_eq!((st[0].games, st[0].results), (2, 1));
    }

    #[test]
    fn drawn_match_and_double_forfeit() {
        let games = [
            g(0, 1, Some(WhiteWin)),
            g(1, 0, Some(WhiteWin)),
            g(0, 1, Some(DoubleForfeit)),
        ];
        let st = standings(2, &games, TeamOrder::MatchPoints);
        assert_eq!(st[0].match_points, 1);
        assert_eq!(st[1].match_points, 1);
        assert_eq!(st[0].game_half_points, 2);
        assert_eq!((st[0].rank, st[1].rank), (1, 1));
        assert!(st[0].shared && st[1].shared);
        assert_eq!(st[0].drawn, 1);
    }

    #[test]
    fn hilton_ranks_by_game_points_before_match_points() {
        // Four teams. Team 0 beats 1 and 2 narrowly (match points 4) but loses 0-3 to 3;
        // team 3 loses its other matches narrowly but has more game points overall.
        let mut games = Vec::new();
        let mut add = |a: usize, b: usize, a_wins: u32, draws: u32, b_wins: u32| {
            for _ in 0..a_wins {
                games.push(g(a, b, Some(WhiteWin)));
            }
            for _ in 0..draws {
                games.push(g(a, b, Some(Draw)));
            }
            for _ in 0..b_wins {
                games.push(g(b, a, Some(WhiteWin)));
            }
        };
        add(0, 1, 2, 0, 1); // 2-1
        add(0, 2, 2, 0, 1); // 2-1
        add(0, 3, 0, 0, 3); // 0-3
        add(1, 2, 1, 1, 1); // 1½-1½
        add(1, 3, 2, 0, 1); // 2-1
        add(2, 3, 2, 0, 1); // 2-1
        let ms = matches(4, &games);
        assert_eq!(ms.len(), 6);
        assert!(ms.iter().all(|m| m.games == 3 && m.complete()));
        // Game points: 0: 4, 1: 1+1.5+2 = 4.5, 2: 1+1.5+2 = 4.5, 3: 3+1+1 = 5.
        // Match points: 0: 4, 1: 0+1+2 = 3, 2: 0+1+2 = 3, 3: 2.
        let by_gp = standings(4, &games, TeamOrder::GamePoints);
        let order: Vec<usize> = by_gp.iter().map(|r| r.team).collect();
        assert_eq!(order, vec![3, 1, 2, 0]);
        assert_eq!(by_gp[0].game_half_points, 10);
        assert_eq!((by_gp[1].rank, by_gp[2].rank), (2, 2));
        assert!(by_gp[1].shared && !by_gp[0].shared);
        assert_eq!(by_gp[3].match_points, 4);
        let by_mp = standings(4, &games, TeamOrder::MatchPoints);
        let order: Vec<usize> = by_mp.iter().map(|r| r.team).collect();
        assert_eq!(order, vec![0, 1, 2, 3]);
        assert_eq!(
            by_mp.iter().map(|r| r.match_points).sum::<u32>(),
            2 * 6,
            "every complete match hands out 2 match points"
        );
    }

    #[test]
    fn pairs_without_games_are_no_match() {
        let games = [g(0, 1, Some(Draw)), g(2, 3, Some(Draw))];
        let ms = matches(4, &games);
        assert_eq!(ms.len(), 2);
        assert_eq!((ms[0].a, ms[0].b, ms[1].a, ms[1].b), (0, 1, 2, 3));
    }
}
