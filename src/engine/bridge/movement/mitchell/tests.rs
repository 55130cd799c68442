//! Tests of the Mitchell family: every kind at every size it serves (3..=30 tables) with its
//! options passes `validate` with no error, plus each kind's own properties; the seed's rover
//! tables are reproduced exactly.

use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::engine::bridge::movement::model::{Direction, Movement, MovementParams, PairId, SitOut};
use crate::engine::bridge::movement::validate::{validate, Severity};

pub(super) fn params(tables: u32) -> MovementParams {
    MovementParams {
        tables,
        ..Default::default()
    }
}

pub(super) fn gen(kind: &str, p: &MovementParams) -> Movement {
    match generate(kind, p) {
        Some(Ok(m)) => m,
        Some(Err(e)) => panic!("{kind} {p:?}: {e}"),
        None => panic!("unknown kind {kind}"),
    }
}

pub(super) fn gen_err(kind: &str, p: &MovementParams) -> MovementError {
    match generate(kind, p) {
        Some(Err(e)) => e,
        other => panic!("{kind} {p:?} should be refused, got {other:?}"),
    }
}

/// The validator finds no error, and every round accounts for every pair (no warning of a
/// pair neither playing nor sitting out).
pub(super) fn assert_valid(m: &Movement) {
    for f in validate(m) {
        assert!(
            f.severity != Severity::Error && !f.message.contains("neither plays"),
            "{} on {} tables: {f:?}",
            m.kind,
            m.tables
        );
    }
}

/// Pair identity of the NS / EW seat of a table (Mitchell or Howell numbering).
fn ids(
    m: &Movement,
    t: &crate::engine::bridge::movement::model::TableRound,
) -> Option<(PairId, PairId)> {
    Some((m.pair_at(t, Direction::Ns)?, m.pair_at(t, Direction::Ew)?))
}

/// Opponents met by each pair, asserting nobody meets a pair twice and nobody plays a set
/// twice (sets, not only boards: the property the seed's movements are built on).
pub(super) fn meetings(m: &Movement) -> BTreeMap<PairId, BTreeSet<PairId>> {
    let mut met: BTreeMap<PairId, BTreeSet<PairId>> = BTreeMap::new();
    let mut sets: BTreeMap<PairId, BTreeSet<u32>> = BTreeMap::new();
    for r in &m.rounds {
        for t in &r.tables {
            let Some((a, b)) = ids(m, t) else { continue };
            for (x, y) in [(a, b), (b, a)] {
                assert!(
                    met.entry(x).or_default().insert(y),
                    "{} {} tables: {x:?} meets {y:?} twice (round {})",
                    m.kind,
                    m.tables,
                    r.round
                );
                assert!(
                    sets.entry(x).or_default().insert(t.set),
                    "{} {} tables: {x:?} plays set {} twice (round {})",
                    m.kind,
                    m.tables,
                    t.set,
                    r.round
                );
            }
        }
    }
    met
}

/// How many times each set is played (at full tables).
pub(super) fn plays_per_set(m: &Movement) -> BTreeMap<u32, u32> {
    let mut n = BTreeMap::new();
    for r in &m.rounds {
        for t in &r.tables {
            if t.ns.is_some() && t.ew.is_some() {
                *n.entry(t.set).or_insert(0) += 1;
            }
        }
    }
    n
}

/// The table NS pair `rover` sits at in each round (None: not seated).
pub(super) fn rover_tables(m: &Movement, rover: u32) -> Vec<Option<u32>> {
    m.rounds
        .iter()
        .map(|r| {
            r.tables
                .iter()
                .find(|t| t.ns == Some(rover))
                .map(|t| t.table)
        })
        .collect()
}

/// Every pair plays or sits out each round exactly once (checked directly).
pub(super) fn assert_accounted(m: &Movement) {
    let all = crate::engine::bridge::movement::validate::all_pairs(m);
    for r in &m.rounds {
        let mut seen = BTreeSet::new();
        for t in &r.tables {
            for d in [Direction::Ns, Direction::Ew] {
                if let Some(p) = m.pair_at(t, d) {
                    assert!(seen.insert(p), "{p:?} twice in round {}", r.round);
                    let alone = t.ns.is_none() || t.ew.is_none();
                    if alone {
                        assert!(r.sit_out.iter().any(|s| s.pair_id() == p));
                    }
                }
            }
        }
        for s in &r.sit_out {
            seen.insert(s.pair_id());
        }
        assert_eq!(seen.len(), all.len(), "round {}", r.round);
    }
}

// ---------------------------------------------------------------- Mitchell

#[test]
fn complete_mitchells_meet_everyone_and_play_every_board_equally() {
    for t in (3..=29).step_by(2) {
        let m = gen("mitchell", &params(t));
        assert_valid(&m);
        assert_eq!(m.rounds.len() as u32, t);
        let met = meetings(&m);
        for n in 1..=t {
            assert_eq!(met[&PairId::Ns(n)].len() as u32, t, "NS {n} meets every EW");
        }
        assert!(plays_per_set(&m).values().all(|&c| c == t));
        assert_eq!(m.rounds[0].tables[0].boards, vec![1, 2, 3]);
    }
}

#[test]
fn even_mitchells_are_served_curtailed_only() {
    for t in (4..=30).step_by(2) {
        let e = gen_err("mitchell", &params(t));
        assert_eq!(e.field, "tables");
        assert!(e.supported.unwrap().contains("skip_mitchell"));
        for n in 1..=t / 2 {
            let m = gen(
                "mitchell",
                &MovementParams {
                    rounds: Some(n),
                    ..params(t)
                },
            );
            assert_valid(&m);
            meetings(&m);
        }
        let e = gen_err(
            "mitchell",
            &MovementParams {
                rounds: Some(t / 2 + 1),
                ..params(t)
            },
        );
        assert_eq!(e.field, "tables");
    }
}

#[test]
fn mitchell_half_tables_anywhere_either_direction() {
    for t in (3..=29).step_by(2) {
        for dir in [Direction::Ns, Direction::Ew] {
            for at in [1, t / 2 + 1, t] {
                let m = gen(
                    "mitchell",
                    &MovementParams {
                        half_table: Some(dir),
                        half_table_at: Some(at),
                        ..params(t)
                    },
                );
                assert_valid(&m);
                assert_accounted(&m);
                meetings(&m);
                let absent = match dir {
                    Direction::Ns => PairId::Ns(at),
                    Direction::Ew => PairId::Ew(at),
                };
                let pairs = crate::engine::bridge::movement::validate::all_pairs(&m);
                assert!(!pairs.contains(&absent));
                assert_eq!(pairs.len() as u32, 2 * t - 1);
                for r in &m.rounds {
                    assert_eq!(r.sit_out.len(), 1, "one pair sits out each round");
                }
                // An NS half table stays put; an EW one travels with the missing EW pair.
                if dir == Direction::Ns {
                    for r in &m.rounds {
                        let half = r.tables.iter().find(|x| x.ns.is_none()).unwrap();
                        assert_eq!(half.table, at);
                        assert_eq!(r.sit_out, vec![SitOut::Ew(half.ew.unwrap())]);
                    }
                }
            }
        }
    }
    // Curtailing with a half table is served (the seed only advises against it).
    let m = gen(
        "mitchell",
        &MovementParams {
            half_table: Some(Direction::Ew),
            rounds: Some(5),
            ..params(9)
        },
    );
    assert_valid(&m);
    assert_eq!(m.rounds.len(), 5);
}

#[test]
fn mitchell_refusals_name_the_field_and_what_is_supported() {
    let e = gen_err("mitchell", &params(2));
    assert_eq!(e.field, "tables");
    assert!(e.supported.is_some());
    let e = gen_err("mitchell", &params(61));
    assert_eq!(e.field, "tables");
    let e = gen_err(
        "mitchell",
        &MovementParams {
            skip_after: Some(3),
            ..params(7)
        },
    );
    assert_eq!(e.field, "skip_after");
    let e = gen_err(
        "mitchell",
        &MovementParams {
            rounds: Some(8),
            ..params(7)
        },
    );
    assert_eq!(
        (e.field.as_str(), e.supported.as_deref()),
        ("rounds", Some("1 to 7 rounds"))
    );
    let e = gen_err(
        "mitchell",
        &MovementParams {
            boards_per_round: Some(0),
            ..params(7)
        },
    );
    assert_eq!(e.field, "boards_per_round");
    let e = gen_err(
        "mitchell",
        &MovementParams {
            half_table: Some(Direction::Ns),
            half_table_at: Some(8),
            ..params(7)
        },
    );
    assert_eq!(e.field, "half_table_at");
    let e = gen_err(
        "mitchell",
        &MovementParams {
            rover: true,
            half_table: Some(Direction::Ns),
            ..params(7)
        },
    );
    assert_eq!(e.field, "rover");
    let e = gen_err(
        "mitchell",
        &MovementParams {
            sets: Some(6),
            ..params(7)
        },
    );
    assert_eq!(e.field, "sets");
    assert!(generate("howell", &params(7)).is_none());
}

// ---------------------------------------------------------------- Skip Mitchell

#[test]
fn skip_mitchells_at_every_skip_point() {
    for t in (4..=30).step_by(2) {
        let m = gen("skip_mitchell", &params(t));
        assert_valid(&m);
        assert_eq!(m.rounds.len() as u32, t - 1);
        let met = meetings(&m);
        for n in 1..=t {
            assert_eq!(met[&PairId::Ew(n)].len() as u32, t - 1);
        }
        // Every set is in play at one table every round: all played t − 1 times.
        assert!(plays_per_set(&m).values().all(|&c| c == t - 1));
        // Curtailed: every skip point from n − T/2 to T/2.
        for n in [t / 2 + 1, t - 2] {
            if n < 1 || n <= t / 2 {
                continue;
            }
            for k in (n - t / 2).max(1)..=t / 2 {
                let m = gen(
                    "skip_mitchell",
                    &MovementParams {
                        rounds: Some(n),
                        skip_after: Some(k),
                        ..params(t)
                    },
                );
                assert_valid(&m);
                meetings(&m);
            }
            let e = gen_err(
                "skip_mitchell",
                &MovementParams {
                    rounds: Some(n),
                    skip_after: Some(t / 2 + 1),
                    ..params(t)
                },
            );
            assert_eq!(e.field, "skip_after");
        }
    }
}

#[test]
fn skip_mitchell_earliest_skip_follows_the_seed_equation() {
    // 10 tables, 8 rounds: earliest skip after round 8 − 5 = 3.
    let p = |k| MovementParams {
        rounds: Some(8),
        skip_after: Some(k),
        ..params(10)
    };
    assert_valid(&gen("skip_mitchell", &p(3)));
    let e = gen_err("skip_mitchell", &p(2));
    assert_eq!(e.supported.as_deref(), Some("skip_after=3..5"));
    // Complete (9 rounds): only 4 or 5.
    let e = gen_err(
        "skip_mitchell",
        &MovementParams {
            skip_after: Some(3),
            ..params(10)
        },
    );
    assert_eq!(e.supported.as_deref(), Some("skip_after=4..5"));
    let e = gen_err("skip_mitchell", &params(9));
    assert_eq!(e.field, "tables");
    assert!(e.supported.unwrap().starts_with("even"));
}

#[test]
fn skip_mitchell_half_tables() {
    for t in (4..=30).step_by(2) {
        for dir in [Direction::Ns, Direction::Ew] {
            for at in [1, t] {
                let m = gen(
                    "skip_mitchell",
                    &MovementParams {
                        half_table: Some(dir),
                        half_table_at: Some(at),
                        ..params(t)
                    },
                );
                assert_valid(&m);
                assert_accounted(&m);
                meetings(&m);
            }
        }
    }
}

// ---------------------------------------------------------------- Share & Relay

#[test]
fn share_relay_mitchells_are_complete() {
    for t in (4..=30).step_by(2) {
        let m = gen("share_relay_mitchell", &params(t));
        assert_valid(&m);
        assert_eq!(m.rounds.len() as u32, t);
        let met = meetings(&m);
        for n in 1..=t {
            assert_eq!(
                met[&PairId::Ns(n)].len() as u32,
                t,
                "every NS meets every EW"
            );
            assert_eq!(met[&PairId::Ew(n)].len() as u32, t);
        }
        // Every set: once at each of the T − 1 stations, twice at the shared one.
        assert!(plays_per_set(&m).values().all(|&c| c == t));
        for r in &m.rounds {
            let first = &r.tables[0];
            let last = &r.tables[t as usize - 1];
            assert_eq!(first.set, last.set, "tables 1 and {t} share");
            assert_eq!(r.relay_sets.len(), 1);
            let mut all: BTreeSet<u32> = r.tables.iter().map(|x| x.set).collect();
            all.insert(r.relay_sets[0]);
            assert_eq!(all.len() as u32, t);
        }
        // The relay sits between T/2 and T/2 + 1: the set on it goes to table T/2 next.
        for w in m.rounds.windows(2) {
            assert_eq!(w[0].relay_sets[0], w[1].tables[t as usize / 2 - 1].set);
            assert_eq!(
                w[0].tables[t as usize / 2].set,
                w[1].relay_sets[0],
                "table T/2+1 passes its set to the relay"
            );
        }
    }
}

#[test]
fn share_relay_half_tables_and_refusals() {
    for t in (4..=30).step_by(2) {
        for dir in [Direction::Ns, Direction::Ew] {
            for at in [1, t / 2, t] {
                let m = gen(
                    "share_relay_mitchell",
                    &MovementParams {
                        half_table: Some(dir),
                        half_table_at: Some(at),
                        ..params(t)
                    },
                );
                assert_valid(&m);
                assert_accounted(&m);
                meetings(&m);
            }
        }
    }
    let e = gen_err("share_relay_mitchell", &params(7));
    assert_eq!(e.field, "tables");
    let e = gen_err(
        "share_relay_mitchell",
        &MovementParams {
            skip_after: Some(2),
            ..params(8)
        },
    );
    assert_eq!(e.field, "skip_after");
}

#[test]
fn json_shape_of_a_half_table_round() {
    let m = gen(
        "mitchell",
        &MovementParams {
            half_table: Some(Direction::Ns),
            ..params(7)
        },
    );
    let v = serde_json::to_value(&m).unwrap();
    assert_eq!(v["pair_numbering"], "mitchell");
    assert_eq!(v["boards_per_round"], 3);
    let r1 = &v["rounds"][0];
    assert_eq!(
        r1["tables"][6],
        serde_json::json!({"table": 7, "ns": null, "ew": 7, "set": 7, "boards": [19, 20, 21]})
    );
    assert_eq!(r1["sit_out"], serde_json::json!([{"ew": 7}]));
    let r = gen(
        "mitchell",
        &MovementParams {
            rover: true,
            ..params(5)
        },
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["rounds"][0]["sit_out"], serde_json::json!([{"ns": 6}]));
    assert_eq!(v["rounds"][1]["sit_out"], serde_json::json!([{"ns": 2}]));
    assert_eq!(v["rounds"][1]["tables"][1]["ns"], 6);
}
