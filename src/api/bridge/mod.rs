//! Bridge: movements (stateless and an event's), board results and what they score to (travellers,
//! standings, score cards), teams and Swiss events' matches and draws, and the stateless scoring tools.

pub mod entries;
pub mod matches;
pub mod movement;
pub mod movements;
pub mod results;
pub mod session;
pub mod swiss;
pub mod swiss_draws;
pub mod team_events;
pub mod team_movements;
pub mod tools;
