use super::generate::*;
use super::round_robin::*;
use super::validate::report;
use super::TeamMovement;

fn make(kind: &str, teams: u32, matches: Option<u32>) -> TeamMovement {
    generate(
        kind,
        &TeamMovementParams {
            teams,
            matches,
            boards_per_round: Some(6),
        },
    )
    .unwrap_or_else(|e| panic!("{kind} {teams}: {e}"))
}

/// (ns, ew, set) at each table of a round, in table order.
fn row(m: &TeamMovement, round: usize) -> Vec<(u32, u32, u32)> {
    m.rounds[round]
        .tables
        .iter()
        .map(|t| (t.ns.unwrap(), t.ew.unwrap(), t.set))
        .collect()
}

#[test]
fn the_seeds_seven_team_four_match_american_whist_exactly() {
    // Seed 002, "AMERICAN WHIST": 7 tables playing 4 matches, per round "NS v EW  set".
    let printed = [
        "1 4 1, 2 5 2, 3 6 3, 4 7 4, 5 1 5, 6 2 6, 7 3 7",
        "1 2 7, 2 3 1, 3 4 2, 4 5 3, 5 6 4, 6 7 5, 7 1 6",
        "1 7 6, 2 1 7, 3 2 1, 4 3 2, 5 4 3, 6 5 4, 7 6 5",
        "1 5 5, 2 6 6, 3 7 7, 4 1 1, 5 2 2, 6 3 3, 7 4 4",
    ];
    let m = make("american_whist", 7, Some(4));
    assert_eq!(m.rounds.len(), 4);
    for (r, line) in printed.iter().enumerate() {
        let want: Vec<(u32, u32, u32)> = line
            .split(", ")
            .map(|cell| {
                let v: Vec<u32> = cell.split(' ').map(|x| x.parse().unwrap()).collect();
                (v[0], v[1], v[2])
            })
            .collect();
        assert_eq!(row(&m, r), want, "round {}", r + 1);
    }
    let rep = report(&m);
    assert!(rep.valid, "{:?}", rep.errors);
    assert_eq!(rep.matches, 14);
    assert_eq!(
        rep.matches_per_team,
        crate::engine::bridge::movement::report::MinMax { min: 4, max: 4 }
    );
}

#[test]
fn the_seeds_eight_team_round_robin_exactly() {
    // Seed 002, "ROUND ROBIN TEAMS", as printed (first named first).
    let printed = [
        "8-1 7-2 6-3 5-4",
        "8-2 1-3 7-4 6-5",
        "8-3 2-4 1-5 7-6",
        "8-4 3-5 2-6 1-7",
        "8-5 4-6 3-7 2-1",
        "8-6 5-7 4-1 3-2",
        "8-7 6-1 5-2 4-3",
    ];
    let parse = |line: &str| -> Vec<(u32, u32)> {
        line.split(' ')
            .map(|m| {
                let (a, b) = m.split_once('-').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect()
    };
    let draw = seed_draw(8);
    for (r, line) in printed.iter().enumerate() {
        assert_eq!(draw[r], parse(line), "round {}", r + 1);
    }
    // The movement plays exactly these matches, round by round; the seed asks for about half
    // of team 8's matches to be rotated for seating rights: 8 is home in odd rounds only.
    let m = make("round_robin", 8, None);
    for (r, line) in printed.iter().enumerate() {
        let round = r as u32 + 1;
        let mut got: Vec<(u32, u32)> = m
            .matches
            .iter()
            .filter(|x| x.halves[0].round == round)
            .map(|x| (x.home, x.away))
            .collect();
        let mut want: Vec<(u32, u32)> = parse(line)
            .into_iter()
            .map(|(a, b)| {
                if a == 8 && round.is_multiple_of(2) {
                    (b, a)
                } else {
                    (a, b)
                }
            })
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "round {round}");
    }
    let rep = report(&m);
    assert!(
        rep.valid && rep.everyone_meets_once && rep.seating_rights_balanced,
        "{rep:?}"
    );
}

#[test]
fn every_kind_at_every_size_served_is_valid() {
    for n in (4..=20).step_by(2) {
        let rep = report(&make("new_england_relay", n, None));
        assert!(rep.valid, "NER {n}: {:?}", rep.errors);
        assert!(rep.everyone_meets_once, "NER {n}");
        assert_eq!(rep.sets, n);
        assert_eq!(
            (rep.sets_missed_per_team.min, rep.sets_missed_per_team.max),
            (1, 1),
            "NER {n}"
        );
        // Two tables share each set in play; half the sets are on relays.
        assert_eq!(rep.max_tables_per_set, 2, "NER {n}");
        assert!(
            rep.relay_sets_per_round.iter().all(|&r| r == n / 2),
            "NER {n}"
        );
        // As a Twin Mitchell: table t and table t + N/2 share their set every round.
        let m = make("new_england_relay", n, None);
        for r in &m.rounds {
            for t in 1..=n / 2 {
                let set = |table: u32| r.tables.iter().find(|x| x.table == table).unwrap().set;
                assert_eq!(set(t), set(t + n / 2), "NER {n} round {}", r.round);
            }
        }
    }
    for n in (3..=21).step_by(2) {
        for k in (2..n).rev().step_by(2) {
            let m = make("american_whist", n, Some(k));
            let rep = report(&m);
            assert!(rep.valid, "AW {n}/{k}: {:?}", rep.errors);
            assert_eq!(
                rep.matches_per_team,
                crate::engine::bridge::movement::report::MinMax { min: k, max: k }
            );
            assert_eq!(rep.everyone_meets_once, k == n - 1, "AW {n}/{k}");
            if k == n - 1 {
                assert_eq!(
                    (rep.sets_missed_per_team.min, rep.sets_missed_per_team.max),
                    (1, 1)
                );
            }
        }
    }
    for n in (4..=24).step_by(2).chain((7..=23).step_by(2)) {
        let m = make("round_robin", n, None);
        let rep = report(&m);
        assert!(rep.valid, "RR {n}: {:?}", rep.errors);
        assert!(rep.everyone_meets_once, "RR {n}");
        assert!(rep.seating_rights_balanced, "RR {n}: {rep:?}");
        assert_eq!(rep.rounds, n - 1, "RR {n}");
    }
    for n in (6..=40).step_by(2) {
        let h = n / 2;
        let full = if h % 2 == 1 { h } else { h - 1 };
        for k in 1..=full {
            let m = make("mitchell_teams", n, Some(k));
            let rep = report(&m);
            assert!(rep.valid, "MT {n}/{k}: {:?}", rep.errors);
            assert!(
                m.matches.iter().all(|x| (x.home <= h) != (x.away <= h)),
                "rows meet rows"
            );
            // The start: the EW pairs swap with the corresponding pair of the other row.
            for t in &m.rounds[0].tables {
                let other = if t.table <= h {
                    t.table + h
                } else {
                    t.table - h
                };
                assert_eq!((t.ns, t.ew), (Some(t.table), Some(other)));
            }
            // Row A is stationary.
            for r in &m.rounds {
                for t in r.tables.iter().filter(|t| t.table <= h) {
                    assert_eq!(t.ns, Some(t.table));
                }
            }
        }
    }
}

#[test]
fn odd_round_robins_follow_the_seeds_shape() {
    for n in [7, 9] {
        let m = make("round_robin", n, None);
        for k in 1..=(n - 1) / 2 {
            let triangle = [1, 2 * k, 2 * k + 1];
            for round in [2 * k - 1, 2 * k] {
                let r = &m.rounds[round as usize - 1];
                let in_triangle: Vec<u32> = r
                    .tables
                    .iter()
                    .filter(|t| triangle.contains(&t.ns.unwrap()))
                    .map(|t| t.ew.unwrap())
                    .collect();
                assert_eq!(in_triangle.len(), 3);
                assert!(in_triangle.iter().all(|ew| triangle.contains(ew)));
            }
        }
    }
    // The seed's 7-team triangle, rounds 1 and 2 (Table 1: NS 1 v EW 3 on Set 1, then NS 1 v
    // EW 2 on Set 2; Table 2: 2 v 1 on Set 2, then 2 v 3 on Δ; Table 3: 3 v 2 on Δ, then 3 v 1
    // on Set 1). Δ is set 7 here (sets 1..6 are the main group's).
    let m = make("round_robin", 7, None);
    let at = |round: usize, table: u32| {
        let t = m.rounds[round]
            .tables
            .iter()
            .find(|t| t.table == table)
            .unwrap();
        (t.ns.unwrap(), t.ew.unwrap(), t.set)
    };
    assert_eq!(
        [at(0, 1), at(0, 2), at(0, 3)],
        [(1, 3, 1), (2, 1, 2), (3, 2, 7)]
    );
    assert_eq!(
        [at(1, 1), at(1, 2), at(1, 3)],
        [(1, 2, 2), (2, 3, 7), (3, 1, 1)]
    );
}

#[test]
fn sizes_not_served_are_refused_naming_the_field() {
    let refuse = |kind: &str, teams: u32, matches: Option<u32>| {
        generate(
            kind,
            &TeamMovementParams {
                teams,
                matches,
                boards_per_round: None,
            },
        )
        .unwrap_err()
    };
    let e = refuse("new_england_relay", 7, None);
    assert_eq!(e.field, "teams");
    assert!(e.supported.unwrap().contains("even"));
    assert_eq!(refuse("american_whist", 8, None).field, "teams");
    assert_eq!(refuse("american_whist", 7, Some(3)).field, "matches");
    assert_eq!(refuse("round_robin", 5, None).field, "teams");
    assert_eq!(refuse("round_robin", 8, Some(3)).field, "matches");
    assert_eq!(refuse("mitchell_teams", 8, Some(4)).field, "matches");
    assert!(
        main_group(5).is_none(),
        "5 teams have no main group schedule"
    );
}

#[test]
fn the_validator_finds_a_broken_match_and_a_repeat() {
    let mut m = make("round_robin", 6, None);
    // Move the EW pair of one table to another team: its match loses a half.
    m.rounds[0].tables[0].ew = Some(m.rounds[1].tables[0].ew.unwrap());
    let rep = report(&m);
    assert!(!rep.valid);
    assert!(
        rep.errors.iter().any(|e| e.contains("no other half")),
        "{:?}",
        rep.errors
    );
    let mut m = make("round_robin", 4, None);
    let mut again = m.rounds[0].clone();
    again.round = 4;
    for t in &mut again.tables {
        t.set = 4;
    }
    m.rounds.push(again);
    let rep = report(&m);
    assert!(
        rep.errors.iter().any(|e| e.contains("meet 2 times")),
        "{:?}",
        rep.errors
    );
}
