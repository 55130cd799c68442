//! The Mitchell family of movements (seed 002).
//!
//! Every kind follows the seed's usual form: NS pairs stationary (NS t at table t), EW pairs
//! up one table, boards down one table; in round 1 EW e sits at table e and set s is on
//! table s; set s holds boards (s−1)·B+1 ..= s·B with B boards a round (default 3). Pairs are
//! numbered the Mitchell way (NS 1..T and EW 1..T are different pairs) except the
//! arrow-switch Mitchell (Howell numbering). A half table counts in `tables`; an NS rover
//! is NS pair T+1 on T full tables.
//!
//! | kind | file | tables served |
//! |---|---|---|
//! | `mitchell` | basic.rs | 3..60 (odd complete; even curtailed to T/2 rounds) |
//! | `skip_mitchell` | skip.rs | even, 4..60 |
//! | `share_relay_mitchell` | share_relay.rs | even, 4..60 |
//! | `appendix_mitchell` | appendix.rs | 6..60 (prime base ≥ 5, fewer appended tables) |
//! | `one_and_half_appendix_mitchell` | appendix.rs | 5..60 (half table included) |
//! | `twin_mitchell` | twin.rs | even, 6..60 |
//! | `arrow_switch_mitchell` | arrow_switch.rs | 3..60 (Howell numbering) |
//! | `web_mitchell` | web.rs | 4..60 (even web + odd Mitchell sections) |
//!
//! NS rovers (rover.rs) are an option of the Mitchell, Skip, Share & Relay, Arrow-switch and
//! Web kinds; half tables (common.rs) of every kind. Each generator refuses a size or option it cannot serve
//! with a `MovementError` naming the field and, in `supported`, what it can serve.

mod appendix;
mod arrow_switch;
mod basic;
pub mod common;
pub mod rover;
mod share_relay;
mod skip;
mod twin;
mod web;

#[cfg(test)]
mod rover_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_more;

pub use appendix::{appendix_mitchell, one_and_half_appendix_mitchell};
pub use arrow_switch::{arrow_switch_mitchell, default_switch_rounds};
pub use basic::mitchell;
pub use share_relay::share_relay_mitchell;
pub use skip::skip_mitchell;
pub use twin::twin_mitchell;
pub use web::web_mitchell;

use super::model::{Movement, MovementError, MovementParams};

/// The Mitchell-family kinds this module generates.
pub const KINDS: &[&str] = &[
    "mitchell",
    "skip_mitchell",
    "share_relay_mitchell",
    "appendix_mitchell",
    "one_and_half_appendix_mitchell",
    "twin_mitchell",
    "arrow_switch_mitchell",
    "web_mitchell",
];

/// None when `kind` is not one of KINDS.
pub fn generate(kind: &str, p: &MovementParams) -> Option<Result<Movement, MovementError>> {
    Some(match kind {
        "mitchell" => mitchell(p),
        "skip_mitchell" => skip_mitchell(p),
        "share_relay_mitchell" => share_relay_mitchell(p),
        "appendix_mitchell" => appendix_mitchell(p),
        "one_and_half_appendix_mitchell" => one_and_half_appendix_mitchell(p),
        "twin_mitchell" => twin_mitchell(p),
        "arrow_switch_mitchell" => arrow_switch_mitchell(p),
        "web_mitchell" => web_mitchell(p),
        _ => return None,
    })
}
