//! tourney: an event server for chess and bridge tournament directors.
//!
//! Functional core, thin shell: `engine` holds the pure pairing, table and scoring engines;
//! `store` the SQLite persistence; `api` the actix-web handlers; `server` wires them.

pub mod analysis;
pub mod api;
pub mod config;
pub mod domain;
pub mod engine;
pub mod error;
pub mod event_document;
pub mod limits;
pub mod live;
pub mod memory;
pub mod metrics;
pub mod name_search;
pub mod scratch;
pub mod server;
pub mod store;
pub mod web;
