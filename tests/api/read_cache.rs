//! Issue 11, reads: public GETs come from memory keyed by the event's version; a 304 needs no
//! database read; gzip bodies are kept compressed; a change to the event is seen at once;
//! credentials (which may see drafts) bypass the cache.

use std::io::Read;

use serde_json::json;

use crate::client::spawn;

#[test]
fn public_reads_come_from_memory_until_the_event_changes() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 4);
    let lots = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(lots.status, 200, "{}", lots.text());
    let path = format!("/api/v1/events/{event}/rounds/1");

    let first = s.get(&path);
    assert_eq!(first.status, 200, "{}", first.text());
    let etag = first.header("etag").expect("an ETag").to_string();
    assert!(etag.starts_with("\"v"), "{etag}");
    assert_eq!(
        first.header("cache-control"),
        Some("public, max-age=0, must-revalidate")
    );

    // Again, and conditionally: no read transaction at all.
    let reads = s.store.reads();
    let again = s.get(&path);
    assert_eq!((again.status, &again.body), (200, &first.body));
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    let not_modified = s.request("GET", &path, &[("If-None-Match", &etag)], None);
    assert_eq!(not_modified.status, 304);
    assert!(not_modified.body.is_empty());
    assert_eq!(s.store.reads(), reads, "served without the database");

    // gzip: its own ETag, the same content compressed.
    let zipped = s.request("GET", &path, &[("Accept-Encoding", "gzip")], None);
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    let zipped_etag = zipped.header("etag").unwrap().to_string();
    assert_ne!(zipped_etag, etag);
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(&zipped.body[..])
        .read_to_end(&mut plain)
        .unwrap();
    assert_eq!(plain, first.body);
    let zipped_again = s.request("GET", &path, &[("Accept-Encoding", "gzip")], None);
    assert_eq!(zipped_again.body, zipped.body);

    // A result moves the version: the old ETag gets the new body.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let changed = s.request("GET", &path, &[("If-None-Match", &etag)], None);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag"), Some(etag.as_str()));
    assert!(changed.text().contains("1-0"), "{}", changed.text());
    assert_eq!(
        s.request("GET", &path, &[("If-None-Match", &zipped_etag)], None)
            .status,
        200
    );
    // Other events are untouched by it.
    let (other, _) = s.create_event("round_robin");
    let other_path = format!("/api/v1/events/{other}");
    let other_etag = s.get(&other_path).header("etag").unwrap().to_string();
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 2, "result": "0-1"}]}),
    );
    assert_eq!(
        s.request("GET", &other_path, &[("If-None-Match", &other_etag)], None)
            .status,
        304
    );
}

#[test]
fn credentials_bypass_the_public_cache() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    let public = s.get(&path);
    assert!(public.header("etag").unwrap().starts_with("\"v"));
    let bearer = format!("Bearer {admin}");
    let reads = s.store.reads();
    let private = s.request("GET", &path, &[("Authorization", &bearer)], None);
    assert_eq!(private.status, 200);
    assert!(s.store.reads() > reads, "built by the handler");
    // the handler's own ETag: the version it read, then a digest of what it sent
    let private_etag = private.header("etag").unwrap();
    assert_ne!(private_etag, public.header("etag").unwrap());
    assert!(private_etag.starts_with("\"v") && private_etag.contains('-'));
    assert!(!private
        .header("cache-control")
        .unwrap_or("")
        .contains("public"));
}

#[test]
fn metrics_count_routes_statuses_and_cache_hits() {
    let s = spawn();
    let (event, _) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}");
    let etag = s.get(&path).header("etag").unwrap().to_string();
    assert_eq!(
        s.request("GET", &path, &[("If-None-Match", &etag)], None)
            .status,
        304
    );
    let m = s.get("/metrics");
    assert_eq!(m.status, 200);
    assert!(m
        .header("content-type")
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = m.text();
    for line in [
        "tourney_requests_total{route=\"/api/v1/events/{event_id}\",method=\"GET\",status=\"200\"} 1",
        "tourney_requests_total{route=\"/api/v1/events/{event_id}\",method=\"GET\",status=\"304\"} 1",
        "tourney_requests_total{route=\"/api/v1/events\",method=\"POST\",status=\"201\"} 1",
        "tourney_request_seconds_count{route=\"/api/v1/events/{event_id}\"} 2",
        "tourney_cache_hits_total 1",
        "tourney_cache_misses_total 1",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
}
