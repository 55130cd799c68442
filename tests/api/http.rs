//! HTTP as clients expect it: methods, HEAD, path parameters, formats, tokens on reads, CORS.

use serde_json::json;

use crate::client::{spawn, spawn_with_cors};

#[test]
fn a_method_a_path_does_not_take_is_a_405_naming_the_methods_it_does() {
    let s = spawn();
    let (event, _) = s.create_event("round_robin");
    let r = s.request("PUT", "/api/v1/events", &[], None);
    r.problem(405);
    assert_eq!(r.header("allow"), Some("GET, HEAD, OPTIONS, POST"));
    let r = s.request(
        "POST",
        &format!("/api/v1/events/{event}/standings"),
        &[],
        None,
    );
    r.problem(405);
    assert_eq!(r.header("allow"), Some("GET, HEAD, OPTIONS"));
    // A literal path the router could read as a parameter is still that path.
    let bulk = format!("/api/v1/events/{event}/participants/bulk");
    let r = s.request("PATCH", &bulk, &[], None);
    r.problem(405);
    assert_eq!(r.header("allow"), Some("OPTIONS, POST"));
    s.get("/api/v1/events/trf").problem(405);
    let r = s.get("/api/v1/movements/validate?tables=3");
    r.problem(405);
    assert_eq!(r.header("allow"), Some("OPTIONS, POST"));
    // Unknown paths stay 404, whatever the method.
    s.request("PUT", "/api/v1/nothing", &[], None).problem(404);
    let r = s.request("OPTIONS", &format!("/api/v1/events/{event}"), &[], None);
    assert_eq!(r.status, 204);
    assert_eq!(r.header("allow"), Some("DELETE, GET, HEAD, OPTIONS, PATCH"));
}

#[test]
fn head_answers_every_get_with_its_headers_and_no_body() {
    let s = spawn();
    let (event, _) = s.create_event("round_robin");
    for path in [
        format!("/api/v1/events/{event}"),
        "/api/v1/tables/berger?players=6".to_string(),
        format!("/api/v1/events/{event}/standings?format=csv"),
    ] {
        let get = s.get(&path);
        let head = s.request("HEAD", &path, &[], None);
        assert_eq!((head.status, get.status), (200, 200), "{path}");
        assert!(head.body.is_empty(), "{path}");
        assert_eq!(head.header("etag"), get.header("etag"), "{path}");
        assert_eq!(head.header("content-type"), get.header("content-type"));
        assert_eq!(
            head.header("content-length"),
            Some(get.body.len().to_string().as_str())
        );
    }
    assert_eq!(
        s.request("HEAD", "/api/v1/events/999", &[], None).status,
        404
    );
}

#[test]
fn a_path_id_that_is_not_a_number_is_a_422_naming_the_parameter() {
    let s = spawn();
    let (event, _) = s.create_event("round_robin");
    for (path, field) in [
        ("/api/v1/events/abc".to_string(), "event_id"),
        (format!("/api/v1/events/{event}/rounds/first"), "round"),
        (format!("/api/v1/events/{event}/rounds/-1"), "round"),
        (
            format!("/api/v1/events/{event}/participants/1.5"),
            "participant_id",
        ),
        (
            "/api/v1/events/99999999999999999999".to_string(),
            "event_id",
        ),
    ] {
        let r = s.get(&path);
        let problem = r.problem(422);
        assert_eq!(r.fields(), [field], "{path}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            !["i64", "u32", "integer"].iter().any(|t| detail.contains(t)),
            "{detail}"
        );
    }
}

#[test]
fn format_names_only_a_form_the_route_answers() {
    let s = spawn();
    let (event, _) = s.create_event("round_robin");
    let csv = s.get(&format!("/api/v1/events/{event}/standings?format=csv"));
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").unwrap().starts_with("text/csv"));
    assert_eq!(s.get("/api/v1/events?format=json").status, 200);
    for path in [
        "/api/v1/events?format=csv".to_string(),
        format!("/api/v1/events/{event}?format=csv"),
        format!("/api/v1/events/{event}/trf?format=json"),
        format!("/api/v1/events/{event}/standings?format=xml"),
    ] {
        let r = s.get(&path);
        r.problem(422);
        assert_eq!(r.fields(), ["format"], "{path}");
    }
}

#[test]
fn a_token_nobody_issued_is_ignored_on_the_rounds_list_as_on_other_reads() {
    let s = spawn();
    let (event, admin) = s.create_event("swiss");
    s.add_players(event, &admin, 4);
    let path = format!("/api/v1/events/{event}/rounds");
    let garbage = [("Authorization", "Bearer not-a-token")];
    let plain = s.get(&path);
    let with_garbage = s.request("GET", &path, &garbage, None);
    assert_eq!(with_garbage.status, 200, "{}", with_garbage.text());
    assert_eq!(with_garbage.json(), plain.json());
    let event_read = s.request("GET", &format!("/api/v1/events/{event}"), &garbage, None);
    assert_eq!(event_read.status, 200);
}

#[test]
fn an_integer_with_a_zero_fraction_is_that_integer_and_a_fraction_is_refused() {
    let s = spawn();
    let (event, admin) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/participants");
    // JSON Schema counts 1219.0 an integer, so a client generated from the document may send it
    let whole = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": "Anna", "rating": 1219.0}),
    );
    assert_eq!(whole.status, 201, "{}", whole.text());
    assert_eq!(whole.json()["rating"], 1219);
    let r = s.send(
        "POST",
        &path,
        Some(&admin),
        &json!({"name": "Ben", "rating": 1219.5}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["rating"]);
}

#[test]
fn every_page_may_read_but_only_configured_origins_may_write() {
    let allowed = "https://club.example";
    let s = spawn_with_cors(tourney::server::CorsPolicy {
        write_origins: vec![allowed.to_string()],
    });
    let other = "https://elsewhere.example";
    let read = s.request("GET", "/api/v1/events", &[("Origin", other)], None);
    assert_eq!(read.header("access-control-allow-origin"), Some("*"));
    let missing = s.request("GET", "/api/v1/events/77", &[("Origin", other)], None);
    assert_eq!(missing.header("access-control-allow-origin"), Some("*"));

    let body = json!({"name": "Cup", "game": "chess", "format": "swiss"}).to_string();
    let write = |origin: &str| {
        s.request(
            "POST",
            "/api/v1/events",
            &[("Origin", origin), ("Content-Type", "application/json")],
            Some(body.as_bytes()),
        )
    };
    assert_eq!(write(other).header("access-control-allow-origin"), None);
    assert_eq!(
        write(allowed).header("access-control-allow-origin"),
        Some(allowed)
    );

    let preflight = |origin: &str, method: &str| {
        s.request(
            "OPTIONS",
            "/api/v1/events",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", method),
                (
                    "Access-Control-Request-Headers",
                    "authorization, content-type",
                ),
            ],
            None,
        )
    };
    let r = preflight(other, "GET");
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        preflight(other, "POST").header("access-control-allow-origin"),
        None
    );
    let r = preflight(allowed, "POST");
    assert_eq!(r.header("access-control-allow-origin"), Some(allowed));
    assert!(r
        .header("access-control-allow-headers")
        .is_some_and(|h| h.contains("authorization")));

    // By default no origin may write.
    let closed = spawn();
    let r = closed.request(
        "POST",
        "/api/v1/events",
        &[("Origin", allowed), ("Content-Type", "application/json")],
        Some(body.as_bytes()),
    );
    assert_eq!(r.status, 201);
    assert_eq!(r.header("access-control-allow-origin"), None);
}
