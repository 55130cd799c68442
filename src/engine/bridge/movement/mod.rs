//! Bridge pair movements (seed 002): one data model, the generators, a validator with a
//! balance report, a recommender, guide cards and scoring rows.

pub mod cards;
pub mod comparisons;
pub mod generate;
pub mod howell;
pub mod mitchell;
pub mod model;
pub mod recommend;
pub mod report;
pub mod validate;
