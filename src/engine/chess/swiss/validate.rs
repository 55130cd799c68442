//! The checks a Swiss state passes before any system pairs it: first the sizes it may have
//! (see [`crate::limits`]), then its consistency ([`SwissState::validate_history`]).
//!
//! Every number that drives work or enters a cost is bounded here: players, start numbers,
//! rounds (planned, played, asked for), ratings and rating limits, score adjustments, list
//! lengths. With these bounds no tier of the penalty model can overflow (a score difference
//! is at most 2·99 + 2·198 half-points, a rating change at most 4 000), and the look-ahead
//! never sees more than 99 rounds. Texts (names, team codes) are checked as at every other
//! entry: a length and no control characters, so a state can always be written back as TRF;
//! a player's sex, title, federation, FIDE id and birth date at most the width of their TRF
//! column.

use super::state::PairingSystem;
use super::state::{err, RoundResult, SwissError, SwissState};
use crate::limits::{
    text_fault, MAX_ADJUSTMENT_HALF_POINTS, MAX_BURSTEIN_PLAYERS, MAX_CODE_CHARS,
    MAX_DUBOV_PLAYERS, MAX_DUTCH_PLAYERS, MAX_LIM_PLAYERS, MAX_NAME_CHARS, MAX_PROHIBITED_PAIRS,
    MAX_RATING, MAX_ROUNDS, MAX_SECTION_PLAYERS, MAX_START_NUMBER,
};

fn text(field: String, s: &str, max: usize) -> Result<(), SwissError> {
    match text_fault(s, max) {
        Some(message) => Err(err(field, message)),
        None => Ok(()),
    }
}

fn at_most(field: impl Into<String>, value: u64, max: u64, what: &str) -> Result<(), SwissError> {
    if value > max {
        Err(err(field, format!("{what} at most {max}, not {value}")))
    } else {
        Ok(())
    }
}

/// Checks every size of the state against the limits; the error names the field.
pub(crate) fn check(state: &SwissState) -> Result<(), SwissError> {
    let s = &state.settings;
    let rounds = MAX_ROUNDS as u64;
    let rating = MAX_RATING as u64;
    at_most(
        "players",
        state.players.len() as u64,
        MAX_SECTION_PLAYERS as u64,
        "a section has",
    )?;
    if s.system == PairingSystem::FideDutch {
        at_most(
            "players",
            state.players.len() as u64,
            MAX_DUTCH_PLAYERS as u64,
            "a section paired by the FIDE Dutch system has",
        )?;
    }
    if s.system == PairingSystem::FideBurstein {
        at_most(
            "players",
            state.players.len() as u64,
            MAX_BURSTEIN_PLAYERS as u64,
            "a section paired by the FIDE Burstein system has",
        )?;
    }
    if s.system == PairingSystem::FideDubov {
        at_most(
            "players",
            state.players.len() as u64,
            MAX_DUBOV_PLAYERS as u64,
            "a section paired by the FIDE Dubov system has",
        )?;
    }
    if s.system == PairingSystem::FideLim {
        at_most(
            "players",
            state.players.len() as u64,
            MAX_LIM_PLAYERS as u64,
            "a section paired by the FIDE Lim system has",
        )?;
    }
    at_most(
        "settings.total_rounds",
        s.total_rounds.into(),
        rounds,
        "a section has",
    )?;
    at_most(
        "settings.team_avoidance_rounds",
        s.team_avoidance_rounds.into(),
        rounds,
        "rounds:",
    )?;
    at_most(
        "settings.high_limit",
        s.high_limit.into(),
        rating,
        "rating points:",
    )?;
    at_most(
        "settings.low_limit",
        s.low_limit.into(),
        rating,
        "rating points:",
    )?;
    at_most(
        "settings.prohibited_pairs",
        s.prohibited_pairs.len() as u64,
        MAX_PROHIBITED_PAIRS as u64,
        "pairs:",
    )?;
    if let Some(r) = state.round {
        at_most("round", r.into(), rounds, "rounds are numbered")?;
    }
    let players = MAX_SECTION_PLAYERS as u64;
    at_most(
        "requested_byes",
        state.requested_byes.len() as u64,
        players,
        "byes:",
    )?;
    at_most("absent", state.absent.len() as u64, players, "players:")?;
    for (i, p) in state.players.iter().enumerate() {
        let f = |name: &str| format!("players[{i}].{name}");
        at_most(
            f("start_number"),
            p.start_number.into(),
            MAX_START_NUMBER.into(),
            "start numbers are",
        )?;
        at_most(f("rating"), p.rating.into(), rating, "a rating is")?;
        at_most(f("history"), p.history.len() as u64, rounds, "rounds:")?;
        if p.adjustment_half_points.unsigned_abs() > MAX_ADJUSTMENT_HALF_POINTS.unsigned_abs() {
            return Err(err(
                f("adjustment_half_points"),
                format!(
                    "must be between -{MAX_ADJUSTMENT_HALF_POINTS} and {MAX_ADJUSTMENT_HALF_POINTS} half-points"
                ),
            ));
        }
        text(f("name"), &p.name, MAX_NAME_CHARS)?;
        if let Some(team) = &p.team {
            text(f("team"), team, MAX_CODE_CHARS)?;
        }
        // the TRF columns of a player's identity: a value fits its column
        use super::state::{
            TRF_BIRTH_DATE_WIDTH, TRF_FEDERATION_WIDTH, TRF_FIDE_ID_WIDTH, TRF_SEX_WIDTH,
            TRF_TITLE_WIDTH,
        };
        for (name, value, width) in [
            ("sex", &p.sex, TRF_SEX_WIDTH),
            ("title", &p.title, TRF_TITLE_WIDTH),
            ("federation", &p.federation, TRF_FEDERATION_WIDTH),
            ("fide_id", &p.fide_id, TRF_FIDE_ID_WIDTH),
            ("birth_date", &p.birth_date, TRF_BIRTH_DATE_WIDTH),
        ] {
            if let Some(v) = value {
                text(f(name), v, width)?;
            }
        }
    }
    Ok(())
}

impl SwissState {
    /// Checks the state and that the round to pair is within the planned rounds.
    pub fn validate(&self) -> Result<(), SwissError> {
        self.validate_history()?;
        let (round, total) = (self.round_to_pair(), self.settings.total_rounds);
        if round > crate::limits::MAX_ROUNDS {
            return Err(err(
                "round",
                format!(
                    "a section has at most {} rounds; round {round} cannot be paired",
                    crate::limits::MAX_ROUNDS
                ),
            ));
        }
        if total != 0 && round > total {
            return Err(err(
                "round",
                format!(
                    "the section has only {total} rounds (set more rounds to pair round {round})"
                ),
            ));
        }
        Ok(())
    }

    /// Checks the state: its sizes (bounded by [`crate::limits`]), unique start numbers, known opponents, consistent games (both
    /// sides agree on opponent, colours and result), byes of 0/0.5/1, limits.
    pub fn validate_history(&self) -> Result<(), SwissError> {
        use std::collections::HashMap;
        check(self)?;
        let s = &self.settings;
        if s.low_limit > s.high_limit {
            return Err(err("settings.low_limit", "must not be above high_limit"));
        }
        let mut index: HashMap<u32, usize> = HashMap::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.start_number == 0 {
                return Err(err(
                    format!("players[{i}].start_number"),
                    "start numbers begin at 1",
                ));
            }
            if index.insert(p.start_number, i).is_some() {
                return Err(err(
                    format!("players[{i}].start_number"),
                    format!("start number {} appears twice", p.start_number),
                ));
            }
        }
        let played = self.rounds_played();
        let round = self.round_to_pair();
        if round != played + 1 {
            return Err(err(
                "round",
                format!("round {round} cannot be paired after {played} completed rounds"),
            ));
        }
        for (i, p) in self.players.iter().enumerate() {
            for (r, rec) in p.history.iter().enumerate() {
                let f = format!("players[{i}].history[{r}]");
                match (rec.result.has_opponent(), rec.opponent) {
                    (true, None) => {
                        return Err(err(format!("{f}.opponent"), "a game needs an opponent"))
                    }
                    (false, Some(_)) => {
                        return Err(err(format!("{f}.opponent"), "a bye has no opponent"))
                    }
                    _ => {}
                }
                if rec.colour.is_some() && !rec.result.is_played() {
                    // Forfeits and byes give no colour; tolerate a recorded colour on forfeits.
                    if !rec.result.has_opponent() {
                        return Err(err(format!("{f}.colour"), "a bye has no colour"));
                    }
                }
                if rec.result.is_played() && rec.colour.is_none() {
                    return Err(err(format!("{f}.colour"), "a played game needs a colour"));
                }
                let Some(o) = rec.opponent else { continue };
                if o == p.start_number {
                    return Err(err(format!("{f}.opponent"), "a player cannot play himself"));
                }
                let Some(&j) = index.get(&o) else {
                    return Err(err(
                        format!("{f}.opponent"),
                        format!("unknown start number {o}"),
                    ));
                };
                let q = &self.players[j];
                let Some(back) = q.history.get(r) else {
                    return Err(err(
                        format!("{f}.opponent"),
                        format!("player {o} has no record of round {}", r + 1),
                    ));
                };
                if back.opponent != Some(p.start_number) {
                    return Err(err(
                        format!("{f}.opponent"),
                        format!(
                            "player {} is paired with {o} in round {} but {o} is recorded against {}",
                            p.start_number,
                            r + 1,
                            back.opponent.map_or("nobody".to_string(), |x| x.to_string())
                        ),
                    ));
                }
                let consistent = matches!(
                    (rec.result, back.result),
                    (RoundResult::Win, RoundResult::Loss)
                        | (RoundResult::Loss, RoundResult::Win)
                        | (RoundResult::Draw, RoundResult::Draw)
                        | (RoundResult::ForfeitWin, RoundResult::ForfeitLoss)
                        | (RoundResult::ForfeitLoss, RoundResult::ForfeitWin)
                        | (RoundResult::ForfeitLoss, RoundResult::ForfeitLoss)
                );
                if !consistent {
                    return Err(err(
                        format!("{f}.result"),
                        format!(
                            "results of {} and {o} in round {} contradict each other",
                            p.start_number,
                            r + 1
                        ),
                    ));
                }
                if rec.result.is_played() && back.colour == rec.colour {
                    return Err(err(
                        format!("{f}.colour"),
                        format!(
                            "{} and {o} both had the same colour in round {}",
                            p.start_number,
                            r + 1
                        ),
                    ));
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (k, b) in self.requested_byes.iter().enumerate() {
            if !index.contains_key(&b.player) {
                return Err(err(
                    format!("requested_byes[{k}].player"),
                    format!("unknown start number {}", b.player),
                ));
            }
            if !super::state::BYE_POINTS.contains(&b.points) {
                return Err(err(
                    format!("requested_byes[{k}].points"),
                    "a bye is worth 0, 0.5 or 1 point",
                ));
            }
            if !seen.insert(b.player) {
                return Err(err(
                    format!("requested_byes[{k}].player"),
                    "two byes for one player",
                ));
            }
        }
        for (k, a) in self.absent.iter().enumerate() {
            if !index.contains_key(a) {
                return Err(err(
                    format!("absent[{k}]"),
                    format!("unknown start number {a}"),
                ));
            }
        }
        for (k, pp) in s.prohibited_pairs.iter().enumerate() {
            for x in pp {
                if !index.contains_key(x) {
                    return Err(err(
                        format!("settings.prohibited_pairs[{k}]"),
                        format!("unknown start number {x}"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::{SwissPlayer, SwissSettings};
    use super::*;
    use crate::engine::chess::swiss::us::pair_next_round;
    use crate::engine::chess::swiss::ExplanationEntry;
    use crate::engine::matching::BlossomSolver;

    fn players(n: u32) -> Vec<SwissPlayer> {
        (1..=n)
            .map(|sn| SwissPlayer {
                start_number: sn,
                name: format!("P{sn}"),
                rating: 3000 - sn % 2000,
                ..Default::default()
            })
            .collect()
    }

    fn state(n: u32, total_rounds: u32) -> SwissState {
        SwissState {
            settings: SwissSettings {
                total_rounds,
                ..SwissSettings::default()
            },
            players: players(n),
            round: None,
            requested_byes: vec![],
            absent: vec![],
        }
    }

    fn refused(s: &SwissState) -> String {
        pair_next_round(s, &BlossomSolver).unwrap_err().field
    }

    /// The crash of issue 9: a million planned rounds built one look-ahead layer per round
    /// (69 s, 2.1 GB). Now the state is refused before any work.
    #[test]
    fn a_million_rounds_are_refused_before_any_work() {
        assert_eq!(refused(&state(8, 1_000_000)), "settings.total_rounds");
        assert_eq!(refused(&state(8, 100)), "settings.total_rounds");
        assert!(pair_next_round(&state(8, 99), &BlossomSolver).is_ok());
    }

    /// The benchmarked size is accepted, one more player is not.
    #[test]
    fn a_section_holds_the_benchmarked_size() {
        assert!(check(&state(MAX_SECTION_PLAYERS as u32, 9)).is_ok());
        let e = check(&state(MAX_SECTION_PLAYERS as u32 + 1, 9)).unwrap_err();
        assert_eq!(e.field, "players");
    }

    /// The FIDE Dutch engine's memory grows with the square of its largest score group: its
    /// sections stop at MAX_DUTCH_PLAYERS (the section bound), before any work.
    #[test]
    fn a_dutch_section_stops_at_its_own_bound() {
        const { assert!(MAX_DUTCH_PLAYERS <= MAX_SECTION_PLAYERS) };
        let mut s = state(MAX_DUTCH_PLAYERS as u32, 9);
        s.settings.system = PairingSystem::FideDutch;
        assert!(check(&s).is_ok());
        let mut s = state(MAX_DUTCH_PLAYERS as u32 + 1, 9);
        s.settings.system = PairingSystem::FideDutch;
        let e = check(&s).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(
            e.message.contains(&MAX_DUTCH_PLAYERS.to_string()),
            "{}",
            e.message
        );
    }

    /// The Dubov engine's sections stop at MAX_DUBOV_PLAYERS, before any work.
    #[test]
    fn a_dubov_section_stops_at_its_own_bound() {
        let mut s = state(MAX_DUBOV_PLAYERS as u32, 9);
        s.settings.system = PairingSystem::FideDubov;
        assert!(check(&s).is_ok());
        let mut s = state(MAX_DUBOV_PLAYERS as u32 + 1, 9);
        s.settings.system = PairingSystem::FideDubov;
        let e = check(&s).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(e.message.contains("Dubov"), "{}", e.message);
    }

    /// The Lim engine's sections stop at MAX_LIM_PLAYERS, before any work.
    #[test]
    fn a_lim_section_stops_at_its_own_bound() {
        let mut s = state(MAX_LIM_PLAYERS as u32, 9);
        s.settings.system = PairingSystem::FideLim;
        assert!(check(&s).is_ok());
        let mut s = state(MAX_LIM_PLAYERS as u32 + 1, 9);
        s.settings.system = PairingSystem::FideLim;
        let e = check(&s).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(e.message.contains("Lim"), "{}", e.message);
    }

    /// The Burstein engine's groups are complete graphs: its sections stop at
    /// MAX_BURSTEIN_PLAYERS.
    #[test]
    fn a_burstein_section_stops_at_its_own_bound() {
        let mut s = state(MAX_BURSTEIN_PLAYERS as u32, 9);
        s.settings.system = PairingSystem::FideBurstein;
        assert!(check(&s).is_ok());
        let mut s = state(MAX_BURSTEIN_PLAYERS as u32 + 1, 9);
        s.settings.system = PairingSystem::FideBurstein;
        let e = check(&s).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(e.message.contains("Burstein"), "{}", e.message);
    }

    /// More remaining rounds than opponents: the look-ahead builds no layer and says why.
    #[test]
    fn the_look_ahead_is_never_deeper_than_the_opponents_left() {
        let p = pair_next_round(&state(6, 99), &BlossomSolver).unwrap();
        let notes: Vec<&str> = p
            .explanation
            .iter()
            .filter_map(|e| match e {
                ExplanationEntry::Note { message } => Some(message.as_str()),
                _ => None,
            })
            .collect();
        assert!(
            notes
                .iter()
                .any(|n| n.contains("outnumber the 5 opponents")),
            "{notes:?}"
        );
        assert!(!notes
            .iter()
            .any(|n| n.contains("keeps the event completable")));
    }

    /// Integers that entered the cost model unchecked (an adjustment of ±2³¹ overflowed the
    /// score tier) are refused, naming the field.
    #[test]
    fn extreme_integers_are_refused_not_overflowed() {
        for adj in [i32::MAX, i32::MIN, 199, -199] {
            let mut s = state(4, 0);
            s.players[2].adjustment_half_points = adj;
            assert_eq!(refused(&s), "players[2].adjustment_half_points", "{adj}");
        }
        let mut s = state(4, 0);
        s.players[1].adjustment_half_points = -198;
        s.players[3].adjustment_half_points = 198;
        assert!(pair_next_round(&s, &BlossomSolver).is_ok());
        let mut s = state(4, 0);
        s.players[0].rating = u32::MAX;
        assert_eq!(refused(&s), "players[0].rating");
        let mut s = state(4, 0);
        s.players[3].start_number = u32::MAX;
        assert_eq!(refused(&s), "players[3].start_number");
        let mut s = state(4, 0);
        s.settings.high_limit = u32::MAX;
        assert_eq!(refused(&s), "settings.high_limit");
        let mut s = state(4, 0);
        s.round = Some(u32::MAX);
        assert_eq!(refused(&s), "round");
        let mut s = state(4, 0);
        s.players[1].name = "Evil\n001    9      Forged".into();
        assert_eq!(refused(&s), "players[1].name");
        let mut s = state(4, 0);
        s.players[1].team = Some("x".repeat(65));
        assert_eq!(refused(&s), "players[1].team");
    }
}
