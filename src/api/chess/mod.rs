//! Chess rounds: Swiss pairing of an event's next round and a director's changes to a draft,
//! requested byes, the stateless Swiss pairing for other software, and the round-robin tables.

pub mod byes;
pub mod pairing;
pub mod pairing_edit;
pub mod swiss;
pub mod tables;
