//! The bounds of [`crate::limits`] (and those beside the engines) as OpenAPI schemas, so the
//! document shows each bound from the constant the server checks against.
//!
//! Each bound is a documentation type: a field takes it with
//! `#[schema(value_type = Name)]` (`Option<Name>` for an optional one), a parameter with
//! `#[param(value_type = ...)]` or `("board" = BoardNumber, Query, ...)`. The document then
//! names it as a component (`Name`: `minLength`, `maxLength` and `pattern`; `Rating`:
//! `minimum` and `maximum`), so a client generated from it validates what the server does.
//! A bound that belongs to an engine or a route is declared beside its constant with
//! [`integer_bound!`] or [`number_bound!`].

use std::borrow::Cow;

use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::{
    is_control, MAX_CODE_CHARS, MAX_EVENT_ROUNDS, MAX_MOVEMENT_NUMBER, MAX_NAME_CHARS, MAX_OFFSET,
    MAX_PAGE_LIMIT, MAX_RATING, MAX_RESULTS, MAX_ROUNDS, MAX_SEED,
};

/// A schema written as JSON (for the few written by hand: a request whose fields go
/// together in more than one way).
pub fn from_json(schema: serde_json::Value) -> RefOr<Schema> {
    serde_json::from_value(schema).expect("a schema written by hand is valid")
}

/// An integer schema from `min` to `max` in the given format (`uint32` ...).
pub fn integer(description: &str, format: KnownFormat, min: i64, max: u64) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(format)))
        .description(Some(description))
        .minimum(Some(min as isize))
        .maximum(Some(max as usize))
        .into()
}

/// A number schema from `min` to `max`.
pub fn number(description: &str, min: f64, max: f64) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
        .description(Some(description))
        .minimum(Some(min))
        .maximum(Some(max))
        .into()
}

/// Declares a documentation type whose schema is an integer bound:
/// `integer_bound!(/// doc ... BoardNumber: UInt32, 1, MAX_BOARD);`
macro_rules! integer_bound {
    ($(#[doc = $doc:literal])+ $name:ident: $format:ident, $min:expr, $max:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                $crate::limits::schema::integer(
                    concat!($($doc, "\n"),+).trim(),
                    utoipa::openapi::schema::KnownFormat::$format,
                    ($min) as i64,
                    ($max) as u64,
                )
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }
    };
}
pub(crate) use integer_bound;

/// Declares a documentation type whose schema is a bound on a (decimal) number.
macro_rules! number_bound {
    ($(#[doc = $doc:literal])+ $name:ident: $min:expr, $max:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                $crate::limits::schema::number(
                    concat!($($doc, "\n"),+).trim(),
                    ($min) as f64,
                    ($max) as f64,
                )
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }
    };
}
pub(crate) use number_bound;

/// `\uXXXX` as a regular expression writes a character (ECMA-262 and Python alike).
fn escaped(c: char) -> String {
    format!("\\u{:04X}", c as u32)
}

/// A character class body of every character below U+10000 for which `pred` holds, as
/// ranges (`\u0000-\u001F\u007F-\u009F...`).
pub fn class_of(pred: impl Fn(char) -> bool) -> String {
    let mut out = String::new();
    let mut start: Option<char> = None;
    let mut last = '\0';
    for c in (0u32..0x1_0000).filter_map(char::from_u32) {
        match (pred(c), start) {
            (true, None) => {
                start = Some(c);
                last = c;
            }
            (true, Some(_)) if c as u32 == last as u32 + 1 => last = c,
            (true, Some(s)) => {
                out.push_str(&range(s, last));
                start = Some(c);
                last = c;
            }
            (false, Some(s)) => {
                out.push_str(&range(s, last));
                start = None;
            }
            (false, None) => {}
        }
    }
    if let Some(s) = start {
        out.push_str(&range(s, last));
    }
    out
}

/// Any run of white space (Rust's `char::is_whitespace`, as the parsers trim and drop it).
pub fn space() -> String {
    format!("[{}]*", class_of(char::is_whitespace))
}

/// `word` in either case, `between` (white space, say) allowed between its characters. Only
/// the characters with a meaning in a regular expression are escaped, so the pattern reads
/// the same in ECMA-262 with the `u` flag and in Python.
pub fn spaced_word(word: &str, between: &str) -> String {
    word.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
            } else if "^$\\.*+?()[]{}|/".contains(c) {
                format!("\\{c}")
            } else if c.is_ascii() {
                c.to_string()
            } else {
                escaped(c)
            }
        })
        .collect::<Vec<_>>()
        .join(between)
}

fn range(from: char, to: char) -> String {
    if from == to {
        escaped(from)
    } else {
        format!("{}-{}", escaped(from), escaped(to))
    }
}

/// The pattern of a text the server takes ([`super::text_fault`]): no control character, line
/// or paragraph separator or bidirectional control.
pub fn text_pattern() -> String {
    format!("^[^{}]*$", class_of(is_control))
}

/// The pattern of a name ([`crate::domain::validate_name`]): a text with at least one
/// character that is not white space.
pub fn name_pattern() -> String {
    let control = class_of(is_control);
    let blank = class_of(|c| is_control(c) || c.is_whitespace());
    format!("^[^{control}]*[^{blank}][^{control}]*$")
}

fn text(description: &str, min: usize, max: usize, pattern: String) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .min_length(Some(min))
        .max_length(Some(max))
        .pattern(Some(pattern))
        .into()
}

/// Declares a documentation type whose schema is a text of at most `$max` characters with no
/// control characters ([`text_pattern`]): `text_bound!(/// doc ... FideId: 11);`
macro_rules! text_bound {
    ($(#[doc = $doc:literal])+ $name:ident: $max:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some(concat!($($doc, "\n"),+).trim()))
                    .max_length(Some($max))
                    .pattern(Some($crate::limits::schema::text_pattern()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }
    };
}
pub(crate) use text_bound;

/// Declares a documentation type whose schema is the given expression.
macro_rules! documented {
    ($(#[doc = $doc:literal])+ $name:ident => $schema:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                $schema
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

documented!(
    /// A name (of an event, a participant, a team, a token): not blank, no control characters.
    Name => text(
        "A name: not blank, at most the given length, no control characters (line breaks, tabs, bidirectional controls).",
        1,
        MAX_NAME_CHARS,
        name_pattern(),
    )
);

documented!(
    /// A short code or identifier (club, federation, external id): no control characters.
    Code => text(
        "A short code or identifier (club, federation, external id): at most the given length, no control characters.",
        0,
        MAX_CODE_CHARS,
        text_pattern(),
    )
);

text_bound!(
    /// A text of at most a name's length, no control characters (a token's label, a name as
    /// a TRF file prints it).
    PlainText: MAX_NAME_CHARS
);

documented!(
    /// Two start numbers the pairing must not put together.
    StartNumberPair => from_json(serde_json::json!({
        "type": "array",
        "description": "Two start numbers the pairing must not put together.",
        "items": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": u32::MAX},
        "minItems": 2,
        "maxItems": 2
    }))
);

documented!(
    /// A FIDE K factor (B.02 8.3.3).
    KFactor => from_json(serde_json::json!({
        "type": "integer",
        "format": "uint32",
        "enum": [10, 20, 40],
        "description": "A FIDE K factor (B.02 8.3.3): 40, 20 or 10."
    }))
);

integer_bound!(
    /// A rating (0 when unknown is written as no rating).
    Rating: Int32, 0, MAX_RATING
);

integer_bound!(
    /// A rating in rating points (Swiss rating limits).
    RatingPoints: UInt32, 0, MAX_RATING
);

integer_bound!(
    /// A round of a paired event (1 = the first).
    RoundNumber: UInt32, 1, MAX_ROUNDS
);

integer_bound!(
    /// A round of a chess event's games (a round robin has more than a Swiss).
    GameRound: UInt32, 1, MAX_EVENT_ROUNDS
);

integer_bound!(
    /// A board of a chess round.
    GameBoard: UInt32, 1, MAX_RESULTS
);

integer_bound!(
    /// A number of rounds (0: none).
    RoundCount: UInt32, 0, MAX_ROUNDS
);

integer_bound!(
    /// A seed of the random choices (stored as a signed 64-bit integer).
    Seed: UInt64, 0, MAX_SEED
);

integer_bound!(
    /// A number of a movement: a round, table, pair, set or board (four digits, as on every
    /// guide card and traveller).
    MovementNumber: UInt32, 1, MAX_MOVEMENT_NUMBER
);

integer_bound!(
    /// Items per page.
    PageLimit: UInt32, 1, MAX_PAGE_LIMIT
);

integer_bound!(
    /// Items to skip.
    PageOffset: UInt64, 0, MAX_OFFSET
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_class_is_the_servers_control_rule() {
        let class = class_of(is_control);
        assert!(
            class.starts_with("\\u0000-\\u001F\\u007F-\\u009F"),
            "{class}"
        );
        assert!(class.contains("\\u2028-\\u202E"));
        assert!(class.contains("\\u2066-\\u2069"));
        assert!(!class.contains("\\u200E"));
        // nothing above U+FFFF is a control character the rule names
        assert!((0x1_0000u32..0x11_0000)
            .filter_map(char::from_u32)
            .all(|c| !is_control(c)));
    }

    #[test]
    fn a_name_pattern_needs_a_character_other_than_white_space() {
        let p = name_pattern();
        assert!(p.starts_with("^[^\\u0000-\\u001F"));
        assert!(p.contains("\\u0020"), "a space is blank: {p}");
        assert!(p.contains("\\u3000"), "an ideographic space is blank: {p}");
    }
}
