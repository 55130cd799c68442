//! Makes the document's tagged unions plain for client generators.
//!
//! utoipa writes a variant of an internally tagged enum (`#[serde(tag = "kind")]`) that wraps
//! a struct as `allOf: [{$ref: Struct, description}, {kind: enum}]`. Generators stumble on
//! the `$ref` with a sibling and on the composition; the same variant written out as one
//! object (the struct's properties plus the tag) describes the same JSON and every generator
//! reads it. [`FlattenTaggedVariants`] does that for every `oneOf` component.

use utoipa::openapi::schema::{AllOf, Object};
use utoipa::openapi::{Components, RefOr, Schema};
use utoipa::Modify;

/// Writes each `oneOf` variant of the form `allOf: [$ref, inline object]` as one object.
pub struct FlattenTaggedVariants;

impl Modify for FlattenTaggedVariants {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let names: Vec<String> = components.schemas.keys().cloned().collect();
        for name in names {
            let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get(&name) else {
                continue;
            };
            let mut one_of = one_of.clone();
            for variant in &mut one_of.items {
                if let RefOr::T(Schema::AllOf(all_of)) = variant {
                    if let Some(object) = merged(components, all_of) {
                        *variant = RefOr::T(Schema::Object(object));
                    }
                }
            }
            components
                .schemas
                .insert(name, RefOr::T(Schema::OneOf(one_of)));
        }
    }
}

/// The one object an `allOf` of component references and inline objects stands for, or
/// `None` when a part is anything else (then it stays as it is).
fn merged(components: &Components, all_of: &AllOf) -> Option<Object> {
    let mut out = Object::new();
    out.description = all_of.description.clone();
    for part in &all_of.items {
        let object = match part {
            RefOr::Ref(r) => {
                let name = r.ref_location.strip_prefix("#/components/schemas/")?;
                match components.schemas.get(name)? {
                    RefOr::T(Schema::Object(o)) => o,
                    _ => return None,
                }
            }
            RefOr::T(Schema::Object(o)) => o,
            _ => return None,
        };
        if out.description.is_none() {
            out.description = object.description.clone();
        }
        out.schema_type = object.schema_type.clone();
        for (key, value) in &object.properties {
            out.properties.insert(key.clone(), value.clone());
        }
        for field in &object.required {
            if !out.required.contains(field) {
                out.required.push(field.clone());
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use utoipa::{OpenApi, ToSchema};

    use super::*;

    /// A board.
    #[derive(Serialize, ToSchema)]
    #[allow(dead_code)]
    struct Board {
        number: u32,
    }

    /// An entry.
    #[derive(Serialize, ToSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Entry {
        Board(Board),
        Note { message: String },
    }

    #[derive(OpenApi)]
    #[openapi(components(schemas(Entry, Board)), modifiers(&FlattenTaggedVariants))]
    struct Doc;

    #[test]
    fn a_struct_variant_becomes_one_object_with_the_tag() {
        let doc = serde_json::to_value(Doc::openapi()).unwrap();
        let board = &doc["components"]["schemas"]["Entry"]["oneOf"][0];
        assert!(board.get("allOf").is_none(), "{board}");
        assert_eq!(board["type"], "object");
        assert_eq!(board["properties"]["kind"]["enum"][0], "board");
        assert_eq!(board["properties"]["number"]["type"], "integer");
        let required: Vec<&str> = board["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(required.contains(&"number") && required.contains(&"kind"));
    }
}
