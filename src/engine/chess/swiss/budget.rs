//! How much work one pairing may do: a deadline and a stop flag, checked by the solver.
//!
//! A round is paired by a sequence of matching solves (one per exclusion level and tier stage,
//! plus the pricing passes of a large section, see [`super::solve`]), each a sequence of
//! blossom stages (one per pair matched). [`Budget::solver`] is the blossom solver asking the
//! budget before every stage, so a pairing stops within one stage of its deadline, or of the
//! moment whoever asked for it set the stop flag (the server sets it when the client has
//! gone). The engine then returns an error and the caller, seeing [`Budget::spent`], reports
//! the budget rather than the error. The flag is plain shared data and the deadline a reading
//! of the monotonic clock: no I/O.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::matching::StoppableBlossom;

/// The deadline and the stop flag of one pairing. Clones share the flag.
#[derive(Debug, Clone)]
pub struct Budget {
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
}

impl Budget {
    /// No deadline; stops only when [`Budget::stop`] is called.
    pub fn unlimited() -> Budget {
        Budget {
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// At most `limit` from now.
    pub fn within(limit: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(limit),
            ..Budget::unlimited()
        }
    }

    /// Asks the pairing to stop at its next check (the client has gone).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the pairing must stop: stopped, or past the deadline.
    pub fn spent(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The blossom solver, stopping once this budget is spent.
    pub fn solver(&self) -> StoppableBlossom<impl Fn() -> bool + '_> {
        StoppableBlossom(|| self.spent())
    }
}

#[cfg(test)]
mod tests {
    use super::super::simulate::random_players;
    use super::super::state::{SwissSettings, SwissState};
    use super::*;
    use crate::engine::chess::swiss::us::pair_next_round;
    use crate::engine::matching::BlossomSolver;
    use crate::engine::rng::SplitMix64;

    fn section(n: u32) -> SwissState {
        SwissState {
            settings: SwissSettings::default(),
            players: random_players(n, &mut SplitMix64::new(3)),
            round: None,
            requested_byes: vec![],
            absent: vec![],
        }
    }

    #[test]
    fn a_spent_budget_stops_the_pairing_and_says_so() {
        let s = section(40);
        let budget = Budget::within(Duration::ZERO);
        assert!(pair_next_round(&s, &budget.solver()).is_err());
        assert!(budget.spent());
    }

    #[test]
    fn a_stop_from_the_caller_is_seen_by_every_clone() {
        let s = section(40);
        let budget = Budget::unlimited();
        let solver = budget.solver();
        let fresh = pair_next_round(&s, &solver).unwrap();
        assert_eq!(fresh, pair_next_round(&s, &BlossomSolver).unwrap());
        budget.clone().stop();
        assert!(budget.spent());
        assert!(pair_next_round(&s, &solver).is_err());
    }
}
