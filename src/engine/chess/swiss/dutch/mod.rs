//! The FIDE Dutch system (C.04.3, in force from 1 February 2026, with the C.04.1 basic
//! rules), on the exact matching engine.
//!
//! # What is paired
//! The players present (not withdrawn, no requested bye, not absent) are ranked by score
//! (plus the Baku acceleration of the round, if any), then by pairing number (start number).
//! A *score group* is the players of one score; a *bracket* is a score group plus the
//! players moved down to it (MDPs). Brackets are paired from the top; what a bracket leaves
//! unpaired moves down to the next one. The pairing-allocated bye (PAB) goes to the one
//! player left in the last bracket.
//!
//! # Absolute criteria (C.1-C.3) and completion (C.4)
//! A board exists only between players who have not played each other over the board (a
//! forfeited game does not count, as in C.04.1 and bbpPairings) and whom the director has
//! not forbidden to meet (`XXP`/`260`), and not between two players with the same absolute
//! colour preference (colour difference beyond 1, or the same colour in the last two played
//! games) unless, in the last round, one of them is a topscorer (more than half the maximum
//! score). The PAB goes only to a player who has had no PAB, no full-point bye and no win by
//! forfeit. Every bracket is paired so that the **whole rest of the round** can still be
//! completed: each bracket is one minimum-cost perfect matching over *every* player still
//! unpaired (plus a bye vertex when their number is odd), so an unpairable remainder is
//! never produced (this replaces the look-ahead of C.4 and the "collapsed last bracket").
//!
//! The score of the PAB assignee is fixed first: the lowest score at which some player can
//! take it and the rest still be paired (C.5); a bye to a higher score is the bracket's top
//! criterion.
//!
//! # The tiers of a bracket (lexicographic, highest first)
//! For a bracket B (MDPs + residents) and the next score group N, every board costs (all
//! counts, lower is better; "outside" = paired below, or given the bye):
//! 1. the PAB to a player above the PAB score (C.5); two MDPs paired together;
//! 2. players of B paired outside B (C.6: the most pairs in the bracket), then per MDP
//!    score, highest first, MDPs of that score paired outside B (C.7: the highest MDPs);
//! 3. players of B ∪ N paired outside B ∪ N, then per score of B, highest first, players of
//!    that score paired outside B ∪ N (C.8: the next bracket keeps the most and the
//!    highest pairs);
//! 4. when the PAB is decided in this bracket, the PAB's rank by games played (C.9: the
//!    fewest unplayed games);
//! 5. colours, on pairs inside B: two topscorers with an imbalance beyond 1 wanting the same
//!    colour, two absolute preferences where the one who yields gets a third colour in a row
//!    (C.10/C.11 topscorer exceptions), clashing preferences (C.12), clashing strong
//!    preferences (C.13);
//! 6. floats (C.14-C.21): residents who floated down last round paired outside B; boards
//!    where an MDP meets a resident who floated up last round; the same two for the round
//!    before; then per score, highest first, downfloaters of last round paired outside B,
//!    boards MDP (of that score) vs last round's upfloater; the same for the round before.
//!
//! Then the choices C.04.3 leaves to the order of pairing numbers (B.3-B.4, D), as
//! bbpPairings makes them, in two solves:
//! * **A**: each MDP in order paired if possible (the highest MDPs first), then each paired
//!   MDP's opponent the highest-ranked resident possible. These boards are fixed.
//! * **B**, the remainder R (residents left), split in S1 (as many as its pairs) and S2: the
//!   fewest pairs headed by an S2 player (exchanges), the least sum of the heads' positions
//!   (the smallest exchange differences), the lowest S1 players exchanged, the highest S2
//!   players brought up, then each head's opponent the highest possible (transpositions).
//!
//! A's hint (below its criteria, so no criterion depends on it) also asks for the least sum
//! of the positions of the residents heading a pair of residents: the top residents' sum
//! is the least, so A's matching has no exchange when one of its optima has none (and A
//! ran a solve: a matching that needs none is not looked at further). Then the exchanges
//! need no solve: that matching is optimal on the base criteria in B too (with
//! the MDPs' boards it is a matching of A, which is optimal on them), it has the fewest
//! exchanges (none), and so the least sum of the heads (the S1 players), and only the heads
//! it fixes go on to B's last solve (debug builds solve the exchanges on small problems and
//! check the heads are the same).
//!
//! A tier is a count of small values on each board; a bracket has dozens of them (hundreds
//! with one per player of the remainder), more than a 128-bit weighted cost holds, so
//! [`lex`] solves them in stages: a tier on which the current optimum already totals 0
//! deletes its boards without a solve, a tier of one player's boards ("the opponent of
//! head k") whose least value the current matching already takes pins that board without a
//! solve, the others are weighed by the totals actually reached (exact, see [`lex`]). Each
//! solve starts from the previous one's matching and carries a *hint* below its criteria
//! (the k-th MDP with the k-th resident, the k-th head with the k-th other member: the
//! natural pairing), so that the following per-player tiers are usually settled without a
//! solve: round 1 of 300 players takes 3 matching solves.
//!
//! # Where bbpPairings differs
//! C.9 (the PAB assignee with the fewest unplayed games) is applied here whenever the PAB
//! is decided in a bracket. bbpPairings applies it only when, in its intermediate matching
//! at the end of the bracket before, every player moving down happens to meet someone of
//! the next score group, a state its rules leave arbitrary; when it does not, the MDP order
//! decides instead. This is the only kind of disagreement found by `scripts/dutch-agreement`:
//! on 200 generated tournaments (10-300 players, 5-11 rounds, forfeits, half-point byes,
//! retirements) 1594 of 1598 rounds are identical (boards, colours, PAB), and in each of the
//! 4 others our PAB goes to a player with no unplayed game where bbpPairings' goes to one
//! with one unplayed game. With the Baku acceleration (`BAKU=1 scripts/dutch-agreement 25`):
//! 25 tournaments, 201 of 201 rounds identical.
//!
//! # Speed
//! Every solve is over every player still unpaired, but only some pairs are edges: the
//! pairs inside the bracket (the others there, two residents far apart in the order and far
//! from the natural S1-S2 distance, are handed to the solver only when priced in, in the
//! MDP solve as in the remainder's), the bye's, the pairs of players at most
//! 12 apart in the order, the bracket's players with the top 12 below it, and the start
//! matching's. A pair with at most one end in the bracket is otherwise *lazy*
//! (`lex::Lazy`): each end's values depend only on the class of the other end (in the
//! bracket, the next score group, below), so after each solve the lazy pairs that could
//! lower the cost are found per class pair from each end's key `2·value − 2·dual` (two
//! keys plus the blossoms' share are twice the pair's reduced cost) by a search of the
//! blossom forest that enters no subtree whose least keys cannot reach 0
//! (`Duals::negative_pairs`), and join with the solver's warm start. The result is the same optimum (LP duality;
//! debug builds check every lazy pair on problems of up to 80 players). Memory is the
//! bracket's pairs plus a few per player, not the field's pairs.
//!
//! What keeps a large section fast, each with the same optimum as a plain solve:
//! * A round in which nobody has played and all scores are equal (round 1 without
//!   acceleration) needs no matching (`bracket::Round::untouched`): the first candidate,
//!   S1[i]–S2[i] with the PAB to the last player, breaks no criterion.
//! * The stages of a solve resume the blossom state of the stage before (see [`lex`],
//!   "Resuming the solver state"): only the new tiers' edges change cost, so only their few
//!   matched ends are freed and matched again.
//! * Lazy pairs are found by a search of the blossom forest (`Duals::negative_pairs`): per
//!   blossom, the pairs whose lowest common blossom it is have its share, and a subtree whose
//!   least keys cannot reach 0 is not entered, so only pairs of negative reduced cost are
//!   handed over; when a pass finds many far pairs of a bracket at once, the 32 most negative
//!   at each end join. A pass looks only at the edges left out from the ends outside the
//!   largest blossom that lasted since the pass before (`Duals::lasting`: nothing inside one
//!   can change its reduced cost).
//! * The last solve's duals settle a tier of one head's opponent without a solve when the
//!   matching already takes its least value among the edges that can still be optimal (see
//!   [`lex`]).
//! * Phase A's hint asks for the least sum of the heads, so its matching has no exchange when
//!   an optimum has none, and the exchanges' solve (B1) is then skipped.
//! * A solve's pairs are packed: each tier value in 8 bytes (tier and value in 32 bits each),
//!   and in 32 bits the offsets of each pair's values, each vertex's edges and the valued
//!   edges of each tier valued on at most a quarter of them (a denser tier, such as the
//!   hint, is found by a pass over the edges instead). An edge's cost under the weights of
//!   the last pricing is worked out when needed, not held; its flags (in the problem,
//!   still allowed, in the kept solver state) are bits; the edges left out are those of
//!   each vertex's list so flagged, counted per vertex but not listed again. A large
//!   bracket's pairs are valued in blocks and copied once into one list of the exact size.
//!   So a pair takes about 35 bytes (one score group of 9 999 players: 50 million pairs,
//!   1.8 GiB peak). The values fit: each is a count, a position or the square of a
//!   difference of positions in a section of at most 10 000 players; a list that would not
//!   fit is refused with an error, never truncated.
//! * The passes over every pair of a large solve are shared between two scoped threads
//!   (`threads::both`), with the same results in the same order: the bracket's pairs valued
//!   in two halves, the model's edges listed per vertex while its tiers' facts are gathered,
//!   a full pricing pass in two halves. The solver itself is one thread. The tests take
//!   every threaded path.
//! * The blossom solver raises hub vertices (the bye's) last in its jump start, lets the
//!   largest child of an expanded inner blossom that stays inner keep the blossom's id, and
//!   passes over edges inside the scanning vertex's top blossom before reading their costs
//!   (see `engine::matching::blossom`, Speed).
//!
//! Figures (release build, whole process, 2-core machine; `tourney bench-dutch` on
//! `tourney bench-swiss --write-trf` histories; the commands and the peer's run are in
//! docs/performance.md): 9 999 players round 2 10.9 s wall and 936 MB peak, round 3 7.9 s
//! and 678 MB, round 5 8.9 s and 308 MB; 5 000 players round 2 3.3 s and 267 MB; 1 000
//! players round 5 0.07 s. One score group of the whole field (round 2 after a round 1 of
//! draws only; `tourney pair --system fide_dutch` of `bench-swiss --shape one-group --round
//! 2`): 5 000 players 5.8 s CPU and 475 MiB, 9 999 players 16.5 s CPU and 1.76 GiB, so
//! [`crate::limits::MAX_DUTCH_PLAYERS`] is the section bound, 10 000 (every shape's figures
//! in docs/performance.md). bbpPairings (the FIDE-endorsed engine) on
//! the same 1 000-player history: 24.6 s CPU; at 2 000 and 5 000 players it was stopped
//! after 120 s (`scripts/bench-dutch`). Agreement (`scripts/dutch-agreement 200`: 1594 of
//! 1598 rounds identical, the 4 others the C.9 PAB difference above; `BAKU=1
//! scripts/dutch-agreement 25`: 201 of 201; `scripts/dutch-made-events 300`: 2063 of 2071).
//!
//! # Colours (C.04.3 E)
//! E.1 both preferences granted; E.2 the stronger preference (absolute over strong over
//! mild; between two absolutes, the larger colour difference); E.3 alternate from the most
//! recent round in which the two had different colours; E.4 the higher-ranked player's
//! preference; E.5 with no preference, the higher-ranked player gets the initial colour
//! when his pairing number is odd (the colour of the top player in round 1: the `XXC`
//! setting, else read from the first round's colours, else the section's coin flip).

mod bracket;
pub mod check;
pub(crate) mod colour;
mod edit;
pub(crate) mod lex;
pub(crate) mod player;
mod threads;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_rules;

pub use crate::engine::chess::swiss::accel::{read_acceleration, Acceleration};
use crate::engine::chess::swiss::colour::round_one_colour;
use crate::engine::chess::swiss::{
    BoardPairing, ByeAward, ByeKind, Colour, ExplanationEntry, RoundPairing, RoundResult,
    SwissError, SwissState,
};
use crate::engine::matching::MatchingSolver;
use bracket::{PairError, Round};
pub use edit::{evaluate_round_pairing, pair_round_with_fixed};

use crate::engine::chess::swiss::rules::PairingRules;
use std::collections::HashSet;

fn err(field: &str, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.into(),
        message: message.into(),
    }
}

/// The colour of the top player in round 1: the setting, else read from the earliest round
/// with colours (the highest player who took part in the pairing then; the second one's
/// colour reversed, and so on, as bbpPairings reads it), else the seed's coin flip.
/// Whether the round to pair is the last one (the topscorer exceptions apply), and the score
/// in half-points a topscorer has more than (half the maximum: one half-point a round played).
fn last_round_facts(state: &SwissState) -> (bool, i64) {
    let played = state.rounds_played();
    let total = state.settings.total_rounds;
    (total > 0 && played + 1 >= total, played as i64)
}

pub(crate) fn initial_colour(state: &SwissState) -> Colour {
    if let Some(c) = state.settings.first_colour {
        return c;
    }
    let first = state
        .players
        .iter()
        .filter_map(|p| p.history.iter().position(|r| r.colour.is_some()))
        .min();
    if let Some(f) = first {
        let mut order: Vec<&_> = state.players.iter().collect();
        order.sort_by_key(|p| p.start_number);
        let took_part = |r: &crate::engine::chess::swiss::RoundRecord| {
            r.result.has_opponent() || r.result == RoundResult::PairingBye
        };
        let mut k = 0;
        for p in order {
            if p.history.iter().take(f + 1).any(took_part) {
                if let Some(c) = p.history.get(f).and_then(|r| r.colour) {
                    return if k % 2 == 0 { c } else { c.opposite() };
                }
                k += 1;
            }
        }
    }
    round_one_colour(state.settings.seed, None)
}

/// Pairs the next round of `state` by the FIDE Dutch system.
///
/// `accel`: the virtual points of each player per round ([`Acceleration::none`] for none).
pub fn pair_dutch_accelerated(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    pair_around(state, solver, accel, &[])
}

/// Pairs the round with `fixed` boards (`(white, black)` start numbers, already checked by
/// [`edit::check_boards`]) set aside: the others are paired by the Dutch rules as if the
/// fixed players were not in the round; the fixed boards keep their colours.
fn pair_around(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
    fixed: &[(u32, u32)],
) -> Result<RoundPairing, SwissError> {
    state.validate()?;
    let round = state.round_to_pair();
    let (mut byes, out) = crate::engine::chess::swiss::round::decided_byes(state);
    let by_index = |i: usize, r: usize| accel.of(state.players[i].start_number, r);
    let mut all = player::players(state, &by_index);
    // Pairing numbers count the players paired now or in an earlier round.
    let positions = crate::engine::chess::swiss::round::pairing_positions(state, &out);
    for (p, k) in all.iter_mut().zip(positions) {
        if let Some(k) = k {
            p.rank = k;
        }
    }
    let forced: HashSet<u32> = fixed.iter().flat_map(|&(w, b)| [w, b]).collect();
    let mut ps: Vec<&player::DutchPlayer> = state
        .players
        .iter()
        .zip(&all)
        .filter(|(p, _)| {
            !p.withdrawn && !out.contains(&p.start_number) && !forced.contains(&p.start_number)
        })
        .map(|(_, d)| d)
        .collect();
    if ps.len() < 2 && fixed.is_empty() {
        return Err(err("players", "fewer than two players to pair"));
    }
    ps.sort_by_key(|p| (std::cmp::Reverse(p.score), p.rank));
    let played = state.rounds_played();
    let (last_round, topscore) = last_round_facts(state);
    let r = Round {
        ps,
        last_round,
        topscore,
        played,
    };
    // Every other player on a forced board: the one left (if any) is the director's bye.
    let paired = if !fixed.is_empty() && r.ps.len() < 2 {
        Ok(bracket::Paired {
            bye: (r.ps.len() == 1).then_some(0),
            ..Default::default()
        })
    } else if let Some(p) = r.untouched() {
        Ok(p)
    } else {
        r.pair(solver)
    }
    .map_err(|e| match e {
        PairError::Impossible => err(
            "players",
            "no pairing satisfies the absolute criteria (rematches, forbidden pairs, colours)",
        ),
        PairError::Solver(s) => err("players", s),
    })?;
    let initial = initial_colour(state);
    let mut boards: Vec<(i64, i64, usize, u32, u32)> = paired
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (pa, pb) = (r.ps[a], r.ps[b]);
            let (p, o) = if pa.sn < pb.sn { (pa, pb) } else { (pb, pa) };
            let c = colour::colour_of(p, o, initial);
            let (white, black) = if c == Colour::White {
                (p.sn, o.sn)
            } else {
                (o.sn, p.sn)
            };
            let (hi, lo) = if colour::ranks_above(pa, pb) {
                (pa, pb)
            } else {
                (pb, pa)
            };
            // Boards are ordered by the real scores (without acceleration).
            let real = |p: &player::DutchPlayer| p.score - accel.of(p.sn, played as usize);
            (-real(hi), -real(lo), hi.rank, white, black)
        })
        .collect();
    let by_sn: std::collections::HashMap<u32, &player::DutchPlayer> =
        all.iter().map(|d| (d.sn, d)).collect();
    for &(white, black) in fixed {
        let (pw, pb) = (by_sn[&white], by_sn[&black]);
        let (hi, lo) = if colour::ranks_above(pw, pb) {
            (pw, pb)
        } else {
            (pb, pw)
        };
        let real = |p: &player::DutchPlayer| p.score - accel.of(p.sn, played as usize);
        boards.push((-real(hi), -real(lo), hi.rank, white, black));
    }
    boards.sort_unstable();
    let pairings = boards
        .iter()
        .enumerate()
        .map(|(k, b)| BoardPairing {
            board: k as u32 + 1,
            white: b.3,
            black: b.4,
        })
        .collect();
    if let Some(b) = paired.bye {
        byes.insert(
            0,
            ByeAward {
                player: r.ps[b].sn,
                points: 1.0,
                kind: ByeKind::Pairing,
            },
        );
    }
    Ok(RoundPairing {
        round,
        pairings,
        byes,
        explanation: vec![ExplanationEntry::Note {
            message: if fixed.is_empty() && paired.solves == 0 {
                format!(
                    "FIDE Dutch system (C.04.3): {} boards; nobody has played yet, so the top half meets the bottom half in order (no matching needed)",
                    paired.pairs.len()
                )
            } else if fixed.is_empty() {
                format!(
                    "FIDE Dutch system (C.04.3): {} boards, {} matching solves ({} resumed from the one before)",
                    paired.pairs.len(),
                    paired.solves,
                    paired.resumed
                )
            } else {
                format!(
                    "FIDE Dutch system (C.04.3): {} forced boards; the other {} boards paired by the Dutch rules around them ({} matching solves, {} resumed from the one before)",
                    fixed.len(),
                    paired.pairs.len(),
                    paired.solves,
                    paired.resumed
                )
            },
        }],
    })
}

/// Pairs the next round of `state` by the FIDE Dutch system, without acceleration.
pub fn pair_dutch(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    pair_dutch_accelerated(state, solver, &Acceleration::none())
}

/// The FIDE Dutch system behind the one interface: the section's `acceleration` setting
/// replaces an acceleration read from a TRF file.
pub struct DutchRules;

impl PairingRules for DutchRules {
    fn pair(
        &self,
        state: &SwissState,
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        let accel = Acceleration::for_settings(state, accel.clone());
        pair_dutch_accelerated(state, solver, &accel)
    }

    fn pair_with_fixed(
        &self,
        state: &SwissState,
        fixed: &[(u32, u32)],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        pair_round_with_fixed(state, fixed, solver, accel)
    }

    fn evaluate(
        &self,
        state: &SwissState,
        boards: &[(u32, u32)],
        byes: &[u32],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        evaluate_round_pairing(state, boards, byes, solver, accel)
    }
}
