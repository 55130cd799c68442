//! Structural checks of a movement (seed 002), for generated and for user-typed movements.
//!
//! `validate` never panics, whatever it is given. It returns findings:
//! - **errors** make the movement unplayable or unscorable: no rounds; rounds not numbered
//!   1..R in order; a table number 0, beyond the movement's tables, or used twice in a round;
//!   a table with no pairs or no boards; pair or set number 0; a pair seated twice in a round
//!   (NS and EW of one table under Howell numbering, or at two tables); a pair both seated at a
//!   full table and sitting out; a sit-out written in the other numbering (`{"pair":n}` in a
//!   Mitchell-numbered movement, `{"ns":n}`/`{"ew":n}` in a Howell-numbered one); a board
//!   listed twice at one table; a pair, set or board number, or `boards_per_round`, beyond
//!   [`MAX_MOVEMENT_NUMBER`] (four digits); a `kind` or section label that is not a short
//!   line of text ([`text_fault`]); more than [`MAX_MOVEMENT_PAIRS`] pairs; a pair playing
//!   a board twice; one set holding different boards in different places; a set both in play and on the relay stand in one round.
//! - **warnings** are playable but need the director's attention: a set in play at two or
//!   more tables in one round (the tables must share it, and wait if it has fewer boards than
//!   sharing tables); a board belonging to two sets; sets whose boards do not follow the
//!   regular numbering `set s = boards (s-1)·B+1 ..= s·B` when most sets do; a pair listed
//!   twice as sitting out; a pair that neither plays nor sits out in some round.
//! - tables playing half-sets (`half_sets`) are checked as `validate/half_sets.rs` says.
//!
//! At most [`MAX_FINDINGS`] findings are listed, then one that counts the rest.
//!
//! A pair seated alone at a half table (the other seats empty) does not play that round: it
//! sits out, whether or not it is also listed under `sit_out`.

#[path = "validate/half_sets.rs"]
mod half_sets;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::model::{is_full, seated, Movement, PairId, PairNumbering, SitOut, TableRound};
use crate::limits::{
    text_fault, MAX_CODE_CHARS, MAX_MOVEMENT_NUMBER, MAX_MOVEMENT_PAIRS, MAX_MOVEMENT_ROUNDS,
    MAX_MOVEMENT_TABLES,
};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The movement cannot be played or scored as written.
    Error,
    /// Playable, but the director must act (e.g. two tables share a set).
    Warning,
}

/// One problem found in a movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Finding {
    pub severity: Severity,
    /// The round concerned, if the finding is about one round.
    pub round: Option<u32>,
    /// The table concerned, if the finding is about one table.
    pub table: Option<u32>,
    /// What is wrong, in a director's words.
    pub message: String,
}

impl Finding {
    fn error(round: Option<u32>, table: Option<u32>, message: String) -> Self {
        Finding {
            severity: Severity::Error,
            round,
            table,
            message,
        }
    }

    fn warning(round: Option<u32>, table: Option<u32>, message: String) -> Self {
        Finding {
            severity: Severity::Warning,
            round,
            table,
            message,
        }
    }
}

/// A pair as a director writes it: "NS 3", "EW 3" or "pair 3".
pub fn pair_name(id: PairId) -> String {
    match id {
        PairId::Ns(n) => format!("NS {n}"),
        PairId::Ew(n) => format!("EW {n}"),
        PairId::Pair(n) => format!("pair {n}"),
    }
}

/// Every pair named anywhere in the movement (seated or sitting out), sorted.
pub fn all_pairs(m: &Movement) -> Vec<PairId> {
    let mut ids = BTreeSet::new();
    for r in &m.rounds {
        for t in &r.tables {
            for (p, _) in seated(m, t) {
                ids.insert(p);
            }
        }
        for s in &r.sit_out {
            ids.insert(s.pair_id());
        }
    }
    ids.into_iter().collect()
}

/// The regular board numbers of a set, or None when they would overflow or pass the largest
/// board number (a `boards_per_round` of 4·10⁹ must not become a list of 4·10⁹ boards).
fn regular_boards(set: u32, per_round: u32) -> Option<Vec<u32>> {
    if per_round > MAX_MOVEMENT_NUMBER {
        return None;
    }
    let first = set.checked_sub(1)?.checked_mul(per_round)?.checked_add(1)?;
    let last = first.checked_add(per_round)?;
    Some((first..last).collect())
}

/// A pair, set or board number past the four digits of guide cards and travellers.
fn beyond(what: &str, n: u32) -> String {
    format!("{what} number {n} is beyond the largest, {MAX_MOVEMENT_NUMBER}")
}

fn fmt_list(v: &[u32]) -> String {
    let s: Vec<String> = v.iter().map(|b| b.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// The most findings listed; the others are counted in one last finding (an error when
/// errors are among them), so a movement with a mistake in every table gives a short answer.
pub const MAX_FINDINGS: usize = 1_000;

/// Checks a movement's structure; see the module docs for the list of checks.
pub fn validate(m: &Movement) -> Vec<Finding> {
    let mut out = Vec::new();
    if m.rounds.is_empty() {
        out.push(Finding::error(
            None,
            None,
            "the movement has no rounds".to_string(),
        ));
        return out;
    }
    if m.tables == 0 {
        out.push(Finding::error(
            None,
            None,
            "the movement must have at least one table".to_string(),
        ));
    }
    if m.tables > MAX_MOVEMENT_TABLES || m.rounds.len() > MAX_MOVEMENT_ROUNDS {
        out.push(Finding::error(
            None,
            None,
            format!(
                "a movement has at most {MAX_MOVEMENT_TABLES} tables and {MAX_MOVEMENT_ROUNDS} rounds"
            ),
        ));
    }
    if let Some(fault) = text_fault(&m.kind, MAX_CODE_CHARS) {
        out.push(Finding::error(None, None, format!("kind {fault}")));
    }
    if m.boards_per_round > MAX_MOVEMENT_NUMBER {
        out.push(Finding::error(
            None,
            None,
            format!(
                "boards_per_round {} is beyond the largest board number, {MAX_MOVEMENT_NUMBER}",
                m.boards_per_round
            ),
        ));
    }
    for (i, r) in m.rounds.iter().enumerate() {
        let expected = i as u64 + 1;
        if u64::from(r.round) != expected {
            out.push(Finding::error(
                Some(r.round),
                None,
                format!(
                    "rounds must be numbered 1..{} in order: position {} holds round {}",
                    m.rounds.len(),
                    expected,
                    r.round
                ),
            ));
        }
    }

    let pairs = all_pairs(m);
    if pairs.len() > MAX_MOVEMENT_PAIRS {
        out.push(Finding::error(
            None,
            None,
            format!(
                "the movement names {} pairs; a movement has at most {MAX_MOVEMENT_PAIRS} (two a table and a rover at {MAX_MOVEMENT_TABLES} tables)",
                pairs.len()
            ),
        ));
    }
    let index = |p: &PairId| pairs.binary_search(p).unwrap_or(0);
    // set -> (boards, round, table) where first seen
    let mut set_first: BTreeMap<u32, (&[u32], u32, u32)> = BTreeMap::new();
    // (board, set) for every table
    let mut board_sets: Vec<(u32, u32)> = Vec::new();
    // (pair index, board, round, table) for every board a pair plays
    let mut played: Vec<(usize, u32, u32, u32)> = Vec::new();
    // pair index -> (round, table, full table?) where last seated
    let mut seats: Vec<(u32, u32, bool)> = vec![(0, 0, false); pairs.len()];
    // pair index -> the last round (position + 1) in which it is listed as sitting out
    let mut listed_out: Vec<usize> = vec![0; pairs.len()];
    // (errors, warnings) past MAX_FINDINGS, counted but not written out
    let mut unlisted = (0usize, 0usize);
    // half-sets where first seen, and the half-sets in play in the current round
    let mut half_first: half_sets::HalfFirst = BTreeMap::new();
    let mut half_plays: Vec<half_sets::HalfPlay> = Vec::new();

    for (pos, r) in m.rounds.iter().enumerate() {
        let stamp = pos as u32 + 1;
        let rn = Some(r.round);
        if r.tables.is_empty() {
            out.push(Finding::error(
                rn,
                None,
                "the round has no tables in play".to_string(),
            ));
        }
        let mut tables_seen = BTreeSet::new();
        // set -> tables playing it this round
        let mut set_tables: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for t in &r.tables {
            check_table(m, r.round, t, &mut tables_seen, &mut out);
            for (p, _) in seated(m, t) {
                let i = index(&p);
                let (seen_in, prev, _) = seats[i];
                if seen_in == stamp {
                    if prev != t.table {
                        out.push(Finding::error(
                            rn,
                            Some(t.table),
                            format!(
                                "{} is seated at tables {} and {} in round {}",
                                pair_name(p),
                                prev,
                                t.table,
                                r.round
                            ),
                        ));
                    }
                } else {
                    seats[i] = (stamp, t.table, is_full(t));
                }
                if is_full(t) {
                    played.extend(t.boards.iter().map(|&b| (i, b, r.round, t.table)));
                }
            }
            if !t.half_sets.is_empty() {
                half_sets::check_table(
                    r.round,
                    t,
                    &mut half_first,
                    &mut half_plays,
                    &mut board_sets,
                    &mut out,
                );
                continue;
            }
            if t.set != 0 {
                match set_first.get(&t.set) {
                    Some((boards, r0, t0)) if *boards != t.boards.as_slice() => {
                        out.push(Finding::error(
                            rn,
                            Some(t.table),
                            format!(
                                "set {} holds boards {} here but {} at round {} table {}",
                                t.set,
                                fmt_list(&t.boards),
                                fmt_list(boards),
                                r0,
                                t0
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        set_first.insert(t.set, (&t.boards, r.round, t.table));
                    }
                }
                set_tables.entry(t.set).or_default().push(t.table);
            }
            board_sets.extend(t.boards.iter().map(|&b| (b, t.set)));
        }
        check_sit_outs(
            m,
            r.round,
            &r.sit_out,
            |p| {
                let (seen_in, table, full) = seats[index(p)];
                (seen_in == stamp && full).then_some(table)
            },
            &mut out,
        );
        for (set, tables) in &set_tables {
            if tables.len() > 1 {
                let list: Vec<String> = tables.iter().map(|t| t.to_string()).collect();
                let n_boards = set_first.get(set).map_or(0, |(b, _, _)| b.len());
                let mut msg = format!(
                    "set {} is in play at tables {} in round {}: they must share it",
                    set,
                    list.join(", "),
                    r.round
                );
                if n_boards < tables.len() {
                    msg.push_str(&format!(
                        " (it has {} board(s) for {} tables, so a table will wait)",
                        n_boards,
                        tables.len()
                    ));
                }
                out.push(Finding::warning(rn, Some(tables[0]), msg));
            }
        }
        half_sets::check_round(r.round, &mut half_plays, &set_tables, &mut out);
        for &(s, _, _, t) in &half_plays {
            set_tables.entry(s).or_default().push(t);
        }
        half_plays.clear();
        for s in &r.relay_sets {
            if let Some(tables) = set_tables.get(s) {
                out.push(Finding::error(
                    rn,
                    Some(tables[0]),
                    format!(
                        "set {} is both in play at table {} and on the relay stand in round {}",
                        s, tables[0], r.round
                    ),
                ));
            }
        }
        for s in &r.sit_out {
            listed_out[index(&s.pair_id())] = pos + 1;
        }
        for (i, p) in pairs.iter().enumerate() {
            if seats[i].0 != stamp && listed_out[i] != pos + 1 {
                if out.len() >= MAX_FINDINGS {
                    unlisted.1 += 1;
                    continue;
                }
                out.push(Finding::warning(
                    rn,
                    None,
                    format!(
                        "{} neither plays nor sits out in round {}",
                        pair_name(*p),
                        r.round
                    ),
                ));
            }
        }
    }

    // A pair playing a board twice: its plays in order of pair and board, then of play.
    played.sort_unstable();
    for w in played.windows(2) {
        let ((p, b, r0, t0), (q, c, r1, t1)) = (w[0], w[1]);
        if p == q && b == c && (r0, t0) != (r1, t1) {
            if out.len() >= MAX_FINDINGS {
                unlisted.0 += 1;
                continue;
            }
            out.push(Finding::error(
                Some(r1),
                Some(t1),
                format!(
                    "{} plays board {} twice: round {} table {} and round {} table {}",
                    pair_name(pairs[p]),
                    b,
                    r0,
                    t0,
                    r1,
                    t1
                ),
            ));
        }
    }
    board_sets.sort_unstable();
    board_sets.dedup();
    for group in board_sets.chunk_by(|a, b| a.0 == b.0) {
        if group.len() > 1 {
            let list: Vec<u32> = group.iter().map(|&(_, s)| s).collect();
            out.push(Finding::warning(
                None,
                None,
                format!(
                    "board {} belongs to several sets: {}",
                    group[0].0,
                    fmt_list(&list)
                ),
            ));
        }
    }
    half_sets::check_against_sets(&half_first, &set_first, &mut out);
    check_regular_numbering(m, &set_first, &mut out);
    if out.len() > MAX_FINDINGS {
        for f in &out[MAX_FINDINGS..] {
            match f.severity {
                Severity::Error => unlisted.0 += 1,
                Severity::Warning => unlisted.1 += 1,
            }
        }
        out.truncate(MAX_FINDINGS);
    }
    if unlisted != (0, 0) {
        let message = format!(
            "{} more error(s) and {} more warning(s) are not listed (the first {MAX_FINDINGS} findings are)",
            unlisted.0, unlisted.1
        );
        out.push(if unlisted.0 > 0 {
            Finding::error(None, None, message)
        } else {
            Finding::warning(None, None, message)
        });
    }
    out
}

/// Checks one table on its own (numbers, seats, boards).
fn check_table(
    m: &Movement,
    round: u32,
    t: &TableRound,
    tables_seen: &mut BTreeSet<u32>,
    out: &mut Vec<Finding>,
) {
    let (rn, tn) = (Some(round), Some(t.table));
    if t.table == 0 {
        out.push(Finding::error(
            rn,
            tn,
            "table numbers start at 1".to_string(),
        ));
    } else if t.table > m.tables {
        out.push(Finding::error(
            rn,
            tn,
            format!(
                "table {} is beyond the movement's {} tables",
                t.table, m.tables
            ),
        ));
    }
    if !tables_seen.insert(t.table) {
        out.push(Finding::error(
            rn,
            tn,
            format!("table {} is used twice in round {}", t.table, round),
        ));
    }
    if let Some(fault) = t
        .section
        .as_deref()
        .and_then(|s| text_fault(s, MAX_CODE_CHARS))
    {
        out.push(Finding::error(rn, tn, format!("the section label {fault}")));
    }
    if t.ns.is_none() && t.ew.is_none() {
        out.push(Finding::error(rn, tn, "the table has no pairs".to_string()));
    }
    if t.ns == Some(0) || t.ew == Some(0) {
        out.push(Finding::error(
            rn,
            tn,
            "pair numbers start at 1".to_string(),
        ));
    }
    for n in [t.ns, t.ew].into_iter().flatten() {
        if n > MAX_MOVEMENT_NUMBER {
            out.push(Finding::error(rn, tn, beyond("pair", n)));
        }
    }
    if m.pair_numbering == PairNumbering::Howell && t.ns.is_some() && t.ns == t.ew {
        out.push(Finding::error(
            rn,
            tn,
            format!(
                "pair {} is seated both NS and EW at table {} in round {}",
                t.ns.unwrap_or(0),
                t.table,
                round
            ),
        ));
    }
    if t.set == 0 {
        out.push(Finding::error(rn, tn, "set numbers start at 1".to_string()));
    } else if t.set > MAX_MOVEMENT_NUMBER {
        out.push(Finding::error(rn, tn, beyond("set", t.set)));
    }
    if t.boards.is_empty() {
        out.push(Finding::error(
            rn,
            tn,
            "the table has no boards".to_string(),
        ));
    }
    let mut seen = BTreeSet::new();
    for &b in &t.boards {
        if b == 0 {
            out.push(Finding::error(
                rn,
                tn,
                "board numbers start at 1".to_string(),
            ));
        } else if b > MAX_MOVEMENT_NUMBER {
            out.push(Finding::error(rn, tn, beyond("board", b)));
        } else if !seen.insert(b) {
            out.push(Finding::error(
                rn,
                tn,
                format!("board {b} is listed twice at table {}", t.table),
            ));
        }
    }
}

/// Checks the sit-outs of one round against its seats.
fn check_sit_outs(
    m: &Movement,
    round: u32,
    sit_out: &[SitOut],
    seated_full: impl Fn(&PairId) -> Option<u32>,
    out: &mut Vec<Finding>,
) {
    let rn = Some(round);
    let mut seen = BTreeSet::new();
    for s in sit_out {
        let (n, fits) = match (*s, m.pair_numbering) {
            (SitOut::Pair(n), PairNumbering::Howell) => (n, true),
            (SitOut::Ns(n) | SitOut::Ew(n), PairNumbering::Mitchell) => (n, true),
            (SitOut::Pair(n) | SitOut::Ns(n) | SitOut::Ew(n), _) => (n, false),
        };
        let p = s.pair_id();
        if !fits {
            out.push(Finding::error(
                rn,
                None,
                format!(
                    "sit-out {} does not fit the movement's {} numbering",
                    pair_name(p),
                    match m.pair_numbering {
                        PairNumbering::Howell => "Howell",
                        PairNumbering::Mitchell => "Mitchell",
                    }
                ),
            ));
        }
        if n == 0 {
            out.push(Finding::error(
                rn,
                None,
                "pair numbers start at 1".to_string(),
            ));
        } else if n > MAX_MOVEMENT_NUMBER {
            out.push(Finding::error(rn, None, beyond("pair", n)));
        }
        if !seen.insert(p) {
            out.push(Finding::warning(
                rn,
                None,
                format!(
                    "{} is listed twice as sitting out in round {}",
                    pair_name(p),
                    round
                ),
            ));
        }
        if let Some(table) = seated_full(&p) {
            out.push(Finding::error(
                rn,
                Some(table),
                format!(
                    "{} is both seated at table {} and sitting out in round {}",
                    pair_name(p),
                    table,
                    round
                ),
            ));
        }
    }
}

/// Warns about sets off the regular numbering, when most sets follow it.
fn check_regular_numbering(
    m: &Movement,
    set_first: &BTreeMap<u32, (&[u32], u32, u32)>,
    out: &mut Vec<Finding>,
) {
    let bpr = m.boards_per_round;
    if bpr == 0 {
        out.push(Finding::warning(
            None,
            None,
            "boards_per_round is 0".to_string(),
        ));
        return;
    }
    let regular = |s: u32, b: &[u32]| regular_boards(s, bpr).is_some_and(|r| r == b);
    let matching = set_first
        .iter()
        .filter(|(s, (b, _, _))| regular(**s, b))
        .count();
    if matching * 2 <= set_first.len() {
        return; // the movement numbers its boards its own way
    }
    for (s, (b, r0, t0)) in set_first {
        if !regular(*s, b) {
            let expected = regular_boards(*s, bpr).unwrap_or_default();
            out.push(Finding::warning(
                Some(*r0),
                Some(*t0),
                format!(
                    "set {} holds boards {}; the regular numbering with {} boards a round gives {}",
                    s,
                    fmt_list(b),
                    bpr,
                    fmt_list(&expected)
                ),
            ));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::bridge::movement::model::{Round, SitOut};

    pub(crate) fn tr(table: u32, ns: u32, ew: u32, set: u32, boards: &[u32]) -> TableRound {
        TableRound {
            table,
            ns: Some(ns),
            ew: Some(ew),
            set,
            boards: boards.to_vec(),
            arrow_switch: false,
            section: None,
            half_sets: Vec::new(),
        }
    }

    pub(crate) fn round(n: u32, tables: Vec<TableRound>, sit_out: Vec<SitOut>) -> Round {
        Round {
            round: n,
            tables,
            sit_out,
            relay_sets: vec![],
        }
    }

    /// A hand-written 3-table Mitchell: NS stationary, EW up one, sets down one,
    /// `bpr` boards a round.
    pub(crate) fn mitchell3(bpr: u32) -> Movement {
        let rounds = (1..=3)
            .map(|r| {
                let tables = (1..=3)
                    .map(|t| {
                        let ew = (t + 3 - r) % 3 + 1;
                        let set = (t + r - 2) % 3 + 1;
                        let first = (set - 1) * bpr + 1;
                        let boards: Vec<u32> = (first..first + bpr).collect();
                        tr(t, t, ew, set, &boards)
                    })
                    .collect();
                round(r, tables, vec![])
            })
            .collect();
        Movement {
            kind: "custom".into(),
            tables: 3,
            pair_numbering: PairNumbering::Mitchell,
            boards_per_round: bpr,
            rounds,
        }
    }

    fn errors(m: &Movement) -> Vec<String> {
        validate(m)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.message)
            .collect()
    }

    fn warnings(m: &Movement) -> Vec<String> {
        validate(m)
            .into_iter()
            .filter(|f| f.severity == Severity::Warning)
            .map(|f| f.message)
            .collect()
    }

    fn has(v: &[String], needle: &str) -> bool {
        v.iter().any(|s| s.contains(needle))
    }

    #[test]
    fn correct_mitchell_is_valid_and_clean() {
        let m = mitchell3(2);
        assert!(validate(&m).is_empty(), "{:?}", validate(&m));
    }

    #[test]
    fn empty_movement_is_an_error() {
        let mut m = mitchell3(1);
        m.rounds.clear();
        assert!(has(&errors(&m), "no rounds"));
    }

    #[test]
    fn rounds_must_be_numbered_in_order() {
        let mut m = mitchell3(1);
        m.rounds[1].round = 3;
        m.rounds[2].round = 2;
        assert_eq!(errors(&m).len(), 2);
        assert!(has(&errors(&m), "numbered 1..3"));
    }

    #[test]
    fn pair_seated_twice_at_one_table_under_howell() {
        let mut m = mitchell3(1);
        m.pair_numbering = PairNumbering::Howell;
        m.rounds = vec![round(1, vec![tr(1, 1, 1, 1, &[1])], vec![])];
        assert!(has(&errors(&m), "pair 1 is seated both NS and EW"));
    }

    #[test]
    fn pair_at_two_tables() {
        let mut m = mitchell3(1);
        m.rounds[0].tables[1].ew = Some(m.rounds[0].tables[0].ew.unwrap());
        let e = errors(&m);
        assert!(
            has(&e, "EW 1 is seated at tables 1 and 2 in round 1"),
            "{e:?}"
        );
    }

    #[test]
    fn pair_both_seated_and_sitting_out() {
        let mut m = mitchell3(1);
        m.rounds[0].sit_out.push(SitOut::Ns(2));
        assert!(has(
            &errors(&m),
            "NS 2 is both seated at table 2 and sitting out"
        ));
        // Under Howell numbering a {"ns":n} sit-out is the wrong kind.
        let mut h = m.clone();
        h.pair_numbering = PairNumbering::Howell;
        assert!(has(
            &errors(&h),
            "does not fit the movement's Howell numbering"
        ));
    }

    #[test]
    fn table_used_twice_and_out_of_range() {
        let mut m = mitchell3(1);
        m.rounds[0].tables[2].table = 1;
        assert!(has(&errors(&m), "table 1 is used twice in round 1"));
        let mut m = mitchell3(1);
        m.rounds[0].tables[2].table = 7;
        assert!(has(&errors(&m), "beyond the movement's 3 tables"));
        m.rounds[0].tables[2].table = 0;
        assert!(has(&errors(&m), "table numbers start at 1"));
    }

    #[test]
    fn pair_plays_a_board_twice() {
        let mut m = mitchell3(1);
        // Round 2: NS 1 gets set 1 again (the set it played in round 1), and table 3's
        // set 1 is replaced, so NS 1 replays board 1.
        m.rounds[1].tables[0].set = 1;
        m.rounds[1].tables[0].boards = vec![1];
        let e = errors(&m);
        assert!(
            has(
                &e,
                "NS 1 plays board 1 twice: round 1 table 1 and round 2 table 1"
            ),
            "{e:?}"
        );
    }

    #[test]
    fn board_listed_twice_at_a_table() {
        let mut m = mitchell3(2);
        m.rounds[0].tables[0].boards = vec![1, 1];
        assert!(has(&errors(&m), "board 1 is listed twice at table 1"));
    }

    #[test]
    fn shared_set_is_a_warning_and_colliding_pairs_an_error() {
        let mut m = mitchell3(2);
        // Round 1, table 2 plays set 1 too (as in a share-and-relay), set 2 rests.
        m.rounds[0].tables[1].set = 1;
        m.rounds[0].tables[1].boards = vec![1, 2];
        let w = warnings(&m);
        assert!(
            has(
                &w,
                "set 1 is in play at tables 1, 2 in round 1: they must share it"
            ),
            "{w:?}"
        );
        // A single board cannot be shared without a table waiting.
        let mut m1 = mitchell3(1);
        m1.rounds[0].tables[1].set = 1;
        m1.rounds[0].tables[1].boards = vec![1];
        assert!(has(&warnings(&m1), "a table will wait"));
        // If the same pair sits at both sharing tables, it is an error.
        m.rounds[0].tables[1].ew = m.rounds[0].tables[0].ew;
        assert!(has(&errors(&m), "is seated at tables 1 and 2"));
    }

    #[test]
    fn set_with_different_boards_is_an_error() {
        let mut m = mitchell3(2);
        m.rounds[1].tables[0].boards = vec![7, 8]; // set 2 elsewhere holds [3, 4]
        assert!(has(
            &errors(&m),
            "set 2 holds boards [7, 8] here but [3, 4]"
        ));
    }

    #[test]
    fn irregular_board_numbering_is_a_warning() {
        let mut m = mitchell3(2);
        for r in &mut m.rounds {
            for t in &mut r.tables {
                if t.set == 3 {
                    t.boards = vec![9, 10];
                }
            }
        }
        let w = warnings(&m);
        assert!(
            has(&w, "set 3 holds boards [9, 10]; the regular numbering"),
            "{w:?}"
        );
        assert!(errors(&m).is_empty());
    }

    #[test]
    fn relay_set_in_play_is_an_error() {
        let mut m = mitchell3(1);
        m.rounds[0].relay_sets = vec![2];
        assert!(has(
            &errors(&m),
            "set 2 is both in play at table 2 and on the relay"
        ));
    }

    #[test]
    fn missing_pair_is_a_warning() {
        let mut m = mitchell3(1);
        m.rounds[2].tables.pop();
        assert!(has(
            &warnings(&m),
            "NS 3 neither plays nor sits out in round 3"
        ));
    }

    /// Issue 9: pair, set and board numbers of 4·10⁹ were a valid movement (and a
    /// `boards_per_round` that large a list of 4·10⁹ regular board numbers).
    #[test]
    fn numbers_beyond_four_digits_are_errors() {
        let big = 4_000_000_000;
        let base = mitchell3(2);
        assert!(errors(&base).is_empty());
        let mut m = base.clone();
        m.rounds[0].tables[0].ns = Some(big);
        assert!(has(&errors(&m), "pair number 4000000000 is beyond"));
        let mut m = base.clone();
        m.rounds[1].tables[2].set = big;
        assert!(has(&errors(&m), "set number 4000000000 is beyond"));
        let mut m = base.clone();
        m.rounds[2].tables[1].boards = vec![big, 1];
        assert!(has(&errors(&m), "board number 4000000000 is beyond"));
        let mut m = base.clone();
        m.rounds[0].sit_out = vec![SitOut::Ew(big)];
        assert!(has(&errors(&m), "pair number 4000000000 is beyond"));
        let mut m = base.clone();
        m.rounds[0].tables[1].section = Some("A\nB".into());
        assert!(has(
            &errors(&m),
            "the section label must not hold control characters"
        ));
        let mut m = base.clone();
        m.kind = "x".repeat(65);
        assert!(has(&errors(&m), "kind must be at most 64 characters"));
        let mut m = base.clone();
        m.boards_per_round = big;
        assert!(has(&errors(&m), "boards_per_round 4000000000"));
        assert!(!crate::engine::bridge::movement::report::report(&m).valid);
    }

    #[test]
    fn never_panics_on_garbage() {
        let mut m = mitchell3(1);
        m.tables = 0;
        m.boards_per_round = u32::MAX;
        m.rounds[0].round = u32::MAX;
        m.rounds[0].tables[0] = TableRound {
            table: u32::MAX,
            ns: None,
            ew: None,
            set: 0,
            boards: vec![],
            arrow_switch: true,
            section: None,
            half_sets: Vec::new(),
        };
        m.rounds[1].tables[0].set = u32::MAX;
        m.rounds[1].tables[0].ns = Some(0);
        m.rounds[1].sit_out = vec![SitOut::Pair(0), SitOut::Pair(0)];
        m.rounds[2].tables.clear();
        let f = validate(&m);
        assert!(f.iter().any(|f| f.severity == Severity::Error));
        let r = crate::engine::bridge::movement::report::report(&m);
        assert!(!r.valid);
    }

    /// A replayed board at every table: the first findings and a count of the rest, which
    /// still make the movement invalid.
    #[test]
    fn findings_are_capped_and_counted() {
        let rounds = (1..=30)
            .map(|r| {
                round(
                    r,
                    (1..=50).map(|t| tr(t, t, 50 + t, 1, &[1])).collect(),
                    vec![],
                )
            })
            .collect();
        let m = Movement {
            kind: "custom".into(),
            tables: 50,
            pair_numbering: PairNumbering::Howell,
            boards_per_round: 1,
            rounds,
        };
        let f = validate(&m);
        assert_eq!(f.len(), MAX_FINDINGS + 1);
        let last = f.last().unwrap();
        assert_eq!(last.severity, Severity::Error);
        // 100 pairs replay board 1 in 29 rounds: 2 900 errors, 30 sharing warnings.
        let listed_errors = f[..MAX_FINDINGS]
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .count();
        assert!(
            last.message
                .starts_with(&format!("{} more error(s)", 2900 - listed_errors)),
            "{}",
            last.message
        );
        assert!(!crate::engine::bridge::movement::report::report(&m).valid);
    }
}
