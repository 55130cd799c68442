//! Events and the people in them: an event's life (create, read, change, delete), its tokens,
//! participants and players, lots, rounds as published, results, standings, teams and the live stream.

pub mod event;
pub mod lots;
pub mod norms;
pub mod participants;
pub mod player;
pub mod results;
pub mod results_csv;
pub mod rounds;
pub mod standings;
pub mod stream;
pub mod stream_messages;
pub mod teams;
pub mod tokens;
