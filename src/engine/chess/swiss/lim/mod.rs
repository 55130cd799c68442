//! The FIDE Lim system (C.04.4.3, the text in force from 1 February 2026), on the exact
//! matching engine of the Dutch system ([`crate::engine::chess::swiss::dutch::lex`]).
//!
//! # The facts of a player
//! * Score (half-points) and pairing number (the start-number position among the players of
//!   the round and of earlier rounds; #1 is the "highest numbered" player in the text's words).
//! * Colours of the games played over the board (forfeits and byes leave none, General
//!   Handling Rules 3.4). The *due colour*: the one he has had fewer times, else the one
//!   alternating from his last game (Basic Rules 8; 5.5, 5.6); when he may not take it
//!   (5.1.1) the other; none before his first game.
//! * Floated in the last round: a game played against another score, or points without a
//!   game (a bye of a half or a full point, a forfeit win).
//!
//! # Compatibility (2.1) and completion
//! Two players are compatible when they have not met (a game not played does not count,
//! General Handling Rules 3.5), the director has not forbidden the pair, and one colour each
//! keeps both within 5.1.1 (no colour three times in a row) and 5.1.2 (never three more of
//! one colour); in the last round two players of the same score need only not have met (6).
//! Every group's choice leaves the rest of the round pairable, which stands in for the
//! cracking of a blocked median group (2.6): its only purpose is a complete pairing.
//!
//! # The bye (1.1)
//! The lowest ranked (largest pairing number) eligible player (Basic Rules 4) of the lowest
//! score group, the first in that order whose absence leaves the others pairable.
//!
//! # The order of the groups (2.2)
//! The median score is half the rounds played. The groups above it are paired from the top
//! down, each sending its floaters to the next lower group; then the groups below it from
//! the bottom up, each sending its floaters to the next higher; the median group last,
//! downward, with the floaters from both sides (it may have no residents of its own).
//!
//! # A group: one lexicographic matching, tiers highest first
//! Its players are the floaters it receives and its residents. The scrutiny order (4.1,
//! 3.6, 3.7): floaters from above (the highest score, then the highest numbered first),
//! floaters from below (the lowest score, then the lowest numbered first), then the
//! residents from #1 down (from the last up when pairing upwards). One solve chooses the
//! group's boards and its floaters:
//! 1. the fewest floaters (2.3; 3.10.2 and 4.4: pairings of the group are not given up);
//! 2. 3.9.2: the fewest floaters of type a (received, no compatible opponent in the next
//!    group), then b (received), then c (no compatible opponent in the next group);
//! 3. 3.10: the fewest floaters who floated in the last round;
//! 4. 5.2 (the second scrutiny): the fewest players not given their due colour;
//! 5. the floaters' places: one tier per player in scrutiny order, "floats" (3.2.4, 3.3,
//!    3.4: the lowest numbered floats when pairing downward, the highest upward);
//! 6. the exchanges (4.1-4.3): one tier per player in scrutiny order, the place of his
//!    opponent in his exchange order. A resident's order is the lower half of the residents
//!    in order, then the upper half from its last up (4.2: #1 of six looks at 4, 5, 6, 3, 2;
//!    #2, 4.3: 4, 5, 3 and then, by exchanging #1's opponent, 6 and 1); a floater's order is
//!    the group's players from the highest numbered down (upward: from the lowest up) (3.8).
//!
//! *Example.* Six players drew round 1 (1-4, 5-2, 3-6): 1, 3, 5 are due Black, 2, 4, 6
//! White. #1's exchange order is 4, 5, 6, 3, 2: he has met 4, and 5 is due Black like him,
//! so the colour tier gives him 6; #2's order is then 4 (due White like him), 5 (met), 3:
//! boards 6-1, 2-3, 4-5, every player his due colour. With no colours at stake (round 1,
//! 1 forbidden to meet 4 and 5), the exchanges alone give 1-6, 4-2, 3-5 (4.2).
//! (`tests_rules.rs` holds these cases, one rule each.)
//!
//! When the group's own solve leaves floaters the rest of the round cannot absorb, the group
//! is solved again over every player still to pair (a member matched outside the group
//! floats; tier 1 then counts them), so the round always completes when it can.
//!
//! # Colours (5.3-5.6, 7.2)
//! Both yet to play: the higher ranked (score, then pairing number) gets the colour drawn for
//! #1 when his number is odd (7.2). Else a colour 5.1.1 or 5.1.2 rules out is not given (5.3);
//! else both due colours when they differ (one player without a due colour: the other's);
//! else, both due the same colour, the histories read back from the last game decide: at the
//! most recent round where they differ each gets the colour he did not have then (5.4);
//! identical histories: the higher ranked gets it in a group at or above the median, the lower
//! ranked below it.
//!
//! # Where the text leaves a choice
//! * 5.2's second scrutiny (colours) ranks above the exchange order of 4.1-4.3, and 3.2.2
//!   (the floater who equalises the due colours) is read as that colour tier: the text does
//!   the compatibility scrutiny first and then exchanges again for colours.
//! * Type a and b floaters of 3.9 are those who arrived in the group being paired this round;
//!   3.10's "floated the round just before" is applied to every floater, not only to the one
//!   making a group even.
//! * The Maxi-tournament limits of 3.2.3, 3.8 and 5.7 (100 rating points) are not applied:
//!   the section has no such setting.
//! * A group of floaters only (the median without residents) is paired like any other.
//! * Due colour: equalising wins over alternating when they differ (Basic Rules 8).
//! * Boards are listed by the General Handling Rules 3.6 (score of the higher ranked, sum of
//!   scores, pairing number of the higher ranked). The PAB scores 1 point.
//! * Forced boards (a director's draft edit): the forced players leave the round, the rest is
//!   paired by the rules (as Burstein and Dubov).
//!
//! # Speed
//! A group whose proposed pairing (2.4) stands (compatible, every due colour granted, the
//! parity floater the last resident) needs no solve: round 1 is that. The fewest floaters
//! of a group are found by halving the number of sinks. Figures (release build, 2-core
//! machine shared with other builds): `tourney simulate --players 1000 --rounds 9 --system
//! fide_lim --seed 1` at most 0.37 s a round; `tourney bench-swiss --players 1000 --system
//! fide_lim --round R` (greedy histories) round 2 0.81 s, round 6 0.08 s, round 3 1.30 s (280
//! floaters); hence the bound [`crate::limits::MAX_LIM_PLAYERS`].

mod pair;
pub(crate) mod player;

#[cfg(test)]
mod check;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_rules;

use crate::engine::chess::swiss::around::{forced_note, round_pairing, AroundRules};
use crate::engine::chess::swiss::dutch::initial_colour;
use crate::engine::chess::swiss::round::{decided_byes, pairing_positions};
use crate::engine::chess::swiss::{Colour, RoundPairing, SwissError, SwissState};
use crate::engine::matching::MatchingSolver;
use pair::{Field, PairError};
use player::{colour_options, LimPlayer};
use std::collections::{HashMap, HashSet};

fn err(field: &str, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.into(),
        message: message.into(),
    }
}

/// Ranks above: more points, or as many and a smaller pairing number.
pub(crate) fn ranks_above(a: &LimPlayer, b: &LimPlayer) -> bool {
    (a.score, std::cmp::Reverse(a.tpn)) > (b.score, std::cmp::Reverse(b.tpn))
}

/// The colour of `p` against `o` (5.3-5.6, 7.2); `upper`: the board was paired in a group at
/// or above the median.
pub(crate) fn colour_of(p: &LimPlayer, o: &LimPlayer, upper: bool, initial: Colour) -> Colour {
    let p_higher = ranks_above(p, o);
    if p.colours.is_empty() && o.colours.is_empty() {
        let higher = if p_higher { p } else { o };
        let c = if higher.tpn.is_multiple_of(2) {
            initial
        } else {
            initial.opposite()
        };
        return if p_higher { c } else { c.opposite() };
    }
    match colour_options(p, o) {
        (true, false) => return Colour::White,
        (false, true) => return Colour::Black,
        _ => {}
    }
    match (p.due, o.due) {
        (Some(a), Some(b)) if a != b => return a,
        (Some(a), None) => return a,
        (None, Some(b)) => return b.opposite(),
        _ => {}
    }
    let due = p.due.expect("both have played");
    if let Some(mine) = p
        .colours
        .iter()
        .rev()
        .zip(o.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, _)| *x)
    {
        return mine.opposite();
    }
    if p_higher == upper {
        due
    } else {
        due.opposite()
    }
}

/// The round to pair: its players' facts (pairing numbers renumbered for the round).
fn facts(state: &SwissState, out: &HashSet<u32>) -> Vec<LimPlayer> {
    let mut all = player::players(state);
    for (p, k) in all.iter_mut().zip(pairing_positions(state, out)) {
        if let Some(k) = k {
            p.tpn = k;
        }
    }
    all
}

/// Pairs the round around `fixed` boards (`(white, black)`, checked by the caller): the
/// others are paired as if the fixed players were not in the round.
fn pair_around(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    fixed: &[(u32, u32)],
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let round = state.round_to_pair();
    let (byes, out) = decided_byes(state);
    let all = facts(state, &out);
    let forced: HashSet<u32> = fixed.iter().flat_map(|&(w, b)| [w, b]).collect();
    let order: Vec<usize> = (0..state.players.len())
        .filter(|&i| {
            let p = &state.players[i];
            !p.withdrawn && !out.contains(&p.start_number) && !forced.contains(&p.start_number)
        })
        .collect();
    if order.len() < 2 && fixed.is_empty() {
        return Err(err("players", "fewer than two players to pair"));
    }
    let field = Field {
        ps: order.iter().map(|&i| &all[i]).collect(),
        median: i64::from(round.saturating_sub(1)),
        last_round: state.settings.total_rounds > 0 && round >= state.settings.total_rounds,
    };
    let paired = pair::pair(&field, solver).map_err(|e| match e {
        PairError::Impossible => err(
            "players",
            "no pairing satisfies the compatibility of article 2.1 (rematches, forbidden pairs, colours)",
        ),
        PairError::NoBye => err(
            "players",
            "no player may receive the pairing-allocated bye (each has had one or a full point without playing)",
        ),
        PairError::Solver(s) => err("players", s),
    })?;
    let initial = initial_colour(state);
    let by_sn: HashMap<u32, usize> = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_number, i))
        .collect();
    // 3.6 of the General Handling Rules: the higher ranked's score, the sum, his number.
    let key = |i: usize, j: usize| {
        let (hi, lo) = if ranks_above(&all[i], &all[j]) {
            (i, j)
        } else {
            (j, i)
        };
        (
            -all[hi].score,
            -(all[hi].score + all[lo].score),
            all[hi].tpn,
        )
    };
    let mut boards: Vec<((i64, i64, usize), u32, u32)> = paired
        .boards
        .iter()
        .map(|&(a, b, score)| {
            let (i, j) = (order[a], order[b]);
            let upper = score >= field.median;
            let (white, black) = if colour_of(&all[i], &all[j], upper, initial) == Colour::White {
                (all[i].sn, all[j].sn)
            } else {
                (all[j].sn, all[i].sn)
            };
            (key(i, j), white, black)
        })
        .collect();
    for &(white, black) in fixed {
        boards.push((key(by_sn[&white], by_sn[&black]), white, black));
    }
    boards.sort_unstable();
    let note = format!(
        "FIDE Lim system (C.04.4.3): {} boards{}, {} floaters, {} matching solves",
        paired.boards.len(),
        forced_note(fixed),
        paired.floaters,
        paired.solves
    );
    Ok(round_pairing(
        round,
        boards.iter().map(|b| (b.1, b.2)),
        byes,
        paired.bye.map(|b| all[order[b]].sn),
        note,
    ))
}

/// Pairs the next round of `state` by the Lim system.
pub fn pair_lim(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    pair_around(state, solver, &[])
}

/// The Lim system behind the one interface (it has no acceleration).
pub const RULES: AroundRules = AroundRules {
    name: "Lim",
    pair_around,
};
