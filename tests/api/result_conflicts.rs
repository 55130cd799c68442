//! One rule for a stored result in every format: it changes only by the event's admin or with
//! `If-Match`; a scorer who would change it without is told with a 409 naming the field, and
//! nothing is stored. Two scorers entering one chess board or one bridge row at once get the
//! same answers.

use serde_json::{json, Value};

use crate::client::{Response, TestServer};
use crate::swiss::{pair, publish, swiss_event};

fn scorer_token(s: &TestServer, event: i64, admin: &str, label: &str) -> String {
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/tokens"),
        Some(admin),
        &json!({ "label": label }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["token"].as_str().unwrap().to_string()
}

/// The same `body` sent to `path` by each token at once (one thread each).
fn at_once(s: &TestServer, path: &str, sends: &[(&str, Value)]) -> Vec<Response> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = sends
            .iter()
            .map(|(token, body)| scope.spawn(move || s.send("POST", path, Some(token), body)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

/// Of two answers to a race, the one that was first (200) and the one told (409).
fn first_and_told(answers: &[Response]) -> (usize, Value) {
    let statuses: Vec<u16> = answers.iter().map(|r| r.status).collect();
    let first = statuses.iter().position(|&s| s == 200).expect("one stored");
    let told = statuses.iter().position(|&s| s == 409).expect("one told");
    (first, answers[told].problem(409))
}

#[test]
fn two_scorers_on_one_chess_board_the_second_is_told_409() {
    let s = crate::client::spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 5}));
    s.add_players(event, &admin, 8);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let (a, b) = (
        scorer_token(&s, event, &admin, "table A"),
        scorer_token(&s, event, &admin, "table B"),
    );
    let path = format!("/api/v1/events/{event}/results");
    let result = |r: &str| json!({"results": [{"round": 1, "board": 2, "result": r}]});
    let stored = |s: &TestServer| {
        s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"][1]["result"].clone()
    };
    let answers = at_once(&s, &path, &[(&a, result("1-0")), (&b, result("0-1"))]);
    let (first, problem) = first_and_told(&answers);
    assert_eq!(
        problem["errors"][0]["field"], "results[0].result",
        "{problem}"
    );
    assert!(
        problem["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("If-Match"),
        "{problem}"
    );
    let winner = ["1-0", "0-1"][first];
    assert_eq!(stored(&s), winner, "the first is kept");
    // the same value again is fine for anyone
    let r = s.send("POST", &path, Some(&b), &result(winner));
    assert_eq!(r.json()["results"][0]["changed"], false);
    // `If-Match: *` is not a read of the event: still 409
    let other = ["0-1", "1-0"][first];
    s.send_if_match("POST", &path, &b, "*", &result(other))
        .problem(409);
    // a stale If-Match: 412
    let stale = s.etag(event);
    s.send("POST", &path, Some(&admin), &result("1/2-1/2"));
    s.send_if_match("POST", &path, &b, &stale, &result(other))
        .problem(412);
    // read, then change with If-Match: the scorer may
    let r = s.send_if_match("POST", &path, &b, &s.etag(event), &result(other));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(stored(&s), other);
    // CSV names the line
    let r = s.request(
        "POST",
        &path,
        &[
            ("Content-Type", "text/csv"),
            ("Authorization", &format!("Bearer {a}")),
        ],
        Some(b"round,board,result\n1,1,1-0\n1,2,1/2-1/2\n"),
    );
    assert_eq!(r.problem(409)["errors"][0]["field"], "line 3");
    assert!(
        s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"][0]["result"].is_null(),
        "all or nothing"
    );
}

#[test]
fn an_admin_may_replace_a_scorers_result_but_never_the_other_way_round() {
    let s = crate::client::spawn();
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 5}));
    s.add_players(event, &admin, 8);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let scorer = scorer_token(&s, event, &admin, "table A");
    let path = format!("/api/v1/events/{event}/results");
    for board in 1..=4 {
        let result = |r: &str| json!({"results": [{"round": 1, "board": board, "result": r}]});
        let answers = at_once(
            &s,
            &path,
            &[(&scorer, result("1-0")), (&admin, result("0-1"))],
        );
        // whoever came first, the admin's value stands and the scorer never replaced it
        match (answers[0].status, answers[1].status) {
            (200, 200) => {
                assert_eq!(answers[1].json()["results"][0]["changed"], true);
            }
            (409, 200) => {}
            other => panic!("{other:?}: {} / {}", answers[0].text(), answers[1].text()),
        }
        let stored = s.get(&format!("/api/v1/events/{event}/rounds/1")).json()["games"][board - 1]
            ["result"]
            .clone();
        assert_eq!(stored, "0-1", "board {board}");
    }
}

#[test]
fn two_scorers_on_one_bridge_row_the_second_is_told_409() {
    let s = crate::client::spawn();
    let (event, admin) = crate::bridge_results::mitchell_event(&s, json!({}));
    let (a, b) = (
        scorer_token(&s, event, &admin, "table 1"),
        scorer_token(&s, event, &admin, "director's laptop"),
    );
    let path = format!("/api/v1/events/{event}/board-results");
    let row = |contract: &str| json!({"results": [{"round": 1, "table": 1, "board": 1, "contract": contract, "declarer": "N", "result": "="}]});
    let answers = at_once(&s, &path, &[(&a, row("3NT")), (&b, row("4S"))]);
    let (first, problem) = first_and_told(&answers);
    assert_eq!(problem["errors"][0]["field"], "results[0]", "{problem}");
    let traveller = |s: &TestServer| {
        s.get(&format!("/api/v1/events/{event}/travellers/1"))
            .json()["results"][0]["contract"]
            .clone()
    };
    let winner = ["3NT", "4S"][first];
    assert_eq!(traveller(&s), winner);
    // with If-Match the other scorer may change it; the admin may anyway
    let other = ["4S", "3NT"][first];
    let r = s.send_if_match("POST", &path, &b, &s.etag(event), &row(other));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(traveller(&s), other);
    let r = s.send("POST", &path, Some(&admin), &row("2H"));
    assert_eq!(r.json()["changed"], 1);
    s.send("POST", &path, Some(&a), &row("3NT")).problem(409);
    assert_eq!(traveller(&s), "2H");
}

#[test]
fn a_scorer_changing_a_bridge_match_is_told_409_naming_it() {
    let s = crate::client::spawn();
    let (id, admin) = crate::bridge_team_events::bridge_event(&s, "swiss_teams", json!({}));
    for k in 1..=4 {
        let r = crate::bridge_team_events::add_bridge_team(&s, id, &admin, k, 4);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = crate::bridge_team_events::draw_lots_by_rating(&s, id, &admin);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&admin),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let top = r.json()["matches"][0].clone();
    let scorer = scorer_token(&s, id, &admin, "scoring program");
    let path = format!("/api/v1/events/{id}/matches");
    let vps = |home: f64| json!({"matches": [{"round": 1, "home": top["home"], "away": top["away"], "vp_home": home, "vp_away": 20.0 - home}]});
    assert_eq!(s.send("POST", &path, Some(&admin), &vps(12.0)).status, 200);
    let p = s
        .send("POST", &path, Some(&scorer), &vps(15.0))
        .problem(409);
    assert_eq!(p["errors"][0]["field"], "matches[0]", "{p}");
    let r = s.send_if_match("POST", &path, &scorer, &s.etag(id), &vps(15.0));
    assert_eq!(r.status, 200, "{}", r.text());
}
