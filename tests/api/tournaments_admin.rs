//! A tournament's own routes as an event's: `If-Match` and versioned ETags (the version moves
//! with the tournament and with any of its sections), and deleting a tournament, which is
//! refused while it has sections.

use serde_json::json;

use crate::client::spawn;
use crate::tournaments::{new_section, new_tournament};

#[test]
fn a_tournament_honours_if_match_and_its_etag_moves_with_its_sections() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Weekend open", Some("2026-12-05"));
    let path = format!("/api/v1/tournaments/{t}");
    let read = s.get(&path);
    let etag = read.header("etag").unwrap().to_string();
    assert!(etag.starts_with("\"v"), "a versioned ETag: {etag}");
    let again = s.request("GET", &path, &[("If-None-Match", etag.as_str())], None);
    assert_eq!(again.status, 304);

    // A section created moves the tournament's version: the old ETag is stale.
    let (section, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Open", "game": "chess", "format": "swiss"}),
    );
    let after_section = s.get(&path).header("etag").unwrap().to_string();
    assert_ne!(after_section, etag);

    // A stale If-Match is a 412 and changes nothing, on every kind of tournament write.
    let before = s.get(&path).json();
    let r = s.send_if_match("PATCH", &path, &admin, &etag, &json!({"name": "Renamed"}));
    r.problem(412);
    let r = s.send_if_match(
        "POST",
        &format!("{path}/events"),
        &admin,
        &etag,
        &json!({"name": "U1600", "game": "chess", "format": "swiss"}),
    );
    r.problem(412);
    assert_eq!(s.get(&path).json(), before);

    // The current ETag (or its bare version) goes through.
    let r = s.send_if_match(
        "PATCH",
        &path,
        &admin,
        &after_section,
        &json!({"name": "Renamed"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(s.get(&path).json()["name"], "Renamed");

    // A change inside a section (a player entered through the section's own route) moves the
    // tournament's ETag too: the tournament's answer lists its sections' entries.
    let before = s.get(&path).header("etag").unwrap().to_string();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{section}/participants"),
        Some(&admin),
        &json!({"name": "Ann Able", "rating": 1800}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let after = s.get(&path);
    assert_ne!(after.header("etag").unwrap(), before);
    assert_eq!(after.json()["sections"][0]["participants"], 1);
    let r = s.send_if_match(
        "PATCH",
        &path,
        &admin,
        &before,
        &json!({"place": "Library"}),
    );
    r.problem(412);
    // If-Match: * only needs the tournament to exist.
    let r = s.send_if_match("PATCH", &path, &admin, "*", &json!({"place": "Library"}));
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn a_tournament_is_deleted_only_once_its_sections_are() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Club night", None);
    let (other, stranger) = new_tournament(&s, "Elsewhere", None);
    let (a, section_token) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "A", "game": "bridge", "format": "pairs"}),
    );
    let (b, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "B", "game": "bridge", "format": "pairs"}),
    );
    let path = format!("/api/v1/tournaments/{t}");
    let before = s.get(&path).json();

    s.delete(&path, None).problem(401);
    s.delete(&path, Some(&stranger)).problem(403);
    s.delete(&path, Some(&section_token)).problem(403);
    // Sections left: a 409 naming them, and nothing deleted.
    let r = s.delete(&path, Some(&admin));
    let problem = r.problem(409);
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains(&a.to_string()) && detail.contains(&b.to_string()),
        "{detail}"
    );
    assert_eq!(s.get(&path).json(), before);

    // The tournament's token deletes each section (as it administers them), and issues a
    // section's scorer token as the section's own admin token does.
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{a}/tokens"),
        Some(&admin),
        &json!({"label": "table terminals"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    for id in [a, b] {
        let r = s.delete(&format!("/api/v1/events/{id}"), Some(&admin));
        assert_eq!(r.status, 204, "{}", r.text());
    }
    let r = s.delete(&path, Some(&admin));
    assert_eq!(r.status, 204, "{}", r.text());
    s.get(&path).problem(404);
    assert_eq!(s.get(&format!("/t/{t}")).status, 404);
    s.delete(&path, Some(&admin)).problem(404);
    // Its token is gone with it; the other tournament is untouched.
    let r = s.send(
        "POST",
        &format!("{path}/events"),
        Some(&admin),
        &json!({"name": "C", "game": "bridge", "format": "pairs"}),
    );
    assert_eq!(r.status / 100, 4, "{}", r.text());
    assert_eq!(s.get(&format!("/api/v1/tournaments/{other}")).status, 200);
    let list = s.get("/api/v1/tournaments").json();
    assert_eq!(list["total"], 1, "{list}");
}
