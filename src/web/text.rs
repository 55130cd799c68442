//! How the pages write numbers and names: a decimal without trailing zeros, a score in one
//! notation (`1½`), a number of points with its noun, an event's format as a title.

use crate::engine::bridge::movement::model::SitOut;

/// `12.5`, `12`, `0.25`: at most two decimals, no trailing zeros.
pub(super) fn decimal(x: f64) -> String {
    format!("{x:.2}")
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// An event's format as a title: `swiss_teams` is `Swiss teams`.
pub(super) fn format_name(format: &str) -> String {
    let spaced = format.replace('_', " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// A score in the one notation of every page: whole, half and quarter points as vulgar
/// fractions (`1½`, `9¾`, `½`), anything finer as a decimal (`12.35`).
pub(super) fn score(x: f64) -> String {
    let quarters = (x * 4.0).round();
    if (x * 4.0 - quarters).abs() > 1e-9 {
        return decimal(x);
    }
    let sign = if quarters < 0.0 { "-" } else { "" };
    let q = quarters.abs() as u64;
    let (whole, part) = (q / 4, ["", "¼", "½", "¾"][(q % 4) as usize]);
    match (whole, part) {
        (0, "") => "0".to_string(),
        (0, part) => format!("{sign}{part}"),
        (whole, part) => format!("{sign}{whole}{part}"),
    }
}

/// `1 point`, `1½ points`, `0 points`: a chess score with its noun.
pub(super) fn points_phrase(x: f64) -> String {
    let noun = if (x - 1.0).abs() < 1e-9 || (x - 0.5).abs() < 1e-9 {
        "point"
    } else {
        "points"
    };
    format!("{} {noun}", score(x))
}

/// A pair as the director calls it: `NS 3`, `EW 2`, or `5` (Howell numbering).
pub(super) fn label_text(label: SitOut) -> String {
    match label {
        SitOut::Ns(n) => format!("NS {n}"),
        SitOut::Ew(n) => format!("EW {n}"),
        SitOut::Pair(n) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_notation_for_halves_and_quarters() {
        assert_eq!(score(1.5), "1½");
        assert_eq!(score(0.5), "½");
        assert_eq!(score(9.75), "9¾");
        assert_eq!(score(2.0), "2");
        assert_eq!(score(0.0), "0");
        assert_eq!(score(-1.5), "-1½");
        assert_eq!(score(12.35), "12.35");
        assert_eq!(score(1950.0), "1950");
    }

    #[test]
    fn a_point_is_singular_and_half_a_point_too() {
        assert_eq!(points_phrase(1.0), "1 point");
        assert_eq!(points_phrase(0.5), "½ point");
        assert_eq!(points_phrase(1.5), "1½ points");
        assert_eq!(points_phrase(0.0), "0 points");
        assert_eq!(points_phrase(2.0), "2 points");
    }
}
