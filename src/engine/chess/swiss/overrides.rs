//! Settings given from outside a state (command-line options, query parameters): one type,
//! one parser, one place where they are applied.

use super::state::{
    err, Colour, ColourRule, PairingSystem, SwissError, SwissSettings, TeamAvoidance,
};
use crate::engine::chess::swiss::accel::AccelerationMethod;
use serde::Deserialize;
use utoipa::IntoParams;

/// Section settings that override those of a state (TRF file or JSON). Every field is
/// optional: what is not given stays as the state says.
///
/// Used as the query parameters of the stateless pairing endpoint and, through
/// [`SettingsOverrides::from_pairs`], by the `tourney pair` / `tourney simulate` options
/// (`--colour-rule 3b` is the pair `colour_rule=3b`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SettingsOverrides {
    /// Natural pairing: `swiss` (top half v bottom half) or `adjacent` (1-2, 3-4); or
    /// `fide_dutch`: the FIDE Dutch system (C.04.3), `fide_burstein`: the FIDE Burstein
    /// system (C.04.4.2), `fide_dubov`: the FIDE Dubov system (C.04.4.1), or `fide_lim`: the
    /// FIDE Lim system (C.04.4.3), instead of the US rules.
    #[param(inline, value_type = Option<PairingSystem>, example = "swiss")]
    pub system: Option<PairingSystem>,
    /// Colour rule 3: `3a` (variation 29I1) or `3b`.
    #[param(inline, value_type = Option<ColourRule>, example = "3a")]
    pub colour_rule: Option<ColourRule>,
    /// Equalisation ("high") limit in rating points (default 200).
    #[param(maximum = 4000)]
    pub high_limit: Option<u32>,
    /// Alternation ("low") limit in rating points (default 80).
    #[param(maximum = 4000)]
    pub low_limit: Option<u32>,
    /// No rating limits ("FIDE style").
    pub fide_style: Option<bool>,
    /// Seed of every coin flip.
    pub seed: Option<u64>,
    /// Planned number of rounds (enables the look-ahead and the last-round rules), 1 to 99.
    #[param(minimum = 1, maximum = 99)]
    pub rounds: Option<u32>,
    /// Team/club codes: `ignore`, `avoid` or `avoid_first_n`.
    #[param(inline, value_type = Option<TeamAvoidance>, example = "avoid")]
    pub team_avoidance: Option<TeamAvoidance>,
    /// N for `avoid_first_n`.
    #[param(maximum = 99)]
    pub team_avoidance_rounds: Option<u32>,
    /// May two players whose game was forfeited meet again?
    pub allow_forfeit_rematch: Option<bool>,
    /// Colour of board 1's higher-ranked player in round 1: `white` or `black`.
    #[param(inline, value_type = Option<Colour>, example = "white")]
    pub first_colour: Option<Colour>,
    /// Acceleration (FIDE Dutch only): `none` or `baku` (the Baku method); a TRF's
    /// `XXA`/`250` records apply unless `baku` is asked for.
    #[param(inline, value_type = Option<AccelerationMethod>, example = "baku")]
    pub acceleration: Option<AccelerationMethod>,
}

impl SettingsOverrides {
    /// Parses `(name, value)` pairs (snake_case names as in the query string) with the same
    /// rules as the query parameters. Errors name the field.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<SettingsOverrides, SwissError> {
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .finish();
        Self::from_query(&query)
    }

    /// Parses a URL query string (`system=adjacent&colour_rule=3b`).
    pub fn from_query(query: &str) -> Result<SettingsOverrides, SwissError> {
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            let field = if path == "." {
                // Unknown field: serde names it in the message.
                inner
                    .split('`')
                    .nth(1)
                    .map_or_else(|| "settings".to_string(), str::to_string)
            } else {
                path
            };
            err(field, inner)
        })
    }

    /// Checks the sizes given (see [`crate::limits`]), naming the parameter.
    fn check(&self) -> Result<(), SwissError> {
        use crate::limits::{MAX_RATING, MAX_ROUNDS};
        if self.rounds.is_some_and(|r| !(1..=MAX_ROUNDS).contains(&r)) {
            return Err(err("rounds", format!("must be between 1 and {MAX_ROUNDS}")));
        }
        if self.team_avoidance_rounds.is_some_and(|r| r > MAX_ROUNDS) {
            return Err(err(
                "team_avoidance_rounds",
                format!("must be at most {MAX_ROUNDS}"),
            ));
        }
        for (field, value) in [
            ("high_limit", self.high_limit),
            ("low_limit", self.low_limit),
        ] {
            if value.is_some_and(|v| v > MAX_RATING) {
                return Err(err(
                    field,
                    format!("must be at most {MAX_RATING} rating points"),
                ));
            }
        }
        Ok(())
    }

    /// Writes the given fields into `settings`, and checks the limits.
    pub fn apply(&self, settings: &mut SwissSettings) -> Result<(), SwissError> {
        self.check()?;
        if let Some(x) = self.system {
            settings.system = x;
        }
        if let Some(x) = self.colour_rule {
            settings.colour_rule = x;
        }
        if let Some(x) = self.high_limit {
            settings.high_limit = x;
        }
        if let Some(x) = self.low_limit {
            settings.low_limit = x;
        }
        if let Some(x) = self.fide_style {
            settings.fide_style = x;
        }
        if let Some(x) = self.seed {
            settings.seed = x;
        }
        if let Some(x) = self.rounds {
            settings.total_rounds = x;
        }
        if let Some(x) = self.team_avoidance {
            settings.team_avoidance = x;
        }
        if let Some(x) = self.team_avoidance_rounds {
            settings.team_avoidance_rounds = x;
        }
        if let Some(x) = self.allow_forfeit_rematch {
            settings.allow_forfeit_rematch = x;
        }
        if self.first_colour.is_some() {
            settings.first_colour = self.first_colour;
        }
        if let Some(x) = self.acceleration {
            settings.acceleration = x;
        }
        if settings.low_limit > settings.high_limit {
            // The low limit is at fault unless only the high one was sent.
            return Err(if self.low_limit.is_some() {
                err("low_limit", "must not be above high_limit")
            } else {
                err("high_limit", "must not be below low_limit")
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn parses_and_applies() {
        let o = SettingsOverrides::from_pairs(&pairs(&[
            ("system", "adjacent"),
            ("colour_rule", "3b"),
            ("high_limit", "150"),
            ("low_limit", "60"),
            ("fide_style", "true"),
            ("seed", "42"),
        ]))
        .unwrap();
        let mut s = SwissSettings::default();
        o.apply(&mut s).unwrap();
        assert_eq!(s.system, PairingSystem::Adjacent);
        assert_eq!(s.colour_rule, ColourRule::Rule3b);
        assert_eq!((s.high_limit, s.low_limit), (150, 60));
        assert!(s.fide_style);
        assert_eq!(s.seed, 42);
        let o = SettingsOverrides::from_query(
            "rounds=7&team_avoidance=avoid_first_n&team_avoidance_rounds=2&allow_forfeit_rematch=true&first_colour=black",
        )
        .unwrap();
        o.apply(&mut s).unwrap();
        assert_eq!(s.total_rounds, 7);
        assert_eq!(s.team_avoidance, TeamAvoidance::AvoidFirstN);
        assert_eq!(s.team_avoidance_rounds, 2);
        assert!(s.allow_forfeit_rematch);
        assert_eq!(s.first_colour, Some(Colour::Black));
        // Nothing given: nothing changes.
        let before = SwissSettings::default();
        let mut s = before.clone();
        SettingsOverrides::from_query("")
            .unwrap()
            .apply(&mut s)
            .unwrap();
        assert_eq!(s, before);
    }

    #[test]
    fn errors_name_the_field() {
        let e = SettingsOverrides::from_query("high_limit=lots").unwrap_err();
        assert_eq!(e.field, "high_limit");
        let e = SettingsOverrides::from_query("colour_rule=3c").unwrap_err();
        assert_eq!(e.field, "colour_rule");
        let e = SettingsOverrides::from_query("sistem=swiss").unwrap_err();
        assert_eq!(e.field, "sistem");
        let o = SettingsOverrides::from_query("low_limit=300").unwrap();
        let e = o.apply(&mut SwissSettings::default()).unwrap_err();
        assert_eq!(e.field, "low_limit");
    }
}
