//! The one place that builds the OpenAPI document (served at `/openapi.json`, printed by
//! `tourney openapi`, committed as `openapi/openapi.json`).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::api;

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

#[derive(OpenApi)]
#[openapi(
    info(
        title = "tourney",
        description = "Event server for chess and bridge tournament directors: pairings, round-robin tables, bridge movements, results and standings.\n\nErrors are `application/problem+json` (RFC 9457). Writes need `Authorization: Bearer <token>` of the event; reads need no token. GETs carry an ETag and answer `If-None-Match` with 304.\n\nPublic web pages for players and printers: `/e/{event_id}` (the event, its rounds, standings, crosstable, each player's games, bridge guide cards)."
    ),
    paths(
        api::system::healthz,
        api::events::create_event,
        api::events::list_events,
        api::events::get_event,
        api::events::update_event,
        api::events::delete_event,
        api::tokens::create_token,
        api::tokens::list_tokens,
        api::tokens::revoke_token,
        api::participants::add_participant,
        api::participants::add_participants,
        api::participants::list_participants,
        api::participants::get_participant,
        api::player::get_player_games,
        api::participants::update_participant,
        api::participants::withdraw_participant,
        api::participants::delete_participant,
        api::lots::draw_lots,
        api::rounds::list_rounds,
        api::rounds::get_round,
        api::pairing::pair_round,
        api::pairing::publish_round,
        api::pairing::delete_round,
        api::pairing_edit::set_pairings,
        api::pairing_edit::swap_players,
        api::pairing_edit::force_boards,
        api::byes::add_bye,
        api::byes::list_byes,
        api::byes::delete_bye,
        api::swiss::pair_swiss,
        api::swiss::import_trf,
        api::swiss::export_trf,
        api::results::submit_results,
        api::standings::get_standings,
        api::standings::get_crosstable,
        api::stream::stream_event,
        api::tables::berger_table,
        api::tables::scheveningen_table,
        api::tables::hilton_table,
        api::movements::list_kinds,
        api::movements::recommend_movements,
        api::movements::get_movement,
        api::movements::validate_movement,
        api::bridge::choose_movement,
        api::bridge::get_event_movement,
        api::bridge::get_round_assignments,
        api::bridge::get_guide_cards,
        api::bridge::get_scoring_rows,
        api::teams::create_team,
        api::teams::list_teams,
        api::teams::get_team,
        api::teams::delete_team,
        api::teams::get_team_standings,
    ),
    components(schemas(crate::error::Problem, crate::error::FieldError)),
    modifiers(&BearerAuth),
    tags(
        (name = "events", description = "Events and their credentials"),
        (name = "participants", description = "Players or pairs, and the drawing of lots"),
        (name = "rounds", description = "Pairings round by round"),
        (name = "results", description = "Results, standings and crosstables"),
        (name = "tables", description = "Stateless pairing tables"),
        (name = "movements", description = "Bridge movements: generate, validate, recommend"),
        (name = "bridge", description = "Bridge pairs events: movement, guide cards, scoring rows"),
        (name = "teams", description = "Chess team events (Scheveningen, Hilton): teams and team standings"),
        (name = "system", description = "Health and documentation"),
    )
)]
pub struct ApiDoc;

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
