//! The validator's checks of half-set tables (a table whose `half_sets` lists the two
//! half-sets it plays in a round, the first half of the round then the second):
//! - **errors**: not exactly two half-sets; a half other than 1 or 2; a set number 0 or
//!   beyond [`MAX_MOVEMENT_NUMBER`]; `set` not the first half-set's set; boards that do not
//!   split evenly between the two; one half-set holding different boards in different places,
//!   or boards that are not the matching half of its set's boards where the whole set is
//!   played elsewhere.
//! - **warnings**: one half-set at two tables in the same half of a round, or at one table
//!   while its whole set is at another (the tables must share it). A half-set at one table in
//!   the first half and at another in the second is what half-set movements do: no finding.

use std::collections::BTreeMap;

use super::{beyond, fmt_list, Finding};
use crate::engine::bridge::movement::model::TableRound;
use crate::limits::MAX_MOVEMENT_NUMBER;

/// Where a half-set (set, half) was first seen: its boards, round and table.
pub(super) type HalfFirst<'a> = BTreeMap<(u32, u32), (&'a [u32], u32, u32)>;

/// One half-set played in a round: (set, half, slot 0 or 1, table).
pub(super) type HalfPlay = (u32, u32, usize, u32);

/// Checks one half-set table; notes its half-sets (`first`, `plays`) and its (board, set)
/// pairs (`board_sets`).
pub(super) fn check_table<'a>(
    round: u32,
    t: &'a TableRound,
    first: &mut HalfFirst<'a>,
    plays: &mut Vec<HalfPlay>,
    board_sets: &mut Vec<(u32, u32)>,
    out: &mut Vec<Finding>,
) {
    let (rn, tn) = (Some(round), Some(t.table));
    let n = t.half_sets.len();
    if n != 2 {
        out.push(Finding::error(
            rn,
            tn,
            format!("a table plays two half-sets a round; {n} are listed"),
        ));
        return;
    }
    if t.set != t.half_sets[0].set {
        out.push(Finding::error(
            rn,
            tn,
            format!(
                "set {} must be the first half-set's set, {}",
                t.set, t.half_sets[0].set
            ),
        ));
    }
    if t.boards.is_empty() || t.boards.len() % 2 == 1 {
        out.push(Finding::error(
            rn,
            tn,
            format!(
                "{} board(s) do not split evenly between the table's two half-sets",
                t.boards.len()
            ),
        ));
        return;
    }
    let (a, b) = t.boards.split_at(t.boards.len() / 2);
    for (slot, (h, boards)) in t.half_sets.iter().zip([a, b]).enumerate() {
        if h.half != 1 && h.half != 2 {
            out.push(Finding::error(
                rn,
                tn,
                format!("half {} of set {}: a half is 1 or 2", h.half, h.set),
            ));
            continue;
        }
        if h.set == 0 {
            out.push(Finding::error(rn, tn, "set numbers start at 1".to_string()));
            continue;
        }
        if h.set > MAX_MOVEMENT_NUMBER {
            out.push(Finding::error(rn, tn, beyond("set", h.set)));
            continue;
        }
        match first.get(&(h.set, h.half)) {
            Some((seen, r0, t0)) if *seen != boards => out.push(Finding::error(
                rn,
                tn,
                format!(
                    "half {} of set {} holds boards {} here but {} at round {} table {}",
                    h.half,
                    h.set,
                    fmt_list(boards),
                    fmt_list(seen),
                    r0,
                    t0
                ),
            )),
            Some(_) => {}
            None => {
                first.insert((h.set, h.half), (boards, round, t.table));
            }
        }
        board_sets.extend(boards.iter().map(|&x| (x, h.set)));
        plays.push((h.set, h.half, slot, t.table));
    }
}

/// Sharing within one round: a half-set at two tables in the same half of the round, or at
/// one table while its whole set is at another (`whole`: set → tables playing it whole).
pub(super) fn check_round(
    round: u32,
    plays: &mut [HalfPlay],
    whole: &BTreeMap<u32, Vec<u32>>,
    out: &mut Vec<Finding>,
) {
    let rn = Some(round);
    plays.sort_unstable();
    for w in plays.windows(2) {
        let ((s, h, slot, t0), (s1, h1, slot1, t1)) = (w[0], w[1]);
        if (s, h, slot) == (s1, h1, slot1) && t0 != t1 {
            out.push(Finding::warning(
                rn,
                Some(t0),
                format!(
                    "half {h} of set {s} is in play at tables {t0} and {t1} in the same half of round {round}: they must share it"
                ),
            ));
        }
    }
    for &(s, h, _, t) in plays.iter() {
        if let Some(tables) = whole.get(&s) {
            out.push(Finding::warning(
                rn,
                Some(t),
                format!(
                    "half {h} of set {s} is in play at table {t} while the whole set is at table {} in round {round}: they must share it",
                    tables[0]
                ),
            ));
        }
    }
}

/// A half-set's boards against its set's where the whole set is played somewhere.
pub(super) fn check_against_sets(
    first: &HalfFirst,
    sets: &BTreeMap<u32, (&[u32], u32, u32)>,
    out: &mut Vec<Finding>,
) {
    for (&(s, h), &(boards, r, t)) in first {
        let Some(&(all, _, _)) = sets.get(&s) else {
            continue;
        };
        if all.len() % 2 == 1 {
            continue;
        }
        let (a, b) = all.split_at(all.len() / 2);
        let want = if h == 1 { a } else { b };
        if want != boards {
            out.push(Finding::error(
                Some(r),
                Some(t),
                format!(
                    "half {h} of set {s} holds boards {}, but set {s} holds {} elsewhere (half {h}: {})",
                    fmt_list(boards),
                    fmt_list(all),
                    fmt_list(want)
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::bridge::movement::howell::howell;
    use crate::engine::bridge::movement::model::{HalfSet, Movement, MovementParams};
    use crate::engine::bridge::movement::validate::{validate, Severity};

    fn three_tables() -> Movement {
        howell(&MovementParams {
            tables: 3,
            boards_per_round: Some(2),
            ..Default::default()
        })
        .unwrap()
    }

    fn findings(m: &Movement, severity: Severity) -> Vec<String> {
        validate(m)
            .into_iter()
            .filter(|f| f.severity == severity)
            .map(|f| f.message)
            .collect()
    }

    #[test]
    fn a_half_set_passed_on_at_half_time_is_clean() {
        let m = three_tables();
        assert!(validate(&m).is_empty(), "{:?}", validate(&m));
        // the layout does pass a half-set from one table to another within a round, or at
        // least plays the two halves of one set at two tables at once
        let apart = m.rounds.iter().any(|r| {
            r.tables.iter().any(|a| {
                r.tables.iter().any(|b| {
                    a.table != b.table
                        && a.half_sets
                            .iter()
                            .any(|h| b.half_sets.iter().any(|k| k.set == h.set))
                })
            })
        });
        assert!(apart);
    }

    #[test]
    fn one_half_set_in_the_same_half_at_two_tables_must_be_shared() {
        let mut m = three_tables();
        let (a, b) = (m.rounds[0].tables[0].clone(), &mut m.rounds[0].tables[1]);
        b.half_sets[0] = a.half_sets[0];
        b.set = a.half_sets[0].set;
        b.boards[..1].copy_from_slice(&a.boards[..1]);
        let w = findings(&m, Severity::Warning);
        assert!(
            w.iter()
                .any(|x| x.contains("in the same half of round 1: they must share it")),
            "{w:?}"
        );
    }

    #[test]
    fn malformed_half_sets_are_errors() {
        type Spoil = fn(&mut Movement);
        let cases: [(Spoil, &str); 5] = [
            (
                |m| m.rounds[0].tables[0].half_sets.truncate(1),
                "a table plays two half-sets a round; 1 are listed",
            ),
            (
                |m| m.rounds[0].tables[0].half_sets[1].half = 3,
                "a half is 1 or 2",
            ),
            (
                |m| m.rounds[0].tables[0].set += 1,
                "must be the first half-set's set",
            ),
            (
                |m| m.rounds[0].tables[0].boards.push(99),
                "do not split evenly",
            ),
            (
                |m| m.rounds[1].tables[0].boards[0] = 99,
                "but [99] at round 2 table 1",
            ),
        ];
        for (spoil, want) in cases {
            let mut m = three_tables();
            spoil(&mut m);
            let e = findings(&m, Severity::Error);
            assert!(e.iter().any(|x| x.contains(want)), "{want}: {e:?}");
        }
    }

    #[test]
    fn a_half_set_must_be_the_half_of_its_whole_set() {
        let mut m = three_tables();
        // table 1 of round 1 plays a whole set 5 whose first half is not the half-set's boards
        let t = &mut m.rounds[0].tables[0];
        let h = HalfSet { set: 5, half: 1 };
        t.half_sets.clear();
        t.set = 5;
        t.boards = vec![10, 9];
        let e = findings(&m, Severity::Error);
        assert!(
            e.iter()
                .any(|x| x.contains(&format!("half {} of set {} holds boards", h.half, h.set))),
            "{e:?}"
        );
    }
}
