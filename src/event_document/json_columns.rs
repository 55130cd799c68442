//! The JSON columns of an imported document read as the server reads them: a bridge pairs
//! event's movement and a teams event's team movement must be what choosing a movement or
//! drawing lots could have stored (their own type, within the checked sizes, without errors),
//! else the event's every read would fail on them. Other JSON columns are read leniently
//! (a round's details) or checked with the event (its settings).

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::engine::bridge::movement::model::Movement;
use crate::engine::bridge::movement::validate::{validate, Severity};
use crate::engine::bridge::teams::validate::{report, too_large};
use crate::engine::bridge::teams::TeamMovement;

/// What is wrong with `value` in `column` of `table`, if anything.
pub fn fault(table: &str, column: &str, value: &Value) -> Option<String> {
    match (table, column) {
        ("movements", "movement") => {
            let m: Movement = match read(value) {
                Ok(m) => m,
                Err(e) => return Some(e),
            };
            let errors: Vec<String> = validate(&m)
                .into_iter()
                .filter(|f| f.severity == Severity::Error)
                .map(|f| f.message)
                .take(3)
                .collect();
            (!errors.is_empty())
                .then(|| format!("is not a playable movement: {}", errors.join("; ")))
        }
        ("team_schedules", "movement") => {
            let m: TeamMovement = match read(value) {
                Ok(m) => m,
                Err(e) => return Some(e),
            };
            if let Some((field, message)) = too_large(&m) {
                return Some(format!("{field}: {message}"));
            }
            let r = report(&m);
            let errors: Vec<String> = r.errors.into_iter().take(3).collect();
            (!r.valid).then(|| format!("is not a playable team movement: {}", errors.join("; ")))
        }
        _ => None,
    }
}

/// `value` as a `T`, or why not.
fn read<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    T::deserialize(value).map_err(|e| format!("cannot be read: {e}"))
}
