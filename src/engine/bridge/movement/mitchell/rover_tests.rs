//! NS rover tests: the seed's rover tables reproduced exactly, every served size correct,
//! late rovers.

use super::rover::{check, share_relay_rule, NINE_TABLE, TWELVE_SKIP};
use super::tests::{assert_accounted, assert_valid, gen, gen_err, meetings, params, rover_tables};
use crate::engine::bridge::movement::model::{Movement, MovementParams, PairId, SitOut};

fn with_rover(kind: &str, t: u32) -> Movement {
    gen(
        kind,
        &MovementParams {
            rover: true,
            ..params(t)
        },
    )
}

/// The rover's list R2, R3, ... as printed in the seed.
fn list(m: &Movement) -> Vec<u32> {
    let tables = rover_tables(m, m.tables + 1);
    assert_eq!(tables[0], None, "the rover sits out round 1");
    tables[1..].iter().map(|t| t.unwrap()).collect()
}

/// The rover properties, plus: each displaced NS pair sits out that round.
fn assert_rover_movement(m: &Movement) {
    assert_valid(m);
    assert_accounted(m);
    meetings(m); // nobody (the rover included) meets a pair or plays a set twice
    let rover = m.tables + 1;
    let mut displaced = std::collections::BTreeSet::new();
    for r in &m.rounds {
        match r.tables.iter().find(|t| t.ns == Some(rover)) {
            Some(_) => {
                assert_eq!(r.sit_out.len(), 1);
                let SitOut::Ns(k) = r.sit_out[0] else {
                    panic!("an NS pair sits out")
                };
                assert!(displaced.insert(k), "NS {k} displaced twice");
            }
            None => assert!(r.sit_out.contains(&SitOut::Ns(rover))),
        }
    }
}

#[test]
fn seed_prime_mitchell_rover_table() {
    let seed: [(u32, &[u32]); 4] = [
        (5, &[2, 4, 1, 3]),
        (7, &[2, 4, 6, 1, 3, 5]),
        (11, &[2, 4, 6, 8, 10, 1, 3, 5, 7, 9]),
        (13, &[2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11]),
    ];
    for (t, row) in seed {
        let m = with_rover("mitchell", t);
        assert_rover_movement(&m);
        assert_eq!(list(&m), row, "{t} tables");
    }
    // Extended to 17, 19, 23 as the seed says: table 2, then up two tables.
    for t in [17u32, 19, 23, 25, 29] {
        let m = with_rover("mitchell", t);
        assert_rover_movement(&m);
        let want: Vec<u32> = (2..=t).map(|r| (2 * (r - 1) - 1) % t + 1).collect();
        assert_eq!(list(&m), want);
    }
}

#[test]
fn seed_nine_table_mitchell_rover_with_the_ew_exchange() {
    let m = with_rover("mitchell", 9);
    assert_rover_movement(&m);
    assert_eq!(list(&m), NINE_TABLE.to_vec());
    assert_eq!(NINE_TABLE, [2, 4, 6, 9, 3, 5, 7, 8]);
    // EW 6 and EW 9 exchange places in rounds 3, 6 and 9 only.
    let plain = gen("mitchell", &params(9));
    for (a, b) in m.rounds.iter().zip(&plain.rounds) {
        let at = |r: &crate::engine::bridge::movement::model::Round, e| {
            r.tables.iter().find(|t| t.ew == Some(e)).unwrap().table
        };
        if a.round.is_multiple_of(3) {
            assert_eq!(at(a, 6), at(b, 9));
            assert_eq!(at(a, 9), at(b, 6));
        } else {
            assert_eq!(at(a, 6), at(b, 6));
        }
    }
    // Without the exchange the seed's list is not a correct rover list.
    assert!(check(&plain, &super::rover::nine_table(9)).is_err());
}

#[test]
fn seed_skip_mitchell_rover_tables() {
    // The (1)* revenge rounds of the seed (round T) are not played: T − 1 rounds.
    let seed: [(u32, &[u32]); 3] = [
        (8, &[2, 4, 6, 3, 5, 7]),
        (10, &[2, 4, 6, 8, 3, 5, 7, 9]),
        (14, &[2, 4, 6, 8, 10, 12, 3, 5, 7, 9, 11, 13]),
    ];
    for (t, row) in seed {
        let m = with_rover("skip_mitchell", t);
        assert_rover_movement(&m);
        assert_eq!(list(&m), row, "{t} tables");
    }
    let m = with_rover("skip_mitchell", 12);
    assert_rover_movement(&m);
    assert_eq!(list(&m), TWELVE_SKIP.to_vec());
    assert_eq!(TWELVE_SKIP, [2, 10, 8, 6, 4, 1, 11, 9, 5, 3]);
}

#[test]
fn seed_share_relay_rover_table_follows_the_rule() {
    // The seed's table, every row. Checked against the rule (rover meets each EW once, plays
    // each set once, displaces each NS once), all five rows are correct as printed, and the
    // low/high alternation rule in rover.rs reproduces each of them.
    let seed: [(u32, &[u32]); 5] = [
        (6, &[2, 5, 3, 6, 4]),
        (8, &[1, 6, 2, 7, 3, 8, 4]),
        (10, &[1, 7, 2, 8, 3, 9, 4, 10, 5]),
        (12, &[3, 9, 4, 10, 5, 11, 6, 12, 7, 1, 8]),
        (14, &[1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7]),
    ];
    for (t, row) in seed {
        let m = with_rover("share_relay_mitchell", t);
        assert_rover_movement(&m);
        assert_eq!(list(&m), row, "{t} tables");
        let rule: Vec<u32> = share_relay_rule(t, t)[1..]
            .iter()
            .map(|x| x.unwrap())
            .collect();
        assert_eq!(rule, row);
    }
}

#[test]
fn every_served_rover_size_is_correct() {
    for t in 3..=30u32 {
        for kind in ["mitchell", "skip_mitchell", "share_relay_mitchell"] {
            let p = MovementParams {
                rover: true,
                ..params(t)
            };
            match super::generate(kind, &p).unwrap() {
                Ok(m) => {
                    assert_rover_movement(&m);
                    let pairs = crate::engine::bridge::movement::validate::all_pairs(&m);
                    assert_eq!(pairs.len() as u32, 2 * t + 1, "{kind} {t}");
                    assert!(pairs.contains(&PairId::Ns(t + 1)));
                }
                Err(e) => {
                    assert!(e.supported.is_some(), "{kind} {t}: {e}");
                    // What the seed covers must be served.
                    let must = match kind {
                        "mitchell" => t % 2 == 1 && t > 3,
                        _ => {
                            t.is_multiple_of(2)
                                && t >= 4
                                && (!t.is_multiple_of(3) || t == 12 || kind != "skip_mitchell")
                        }
                    };
                    assert!(!must, "{kind} {t} refused: {e}");
                }
            }
        }
    }
    let e = gen_err(
        "mitchell",
        &MovementParams {
            rover: true,
            ..params(3)
        },
    );
    assert_eq!(e.field, "tables");
    assert!(e.supported.unwrap().contains("9, 15, 21, 27 and 33"));
}

#[test]
fn rover_in_a_curtailed_movement_follows_the_same_list() {
    let m = gen(
        "skip_mitchell",
        &MovementParams {
            rover: true,
            rounds: Some(5),
            ..params(10)
        },
    );
    assert_rover_movement(&m);
    assert_eq!(list(&m), vec![2, 4, 6, 8]);
}

#[test]
fn late_rover_joins_a_running_mitchell() {
    for (kind, t) in [
        ("mitchell", 7u32),
        ("mitchell", 9),
        ("skip_mitchell", 10),
        ("skip_mitchell", 12),
        ("share_relay_mitchell", 8),
    ] {
        let n = gen(kind, &params(t)).rounds.len() as u32;
        for from in 2..=n {
            let m = gen(
                kind,
                &MovementParams {
                    rover: true,
                    rover_from_round: Some(from),
                    ..params(t)
                },
            );
            assert_rover_movement(&m);
            let seats = rover_tables(&m, t + 1);
            for (i, s) in seats.iter().enumerate() {
                assert_eq!(s.is_some(), i as u32 + 1 >= from, "{kind} {t} from {from}");
            }
            // The rounds already played are those of the plain movement.
            let plain = gen(kind, &params(t));
            for r in 0..(from - 1) as usize {
                assert_eq!(m.rounds[r].tables, plain.rounds[r].tables);
            }
        }
    }
    // 15 tables (no rover list from round 2: the toroidal-queens bound): a late pair is
    // served when a correct list exists for the rounds left, else refused by name.
    let mut served = 0;
    for from in 2..=15 {
        let p = MovementParams {
            rover: true,
            rover_from_round: Some(from),
            ..params(15)
        };
        match super::generate("mitchell", &p).unwrap() {
            Ok(m) => {
                assert_rover_movement(&m);
                served += 1;
            }
            Err(e) => assert_eq!(e.field, "rover"),
        }
    }
    assert!(served >= 7, "{served}");
    // A 7-table rover arriving for round 4 follows the usual list from there: 6, 1, 3, 5.
    let m = gen(
        "mitchell",
        &MovementParams {
            rover: true,
            rover_from_round: Some(4),
            ..params(7)
        },
    );
    assert_eq!(
        rover_tables(&m, 8),
        vec![None, None, None, Some(6), Some(1), Some(3), Some(5)]
    );
    let e = gen_err(
        "mitchell",
        &MovementParams {
            rover: true,
            rover_from_round: Some(8),
            ..params(7)
        },
    );
    assert_eq!(e.field, "rover_from_round");
}

/// Issue 14: the 15-, 21- and 33-table Mitchells with an NS rover (refused before): EW 1
/// and EW 6 exchange places in rounds 5, 10, 15 (15 tables), EW 1 and EW 8 in rounds 7, 14,
/// 21 (21 tables), EW 1 and EW 12 in rounds 11, 22, 33 (33 tables); the lists were found by
/// `rover::search_exchange` and are embedded. Every board is played by every EW pair and
/// every NS pair but the displaced one, nobody meets a pair or plays a set twice, the rover
/// meets T − 1 different EW pairs on T − 1 different sets and displaces each NS pair at most
/// once.
#[test]
fn fifteen_and_twenty_one_tables_with_an_exchange() {
    use super::rover::EXCHANGE_ROVERS;
    use crate::engine::bridge::movement::report::report;
    for (t, (a, b), g, want) in [
        (
            15u32,
            (1u32, 6u32),
            5u32,
            vec![2u32, 4, 7, 11, 15, 3, 6, 8, 10, 13, 1, 5, 9, 12],
        ),
        (
            21,
            (1, 8),
            7,
            vec![
                2, 4, 6, 8, 10, 16, 18, 15, 7, 3, 20, 9, 5, 14, 11, 1, 12, 17, 13, 21,
            ],
        ),
        (
            33,
            (1, 12),
            11,
            vec![
                2, 4, 6, 8, 10, 12, 14, 16, 18, 21, 26, 29, 31, 33, 25, 7, 17, 1, 9, 13, 22, 3, 15,
                11, 5, 20, 23, 27, 24, 19, 28, 30,
            ],
        ),
    ] {
        let m = with_rover("mitchell", t);
        assert_rover_movement(&m);
        let r = report(&m);
        assert!(r.valid && r.warnings.is_empty(), "{t}: {:?}", r.warnings);
        assert_eq!((r.pairs, r.rounds, r.sets), (2 * t + 1, t, t));
        assert_eq!(r.max_meetings, 1);
        // every board is played at every full table of every round: t times
        assert_eq!(
            (r.times_each_board_played.min, r.times_each_board_played.max),
            (t, t)
        );
        // the rover's pattern: R2, R3, ... as embedded, distinct tables, EW pairs and sets
        assert_eq!(list(&m), want, "{t}");
        let e = EXCHANGE_ROVERS.iter().find(|e| e.0 == t).unwrap();
        assert_eq!((e.1, e.2), ((a, b), g));
        let rover = t + 1;
        let (mut ews, mut sets) = (
            std::collections::BTreeSet::new(),
            std::collections::BTreeSet::new(),
        );
        for round in &m.rounds {
            if let Some(x) = round.tables.iter().find(|x| x.ns == Some(rover)) {
                assert!(ews.insert(x.ew.unwrap()) && sets.insert(x.set));
            }
        }
        assert_eq!((ews.len() as u32, sets.len() as u32), (t - 1, t - 1));
        // EW a and b exchange exactly in the rounds g, 2g, ...: elsewhere EW e is at e + r − 1
        for round in &m.rounds {
            for e in [a, b] {
                let at = round.tables.iter().find(|x| x.ew == Some(e)).unwrap().table;
                let other = if e == a { b } else { a };
                let home = if round.round.is_multiple_of(g) {
                    other
                } else {
                    e
                };
                assert_eq!(
                    at,
                    (home + round.round - 2) % t + 1,
                    "{t} round {}",
                    round.round
                );
            }
        }
        // a late pair after the first exchange cannot use it: searched, or refused by name
        let late = super::generate(
            "mitchell",
            &MovementParams {
                rover: true,
                rover_from_round: Some(g + 1),
                ..params(t)
            },
        )
        .unwrap();
        if let Ok(m) = late {
            assert_rover_movement(&m);
        }
    }
}

/// The search that found the devices reproduces the embedded 15- and 21-table ones (the
/// largest period is tried first, and there they are found at once), and finds a 9-table
/// device of the seed's kind.
#[test]
fn exchange_search_finds_a_nine_table_device() {
    use super::rover::EXCHANGE_ROVERS;
    for t in [15u32, 21] {
        let found = super::rover::search_exchange(t, 1_000_000).unwrap();
        let e = EXCHANGE_ROVERS.iter().find(|e| e.0 == t).unwrap();
        assert_eq!(
            (found.0, found.1, found.2.as_slice()),
            (e.1, e.2, e.3),
            "{t}"
        );
    }
    let ((a, b), g, list) = super::rover::search_exchange(9, 100_000).unwrap();
    assert_eq!(g, 3);
    let mut m = super::common::plain_grid("mitchell", 9, 9, 1);
    super::rover::exchange(&mut m, a, b, g);
    let schedule: Vec<Option<u32>> = std::iter::once(None)
        .chain(list.iter().map(|&x| Some(x)))
        .collect();
    assert_eq!(check(&m, &schedule), Ok(()));
}

/// Issue 14: the 27-table Mitchell with an NS rover (refused before), by the 9-table's
/// device: two EW pairs 9 apart exchange places in rounds 3, 6, 9, ...; the list was found
/// by `rover::search` over such exchanges and is embedded (`EXCHANGE_ROVERS`).
#[test]
fn twenty_seven_tables_with_an_exchange() {
    let m = with_rover("mitchell", 27);
    assert_valid(&m);
    let r = crate::engine::bridge::movement::report::report(&m);
    assert_eq!((r.pairs, r.rounds), (55, 27));
    assert_eq!(r.max_meetings, 1);
    // Every EW pair still meets every NS pair 1..27 once, and plays every set once.
    let sets = |e: u32| {
        let mut v: Vec<u32> = m
            .rounds
            .iter()
            .flat_map(|r| {
                r.tables
                    .iter()
                    .filter(|t| t.ew == Some(e) && t.ns.is_some())
            })
            .map(|t| t.set)
            .collect();
        v.sort_unstable();
        v
    };
    for e in [1, 15, 24] {
        let s = sets(e);
        let mut dedup = s.clone();
        dedup.dedup();
        assert_eq!(s, dedup, "EW {e} plays a set twice");
    }
    assert_eq!(list(&m)[..3], [2, 4, 6]);
}
