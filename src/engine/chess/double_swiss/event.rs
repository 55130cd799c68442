//! A Double-Swiss event from its rounds as played: each player's facts for pairing the next
//! round (see the module doc of [`super`] for what the Preface and 1.5-1.6 make of them).

use crate::engine::chess::games::GameResult;
use crate::engine::chess::swiss::Colour;
use crate::engine::chess::team_swiss::TeamFacts;

/// A match as played: the player with White in the first game, the other, and the two games'
/// results (the first with `white` as White, the second with `black` as White).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchRecord {
    pub white: u32,
    pub black: u32,
    pub games: [GameResult; 2],
}

impl MatchRecord {
    /// Half-points of (white, black) over both games.
    pub fn half_points(&self) -> (u32, u32) {
        let (w1, b1) = self.games[0].half_points();
        let (w2, b2) = self.games[1].half_points();
        (w1 + b2, b1 + w2)
    }

    /// Whether (white, black) forfeited both games: the match then ends by forfeit.
    pub fn forfeited_both(&self) -> (bool, bool) {
        let white_absent =
            |g: GameResult| matches!(g, GameResult::BlackForfeitWin | GameResult::DoubleForfeit);
        let black_absent =
            |g: GameResult| matches!(g, GameResult::WhiteForfeitWin | GameResult::DoubleForfeit);
        let [g1, g2] = self.games;
        // In the second game the colours are reversed.
        (
            white_absent(g1) && black_absent(g2),
            black_absent(g1) && white_absent(g2),
        )
    }

    /// The match ended by forfeit (a player forfeited both games).
    pub fn by_forfeit(&self) -> bool {
        let (w, b) = self.forfeited_both();
        w || b
    }

    /// At least one of its games was played over the board: the players had colours (1.6).
    pub fn had_colours(&self) -> bool {
        self.games.iter().any(|g| g.played())
    }
}

/// A round as played: its matches and the pairing-allocated bye.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundRecord {
    pub matches: Vec<MatchRecord>,
    pub bye: Option<u32>,
}

/// Each player's facts (by TPN, `n` players) after these rounds, for pairing the next one.
/// The pairing-allocated bye scores `bye_half_points` (1.4; [`super::DEFAULT_BYE_HALF_POINTS`]
/// unless the rules of the tournament say otherwise).
pub fn facts(n: usize, rounds: &[RoundRecord], bye_half_points: u32) -> Vec<TeamFacts> {
    let mut ps: Vec<TeamFacts> = (1..=n as u32).map(TeamFacts::new).collect();
    for r in rounds {
        let before: Vec<u32> = ps.iter().map(|p| p.score).collect();
        for p in &mut ps {
            p.floated = false;
        }
        if let Some(b) = r.bye {
            let p = &mut ps[b as usize - 1];
            p.score += bye_half_points;
            p.had_bye = true;
        }
        for m in &r.matches {
            let (w, b) = (m.white as usize - 1, m.black as usize - 1);
            let (hw, hb) = m.half_points();
            ps[w].score += hw;
            ps[b].score += hb;
            if m.by_forfeit() {
                // [C2]: the one who scored more won the match by forfeit; no meeting, no
                // colour, no float.
                if hw > hb {
                    ps[w].had_bye = true;
                } else if hb > hw {
                    ps[b].had_bye = true;
                }
                continue;
            }
            for (x, y, c) in [(w, b, Colour::White), (b, w, Colour::Black)] {
                let p = &mut ps[x];
                p.opponents.push(y as u32 + 1);
                if m.had_colours() {
                    p.colours.push(c);
                }
                p.floated = before[x] != before[y];
            }
        }
    }
    ps
}
