//! The Swiss section of a chess event, shared by every pairing system: the section as the
//! engines read it ([`state`]: players, their histories, byes, settings), its checks
//! ([`validate`]), TRF files in and out ([`trf`]), colours as recorded and explained
//! ([`colour`]), a paired round and its explanation ([`round`]), acceleration ([`accel`]), the
//! work budget of a pairing ([`budget`]) and whole events played for measurement
//! ([`simulate`]).
//!
//! The systems, each in its own folder behind one interface ([`rules::PairingRules`], chosen
//! by the section's `system` setting in [`system::rules`]):
//! * [`us`]: the US Chess rules as WinTD reads them (seed 001), `swiss` and `adjacent`: one
//!   minimum-cost perfect matching over a penalty in lexicographic tiers, written out in its
//!   module doc;
//! * [`dutch`]: the FIDE Dutch system (C.04.3), `fide_dutch`, bracket by bracket on a
//!   lexicographic matching;
//! * [`burstein`]: the FIDE Burstein system (C.04.4.2) as bbpPairings pairs it,
//!   `fide_burstein`, score group by score group on the Dutch system's lexicographic matching;
//! * [`dubov`]: the FIDE Dubov system (C.04.4.1), `fide_dubov`: upfloaters, shifters and
//!   transpositions of each score group as tiers on the same lexicographic matching;
//! * [`lim`]: the FIDE Lim system (C.04.4.3), `fide_lim`: score groups in Lim's order (the
//!   median last), each group's floaters, colours and exchanges as tiers of one
//!   lexicographic matching.
//!
//! Dependencies point one way: a system depends on the shared modules, never the reverse
//! (except [`system`], which dispatches to them); the US system's FIDE style reads the
//! Dutch system's colour allocation (C.04.3 E), and the Burstein system its player facts,
//! colour rules and lexicographic matching, the Dubov system its player facts, initial colour and
//! lexicographic matching, the Lim system its player facts, initial colour and lexicographic
//! matching.

pub mod accel;
pub mod around;
pub mod budget;
pub mod burstein;
pub mod colour;
pub mod dubov;
pub mod dutch;
pub mod lim;
pub mod overrides;
pub mod round;
pub mod rules;
pub mod simulate;
pub mod state;
pub mod system;
pub mod trf;
pub mod trf_header;
pub mod us;
mod validate;

#[cfg(test)]
mod byes_trf_tests;
#[cfg(test)]
pub(crate) mod checked_events;
#[cfg(test)]
mod trf_player_tests;

pub use accel::Acceleration;
pub use budget::Budget;
pub use colour::{ColourCode, ColourReason};
pub use overrides::SettingsOverrides;
pub use round::{
    BoardExplanation, BoardPairing, ByeAward, ByeKind, ExplanationEntry, RoundPairing,
    TierBreakdown,
};
pub use state::{
    Colour, ColourRule, PairingSystem, RequestedBye, RoundRecord, RoundResult, SwissError,
    SwissPlayer, SwissSettings, SwissState, TeamAvoidance,
};
pub use system::{
    evaluate_round_pairing, pair_round, pair_round_accelerated, pair_round_with_fixed,
};
