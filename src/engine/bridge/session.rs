//! Scoring a bridge pairs session: from the results at the tables to each board's traveller
//! and the standings (pure; the rules of one board live in [`super::scoring`]).
//!
//! # What is compared with what
//! Every result of a board is compared with every other result of the same board, whatever
//! the table, round or section (one field per board). A result belongs to the pair holding
//! the **NS cards** and the pair holding the **EW cards**; at an arrow-switched table the
//! movement's EW pair holds the NS cards and is scored so (the caller says who held what).
//!
//! # Methods (event setting `scoring`, default `matchpoints`)
//! - `matchpoints` (`scale`: `ebu` 2 per score beaten and 1 per tie, default; `acbl` 1 and ½):
//!   each side gets the matchpoints of its score on the board; the top is that of the most
//!   played board of the session (E scores: 2(E−1) EBU, E−1 ACBL) and a board played fewer
//!   times (A < E) is factored up by Neuberg. An artificial adjusted score gives its
//!   percentage of the top (A+ 60, A= 50, A− 40, each side separately); a split score
//!   matchpoints each side's assigned score against the real scores. A pair's **percent** is
//!   its matchpoints over the tops of the boards it played × 100 (50 while every board it
//!   played has been played only once, so has a top of 0).
//! - `butler`: each score IMPed against the board's datum (mean of the NS scores without the
//!   highest and lowest when there are at least 5, rounded to 10).
//! - `cross_imps`: each score IMPed against every other score of the board, averaged.
//!
//! Under both IMP methods an artificial adjusted score is worth +3 IMPs (A+), 0 (A=) or −3
//! (A−) to each side separately, and a split score IMPs each side's assigned score against the
//! real scores of the board; IMP standings have no percent (null).
//!
//! # Standings
//! Totals are summed unrounded and shown to 2 decimals. Pairs rank by percent (matchpoints) or
//! total IMPs, both compared at 2 decimals; pairs that compare equal share the rank, written
//! with `=` ("3="), and the next pair takes the rank after all of them (1, 2=, 2=, 4). Equal
//! pairs are listed by pair number; a pair with no board yet comes last. Two-winner movements
//! (Mitchell numbering without arrow switches) rank the NS and the EW pairs separately; other
//! movements rank everyone in one list. Nothing depends on hash order: the same results give
//! the same standings, to the byte.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::movement::model::{Direction, PairId};
use super::scoring::{butler, cross_imps, imps, matchpoints, Adjusted, BoardScore, Scale};

/// How a pairs session is scored (event setting `scoring`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    #[default]
    Matchpoints,
    Butler,
    CrossImps,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Matchpoints => "matchpoints",
            Method::Butler => "butler",
            Method::CrossImps => "cross_imps",
        }
    }

    /// True for the IMP methods.
    pub fn is_imps(self) -> bool {
        self != Method::Matchpoints
    }
}

/// A pairs event's scoring settings: `{"scoring": "matchpoints"|"butler"|"cross_imps",
/// "scale": "ebu"|"acbl"}`, both optional (`scale` only with matchpoints).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"scoring": "matchpoints", "scale": "acbl"}))]
pub struct ScoringSettings {
    /// `matchpoints` (default), `butler` or `cross_imps`.
    #[serde(default)]
    pub scoring: Method,
    /// The matchpoint scale, `ebu` (default) or `acbl`: with matchpoint scoring only (a rule
    /// between the two settings, refused with 422).
    pub scale: Option<Scale>,
}

/// A setting at fault: the field (`settings.scoring`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsError {
    pub field: String,
    pub message: String,
}

/// Reads an event's settings object into `T`, naming the setting at fault (`settings.key`).
pub fn read_settings<T: serde::de::DeserializeOwned>(settings: &Value) -> Result<T, SettingsError> {
    serde_path_to_error::deserialize(settings).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        let unknown = message
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next())
            .map(str::to_string);
        let field = match (path.as_str(), unknown) {
            (".", Some(key)) => format!("settings.{key}"),
            (".", None) => "settings".to_string(),
            _ => format!("settings.{path}"),
        };
        SettingsError { field, message }
    })
}

impl ScoringSettings {
    /// Reads an event's settings object, naming the setting at fault.
    pub fn parse(settings: &Value) -> Result<ScoringSettings, SettingsError> {
        let parsed: ScoringSettings = read_settings(settings)?;
        if parsed.scale.is_some() && parsed.scoring != Method::Matchpoints {
            return Err(SettingsError {
                field: "settings.scale".into(),
                message: "applies to matchpoint scoring only".into(),
            });
        }
        Ok(parsed)
    }

    /// The matchpoint scale (EBU unless set).
    pub fn scale(&self) -> Scale {
        self.scale.unwrap_or(Scale::Ebu)
    }
}

/// One result of the session, as the engine needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    /// The pair holding the NS cards, and the pair holding the EW cards.
    pub ns: PairId,
    pub ew: PairId,
    pub score: BoardScore,
}

/// What one result earned each side: matchpoints (with percent of the top) or IMPs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineScore {
    /// Index of the result in the input.
    pub index: usize,
    pub ns: f64,
    pub ew: f64,
    /// Matchpoints only: the share of the top, × 100.
    pub ns_percent: Option<f64>,
    pub ew_percent: Option<f64>,
}

/// One board scored: its lines in (round, table) order.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredBoard {
    pub board: u32,
    /// Matchpoints only: the top of the board (after Neuberg factoring).
    pub top: Option<f64>,
    /// Butler only: the datum (null when the board has no real score).
    pub datum: Option<i32>,
    pub lines: Vec<LineScore>,
}

/// A pair's place in a ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedPair {
    /// "1", "2=", ...
    pub rank: String,
    pub pair: PairId,
    /// Matchpoints or IMPs, to 2 decimals.
    pub total: f64,
    /// Matchpoints only, to 2 decimals (null before the pair's first board).
    pub percent: Option<f64>,
    pub boards: u32,
}

/// One ranking: the NS or EW pairs of a two-winner movement, or everyone (direction null).
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    pub direction: Option<Direction>,
    pub entries: Vec<RankedPair>,
}

/// The whole session scored.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionScore {
    /// Boards in number order.
    pub boards: Vec<ScoredBoard>,
    pub rankings: Vec<Ranking>,
}

impl SessionScore {
    /// Each result's score, by input index.
    pub fn lines_by_index(&self, count: usize) -> Vec<Option<LineScore>> {
        let mut out = vec![None; count];
        for l in self.boards.iter().flat_map(|b| &b.lines) {
            if let Some(slot) = out.get_mut(l.index) {
                *slot = Some(*l);
            }
        }
        out
    }
}

/// Rounds to 2 decimals (how totals and percents are shown and compared).
pub fn round2(x: f64) -> f64 {
    let r = (x * 100.0).round() / 100.0;
    if r == 0.0 {
        0.0 // no "-0"
    } else {
        r
    }
}

/// IMPs of an artificial adjusted score to the side that gets it.
fn adjusted_imps(a: Adjusted) -> f64 {
    match a {
        Adjusted::AveragePlus => 3.0,
        Adjusted::Average => 0.0,
        Adjusted::AverageMinus => -3.0,
    }
}

/// Scores the board whose results are `idx` (indices into `played`, in play order).
pub(super) fn score_board(
    played: &[Played],
    idx: &[usize],
    expected: usize,
    method: Method,
    scale: Scale,
) -> ScoredBoard {
    let board = played[idx[0]].board;
    let scores: Vec<BoardScore> = idx.iter().map(|&i| played[i].score).collect();
    if method == Method::Matchpoints {
        let mp = matchpoints(&scores, expected, scale);
        let lines = idx
            .iter()
            .enumerate()
            .map(|(k, &i)| LineScore {
                index: i,
                ns: mp.ns[k],
                ew: mp.ew[k],
                ns_percent: Some(mp.ns_percent[k]),
                ew_percent: Some(mp.ew_percent[k]),
            })
            .collect();
        return ScoredBoard {
            board,
            top: Some(mp.top),
            datum: None,
            lines,
        };
    }
    let real: Vec<i32> = scores
        .iter()
        .filter_map(|s| match s {
            BoardScore::Score(v) => Some(*v),
            _ => None,
        })
        .collect();
    let (datum, real_imps) = match method {
        Method::Butler if !real.is_empty() => {
            let b = butler(&real);
            (Some(b.datum), b.ns_imps)
        }
        Method::CrossImps => (None, cross_imps(&real)),
        _ => (None, Vec::new()),
    };
    // An assigned score of one side IMPed against the board (datum or every real score).
    let against_board = |ns_score: i32| -> f64 {
        match (method, datum) {
            (Method::Butler, Some(d)) => imps(ns_score - d) as f64,
            (Method::CrossImps, _) if !real.is_empty() => {
                real.iter().map(|&r| imps(ns_score - r) as f64).sum::<f64>() / real.len() as f64
            }
            _ => 0.0,
        }
    };
    let mut next_real = real_imps.into_iter();
    let lines = idx
        .iter()
        .zip(&scores)
        .map(|(&i, s)| {
            let (ns, ew) = match s {
                BoardScore::Score(_) => {
                    let v = next_real.next().unwrap_or(0.0);
                    (v, -v)
                }
                BoardScore::Adjusted { ns, ew } => (adjusted_imps(*ns), adjusted_imps(*ew)),
                BoardScore::Split { ns, ew } => (against_board(*ns), -against_board(*ew)),
            };
            LineScore {
                index: i,
                // + 0.0 turns a negated 0 (-0.0) into 0, so no "-0" is ever shown.
                ns: ns + 0.0,
                ew: ew + 0.0,
                ns_percent: None,
                ew_percent: None,
            }
        })
        .collect();
    ScoredBoard {
        board,
        top: None,
        datum,
        lines,
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    total: f64,
    top: f64,
    boards: u32,
}

/// "1", "2=", ... for keys already sorted best first; equal keys share a rank.
pub(super) fn rank_labels<T: PartialEq>(keys: &[T]) -> Vec<String> {
    let mut out = Vec::with_capacity(keys.len());
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end] == keys[start] {
            end += 1;
        }
        let label = if end - start > 1 {
            format!("{}=", start + 1)
        } else {
            (start + 1).to_string()
        };
        out.extend(std::iter::repeat_n(label, end - start));
        start = end;
    }
    out
}

/// A pair's percent over some of its boards (the session, or one round): its matchpoints
/// over the tops of those boards × 100, to 2 decimals. Boards played only once have a top of
/// 0: every score on them is average, so 50 while all its boards are such. Null under IMP
/// scoring and before the pair's first board.
pub fn percent_of_tops(method: Method, total: f64, top: f64, boards: u32) -> Option<f64> {
    (method == Method::Matchpoints && boards > 0).then(|| {
        if top > 0.0 {
            round2(100.0 * total / top)
        } else {
            50.0
        }
    })
}

fn rank(pairs: &[PairId], tally: &BTreeMap<PairId, Tally>, method: Method) -> Vec<RankedPair> {
    let mut entries: Vec<RankedPair> = pairs
        .iter()
        .map(|&pair| {
            let t = tally.get(&pair).copied().unwrap_or_default();
            RankedPair {
                rank: String::new(),
                pair,
                total: round2(t.total),
                percent: percent_of_tops(method, t.total, t.top, t.boards),
                boards: t.boards,
            }
        })
        .collect();
    // The key compared: percent (matchpoints) or total (IMPs); None (no board) last.
    let key = |e: &RankedPair| -> Option<f64> {
        if e.boards == 0 {
            None
        } else if method == Method::Matchpoints {
            e.percent
        } else {
            Some(e.total)
        }
    };
    entries.sort_by(|a, b| {
        let by_key = match (key(a), key(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_key.then(a.pair.cmp(&b.pair))
    });
    let keys: Vec<Option<f64>> = entries.iter().map(key).collect();
    for (e, label) in entries.iter_mut().zip(rank_labels(&keys)) {
        e.rank = label;
    }
    entries
}

/// Scores a session: `played` its results, `pairs` every pair of the movement (so a pair with
/// no result yet is still ranked), `two_winners` whether NS and EW rank separately.
pub fn score_session(
    played: &[Played],
    pairs: &[PairId],
    settings: ScoringSettings,
    two_winners: bool,
) -> SessionScore {
    let mut by_board: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, p) in played.iter().enumerate() {
        by_board.entry(p.board).or_default().push(i);
    }
    for idx in by_board.values_mut() {
        idx.sort_by_key(|&i| (played[i].round, played[i].table, i));
    }
    let expected = by_board.values().map(Vec::len).max().unwrap_or(0);
    let boards: Vec<ScoredBoard> = by_board
        .values()
        .map(|idx| score_board(played, idx, expected, settings.scoring, settings.scale()))
        .collect();

    let mut tally: BTreeMap<PairId, Tally> = BTreeMap::new();
    for b in &boards {
        let top = b.top.unwrap_or(0.0);
        for l in &b.lines {
            let p = &played[l.index];
            for (pair, points) in [(p.ns, l.ns), (p.ew, l.ew)] {
                let t = tally.entry(pair).or_default();
                t.total += points;
                t.top += top;
                t.boards += 1;
            }
        }
    }
    // Every pair of the movement, then any pair only the results name (a custom movement
    // changed after results came in), in one deterministic order.
    let mut everyone: Vec<PairId> = pairs.to_vec();
    for p in tally.keys() {
        if !everyone.contains(p) {
            everyone.push(*p);
        }
    }
    everyone.sort();
    everyone.dedup();
    let rankings = if two_winners {
        [Direction::Ns, Direction::Ew]
            .into_iter()
            .map(|dir| {
                let line: Vec<PairId> = everyone
                    .iter()
                    .copied()
                    .filter(|p| match dir {
                        Direction::Ns => !matches!(p, PairId::Ew(_)),
                        Direction::Ew => matches!(p, PairId::Ew(_)),
                    })
                    .collect();
                Ranking {
                    direction: Some(dir),
                    entries: rank(&line, &tally, settings.scoring),
                }
            })
            .collect()
    } else {
        vec![Ranking {
            direction: None,
            entries: rank(&everyone, &tally, settings.scoring),
        }]
    };
    SessionScore { boards, rankings }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
