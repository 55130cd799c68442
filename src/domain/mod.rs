//! The resources the API serves, defined once and used by both the store and the handlers.

pub mod closed_sets;
mod format;
pub mod section;
pub mod tournament;

pub use format::*;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use crate::engine::chess::norms::Title;
use crate::engine::chess::tiebreak_order::{AskedTiebreak, TiebreakOrder, TiebreakRules};
use crate::error::{check, ApiError, FieldError};
use crate::limits::schema::{Code, Name, PlainText, Rating};
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

/// What FIDE's reports carry about an event beyond its name and dates (TRF `022` place,
/// `032` federation, `102` chief arbiter, `112` deputy arbiters, `122` time control); every
/// key optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"place": "Oslo", "federation": "NOR", "chief_arbiter": "IA Jane Doe", "deputy_arbiters": ["FA John Roe"], "time_control": "90'/40+30'+30\""}))]
pub struct EventDetails {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<PlainText>)]
    pub place: Option<String>,
    /// The host federation's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Code>)]
    pub federation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<PlainText>)]
    pub chief_arbiter: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<PlainText>, max_items = 20)]
    pub deputy_arbiters: Vec<String>,
    /// The rate of play as written (`90'/40+30'+30"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<PlainText>)]
    pub time_control: Option<String>,
}

impl EventDetails {
    /// Checks every text, naming `details.<key>`.
    pub fn validate(&self, errors: &mut Vec<FieldError>) {
        for (key, value, max) in [
            ("place", &self.place, MAX_NAME_CHARS),
            ("federation", &self.federation, MAX_CODE_CHARS),
            ("chief_arbiter", &self.chief_arbiter, MAX_NAME_CHARS),
            ("time_control", &self.time_control, MAX_NAME_CHARS),
        ] {
            if let Some(v) = value {
                validate_text(&format!("details.{key}"), v, max, errors);
            }
        }
        if self.deputy_arbiters.len() > crate::limits::MAX_DEPUTY_ARBITERS {
            errors.push(FieldError {
                field: "details.deputy_arbiters".into(),
                message: format!(
                    "at most {} deputy arbiters",
                    crate::limits::MAX_DEPUTY_ARBITERS
                ),
            });
        }
        for (i, name) in self.deputy_arbiters.iter().enumerate() {
            validate_text(
                &format!("details.deputy_arbiters[{i}]"),
                name,
                MAX_NAME_CHARS,
                errors,
            );
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == EventDetails::default()
    }
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
    /// Place, federation, arbiters and time control, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<EventDetails>,
    /// The tournament the event is a section of (`/api/v1/tournaments/{id}`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<i64>,
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
    /// Place, federation, arbiters and time control.
    #[serde(default, deserialize_with = "object::optional")]
    pub details: Option<EventDetails>,
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
    /// A merge patch of the details (`null` clears them all; a key set to `null` clears it).
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<EventDetails>)]
    pub details: Option<Option<Value>>,
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

/// A nested object read only from a JSON object: serde would also read a struct from an
/// array of its fields in order (`[null, null]`), which no client means (the body itself is
/// checked the same way in `api::extract::parse_json`).
mod object {
    use serde::de::{DeserializeOwned, Error};
    use serde::{Deserialize, Deserializer};
    use serde_json::Value;

    fn from_object<T: DeserializeOwned, E: Error>(v: Value) -> Result<T, E> {
        match v {
            Value::Object(_) => serde_json::from_value(v).map_err(E::custom),
            _ => Err(E::custom("must be a JSON object")),
        }
    }

    /// An optional object (`null` or absent: none).
    pub fn optional<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        Option::<Value>::deserialize(d)?
            .map(from_object)
            .transpose()
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

/// One of the two players of a bridge pair, as the national body knows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ann Hill", "national_id": "EBU 123456"}))]
pub struct PairPlayer {
    #[schema(value_type = Name)]
    pub name: String,
    /// The player's number with the national body (masterpoints, ranking).
    #[schema(value_type = Option<Code>)]
    pub national_id: Option<String>,
}

/// The most players a pair names.
pub const PAIR_PLAYERS: usize = 2;

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
    /// The person's number with the national body (a chess player, a member of a bridge
    /// team); a bridge pair gives each of its players' in `players`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub national_id: Option<String>,
    /// A bridge pair's two players, each with a name and a national id (USEBIO exports them so
    /// masterpoints reach the right people); empty when not given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PairPlayer>,
    /// Set when lots are drawn.
    pub pairing_number: Option<u32>,
    pub status: ParticipantStatus,
    /// FIDE title (title norms count the opponents' titles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Title>,
    /// `m` or `f` (the women's norms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
    /// The K factor of a junior depends on it (B.02 8.3.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_year: Option<i32>,
    /// The player's FIDE K factor (10, 20 or 40), when the rating and birth year do not tell
    /// it (a newcomer's 40, the 10 kept after reaching 2400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k_factor: Option<u32>,
}

/// A player's sex as FIDE's lists record it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Sex {
    #[serde(rename = "m")]
    Male,
    #[serde(rename = "f")]
    Female,
}

impl Sex {
    pub fn as_str(self) -> &'static str {
        match self {
            Sex::Male => "m",
            Sex::Female => "f",
        }
    }

    /// `m`, `f`, or TRF's `w`.
    pub fn parse(text: &str) -> Option<Sex> {
        match text.trim() {
            "m" | "M" => Some(Sex::Male),
            "f" | "F" | "w" | "W" => Some(Sex::Female),
            _ => None,
        }
    }
}

/// A player's FIDE details, checked once for a new participant and a change alike.
fn validate_fide(
    at: &str,
    birth_year: Option<i32>,
    k_factor: Option<u32>,
    errors: &mut Vec<FieldError>,
) {
    if birth_year.is_some_and(|y| !(1900..=2100).contains(&y)) {
        errors.push(FieldError {
            field: format!("{at}birth_year"),
            message: "must be a year from 1900 to 2100".into(),
        });
    }
    if k_factor.is_some_and(|k| ![10, 20, 40].contains(&k)) {
        errors.push(FieldError {
            field: format!("{at}k_factor"),
            message: "must be 10, 20 or 40 (B.02 8.3.3)".into(),
        });
    }
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
    /// The person's number with the national body.
    #[schema(value_type = Option<Code>)]
    pub national_id: Option<String>,
    /// A bridge pair's players (at most 2), each `{"name", "national_id"}`.
    #[schema(max_items = 2)]
    pub players: Option<Vec<PairPlayer>>,
    pub title: Option<Title>,
    pub sex: Option<Sex>,
    #[schema(minimum = 1900, maximum = 2100)]
    pub birth_year: Option<i32>,
    /// 10, 20 or 40.
    #[schema(value_type = Option<crate::limits::schema::KFactor>)]
    pub k_factor: Option<u32>,
}

/// Changes to a participant as a JSON Merge Patch (RFC 7396): a field named changes, `null`
/// removes it (any field but `name`: a participant keeps a name; `players: null` clears the
/// pair's players), a field not named stays as it is.
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
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<Code>)]
    pub national_id: Option<Option<String>>,
    /// Replaces the pair's players (`[]` or `null` clears them).
    #[serde(default, with = "double_option")]
    #[schema(max_items = 2)]
    pub players: Option<Option<Vec<PairPlayer>>>,
    #[serde(default, with = "double_option")]
    pub title: Option<Option<Title>>,
    #[serde(default, with = "double_option")]
    pub sex: Option<Option<Sex>>,
    #[serde(default, with = "double_option")]
    #[schema(minimum = 1900, maximum = 2100)]
    pub birth_year: Option<Option<i32>>,
    /// 10, 20 or 40.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<crate::limits::schema::KFactor>)]
    pub k_factor: Option<Option<u32>>,
}

/// Checks a pair's players: at most [`PAIR_PLAYERS`], each named, ids bounded.
fn validate_players(at: &str, players: Option<&[PairPlayer]>, errors: &mut Vec<FieldError>) {
    let Some(players) = players else { return };
    if players.len() > PAIR_PLAYERS {
        errors.push(FieldError {
            field: format!("{at}players"),
            message: format!("a pair has at most {PAIR_PLAYERS} players"),
        });
        return;
    }
    for (i, p) in players.iter().enumerate() {
        validate_name(&format!("{at}players[{i}].name"), &p.name, errors);
        if let Some(id) = &p.national_id {
            validate_text(
                &format!("{at}players[{i}].national_id"),
                id,
                MAX_CODE_CHARS,
                errors,
            );
        }
    }
}

impl NewParticipant {
    /// The participant a TRF player line makes (a blank name becomes `Player N`; an unrated
    /// player or a rating of 0 has no rating). The individual and the team Swiss imports both
    /// enter players through it.
    pub fn from_trf_player(
        p: &crate::engine::chess::swiss::SwissPlayer,
        external_id: Option<String>,
        club: Option<String>,
    ) -> NewParticipant {
        NewParticipant {
            name: if p.name.trim().is_empty() {
                format!("Player {}", p.start_number)
            } else {
                p.name.clone()
            },
            rating: (!p.unrated && p.rating > 0).then_some(p.rating as i32),
            club,
            federation: p.federation.clone(),
            external_id,
            national_id: None,
            players: None,
            title: p.title.as_deref().and_then(Title::parse),
            sex: p.sex.as_deref().and_then(Sex::parse),
            birth_year: p
                .birth_date
                .as_deref()
                .and_then(crate::engine::chess::rating::year_of),
            k_factor: None,
        }
    }

    /// Checks the values; `at` prefixes field names (e.g. `participants[3].`).
    pub fn validate(&self, at: &str, errors: &mut Vec<FieldError>) {
        validate_name(&format!("{at}name"), &self.name, errors);
        validate_rating(&format!("{at}rating"), self.rating, errors);
        validate_fide(at, self.birth_year, self.k_factor, errors);
        validate_codes(
            at,
            [
                ("club", &self.club),
                ("federation", &self.federation),
                ("external_id", &self.external_id),
                ("national_id", &self.national_id),
            ],
            errors,
        );
        validate_players(at, self.players.as_deref(), errors);
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
        validate_fide(
            "",
            self.birth_year.flatten(),
            self.k_factor.flatten(),
            errors,
        );
        let none = None;
        validate_codes(
            "",
            [
                ("club", self.club.as_ref().unwrap_or(&none)),
                ("federation", self.federation.as_ref().unwrap_or(&none)),
                ("external_id", self.external_id.as_ref().unwrap_or(&none)),
                ("national_id", self.national_id.as_ref().unwrap_or(&none)),
            ],
            errors,
        );
        validate_players("", self.players.clone().flatten().as_deref(), errors);
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
        if let Some(national_id) = self.national_id {
            p.national_id = national_id;
        }
        if let Some(players) = self.players {
            p.players = players.unwrap_or_default();
        }
        if let Some(title) = self.title {
            p.title = title;
        }
        if let Some(sex) = self.sex {
            p.sex = sex;
        }
        if let Some(birth_year) = self.birth_year {
            p.birth_year = birth_year;
        }
        if let Some(k_factor) = self.k_factor {
            p.k_factor = k_factor;
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
    /// notes; see docs/chess.md, Swiss sections.
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
/// ([`TiebreakOrder`]; default: direct encounter, wins, Sonneborn-Berger), `tiebreak_rules`
/// (`2023` or `2026`) and `unrated_rating`. Swiss settings: [`section`] (default tie-breaks:
/// modified median, Solkoff, cumulative).
/// Team formats know `tiebreaks` too (for the individual standings); Hilton also `boards`,
/// the boards per team (every team must field exactly that many; default: the teams' size).
/// Bridge pairs events know `scoring` and `scale` ([`crate::engine::bridge::session`]).
pub fn validate_settings(format: &str, settings: &Value) -> Result<(), ApiError> {
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
    if format == FORMAT_TEAM_SWISS {
        return TeamSwissEventSettings::parse(settings).map(|_| ());
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
    let known: &[&str] = if is_round_robin(format) || format == FORMAT_SCHEVENINGEN {
        &["tiebreaks", "tiebreak_rules", "unrated_rating"]
    } else if format == FORMAT_HILTON {
        &["tiebreaks", "tiebreak_rules", "unrated_rating", "boards"]
    } else {
        &[]
    };
    let mut errors = Vec::new();
    for key in map.keys() {
        if !known.contains(&key.as_str()) {
            errors.push(FieldError {
                field: format!("settings.{key}"),
                message: if known.is_empty() {
                    format!("format {format} has no settings")
                } else {
                    format!(
                        "unknown setting; format {format} knows: {}",
                        known.join(", ")
                    )
                },
            });
        }
    }
    if let Some(tb) = map.get("tiebreaks").filter(|v| !v.is_null()) {
        match serde_json::from_value::<TiebreakOrder>(tb.clone()) {
            Err(e) => errors.push(FieldError {
                field: "settings.tiebreaks".into(),
                message: e.to_string(),
            }),
            Ok(order) => {
                for (i, message) in order.resolve().err().unwrap_or_default() {
                    errors.push(FieldError {
                        field: format!("settings.tiebreaks[{i}]"),
                        message,
                    });
                }
            }
        }
    }
    if let Some(r) = map.get("tiebreak_rules").filter(|v| !v.is_null()) {
        if serde_json::from_value::<TiebreakRules>(r.clone()).is_err() {
            errors.push(FieldError {
                field: "settings.tiebreak_rules".into(),
                message: "must be \"2023\" or \"2026\" (the text of C.07)".into(),
            });
        }
    }
    if let Some(r) = map.get("unrated_rating").filter(|v| !v.is_null()) {
        if r.as_u64().is_none_or(|r| r > MAX_RATING as u64) {
            errors.push(FieldError {
                field: "settings.unrated_rating".into(),
                message: format!("must be a rating from 0 to {MAX_RATING}"),
            });
        }
    }
    if let Some(b) = map.get("boards").filter(|v| !v.is_null()) {
        let max = crate::engine::chess::hilton::MAX_BOARDS as u64;
        if !b.as_u64().is_some_and(|n| (1..=max).contains(&n)) {
            errors.push(FieldError {
                field: "settings.boards".into(),
                message: format!(
                    "must be a whole number of boards per team from 1 to {max} (default: the teams' size)"
                ),
            });
        }
    }
    check(errors)
}

/// The settings of a round robin (single or double) or a Scheveningen event.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"tiebreaks": ["direct_encounter", "wins", "sonneborn_berger"]}))]
pub struct TiebreakSettings {
    /// The tie-break order of the standings: a list, or a preset (`fide`, `us`,
    /// `round_robin`); default: direct encounter, wins, Sonneborn-Berger.
    pub tiebreaks: Option<TiebreakOrder>,
    /// The text of C.07 the tie-breaks follow: `2023` or `2026`; default by the start date
    /// (from 1 March 2026 the 2026 text).
    pub tiebreak_rules: Option<TiebreakRules>,
    /// The rating unrated players count with in rating-based tie-breaks (C.07 art. 10);
    /// without it they are left out of those averages.
    #[schema(minimum = 0, maximum = 4000)]
    pub unrated_rating: Option<u32>,
}

/// The settings of a Hilton event.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"tiebreaks": "round_robin", "boards": 4}))]
pub struct HiltonSettings {
    /// The tie-break order of the individual standings (as for a round robin).
    pub tiebreaks: Option<TiebreakOrder>,
    /// The text of C.07 the tie-breaks follow: `2023` or `2026`; default by the start date
    /// (from 1 March 2026 the 2026 text).
    pub tiebreak_rules: Option<TiebreakRules>,
    /// The rating unrated players count with in rating-based tie-breaks (C.07 art. 10);
    /// without it they are left out of those averages.
    #[schema(minimum = 0, maximum = 4000)]
    pub unrated_rating: Option<u32>,
    /// Boards per team: every team fields exactly that many (default: the teams' size).
    #[schema(value_type = Option<crate::engine::chess::hilton::HiltonBoards>)]
    pub boards: Option<u32>,
}

/// The most boards of a team Swiss match.
pub const TEAM_SWISS_MAX_BOARDS: u32 = 20;
/// The most rounds of a team Swiss event.
pub const TEAM_SWISS_MAX_ROUNDS: u32 = 30;
/// The most teams of a team Swiss event.
pub const TEAM_SWISS_MAX_TEAMS: u64 = 200;
/// The most reserves a team Swiss team enters beyond its boards.
pub const TEAM_SWISS_MAX_RESERVES: u32 = 5;

/// The settings of a chess team Swiss event (FIDE C.04.6).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"boards": 4, "rounds": 9, "colour_preferences": "type_a", "initial_colour": "white", "primary_score": "match_points", "tiebreaks": ["GP", "BH:MP", "SB:MP"], "tiebreak_rules": "2026"}))]
pub struct TeamSwissEventSettings {
    /// Boards per match: each team lines up this many players a round (default 4). A team
    /// enters these players and up to 5 reserves.
    #[schema(minimum = 1, maximum = 20)]
    pub boards: Option<u32>,
    /// Rounds of the event (default 9).
    #[schema(minimum = 1, maximum = 30)]
    pub rounds: Option<u32>,
    /// The teams' colour preferences (C.04.6 1.7): `type_a` (default), `type_b` or `none`.
    pub colour_preferences: Option<crate::engine::chess::team_swiss::ColourPreferences>,
    /// The colour of the first board of the odd-numbered first-team in round 1 (C.04.6 4.1,
    /// drawn by lot before round 1; default `white`).
    pub initial_colour: Option<crate::engine::chess::swiss::Colour>,
    /// What ranks the teams and makes the scoregroups of the pairing (C.04.6 1.2):
    /// `match_points` (default) or `game_points`; the other score is the secondary one.
    pub primary_score: Option<crate::engine::chess::team_swiss::tiebreak::Score>,
    /// The team tie-breaks after the primary score, in order (C.07 codes: `MP`, `GP`,
    /// `MPvGP`, `BH:MP`, `BH:GP` with `/C1` `/C2` `/M1` `/M2`, `SB:MP`, `SB:GP`, `EMMSB`,
    /// `EMGSB`, `EGMSB`, `EGGSB` with `/C1` `/C2`, `EDE`, `WIN`, `TPN`; any case). Default:
    /// `GP`, `BH:MP`, `SB:MP` with match points primary; `MP`, `BH:GP`, `SB:GP` with game
    /// points primary.
    #[schema(max_items = 12, value_type = Option<Vec<TeamTiebreakCode>>)]
    pub tiebreaks: Option<Vec<String>>,
    /// The text of C.07 the tie-breaks follow for unplayed rounds (art. 16.4): `2023` or
    /// `2026`; by default the text in force on the event's start date.
    pub tiebreak_rules: Option<TiebreakRules>,
}

/// A team tie-break code of C.07 (`BH:MP/C1`, `EMGSB`, `EDE`…), any case.
pub struct TeamTiebreakCode;

impl utoipa::PartialSchema for TeamTiebreakCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A team tie-break: MP, GP, MPvGP, BH:MP, BH:GP (/C1 /C2 /M1 /M2), SB:MP, SB:GP, \
                 EMMSB, EMGSB, EGMSB, EGGSB, ESB:MG… (/C1 /C2), EDE, WIN, TPN; any case.",
            ))
            .pattern(Some(r"^[A-Za-z]{2,5}(:[A-Za-z]{2})?(/[A-Za-z][0-9])*$"))
            .max_length(Some(16))
            .into()
    }
}

impl utoipa::ToSchema for TeamTiebreakCode {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("TeamTiebreakCode")
    }
}

impl TeamSwissEventSettings {
    /// Reads and checks the settings; names the setting at fault.
    pub fn parse(settings: &Value) -> Result<Self, ApiError> {
        if settings.is_null() {
            return Ok(Self::default());
        }
        let parsed: Self = serde_json::from_value(settings.clone())
            .map_err(|e| ApiError::invalid("settings", e.to_string()))?;
        let mut errors = Vec::new();
        if parsed
            .boards
            .is_some_and(|b| !(1..=TEAM_SWISS_MAX_BOARDS).contains(&b))
        {
            errors.push(FieldError {
                field: "settings.boards".into(),
                message: format!("must be from 1 to {TEAM_SWISS_MAX_BOARDS} boards per match"),
            });
        }
        if parsed
            .rounds
            .is_some_and(|r| !(1..=TEAM_SWISS_MAX_ROUNDS).contains(&r))
        {
            errors.push(FieldError {
                field: "settings.rounds".into(),
                message: format!("must be from 1 to {TEAM_SWISS_MAX_ROUNDS} rounds"),
            });
        }
        use crate::engine::chess::team_swiss::tiebreak::{TeamTiebreak, MAX_TEAM_TIEBREAKS};
        if let Some(list) = &parsed.tiebreaks {
            if list.len() > MAX_TEAM_TIEBREAKS {
                errors.push(FieldError {
                    field: "settings.tiebreaks".into(),
                    message: format!("at most {MAX_TEAM_TIEBREAKS} team tie-breaks"),
                });
            }
            for (i, code) in list.iter().enumerate().take(MAX_TEAM_TIEBREAKS) {
                let fault = if code.len() > 16 {
                    Some("at most 16 characters".to_string())
                } else {
                    TeamTiebreak::parse(code).err()
                };
                if let Some(message) = fault {
                    errors.push(FieldError {
                        field: format!("settings.tiebreaks[{i}]"),
                        message,
                    });
                }
            }
        }
        check(errors)?;
        Ok(parsed)
    }

    pub fn boards(&self) -> u32 {
        self.boards.unwrap_or(4)
    }

    pub fn primary_score(&self) -> crate::engine::chess::team_swiss::tiebreak::Score {
        self.primary_score
            .unwrap_or(crate::engine::chess::team_swiss::tiebreak::Score::MatchPoints)
    }

    /// The team tie-breaks asked (checked by [`Self::parse`]), or the default list.
    pub fn team_tiebreaks(&self) -> Vec<crate::engine::chess::team_swiss::tiebreak::TeamTiebreak> {
        use crate::engine::chess::team_swiss::tiebreak::{default_list, TeamTiebreak};
        match &self.tiebreaks {
            Some(list) => list
                .iter()
                .filter_map(|c| TeamTiebreak::parse(c).ok())
                .collect(),
            None => default_list(self.primary_score()),
        }
    }

    pub fn rounds(&self) -> u32 {
        self.rounds.unwrap_or(9)
    }
}

/// The tie-break order of an event's settings.
pub fn tiebreaks(format: &str, settings: &Value) -> Vec<AskedTiebreak> {
    use crate::engine::chess::tiebreak_order::{asked, DEFAULT_TIEBREAKS, SWISS_TIEBREAKS};
    settings
        .get("tiebreaks")
        .and_then(|v| serde_json::from_value::<TiebreakOrder>(v.clone()).ok())
        .and_then(|order| order.resolve().ok())
        .unwrap_or_else(|| {
            if format == FORMAT_SWISS {
                asked(&SWISS_TIEBREAKS)
            } else {
                asked(&DEFAULT_TIEBREAKS)
            }
        })
}

/// The text of C.07 an event's tie-breaks follow: the setting, else by the start date.
pub fn tiebreak_rules(settings: &Value, start: Option<NaiveDate>) -> TiebreakRules {
    let setting = settings
        .get("tiebreak_rules")
        .and_then(|v| serde_json::from_value::<TiebreakRules>(v.clone()).ok());
    TiebreakRules::for_event(setting, start)
}

/// The rating an event gives unrated players in rating-based tie-breaks, if any.
pub fn unrated_rating(settings: &Value) -> Option<i32> {
    settings
        .get("unrated_rating")
        .and_then(Value::as_u64)
        .filter(|&r| r <= MAX_RATING as u64)
        .map(|r| r as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A setting given as `null` is its default, as the schema's optional settings say; a
    /// wrong value still names the setting.
    #[test]
    fn a_null_setting_is_its_default() {
        let null =
            serde_json::json!({"tiebreaks": null, "tiebreak_rules": null, "unrated_rating": null});
        for format in [
            FORMAT_ROUND_ROBIN,
            FORMAT_DOUBLE_ROUND_ROBIN,
            FORMAT_SCHEVENINGEN,
        ] {
            assert!(validate_settings(format, &null).is_ok(), "{format}");
        }
        let mut hilton = null.clone();
        hilton["boards"] = serde_json::Value::Null;
        assert!(validate_settings(FORMAT_HILTON, &hilton).is_ok());
        let wrong = serde_json::json!({"tiebreak_rules": "2024"});
        match validate_settings(FORMAT_ROUND_ROBIN, &wrong) {
            Err(ApiError::Validation(errors)) => {
                assert_eq!(errors[0].field, "settings.tiebreak_rules")
            }
            other => panic!("{other:?}"),
        }
    }
}
