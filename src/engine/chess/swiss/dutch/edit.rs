//! A director's changes to a draft round of a Dutch section: forced boards with the rest
//! paired again, and a whole pairing of the director's own, compared with the optimum.
//!
//! Forced boards (Dutch) are set aside with their colours and the other players are paired by
//! the Dutch rules as a round of their own. That is a choice: C.04.3 knows no forced board,
//! and neither bbpPairings nor JaVaFo can force one (bbpPairings reads forbidden pairs only),
//! so an arbiter with an endorsed engine forces a board by taking its two players out of the
//! round and pairing the rest; our rest is exactly what bbpPairings pairs when the two are
//! absent for the round (tested), so it can be checked with an endorsed engine. The forced
//! players keep their pairing numbers (they play in this round): only in round 1, where
//! bbpPairings does not number an absent player who has never played, can its colours of
//! the rest differ from ours by E.5. A director's pairing is checked (every player to
//! pair exactly once, the PAB only when the number is odd) and compared criterion by
//! criterion with the Dutch pairing of the round: the absolute criteria (C.1-C.3: rematches,
//! forbidden pairs, two equal absolute colour preferences, the PAB to a player who already
//! had one), the PAB's score (C.5), the boards between different scores and the sum of the
//! score differences (C.6-C.8), the unplayed games of the PAB's player (C.9), in the last
//! round the topscorers and their opponents given a colour difference beyond 2 (C.10) or a
//! colour a third time in a row (C.11), and the colour preferences not granted (C.12) and
//! the strong or absolute ones not granted (C.13).

use super::colour::may_meet;
use super::player::{self, DutchPlayer};
use super::{err, last_round_facts, pair_around, Acceleration};
use crate::engine::chess::swiss::{
    ByeKind, Colour, ExplanationEntry, RoundPairing, SwissError, SwissState,
};
use crate::engine::matching::MatchingSolver;
use std::collections::{HashMap, HashSet};

/// The players to pair this round (present, not withdrawn, no requested bye).
fn to_pair(state: &SwissState) -> HashSet<u32> {
    let out: HashSet<u32> = state
        .requested_byes
        .iter()
        .map(|b| b.player)
        .chain(state.absent.iter().copied())
        .collect();
    state
        .players
        .iter()
        .filter(|p| !p.withdrawn && !out.contains(&p.start_number))
        .map(|p| p.start_number)
        .collect()
}

/// Checks boards of start numbers: each player one to pair this round, none twice.
/// `field` names the list (`pairings[i].white`, ...).
fn check_boards(state: &SwissState, boards: &[(u32, u32)], field: &str) -> Result<(), SwissError> {
    let present = to_pair(state);
    let mut seen = HashSet::new();
    for (i, &(w, b)) in boards.iter().enumerate() {
        for (side, sn) in [("white", w), ("black", b)] {
            let f = format!("{field}[{i}].{side}");
            if !state.players.iter().any(|p| p.start_number == sn) {
                return Err(err(&f, format!("no player {sn}")));
            }
            if !present.contains(&sn) {
                return Err(err(
                    &f,
                    format!("player {sn} is withdrawn, absent or on a requested bye this round"),
                ));
            }
            if !seen.insert(sn) {
                return Err(err(&f, format!("player {sn} is named twice")));
            }
        }
    }
    Ok(())
}

/// Pairs the round around `fixed` boards (`(white, black)` start numbers, colours kept), by
/// the section's system.
pub fn pair_round_with_fixed(
    state: &SwissState,
    fixed: &[(u32, u32)],
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let accel = &Acceleration::for_settings(state, accel.clone());
    check_boards(state, fixed, "fixed")?;
    let mut pairing = pair_around(state, solver, accel, fixed)?;
    let ps = players(state, accel);
    let facts = Facts::new(state, &ps);
    for &(w, b) in fixed {
        if !facts.meet(w, b) {
            pairing.explanation.push(ExplanationEntry::Note {
                message: format!(
                    "forced board {w}-{b} breaks an absolute criterion (rematch, forbidden pair or two equal absolute colour preferences)"
                ),
            });
        }
    }
    Ok(pairing)
}

/// Scores a director's pairing (`boards` as `(white, black)`, `byes`: the PAB, at most one)
/// by the section's system. For `fide_dutch` the result lists the director's boards and a
/// note comparing them with the Dutch pairing of the round.
pub fn evaluate_round_pairing(
    state: &SwissState,
    boards: &[(u32, u32)],
    byes: &[u32],
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let accel = &Acceleration::for_settings(state, accel.clone());
    check_boards(state, boards, "pairings")?;
    let present = to_pair(state);
    let on_board: HashSet<u32> = boards.iter().flat_map(|&(w, b)| [w, b]).collect();
    for (k, &sn) in byes.iter().enumerate() {
        let f = format!("byes[{k}]");
        if !present.contains(&sn) {
            return Err(err(
                &f,
                format!("player {sn} is not one to pair this round"),
            ));
        }
        if on_board.contains(&sn) {
            return Err(err(&f, format!("player {sn} is also paired on a board")));
        }
        if present.len().is_multiple_of(2) {
            return Err(err(
                &f,
                format!(
                    "{} players to pair: an even number gets no pairing bye",
                    present.len()
                ),
            ));
        }
        if k > 0 {
            return Err(err(&f, "at most one pairing bye"));
        }
    }
    let mut missing: Vec<u32> = present
        .iter()
        .copied()
        .filter(|sn| !on_board.contains(sn) && !byes.contains(sn))
        .collect();
    missing.sort_unstable();
    if let Some(sn) = missing.first() {
        return Err(err(
            "pairings",
            format!("player {sn} is neither on a board nor given the bye"),
        ));
    }
    let mut pairing = pair_around(state, solver, accel, boards)?;
    let ps = players(state, accel);
    let facts = Facts::new(state, &ps);
    let mine = facts.quality(boards, byes.first().copied());
    let note = match pair_around(state, solver, accel, &[]) {
        Ok(best) => {
            let best_boards: Vec<(u32, u32)> =
                best.pairings.iter().map(|b| (b.white, b.black)).collect();
            let best_bye = best
                .byes
                .iter()
                .find(|b| b.kind == ByeKind::Pairing)
                .map(|b| b.player);
            let optimum = facts.quality(&best_boards, best_bye);
            compare(
                &mine,
                &optimum,
                boards,
                byes.first().copied(),
                &best_boards,
                best_bye,
            )
        }
        Err(e) => format!(
            "director's pairing: the Dutch rules find no pairing of this round ({})",
            e.message
        ),
    };
    pairing.explanation = vec![ExplanationEntry::Note { message: note }];
    Ok(pairing)
}

fn players(state: &SwissState, accel: &Acceleration) -> Vec<DutchPlayer> {
    player::players(state, &|i, r| accel.of(state.players[i].start_number, r))
}

/// What the comparison needs of the round.
struct Facts<'a> {
    by_sn: HashMap<u32, &'a DutchPlayer>,
    last_round: bool,
    topscore: i64,
    /// Rounds played before this one.
    rounds: i64,
}

/// How many criteria are compared.
const COMPARED: usize = 10;

/// The criteria compared, in the order of C.04.3 (lower is better), with their names.
const CRITERIA: [&str; COMPARED] = [
    "absolute criteria broken (C.1-C.3: rematches, forbidden pairs, equal absolute colour preferences)",
    "PAB to a player who may not receive it (C.2)",
    "PAB score in half-points (C.5)",
    "boards between different scores (C.6-C.8)",
    "sum of score differences in half-points (C.6-C.8)",
    "unplayed games of the PAB's player (C.9)",
    "topscorers or their opponents given a colour difference beyond 2 (C.10)",
    "topscorers or their opponents given a colour a third time in a row (C.11)",
    "colour preferences not granted (C.12)",
    "strong or absolute colour preferences not granted (C.13)",
];

impl<'a> Facts<'a> {
    fn new(state: &SwissState, ps: &'a [DutchPlayer]) -> Self {
        let (last_round, topscore) = last_round_facts(state);
        Facts {
            by_sn: ps.iter().map(|p| (p.sn, p)).collect(),
            last_round,
            topscore,
            rounds: state.rounds_played() as i64,
        }
    }

    fn meet(&self, a: u32, b: u32) -> bool {
        may_meet(
            self.by_sn[&a],
            self.by_sn[&b],
            self.last_round,
            self.topscore,
        )
    }

    /// The values of [`CRITERIA`] for a pairing.
    fn quality(&self, boards: &[(u32, u32)], bye: Option<u32>) -> [i64; COMPARED] {
        let mut q = [0i64; COMPARED];
        for &(w, b) in boards {
            let (pw, pb) = (self.by_sn[&w], self.by_sn[&b]);
            q[0] += i64::from(!self.meet(w, b));
            q[3] += i64::from(pw.score != pb.score);
            q[4] += (pw.score - pb.score).abs();
            let topscorers =
                self.last_round && (pw.score > self.topscore || pb.score > self.topscore);
            for (p, got) in [(pw, Colour::White), (pb, Colour::Black)] {
                if topscorers {
                    let whites = p.colours.iter().filter(|&&c| c == Colour::White).count() as i64;
                    let difference = 2 * whites - p.colours.len() as i64;
                    let after = difference + if got == Colour::White { 1 } else { -1 };
                    q[6] += i64::from(after.abs() > 2);
                    q[7] += i64::from(p.repeated == Some(got));
                }
                if p.preference.is_some_and(|c| c != got) {
                    q[8] += 1;
                    q[9] += i64::from(p.strong || p.absolute());
                }
            }
        }
        if let Some(p) = bye.map(|sn| self.by_sn[&sn]) {
            q[1] = i64::from(!p.bye_eligible);
            q[2] = p.score;
            q[5] = self.rounds - i64::from(p.played_games);
        }
        q
    }
}

/// The note comparing the director's pairing with the Dutch optimum.
fn compare(
    mine: &[i64; COMPARED],
    optimum: &[i64; COMPARED],
    boards: &[(u32, u32)],
    bye: Option<u32>,
    best_boards: &[(u32, u32)],
    best_bye: Option<u32>,
) -> String {
    let pair = |&(w, b): &(u32, u32)| (w.min(b), w.max(b));
    let best: HashSet<(u32, u32)> = best_boards.iter().map(pair).collect();
    let differ = boards.iter().filter(|b| !best.contains(&pair(b))).count();
    let colours: HashSet<(u32, u32)> = best_boards.iter().copied().collect();
    let recoloured = boards
        .iter()
        .filter(|b| best.contains(&pair(b)) && !colours.contains(b))
        .count();
    if differ == 0 && recoloured == 0 && bye == best_bye {
        return "director's pairing: identical to the Dutch pairing of this round".into();
    }
    let mut text = format!(
        "director's pairing against the Dutch pairing: {differ} of {} boards differ, {recoloured} with colours reversed",
        boards.len()
    );
    if bye != best_bye {
        let name = |b: Option<u32>| b.map_or("none".to_string(), |s| format!("player {s}"));
        text.push_str(&format!(
            "; PAB {} instead of {}",
            name(bye),
            name(best_bye)
        ));
    }
    let lost: Vec<String> = (0..CRITERIA.len())
        .filter(|&k| mine[k] > optimum[k])
        .map(|k| format!("{} {} vs {}", CRITERIA[k], mine[k], optimum[k]))
        .collect();
    let gained: Vec<String> = (0..CRITERIA.len())
        .filter(|&k| mine[k] < optimum[k])
        .map(|k| format!("{} {} vs {}", CRITERIA[k], mine[k], optimum[k]))
        .collect();
    if lost.is_empty() {
        text.push_str("; it loses on none of the compared criteria (the Dutch pairing wins on one not compared: the finer order of C.6-C.8, the floats of C.14-C.21 or the order of pairing numbers)");
    } else {
        text.push_str(&format!("; it loses on: {}", lost.join("; ")));
    }
    if !gained.is_empty() {
        text.push_str(&format!(
            "; better on a lower criterion: {}",
            gained.join("; ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::matching::BlossomSolver;

    /// Six players after round 1 (1-4, 5-2, 3-6: 1, 5 and 3 won).
    fn state() -> SwissState {
        let json = serde_json::json!({
            "settings": {"system": "fide_dutch", "total_rounds": 5, "first_colour": "white"},
            "players": [
                {"start_number": 1, "rating": 2400, "history": [{"opponent": 4, "colour": "white", "result": "win"}]},
                {"start_number": 2, "rating": 2300, "history": [{"opponent": 5, "colour": "black", "result": "loss"}]},
                {"start_number": 3, "rating": 2200, "history": [{"opponent": 6, "colour": "white", "result": "win"}]},
                {"start_number": 4, "rating": 2100, "history": [{"opponent": 1, "colour": "black", "result": "loss"}]},
                {"start_number": 5, "rating": 2000, "history": [{"opponent": 2, "colour": "white", "result": "win"}]},
                {"start_number": 6, "rating": 1900, "history": [{"opponent": 3, "colour": "black", "result": "loss"}]}
            ]
        });
        serde_json::from_value(json).expect("state")
    }

    fn pairs(p: &RoundPairing) -> Vec<(u32, u32)> {
        p.pairings.iter().map(|b| (b.white, b.black)).collect()
    }

    fn note(p: &RoundPairing) -> String {
        p.explanation
            .iter()
            .filter_map(|e| match e {
                ExplanationEntry::Note { message } => Some(message.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    #[test]
    fn forced_board_kept_and_the_rest_paired_by_the_dutch_rules() {
        let s = state();
        let none = Acceleration::none();
        let best = pair_around(&s, &BlossomSolver, &none, &[]).unwrap();
        // The winners 1, 3, 5 and the losers 2, 4, 6: force 1 against 6 (a float each).
        let forced = pair_round_with_fixed(&s, &[(6, 1)], &BlossomSolver, &none).unwrap();
        let got = pairs(&forced);
        assert!(got.contains(&(6, 1)), "{got:?}");
        assert_eq!(got.len(), 3);
        // The rest is the Dutch pairing of the four others as a round of their own.
        let mut rest = s.clone();
        rest.absent = vec![1, 6];
        let alone = pair_around(&rest, &BlossomSolver, &none, &[]).unwrap();
        for b in pairs(&alone) {
            assert!(got.contains(&b), "{b:?} of {got:?}");
        }
        assert_ne!(pairs(&best), got);
        assert!(note(&forced).contains("1 forced boards"));
    }

    #[test]
    fn forcing_a_rematch_is_noted() {
        let s = state();
        let forced =
            pair_round_with_fixed(&s, &[(4, 1)], &BlossomSolver, &Acceleration::none()).unwrap();
        assert!(note(&forced).contains("breaks an absolute criterion"));
    }

    #[test]
    fn the_dutch_pairing_itself_is_identical_and_a_worse_one_loses() {
        let s = state();
        let none = Acceleration::none();
        let best = pair_around(&s, &BlossomSolver, &none, &[]).unwrap();
        let same = evaluate_round_pairing(&s, &pairs(&best), &[], &BlossomSolver, &none).unwrap();
        assert!(note(&same).contains("identical"), "{}", note(&same));
        assert_eq!(pairs(&same), pairs(&best));
        // A rematch and floats: 1-4 again, 3-2, 5-6.
        let worse =
            evaluate_round_pairing(&s, &[(4, 1), (3, 2), (5, 6)], &[], &BlossomSolver, &none)
                .unwrap();
        let n = note(&worse);
        assert!(n.contains("it loses on: absolute criteria broken"), "{n}");
        assert!(
            n.contains("boards between different scores (C.6-C.8) 3 vs 1"),
            "{n}"
        );
    }

    #[test]
    fn a_director_pairing_missing_a_player_or_repeating_one_is_refused() {
        let s = state();
        let none = Acceleration::none();
        let e =
            evaluate_round_pairing(&s, &[(1, 3), (5, 2)], &[], &BlossomSolver, &none).unwrap_err();
        assert_eq!(e.field, "pairings");
        let e = evaluate_round_pairing(&s, &[(1, 3), (5, 3), (2, 4)], &[], &BlossomSolver, &none)
            .unwrap_err();
        assert_eq!(e.field, "pairings[1].black");
        let e =
            evaluate_round_pairing(&s, &[(1, 3), (5, 2)], &[4], &BlossomSolver, &none).unwrap_err();
        assert_eq!(e.field, "byes[0]");
    }
}
