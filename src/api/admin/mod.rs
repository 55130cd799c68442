//! The server's own operations: health, metrics and the database backup.

pub mod backup;
pub mod system;
