//! Issue 11, limits: bodies over the bound are 413 problems naming the body.

use std::io::{Read, Write};
use std::net::TcpStream;

use crate::client::spawn;

/// Announces `length` bytes, sends only a little, and reads the answer (a server that refuses
/// by the announced length answers at once).
fn announce(addr: &str, path: &str, length: usize, headers: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {length}\r\n\r\n{{\"results\": ["
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

#[test]
fn bodies_over_the_bound_are_413_problems() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let too_big = tourney::limits::MAX_BODY_BYTES + 1;
    for (path, auth) in [
        // a handler reading raw bytes (JSON or CSV results)
        (
            format!("/api/v1/events/{event}/results"),
            format!("Authorization: Bearer {admin}\r\n"),
        ),
        // a JSON body
        ("/api/v1/events".to_string(), String::new()),
    ] {
        let answer = announce(&s.addr, &path, too_big, &auth);
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(answer.contains("application/problem+json"), "{answer}");
        assert!(answer.contains("\"field\":\"body\""), "{answer}");
        assert!(answer.contains("4194304 bytes"), "{answer}");
    }
}

#[test]
fn a_token_in_the_query_string_is_refused() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    for path in [
        format!("/api/v1/events/{event}/participants?token={admin}"),
        format!("/api/v1/events/{event}?access_token={admin}"),
    ] {
        let r = s.get(&path);
        let p = r.problem(400);
        assert!(
            p["detail"].as_str().unwrap().contains("Authorization"),
            "{p}"
        );
    }
}

#[test]
fn bad_credentials_from_one_address_are_slowed_with_429() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    let body = serde_json::json!({"name": "Guess"});
    for i in 0..tourney::server::guard::MAX_FAILURES {
        let r = s.send("POST", &path, Some(&format!("guess-{i}")), &body);
        assert_eq!(r.status, 401, "guess {i}: {}", r.text());
    }
    let r = s.send("POST", &path, Some("guess-again"), &body);
    let p = r.problem(429);
    assert!(
        p["detail"].as_str().unwrap().contains("bad credentials"),
        "{p}"
    );
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // Public reads from the address go on.
    assert_eq!(s.get(&format!("/api/v1/events/{event}")).status, 200);
    // Nothing was stored meanwhile; the event's own token is not held up by the guesses
    // (security.rs: a director behind a guessing NAT).
    assert_eq!(s.get(&path).json()["total"], 0);
    assert_eq!(s.send("POST", &path, Some(&admin), &body).status, 201);
}

#[test]
fn a_stalled_body_is_cut_with_408() {
    let s = spawn();
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    let head = format!(
        "POST /api/v1/events HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{{\"name\": ",
        s.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(tourney::limits::BODY_TIMEOUT * 3))
        .unwrap();
    let started = std::time::Instant::now();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let answer = String::from_utf8_lossy(&raw);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(started.elapsed() >= tourney::limits::BODY_TIMEOUT - std::time::Duration::from_secs(1));
    // Nothing was created.
    assert_eq!(s.get("/api/v1/events").json()["total"], 0);
}

/// The bodies being read at once share a bound (`TOURNEY_BODY_MEMORY_MIB`; here 1 MiB): while
/// a slow client's announced 1 MiB body holds all the room, another body waits (no answer)
/// and is served as soon as the slow client leaves.
#[test]
fn bodies_wait_for_room_while_others_hold_it() {
    let s = crate::client::spawn_with_store(|store| store.with_body_memory(1 << 20));
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    let head = format!(
        "POST /api/v1/events HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{{\"name\": \"",
        s.addr,
        1 << 20
    );
    slow.write_all(head.as_bytes()).unwrap();
    // The slow body holds all the room once the server has read its head (a busy machine
    // may take a while: a fixed pause let the other body in first under a loaded CI).
    crate::client::wait_until(
        std::time::Duration::from_secs(20),
        "the slow body never took the room",
        || s.store.body_room_left() == 0,
    );

    let addr = s.addr.clone();
    let waiting = std::thread::spawn(move || {
        let mut c = TcpStream::connect(&addr).unwrap();
        let body = r#"{"name":"Club","game":"chess","format":"round_robin"}"#;
        let request = format!(
            "POST /api/v1/events HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        c.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        let _ = c.read_to_end(&mut raw);
        String::from_utf8_lossy(&raw).into_owned()
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!waiting.is_finished(), "the second body waits for room");
    drop(slow);
    let answer = waiting.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
}
