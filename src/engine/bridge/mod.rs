//! Bridge engines: pair movements (seed 002), guide cards and scoring rows.

pub mod analysis;
pub mod field;
pub mod match_traveller;
pub mod movement;
pub mod pbn_export;
pub mod scoring;
pub mod session;
pub mod swiss;
pub mod swiss_event;
pub mod swiss_history;
pub mod swiss_tables;
pub mod team_event;
pub mod teams;
pub mod traveller;
pub mod usebio;
