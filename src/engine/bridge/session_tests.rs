//! Tests of the session scoring (the rules: the module doc of `session.rs`).

use super::*;

fn played(round: u32, table: u32, board: u32, ns: u32, ew: u32, score: i32) -> Played {
    Played {
        round,
        table,
        board,
        ns: PairId::Ns(ns),
        ew: PairId::Ew(ew),
        score: BoardScore::Score(score),
    }
}

fn mp() -> ScoringSettings {
    ScoringSettings::default()
}

#[test]
fn settings_parse_and_name_the_field() {
    let s = ScoringSettings::parse(&serde_json::json!({})).unwrap();
    assert_eq!((s.scoring, s.scale()), (Method::Matchpoints, Scale::Ebu));
    let s = ScoringSettings::parse(&serde_json::json!({"scoring": "cross_imps"})).unwrap();
    assert_eq!(s.scoring, Method::CrossImps);
    let s = ScoringSettings::parse(&serde_json::json!({"scale": "acbl"})).unwrap();
    assert_eq!(s.scale(), Scale::Acbl);
    let e = ScoringSettings::parse(&serde_json::json!({"scoring": "swiss"})).unwrap_err();
    assert_eq!(e.field, "settings.scoring");
    let e = ScoringSettings::parse(&serde_json::json!({"tiebreaks": []})).unwrap_err();
    assert_eq!(e.field, "settings.tiebreaks");
    let e = ScoringSettings::parse(&serde_json::json!({"scoring": "butler", "scale": "ebu"}))
        .unwrap_err();
    assert_eq!(e.field, "settings.scale");
}

#[test]
fn rank_labels_share_ties() {
    assert_eq!(
        rank_labels(&[5, 4, 4, 3, 2, 2, 2]),
        vec!["1", "2=", "2=", "4", "5=", "5=", "5="]
    );
    assert!(rank_labels::<u8>(&[]).is_empty());
}

/// Two boards, three tables (a 3-table Mitchell's first two rounds, cut down by hand).
#[test]
fn matchpoints_totals_percent_and_ranks_per_direction() {
    // Board 1: 420, 420, -50 → NS 3, 3, 0 and EW 1, 1, 4 (EBU, top 4).
    // Board 2: 100, 110, 140 → NS 0, 2, 4 and EW 4, 2, 0.
    let results = vec![
        played(1, 1, 1, 1, 1, 420),
        played(1, 2, 1, 2, 2, 420),
        played(1, 3, 1, 3, 3, -50),
        played(2, 1, 2, 1, 3, 100),
        played(2, 2, 2, 2, 1, 110),
        played(2, 3, 2, 3, 2, 140),
    ];
    let pairs: Vec<PairId> = (1..=3)
        .map(PairId::Ns)
        .chain((1..=3).map(PairId::Ew))
        .collect();
    let s = score_session(&results, &pairs, mp(), true);
    assert_eq!(s.boards.len(), 2);
    assert_eq!(s.boards[0].top, Some(4.0));
    let ns: Vec<f64> = s.boards[0].lines.iter().map(|l| l.ns).collect();
    assert_eq!(ns, vec![3.0, 3.0, 0.0]);
    let ns = &s.rankings[0];
    assert_eq!(ns.direction, Some(Direction::Ns));
    // NS 1: 3 + 0 = 3 (37.5 %), NS 2: 3 + 2 = 5 (62.5 %), NS 3: 0 + 4 = 4 (50 %).
    let order: Vec<(String, PairId, f64, Option<f64>)> = ns
        .entries
        .iter()
        .map(|e| (e.rank.clone(), e.pair, e.total, e.percent))
        .collect();
    assert_eq!(
        order,
        vec![
            ("1".into(), PairId::Ns(2), 5.0, Some(62.5)),
            ("2".into(), PairId::Ns(3), 4.0, Some(50.0)),
            ("3".into(), PairId::Ns(1), 3.0, Some(37.5)),
        ]
    );
    // EW 1: 1 + 2 = 3, EW 2: 1 + 0 = 1, EW 3: 4 + 4 = 8.
    let ew = &s.rankings[1];
    assert_eq!(ew.direction, Some(Direction::Ew));
    assert_eq!(ew.entries[0].pair, PairId::Ew(3));
    assert_eq!(ew.entries[0].total, 8.0);
    assert_eq!(ew.entries[0].percent, Some(100.0));
    assert!(ew.entries.iter().all(|e| e.boards == 2));
}

#[test]
fn ties_share_a_rank_and_pairs_without_boards_come_last() {
    let results = vec![played(1, 1, 1, 1, 1, 420), played(1, 2, 1, 2, 2, 420)];
    let pairs = vec![
        PairId::Pair(1),
        PairId::Pair(2),
        PairId::Ns(1),
        PairId::Ns(2),
        PairId::Ew(1),
        PairId::Ew(2),
    ];
    let s = score_session(&results, &pairs, mp(), false);
    assert_eq!(s.rankings.len(), 1);
    let e = &s.rankings[0].entries;
    let ranks: Vec<&str> = e.iter().map(|x| x.rank.as_str()).collect();
    assert_eq!(ranks, vec!["1=", "1=", "1=", "1=", "5=", "5="]);
    assert_eq!(e[4].boards, 0);
    assert_eq!(e[4].percent, None);
    assert_eq!(e[0].pair, PairId::Ns(1), "equal pairs by pair number");
}

#[test]
fn neuberg_tops_follow_the_most_played_board() {
    // Board 1 played 3 times, board 2 twice: board 2 is factored to the top of 4.
    let results = vec![
        played(1, 1, 1, 1, 1, 420),
        played(1, 2, 1, 2, 2, 400),
        played(1, 3, 1, 3, 3, -50),
        played(2, 1, 2, 1, 2, 100),
        played(2, 2, 2, 2, 3, 50),
    ];
    let s = score_session(&results, &[], mp(), true);
    assert_eq!(s.boards[1].top, Some(4.0));
    // NS beat the other score: MP' = (2 + 1) × 3/2 − 1 = 3.5.
    assert_eq!(s.boards[1].lines[0].ns, 3.5);
    assert_eq!(s.boards[1].lines[1].ns, 0.5);
}

#[test]
fn butler_and_cross_imps_and_adjusted_scores() {
    let results = vec![
        played(1, 1, 1, 1, 1, 420),
        played(1, 2, 1, 2, 2, -40),
        Played {
            score: BoardScore::Adjusted {
                ns: Adjusted::AveragePlus,
                ew: Adjusted::AverageMinus,
            },
            ..played(1, 3, 1, 3, 3, 0)
        },
    ];
    let butler = ScoringSettings {
        scoring: Method::Butler,
        scale: None,
    };
    let s = score_session(&results, &[], butler, true);
    // Datum of 420 and −40: 190; 420 − 190 = 230 → 6 IMPs, −40 − 190 = −230 → −6.
    assert_eq!(s.boards[0].datum, Some(190));
    let l = &s.boards[0].lines;
    assert_eq!((l[0].ns, l[0].ew), (6.0, -6.0));
    assert_eq!((l[1].ns, l[1].ew), (-6.0, 6.0));
    assert_eq!((l[2].ns, l[2].ew), (3.0, -3.0));
    assert!(s.rankings[0].entries.iter().all(|e| e.percent.is_none()));
    assert_eq!(s.rankings[0].entries[0].pair, PairId::Ns(1));

    let cross = ScoringSettings {
        scoring: Method::CrossImps,
        scale: None,
    };
    let s = score_session(&results, &[], cross, true);
    // 420 v −40: 460 → 10 IMPs each way, one comparison each.
    let l = &s.boards[0].lines;
    assert_eq!((l[0].ns, l[1].ns), (10.0, -10.0));
}

#[test]
fn split_scores_are_imped_against_the_real_scores() {
    let split = Played {
        score: BoardScore::Split { ns: 100, ew: -100 },
        ..played(1, 3, 1, 3, 3, 0)
    };
    let results = vec![
        played(1, 1, 1, 1, 1, 420),
        played(1, 2, 1, 2, 2, -40),
        split,
    ];
    let with = |scoring| ScoringSettings {
        scoring,
        scale: None,
    };
    // Butler: datum 190 from the real scores; NS 100 − 190 = −90 → −3 IMPs; EW's score
    // −100 − 190 = −290 → −7 for NS, so +7 for EW.
    let s = score_session(&results, &[], with(Method::Butler), true);
    assert_eq!(s.boards[0].datum, Some(190));
    let l = s.boards[0].lines[2];
    assert_eq!((l.ns, l.ew), (-3.0, 7.0));
    // Cross-IMPs against 420 and −40: NS (−320 → −8, 140 → 4) / 2 = −2;
    // EW −((−520 → −11) + (−60 → −2)) / 2 = 6.5.
    let s = score_session(&results, &[], with(Method::CrossImps), true);
    let l = s.boards[0].lines[2];
    assert_eq!((l.ns, l.ew), (-2.0, 6.5));
}

#[test]
fn the_same_results_in_another_order_score_the_same() {
    let mut results = vec![
        played(1, 1, 1, 1, 1, 420),
        played(1, 2, 1, 2, 2, 450),
        played(1, 3, 1, 3, 3, -50),
        played(2, 1, 2, 1, 3, 100),
    ];
    let a = score_session(&results, &[], mp(), true);
    results.reverse();
    let b = score_session(&results, &[], mp(), true);
    assert_eq!(a.rankings, b.rankings);
}
