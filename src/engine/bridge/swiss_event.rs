//! A bridge Swiss event (formats `swiss_pairs`, `swiss_teams`; seed 002 "Swiss pairs" and
//! "Swiss teams"): what the next round is drawn from, the tables its matches are
//! played at, and how its matches are scored. The draw itself is `swiss::draw`.
//!
//! # Settings
//! `{"rounds": 7, "round1": "split", "random_seed": 42, "draw": "live", "bye_vps": 12,
//!   "keep_home_tables": false, "boards_per_match": 8}`, all optional:
//! * `rounds`: rounds planned (the draw warns when over-swissed or below the seed's minimum;
//!   no round is drawn beyond it).
//! * `round1`: `split` (1 v N/2+1), `fold` (1 v N) or `random` (from `random_seed`, else the
//!   seed of a random drawing of lots).
//! * `draw`: `live` (round k drawn on the results through round k−1) or `delayed` (through
//!   k−2, the seed's manual draw: rounds 1 and 2 by seeding, round 2 avoiding round 1's
//!   opponents).
//! * `bye_vps`: the VPs of a bye, 0–20 (default 12). The bye goes to the lowest-placed
//!   contestant without one, never twice.
//! * `odd` (Swiss teams): `bye` (default) or `triangle`: an odd number of teams plays a
//!   triangle instead of a bye (`swiss_tables`; `boards_per_match` even).
//! * `boards_per_match` (default 8): round r plays boards (r−1)·b+1 ..= r·b (with triangles
//!   see `swiss_tables`).
//!
//! Contestants are the teams (Swiss teams) or the pairs (Swiss pairs) by their numbers from
//! the drawing of lots, which is also the seeding (lots by rating: the strongest first).
//!
//! # Tables
//! The draw's match table t is played, for teams, at tables 2t−1 (home NS against away EW) and
//! 2t (away NS against home EW) (`swiss_tables`, also the triangle), and, for pairs, at table
//! t (home NS, away EW).
//!
//! # Scoring a match
//! Teams: the IMP margin of the two tables (`team_event`), then WBF VPs. Pairs (`scoring`):
//! Butler (default): each board of the round has a datum (`scoring::imps::butler_datum` of
//! every NS score of the round on that board) and the home pair's IMPs on a board are its score
//! against the datum (as NS: NS score − datum; the away pair gets the opposite); cross-IMPs:
//! its score against every other NS score of the round on the board, averaged. The match's
//! IMPs won and lost are the home pair's positive and negative boards summed (each rounded to
//! a whole IMP), the margin their difference, and the VPs follow on the WBF scale for the
//! match's boards. Either may be entered as
//! IMPs or VPs instead. Standings: VP total (byes their VPs), then the IMP quotient, then the
//! match between two teams still level (`teams::matches::standings`).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::bridge::movement::model::{Movement, PairNumbering, Round, TableRound};
use crate::engine::bridge::scoring::imps::{butler, cross_imps};
use crate::engine::bridge::session::{read_settings, Method, SettingsError};
use crate::engine::bridge::swiss::{Contestant, DrawRequest, OddNumber, Round1};
use crate::engine::bridge::swiss_tables::{team_tables, Layout};
use crate::engine::bridge::team_event::{
    boards_per_match, entered_by_match, match_lines, EnteredMatch, MatchLine, MatchSource,
    TableScore,
};
use crate::engine::bridge::teams::matches::match_from_imps;

/// The rounds drawn so far, which the next draw and the matches' scores are read from.
pub use crate::engine::bridge::swiss_history::{DrawnBye, DrawnMatch, History};

/// Which results a round is drawn on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DrawTiming {
    /// Round k on the results through round k−1.
    #[default]
    Live,
    /// Round k on the results through round k−2 (rounds 1 and 2 by seeding).
    Delayed,
}

/// The default VPs of a bye.
pub const DEFAULT_BYE_VPS: f64 = 12.0;

/// The settings of a bridge Swiss event.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rounds": 7, "boards_per_match": 4, "draw": "live"}))]
pub struct SwissEventSettings {
    /// Rounds planned.
    #[schema(value_type = Option<crate::limits::schema::RoundNumber>)]
    pub rounds: Option<u32>,
    /// How round 1 is drawn: `split` (default), `fold` or `random`.
    #[serde(default)]
    pub round1: Round1,
    /// The seed of a `random` round 1 (chosen and recorded when absent).
    pub random_seed: Option<u64>,
    /// Which results a round is drawn on: `live` (default) or `delayed`.
    #[serde(default)]
    pub draw: DrawTiming,
    /// The VPs of a bye, 0 to 20 in hundredths (default 12).
    #[schema(value_type = Option<ByeVps>)]
    pub bye_vps: Option<f64>,
    /// Matches sit at a contestant's home table when possible.
    #[serde(default)]
    pub keep_home_tables: bool,
    /// Boards of a match.
    #[schema(value_type = Option<crate::engine::bridge::team_event::MatchBoards>)]
    pub boards_per_match: Option<u32>,
    /// An odd number of entries: a `bye` (default) or, for Swiss teams, a `triangle`.
    #[serde(default)]
    pub odd: OddNumber,
    /// Swiss pairs: `butler` (default) or `cross_imps`.
    pub scoring: Option<Method>,
}

crate::limits::schema::number_bound!(
    /// The VPs of a bye (in hundredths).
    ByeVps: 0, 20
);

fn fault(field: &str, message: impl Into<String>) -> SettingsError {
    SettingsError {
        field: field.into(),
        message: message.into(),
    }
}

impl SwissEventSettings {
    /// Reads the settings of an event of `kind`, naming the one at fault.
    pub fn parse(
        settings: &serde_json::Value,
        kind: Contestants,
    ) -> Result<SwissEventSettings, SettingsError> {
        let s: SwissEventSettings = read_settings(settings)?;
        match (s.scoring, kind) {
            (Some(_), Contestants::Teams) => {
                return Err(fault(
                    "settings.scoring",
                    "Swiss teams are scored by the IMPs of their two tables; scoring is for Swiss pairs",
                ))
            }
            (Some(Method::Matchpoints), _) => {
                return Err(fault(
                    "settings.scoring",
                    "Swiss pairs matches are won in IMPs: butler or cross_imps",
                ))
            }
            _ => {}
        }
        if s.odd == OddNumber::Triangle {
            if kind == Contestants::Pairs {
                return Err(fault(
                    "settings.odd",
                    "a triangle is for Swiss teams; Swiss pairs give a bye",
                ));
            }
            if boards_per_match(s.boards_per_match)? % 2 == 1 {
                return Err(fault(
                    "settings.boards_per_match",
                    "a triangle plays two half-matches: give an even number of boards",
                ));
            }
        }
        let max = crate::limits::MAX_ROUNDS;
        if s.rounds.is_some_and(|r| r == 0 || r > max) {
            return Err(fault("settings.rounds", format!("plan 1 to {max} rounds")));
        }
        if let Some(v) = s.bye_vps {
            if !(0.0..=20.0).contains(&v) || ((v * 100.0).round() - v * 100.0).abs() > 1e-6 {
                return Err(fault(
                    "settings.bye_vps",
                    format!("{v} VPs: a bye gives 0 to 20 VPs, in hundredths"),
                ));
            }
        }
        boards_per_match(s.boards_per_match)?;
        Ok(s)
    }

    pub fn bye_vps(&self) -> f64 {
        self.bye_vps.unwrap_or(DEFAULT_BYE_VPS)
    }

    pub fn boards(&self) -> u32 {
        boards_per_match(self.boards_per_match).unwrap_or(1)
    }

    /// How Swiss pairs board results become IMPs (Butler unless set).
    pub fn pairs_scoring(&self) -> Method {
        self.scoring.unwrap_or(Method::Butler)
    }

    /// The boards of the event's rounds.
    pub fn layout(&self) -> Layout {
        Layout {
            boards: self.boards(),
            triangle: self.odd == OddNumber::Triangle,
        }
    }
}

/// Whether the contestants are teams (two tables a match) or pairs (one table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contestants {
    Teams,
    Pairs,
}

/// The tables of the drawn matches in the pair movements' model (contestant numbers as pair
/// numbers, NS and EW different), which board results are checked against.
pub fn as_pair_movement(kind: Contestants, history: &History, layout: Layout) -> Movement {
    let mut rounds: BTreeMap<u32, Vec<TableRound>> = BTreeMap::new();
    match kind {
        Contestants::Teams => {
            for (m, tables) in team_tables(layout, &history.matches) {
                rounds.entry(m.round).or_default().extend(tables);
            }
        }
        Contestants::Pairs => {
            for m in &history.matches {
                rounds.entry(m.round).or_default().push(TableRound {
                    table: m.table,
                    ns: Some(m.home),
                    ew: Some(m.away),
                    set: m.round,
                    boards: layout.round_boards(m.round),
                    arrow_switch: false,
                    section: None,
                    half_sets: Vec::new(),
                });
            }
        }
    }
    let max_table = rounds
        .values()
        .flat_map(|t| t.iter().map(|x| x.table))
        .max()
        .unwrap_or(0);
    Movement {
        kind: "swiss".into(),
        tables: max_table,
        pair_numbering: PairNumbering::Mitchell,
        boards_per_round: layout.boards,
        rounds: rounds
            .into_iter()
            .map(|(round, mut tables)| {
                tables.sort_by_key(|t| t.table);
                Round {
                    round,
                    tables,
                    sit_out: Vec::new(),
                    relay_sets: Vec::new(),
                }
            })
            .collect(),
    }
}

/// A triangle half-match counts half: its VPs on the 20-point scale halved (adding up to 10).
fn halve(line: &mut MatchLine) {
    if let Some(s) = line.score.as_mut() {
        s.vp_home = (s.vp_home * 50.0).round() / 100.0;
        s.vp_away = ((10.0 - s.vp_home) * 100.0).round() / 100.0;
    }
}

/// Every drawn match with its result so far.
pub fn swiss_match_lines(
    kind: Contestants,
    history: &History,
    settings: &SwissEventSettings,
    tables: &[TableScore],
    entered: &[EnteredMatch],
) -> Vec<MatchLine> {
    match kind {
        Contestants::Teams => {
            let placed = team_tables(settings.layout(), &history.matches);
            let schedule: Vec<_> = placed.iter().map(|(m, _)| m.clone()).collect();
            let halves: std::collections::HashSet<(u32, u32, u32)> = history
                .matches
                .iter()
                .filter(|m| m.triangle)
                .map(|m| (m.round, m.home, m.away))
                .collect();
            let mut lines = match_lines(&schedule, tables, entered);
            for line in &mut lines {
                if halves.contains(&(line.round, line.home, line.away)) {
                    line.triangle = true;
                    halve(line);
                }
            }
            lines
        }
        Contestants::Pairs => pairs_lines(
            history,
            settings.layout(),
            settings.pairs_scoring(),
            tables,
            entered,
        ),
    }
}

/// Swiss pairs matches scored by Butler (against the round's datum on each board) or by
/// cross-IMPs (against every other score of the round on the board, averaged).
fn pairs_lines(
    history: &History,
    layout: Layout,
    scoring: Method,
    tables: &[TableScore],
    entered: &[EnteredMatch],
) -> Vec<MatchLine> {
    let mut by_board: HashMap<(u32, u32), Vec<(u32, i32)>> = HashMap::new();
    let mut results: HashMap<(u32, u32), u32> = HashMap::new();
    for t in tables {
        *results.entry((t.round, t.table)).or_default() += 1;
        if let Some(s) = t.ns_score {
            by_board
                .entry((t.round, t.board))
                .or_default()
                .push((t.table, s));
        }
    }
    // Each NS score's IMPs: (round, table, board) → IMPs to the NS pair.
    let mut ns_imps: HashMap<(u32, u32, u32), f64> = HashMap::new();
    for (&(round, board), played) in &by_board {
        let scores: Vec<i32> = played.iter().map(|p| p.1).collect();
        let values = if scoring == Method::CrossImps {
            cross_imps(&scores)
        } else {
            butler(&scores).ns_imps
        };
        for (&(table, _), v) in played.iter().zip(values) {
            ns_imps.insert((round, table, board), v);
        }
    }
    let typed = entered_by_match(entered);
    history
        .matches
        .iter()
        .map(|m| {
            let set = layout.round_boards(m.round);
            let net: Vec<f64> = set
                .iter()
                .filter_map(|&b| ns_imps.get(&(m.round, m.table, b)).copied())
                .collect();
            let (source, score) = match typed.get(&(m.round, m.home, m.away)) {
                Some(e) => (MatchSource::Entered, Some(e.score.clone())),
                None if net.len() == set.len() => {
                    let won = net.iter().map(|&x| x.max(0.0)).sum::<f64>().round() as u32;
                    let lost = net.iter().map(|&x| (-x).max(0.0)).sum::<f64>().round() as u32;
                    match match_from_imps(m.home, m.away, won, lost, layout.boards) {
                        Ok(s) => (MatchSource::Boards, Some(s)),
                        Err(_) => (MatchSource::Incomplete, None),
                    }
                }
                None => (MatchSource::Incomplete, None),
            };
            MatchLine {
                round: m.round,
                home: m.home,
                away: m.away,
                boards: layout.boards,
                results: results.get(&(m.round, m.table)).copied().unwrap_or(0),
                source,
                score,
                triangle: false,
            }
        })
        .collect()
}

/// Why the next round cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotReady(pub String);

/// The draw request for round `next`: contestants (`active` numbers, in seeding order) with
/// their VPs through the round the timing allows, every opponent met and the byes had.
pub fn next_round_request(
    settings: &SwissEventSettings,
    active: &[u32],
    history: &History,
    lines: &[MatchLine],
    next: u32,
    random_seed: Option<u64>,
) -> Result<DrawRequest, NotReady> {
    let through = match settings.draw {
        DrawTiming::Live => next.saturating_sub(1),
        DrawTiming::Delayed => next.saturating_sub(2),
    };
    let missing: Vec<String> = lines
        .iter()
        .filter(|l| l.round <= through && l.score.is_none())
        .map(|l| format!("round {} {} v {}", l.round, l.home, l.away))
        .collect();
    if !missing.is_empty() {
        return Err(NotReady(format!(
            "round {next} is drawn on the results through round {through}; these matches have no result yet: {}",
            missing.join(", ")
        )));
    }
    let mut vps: HashMap<u32, f64> = HashMap::new();
    let mut opponents: HashMap<u32, Vec<u64>> = HashMap::new();
    for l in lines {
        if let (Some(s), true) = (&l.score, l.round <= through) {
            *vps.entry(l.home).or_default() += s.vp_home;
            *vps.entry(l.away).or_default() += s.vp_away;
        }
    }
    for m in &history.matches {
        opponents.entry(m.home).or_default().push(u64::from(m.away));
        opponents.entry(m.away).or_default().push(u64::from(m.home));
    }
    for b in history.byes.iter().filter(|b| b.round <= through) {
        *vps.entry(b.contestant).or_default() += b.vps;
    }
    let home_table = |c: u32| {
        history
            .matches
            .iter()
            .find(|m| m.round == 1 && (m.home == c || m.away == c))
            .map(|m| m.table)
    };
    let contestants = active
        .iter()
        .enumerate()
        .map(|(i, &c)| Contestant {
            id: u64::from(c),
            score: (vps.get(&c).copied().unwrap_or(0.0) * 100.0).round() / 100.0,
            seed: Some(i as u32 + 1),
            opponents: opponents.remove(&c).unwrap_or_default(),
            byes: history.byes.iter().filter(|b| b.contestant == c).count() as u32,
            home_table: home_table(c),
        })
        .collect();
    Ok(DrawRequest {
        contestants,
        round1: settings.round1,
        random_seed: random_seed.or(settings.random_seed),
        rounds: settings.rounds,
        odd: settings.odd,
        keep_home_tables: settings.keep_home_tables,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::vp::victory_points;

    fn history() -> History {
        History {
            matches: vec![
                DrawnMatch {
                    round: 1,
                    table: 1,
                    home: 1,
                    away: 3,
                    triangle: false,
                },
                DrawnMatch {
                    round: 1,
                    table: 2,
                    home: 2,
                    away: 4,
                    triangle: false,
                },
            ],
            byes: vec![DrawnBye {
                round: 1,
                contestant: 5,
                vps: 12.0,
            }],
        }
    }

    #[test]
    fn settings_are_checked() {
        let s = SwissEventSettings::parse(&serde_json::json!({}), Contestants::Teams).unwrap();
        assert_eq!(
            (s.bye_vps(), s.boards(), s.draw),
            (12.0, 8, DrawTiming::Live)
        );
        for (v, field) in [
            (serde_json::json!({"bye_vps": 21}), "settings.bye_vps"),
            (serde_json::json!({"rounds": 0}), "settings.rounds"),
            (serde_json::json!({"draw": "late"}), "settings.draw"),
            (serde_json::json!({"odd": "triangle"}), "settings.odd"),
            (serde_json::json!({"odd": "none"}), "settings.odd"),
        ] {
            assert_eq!(
                SwissEventSettings::parse(&v, Contestants::Pairs)
                    .unwrap_err()
                    .field,
                field,
                "{v}"
            );
        }
        let teams = |v| SwissEventSettings::parse(&v, Contestants::Teams);
        assert!(teams(serde_json::json!({"odd": "triangle"})).is_ok());
        assert_eq!(
            teams(serde_json::json!({"odd": "triangle", "boards_per_match": 7}))
                .unwrap_err()
                .field,
            "settings.boards_per_match"
        );
    }

    fn settings(v: serde_json::Value, kind: Contestants) -> SwissEventSettings {
        SwissEventSettings::parse(&v, kind).unwrap()
    }

    /// Swiss pairs by Butler and by cross-IMPs: two tables, one board.
    #[test]
    fn pairs_matches_by_butler_or_cross_imps() {
        let h = History {
            matches: history().matches,
            byes: Vec::new(),
        };
        let tables = [(1, 420), (2, -100)].map(|(table, s)| TableScore {
            round: 1,
            table,
            board: 1,
            ns_score: Some(s),
        });
        let butler = settings(
            serde_json::json!({"boards_per_match": 1}),
            Contestants::Pairs,
        );
        let lines = swiss_match_lines(Contestants::Pairs, &h, &butler, &tables, &[]);
        // Datum (420 − 100) / 2 = 160 → 260 is 6 IMPs to the home pair of table 1.
        let s = lines[0].score.as_ref().unwrap();
        assert_eq!((s.imps_home, s.imps_away), (6, 0));
        assert_eq!((s.vp_home, s.vp_away), victory_points(6, 1));
        let s = lines[1].score.as_ref().unwrap();
        assert_eq!((s.imps_home, s.imps_away), (0, 6));
        // Cross-IMPs: 420 against −100 is 520, 11 IMPs (one other score to average over).
        let cross = settings(
            serde_json::json!({"boards_per_match": 1, "scoring": "cross_imps"}),
            Contestants::Pairs,
        );
        let lines = swiss_match_lines(Contestants::Pairs, &h, &cross, &tables, &[]);
        let s = lines[0].score.as_ref().unwrap();
        assert_eq!((s.imps_home, s.imps_away), (11, 0));
        assert_eq!((s.vp_home, s.vp_away), victory_points(11, 1));
        assert_eq!(lines[0].results, 1);
        for (v, kind) in [
            (
                serde_json::json!({"scoring": "matchpoints"}),
                Contestants::Pairs,
            ),
            (serde_json::json!({"scoring": "butler"}), Contestants::Teams),
        ] {
            let e = SwissEventSettings::parse(&v, kind).unwrap_err();
            assert_eq!(e.field, "settings.scoring");
        }
    }

    #[test]
    fn the_request_counts_vps_through_the_timing_and_every_opponent() {
        let h = history();
        let two = settings(
            serde_json::json!({"boards_per_match": 2}),
            Contestants::Teams,
        );
        let m = as_pair_movement(Contestants::Teams, &h, two.layout());
        assert_eq!(m.rounds[0].tables.len(), 4);
        assert_eq!(m.rounds[0].tables[1].ns, Some(3));
        let entered = [EnteredMatch {
            round: 1,
            score: crate::engine::bridge::teams::matches::match_from_vps(1, 3, 15.0, 5.0).unwrap(),
        }];
        let lines = swiss_match_lines(Contestants::Teams, &h, &two, &[], &entered);
        let live = SwissEventSettings::parse(&serde_json::json!({}), Contestants::Teams).unwrap();
        let err = next_round_request(&live, &[1, 2, 3, 4, 5], &h, &lines, 2, None).unwrap_err();
        assert!(err.0.contains("round 1 2 v 4"), "{}", err.0);
        let delayed =
            SwissEventSettings::parse(&serde_json::json!({"draw": "delayed"}), Contestants::Teams)
                .unwrap();
        let req = next_round_request(&delayed, &[1, 2, 3, 4, 5], &h, &lines, 2, None).unwrap();
        assert!(req.contestants.iter().all(|c| c.score == 0.0));
        assert_eq!(req.contestants[0].opponents, [3]);
        assert_eq!(req.contestants[4].byes, 1);
        let req = next_round_request(&delayed, &[1, 2, 3, 4, 5], &h, &lines, 3, None);
        assert!(req.is_err(), "round 3 needs round 1 complete");
    }
}
