//! What the scoring parsers read, as regular expressions for the OpenAPI document: a contract
//! ([`Contract`](super::Contract)'s `FromStr`), a seat ([`Seat`](super::Seat)), a result
//! against the contract ([`tricks_from_result`](super::tricks_from_result)), an adjusted score
//! ([`parse_adjusted`](super::parse_adjusted)) and an opening lead. Each pattern takes exactly
//! the texts its parser takes (any case, white space where the parser drops it), so a client
//! validating by the document sends what the server reads; whether a result fits its contract
//! (`+7` on a 7NT) is a rule between two fields, left to the server.

use crate::engine::bridge::scoring::{MAX_BOARDS, MAX_SCORE};
use crate::limits::schema::{integer_bound, space, spaced_word};

/// A contract: level 1–7, strain `C`, `D`, `H`, `S` (or a suit symbol), `N` or `NT`, then `X`
/// or `XX` (`*`, `**`); or a passed-out board (`PASS`, `P`, `AP`, `ALLPASS`, `PASSEDOUT`). Any
/// case, white space anywhere.
pub fn contract_pattern() -> String {
    let w = space();
    let passed = ["PASS", "P", "AP", "ALLPASS", "PASSEDOUT"]
        .iter()
        .map(|p| spaced_word(p, &w))
        .collect::<Vec<_>>()
        .join("|");
    let strain = format!(
        "(?:{nt}|[CcDdHhSsNn\\u2663\\u2667\\u2666\\u2662\\u2665\\u2661\\u2660\\u2664])",
        nt = spaced_word("NT", &w)
    );
    let doubling = format!("(?:{xx}|\\*{w}\\*|[Xx]|\\*)?", xx = spaced_word("XX", &w));
    format!("^{w}(?:{passed}|[1-7]{w}{strain}{w}{doubling}){w}$")
}

/// A seat: `N`, `E`, `S`, `W` or `North` … `West`, any case.
pub fn seat_pattern() -> String {
    let w = space();
    let seats = ["NORTH", "EAST", "SOUTH", "WEST"]
        .iter()
        .map(|s| {
            let (first, rest) = s.split_at(1);
            format!("{}(?:{})?", spaced_word(first, ""), spaced_word(rest, ""))
        })
        .collect::<Vec<_>>()
        .join("|");
    format!("^{w}(?:{seats}){w}$")
}

/// A result against the contract: `=`, `0`, or a sign (`+`, `-`, `−`) and one or two digits;
/// on a passed-out board also nothing or `-`.
pub fn result_pattern() -> String {
    let w = space();
    format!("^{w}(?:=|-|0|[+\\-\\u2212][0-9]{{1,2}})?{w}$")
}

/// An artificial adjusted score: `NS/EW`, or one value for both, each `A+`, `A` (`A=`), `A-`
/// (`AVE`, `AVG` for `A`) or the percentage `60`, `50`, `40` (`%` allowed); any case.
pub fn adjusted_pattern() -> String {
    let w = space();
    let core = "(?:[Aa](?:[Vv][Ee]|[Vv][Gg])?[+=\\-]?|60|50|40)";
    let side = format!("{w}{core}(?:{w}%+)?{w}");
    format!("^{side}(?:/{side})?$")
}

/// An opening lead: suit letter then rank (`HK`, `S7`, `DT` or `D10`), any case.
pub fn lead_pattern() -> String {
    let w = space();
    format!("^{w}[SsHhDdCc](?:10|[AaKkQqJjTt2-9]){w}$")
}

/// Declares a documentation type for a text read by one of the parsers above.
macro_rules! notation {
    ($(#[doc = $doc:literal])+ $name:ident => $pattern:expr, $max:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some(concat!($($doc, "\n"),+).trim()))
                    .max_length($max)
                    .pattern($pattern)
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

notation!(
    /// A contract: `4S`, `4SX`, `3NT` (`N` for `NT`), `7HXX`; `PASS` for a passed-out board.
    /// Any case, spaces anywhere (`4 h x`), suit symbols for the letters.
    ContractText => Some(contract_pattern()), None
);

notation!(
    /// A seat: `N`, `E`, `S`, `W` (or `North` … `West`), any case.
    SeatText => Some(seat_pattern()), None
);

notation!(
    /// A result against the contract: `=`, `+1`, `-2` (`0`, `+0` for made exactly); on a
    /// passed-out board nothing, `=`, `0` or `-`. It must fit the contract (0 to 13 tricks).
    ResultText => Some(result_pattern()), None
);

notation!(
    /// An artificial adjusted score: `NS/EW` with each side `A+`, `A` (or `A=`), `A-`, or
    /// `60`, `50`, `40` (`%` allowed); one value alone for both sides (`A`).
    AdjustedText => Some(adjusted_pattern()), None
);

/// Longest text of a field of a board result as entered (contract, result, lead, section,
/// adjusted score).
pub const MAX_ENTRY_CHARS: usize = 16;

notation!(
    /// A board result's contract (as `ContractText`, at most 16 characters).
    EntryContract => Some(contract_pattern()), Some(MAX_ENTRY_CHARS)
);

notation!(
    /// A board result's declarer (as `SeatText`, at most 16 characters).
    EntrySeat => Some(seat_pattern()), Some(MAX_ENTRY_CHARS)
);

notation!(
    /// A board result's result against the contract (as `ResultText`, at most 16 characters).
    EntryResult => Some(result_pattern()), Some(MAX_ENTRY_CHARS)
);

notation!(
    /// A board result's adjusted score (as `AdjustedText`, at most 16 characters).
    EntryAdjusted => Some(adjusted_pattern()), Some(MAX_ENTRY_CHARS)
);

notation!(
    /// A board result's section label.
    EntrySection => None::<String>, Some(MAX_ENTRY_CHARS)
);

notation!(
    /// An opening lead: suit then rank (`HK`, `S7`, `DT` or `D10`).
    EntryLead => Some(lead_pattern()), Some(MAX_ENTRY_CHARS)
);

integer_bound!(
    /// A score from NS's viewpoint (the largest a board can score either way).
    BoardScoreValue: Int32, -MAX_SCORE, MAX_SCORE
);

/// An assigned score: a multiple of 10, from NS's viewpoint.
pub struct AssignedScore;

impl utoipa::PartialSchema for AssignedScore {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .format(Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(
                utoipa::openapi::schema::KnownFormat::Int32,
            )))
            .description(Some(
                "An assigned score from NS's viewpoint: a multiple of 10, at most the largest board score either way.",
            ))
            .multiple_of(Some(10))
            .minimum(Some(-MAX_SCORE))
            .maximum(Some(MAX_SCORE))
            .into()
    }
}

impl utoipa::ToSchema for AssignedScore {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("AssignedScore")
    }
}

integer_bound!(
    /// Tricks taken by declarer.
    Tricks: UInt8, 0, 13
);

integer_bound!(
    /// Boards of a match scored in victory points.
    VpBoards: UInt32, 1, MAX_BOARDS
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_name_every_form_the_parsers_read() {
        let c = contract_pattern();
        assert!(c.starts_with("^[\\u0009-\\u000D\\u0020"), "{c}");
        assert!(c.contains("[1-7]"));
        assert!(seat_pattern().contains("[Nn](?:[Oo][Rr][Tt][Hh])?"));
        assert!(adjusted_pattern().contains("|60|50|40)"));
        assert!(lead_pattern().contains("(?:10|[AaKkQqJjTt2-9])"));
    }
}
