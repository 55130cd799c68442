use super::check::{reference, violations};
use super::*;
use crate::engine::rng::SplitMix64;
use Colour::{Black as B, White as W};

fn settings(round: u32, rounds: u32) -> TeamSwissSettings {
    TeamSwissSettings {
        preferences: ColourPreferences::TypeA,
        secondary_for_colours: true,
        initial_colour: W,
        round,
        rounds,
    }
}

fn team(tpn: u32, score: u32) -> TeamFacts {
    TeamFacts {
        score,
        ..TeamFacts::new(tpn)
    }
}

fn pairs_of(p: &TeamRoundPairing) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = p
        .matches
        .iter()
        .map(|m| (m.white.min(m.black), m.white.max(m.black)))
        .collect();
    v.sort_unstable();
    v
}

fn met(ts: &mut [TeamFacts], a: u32, b: u32) {
    ts[a as usize - 1].opponents.push(b);
    ts[b as usize - 1].opponents.push(a);
}

#[test]
fn round_one_pairs_by_identifier_and_colours_by_tpn_parity() {
    // Everyone on 0: one bracket. The identifier lists the top members first, so tops
    // {1, 2, 3} are least, then their bottoms in order: 1-4, 2-5, 3-6.
    let ts: Vec<TeamFacts> = (1..=6).map(|t| team(t, 0)).collect();
    let p = pair_team_round(&ts, &settings(1, 5)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 4), (2, 5), (3, 6)]);
    // 4.3.1: odd first-team takes the initial colour (White), even the other.
    assert!(p.matches.contains(&TeamMatch { white: 1, black: 4 }));
    assert!(p.matches.contains(&TeamMatch { white: 5, black: 2 }));
    assert!(p.matches.contains(&TeamMatch { white: 3, black: 6 }));
}

#[test]
fn bye_goes_to_lowest_score_then_most_played_then_largest_tpn_c2() {
    let mut ts: Vec<TeamFacts> = (1..=5).map(|t| team(t, 4)).collect();
    ts[1].score = 0;
    ts[3].score = 0;
    // 2 and 4 on the lowest score; 4 the larger TPN but it had a bye ([C2]).
    ts[3].had_bye = true;
    let p = pair_team_round(&ts, &settings(2, 5)).unwrap();
    assert_eq!(p.bye, Some(2));
    ts[3].had_bye = false;
    ts[1].colours = vec![W];
    let p = pair_team_round(&ts, &settings(2, 5)).unwrap();
    assert_eq!(p.bye, Some(2), "3.4.3: the one with more matches played");
}

#[test]
fn bye_skips_a_team_whose_absence_leaves_no_pairing() {
    // 3 is the natural bye but 1, 2 have met, so without 3 the pairs would be 1-2 and 4-5 or
    // 1-4/1-5..., make 1 have met everyone but 3.
    let mut ts: Vec<TeamFacts> = (1..=5).map(|t| team(t, 2)).collect();
    ts[2].score = 0;
    for o in [2, 4, 5] {
        met(&mut ts, 1, o);
    }
    let p = pair_team_round(&ts, &settings(3, 5)).unwrap();
    assert_ne!(p.bye, Some(3));
    assert!(pairs_of(&p).contains(&(1, 3)));
}

#[test]
fn c1_no_rematch_and_impossible_is_an_error() {
    let mut ts: Vec<TeamFacts> = (1..=2).map(|t| team(t, 0)).collect();
    met(&mut ts, 1, 2);
    assert_eq!(
        pair_team_round(&ts, &settings(2, 3)),
        Err(TeamSwissError::Impossible)
    );
}

#[test]
fn c4_c5_the_fewest_upfloaters_from_the_highest_scores() {
    // 1, 2, 3 on 4; 4 on 2; 5, 6 on 0: one upfloater, from the score 2.
    let mut ts: Vec<TeamFacts> = (1..=6).map(|t| team(t, 0)).collect();
    for (i, s) in [4, 4, 4, 2, 0, 0].into_iter().enumerate() {
        ts[i].score = s;
    }
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(p.upfloaters, 1);
    // The identifier: tops {1, 2} (1-3 2-4 is 1 2 3 4, before 1-4 2-3).
    assert_eq!(pairs_of(&p), vec![(1, 3), (2, 4), (5, 6)]);
}

#[test]
fn c6_the_upfloater_leaves_the_next_scoregroup_pairable() {
    // Residents 1 (score 4), next group 2, 3, 4 (score 2), then 5, 6 (0). Upfloating 2
    // would leave 3-4 who met, needing upfloaters; upfloating 3 leaves 2-4 legal.
    let mut ts: Vec<TeamFacts> = (1..=6).map(|t| team(t, 0)).collect();
    for (i, s) in [4, 2, 2, 2, 0, 0].into_iter().enumerate() {
        ts[i].score = s;
    }
    met(&mut ts, 3, 4);
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 3), (2, 4), (5, 6)]);
    // 2-4 met too: only upfloating 4 leaves 2-3 to pair among themselves.
    met(&mut ts, 2, 4);
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 4), (2, 3), (5, 6)]);
}

#[test]
fn c7_an_upfloater_that_floated_last_round_is_avoided_except_in_the_last_two_rounds() {
    let mut ts: Vec<TeamFacts> = (1..=4).map(|t| team(t, 0)).collect();
    for (i, s) in [4, 2, 2, 2].into_iter().enumerate() {
        ts[i].score = s;
    }
    ts[1].floated = true;
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert!(pairs_of(&p).contains(&(1, 3)), "{:?}", p.matches);
    let p = pair_team_round(&ts, &settings(6, 7)).unwrap();
    assert!(pairs_of(&p).contains(&(1, 2)), "{:?}", p.matches);
}

#[test]
fn c8_fewest_unfulfilled_preferences_before_the_identifier() {
    // 1 and 2 both want White (two Blacks), 3 and 4 both want Black: 1-3, 2-4 meets all.
    let mut ts: Vec<TeamFacts> = (1..=4).map(|t| team(t, 2)).collect();
    ts[0].colours = vec![B, B];
    ts[1].colours = vec![B, B];
    ts[2].colours = vec![W, W];
    ts[3].colours = vec![W, W];
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 3), (2, 4)]);
    assert!(p.matches.contains(&TeamMatch { white: 1, black: 3 }));
    assert!(p.matches.contains(&TeamMatch { white: 2, black: 4 }));
}

#[test]
fn c9_type_b_strong_preferences_before_mild() {
    // Type B: 1 and 3 strong White (CD -1, Black twice), 2 and 4 mild White (CD 0 with a
    // last Black; CD -1). [C8] is 2 for every pairing (all want White); [C9] keeps the strong
    // ones apart, so not 1-3 2-4 (identifier 1 2 3 4) but 1-4 2-3 (1 2 4 3).
    let mut s = settings(4, 9);
    s.preferences = ColourPreferences::TypeB;
    let mut ts: Vec<TeamFacts> = (1..=4).map(|t| team(t, 2)).collect();
    ts[0].colours = vec![W, B, B];
    ts[1].colours = vec![W, B, W, B];
    ts[2].colours = vec![W, B, B];
    ts[3].colours = vec![B, W, B];
    let p = pair_team_round(&ts, &s).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 4), (2, 3)]);
    // 4.3.4: the strong preference is granted.
    assert!(p.matches.contains(&TeamMatch { white: 1, black: 4 }));
    assert!(p.matches.contains(&TeamMatch { white: 3, black: 2 }));
}

#[test]
fn c10_the_upfloaters_opponent_not_a_floater_of_last_round() {
    // Residents 1, 2, 3 (4), upfloater 4 (2): the least identifier is 1-3 2-4, unless 2
    // floated last round; then 1-4 2-3 (1 2 4 3) before 1-2 3-4 (1 3 2 4).
    let mut ts: Vec<TeamFacts> = (1..=4).map(|t| team(t, 4)).collect();
    ts[3].score = 2;
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 3), (2, 4)]);
    ts[1].floated = true;
    let p = pair_team_round(&ts, &settings(3, 7)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 4), (2, 3)]);
    let p = pair_team_round(&ts, &settings(6, 7)).unwrap();
    assert_eq!(
        pairs_of(&p),
        vec![(1, 3), (2, 4)],
        "not in the last two rounds"
    );
}

#[test]
fn colour_preferences_type_a_and_b() {
    let s = settings(3, 7);
    let mut t = team(1, 0);
    assert_eq!(preference(&t, &s), None);
    t.colours = vec![B];
    assert_eq!(
        preference(&t, &s),
        None,
        "Type A: CD -1 alone is no preference"
    );
    t.colours = vec![W, B, B];
    assert_eq!(preference(&t, &s).map(|p| p.colour), Some(W));
    t.colours = vec![W, W, B];
    assert_eq!(preference(&t, &s), None, "CD +1, not White in the last two");
    t.colours = vec![B, W, W];
    assert_eq!(preference(&t, &s).map(|p| p.colour), Some(B));
    let mut b = s;
    b.preferences = ColourPreferences::TypeB;
    t.colours = vec![B];
    assert_eq!(
        preference(&t, &b),
        Some(Preference {
            colour: W,
            strong: false
        })
    );
    t.colours = vec![W, B];
    assert_eq!(
        preference(&t, &b),
        Some(Preference {
            colour: W,
            strong: false
        })
    );
    b.round = 7;
    assert_eq!(preference(&t, &b), None, "CD 0 in the last round");
    t.colours = vec![B, B];
    assert_eq!(
        preference(&t, &b),
        Some(Preference {
            colour: W,
            strong: true
        })
    );
}

#[test]
fn colours_alternate_from_the_last_round_they_differed() {
    let s = settings(4, 7);
    let mut a = team(1, 2);
    let mut b = team(2, 2);
    // Same CD, no preferences (Type A), sequences WBW and BWW: they differ in the middle.
    a.colours = vec![W, B, W];
    b.colours = vec![B, W, W];
    // 4.3.6: 1 had Black there, so now White.
    assert_eq!(allocate(&a, &b, &s), W);
    // 4.3.5: the lower CD gets White.
    a.colours = vec![W, B];
    b.colours = vec![W];
    assert_eq!(allocate(&a, &b, &s), W);
    assert_eq!(allocate(&b, &a, &s), B);
}

#[test]
fn bad_tpns_are_refused() {
    let ts = vec![team(1, 0), team(3, 0)];
    assert_eq!(
        pair_team_round(&ts, &settings(1, 3)),
        Err(TeamSwissError::BadTpns)
    );
}

/// A team Swiss event played with random results: 4 boards, match points 2/1/0 as the score
/// (half-points), game points as the secondary score, a bye worth a draw, and now and then a
/// forfeited match (a forfeit win, no colour, no meeting).
struct Event {
    teams: Vec<TeamFacts>,
    rng: SplitMix64,
}

impl Event {
    fn new(n: u32, seed: u64) -> Event {
        Event {
            teams: (1..=n).map(|t| team(t, 0)).collect(),
            rng: SplitMix64::new(seed),
        }
    }

    fn play(&mut self, p: &TeamRoundPairing) {
        let before: Vec<u32> = self.teams.iter().map(|t| t.score).collect();
        for t in &mut self.teams {
            t.floated = false;
        }
        if let Some(b) = p.bye {
            let t = &mut self.teams[b as usize - 1];
            t.score += 2;
            t.secondary += 4;
            t.had_bye = true;
        }
        for m in &p.matches {
            let (w, b) = (m.white as usize - 1, m.black as usize - 1);
            if self.rng.below(25) == 0 {
                let winner = if self.rng.coin() { w } else { b };
                self.teams[winner].score += 4;
                self.teams[winner].secondary += 8;
                self.teams[winner].had_bye = true;
                continue;
            }
            let mut gw = 0;
            for _ in 0..4 {
                gw += self.rng.below(3) as u32;
            }
            let gb = 8 - gw;
            let (mw, mb) = match gw.cmp(&gb) {
                std::cmp::Ordering::Greater => (4, 0),
                std::cmp::Ordering::Less => (0, 4),
                std::cmp::Ordering::Equal => (2, 2),
            };
            for (x, y, mp, gp, c) in [(w, b, mw, gw, W), (b, w, mb, gb, B)] {
                let t = &mut self.teams[x];
                t.score += mp;
                t.secondary += gp;
                t.colours.push(c);
                t.opponents.push(y as u32 + 1);
                t.floated = before[x] != before[y];
            }
        }
    }
}

/// Plays events of these sizes and seeds; every round is checked for the properties, and
/// against the text's enumeration when `exact`. Returns (rounds paired, rounds compared).
fn run(sizes: &[u32], seeds: u64, exact: bool, prefs: ColourPreferences) -> (usize, usize) {
    let mut rounds_paired = 0;
    let mut compared = 0;
    for &n in sizes {
        for seed in 0..seeds {
            let mut e = Event::new(n, seed * 1000 + u64::from(n));
            let rounds = 9.min(n - 1);
            for round in 1..=rounds {
                let mut s = settings(round, rounds);
                s.preferences = prefs;
                s.initial_colour = if seed % 2 == 0 { W } else { B };
                let got = pair_team_round(&e.teams, &s);
                if exact {
                    let want = reference(&e.teams, &s, MatchText::TeamSwiss);
                    match (&got, &want) {
                        (Ok(p), Some((pairs, bye))) => {
                            assert_eq!(
                                (&pairs_of(p), &p.bye),
                                (pairs, bye),
                                "n {n} seed {seed} round {round}"
                            );
                            compared += 1;
                        }
                        (Err(TeamSwissError::Impossible), None) => break,
                        _ => panic!("n {n} seed {seed} round {round}: {got:?} vs {want:?}"),
                    }
                }
                let Ok(p) = got else { break };
                let v = violations(&e.teams, &s, &p, MatchText::TeamSwiss);
                assert!(v.is_empty(), "n {n} seed {seed} round {round}: {v:?}");
                rounds_paired += 1;
                e.play(&p);
            }
        }
    }
    (rounds_paired, compared)
}

#[test]
fn generated_small_events_agree_with_the_texts_enumeration_type_a() {
    let (paired, compared) = run(&[6, 7, 8, 9, 10, 11, 12], 6, true, ColourPreferences::TypeA);
    assert_eq!(paired, compared);
    assert!(compared > 250, "{compared}");
}

#[test]
fn generated_small_events_agree_with_the_texts_enumeration_type_b_and_none() {
    let (_, b) = run(&[6, 7, 9, 10, 12], 4, true, ColourPreferences::TypeB);
    let (_, none) = run(&[7, 8, 11], 3, true, ColourPreferences::None);
    assert!(b > 100 && none > 50, "{b} {none}");
}

#[test]
fn generated_large_events_keep_every_checked_rule() {
    let sizes = [13, 20, 21, 33, 50, 51, 75, 99, 100];
    let (a, _) = run(&sizes, 3, false, ColourPreferences::TypeA);
    let (b, _) = run(&sizes, 2, false, ColourPreferences::TypeB);
    assert_eq!((a, b), (9 * 3 * 9, 9 * 2 * 9));
}
