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

/// The exercise with a start date (`042`, `YYYY/MM/DD`), imported: (event, admin token).
fn exercise_dated(s: &TestServer, date: &str) -> (i64, String) {
    let text = exercise_trf().replace("XXR 5\n", &format!("042 {date}\nXXR 5\n"));
    let created = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(text.as_bytes()),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    (
        created["id"].as_i64().unwrap(),
        created["admin_token"].as_str().unwrap().to_string(),
    )
}

fn patch(s: &TestServer, event: i64, admin: &str, body: Value) -> Response {
    s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(admin),
        &body,
    )
}

#[test]
fn c07_codes_by_the_names_asked_and_the_text_by_the_start_date() {
    let s = spawn();
    // no start date: the text in force, 2026
    let (event, admin) = exercise_event(&s);
    let codes = json!(["BH/C1", "BH", "SB", "DE", "WIN", "ARO/C1", "TPR", "REP", "buchholz"]);
    let r = patch(&s, event, &admin, json!({"settings": {"tiebreaks": codes}}));
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(standings["tiebreak_rules"], "2026");
    assert_eq!(standings["tiebreaks"], codes);
    let rows = standings["standings"].as_array().unwrap();
    let four = by_number(rows, 4);
    assert_eq!(four["tiebreaks"].as_object().unwrap().len(), 9);
    // in the order asked, as written
    let text = s.get(&format!("/api/v1/events/{event}/standings")).text();
    let at = |name: &str| text.find(&format!("\"{name}\":")).unwrap();
    assert!(at("BH/C1") < at("SB") && at("SB") < at("WIN") && at("WIN") < at("REP"));
    // 2026: player 4's half-point bye counts a dummy of ½ x 5 instead of 4's own 3½
    assert_eq!(four["tiebreaks"]["BH"], 14.0);
    assert_eq!(four["tiebreaks"]["buchholz"], 14.0);
    assert_eq!(four["buchholz"], 14.0);
    assert_eq!(four["tiebreaks"]["BH/C1"], 11.5);
    assert_eq!(four["tiebreaks"]["REP"], 4.0);

    // a start date before 1 March 2026: the 2023 text
    let r = patch(&s, event, &admin, json!({"start_date": "2025-11-20"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(standings["tiebreak_rules"], "2023");
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(by_number(rows, 4)["tiebreaks"]["BH"], 15.0);
    // the setting wins over the date
    let r = patch(
        &s,
        event,
        &admin,
        json!({"settings": {"tiebreaks": codes, "tiebreak_rules": "2026"}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(standings["tiebreak_rules"], "2026");
    // a file's start date chooses the text from the import on
    let (dated, _) = exercise_dated(&s, "2026/03/01");
    let event_row = s.get(&format!("/api/v1/events/{dated}")).json();
    assert_eq!(event_row["start_date"], "2026-03-01");
    let standings = s.get(&format!("/api/v1/events/{dated}/standings")).json();
    assert_eq!(standings["tiebreak_rules"], "2026");
}

#[test]
fn bad_tiebreak_settings_are_refused_naming_the_entry_and_nothing_changes() {
    let s = spawn();
    let (event, admin) = exercise_event(&s);
    let before = s.get(&format!("/api/v1/events/{event}")).json()["settings"].clone();
    for (settings, field) in [
        (json!({"tiebreaks": ["BH", "XYZ"]}), "settings.tiebreaks[1]"),
        (json!({"tiebreaks": ["WIN/C1"]}), "settings.tiebreaks[0]"),
        (
            json!({"tiebreaks": ["BH", "SB/M1"]}),
            "settings.tiebreaks[1]",
        ),
        (json!({"tiebreaks": ["BH/C3"]}), "settings.tiebreaks[0]"),
        (json!({"tiebreaks": ["SB", 7]}), "settings.tiebreaks[1]"),
        (json!({"tiebreak_rules": "2024"}), "settings.tiebreak_rules"),
        (json!({"unrated_rating": 9000}), "settings.unrated_rating"),
    ] {
        let r = patch(&s, event, &admin, json!({ "settings": settings }));
        assert_eq!(r.problem(422)["errors"][0]["field"], field, "{settings}");
    }
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}")).json()["settings"],
        before
    );
    // a round robin's settings alike
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "RR", "game": "chess", "format": "round_robin",
                "settings": {"tiebreaks": ["DE", "SB", "KS/L", "BH/C1"], "tiebreak_rules": 2026}}),
    );
    r.problem(422);
    assert_eq!(
        r.fields(),
        vec!["settings.tiebreaks[2]", "settings.tiebreak_rules"]
    );
}

#[test]
fn unrated_opponents_left_out_unless_the_rules_give_them_a_rating() {
    let s = spawn();
    let (event, admin) = exercise_event(&s);
    // player 16 becomes unrated
    let rows = s
        .get(&format!("/api/v1/events/{event}/participants?limit=100"))
        .json();
    let sixteen = rows["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pairing_number"] == 16)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    // a rating of 0 is no rating
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}/participants/{sixteen}"),
        Some(&admin),
        &json!({"rating": 0}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = patch(
        &s,
        event,
        &admin,
        json!({"settings": {"tiebreaks": ["ARO"]}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let note = standings["notes"][0].as_str().unwrap();
    assert!(
        note.contains("ARO") && note.contains("Player 16 (16)"),
        "{note}"
    );
    // 8 met 16 (round 1): ARO over 14, 3, 13, 6 only
    let rows = standings["standings"].as_array().unwrap();
    let aro = |rows: &[Value], n| by_number(rows, n)["tiebreaks"]["ARO"].as_f64().unwrap();
    let rating = |n: i32| (2400 - 10 * n) as f64;
    let left_out = ((rating(14) + rating(3) + rating(13) + rating(6)) / 4.0).round();
    assert_eq!(aro(rows, 8), left_out);
    let r = patch(
        &s,
        event,
        &admin,
        json!({"settings": {"tiebreaks": ["ARO"], "unrated_rating": 1500}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(standings["notes"], json!([]));
    assert_eq!(standings["unrated_rating"], 1500);
    let rows = standings["standings"].as_array().unwrap();
    let counted = ((1500.0 + rating(14) + rating(3) + rating(13) + rating(6)) / 5.0).round();
    assert_eq!(aro(rows, 8), counted);
}

/// A round robin of four as a TRF file: 1 (2800, GM, NOR) beats everyone; the others draw.
fn four_round_robin(start: &str) -> String {
    let players = [
        (
            1,
            "GM",
            "Top, Tina",
            2800,
            "NOR",
            3.0,
            ["   2 w 1", "   3 b 1", "   4 w 1"],
        ),
        (
            2,
            "IM",
            "Second, Sam",
            2250,
            "ENG",
            1.0,
            ["   1 b 0", "   4 b =", "   3 w ="],
        ),
        (
            3,
            "FM",
            "Third, Tom",
            2300,
            "GER",
            1.0,
            ["   4 w =", "   1 w 0", "   2 b ="],
        ),
        (
            4,
            "",
            "Fourth, Fay",
            2200,
            "FRA",
            1.0,
            ["   3 b =", "   2 w =", "   1 b 0"],
        ),
    ];
    let mut out = format!(
        "012 Four Masters\n022 Oslo\n032 NOR\n042 {start}\n052 2025/12/31\n\
         092 Individual: Round-Robin\n102 IA Jane Doe\n112 FA John Roe\n122 90'/40+30'\n"
    );
    for (n, title, name, rating, fed, points, cells) in players {
        out.push_str(&format!(
            "001 {n:>4} m{title:>3} {name:<33} {rating:>4} {fed:<3} {:>11} {:>10} {points:>4.1} {n:>4}",
            "", ""
        ));
        for c in cells {
            out.push_str(&format!("  {c}"));
        }
        out.push('\n');
    }
    out
}

#[test]
fn a_round_robin_file_keeps_its_format_dates_details_ratings_and_norms() {
    let s = spawn();
    let created = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(four_round_robin("2025/09/05").as_bytes()),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let event = created["id"].as_i64().unwrap();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    assert_eq!(created["format"], "round_robin");
    assert_eq!(created["start_date"], "2025-09-05");
    assert_eq!(created["end_date"], "2025-12-31");
    assert_eq!(
        created["details"],
        json!({"place": "Oslo", "federation": "NOR", "chief_arbiter": "IA Jane Doe",
               "deputy_arbiters": ["FA John Roe"], "time_control": "90'/40+30'"})
    );
    let people = s
        .get(&format!("/api/v1/events/{event}/participants"))
        .json();
    assert_eq!(people["items"][0]["title"], "GM");
    assert_eq!(people["items"][0]["sex"], "m");

    // B.02 before 1 October 2025: every gap over 400 counts as 400; 1 (K 10) beat 2250,
    // 2300 and 2200: 3 x 10 x (1 - 0.92) = +2.4
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    assert_eq!(standings["tiebreak_rules"], "2023");
    let rows = standings["standings"].as_array().unwrap();
    let top = by_number(rows, 1);
    assert_eq!(top["k_factor"], 10);
    assert_eq!(top["rating_change"], 2.4);
    // TPR: 100 % against an average of 2250: 2250 + 800
    assert_eq!(top["performance_rating"], 3050);
    let player = s
        .get(&format!(
            "/api/v1/events/{event}/participants/{}/games",
            top["participant"]["id"]
        ))
        .json();
    let changes: Vec<f64> = player["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating_change"].as_f64().unwrap())
        .collect();
    assert_eq!(changes, vec![0.8, 0.8, 0.8]);
    // 2 (K 20) lost to 2800 (gap 550 counts 400: expected 0.08) and drew 2200 and 2300:
    // 20 x (-0.08 + (0.5 - 0.57) + (0.5 - 0.43)) = -1.6
    assert_eq!(by_number(rows, 2)["rating_change"], -1.6);

    // from 1 October 2025 a 2800 counts the real gaps: 550 0.97, 500 0.96, 600 0.98
    let r = patch(&s, event, &admin, json!({"start_date": "2025-10-01"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let standings = s.get(&format!("/api/v1/events/{event}/standings")).json();
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(by_number(rows, 1)["rating_change"], 0.9);
    // below 2650 the rule stays: 2's loss to 2800 still counts 400
    assert_eq!(by_number(rows, 2)["rating_change"], -1.6);
    let csv = s
        .get(&format!("/api/v1/events/{event}/standings?format=csv"))
        .text();
    assert!(csv.lines().next().unwrap().ends_with(",K,Rtg+/-,TPR"));
    assert!(
        csv.lines().nth(1).unwrap().ends_with(",10,0.9,3050"),
        "{csv}"
    );

    // norms: three games are far from nine; what is missing is said
    let norms = s.get(&format!("/api/v1/events/{event}/norms")).json();
    let checks = norms["players"][1]["norms"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "a man: GM and IM norms only");
    assert_eq!(checks[0]["norm"], "GM");
    assert_eq!(checks[0]["met"], false);
    assert!(checks[0]["missing"][0]
        .as_str()
        .unwrap()
        .starts_with("3 games played"));

    // round-robin rules: direct encounter counts every tie as one whose players all met
    // (2, 3, 4 drew each other: 1 each), and the file written back keeps what was read
    let trf = s.get(&format!("/api/v1/events/{event}/trf")).text();
    for line in [
        "012 Four Masters",
        "022 Oslo",
        "032 NOR",
        "042 2025/10/01",
        "052 2025/12/31",
        "092 Individual: Round-Robin",
        "102 IA Jane Doe",
        "112 FA John Roe",
        "122 90'/40+30'",
    ] {
        assert!(trf.lines().any(|l| l == line), "{line} in\n{trf}");
    }
    // titles and sex in their TRF columns; the rank column by the standings
    let top = trf.lines().find(|l| l.starts_with("001    1")).unwrap();
    assert_eq!(&top[9..13], "m  g", "{top}");
    assert_eq!(top[85..89].trim(), "1", "{top}");
    let again = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(trf.as_bytes()),
    );
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(again.json()["format"], "round_robin");
    let again = again.json()["id"].as_i64().unwrap();
    let people = s
        .get(&format!("/api/v1/events/{again}/participants"))
        .json();
    assert_eq!(people["items"][0]["title"], "GM");
}

#[test]
fn a_file_without_a_type_becomes_what_the_query_says() {
    let s = spawn();
    let text = four_round_robin("2025/04/01").replace("092 Individual: Round-Robin\n", "");
    let import = |query: &str| {
        s.request(
            "POST",
            &format!("/api/v1/events/trf{query}"),
            &[("Content-Type", "text/plain")],
            Some(text.as_bytes()),
        )
    };
    let swiss = import("");
    assert_eq!(swiss.json()["format"], "swiss", "{}", swiss.text());
    assert_eq!(
        import("?format=round_robin").json()["format"],
        "round_robin"
    );
    let r = import("?format=round_robin&system=swiss");
    assert_eq!(r.problem(422)["errors"][0]["field"], "system");
    let r = import("?format=knockout");
    assert_eq!(r.problem(422)["errors"][0]["field"], "format");
    // a date that is not one is named at its line
    let bad = text.replace("042 2025/04/01", "042 soon");
    let r = s.request(
        "POST",
        "/api/v1/events/trf",
        &[("Content-Type", "text/plain")],
        Some(bad.as_bytes()),
    );
    assert_eq!(r.problem(422)["errors"][0]["field"], "line 4");
}
