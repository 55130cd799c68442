//! The one place that chooses a section's pairing system by its `system` setting, and the
//! entry points every caller (the API, the command line, simulations) pairs through. Adding a
//! system is one folder beside `us` and `dutch` implementing [`PairingRules`] and one line in
//! [`rules`].

use super::accel::Acceleration;
use super::round::RoundPairing;
use super::rules::PairingRules;
use super::state::{PairingSystem, SwissError, SwissState};
use super::{burstein, dubov, dutch, lim, us};
use crate::engine::matching::MatchingSolver;

/// The rules of `system`.
pub fn rules(system: PairingSystem) -> &'static dyn PairingRules {
    match system {
        PairingSystem::Swiss | PairingSystem::Adjacent => &us::UsRules,
        PairingSystem::FideDutch => &dutch::DutchRules,
        PairingSystem::FideBurstein => &burstein::RULES,
        PairingSystem::FideDubov => &dubov::RULES,
        PairingSystem::FideLim => &lim::RULES,
    }
}

/// Pairs the next round of a section by its system.
pub fn pair_round(
    state: &SwissState,
    solver: &dyn MatchingSolver,
) -> Result<RoundPairing, SwissError> {
    pair_round_accelerated(state, solver, &Acceleration::none())
}

/// [`pair_round`] with the acceleration read from a TRF file.
pub fn pair_round_accelerated(
    state: &SwissState,
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    rules(state.settings.system).pair(state, solver, accel)
}

/// Pairs the round around the director's forced boards, by the section's system.
pub fn pair_round_with_fixed(
    state: &SwissState,
    fixed: &[(u32, u32)],
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    rules(state.settings.system).pair_with_fixed(state, fixed, solver, accel)
}

/// Scores a director's pairing of the round by the section's system.
pub fn evaluate_round_pairing(
    state: &SwissState,
    boards: &[(u32, u32)],
    byes: &[u32],
    solver: &dyn MatchingSolver,
    accel: &Acceleration,
) -> Result<RoundPairing, SwissError> {
    rules(state.settings.system).evaluate(state, boards, byes, solver, accel)
}
