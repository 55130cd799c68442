//! Pure engines: plain data in, plain data out. No I/O, no HTTP, no SQL.

pub mod hilton;
pub mod lots;
pub mod matching;
pub mod movement;
pub mod rng;
pub mod round_robin;
pub mod scheveningen;
pub mod scoring;
pub mod swiss;
pub mod team_scoring;
pub mod tiebreak;
pub mod wallchart;
