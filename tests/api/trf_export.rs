//! An event's TRF export carries what FIDE reads of each player beyond the name and rating.

use crate::client::spawn;
use crate::swiss::swiss_event;
use serde_json::json;

/// The 1-based, inclusive columns `from..=to` of a line, by characters.
fn cols(line: &str, from: usize, to: usize) -> String {
    line.chars().skip(from - 1).take(to + 1 - from).collect()
}

#[test]
fn the_trf_export_carries_federations_and_fide_ids() {
    let s = spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 5, "seed": 1}));
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({"participants": [
            {"name": "Carlsen, Magnus", "rating": 2830, "federation": "NOR", "external_id": "1503014"},
            {"name": "Weiss, Anna", "rating": 2100, "federation": "Norway", "external_id": "GB-1234"},
            {"name": "Ohne, Otto", "rating": 1900}
        ]}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let text = s.get(&format!("/api/v1/events/{event}/trf")).text();
    let line = |n: u32| {
        text.lines()
            .find(|l| l.starts_with(&format!("001 {n:>4}")))
            .unwrap_or_else(|| panic!("no line of player {n} in {text}"))
            .to_string()
    };
    let carlsen = line(1);
    assert_eq!(cols(&carlsen, 15, 47).trim_end(), "Carlsen, Magnus");
    assert_eq!(cols(&carlsen, 54, 56), "NOR", "{text}");
    assert_eq!(cols(&carlsen, 58, 68), "    1503014", "{text}");
    // a federation that is no code and an id that is no FIDE id are left out, not cut
    let weiss = line(2);
    assert_eq!(cols(&weiss, 49, 52), "2100");
    assert_eq!(cols(&weiss, 54, 79).trim(), "", "{text}");
    assert_eq!(cols(&line(3), 54, 79).trim(), "", "{text}");
    // and the stateless endpoint reads the columns back
    let r = s.request(
        "POST",
        "/api/v1/pairings/swiss",
        &[("Content-Type", "text/plain")],
        Some(text.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}
