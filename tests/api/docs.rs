//! The OpenAPI document and the docs page.

use crate::client::spawn;

#[test]
fn committed_openapi_matches_the_code() {
    let generated = tourney::api::openapi::document_json();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date: run `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn the_server_serves_its_document_and_a_working_docs_page() {
    let s = spawn();
    let doc = s.get("/openapi.json").json();
    assert_eq!(doc["info"]["title"], "tourney");
    for path in [
        "/api/v1/events",
        "/api/v1/tables/berger",
        "/api/v1/events/{event_id}/results",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    let page = s.get("/docs/");
    assert_eq!(page.status, 200);
    assert!(page.text().to_lowercase().contains("swagger"));
    let init = s.get("/docs/swagger-initializer.js");
    assert_eq!(init.status, 200);
    assert!(init.text().contains("/openapi.json"));
    assert_eq!(s.get("/docs/swagger-ui-bundle.js").status, 200);
    assert_eq!(s.get("/docs").status, 307);
    assert_eq!(s.get("/healthz").json()["status"], "ok");
}
