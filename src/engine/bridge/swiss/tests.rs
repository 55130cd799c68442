use super::*;

fn contestant(id: u64, score: f64, seed: Option<u32>, opponents: &[u64]) -> Contestant {
    Contestant {
        id,
        score,
        seed,
        opponents: opponents.to_vec(),
        byes: 0,
        home_table: None,
    }
}

fn request(contestants: Vec<Contestant>) -> DrawRequest {
    DrawRequest {
        contestants,
        round1: Round1::Split,
        random_seed: None,
        rounds: None,
        odd: OddNumber::Bye,
        keep_home_tables: false,
    }
}

fn pairs(d: &Draw) -> Vec<(u64, u64)> {
    d.matches.iter().map(|m| (m.home, m.away)).collect()
}

/// The literal rule: the highest-placed not drawn takes the highest-placed it has not met for
/// which the rest can still be drawn, found by trying every choice (backtracking).
fn reference(history: &History, active: &mut Vec<bool>) -> Option<Vec<(usize, usize)>> {
    let Some(u) = active.iter().position(|&a| a) else {
        return Some(Vec::new());
    };
    active[u] = false;
    for v in u + 1..active.len() {
        if active[v] && !history.met(u, v) {
            active[v] = false;
            if let Some(mut rest) = reference(history, active) {
                active[u] = true;
                active[v] = true;
                rest.insert(0, (u, v));
                return Some(rest);
            }
            active[v] = true;
        }
    }
    active[u] = true;
    None
}

#[test]
fn the_seeds_example_first_against_third() {
    // 1st..4th with 2nd having met 4th... the seed: "It could be that a draw is 1st v 3rd,
    // 2nd v 4th": here 1st has met 2nd.
    let cs = vec![
        contestant(1, 40.0, None, &[2]),
        contestant(2, 35.0, None, &[1]),
        contestant(3, 30.0, None, &[4]),
        contestant(4, 25.0, None, &[3]),
    ];
    let d = draw(&request(cs)).unwrap();
    assert_eq!(pairs(&d), [(1, 3), (2, 4)]);
    assert_eq!(d.bye, None);
}

#[test]
fn the_module_docs_worked_example() {
    let cs = vec![
        contestant(1, 60.0, None, &[2]),
        contestant(2, 50.0, None, &[1]),
        contestant(3, 40.0, None, &[]),
        contestant(4, 30.0, None, &[]),
        contestant(5, 20.0, None, &[6]),
        contestant(6, 10.0, None, &[5]),
    ];
    let d = draw(&request(cs)).unwrap();
    assert_eq!(pairs(&d), [(1, 3), (2, 5), (4, 6)]);
}

#[test]
fn round_one_split_fold_and_random() {
    let cs: Vec<Contestant> = (1..=8)
        .map(|i| contestant(100 + i, 0.0, Some(9 - i as u32), &[]))
        .collect();
    // Seeds 8..1 given to ids 101..108: seed 1 is id 108.
    let d = draw(&request(cs.clone())).unwrap();
    assert_eq!(pairs(&d), [(108, 104), (107, 103), (106, 102), (105, 101)]);
    let mut fold = request(cs.clone());
    fold.round1 = Round1::Fold;
    assert_eq!(
        pairs(&draw(&fold).unwrap()),
        [(108, 101), (107, 102), (106, 103), (105, 104)]
    );
    let mut random = request(cs.clone());
    random.round1 = Round1::Random;
    assert_eq!(draw(&random).unwrap_err().field, "random_seed");
    random.random_seed = Some(7);
    let a = draw(&random).unwrap();
    assert_eq!(a, draw(&random).unwrap(), "the same seed, the same draw");
    let mut ids: Vec<u64> = a.matches.iter().flat_map(|m| [m.home, m.away]).collect();
    ids.sort();
    assert_eq!(ids, (101..=108).collect::<Vec<_>>());
    // Unseeded entries after seeded ones; an odd number: the lowest seed has the bye.
    let mut cs = cs;
    cs.push(contestant(1, 0.0, None, &[]));
    let d = draw(&request(cs)).unwrap();
    assert_eq!(d.bye, Some(1));
}

#[test]
fn the_bye_goes_to_the_lowest_placed_without_one() {
    let mut cs = vec![
        contestant(1, 50.0, None, &[2]),
        contestant(2, 40.0, None, &[1]),
        contestant(3, 30.0, None, &[]),
        contestant(4, 20.0, None, &[]),
        contestant(5, 10.0, None, &[]),
    ];
    cs[4].byes = 1;
    let d = draw(&request(cs.clone())).unwrap();
    assert_eq!(d.bye, Some(4));
    for c in &mut cs {
        c.byes = 1;
    }
    let d = draw(&request(cs)).unwrap();
    assert_eq!(d.bye, Some(5));
    assert!(
        d.warnings.iter().any(|w| w.contains("second")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn warnings_for_over_swissed_and_too_few_rounds() {
    let cs: Vec<Contestant> = (1..=10)
        .map(|i| contestant(i, 0.0, Some(i as u32), &[]))
        .collect();
    let mut r = request(cs);
    r.rounds = Some(6);
    assert!(draw(&r)
        .unwrap()
        .warnings
        .iter()
        .any(|w| w.contains("over-swissed")));
    r.rounds = Some(5);
    let w = draw(&r).unwrap().warnings;
    assert!(w.iter().any(|w| w.contains("minimum of 6")), "{w:?}");
    assert!(!w.iter().any(|w| w.contains("over-swissed")), "{w:?}");
    assert_eq!(minimum_rounds(17), Some(7));
    assert_eq!(minimum_rounds(64), Some(8));
    assert_eq!(minimum_rounds(128), Some(9));
}

#[test]
fn bad_requests_name_the_field() {
    let cs = vec![
        contestant(1, 0.0, None, &[1]),
        contestant(2, 0.0, None, &[]),
    ];
    assert_eq!(
        draw(&request(cs)).unwrap_err().field,
        "contestants[0].opponents"
    );
    let cs = vec![contestant(1, 0.0, None, &[]), contestant(1, 0.0, None, &[])];
    assert_eq!(draw(&request(cs)).unwrap_err().field, "contestants[1].id");
    // Met by 100 others, each listing it once: too many meetings for one contestant.
    let mut cs: Vec<Contestant> = (2..=101).map(|i| contestant(i, 0.0, None, &[1])).collect();
    cs.insert(0, contestant(1, 0.0, None, &[]));
    assert_eq!(
        draw(&request(cs)).unwrap_err().field,
        "contestants[0].opponents"
    );
}

#[test]
fn repeats_only_when_no_draw_avoids_them() {
    // Four contestants who have all met one another: a repeat is unavoidable.
    let cs: Vec<Contestant> = (1..=4)
        .map(|i| {
            let others: Vec<u64> = (1..=4).filter(|&j| j != i).collect();
            contestant(i, 10.0 * (5 - i) as f64, None, &others)
        })
        .collect();
    let d = draw(&request(cs)).unwrap();
    assert_eq!(d.matches.len(), 2);
    assert!(
        d.warnings.iter().any(|w| w.contains("2 repeat")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn the_draw_equals_the_top_down_rule_with_backtracking_on_random_histories() {
    let mut rng = SplitMix64::new(2026);
    let mut compared = 0;
    for _ in 0..600 {
        let n = 4 + rng.below(13) as usize;
        let rounds = 1 + rng.below(n as u64 - 1) as usize;
        let mut met: Vec<Vec<u64>> = vec![Vec::new(); n];
        let mut byes = vec![0u32; n];
        for _ in 0..rounds {
            let mut ids: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut ids);
            if n % 2 == 1 {
                byes[ids.pop().unwrap()] += 1;
            }
            for c in ids.chunks(2) {
                if !met[c[0]].contains(&(c[1] as u64 + 1)) {
                    met[c[0]].push(c[1] as u64 + 1);
                    met[c[1]].push(c[0] as u64 + 1);
                }
            }
        }
        let cs: Vec<Contestant> = (0..n)
            .map(|i| Contestant {
                id: i as u64 + 1,
                score: rng.below(5) as f64 * 2.5,
                seed: if rng.coin() {
                    Some(rng.below(20) as u32)
                } else {
                    None
                },
                opponents: met[i].clone(),
                byes: byes[i],
                home_table: None,
            })
            .collect();
        let d = draw(&request(cs.clone())).unwrap();
        // The same placing and history, by the literal rule.
        let order = placing(&cs, true);
        let place: HashMap<u64, usize> = order
            .iter()
            .enumerate()
            .map(|(p, &i)| (cs[i].id, p))
            .collect();
        let history = History::new(
            order
                .iter()
                .map(|&i| cs[i].opponents.iter().map(|id| place[id]).collect())
                .collect(),
        );
        let mut active = vec![true; n];
        if let Some(bye) = d.bye {
            // The bye: the lowest-placed without one for whom the rest can be drawn.
            let expected = (0..n).rev().find(|&p| {
                if cs[order[p]].byes > 0 {
                    return false;
                }
                let mut a = vec![true; n];
                a[p] = false;
                reference(&history, &mut a).is_some()
            });
            if let Some(p) = expected {
                assert_eq!(bye, cs[order[p]].id, "bye, n={n}");
            }
            active[place[&bye]] = false;
        }
        let got: Vec<(usize, usize)> = d
            .matches
            .iter()
            .map(|m| (place[&m.home], place[&m.away]))
            .collect();
        match reference(&history, &mut active) {
            Some(want) => {
                assert_eq!(got, want, "n={n} rounds={rounds}");
                assert!(d.warnings.is_empty());
                compared += 1;
            }
            None => assert!(d.warnings.iter().any(|w| w.contains("repeat"))),
        }
    }
    assert!(
        compared > 300,
        "only {compared} draws had a repeat-free answer"
    );
}

#[test]
fn a_triangle_instead_of_a_bye() {
    // 7 teams; 6 and 7 have met, so the triangle is the lowest three that have not: 4, 5, 7.
    let mut cs: Vec<Contestant> = (1..=7)
        .map(|i| contestant(i, 100.0 - i as f64, None, &[]))
        .collect();
    cs[5].opponents = vec![7];
    cs[6].opponents = vec![6];
    let mut r = request(cs);
    r.odd = OddNumber::Triangle;
    let d = draw(&r).unwrap();
    assert_eq!(d.bye, None);
    assert_eq!(d.triangle, Some(vec![4, 5, 7]));
    assert_eq!(pairs(&d), [(1, 2), (3, 6)]);
}

#[test]
fn home_tables_are_kept_when_asked_and_possible() {
    let mut cs: Vec<Contestant> = (1..=6)
        .map(|i| contestant(i, 100.0 - i as f64, None, &[]))
        .collect();
    // Not round 1: 1 has met 6.
    cs[0].opponents = vec![6];
    cs[5].opponents = vec![1];
    cs[4].home_table = Some(1); // id 5
    cs[0].home_table = Some(3); // id 1
    cs[2].home_table = Some(3); // id 3: table 3 is taken by id 1's match
    let mut r = request(cs.clone());
    let tables = |d: &Draw| {
        d.matches
            .iter()
            .map(|m| (m.home, m.table))
            .collect::<Vec<_>>()
    };
    assert_eq!(tables(&draw(&r).unwrap()), [(1, 1), (3, 2), (5, 3)]);
    r.keep_home_tables = true;
    assert_eq!(tables(&draw(&r).unwrap()), [(1, 3), (3, 2), (5, 1)]);
    cs[1].home_table = Some(0);
    let mut r = request(cs);
    r.keep_home_tables = true;
    assert_eq!(draw(&r).unwrap_err().field, "contestants[1].home_table");
}
