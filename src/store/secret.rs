//! The server secret that keys token hashes (HMAC-SHA-256), kept in a file beside the database
//! (`tourney.db.secret`, created at first start, readable by its owner only). A copy of the
//! database alone does not let anyone test guessed tokens against its hashes.
//!
//! Tokens issued before the secret existed were stored as a bare SHA-256; they keep working
//! (a lookup tries the keyed hash, then the bare one), so no director loses access. Hashes
//! cannot be migrated (the tokens themselves are never stored); revoking and reissuing an old
//! scorer token moves it to the keyed hash.

use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::functions::FunctionFlags;
use rusqlite::Connection;
use sha2::{Digest, Sha256};

/// The secret's file for the database at `db`.
pub fn path_for(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".secret");
    PathBuf::from(name)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads the secret of the database at `db`, creating it on first start.
pub fn load_or_create(db: &Path) -> Result<[u8; 32], String> {
    let path = path_for(db);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let text = text.trim();
            let bytes: Vec<u8> = (0..text.len())
                .step_by(2)
                .filter_map(|i| text.get(i..i + 2))
                .filter_map(|pair| u8::from_str_radix(pair, 16).ok())
                .collect();
            <[u8; 32]>::try_from(bytes.as_slice())
                .map_err(|_| format!("{} is not 64 hex digits", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut secret = [0u8; 32];
            getrandom::fill(&mut secret)
                .map_err(|e| format!("no randomness for the secret: {e}"))?;
            create_owner_only(&path, &hex(&secret))?;
            Ok(secret)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Creates the file at `path` (never over an existing one) holding `text` and a line break,
/// readable and writable by its owner only, and flushed to disk.
pub fn create_owner_only(path: &Path, text: &str) -> Result<(), String> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    writeln!(file, "{text}")
        .and_then(|_| file.sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// 32 random bytes as 64 hex digits (secrets and tokens the server makes).
pub fn random_hex() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(hex(&bytes))
}

/// HMAC-SHA-256 (RFC 2104) of `message` under a 32-byte key.
pub fn hmac_sha256(key: &[u8; 32], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(key);
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// Gives `conn` the SQL function `token_hmac(token)`: the keyed hash, as 64 hex digits.
pub fn register(conn: &Connection, key: [u8; 32]) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "token_hmac",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        move |ctx| {
            let token: String = ctx.get(0)?;
            Ok(hex(&hmac_sha256(&key, token.as_bytes())))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_and_the_secret_is_kept() {
        // RFC 4231 test case 2 has a 4-byte key ("Jefe"); padded with zeros to 32 bytes it is
        // the same HMAC key (keys shorter than the block are zero-padded).
        let mut key = [0u8; 32];
        key[..4].copy_from_slice(b"Jefe");
        assert_eq!(
            hex(&hmac_sha256(&key, b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let db = dir.path().join("t.db");
        let first = load_or_create(&db).unwrap();
        assert_eq!(load_or_create(&db).unwrap(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path_for(&db))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "owner only");
        }
    }
}
