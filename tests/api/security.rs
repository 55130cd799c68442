//! Credentials: writes need the event's token, reads need none.

use serde_json::json;

use crate::client::spawn;

#[test]
fn writes_need_the_events_own_token() {
    let s = spawn();
    let (a, admin_a) = s.create_event("round_robin");
    let (b, _admin_b) = s.create_event("round_robin");
    let body = json!({"name": "Someone"});
    let path = format!("/api/v1/events/{b}/participants");
    // Missing token: 401 with a WWW-Authenticate challenge.
    let r = s.send("POST", &path, None, &body);
    r.problem(401);
    assert_eq!(r.header("www-authenticate"), Some("Bearer"));
    // Unknown token: 401.
    s.send("POST", &path, Some("tny_not_a_token"), &body)
        .problem(401);
    // Another event's token: 403.
    s.send("POST", &path, Some(&admin_a), &body).problem(403);
    s.delete(&format!("/api/v1/events/{b}"), Some(&admin_a))
        .problem(403);
    // Nothing was written.
    assert_eq!(
        s.get(&format!("/api/v1/events/{b}")).json()["participants"],
        0
    );
    // The right token works; reads need none.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{a}/participants"),
        Some(&admin_a),
        &body,
    );
    assert_eq!(r.status, 201);
    assert_eq!(
        s.get(&format!("/api/v1/events/{a}/participants")).status,
        200
    );
    // A malformed Authorization header counts as none.
    let r = s.request(
        "DELETE",
        &format!("/api/v1/events/{a}"),
        &[("Authorization", "Basic abc")],
        None,
    );
    r.problem(401);
}

#[test]
fn the_admin_token_is_shown_once_and_only_its_hash_is_stored() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let e = s.get(&format!("/api/v1/events/{event}"));
    assert!(!e.text().contains(&admin));
    assert!(e.json().get("admin_token").is_none());
    let conn = rusqlite::Connection::open(&s.db).unwrap();
    let stored: Vec<String> = conn
        .prepare("SELECT token_hash FROM tokens")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!stored.is_empty());
    assert!(stored
        .iter()
        .all(|h| h.len() == 64 && !h.contains(&admin[4..])));
}

#[test]
fn tokens_are_stored_keyed_and_old_bare_hashes_still_verify() {
    use sha2::{Digest, Sha256};
    let hex = |t: &str| -> String {
        Sha256::digest(t.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let conn = rusqlite::Connection::open(&s.db).unwrap();
    let stored: String = conn
        .query_row(
            "SELECT token_hash FROM tokens WHERE event_id = ?1",
            [event],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored.len(), 64);
    assert_ne!(stored, hex(&admin), "keyed, not a bare SHA-256");
    let secret = std::fs::read_to_string(tourney::store::secret::path_for(&s.db)).unwrap();
    assert_eq!(secret.trim().len(), 64);

    // A scorer token stored before the secret existed (bare SHA-256) still works.
    let legacy = "tny_issued_before_the_secret";
    conn.execute(
        "INSERT INTO tokens (event_id, role, token_hash, label, created_at)
         VALUES (?1, 'scorer', ?2, 'old', 'x')",
        rusqlite::params![event, hex(legacy)],
    )
    .unwrap();
    let path = format!("/api/v1/events/{event}/results");
    let body = json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]});
    s.send("POST", &path, Some(legacy), &body).problem(409);
    s.send("POST", &path, Some("tny_never_issued"), &body)
        .problem(401);
}

/// Behind one NAT, someone presenting bad tokens never locks out the director: the event's
/// own tokens go on working from the same address, while the guesses wait.
#[test]
fn a_director_behind_a_guessing_address_is_never_refused() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let scorer = s
        .send(
            "POST",
            &format!("/api/v1/events/{event}/tokens"),
            Some(&admin),
            &json!({"label": "results laptop"}),
        )
        .json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/v1/events/{event}/participants");
    let body = json!({"name": "Someone"});
    let limit = tourney::server::guard::MAX_FAILURES;
    for i in 0..limit + 5 {
        let r = s.send("POST", &path, Some(&format!("tny_guess_{i}")), &body);
        let want = if i < limit { 401 } else { 429 };
        assert_eq!(r.status, want, "guess {i}: {}", r.text());
    }
    // the real tokens from the same address
    assert_eq!(s.send("POST", &path, Some(&admin), &body).status, 201);
    // (a scorer may not add participants: refused for that, not for the guesses)
    assert_eq!(s.send("POST", &path, Some(&scorer), &body).status, 403);
    // and the guessing still waits
    s.send("POST", &path, Some("tny_guess_more"), &body)
        .problem(429);
}

/// One bad token presented over and over waits after the limit; other tokens from the address
/// are judged on their own.
#[test]
fn brute_force_of_one_token_is_still_limited() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    let body = json!({"name": "Someone"});
    for i in 0..tourney::server::guard::MAX_FAILURES {
        let r = s.send("POST", &path, Some("tny_stale"), &body);
        assert_eq!(r.status, 401, "try {i}");
    }
    let r = s.send("POST", &path, Some("tny_stale"), &body);
    r.problem(429);
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    s.send("POST", &path, Some("tny_other"), &body).problem(401);
    assert_eq!(s.send("POST", &path, Some(&admin), &body).status, 201);
}
