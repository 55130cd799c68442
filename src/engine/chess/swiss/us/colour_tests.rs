//! Serious colour problems on hand-made histories: a third colour in a row and an
//! imbalance beyond 2 are avoided whenever a rematch-free pairing allows it, and when one is
//! forced the explanation says why.

use super::*;
use crate::engine::chess::swiss::colour::{ColourCode, ColourEffect};
use crate::engine::chess::swiss::state::*;
use crate::engine::chess::swiss::*;
use crate::engine::matching::BlossomSolver;

/// A section of players `(start number, rating)` after the rounds given as boards
/// `(white, black, result for White: '1', '0' or '=')`.
fn played(players: &[(u32, u32)], rounds: &[&[(u32, u32, char)]]) -> SwissState {
    let mut list: Vec<SwissPlayer> = players
        .iter()
        .map(|&(sn, rating)| SwissPlayer {
            start_number: sn,
            name: format!("P{sn}"),
            rating,
            ..Default::default()
        })
        .collect();
    let result = |r: char, white: bool| match (r, white) {
        ('=', _) => RoundResult::Draw,
        ('1', true) | ('0', false) => RoundResult::Win,
        _ => RoundResult::Loss,
    };
    for boards in rounds {
        for &(w, b, r) in *boards {
            for (me, opp, colour) in [(w, b, Colour::White), (b, w, Colour::Black)] {
                let p = list.iter_mut().find(|p| p.start_number == me).unwrap();
                p.history.push(RoundRecord {
                    opponent: Some(opp),
                    colour: Some(colour),
                    result: result(r, colour == Colour::White),
                });
            }
        }
    }
    SwissState {
        settings: SwissSettings::default(),
        players: list,
        round: None,
        requested_byes: vec![],
        absent: vec![],
    }
}

fn colour_of(p: &RoundPairing, sn: u32) -> Colour {
    let b = p
        .pairings
        .iter()
        .find(|b| b.white == sn || b.black == sn)
        .unwrap_or_else(|| panic!("{sn} is not paired: {p:?}"));
    if b.white == sn {
        Colour::White
    } else {
        Colour::Black
    }
}

fn boards(p: &RoundPairing) -> Vec<&BoardExplanation> {
    p.explanation
        .iter()
        .filter_map(|e| match e {
            ExplanationEntry::Board(b) => Some(b),
            _ => None,
        })
        .collect()
}

fn notes(p: &RoundPairing) -> Vec<&str> {
    p.explanation
        .iter()
        .filter_map(|e| match e {
            ExplanationEntry::Note { message } => Some(message.as_str()),
            _ => None,
        })
        .collect()
}

/// Six players after two rounds: 1 and 2 lead with 2/2, both with White twice; they have not
/// met. Pairing them gives one of them a third White (33, and W−B +3: IMB); every other
/// rematch-free pairing drops a leader to a lower score group.
fn two_leaders_with_white_twice() -> SwissState {
    played(
        &[
            (1, 2000),
            (2, 1900),
            (3, 1800),
            (4, 1700),
            (5, 1600),
            (6, 1500),
        ],
        &[
            &[(1, 4, '1'), (2, 5, '1'), (6, 3, '0')],
            &[(1, 3, '1'), (2, 6, '1'), (5, 4, '=')],
        ],
    )
}

#[test]
fn white_twice_never_gets_a_third_white_in_fide_style_when_a_rematch_free_pairing_avoids_it() {
    let mut s = two_leaders_with_white_twice();
    s.settings.fide_style = true;
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    assert_eq!(colour_of(&p, 1), Colour::Black, "{p:?}");
    assert_eq!(colour_of(&p, 2), Colour::Black, "{p:?}");
    for b in boards(&p) {
        assert!(!b.rematch, "{b:?}");
        assert!(
            ![b.colour_white, b.colour_black]
                .iter()
                .any(|c| matches!(c, ColourCode::ThreeInRow | ColourCode::Imb)),
            "{b:?}"
        );
        assert_eq!(b.tiers.serious_colour, 0, "{b:?}");
    }
}

#[test]
fn in_us_style_the_score_group_comes_first_and_the_note_says_so() {
    let s = two_leaders_with_white_twice();
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    // The leaders meet (no score difference); rule 3: the higher-ranked 1 gets his due Black.
    let top = boards(&p)[0];
    assert_eq!((top.white, top.black), (2, Some(1)), "{p:?}");
    assert_eq!(top.colour_white, ColourCode::Imb);
    // 2 gets White a third time in a row ((3 − 2)² = 1) and is W−B +3 ((3 − 2)² = 1).
    assert_eq!(top.tiers.serious_colour, 2);
    let n = notes(&p);
    assert!(
        n.iter().any(|m| m.starts_with(
            "player 2 gets White (IMB: 3 times in a row, W−B +3): every pairing without it is worse on the score tier"
        )),
        "{n:?}"
    );
}

/// Eight players after five drawn rounds: 1 and 2 have Black then White four times
/// (b w w w w, W−B +3) and have not met; 8 (b b b b b) and 7 (w b b b b) are due White, and
/// 3-6, 4-5 have not met.
fn fifth_white_state() -> SwissState {
    played(
        &[
            (1, 2000),
            (2, 2100),
            (3, 1900),
            (4, 1800),
            (5, 1700),
            (6, 1600),
            (7, 1500),
            (8, 1400),
        ],
        &[
            &[(3, 1, '='), (4, 2, '='), (5, 6, '='), (7, 8, '=')],
            &[(1, 5, '='), (2, 6, '='), (3, 7, '='), (4, 8, '=')],
            &[(1, 7, '='), (2, 8, '='), (3, 5, '='), (4, 6, '=')],
            &[(1, 4, '='), (2, 3, '='), (5, 8, '='), (6, 7, '=')],
            &[(1, 6, '='), (2, 5, '='), (3, 8, '='), (4, 7, '=')],
        ],
    )
}

#[test]
fn b_w_w_w_w_never_gets_a_fifth_white_when_a_pairing_avoids_it() {
    for fide in [false, true] {
        let mut s = fifth_white_state();
        s.settings.fide_style = fide;
        let p = pair_next_round(&s, &BlossomSolver).unwrap();
        // 1-2 would be the natural top board (equal scores), but one of them would get a
        // fifth White: 1-8 and 2-7 give both leaders Black.
        assert_eq!(colour_of(&p, 1), Colour::Black, "fide {fide}: {p:?}");
        assert_eq!(colour_of(&p, 2), Colour::Black, "fide {fide}: {p:?}");
        for b in boards(&p) {
            assert!(!b.rematch, "{b:?}");
            for c in [b.colour_white, b.colour_black] {
                assert!(
                    !matches!(c, ColourCode::ThreeInRow | ColourCode::Imb),
                    "{b:?}"
                );
            }
            // US style: 4-5 is a change of 300 points, beyond the high limit (its charge is
            // in the serious tier); every other rematch-free pairing costs more.
            if fide {
                assert_eq!(b.tiers.serious_colour, 0, "{b:?}");
            }
        }
    }
}

#[test]
fn a_forced_fifth_white_is_explained() {
    let mut s = fifth_white_state();
    // Only 1 and 2 are left to pair: one of them must get a fifth White. Rule 3: the
    // higher-ranked 2 gets his due Black, 1 White.
    s.absent = vec![3, 4, 5, 6, 7, 8];
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    assert_eq!(colour_of(&p, 1), Colour::White);
    let b = boards(&p)[0];
    assert_eq!(b.colour_white, ColourCode::Imb);
    // Five Whites in a row ((5 − 2)² = 9), W−B +4 ((4 − 2)² = 4).
    assert_eq!(b.tiers.serious_colour, 13);
    let n = notes(&p);
    assert!(
        n.contains(
            &"player 1 gets White (IMB: 5 times in a row, W−B +4): no pairing exists without it"
        ),
        "{n:?}"
    );
}

#[test]
fn the_serious_cost_grows_with_the_problem() {
    let view = |colours: &str| crate::engine::chess::swiss::state::PlayerView {
        sn: 1,
        position: 0,
        rating: 1500,
        unrated: false,
        team: None,
        score: 0,
        colours: colours
            .chars()
            .map(|c| {
                if c == 'w' {
                    Colour::White
                } else {
                    Colour::Black
                }
            })
            .collect(),
        met: vec![],
        had_full_bye: false,
    };
    let serious = |h: &str| ColourEffect::of(&view(h), Colour::White).serious();
    let eq = |h: &str| ColourEffect::of(&view(h), Colour::White).equalisation();
    let code = |h: &str| ColourEffect::of(&view(h), Colour::White).code();
    assert_eq!(code("b"), ColourCode::Ok);
    assert_eq!(code("bw"), ColourCode::Al);
    assert_eq!(code("bww"), ColourCode::ThreeInRow);
    assert_eq!(code("wbw"), ColourCode::Eq);
    assert_eq!(code("ww"), ColourCode::Imb);
    // A third, fourth, fifth White in a row: 1, 4, 9 (plus the imbalance beyond 2).
    assert_eq!(serious("bbww"), 1);
    assert_eq!(serious("bbwww"), 4);
    assert_eq!(serious("bwwww"), 9 + 4);
    assert!(serious("ww") < serious("bwww") && serious("bwww") < serious("bwwww"));
    // Equalisation: W−B +2 costs 1 unit, +3 four, +4 nine: the most unequal first.
    assert_eq!((eq("w"), eq("ww"), eq("www")), (1, 4, 9));
    assert_eq!(eq("wb"), 0);
    // A player out of balance given the colour that corrects it has no problem.
    let black = |h: &str| ColourEffect::of(&view(h), Colour::Black);
    assert_eq!(black("wwwww").code(), ColourCode::Ok);
    assert_eq!(
        (black("wwwww").serious(), black("wwwww").equalisation()),
        (0, 0)
    );
}

/// A player known by his colours (`w`/`b`, oldest first), start number and score (half-points).
fn player(colours: &str, sn: u32, score: i64) -> PlayerView {
    super::tests::view_of(colours, score, sn)
}

/// FIDE style allocates the colours of a board as the Dutch engine does (C.04.3 E.1-E.5),
/// on the cases those rules list: the colour of the higher-ranked player and the rule shown.
#[test]
fn fide_style_allocates_colours_by_the_dutch_rules_e1_to_e5() {
    use super::colour::{assign, assign_fide, fide_view, ColourContext};
    use Colour::{Black, White};
    let fide = |hi: &PlayerView, lo: &PlayerView, initial: Colour| {
        assign_fide(&fide_view(hi), &fide_view(lo), initial)
    };
    let e = |hi: (&str, u32, i64), lo: (&str, u32, i64)| {
        fide(&player(hi.0, hi.1, hi.2), &player(lo.0, lo.1, lo.2), White)
    };
    // E.1: both preferences granted (due White against due Black), or the only one.
    assert_eq!(
        e(("b", 1, 2), ("w", 2, 2)),
        (White, ColourReason::Equalisation)
    );
    assert_eq!(
        e(("", 1, 2), ("w", 2, 2)),
        (White, ColourReason::Equalisation)
    );
    // E.2: the stronger preference, whichever player has it: absolute (black twice in a row
    // wanted after b w w) over strong (W−B +1).
    assert_eq!(
        e(("bww", 1, 4), ("w", 2, 4)),
        (Black, ColourReason::Equalisation)
    );
    assert_eq!(
        e(("w", 1, 4), ("bww", 2, 4)),
        (White, ColourReason::Equalisation)
    );
    // E.2, two absolute preferences: the wider colour difference (+3 over +2).
    assert_eq!(
        e(("ww", 1, 4), ("wwbww", 2, 4)),
        (White, ColourReason::Equalisation)
    );
    // E.3: equally strong (both W−B +1, due Black): alternate from the most recent round in
    // which they had different colours (the last: w against b, so now b against w).
    assert_eq!(
        e(("wbw", 1, 4), ("wwb", 2, 4)),
        (Black, ColourReason::Alternation)
    );
    assert_eq!(
        e(("wwb", 1, 4), ("wbw", 2, 4)),
        (White, ColourReason::Alternation)
    );
    // E.4: identical histories, the higher-ranked player's preference, in every score group
    // (WinTD's rule 3a gives it to the lower-ranked player in a minus group: score 0 after
    // two rounds).
    let (hi, lo) = (player("bw", 1, 0), player("bw", 2, 0));
    assert_eq!(fide(&hi, &lo, White), (Black, ColourReason::Identical));
    let us = ColourContext {
        rule: ColourRule::Rule3a,
        last_round: false,
        even_threshold: 2,
        first_colour: White,
        seed: 1,
        round: 3,
    };
    assert_eq!(assign(&hi, &lo, &us), (White, ColourReason::Identical));
    // E.5: no preference at all: the higher-ranked player gets the initial colour when his
    // pairing number is odd, the other colour when it is even.
    assert_eq!(e(("", 3, 0), ("", 8, 0)), (White, ColourReason::Identical));
    assert_eq!(e(("", 4, 0), ("", 9, 0)), (Black, ColourReason::Identical));
    assert_eq!(
        fide(&player("", 3, 0), &player("", 8, 0), Black),
        (Black, ColourReason::Identical)
    );
}

/// Round 1 with the first player absent: FIDE style numbers the players as the Dutch engine
/// (and bbpPairings) do, only those paired now or before (E.5), so 2 holds pairing number 1
/// (White, the initial colour) and 3 number 2 (Black): the Dutch engine's colours. (Counting
/// the absent 1 gave 2 Black and 3 White, and over 100 simulated 250-player events left
/// more players due the same colour in a score group than the Dutch engine's numbering.)
#[test]
fn round_one_colours_follow_the_dutch_pairing_numbers_in_fide_style() {
    let mut s = played(
        &[(1, 2400), (2, 2300), (3, 2200), (4, 2100), (5, 2000)],
        &[],
    );
    s.settings.first_colour = Some(Colour::White);
    s.requested_byes = vec![RequestedBye {
        player: 1,
        points: 0.0,
    }];
    s.settings.fide_style = true;
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    assert_eq!(
        (colour_of(&p, 2), colour_of(&p, 3)),
        (Colour::White, Colour::Black),
        "{p:?}"
    );
    let dutch = crate::engine::chess::swiss::dutch::pair_dutch(&s, &BlossomSolver).unwrap();
    for sn in 2..=5 {
        assert_eq!(colour_of(&p, sn), colour_of(&dutch, sn), "{p:?} {dutch:?}");
    }
    s.settings.fide_style = false;
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    assert_eq!(
        (colour_of(&p, 2), colour_of(&p, 3)),
        (Colour::White, Colour::Black),
        "{p:?}"
    );
}

/// Eight players of one score group, ratings 2000, 1700, 1690, 1680 | 1670, 1660, 1400, 1100,
/// and the model of round 2 (FIDE or US style): the natural pairing is S1[i]-S2[i] (1-5, 2-6,
/// 3-7, 4-8).
fn group_of_eight(fide_style: bool) -> super::penalty::Model {
    let ratings = [2000, 1700, 1690, 1680, 1670, 1660, 1400, 1100];
    let views = (1..=8)
        .map(|sn| PlayerView {
            rating: ratings[sn as usize - 1],
            ..player("w", sn, 2)
        })
        .collect();
    let settings = SwissSettings {
        fide_style,
        ..Default::default()
    };
    super::penalty::build_model(views, &settings, 2, Colour::White)
}

/// FIDE style measures a board's distance from the natural pairing as the Dutch system orders
/// the candidates (C.04.3 D): in ranks, not rating points; a transposition costs more the
/// further it moves S2, and any exchange between S1 and S2 costs more than any transposition.
/// (US style measures rating points, so there a near-rated exchange is the cheaper.)
#[test]
fn fide_style_prefers_transpositions_near_the_natural_pairing_to_exchanges() {
    use super::penalty::RATING;
    let m = group_of_eight(true);
    // Vertices are ranks 0..8: S1 = 0..4, S2 = 4..8.
    assert_eq!(m.natural[..4], [4, 5, 6, 7]);
    let cost = |u: usize, v: usize| m.board(u, v).tiers[RATING];
    // The natural pairing costs nothing; its boards are the cheapest of each head.
    for u in 0..4 {
        assert_eq!(cost(u, u + 4), 0);
    }
    // A transposition costs more the further from S1[i]'s natural opponent.
    assert!(
        cost(0, 5) < cost(0, 6) && cost(0, 6) < cost(0, 7),
        "convex in the distance"
    );
    // 2·d² > d² + d²: one far transposition costs more than two near ones.
    assert!(cost(0, 6) > 2 * cost(0, 5));
    // Any exchange (two of S1, or two of S2) costs more than the furthest transposition.
    let worst_transposition = (0..4)
        .flat_map(|u| (4..8).map(move |v| (u, v)))
        .map(|(u, v)| cost(u, v))
        .max()
        .unwrap();
    for (u, v) in [(1, 2), (2, 3), (0, 1), (4, 5), (5, 6)] {
        assert!(cost(u, v) > worst_transposition, "{u}-{v}");
    }
    // US style counts rating points: the exchange 1700-1690 (30 points from 1690 to
    // 1700's natural opponent 1660) is cheaper there than the transposition 2000-1100 (320
    // points from 2000 to 1100's natural opponent 1680); FIDE style orders them the other way.
    let us = group_of_eight(false);
    assert!(us.board(1, 2).tiers[RATING] < us.board(0, 7).tiers[RATING]);
    assert!(cost(1, 2) > cost(0, 7));
}
