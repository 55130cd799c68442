//! An event in the document as one of its formats: each format's settings as their own schema,
//! and `Event`, `NewEvent` and `CreatedEvent` as `oneOf` a variant per format, told apart by
//! `format` (a discriminator), so a generated client has typed settings.
//!
//! The settings schemas come from the types the server reads them with: [`TiebreakSettings`]
//! (round robins, Scheveningen), [`HiltonSettings`], [`SwissSection`], the engine's
//! [`ScoringSettings`] (bridge pairs), [`TeamEventSettings`] (bridge teams) and
//! [`TeamSwissEventSettings`] (chess team Swiss),
//! [`SwissEventSettings`] (Swiss pairs and Swiss teams: one type, two schemas, since a triangle
//! is for teams and `scoring` for pairs). `EventPatch.settings` is a merge patch of one of them:
//! the same properties, each also `null` (removes it).

use serde_json::{json, Map, Value};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{Modify, PartialSchema, ToSchema};

use crate::domain::closed_sets::TeamMovementKind;
use crate::domain::section::SwissSection;
use crate::domain::TeamSwissEventSettings;
use crate::domain::{
    GameKind, HiltonSettings, TiebreakSettings, FORMAT_BRIDGE_TEAMS, FORMAT_DOUBLE_ROUND_ROBIN,
    FORMAT_HILTON, FORMAT_PAIRS, FORMAT_ROUND_ROBIN, FORMAT_SCHEVENINGEN, FORMAT_SWISS,
    FORMAT_SWISS_PAIRS, FORMAT_SWISS_TEAMS, FORMAT_TEAM_SWISS,
};
use crate::engine::bridge::session::ScoringSettings;
use crate::engine::bridge::swiss_event::SwissEventSettings;
use crate::engine::bridge::team_event::TeamEventSettings;

/// The settings schema of each format, by component name.
pub fn settings_of(format: &str) -> Option<&'static str> {
    Some(match format {
        FORMAT_ROUND_ROBIN | FORMAT_DOUBLE_ROUND_ROBIN | FORMAT_SCHEVENINGEN => "TiebreakSettings",
        FORMAT_HILTON => "HiltonSettings",
        FORMAT_SWISS => "SwissSection",
        FORMAT_PAIRS => "PairsSettings",
        FORMAT_BRIDGE_TEAMS => "TeamsSettings",
        FORMAT_SWISS_PAIRS => "SwissPairsSettings",
        FORMAT_SWISS_TEAMS => "SwissTeamsSettings",
        FORMAT_TEAM_SWISS => "TeamSwissSettings",
        _ => return None,
    })
}

/// Every format with its game, in the order of [`GameKind::formats`].
fn formats() -> Vec<(&'static str, GameKind)> {
    [GameKind::Chess, GameKind::Bridge]
        .into_iter()
        .flat_map(|game| game.formats().iter().map(move |f| (*f, game)))
        .collect()
}

/// `double_round_robin` as a type name: `DoubleRoundRobin`.
pub fn stem(format: &str) -> String {
    format
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn as_json(schema: RefOr<Schema>) -> Value {
    serde_json::to_value(schema).unwrap_or(Value::Null)
}

/// The settings components and every schema they refer to.
fn settings_components() -> Vec<(String, Value)> {
    let mut nested: Vec<(String, RefOr<Schema>)> = Vec::new();
    TiebreakSettings::schemas(&mut nested);
    HiltonSettings::schemas(&mut nested);
    SwissSection::schemas(&mut nested);
    ScoringSettings::schemas(&mut nested);
    TeamEventSettings::schemas(&mut nested);
    SwissEventSettings::schemas(&mut nested);
    TeamSwissEventSettings::schemas(&mut nested);
    nested.push((
        TeamMovementKind::name().into_owned(),
        TeamMovementKind::schema(),
    ));
    let mut out: Vec<(String, Value)> = nested
        .into_iter()
        .map(|(name, schema)| (name, as_json(schema)))
        .collect();
    out.push((
        "TiebreakSettings".into(),
        as_json(TiebreakSettings::schema()),
    ));
    out.push(("HiltonSettings".into(), as_json(HiltonSettings::schema())));
    out.push(("SwissSection".into(), as_json(SwissSection::schema())));
    out.push((
        "TeamSwissSettings".into(),
        as_json(TeamSwissEventSettings::schema()),
    ));
    let mut pairs = as_json(ScoringSettings::schema());
    pairs["description"] = json!("The settings of a bridge pairs event: how it is scored.");
    out.push(("PairsSettings".into(), pairs));
    let mut teams = as_json(TeamEventSettings::schema());
    teams["properties"]["kind"] = json!({
        "$ref": "#/components/schemas/TeamMovementKind",
        "description": "The team movement (default `round_robin`)."
    });
    out.push(("TeamsSettings".into(), teams));
    let swiss = as_json(SwissEventSettings::schema());
    let mut swiss_pairs = swiss.clone();
    swiss_pairs["description"] = json!("The settings of a Swiss pairs event.");
    swiss_pairs["properties"]["odd"] = json!({
        "type": "string",
        "enum": ["bye"],
        "description": "An odd number of pairs: one pair has a bye (a triangle is for Swiss teams)."
    });
    swiss_pairs["properties"]["scoring"] = json!({
        "type": ["string", "null"],
        "enum": ["butler", "cross_imps", null],
        "description": "How board results become IMPs: `butler` (default) or `cross_imps`."
    });
    out.push(("SwissPairsSettings".into(), swiss_pairs));
    let mut swiss_teams = swiss;
    swiss_teams["description"] = json!(
        "The settings of a Swiss teams event. A `triangle` needs an even `boards_per_match` (a rule between the two, refused with 422)."
    );
    if let Some(props) = swiss_teams["properties"].as_object_mut() {
        props.remove("scoring");
    }
    out.push(("SwissTeamsSettings".into(), swiss_teams));
    out
}

/// The settings as a merge patch: no property required, each also `null` (which removes it).
fn patch_of(settings: &Value) -> Value {
    let mut patch = settings.clone();
    if let Some(map) = patch.as_object_mut() {
        map.remove("required");
        map.remove("example");
        if let Some(props) = map.get_mut("properties").and_then(Value::as_object_mut) {
            for prop in props.values_mut() {
                *prop = nullable(prop.take());
            }
        }
        map.insert(
            "description".into(),
            json!(format!(
                "A merge patch of these settings: a key named changes, `null` removes it (its default applies), keys not named stay. {}",
                settings["description"].as_str().unwrap_or_default()
            )),
        );
    }
    patch
}

/// A property schema that also takes `null`.
fn nullable(mut prop: Value) -> Value {
    match prop.get_mut("type") {
        Some(Value::String(t)) => {
            let t = t.clone();
            prop["type"] = json!([t, "null"]);
            if let Some(values) = prop.get_mut("enum").and_then(Value::as_array_mut) {
                if !values.contains(&Value::Null) {
                    values.push(Value::Null);
                }
            }
            prop
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
            prop
        }
        _ => {
            let takes_null = prop["oneOf"]
                .as_array()
                .is_some_and(|items| items.iter().any(|i| i["type"] == "null"));
            if takes_null {
                prop
            } else {
                let description = prop.as_object_mut().and_then(|m| m.remove("description"));
                let mut wrapped = json!({"oneOf": [{"type": "null"}, prop]});
                if let Some(d) = description {
                    wrapped["description"] = d;
                }
                wrapped
            }
        }
    }
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// `base` (an object schema) for one format: `format` and `game` fixed, `settings` that
/// format's schema (`nullable` when the base takes none).
fn variant(base: &Value, format: &str, game: GameKind, settings: &str, nullable: bool) -> Value {
    let mut v = base.clone();
    if let Some(map) = v.as_object_mut() {
        map.remove("example");
        map.remove("title");
    }
    v["properties"]["format"] = json!({"type": "string", "enum": [format]});
    v["properties"]["game"] = json!({"type": "string", "enum": [game.as_str()]});
    let description = base["properties"]["settings"]["description"].clone();
    let mut s = if nullable {
        json!({"oneOf": [{"type": "null"}, reference(settings)]})
    } else {
        reference(settings)
    };
    if description.is_string() {
        s["description"] = description;
    }
    v["properties"]["settings"] = s;
    v
}

/// Makes `name` (an object schema) `oneOf` a variant per format (`prefix` + format stem +
/// `Event`), with `format` as the discriminator.
fn by_format(schemas: &mut Map<String, Value>, name: &str, prefix: &str, nullable: bool) {
    let Some(base) = schemas.get(name).cloned() else {
        return;
    };
    let mut items = Vec::new();
    let mut mapping = Map::new();
    for (format, game) in formats() {
        let Some(settings) = settings_of(format) else {
            continue;
        };
        let variant_name = format!("{prefix}{}Event", stem(format));
        let mut v = variant(&base, format, game, settings, nullable);
        v["description"] = json!(format!(
            "{} Format `{format}`.",
            base["description"].as_str().unwrap_or_default()
        ));
        schemas.insert(variant_name.clone(), v);
        let target = format!("#/components/schemas/{variant_name}");
        items.push(json!({"$ref": target}));
        mapping.insert(format.to_string(), json!(target));
    }
    let mut one_of = json!({
        "oneOf": items,
        "discriminator": {"propertyName": "format", "mapping": mapping},
    });
    for key in ["description", "example"] {
        if let Some(v) = base.get(key) {
            one_of[key] = v.clone();
        }
    }
    schemas.insert(name.to_string(), one_of);
}

/// The modifier: see the module doc.
pub struct SettingsByFormat;

impl Modify for SettingsByFormat {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Ok(mut doc) = serde_json::to_value(&*openapi) else {
            return;
        };
        let Some(schemas) = doc["components"]["schemas"].as_object_mut() else {
            return;
        };
        let settings = settings_components();
        let mut patches = Vec::new();
        for (name, schema) in settings {
            let is_settings = formats().iter().any(|(f, _)| settings_of(f) == Some(&name));
            if is_settings {
                patches.push(reference(&format!("{name}Patch")));
                schemas.insert(format!("{name}Patch"), patch_of(&schema));
            }
            schemas.entry(name).or_insert(schema);
        }
        // CreatedEvent is Event and the admin token: written out as one object first.
        if let (Some(event), Some(created)) = (schemas.get("Event"), schemas.get("CreatedEvent")) {
            let mut object = event.clone();
            let extra = created["allOf"]
                .as_array()
                .and_then(|parts| parts.iter().find(|p| p.get("properties").is_some()))
                .cloned()
                .unwrap_or(Value::Null);
            if let (Some(props), Some(more)) = (
                object["properties"].as_object_mut(),
                extra["properties"].as_object(),
            ) {
                props.extend(more.clone());
            }
            if let (Some(required), Some(more)) = (
                object["required"].as_array_mut(),
                extra["required"].as_array(),
            ) {
                required.extend(more.iter().cloned());
            }
            object["description"] = created["description"].clone();
            if let Some(example) = object.get_mut("example") {
                example["admin_token"] = json!("tny_8c1d...3f");
            }
            schemas.insert("CreatedEvent".into(), object);
        }
        by_format(schemas, "Event", "", false);
        by_format(schemas, "NewEvent", "New", true);
        by_format(schemas, "CreatedEvent", "Created", false);
        if let Some(patch) = schemas.get_mut("EventPatch") {
            let description = patch["properties"]["settings"]["description"].clone();
            patches.push(json!({"type": "null"}));
            patch["properties"]["settings"] = json!({"anyOf": patches, "description": description});
        }
        if let Ok(changed) = serde_json::from_value(doc) {
            *openapi = changed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_a_settings_schema() {
        for (format, _) in formats() {
            assert!(settings_of(format).is_some(), "{format}");
        }
        assert_eq!(stem("double_round_robin"), "DoubleRoundRobin");
    }

    #[test]
    fn a_patch_takes_null_for_every_setting() {
        let settings = json!({"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string", "description": "k"},
            "rounds": {"type": ["integer", "null"]},
            "order": {"$ref": "#/components/schemas/X", "description": "o"},
            "odd": {"type": "string", "enum": ["bye"]}
        }});
        let patch = patch_of(&settings);
        assert!(patch.get("required").is_none());
        assert_eq!(
            patch["properties"]["kind"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(
            patch["properties"]["rounds"]["type"],
            json!(["integer", "null"])
        );
        assert_eq!(
            patch["properties"]["order"]["oneOf"][0],
            json!({"type": "null"})
        );
        assert_eq!(patch["properties"]["order"]["description"], "o");
        assert_eq!(patch["properties"]["odd"]["enum"], json!(["bye", null]));
    }
}
