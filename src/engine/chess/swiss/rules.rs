//! The one interface every Swiss pairing system implements. A system pairs the next round,
//! pairs it around the director's forced boards, and scores a director's own pairing of it;
//! it reads the shared section ([`SwissState`]) and answers the shared round
//! ([`RoundPairing`]).

use super::accel::Acceleration;
use super::round::RoundPairing;
use super::state::{SwissError, SwissState};
use crate::engine::matching::MatchingSolver;

/// What a pairing system does for a section.
pub trait PairingRules: Sync {
    /// Pairs the next round. `accel`: the acceleration read from a TRF file
    /// ([`Acceleration::none`] for none; the section's `acceleration` setting replaces it),
    /// for the systems that accelerate.
    fn pair(
        &self,
        state: &SwissState,
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError>;

    /// Pairs the round around `fixed` boards (`(white, black)` start numbers, colours kept):
    /// the director's forced boards, the rest paired by the system's rules.
    fn pair_with_fixed(
        &self,
        state: &SwissState,
        fixed: &[(u32, u32)],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError>;

    /// Scores a director's whole pairing (`boards` as `(white, black)`, `byes`: the pairing
    /// bye, at most one) by the system's rules and compares it with the system's own.
    fn evaluate(
        &self,
        state: &SwissState,
        boards: &[(u32, u32)],
        byes: &[u32],
        solver: &dyn MatchingSolver,
        accel: &Acceleration,
    ) -> Result<RoundPairing, SwissError>;
}
