//! The HTTP shell: one module per resource, each handler thin (parse, authorise, call the
//! store and engines in one transaction, answer).

pub mod admin;
pub mod auth;
pub mod bridge;
pub mod bridge_entries;
pub mod bridge_exports;
pub mod bridge_matches;
pub mod bridge_results;
pub mod bridge_swiss;
pub mod bridge_team_events;
pub mod bridge_tools;
pub mod byes;
pub mod closed_sets;
pub mod connection;
pub mod events;
pub mod export;
pub mod extract;
pub mod flatten;
pub mod idempotency;
pub mod lots;
pub mod movements;
pub mod openapi;
pub mod pairing;
pub mod pairing_edit;
pub mod participants;
pub mod player;
pub mod responses;
pub mod results;
pub mod results_csv;
pub mod rounds;
pub mod standings;
pub mod stream;
pub mod swiss;
pub mod swiss_draws;
pub mod system;
pub mod tables;
pub mod team_movements;
pub mod teams;
pub mod tokens;

use actix_web::web;
use utoipa_swagger_ui::SwaggerUi;

use crate::error::ApiError;
use crate::live::Live;
use crate::store::Store;

/// A path parameter that is not the number it should be: a 422 naming it. Every path
/// parameter the routes parse is a whole number (ids, round numbers); the first one that
/// does not read as one (or, for round numbers, is negative or too large) is named.
fn path_parameter_error(req: &actix_web::HttpRequest) -> ApiError {
    let params: Vec<(&str, &str)> = req.match_info().iter().collect();
    let not_integer = params.iter().find(|(_, v)| v.parse::<i64>().is_err());
    let out_of_range = params.iter().find(|(_, v)| v.parse::<u32>().is_err());
    match (not_integer, out_of_range) {
        (Some((name, value)), _) => {
            ApiError::invalid(*name, format!("{value:?} is not a whole number"))
        }
        (None, Some((name, value))) => ApiError::invalid(
            *name,
            format!("{value} is not a number from 0 to {}", u32::MAX),
        ),
        (None, None) => ApiError::invalid("path", "a path parameter is not valid"),
    }
}

/// Registers every route, the error handlers for malformed requests, and the docs.
pub fn configure(cfg: &mut web::ServiceConfig, store: Store, live: web::Data<Live>) {
    cfg.app_data(web::Data::new(store))
        .app_data(live)
        .app_data(web::PayloadConfig::new(extract::MAX_BODY))
        .app_data(
            web::PathConfig::default().error_handler(|_, req| path_parameter_error(req).into()),
        )
        .service(system::healthz)
        .service(system::metrics)
        .service(admin::backup)
        .service(events::create_event)
        .service(export::import_event)
        .service(export::export_event)
        .service(events::list_events)
        .service(events::get_event)
        .service(events::update_event)
        .service(events::delete_event)
        .service(tokens::create_token)
        .service(tokens::list_tokens)
        .service(tokens::revoke_token)
        .service(participants::add_participants)
        .service(participants::add_participant)
        .service(participants::list_participants)
        .service(participants::get_participant)
        .service(player::get_player_games)
        .service(participants::update_participant)
        .service(participants::withdraw_participant)
        .service(participants::delete_participant)
        .service(lots::draw_lots)
        .service(rounds::list_rounds)
        .service(rounds::get_round)
        .service(pairing::pair_round)
        .service(pairing::publish_round)
        .service(pairing::delete_round)
        .service(pairing_edit::set_pairings)
        .service(pairing_edit::swap_players)
        .service(pairing_edit::force_boards)
        .service(byes::add_bye)
        .service(byes::list_byes)
        .service(byes::delete_bye)
        .service(swiss::pair_swiss)
        .service(swiss::import_trf)
        .service(swiss::export_trf)
        .service(results::submit_results)
        .service(standings::get_standings)
        .service(standings::get_crosstable)
        .service(stream::stream_event)
        .service(tables::berger_table)
        .service(tables::scheveningen_table)
        .service(tables::hilton_table)
        .service(movements::list_kinds)
        .service(movements::recommend_movements)
        .service(movements::validate_movement)
        .service(movements::get_movement)
        .service(team_movements::validate_team_movement)
        .service(team_movements::get_team_movement)
        .service(bridge_swiss::draw_bridge_swiss)
        .service(bridge_tools::board_score)
        .service(bridge_tools::board_matchpoints)
        .service(bridge_tools::imps)
        .service(bridge_tools::victory_points)
        .service(bridge::choose_movement)
        .service(bridge::get_event_movement)
        .service(bridge::get_round_assignments)
        .service(bridge::get_guide_cards)
        .service(bridge::get_scoring_rows)
        .service(bridge_results::submit_board_results)
        .service(bridge_results::get_traveller)
        .service(bridge_results::get_bridge_standings)
        .service(bridge_results::get_scorecard)
        .service(bridge_exports::put_deals)
        .service(bridge_exports::get_pbn)
        .service(bridge_exports::get_usebio)
        .service(teams::create_team)
        .service(teams::list_teams)
        .service(teams::get_team)
        .service(teams::delete_team)
        .service(teams::get_team_standings)
        .service(bridge_team_events::get_event_team_movement)
        .service(bridge_matches::submit_matches)
        .service(bridge_matches::get_matches)
        .service(bridge_matches::get_vp_standings)
        .service(swiss_draws::get_draw)
        .configure(crate::web::configure)
        .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi::document()))
        .service(web::redirect("/docs", "/docs/"));
}
