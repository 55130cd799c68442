//! Unit tests of the Dutch engine: small cases worked by hand from the rules, and rounds
//! of tournaments generated and paired by bbpPairings (fixtures in tests/fixtures/dutch/,
//! written by scripts/dutch-agreement, never edited by hand).

use super::check::check_event;
use super::lex::{solve_lex, LexEdges, LexError, LexStats, Values};
use super::{pair_dutch, Acceleration};
use crate::engine::chess::swiss::trf::{decode_trf, parse_trf};
use crate::engine::chess::swiss::{Colour, SwissPlayer, SwissState};
use crate::engine::matching::BlossomSolver;

/// Tournaments of bbpPairings' generator, every round paired by its Dutch engine
/// (`scripts/dutch-agreement fixtures`).
const FIXTURES: [(&str, &[u8]); 5] = [
    (
        "bbp-5",
        include_bytes!("../../../../../tests/fixtures/dutch/bbp-5.trf"),
    ),
    (
        "bbp-19",
        include_bytes!("../../../../../tests/fixtures/dutch/bbp-19.trf"),
    ),
    (
        "bbp-47",
        include_bytes!("../../../../../tests/fixtures/dutch/bbp-47.trf"),
    ),
    (
        "bbp-94",
        include_bytes!("../../../../../tests/fixtures/dutch/bbp-94.trf"),
    ),
    (
        "bbp-113",
        include_bytes!("../../../../../tests/fixtures/dutch/bbp-113.trf"),
    ),
];

#[test]
fn every_round_of_bbp_pairings_tournaments_is_reproduced() {
    for (name, bytes) in FIXTURES {
        let state = parse_trf(&decode_trf(bytes)).unwrap();
        let checks = check_event(&state, &BlossomSolver, &Acceleration::none()).unwrap();
        assert!(checks.len() >= 7, "{name}: {} rounds", checks.len());
        for c in &checks {
            assert!(c.agrees(), "{name} round {}: {c:?}", c.round);
        }
    }
}

#[test]
fn a_changed_published_pairing_is_reported_in_its_round_only() {
    // Swap the colours of one game of the last round: the check names that round and that
    // board (a change in an earlier round would change the history of every later one).
    let state = parse_trf(&decode_trf(FIXTURES[0].1)).unwrap();
    let last = state.rounds_played() as usize - 1;
    let mut changed = state.clone();
    let i = changed
        .players
        .iter()
        .position(|p| p.history[last].result.is_played())
        .unwrap();
    let opp = changed.players[i].history[last].opponent.unwrap();
    let j = changed
        .players
        .iter()
        .position(|p| p.start_number == opp)
        .unwrap();
    for k in [i, j] {
        let c = changed.players[k].history[last].colour.unwrap();
        changed.players[k].history[last].colour = Some(c.opposite());
    }
    let checks = check_event(&changed, &BlossomSolver, &Acceleration::none()).unwrap();
    let differing: Vec<u32> = checks
        .iter()
        .filter(|c| !c.agrees())
        .map(|c| c.round)
        .collect();
    assert_eq!(differing, vec![last as u32 + 1]);
    let c = &checks[last];
    assert_eq!(c.published_only.len(), 1);
    assert_eq!(c.ours_only.len(), 1);
    let (w, b) = c.published_only[0];
    assert_eq!(c.ours_only[0], (b, w));
}

/// Every perfect matching of `n` vertices (n even, small).
fn matchings(n: usize) -> Vec<Vec<(usize, usize)>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for j in 1..n {
        let rest: Vec<usize> = (1..n).filter(|&k| k != j).collect();
        for m in matchings(n - 2) {
            let mut v = vec![(0, j)];
            v.extend(m.into_iter().map(|(a, b)| (rest[a], rest[b])));
            out.push(v);
        }
    }
    out
}

/// The totals of a matching's pairs on the first `tiers` tiers.
fn tier_vector(edges: &LexEdges, m: &[(usize, usize)], tiers: usize) -> Vec<i64> {
    let mut t = vec![0i64; tiers];
    for &(a, b) in m {
        let e = edges
            .iter()
            .find(|e| e.u == a.min(b) && e.v == a.max(b))
            .unwrap();
        for (k, x) in e.tiers().filter(|x| x.0 < tiers) {
            t[k] += x;
        }
    }
    t
}

#[test]
fn pairs_appended_read_back_as_pushed_into_one_list() {
    // A large bracket's pairs are valued in blocks and joined: every pair keeps its
    // ends and its values (none, one or several), in the order pushed, packed in 32 bits
    // each (the largest tier and value that fit are read back as they were).
    let mut pairs: Vec<(usize, usize, Values)> = (0..9)
        .map(|k| {
            (
                k,
                k + 1 + k % 3,
                (0..k % 4).map(|t| (t * 2, k as i64 + 1)).collect(),
            )
        })
        .collect();
    pairs[5].2.push((u32::MAX as usize, i64::from(u32::MAX)));
    pairs[6].2.push((70_000, 100_000_000));
    let mut one = LexEdges::default();
    let (mut upper, mut lower) = (LexEdges::default(), LexEdges::default());
    for (i, (u, v, t)) in pairs.iter().enumerate() {
        one.push(*u, *v, t);
        if i < 4 { &mut upper } else { &mut lower }.push(*u, *v, t);
    }
    upper.append(&lower);
    for list in [&one, &upper] {
        assert_eq!(list.len(), pairs.len());
        for (k, (u, v, t)) in pairs.iter().enumerate() {
            let e = list.get(k);
            let read: Values = e.tiers().collect();
            assert_eq!((e.u, e.v, &read), (*u, *v, t), "pair {k}");
        }
    }
}

#[test]
fn values_beyond_32_bits_are_refused_not_read_truncated() {
    // A value is held in 32 bits: one beyond them marks the list, which the solver refuses
    // (an error, not a pairing from truncated values); appended lists keep the mark.
    let mut edges = LexEdges::default();
    edges.push(0, 1, &[(0, 1)]);
    edges.push(2, 3, &[(0, 2)]);
    assert!(edges.fits());
    let mut stats = LexStats::default();
    let mate = solve_lex(&BlossomSolver, 4, &edges, 1, None, false, None, &mut stats);
    assert_eq!(mate.unwrap(), Some(vec![1, 0, 3, 2]));
    for bad in [
        (0, i64::from(u32::MAX) + 1),
        (0, -1),
        (u32::MAX as usize + 1, 1),
    ] {
        let mut more = LexEdges::default();
        more.push(0, 2, &[bad]);
        assert!(!more.fits(), "{bad:?}");
        let mut joined = edges.clone();
        joined.append(&more);
        assert!(!joined.fits());
        let out = solve_lex(&BlossomSolver, 4, &joined, 1, None, false, None, &mut stats);
        assert!(matches!(out, Err(LexError::Unpacked)), "{bad:?}");
    }
}

/// The pairs of a mate vector, lower vertex first.
fn pairs_of(mate: &[usize]) -> Vec<(usize, usize)> {
    (0..mate.len())
        .filter(|&u| mate[u] > u)
        .map(|u| (u, mate[u]))
        .collect()
}

#[test]
fn the_staged_solve_is_the_lexicographic_optimum() {
    // Random tier values on the complete graph of 8 vertices, 12 tiers (the last four are
    // stars: valued only on the edges of one vertex, which the solver pins): the staged
    // solve must reach the least tier vector of all 105 perfect matchings, also when the
    // solver is handed only the boards of neighbours and prices the others in.
    let mut rng = crate::engine::rng::SplitMix64::new(16);
    for case in 0..40 {
        let n = 8;
        let tiers = 12;
        let mut edges = LexEdges::default();
        for u in 0..n {
            for v in u + 1..n {
                let mut t: Vec<(usize, i64)> = Vec::new();
                for k in 0..tiers {
                    let draw = rng.next_u64();
                    if (k < 8 || u == k - 8 || v == k - 8)
                        && !draw.is_multiple_of(3)
                        && !(draw / 3).is_multiple_of(4)
                    {
                        t.push((k, (draw / 3 % 4) as i64));
                    }
                }
                edges.push(u, v, &t);
            }
        }
        let vector = |m: &[(usize, usize)]| tier_vector(&edges, m, tiers);
        let best = matchings(n).iter().map(|m| vector(m)).min().unwrap();
        // All edges in the problem, or only those of neighbours with the rest priced in.
        let sparse: Vec<bool> = edges.iter().map(|e| e.v - e.u <= 1).collect();
        for core in [None, Some(&sparse[..])] {
            let mate = solve_lex(
                &BlossomSolver,
                n,
                &edges,
                tiers,
                None,
                false,
                core,
                &mut LexStats::default(),
            )
            .unwrap()
            .unwrap();
            let ours = pairs_of(&mate);
            assert_eq!(
                vector(&ours),
                best,
                "case {case}, sparse {}",
                core.is_some()
            );
        }
    }
}

#[test]
fn stars_settled_by_the_duals_keep_the_lexicographic_optimum() {
    // 10 vertices, 3 criteria on every edge, then one star per vertex 0-4 (its value
    // grows with the other end, as "the opponent of head k"), then a hint on every edge that is no
    // criterion (`hint_last`), wide enough that the optimum on it often takes a star's
    // cheaper edge at a positive reduced cost. Stars whose cheaper edges the last solve's
    // duals price above the hint's bound are settled without a solve; the tiers before the
    // hint must still be the least vector of all 945 perfect matchings (which fails when
    // only tight edges are counted), and some stars must be settled so.
    let mut rng = crate::engine::rng::SplitMix64::new(23);
    let (n, criteria, stars) = (10, 3, 5);
    let tiers = criteria + stars + 1;
    let mut by_duals = 0;
    for case in 0..400 {
        let mut edges = LexEdges::default();
        for u in 0..n {
            for v in u + 1..n {
                let mut t: Vec<(usize, i64)> = Vec::new();
                for k in 0..criteria {
                    let draw = rng.next_u64();
                    if draw.is_multiple_of(4) {
                        t.push((k, (draw / 4 % 3) as i64 + 1));
                    }
                }
                // Large values (within the 32 bits a value is held in): a stage holds a
                // few stars, so that stars come up after a solve.
                if u < stars {
                    t.push((criteria + u, (v as i64) << 28));
                }
                t.push((tiers - 1, (rng.next_u64() % 1000) as i64));
                edges.push(u, v, &t);
            }
        }
        // The hint is no criterion: the vector stops before it.
        let vector = |m: &[(usize, usize)]| tier_vector(&edges, m, tiers - 1);
        let best = matchings(n).iter().map(|m| vector(m)).min().unwrap();
        let mut stats = LexStats::default();
        let mate = solve_lex(
            &BlossomSolver,
            n,
            &edges,
            tiers,
            None,
            true,
            None,
            &mut stats,
        )
        .unwrap()
        .unwrap();
        let ours = pairs_of(&mate);
        assert_eq!(vector(&ours), best, "case {case}");
        by_duals += stats.by_duals;
    }
    assert!(by_duals >= 10, "only {by_duals} stars settled by the duals");
}

fn players(n: u32) -> Vec<SwissPlayer> {
    (1..=n)
        .map(|sn| SwissPlayer {
            start_number: sn,
            name: format!("P{sn}"),
            rating: 2500 - sn * 10,
            ..Default::default()
        })
        .collect()
}

#[test]
fn round_one_pairs_top_half_against_bottom_half_with_alternating_colours() {
    let mut state = SwissState {
        settings: Default::default(),
        players: players(7),
        round: None,
        requested_byes: Vec::new(),
        absent: Vec::new(),
    };
    state.settings.first_colour = Some(Colour::White);
    let p = pair_dutch(&state, &BlossomSolver).unwrap();
    let boards: Vec<(u32, u32)> = p.pairings.iter().map(|b| (b.white, b.black)).collect();
    // 7 players: the bye to the lowest (7); S1 = 1 2 3, S2 = 4 5 6; odd pairing numbers of
    // the higher player take the initial colour (E.5).
    assert_eq!(boards, vec![(1, 4), (5, 2), (3, 6)]);
    assert_eq!(p.byes[0].player, 7);
}

/// A tournament generated by bbpPairings with the Baku acceleration (`192
/// FIDE_DUTCH_2025_BAKU`, 15 players, 7 rounds planned, 5 played).
const BAKU: &[u8] = include_bytes!("../../../../../tests/fixtures/dutch/bbp-baku-15.trf");

#[test]
fn baku_acceleration_is_read_and_reproduces_bbp_pairings() {
    let text = decode_trf(BAKU);
    let state = parse_trf(&text).unwrap();
    let accel = super::read_acceleration(&text, &state).unwrap();
    // Group A = the first 8 of 15; 7 rounds: 1 point in rounds 1-2, ½ in rounds 3-4.
    assert_eq!(
        (0..5).map(|r| accel.of(1, r)).collect::<Vec<_>>(),
        vec![2, 2, 1, 1, 0]
    );
    assert_eq!(accel.of(8, 0), 2);
    assert_eq!(accel.of(9, 0), 0);
    for c in check_event(&state, &BlossomSolver, &accel).unwrap() {
        assert!(c.agrees(), "round {}: {c:?}", c.round);
    }
    // Without the acceleration round 1 is paired 1-8, 2-9 ...: not what was published.
    let plain = check_event(&state, &BlossomSolver, &Acceleration::none()).unwrap();
    assert!(!plain[0].agrees());
}

#[test]
fn acceleration_records_are_read() {
    let state = parse_trf(&decode_trf(FIXTURES[2].1)).unwrap();
    let text = "XXA    3  1.0  1.0  0.5\n250      0.5   4   5    1   10\n";
    let accel = super::read_acceleration(text, &state).unwrap();
    assert_eq!(
        (0..6).map(|r| accel.of(3, r)).collect::<Vec<_>>(),
        vec![2, 2, 1, 1, 1, 0]
    );
    assert_eq!(accel.of(10, 3), 1);
    assert_eq!(accel.of(11, 3), 0);
    assert!(super::read_acceleration("XXA    3  x.0\n", &state)
        .unwrap_err()
        .starts_with("line 1:"));
}

/// A round in which nobody has played yet is paired S1[i]–S2[i] with the PAB to the last
/// player, without a matching (`Round::untouched`): exactly what the lexicographic solve
/// of the same bracket gives, for every size from 2 to 41.
#[test]
fn a_round_without_history_is_the_first_candidate_the_solver_also_finds() {
    use super::bracket::Round;
    use super::player::DutchPlayer;
    for n in 2..=41usize {
        let players: Vec<DutchPlayer> = (0..n)
            .map(|k| DutchPlayer::by_colours(k as u32 + 1, k, 0, vec![]))
            .collect();
        let round = Round {
            ps: players.iter().collect(),
            last_round: false,
            topscore: 0,
            played: 0,
        };
        let fast = round.untouched().expect("a round without history");
        assert_eq!(fast.solves, 0);
        let solved = round.pair(&BlossomSolver).unwrap();
        let sorted = |p: &[(usize, usize)]| {
            let mut v: Vec<(usize, usize)> = p.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&fast.pairs), sorted(&solved.pairs), "{n} players");
        assert_eq!(fast.bye, solved.bye, "{n} players");
        assert!(solved.solves > 0);
    }
    // Anything behind a player (a colour played, a different score) leaves it to the solver.
    let mut players: Vec<DutchPlayer> = (0..6)
        .map(|k| DutchPlayer::by_colours(k as u32 + 1, k, 0, vec![]))
        .collect();
    players[3] = DutchPlayer::by_colours(4, 3, 0, vec![Colour::White]);
    let round = Round {
        ps: players.iter().collect(),
        last_round: false,
        topscore: 0,
        played: 1,
    };
    assert!(round.untouched().is_none());
}
