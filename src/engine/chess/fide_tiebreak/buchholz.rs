//! The Buchholz family and Sonneborn-Berger (C.07 art. 8, 9.1, 14, 16): each round's
//! contribution, the dummy opponent of a player's own unplayed rounds, and the cuts.

use super::rounds::{Cell, Rows};
use crate::engine::chess::tiebreak_order::{Code, Tiebreak, TiebreakRules};

/// One round's element of a player's Buchholz or Sonneborn-Berger.
/// Team tie-breaks ([`crate::engine::chess::team_swiss::tiebreak`]) cut their elements with
/// the same rules.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Element {
    /// A voluntarily unplayed round (cut first, art. 16.5).
    pub vur: bool,
    /// The opponent's adjusted score, or the dummy's (half-points).
    pub score: i64,
    /// The contribution: the score (Buchholz), times the points scored in the round
    /// (Sonneborn-Berger, quarter points).
    pub value: i64,
}

/// The values of `BH`, `FB` or `SB` (and the Buchholz behind `AOB`) with their modifiers, in
/// half-points (quarter points for `SB`).
pub(super) fn values(
    rows: &Rows,
    tb: &Tiebreak,
    rules: TiebreakRules,
    final_round: usize,
) -> Vec<i64> {
    let fore = tb.code == Code::FB || (tb.code == Code::AOB && tb.fore);
    let sonneborn = tb.code == Code::SB;
    let scores = rows.scores(fore.then_some(final_round));
    let r = rows.rounds();
    (0..rows.len())
        .map(|p| {
            let own = scores[p].1;
            let mut elements = Vec::with_capacity(r);
            for (k, &cell) in rows.cells[p].iter().enumerate() {
                let as_played = match cell {
                    Cell::Played { opponent, half, .. } => Some((opponent, half)),
                    Cell::Forfeit { opponent, half }
                        if rows.predetermined
                            || tb.forfeits_played
                            || (fore && k + 1 == final_round) =>
                    {
                        Some((opponent, half))
                    }
                    _ => None,
                };
                let (score, vur, half) = match (as_played, cell) {
                    (Some((opponent, half)), _) => (scores[opponent].0, false, half),
                    (None, Cell::Pending { .. }) => continue,
                    // pre-determined pairings: a round without an opponent is no round
                    (None, Cell::Bye { .. }) if rows.predetermined => continue,
                    (None, Cell::Forfeit { opponent, half }) => {
                        let dummy = match rules {
                            TiebreakRules::C2023 => own,
                            // art. 16.4.1: no more than the scheduled opponent's adjusted score
                            TiebreakRules::C2026 => own.min(scores[opponent].0),
                        };
                        (dummy, cell.voluntary(), half)
                    }
                    (None, _) => {
                        let dummy = match rules {
                            TiebreakRules::C2023 => own,
                            // art. 16.4.2: no more than a draw in every round
                            TiebreakRules::C2026 => own.min(r as i64),
                        };
                        (dummy, cell.voluntary(), cell.half())
                    }
                };
                elements.push(Element {
                    vur,
                    score,
                    value: if sonneborn {
                        score * half as i64
                    } else {
                        score
                    },
                });
            }
            let low = (tb.cut_low as usize).min(r);
            let high = (tb.cut_high as usize).min(r - low);
            cut(&mut elements, low, high);
            elements.iter().map(|e| e.value).sum()
        })
        .collect()
}

/// Cuts `low` least significant elements, then `high` most significant ones (art. 14,
/// 16.5). The least significant element is the one with the lowest score (the lowest
/// opponent's, or the dummy's), the lower contribution among equal scores, the earlier round
/// among equal ones. While the player has voluntarily unplayed rounds, the one with the
/// lowest contribution among them is cut instead, unless its contribution is lower than the
/// least significant element's (then that one is). The most significant is the highest score
/// (then contribution); a high cut makes no exception.
pub(crate) fn cut(elements: &mut Vec<Element>, low: usize, high: usize) {
    for _ in 0..low {
        let Some(least) = position_min(elements, |e| (e.score, e.value)) else {
            return;
        };
        let victim = match position_min(elements, |e| (!e.vur, e.value, e.score)) {
            Some(v) if elements[v].vur && elements[v].value >= elements[least].value => v,
            _ => least,
        };
        elements.remove(victim);
    }
    for _ in 0..high {
        let Some(most) = position_min(elements, |e| (-e.score, -e.value)) else {
            return;
        };
        elements.remove(most);
    }
}

/// The first element with the smallest key.
fn position_min<K: Ord>(elements: &[Element], key: impl Fn(&Element) -> K) -> Option<usize> {
    elements
        .iter()
        .enumerate()
        .min_by(|a, b| key(a.1).cmp(&key(b.1)).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
}

/// AOB (art. 8.2): the average, over the games played over the board, of the opponents'
/// Buchholz (`/F`: Fore Buchholz), in hundredths of a point rounded half up; `None` for a
/// player without such a game.
pub(super) fn average_of_buchholz(
    rows: &Rows,
    tb: &Tiebreak,
    rules: TiebreakRules,
    final_round: usize,
) -> Vec<Option<i64>> {
    let buchholz = values(rows, tb, rules, final_round);
    (0..rows.len())
        .map(|p| {
            let met: Vec<i64> = rows.cells[p]
                .iter()
                .filter_map(|c| match c {
                    Cell::Played { opponent, .. } => Some(buchholz[*opponent]),
                    _ => None,
                })
                .collect();
            (!met.is_empty()).then(|| {
                crate::engine::chess::rating::round_half_up(
                    met.iter().sum::<i64>() * 50,
                    met.len() as i64,
                )
            })
        })
        .collect()
}
