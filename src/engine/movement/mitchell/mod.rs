//! The Mitchell family of movements (seed 002). Served so far: the Mitchell (with half
//! tables and curtailing), the Skip Mitchell and the Share & Relay Mitchell. The other kinds of
//! the seed (appendix, twin, arrow-switch, web, NS rovers) are not served yet.

pub mod basic;

use super::model::{Movement, MovementError, MovementParams};

/// The Mitchell-family kinds this server generates.
pub const KINDS: &[&str] = &["mitchell", "skip_mitchell", "share_relay_mitchell"];

/// None when `kind` is not one of KINDS.
pub fn generate(kind: &str, p: &MovementParams) -> Option<Result<Movement, MovementError>> {
    Some(match kind {
        "mitchell" => basic::mitchell(p),
        "skip_mitchell" => basic::skip_mitchell(p),
        "share_relay_mitchell" => basic::share_relay_mitchell(p),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movement::model::{Direction, PairId};
    use crate::engine::movement::validate::{validate, Severity};
    use std::collections::HashSet;

    fn params(tables: u32) -> MovementParams {
        MovementParams {
            tables,
            ..Default::default()
        }
    }

    fn assert_clean(m: &Movement) {
        let errors: Vec<_> = validate(m)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        assert!(
            errors.is_empty(),
            "{} {} tables: {errors:?}",
            m.kind,
            m.tables
        );
    }

    /// (pairs met by each EW pair, boards played by each EW pair)
    fn ew_meetings(m: &Movement) -> Vec<(HashSet<u32>, HashSet<u32>)> {
        let mut out = vec![(HashSet::new(), HashSet::new()); m.tables as usize + 1];
        for r in &m.rounds {
            for t in &r.tables {
                if let (Some(ns), Some(ew)) = (t.ns, t.ew) {
                    assert!(out[ew as usize].0.insert(ns), "EW {ew} meets NS {ns} twice");
                    for b in &t.boards {
                        assert!(
                            out[ew as usize].1.insert(*b),
                            "EW {ew} plays board {b} twice"
                        );
                    }
                }
            }
        }
        out
    }

    #[test]
    fn complete_mitchells_on_odd_tables() {
        for t in (3..=29).step_by(2) {
            let m = generate("mitchell", &params(t)).unwrap().unwrap();
            assert_clean(&m);
            assert_eq!(m.rounds.len() as u32, t);
            for (ns, boards) in ew_meetings(&m).iter().skip(1) {
                assert_eq!(ns.len() as u32, t, "every EW meets every NS");
                assert_eq!(boards.len() as u32, 3 * t, "every EW plays every board");
            }
        }
    }

    #[test]
    fn even_mitchells_are_refused_unless_curtailed() {
        let e = generate("mitchell", &params(8)).unwrap().unwrap_err();
        assert_eq!(e.field, "tables");
        assert!(e.supported.unwrap().contains("skip_mitchell"));
        let m = generate(
            "mitchell",
            &MovementParams {
                rounds: Some(4),
                ..params(8)
            },
        )
        .unwrap()
        .unwrap();
        assert_clean(&m);
        ew_meetings(&m);
    }

    #[test]
    fn half_tables_sit_out_the_pair_opposite() {
        for t in [3u32, 5, 7, 9, 13] {
            for dir in [Direction::Ns, Direction::Ew] {
                for at in [1, t] {
                    let m = generate(
                        "mitchell",
                        &MovementParams {
                            half_table: Some(dir),
                            half_table_at: Some(at),
                            ..params(t)
                        },
                    )
                    .unwrap()
                    .unwrap();
                    assert_clean(&m);
                    for r in &m.rounds {
                        assert_eq!(r.sit_out.len(), 1, "one pair sits out each round");
                        let empty = r
                            .tables
                            .iter()
                            .filter(|x| x.ns.is_none() || x.ew.is_none())
                            .count();
                        assert_eq!(empty, 1);
                    }
                    let pairs = crate::engine::movement::validate::all_pairs(&m);
                    let missing = match dir {
                        Direction::Ns => PairId::Ns(at),
                        Direction::Ew => PairId::Ew(at),
                    };
                    assert!(!pairs.contains(&missing));
                    assert_eq!(pairs.len() as u32, 2 * t - 1);
                }
            }
        }
    }

    #[test]
    fn skip_mitchells_skip_once_and_never_repeat() {
        for t in (4..=30).step_by(2) {
            let m = generate("skip_mitchell", &params(t)).unwrap().unwrap();
            assert_clean(&m);
            assert_eq!(m.rounds.len() as u32, t - 1);
            for (ns, boards) in ew_meetings(&m).iter().skip(1) {
                assert_eq!(ns.len() as u32, t - 1);
                assert_eq!(boards.len() as u32, 3 * (t - 1));
            }
            // Curtailed with the earliest skip.
            let n = t / 2 + 1;
            let m = generate(
                "skip_mitchell",
                &MovementParams {
                    rounds: Some(n),
                    skip_after: Some(n - t / 2),
                    ..params(t)
                },
            )
            .unwrap()
            .unwrap();
            assert_clean(&m);
            ew_meetings(&m);
        }
        let e = generate("skip_mitchell", &params(7)).unwrap().unwrap_err();
        assert_eq!(e.field, "tables");
        let e = generate(
            "skip_mitchell",
            &MovementParams {
                skip_after: Some(1),
                ..params(8)
            },
        )
        .unwrap()
        .unwrap_err();
        assert_eq!(e.field, "skip_after");
    }

    #[test]
    fn share_and_relay_mitchells_are_complete() {
        for t in (4..=30).step_by(2) {
            let m = generate("share_relay_mitchell", &params(t))
                .unwrap()
                .unwrap();
            assert_clean(&m);
            assert_eq!(m.rounds.len() as u32, t);
            for (ns, boards) in ew_meetings(&m).iter().skip(1) {
                assert_eq!(ns.len() as u32, t, "every EW meets every NS");
                assert_eq!(boards.len() as u32, 3 * t, "every EW plays every set");
            }
            for r in &m.rounds {
                // Tables 1 and T share; one set rests on the relay.
                assert_eq!(r.tables[0].set, r.tables[t as usize - 1].set);
                assert_eq!(r.relay_sets.len(), 1);
                let mut in_play: HashSet<u32> = r.tables.iter().map(|x| x.set).collect();
                in_play.insert(r.relay_sets[0]);
                assert_eq!(in_play.len() as u32, t);
            }
        }
    }

    #[test]
    fn options_a_kind_does_not_serve_are_named() {
        let e = generate(
            "mitchell",
            &MovementParams {
                rover: true,
                ..params(7)
            },
        )
        .unwrap()
        .unwrap_err();
        assert_eq!(e.field, "rover");
        assert!(generate("howell", &params(7)).is_none());
        let e = generate("mitchell", &params(1)).unwrap().unwrap_err();
        assert_eq!(e.field, "tables");
    }
}
