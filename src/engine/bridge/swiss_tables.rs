//! Where the drawn matches of a bridge Swiss teams event are played: the tables and boards of
//! each match, and of a triangle (seed 002, "A Round Robin for an Odd Number of Teams", used
//! by Swiss teams for an odd number of teams instead of a bye).
//!
//! # Boards
//! A match has `b` boards (`boards_per_match`). Round r plays boards (r−1)·s+1 ..= (r−1)·s+b,
//! where s = b, or s = b + b/2 when the event plays triangles: the triangle's extra set Δ is
//! then boards (r−1)·s+b+1 ..= r·s.
//!
//! # A match
//! Match table t of the draw is played at tables 2t−1 (home NS against away EW) and 2t (away
//! NS against home EW), on the round's b boards.
//!
//! # The triangle
//! Three teams X, Y, Z (X the highest-placed) play two half-matches each, b/2 boards a
//! half-match, in a mini Mitchell of three tables after the M matches' 2M tables: EW up one
//! table, boards down one. With S1 the first b/2 boards of the round, S2 the second and Δ the
//! extra set, the three tables of the first half of the round are numbered 2M+1..2M+3, and
//! numbered again 2M+4..2M+6 for the second half:
//!
//! | half | table 1 | table 2 | table 3 |
//! |---|---|---|---|
//! | first | X v Z, S1 | Y v X, S2 | Z v Y, Δ |
//! | second | X v Y, S2 | Y v Z, Δ | Z v X, S1 |
//!
//! (NS team first.) So X v Y is played on S2 (X NS at the second half's table 1, Y NS at the
//! first half's table 2), X v Z on S1, Y v Z on Δ: every half-match on one set at two tables,
//! as a match is. A half-match is scored on the 20-VP scale for its b/2 boards and counts half
//! (its VPs add up to 10), so a triangle team's two half-matches weigh one match.

use crate::engine::bridge::movement::model::TableRound;
use crate::engine::bridge::swiss_history::DrawnMatch;
use crate::engine::bridge::team_event::ScheduledMatch;

/// The boards of an event's rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Boards of a match.
    pub boards: u32,
    /// Whether the event plays a triangle for an odd number of teams.
    pub triangle: bool,
}

impl Layout {
    fn stride(&self) -> u32 {
        if self.triangle {
            self.boards + self.boards / 2
        } else {
            self.boards
        }
    }

    /// The boards the round's matches play.
    pub fn round_boards(&self, round: u32) -> Vec<u32> {
        let first = (round - 1) * self.stride() + 1;
        (first..first + self.boards).collect()
    }

    /// The triangle's extra set Δ of the round.
    pub fn extra_set(&self, round: u32) -> Vec<u32> {
        let first = (round - 1) * self.stride() + self.boards + 1;
        (first..first + self.boards / 2).collect()
    }
}

fn table(table: u32, ns: u32, ew: u32, set: u32, boards: &[u32]) -> TableRound {
    TableRound {
        table,
        ns: Some(ns),
        ew: Some(ew),
        set,
        boards: boards.to_vec(),
        arrow_switch: false,
        section: None,
        half_sets: Vec::new(),
    }
}

/// Every drawn match of a Swiss teams event (in the order given) as a scheduled match with its
/// two tables. A round's triangle is its three half-matches stored as (X, Y), (X, Z), (Y, Z).
pub fn team_tables(
    layout: Layout,
    matches: &[DrawnMatch],
) -> Vec<(ScheduledMatch, [TableRound; 2])> {
    let mut out = Vec::with_capacity(matches.len());
    for m in matches {
        let boards = layout.round_boards(m.round);
        if !m.triangle {
            out.push((
                ScheduledMatch {
                    round: m.round,
                    home: m.home,
                    away: m.away,
                    boards: boards.clone(),
                    home_ns_at: (m.round, 2 * m.table - 1),
                    away_ns_at: (m.round, 2 * m.table),
                },
                [
                    table(2 * m.table - 1, m.home, m.away, m.round, &boards),
                    table(2 * m.table, m.away, m.home, m.round, &boards),
                ],
            ));
            continue;
        }
        // The first half-match of the triangle names X and Y, the second X and Z.
        let mut triangle: Vec<&DrawnMatch> = matches
            .iter()
            .filter(|x| x.round == m.round && x.triangle)
            .collect();
        triangle.sort_by_key(|x| x.table);
        let (Some(f), Some(s)) = (triangle.first(), triangle.get(1)) else {
            continue;
        };
        let (x, y, z) = (f.home, f.away, s.away);
        let before = 2 * matches
            .iter()
            .filter(|o| o.round == m.round && !o.triangle)
            .count() as u32;
        let (s1, s2) = boards.split_at(boards.len() / 2);
        let delta = layout.extra_set(m.round);
        // Every table of a round shows the round's set (the triangle plays parts of it and Δ).
        let r = m.round;
        let t = |k: u32| before + k;
        let (half, tables) = match (m.home, m.away) {
            (h, a) if (h, a) == (x, y) => (
                (s2, (t(4), t(2))),
                [table(t(2), y, x, r, s2), table(t(4), x, y, r, s2)],
            ),
            (h, a) if (h, a) == (x, z) => (
                (s1, (t(1), t(6))),
                [table(t(1), x, z, r, s1), table(t(6), z, x, r, s1)],
            ),
            _ => (
                (&delta[..], (t(5), t(3))),
                [table(t(3), z, y, r, &delta), table(t(5), y, z, r, &delta)],
            ),
        };
        let (half_boards, (home_at, away_at)) = half;
        out.push((
            ScheduledMatch {
                round: m.round,
                home: m.home,
                away: m.away,
                boards: half_boards.to_vec(),
                home_ns_at: (m.round, home_at),
                away_ns_at: (m.round, away_at),
            },
            tables,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(table: u32, home: u32, away: u32, triangle: bool) -> DrawnMatch {
        DrawnMatch {
            round: 2,
            table,
            home,
            away,
            triangle,
        }
    }

    /// Round 2 of 7 teams, 4 boards a match: matches 1 v 2 and 3 v 4 at tables 1–4, the
    /// triangle 5, 6, 7 at tables 5–7 (first half) and 8–10 (second half).
    #[test]
    fn the_triangle_is_a_mini_mitchell_of_three_half_matches() {
        let layout = Layout {
            boards: 4,
            triangle: true,
        };
        assert_eq!(layout.round_boards(2), [7, 8, 9, 10]);
        assert_eq!(layout.extra_set(2), [11, 12]);
        let matches = [
            drawn(1, 1, 2, false),
            drawn(2, 3, 4, false),
            drawn(3, 5, 6, true),
            drawn(4, 5, 7, true),
            drawn(5, 6, 7, true),
        ];
        let placed = team_tables(layout, &matches);
        assert_eq!(placed.len(), 5);
        let mut tables: Vec<u32> = placed
            .iter()
            .flat_map(|(_, t)| t.iter().map(|x| x.table))
            .collect();
        tables.sort_unstable();
        assert_eq!(tables, (1..=10).collect::<Vec<_>>());
        for (m, [a, b]) in &placed {
            // Both tables of a (half-)match play its boards, A's NS against B's EW and back.
            assert_eq!((&a.boards, &b.boards), (&m.boards, &m.boards));
            let seats = [(a.ns, a.ew, a.table), (b.ns, b.ew, b.table)];
            assert!(seats.contains(&(Some(m.home), Some(m.away), m.home_ns_at.1)));
            assert!(seats.contains(&(Some(m.away), Some(m.home), m.away_ns_at.1)));
        }
        let halves: Vec<&Vec<u32>> = placed[2..].iter().map(|(m, _)| &m.boards).collect();
        assert_eq!(halves, [&vec![9, 10], &vec![7, 8], &vec![11, 12]]);
        // Each triangle team's NS and EW play once in each half of the round (5–7, 8–10).
        for team in [5, 6, 7] {
            for half in [5..=7, 8..=10] {
                let seats: Vec<&TableRound> = placed[2..]
                    .iter()
                    .flat_map(|(_, t)| t.iter())
                    .filter(|t| half.contains(&t.table))
                    .collect();
                assert_eq!(seats.iter().filter(|t| t.ns == Some(team)).count(), 1);
                assert_eq!(seats.iter().filter(|t| t.ew == Some(team)).count(), 1);
            }
        }
    }
}
