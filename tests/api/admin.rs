//! Operating the server: `GET /api/v1/admin/backup` (a sound copy while writes go on, only
//! for the server admin token) and the pairing and writer figures of `/metrics`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::json;

use crate::client::spawn;

#[test]
fn a_backup_taken_while_writing_passes_the_integrity_check() {
    let server = Arc::new(spawn());
    let token_file = tourney::store::backup::admin_token_path(&server.db);
    let token = std::fs::read_to_string(&token_file)
        .unwrap()
        .trim()
        .to_string();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&token_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the token file is its owner's only");
    }
    let (event, admin) = server.create_event("swiss");

    // Players keep arriving while the backup is taken.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (server, stop, admin) = (server.clone(), stop.clone(), admin.clone());
        std::thread::spawn(move || {
            let mut written = 0;
            while !stop.load(Ordering::Relaxed) || written < 20 {
                let r = server.send(
                    "POST",
                    &format!("/api/v1/events/{event}/participants"),
                    Some(&admin),
                    &json!({"name": format!("Player {written}")}),
                );
                assert_eq!(r.status, 201, "{}", r.text());
                written += 1;
            }
            written
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(50));
    let auth = format!("Bearer {token}");
    let backup = server.request(
        "GET",
        "/api/v1/admin/backup",
        &[("Authorization", &auth)],
        None,
    );
    stop.store(true, Ordering::Relaxed);
    let written = writer.join().unwrap();
    assert_eq!(backup.status, 200);
    assert_eq!(
        backup.header("content-type"),
        Some("application/vnd.sqlite3")
    );
    assert!(backup.body.starts_with(b"SQLite format 3\0"));

    let dir = tourney::scratch::ScratchDir::new("backup-test").unwrap();
    let copy = dir.path().join("copy.db");
    std::fs::write(&copy, &backup.body).unwrap();
    tourney::store::backup::check(&copy).unwrap();
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let players: i64 = conn
        .query_row("SELECT COUNT(*) FROM participants", [], |r| r.get(0))
        .unwrap();
    assert!((0..=written).contains(&players), "{players} of {written}");
    // No download files are left beside the database.
    let leftovers: Vec<_> = std::fs::read_dir(server.db.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".download-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn only_the_server_admin_token_takes_a_backup() {
    let server = spawn();
    let (_, event_admin) = server.create_event("swiss");
    server
        .request("GET", "/api/v1/admin/backup", &[], None)
        .problem(401);
    for token in [event_admin.as_str(), "tny_server_0000000000000000"] {
        let auth = format!("Bearer {token}");
        server
            .request(
                "GET",
                "/api/v1/admin/backup",
                &[("Authorization", &auth)],
                None,
            )
            .problem(403);
    }
}

#[test]
fn metrics_show_pairing_times_and_the_wait_for_the_writer() {
    let server = spawn();
    let (event, admin) = crate::swiss::swiss_event(&server, json!({}));
    server.add_players(event, &admin, 8);
    crate::swiss::pair(&server, event, &admin);
    let text = server.get("/metrics").text();
    let count = |series: &str| -> u64 {
        let line = text
            .lines()
            .find(|l| l.starts_with(series))
            .unwrap_or_else(|| panic!("{series} in\n{text}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // pairings are counted process-wide (other tests pair too); this one is among them
    assert!(count("tourney_pairing_seconds_count{system=\"swiss\",format=\"swiss\"}") >= 1);
    assert!(text.contains("# TYPE tourney_pairing_seconds histogram"));
    assert!(text
        .contains("tourney_pairing_seconds_bucket{system=\"swiss\",format=\"swiss\",le=\"+Inf\"}"));
    // creating the event, adding players, the pairing's dry run and its write: 4 changes
    assert!(text.contains("# TYPE tourney_store_writer_wait_seconds histogram"));
    assert_eq!(count("tourney_store_writer_wait_seconds_count "), 4);
    assert_eq!(
        count("tourney_store_writer_wait_seconds_bucket{le=\"+Inf\"}"),
        4
    );
}
