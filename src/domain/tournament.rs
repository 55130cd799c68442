//! Tournaments: one director's event of several sections (an Open, a U2000 and a U1600; a
//! bridge club's sections A, B and C). A section is an ordinary event that names its
//! tournament; the tournament's admin token administers every section.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{validate_name, validate_text, GameKind};
use crate::error::{ApiError, FieldError};
use crate::limits::schema::{Name, PlainText};
use crate::limits::MAX_NAME_CHARS;

/// A new tournament. The answer carries its admin token, shown only once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Autumn Weekend 2026", "start_date": "2026-11-28", "end_date": "2026-11-29",
    "place": "Town Hall, Oxford"
}))]
pub struct NewTournament {
    #[schema(value_type = Name)]
    pub name: String,
    pub start_date: Option<NaiveDate>,
    /// Not before `start_date`.
    pub end_date: Option<NaiveDate>,
    #[schema(value_type = Option<PlainText>)]
    pub place: Option<String>,
    /// Settings of the whole tournament; `{}` when absent.
    #[schema(value_type = Option<TournamentSettings>)]
    pub settings: Option<Value>,
}

impl NewTournament {
    /// Checks every field, naming the one at fault.
    pub fn validate(&self) -> Result<(), ApiError> {
        let mut errors: Vec<FieldError> = Vec::new();
        validate_name("name", &self.name, &mut errors);
        if let Some(place) = &self.place {
            validate_text("place", place, MAX_NAME_CHARS, &mut errors);
        }
        crate::error::check(errors)?;
        if let (Some(s), Some(e)) = (self.start_date, self.end_date) {
            if e < s {
                return Err(ApiError::invalid(
                    "end_date",
                    "must not be before start_date",
                ));
            }
        }
        let settings = TournamentSettings::parse(self.settings.as_ref())?;
        if !settings.groups.is_empty() {
            return Err(ApiError::invalid(
                "settings.groups",
                "a new tournament has no sections yet: name the groups with PATCH once the sections exist",
            ));
        }
        Ok(())
    }
}

/// A tournament's settings (`settings` of a tournament; every key optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"groups": [{"name": "Tuesday evening", "sections": [7, 8, 9], "across_the_field": true}]}))]
pub struct TournamentSettings {
    /// Every bridge pairs section of the tournament is scored across the field (one field).
    #[serde(default)]
    pub across_the_field: bool,
    /// Named groups of sections (the sections of one session); a group with
    /// `across_the_field` is scored as one field.
    #[serde(default)]
    #[schema(max_items = 50)]
    pub groups: Vec<SectionGroup>,
}

/// A named group of a tournament's sections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionGroup {
    #[schema(value_type = Name)]
    pub name: String,
    /// Ids of sections of the tournament; a section is in one group at most.
    #[schema(max_items = 50)]
    pub sections: Vec<i64>,
    /// The group's sections play the same boards and are scored as one field (bridge pairs
    /// sections only).
    #[serde(default)]
    pub across_the_field: bool,
}

impl TournamentSettings {
    /// Reads and checks a tournament's settings, naming the setting at fault; what needs the
    /// sections (ids, formats) is checked by [`TournamentSettings::check_sections`].
    pub fn parse(settings: Option<&Value>) -> Result<TournamentSettings, ApiError> {
        let Some(settings) = settings else {
            return Ok(TournamentSettings::default());
        };
        if !settings.is_object() {
            return Err(ApiError::invalid("settings", "must be a JSON object"));
        }
        let parsed: TournamentSettings = crate::engine::bridge::session::read_settings(settings)
            .map_err(|e| ApiError::invalid(e.field, e.message))?;
        let most = crate::limits::MAX_TOURNAMENT_SECTIONS;
        if parsed.groups.len() > most {
            return Err(ApiError::invalid(
                "settings.groups",
                format!("at most {most} groups"),
            ));
        }
        let mut errors = Vec::new();
        let mut names = std::collections::HashSet::new();
        let mut seen = std::collections::HashSet::new();
        for (i, g) in parsed.groups.iter().enumerate() {
            let at = format!("settings.groups[{i}]");
            validate_name(&format!("{at}.name"), &g.name, &mut errors);
            if !names.insert(g.name.trim().to_lowercase()) {
                errors.push(FieldError {
                    field: format!("{at}.name"),
                    message: "names another group already".into(),
                });
            }
            if g.sections.len() > most {
                errors.push(FieldError {
                    field: format!("{at}.sections"),
                    message: format!("at most {most} sections"),
                });
                continue;
            }
            for (j, id) in g.sections.iter().enumerate() {
                if !seen.insert(*id) {
                    errors.push(FieldError {
                        field: format!("{at}.sections[{j}]"),
                        message: format!("section {id} is in another group already"),
                    });
                }
            }
            if parsed.across_the_field && g.across_the_field {
                errors.push(FieldError {
                    field: format!("{at}.across_the_field"),
                    message:
                        "the whole tournament is one field already (settings.across_the_field)"
                            .into(),
                });
            }
        }
        crate::error::check(errors)?;
        Ok(parsed)
    }

    /// Checks the groups against the tournament's sections: `sections` holds (id, format) of
    /// each. A group names sections of this tournament only, and a field pairs sections only.
    pub fn check_sections(&self, sections: &[(i64, String)]) -> Result<(), ApiError> {
        let mut errors = Vec::new();
        for (i, g) in self.groups.iter().enumerate() {
            for (j, id) in g.sections.iter().enumerate() {
                let field = format!("settings.groups[{i}].sections[{j}]");
                match sections.iter().find(|(s, _)| s == id) {
                    None => errors.push(FieldError {
                        field,
                        message: format!("event {id} is not a section of this tournament"),
                    }),
                    Some((_, format)) if g.across_the_field && format != super::FORMAT_PAIRS => {
                        errors.push(FieldError {
                            field,
                            message: format!(
                                "section {id} is a {format} event; only pairs sections are scored across the field"
                            ),
                        })
                    }
                    Some(_) => {}
                }
            }
        }
        crate::error::check(errors)
    }

    /// The fields scored across the field: (name, section ids). The whole tournament's pairs
    /// sections (in `pairs_sections` order) when `across_the_field`, else each such group.
    pub fn fields(&self, pairs_sections: &[i64]) -> Vec<(String, Vec<i64>)> {
        if self.across_the_field {
            return vec![("all sections".to_string(), pairs_sections.to_vec())];
        }
        self.groups
            .iter()
            .filter(|g| g.across_the_field)
            .map(|g| (g.name.trim().to_string(), g.sections.clone()))
            .collect()
    }
}

/// Changes to a tournament as a JSON Merge Patch (RFC 7396): a field named changes, `null`
/// removes it (a date, the place; a tournament keeps its name), a field not named stays.
/// `settings` merge key by key (`{"settings": {"across_the_field": true}}` keeps the groups;
/// a list, `groups`, is replaced whole; `"settings": null` removes them all).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"settings": {"groups": [{"name": "Tuesday evening", "sections": [7, 8, 9], "across_the_field": true}]}}))]
pub struct TournamentPatch {
    #[serde(default, with = "super::double_option")]
    #[schema(value_type = Name, required = false)]
    pub name: Option<Option<String>>,
    #[serde(default, with = "super::double_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub start_date: Option<Option<NaiveDate>>,
    /// Not before `start_date`.
    #[serde(default, with = "super::double_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub end_date: Option<Option<NaiveDate>>,
    #[serde(default, with = "super::double_option")]
    #[schema(value_type = Option<PlainText>)]
    pub place: Option<Option<String>>,
    /// A merge patch of the settings.
    #[serde(default, with = "super::double_option")]
    #[schema(value_type = Option<TournamentSettings>)]
    pub settings: Option<Option<Value>>,
}

/// A tournament as listed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": 1, "name": "Autumn Weekend 2026", "start_date": "2026-11-28", "end_date": "2026-11-29",
    "place": "Town Hall, Oxford", "settings": {}, "section_count": 3,
    "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:00Z"
}))]
pub struct Tournament {
    pub id: i64,
    pub name: String,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    pub place: Option<String>,
    #[schema(value_type = TournamentSettings)]
    pub settings: Value,
    /// Number of sections.
    pub section_count: u32,
    pub created_at: String,
    pub updated_at: String,
}

/// The answer to creating a tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatedTournament {
    #[serde(flatten)]
    pub tournament: Tournament,
    /// The tournament's admin credential: it creates sections and administers every one of
    /// them (send as `Authorization: Bearer <token>`). Shown once: only its hash is stored.
    pub admin_token: String,
}

/// Where a section stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SectionState {
    /// No round made and no movement or schedule chosen yet: entries are taken.
    Registration,
    /// Rounds are made (or a movement is chosen) and results are still to come.
    InPlay,
    /// Every planned round is made and every result is in (chess formats and bridge pairs;
    /// other bridge formats stay `in_play`).
    Finished,
}

/// A section as its tournament lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": 4, "name": "U1600", "game": "chess", "format": "swiss", "state": "in_play",
    "rounds": 2, "current_round": 2, "participants": 31, "results": 20
}))]
pub struct SectionSummary {
    pub id: i64,
    pub name: String,
    pub game: GameKind,
    #[schema(value_type = crate::domain::closed_sets::EventFormat)]
    pub format: String,
    pub state: SectionState,
    /// As the event counts them (made so far for chess; of the movement or schedule for bridge).
    pub rounds: u32,
    /// The round in play: the first published round with a game still without a result, else
    /// the last published round (chess); the last round with a result (bridge); none before
    /// play starts.
    pub current_round: Option<u32>,
    /// Number of participants (withdrawn included).
    pub participants: u32,
    /// Results entered: games (chess), board results (bridge pairs) or matches (bridge teams).
    pub results: u32,
}

/// A tournament with its sections.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentDetail {
    #[serde(flatten)]
    pub tournament: Tournament,
    /// In the order they were created.
    pub sections: Vec<SectionSummary>,
}
