//! FIDE ratings as the Rating Regulations (Handbook B.02, standard chess) compute them: the
//! expected score of a game, the performance rating, and the rating change a player takes
//! home from an event. Pure arithmetic on whole rating points and hundredths.
//!
//! ## The expected score (B.02 table 8.1.2)
//! The rating difference `D` (opponent minus player) gives the player's expected score `PD`
//! from FIDE's table, not from the logistic formula: 0–3 points 0.50, 4–10 0.51, 11–17 0.52,
//! … 620–735 0.99, more than 735 1.00; a negative difference the complement (−4 to −10:
//! 0.49). [`expected_hundredths`] reads the table ([`PD_UPPER`]).
//!
//! ## The rating change (B.02 8.3)
//! For every game played over the board between two rated players: `ΔR = K × (W − We)`,
//! `W` the points scored (1, ½, 0), `We` the expected score. A forfeit, a bye or a game
//! against an unrated player changes nothing. The event's change is the sum over its games.
//! * **The 400-point rule.** A difference of more than 400 points counts as 400. From
//!   1 October 2025 (B.02 as amended by the FIDE Council) only for players rated below 2650:
//!   for a player rated 2650 or more the real difference counts. The event's start date
//!   chooses the text ([`RatingRules`]); an event without a date is rated by the text in force.
//! * **K** (8.3.3): 40 for a player new to the list (fewer than 30 rated games) and for a
//!   junior until the end of the year of the 18th birthday while rated below 2300; 20 while
//!   rated below 2400; 10 once a published rating has reached 2400. What a score sheet holds
//!   decides: a K given with the player ([`KFactor::Given`]) is used as given; otherwise 10 from
//!   2400, 40 for a junior by birth year below 2300, else 20. The newcomer's 40 and the 10 kept
//!   by a former 2400 need the player's history: give K with the player then.
//! * **K × n ≤ 700**: when the rated games `n` times K exceed 700, K is the largest whole
//!   number with K × n ≤ 700 (n counted within this event).
//!
//! Worked example (B.02's own numbers): a player rated 2800 beats one rated 2250. The
//! difference −550 counts as −400 under the rule before October 2025: `We` 0.92, K 10, +0.8.
//! From October 2025 a 2800 counts the real 550: `We` 0.97, +0.3 (the case FIDE's press
//! release of 30 September 2025 gives).
//!
//! ## The performance rating (B.02 8.1.1, C.07 art. 10.2)
//! `Rp = Ra + dp`: `Ra` the average rating of the opponents rounded half up, `dp` FIDE's
//! table of the percentage score rounded to a whole percent, half up ([`DP`]). The perfect
//! performance (C.07 art. 10.3) is the lowest whole rating whose expected score (the table,
//! without the 400-point rule) against the opponents reaches the score; a zero score gives
//! the lowest opponent's rating less 800, a full score no more than the highest plus 800.

use chrono::{Datelike, NaiveDate};

/// For `pd` = 0.50 + k/100 (k = 0..49), the largest rating difference with that expected
/// score (B.02 table 8.1.2); above 735 the expected score is 1.00.
pub const PD_UPPER: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// `dp` for a percentage score 0..=100 (B.02 table 8.1.1).
pub const DP: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The expected score, in hundredths, of a player rated `own` against one rated `opponent`;
/// `cap` limits the difference (the 400-point rule), `None` reads the table as it is.
pub fn expected_hundredths(own: i32, opponent: i32, cap: Option<u32>) -> u32 {
    let mut diff = (own - opponent).unsigned_abs();
    if let Some(cap) = cap {
        diff = diff.min(cap);
    }
    let above_half = PD_UPPER.iter().position(|&u| diff <= u).unwrap_or(50) as u32;
    if own >= opponent {
        50 + above_half
    } else {
        50 - above_half
    }
}

/// Half-up rounding of `num / den` (`den` > 0), away from zero for negative values.
pub fn round_half_up(num: i64, den: i64) -> i64 {
    let sign = if num < 0 { -1 } else { 1 };
    sign * ((2 * num.abs() + den) / (2 * den))
}

/// The average rating, rounded half up; `None` without ratings.
pub fn average_rating(ratings: &[i32]) -> Option<i32> {
    if ratings.is_empty() {
        return None;
    }
    let sum: i64 = ratings.iter().map(|&r| r as i64).sum();
    Some(round_half_up(sum, ratings.len() as i64) as i32)
}

/// The performance rating `Ra + dp` of `score_half` half-points against `ratings`.
pub fn performance_rating(score_half: u32, ratings: &[i32]) -> Option<i32> {
    let ra = average_rating(ratings)?;
    let n = ratings.len() as i64;
    let percent = round_half_up(score_half as i64 * 50, n).clamp(0, 100) as usize;
    Some(ra + DP[percent])
}

/// The sum of the expected scores, in hundredths, of a player rated `own` (no 400-point rule).
fn expected_sum(own: i32, ratings: &[i32]) -> u64 {
    ratings
        .iter()
        .map(|&r| expected_hundredths(own, r, None) as u64)
        .sum()
}

/// The perfect performance (C.07 art. 10.3) of `score_half` half-points against `ratings`.
pub fn perfect_performance(score_half: u32, ratings: &[i32]) -> Option<i32> {
    let lowest = *ratings.iter().min()?;
    let highest = *ratings.iter().max()?;
    if score_half == 0 {
        return Some(lowest - 800);
    }
    let target = score_half as u64 * 50;
    if target > 100 * ratings.len() as u64 {
        return Some(highest + 800);
    }
    // expected_sum grows with the rating; find the lowest rating that reaches the score
    let (mut low, mut high) = (lowest - 801, highest + 800);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if expected_sum(mid, ratings) >= target {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

/// Which text of B.02 rates the event: the 400-point rule for everyone, or (from 1 October
/// 2025) only for players rated below 2650.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingRules {
    /// B.02 as in force from 1 March 2024: the 400-point rule for every player.
    Cap400,
    /// As amended from 1 October 2025: no 400-point rule for a player rated 2650 or more.
    Cap400Below2650,
}

impl RatingRules {
    /// The text in force on the event's start date (the newest one without a date).
    pub fn for_start(start: Option<NaiveDate>) -> RatingRules {
        match start {
            Some(d) if d < NaiveDate::from_ymd_opt(2025, 10, 1).expect("a date") => {
                RatingRules::Cap400
            }
            _ => RatingRules::Cap400Below2650,
        }
    }

    /// The cap on the rating difference for a player rated `own`.
    pub fn cap(self, own: i32) -> Option<u32> {
        match self {
            RatingRules::Cap400Below2650 if own >= 2650 => None,
            _ => Some(400),
        }
    }
}

/// A player's K factor: given with the player, or found from the rating and birth year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KFactor {
    Given(u32),
    /// From the rating (10 from 2400, else 20) and, when known, the birth year (40 for a
    /// junior rated below 2300 until the end of the year the player turns 18).
    Derived {
        birth_year: Option<i32>,
    },
}

impl KFactor {
    /// The K factor of a player rated `rating` in an event of `year`.
    pub fn value(self, rating: i32, year: Option<i32>) -> u32 {
        match self {
            KFactor::Given(k) => k,
            KFactor::Derived { .. } if rating >= 2400 => 10,
            KFactor::Derived {
                birth_year: Some(born),
            } if rating < 2300 && year.is_some_and(|y| y - born <= 18) => 40,
            KFactor::Derived { .. } => 20,
        }
    }
}

/// One rated game as the rating change counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    pub opponent_rating: i32,
    /// Points scored, in half-points.
    pub half_points: u32,
}

/// The change of one game, in hundredths of a rating point: `K × (W − We)`.
pub fn game_change(own: i32, game: RatedGame, k: u32, rules: RatingRules) -> i64 {
    let we = expected_hundredths(own, game.opponent_rating, rules.cap(own)) as i64;
    k as i64 * (game.half_points as i64 * 50 - we)
}

/// K after the K × n ≤ 700 rule for `n` rated games.
pub fn k_for_games(k: u32, n: usize) -> u32 {
    if n == 0 || k as usize * n <= 700 {
        k
    } else {
        (700 / n) as u32
    }
}

/// A player's rating change over the event's games, in hundredths: per game and in total,
/// with the K used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingChange {
    pub k: u32,
    pub per_game: Vec<i64>,
    pub total: i64,
}

/// The change of a player rated `own` over `games` (rated games only, in order).
pub fn rating_change(
    own: i32,
    games: &[RatedGame],
    k: KFactor,
    year: Option<i32>,
    rules: RatingRules,
) -> RatingChange {
    let k = k_for_games(k.value(own, year), games.len());
    let per_game: Vec<i64> = games
        .iter()
        .map(|&g| game_change(own, g, k, rules))
        .collect();
    RatingChange {
        k,
        total: per_game.iter().sum(),
        per_game,
    }
}

/// Each player's rated games in round order (B.02 8.2: played over the board, both players
/// rated): `(round, game)`. `ratings[p]` missing or not positive: unrated.
pub fn rated_games(
    n: usize,
    games: &[crate::engine::chess::games::ScoredGame],
    ratings: &[Option<i32>],
) -> Vec<Vec<(u32, RatedGame)>> {
    let rating = |p: usize| ratings.get(p).copied().flatten().filter(|&r| r > 0);
    let mut out = vec![Vec::new(); n];
    for g in games {
        let Some(r) = g.result.filter(|r| r.played()) else {
            continue;
        };
        let (Some(w), Some(b)) = (rating(g.white), rating(g.black)) else {
            continue;
        };
        let (wh, bh) = r.half_points();
        out[g.white].push((
            g.round,
            RatedGame {
                opponent_rating: b,
                half_points: wh,
            },
        ));
        out[g.black].push((
            g.round,
            RatedGame {
                opponent_rating: w,
                half_points: bh,
            },
        ));
    }
    for list in &mut out {
        list.sort_by_key(|(round, _)| *round);
    }
    out
}

/// The year of a date written `YYYY/MM/DD`, `YYYY-MM-DD`, `YYYY` (as a TRF writes a birth
/// date); `None` for anything else.
pub fn year_of(text: &str) -> Option<i32> {
    let year: String = text.trim().chars().take(4).collect();
    (year.len() == 4 && year.chars().all(|c| c.is_ascii_digit()))
        .then(|| year.parse().ok())
        .flatten()
        .filter(|&y: &i32| y > 1800)
}

/// The year of an event's start date.
pub fn event_year(start: Option<NaiveDate>) -> Option<i32> {
    start.map(|d| d.year())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_against_the_formula_at_its_edges() {
        // B.02 8.1.2 as printed: 0-3 .50, 4-10 .51, 11-17 .52, ..., 620-735 .99, >735 1.00
        for (d, pd) in [
            (0, 50),
            (3, 50),
            (4, 51),
            (10, 51),
            (11, 52),
            (400, 92),
            (411, 92),
            (412, 93),
            (735, 99),
            (736, 100),
        ] {
            assert_eq!(expected_hundredths(2000 + d, 2000, None), pd, "+{d}");
            assert_eq!(expected_hundredths(2000, 2000 + d, None), 100 - pd, "-{d}");
        }
        assert_eq!(expected_hundredths(2800, 2250, Some(400)), 92);
    }

    #[test]
    fn the_400_point_rule_by_date_and_rating() {
        let win = RatedGame {
            opponent_rating: 2250,
            half_points: 2,
        };
        let before = RatingRules::for_start(NaiveDate::from_ymd_opt(2025, 9, 5));
        let after = RatingRules::for_start(NaiveDate::from_ymd_opt(2025, 10, 1));
        // FIDE, 30 Sep 2025: a 2800 gained 0.8 a win against a 2250 (the gap counted as 400);
        // now the real gap: expected 0.97, +0.3
        assert_eq!(game_change(2800, win, 10, before), 80);
        assert_eq!(game_change(2800, win, 10, after), 30);
        // below 2650 the rule stays: a 2600 beating a 2150
        let win = RatedGame {
            opponent_rating: 2150,
            half_points: 2,
        };
        assert_eq!(game_change(2600, win, 10, after), 80);
        assert_eq!(RatingRules::for_start(None), RatingRules::Cap400Below2650);
    }

    #[test]
    fn k_factors_and_the_700_rule() {
        let derived = KFactor::Derived {
            birth_year: Some(2010),
        };
        assert_eq!(derived.value(2100, Some(2026)), 40);
        assert_eq!(derived.value(2100, Some(2029)), 20);
        assert_eq!(derived.value(2350, Some(2026)), 20);
        assert_eq!(derived.value(2400, Some(2026)), 10);
        assert_eq!(KFactor::Given(40).value(2500, None), 40);
        // 40 x 18 games > 700: K = 38
        assert_eq!(k_for_games(40, 18), 38);
        assert_eq!(k_for_games(20, 35), 20);
    }

    #[test]
    fn performance_and_perfect_performance() {
        // 2 of 3 against 2000, 2100, 2200: Ra 2100, 67% -> dp 125
        assert_eq!(performance_rating(4, &[2000, 2100, 2200]), Some(2100 + 125));
        assert_eq!(performance_rating(0, &[]), None);
        // 50% against equal opposition: the perfect performance is their rating (less 3:
        // a difference of 3 still expects 0.50)
        assert_eq!(perfect_performance(2, &[2000, 2000]), Some(1997));
        assert_eq!(perfect_performance(0, &[1900, 2000]), Some(1100));
        // a full score: the lowest rating expecting 1.00 against each (736 above the highest)
        assert_eq!(perfect_performance(4, &[1900, 2000]), Some(2736));
        assert_eq!(average_rating(&[1601, 1700]), Some(1651));
        assert_eq!(round_half_up(-5, 2), -3);
    }
}
