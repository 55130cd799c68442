//! Pure engines: plain data in, plain data out. No I/O, no HTTP, no SQL.
//!
//! `chess/` and `bridge/` hold each game's engines; `matching/`, `rng` and `lots` serve both.

pub mod bridge;
pub mod chess;
pub mod lots;
pub mod matching;
pub mod rng;
