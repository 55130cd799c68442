//! Tournaments of several sections: a tournament's life (create, list, read), its sections
//! (created with the tournament's admin token, which administers every one), and its players
//! across sections (search, a late change of section).

pub mod export;
pub mod field;
pub mod field_exports;
pub mod players;
pub mod tournament;
