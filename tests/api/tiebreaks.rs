//! FIDE tie-breaks through the API: FIDE's 2024 tie-break exercise imported as a TRF file,
//! the `fide` preset set on the event, the published Buchholz values read back.

use serde_json::json;

use crate::client::spawn;

/// FIDE's tie-break exercise for the 2023 regulations (TEC, 18 March 2024), one row per
/// player: `+W9` won with white against 9, `=B13` drawn with black, `-F11` forfeit lost,
/// `+F9` forfeit won, `=BYE` half-point bye, `+BYE` pairing-allocated bye, `--` absent.
const EXERCISE: [&str; 16] = [
    "+W9 =B13 =W2 +B15 =W4",
    "+B10 +W7 =B1 +W16 =B3",
    "=W11 +B6 +W8 =B4 =W2",
    "+B12 =BYE +W13 =W3 =B1",
    "-W13 -B15 +W11 =B7 +W10",
    "-B14 -W3 +BYE +W10 +B8",
    "+W15 -B2 -B16 =W5 -B11",
    "=B16 +W14 -B3 +W13 -W6",
    "-B1 -W10 =BYE -F11 +BYE",
    "-W2 +B9 -W15 -B6 -B5",
    "=B3 -W16 -B5 +F9 +W7",
    "-W4 +BYE +F14 -- --",
    "+B5 =W1 -B4 -B8 -W14",
    "+W6 -B8 -F12 -- +B13",
    "-B7 +W5 +B10 -W1 -B16",
    "=W8 +B11 +W7 -B2 +W15",
];

/// The exercise as a TRF-16 file (forfeits: the winner had white).
fn exercise_trf() -> String {
    let mut out = String::from("012 FIDE tie-break exercise 2024\nXXR 5\n");
    for (i, row) in EXERCISE.iter().enumerate() {
        let n = i + 1;
        let mut points = 0.0;
        let mut cells = String::new();
        for cell in row.split(' ') {
            let (result, rest) = cell.split_at(1);
            let (opponent, colour, code) = match (result, rest) {
                (_, "-") => (0, '-', 'Z'),
                ("=", "BYE") => (0, '-', 'H'),
                ("+", "BYE") => (0, '-', 'U'),
                (r, f) if f.starts_with('F') => (
                    f[1..].parse().unwrap(),
                    if r == "+" { 'w' } else { 'b' },
                    if r == "+" { '+' } else { '-' },
                ),
                (r, g) => (
                    g[1..].parse().unwrap(),
                    g.chars().next().unwrap().to_ascii_lowercase(),
                    match r {
                        "+" => '1',
                        "=" => '=',
                        _ => '0',
                    },
                ),
            };
            points += match code {
                '1' | '+' | 'U' => 1.0,
                '=' | 'H' => 0.5,
                _ => 0.0,
            };
            cells.push_str(&format!("  {opponent:>4} {colour} {code}"));
        }
        let name = format!("Player {n}");
        out.push_str(&format!(
            "001 {n:>4}      {name:<33} {:>4} {:>3} {:>11} {:>10} {points:>4.1} {n:>4}{cells}\n",
            2400 - 10 * n,
            "",
            "",
            ""
        ));
    }
    out
}

#[test]
fn fide_preset_on_the_published_exercise() {
    let s = spawn();
    let created = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(exercise_trf().as_bytes()),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let event = created["id"].as_i64().unwrap();
    let admin = created["admin_token"].as_str().unwrap().to_string();

    // A preset name that does not exist is refused, naming the setting.
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"rounds": 5, "tiebreaks": "fidee"}}),
    );
    assert_eq!(r.problem(422)["errors"][0]["field"], "settings.tiebreaks");
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"rounds": 5, "tiebreaks": "fide"}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());

    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(
        standings["tiebreaks"],
        json!([
            "buchholz_cut1",
            "buchholz",
            "direct_encounter",
            "aro_cut1",
            "wins",
            "games_with_black"
        ])
    );
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    let row = |n: u64| {
        rows.iter()
            .find(|r| r["participant"]["pairing_number"] == n)
            .unwrap()
    };
    // FIDE's published answers: Buchholz and Buchholz cut-1.
    for (n, bh) in [(2, 13.0), (3, 15.5), (4, 15.0), (11, 13.5), (16, 12.5)] {
        assert_eq!(row(n)["buchholz"], bh, "Buchholz of {n}");
    }
    for (n, cut1) in [(4, 11.5), (9, 7.5), (12, 9.5), (14, 9.0), (15, 11.0)] {
        assert_eq!(row(n)["buchholz_cut1"], cut1, "Buchholz cut-1 of {n}");
    }
    // 3 and 4 tie on 3½ points... and 1 too; cut-1 orders them 3 (13), 4 (11½), 1 (11).
    let place = |n: u64| {
        rows.iter()
            .position(|r| r["participant"]["pairing_number"] == n)
            .unwrap()
    };
    assert_eq!(row(1)["points"], 3.5);
    assert_eq!(row(4)["points"], 3.5);
    assert!(place(3) < place(4) && place(4) < place(1));
    assert_eq!(rows[0]["participant"]["pairing_number"], 2);

    // The CSV carries the preset's columns in order.
    let csv = s
        .get(&format!("/api/v1/events/{event}/standings?format=csv"))
        .text();
    assert_eq!(
        csv.lines().next().unwrap(),
        "Rank,No,Name,Rating,Points,Buchholz cut-1,Buchholz,Direct encounter,ARO cut-1,Wins,Games with black"
    );
}
