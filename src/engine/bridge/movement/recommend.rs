//! The movement recommender (`GET /api/v1/movements/recommend`): generates candidate
//! movements of every kind for the number of pairs, with boards per round chosen so the
//! session comes close to the boards asked, and ranks them the way seed 002 asks a director
//! to weigh them.
//!
//! Score (higher is better; each term is also given as a reason):
//! - boards: −2 per board the session (rounds × boards a round) is away from the boards asked;
//! - sets: a movement needing more sets than available is dropped; 0.2 points per set left
//!   over in the boxes rewards fewer sets; −3 when tables must share a set in a round;
//! - winners: −40 when the movement gives the other number of winners than asked;
//! - sit-outs: −0.5 per board of the longest sit-out of any pair;
//! - boards played unequal numbers of times (different tops): −15; some pairs playing more
//!   boards than others (beyond one sit-out round): −5;
//! - one board a round (a move after every board): −6; more than 4 boards a round: −2 per
//!   board above 4;
//! - balance: +0.2 per balance point (the comparisons within each line for two-winner
//!   movements, over the whole field otherwise);
//! - masterpoints: +10 when the session is masterpoint eligible (at least 24 boards, every
//!   pair scheduled at least 75%).
//!
//! - a Howell-type movement (`howell`, `three_quarter_howell`) on up to
//!   [`SMALL_FIELD_TABLES`] tables whose session is within one round of the boards asked
//!   (unless two winners are asked):
//!   +30, which puts it first, as seed 002 and a director's practice have it ("a Howell
//!   movement for smaller numbers"); 9 pairs thus get the 4½-table Howell.
//!
//! - every pair meeting every other pair in a one-winner movement (a complete Howell): +8.
//!
//! A movement with more rounds than `max_rounds`, with a different number of pairs than
//! asked, that fails the validator, or that seed 002 advises against (see [`advised`]) is not
//! offered; the NS and EW half-table variants of one movement are shown as one choice.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::generate::{generate, HOWELL_KINDS, KINDS};
use super::mitchell::common::MAX_TABLES;
use super::model::{Direction, MovementError, MovementParams};
use super::report::{report, MovementReport};
use crate::limits::schema::integer_bound;

/// What the director asks for.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecommendQuery {
    /// Number of pairs present.
    #[schema(value_type = RecommendPairs)]
    #[param(inline, value_type = RecommendPairs)]
    pub pairs: u32,
    /// Boards the session should have (about).
    #[schema(value_type = SessionBoards)]
    #[param(inline, value_type = SessionBoards)]
    pub boards: u32,
    /// The most rounds there is time for.
    #[schema(value_type = Option<RoundsAvailable>)]
    #[param(inline, value_type = Option<RoundsAvailable>)]
    pub max_rounds: Option<u32>,
    /// Sets (boxes) of boards available.
    pub sets_available: Option<u32>,
    /// 1 or 2 winners wanted.
    #[schema(value_type = Option<Winners>)]
    #[param(inline, value_type = Option<Winners>)]
    pub winners: Option<u8>,
}

/// The most boards a session may ask for.
pub const MAX_SESSION_BOARDS: u32 = 200;

integer_bound!(
    /// Pairs present: 3 up to the largest room with an NS rover.
    RecommendPairs: UInt32, 3, MAX_PAIRS
);

integer_bound!(
    /// Boards a session should have (about).
    SessionBoards: UInt32, 1, MAX_SESSION_BOARDS
);

integer_bound!(
    /// The most rounds there is time for.
    RoundsAvailable: UInt32, 1, u32::MAX
);

integer_bound!(
    /// Winners of a pairs session: one (a Howell) or two (a Mitchell, NS and EW).
    Winners: UInt8, 1, 2
);

/// One recommended movement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Recommendation {
    /// The generator kind (for `GET /api/v1/movements/{kind}`).
    pub kind: String,
    /// The parameters to generate it with.
    pub params: MovementParams,
    /// Higher is better (see the module docs for the terms).
    pub score: f64,
    /// Why, term by term, in a director's words.
    pub reasons: Vec<String>,
    pub report: MovementReport,
}

/// Up to this many tables a Howell-type movement comes first when it fits the boards.
pub const SMALL_FIELD_TABLES: u32 = 8;
/// The points that put it first (more than any Mitchell's balance and masterpoint terms).
const SMALL_FIELD_HOWELL: f64 = 30.0;

/// The most pairs served: the largest room with an NS rover.
pub const MAX_PAIRS: u32 = 2 * MAX_TABLES + 1;

/// The most candidates returned.
pub const MAX_RECOMMENDATIONS: usize = 10;

/// Table layouts to try for `pairs` pairs: full tables, a half table, or an NS rover.
fn layouts(pairs: u32) -> Vec<MovementParams> {
    let mut out = Vec::new();
    let tables = pairs.div_ceil(2);
    let base = MovementParams {
        tables,
        half_table: (pairs % 2 == 1).then_some(Direction::Ew),
        ..Default::default()
    };
    out.push(base.clone());
    if pairs % 2 == 1 {
        out.push(MovementParams {
            half_table: Some(Direction::Ns),
            ..base.clone()
        });
        out.push(MovementParams {
            tables: pairs / 2,
            half_table: None,
            rover: true,
            ..Default::default()
        });
    }
    out
}

/// False for what seed 002 advises against: a Skip Mitchell with a half table ("best not
/// used with a half table"); curtailing a Mitchell-family movement with a half table
/// (different tops, some pairs playing more boards); curtailing a Share & Relay or a 1½
/// Appendix Mitchell at all ("curtailing not recommended").
fn advised(kind: &str, p: &MovementParams, curtailed: bool) -> bool {
    if HOWELL_KINDS.contains(&kind) {
        return true;
    }
    let half = p.half_table.is_some();
    if kind == "skip_mitchell" && half {
        return false;
    }
    let never_curtailed = ["share_relay_mitchell", "one_and_half_appendix_mitchell"];
    !(curtailed && (half || never_curtailed.contains(&kind)))
}

/// Scores a candidate's report against the query; None when it must not be offered.
fn score(q: &RecommendQuery, kind: &str, r: &MovementReport) -> Option<(f64, Vec<String>)> {
    if !r.valid || r.pairs != q.pairs {
        return None;
    }
    if q.max_rounds.is_some_and(|m| r.rounds > m) {
        return None;
    }
    if q.sets_available.is_some_and(|s| r.sets > s) {
        return None;
    }
    let mut s = 0.0;
    let mut why = Vec::new();
    let session = r.masterpoints.session_boards;
    let off = session.abs_diff(q.boards);
    s -= 2.0 * f64::from(off);
    let (lo, hi) = (r.boards_per_pair.min, r.boards_per_pair.max);
    why.push(format!(
        "{} boards in {} rounds of {} ({} asked); pairs play {}",
        r.boards,
        r.rounds,
        r.boards_per_round,
        q.boards,
        if lo == hi {
            format!("{hi} each")
        } else {
            format!("{lo} to {hi}")
        }
    ));
    match q.sets_available {
        Some(avail) => {
            s += 0.2 * f64::from(avail - r.sets);
            why.push(format!("needs {} sets of the {avail} available", r.sets));
        }
        None => why.push(format!("needs {} sets", r.sets)),
    }
    if r.max_tables_sharing_a_set > 1 {
        s -= 3.0;
        why.push(format!(
            "up to {} tables share a set in a round",
            r.max_tables_sharing_a_set
        ));
    }
    if let Some(w) = q.winners {
        if w != r.winners {
            s -= 40.0;
            why.push(format!("gives {} winner(s), {w} asked", r.winners));
        } else {
            why.push(format!("gives {w} winner(s) as asked"));
        }
    } else {
        why.push(format!("{} winner(s)", r.winners));
    }
    if HOWELL_KINDS.contains(&kind)
        && r.tables <= SMALL_FIELD_TABLES
        && off <= r.boards_per_round
        && q.winners != Some(2)
    {
        s += SMALL_FIELD_HOWELL;
        why.push(format!(
            "a Howell-type movement, a director's first choice for up to {SMALL_FIELD_TABLES} tables"
        ));
    }
    if r.winners == 1 && r.min_meetings >= 1 {
        s += 8.0;
        why.push("every pair meets every other pair".to_string());
    }
    if r.longest_sit_out > 0 {
        s -= 0.5 * f64::from(r.longest_sit_out);
        why.push(format!(
            "longest sit-out {} boards{}",
            r.longest_sit_out,
            if r.half_table { " (half table)" } else { "" }
        ));
    }
    if r.boards_per_round == 1 {
        s -= 6.0;
        why.push("one board a round means a move after every board".to_string());
    } else if r.boards_per_round > 4 {
        s -= 2.0 * f64::from(r.boards_per_round - 4);
        why.push(format!(
            "{} boards a round make long rounds",
            r.boards_per_round
        ));
    }
    if r.boards_per_pair.max - r.boards_per_pair.min > r.boards_per_round {
        s -= 5.0;
        why.push("some pairs play more boards than others".to_string());
    }
    if r.times_each_board_played.min != r.times_each_board_played.max {
        s -= 15.0;
        why.push(format!(
            "boards are played {} to {} times (different tops)",
            r.times_each_board_played.min, r.times_each_board_played.max
        ));
    }
    let balance = if r.winners == 2 && !r.line_balance.is_empty() {
        r.line_balance.iter().map(|l| l.percent).sum::<f64>() / r.line_balance.len() as f64
    } else {
        r.balance.percent
    };
    s += 0.2 * balance;
    why.push(format!(
        "balance {balance:.1}%{}",
        if r.winners == 2 {
            " within each line"
        } else {
            ""
        }
    ));
    if r.masterpoints.eligible {
        s += 10.0;
        why.push("masterpoint eligible".to_string());
    } else {
        why.push(format!(
            "not masterpoint eligible: {}",
            r.masterpoints.reason
        ));
    }
    Some((s, why))
}

/// The (boards a round, rounds) to try for a movement of `full` rounds: per number of
/// boards a round, the rounds nearest the boards asked, and the complete movement too when
/// it is at most one round longer (a director plays a whole Howell rather than cut it).
fn round_choices(q: &RecommendQuery, full: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for bpr in 1..=8u32 {
        let wanted = q.boards.div_ceil(bpr).max(1);
        let mut choices = vec![full.min(wanted)];
        if full > wanted && full * bpr <= q.boards + bpr {
            choices.push(full);
        }
        for mut rounds in choices {
            if let Some(m) = q.max_rounds {
                rounds = rounds.min(m);
            }
            if rounds * bpr + bpr < q.boards.saturating_sub(bpr) {
                continue; // far too few boards with this many per round
            }
            if !out.contains(&(bpr, rounds)) {
                out.push((bpr, rounds));
            }
        }
    }
    out
}

/// Ranks candidate movements for the query (best first, at most `MAX_RECOMMENDATIONS`).
pub fn recommend(q: &RecommendQuery) -> Result<Vec<Recommendation>, MovementError> {
    if !(3..=MAX_PAIRS).contains(&q.pairs) {
        return Err(MovementError::new(
            "pairs",
            format!("the number of pairs must be between 3 and {MAX_PAIRS}"),
        )
        .with_supported(format!(
            "3 to {MAX_PAIRS} pairs (at most {MAX_TABLES} tables, and an NS rover)"
        )));
    }
    if !(1..=MAX_SESSION_BOARDS).contains(&q.boards) {
        return Err(MovementError::new(
            "boards",
            format!("the number of boards must be between 1 and {MAX_SESSION_BOARDS}"),
        )
        .with_supported("1 to 200 boards"));
    }
    if q.winners.is_some_and(|w| !(1..=2).contains(&w)) {
        return Err(
            MovementError::new("winners", "winners must be 1 or 2").with_supported("1 or 2")
        );
    }
    if q.max_rounds == Some(0) {
        return Err(MovementError::new(
            "max_rounds",
            "at least one round is needed",
        ));
    }
    let mut found: Vec<Recommendation> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for &kind in KINDS {
        for base in layouts(q.pairs) {
            // The rounds the full movement has, then boards per round near boards / rounds.
            let full_rounds: Vec<u32> = if kind == "three_quarter_howell" {
                (base.tables..=2 * base.tables.saturating_sub(1)).collect()
            } else {
                match generate(kind, &base) {
                    Ok(m) => vec![m.rounds.len() as u32],
                    Err(_) => continue,
                }
            };
            for full in full_rounds {
                for (bpr, rounds) in round_choices(q, full) {
                    let mut p = base.clone();
                    p.boards_per_round = Some(bpr);
                    if kind == "three_quarter_howell" || rounds < full {
                        p.rounds = Some(rounds);
                    }
                    if !advised(kind, &p, rounds < full) {
                        continue;
                    }
                    let Ok(m) = generate(kind, &p) else {
                        continue;
                    };
                    let key = (kind, serde_json::to_string(&m.rounds).unwrap_or_default());
                    if !seen.insert(key) {
                        continue;
                    }
                    let r = report(&m);
                    if let Some((score, reasons)) = score(q, kind, &r) {
                        found.push(Recommendation {
                            kind: kind.to_string(),
                            params: p,
                            score,
                            reasons,
                            report: r,
                        });
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.kind.cmp(&b.kind))
    });
    // The NS and the EW half table of one movement are one choice: the better is shown.
    let mut shown = std::collections::BTreeSet::new();
    found.retain(|r| {
        let p = &r.params;
        shown.insert((
            r.kind.clone(),
            p.tables,
            p.rover,
            p.rounds,
            p.boards_per_round,
            p.half_table.is_some(),
        ))
    });
    found.truncate(MAX_RECOMMENDATIONS);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: u32, boards: u32) -> RecommendQuery {
        RecommendQuery {
            pairs,
            boards,
            max_rounds: None,
            sets_available: None,
            winners: None,
        }
    }

    #[test]
    fn eight_pairs_get_a_balanced_howell_near_the_boards_asked() {
        let recs = recommend(&q(8, 21)).unwrap();
        assert!(!recs.is_empty());
        for w in recs.windows(2) {
            assert!(w[0].score >= w[1].score);
        }
        let best = recs.iter().find(|r| r.kind == "howell").unwrap();
        assert!(best.report.valid);
        assert_eq!(best.report.pairs, 8);
        assert_eq!(best.report.boards_per_pair.max, 21); // 7 rounds of 3
        assert!(best.report.balance.percent > 99.99);
        assert!(best
            .reasons
            .iter()
            .any(|r| r.starts_with("21 boards in 7 rounds of 3 (21 asked)")));
    }

    #[test]
    fn constraints_are_respected() {
        let mut query = q(9, 24);
        query.max_rounds = Some(6);
        query.sets_available = Some(6);
        for r in recommend(&query).unwrap() {
            assert!(r.report.rounds <= 6 && r.report.sets <= 6, "{}", r.kind);
            assert_eq!(r.report.pairs, 9);
        }
        let mut two = q(10, 20);
        two.winners = Some(2);
        let recs = recommend(&two).unwrap();
        if let Some(top) = recs.first() {
            // A one-winner movement is only offered below the two-winner ones.
            if top.report.winners == 1 {
                assert!(recs.iter().all(|r| r.report.winners == 1));
            }
        }
    }

    #[test]
    fn bad_queries_name_the_field() {
        assert_eq!(recommend(&q(2, 20)).unwrap_err().field, "pairs");
        assert_eq!(recommend(&q(8, 0)).unwrap_err().field, "boards");
        let mut w = q(8, 20);
        w.winners = Some(3);
        assert_eq!(recommend(&w).unwrap_err().field, "winners");
    }

    /// Up to 8 tables a Howell-type movement comes first when it fits the boards asked.
    #[test]
    fn small_fields_get_a_howell_type_movement_first() {
        for (pairs, boards) in [
            (6, 20),
            (7, 21),
            (8, 21),
            (10, 27),
            (11, 22),
            (12, 22),
            (14, 26),
            (16, 30),
            (16, 24),
        ] {
            let recs = recommend(&q(pairs, boards)).unwrap();
            let top = &recs[0];
            assert!(
                HOWELL_KINDS.contains(&top.kind.as_str()),
                "{pairs} pairs, {boards} boards: {} first ({:?})",
                top.kind,
                top.reasons
            );
        }
        // Asked for two winners, a Mitchell still wins.
        let mut two = q(14, 26);
        two.winners = Some(2);
        assert_eq!(recommend(&two).unwrap()[0].report.winners, 2);
    }

    #[test]
    fn nine_pairs_get_the_four_and_a_half_table_howell() {
        for boards in [24, 27] {
            let top = &recommend(&q(9, boards)).unwrap()[0];
            assert_eq!(top.kind, "howell", "{boards}: {:?}", top.reasons);
            assert_eq!(top.params.tables, 5);
            assert!(top.params.half_table.is_some());
            assert_eq!(top.report.rounds, 9);
        }
    }

    /// Never a half table in a Skip Mitchell, nor a curtailed Mitchell with a half table,
    /// nor a curtailed Share & Relay; NS and EW half tables of one movement are one choice;
    /// the board count of the reason is the report's.
    #[test]
    fn what_the_seed_advises_against_is_not_offered() {
        for pairs in [9, 13, 17, 19, 21, 25, 27, 31] {
            for boards in [18, 22, 24, 26, 28] {
                let recs = recommend(&q(pairs, boards)).unwrap();
                let mut choices = std::collections::BTreeSet::new();
                for r in &recs {
                    let half = r.report.half_table;
                    assert!(!(r.kind == "skip_mitchell" && half), "{pairs}/{boards}");
                    if !HOWELL_KINDS.contains(&r.kind.as_str()) {
                        let full = generate(
                            &r.kind,
                            &MovementParams {
                                rounds: None,
                                ..r.params.clone()
                            },
                        )
                        .unwrap();
                        let curtailed = r.report.rounds < full.rounds.len() as u32;
                        assert!(!(curtailed && half), "{pairs}/{boards} {}", r.kind);
                        assert!(!(curtailed && r.kind == "share_relay_mitchell"));
                    }
                    let p = &r.params;
                    assert!(
                        choices.insert((&r.kind, p.tables, p.rover, p.rounds, p.boards_per_round)),
                        "{pairs}/{boards}: {} twice",
                        r.kind
                    );
                    let first = &r.reasons[0];
                    assert!(
                        first.starts_with(&format!(
                            "{} boards in {} rounds",
                            r.report.boards, r.report.rounds
                        )),
                        "{first} / {} boards",
                        r.report.boards
                    );
                }
            }
        }
    }

    #[test]
    fn the_pairs_limit_is_the_largest_room_served() {
        assert!(!recommend(&q(MAX_PAIRS, 24)).unwrap().is_empty());
        let e = recommend(&q(MAX_PAIRS + 1, 24)).unwrap_err();
        assert_eq!(e.field, "pairs");
        assert!(e.message.contains("121"), "{}", e.message);
    }
}
