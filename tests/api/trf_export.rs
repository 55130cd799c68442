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

/// A file from another program: two players share a FIDE id, one has `0` for none.
const IMPORTED: &str = "012 Imported open\nXXR 5\n\
001    1 m  g Mirzoev, Azer                     2527 AZE    13400304 1978/04/02  1.0    1     2 w 1\n\
001    2 wWGM Kosteniuk, Alexandra              2500 SUI     4147103 1984/04/23  0.0    4     1 b 0\n\
001    3 m    Twin, One                         1900 GER    24600040 1999        0.5    2     4 w =\n\
001    4      Twin, Two                         1800        24600040             0.5    3     3 b =\n\
001    5      Nobody, No                                           0             1.0    5  0000 - U\n";

#[test]
fn an_imported_trf_keeps_federations_and_fide_ids_for_its_export() {
    let s = spawn();
    let r = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(IMPORTED.as_bytes()),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let event = r.json()["id"].as_i64().unwrap();
    let people = s
        .get(&format!("/api/v1/events/{event}/participants"))
        .json();
    let of = |n: u64| {
        people["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["pairing_number"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(of(1)["federation"], "AZE");
    assert_eq!(of(1)["external_id"], "13400304");
    assert_eq!(of(2)["external_id"], "4147103");
    // a shared id is kept for neither twin, and `0` means none
    assert_eq!(of(3)["federation"], "GER");
    assert!(of(3)["external_id"].is_null());
    assert!(of(4)["external_id"].is_null());
    assert!(of(4)["federation"].is_null());
    assert!(of(5)["external_id"].is_null());
    let text = s.get(&format!("/api/v1/events/{event}/trf")).text();
    let line = |n: u32| {
        text.lines()
            .find(|l| l.starts_with(&format!("001 {n:>4}")))
            .unwrap()
            .to_string()
    };
    let sui = line(2);
    assert_eq!(cols(&sui, 54, 56), "SUI", "{text}");
    assert_eq!(cols(&sui, 58, 68), "    4147103", "{text}");
    assert_eq!(cols(&line(3), 54, 56), "GER", "{text}");
}
