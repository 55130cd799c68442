//! The live stream's messages (`GET /api/v1/events/{id}/stream`) as schemas of the document:
//! `StreamMessage` is one server-sent event, read as its fields (`id`, `event`, and `data`
//! parsed as JSON), one of a variant per `event`. Documentation only: the messages are written
//! by [`crate::api::events::stream`] and [`crate::live`]; `tests/api/contract.rs` reads real
//! ones and checks them against these schemas.

use serde_json::{json, Value};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use crate::limits::schema::from_json;

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "required": required, "properties": properties, "additionalProperties": false})
}

fn event_id() -> Value {
    json!({"type": "integer", "format": "int64", "description": "The event."})
}

fn round_numbers(description: &str) -> Value {
    json!({
        "type": "array",
        "items": {"type": "integer", "format": "uint32", "minimum": 1},
        "description": description
    })
}

/// The `data` of `rounds`.
fn rounds_change() -> Value {
    let mut o = object(
        &["event_id", "deleted", "published"],
        json!({
            "event_id": event_id(),
            "deleted": round_numbers("Rounds no longer published as they were, in order (deleted, or made again)."),
            "published": round_numbers("Rounds newly published, in order (a Swiss round published, a bridge Swiss round drawn, the schedule made by drawing lots).")
        }),
    );
    o["description"] = json!("Rounds published or deleted: reload those rounds.");
    o
}

/// The `data` of `results`.
fn results_change() -> Value {
    let number = json!({"type": "integer", "format": "uint32", "minimum": 1});
    let mut boards = object(
        &["round", "boards"],
        json!({
            "round": number,
            "boards": {"type": "array", "items": number, "description": "The boards whose result changed (chess games by board, bridge board results by board number)."}
        }),
    );
    boards["title"] = json!("ChangedBoards");
    let mut matches = object(
        &["round", "matches"],
        json!({
            "round": number,
            "matches": {"type": "array", "items": object(&["home", "away"], json!({"home": number, "away": number})), "description": "The bridge matches whose result changed, by their teams' (or pairs') numbers."}
        }),
    );
    matches["title"] = json!("ChangedMatches");
    let mut o = object(
        &["event_id", "rounds", "results", "standings"],
        json!({
            "event_id": event_id(),
            "rounds": {"type": "array", "items": {"oneOf": [boards, matches]}, "description": "Each round whose results changed, in order."},
            "results": {"type": "integer", "format": "uint64", "minimum": 1, "description": "How many results the change wrote."},
            "standings": {"type": "string", "description": "The API path of the standings to fetch again."}
        }),
    );
    o["description"] = json!("Results changed (one message per change, however many rows it wrote): reload those boards and the standings.");
    o
}

/// The `data` of `resync`.
fn resync() -> Value {
    let mut o = object(
        &["event_id", "reason", "detail", "href"],
        json!({
            "event_id": event_id(),
            "reason": {"type": "string", "enum": ["not_kept", "fell_behind"], "description": "`not_kept`: the `Last-Event-ID` sent is no longer kept; `fell_behind`: this connection took messages more slowly than they came (the response ends after this message)."},
            "detail": {"type": "string", "description": "The reason, for a person reading the stream."},
            "href": {"type": "string", "description": "The API path of the event to reload."}
        }),
    );
    o["description"] = json!("Reload the event (`href`), then go on from this message's id.");
    o
}

fn message(event: &str, description: &str, data: Value) -> Value {
    json!({
        "type": "object",
        "title": format!("{}Message", crate::api::event_formats::stem(event)),
        "description": description,
        "required": ["id", "event", "data"],
        "properties": {
            "id": {
                "type": "string",
                "description": "`<epoch>-<n>`: send it back as `Last-Event-ID` to get what came after it."
            },
            "event": {"type": "string", "enum": [event]},
            "data": data
        },
        "additionalProperties": false
    })
}

/// One message of the live stream: see the module doc.
pub struct StreamMessage;

impl PartialSchema for StreamMessage {
    fn schema() -> RefOr<Schema> {
        from_json(json!({
            "description": "One server-sent event of `GET /api/v1/events/{event_id}/stream`, read as its fields: `id`, `event`, and `data` (one line of JSON). A comment line (`: heartbeat`) every 15 s is no message.",
            "oneOf": [
                message("rounds", "Rounds were published or deleted.", rounds_change()),
                message("results", "Results changed.", results_change()),
                message("resync", "Reload the event, then follow the stream from this message's id.", resync())
            ]
        }))
    }
}

impl ToSchema for StreamMessage {}
