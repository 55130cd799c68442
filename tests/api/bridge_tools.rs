//! Stateless bridge scoring over the API: board score, matchpoints, IMPs, victory points.

use serde_json::json;

use crate::client::spawn;

#[test]
fn the_score_of_a_board_by_number_or_vulnerability() {
    let s = spawn();
    let r = s.get("/api/v1/bridge/score?board=7&contract=4SX&declarer=N&tricks=11");
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    // board 7: South deals, both vulnerable; 4♠X+1 vulnerable = 240 + 500 + 50 + 200
    assert_eq!(v["board"], 7);
    assert_eq!(v["dealer"], "S");
    assert_eq!(v["vulnerability"], "both");
    assert_eq!(v["ns_score"], 990);
    assert_eq!(v["ew_score"], -990);
    assert_eq!(v["contract"], "4SX");
    assert_eq!(v["result"], "+1");

    // the same contract by East on board 2 (NS vulnerable), given as a result: 590 to EW
    let v = s
        .get("/api/v1/bridge/score?board=2&contract=4%20s%20x&declarer=e&result=%3D")
        .json();
    assert_eq!(
        (v["dealer"].clone(), v["vulnerability"].clone()),
        (json!("E"), json!("ns"))
    );
    assert_eq!(
        (v["ns_score"].clone(), v["ew_score"].clone()),
        (json!(-590), json!(590))
    );
    assert_eq!(v["tricks"], 10);

    // vulnerability instead of board: 3NT-2 vulnerable, not doubled
    let v = s
        .get("/api/v1/bridge/score?vulnerability=ew&contract=3NT&declarer=W&result=-2")
        .json();
    assert_eq!(v["board"], json!(null));
    assert_eq!(v["dealer"], json!(null));
    assert_eq!(
        (v["ns_score"].clone(), v["ew_score"].clone()),
        (json!(200), json!(-200))
    );

    // "+1" with the plus sign left unencoded (it arrives as a space), and encoded
    for result in ["+1", "%2B1"] {
        let v = s
            .get(&format!(
                "/api/v1/bridge/score?board=1&contract=4H&declarer=S&result={result}"
            ))
            .json();
        assert_eq!(v["ns_score"], 450, "{result}");
    }

    // a passed-out board needs no declarer or tricks
    let v = s.get("/api/v1/bridge/score?board=1&contract=PASS").json();
    for fits in ["result=-", "result=%3D", "tricks=0"] {
        let w = s
            .get(&format!(
                "/api/v1/bridge/score?board=1&contract=PASS&{fits}"
            ))
            .json();
        assert_eq!(w["ns_score"], 0, "{fits}");
    }
    assert_eq!(
        (v["ns_score"].clone(), v["ew_score"].clone()),
        (json!(0), json!(0))
    );
}

#[test]
fn bad_score_requests_name_the_field() {
    let s = spawn();
    let cases = [
        ("board=1&contract=8S&declarer=N&tricks=10", "contract"),
        ("board=1&contract=1NT&declarer=N&result=-8", "result"),
        ("board=1&contract=4S&declarer=N&tricks=14", "tricks"),
        ("board=1&contract=4S&declarer=N&tricks=abc", "tricks"),
        ("board=1&contract=4S&declarer=Q&tricks=10", "declarer"),
        ("board=1&contract=4S&tricks=10", "declarer"),
        ("board=1&contract=4S&declarer=N", "tricks"),
        // a passed-out board: a result other than nothing, =, 0 or -, or tricks taken
        ("board=1&contract=PASS&result=%C3%B5", "result"),
        ("board=1&contract=PASS&result=%2B1", "result"),
        ("board=1&contract=PASS&tricks=11", "tricks"),
        (
            "board=1&contract=4S&declarer=N&tricks=10&result=%3D",
            "result",
        ),
        ("contract=4S&declarer=N&tricks=10", "board"),
        ("board=0&contract=4S&declarer=N&tricks=10", "board"),
        ("board=10000&contract=4S&declarer=N&tricks=10", "board"),
        (
            "vulnerability=some&contract=4S&declarer=N&tricks=10",
            "vulnerability",
        ),
        (
            "board=1&vulnerability=both&contract=4S&declarer=N&tricks=10",
            "vulnerability",
        ),
        ("board=1&declarer=N&tricks=10", "contract"),
    ];
    for (query, field) in cases {
        let r = s.get(&format!("/api/v1/bridge/score?{query}"));
        r.problem(422);
        assert_eq!(r.fields(), vec![field.to_string()], "{query}: {}", r.text());
    }
    // board and vulnerability may both be given when they agree
    let r =
        s.get("/api/v1/bridge/score?board=1&vulnerability=none&contract=4S&declarer=N&tricks=10");
    assert_eq!(r.json()["ns_score"], 420);
}

#[test]
fn matchpoints_of_a_board() {
    let s = spawn();
    let r = s.send(
        "POST",
        "/api/v1/bridge/matchpoints",
        None,
        &json!({"scores": [420, 450, -50]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["top"], 4.0);
    assert_eq!(v["ns"], json!([2.0, 4.0, 0.0]));
    assert_eq!(v["ew"], json!([2.0, 0.0, 4.0]));
    assert_eq!(v["ns_percent"], json!([50.0, 100.0, 0.0]));

    // ACBL scale, Neuberg to 4 expected results: (MP + ½)·4/3 − ½
    let v = s
        .send(
            "POST",
            "/api/v1/bridge/matchpoints",
            None,
            &json!({"scores": [420, 450, -50], "expected": 4, "scale": "acbl"}),
        )
        .json();
    assert_eq!(v["top"], 3.0);
    let ns: Vec<f64> = v["ns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    for (got, want) in ns.iter().zip([1.5, 17.0 / 6.0, 1.0 / 6.0]) {
        assert!((got - want).abs() < 1e-9, "{ns:?}");
    }

    // adjusted and split scores
    let v = s
        .send(
            "POST",
            "/api/v1/bridge/matchpoints",
            None,
            &json!({"scores": [-420, "A+/A-", {"ns": -620, "ew": -420}, -650]}),
        )
        .json();
    assert_eq!(v["top"], 6.0);
    assert_eq!(v["ns_percent"][1], 60.0);
    assert_eq!(v["ew_percent"][1], 40.0);
}

#[test]
fn bad_matchpoint_requests_name_the_field() {
    let s = spawn();
    let too_many: Vec<i32> = vec![100; 1001];
    let cases = [
        (json!({"scores": []}), "scores"),
        (json!({"scores": too_many}), "scores"),
        (json!({"scores": [420, 450], "expected": 1}), "expected"),
        (json!({"scores": [420, 450], "expected": 5000}), "expected"),
        (json!({"scores": [420, 9000]}), "scores[1]"),
        (json!({"scores": [420, 1.5]}), "scores[1]"),
        (json!({"scores": ["A+/B"]}), "scores[0]"),
        (json!({"scores": [true]}), "scores[0]"),
        (json!({"scores": [{"ns": 100}]}), "scores[0].ew"),
        (
            json!({"scores": [{"ns": 100, "ew": 0, "x": 1}]}),
            "scores[0].x",
        ),
        (json!({"scores": [420], "scale": "wbf"}), "scale"),
        (json!({"score": [420]}), "score"),
    ];
    for (body, field) in cases {
        let r = s.send("POST", "/api/v1/bridge/matchpoints", None, &body);
        r.problem(422);
        assert_eq!(r.fields(), vec![field.to_string()], "{body}: {}", r.text());
    }
}

#[test]
fn imps_and_victory_points() {
    let s = spawn();
    for (d, imps) in [
        (0, 0),
        (20, 1),
        (-50, -2),
        (470, 10),
        (-4000, -24),
        (15200, 24),
    ] {
        let r = s.get(&format!("/api/v1/bridge/imps?difference={d}"));
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json(), json!({"imps": imps}), "{d}");
    }
    for (m, winner, loser) in [
        (0, 10.0, 10.0),
        (1, 10.31, 9.69),
        (5, 11.48, 8.52),
        (10, 12.8, 7.2),
        (60, 20.0, 0.0),
    ] {
        let r = s.get(&format!("/api/v1/bridge/vp?imps={m}&boards=16"));
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(
            r.json(),
            json!({"winner": winner, "loser": loser}),
            "margin {m}"
        );
    }
    for (query, field) in [
        ("imps?difference=15210", "difference"),
        ("imps?difference=-99999999999", "difference"),
        ("imps", "difference"),
        ("vp?imps=-1&boards=16", "imps"),
        ("vp?imps=100001&boards=16", "imps"),
        ("vp?imps=3&boards=0", "boards"),
        ("vp?imps=3&boards=1001", "boards"),
        ("vp?imps=3", "boards"),
    ] {
        let r = s.get(&format!("/api/v1/bridge/{query}"));
        r.problem(422);
        assert_eq!(r.fields(), vec![field.to_string()], "{query}: {}", r.text());
    }
}
