//! The US Chess Swiss system as WinTD reads it (seed 001), `swiss` and `adjacent`.
//!
//! The whole section is paired at once: each round is a **minimum-cost perfect matching**
//! over the available players (plus one "bye" vertex when their number is odd). Every
//! candidate board carries an integer penalty in seven lexicographic tiers, highest first;
//! the engine finds the proven optimum (see [`solve`] for how the tiers are kept apart).
//!
//! # Ranking and the natural pairing
//! Players are ranked by score, then rating, then start number. The *natural pairing* is
//! laid out top-down: if the count is odd the bye goes to the lowest-ranked player of the
//! lowest score group who has not had a full-point bye (rated before unrated); in each score
//! group, players dropped from above play the top of the group in order, the rest is paired
//! top half against bottom half (1-2, 3-4 under the `adjacent` system), and an odd player
//! (the lowest-ranked) drops to the next group. With no conflicts this layout *is* the
//! result: all its boards cost 0 and every other board costs at least 1.
//!
//! # The penalty of one board x–y (x higher-ranked)
//! 1. **repeat** = 1 if x and y have met (forfeits count unless the section allows a rematch
//!    after a forfeit), or if a bye goes to a player who already had a full-point bye.
//!    Boards with a repeat are only offered to the solver when no pairing exists without
//!    them, and every one used is reported in a `REMATCH` note.
//! 2. **preference** = 2 for a pair the director prohibits + 1 for the same team code (when
//!    the section avoids team codes this round). Offered only when needed, like repeats.
//! 3. **absolute colour** (FIDE style only): the serious-colour value of item 5, ranked
//!    above the score tier as FIDE C.04.1 f makes it an absolute criterion: no third
//!    consecutive colour, no imbalance beyond 2, whenever a pairing without a rematch (or a
//!    broken preference) allows it.
//! 4. **score** = 4·d², d = score difference in half-points: a half-point drop costs 4, a
//!    full point 16, two points 64. So one drop costs less than two of the same size, and
//!    one player dropping one group (4) beats one dropping three (36) even at the price of
//!    two more one-group drops (3·4 = 12). For the bye, d = the player's score − the lowest
//!    score, plus 1 when the player is unrated (an unrated player gets the bye only when no
//!    rated player of the lowest group can take it).
//! 5. **serious colour** (US style): colours are assigned by rules 1, 2, 3a/3b (see
//!    [`colour`]). A player given the same colour a third time in a row has a `33` problem,
//!    costing (run − 2)² (a third 1, a fourth 4, a fifth 9); one whose |W−B| the colour takes
//!    beyond 2 has an `IMB` problem, costing (|W−B| − 2)² (+3: 1, +4: 4). Convex, so the most
//!    unequal player has priority and a problem left uncorrected grows dearer each round
//!    (seed 001: "equalisation problems left uncorrected grow worse"). A board whose rating
//!    change is beyond the high limit (200) adds H = 1 + the serious values of every player's
//!    worse colour this round: a serious problem is corrected only within the limits.
//!    Example: b w w w w given White is 33 and IMB: 9 + 4 = 13.
//! 6. **colour** (equalisation and alternation): a player whose |W−B| the colour takes to 2
//!    or more costs E·(|W−B| − 1)² (`EQ`: +2 costs E, +3 costs 4E), a 33 within balance E, an
//!    alternation problem (`AL`: the colour of his last game) 2, and a board whose two
//!    players are due the same colour (a clash) 1 more. E = 8·(boards + 1), so one EQ
//!    outweighs all ALs and clashes. *Limits* (unless FIDE style): a board whose rating
//!    change is above the low limit (80) adds 2, above the high limit (200) adds E. Example:
//!    fixing one AL (2) by a transposition of 60 points (two boards, each change 60 ≤ 80) is
//!    done. A transposition of 120 points costs 4 (two boards above 80) to save 2 (+1 for the
//!    clash): not done; but it saves an EQ (E > 4): done, as WinTD's high limit allows.
//!    A colour that brings a player back towards balance is never a problem, whatever his
//!    history. *FIDE style* orders this tier as the Dutch criteria C12 and C13 do: a clash
//!    costs E (one of the two does not get the colour he is due), a player taken to |W−B| = 2
//!    costs (|W−B| − 1)² = 1, and there is no AL charge: first the fewest players without
//!    their colour, then the fewest out of balance.
//! 7. **rating** = 8·c + min(k, 3) + 4·i, where c is the rating change of the board: with
//!    N(p) the natural opponent of p, c = min(|r(y) − r(N(x))|, |r(x) − r(N(y))|) (0 for a
//!    natural board), k the same distance in ranks, and i = 1 when both players stand in the
//!    same half of the natural pairing (an interchange: US Chess prefers transpositions). Example: group 1800, 1750, 1700, 1650 pairs
//!    naturally 1800–1700, 1750–1650. If 1800 and 1700 have met, the transposition
//!    1800–1650, 1750–1700 shows c = 50 on both boards: rating 8·50+1 each, total 802.
//!    The interchange 1800–1750, 1700–1650 shows c = 50 on each too (1750 stands in for
//!    1700) but costs 8·50+1+4 per board, total 810: the transposition is chosen.
//!    *FIDE style* ranks as the Dutch system does (C.04.3 D: transpositions of S2, then
//!    exchanges): rating = 4·k² + X·i, k capped at 100 and X = 4·100² + 1, so any exchange
//!    costs more than any transposition, and a transposition is kept near the natural
//!    S1[i]–S2[i] (convex: two one-rank moves, 4 + 4, before one two-rank move, 16). In the
//!    example the transposition shows k = 1 on both boards (8), the interchange k = 1 and
//!    X on each.
//!
//! Total penalty = Σ over boards, compared tier by tier. **Ties** between pairings with the
//! same seven totals are broken by the solver's fixed order (vertices in rank order, boards
//! sorted by (higher rank, lower rank)), never by hash order: the same state and seed give
//! the same pairing.
//!
//! # Colours and byes
//! Round 1: a coin flip from the stored seed (or the `first_colour` setting) gives board 1's
//! higher-ranked player his colour; colours alternate down the boards. Later rounds: rules
//! 1, 2, 3a/3b; coin flips (29I4, last round) come from the seed, the round and the two
//! start numbers. FIDE style allocates by FIDE C.04.3 E.1-E.5 instead, with the Dutch
//! engine's code (round 1 too: by pairing number, E.5; see [`colour`]). Byes and forfeits give no colour. When the chosen pairing gives a player a
//! `33` or `IMB` problem, a note says why: the round is solved again without the boards that
//! would give it to him, and the note names the first tier on which that pairing is worse
//! (or says that none exists; `why.rs`). Requested byes (0, ½, 1 point) and
//! absences are honoured and listed in `byes`; withdrawn players are not paired.
//!
//! # Short events
//! When the planned number of rounds is known, the engine checks that the remaining rounds
//! can still be paired without a rematch; if not, it re-pairs this round with the layered
//! model (see [`lookahead`]) and says so in a note.
//!
//! # Large sections
//! Above [`pair::FULL_GRAPH_LIMIT`] available players the full graph (n²/2 boards: 5·10⁷ at
//! 10 000 players) is too big to build. Candidate boards are restricted to pairs within 24
//! ranks of a natural opponent (or of each other), plus every bye board; in FIDE style also
//! each player's 24 nearest players on each side of those two ranks that are not due his
//! colour (colours outrank the distance from the natural pairing there, so a score group
//! with more players due one colour than the other pairs across itself). The result is
//! still **proven optimal over the full graph** by column generation:
//!
//! 1. Solve the restricted model. The blossom solver also returns its optimal duals: `y(v)`
//!    per vertex and `z(B) >= 0` per blossom (odd set), with reduced cost
//!    `c(u,v) − y(u) − y(v) + Σ z(B ⊇ {u,v}) >= 0` on every candidate and `0` on the matched
//!    boards (see [`crate::engine::matching::Duals`]).
//! 2. Price every board left out: if none has a negative reduced cost, the same duals are
//!    feasible for the LP of the *full* graph and complementary slackness still holds (the
//!    matching uses no board left out), so by LP duality the matching is optimal over all
//!    boards. Otherwise negative boards are added and the model solved again: of each
//!    player's negative boards with lower-ranked players, the 8 most negative
//!    ([`pair::PRICE_PER_PLAYER`]), or every one when the pass finds at most 2 per player
//!    in all. Each pass adds boards that were missing, so this ends (at 9 999 players of
//!    `bench-swiss --shape`, after 2 to 11 passes); only the proof needs every board priced,
//!    not every negative one added. Adding them all made the model grow with the history's
//!    shape, not with the field: at 9 999 players of the `open` history of
//!    `bench-swiss --shape`, 2.1 million boards over five passes, and re-solving on them
//!    was most of the time.
//!    The blossom solver resumes from the previous optimum (its "Warm start"): only the
//!    players at the ends of boards that broke the duals are paired again.
//! 3. Pricing n²/2 boards one by one would be slow, so a cheap lower bound settles most of
//!    them: all tiers and all `z` are `>= 0`, hence the reduced cost is at least
//!    `w_score·4d² + w_serious·H·[change > high] + w_colour·limit(change) + w_rating·8·change
//!    − y(u) − y(v)`, read off the
//!    ranked model in O(1) (score difference d, rating change); whole score groups are skipped
//!    when `w_score·4d² − y(u) − max y(group) >= 0`. Only the remaining boards are built.
//!
//! The tiers stay lexicographic over the full graph: the weights of a weighted solve are
//! either worst-case weights computed from upper bounds of every tier over *all* boards (not
//! only the candidates), or staged weights `w_i = 1 + Σ_{j>i} w_j·T_j(M)` taken from the
//! previous stage's optimum M, which step 2 has already proven optimal over the full graph;
//! each stage is priced on its own weights. Repeats and preference conflicts: the exclusion
//! levels of [`solve`] apply to the priced boards too (a level-0 solve prices only clean
//! boards); if the window holds no clean perfect matching, the next level weighs the repeat
//! or preference tier first, and pricing then finds the clean boards outside the window, so
//! the result is the lexicographic optimum over the full graph in every case.
//! A note in the explanation gives the window, the pricing passes and the boards added. The
//! test `windowed_pairing_with_pricing_is_the_full_graph_optimum` lowers the limit to 0 and
//! the window to 1-4 ranks on simulated sections where the window alone misses the optimum,
//! and checks that the priced result has exactly the full graph's tier totals.

mod boards;
pub mod colour;
pub mod evaluate;
pub mod lookahead;
pub mod pair;
pub mod penalty;
mod price;
pub mod solve;
mod why;

#[cfg(test)]
mod colour_tests;
#[cfg(test)]
mod tests;

pub use evaluate::evaluate_pairing;
pub use pair::{pair_next_round, pair_next_round_tuned, pair_with_fixed};

use super::round::RoundPairing;
use super::rules::PairingRules;
use crate::engine::chess::swiss::accel::Acceleration;
use crate::engine::chess::swiss::state::{SwissError, SwissState};
use crate::engine::matching::MatchingSolver;

/// The US system behind the one interface (acceleration does not apply to it).
pub struct UsRules;

impl PairingRules for UsRules {
    fn pair(
        &self,
        state: &SwissState,
        solver: &dyn MatchingSolver,
        _: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        pair_next_round(state, solver)
    }

    fn pair_with_fixed(
        &self,
        state: &SwissState,
        fixed: &[(u32, u32)],
        solver: &dyn MatchingSolver,
        _: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        pair_with_fixed(state, fixed, solver)
    }

    fn evaluate(
        &self,
        state: &SwissState,
        boards: &[(u32, u32)],
        byes: &[u32],
        _: &dyn MatchingSolver,
        _: &Acceleration,
    ) -> Result<RoundPairing, SwissError> {
        evaluate_pairing(state, boards, byes)
    }
}
