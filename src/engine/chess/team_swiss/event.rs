//! A team Swiss event from its rounds: each team's facts for the next pairing, and the team
//! standings.
//!
//! Scoring: a match is its boards' game points (half-points here); the team with more game
//! points wins it, 2 match points to the winner, 1 each for a draw, 0 to the loser. The
//! pairing-allocated bye scores as a draw (1.4): 1 match point and half the boards in game
//! points. Match points are the primary score, game points the secondary (1.2.2).
//!
//! Standings: [`super::tiebreak`] (the primary score, then the team tie-breaks of C.07).

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
    let mut ts: Vec<TeamFacts> = (1..=n as u32).map(TeamFacts::new).collect();
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
        use super::super::tiebreak::{default_list, standings, Score, TeamRows};
        use crate::engine::chess::tiebreak_order::TiebreakRules;
        let rows = TeamRows::from_records(3, &rounds, 4);
        let s = standings(
            &rows,
            Score::MatchPoints,
            &default_list(Score::MatchPoints),
            TiebreakRules::C2023,
        );
        assert_eq!(s.iter().map(|r| r.team).collect::<Vec<_>>(), vec![0, 1, 2]);
        // Team 1: BH = MP(3) + MP(2) = 1 + 2; SB = 2 × 1 + 1 × 2.
        assert_eq!((s[0].values[1], s[0].values[2]), (Some(3), Some(4)));
        // Team 2: a bye (dummy: its own 2 MP) and team 1's 3 MP.
        assert_eq!((s[1].primary, s[1].values[1]), (2, Some(5)));
        assert_eq!((s[2].primary, s[2].values[0]), (1, Some(6)));
    }
}
