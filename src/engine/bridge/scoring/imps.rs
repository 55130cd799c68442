//! IMPs (the WBF table), and Butler and cross-IMP scoring of a board. The rules are stated in
//! the module doc of [`super`].

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The smallest difference that earns 1, 2, … 24 IMPs (WBF table: 0–10 = 0, 20–40 = 1, …,
/// 3500–3990 = 23, 4000 and more = 24).
const IMP_STEPS: [i32; 24] = [
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750,
    2000, 2250, 2500, 3000, 3500, 4000,
];

/// The IMPs for a difference in points, with its sign.
pub fn imps(difference: i32) -> i32 {
    let size = difference.unsigned_abs();
    let imps = IMP_STEPS
        .iter()
        .take_while(|&&step| size >= step as u32)
        .count() as i32;
    if difference < 0 {
        -imps
    } else {
        imps
    }
}

/// A board scored by Butler: the datum and each NS score's IMPs against it (EW get the
/// negation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Butler {
    pub datum: i32,
    pub ns_imps: Vec<f64>,
}

/// Rounds to the nearest multiple of 10, halves away from zero (so the datum of the EW
/// scores is the negation of the NS datum).
fn round_to_ten(x: f64) -> i32 {
    ((x / 10.0).round() * 10.0) as i32
}

/// The Butler datum: the mean of the NS scores, after dropping one highest and one lowest
/// when there are at least 5, rounded to the nearest 10. 0 for no scores.
pub fn butler_datum(ns_scores: &[i32]) -> i32 {
    if ns_scores.is_empty() {
        return 0;
    }
    let mut sorted = ns_scores.to_vec();
    sorted.sort_unstable();
    let kept = if sorted.len() >= 5 {
        &sorted[1..sorted.len() - 1]
    } else {
        &sorted[..]
    };
    let sum: i64 = kept.iter().map(|&s| i64::from(s)).sum();
    round_to_ten(sum as f64 / kept.len() as f64)
}

/// Butler scoring of one board: each NS score IMPed against the datum.
pub fn butler(ns_scores: &[i32]) -> Butler {
    let datum = butler_datum(ns_scores);
    let ns_imps = ns_scores
        .iter()
        .map(|&s| f64::from(imps(s.saturating_sub(datum))))
        .collect();
    Butler { datum, ns_imps }
}

/// Cross-IMPs of one board: each NS score IMPed against every other score, averaged over the
/// others (0 for a board played once).
pub fn cross_imps(ns_scores: &[i32]) -> Vec<f64> {
    let others = ns_scores.len().saturating_sub(1);
    ns_scores
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            if others == 0 {
                return 0.0;
            }
            let total: i32 = ns_scores
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &t)| imps(s.saturating_sub(t)))
                .sum();
            f64::from(total) / others as f64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wbf_imp_table() {
        let cases = [
            (0, 0),
            (10, 0),
            (20, 1),
            (40, 1),
            (50, 2),
            (80, 2),
            (90, 3),
            (120, 3),
            (130, 4),
            (160, 4),
            (170, 5),
            (210, 5),
            (220, 6),
            (260, 6),
            (270, 7),
            (310, 7),
            (320, 8),
            (360, 8),
            (370, 9),
            (420, 9),
            (430, 10),
            (490, 10),
            (500, 11),
            (590, 11),
            (600, 12),
            (740, 12),
            (750, 13),
            (890, 13),
            (900, 14),
            (1090, 14),
            (1100, 15),
            (1290, 15),
            (1300, 16),
            (1490, 16),
            (1500, 17),
            (1740, 17),
            (1750, 18),
            (1990, 18),
            (2000, 19),
            (2240, 19),
            (2250, 20),
            (2490, 20),
            (2500, 21),
            (2990, 21),
            (3000, 22),
            (3490, 22),
            (3500, 23),
            (3990, 23),
            (4000, 24),
            (7600, 24),
        ];
        for (difference, expected) in cases {
            assert_eq!(imps(difference), expected, "{difference}");
            assert_eq!(imps(-difference), -expected, "-{difference}");
        }
        assert_eq!(imps(i32::MIN), -24);
        assert_eq!(imps(15), 0);
        assert_eq!(imps(45), 1);
    }

    #[test]
    fn butler_drops_top_and_bottom_from_five_scores() {
        // 620, 650, 170, 620, -100: drop 650 and -100, mean of 620, 170, 620 = 470
        let b = butler(&[620, 650, 170, 620, -100]);
        assert_eq!(b.datum, 470);
        // 150 → 4, 180 → 5, -300 → -7, 150 → 4, -570 → -11
        assert_eq!(b.ns_imps, vec![4.0, 5.0, -7.0, 4.0, -11.0]);
        // four scores: nothing dropped, mean 415 rounds to 420 (halves away from zero)
        assert_eq!(butler_datum(&[420, 450, 400, 390]), 420);
        assert_eq!(butler_datum(&[-420, -450, -400, -390]), -420);
        // 113.3 rounds to 110
        assert_eq!(butler_datum(&[100, 110, 130]), 110);
        assert_eq!(
            butler(&[]),
            Butler {
                datum: 0,
                ns_imps: vec![]
            }
        );
    }

    #[test]
    fn cross_imps_average_over_the_other_scores() {
        // 420 vs 450 (-30: -1), vs -50 (470: 10) → 9/2; 450: 1 + 11 → 6; -50: -10 - 11 → -21/2
        let x = cross_imps(&[420, 450, -50]);
        assert_eq!(x, vec![4.5, 6.0, -10.5]);
        assert_eq!(x.iter().sum::<f64>(), 0.0);
        assert_eq!(cross_imps(&[420]), vec![0.0]);
        assert!(cross_imps(&[]).is_empty());
    }
}
