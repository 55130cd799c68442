//! API tests: a real server on a temporary database, driven over HTTP.

mod admin;
mod bridge_results;
mod bridge_swiss_events;
mod bridge_team_events;
mod bridge_teams;
mod bridge_tools;
mod client;
mod docs;
mod errors;
mod export;
mod hardening;
mod http;
mod limits;
mod movements;
mod pages;
mod player;
mod preconditions;
mod read_cache;
mod round_robin;
mod scripts;
mod security;
mod stream;
mod swiss;
mod tables;
mod teams;
mod tiebreaks;
