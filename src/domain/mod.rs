//! The resources the API serves, defined once and used by both the store and the handlers.

pub mod closed_sets;
mod format;
pub mod section;

pub use format::*;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::engine::chess::tiebreak_order::TiebreakOrder;
use crate::error::{check, ApiError, FieldError};
use crate::limits::schema::{Code, Name, Rating};
use crate::limits::{MAX_CODE_CHARS, MAX_NAME_CHARS, MAX_RATING};

/// How pairing numbers were assigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LotsMethod {
    /// At random, from a recorded seed.
    Random,
    /// By rating, highest first (unrated last, then by entry order).
    Rating,
}

impl LotsMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            LotsMethod::Random => "random",
            LotsMethod::Rating => "rating",
        }
    }
}

/// The record of a drawing of lots.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"method": "random", "seed": 20261122, "drawn_at": "2026-11-22T10:05:00Z"}))]
pub struct Lots {
    pub method: LotsMethod,
    /// The seed the random draw used (reproduce the draw by sending it again).
    pub seed: Option<u64>,
    pub drawn_at: String,
}

/// An event (a tournament section).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": 1, "name": "Club Championship 2026", "game": "chess", "format": "round_robin",
    "start_date": "2026-11-28", "end_date": "2026-11-29", "settings": {},
    "lots": null, "participants": 0, "rounds": 0,
    "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:00Z"
}))]
pub struct Event {
    pub id: i64,
    pub name: String,
    pub game: GameKind,
    #[schema(value_type = crate::domain::closed_sets::EventFormat)]
    pub format: String,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    /// The settings of the event's format (each format's own schema: `SwissSection`,
    /// `PairsSettings`, ...; the document describes an event as one of its formats).
    #[schema(value_type = Object)]
    pub settings: Value,
    /// Set once lots are drawn.
    pub lots: Option<Lots>,
    /// Number of participants (withdrawn included).
    pub participants: u32,
    /// Number of rounds: made so far (chess), of the chosen movement (bridge pairs) or team
    /// movement (bridge teams), or drawn so far (bridge Swiss).
    pub rounds: u32,
    pub created_at: String,
    pub updated_at: String,
}

/// A new event. The answer carries the event's admin token, shown only once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Club Championship 2026", "game": "chess", "format": "round_robin",
    "start_date": "2026-11-28", "end_date": "2026-11-29", "settings": {"tiebreaks": ["direct_encounter", "wins", "sonneborn_berger"]}
}))]
pub struct NewEvent {
    #[schema(value_type = Name)]
    pub name: String,
    pub game: GameKind,
    #[schema(value_type = crate::domain::closed_sets::EventFormat)]
    pub format: String,
    pub start_date: Option<NaiveDate>,
    /// Not before `start_date`.
    pub end_date: Option<NaiveDate>,
    /// The settings of the format (absent or null: its defaults).
    #[schema(value_type = Option<Object>)]
    pub settings: Option<Value>,
}

/// The answer to creating an event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatedEvent {
    #[serde(flatten)]
    pub event: Event,
    /// The event's admin credential (send as `Authorization: Bearer <token>`). Shown once: only its hash is stored.
    pub admin_token: String,
}

/// Changes to an event as a JSON Merge Patch (RFC 7396): a field named changes, `null` removes
/// it (a date; `name` and `format` cannot be removed), a field not named stays as it is.
/// `settings` merge the same way, key by key: `{"settings": {"rounds": 7}}` changes the
/// planned rounds and keeps every other setting, `{"settings": {"seed": null}}` removes the
/// seed (its default applies), `"settings": null` removes them all. Objects inside a setting
/// merge too; a list (`tiebreaks`, `prohibited_pairs`) is replaced whole.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Club Championship 2026 (rapid)", "end_date": null, "settings": {"tiebreaks": ["sonneborn_berger", "wins"]}}))]
pub struct EventPatch {
    #[serde(default, with = "double_option")]
    #[schema(value_type = Name, required = false)]
    pub name: Option<Option<String>>,
    /// Only before lots are drawn.
    #[serde(default, with = "double_option")]
    #[schema(value_type = crate::domain::closed_sets::EventFormat, required = false)]
    pub format: Option<Option<String>>,
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub start_date: Option<Option<NaiveDate>>,
    /// Not before `start_date`.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub end_date: Option<Option<NaiveDate>>,
    /// A merge patch of the settings of the event's format (of the new format when `format`
    /// changes too).
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Object>)]
    pub settings: Option<Option<Value>>,
}

/// Applies a JSON Merge Patch (RFC 7396) to `target`: each key of an object `patch` changes
/// the same key of `target` (merging again when both are objects), a `null` removes the key,
/// keys not named stay; any other `patch` replaces `target` whole.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(changes) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(map) = target {
        for (key, change) in changes {
            if change.is_null() {
                map.remove(key);
            } else {
                merge_patch(map.entry(key.clone()).or_insert(Value::Null), change);
            }
        }
    }
}

/// Distinguishes an absent field (None) from an explicit null (Some(None)).
mod double_option {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, T, D>(d: D) -> Result<Option<Option<T>>, D::Error>
    where
        T: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Option::<T>::deserialize(d).map(Some)
    }
}

/// Whether a participant still takes part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ParticipantStatus {
    Active,
    Withdrawn,
}

/// A player (chess) or a pair (bridge) in an event.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": 7, "event_id": 1, "name": "Carlsen, Magnus", "rating": 2830, "club": "OSL",
    "federation": "NOR", "external_id": "1503014", "pairing_number": 3, "status": "active"
}))]
pub struct Participant {
    pub id: i64,
    pub event_id: i64,
    pub name: String,
    pub rating: Option<i32>,
    /// Club or team code (also used for team-mate avoidance).
    pub club: Option<String>,
    pub federation: Option<String>,
    /// An id from another system (federation id, membership number); unique within the event.
    pub external_id: Option<String>,
    /// Set when lots are drawn.
    pub pairing_number: Option<u32>,
    pub status: ParticipantStatus,
}

/// A new participant.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Carlsen, Magnus", "rating": 2830, "club": "OSL", "federation": "NOR", "external_id": "1503014"}))]
pub struct NewParticipant {
    #[schema(value_type = Name)]
    pub name: String,
    #[schema(value_type = Option<Rating>)]
    pub rating: Option<i32>,
    #[schema(value_type = Option<Code>)]
    pub club: Option<String>,
    #[schema(value_type = Option<Code>)]
    pub federation: Option<String>,
    #[schema(value_type = Option<Code>)]
    pub external_id: Option<String>,
}

/// Changes to a participant as a JSON Merge Patch (RFC 7396): a field named changes, `null`
/// removes it (`rating`, `club`, `federation`, `external_id`; a participant keeps a name),
/// a field not named stays as it is.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rating": 2105, "club": "OXF", "federation": null}))]
pub struct ParticipantPatch {
    #[serde(default, with = "double_option")]
    #[schema(value_type = Name, required = false)]
    pub name: Option<Option<String>>,
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Rating>)]
    pub rating: Option<Option<i32>>,
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Code>)]
    pub club: Option<Option<String>>,
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Code>)]
    pub federation: Option<Option<String>>,
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Code>)]
    pub external_id: Option<Option<String>>,
}

impl NewParticipant {
    /// Checks the values; `at` prefixes field names (e.g. `participants[3].`).
    pub fn validate(&self, at: &str, errors: &mut Vec<FieldError>) {
        validate_name(&format!("{at}name"), &self.name, errors);
        validate_rating(&format!("{at}rating"), self.rating, errors);
        validate_codes(
            at,
            [
                ("club", &self.club),
                ("federation", &self.federation),
                ("external_id", &self.external_id),
            ],
            errors,
        );
    }
}

impl ParticipantPatch {
    /// Checks the values given.
    pub fn validate(&self, errors: &mut Vec<FieldError>) {
        match &self.name {
            Some(Some(name)) => validate_name("name", name, errors),
            Some(None) => errors.push(FieldError {
                field: "name".into(),
                message: "cannot be removed: a participant has a name".into(),
            }),
            None => {}
        }
        validate_rating("rating", self.rating.flatten(), errors);
        let none = None;
        validate_codes(
            "",
            [
                ("club", self.club.as_ref().unwrap_or(&none)),
                ("federation", self.federation.as_ref().unwrap_or(&none)),
                ("external_id", self.external_id.as_ref().unwrap_or(&none)),
            ],
            errors,
        );
    }

    /// Applies the changes to `p` (after [`ParticipantPatch::validate`]).
    pub fn apply(self, p: &mut Participant) {
        if let Some(Some(name)) = self.name {
            p.name = name.trim().to_string();
        }
        if let Some(rating) = self.rating {
            p.rating = rating;
        }
        if let Some(club) = self.club {
            p.club = club;
        }
        if let Some(federation) = self.federation {
            p.federation = federation;
        }
        if let Some(external_id) = self.external_id {
            p.external_id = external_id;
        }
    }
}

fn validate_codes<const N: usize>(
    at: &str,
    codes: [(&str, &Option<String>); N],
    errors: &mut Vec<FieldError>,
) {
    for (field, value) in codes {
        if let Some(v) = value {
            validate_text(&format!("{at}{field}"), v, MAX_CODE_CHARS, errors);
        }
    }
}

/// The one check of every text a client sends (names, codes, labels):
/// [`crate::limits::text_fault`]. Returns whether the text passed.
pub fn validate_text(field: &str, text: &str, max: usize, errors: &mut Vec<FieldError>) -> bool {
    match crate::limits::text_fault(text, max) {
        None => true,
        Some(message) => {
            errors.push(FieldError {
                field: field.into(),
                message,
            });
            false
        }
    }
}

/// A name: not blank, at most [`MAX_NAME_CHARS`] characters, no control characters.
pub fn validate_name(field: &str, name: &str, errors: &mut Vec<FieldError>) {
    if validate_text(field, name, MAX_NAME_CHARS, errors) && name.trim().is_empty() {
        errors.push(FieldError {
            field: field.into(),
            message: "must not be empty".into(),
        });
    }
}

pub fn validate_rating(field: &str, rating: Option<i32>, errors: &mut Vec<FieldError>) {
    if let Some(r) = rating {
        if !(0..=MAX_RATING as i32).contains(&r) {
            errors.push(FieldError {
                field: field.into(),
                message: format!("must be between 0 and {MAX_RATING}"),
            });
        }
    }
}

/// A participant as shown on a pairing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}))]
pub struct Seat {
    pub id: i64,
    pub name: String,
    pub pairing_number: Option<u32>,
    pub rating: Option<i32>,
}

/// A game on a board.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": 12, "board": 1,
    "white": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100},
    "black": {"id": 8, "name": "Hugo", "pairing_number": 8, "rating": 1950},
    "result": "1-0", "white_score": 2.5, "black_score": 2.0
}))]
pub struct Game {
    pub id: i64,
    pub board: u32,
    pub white: Seat,
    pub black: Seat,
    /// `1-0`, `0-1`, `1/2-1/2`, `+/-`, `-/+`, `-/-`, or null while not played.
    pub result: Option<String>,
    /// White's points before this round.
    pub white_score: f64,
    /// Black's points before this round.
    pub black_score: f64,
    /// Team events only: the teams and boards of the two players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<GameTeams>,
}

/// A player's team in a team-event game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"id": 3, "name": "Hastings", "number": 1, "letter": "A", "board": 2}))]
pub struct TeamSide {
    /// Team id.
    pub id: i64,
    pub name: String,
    /// Team number from the draw (1 = team A).
    pub number: Option<u32>,
    /// The table's letter for the team (A, B, C...).
    pub letter: Option<String>,
    /// The player's board in the team (1 = top board).
    pub board: u32,
}

/// The team side of a game in a team event.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"team_board": 2,
    "white": {"id": 3, "name": "Hastings", "number": 3, "letter": "C", "board": 2},
    "black": {"id": 4, "name": "Oxford", "number": 2, "letter": "B", "board": 2}}))]
pub struct GameTeams {
    /// The board of the table the game belongs to: in a Hilton event the board both players
    /// sit on (several games share it); in a Scheveningen match the table's row (the board of
    /// team A's player in odd rounds, of team B's in even rounds, as in seed 000).
    pub team_board: u32,
    pub white: TeamSide,
    pub black: TeamSide,
}

/// A participant without an opponent in a round.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"participant": {"id": 5, "name": "Eve", "pairing_number": 5, "rating": null}, "points": 1.0, "kind": "pairing", "score": 1.0}))]
pub struct Bye {
    pub participant: Seat,
    pub points: f64,
    /// `pairing` (the odd player's bye), `requested` (asked for in advance: 0, ½ or 1 point),
    /// `absent` (a zero-point bye for an absence or a late entry) or `bye` (a round robin's).
    #[schema(value_type = crate::domain::closed_sets::ByeKind)]
    pub kind: String,
    /// The participant's points before this round.
    pub score: f64,
}

/// Whether a round is visible to everyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RoundStatus {
    Draft,
    Published,
}

/// A round with its games.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"number": 1, "status": "published", "games": [
    {"id": 1, "board": 1, "white": {"id": 2, "name": "Ben", "pairing_number": 2, "rating": 1900},
     "black": {"id": 3, "name": "Cleo", "pairing_number": 5, "rating": null}, "result": null,
     "white_score": 0.0, "black_score": 0.0}
], "byes": [{"participant": {"id": 1, "name": "Anna", "pairing_number": 1, "rating": 2100}, "points": 0.0, "kind": "bye", "score": 0.0}]}))]
pub struct Round {
    pub number: u32,
    /// `draft` rounds are seen only with the event's admin token.
    pub status: RoundStatus,
    pub games: Vec<Game>,
    pub byes: Vec<Bye>,
    /// Swiss rounds: why each board is as it is (what it cost, which rules were bent), and
    /// notes; see the Swiss section of the README.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub explanation: Option<Value>,
}

/// A round in a list (without its games).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"number": 3, "status": "published", "games": 4, "results_entered": 2}))]
pub struct RoundSummary {
    pub number: u32,
    pub status: RoundStatus,
    pub games: u32,
    pub results_entered: u32,
}

/// A page of a list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Page<T: ToSchema> {
    pub items: Vec<T>,
    /// Number of items in the whole list.
    pub total: u64,
    pub limit: u32,
    pub offset: u64,
}

/// Checks an event's settings for its format; names the setting at fault.
///
/// Round robins know `tiebreaks`: an ordered list of tie-breaks or a preset name
/// ([`TiebreakOrder`]; default: direct encounter, wins, Sonneborn-Berger). Swiss settings: [`section`] (default
/// tie-breaks: modified median, Solkoff, cumulative).
/// Team formats know `tiebreaks` too (for the individual standings); Hilton also `boards`,
/// the boards per team (every team must field exactly that many; default: the teams' size).
/// Bridge pairs events know `scoring` and `scale` ([`crate::engine::bridge::session`]).
pub fn validate_settings(format: &str, settings: &Value) -> Result<(), ApiError> {
    use crate::engine::bridge::session::read_settings;
    let Some(map) = settings.as_object() else {
        return Err(ApiError::invalid("settings", "must be a JSON object"));
    };
    if format == FORMAT_SWISS {
        return crate::domain::section::SwissSection::parse(settings).map(|_| ());
    }
    if format == FORMAT_PAIRS {
        return crate::engine::bridge::session::ScoringSettings::parse(settings)
            .map(|_| ())
            .map_err(|e| ApiError::invalid(e.field, e.message));
    }
    if format == FORMAT_BRIDGE_TEAMS {
        return crate::engine::bridge::team_event::TeamEventSettings::parse(settings)
            .map(|_| ())
            .map_err(|e| ApiError::invalid(e.field, e.message));
    }
    if is_bridge_swiss(format) {
        use crate::engine::bridge::swiss_event::{Contestants, SwissEventSettings};
        let kind = if format == FORMAT_SWISS_TEAMS {
            Contestants::Teams
        } else {
            Contestants::Pairs
        };
        return SwissEventSettings::parse(settings, kind)
            .map(|_| ())
            .map_err(|e| ApiError::invalid(e.field, e.message));
    }
    if is_round_robin(format) || format == FORMAT_SCHEVENINGEN {
        return read_settings::<TiebreakSettings>(settings)
            .map(|_| ())
            .map_err(|e| ApiError::invalid(e.field, e.message));
    }
    if format == FORMAT_HILTON {
        let hilton = read_settings::<HiltonSettings>(settings)
            .map_err(|e| ApiError::invalid(e.field, e.message))?;
        let max = crate::engine::chess::hilton::MAX_BOARDS;
        if hilton.boards.is_some_and(|n| !(1..=max).contains(&n)) {
            return Err(ApiError::invalid(
                "settings.boards",
                format!(
                    "must be a whole number of boards per team from 1 to {max} (default: the teams' size)"
                ),
            ));
        }
        return Ok(());
    }
    if !map.is_empty() {
        let errors = map
            .keys()
            .map(|key| FieldError {
                field: format!("settings.{key}"),
                message: format!("format {format} has no settings"),
            })
            .collect();
        return check(errors);
    }
    Ok(())
}

/// The settings of a round robin (single or double) or a Scheveningen event.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"tiebreaks": ["direct_encounter", "wins", "sonneborn_berger"]}))]
pub struct TiebreakSettings {
    /// The tie-break order of the standings: a list, or a preset (`fide`, `us`,
    /// `round_robin`); default: direct encounter, wins, Sonneborn-Berger.
    pub tiebreaks: Option<TiebreakOrder>,
}

/// The settings of a Hilton event.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"tiebreaks": "round_robin", "boards": 4}))]
pub struct HiltonSettings {
    /// The tie-break order of the individual standings (as for a round robin).
    pub tiebreaks: Option<TiebreakOrder>,
    /// Boards per team: every team fields exactly that many (default: the teams' size).
    #[schema(value_type = Option<crate::engine::chess::hilton::HiltonBoards>)]
    pub boards: Option<u32>,
}

/// The tie-break order of an event's settings.
pub fn tiebreaks(format: &str, settings: &Value) -> Vec<crate::engine::chess::scoring::Tiebreak> {
    settings
        .get("tiebreaks")
        .and_then(|v| serde_json::from_value::<TiebreakOrder>(v.clone()).ok())
        .map(|order| order.tiebreaks())
        .unwrap_or_else(|| {
            if format == FORMAT_SWISS {
                crate::engine::chess::scoring::SWISS_TIEBREAKS.to_vec()
            } else {
                crate::engine::chess::scoring::DEFAULT_TIEBREAKS.to_vec()
            }
        })
}
