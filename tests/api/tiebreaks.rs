//! FIDE tie-breaks through the API: FIDE's 2024 tie-break exercise imported as a TRF file,
//! the `fide` preset set on the event, the published Buchholz values read back.

use serde_json::{json, Value};

use crate::client::{spawn, Response, TestServer};

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

/// The exercise imported as a new event: (event, admin token).
fn exercise_event(s: &TestServer) -> (i64, String) {
    let created = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(exercise_trf().as_bytes()),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    (
        created["id"].as_i64().unwrap(),
        created["admin_token"].as_str().unwrap().to_string(),
    )
}

/// Sets the event's tie-breaks (the answer to the change), by the 2023 text the exercise was
/// written for.
fn set_tiebreaks(s: &TestServer, event: i64, admin: &str, tiebreaks: Value) -> Response {
    s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(admin),
        &json!({"settings": {"rounds": 5, "tiebreaks": tiebreaks, "tiebreak_rules": "2023"}}),
    )
}

/// A standings row by pairing number.
fn by_number(rows: &[Value], n: u64) -> &Value {
    rows.iter()
        .find(|r| r["participant"]["pairing_number"] == n)
        .unwrap()
}

#[test]
fn fide_preset_on_the_published_exercise() {
    let s = spawn();
    let (event, admin) = exercise_event(&s);

    // A preset name that does not exist is refused, naming the setting.
    let r = set_tiebreaks(&s, event, &admin, json!("fidee"));
    assert_eq!(r.problem(422)["errors"][0]["field"], "settings.tiebreaks");
    let r = set_tiebreaks(&s, event, &admin, json!("fide"));
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
    let row = |n: u64| by_number(rows, n);
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
        "Rank,No,Name,Rating,Points,Buchholz cut-1,Buchholz,Direct encounter,ARO cut-1,Wins,Games with black,K,Rtg+/-,TPR"
    );
}

#[test]
fn direct_encounter_and_wins_as_fide_defines_them_on_the_exercise() {
    let s = spawn();
    let (event, admin) = exercise_event(&s);
    let tiebreaks = json!(["direct_encounter", "wins", "games_won"]);
    let r = set_tiebreaks(&s, event, &admin, tiebreaks);
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let rows = standings["standings"].as_array().unwrap();
    let row = |n: u64| by_number(rows, n);
    let rank = |n: u64| row(n)["rank"].as_u64().unwrap();

    // 1, 3, 4 and 16 tie on 3½. Among them only 1-4 and 3-4 were played (both drawn): 4 has
    // 1, 1 and 3 have ½, 16 has 0. Not all of them met, and 4's 1 does not beat what 1, 3 or
    // 16 could still have had (16: 0 + three wins = 3): direct encounter separates no one
    // (the old count would have put 4 first).
    for (n, de) in [(1, 0.5), (3, 0.5), (4, 1.0), (16, 0.0)] {
        assert_eq!(row(n)["direct_encounter"], de, "direct encounter of {n}");
    }
    // Wins then decide: 16 won three games, 1, 3 and 4 two each.
    for (n, wins) in [(16, 3), (1, 2), (3, 2), (4, 2)] {
        assert_eq!(row(n)["wins"], wins, "wins of {n}");
    }
    assert_eq!(rank(2), 1);
    assert_eq!(rank(16), 2);
    assert_eq!((rank(1), rank(3), rank(4)), (3, 3, 3));
    assert!(row(4)["shared"].as_bool().unwrap());

    // Wins count the rounds won without playing: 12 has the pairing-allocated bye and a
    // forfeit win, 2 wins but no game won; 6 won two games and had the bye: 3 wins.
    assert_eq!(
        (&row(12)["wins"], &row(12)["games_won"]),
        (&json!(2), &json!(0))
    );
    assert_eq!(
        (&row(6)["wins"], &row(6)["games_won"]),
        (&json!(3), &json!(2))
    );
    // 12, 14 and 15 tie on 2 points and never met over the board (12-14 was a forfeit), each
    // with 2 wins; games won order them: 14 and 15 (2) above 12 (0).
    assert_eq!((rank(14), rank(15), rank(12)), (10, 10, 12));
    // 5, 8 and 11 on 2½: 5 beat 11, 8 met neither: 5's 1 is not above 8's possible 2. Two
    // wins each (11's forfeit win counts); games won: 5 and 8 two, 11 one.
    assert_eq!(row(5)["direct_encounter"], 1.0);
    assert_eq!((rank(5), rank(8), rank(11)), (7, 7, 9));
    // The CSV names the columns.
    let csv = s
        .get(&format!("/api/v1/events/{event}/standings?format=csv"))
        .text();
    assert_eq!(
        csv.lines().next().unwrap(),
        "Rank,No,Name,Rating,Points,Direct encounter,Wins,Games won,K,Rtg+/-,TPR"
    );
}
