//! API tests: a real server on a temporary database, driven over HTTP.

mod client;
mod docs;
mod errors;
mod movements;
mod pages;
mod player;
mod round_robin;
mod scripts;
mod security;
mod stream;
mod swiss;
mod tables;
mod teams;
mod tiebreaks;
