//! Whole-event simulation with rating-based random results, and quality figures per round.

use super::colour::{due, ColourCode, ColourEffect};
use super::round::RoundPairing;
use super::state::{
    view, Colour, ColourRule, RoundRecord, RoundResult, SwissError, SwissPlayer, SwissSettings,
    SwissState,
};
use super::us::colour::{assign, ColourContext};
use super::us::pair_next_round;
use super::SettingsOverrides;
use crate::engine::matching::MatchingSolver;
use crate::engine::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Quality figures of one simulated round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RoundQuality {
    /// Round number.
    pub round: u32,
    /// Boards whose two players had met before.
    pub rematches: u32,
    /// Pairing byes given to a player who already had a full-point bye.
    pub repeated_byes: u32,
    /// Players paired outside their score group (one per board with a score difference).
    pub outside_score_group: u32,
    /// Sum over boards of the score difference (points).
    pub score_difference_sum: f64,
    /// Players given a colour that makes one colour two (or more) more than the other.
    pub equalisation_failures: u32,
    /// Players given the same colour as in their previous game.
    pub alternation_failures: u32,
    /// Players given the same colour a third time in a row (or more).
    pub three_in_a_row: u32,
    /// Players whose |whites − blacks| the round took beyond 2 (or further beyond).
    #[serde(default)]
    pub imbalance_beyond_two: u32,
    /// Boards whose two players were due the same colour.
    #[serde(default)]
    pub same_colour_clashes: u32,
    /// Largest |whites − blacks| over all players after the round.
    pub largest_imbalance: u32,
    /// Wall-clock time of the pairing (model build and solve), seconds.
    #[serde(default)]
    pub pairing_seconds: f64,
}

/// The result of [`simulate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SimulationReport {
    /// Number of players.
    pub players: u32,
    /// Number of rounds.
    pub rounds: u32,
    /// Seed.
    pub seed: u64,
    /// One entry per round.
    pub per_round: Vec<RoundQuality>,
}

/// Random ratings 1000..2600, start numbers by rating (highest = 1).
pub fn random_players(n: u32, rng: &mut SplitMix64) -> Vec<SwissPlayer> {
    let mut ratings: Vec<u32> = (0..n).map(|_| 1000 + rng.below(1600) as u32).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    ratings
        .into_iter()
        .enumerate()
        .map(|(i, r)| SwissPlayer {
            start_number: i as u32 + 1,
            name: format!("Player {}", i + 1),
            rating: r,
            ..Default::default()
        })
        .collect()
}

/// A random result for White, Elo expectation with 20 % draws around the middle.
fn random_result(rw: u32, rb: u32, rng: &mut SplitMix64) -> RoundResult {
    random_result_drawn(rw, rb, 20, rng)
}

/// A random result for White by the Elo expectation, with `draws` percent of draws around
/// the middle (at most 100).
fn random_result_drawn(rw: u32, rb: u32, draws: u32, rng: &mut SplitMix64) -> RoundResult {
    let pw = 1.0 / (1.0 + 10f64.powf((rb as f64 - rw as f64) / 400.0));
    let u = rng.below(1_000_000) as f64 / 1_000_000.0;
    let half = draws as f64 / 200.0;
    if draws >= 100 {
        RoundResult::Draw
    } else if u < pw - half {
        RoundResult::Win
    } else if u < pw + half {
        RoundResult::Draw
    } else {
        RoundResult::Loss
    }
}

fn flip(r: RoundResult) -> RoundResult {
    match r {
        RoundResult::Win => RoundResult::Loss,
        RoundResult::Loss => RoundResult::Win,
        x => x,
    }
}

/// Writes a round into the players' histories with random results.
pub fn apply_round(state: &mut SwissState, pairing: &RoundPairing, rng: &mut SplitMix64) {
    let idx = |s: &SwissState, sn: u32| {
        s.players
            .iter()
            .position(|p| p.start_number == sn)
            .expect("known player")
    };
    let r = pairing.round as usize;
    for b in &pairing.pairings {
        let (w, k) = (idx(state, b.white), idx(state, b.black));
        let res = random_result(state.players[w].rating, state.players[k].rating, rng);
        state.players[w].history.push(RoundRecord {
            opponent: Some(b.black),
            colour: Some(Colour::White),
            result: res,
        });
        state.players[k].history.push(RoundRecord {
            opponent: Some(b.white),
            colour: Some(Colour::Black),
            result: flip(res),
        });
    }
    for b in &pairing.byes {
        let i = idx(state, b.player);
        let result = if b.kind == super::round::ByeKind::Pairing {
            RoundResult::PairingBye
        } else if b.points == 1.0 {
            RoundResult::FullBye
        } else if b.points == 0.5 {
            RoundResult::HalfBye
        } else {
            RoundResult::ZeroBye
        };
        state.players[i].history.push(RoundRecord {
            opponent: None,
            colour: None,
            result,
        });
    }
    for p in state.players.iter_mut() {
        while p.history.len() < r {
            p.history.push(RoundRecord {
                opponent: None,
                colour: None,
                result: RoundResult::ZeroBye,
            });
        }
    }
    state.round = None;
    state.requested_byes.clear();
    state.absent.clear();
}

/// Quality figures of `pairing` measured on the state *before* it is applied.
pub fn measure(state: &SwissState, pairing: &RoundPairing) -> RoundQuality {
    let views: Vec<_> = (0..state.players.len()).map(|i| view(state, i)).collect();
    let get = |sn: u32| views.iter().find(|v| v.sn == sn).expect("known player");
    let mut q = RoundQuality {
        round: pairing.round,
        rematches: 0,
        repeated_byes: 0,
        outside_score_group: 0,
        score_difference_sum: 0.0,
        equalisation_failures: 0,
        alternation_failures: 0,
        three_in_a_row: 0,
        imbalance_beyond_two: 0,
        same_colour_clashes: 0,
        largest_imbalance: 0,
        pairing_seconds: 0.0,
    };
    for b in &pairing.pairings {
        let (w, k) = (get(b.white), get(b.black));
        if w.met.contains(&k.sn) {
            q.rematches += 1;
        }
        if w.score != k.score {
            q.outside_score_group += 1;
            q.score_difference_sum += (w.score - k.score).abs() as f64 / 2.0;
        }
        if due(w).is_some() && due(w) == due(k) {
            q.same_colour_clashes += 1;
        }
        for (p, c) in [(w, Colour::White), (k, Colour::Black)] {
            let e = ColourEffect::of(p, c);
            if e.worsens && e.imbalance.abs() >= 2 {
                q.equalisation_failures += 1;
            } else if e.repeats_last && e.run < 3 {
                q.alternation_failures += 1;
            }
            q.three_in_a_row += u32::from(e.run >= 3);
            q.imbalance_beyond_two += u32::from(e.worsens && e.imbalance.abs() > 2);
            let d = if c == Colour::White { 1 } else { -1 };
            q.largest_imbalance = q
                .largest_imbalance
                .max((p.imbalance() + d).unsigned_abs() as u32);
        }
    }
    for b in &pairing.byes {
        if b.points == 1.0 && get(b.player).had_full_bye {
            q.repeated_byes += 1;
        }
    }
    for v in &views {
        q.largest_imbalance = q.largest_imbalance.max(v.imbalance().unsigned_abs() as u32);
    }
    q
}

/// Plays a whole event of `players` players and `rounds` rounds.
pub fn simulate(
    players: u32,
    rounds: u32,
    seed: u64,
    solver: &dyn MatchingSolver,
) -> Result<SimulationReport, SwissError> {
    simulate_with(players, rounds, seed, &SettingsOverrides::default(), solver)
}

/// [`simulate`] with section settings (system, colour rule, limits; the seed of the coin
/// flips is `seed` unless `overrides` gives one).
pub fn simulate_with(
    players: u32,
    rounds: u32,
    seed: u64,
    overrides: &SettingsOverrides,
    solver: &dyn MatchingSolver,
) -> Result<SimulationReport, SwissError> {
    let plan = SimulationPlan {
        players,
        rounds,
        seed,
        absent_percent: 0,
    };
    simulate_by(&plan, overrides, &mut |s: &SwissState| {
        pair_next_round(s, solver)
    })
}

/// The shape of a simulated event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimulationPlan {
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    /// Each round, each player is absent with this chance (percent, at most 50; drawn from
    /// the seed). An absence is a zero-point bye requested for the round.
    pub absent_percent: u32,
}

/// Plays a whole event, each round paired by `pair` (the engine, or another program given the
/// same state), and measures every round on the state it was paired from. The histories are
/// random but seeded: results from the ratings, absences from `absent_percent`.
pub fn simulate_by(
    plan: &SimulationPlan,
    overrides: &SettingsOverrides,
    pair: &mut dyn FnMut(&SwissState) -> Result<RoundPairing, SwissError>,
) -> Result<SimulationReport, SwissError> {
    use crate::limits::{MAX_ROUNDS, MAX_SECTION_PLAYERS};
    let SimulationPlan {
        players,
        rounds,
        seed,
        absent_percent,
    } = *plan;
    if players as usize > MAX_SECTION_PLAYERS {
        return Err(super::state::err(
            "players",
            format!("a section has at most {MAX_SECTION_PLAYERS} players"),
        ));
    }
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(super::state::err(
            "rounds",
            format!("must be between 1 and {MAX_ROUNDS}"),
        ));
    }
    if absent_percent > 50 {
        return Err(super::state::err("absent_percent", "must be at most 50"));
    }
    let mut rng = SplitMix64::new(seed ^ 0x5157_155E);
    let mut absences = SplitMix64::new(seed ^ 0x00AB_5E47);
    let mut settings = SwissSettings {
        total_rounds: rounds,
        seed,
        ..SwissSettings::default()
    };
    overrides.apply(&mut settings)?;
    let mut state = SwissState {
        settings,
        players: random_players(players, &mut rng),
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    let mut per_round = Vec::new();
    for _ in 0..rounds {
        if absent_percent > 0 {
            let mut away: Vec<u32> = state
                .players
                .iter()
                .filter(|_| absences.below(100) < absent_percent as u64)
                .map(|p| p.start_number)
                .collect();
            // Leave at least two players to pair.
            away.truncate(state.players.len().saturating_sub(2));
            state.requested_byes = away
                .into_iter()
                .map(|player| super::state::RequestedBye {
                    player,
                    points: 0.0,
                })
                .collect();
        }
        let started = std::time::Instant::now();
        let pairing = pair(&state)?;
        let elapsed = started.elapsed().as_secs_f64();
        let mut q = measure(&state, &pairing);
        q.pairing_seconds = elapsed;
        per_round.push(q);
        apply_round(&mut state, &pairing, &mut rng);
    }
    Ok(SimulationReport {
        players,
        rounds,
        seed,
        per_round,
    })
}

/// A state ready for round 6 of a 9-round event of `n` players, built quickly by a simple
/// greedy top-down pairing of rounds 1–5 (for benchmarks: it needs no solver).
pub fn bench_state(n: u32, seed: u64) -> SwissState {
    let mut rng = SplitMix64::new(seed);
    let settings = SwissSettings {
        total_rounds: 9,
        seed,
        ..SwissSettings::default()
    };
    let mut state = SwissState {
        settings,
        players: random_players(n, &mut rng),
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    for round in 1..=5u32 {
        let mut views: Vec<_> = (0..state.players.len()).map(|i| view(&state, i)).collect();
        views.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
        let ctx = ColourContext {
            rule: ColourRule::Rule3b,
            last_round: false,
            even_threshold: 0,
            first_colour: Colour::White,
            seed,
            round,
        };
        let m = views.len();
        let mut used = vec![false; m];
        let mut boards = Vec::new();
        let mut bye = None;
        if m % 2 == 1 {
            let z = (0..m)
                .rev()
                .find(|&i| !views[i].had_full_bye)
                .unwrap_or(m - 1);
            used[z] = true;
            bye = Some(views[z].sn);
        }
        for i in 0..m {
            if used[i] {
                continue;
            }
            // Greedy: the first unused unmet player at least a few places down.
            let pick = (i + 1..m)
                .filter(|&j| !used[j] && !views[i].met.contains(&views[j].sn))
                .find(|&j| views[j].score < views[i].score || j > i + 3)
                .or_else(|| (i + 1..m).find(|&j| !used[j] && !views[i].met.contains(&views[j].sn)))
                .or_else(|| (i + 1..m).find(|&j| !used[j]));
            if let Some(j) = pick {
                used[i] = true;
                used[j] = true;
                let (c, _) = assign(&views[i], &views[j], &ctx);
                let (w, b) = if c == Colour::White { (i, j) } else { (j, i) };
                boards.push(super::round::BoardPairing {
                    board: boards.len() as u32 + 1,
                    white: views[w].sn,
                    black: views[b].sn,
                });
            }
        }
        let mut byes = Vec::new();
        if let Some(sn) = bye {
            byes.push(super::round::ByeAward {
                player: sn,
                points: 1.0,
                kind: super::round::ByeKind::Pairing,
            });
        }
        let explanation = bye
            .map(|sn| {
                vec![super::round::ExplanationEntry::Board(
                    super::round::BoardExplanation {
                        board: 0,
                        white: sn,
                        black: None,
                        cost: 0,
                        tiers: super::round::TierBreakdown {
                            repeat: 0,
                            preference: 0,
                            score: 0,
                            serious_colour: 0,
                            colour: 0,
                            rating: 0,
                        },
                        colour_white: ColourCode::Ok,
                        colour_black: ColourCode::Ok,
                        colour_rule: None,
                        rating_change: 0,
                        change_code: String::new(),
                        rematch: false,
                        same_team: false,
                        prohibited: false,
                        score_drop: 0.0,
                    },
                )]
            })
            .unwrap_or_default();
        let pairing = RoundPairing {
            round,
            pairings: boards,
            byes,
            explanation,
        };
        apply_round(&mut state, &pairing, &mut rng);
    }
    state
}

/// The shape of a benchmark history ([`shaped_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryShape {
    /// [`bench_state`]: ratings 1000-2600, 20 % draws, nobody absent.
    Rank,
    /// An open: ratings uniform in 1000-2800, results by the Elo expectation with 30 % draws,
    /// about 0.4 % of the field withdrawing each round, 1 % half-point byes requested each
    /// round, the pairing-allocated bye when the number is odd.
    Open,
    /// [`HistoryShape::Open`] with 70 % draws: few, large score groups.
    Draws,
    /// [`HistoryShape::Open`] paired on Baku-accelerated scores; the TRF asks for the Baku
    /// method (`092 FIDE_DUTCH_2025_BAKU`).
    Baku,
    /// Every game drawn and nobody absent: the whole field in one score group (the players
    /// who had the pairing bye one point above).
    OneGroup,
    /// [`HistoryShape::Open`] where a fifth of the field (by lot) enters late, in rounds
    /// 2 to the round before the one paired (zero-point byes before).
    Late,
}

impl HistoryShape {
    /// Every shape, in the order the benchmark prints them.
    pub const ALL: [HistoryShape; 6] = [
        HistoryShape::Rank,
        HistoryShape::Open,
        HistoryShape::Draws,
        HistoryShape::Baku,
        HistoryShape::OneGroup,
        HistoryShape::Late,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HistoryShape::Rank => "rank",
            HistoryShape::Open => "open",
            HistoryShape::Draws => "draws",
            HistoryShape::Baku => "baku",
            HistoryShape::OneGroup => "one-group",
            HistoryShape::Late => "late",
        }
    }

    /// The shape of a name.
    pub fn parse(name: &str) -> Option<HistoryShape> {
        HistoryShape::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A state ready for round `round` (2 or more) of a 9-round event (or of `round` rounds if
/// more) of `n` players of the given shape, the rounds before paired by a quick greedy
/// top-down pairing on the (accelerated) scores, as [`bench_state`] does; for benchmarks.
/// `HistoryShape::Rank` at round 6 is [`bench_state`] itself.
pub fn shaped_state(n: u32, seed: u64, shape: HistoryShape, round: u32) -> SwissState {
    if shape == HistoryShape::Rank && round == 6 {
        return bench_state(n, seed);
    }
    let round = round.max(2);
    let mut rng = SplitMix64::new(seed);
    let mut events = SplitMix64::new(seed ^ 0x0005_4A9E);
    let settings = SwissSettings {
        total_rounds: 9.max(round),
        seed,
        ..SwissSettings::default()
    };
    let players = match shape {
        HistoryShape::Rank => random_players(n, &mut rng),
        _ => {
            let mut ratings: Vec<u32> = (0..n).map(|_| 1000 + rng.below(1801) as u32).collect();
            ratings.sort_unstable_by(|a, b| b.cmp(a));
            ratings
                .into_iter()
                .enumerate()
                .map(|(i, r)| SwissPlayer {
                    start_number: i as u32 + 1,
                    name: format!("Player {}", i + 1),
                    rating: r,
                    ..Default::default()
                })
                .collect()
        }
    };
    let mut state = SwissState {
        settings,
        players,
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    let accel = match shape {
        HistoryShape::Baku => super::accel::Acceleration::baku(&state),
        _ => super::accel::Acceleration::none(),
    };
    let (draws, withdraw_per_mille, half_bye_per_mille) = match shape {
        HistoryShape::Rank => (20, 0, 0),
        HistoryShape::OneGroup => (100, 0, 0),
        HistoryShape::Draws => (70, 4, 10),
        _ => (30, 4, 10),
    };
    // The round each player enters (1 for most) and withdraws after (none for most).
    let entry: Vec<u32> = (0..n)
        .map(|_| {
            if shape == HistoryShape::Late && events.below(5) == 0 {
                2 + events.below(u64::from(round - 2).max(1)) as u32
            } else {
                1
            }
        })
        .collect();
    let mut withdrawn = vec![false; n as usize];
    for r in 1..=round {
        // Who plays round r: entered, not withdrawn, no half-point bye requested.
        let mut byes: Vec<(usize, RoundResult)> = Vec::new();
        let mut playing = Vec::new();
        for i in 0..n as usize {
            if entry[i] > r || withdrawn[i] {
                byes.push((i, RoundResult::ZeroBye));
            } else if withdraw_per_mille > 0 && events.below(1000) < withdraw_per_mille {
                withdrawn[i] = true;
                byes.push((i, RoundResult::ZeroBye));
            } else if half_bye_per_mille > 0 && events.below(1000) < half_bye_per_mille {
                byes.push((i, RoundResult::HalfBye));
            } else {
                playing.push(i);
            }
        }
        if r == round {
            state.requested_byes = byes
                .iter()
                .filter(|&&(i, _)| entry[i] <= r)
                .map(|&(i, res)| super::state::RequestedBye {
                    player: state.players[i].start_number,
                    points: if res == RoundResult::HalfBye {
                        0.5
                    } else {
                        0.0
                    },
                })
                .collect();
            // Late entries not yet in: no record for this round either.
            break;
        }
        let mut views: Vec<_> = playing.iter().map(|&i| view(&state, i)).collect();
        let key = |v: &super::state::PlayerView| v.score + accel.of(v.sn, r as usize - 1);
        views.sort_by(|a, b| key(b).cmp(&key(a)).then(b.rating.cmp(&a.rating)));
        let ctx = ColourContext {
            rule: ColourRule::Rule3b,
            last_round: false,
            even_threshold: 0,
            first_colour: Colour::White,
            seed,
            round: r,
        };
        let m = views.len();
        let mut used = vec![false; m];
        let mut records: Vec<(u32, RoundRecord)> = Vec::new();
        if m % 2 == 1 {
            let z = (0..m)
                .rev()
                .find(|&i| !views[i].had_full_bye)
                .unwrap_or(m - 1);
            used[z] = true;
            records.push((
                views[z].sn,
                RoundRecord {
                    opponent: None,
                    colour: None,
                    result: RoundResult::PairingBye,
                },
            ));
        }
        // Score group by score group, as a Swiss pairs: the top half against the bottom
        // half, each against the first unused player of the other half he has not met
        // (else of the rest below); whoever is left moves down to the next group.
        let mut picks: Vec<(usize, usize)> = Vec::new();
        let mut carried: Vec<usize> = Vec::new();
        let mut a = 0;
        while a < m {
            let mut b = a;
            while b < m && key(&views[b]) == key(&views[a]) {
                b += 1;
            }
            let mut group: Vec<usize> = std::mem::take(&mut carried);
            group.extend((a..b).filter(|&i| !used[i]));
            let half = group.len() / 2;
            for x in 0..group.len() {
                let i = group[x];
                if used[i] {
                    continue;
                }
                let free =
                    |j: &usize| !used[*j] && *j != i && !views[i].met.contains(&views[*j].sn);
                let pick = group[half.max(x + 1)..]
                    .iter()
                    .copied()
                    .find(free)
                    .or_else(|| group[x + 1..].iter().copied().find(free))
                    .or_else(|| (b..m).find(free));
                if let Some(j) = pick {
                    used[i] = true;
                    used[j] = true;
                    picks.push((i, j));
                } else {
                    carried.push(i);
                }
            }
            a = b;
        }
        for (i, j) in picks {
            let (c, _) = assign(&views[i], &views[j], &ctx);
            let (w, b) = if c == Colour::White { (i, j) } else { (j, i) };
            let res = random_result_drawn(views[w].rating, views[b].rating, draws, &mut rng);
            let (ws, bs) = (views[w].sn, views[b].sn);
            records.push((
                ws,
                RoundRecord {
                    opponent: Some(bs),
                    colour: Some(Colour::White),
                    result: res,
                },
            ));
            records.push((
                bs,
                RoundRecord {
                    opponent: Some(ws),
                    colour: Some(Colour::Black),
                    result: flip(res),
                },
            ));
        }
        // Start numbers are 1..=n in player order.
        for (sn, rec) in records {
            state.players[sn as usize - 1].history.push(rec);
        }
        for (i, result) in byes {
            state.players[i].history.push(RoundRecord {
                opponent: None,
                colour: None,
                result,
            });
        }
        for p in state.players.iter_mut() {
            while p.history.len() < r as usize {
                p.history.push(RoundRecord {
                    opponent: None,
                    colour: None,
                    result: RoundResult::ZeroBye,
                });
            }
        }
    }
    state
}
