//! Closed sets of words the API takes or gives as plain strings in Rust, documented as enums.
//!
//! Each set's values come from the constant the server itself checks against (the formats of
//! each game, the movement generators), so the document cannot drift from the code. Fields
//! use them with `#[schema(value_type = EventFormat)]`, parameters with
//! `#[param(value_type = ...)]`.

use std::borrow::Cow;

use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::format::GameKind;
use crate::engine::bridge::movement::generate::KINDS;
use crate::engine::bridge::movement::model::TWIN_MODES;

/// A string schema allowing only `values`.
fn string_enum<'a>(description: &str, values: impl IntoIterator<Item = &'a str>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values))
        .into()
}

/// Declares a documentation type whose schema is a string enum.
macro_rules! closed_set {
    ($(#[doc = $doc:literal])+ $name:ident => $values:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                string_enum(concat!($($doc),+).trim(), $values)
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

closed_set!(
    /// An event format: `round_robin`, `double_round_robin`, `swiss`, `scheveningen`,
    /// `hilton`, `team_swiss` (chess) or `pairs`, `teams`, `swiss_pairs`, `swiss_teams`
    /// (bridge).
    EventFormat => [GameKind::Chess, GameKind::Bridge]
        .into_iter()
        .flat_map(|game| game.formats().iter().copied())
);

closed_set!(
    /// The format an imported TRF file becomes: `swiss`, `round_robin` or
    /// `double_round_robin`.
    TrfFormat => [
        super::format::FORMAT_SWISS,
        super::format::FORMAT_ROUND_ROBIN,
        super::format::FORMAT_DOUBLE_ROUND_ROBIN,
    ]
);

closed_set!(
    /// How a participant came to have no opponent in a round.
    ByeKind => ["pairing", "requested", "absent", "bye"]
);

closed_set!(
    /// How a Twin Mitchell is laid out.
    TwinMode => TWIN_MODES
);

closed_set!(
    /// A movement generator (`GET /api/v1/movements` lists them).
    MovementKind => KINDS.iter().copied()
);

closed_set!(
    /// A movement generator, or `custom` for a movement given in full.
    ChosenMovementKind => KINDS.iter().copied().chain(["custom"])
);

closed_set!(
    /// A team movement generator.
    TeamMovementKind => crate::engine::bridge::teams::generate::KINDS.iter().copied()
);

#[cfg(test)]
mod tests {
    use super::*;

    fn values<T: PartialSchema>() -> Vec<String> {
        let RefOr::T(Schema::Object(o)) = T::schema() else {
            panic!("an object schema")
        };
        o.enum_values
            .unwrap_or_default()
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn the_sets_list_what_the_server_accepts() {
        let formats = values::<EventFormat>();
        assert!(formats.contains(&"swiss".to_string()) && formats.contains(&"pairs".to_string()));
        assert!(formats.contains(&"team_swiss".to_string()));
        assert_eq!(formats.len(), 10);
        assert_eq!(values::<MovementKind>(), KINDS);
        assert_eq!(values::<ChosenMovementKind>().last().unwrap(), "custom");
    }
}
