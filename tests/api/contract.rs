//! What a client generated from the document may rely on: answers that match their schemas
//! (an event as one of its formats, the live stream's messages), PATCH as JSON Merge Patch
//! (RFC 7396: what is named changes, `null` removes, the rest stays), and the files a route
//! takes as text also taken as one JSON string.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::bridge_results::{mitchell_event, schedule};
use crate::bridge_team_events::{add_bridge_team, bridge_event, draw_lots_by_rating};
use crate::client::{spawn, TestServer};
use crate::swiss::{pair, publish, swiss_event};

/// The document the server serves.
fn document(s: &TestServer) -> Value {
    s.get("/openapi.json").json()
}

/// What is wrong with `value` by `schema` of `doc` (a JSON Schema subset: `$ref`, `type`,
/// `enum`, `required`, `properties`, `additionalProperties: false`, `items`, `oneOf`,
/// `anyOf`, `minimum`, `maximum`, `minLength`, `maxLength`), each named by its path.
fn faults(doc: &Value, schema: &Value, value: &Value, at: &str) -> Vec<String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/");
        return faults(doc, &doc["components"]["schemas"][name], value, at);
    }
    let mut out = Vec::new();
    for (key, many) in [("oneOf", false), ("anyOf", true)] {
        if let Some(options) = schema[key].as_array() {
            let fits = options
                .iter()
                .filter(|o| faults(doc, o, value, at).is_empty())
                .count();
            if fits == 0 || (!many && fits > 1) {
                out.push(format!("{at}: fits {fits} of the {key} options: {value}"));
            }
        }
    }
    let type_name = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let actual = type_name(value);
    // an integer is a number too
    let fits = types.is_empty()
        || types.contains(&actual)
        || (actual == "integer" && types.contains(&"number"));
    if !fits {
        out.push(format!("{at}: a {actual}, not {types:?}"));
        return out;
    }
    if let Some(values) = schema["enum"].as_array() {
        if !values.contains(value) {
            out.push(format!("{at}: {value} is not one of {values:?}"));
        }
    }
    if let (Some(x), Some(min)) = (value.as_f64(), schema["minimum"].as_f64()) {
        if x < min {
            out.push(format!("{at}: {x} below {min}"));
        }
    }
    if let (Some(x), Some(max)) = (value.as_f64(), schema["maximum"].as_f64()) {
        if x > max {
            out.push(format!("{at}: {x} above {max}"));
        }
    }
    if let Some(text) = value.as_str() {
        let n = text.chars().count() as u64;
        if schema["maxLength"].as_u64().is_some_and(|m| n > m)
            || schema["minLength"].as_u64().is_some_and(|m| n < m)
        {
            out.push(format!("{at}: {n} characters"));
        }
    }
    if let Some(object) = value.as_object() {
        for key in schema["required"].as_array().into_iter().flatten() {
            if !object.contains_key(key.as_str().unwrap_or_default()) {
                out.push(format!("{at}: no {key}"));
            }
        }
        let properties = schema["properties"].as_object();
        for (key, v) in object {
            match properties.and_then(|p| p.get(key)) {
                Some(p) => out.extend(faults(doc, p, v, &format!("{at}.{key}"))),
                None if schema["additionalProperties"] == json!(false) => {
                    out.push(format!("{at}.{key}: not in the schema"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(schema)) = (value.as_array(), schema.get("items")) {
        for (i, v) in items.iter().enumerate() {
            out.extend(faults(doc, schema, v, &format!("{at}[{i}]")));
        }
    }
    out
}

fn component(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn assert_fits(doc: &Value, name: &str, value: &Value) {
    let found = faults(doc, &component(name), value, name);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_schema_checker_finds_what_is_wrong() {
    let doc = json!({"components": {"schemas": {"P": {"type": "object", "required": ["a"],
        "properties": {"a": {"type": "integer", "minimum": 1}, "b": {"oneOf": [{"type": "null"}, {"type": "string", "enum": ["x"]}]}},
        "additionalProperties": false}}}});
    let check = |v: Value| faults(&doc, &component("P"), &v, "P");
    assert!(check(json!({"a": 1, "b": "x"})).is_empty());
    assert!(check(json!({"a": 1, "b": null})).is_empty());
    assert_eq!(check(json!({"a": 0})).len(), 1);
    assert_eq!(check(json!({"b": "y", "c": 1})).len(), 3);
}

/// An event of every format as the API answers it, each the variant of its format.
#[test]
fn an_event_of_every_format_fits_its_formats_schema() {
    let s = spawn();
    let doc = document(&s);
    let chess = [
        ("round_robin", json!({"tiebreaks": "fide"})),
        ("double_round_robin", json!({})),
        (
            "swiss",
            json!({"rounds": 7, "system": "fide_dutch", "acceleration": "baku", "seed": 5}),
        ),
        ("scheveningen", json!({"tiebreaks": ["wins"]})),
        ("hilton", json!({"boards": 4})),
    ];
    let bridge = [
        ("pairs", json!({"scoring": "matchpoints", "scale": "acbl"})),
        (
            "teams",
            json!({"kind": "round_robin", "boards_per_match": 6}),
        ),
        (
            "swiss_pairs",
            json!({"rounds": 5, "scoring": "cross_imps", "bye_vps": 12.5}),
        ),
        (
            "swiss_teams",
            json!({"rounds": 5, "odd": "triangle", "boards_per_match": 4}),
        ),
    ];
    let games = chess
        .iter()
        .map(|f| ("chess", f))
        .chain(bridge.iter().map(|f| ("bridge", f)));
    for (game, (format, settings)) in games {
        let body = json!({"name": "Cup", "game": game, "format": format, "settings": settings});
        assert_fits(&doc, "NewEvent", &body);
        let created = s.send("POST", "/api/v1/events", None, &body);
        assert_eq!(created.status, 201, "{format}: {}", created.text());
        assert_fits(&doc, "CreatedEvent", &created.json());
        let id = created.json()["id"].as_i64().unwrap();
        let event = s.get(&format!("/api/v1/events/{id}")).json();
        assert_fits(&doc, "Event", &event);
        let variant = format!("{}Event", tourney::api::event_formats::stem(format));
        assert!(faults(&doc, &component(&variant), &event, format).is_empty());
    }
    // another format's settings fit no variant of the format named
    let wrong =
        json!({"name": "Cup", "game": "chess", "format": "round_robin", "settings": {"rounds": 5}});
    assert!(!faults(&doc, &component("NewEvent"), &wrong, "NewEvent").is_empty());
    let list = s.get("/api/v1/events?limit=20").json();
    assert_fits(&doc, "Page_Event", &list);
}

/// A subscriber of an event's live stream, reading on a thread of its own: each message as
/// its fields (`id`, `event`, `data` parsed as JSON), comments left out.
struct Subscriber {
    messages: std::sync::mpsc::Receiver<Value>,
}

impl Subscriber {
    fn connect(s: &TestServer, event: i64, last_event_id: Option<&str>) -> Subscriber {
        let mut stream = TcpStream::connect(&s.addr).unwrap();
        let mut req = format!(
            "GET /api/v1/events/{event}/stream HTTP/1.1\r\nHost: {}\r\n",
            s.addr
        );
        if let Some(id) = last_event_id {
            req.push_str(&format!("Last-Event-ID: {id}\r\n"));
        }
        req.push_str("\r\n");
        stream.write_all(req.as_bytes()).unwrap();
        let (tx, messages) = std::sync::mpsc::channel();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        std::thread::spawn(move || {
            let mut current = serde_json::Map::new();
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                let text = line.trim_end_matches(['\r', '\n']).to_string();
                line.clear();
                if let Some((field, value)) = text.split_once(": ") {
                    match field {
                        "id" | "event" => {
                            current.insert(field.into(), json!(value));
                        }
                        "data" => {
                            let data = serde_json::from_str(value).unwrap_or(json!(value));
                            current.insert("data".into(), data);
                        }
                        _ => {}
                    }
                } else if text.is_empty()
                    && current.contains_key("event")
                    && tx
                        .send(Value::Object(std::mem::take(&mut current)))
                        .is_err()
                {
                    return;
                }
            }
        });
        Subscriber { messages }
    }

    /// The messages that arrive within a moment of each other.
    fn take(&self) -> Vec<Value> {
        let mut out = Vec::new();
        let mut wait = Duration::from_secs(10);
        while let Ok(m) = self.messages.recv_timeout(wait) {
            out.push(m);
            wait = Duration::from_millis(500);
        }
        out
    }
}

#[test]
fn the_live_streams_messages_fit_their_schema() {
    let s = spawn();
    let doc = document(&s);
    let mut seen = std::collections::BTreeSet::new();
    let mut check = |messages: Vec<Value>| {
        for m in messages {
            assert_fits(&doc, "StreamMessage", &m);
            let data = &m["data"];
            let event = m["event"].as_str().unwrap();
            let mut shapes = Vec::new();
            for key in ["deleted", "published"] {
                if data[key].as_array().is_some_and(|a| !a.is_empty()) {
                    shapes.push(format!("{event}/{key}"));
                }
            }
            for round in data["rounds"].as_array().into_iter().flatten() {
                for key in ["boards", "matches"] {
                    if round.get(key).is_some() {
                        shapes.push(format!("{event}/{key}"));
                    }
                }
            }
            if let Some(reason) = data["reason"].as_str() {
                shapes.push(format!("{event}/{reason}"));
            }
            seen.extend(shapes);
        }
    };
    // chess: a round published, a result and the standings, a round deleted
    let (event, admin) = swiss_event(&s, json!({"rounds": 3}));
    s.add_players(event, &admin, 4);
    let live = Subscriber::connect(&s, event, None);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}, {"round": 1, "board": 2, "result": "1/2-1/2"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    pair(&s, event, &admin);
    publish(&s, event, &admin, 2);
    let deleted = s.delete(&format!("/api/v1/events/{event}/rounds/2"), Some(&admin));
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    check(live.take());
    // an id from before a restart: resync
    check(Subscriber::connect(&s, event, Some("1-1")).take());
    // bridge pairs: a board result
    let (pairs, padmin) = mitchell_event(&s, json!({}));
    let live = Subscriber::connect(&s, pairs, None);
    let (round, table, _, _, boards) = schedule(&s, pairs)[0].clone();
    let row = json!({"round": round, "table": table, "board": boards[0], "contract": "3NT", "declarer": "S", "result": "="});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{pairs}/board-results"),
        Some(&padmin),
        &json!({"results": [row]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    check(live.take());
    // bridge teams: a match
    let (teams, tadmin) = bridge_event(&s, "teams", json!({"boards_per_match": 4}));
    for k in 1..=4 {
        assert_eq!(add_bridge_team(&s, teams, &tadmin, k, 4).status, 201);
    }
    let live = Subscriber::connect(&s, teams, None);
    assert_eq!(draw_lots_by_rating(&s, teams, &tadmin).status, 200);
    let one = s
        .get(&format!("/api/v1/events/{teams}/team-movement"))
        .json()["matches"][0]
        .clone();
    let last_half = one["halves"].as_array().unwrap().last().unwrap().clone();
    let entry = json!({"round": last_half["round"], "home": one["home"], "away": one["away"], "imps_home": 20, "imps_away": 5});
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{teams}/matches"),
        Some(&tadmin),
        &json!({"matches": [entry]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    check(live.take());
    for kind in [
        "rounds/published",
        "rounds/deleted",
        "results/boards",
        "results/matches",
        "resync/not_kept",
    ] {
        assert!(seen.contains(kind), "no {kind} message among {seen:?}");
    }
}

/// `value` without the keys named (what a change may touch).
fn without(value: &Value, keys: &[&str]) -> Value {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for k in keys {
            map.remove(*k);
        }
    }
    v
}

#[test]
fn patching_an_event_merges_its_settings_and_changes_nothing_unnamed() {
    let s = spawn();
    let body = json!({"name": "Autumn Open", "game": "chess", "format": "swiss",
        "start_date": "2026-11-28", "end_date": "2026-11-29",
        "settings": {"rounds": 7, "colour_rule": "3b", "tiebreaks": "us", "prohibited_pairs": [[1, 2]]}});
    let created = s.send("POST", "/api/v1/events", None, &body);
    assert_eq!(created.status, 201, "{}", created.text());
    let id = created.json()["id"].as_i64().unwrap();
    let admin = created.json()["admin_token"].as_str().unwrap().to_string();
    let path = format!("/api/v1/events/{id}");
    let patch = |body: Value| -> Value {
        let before = s.get(&path).json();
        let r = s.send("PATCH", &path, Some(&admin), &body);
        assert_eq!(r.status, 200, "{body}: {}", r.text());
        let after = s.get(&path).json();
        assert_eq!(r.json(), after);
        // nothing but what the patch names (and the time of the change) moved
        let mut named: Vec<&str> = body
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        named.push("updated_at");
        assert_eq!(without(&before, &named), without(&after, &named), "{body}");
        after
    };
    // one setting named: it changes, every other setting stays
    let after = patch(json!({"settings": {"tiebreaks": ["buchholz", "wins"]}}));
    assert_eq!(
        after["settings"],
        json!({"rounds": 7, "colour_rule": "3b", "tiebreaks": ["buchholz", "wins"], "prohibited_pairs": [[1, 2]]})
    );
    // null removes a setting (its default applies); a list is replaced whole
    let after =
        patch(json!({"settings": {"colour_rule": null, "prohibited_pairs": [[3, 4], [5, 6]]}}));
    assert_eq!(
        after["settings"],
        json!({"rounds": 7, "tiebreaks": ["buchholz", "wins"], "prohibited_pairs": [[3, 4], [5, 6]]})
    );
    // a field outside the settings: the settings stay; null removes a date
    let after = patch(json!({"name": "Autumn Open 2026", "end_date": null}));
    assert_eq!(after["name"], "Autumn Open 2026");
    assert_eq!(after["end_date"], Value::Null);
    assert_eq!(after["start_date"], "2026-11-28");
    assert_eq!(after["settings"]["rounds"], 7);
    // the details merge the same way: a key named changes, null removes it, the rest stays
    let after = patch(json!({"details": {"place": "Oslo", "chief_arbiter": "IA Jane Doe"}}));
    assert_eq!(
        after["details"],
        json!({"place": "Oslo", "chief_arbiter": "IA Jane Doe"})
    );
    let after = patch(
        json!({"details": {"place": "Bergen", "chief_arbiter": null, "deputy_arbiters": ["FA John Roe"]}}),
    );
    assert_eq!(
        after["details"],
        json!({"place": "Bergen", "deputy_arbiters": ["FA John Roe"]})
    );
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"details": {"place": "A\nB"}}),
    );
    assert_eq!(r.fields(), ["details.place"]);
    let after = patch(json!({"details": null}));
    assert!(after.get("details").is_none(), "{after}");
    // an empty patch changes nothing
    patch(json!({}));
    patch(json!({"settings": {}}));
    // the merged settings are checked as a whole: a bad value names the setting, nothing stored
    let before = s.get(&path).json();
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"settings": {"rounds": 0}}),
    );
    assert_eq!(r.fields(), ["settings.rounds"]);
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"settings": {"scoring": "butler"}}),
    );
    assert_eq!(r.fields(), ["settings.scoring"]);
    let r = s.send("PATCH", &path, Some(&admin), &json!({"name": null}));
    assert_eq!(r.fields(), ["name"]);
    assert_eq!(s.get(&path).json(), before);
    // `settings: null` removes them all
    let after = patch(json!({"settings": null}));
    assert_eq!(after["settings"], json!({}));
}

#[test]
fn a_bridge_events_settings_merge_too() {
    let s = spawn();
    let (id, admin) = bridge_event(
        &s,
        "swiss_teams",
        json!({"rounds": 6, "odd": "triangle", "boards_per_match": 4, "draw": "delayed"}),
    );
    let path = format!("/api/v1/events/{id}");
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"settings": {"rounds": 8}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json()["settings"],
        json!({"rounds": 8, "odd": "triangle", "boards_per_match": 4, "draw": "delayed"})
    );
    // the merge is checked whole: an odd number of boards breaks the triangle
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"settings": {"boards_per_match": 3}}),
    );
    assert_eq!(r.fields(), ["settings.boards_per_match"]);
}

#[test]
fn patching_a_participant_removes_what_is_null_and_keeps_the_rest() {
    let s = spawn();
    let (event, admin) = s.create_event("swiss");
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants"),
        Some(&admin),
        &json!({"name": "Anna", "rating": 2100, "club": "OXF", "federation": "ENG", "external_id": "7"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let path = format!("/api/v1/events/{event}/participants/{id}");
    let r = s.send(
        "PATCH",
        &path,
        Some(&admin),
        &json!({"club": null, "rating": 2150}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let p = r.json();
    assert_eq!(
        (p["club"].clone(), p["rating"].clone()),
        (Value::Null, json!(2150))
    );
    assert_eq!(
        (
            p["name"].clone(),
            p["federation"].clone(),
            p["external_id"].clone()
        ),
        (json!("Anna"), json!("ENG"), json!("7"))
    );
    let r = s.send("PATCH", &path, Some(&admin), &json!({"name": null}));
    assert_eq!(r.fields(), ["name"]);
    let r = s.send("PATCH", &path, Some(&admin), &json!({"name": "  "}));
    assert_eq!(r.fields(), ["name"]);
}

/// A TRF file and a PBN file sent as one JSON string are read as the same file sent as text.
#[test]
fn a_file_body_may_be_a_json_string() {
    let s = spawn();
    let trf = "012 Club Swiss\nXXR 5\n001    1      Anna                              2100                    1.0    1     3 w 1\n001    2      Ben                               2000                    0.0    3     4 b 0\n001    3      Cleo                              1900                    0.0    4     1 b 0\n001    4      Dan                               1800                    1.0    2     2 w 1\n";
    let as_text = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(trf.as_bytes()),
    );
    assert_eq!(as_text.status, 201, "{}", as_text.text());
    let as_json = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "application/json")],
        Some(json!(trf).to_string().as_bytes()),
    );
    assert_eq!(as_json.status, 201, "{}", as_json.text());
    let file = |r: &crate::client::Response| {
        let id = r.json()["id"].as_i64().unwrap();
        s.get(&format!("/api/v1/events/{id}/trf")).text()
    };
    assert_eq!(file(&as_text), file(&as_json));
    let not_a_string = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "application/json")],
        Some(br#"{"trf": "012 x"}"#),
    );
    assert_eq!(not_a_string.fields(), ["body"]);

    let (pairs, admin) = mitchell_event(&s, json!({}));
    let pbn = "[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n";
    let auth = format!("Bearer {admin}");
    let r = s.request(
        "PUT",
        &format!("/api/v1/events/{pairs}/deals"),
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &auth),
        ],
        Some(json!(pbn).to_string().as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["boards"], json!([1]));
}
