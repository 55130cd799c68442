//! The pairing of a round (Article 3): the bye, then bracket by bracket from the top, the
//! upfloaters and the bracket's pairs each one lexicographic matching (see the module doc of
//! [`super`] for the tiers).

use super::colour::{allocate, allocate_double_swiss, preference, Preference};
use super::{MatchText, TeamFacts, TeamMatch, TeamRoundPairing, TeamSwissError, TeamSwissSettings};
use crate::engine::chess::swiss::dutch::lex::{solve_lex_lazy, LexEdges, LexError, LexStats};
use crate::engine::matching::{BlossomSolver, Edge, MatchingProblem, MatchingSolver};
use std::cmp::Reverse;
use std::collections::HashSet;

impl From<LexError> for TeamSwissError {
    fn from(e: LexError) -> Self {
        TeamSwissError::Solver(format!("{e:?}"))
    }
}

/// The teams and what the rules read of them, by position in the given list.
struct Field<'a> {
    ts: &'a [TeamFacts],
    met: HashSet<(u32, u32)>,
    prefs: Vec<Option<Preference>>,
    s: &'a TeamSwissSettings,
    text: MatchText,
}

impl Field<'_> {
    /// The float criteria apply this round.
    fn floats_count(&self) -> bool {
        !self.s.floats_lapse(self.text)
    }

    /// [C1]: the two may meet.
    fn legal(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.ts[a].tpn, self.ts[b].tpn);
        a != b && !self.met.contains(&(x.min(y), x.max(y)))
    }

    /// A perfect matching of `vs` on legal pairs exists.
    fn pairable(&self, vs: &[usize]) -> Result<bool, TeamSwissError> {
        if vs.len() % 2 == 1 {
            return Ok(false);
        }
        let mut edges = Vec::new();
        for i in 0..vs.len() {
            for j in i + 1..vs.len() {
                if self.legal(vs[i], vs[j]) {
                    edges.push(Edge::new(i, j, 0));
                }
            }
        }
        BlossomSolver
            .solve(&MatchingProblem {
                vertices: vs.len(),
                edges,
            })
            .map(|m| m.is_some())
            .map_err(|e| TeamSwissError::Solver(e.to_string()))
    }
}

/// The lexicographic optimum over `tiers` tiers, every pair in the problem.
fn lex(
    vertices: usize,
    edges: &LexEdges,
    tiers: usize,
    stats: &mut LexStats,
) -> Result<Vec<usize>, TeamSwissError> {
    solve_lex_lazy(
        &BlossomSolver,
        vertices,
        edges,
        tiers,
        None,
        false,
        None,
        None,
        stats,
    )?
    .ok_or(TeamSwissError::Impossible)
}

pub(super) fn pair(
    ts: &[TeamFacts],
    s: &TeamSwissSettings,
    text: MatchText,
) -> Result<TeamRoundPairing, TeamSwissError> {
    let met = ts
        .iter()
        .flat_map(|t| {
            t.opponents
                .iter()
                .map(move |&o| (t.tpn.min(o), t.tpn.max(o)))
        })
        .collect();
    let f = Field {
        ts,
        met,
        prefs: match text {
            MatchText::TeamSwiss => ts.iter().map(|t| preference(t, s)).collect(),
            MatchText::DoubleSwiss => vec![None; ts.len()],
        },
        s,
        text,
    };
    let n = ts.len();
    let mut rem: Vec<usize> = (0..n).collect();
    rem.sort_by_key(|&v| (Reverse(ts[v].score), ts[v].tpn));
    let mut bye = None;
    if n % 2 == 1 {
        // 3.4: eligible, the lowest score, the most matches, the largest TPN; the first whose
        // absence leaves a legal pairing.
        let mut order: Vec<usize> = (0..n).filter(|&v| !ts[v].had_bye).collect();
        order.sort_by_key(|&v| (ts[v].score, Reverse(ts[v].played()), Reverse(ts[v].tpn)));
        for v in order {
            let others: Vec<usize> = rem.iter().copied().filter(|&u| u != v).collect();
            if f.pairable(&others)? {
                bye = Some(v);
                rem = others;
                break;
            }
        }
        if bye.is_none() {
            return Err(TeamSwissError::Impossible);
        }
    }
    if !f.pairable(&rem)? {
        return Err(TeamSwissError::Impossible);
    }
    let mut stats = LexStats::default();
    let mut pairs = Vec::new();
    let mut upfloaters = 0;
    while !rem.is_empty() {
        let top = ts[rem[0]].score;
        let r = rem.iter().take_while(|&&v| ts[v].score == top).count();
        let plain = r % 2 == 0 && f.pairable(&rem[..r])? && f.pairable(&rem[r..])?;
        let bracket: Vec<usize> = if plain {
            rem[..r].to_vec()
        } else {
            let ups = choose_upfloaters(&f, &rem, r, &mut stats)?;
            upfloaters += ups.len();
            rem[..r].iter().copied().chain(ups).collect()
        };
        pairs.extend(pair_bracket(&f, &bracket, r, &mut stats)?);
        let gone: HashSet<usize> = bracket.iter().copied().collect();
        rem.retain(|v| !gone.contains(v));
    }
    let mut matches: Vec<(_, TeamMatch)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (ta, tb) = (&ts[a], &ts[b]);
            let colour = match text {
                MatchText::TeamSwiss => allocate(ta, tb, s),
                MatchText::DoubleSwiss => allocate_double_swiss(ta, tb, s),
            };
            let m = if colour == crate::engine::chess::swiss::Colour::White {
                TeamMatch {
                    white: ta.tpn,
                    black: tb.tpn,
                }
            } else {
                TeamMatch {
                    white: tb.tpn,
                    black: ta.tpn,
                }
            };
            // General Handling Rules 3.6: the higher-ranked one's score, the sum of the
            // scores, the higher-ranked one's TPN.
            let hrp = (Reverse(ta.score), ta.tpn).min((Reverse(tb.score), tb.tpn));
            ((hrp.0, Reverse(ta.score + tb.score), hrp.1), m)
        })
        .collect();
    matches.sort_by_key(|&(key, _)| key);
    Ok(TeamRoundPairing {
        matches: matches.into_iter().map(|(_, m)| m).collect(),
        bye: bye.map(|v| ts[v].tpn),
        upfloaters,
    })
}

/// The upfloaters of the residents `rem[..r]` (3.5), by one lexicographic matching over every
/// team of `rem` (see the module doc for the tiers).
fn choose_upfloaters(
    f: &Field,
    rem: &[usize],
    r: usize,
    stats: &mut LexStats,
) -> Result<Vec<usize>, TeamSwissError> {
    let m = rem.len();
    let ts = f.ts;
    // The lower scores, ascending, and each lower team's tier of [C5].
    let mut levels: Vec<u32> = rem[r..].iter().map(|&v| ts[v].score).collect();
    levels.sort_unstable();
    levels.dedup();
    let level_of = |k: usize| 1 + levels.binary_search(&ts[rem[k]].score).expect("a level");
    let next = levels.last().copied();
    let c6 = 1 + levels.len();
    let c7 = c6 + 1;
    let order0 = c7 + 1;
    // Positions k >= r are already in the order of 3.5.3 (score descending, TPN ascending).
    let tiers = order0 + (m - r);
    let use_c7 = f.floats_count();
    let mut edges = LexEdges::with_capacity(m * m / 2, m * m);
    let mut t: Vec<(usize, i64)> = Vec::with_capacity(8);
    for a in 0..m {
        for b in a + 1..m {
            if !f.legal(rem[a], rem[b]) {
                continue;
            }
            t.clear();
            if a < r && b < r {
                // resident–resident: nothing.
            } else if a < r {
                t.push((0, 1));
                t.push((level_of(b), 1));
                if use_c7 && ts[rem[b]].floated {
                    t.push((c7, 1));
                }
            } else {
                // Two lower teams: neither upfloats; the next group's team meeting one below.
                let in_next = |k: usize| Some(ts[rem[k]].score) == next;
                if in_next(a) != in_next(b) {
                    t.push((c6, 1));
                }
                t.push((order0 + (a - r), 1));
                t.push((order0 + (b - r), 1));
            }
            edges.push(a, b, &t);
        }
    }
    let mate = lex(m, &edges, tiers, stats)?;
    Ok((r..m).filter(|&k| mate[k] < r).map(|k| rem[k]).collect())
}

/// Pairs a bracket (3.6): `bracket[..r]` residents, the rest upfloaters. Returns the pairs.
fn pair_bracket(
    f: &Field,
    bracket: &[usize],
    r: usize,
    stats: &mut LexStats,
) -> Result<Vec<(usize, usize)>, TeamSwissError> {
    let ts = f.ts;
    let mut by_tpn: Vec<usize> = (0..bracket.len()).collect();
    by_tpn.sort_by_key(|&k| ts[bracket[k]].tpn);
    let b = bracket.len();
    // Position by TPN, and whether the team is a resident.
    let team = |i: usize| bracket[by_tpn[i]];
    let resident = |i: usize| by_tpn[i] < r;
    let use_c10 = f.floats_count();
    let bottom0 = 3;
    let top0 = 3 + b;
    let mut edges = LexEdges::with_capacity(b * b / 2, 4 * b * b);
    let mut t: Vec<(usize, i64)> = Vec::with_capacity(8);
    for i in 0..b {
        for j in i + 1..b {
            let (x, y) = (team(i), team(j));
            if !f.legal(x, y) || (!resident(i) && !resident(j)) {
                continue;
            }
            t.clear();
            if let (Some(p), Some(q)) = (f.prefs[x], f.prefs[y]) {
                if p.colour == q.colour {
                    t.push((0, 1));
                    if p.strong && q.strong {
                        t.push((1, 1));
                    }
                }
            }
            if use_c10 && resident(i) != resident(j) {
                let res = if resident(i) { x } else { y };
                if ts[res].floated {
                    t.push((2, 1));
                }
            }
            t.push((bottom0 + j, 1));
            t.push((top0 + i, j as i64));
            edges.push(i, j, &t);
        }
    }
    let mate = lex(b, &edges, top0 + b, stats)?;
    Ok((0..b)
        .filter(|&i| mate[i] > i)
        .map(|i| (team(i), team(mate[i])))
        .collect())
}
