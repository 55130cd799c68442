//! How the pages write numbers and names: a decimal without trailing zeros, an event's format
//! as a title.

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
