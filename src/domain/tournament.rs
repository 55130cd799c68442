//! Tournaments: one director's event of several sections (an Open, a U2000 and a U1600; a
//! bridge club's sections A, B and C). A section is an ordinary event that names its
//! tournament; the tournament's admin token administers every section.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{validate_name, validate_text, GameKind};
use crate::error::{ApiError, FieldError};
use crate::limits::MAX_NAME_CHARS;

/// A new tournament. The answer carries its admin token, shown only once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Autumn Weekend 2026", "start_date": "2026-11-28", "end_date": "2026-11-29",
    "place": "Town Hall, Oxford"
}))]
pub struct NewTournament {
    #[schema(max_length = 200)]
    pub name: String,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    #[schema(max_length = 200)]
    pub place: Option<String>,
    /// Settings of the whole tournament (see docs/api.md); `{}` when absent.
    #[schema(value_type = Option<Object>)]
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
        validate_tournament_settings(self.settings.as_ref())
    }
}

/// A tournament's settings: a JSON object. No setting is known yet, so any key is refused
/// (naming it) rather than silently ignored.
pub fn validate_tournament_settings(settings: Option<&Value>) -> Result<(), ApiError> {
    let Some(settings) = settings else {
        return Ok(());
    };
    let Some(map) = settings.as_object() else {
        return Err(ApiError::invalid("settings", "must be a JSON object"));
    };
    if let Some(key) = map.keys().next() {
        return Err(ApiError::invalid(
            format!("settings.{key}"),
            "is not a setting of a tournament",
        ));
    }
    Ok(())
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
    #[schema(value_type = Object)]
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
