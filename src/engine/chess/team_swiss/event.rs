//! A team Swiss event from its rounds: each team's facts for the next pairing, and the team
//! standings.
//!
//! Scoring: a match is its boards' game points (half-points here); the team with more game
//! points wins it, 2 match points to the winner, 1 each for a draw, 0 to the loser. The
//! pairing-allocated bye scores as a draw (1.4): 1 match point and half the boards in game
//! points. Match points are the primary score, game points the secondary (1.2.2).
//!
//! Standings (team tie-breaks of C.07, in this order): match points (MP), game points (GP),
//! Buchholz of match points (BH: the sum of the opponents' match points over the matches
//! played; a bye adds nothing), Sonneborn-Berger of match points (SB: the sum over the
//! matches played of the opponent's match points times the match points earned against it),
//! then the TPN. Teams equal on MP, GP, BH and SB share a rank.

use super::TeamFacts;
use crate::engine::chess::swiss::Colour;

/// A match of a round as played: TPNs and each side's game points in half-points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedMatch {
    /// The team with White on board 1.
    pub white: u32,
    pub black: u32,
    pub white_half: u32,
    pub black_half: u32,
}

impl PlayedMatch {
    /// Match points of (white, black).
    pub fn match_points(&self) -> (u32, u32) {
        match self.white_half.cmp(&self.black_half) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Less => (0, 2),
            std::cmp::Ordering::Equal => (1, 1),
        }
    }
}

/// A round as played: its matches and the team given the bye.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundRecord {
    pub matches: Vec<PlayedMatch>,
    pub bye: Option<u32>,
}

/// Each team's facts (by TPN, `n` teams) after these rounds, for pairing the next one.
/// Scores in half-points: match points doubled, game points as half-points.
pub fn facts(n: usize, rounds: &[RoundRecord], boards: u32) -> Vec<TeamFacts> {
    let mut ts: Vec<TeamFacts> = (1..=n as u32)
        .map(|tpn| TeamFacts {
            tpn,
            score: 0,
            secondary: 0,
            colours: vec![],
            opponents: vec![],
            had_bye: false,
            floated: false,
        })
        .collect();
    for r in rounds {
        let before: Vec<u32> = ts.iter().map(|t| t.score).collect();
        for t in &mut ts {
            t.floated = false;
        }
        if let Some(b) = r.bye {
            let t = &mut ts[b as usize - 1];
            t.score += 2;
            t.secondary += boards;
            t.had_bye = true;
        }
        for m in &r.matches {
            let (mw, mb) = m.match_points();
            let (w, b) = (m.white as usize - 1, m.black as usize - 1);
            for (x, y, mp, gp, c) in [
                (w, b, mw, m.white_half, Colour::White),
                (b, w, mb, m.black_half, Colour::Black),
            ] {
                let t = &mut ts[x];
                t.score += 2 * mp;
                t.secondary += gp;
                t.colours.push(c);
                t.opponents.push(y as u32 + 1);
                t.floated = before[x] != before[y];
            }
        }
    }
    ts
}

/// A team's line in the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamStanding {
    pub tpn: u32,
    pub rank: u32,
    pub shared: bool,
    pub match_points: u32,
    pub game_half_points: u32,
    /// Buchholz of match points.
    pub buchholz: u32,
    /// Sonneborn-Berger of match points.
    pub sonneborn_berger: u32,
    pub played: u32,
}

/// The team standings after these rounds (see the module doc), best first.
pub fn standings(n: usize, rounds: &[RoundRecord], boards: u32) -> Vec<TeamStanding> {
    let ts = facts(n, rounds, boards);
    let mp = |tpn: u32| ts[tpn as usize - 1].score / 2;
    let mut rows: Vec<TeamStanding> = ts
        .iter()
        .map(|t| TeamStanding {
            tpn: t.tpn,
            rank: 0,
            shared: false,
            match_points: t.score / 2,
            game_half_points: t.secondary,
            buchholz: t.opponents.iter().map(|&o| mp(o)).sum(),
            sonneborn_berger: 0,
            played: t.opponents.len() as u32,
        })
        .collect();
    for r in rounds {
        for m in &r.matches {
            let (mw, mb) = m.match_points();
            rows[m.white as usize - 1].sonneborn_berger += mw * mp(m.black);
            rows[m.black as usize - 1].sonneborn_berger += mb * mp(m.white);
        }
    }
    let key = |s: &TeamStanding| {
        (
            std::cmp::Reverse(s.match_points),
            std::cmp::Reverse(s.game_half_points),
            std::cmp::Reverse(s.buchholz),
            std::cmp::Reverse(s.sonneborn_berger),
        )
    };
    rows.sort_by_key(|s| (key(s), s.tpn));
    for i in 0..rows.len() {
        let same_as_prev = i > 0 && key(&rows[i]) == key(&rows[i - 1]);
        rows[i].rank = if same_as_prev {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
        let same_as_next = i + 1 < rows.len() && key(&rows[i]) == key(&rows[i + 1]);
        rows[i].shared = same_as_prev || same_as_next;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_and_standings_from_two_rounds() {
        // Round 1: 1-3 (3-1 on 4 boards), 2 bye; round 2: 2-1 (2-2), 3 bye.
        let rounds = vec![
            RoundRecord {
                matches: vec![PlayedMatch {
                    white: 1,
                    black: 3,
                    white_half: 6,
                    black_half: 2,
                }],
                bye: Some(2),
            },
            RoundRecord {
                matches: vec![PlayedMatch {
                    white: 2,
                    black: 1,
                    white_half: 4,
                    black_half: 4,
                }],
                bye: Some(3),
            },
        ];
        let f = facts(3, &rounds, 4);
        assert_eq!(f[0].score, 6, "team 1: a win and a draw, 3 MP");
        assert_eq!(f[0].secondary, 10);
        assert_eq!(f[0].colours, vec![Colour::White, Colour::Black]);
        assert!(f[0].floated, "team 1 (2 MP) met team 2 (1 MP) in round 2");
        assert!(f[1].had_bye && f[2].had_bye && !f[0].had_bye);
        assert_eq!(f[1].score, 4);
        let s = standings(3, &rounds, 4);
        assert_eq!(s.iter().map(|r| r.tpn).collect::<Vec<_>>(), vec![1, 2, 3]);
        // Team 1: BH = MP(3) + MP(2) = 1 + 2; SB = 2 × 1 + 1 × 2.
        assert_eq!((s[0].buchholz, s[0].sonneborn_berger), (3, 4));
        assert_eq!((s[1].match_points, s[1].buchholz), (2, 3));
        assert_eq!((s[2].match_points, s[2].game_half_points), (1, 6));
    }
}
