//! Every round of generated events (10-500 players, half-point and zero-point byes,
//! forfeits, withdrawals) paired by the Lim engine and tested by the checker of
//! [`super::check`], which re-derives each rule of the text on its own.

use super::check::{check_round, completable, Report};
use super::*;
use crate::engine::chess::swiss::checked_events::play_event;
use crate::engine::chess::swiss::simulate::random_players;
use crate::engine::chess::swiss::{PairingSystem, SwissSettings};
use crate::engine::matching::BlossomSolver;
use crate::engine::rng::SplitMix64;

/// Totals over the rounds of some events.
#[derive(Default, Debug)]
struct Totals {
    rounds: usize,
    /// Rounds the engine found impossible, confirmed by the checker.
    impossible: usize,
    checks: usize,
    brute: usize,
    violations: Vec<String>,
}

impl Totals {
    fn add(&mut self, r: Report) {
        self.rounds += 1;
        self.checks += r.checks;
        self.brute += r.brute;
        self.violations.extend(r.violations);
    }
}

/// Plays an event of `n` players and `rounds` rounds, every round checked.
fn play(n: u32, rounds: u32, seed: u64, totals: &mut Totals) -> SwissState {
    play_event(PairingSystem::FideLim, n, rounds, seed, |state| {
        let pairing = match pair_lim(state, &BlossomSolver) {
            Ok(p) => p,
            Err(_) if !completable(state) => {
                totals.impossible += 1;
                return None;
            }
            Err(e) => {
                totals.violations.push(format!(
                    "{n} players seed {seed} round {}: not paired: {}",
                    state.round_to_pair(),
                    e.message
                ));
                return None;
            }
        };
        let initial = crate::engine::chess::swiss::dutch::initial_colour(state);
        let mut report = check_round(state, &pairing, initial);
        for v in report.violations.iter_mut() {
            *v = format!("{n} players seed {seed}: {v}");
        }
        totals.add(report);
        Some(pairing)
    })
}

fn run(events: &[(u32, u32, u64)]) -> Totals {
    let mut totals = Totals::default();
    for &(n, rounds, seed) in events {
        play(n, rounds, seed, &mut totals);
    }
    eprintln!(
        "Lim checker: {} rounds, {} rule tests, {} rounds by brute force, {} violations; {} rounds without any compatible pairing (event stopped)",
        totals.rounds,
        totals.checks,
        totals.brute,
        totals.violations.len(),
        totals.impossible
    );
    totals
}

#[test]
fn every_round_of_small_events_meets_every_criterion() {
    let mut events = vec![];
    for seed in 1..=12u64 {
        for &n in &[10u32, 11, 13, 16, 21] {
            events.push((n, 7 + (seed % 3) as u32, seed * 101 + n as u64));
        }
    }
    let totals = run(&events);
    assert!(totals.brute > 50, "{totals:?}");
    assert!(
        totals.violations.is_empty(),
        "{:#?}",
        &totals.violations[..totals.violations.len().min(20)]
    );
}

#[test]
fn every_round_of_mid_sized_events_meets_every_criterion() {
    let events = [(40, 9, 7), (63, 9, 8), (100, 9, 9), (150, 11, 10)];
    let totals = run(&events);
    assert!(
        totals.violations.is_empty(),
        "{:#?}",
        &totals.violations[..totals.violations.len().min(20)]
    );
}

/// The large events: `cargo test --lib lim::tests::large -- --ignored` (minutes in a
/// debug build).
#[test]
#[ignore]
fn large_events_meet_every_criterion() {
    let events = [(200, 9, 11), (500, 9, 12)];
    let totals = run(&events);
    assert!(
        totals.violations.is_empty(),
        "{:#?}",
        &totals.violations[..totals.violations.len().min(20)]
    );
}

#[test]
fn the_section_setting_chooses_lim() {
    let mut rng = SplitMix64::new(5);
    let state = SwissState {
        settings: SwissSettings {
            system: PairingSystem::FideLim,
            total_rounds: 5,
            ..SwissSettings::default()
        },
        players: random_players(11, &mut rng),
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    let by_setting = crate::engine::chess::swiss::pair_round(&state, &BlossomSolver).unwrap();
    assert_eq!(by_setting, pair_lim(&state, &BlossomSolver).unwrap());
}

/// The benchmark's histories (greedy top-down rounds: long runs of one colour, many players
/// due the same colour absolutely, large score groups), each shape at rounds 3-7: the
/// groups that need many floaters and exchanges.
#[test]
fn every_benchmark_history_meets_every_criterion() {
    use crate::engine::chess::swiss::simulate::{shaped_state, HistoryShape};
    let mut totals = Totals::default();
    for shape in HistoryShape::ALL {
        for round in 3..=7 {
            for &n in &[14u32, 41] {
                let mut state = shaped_state(n, round as u64, shape, round);
                state.settings.system = PairingSystem::FideLim;
                state.settings.acceleration = Default::default();
                let pairing = match pair_lim(&state, &BlossomSolver) {
                    Ok(p) => p,
                    Err(_) if !completable(&state) => {
                        totals.impossible += 1;
                        continue;
                    }
                    Err(e) => panic!("{} {n} round {round}: {}", shape.name(), e.message),
                };
                let initial = crate::engine::chess::swiss::dutch::initial_colour(&state);
                let mut report = check_round(&state, &pairing, initial);
                for v in report.violations.iter_mut() {
                    *v = format!("{} {n} players round {round}: {v}", shape.name());
                }
                totals.add(report);
            }
        }
    }
    eprintln!("{totals:?}");
    assert!(totals.rounds > 50, "{totals:?}");
    assert!(
        totals.violations.is_empty(),
        "{:#?}",
        &totals.violations[..totals.violations.len().min(20)]
    );
}

/// `tourney check --system fide_lim` on a finished event: the TRF of an event the engine
/// paired (byes, forfeits, withdrawals) is re-paired round by round, every round the same.
#[test]
fn a_finished_lim_event_checks_as_its_own_pairing() {
    use crate::engine::chess::swiss::dutch::check::check_event_with;
    use crate::engine::chess::swiss::trf::{parse_trf, write_trf};
    let mut totals = Totals::default();
    for (n, seed) in [(23u32, 3u64), (40, 4)] {
        let state = play(n, 7, seed, &mut totals);
        let text = write_trf(&state, "lim");
        let read = parse_trf(&text).expect("trf");
        let checks =
            check_event_with(&read, &|before| pair_lim(before, &BlossomSolver)).expect("checked");
        assert_eq!(checks.len(), 7);
        for c in checks {
            assert!(c.agrees(), "{n} players round {}: {c:?}", c.round);
        }
    }
}
