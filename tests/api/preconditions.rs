//! `If-Match` on changes of an event (412 on a stale version, checked inside the write, after
//! the request's own 4xx checks), and
//! drawing lots when several draws arrive at once (exactly one is made).

use std::sync::Arc;

use serde_json::json;

use crate::client::{spawn, TestServer};

#[test]
fn a_stale_if_match_is_refused_with_412_and_changes_nothing() {
    let server = spawn();
    let (event, token) = server.create_event("swiss");
    let path = format!("/api/v1/events/{event}");

    // The public ETag (from the read cache) is a valid If-Match.
    let seen = server.get(&path);
    let etag = seen.header("etag").unwrap().to_string();
    assert!(etag.starts_with("\"v"), "{etag}");
    let first = server.send_if_match("PATCH", &path, &token, &etag, &json!({"name": "First"}));
    assert_eq!(first.status, 200, "{}", first.text());

    // The same ETag again is stale now: 412, the detail names the current version, no change.
    let second = server.send_if_match("PATCH", &path, &token, &etag, &json!({"name": "Second"}));
    let problem = second.problem(412);
    let now = server.get(&path);
    let current = now.header("etag").unwrap().trim_matches('"').to_string();
    assert!(
        problem["detail"].as_str().unwrap().contains(&current),
        "{problem} / {current}"
    );
    assert_eq!(now.json()["name"], "First");

    // A read with a token carries an ETag that names the version too, and it works.
    let auth = format!("Bearer {token}");
    let private = server.request("GET", &path, &[("Authorization", &auth)], None);
    let private_etag = private.header("etag").unwrap().to_string();
    assert!(
        private_etag.starts_with(&format!("\"{current}-")),
        "{private_etag}"
    );
    let third = server.send_if_match(
        "PATCH",
        &path,
        &token,
        &private_etag,
        &json!({"name": "Third"}),
    );
    assert_eq!(third.status, 200, "{}", third.text());

    // The bare version, a weak tag and `*` are accepted; a tag naming no version never matches.
    let version: i64 = server.get(&path).header("etag").unwrap().trim_matches('"')[1..]
        .split('-')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let r = server.send_if_match(
        "PATCH",
        &path,
        &token,
        &version.to_string(),
        &json!({"name": "Fourth"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = server.send_if_match(
        "PATCH",
        &path,
        &token,
        &format!("W/\"v{}\"", version + 1_000_000),
        &json!({"name": "No"}),
    );
    r.problem(412);
    let r = server.send_if_match(
        "PATCH",
        &path,
        &token,
        "\"3fa9c0d1\"",
        &json!({"name": "No"}),
    );
    r.problem(412);
    let r = server.send_if_match("PATCH", &path, &token, "*", &json!({"name": "Fifth"}));
    assert_eq!(r.status, 200, "{}", r.text());

    // Other write routes get it without doing anything: adding a player, deleting the event.
    let stale = format!("\"v{version}\"");
    let r = server.send_if_match(
        "POST",
        &format!("{path}/participants"),
        &token,
        &stale,
        &json!({"name": "Late"}),
    );
    r.problem(412);
    assert_eq!(server.get(&path).json()["participants"], 0);
    let r = server.request(
        "DELETE",
        &path,
        &[("Authorization", &auth), ("If-Match", &stale)],
        None,
    );
    r.problem(412);
    assert_eq!(server.get(&path).status, 200);

    // Pairing a round checks it before the engine runs: no round is made on a stale version.
    let r = server.send_if_match(
        "POST",
        &format!("{path}/rounds"),
        &token,
        &stale,
        &json!({}),
    );
    r.problem(412);
    assert_eq!(server.get(&path).json()["rounds"], 0);

    // The request's own checks answer before a stale version (RFC 9110 13.2.2): a bye that
    // does not exist is a 404, a bad body a 422, no credentials a 401, even with a stale tag.
    let r = server.request(
        "DELETE",
        &format!("{path}/byes/-9223372036854775808"),
        &[("Authorization", &auth), ("If-Match", &stale)],
        None,
    );
    r.problem(404);
    let r = server.send_if_match("PATCH", &path, &token, &stale, &json!({"name": ""}));
    r.problem(422);
    let r = server.request(
        "PATCH",
        &path,
        &[("If-Match", &stale), ("Content-Type", "application/json")],
        Some(br#"{"name": "Nobody"}"#),
    );
    r.problem(401);

    // Without If-Match, changes go through as before.
    let r = server.send("PATCH", &path, Some(&token), &json!({"name": "Sixth"}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(server.get(&path).json()["name"], "Sixth");
}

/// Sends `n` draws of lots at once (each on its own connection, released together) and
/// returns their statuses.
fn draw_at_once(
    server: &Arc<TestServer>,
    event: i64,
    token: &str,
    if_match: Option<&str>,
    n: usize,
) -> Vec<u16> {
    let start = Arc::new(std::sync::Barrier::new(n));
    let draws: Vec<_> = (0..n)
        .map(|_| {
            let server = server.clone();
            let start = start.clone();
            let token = token.to_string();
            let if_match = if_match.map(str::to_string);
            std::thread::spawn(move || {
                let auth = format!("Bearer {token}");
                let mut headers = vec![
                    ("Content-Type", "application/json"),
                    ("Authorization", auth.as_str()),
                ];
                if let Some(tag) = &if_match {
                    headers.push(("If-Match", tag.as_str()));
                }
                start.wait();
                server
                    .request(
                        "POST",
                        &format!("/api/v1/events/{event}/lots"),
                        &headers,
                        Some(json!({"method": "random"}).to_string().as_bytes()),
                    )
                    .status
            })
        })
        .collect();
    draws.into_iter().map(|d| d.join().unwrap()).collect()
}

#[test]
fn of_several_draws_sent_at_once_exactly_one_is_made() {
    let server = Arc::new(spawn());
    let (event, token) = server.create_event("round_robin");
    server.add_players(event, &token, 6);
    let path = format!("/api/v1/events/{event}");

    // No lots yet, no If-Match: the first draw is made, the others find lots drawn (409).
    let mut statuses = draw_at_once(&server, event, &token, None, 6);
    statuses.sort();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409]);
    let drawn = server.get(&path).json();
    let seed = drawn["lots"]["seed"].clone();
    assert!(seed.is_u64(), "{drawn}");
    // one schedule, not several laid over each other
    assert_eq!(drawn["rounds"], 5);

    // Drawing again needs the version the caller saw: of several draws with the same If-Match,
    // one is made and the others are stale (412).
    let etag = server.get(&path).header("etag").unwrap().to_string();
    let mut statuses = draw_at_once(&server, event, &token, Some(&etag), 6);
    statuses.sort();
    assert_eq!(statuses, [200, 412, 412, 412, 412, 412]);
    let redrawn = server.get(&path).json();
    assert_ne!(redrawn["lots"]["seed"], seed);
    assert_eq!(redrawn["rounds"], 5);
    let rounds = server.get(&format!("{path}/rounds/1")).json();
    assert_eq!(
        rounds["games"].as_array().map(Vec::len),
        Some(3),
        "{rounds}"
    );

    // A lone redraw without If-Match says what to send.
    let r = server.send(
        "POST",
        &format!("{path}/lots"),
        Some(&token),
        &json!({"method": "rating"}),
    );
    let problem = r.problem(409);
    assert!(
        problem["detail"].as_str().unwrap().contains("If-Match"),
        "{problem}"
    );
}
