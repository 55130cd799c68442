//! `tourney backup` and `tourney restore`: a checked copy of the database, and its return.

use super::USAGE;

/// `backup` and `restore`: `[--db PATH] FILE`.
pub fn backup_or_restore(restore: bool, args: &[String]) -> Result<(), String> {
    let mut db = std::env::var("TOURNEY_DB")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tourney.db".into());
    let mut file = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--db" => db = rest.next().ok_or("--db needs a path")?.clone(),
            a if a.starts_with("--db=") => db = a["--db=".len()..].to_string(),
            a if a.starts_with('-') => return Err(format!("unknown option {a:?}\n\n{USAGE}")),
            a if file.is_none() => file = Some(a.to_string()),
            a => return Err(format!("one file only; {a:?} is extra")),
        }
    }
    let file = file.ok_or_else(|| format!("name the file\n\n{USAGE}"))?;
    let (db, file) = (std::path::Path::new(&db), std::path::Path::new(&file));
    if restore {
        tourney::store::backup::restore(file, db)?;
        eprintln!(
            "restored {} from {} (integrity ok)",
            db.display(),
            file.display()
        );
    } else {
        tourney::store::backup::backup(db, file)?;
        eprintln!(
            "backed up {} to {} (integrity ok)",
            db.display(),
            file.display()
        );
    }
    Ok(())
}
