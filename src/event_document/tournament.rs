//! A tournament as one JSON document: its own fields and each section as an event document
//! (`super::EventDocument`, ids of each section's own). Tokens are never exported: an import
//! issues a fresh tournament admin token, which administers every imported section.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::EventDocument;
use crate::domain::tournament::{NewTournament, TournamentSettings};
use crate::error::{ApiError, FieldError};

/// The document's `kind`.
pub const KIND: &str = "tourney-tournament";
/// The version of the document's shape.
pub const VERSION: u32 = 1;

/// A tournament's own fields, as a document carries them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentFields {
    #[schema(value_type = crate::limits::schema::Name)]
    pub name: String,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    #[schema(value_type = Option<crate::limits::schema::PlainText>)]
    pub place: Option<String>,
    /// The tournament's settings; `groups[].sections` name sections by their position in the
    /// document's `sections` (1 the first), not by ids.
    #[schema(value_type = Object)]
    pub settings: Value,
}

/// Rewrites each id of `settings.groups[].sections` by `map` (an id the map does not know
/// becomes null, which an import refuses).
pub fn map_group_sections(settings: &mut Value, map: impl Fn(i64) -> Option<i64>) {
    let Some(groups) = settings.get_mut("groups").and_then(Value::as_array_mut) else {
        return;
    };
    for group in groups {
        if let Some(list) = group.get_mut("sections").and_then(Value::as_array_mut) {
            for v in list {
                *v = v.as_i64().and_then(&map).map_or(Value::Null, Value::from);
            }
        }
    }
}

/// [`KIND`] in the OpenAPI document.
pub struct TournamentDocumentKind;

impl utoipa::PartialSchema for TournamentDocumentKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::limits::schema::from_json(serde_json::json!({"type": "string", "enum": [KIND]}))
    }
}

impl ToSchema for TournamentDocumentKind {}

/// [`VERSION`] in the OpenAPI document.
pub struct TournamentDocumentVersion;

impl utoipa::PartialSchema for TournamentDocumentVersion {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::limits::schema::from_json(
            serde_json::json!({"type": "integer", "format": "uint32", "enum": [VERSION]}),
        )
    }
}

impl ToSchema for TournamentDocumentVersion {}

/// An exported tournament.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "tourney-tournament", "version": 1, "schema": 13, "exported_at": "2026-11-29T18:00:00Z", "tournament": {"name": "Autumn Weekend", "start_date": "2026-11-28", "end_date": "2026-11-29", "place": "Town Hall", "settings": {}}, "sections": []}))]
pub struct TournamentDocument {
    /// Always `tourney-tournament`.
    #[schema(value_type = TournamentDocumentKind)]
    pub kind: String,
    /// The document's shape: 1.
    #[schema(value_type = TournamentDocumentVersion)]
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
            settings: None,
        };
        fields.validate().map_err(|e| prefixed("tournament.", e))?;
        let settings = TournamentSettings::parse(Some(&self.tournament.settings))
            .map_err(|e| prefixed("tournament.", e))?;
        let mut faults = Vec::new();
        for (i, g) in settings.groups.iter().enumerate() {
            for (j, p) in g.sections.iter().enumerate() {
                if !(1..=self.sections.len() as i64).contains(p) {
                    faults.push(FieldError {
                        field: format!("tournament.settings.groups[{i}].sections[{j}]"),
                        message: format!(
                            "names a section by its position in sections: 1 to {}",
                            self.sections.len()
                        ),
                    });
                }
            }
        }
        crate::error::check(faults)
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
