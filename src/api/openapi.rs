//! The one place that builds the OpenAPI document (served at `/openapi.json`, printed by
//! `tourney openapi`, committed as `openapi/openapi.json`).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{Modify, OpenApi, PartialSchema, ToSchema};

use crate::error::{FieldError, Problem};

use crate::api;
use crate::api::event_formats::SettingsByFormat;
use crate::api::events::stream_messages::StreamMessage;
use crate::api::flatten::FlattenTaggedVariants;
use crate::api::responses::IfMatchHeader;

/// Unsigned integers under the format names of the OpenAPI format registry (`uint8` ...
/// `uint64`), with the range of the format as `maximum` where the field has no smaller bound.
/// utoipa's `non_strict_integers` gives unsigned fields their own formats (so a u32 is not
/// promised as an `int32`, whose range it exceeds) but spells them `u-int32`; and a client
/// (or a fuzzer) that does not know the registry's formats reads an unbounded integer.
struct UnsignedFormats;

impl Modify for UnsignedFormats {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Ok(json) = serde_json::to_string(&*openapi) else {
            return;
        };
        let renamed = ["8", "16", "32", "64"].iter().fold(json, |json, bits| {
            json.replace(
                &format!("\"format\":\"u-int{bits}\""),
                &format!("\"format\":\"uint{bits}\""),
            )
        });
        let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(&renamed) else {
            return;
        };
        bound_unsigned(&mut doc);
        close_single_key_choices(&mut doc);
        if let Ok(doc) = serde_json::from_value(doc) {
            *openapi = doc;
        }
    }
}

/// Gives every schema of format `uintN` without a `maximum` the format's largest value.
fn bound_unsigned(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            let largest = match map.get("format").and_then(|f| f.as_str()) {
                Some("uint8") => Some(u64::from(u8::MAX)),
                Some("uint16") => Some(u64::from(u16::MAX)),
                Some("uint32") => Some(u64::from(u32::MAX)),
                Some("uint64") => Some(u64::MAX),
                _ => None,
            };
            if let Some(largest) = largest {
                map.entry("maximum").or_insert(largest.into());
                map.entry("minimum").or_insert(0.into());
            }
            for v in map.values_mut() {
                bound_unsigned(v);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(bound_unsigned),
        _ => {}
    }
}

/// A choice written as a map of one key (`{"ns": 3}` or `{"ew": 3}`: an externally tagged
/// enum) is read with that one key only: each branch of such a `oneOf` gets
/// `additionalProperties: false`, so a map with more keys is not valid by the schema either.
fn close_single_key_choices(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Array(branches)) = map.get_mut("oneOf") {
                let single_key = |b: &serde_json::Value| {
                    let props = b.get("properties").and_then(|p| p.as_object());
                    let required = b.get("required").and_then(|r| r.as_array());
                    matches!((props, required), (Some(p), Some(r))
                        if p.len() == 1 && r.len() == 1 && p.contains_key(r[0].as_str().unwrap_or("")))
                };
                if !branches.is_empty() && branches.iter().all(single_key) {
                    for b in branches.iter_mut() {
                        if let Some(b) = b.as_object_mut() {
                            b.insert("additionalProperties".into(), false.into());
                        }
                    }
                }
            }
            map.values_mut().for_each(close_single_key_choices);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(close_single_key_choices),
        _ => {}
    }
}

/// The live stream's answer names the schema of its messages (`StreamMessage`; the body
/// itself is `text/event-stream`).
struct LiveMessages;

impl Modify for LiveMessages {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let stream = openapi
            .paths
            .paths
            .get_mut("/api/v1/events/{event_id}/stream")
            .and_then(|item| item.get.as_mut());
        if let Some(RefOr::T(ok)) = stream.and_then(|op| op.responses.responses.get_mut("200")) {
            ok.description.push_str(
                ". Each message is one `StreamMessage` (components): its `event`, its `id`, and its `data` as JSON",
            );
        }
    }
}

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The event's admin token (from creating the event) or a scorer token",
                    ))
                    .build(),
            ),
        );
    }
}

/// Declares the documented routes once: the document ([`ApiDoc`]) and the schema references of
/// the same routes ([`schema_references`]) come from one list.
macro_rules! documented_routes {
    ($($($segment:ident)::+),* $(,)?) => {
        #[derive(OpenApi)]
        #[openapi(
            info(
                title = "tourney",
                description = "Event server for chess and bridge tournament directors: pairings, round-robin tables, bridge movements, results and standings.\n\nErrors are `application/problem+json` (RFC 9457). Writes need `Authorization: Bearer <token>` of the event (or of its tournament); reads need no token. GETs carry an ETag and answer `If-None-Match` with 304. Changes of an event or a tournament honour `If-Match` with any ETag of its data or its version (412 when another change came first); a tournament's version moves with each of its sections.\n\nAn integer may be written with a zero fraction (`1219.0` is 1219, as JSON Schema counts it); a fraction (`1219.5`) where an integer is expected is refused with 422 naming the field. Every bound the server checks is in the schema (`minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `enum`, `maxItems`); a rule between fields (a seed only with a random draw, an end date not before the start) is said in the description and refused with 422.\n\nPATCH bodies are JSON Merge Patches (RFC 7396): a field named changes, `null` removes it, the rest stays; objects (an event's settings) merge key by key.\n\nPublic web pages for players and printers: `/e/{event_id}` (the event, its rounds, standings, crosstable, each player's games, bridge guide cards) and `/t/{tournament_id}` (a tournament's sections, each linking to its pages)."
            ),
            paths($($($segment)::+),*),
            components(schemas(Problem, FieldError, StreamMessage, crate::domain::closed_sets::TrfFormat)),
            modifiers(&SettingsByFormat, &LiveMessages, &BearerAuth, &FlattenTaggedVariants, &UnsignedFormats, &IfMatchHeader),
            tags(
                (name = "events", description = "Events and their credentials"),
                (name = "tournaments", description = "Tournaments of several sections: one admin token for every section, players searched and moved across sections"),
                (name = "participants", description = "Players or pairs, and the drawing of lots"),
                (name = "rounds", description = "Pairings round by round"),
                (name = "results", description = "Results, standings and crosstables"),
                (name = "tables", description = "Stateless pairing tables"),
                (name = "movements", description = "Bridge movements: generate, validate, recommend"),
                (name = "bridge", description = "Bridge pairs events: movement, guide cards, scoring rows, board results, travellers, standings, hand records and exports (PBN, USEBIO); bridge teams and Swiss events: team movement, draws, matches (IMPs, VPs), VP standings; stateless scoring (score, matchpoints, IMPs, VPs)"),
                (name = "teams", description = "Team events: teams (chess Scheveningen and Hilton, bridge teams and Swiss teams) and chess team standings"),
                (name = "system", description = "Health and documentation"),
            )
        )]
        pub struct ApiDoc;

        /// Every (component name, schema) pair the documented routes refer to, each as its
        /// own Rust type describes it, before the document keeps one schema per name.
        pub fn schema_references() -> Vec<(String, RefOr<Schema>)> {
            let mut schemas = vec![
                (Problem::name().into_owned(), Problem::schema()),
                (FieldError::name().into_owned(), FieldError::schema()),
                (StreamMessage::name().into_owned(), StreamMessage::schema()),
            ];
            // The trait the `OpenApi` derive itself calls for each path (hidden in utoipa's
            // docs, stable within utoipa 5).
            $(<$($segment)::+ as utoipa::__dev::SchemaReferences>::schemas(&mut schemas);)*
            schemas
        }
    };
}

documented_routes!(
    api::admin::system::healthz,
    api::admin::system::metrics,
    api::admin::backup::backup,
    api::events::event::create_event,
    api::events::event::list_events,
    api::exports::event::export_event,
    api::exports::event::import_event,
    api::events::event::get_event,
    api::events::event::update_event,
    api::events::event::delete_event,
    api::tournaments::tournament::create_tournament,
    api::tournaments::tournament::list_tournaments,
    api::tournaments::tournament::get_tournament,
    api::tournaments::tournament::update_tournament,
    api::tournaments::tournament::delete_tournament,
    api::tournaments::field::get_across_the_field,
    api::tournaments::field_exports::get_field_pbn,
    api::tournaments::field_exports::get_field_usebio,
    api::tournaments::tournament::create_section,
    api::tournaments::players::search_participants,
    api::tournaments::players::move_participant,
    api::tournaments::export::export_tournament,
    api::tournaments::export::import_tournament,
    api::events::tokens::create_token,
    api::events::tokens::list_tokens,
    api::events::tokens::revoke_token,
    api::events::participants::add_participant,
    api::events::participants::add_participants,
    api::events::participants::list_participants,
    api::events::participants::get_participant,
    api::events::player::get_player_games,
    api::events::participants::update_participant,
    api::events::participants::withdraw_participant,
    api::events::participants::delete_participant,
    api::events::lots::draw_lots,
    api::events::rounds::list_rounds,
    api::events::rounds::get_round,
    api::chess::pairing::pair_round,
    api::chess::pairing::publish_round,
    api::chess::pairing::delete_round,
    api::chess::pairing_edit::set_pairings,
    api::chess::pairing_edit::swap_players,
    api::chess::pairing_edit::force_boards,
    api::chess::byes::add_bye,
    api::chess::byes::list_byes,
    api::chess::byes::delete_bye,
    api::chess::swiss::pair_swiss,
    api::chess::team_swiss::pair_team_round_handler,
    api::chess::team_swiss::get_team_round,
    api::chess::team_swiss::set_lineup,
    api::chess::team_swiss::issue_captain_token,
    api::exports::trf::import_trf,
    api::exports::trf::export_trf,
    api::events::results::submit_results,
    api::events::standings::get_standings,
    api::events::standings::get_crosstable,
    api::events::norms::get_norms,
    api::events::stream::stream_event,
    api::chess::tables::berger_table,
    api::chess::tables::scheveningen_table,
    api::chess::tables::hilton_table,
    api::bridge::movements::list_kinds,
    api::bridge::movements::recommend_movements,
    api::bridge::movements::get_movement,
    api::bridge::movements::validate_movement,
    api::bridge::team_movements::get_team_movement,
    api::bridge::team_movements::validate_team_movement,
    api::bridge::swiss::draw_bridge_swiss,
    api::bridge::tools::board_score,
    api::bridge::tools::board_matchpoints,
    api::bridge::tools::imps,
    api::bridge::tools::victory_points,
    api::bridge::tools::analyse_deals,
    api::bridge::movement::choose_movement,
    api::bridge::movement::get_event_movement,
    api::bridge::movement::get_round_assignments,
    api::bridge::movement::get_guide_cards,
    api::bridge::movement::get_scoring_rows,
    api::bridge::results::submit_board_results,
    api::bridge::results::get_traveller,
    api::bridge::results::get_bridge_standings,
    api::bridge::results::get_scorecard,
    api::exports::bridge::put_deals,
    api::exports::bridge::get_deals,
    api::exports::bridge::get_pbn,
    api::exports::bridge::get_usebio,
    api::events::teams::create_team,
    api::events::teams::list_teams,
    api::events::teams::get_team,
    api::events::teams::delete_team,
    api::events::teams::get_team_standings,
    api::bridge::team_events::get_event_team_movement,
    api::bridge::matches::submit_matches,
    api::bridge::matches::get_matches,
    api::bridge::matches::get_vp_standings,
    api::bridge::swiss_draws::get_draw,
);

/// The OpenAPI document.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as pretty JSON with a final newline (the committed form).
pub fn document_json() -> String {
    let mut s = document()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// The component names that two different schemas claim (two Rust types documented under one
/// name): the document keeps only the last one and silently describes the others wrongly.
pub fn component_name_clashes(references: &[(String, RefOr<Schema>)]) -> Vec<String> {
    let mut shapes: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for (name, schema) in references {
        let shape = serde_json::to_string(schema).unwrap_or_default();
        let seen = shapes.entry(name).or_default();
        if !seen.contains(&shape) {
            seen.push(shape);
        }
    }
    shapes
        .into_iter()
        .filter(|(_, shapes)| shapes.len() > 1)
        .map(|(name, _)| name.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(dead_code)] // only their schemas are used
    mod chess {
        /// A chess round.
        #[derive(utoipa::ToSchema)]
        pub struct Round {
            pub number: u32,
        }
    }

    #[allow(dead_code)]
    mod bridge {
        /// A movement round.
        #[derive(utoipa::ToSchema)]
        pub struct Round {
            pub tables: Vec<u32>,
        }
    }

    fn reference<T: ToSchema>() -> (String, RefOr<Schema>) {
        (T::name().into_owned(), T::schema())
    }

    #[test]
    fn two_types_under_one_name_are_found_and_one_type_twice_is_not() {
        let same_type_twice = [reference::<chess::Round>(), reference::<chess::Round>()];
        assert!(component_name_clashes(&same_type_twice).is_empty());
        let two_types = [reference::<chess::Round>(), reference::<bridge::Round>()];
        assert_eq!(component_name_clashes(&two_types), ["Round"]);
    }

    #[test]
    fn every_documented_schema_has_its_own_name() {
        let references = schema_references();
        assert!(references.iter().any(|(name, _)| name == "MovementRound"));
        assert_eq!(component_name_clashes(&references), Vec::<String>::new());
    }
}
