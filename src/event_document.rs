//! An event as one JSON document (`GET .../export`, `POST /api/v1/events/import`): its shape,
//! the tables it holds and how their rows name each other, and the checks a document must pass
//! before anything is written. Pure: `store::export` reads and writes the rows.
//!
//! * `tables` holds, per table of [`TABLES`], the event's rows as objects `{column: value}`:
//!   every column except the row's event (implied: the document is one event) and the
//!   server's bookkeeping (the event's `version`). Columns holding JSON text (settings, a
//!   round's details, a movement) are written as JSON values.
//! * Ids are the document's own: each table's rows are numbered 1, 2, ... in the order the
//!   database holds them, and every reference (a game's players, a participant's team, a
//!   prohibited pair in the settings) uses those numbers. So exporting an imported event gives
//!   the same document again (only `exported_at` moves), and a document never reveals or
//!   depends on another database's ids.
//! * Tokens are never exported: an import issues a fresh admin token, like creating an event.
//!
//! A new table holding an event's data is one entry of [`TABLES`] (a test fails while a table
//! of `store::versions::EVENT_TABLES` is missing there).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::error::{ApiError, FieldError};
use crate::limits;

mod json_columns;
pub mod tournament;

/// The document's `kind`.
pub const KIND: &str = "tourney-event";
/// The version of the document's shape (not of the database schema).
pub const VERSION: u32 = 1;

/// [`KIND`] in the OpenAPI document.
pub struct DocumentKind;

impl utoipa::PartialSchema for DocumentKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some([KIND]))
            .into()
    }
}

impl ToSchema for DocumentKind {}

/// [`VERSION`] in the OpenAPI document.
pub struct DocumentVersion;

impl utoipa::PartialSchema for DocumentVersion {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .enum_values(Some([VERSION]))
            .into()
    }
}

impl ToSchema for DocumentVersion {}

/// The `tables` of a document in the OpenAPI document: each table of [`TABLES`] a list of
/// rows (objects), at most its `max_rows`; `events` holds exactly one.
pub struct DocumentTables;

impl utoipa::PartialSchema for DocumentTables {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let properties: Map<String, Value> = TABLES
            .iter()
            .map(|t| {
                let mut rows = serde_json::json!({
                    "type": "array",
                    "items": {"type": "object"},
                    "maxItems": t.max_rows,
                });
                if t.name == "events" {
                    rows["minItems"] = 1.into();
                }
                (t.name.to_string(), rows)
            })
            .collect();
        crate::limits::schema::from_json(serde_json::json!({
            "type": "object",
            "description": "Rows per table; `events` holds the one event. Absent tables have no rows.",
            "required": ["events"],
            "properties": properties,
            "additionalProperties": false
        }))
    }
}

impl ToSchema for DocumentTables {}

/// An exported event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "tourney-event", "version": 1, "schema": 8, "exported_at": "2026-11-22T18:00:00Z", "tables": {"events": [{"id": 1, "name": "Club Championship 2026", "game": "chess", "format": "swiss", "start_date": null, "end_date": null, "settings": {}, "lots_method": null, "lots_seed": null, "lots_drawn_at": null, "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:00Z"}], "participants": []}}))]
pub struct EventDocument {
    /// Always `tourney-event`.
    #[schema(value_type = DocumentKind)]
    pub kind: String,
    /// The document's shape: 1.
    #[schema(value_type = DocumentVersion)]
    pub version: u32,
    /// The database schema the rows follow (migrations applied on the exporting server).
    pub schema: u32,
    pub exported_at: String,
    /// Rows per table (see the module documentation of `event_document`): `events` (exactly
    /// one), `teams`, `participants`, `rounds` (drafts too), `games`, `byes`,
    /// `requested_byes`, `movements`, `board_results`, `deals`, `team_schedules`,
    /// `swiss_draws`, `match_results`. Absent tables have no rows.
    #[schema(value_type = DocumentTables)]
    pub tables: BTreeMap<String, Vec<Map<String, Value>>>,
}

/// What a cell may hold beyond its column's type.
#[derive(Debug, Clone, Copy)]
pub enum Bound {
    /// Text of at most this many characters, no control characters.
    Text(usize),
    /// An integer within these bounds.
    Int(i64, i64),
    /// A number within these bounds.
    Real(f64, f64),
}

/// One table of an event's data and how its rows name other rows.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    /// Rows have an `id`, renumbered in the document.
    pub id: bool,
    /// The column naming the row's event (left out of the document); `None` for `events`.
    pub event_column: Option<&'static str>,
    /// Columns left out (server bookkeeping).
    pub skipped: &'static [&'static str],
    /// Columns holding JSON text, written as JSON values.
    pub json: &'static [&'static str],
    /// Columns holding the id of a row of another table: (column, table).
    pub references: &'static [(&'static str, &'static str)],
    /// Ids inside a JSON column: (column, path with `*` for every element, table).
    pub json_references: &'static [(&'static str, &'static [&'static str], &'static str)],
    pub max_rows: usize,
    pub bounds: &'static [(&'static str, Bound)],
}

const NAME: Bound = Bound::Text(limits::MAX_NAME_CHARS);
const CODE: Bound = Bound::Text(limits::MAX_CODE_CHARS);
/// Results, timestamps, contracts, hands: short texts the server wrote.
const SHORT: Bound = Bound::Text(limits::MAX_CODE_CHARS);
const MOST_GAMES: usize = limits::MAX_PARTICIPANTS * limits::MAX_ROUNDS as usize;
/// A number a table of results or a draw may hold (a team's, a board's, a game's).
const NUMBER: Bound = Bound::Int(1, limits::MAX_PARTICIPANTS as i64);
/// A bridge board or set number.
const BOARD: Bound = Bound::Int(1, limits::MAX_MOVEMENT_NUMBER as i64);
/// Points of a bye: none, a half or a whole.
const BYE_POINTS: Bound = Bound::Real(0.0, 1.0);
/// Victory points of one side of a match (the WBF 20-point scale).
const VPS: Bound = Bound::Real(0.0, 20.0);
/// IMPs of one side of a match, as entering a match allows.
const IMPS: Bound = Bound::Int(0, 9_999);
/// A bridge score from NS's viewpoint.
const SCORE: Bound = Bound::Int(
    -(crate::engine::bridge::scoring::MAX_SCORE as i64),
    crate::engine::bridge::scoring::MAX_SCORE as i64,
);
const MOST_BOARD_RESULTS: usize =
    limits::MAX_MOVEMENT_ROUNDS * limits::MAX_MOVEMENT_TABLES as usize;

/// The tables of an event, in the order they are written (a row's references come first).
pub const TABLES: &[Table] = &[
    Table {
        name: "events",
        id: true,
        event_column: None,
        // the tournament is not part of one event's document (a tournament's document holds
        // its sections)
        skipped: &["version", "tournament_id"],
        json: &["settings"],
        references: &[],
        json_references: &[("settings", &["prohibited_pairs", "*", "*"], "participants")],
        max_rows: 1,
        bounds: &[
            ("name", NAME),
            ("game", SHORT),
            ("format", SHORT),
            ("start_date", SHORT),
            ("end_date", SHORT),
            ("lots_method", SHORT),
            // any: the u64 seed is stored as the i64 of the same bits
            ("lots_seed", Bound::Int(i64::MIN, i64::MAX)),
            ("lots_drawn_at", SHORT),
            ("created_at", SHORT),
            ("updated_at", SHORT),
        ],
    },
    Table {
        name: "teams",
        id: true,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[],
        json_references: &[],
        max_rows: limits::MAX_PARTICIPANTS,
        bounds: &[("name", NAME), ("created_at", SHORT), ("number", NUMBER)],
    },
    Table {
        name: "participants",
        id: true,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[("team_id", "teams")],
        json_references: &[],
        max_rows: limits::MAX_PARTICIPANTS,
        bounds: &[
            ("name", NAME),
            ("rating", Bound::Int(0, limits::MAX_RATING as i64)),
            ("club", CODE),
            ("federation", CODE),
            ("external_id", CODE),
            ("national_id", CODE),
            ("player1_name", NAME),
            ("player1_national_id", CODE),
            ("player2_name", NAME),
            ("player2_national_id", CODE),
            (
                "pairing_number",
                Bound::Int(1, limits::MAX_START_NUMBER as i64),
            ),
            ("status", SHORT),
            ("created_at", SHORT),
            ("team_board", NUMBER),
            ("title", SHORT),
            ("sex", SHORT),
            ("birth_year", Bound::Int(1900, 2100)),
            ("k_factor", Bound::Int(10, 40)),
        ],
    },
    Table {
        name: "rounds",
        id: true,
        event_column: Some("event_id"),
        skipped: &[],
        json: &["details"],
        references: &[],
        json_references: &[],
        max_rows: limits::MAX_MOVEMENT_ROUNDS,
        bounds: &[
            ("number", Bound::Int(1, limits::MAX_MOVEMENT_ROUNDS as i64)),
            ("status", SHORT),
            ("created_at", SHORT),
        ],
    },
    Table {
        name: "games",
        id: true,
        event_column: None,
        skipped: &[],
        json: &[],
        references: &[
            ("round_id", "rounds"),
            ("white_id", "participants"),
            ("black_id", "participants"),
        ],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("result", SHORT),
            ("result_by", SHORT),
            ("result_at", SHORT),
            ("board", NUMBER),
            ("team_board", NUMBER),
        ],
    },
    Table {
        name: "byes",
        id: false,
        event_column: None,
        skipped: &[],
        json: &[],
        references: &[("round_id", "rounds"), ("participant_id", "participants")],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[("kind", SHORT), ("points", BYE_POINTS)],
    },
    Table {
        name: "requested_byes",
        id: true,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[("participant_id", "participants")],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("created_at", SHORT),
            ("round", Bound::Int(1, limits::MAX_ROUNDS as i64)),
            ("points", BYE_POINTS),
        ],
    },
    Table {
        name: "movements",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &["params", "movement"],
        references: &[],
        json_references: &[],
        max_rows: 1,
        bounds: &[("kind", SHORT), ("updated_at", SHORT)],
    },
    Table {
        name: "board_results",
        id: true,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[],
        json_references: &[],
        max_rows: MOST_BOARD_RESULTS,
        bounds: &[
            ("contract", SHORT),
            ("declarer", SHORT),
            ("lead", SHORT),
            ("adjusted", SHORT),
            ("entered_by", SHORT),
            ("entered_at", SHORT),
            ("round", Bound::Int(1, limits::MAX_MOVEMENT_ROUNDS as i64)),
            (
                "table_no",
                Bound::Int(1, limits::MAX_MOVEMENT_TABLES as i64),
            ),
            ("board", BOARD),
            ("ns_pair", Bound::Int(0, limits::MAX_PARTICIPANTS as i64)),
            ("ew_pair", Bound::Int(0, limits::MAX_PARTICIPANTS as i64)),
            ("tricks", Bound::Int(0, 13)),
            ("ns_score", SCORE),
            ("ew_score", SCORE),
        ],
    },
    Table {
        name: "deals",
        id: false,
        event_column: Some("event_id"),
        // the double-dummy table is worked out again from the hands after an import
        skipped: &["dd_tricks"],
        json: &[],
        references: &[],
        json_references: &[],
        max_rows: limits::MAX_MOVEMENT_NUMBER as usize,
        bounds: &[
            ("dealer", SHORT),
            ("vulnerability", SHORT),
            ("north", SHORT),
            ("east", SHORT),
            ("south", SHORT),
            ("west", SHORT),
            ("board", BOARD),
        ],
    },
    Table {
        name: "team_schedules",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &["movement"],
        references: &[],
        json_references: &[],
        max_rows: 1,
        bounds: &[("kind", SHORT), ("updated_at", SHORT)],
    },
    Table {
        name: "swiss_draws",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("round", Bound::Int(1, limits::MAX_ROUNDS as i64)),
            ("table_no", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("home", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("away", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("drawn_at", SHORT),
            ("bye_vps", VPS),
            ("triangle", Bound::Int(0, 1)),
        ],
    },
    Table {
        name: "match_results",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("round", Bound::Int(1, limits::MAX_ROUNDS as i64)),
            ("home", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("away", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("entered_by", SHORT),
            ("entered_at", SHORT),
            ("boards", BOARD),
            ("imps_home", IMPS),
            ("imps_away", IMPS),
            ("vp_home", VPS),
            ("vp_away", VPS),
        ],
    },
    Table {
        name: "team_swiss_matches",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[("white_team", "teams"), ("black_team", "teams")],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("round", Bound::Int(1, limits::MAX_ROUNDS as i64)),
            ("table_no", Bound::Int(1, limits::MAX_PARTICIPANTS as i64)),
            ("paired_at", SHORT),
        ],
    },
    Table {
        name: "team_lineups",
        id: false,
        event_column: Some("event_id"),
        skipped: &[],
        json: &[],
        references: &[("team_id", "teams"), ("participant_id", "participants")],
        json_references: &[],
        max_rows: MOST_GAMES,
        bounds: &[
            ("round", Bound::Int(1, limits::MAX_ROUNDS as i64)),
            ("board", NUMBER),
            ("entered_by", SHORT),
        ],
    },
];

/// Columns given together or not at all: (table, column, column). A team's member has its
/// board in the team.
const TOGETHER: &[(&str, &str, &str)] = &[("participants", "team_id", "team_board")];

/// The table called `name`.
pub fn table(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|t| t.name == name)
}

/// What a column may hold, as the database declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Affinity {
    Integer,
    Real,
    Text,
}

/// A column of a table (from the database's own description).
#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    pub affinity: Affinity,
    /// NOT NULL without a default: a row must give it.
    pub required: bool,
}

/// The columns a document's rows of `table` carry (the table's columns less the event's and
/// the skipped ones).
pub fn document_columns<'c>(table: &Table, columns: &'c [Column]) -> Vec<&'c Column> {
    columns
        .iter()
        .filter(|c| Some(c.name.as_str()) != table.event_column)
        .filter(|c| !table.skipped.contains(&c.name.as_str()))
        .collect()
}

/// Calls `each` on every value found at `path` in `value` (`*`: every element or member).
pub fn visit_path(value: &mut Value, path: &[&str], each: &mut dyn FnMut(&mut Value)) {
    let Some((first, rest)) = path.split_first() else {
        each(value);
        return;
    };
    match (value, *first) {
        (Value::Array(items), "*") => items.iter_mut().for_each(|v| visit_path(v, rest, each)),
        (Value::Object(map), "*") => map.values_mut().for_each(|v| visit_path(v, rest, each)),
        (Value::Object(map), key) => {
            if let Some(v) = map.get_mut(key) {
                visit_path(v, rest, each)
            }
        }
        _ => {}
    }
}

/// At most this many faults are named in one answer.
const MAX_FAULTS: usize = 20;

struct Faults(Vec<FieldError>);

impl Faults {
    fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        if self.0.len() < MAX_FAULTS {
            self.0.push(FieldError {
                field: field.into(),
                message: message.into(),
            });
        }
    }
}

/// Checks a document against the server's tables (`columns`: each table's columns, as the
/// database declares them) before anything is written: its kind and version, the tables and
/// columns it names, each cell's type and bound, the row counts, and that every reference names
/// a row of the document. A 422 names the JSON path of each fault (`tables.games[3].white_id`).
pub fn check(
    document: &EventDocument,
    schema: u32,
    columns: &HashMap<&str, Vec<Column>>,
) -> Result<(), ApiError> {
    let mut faults = Faults(Vec::new());
    if document.kind != KIND {
        faults.add("kind", format!("must be {KIND:?}"));
    }
    if document.version != VERSION {
        faults.add("version", format!("must be {VERSION}"));
    }
    if document.schema > schema {
        faults.add(
            "schema",
            format!("this server's database schema is {schema}; the document needs a newer server"),
        );
    }
    for name in document.tables.keys() {
        if table(name).is_none() {
            faults.add(format!("tables.{name}"), "is not a table of an event");
        }
    }
    let events = document.tables.get("events").map_or(0, Vec::len);
    if events != 1 {
        faults.add(
            "tables.events",
            format!("must hold exactly one event, not {events}"),
        );
    }
    let mut ids: HashMap<&str, HashSet<i64>> = HashMap::new();
    for table in TABLES {
        let rows = document
            .tables
            .get(table.name)
            .map_or(&[][..], Vec::as_slice);
        let at = format!("tables.{}", table.name);
        if rows.len() > table.max_rows {
            faults.add(&at, format!("may hold at most {} rows", table.max_rows));
            continue;
        }
        let Some(declared) = columns.get(table.name) else {
            faults.add(&at, "is not a table of this server");
            continue;
        };
        let known = document_columns(table, declared);
        let seen = ids.entry(table.name).or_default();
        for (i, row) in rows.iter().enumerate() {
            let at = format!("{at}[{i}]");
            check_row(table, row, &known, &at, &mut faults);
            if table.id {
                if let Some(id) = row.get("id").and_then(Value::as_i64) {
                    if !seen.insert(id) {
                        faults.add(
                            format!("{at}.id"),
                            format!("{id} is the id of an earlier row"),
                        );
                    }
                }
            }
        }
    }
    for table in TABLES {
        let rows = document
            .tables
            .get(table.name)
            .map_or(&[][..], Vec::as_slice);
        for (i, row) in rows.iter().enumerate() {
            let at = format!("tables.{}[{i}]", table.name);
            for (column, target) in table.references {
                if let Some(id) = row.get(*column).filter(|v| !v.is_null()) {
                    if !id.as_i64().is_some_and(|id| ids[target].contains(&id)) {
                        faults.add(
                            format!("{at}.{column}"),
                            format!("names no row of {target}"),
                        );
                    }
                }
            }
            for (column, path, target) in table.json_references {
                let Some(mut value) = row.get(*column).cloned() else {
                    continue;
                };
                let mut bad = false;
                visit_path(&mut value, path, &mut |v| {
                    bad |= !v.as_i64().is_some_and(|id| ids[target].contains(&id));
                });
                if bad {
                    faults.add(
                        format!("{at}.{column}.{}", path[0]),
                        format!("names no row of {target}"),
                    );
                }
            }
        }
    }
    match faults.0.is_empty() {
        true => Ok(()),
        false => Err(ApiError::Validation(faults.0)),
    }
}

fn check_row(
    table: &Table,
    row: &Map<String, Value>,
    known: &[&Column],
    at: &str,
    faults: &mut Faults,
) {
    for name in row.keys() {
        if !known.iter().any(|c| &c.name == name) {
            faults.add(
                format!("{at}.{name}"),
                format!("is not a column of {}", table.name),
            );
        }
    }
    let given = |column: &str| row.get(column).is_some_and(|v| !v.is_null());
    for (_, a, b) in TOGETHER.iter().filter(|(t, _, _)| *t == table.name) {
        if given(a) != given(b) {
            let (missing, present) = if given(a) { (b, a) } else { (a, b) };
            faults.add(
                format!("{at}.{missing}"),
                format!("is required with {present}"),
            );
        }
    }
    for column in known {
        let field = format!("{at}.{}", column.name);
        let value = row.get(&column.name).unwrap_or(&Value::Null);
        if value.is_null() {
            if column.required || (table.id && column.name == "id") {
                faults.add(field, "is required");
            }
            continue;
        }
        if table.json.contains(&column.name.as_str()) {
            if let Some(message) = json_columns::fault(table.name, &column.name, value) {
                faults.add(field, message);
            }
            continue;
        }
        let typed = match column.affinity {
            Affinity::Integer => value.is_i64(),
            Affinity::Real => value.is_number(),
            Affinity::Text => value.is_string(),
        };
        if !typed {
            let kind = match column.affinity {
                Affinity::Integer => "an integer",
                Affinity::Real => "a number",
                Affinity::Text => "a string",
            };
            faults.add(field, format!("must be {kind}"));
            continue;
        }
        if table.id && column.name == "id" && value.as_i64().is_some_and(|id| id < 1) {
            faults.add(field, "must be at least 1");
            continue;
        }
        let bound = table
            .bounds
            .iter()
            .find(|(c, _)| *c == column.name)
            .map(|(_, b)| *b);
        let fault = match (bound, value) {
            (Some(Bound::Text(max)), Value::String(s)) => limits::text_fault(s, max),
            (None, Value::String(s)) => limits::text_fault(s, limits::MAX_NAME_CHARS),
            (Some(Bound::Int(lo, hi)), v) => v
                .as_i64()
                .filter(|n| !(lo..=hi).contains(n))
                .map(|_| format!("must be between {lo} and {hi}")),
            (Some(Bound::Real(lo, hi)), v) => v
                .as_f64()
                .filter(|x| !(lo..=hi).contains(x))
                .map(|_| format!("must be between {lo} and {hi}")),
            _ => None,
        };
        let fault = fault.or_else(|| {
            // a name is not blank, as creating the row checks it
            (column.name == "name" && value.as_str().is_some_and(|s| s.trim().is_empty()))
                .then(|| "must not be blank".to_string())
        });
        if let Some(message) = fault {
            faults.add(field, message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn columns() -> HashMap<&'static str, Vec<Column>> {
        let col = |name: &str, affinity, required| Column {
            name: name.into(),
            affinity,
            required,
        };
        TABLES
            .iter()
            .map(|t| {
                let mut cols = vec![col("id", Affinity::Integer, false)];
                match t.name {
                    "events" => cols.extend([
                        col("name", Affinity::Text, true),
                        col("settings", Affinity::Text, false),
                        col("version", Affinity::Integer, false),
                    ]),
                    "participants" => cols.extend([
                        col("event_id", Affinity::Integer, true),
                        col("name", Affinity::Text, true),
                        col("rating", Affinity::Integer, false),
                    ]),
                    "games" => cols.extend([
                        col("white_id", Affinity::Integer, true),
                        col("black_id", Affinity::Integer, true),
                    ]),
                    _ => {}
                }
                (t.name, cols)
            })
            .collect()
    }

    fn document(tables: Value) -> EventDocument {
        serde_json::from_value(json!({
            "kind": KIND, "version": VERSION, "schema": 8, "exported_at": "x", "tables": tables
        }))
        .unwrap()
    }

    fn faults(document: &EventDocument) -> Vec<String> {
        match check(document, 8, &columns()) {
            Ok(()) => Vec::new(),
            Err(ApiError::Validation(errors)) => errors.into_iter().map(|e| e.field).collect(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_sound_document_passes() {
        let doc = document(json!({
            "events": [{"id": 1, "name": "Open", "settings": {"prohibited_pairs": [[1, 2]]}}],
            "participants": [{"id": 1, "name": "A", "rating": 2000}, {"id": 2, "name": "B"}],
            "games": [{"id": 1, "white_id": 1, "black_id": 2}],
        }));
        assert_eq!(faults(&doc), Vec::<String>::new());
    }

    #[test]
    fn every_fault_is_named_by_its_path() {
        let doc = document(json!({
            "events": [{"id": 1, "name": "Open", "version": 3, "settings": {"prohibited_pairs": [[1, 9]]}}],
            "participants": [
                {"id": 1, "name": "A\nB", "rating": 9000, "event_id": 4},
                {"id": 1, "name": 7},
                {"id": 3, "colour": "x"},
                {"id": 4, "name": " "}
            ],
            "games": [{"id": 1, "white_id": 1, "black_id": 5}],
            "tokens": [],
        }));
        assert_eq!(
            faults(&doc),
            [
                "tables.tokens",
                "tables.events[0].version",
                "tables.participants[0].event_id",
                "tables.participants[0].name",
                "tables.participants[0].rating",
                "tables.participants[1].name",
                "tables.participants[1].id",
                "tables.participants[2].colour",
                "tables.participants[2].name",
                "tables.participants[3].name",
                "tables.events[0].settings.prohibited_pairs",
                "tables.games[0].black_id",
            ]
        );
        let none = document(json!({}));
        assert_eq!(faults(&none), ["tables.events"]);
        let mut newer = document(json!({"events": [{"id": 1, "name": "Open"}]}));
        newer.schema = 9;
        newer.kind = "other".into();
        assert_eq!(faults(&newer), ["kind", "schema"]);
    }

    #[test]
    fn paths_reach_every_element() {
        let mut value = json!({"prohibited_pairs": [[1, 2], [3, 4]], "other": [9]});
        let mut seen = Vec::new();
        visit_path(&mut value, &["prohibited_pairs", "*", "*"], &mut |v| {
            seen.push(v.as_i64().unwrap());
            *v = json!(0);
        });
        assert_eq!(seen, [1, 2, 3, 4]);
        assert_eq!(value["prohibited_pairs"], json!([[0, 0], [0, 0]]));
    }
}
