//! The settings of a Swiss section as an event stores them (`event.settings` of format `swiss`),
//! and their translation into the engine's [`SwissSettings`].
//!
//! Every key is optional; an absent key takes the seed-001 default (WinTD's defaults).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::engine::chess::swiss::accel::AccelerationMethod;
use crate::engine::chess::swiss::{
    Colour, ColourRule, PairingSystem, SwissSettings, TeamAvoidance,
};
use crate::engine::chess::tiebreak_order::{TiebreakOrder, TiebreakRules};
use crate::error::{ApiError, FieldError};
use crate::limits::{MAX_PROHIBITED_PAIRS, MAX_RATING, MAX_ROUNDS};

/// Settings of a `swiss` event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rounds": 5, "colour_rule": "3a", "team_avoidance": "avoid", "seed": 42}))]
pub struct SwissSection {
    /// `swiss` (top half v bottom half, default) or `adjacent` (1-2, 3-4) under the US rules,
    /// or `fide_dutch`: the FIDE Dutch system (C.04.3), `fide_burstein`: the FIDE Burstein
    /// system (C.04.4.2), `fide_dubov`: the FIDE Dubov system (C.04.4.1), or `fide_lim`: the
    /// FIDE Lim system (C.04.4.3).
    pub system: Option<PairingSystem>,
    /// Colour rule 3: `3a` (default, variation 29I1) or `3b`.
    pub colour_rule: Option<ColourRule>,
    /// Equalisation ("high") limit in rating points, default 200.
    #[schema(value_type = Option<crate::limits::schema::RatingPoints>)]
    pub high_limit: Option<u32>,
    /// Alternation ("low") limit in rating points, default 80; not above `high_limit` (a rule
    /// between the two, refused with 422).
    #[schema(value_type = Option<crate::limits::schema::RatingPoints>)]
    pub low_limit: Option<u32>,
    /// No rating limits on colour corrections ("FIDE style"), default false.
    pub fide_style: Option<bool>,
    /// Same club code (the participant's `club`): `ignore` (default), `avoid`, `avoid_first_n`.
    pub team_avoidance: Option<TeamAvoidance>,
    /// N for `avoid_first_n` (which needs it, at least 1).
    #[schema(value_type = Option<crate::limits::schema::RoundCount>)]
    pub team_avoidance_rounds: Option<u32>,
    /// May two players whose game was forfeited be paired again? Default false.
    pub allow_forfeit_rematch: Option<bool>,
    /// Planned number of rounds (enables the look-ahead and the last-round rules).
    #[schema(value_type = Option<crate::limits::schema::RoundNumber>)]
    pub rounds: Option<u32>,
    /// Seed of every coin flip. Chosen and stored when round 1 is paired if not set.
    #[schema(value_type = Option<crate::limits::schema::Seed>)]
    pub seed: Option<u64>,
    /// Colour of board 1's higher-ranked player in round 1: `white` or `black`; absent = coin flip.
    pub first_colour: Option<Colour>,
    /// Pairs the director prohibits, as participant ids (two different ones each).
    #[schema(max_items = 1000, value_type = Option<Vec<ProhibitedPair>>)]
    pub prohibited_pairs: Option<Vec<[i64; 2]>>,
    /// Tie-break order of the standings: a list of C.07 codes (`BH/C1`, `SB`, `ARO`…) or our
    /// names, or a preset (`fide`, `us`, `round_robin`).
    pub tiebreaks: Option<TiebreakOrder>,
    /// The text of C.07 the tie-breaks follow: `2023` or `2026`; default by the start date
    /// (from 1 March 2026 the 2026 text).
    pub tiebreak_rules: Option<TiebreakRules>,
    /// The rating unrated players count with in rating-based tie-breaks (C.07 art. 10);
    /// without it they are left out of those averages.
    #[schema(minimum = 0, maximum = 4000)]
    pub unrated_rating: Option<u32>,
    /// Acceleration, `fide_dutch` only: `none` (default) or `baku` (the Baku method,
    /// C.04.5.1: virtual points for the first half of the pairing numbers in the first
    /// rounds).
    pub acceleration: Option<AccelerationMethod>,
}

/// Two participant ids the pairing must not put together.
pub struct ProhibitedPair;

impl utoipa::PartialSchema for ProhibitedPair {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::limits::schema::from_json(serde_json::json!({
            "type": "array",
            "description": "Two participant ids the pairing must not put together.",
            "items": {"type": "integer", "format": "int64"},
            "minItems": 2,
            "maxItems": 2
        }))
    }
}

impl ToSchema for ProhibitedPair {}

impl SwissSection {
    /// Parses and checks an event's settings, naming the setting at fault.
    pub fn parse(settings: &Value) -> Result<SwissSection, ApiError> {
        let section: SwissSection = serde_path_to_error::deserialize(settings).map_err(|e| {
            let path = e.path().to_string();
            let message = e.inner().to_string();
            let unknown = message
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split('`').next());
            let field = match (path.as_str(), unknown) {
                (".", Some(key)) => format!("settings.{key}"),
                (".", None) => "settings".to_string(),
                _ => format!("settings.{path}"),
            };
            ApiError::invalid(field, message)
        })?;
        let mut errors = Vec::new();
        let mut bad = |field: &str, message: &str| {
            errors.push(FieldError {
                field: format!("settings.{field}"),
                message: message.into(),
            })
        };
        if let Some(r) = section.rounds {
            if !(1..=MAX_ROUNDS).contains(&r) {
                bad("rounds", &format!("must be between 1 and {MAX_ROUNDS}"));
            }
        }
        if section
            .team_avoidance_rounds
            .is_some_and(|r| r > MAX_ROUNDS)
        {
            bad(
                "team_avoidance_rounds",
                &format!("must be at most {MAX_ROUNDS}"),
            );
        }
        for (field, value) in [
            ("high_limit", section.high_limit),
            ("low_limit", section.low_limit),
        ] {
            if value.is_some_and(|v| v > MAX_RATING) {
                bad(
                    field,
                    &format!("must be at most {MAX_RATING} rating points"),
                );
            }
        }
        if section
            .prohibited_pairs
            .as_ref()
            .is_some_and(|p| p.len() > MAX_PROHIBITED_PAIRS)
        {
            bad(
                "prohibited_pairs",
                &format!("must hold at most {MAX_PROHIBITED_PAIRS} pairs"),
            );
        }
        if let (Some(h), Some(l)) = (section.high_limit, section.low_limit) {
            if l > h {
                bad("low_limit", "must not be above high_limit");
            }
        }
        if section.team_avoidance == Some(TeamAvoidance::AvoidFirstN)
            && section.team_avoidance_rounds.unwrap_or(0) == 0
        {
            bad(
                "team_avoidance_rounds",
                "avoid_first_n needs the number of rounds (at least 1)",
            );
        }
        if section
            .seed
            .is_some_and(|seed| seed > crate::limits::MAX_SEED)
        {
            bad(
                "seed",
                &format!("must be at most {}", crate::limits::MAX_SEED),
            );
        }
        for (i, [a, b]) in section.prohibited_pairs.iter().flatten().enumerate() {
            if a == b {
                bad(
                    &format!("prohibited_pairs[{i}]"),
                    "names the same participant twice",
                );
            }
        }
        if let Some(order) = &section.tiebreaks {
            for (i, message) in order.resolve().err().unwrap_or_default() {
                bad(&format!("tiebreaks[{i}]"), &message);
            }
        }
        if section.unrated_rating.is_some_and(|r| r > MAX_RATING) {
            bad(
                "unrated_rating",
                &format!("must be at most {MAX_RATING} rating points"),
            );
        }
        if section.acceleration == Some(AccelerationMethod::Baku)
            && section.system != Some(PairingSystem::FideDutch)
        {
            bad(
                "acceleration",
                "the Baku acceleration needs system fide_dutch",
            );
        }
        crate::error::check(errors)?;
        Ok(section)
    }

    /// The engine's settings. `start_number` maps participant ids to start numbers; prohibited
    /// pairs naming someone without one (not yet numbered or removed) are left out.
    pub fn engine_settings(&self, seed: u64, start_number: &HashMap<i64, u32>) -> SwissSettings {
        let d = SwissSettings::default();
        SwissSettings {
            system: self.system.unwrap_or(d.system),
            colour_rule: self.colour_rule.unwrap_or(d.colour_rule),
            high_limit: self.high_limit.unwrap_or(d.high_limit),
            low_limit: self.low_limit.unwrap_or(d.low_limit),
            fide_style: self.fide_style.unwrap_or(d.fide_style),
            team_avoidance: self.team_avoidance.unwrap_or(d.team_avoidance),
            team_avoidance_rounds: self.team_avoidance_rounds.unwrap_or(0),
            prohibited_pairs: self
                .prohibited_pairs
                .iter()
                .flatten()
                .filter_map(|[a, b]| Some([*start_number.get(a)?, *start_number.get(b)?]))
                .collect(),
            allow_forfeit_rematch: self.allow_forfeit_rematch.unwrap_or(false),
            total_rounds: self.rounds.unwrap_or(0),
            seed,
            first_colour: self.first_colour,
            acceleration: self.acceleration.unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_the_seed_defaults() {
        let s = SwissSection::parse(&json!({})).unwrap();
        let e = s.engine_settings(7, &HashMap::new());
        assert_eq!(e.high_limit, 200);
        assert_eq!(e.low_limit, 80);
        assert_eq!(e.colour_rule, ColourRule::Rule3a);
        assert_eq!(e.seed, 7);
    }

    #[test]
    fn errors_name_the_setting() {
        let field = |v: Value| match SwissSection::parse(&v).unwrap_err() {
            ApiError::Validation(errs) => errs[0].field.clone(),
            e => panic!("{e:?}"),
        };
        assert_eq!(field(json!({"colour_rule": "3c"})), "settings.colour_rule");
        assert_eq!(field(json!({"round": 5})), "settings.round");
        assert_eq!(field(json!([])), "settings");
        assert_eq!(field(json!({"rounds": 0})), "settings.rounds");
        assert_eq!(
            field(json!({"low_limit": 300, "high_limit": 100})),
            "settings.low_limit"
        );
        assert_eq!(
            field(json!({"prohibited_pairs": [[1, 2], [3, 3]]})),
            "settings.prohibited_pairs[1]"
        );
        assert_eq!(
            field(json!({"team_avoidance": "avoid_first_n"})),
            "settings.team_avoidance_rounds"
        );
        assert_eq!(
            field(json!({"acceleration": "baku"})),
            "settings.acceleration"
        );
        assert_eq!(
            field(json!({"acceleration": "fast", "system": "fide_dutch"})),
            "settings.acceleration"
        );
        assert_eq!(
            field(json!({"tiebreaks": ["BH/C1", "WIN/C1"]})),
            "settings.tiebreaks[1]"
        );
        assert_eq!(
            field(json!({"tiebreak_rules": "2024"})),
            "settings.tiebreak_rules"
        );
        assert_eq!(
            field(json!({"unrated_rating": 5000})),
            "settings.unrated_rating"
        );
        let baku = SwissSection::parse(&json!({"acceleration": "baku", "system": "fide_dutch"}));
        assert_eq!(
            baku.unwrap()
                .engine_settings(0, &HashMap::new())
                .acceleration,
            AccelerationMethod::Baku
        );
    }

    #[test]
    fn prohibited_pairs_map_to_start_numbers() {
        let s = SwissSection::parse(&json!({"prohibited_pairs": [[10, 11], [10, 99]]})).unwrap();
        let numbers = HashMap::from([(10, 1), (11, 2)]);
        assert_eq!(
            s.engine_settings(0, &numbers).prohibited_pairs,
            vec![[1, 2]]
        );
    }
}
