use super::event::{facts, MatchRecord, RoundRecord};
use super::*;
use crate::engine::chess::games::GameResult::{self, *};
use crate::engine::chess::team_swiss::check::{reference, violations};
use crate::engine::rng::SplitMix64;
use Colour::{Black as B, White as W};

fn settings(round: u32, rounds: u32) -> DoubleSwissSettings {
    DoubleSwissSettings {
        initial_colour: W,
        round,
        rounds,
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

fn whites(p: &TeamRoundPairing) -> Vec<u32> {
    let mut v: Vec<u32> = p.matches.iter().map(|m| m.white).collect();
    v.sort_unstable();
    v
}

fn played(white: u32, black: u32, g1: GameResult, g2: GameResult) -> MatchRecord {
    MatchRecord {
        white,
        black,
        games: [g1, g2],
    }
}

#[test]
fn round_one_pairs_top_half_against_bottom_half_colours_by_tpn_parity() {
    let ps = facts(6, &[], DEFAULT_BYE_HALF_POINTS);
    let p = pair_double_swiss_round(&ps, &settings(1, 5)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 4), (2, 5), (3, 6)]);
    // 4.3.1: an odd HRP takes the initial colour, an even one the other.
    assert_eq!(whites(&p), vec![1, 3, 5]);
    let p = pair_double_swiss_round(
        &ps,
        &DoubleSwissSettings {
            initial_colour: B,
            ..settings(1, 5)
        },
    )
    .unwrap();
    assert_eq!(whites(&p), vec![2, 4, 6]);
}

#[test]
fn match_scores_and_the_bye_count_half_points_of_both_games() {
    // 1 beats 2 1½-½; 3 and 4 draw 1-1; 5 has the bye (1½ by default).
    let r = RoundRecord {
        matches: vec![
            played(1, 2, WhiteWin, Draw),
            played(3, 4, WhiteWin, WhiteWin),
        ],
        bye: Some(5),
    };
    let ps = facts(5, std::slice::from_ref(&r), DEFAULT_BYE_HALF_POINTS);
    let scores: Vec<u32> = ps.iter().map(|p| p.score).collect();
    assert_eq!(scores, vec![3, 1, 2, 2, 3]);
    assert!(ps[4].had_bye && !ps[0].had_bye);
    // A tournament's own bye value.
    assert_eq!(facts(5, &[r], 4)[4].score, 4);
}

#[test]
fn a_match_ends_by_forfeit_only_when_a_player_forfeits_both_games() {
    // 2 forfeits both games: no meeting, no colours, 1 won by forfeit ([C2]).
    let forfeit = played(1, 2, WhiteForfeitWin, BlackForfeitWin);
    assert_eq!(forfeit.forfeited_both(), (false, true));
    // 2 forfeits one game only: a match regularly played, the two have met.
    let one = played(1, 2, WhiteForfeitWin, Draw);
    assert!(!one.by_forfeit() && one.had_colours());
    // Each forfeits one game: played (nobody forfeited both), but no colour (1.6).
    let crossed = played(1, 2, WhiteForfeitWin, WhiteForfeitWin);
    assert!(!crossed.by_forfeit() && !crossed.had_colours());

    let round = |m: MatchRecord| RoundRecord {
        matches: vec![m, played(3, 4, Draw, Draw)],
        bye: None,
    };
    let ps = facts(4, &[round(forfeit)], DEFAULT_BYE_HALF_POINTS);
    assert!(ps[0].opponents.is_empty() && ps[0].colours.is_empty() && ps[0].had_bye);
    assert!(!ps[1].had_bye);
    assert_eq!((ps[0].score, ps[1].score), (4, 0));
    let ps = facts(4, &[round(one)], DEFAULT_BYE_HALF_POINTS);
    assert_eq!(
        (ps[0].opponents.clone(), ps[0].colours.clone()),
        (vec![2], vec![W])
    );
    assert!(!ps[0].had_bye);
    let ps = facts(4, &[round(crossed)], DEFAULT_BYE_HALF_POINTS);
    assert_eq!(ps[1].opponents, vec![1]);
    assert!(ps[1].colours.is_empty());
}

#[test]
fn c1_players_meet_again_only_after_a_match_ended_by_forfeit() {
    // Round 1: 1-3 ended by forfeit (3 absent both games), 2-4 played. Scores: 1 on 4,
    // 2 and 4 on 2, 3 on 0. Round 2 with 4 players: 1 and 3 may meet again.
    let r1 = RoundRecord {
        matches: vec![
            played(1, 3, WhiteForfeitWin, BlackForfeitWin),
            played(2, 4, Draw, Draw),
        ],
        bye: None,
    };
    let ps = facts(4, &[r1], DEFAULT_BYE_HALF_POINTS);
    let p = pair_double_swiss_round(&ps, &settings(2, 3)).unwrap();
    // 2 and 4 met: 2-4 is illegal, so 1 (top) takes an upfloater from the 2s: 2 (first by
    // TPN); 3 and 4 remain.
    assert_eq!(pairs_of(&p), vec![(1, 2), (3, 4)]);
    // A regularly played match is never repeated.
    let mut ps = facts(2, &[], DEFAULT_BYE_HALF_POINTS);
    ps[0].opponents.push(2);
    ps[1].opponents.push(1);
    assert_eq!(
        pair_double_swiss_round(&ps, &settings(2, 3)),
        Err(TeamSwissError::Impossible)
    );
}

#[test]
fn colours_fewer_whites_then_the_latest_difference_then_alternation() {
    let mut ps = facts(4, &[], DEFAULT_BYE_HALF_POINTS);
    for p in &mut ps {
        p.score = 4;
    }
    // 4.3.2: 1 had W W B (two Whites), 2 had B W B (one White): 2 gets White though 1 is
    // the HRP.
    ps[0].colours = vec![W, W, B];
    ps[1].colours = vec![B, W, B];
    ps[0].opponents = vec![3, 4];
    ps[1].opponents = vec![3, 4];
    ps[2].opponents = vec![1, 2];
    ps[3].opponents = vec![1, 2];
    // 4.3.3: 3 had W B, 4 had B W (one White each); aligned at the last match they differ
    // there (3 Black, 4 White): alternate, 3 White.
    ps[2].colours = vec![W, B];
    ps[3].colours = vec![B, W];
    let p = pair_double_swiss_round(&ps, &settings(4, 5)).unwrap();
    assert_eq!(pairs_of(&p), vec![(1, 2), (3, 4)]);
    assert_eq!(whites(&p), vec![2, 3]);
    // 4.3.3 aligned from the last played (General Handling Rules 3.4): 1 has W B, 2 has
    // W W B (2 Whites); same Whites when 1 has W W B too: identical histories, 4.3.4: the
    // HRP (1) alternates from its last played match (Black): White.
    ps[0].colours = vec![W, W, B];
    ps[1].colours = vec![W, W, B];
    let p = pair_double_swiss_round(&ps, &settings(4, 5)).unwrap();
    assert!(p.matches.iter().any(|m| m.white == 1 && m.black == 2));
    // 4.3.5: the HRP has not played, its opponent has (Black last): the opponent alternates
    // to White.
    let mut two = facts(2, &[], DEFAULT_BYE_HALF_POINTS);
    two[1].colours = vec![B];
    two[1].score = 2;
    two[0].score = 2;
    let p = pair_double_swiss_round(&two, &settings(2, 3)).unwrap();
    assert_eq!(whites(&p), vec![2]);
}

#[test]
fn c7_floats_lapse_in_the_last_round_only() {
    // 1 and 2 on 4; 3 and 4 on 2. 1-2 met, so two upfloaters are needed: 3 and 4 both. Make
    // a case with a choice: 1 alone on top (6), 2, 3 on 4 (3 floated last round), 4 and 5 and
    // 6 lower.
    let mut ps = facts(6, &[], DEFAULT_BYE_HALF_POINTS);
    let scores = [6, 4, 4, 2, 2, 0];
    for (p, s) in ps.iter_mut().zip(scores) {
        p.score = s;
    }
    ps[1].floated = true;
    // [C7] in round 4 of 5 (not the last): 3 upfloats, not 2 (who floated).
    let p = pair_double_swiss_round(&ps, &settings(4, 5)).unwrap();
    assert!(pairs_of(&p).contains(&(1, 3)), "{p:?}");
    // In the last round [C7] lapses: the first set by TPN, 2.
    let p = pair_double_swiss_round(&ps, &settings(5, 5)).unwrap();
    assert!(pairs_of(&p).contains(&(1, 2)), "{p:?}");
}

#[test]
fn the_bye_goes_to_the_lowest_score_most_matches_largest_tpn_not_twice() {
    let mut ps = facts(5, &[], DEFAULT_BYE_HALF_POINTS);
    let scores = [4, 2, 0, 0, 2];
    for (p, s) in ps.iter_mut().zip(scores) {
        p.score = s;
        p.colours = vec![W];
    }
    ps[2].colours = vec![W, B];
    // Both 3 and 4 on 0; 3 has played more matches.
    let p = pair_double_swiss_round(&ps, &settings(3, 5)).unwrap();
    assert_eq!(p.bye, Some(3));
    ps[2].had_bye = true;
    let p = pair_double_swiss_round(&ps, &settings(3, 5)).unwrap();
    assert_eq!(p.bye, Some(4));
}

/// A Double-Swiss event with random games: most games played (win, draw, loss), now and then
/// a single forfeited game, a match forfeited by one player (both games) or by both.
struct Event {
    n: usize,
    rounds: Vec<RoundRecord>,
    rng: SplitMix64,
}

impl Event {
    fn game(&mut self) -> GameResult {
        match self.rng.below(40) {
            0 => WhiteForfeitWin,
            1 => BlackForfeitWin,
            2..=14 => WhiteWin,
            15..=25 => BlackWin,
            _ => Draw,
        }
    }

    fn play(&mut self, p: &TeamRoundPairing) {
        let mut matches = Vec::new();
        for m in &p.matches {
            let games = match self.rng.below(40) {
                0 => [WhiteForfeitWin, BlackForfeitWin],
                1 => [BlackForfeitWin, WhiteForfeitWin],
                2 => [DoubleForfeit, DoubleForfeit],
                _ => [self.game(), self.game()],
            };
            matches.push(MatchRecord {
                white: m.white,
                black: m.black,
                games,
            });
        }
        self.rounds.push(RoundRecord {
            matches,
            bye: p.bye,
        });
    }
}

/// Plays events of these sizes and seeds; checks every round, and against the enumeration
/// of the text when `exact`. Returns (rounds paired, rounds compared).
fn run(sizes: &[usize], seeds: u64, exact: bool) -> (usize, usize) {
    let (mut paired, mut compared) = (0, 0);
    for &n in sizes {
        for seed in 0..seeds {
            let mut e = Event {
                n,
                rounds: vec![],
                rng: SplitMix64::new(seed * 7919 + n as u64),
            };
            let rounds = 9.min(n as u32 - 1);
            for round in 1..=rounds {
                let s = DoubleSwissSettings {
                    initial_colour: if seed % 2 == 0 { W } else { B },
                    round,
                    rounds,
                };
                let ps = facts(e.n, &e.rounds, DEFAULT_BYE_HALF_POINTS);
                let got = pair_double_swiss_round(&ps, &s);
                if exact {
                    let want = reference(&ps, &s.matcher(), MatchText::DoubleSwiss);
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
                let v = violations(&ps, &s.matcher(), &p, MatchText::DoubleSwiss);
                assert!(v.is_empty(), "n {n} seed {seed} round {round}: {v:?}");
                paired += 1;
                e.play(&p);
            }
        }
    }
    (paired, compared)
}

#[test]
fn generated_small_events_agree_with_the_texts_enumeration() {
    let (paired, compared) = run(&[6, 7, 8, 9, 10, 11, 12], 6, true);
    assert_eq!(paired, compared);
    assert!(compared > 250, "{compared}");
}

#[test]
fn generated_large_events_keep_every_checked_rule() {
    let sizes = [13, 20, 21, 50, 51, 99, 100, 200];
    let (paired, _) = run(&sizes, 2, false);
    assert_eq!(paired, sizes.len() * 2 * 9);
}
