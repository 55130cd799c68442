//! The live stream's messages (`GET /api/v1/events/{id}/stream`) as schemas of the document:
//! `StreamMessage` is one server-sent event, read as its fields (`id`, `event`, and `data`
//! parsed as JSON), one of a variant per `event`. Documentation only: the messages are written
//! by [`crate::api::events::stream`] and [`crate::live`]; `tests/api/contract.rs` reads real
//! ones and checks them against these schemas.

use serde_json::{json, Value};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use crate::api::bridge::results::StoredRow;
use crate::limits::schema::from_json;

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "required": required, "properties": properties, "additionalProperties": false})
}

fn event_id() -> Value {
    json!({"type": "integer", "format": "int64", "description": "The event."})
}

/// The `data` of `round_published` and `round_deleted`.
fn round_change() -> Value {
    let mut o = object(
        &["event_id", "round"],
        json!({"event_id": event_id(), "round": {"type": "integer", "format": "uint32", "minimum": 1}}),
    );
    o["description"] = json!("A round published (a Swiss round, a bridge Swiss draw, or the schedule made by drawing lots) or deleted (or made again).");
    o
}

/// The `data` of `result`: a game, a board result or a match.
fn result_change() -> Value {
    let mut game = object(
        &["event_id", "game_id", "round", "board", "result"],
        json!({
            "event_id": event_id(),
            "game_id": {"type": "integer", "format": "int64"},
            "round": {"type": "integer", "format": "uint32"},
            "board": {"type": "integer", "format": "uint32"},
            "result": {"type": ["string", "null"], "description": "The result in its stored notation (`1-0`, `1/2-1/2`, `+/-`, ...)."}
        }),
    );
    game["title"] = json!("GameResultChange");
    let mut board = serde_json::to_value(StoredRow::schema()).unwrap_or(Value::Null);
    if let Some(map) = board.as_object_mut() {
        map.insert("title".into(), json!("BoardResultChange"));
        map.insert(
            "description".into(),
            json!("A bridge board result as stored (the row of `POST .../board-results`)."),
        );
        map.remove("example");
        map.insert("additionalProperties".into(), json!(false));
        if let Some(props) = map.get_mut("properties").and_then(Value::as_object_mut) {
            props.remove("changed");
            props.insert("event_id".into(), event_id());
        }
        if let Some(required) = map.get_mut("required").and_then(Value::as_array_mut) {
            required.retain(|r| r != "changed");
            required.push(json!("event_id"));
        }
    }
    let vp = json!({"type": ["number", "null"], "format": "double"});
    let imps = json!({"type": ["integer", "null"], "format": "uint32"});
    let mut a_match = object(
        &["event_id", "round", "home", "away"],
        json!({
            "event_id": event_id(),
            "round": {"type": "integer", "format": "uint32"},
            "home": {"type": "integer", "format": "uint32"},
            "away": {"type": "integer", "format": "uint32"},
            "imps_home": imps, "imps_away": imps, "vp_home": vp, "vp_away": vp
        }),
    );
    a_match["title"] = json!("MatchResultChange");
    json!({
        "description": "A changed result: a game (chess), a board result (bridge pairs, teams and Swiss tables) or a match (bridge teams and Swiss events).",
        "oneOf": [game, board, a_match]
    })
}

fn message(event: &str, description: &str, data: Value, with_id: bool) -> Value {
    let mut required = vec!["event", "data"];
    if with_id {
        required.insert(0, "id");
    }
    let mut properties = json!({
        "event": {"type": "string", "enum": [event]},
        "data": data,
    });
    if with_id {
        properties["id"] = json!({
            "type": "string",
            "description": "`<epoch>-<n>`: send it back as `Last-Event-ID` to get what came after it."
        });
    }
    json!({
        "type": "object",
        "title": format!("{}Message", crate::api::event_formats::stem(event)),
        "description": description,
        "required": required,
        "properties": properties,
        "additionalProperties": false
    })
}

/// One message of the live stream: see the module doc.
pub struct StreamMessage;

impl PartialSchema for StreamMessage {
    fn schema() -> RefOr<Schema> {
        let standings = object(
            &["event_id", "href"],
            json!({
                "event_id": event_id(),
                "href": {"type": "string", "description": "The API path of the standings that changed: fetch it."}
            }),
        );
        let resync = json!({
            "type": "object",
            "required": ["event_id"],
            "properties": {
                "event_id": event_id(),
                "reason": {"type": "string", "description": "Why, for a person reading the stream."}
            },
            "description": "The stream cannot replay from the id given (from before a server restart, or older than what is kept): reload the event, then follow the stream. Other members may be added."
        });
        from_json(json!({
            "description": "One server-sent event of `GET /api/v1/events/{event_id}/stream`, read as its fields: `id` (every message but `resync`), `event`, and `data` (one line of JSON). A comment line (`: heartbeat`) every 15 s is no message.",
            "oneOf": [
                message("round_published", "A round was published.", round_change(), true),
                message("round_deleted", "A round was deleted (or made again: a `round_published` follows).", round_change(), true),
                message("result", "A result changed (one message per result).", result_change(), true),
                message("standings", "The standings changed (after the results that changed them).", standings, true),
                message("resync", "Reload the event, then follow the stream.", resync, false)
            ]
        }))
    }
}

impl ToSchema for StreamMessage {}
