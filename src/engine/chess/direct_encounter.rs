//! Direct encounter (`direct_encounter`) as the FIDE Tie-Break Regulations (Handbook C.07,
//! 2023) rank a tie, as a director checks it by hand.
//!
//! The **tie** is the group of players still equal when direct encounter is reached in the
//! event's tie-break order: equal on points and on every tie-break listed before it.
//!
//! 1. **Score.** Each player of the tie scores the points of their games against the other
//!    players of the tie; against an opponent met more than once (a double round robin) the
//!    average of those games counts. In a Swiss only games played over the board are
//!    meetings (a forfeit is not; `DE/P`: it is); in a round robin (and the scheduled games
//!    of a team event) a forfeit counts as the game against the scheduled opponent.
//! 2. **Everyone met** (every two players of the tie met; a round robin always counts as
//!    such): the players rank by that score; equal scores stay tied.
//! 3. **Not everyone met** (a Swiss): a player's **maximum** is the score plus a win for every
//!    player of the tie not met. Going down the tie ordered by score, then maximum, a player
//!    is placed alone above the rest only when their score is higher than every maximum of
//!    the rest (nobody below could have caught up); the first time that fails, all the rest
//!    stay tied.
//! 4. **Again within each smaller tie.** Steps 1-3 are applied again to each group still tied
//!    that is smaller than the tie it came from, counting only the games among its own
//!    players. A group that does not split stays tied: the next tie-break decides.
//!
//! ### Worked example (the tests hold more)
//! A round robin; A, B, C and D tie on points. Among them A beat B, B beat C, C beat A, and D
//! drew with each: everyone scores 1½, nobody is separated, the next tie-break decides. Had D
//! beaten C instead: D 2, A 1½, B 1½, C 1. D is first; A and B tie, and between the two of
//! them alone (step 4) A's win places A above B; C is last.
//!
//! Points are counted in half-points; a score with averages is kept exact as a multiple of
//! 1/840 half-point (840 is divisible by every number of meetings from 1 to 8).

use std::collections::BTreeMap;

use crate::engine::chess::games::ScoredGame;

/// The scale of a score: averages over up to 8 meetings stay whole numbers.
const SCALE: u64 = 840;

/// The games as each player sees them, for ranking ties by direct encounter.
pub struct DirectEncounter {
    /// Per player: (opponent, half-points scored) of every game that is a meeting.
    meetings: Vec<Vec<(usize, u32)>>,
    round_robin: bool,
}

impl DirectEncounter {
    /// `games` of players `0..n`; `round_robin` counts forfeits as meetings (step 1) and
    /// every tie as one whose players all met (step 2).
    pub fn new(n: usize, games: &[ScoredGame], round_robin: bool) -> DirectEncounter {
        DirectEncounter::with_forfeits(n, games, round_robin, round_robin)
    }

    /// [`DirectEncounter::new`] with forfeits counted as meetings on their own (`DE/P`).
    pub fn with_forfeits(
        n: usize,
        games: &[ScoredGame],
        round_robin: bool,
        forfeits_meet: bool,
    ) -> DirectEncounter {
        let mut meetings = vec![Vec::new(); n];
        for g in games {
            let Some(r) = g.result else { continue };
            if !forfeits_meet && !r.played() {
                continue;
            }
            let (w, b) = r.half_points();
            meetings[g.white].push((g.black, w));
            meetings[g.black].push((g.white, b));
        }
        DirectEncounter {
            meetings,
            round_robin,
        }
    }

    /// Half-points each player of `tie` (in its order) scored in the meetings with the others
    /// of the tie (every game counted whole: what a standings line shows).
    pub fn points(&self, tie: &[usize]) -> Vec<u32> {
        let within = self.members(tie);
        tie.iter()
            .map(|&p| {
                self.meetings[p]
                    .iter()
                    .filter(|(q, _)| within[*q])
                    .map(|(_, half)| half)
                    .sum()
            })
            .collect()
    }

    /// Whether each player is one of `tie` (so a pass costs the tie's games, not its square).
    fn members(&self, tie: &[usize]) -> Vec<bool> {
        let mut within = vec![false; self.meetings.len()];
        for &p in tie {
            within[p] = true;
        }
        within
    }

    /// Ranks `tie` (players, in any order): one key per player in `tie` order, higher ranks
    /// first; equal keys stay tied.
    pub fn rank(&self, tie: &[usize]) -> Vec<u32> {
        let classes = self.classes(tie.to_vec());
        let count = classes.len() as u32;
        let mut key_of = vec![0; self.meetings.len()];
        for (i, class) in classes.iter().enumerate() {
            for &p in class {
                key_of[p] = count - i as u32;
            }
        }
        tie.iter().map(|&p| key_of[p]).collect()
    }

    /// The tie split into ranked groups, best first (steps 1-4).
    fn classes(&self, tie: Vec<usize>) -> Vec<Vec<usize>> {
        let split = self.split_once(&tie);
        if split.len() == 1 {
            return split;
        }
        split
            .into_iter()
            .flat_map(|group| {
                if group.len() > 1 {
                    self.classes(group)
                } else {
                    vec![group]
                }
            })
            .collect()
    }

    /// Steps 1-3 on one tie: its groups, best first.
    fn split_once(&self, tie: &[usize]) -> Vec<Vec<usize>> {
        let others = tie.len() as u64 - 1;
        let within = self.members(tie);
        // (player, score, maximum)
        let mut rows: Vec<(usize, u64, u64)> = Vec::with_capacity(tie.len());
        let mut everyone_met = true;
        for &p in tie {
            let mut against: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
            for &(q, half) in &self.meetings[p] {
                if q != p && within[q] {
                    let e = against.entry(q).or_default();
                    e.0 += half as u64;
                    e.1 += 1;
                }
            }
            let score: u64 = against
                .values()
                .map(|&(sum, count)| sum * SCALE / count)
                .sum();
            let unmet = others - against.len() as u64;
            everyone_met &= unmet == 0;
            rows.push((p, score, score + unmet * 2 * SCALE));
        }
        if self.round_robin || everyone_met {
            rows.sort_by_key(|r| std::cmp::Reverse(r.1));
            let mut groups: Vec<Vec<usize>> = Vec::new();
            let mut last = None;
            for (p, score, _) in rows {
                match groups.last_mut() {
                    Some(g) if last == Some(score) => g.push(p),
                    _ => groups.push(vec![p]),
                }
                last = Some(score);
            }
            return groups;
        }
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)));
        let mut groups = Vec::new();
        for i in 0..rows.len() {
            let rest_max = rows[i + 1..].iter().map(|r| r.2).max();
            if rest_max.is_none_or(|m| rows[i].1 > m) {
                groups.push(vec![rows[i].0]);
            } else {
                groups.push(rows[i..].iter().map(|r| r.0).collect());
                break;
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::chess::games::{GameResult, GameResult::*};

    fn g(white: usize, black: usize, r: GameResult) -> ScoredGame {
        ScoredGame {
            round: 1,
            white,
            black,
            result: Some(r),
        }
    }

    /// The module doc's example: A 0, B 1, C 2, D 3.
    #[test]
    fn the_worked_example() {
        let mut games = vec![
            g(0, 1, WhiteWin),
            g(1, 2, WhiteWin),
            g(2, 0, WhiteWin),
            g(0, 3, Draw),
            g(1, 3, Draw),
            g(2, 3, Draw),
        ];
        let de = DirectEncounter::new(4, &games, true);
        assert_eq!(de.points(&[0, 1, 2, 3]), vec![3, 3, 3, 3]);
        assert_eq!(
            de.rank(&[0, 1, 2, 3]),
            vec![1, 1, 1, 1],
            "nobody is separated"
        );
        games[5] = g(2, 3, BlackWin);
        let de = DirectEncounter::new(4, &games, true);
        // D 2 points first; A and B 1½ tied, then A beat B; C 1 last.
        assert_eq!(de.points(&[0, 1, 2, 3]), vec![3, 3, 2, 4]);
        assert_eq!(de.rank(&[0, 1, 2, 3]), vec![3, 2, 1, 4]);
        // The same tie in another order gets the same keys, player by player.
        assert_eq!(de.rank(&[3, 2, 1, 0]), vec![4, 1, 2, 3]);
    }

    #[test]
    fn a_swiss_tie_where_not_everyone_met() {
        // Players 0, 1, 2 tied. 0 beat 1; 2 met neither. Scores: 0 1, 1 0, 2 0.
        // Maxima: 0: 1 + a win against 2 = 2; 1: 0 + 1 = 1; 2: 0 + 2 = 2. 0's score (1) is
        // not above 2's maximum (2): nobody is separated.
        let games = [g(0, 1, WhiteWin)];
        let de = DirectEncounter::new(3, &games, false);
        assert_eq!(de.rank(&[0, 1, 2]), vec![1, 1, 1]);
        // 0 also beat 2: everyone 0 met, 1 and 2 did not meet. 0 has 2 (max 2), 1 and 2 have 0
        // (max 1 each): 0 is placed first; 1 and 2 stay tied (they never met).
        let games = [g(0, 1, WhiteWin), g(2, 0, BlackWin)];
        let de = DirectEncounter::new(3, &games, false);
        assert_eq!(de.rank(&[0, 1, 2]), vec![2, 1, 1]);
        // A forfeit is no meeting in a Swiss: 0's forfeit win over 1 leaves the tie unbroken.
        let games = [g(0, 1, WhiteForfeitWin)];
        assert_eq!(
            DirectEncounter::new(2, &games, false).rank(&[0, 1]),
            vec![1, 1]
        );
        // ... but in a round robin it is the game against the scheduled opponent.
        assert_eq!(
            DirectEncounter::new(2, &games, true).rank(&[0, 1]),
            vec![2, 1]
        );
    }

    #[test]
    fn a_double_round_robin_averages_the_meetings() {
        // Players 0, 1, 2 tied; 0-1: 1-0 and ½; 0-2 0-1 once; 1-2 ½ twice; 0-2 not replayed
        // yet: averages 0: ¾ + 0 = ¾; 1: ¼ + ½ = ¾; 2: 1 + ½ = 1½. 2 first, 0 and 1 tied,
        // then between themselves 0 leads 1½ to ½ (average ¾ to ¼): 0 above 1.
        let games = [
            g(0, 1, WhiteWin),
            g(1, 0, Draw),
            g(2, 0, WhiteWin),
            g(1, 2, Draw),
            g(2, 1, Draw),
        ];
        let de = DirectEncounter::new(3, &games, true);
        assert_eq!(de.rank(&[0, 1, 2]), vec![2, 1, 3]);
        assert_eq!(de.points(&[0, 1]), vec![3, 1]);
    }
}
