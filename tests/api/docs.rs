//! The OpenAPI document and the docs page.

use crate::client::spawn;

#[test]
fn committed_openapi_matches_the_code() {
    let generated = tourney::api::openapi::document_json();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date: run `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn the_server_serves_its_document_and_a_working_docs_page() {
    let s = spawn();
    let doc = s.get("/openapi.json").json();
    assert_eq!(doc["info"]["title"], "tourney");
    for path in [
        "/api/v1/events",
        "/api/v1/tables/berger",
        "/api/v1/events/{event_id}/results",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    let page = s.get("/docs/");
    assert_eq!(page.status, 200);
    assert!(page.text().to_lowercase().contains("swagger"));
    let init = s.get("/docs/swagger-initializer.js");
    assert_eq!(init.status, 200);
    assert!(init.text().contains("/openapi.json"));
    assert_eq!(s.get("/docs/swagger-ui-bundle.js").status, 200);
    assert_eq!(s.get("/docs").status, 307);
    assert_eq!(s.get("/healthz").json()["status"], "ok");
}

/// The committed document, parsed.
fn committed() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("openapi.json")).expect("JSON")
}

/// Every object in `value` with its JSON pointer.
fn objects<'a>(
    value: &'a serde_json::Value,
    at: String,
    out: &mut Vec<(String, &'a serde_json::Map<String, serde_json::Value>)>,
) {
    match value {
        serde_json::Value::Object(map) => {
            out.push((at.clone(), map));
            for (k, v) in map {
                objects(v, format!("{at}/{k}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                objects(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Keys repeated within one JSON object of `text` (a parsed map silently keeps the last).
fn repeated_keys(text: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    struct Walk<'a>(&'a mut Vec<String>);
    impl<'de> Visitor<'de> for Walk<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value_seed(Seed(&mut *self.0))?;
                if !seen.insert(key.clone()) {
                    self.0.push(key);
                }
            }
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Seed(&mut *self.0))?.is_some() {}
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
    }
    struct Seed<'a>(&'a mut Vec<String>);
    impl<'de> serde::de::DeserializeSeed<'de> for Seed<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(Walk(self.0))
        }
    }
    let mut repeated = Vec::new();
    let mut de = serde_json::Deserializer::from_str(text);
    serde::de::DeserializeSeed::deserialize(Seed(&mut repeated), &mut de).expect("JSON");
    let _ = IgnoredAny;
    repeated
}

#[test]
fn the_document_has_one_schema_per_name_and_every_reference_resolves() {
    assert_eq!(repeated_keys(r#"{"a": {"b": 1, "b": 2}}"#), ["b"]);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(repeated_keys(&text), Vec::<String>::new());
    let doc = committed();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut lower: Vec<String> = schemas.keys().map(|k| k.to_lowercase()).collect();
    lower.sort();
    lower.dedup();
    assert_eq!(lower.len(), schemas.len(), "two names differ only in case");
    let mut all = Vec::new();
    objects(&doc, "#".into(), &mut all);
    for (at, object) in &all {
        if let Some(target) = object.get("$ref").and_then(|r| r.as_str()) {
            let name = target
                .strip_prefix("#/components/schemas/")
                .unwrap_or(target);
            assert!(
                schemas.contains_key(name),
                "{at}: {target} resolves to nothing"
            );
        }
        if let Some(parts) = object.get("allOf").and_then(|a| a.as_array()) {
            assert!(
                !parts
                    .iter()
                    .any(|p| p.get("$ref").is_some() && p.as_object().unwrap().len() > 1),
                "{at}: an allOf with a $ref and siblings (generators stumble)"
            );
        }
    }
}

/// The operations whose success answer is not JSON.
const NOT_JSON: [(&str, &str); 8] = [
    ("get", "/metrics"),
    ("get", "/api/v1/admin/backup"),
    ("get", "/api/v1/events/{event_id}/trf"),
    ("get", "/api/v1/events/{event_id}/stream"),
    ("get", "/api/v1/events/{event_id}/pbn"),
    ("get", "/api/v1/events/{event_id}/usebio"),
    (
        "get",
        "/api/v1/tournaments/{tournament_id}/across-the-field/{field}/pbn",
    ),
    (
        "get",
        "/api/v1/tournaments/{tournament_id}/across-the-field/{field}/usebio",
    ),
];

#[test]
fn every_success_answer_documents_json_where_the_handler_answers_json() {
    let doc = committed();
    for (path, operations) in doc["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                let Some(content) = response.get("content").and_then(|c| c.as_object()) else {
                    continue;
                };
                if !status.starts_with('2') || NOT_JSON.contains(&(method.as_str(), path.as_str()))
                {
                    continue;
                }
                assert!(
                    content.contains_key("application/json"),
                    "{method} {path} {status} documents {:?}, not application/json",
                    content.keys().collect::<Vec<_>>()
                );
            }
        }
    }
    // The exceptions really answer something else.
    let s = spawn();
    let (event, admin) = s.create_event("swiss");
    s.add_players(event, &admin, 4);
    let auth = format!("Bearer {admin}");
    let paired = s.request(
        "POST",
        &format!("/api/v1/events/{event}/rounds"),
        &[("Authorization", auth.as_str())],
        None,
    );
    assert_eq!(paired.status, 201, "{}", paired.text());
    let trf = s.get(&format!("/api/v1/events/{event}/trf"));
    assert_eq!(trf.status, 200, "{}", trf.text());
    assert!(trf
        .header("content-type")
        .unwrap()
        .starts_with("text/plain"));
}

/// Whether a description lists the values of a closed set: two or more `word`s in backticks
/// offered as alternatives ("`a`, `b` or `c`"), not examples ("e.g.").
fn lists_a_closed_set(description: &str) -> bool {
    let words = description
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .count();
    words >= 2 && description.contains("or `") && !description.contains("e.g.")
}

#[test]
fn closed_sets_are_enums_not_plain_strings() {
    assert!(lists_a_closed_set("`swiss` (top half) or `adjacent` (1-2)"));
    assert!(!lists_a_closed_set("e.g. `players` or `results[2].result`"));
    assert!(!lists_a_closed_set("`1`, or `3-4` for a shared place"));
    let doc = committed();
    let mut all = Vec::new();
    objects(&doc, "#".into(), &mut all);
    let mut plain = Vec::new();
    for (at, object) in &all {
        // A parameter carries its description beside its schema.
        let (schema, description) = match object.get("schema") {
            Some(schema) if object.get("in").is_some() => (schema, object.get("description")),
            _ => (&serde_json::Value::Null, object.get("description")),
        };
        let schema = if schema.is_null() {
            serde_json::Value::Object((*object).clone())
        } else {
            schema.clone()
        };
        let is_string = match &schema["type"] {
            serde_json::Value::String(t) => t == "string",
            serde_json::Value::Array(ts) => ts.iter().any(|t| t == "string"),
            _ => false,
        };
        let described = description.and_then(|d| d.as_str()).unwrap_or_default();
        if is_string && schema.get("enum").is_none() && lists_a_closed_set(described) {
            plain.push(format!("{at}: {described}"));
        }
    }
    assert!(
        plain.is_empty(),
        "closed sets documented as plain strings:\n{}",
        plain.join("\n")
    );
}

/// Unsigned fields carry the registry's unsigned formats: a u32 documented as `int32` promised
/// a range it exceeds (the fuzzer sent 2^31 and the server took it), and utoipa's own spelling
/// `u-int32` is no registered format.
#[test]
fn unsigned_integers_are_documented_as_unsigned() {
    let doc = committed().to_string();
    assert!(!doc.contains("u-int"), "utoipa's u-intN spelling left");
    assert!(doc.contains("\"format\":\"uint32\""));
}

/// What a generated client needs of the document: an event described per format (settings
/// typed by format, told apart by `format`), every file body also as JSON, the standings type
/// named apart from its field, the live stream's messages, and no integer without its range.
#[test]
fn the_document_gives_a_generated_client_what_it_needs() {
    let doc = committed();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let formats: Vec<String> = schemas["EventFormat"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    for (name, prefix) in [
        ("Event", ""),
        ("NewEvent", "New"),
        ("CreatedEvent", "Created"),
    ] {
        let mapping = schemas[name]["discriminator"]["mapping"]
            .as_object()
            .unwrap();
        assert_eq!(schemas[name]["discriminator"]["propertyName"], "format");
        assert_eq!(mapping.len(), formats.len(), "{name}");
        for format in &formats {
            let variant = format!("{prefix}{}Event", tourney::api::event_formats::stem(format));
            assert_eq!(mapping[format], format!("#/components/schemas/{variant}"));
            let v = &schemas[&variant];
            assert_eq!(
                v["properties"]["format"]["enum"],
                serde_json::json!([format])
            );
            let settings = tourney::api::event_formats::settings_of(format).unwrap();
            let shown = v["properties"]["settings"].to_string();
            assert!(
                shown.contains(&format!("/{settings}\"")),
                "{variant}: {shown}"
            );
        }
    }
    assert_eq!(schemas["Standings"]["title"], "EventStandings");
    for path in ["/api/v1/events/trf", "/api/v1/events/{event_id}/deals"] {
        let operation = doc["paths"][path]
            .as_object()
            .unwrap()
            .values()
            .find(|op| op.get("requestBody").is_some())
            .unwrap();
        let content = &operation["requestBody"]["content"];
        assert_eq!(content["text/plain"]["schema"]["type"], "string", "{path}");
        assert_eq!(
            content["application/json"]["schema"]["type"], "string",
            "{path}"
        );
    }
    let messages = schemas["StreamMessage"]["oneOf"].as_array().unwrap();
    let events: Vec<&str> = messages
        .iter()
        .map(|m| m["properties"]["event"]["enum"][0].as_str().unwrap())
        .collect();
    assert_eq!(events, ["rounds", "results", "resync"]);
    let mut all = Vec::new();
    objects(&doc, "#".into(), &mut all);
    for (at, object) in all {
        let format = object
            .get("format")
            .and_then(|f| f.as_str())
            .unwrap_or_default();
        if format.starts_with("uint") {
            assert!(
                object.contains_key("maximum"),
                "{at}: an unsigned integer with no maximum"
            );
        }
    }
}
