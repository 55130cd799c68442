//! The tie-breaks a director may order, and an event's tie-break setting: an ordered list of
//! them, or the name of a preset.
//!
//! `"tiebreaks": ["buchholz_cut1", "buchholz", "direct_encounter"]`, or `"tiebreaks": "fide"`
//! (FIDE 2023 for a Swiss: [`FIDE_TIEBREAKS`]), `"us"` (US Chess Swiss: [`SWISS_TIEBREAKS`]) or
//! `"round_robin"` ([`DEFAULT_TIEBREAKS`]).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// The tie-breaks a director may order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// FIDE direct encounter among the tied players ([`crate::engine::chess::direct_encounter`]).
    DirectEncounter,
    /// FIDE WIN: rounds won with or without playing (forfeit wins and full-point byes count).
    Wins,
    /// FIDE WON: games won over the board.
    GamesWon,
    SonnebornBerger,
    GamesPlayed,
    /// Sum of the opponents' adjusted scores (see [`crate::engine::chess::tiebreak`]).
    Solkoff,
    /// Solkoff without the extreme opponents (US Chess modified median).
    ModifiedMedian,
    /// Sum of the running scores, unplayed wins and byes not counted.
    Cumulative,
    /// FIDE 2023 (see [`crate::engine::chess::fide_tiebreak`]): the opponents' adjusted scores,
    /// a player's own unplayed rounds against a dummy with the player's own score.
    Buchholz,
    /// FIDE Buchholz less the least significant contribution (voluntarily unplayed rounds first).
    BuchholzCut1,
    /// FIDE Buchholz less the two least significant contributions.
    BuchholzCut2,
    /// FIDE median-1 Buchholz: less the cut-1 contribution and the highest.
    MedianBuchholz,
    /// FIDE progressive score: the running scores summed, every point counted.
    Progressive,
    /// FIDE: games played over the board with black.
    GamesWithBlack,
    /// FIDE: average rating of the opponents met over the board, less the lowest.
    AroCut1,
    /// FIDE Koya (round robins): points against the opponents with at least half the points.
    Koya,
}

/// The FIDE preset for a Swiss (`"tiebreaks": "fide"`): Buchholz cut-1, Buchholz, direct
/// encounter, average rating of opponents cut-1, wins, games with black.
pub const FIDE_TIEBREAKS: [Tiebreak; 6] = [
    Tiebreak::BuchholzCut1,
    Tiebreak::Buchholz,
    Tiebreak::DirectEncounter,
    Tiebreak::AroCut1,
    Tiebreak::Wins,
    Tiebreak::GamesWithBlack,
];

/// US Chess order for Swiss sections: modified median, Solkoff, cumulative.
pub const SWISS_TIEBREAKS: [Tiebreak; 3] = [
    Tiebreak::ModifiedMedian,
    Tiebreak::Solkoff,
    Tiebreak::Cumulative,
];

/// Round robins: direct encounter, wins, Sonneborn-Berger.
pub const DEFAULT_TIEBREAKS: [Tiebreak; 3] = [
    Tiebreak::DirectEncounter,
    Tiebreak::Wins,
    Tiebreak::SonnebornBerger,
];

/// The names a tie-break setting accepts, for error messages.
pub const TIEBREAK_NAMES: &str =
    "direct_encounter, wins, games_won, sonneborn_berger, games_played, \
solkoff, modified_median, cumulative, buchholz, buchholz_cut1, buchholz_cut2, median_buchholz, \
progressive, games_with_black, aro_cut1, koya";

/// A named tie-break order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakPreset {
    /// FIDE 2023 for a Swiss: Buchholz cut-1, Buchholz, direct encounter, ARO cut-1, wins,
    /// games with black.
    Fide,
    /// US Chess for a Swiss: modified median, Solkoff, cumulative.
    Us,
    /// Round robins: direct encounter, wins, Sonneborn-Berger.
    RoundRobin,
}

/// The `tiebreaks` setting: a preset name or the tie-breaks in order.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum TiebreakOrder {
    Preset(TiebreakPreset),
    List(Vec<Tiebreak>),
}

impl TiebreakOrder {
    /// The tie-breaks in the order they apply.
    pub fn tiebreaks(&self) -> Vec<Tiebreak> {
        match self {
            TiebreakOrder::Preset(TiebreakPreset::Fide) => FIDE_TIEBREAKS.to_vec(),
            TiebreakOrder::Preset(TiebreakPreset::Us) => SWISS_TIEBREAKS.to_vec(),
            TiebreakOrder::Preset(TiebreakPreset::RoundRobin) => DEFAULT_TIEBREAKS.to_vec(),
            TiebreakOrder::List(list) => list.clone(),
        }
    }
}

impl<'de> Deserialize<'de> for TiebreakOrder {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(name) => {
                TiebreakPreset::deserialize(serde_json::Value::String(name.clone()))
                    .map(TiebreakOrder::Preset)
                    .map_err(|_| {
                        D::Error::custom(format!(
                            "unknown preset `{name}`; presets: fide, us, round_robin"
                        ))
                    })
            }
            list @ serde_json::Value::Array(_) => Vec::<Tiebreak>::deserialize(list)
                .map(TiebreakOrder::List)
                .map_err(|e| {
                    D::Error::custom(format!(
                        "must be a preset (fide, us, round_robin) or a list of {TIEBREAK_NAMES} ({e})"
                    ))
                }),
            _ => Err(D::Error::custom(format!(
                "must be a preset (fide, us, round_robin) or a list of {TIEBREAK_NAMES}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_preset_or_a_list() {
        let fide: TiebreakOrder = serde_json::from_value(json!("fide")).unwrap();
        assert_eq!(fide.tiebreaks(), FIDE_TIEBREAKS.to_vec());
        let list: TiebreakOrder =
            serde_json::from_value(json!(["koya", "sonneborn_berger", "buchholz_cut2"])).unwrap();
        assert_eq!(
            list.tiebreaks(),
            vec![
                Tiebreak::Koya,
                Tiebreak::SonnebornBerger,
                Tiebreak::BuchholzCut2
            ]
        );
        for bad in [json!("fidee"), json!(["buchholz", "cut3"]), json!(3)] {
            let e = serde_json::from_value::<TiebreakOrder>(bad.clone()).unwrap_err();
            assert!(e.to_string().contains("fide"), "{bad}: {e}");
        }
        assert_eq!(serde_json::to_value(&fide).unwrap(), json!("fide"));
    }
}
