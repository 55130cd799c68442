//! A tournament as one JSON document: its own fields and each section as an event document
//! (`super::EventDocument`, ids of each section's own). Tokens are never exported: an import
//! issues a fresh tournament admin token, which administers every imported section.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::EventDocument;
use crate::domain::tournament::NewTournament;
use crate::error::{ApiError, FieldError};

/// The document's `kind`.
pub const KIND: &str = "tourney-tournament";
/// The version of the document's shape.
pub const VERSION: u32 = 1;

/// A tournament's own fields, as a document carries them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentFields {
    #[schema(max_length = 200)]
    pub name: String,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    #[schema(max_length = 200)]
    pub place: Option<String>,
    #[schema(value_type = Object)]
    pub settings: Value,
}

/// An exported tournament.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "tourney-tournament", "version": 1, "schema": 13, "exported_at": "2026-11-29T18:00:00Z", "tournament": {"name": "Autumn Weekend", "start_date": "2026-11-28", "end_date": "2026-11-29", "place": "Town Hall", "settings": {}}, "sections": []}))]
pub struct TournamentDocument {
    /// Always `tourney-tournament`.
    pub kind: String,
    /// The document's shape: 1.
    pub version: u32,
    /// The database schema the sections' rows follow.
    pub schema: u32,
    pub exported_at: String,
    pub tournament: TournamentFields,
    /// Each section as `GET /api/v1/events/{id}/export` writes it, in the tournament's order.
    #[schema(max_items = 50)]
    pub sections: Vec<EventDocument>,
}

impl TournamentDocument {
    /// Checks the document's frame and the tournament's fields (each section is checked as an
    /// event import checks it, by the caller), naming each fault by its JSON path.
    pub fn check(&self, schema: u32) -> Result<(), ApiError> {
        let mut faults = Vec::new();
        let mut add = |field: &str, message: String| {
            faults.push(FieldError {
                field: field.into(),
                message,
            })
        };
        if self.kind != KIND {
            add("kind", format!("must be {KIND:?}"));
        }
        if self.version != VERSION {
            add("version", format!("must be {VERSION}"));
        }
        if self.schema > schema {
            add(
                "schema",
                format!(
                    "this server's database schema is {schema}; the document needs a newer server"
                ),
            );
        }
        let most = crate::limits::MAX_TOURNAMENT_SECTIONS;
        if self.sections.len() > most {
            add(
                "sections",
                format!("a tournament holds at most {most} sections"),
            );
        }
        crate::error::check(faults)?;
        let fields = NewTournament {
            name: self.tournament.name.clone(),
            start_date: self.tournament.start_date,
            end_date: self.tournament.end_date,
            place: self.tournament.place.clone(),
            settings: Some(self.tournament.settings.clone()),
        };
        fields.validate().map_err(|e| prefixed("tournament.", e))
    }
}

/// `e` with every field it names put under `prefix` (`sections[2].` + `tables.games[3].white_id`).
pub fn prefixed(prefix: &str, e: ApiError) -> ApiError {
    let rename = |errors: Vec<FieldError>| {
        errors
            .into_iter()
            .map(|mut f| {
                f.field = format!("{prefix}{}", f.field);
                f
            })
            .collect()
    };
    match e {
        ApiError::Validation(errors) => ApiError::Validation(rename(errors)),
        ApiError::ConflictAt(errors) => ApiError::ConflictAt(rename(errors)),
        ApiError::BadRequest {
            detail,
            field: Some(field),
        } => ApiError::BadRequest {
            detail,
            field: Some(format!("{prefix}{field}")),
        },
        other => other,
    }
}
