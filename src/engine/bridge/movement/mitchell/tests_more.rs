//! Tests of the appendix, twin, arrow-switch and web Mitchells.

use std::collections::BTreeSet;

use super::tests::{
    assert_accounted, assert_valid, gen, gen_err, meetings, params, plays_per_set, rover_tables,
};
use super::{default_switch_rounds, generate};
use crate::engine::bridge::movement::model::{
    Direction, Movement, MovementParams, PairId, PairNumbering, SitOut,
};

fn is_prime(n: u32) -> bool {
    n >= 2 && (2..n).all(|d| !n.is_multiple_of(d))
}

fn table(m: &Movement, round: u32, t: u32) -> &crate::engine::bridge::movement::model::TableRound {
    m.rounds[round as usize - 1]
        .tables
        .iter()
        .find(|x| x.table == t)
        .unwrap()
}

// ---------------------------------------------------------------- 1½ Appendix

#[test]
fn one_and_half_appendix_every_size() {
    for t in 5..=30u32 {
        let m = gen("one_and_half_appendix_mitchell", &params(t));
        assert_valid(&m);
        assert_accounted(&m);
        meetings(&m);
        let base = t - 2;
        assert_eq!(m.rounds.len() as u32, base);
        // Sets only on the base; table T − 1 shares table 1's set; every set played T − 1
        // times.
        let per_set = plays_per_set(&m);
        assert_eq!(per_set.len() as u32, base);
        assert!(per_set.values().all(|&c| c == t - 1), "{t}: {per_set:?}");
        let mut sat_out = BTreeSet::new();
        for r in &m.rounds {
            assert_eq!(table(&m, r.round, 1).set, table(&m, r.round, t - 1).set);
            assert!(r.tables.iter().all(|x| x.table < t));
            assert_eq!(r.sit_out.len(), 1);
            let SitOut::Ew(e) = r.sit_out[0] else {
                panic!("an EW pair sits out")
            };
            assert!(sat_out.insert(e), "EW {e} sits out twice");
        }
        // "Two EW pairs do not sit out in the completed movement."
        assert_eq!(sat_out.len() as u32, t - 2);
        assert_eq!(m.rounds[0].sit_out, vec![SitOut::Ew(t)]);
        // The half-table pair goes to table 1 at the first move.
        assert_eq!(table(&m, 2, 1).ew, Some(t));
    }
}

#[test]
fn one_and_half_appendix_seed_examples() {
    // 10½ tables: a 9-table Mitchell, 9 sets, tables 1 and 10 share, EW 11 sits out first.
    let m = gen("one_and_half_appendix_mitchell", &params(11));
    assert_eq!(plays_per_set(&m).len(), 9);
    assert_eq!(m.rounds.len(), 9);
    // 11½ tables: a 10-table Skip Mitchell skipping after round 5.
    let m = gen("one_and_half_appendix_mitchell", &params(12));
    assert_eq!(plays_per_set(&m).len(), 10);
    let at = |r: u32| {
        m.rounds[r as usize - 1]
            .tables
            .iter()
            .find(|x| x.ew == Some(1))
            .map(|x| x.table)
    };
    assert_eq!((at(5), at(6)), (Some(5), Some(7)), "EW 1 skips table 6");
    // Options it does not serve.
    let e = gen_err(
        "one_and_half_appendix_mitchell",
        &MovementParams {
            half_table: Some(Direction::Ns),
            ..params(11)
        },
    );
    assert_eq!(e.field, "half_table");
    let e = gen_err(
        "one_and_half_appendix_mitchell",
        &MovementParams {
            base_tables: Some(7),
            ..params(11)
        },
    );
    assert_eq!(e.supported.as_deref(), Some("base_tables=9"));
    let e = gen_err("one_and_half_appendix_mitchell", &params(4));
    assert_eq!(e.field, "tables");
    let ok = gen(
        "one_and_half_appendix_mitchell",
        &MovementParams {
            half_table: Some(Direction::Ew),
            half_table_at: Some(11),
            ..params(11)
        },
    );
    assert_valid(&ok);
}

// ---------------------------------------------------------------- Appendix

#[test]
fn appendix_every_prime_base_and_variant() {
    for t in 6..=30u32 {
        let m = gen("appendix_mitchell", &params(t));
        assert_valid(&m);
        for p in (5..t).filter(|&p| is_prime(p) && 2 * p > t) {
            let a = t - p;
            for v in [
                "ns_up2_ew_up1",
                "ns_down2_ew_up1",
                "ns_up1_ew_up2",
                "ns_up1_ew_down2",
            ] {
                let params = MovementParams {
                    base_tables: Some(p),
                    variant: Some(v.to_string()),
                    ..params(t)
                };
                let m = gen("appendix_mitchell", &params);
                assert_valid(&m);
                assert_accounted(&m);
                meetings(&m);
                assert_eq!(m.rounds.len() as u32, p);
                let per_set = plays_per_set(&m);
                assert_eq!(per_set.len() as u32, p);
                assert!(per_set.values().all(|&c| c == t), "{t}/{p}/{v}");
                for r in &m.rounds {
                    for j in 1..=a {
                        assert_eq!(table(&m, r.round, j).ns, Some(j), "NS {j} stays");
                        assert_eq!(table(&m, r.round, p + j).ew, Some(p + j), "EW stays");
                        assert_eq!(table(&m, r.round, j).set, table(&m, r.round, p + j).set);
                    }
                }
                // A half table at the highest appendix table: NS pairs coming there sit out.
                let h = gen(
                    "appendix_mitchell",
                    &MovementParams {
                        half_table: Some(Direction::Ew),
                        ..params.clone()
                    },
                );
                assert_valid(&h);
                assert_accounted(&h);
                for r in &h.rounds {
                    assert!(table(&h, r.round, t).ew.is_none());
                    assert!(matches!(r.sit_out[..], [SitOut::Ns(_)]));
                }
            }
        }
    }
}

#[test]
fn appendix_seed_diagram_seven_plus_three() {
    let m = gen(
        "appendix_mitchell",
        &MovementParams {
            base_tables: Some(7),
            ..params(10)
        },
    );
    // NS pairs move up two tables round the circuit 8, 9, 10, 4, 5, 6, 7.
    let circuit = [8u32, 9, 10, 4, 5, 6, 7];
    let ns8: Vec<u32> = m
        .rounds
        .iter()
        .map(|r| r.tables.iter().find(|x| x.ns == Some(8)).unwrap().table)
        .collect();
    let want: Vec<u32> = (0..7).map(|i| circuit[(2 * i) % 7]).collect();
    assert_eq!(ns8, want);
    // EW pairs of the base move up one table through tables 1..7.
    let ew1: Vec<u32> = m
        .rounds
        .iter()
        .map(|r| r.tables.iter().find(|x| x.ew == Some(1)).unwrap().table)
        .collect();
    assert_eq!(ew1, vec![1, 2, 3, 4, 5, 6, 7]);
    for (p, field) in [
        (
            MovementParams {
                base_tables: Some(9),
                ..params(12)
            },
            "base_tables",
        ),
        (
            MovementParams {
                variant: Some("ns_sideways".into()),
                ..params(10)
            },
            "variant",
        ),
        (params(5), "tables"),
        (
            MovementParams {
                rover: true,
                ..params(10)
            },
            "rover",
        ),
    ] {
        assert_eq!(gen_err("appendix_mitchell", &p).field, field);
    }
}

// ---------------------------------------------------------------- Twin

#[test]
fn twin_mitchells_in_both_modes() {
    for t in (6..=30u32).step_by(2) {
        let row = t / 2;
        let row_rounds = if row % 2 == 1 { row } else { row - 1 };
        // Stanzas: one section, sets 1..m then m+1..2m, EW pairs change rows.
        let m = gen("twin_mitchell", &params(t));
        assert_valid(&m);
        meetings(&m);
        assert_eq!(m.rounds.len() as u32, 2 * row_rounds);
        let met = meetings(&m);
        if row % 2 == 1 {
            for n in 1..=t {
                assert_eq!(met[&PairId::Ns(n)].len() as u32, t, "NS {n} meets every EW");
            }
        }
        for r in &m.rounds {
            let stanza = u32::from(r.round > row_rounds);
            for k in 1..=row {
                let (a, b) = (table(&m, r.round, k), table(&m, r.round, k + row));
                assert_eq!(a.set, b.set, "tables {k} and {} share", k + row);
                assert!((stanza * row + 1..=stanza * row + row).contains(&a.set));
                assert!(a.section.is_none());
                // EW pairs keep to their row within a stanza, and change rows after.
                let ew_row = u32::from(a.ew.unwrap() > row);
                assert_eq!(ew_row, stanza);
            }
        }
        // Sections: run once, two sections A and B.
        let s = gen(
            "twin_mitchell",
            &MovementParams {
                twin_mode: Some("sections".into()),
                ..params(t)
            },
        );
        assert_valid(&s);
        meetings(&s);
        assert_eq!(s.rounds.len() as u32, row_rounds);
        for x in &s.rounds[0].tables {
            let want = if x.table <= row { "A" } else { "B" };
            assert_eq!(x.section.as_deref(), Some(want));
        }
        for dir in [Direction::Ns, Direction::Ew] {
            let h = gen(
                "twin_mitchell",
                &MovementParams {
                    half_table: Some(dir),
                    ..params(t)
                },
            );
            assert_valid(&h);
            assert_accounted(&h);
        }
    }
    assert_eq!(gen_err("twin_mitchell", &params(7)).field, "tables");
    assert_eq!(gen_err("twin_mitchell", &params(4)).field, "tables");
    let e = gen_err(
        "twin_mitchell",
        &MovementParams {
            twin_mode: Some("triplets".into()),
            ..params(8)
        },
    );
    assert_eq!(e.supported.as_deref(), Some("stanzas, sections"));
}

// ---------------------------------------------------------------- Arrow-switch

#[test]
fn arrow_switch_mitchells() {
    assert_eq!(default_switch_rounds(7), vec![1]);
    assert_eq!(default_switch_rounds(13), vec![1, 7]);
    assert_eq!(default_switch_rounds(25), vec![1, 9, 17]);
    for t in 3..=30u32 {
        let m = gen("arrow_switch_mitchell", &params(t));
        assert_valid(&m);
        assert_eq!(m.pair_numbering, PairNumbering::Howell);
        let met = meetings(&m);
        assert_eq!(met.len() as u32, 2 * t, "pairs 1..2T");
        // NS k is pair k, EW k is pair T + k.
        let first = table(&m, 1, 1);
        assert_eq!((first.ns, first.ew), (Some(1), Some(t + 1)));
        let switched = default_switch_rounds(m.rounds.len() as u32);
        for r in &m.rounds {
            let s = switched.contains(&r.round);
            assert!(r.tables.iter().all(|x| x.arrow_switch == s));
        }
    }
    let m = gen(
        "arrow_switch_mitchell",
        &MovementParams {
            switch_rounds: Some(vec![6, 3]),
            half_table: Some(Direction::Ew),
            ..params(9)
        },
    );
    assert_valid(&m);
    assert_accounted(&m);
    for r in &m.rounds {
        let switched = [3, 6].contains(&r.round);
        for x in &r.tables {
            assert_eq!(x.arrow_switch, switched && x.ew.is_some());
        }
        assert!(matches!(r.sit_out[..], [SitOut::Pair(_)]));
    }
    // With a rover: NS pairs 1..T+1, EW k = pair T + 1 + k.
    let m = gen(
        "arrow_switch_mitchell",
        &MovementParams {
            rover: true,
            ..params(7)
        },
    );
    assert_valid(&m);
    assert_accounted(&m);
    assert_eq!(m.rounds[0].sit_out, vec![SitOut::Pair(8)]);
    assert_eq!(table(&m, 1, 1).ew, Some(9));
    assert_eq!(rover_tables(&m, 8)[1], Some(2));
    let e = gen_err(
        "arrow_switch_mitchell",
        &MovementParams {
            switch_rounds: Some(vec![8]),
            ..params(7)
        },
    );
    assert_eq!(e.field, "switch_rounds");
    let e = gen_err("arrow_switch_mitchell", &params(2));
    assert_eq!(e.field, "tables");
}

// ---------------------------------------------------------------- Web

/// Every pair plays every set exactly once; every set is played at every table once.
fn assert_complete_web(m: &Movement, sets: u32) {
    assert_valid(m);
    meetings(m);
    assert_eq!(m.rounds.len() as u32, sets);
    let mut played: std::collections::BTreeMap<PairId, BTreeSet<u32>> = Default::default();
    for r in &m.rounds {
        for x in &r.tables {
            if let (Some(ns), Some(ew)) = (x.ns, x.ew) {
                played.entry(PairId::Ns(ns)).or_default().insert(x.set);
                played.entry(PairId::Ew(ew)).or_default().insert(x.set);
            }
        }
    }
    for (p, s) in &played {
        assert_eq!(
            s.len() as u32,
            sets,
            "{} tables: {p:?} plays every set",
            m.tables
        );
    }
    assert!(plays_per_set(m).values().all(|&c| c == m.tables));
}

#[test]
fn web_mitchells_every_layout() {
    let mut layouts = 0;
    for t in 4..=30u32 {
        for w in (2..=t).step_by(2) {
            let g = w / 2;
            let rest = t - w;
            for n in (3..=30u32).step_by(2) {
                if n < g || !rest.is_multiple_of(n) || (rest == 0 && n > g + 2) {
                    continue;
                }
                let m = gen(
                    "web_mitchell",
                    &MovementParams {
                        web_tables: Some(w),
                        sets: Some(n),
                        ..params(t)
                    },
                );
                assert_complete_web(&m, n);
                layouts += 1;
            }
        }
    }
    assert!(layouts > 100, "{layouts}");
}

#[test]
fn web_mitchell_seed_examples() {
    // 14 tables, 9 sets: group 2 (tables 8..14) plays the sets backwards.
    let m = gen(
        "web_mitchell",
        &MovementParams {
            sets: Some(9),
            ..params(14)
        },
    );
    assert_complete_web(&m, 9);
    let sets: Vec<u32> = (8..=14).map(|x| table(&m, 1, x).set).collect();
    assert_eq!(sets, vec![6, 5, 4, 3, 2, 1, 9]);
    let sets: Vec<u32> = (1..=7).map(|x| table(&m, 1, x).set).collect();
    assert_eq!(sets, vec![1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(table(&m, 2, 14).set, 8, "set 8 is fed in next at table 14");
    assert_eq!(table(&m, 2, 7).set, 8, "and set 8 at table 7 in group 1");
    // 13 tables: a 9-table Mitchell and a 4-table web (2/2).
    let m = gen("web_mitchell", &params(13));
    assert_complete_web(&m, 9);
    // 28 tables: two 9-table Mitchells and a 10-table web (5/5).
    let m = gen(
        "web_mitchell",
        &MovementParams {
            web_tables: Some(10),
            ..params(28)
        },
    );
    assert_complete_web(&m, 9);
    let e = gen_err(
        "web_mitchell",
        &MovementParams {
            web_tables: Some(5),
            ..params(13)
        },
    );
    assert_eq!(e.field, "web_tables");
    let e = gen_err(
        "web_mitchell",
        &MovementParams {
            web_tables: Some(4),
            sets: Some(7),
            ..params(13)
        },
    );
    assert_eq!(e.field, "sets");
}

#[test]
fn web_mitchell_half_tables_and_rovers() {
    for t in [5u32, 8, 13, 14, 20, 28] {
        for dir in [Direction::Ns, Direction::Ew] {
            let m = gen(
                "web_mitchell",
                &MovementParams {
                    half_table: Some(dir),
                    half_table_at: Some(t / 2),
                    ..params(t)
                },
            );
            assert_valid(&m);
            assert_accounted(&m);
            meetings(&m);
        }
    }
    let mut served = 0;
    for t in 5..=20u32 {
        let p = MovementParams {
            rover: true,
            ..params(t)
        };
        match generate("web_mitchell", &p).unwrap() {
            Ok(m) => {
                assert_valid(&m);
                assert_accounted(&m);
                meetings(&m);
                assert_eq!(rover_tables(&m, t + 1)[0], None);
                served += 1;
            }
            Err(e) => assert_eq!(e.field, "rover"),
        }
    }
    assert!(served >= 8, "{served}");
}

#[test]
fn every_kind_refuses_sizes_it_cannot_serve_naming_supported() {
    for kind in super::KINDS {
        for t in [0u32, 1, 2, 61, 1000] {
            let e = gen_err(kind, &params(t));
            assert_eq!(e.field, "tables", "{kind} {t}");
            assert!(e.supported.is_some(), "{kind} {t}");
        }
    }
}
