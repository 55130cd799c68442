//! Team tie-breaks against IA Mario Held's team exercises (34-45, "Exercises in
//! Tie-Breaking", FIDE TEC, Rev. 2403220900, for the C.07 text of 2023) and small events
//! computed by hand.
//!
//! The tournament (14 teams, 4 boards, 7 rounds) and the published answers are taken from the
//! transcription in the public OttoMilvang/TieBreakServer repository
//! (`tests/test_fide_held_team_exercises.py`; data only). Each entry: opponent, colour of
//! board 1 and game points; `+F`/`-F` the forfeit of round 6 between teams 1 and 6, `ZPB`,
//! `HPB` (1 MP, 2 GP) and `PAB` (1 MP, 2 GP).

use super::*;
use crate::engine::chess::team_swiss::event::PlayedMatch;
use TiebreakRules::{C2023, C2026};

const HELD: [[&str; 7]; 14] = [
    ["8w2.5", "4b1.5", "7w3", "2b2.5", "5w1.5", "+F", "3b2.5"],
    ["9b3", "3w4", "5b0", "1w1.5", "13w3", "4b2.5", "10b3"],
    ["10w2.5", "2b0", "9w3", "6b2.5", "4w3", "5b3.5", "1w1.5"],
    ["11b3", "1w2.5", "13b3", "5w3.5", "3b1", "2w1.5", "9b2.5"],
    ["12w4", "6b3", "2w4", "4b0.5", "1b2.5", "3w0.5", "13b3.5"],
    ["13b2", "5w1", "8b3", "3w1.5", "11b2.5", "-F", "12w2.5"],
    ["14w2", "8b2", "1b1", "10w2.5", "9b2", "13w2", "ZPB"],
    ["1b1.5", "7w2", "6w1", "12b3.5", "10b2", "9w2", "11w3"],
    ["2w1", "12b4", "3b1", "14w3", "7w2", "8b2", "4w1.5"],
    ["3b1.5", "11w1.5", "12b2.5", "7b1.5", "8w2", "14b3", "2w1"],
    ["4w1", "10b2.5", "14w2", "13b1.5", "6w1.5", "12w2", "8b1"],
    ["5b0", "9w0", "10w1.5", "8w0.5", "PAB", "11b2", "6b1.5"],
    ["6w2", "14b2.5", "4w1", "11w2.5", "2b1", "7b2", "5w0.5"],
    ["7b2", "13w1.5", "11b2", "9b1", "HPB", "10w1", "PAB"],
];

fn held() -> TeamRows {
    let cells = HELD
        .iter()
        .enumerate()
        .map(|(t, row)| {
            row.iter()
                .map(|e| match *e {
                    "+F" => TeamCell::Forfeit {
                        opponent: 5,
                        mp: 2,
                        gp: 8,
                    },
                    "-F" => TeamCell::Forfeit {
                        opponent: 0,
                        mp: 0,
                        gp: 0,
                    },
                    "ZPB" => TeamCell::Bye {
                        mp: 0,
                        gp: 0,
                        allocated: false,
                    },
                    "HPB" | "PAB" => TeamCell::Bye {
                        mp: 1,
                        gp: 4,
                        allocated: *e == "PAB",
                    },
                    _ => {
                        let at = e.find(['w', 'b']).unwrap();
                        let opponent: usize = e[..at].parse().unwrap();
                        let gp = (e[at + 1..].parse::<f64>().unwrap() * 2.0) as u32;
                        let mp = match gp.cmp(&4) {
                            std::cmp::Ordering::Greater => 2,
                            std::cmp::Ordering::Equal => 1,
                            std::cmp::Ordering::Less => 0,
                        };
                        assert!(opponent != t + 1);
                        TeamCell::Played {
                            opponent: opponent - 1,
                            mp,
                            gp,
                        }
                    }
                })
                .collect()
        })
        .collect();
    TeamRows { cells, boards: 4 }
}

fn tb(code: &str) -> TeamTiebreak {
    TeamTiebreak::parse(code).unwrap()
}

/// Each team's value (by TPN from 1) in points.
fn points(code: &str, rules: TiebreakRules) -> Vec<f64> {
    let t = tb(code);
    let unit = t.unit(Score::MatchPoints) as f64;
    values(&held(), Score::MatchPoints, &t, rules)
        .into_iter()
        .map(|v| v.unwrap() as f64 / unit)
        .collect()
}

fn order(primary: Score, codes: &[&str]) -> Vec<(usize, u32)> {
    let list: Vec<TeamTiebreak> = codes.iter().map(|c| tb(c)).collect();
    standings(&held(), primary, &list, C2023)
        .into_iter()
        .map(|l| (l.team + 1, l.rank))
        .collect()
}

fn teams(o: &[(usize, u32)]) -> Vec<usize> {
    o.iter().map(|x| x.0).collect()
}

fn rank(o: &[(usize, u32)], team: usize) -> u32 {
    o.iter().find(|x| x.0 == team).unwrap().1
}

#[test]
fn held_data_is_consistent_with_its_totals() {
    let rows = held();
    let mp: Vec<i64> = (0..14).map(|t| rows.total(t, Score::MatchPoints)).collect();
    assert_eq!(mp, [10, 10, 10, 10, 10, 7, 6, 7, 6, 5, 4, 2, 6, 4]);
    let gp: Vec<i64> = (0..14).map(|t| rows.total(t, Score::GamePoints)).collect();
    assert_eq!(
        gp,
        [35, 34, 32, 34, 36, 25, 23, 30, 29, 26, 23, 15, 23, 23],
        "game points in half-points"
    );
}

#[test]
fn exercise_34_match_points_then_game_points_and_the_other_way() {
    let o = order(Score::MatchPoints, &["GP"]);
    assert_eq!(teams(&o), [5, 1, 2, 4, 3, 8, 6, 9, 7, 13, 10, 11, 14, 12]);
    assert_eq!(
        rank(&o, 2),
        rank(&o, 4),
        "10 MP and 17 GP each: a shared place"
    );
    let o = order(Score::GamePoints, &["MP"]);
    assert_eq!(teams(&o), [5, 1, 2, 4, 3, 8, 9, 10, 6, 7, 13, 11, 14, 12]);
    let same = order(Score::GamePoints, &["MPvGP"]);
    assert_eq!(o, same, "MPvGP is MP when GP is primary");
}

#[test]
fn exercises_35_to_37_buchholz_of_match_and_game_points() {
    assert_eq!(
        points("BH:MP", C2023),
        [64., 57., 58., 56., 55., 46., 44., 41., 50., 44., 41., 41., 52., 36.]
    );
    assert_eq!(
        points("BH:MP/C1", C2023),
        [57., 52., 53., 52., 53., 39., 38., 39., 48., 42., 39., 39., 48., 32.]
    );
    assert_eq!(
        points("BH:GP", C2023),
        [114., 107.5, 109.5, 106., 99., 92., 94.5, 90., 97.5, 92., 88., 92., 101., 87.]
    );
    assert_eq!(
        points("bh:gp/c1", C2023),
        [100.5, 96., 97., 94.5, 91.5, 79.5, 83., 82.5, 90., 84.5, 80.5, 84.5, 89.5, 75.5]
    );
    assert_eq!(
        points("BH", C2023),
        points("BH:MP", C2023),
        "BH: of the primary"
    );
}

#[test]
fn exercises_38_to_41_sonneborn_berger_variants() {
    assert_eq!(points("EMMSB/C1", C2023)[..5], [74., 64., 66., 64., 66.]);
    assert_eq!(points("EGMSB", C2023)[..5], [158., 144., 150., 146., 132.]);
    let emg = points("EMGSB", C2023);
    assert_eq!((emg[6], emg[8], emg[12]), (68.5, 83., 73.));
    let egg = points("EGGSB", C2023);
    assert_eq!((egg[5], egg[7]), (157.5, 181.5));
    assert_eq!(points("ESB:MG", C2023), emg);
    assert_eq!(points("SB:MP", C2023), points("EMMSB", C2023));
    assert_eq!(points("SB:GP", C2023), points("EGGSB", C2023));
}

#[test]
fn exercises_42_to_45_extended_direct_encounter() {
    let o = order(Score::MatchPoints, &["EDE"]);
    // 42: 11 and 14 (4 MP) met in round 3 (2-2): a drawn match decides nothing.
    assert_eq!(rank(&o, 11), rank(&o, 14));
    // 44: 7, 9 and 13 (6 MP) did not all meet: nobody's score beats the others' maxima.
    assert_eq!(rank(&o, 7), rank(&o, 9));
    assert_eq!(rank(&o, 9), rank(&o, 13));
    // 43: 6 beat 8 (3-1 in round 3).
    assert!(rank(&o, 6) < rank(&o, 8));
    // 45: the five 10-MP teams all met, 4 MP each among them: no split. Game points among
    // them: 4 8½; 1, 2 and 3 8 each; 5 7½. Among 1, 2 and 3 again (art. 6, the smaller tie)
    // by game points: 2 5½ (4 against 3, 1½ against 1), 1 5, 3 1½.
    assert_eq!(teams(&o)[..5], [4, 2, 1, 3, 5]);
}

#[test]
fn the_2026_dummy_is_capped() {
    // Team 1's forfeit win of round 6 against team 6 (7 MP, 12.5 GP): under the 2026 text
    // the dummy has no more than team 6's adjusted score (16.4.1), not team 1's own 10.
    assert_eq!(points("BH:MP", C2026)[0], 64. - 10. + 7.);
    assert_eq!(points("BH:GP", C2026)[0], 114. - 17.5 + 12.5);
    // Team 14's half-point bye (round 5, 4 MP own): capped at a draw in every round, 7.
    assert_eq!(points("BH:MP", C2026)[13], points("BH:MP", C2023)[13]);
    // Team 7's zero-point bye of the last round: its own 6 MP under 2023, and under 2026
    // too (6 is less than the cap of 7).
    assert_eq!(points("BH:MP", C2026)[6], points("BH:MP", C2023)[6]);
}

#[test]
fn wins_and_pairing_number() {
    let wins = points("WIN", C2023);
    assert_eq!(wins[0], 5., "team 1: four matches won and a forfeit");
    assert_eq!(wins[11], 0.);
    let o = order(Score::MatchPoints, &["GP", "TPN"]);
    assert!(o.windows(2).all(|w| w[0].1 < w[1].1), "TPN leaves no tie");
}

/// A 3-team event of 2 boards through the records the API keeps: round 1 1-2 (1½-½), 3 the
/// PAB; round 2 3-1 (1-1), 2 the PAB.
#[test]
fn a_small_event_from_its_records() {
    let m = |white, black, w, b| PlayedMatch {
        white,
        black,
        white_half: w,
        black_half: b,
    };
    let rounds = [
        RoundRecord {
            matches: vec![m(1, 2, 3, 1)],
            bye: Some(3),
        },
        RoundRecord {
            matches: vec![m(3, 1, 2, 2)],
            bye: Some(2),
        },
    ];
    let rows = TeamRows::from_records(3, &rounds, 2);
    // MP: 1: 2+1 = 3; 2: 0+1 = 1; 3: 1+1 = 2. GP (half-points): 1: 3+2; 2: 1+2; 3: 2+2.
    let mp = |c: &str| values(&rows, Score::MatchPoints, &tb(c), C2023);
    assert_eq!(mp("MP"), [Some(3), Some(1), Some(2)]);
    assert_eq!(mp("GP"), [Some(5), Some(3), Some(4)]);
    // BH:MP. 1: 2's 1 + 3's 2 = 3. 2: 1's 3 + its PAB's dummy (own 1) = 4.
    // 3: PAB dummy (own 2) + 1's 3 = 5.
    assert_eq!(mp("BH:MP"), [Some(3), Some(4), Some(5)]);
    // EMGSB (half-points): 1: 1 MP × 3 + 2 MP × 2 = 7; 2: 3 × 1 + dummy 1 × 2 = 5;
    // 3: dummy 2 × 2 + 3 × 2 = 10.
    assert_eq!(mp("EMGSB"), [Some(7), Some(5), Some(10)]);
    // Under 2026 the PAB's dummy is at most a draw in each round: 2 MP (no change here).
    assert_eq!(
        values(&rows, Score::MatchPoints, &tb("BH:MP"), C2026),
        mp("BH:MP")
    );
    let lines = standings(
        &rows,
        Score::MatchPoints,
        &default_list(Score::MatchPoints),
        C2023,
    );
    assert_eq!(
        lines.iter().map(|l| (l.team, l.rank)).collect::<Vec<_>>(),
        [(0, 1), (2, 2), (1, 3)]
    );
}

#[test]
fn codes_are_read_and_refused_with_a_reason() {
    assert_eq!(tb("bh:mp/m1").cut_high, 1);
    for bad in [
        "XX", "BH:XP", "SB/M1", "EDE/C1", "WIN:MP", "ESB:MX", "BH/C1/C2", "",
    ] {
        assert!(TeamTiebreak::parse(bad).is_err(), "{bad}");
    }
}
