//! Chess rounds: Swiss pairing of an event's next round and a director's changes to a draft,
//! requested byes, the stateless Swiss pairing for other software, the round-robin tables, and
//! the team Swiss rounds (C.04.6).

pub mod byes;
pub mod pairing;
pub mod pairing_edit;
pub mod swiss;
pub mod tables;
pub mod team_swiss;
