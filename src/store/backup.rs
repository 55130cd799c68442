//! Backups: a consistent copy of a live database (`VACUUM INTO`, which reads one snapshot while
//! the server goes on writing in WAL mode), and a restore that checks the copy before it
//! replaces anything.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

/// Checks that the file at `path` is a sound tourney database: `PRAGMA integrity_check` says
/// "ok" and it holds the events table.
pub fn check(path: &Path) -> Result<(), String> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("{} is not a readable database: {e}", path.display()))?;
    if verdict != "ok" {
        return Err(format!(
            "{} failed its integrity check: {verdict}",
            path.display()
        ));
    }
    let tables: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'",
            [],
            |r| r.get(0),
        )
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if tables != 1 {
        return Err(format!(
            "{} is not a tourney database (no events)",
            path.display()
        ));
    }
    Ok(())
}

/// Writes a consistent copy of the database at `db` to `out` (which must not exist yet), and
/// checks the copy; the token secret goes beside it.
pub fn backup(db: &Path, out: &Path) -> Result<(), String> {
    copy_database(db, out)?;
    copy_secret(db, out)
}

/// A consistent copy of the database alone (no secret), `VACUUM INTO` and checked.
fn copy_database(db: &Path, out: &Path) -> Result<(), String> {
    if out.exists() {
        return Err(format!(
            "{} exists; a backup never overwrites",
            out.display()
        ));
    }
    let out_text = out
        .to_str()
        .ok_or_else(|| format!("{} is not a UTF-8 path", out.display()))?;
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| format!("cannot open {}: {e}", db.display()))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    conn.execute("VACUUM INTO ?1", [out_text])
        .map_err(|e| format!("cannot copy {} to {}: {e}", db.display(), out.display()))?;
    check(out)
}

/// A checked copy of the live database in a file of its own beside it, read by the server's
/// backup download; the file is removed when the snapshot is dropped (read whole or not).
pub struct Snapshot {
    file: std::fs::File,
    path: PathBuf,
    /// The copy's size in bytes.
    pub len: u64,
}

impl Snapshot {
    /// Copies the database at `db` (while the server goes on writing) and opens the copy.
    pub fn take(db: &Path) -> Result<Snapshot, String> {
        let path = with_suffix(db, &format!(".download-{}", super::secret::random_hex()?));
        let removed_on_failure = |e: String| {
            let _ = std::fs::remove_file(&path);
            e
        };
        copy_database(db, &path).map_err(removed_on_failure)?;
        let file = std::fs::File::open(&path)
            .map_err(|e| removed_on_failure(format!("cannot read the copy: {e}")))?;
        let len = file
            .metadata()
            .map_err(|e| removed_on_failure(format!("cannot read the copy: {e}")))?
            .len();
        Ok(Snapshot { file, path, len })
    }
}

impl Read for Snapshot {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(buf)
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The server admin token's file for the database at `db` (`tourney.db.admin-token`).
pub fn admin_token_path(db: &Path) -> PathBuf {
    with_suffix(db, ".admin-token")
}

/// Shortest server admin token accepted from `TOURNEY_ADMIN_TOKEN`.
pub const MIN_ADMIN_TOKEN_CHARS: usize = 16;

/// The server admin token (it takes backups over HTTP): `from_env` (`TOURNEY_ADMIN_TOKEN`)
/// when set, else the token in the file beside the database, created at first start readable
/// by its owner only. The log says where the token is, never the token.
pub fn server_admin_token(db: &Path, from_env: Option<String>) -> Result<String, String> {
    if let Some(token) = from_env
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
    {
        if token.chars().count() < MIN_ADMIN_TOKEN_CHARS {
            return Err(format!(
                "TOURNEY_ADMIN_TOKEN must be at least {MIN_ADMIN_TOKEN_CHARS} characters"
            ));
        }
        log::info!("the server admin token is the one given in TOURNEY_ADMIN_TOKEN");
        return Ok(token);
    }
    let path = admin_token_path(db);
    match std::fs::read_to_string(&path) {
        Ok(text) if !text.trim().is_empty() => {
            log::info!("the server admin token is in {}", path.display());
            Ok(text.trim().to_string())
        }
        Ok(_) => Err(format!("{} is empty", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let token = format!("tny_server_{}", super::secret::random_hex()?);
            super::secret::create_owner_only(&path, &token)?;
            log::info!(
                "created the server admin token in {} (readable by its owner only)",
                path.display()
            );
            Ok(token)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The token secret goes with its database (`OUT.secret` beside `OUT`): without it the keyed
/// token hashes cannot be verified.
fn copy_secret(from_db: &Path, to_db: &Path) -> Result<(), String> {
    let (from, to) = (
        super::secret::path_for(from_db),
        super::secret::path_for(to_db),
    );
    if from.exists() {
        std::fs::copy(&from, &to)
            .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
    }
    Ok(())
}

/// Replaces the database at `db` with the backup `from`, after checking it. The server must be
/// stopped: the old file and its WAL are replaced whole (through a temporary file renamed into
/// place, so a failed restore leaves the old database as it was).
pub fn restore(from: &Path, db: &Path) -> Result<(), String> {
    check(from)?;
    let staged = with_suffix(db, ".restoring");
    std::fs::copy(from, &staged).map_err(|e| {
        format!(
            "cannot copy {} to {}: {e}",
            from.display(),
            staged.display()
        )
    })?;
    if let Err(e) = check(&staged) {
        let _ = std::fs::remove_file(&staged);
        return Err(e);
    }
    for stale in [with_suffix(db, "-wal"), with_suffix(db, "-shm")] {
        if stale.exists() {
            std::fs::remove_file(&stale)
                .map_err(|e| format!("cannot remove {}: {e}", stale.display()))?;
        }
    }
    std::fs::rename(&staged, db)
        .map_err(|e| format!("cannot move {} to {}: {e}", staged.display(), db.display()))?;
    copy_secret(from, db)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn the_server_admin_token_comes_from_the_environment_or_its_file() {
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let db = dir.path().join("a.db");
        let given = "a-long-enough-token-1234".to_string();
        assert_eq!(server_admin_token(&db, Some(given.clone())).unwrap(), given);
        assert!(
            !admin_token_path(&db).exists(),
            "no file when the environment gives it"
        );
        assert!(server_admin_token(&db, Some("short".into()))
            .unwrap_err()
            .contains("at least 16"));
        let made = server_admin_token(&db, None).unwrap();
        assert!(made.starts_with("tny_server_") && made.len() > 40);
        assert_eq!(server_admin_token(&db, Some(" ".into())).unwrap(), made);
        let store = Store::open(&db).unwrap();
        assert!(store.is_server_admin(&made) && !store.is_server_admin(&given));
    }

    #[test]
    fn a_backup_taken_while_writing_is_sound_and_restores() {
        let dir = crate::scratch::ScratchDir::new("store").unwrap();
        let db = dir.path().join("live.db");
        let store = Store::open(&db).unwrap();
        let writing = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                for i in 0..200 {
                    store
                        .write(move |tx| {
                            tx.execute(
                                "INSERT INTO events (name, game, format, created_at, updated_at)
                                 VALUES (?1, 'chess', 'swiss', 'x', 'x')",
                                [format!("E{i}")],
                            )?;
                            Ok(())
                        })
                        .await
                        .unwrap();
                }
            })
        });
        std::thread::sleep(std::time::Duration::from_millis(20));
        let copy = dir.path().join("copy.db");
        backup(&db, &copy).unwrap();
        writing.join().unwrap();
        check(&copy).unwrap();
        assert_eq!(
            std::fs::read(crate::store::secret::path_for(&copy)).unwrap(),
            std::fs::read(crate::store::secret::path_for(&db)).unwrap(),
            "the token secret goes with the copy"
        );
        let count = |p: &Path| -> i64 {
            Connection::open(p)
                .unwrap()
                .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
                .unwrap()
        };
        let copied = count(&copy);
        assert!((0..=200).contains(&copied));
        // Never over an existing file.
        assert!(backup(&db, &copy).unwrap_err().contains("exists"));

        // Restore: the live file becomes the copy; a damaged file is refused and changes nothing.
        let bad = dir.path().join("bad.db");
        std::fs::write(&bad, b"not a database at all, just text").unwrap();
        assert!(restore(&bad, &db).is_err());
        assert_eq!(count(&db), 200);
        restore(&copy, &db).unwrap();
        assert_eq!(count(&db), copied);
        Store::open(&db).unwrap();
    }
}
