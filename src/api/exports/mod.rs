//! Files in and out: an event as one JSON document (export/import), TRF for chess sections, and
//! PBN and USEBIO for bridge sessions.

pub mod bridge;
pub mod club;
pub mod event;
pub mod trf;
pub mod trf_team;
