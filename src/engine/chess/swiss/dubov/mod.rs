//! The FIDE Dubov system (C.04.4.1, the text in force from 1 February 2026), on the exact
//! matching engine of the Dutch system ([`crate::engine::chess::swiss::dutch::lex`]).
//!
//! # The facts of a player (1.5-1.8)
//! * Score (half-points) and *TPN*, the pairing number (the start-number position among the
//!   players of the round and of earlier rounds).
//! * Colour difference and *preference* from the games played over the board (forfeits and
//!   byes leave no colour, General Handling Rules 3.4): absolute (difference beyond 1, or
//!   the same colour in the last two games played), strong (difference 1), mild
//!   (difference 0: the colour opposite to the last game). A player with no game yet has a
//!   mild preference for Black. Every player has one. *White seekers* prefer White, *Black
//!   seekers* Black.
//! * *ARO*: the average rating of the opponents met over the board, rounded half up; 0
//!   before the first game. The rating is the section's (0 when none is given: 1.1.2 asks
//!   the arbiter for a provisional one).
//! * *Upfloats*: the rounds in which the player was paired (a game, played or forfeited)
//!   against someone of a higher score before that round. A *maximum upfloater* has been
//!   upfloated MaxT = 2 + ⌊Rnds / 5⌋ times (Rnds: `total_rounds`, or the round being paired
//!   when it is larger or none is set).
//!
//! # Absolute criteria and completion
//! [C1] no two players meet twice (a game not played does not count, General Handling Rules
//! 3.5), and no pair the director forbade; [C2] the bye only to a player who has had no
//! pairing-allocated bye and no full point without playing (full-point bye, forfeit win);
//! [C3] two players with the same absolute preference do not meet. [C4] is built in: every
//! bracket's choice is one matching over **every** player still unpaired (plus the bye while
//! it is open), so the rest can always be completed.
//!
//! # The bye (3.1)
//! Among the eligible players, by lowest score, then most games played, then largest TPN:
//! the first whose absence leaves the others pairable. The first candidate is checked with
//! one plain matching; when that fails the bye is the top tier of the first bracket's
//! matching (a star at the bye vertex, the candidate's place in that order).
//!
//! # A bracket's upfloaters (3.2.1-3.2.2, 4.2): tiers, highest first
//! The score groups are paired from the top; the residents are the players of the highest
//! score still unpaired. When they pair among themselves and the rest pairs too, there is no
//! upfloater ([C5] at 0). Otherwise one lexicographic matching over every unpaired player
//! `R ∪ L` (residents, lower players); a resident meets a resident or a lower player, who is
//! then an upfloater. Every tier counts over the bracket's boards:
//! 1. the bye's place in the order of 3.1 (while the bye is open);
//! 2. [C5] upfloaters;
//! 3. [C6] one tier per lower score, the lowest first: upfloaters of that score (so the
//!    score differences, largest first, are the least);
//! 4. [C7] boards of two players with the same preference (one of them does not get it);
//! 5. [C8] upfloaters who are maximum upfloaters; [C9] their upfloats; [C10] upfloaters
//!    upfloated in the last round (none of the three in the last round);
//! 6. 4.2's order of the set: the candidates (lower players by score, then TPN) one tier
//!    each, "this candidate is not an upfloater", the first candidate first: the first set
//!    in the order of 4.1.3 (the smallest differing number in the set). Only the candidates
//!    of the scores tiers 2-3 fixed compete.
//!
//! # Pairing the bracket (3.2.3-3.2.6, 4.3, 4.4)
//! G1 holds the White seekers, G2 the Black seekers (when nobody of the bracket has played
//! yet: G1 the first half by TPN). Each board is one player of G1 against one of G2; a board
//! of two players of one group (one **shifter** moved to the other group) is what [C7]
//! counts. Three tiers decide, over the bracket's players only:
//! 1. [C7]: the fewest boards inside one group. Their number fixes how many players shift
//!    from the smaller group (G1 if equal, 3.2.4's first step) and from the larger;
//! 2. the smaller group's shifters, then the larger group's: each group's possible shifters
//!    numbered by 4.3 (White seekers by ARO then TPN, Black seekers by TPN; numbers from the
//!    middle of the list outwards, the higher of two middles first), one tier per player,
//!    "not a shifter", in that order: the first set of 4.1.3. Of a board inside one group
//!    the shifter is the one with the lower number (the best choice for any matching);
//! 3. S1 (G1 by ARO, then TPN) against the first legal transposition of G2 (by TPN): one
//!    tier per S1 player in order, the TPN place in G2 of his opponent.
//!
//! *Example.* A bracket of six who have played: White seekers A (ARO 1900) and B (ARO 1800),
//! Black seekers C, D, E, F in TPN order, D with ARO 2000. G1 = {A, B} is smaller than G2 by
//! two, so one Black seeker shifts ([C7]: one board of two Black seekers); numbered from the
//! middle of C, D, E, F (D #1, E #2, C #3, F #4), D shifts if a legal pairing follows. S1 =
//! B, A, D (by ARO); G2 = C, E, F (by TPN): B meets C, A meets E, D meets F, unless one of
//! these boards is illegal; then the next transposition of G2 (C F E, E C F, ...) that is
//! legal. Colours: B and A get White (both preferences granted), D and F, both due Black,
//! by 5.2.3-5.2.5. (`tests_rules.rs` holds such a case: `shifters_are_numbered_from_the_middle`.)
//!
//! # Colours (5.2)
//! Both yet to play: the higher ranked (score, then TPN) gets the initial colour when his
//! TPN is odd. Else both preferences; else the stronger one; else the colours alternated
//! against the most recent round in which they differed (histories of played games, read
//! from the end); else the higher ranked player's preference.
//!
//! # Where the text leaves a choice
//! * An upfloat is counted for a forfeited game too (the pairing floated the player); a
//!   round without an opponent floats nobody.
//! * [C9] is read as the sum of the upfloats of the maximum upfloaters chosen.
//! * In a bracket whose players have not played yet, the groups are the halves by TPN, and
//!   the shifting of 3.2.4 (needed only when forbidden pairs force it) treats G1 as the White
//!   seekers' group.
//! * Boards are listed by the General Handling Rules 3.6 (score of the higher ranked, sum of
//!   scores, TPN of the higher ranked).
//!
//! # Speed
//! * A bracket that needs no upfloater takes only plain matchings on near pairs to prove the
//!   rest pairable; a bracket whose S1 may meet G2 in order (with the first shifters of the
//!   larger group when the groups differ) needs no matching at all: that is the first
//!   transposition. Round 1 is both.
//! * A bracket that needs upfloaters is one solve over every unpaired player, but only the
//!   residents' pairs, the pairs near in the order and the start's are edges: a pair with a
//!   lower player has tiers that depend only on its class at the other end (resident; lower
//!   player due White; due Black), so the others are *lazy* and join when the duals price
//!   them in (`lex::Lazy`, exact); far pairs of a bracket likewise.
//! * The pairability of a list is proved on a narrow window of it and of it folded in two
//!   (its halves interleaved) before every pair is tried; the upfloaters' solve starts from
//!   a plain matching found the same way.
//! * Figures (release build, 2-core machine shared with other builds, load ~10; CPU user+sys
//!   of `tourney pair FILE --system fide_dubov` on `tourney bench-swiss --players 1000
//!   --round R --shape S --write-trf FILE`): greedy (`rank`) histories round 2 0.29 s, round
//!   3 2.0 s (222 upfloaters and 228 shifters: the top groups all due the same colour
//!   absolutely), round 4 0.72 s, round 7 0.46 s, round 9 0.52 s; `open` round 3 2.6 s,
//!   `draws` 1.1 s, `late` 0.26 s, `one-group` 5.9 s; hence
//!   the bound [`crate::limits::MAX_DUBOV_PLAYERS`].

pub(crate) mod pair;
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
use player::DubovPlayer;
use std::collections::{HashMap, HashSet};

fn err(field: &str, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.into(),
        message: message.into(),
    }
}

/// Ranks above (5.2.1): more points, or as many and a smaller TPN.
pub(crate) fn ranks_above(a: &DubovPlayer, b: &DubovPlayer) -> bool {
    (a.score, std::cmp::Reverse(a.tpn)) > (b.score, std::cmp::Reverse(b.tpn))
}

/// The colour of `p` against `o` (5.2).
pub(crate) fn colour_of(p: &DubovPlayer, o: &DubovPlayer, initial: Colour) -> Colour {
    let p_higher = ranks_above(p, o);
    if p.played == 0 && o.played == 0 {
        let higher = if p_higher { p } else { o };
        let c = if higher.tpn % 2 == 0 {
            initial
        } else {
            initial.opposite()
        };
        return if p_higher { c } else { c.opposite() };
    }
    if p.preference != o.preference {
        return p.preference;
    }
    if p.strength != o.strength {
        return if p.strength > o.strength {
            p.preference
        } else {
            p.preference.opposite()
        };
    }
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
    if p_higher {
        p.preference
    } else {
        o.preference.opposite()
    }
}

/// The round to pair: its players' facts (TPN renumbered for the round).
fn facts(state: &SwissState, out: &HashSet<u32>) -> Vec<DubovPlayer> {
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
    let rounds = state.settings.total_rounds.max(round);
    let field = Field {
        ps: order.iter().map(|&i| &all[i]).collect(),
        last_round: state.settings.total_rounds > 0 && round >= state.settings.total_rounds,
        max_t: 2 + rounds / 5,
    };
    let paired = pair::pair(&field, solver).map_err(|e| match e {
        PairError::Impossible => err(
            "players",
            "no pairing satisfies the absolute criteria (rematches, forbidden pairs, colours)",
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
    // 3.6 of the General Handling Rules: the higher ranked's score, the sum, his TPN.
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
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (i, j) = (order[a], order[b]);
            let (white, black) = if colour_of(&all[i], &all[j], initial) == Colour::White {
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
        "FIDE Dubov system (C.04.4.1): {} boards{}, {} upfloaters, {} shifters, {} matching solves",
        paired.pairs.len(),
        forced_note(fixed),
        paired.upfloaters,
        paired.shifters,
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

/// Pairs the next round of `state` by the Dubov system.
pub fn pair_dubov(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    pair_around(state, solver, &[])
}

/// The Dubov system behind the one interface (it has no acceleration).
pub const RULES: AroundRules = AroundRules {
    name: "Dubov",
    pair_around,
};
