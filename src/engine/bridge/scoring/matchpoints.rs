//! Matchpoints of the results of one board (EBU 2/1 and ACBL 1/½ scales, Neuberg factoring,
//! artificial adjusted scores, split scores). The rules are stated in the module doc of
//! [`super`].

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ScoreError;

/// The matchpoint scale: EBU 2 per score beaten and 1 per tie (top 2(n − 1)), ACBL 1 and ½
/// (top n − 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    #[default]
    Ebu,
    Acbl,
}

/// An artificial adjusted score for one side: average-plus 60 %, average 50 %,
/// average-minus 40 % of the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Adjusted {
    AveragePlus,
    Average,
    AverageMinus,
}

impl Adjusted {
    /// The percentage of the top this side gets.
    pub fn percent(self) -> u32 {
        match self {
            Adjusted::AveragePlus => 60,
            Adjusted::Average => 50,
            Adjusted::AverageMinus => 40,
        }
    }

    /// `A+`, `A`, `A-`.
    pub fn symbol(self) -> &'static str {
        match self {
            Adjusted::AveragePlus => "A+",
            Adjusted::Average => "A",
            Adjusted::AverageMinus => "A-",
        }
    }
}

/// One result on a board, as the scorer sees it. Every score is from NS's point of view
/// (positive when NS score). `Split`: the NS pair is scored with `ns`, the EW pair with `ew`
/// (both NS-signed: `Split { ns: -620, ew: -420 }` gives EW +420 for their matchpoints).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoardScore {
    Score(i32),
    Adjusted { ns: Adjusted, ew: Adjusted },
    Split { ns: i32, ew: i32 },
}

/// The matchpoints of each result of a board, in the order given. `ns[i] + ew[i] = top` except
/// for adjusted scores (A+/A+ gives both 60 %) and split scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Matchpoints {
    pub top: f64,
    pub ns: Vec<f64>,
    pub ew: Vec<f64>,
    pub ns_percent: Vec<f64>,
    pub ew_percent: Vec<f64>,
}

/// Matchpoints of `score` against `field` (which contains it once) on the EBU scale:
/// 2 per other score beaten, 1 per other score tied.
fn beaten_twice(score: i32, field: &[i32]) -> f64 {
    let twice: i64 = field
        .iter()
        .map(|&other| match score.cmp(&other) {
            Ordering::Greater => 2,
            Ordering::Equal => 1,
            Ordering::Less => 0,
        })
        .sum::<i64>()
        - 1; // the score itself counted as a tie
    twice as f64
}

/// MPs of each result on one board. `expected` is the number of scores the most played board
/// of the section has; the board is scored out of a top for max(expected, scores.len())
/// results. Adjusted scores get their percentage of that top; the real scores (plain and
/// split) are matchpointed among themselves and factored to the full top by Neuberg:
/// MP' = (MP + 1) × E / A − 1 on the 2/1 scale (E the results expected, A the real ones).
pub fn matchpoints(scores: &[BoardScore], expected: usize, scale: Scale) -> Matchpoints {
    let expected = expected.max(scores.len());
    let unit = match scale {
        Scale::Ebu => 1.0,
        Scale::Acbl => 0.5,
    };
    // On the 2/1 scale; halved at the end for ACBL.
    let top2 = 2.0 * expected.saturating_sub(1) as f64;
    let mut ns_field = Vec::with_capacity(scores.len());
    let mut ew_field = Vec::with_capacity(scores.len());
    for s in scores {
        match *s {
            BoardScore::Score(x) => {
                ns_field.push(x);
                ew_field.push(x);
            }
            BoardScore::Split { ns, ew } => {
                ns_field.push(ns);
                ew_field.push(ew);
            }
            BoardScore::Adjusted { .. } => {}
        }
    }
    let actual = ns_field.len() as f64;
    // (MP + 1)·E/A − 1, as ((MP + 1)·E − A)/A: exact whenever the result is a whole number
    let neuberg = |mp: f64| ((mp + 1.0) * expected as f64 - actual) / actual;
    let top = top2 * unit;
    let percent = |mp: f64| if top > 0.0 { 100.0 * mp / top } else { 50.0 };
    // one side's (MP, percent): a real score's MP on the 2/1 scale, or an adjusted share
    let real = |mp2: f64| (mp2 * unit, percent(mp2 * unit));
    let adjusted = |a: Adjusted| (top * f64::from(a.percent()) / 100.0, f64::from(a.percent()));
    let mut m = Matchpoints {
        top,
        ns: Vec::with_capacity(scores.len()),
        ew: Vec::with_capacity(scores.len()),
        ns_percent: Vec::with_capacity(scores.len()),
        ew_percent: Vec::with_capacity(scores.len()),
    };
    for s in scores {
        let (for_ns, for_ew) = match *s {
            BoardScore::Score(x) => (x, x),
            BoardScore::Split { ns, ew } => (ns, ew),
            BoardScore::Adjusted { ns, ew } => {
                let ((n, np), (e, ep)) = (adjusted(ns), adjusted(ew));
                m.ns.push(n);
                m.ns_percent.push(np);
                m.ew.push(e);
                m.ew_percent.push(ep);
                continue;
            }
        };
        let (n, np) = real(neuberg(beaten_twice(for_ns, &ns_field)));
        let (e, ep) = real(top2 - neuberg(beaten_twice(for_ew, &ew_field)));
        m.ns.push(n);
        m.ns_percent.push(np);
        m.ew.push(e);
        m.ew_percent.push(ep);
    }
    m
}

fn one_adjusted(s: &str) -> Option<Adjusted> {
    let s = s.trim().trim_end_matches('%').trim();
    Some(match s {
        "A+" | "AVE+" | "AVG+" | "60" => Adjusted::AveragePlus,
        "A" | "A=" | "AVE" | "AVG" | "AVE=" | "AVG=" | "50" => Adjusted::Average,
        "A-" | "AVE-" | "AVG-" | "40" => Adjusted::AverageMinus,
        _ => return None,
    })
}

/// An adjusted score as the director writes it: `NS/EW` with each side `A+`, `A` (or `A=`),
/// `A-`, or the percentage `60`, `50`, `40` (`%` allowed; `AVE`/`AVG` for `A`); any case.
/// One value alone applies to both sides (`A` = A/A, `A+` = A+/A+, both sides not at fault).
/// Returns (NS, EW); Err with field `adjusted` otherwise.
pub fn parse_adjusted(s: &str) -> Result<(Adjusted, Adjusted), ScoreError> {
    let upper = s.to_ascii_uppercase();
    let parsed = match upper.split_once('/') {
        Some((ns, ew)) => one_adjusted(ns).zip(one_adjusted(ew)),
        None => one_adjusted(&upper).map(|a| (a, a)),
    };
    parsed.ok_or_else(|| {
        ScoreError::new(
            "adjusted",
            format!("'{s}' is not an adjusted score: write NS/EW as A+, A or A- (or 60, 50, 40), e.g. A+/A-"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Adjusted::*;
    use BoardScore::{Score, Split};

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    fn scores(xs: &[i32]) -> Vec<BoardScore> {
        xs.iter().map(|&x| Score(x)).collect()
    }

    #[test]
    fn ebu_scale_two_per_score_beaten_one_per_tie() {
        let m = matchpoints(&scores(&[420, 450, -50, 420]), 4, Scale::Ebu);
        assert_eq!(m.top, 6.0);
        // 420: beats -50 (2) + ties the other 420 (1) = 3; 450 beats all = 6; -50 = 0
        assert!(close(&m.ns, &[3.0, 6.0, 0.0, 3.0]), "{:?}", m.ns);
        assert!(close(&m.ew, &[3.0, 0.0, 6.0, 3.0]));
        assert!(close(&m.ns_percent, &[50.0, 100.0, 0.0, 50.0]));
        assert!(close(&m.ew_percent, &[50.0, 0.0, 100.0, 50.0]));
    }

    #[test]
    fn acbl_scale_is_half_the_ebu_scale() {
        let m = matchpoints(&scores(&[420, 450, -50, 420]), 4, Scale::Acbl);
        assert_eq!(m.top, 3.0);
        assert!(close(&m.ns, &[1.5, 3.0, 0.0, 1.5]));
        assert!(close(&m.ns_percent, &[50.0, 100.0, 0.0, 50.0]));
    }

    #[test]
    fn neuberg_factors_a_board_played_fewer_times() {
        // 3 scores where 4 are expected: top 6; raw 2/1 MPs 2, 4, 0
        // (2+1)·4/3 − 1 = 3, (4+1)·4/3 − 1 = 17/3, (0+1)·4/3 − 1 = 1/3
        let m = matchpoints(&scores(&[420, 450, -50]), 4, Scale::Ebu);
        assert_eq!(m.top, 6.0);
        assert!(close(&m.ns, &[3.0, 17.0 / 3.0, 1.0 / 3.0]), "{:?}", m.ns);
        assert!(close(&m.ew, &[3.0, 1.0 / 3.0, 17.0 / 3.0]));
        // ACBL: halve it, (MP + ½)·E/A − ½
        let a = matchpoints(&scores(&[420, 450, -50]), 4, Scale::Acbl);
        assert_eq!(a.top, 3.0);
        assert!(close(&a.ns, &[1.5, 17.0 / 6.0, 1.0 / 6.0]));
        // expected below the actual count changes nothing
        assert_eq!(matchpoints(&scores(&[1, 2]), 0, Scale::Ebu).top, 2.0);
    }

    #[test]
    fn adjusted_scores_take_their_share_and_the_rest_is_factored() {
        let board = [
            Score(420),
            Score(450),
            BoardScore::Adjusted {
                ns: AveragePlus,
                ew: AverageMinus,
            },
            Score(-50),
        ];
        let m = matchpoints(&board, 4, Scale::Ebu);
        assert_eq!(m.top, 6.0);
        // real scores as in the Neuberg case: 3, 17/3, 1/3; A+ = 3.6, A- = 2.4
        assert!(
            close(&m.ns, &[3.0, 17.0 / 3.0, 3.6, 1.0 / 3.0]),
            "{:?}",
            m.ns
        );
        assert!(close(&m.ew, &[3.0, 1.0 / 3.0, 2.4, 17.0 / 3.0]));
        assert!(close(&[m.ns_percent[2], m.ew_percent[2]], &[60.0, 40.0]));
        let both = matchpoints(
            &[
                BoardScore::Adjusted {
                    ns: AveragePlus,
                    ew: AveragePlus,
                },
                Score(0),
            ],
            2,
            Scale::Acbl,
        );
        assert!(close(
            &[both.ns_percent[0], both.ew_percent[0]],
            &[60.0, 60.0]
        ));
        // the lone real score is factored to an average: (0 + 1)·2/1 − 1 = 1 of 2 on the 2/1 scale
        assert!(close(&both.ns_percent[1..], &[50.0]));
    }

    #[test]
    fn split_scores_matchpoint_each_side_against_the_field() {
        // Table 3: NS scored -620, EW scored as if -420 (EW +420)
        let board = [
            Score(-420),
            Score(-420),
            Split { ns: -620, ew: -420 },
            Score(-650),
        ];
        let m = matchpoints(&board, 4, Scale::Ebu);
        // NS view: -620 among -420, -420, -620, -650 beats -650 only: 2
        assert_eq!(m.ns[2], 2.0);
        // EW view: EW +420 against the EW field +420, +420, +650: two ties, one loss → 2
        assert_eq!(m.ew[2], 2.0);
        // the others: NS -420 beats -620 and -650, ties -420: 5 (NS field),
        // EW of -420 from the EW field (-420 ×3, -650): NS 1·2 + 2 = 4 → EW 2
        assert_eq!((m.ns[0], m.ew[0]), (5.0, 2.0));
        assert_eq!((m.ns[3], m.ew[3]), (0.0, 6.0));
    }

    #[test]
    fn a_single_score_is_an_average() {
        let m = matchpoints(&scores(&[100]), 1, Scale::Ebu);
        assert_eq!(
            (m.top, m.ns[0], m.ns_percent[0], m.ew_percent[0]),
            (0.0, 0.0, 50.0, 50.0)
        );
        assert_eq!(matchpoints(&[], 0, Scale::Ebu).ns.len(), 0);
    }

    #[test]
    fn adjusted_notation() {
        assert_eq!(
            parse_adjusted("A+/A-").unwrap(),
            (AveragePlus, AverageMinus)
        );
        assert_eq!(
            parse_adjusted("a-/a+").unwrap(),
            (AverageMinus, AveragePlus)
        );
        assert_eq!(parse_adjusted("A=").unwrap(), (Average, Average));
        assert_eq!(parse_adjusted("A").unwrap(), (Average, Average));
        assert_eq!(parse_adjusted("A+").unwrap(), (AveragePlus, AveragePlus));
        assert_eq!(
            parse_adjusted("60/40").unwrap(),
            (AveragePlus, AverageMinus)
        );
        assert_eq!(parse_adjusted("50%/60%").unwrap(), (Average, AveragePlus));
        assert_eq!(
            parse_adjusted(" Ave / Ave- ").unwrap(),
            (Average, AverageMinus)
        );
        for bad in ["", "B", "A++", "70/30", "A+/A-/A", "A+/"] {
            assert_eq!(parse_adjusted(bad).unwrap_err().field, "adjusted", "{bad}");
        }
    }

    #[test]
    fn board_scores_in_json() {
        let v: Vec<BoardScore> =
            serde_json::from_str(r#"[{"score":420},{"adjusted":{"ns":"averageplus","ew":"averageminus"}},{"split":{"ns":-620,"ew":-420}}]"#)
                .unwrap();
        assert_eq!(v[0], Score(420));
        assert_eq!(
            v[1],
            BoardScore::Adjusted {
                ns: AveragePlus,
                ew: AverageMinus
            }
        );
        assert_eq!(v[2], Split { ns: -620, ew: -420 });
    }
}
