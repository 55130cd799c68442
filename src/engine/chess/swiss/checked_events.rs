//! Events for the rule checks of the FIDE systems (Dubov, Lim): a random field played round
//! by round with the absences a real open has, each round paired and checked by the caller;
//! and sections written by hand for the cases one rule each.

use super::simulate::{apply_round, random_players};
use super::{
    Colour, PairingSystem, RequestedBye, RoundPairing, RoundRecord, RoundResult, SwissPlayer,
    SwissSettings, SwissState,
};
use crate::engine::rng::SplitMix64;

/// Plays an event of `n` players and `rounds` rounds of `system` from `seed`. Before each
/// round 1 % of the players who have played withdraw and 4 % of the rest ask for a bye (half a
/// point or none); `pair_and_check` pairs the round and checks it, or answers `None` to stop
/// the event there; the round's results are drawn and 4 % of its boards forfeited. Returns
/// the section as it stands when the event stops.
pub(crate) fn play_event(
    system: PairingSystem,
    n: u32,
    rounds: u32,
    seed: u64,
    mut pair_and_check: impl FnMut(&SwissState) -> Option<RoundPairing>,
) -> SwissState {
    let mut rng = SplitMix64::new(seed);
    let mut state = SwissState {
        settings: SwissSettings {
            system,
            total_rounds: rounds,
            seed,
            ..SwissSettings::default()
        },
        players: random_players(n, &mut rng),
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    for _ in 0..rounds {
        for p in state.players.iter_mut() {
            if !p.withdrawn && rng.below(100) == 0 && !p.history.is_empty() {
                p.withdrawn = true;
            }
        }
        let mut byes = vec![];
        for p in state.players.iter().filter(|p| !p.withdrawn) {
            if rng.below(100) < 4 {
                byes.push(RequestedBye {
                    player: p.start_number,
                    points: if rng.below(2) == 0 { 0.5 } else { 0.0 },
                });
            }
        }
        state.requested_byes = byes;
        let active = state.players.iter().filter(|p| !p.withdrawn).count();
        if active - state.requested_byes.len() < 2 {
            state.requested_byes.clear();
        }
        let Some(pairing) = pair_and_check(&state) else {
            return state;
        };
        apply_round(&mut state, &pairing, &mut rng);
        let r = pairing.round as usize - 1;
        for b in &pairing.pairings {
            if rng.below(100) < 4 {
                let white_wins = rng.below(2) == 0;
                for (sn, wins) in [(b.white, white_wins), (b.black, !white_wins)] {
                    let p = state
                        .players
                        .iter_mut()
                        .find(|p| p.start_number == sn)
                        .expect("player");
                    p.history[r].result = if wins {
                        RoundResult::ForfeitWin
                    } else {
                        RoundResult::ForfeitLoss
                    };
                    p.history[r].colour = None;
                }
            }
        }
    }
    state
}

/// A section of `system` written by hand for the rule cases: `n` players (start numbers 1.., rated 2400 down by 20), `total` rounds
/// planned, the initial colour White, and the rounds played: `(white, black, result)` with
/// the result for White (`1`, `0`, `=`, `+` White wins by forfeit, `-` Black does), or
/// `(player, 0, kind)` for a bye (`U` pairing-allocated, `F` full point, `H` half, `Z` none).
/// A player missing from a round is absent (zero-point bye).
pub(crate) fn hand_section(
    system: PairingSystem,
    n: u32,
    total: u32,
    rounds: &[&[(u32, u32, &str)]],
) -> SwissState {
    let mut players: Vec<SwissPlayer> = (1..=n)
        .map(|k| SwissPlayer {
            start_number: k,
            name: format!("Player {k}"),
            rating: 2400 - 20 * (k - 1),
            ..Default::default()
        })
        .collect();
    for (r, boards) in rounds.iter().enumerate() {
        for &(w, b, res) in boards.iter() {
            if b == 0 {
                let result = match res {
                    "U" => RoundResult::PairingBye,
                    "F" => RoundResult::FullBye,
                    "H" => RoundResult::HalfBye,
                    _ => RoundResult::ZeroBye,
                };
                players[w as usize - 1].history.push(RoundRecord {
                    opponent: None,
                    colour: None,
                    result,
                });
                continue;
            }
            use RoundResult::*;
            let (rw, rb, played) = match res {
                "1" => (Win, Loss, true),
                "0" => (Loss, Win, true),
                "=" => (Draw, Draw, true),
                "+" => (ForfeitWin, ForfeitLoss, false),
                _ => (ForfeitLoss, ForfeitWin, false),
            };
            for (me, other, result, colour) in
                [(w, b, rw, Colour::White), (b, w, rb, Colour::Black)]
            {
                players[me as usize - 1].history.push(RoundRecord {
                    opponent: Some(other),
                    colour: played.then_some(colour),
                    result,
                });
            }
        }
        for p in players.iter_mut() {
            while p.history.len() <= r {
                p.history.push(RoundRecord {
                    opponent: None,
                    colour: None,
                    result: RoundResult::ZeroBye,
                });
            }
        }
    }
    SwissState {
        settings: SwissSettings {
            system,
            total_rounds: total,
            first_colour: Some(Colour::White),
            ..SwissSettings::default()
        },
        players,
        round: None,
        requested_byes: vec![],
        absent: vec![],
    }
}
