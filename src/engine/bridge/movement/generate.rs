//! One entry point for every movement generator: `generate(kind, params)`.

use super::howell::{howell, three_quarter_howell};
use super::mitchell;
use super::model::{Movement, MovementError, MovementParams};

/// The kinds served outside the Mitchell family.
pub const HOWELL_KINDS: &[&str] = &["howell", "three_quarter_howell"];

const N_KINDS: usize = mitchell::KINDS.len() + HOWELL_KINDS.len();

const fn all_kinds() -> [&'static str; N_KINDS] {
    let mut out = [""; N_KINDS];
    let mut i = 0;
    while i < mitchell::KINDS.len() {
        out[i] = mitchell::KINDS[i];
        i += 1;
    }
    let mut j = 0;
    while j < HOWELL_KINDS.len() {
        out[i + j] = HOWELL_KINDS[j];
        j += 1;
    }
    out
}

const ALL_KINDS: [&str; N_KINDS] = all_kinds();

/// Every movement kind: the Mitchell family, then `howell` and `three_quarter_howell`.
pub const KINDS: &[&str] = &ALL_KINDS;

/// Generates a movement of `kind`; an unknown kind is an error on field `kind` listing
/// `KINDS`.
pub fn generate(kind: &str, p: &MovementParams) -> Result<Movement, MovementError> {
    match kind {
        "howell" => howell(p),
        "three_quarter_howell" => three_quarter_howell(p),
        _ => mitchell::generate(kind, p).unwrap_or_else(|| {
            Err(
                MovementError::new("kind", format!("unknown movement kind '{kind}'"))
                    .with_supported(KINDS.join(", ")),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatches_and_names_unknown_kinds() {
        assert!(KINDS.contains(&"howell") && KINDS.contains(&"three_quarter_howell"));
        let p = MovementParams {
            tables: 4,
            ..Default::default()
        };
        assert_eq!(generate("howell", &p).unwrap().kind, "howell");
        let e = generate("nonsense", &p).unwrap_err();
        assert_eq!(e.field, "kind");
        assert!(e.supported.unwrap().contains("three_quarter_howell"));
    }
}
