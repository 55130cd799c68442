//! API tests: a real server on a temporary database, driven over HTTP.

mod bridge_results;
mod bridge_teams;
mod bridge_tools;
mod client;
mod docs;
mod dutch;
mod errors;
mod hardening;
mod http;
mod limits;
mod movements;
mod pages;
mod player;
mod read_cache;
mod round_robin;
mod scripts;
mod security;
mod stream;
mod swiss;
mod tables;
mod teams;
mod tiebreaks;
