//! Bridge pair movements (seed 002): one data model, the generators, a validator with a
//! balance report, guide cards and scoring rows.

pub mod cards;
pub mod model;
pub mod report;
pub mod validate;
