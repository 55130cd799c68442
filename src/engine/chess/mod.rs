//! Chess engines: round robins (Berger), team tables (Scheveningen, Hilton), the Swiss system,
//! the team Swiss system (C.04.6), the Double-Swiss system (C.04.5),
//! scoring, tie-breaks, ratings and title norms, and the wall chart.

pub mod direct_encounter;
pub mod double_swiss;
pub mod fide_tiebreak;
pub mod games;
pub mod hilton;
pub mod norms;
pub mod rating;
pub mod round_robin;
pub mod scheveningen;
pub mod scoring;
pub mod swiss;
pub mod team_scoring;
pub mod team_swiss;
pub mod tiebreak;
pub mod tiebreak_order;
pub mod wallchart;
