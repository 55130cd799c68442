//! The HTTP shell: one module per resource, each handler thin (parse, authorise, call the
//! store and engines in one transaction, answer).

pub mod admin;
pub mod auth;
pub mod bridge;
pub mod chess;
pub mod connection;
pub mod event_formats;
pub mod events;
pub mod exports;
pub mod extract;
pub mod flatten;
pub mod idempotency;
pub mod openapi;
pub mod responses;
pub mod tournaments;

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
        .service(admin::system::healthz)
        .service(admin::system::metrics)
        .service(admin::backup::backup)
        .service(events::event::create_event)
        .service(tournaments::tournament::create_tournament)
        .service(tournaments::export::import_tournament)
        .service(tournaments::export::export_tournament)
        .service(tournaments::tournament::list_tournaments)
        .service(tournaments::tournament::get_tournament)
        .service(tournaments::tournament::update_tournament)
        .service(tournaments::tournament::delete_tournament)
        .service(tournaments::field::get_across_the_field)
        .service(tournaments::field_exports::get_field_pbn)
        .service(tournaments::field_exports::get_field_usebio)
        .service(tournaments::tournament::create_section)
        .service(tournaments::players::search_participants)
        .service(tournaments::players::move_participant)
        .service(exports::event::import_event)
        .service(exports::event::export_event)
        .service(events::event::list_events)
        .service(events::event::get_event)
        .service(events::event::update_event)
        .service(events::event::delete_event)
        .service(events::tokens::create_token)
        .service(events::tokens::list_tokens)
        .service(events::tokens::revoke_token)
        .service(events::participants::add_participants)
        .service(events::participants::add_participant)
        .service(events::participants::list_participants)
        .service(events::participants::get_participant)
        .service(events::player::get_player_games)
        .service(events::participants::update_participant)
        .service(events::participants::withdraw_participant)
        .service(events::participants::delete_participant)
        .service(events::lots::draw_lots)
        .service(events::rounds::list_rounds)
        .service(events::rounds::get_round)
        .service(chess::pairing::pair_round)
        .service(chess::pairing::publish_round)
        .service(chess::pairing::delete_round)
        .service(chess::pairing_edit::set_pairings)
        .service(chess::pairing_edit::swap_players)
        .service(chess::pairing_edit::force_boards)
        .service(chess::byes::add_bye)
        .service(chess::byes::list_byes)
        .service(chess::byes::delete_bye)
        .service(chess::swiss::pair_swiss)
        .service(chess::team_swiss::pair_team_round_handler)
        .service(chess::team_swiss::get_team_round)
        .service(chess::team_swiss::set_lineup)
        .service(chess::team_swiss::issue_captain_token)
        .service(exports::trf::import_trf)
        .service(exports::trf::export_trf)
        .service(events::results::submit_results)
        .service(events::standings::get_standings)
        .service(events::standings::get_crosstable)
        .service(events::norms::get_norms)
        .service(events::stream::stream_event)
        .service(chess::tables::berger_table)
        .service(chess::tables::scheveningen_table)
        .service(chess::tables::hilton_table)
        .service(bridge::movements::list_kinds)
        .service(bridge::movements::recommend_movements)
        .service(bridge::movements::validate_movement)
        .service(bridge::movements::get_movement)
        .service(bridge::team_movements::validate_team_movement)
        .service(bridge::team_movements::get_team_movement)
        .service(bridge::swiss::draw_bridge_swiss)
        .service(bridge::tools::board_score)
        .service(bridge::tools::board_matchpoints)
        .service(bridge::tools::imps)
        .service(bridge::tools::victory_points)
        .service(bridge::tools::analyse_deals)
        .service(bridge::movement::choose_movement)
        .service(bridge::movement::get_event_movement)
        .service(bridge::movement::get_round_assignments)
        .service(bridge::movement::get_guide_cards)
        .service(bridge::movement::get_scoring_rows)
        .service(bridge::results::submit_board_results)
        .service(bridge::results::get_traveller)
        .service(bridge::results::get_bridge_standings)
        .service(bridge::results::get_scorecard)
        .service(exports::bridge::put_deals)
        .service(exports::bridge::get_deals)
        .service(exports::bridge::get_pbn)
        .service(exports::bridge::get_usebio)
        .service(events::teams::create_team)
        .service(events::teams::list_teams)
        .service(events::teams::get_team)
        .service(events::teams::delete_team)
        .service(events::teams::get_team_standings)
        .service(bridge::team_events::get_event_team_movement)
        .service(bridge::matches::submit_matches)
        .service(bridge::matches::get_matches)
        .service(bridge::matches::get_vp_standings)
        .service(bridge::swiss_draws::get_draw)
        .configure(crate::web::configure)
        .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi::document()))
        .service(web::redirect("/docs", "/docs/"));
}
