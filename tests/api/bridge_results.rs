//! A bridge pairs session through the API: results uploaded as a terminal's CSV, travellers,
//! standings recomputed independently, score cards, bad rows, scorer and admin rights, hand
//! records, and the PBN and USEBIO exports.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::client::{spawn, Response, TestServer};

/// A 7-table Mitchell, 3 boards a round, 14 pairs with lots drawn: (event, admin token).
pub(crate) fn mitchell_event(s: &TestServer, settings: Value) -> (i64, String) {
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Tuesday pairs", "game": "bridge", "format": "pairs", "settings": settings}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    let pairs: Vec<Value> = (1..=14)
        .map(|i| json!({"name": format!("North{i} - South{i}")}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": pairs }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 11}));
    assert_eq!(r.status, 200, "{}", r.text());
    (event, admin)
}

pub(crate) fn post_csv(s: &TestServer, event: i64, token: &str, csv: &str) -> Response {
    let auth = format!("Bearer {token}");
    s.request(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        &[("Content-Type", "text/csv"), ("Authorization", &auth)],
        Some(csv.as_bytes()),
    )
}

/// (round, table, ns, ew, boards) of every table of the movement.
pub(crate) fn schedule(s: &TestServer, event: i64) -> Vec<(u32, u32, u32, u32, Vec<u32>)> {
    let m = s.get(&format!("/api/v1/events/{event}/movement")).json();
    let mut out = Vec::new();
    for r in m["movement"]["rounds"].as_array().unwrap() {
        for t in r["tables"].as_array().unwrap() {
            let boards = t["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap() as u32)
                .collect();
            out.push((
                r["round"].as_u64().unwrap() as u32,
                t["table"].as_u64().unwrap() as u32,
                t["ns"].as_u64().unwrap() as u32,
                t["ew"].as_u64().unwrap() as u32,
                boards,
            ));
        }
    }
    out
}

/// Hand-checked results: (contract as a terminal writes it, declarer seat, result, NS score
/// not vulnerable, NS score vulnerable) — vulnerability of the declarer's side.
const PLAYS: [(&str, &str, &str, i32, i32); 6] = [
    ("3NT", "N", "=", 400, 600),      // 100 + 300 (nv) / 500 (vul) game bonus
    ("4 S", "S", "+1", 450, 650),     // 120 + 30 + game
    ("2H", "E", "-1", 50, 100),       // EW down one undoubled
    ("1 N", "W", "=", -90, -90),      // 40 + 50 part score to EW
    ("3 C x", "N", "-2", -300, -500), // doubled down two
    ("PASS", "", "", 0, 0),
];

fn play_for(round: u32, table: u32, board: u32) -> usize {
    ((board * 7 + table * 3 + round * 5) % PLAYS.len() as u32) as usize
}

/// The CSV of the whole session, and the NS score of each (round, table, board) as the table
/// above says, given each board's vulnerability.
pub(crate) fn session_csv(
    sched: &[(u32, u32, u32, u32, Vec<u32>)],
    vulnerable: &dyn Fn(u32, &str) -> bool,
) -> (String, BTreeMap<(u32, u32, u32), i32>) {
    let mut csv = String::from(
        "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\r\n",
    );
    let mut scores = BTreeMap::new();
    for (round, table, ns, ew, boards) in sched {
        for &b in boards {
            let (contract, seat, result, nv, vul) = PLAYS[play_for(*round, *table, b)];
            let declarer_pair = match seat {
                "N" | "S" => ns.to_string(),
                "E" | "W" => ew.to_string(),
                _ => String::new(),
            };
            let lead = if seat.is_empty() { "" } else { "H3" };
            csv.push_str(&format!(
                "A,{table},{round},{b},{ns},{ew},{declarer_pair},{seat},{contract},{result},{lead}\r\n"
            ));
            let score = if !seat.is_empty() && vulnerable(b, seat) {
                vul
            } else {
                nv
            };
            scores.insert((*round, *table, b), score);
        }
    }
    (csv, scores)
}

/// Vulnerability of a seat on board b, read from the board's traveller.
pub(crate) fn vulnerability_reader(s: &TestServer, event: i64) -> impl Fn(u32, &str) -> bool + '_ {
    let mut vul = BTreeMap::new();
    for b in 1..=21u32 {
        let t = s
            .get(&format!("/api/v1/events/{event}/travellers/{b}"))
            .json();
        vul.insert(b, t["vulnerability"].as_str().unwrap().to_string());
    }
    move |b, seat| {
        let v = vul[&b].as_str();
        v == "both" || (v == "ns" && "NS".contains(seat)) || (v == "ew" && "EW".contains(seat))
    }
}

fn rank_labels(keys: &[f64]) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end] == keys[start] {
            end += 1;
        }
        for _ in start..end {
            out.push(if end - start > 1 {
                format!("{}=", start + 1)
            } else {
                (start + 1).to_string()
            });
        }
        start = end;
    }
    out
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[test]
fn a_whole_mitchell_session_uploaded_as_csv_ranks_as_recomputed() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let sched = schedule(&s, event);
    assert_eq!(sched.len(), 49);
    let vulnerable = vulnerability_reader(&s, event);
    let (csv, scores) = session_csv(&sched, &vulnerable);
    let r = post_csv(&s, event, &admin, &csv);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["received"], 147);
    assert_eq!(r.json()["changed"], 147);
    // Re-sending the same file is a no-op.
    let again = post_csv(&s, event, &admin, &csv);
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.json()["changed"], 0);
    assert_eq!(again.json()["unchanged"], 147);

    // Every traveller carries the hand-checked NS scores.
    for b in 1..=21u32 {
        let t = s
            .get(&format!("/api/v1/events/{event}/travellers/{b}"))
            .json();
        let lines = t["results"].as_array().unwrap();
        assert_eq!(lines.len(), 7, "board {b} is played at every table");
        assert_eq!(t["top"], 12.0);
        for l in lines {
            let key = (
                l["round"].as_u64().unwrap() as u32,
                l["table"].as_u64().unwrap() as u32,
                b,
            );
            assert_eq!(l["ns_score"].as_i64().unwrap() as i32, scores[&key], "{l}");
            let mps = l["ns_mp"].as_f64().unwrap() + l["ew_mp"].as_f64().unwrap();
            assert_eq!(mps, 12.0);
        }
    }

    // Independent recomputation: EBU matchpoints, 2 per score beaten and 1 per tie, top 12.
    // board -> ((round, table), NS score)
    type Scores = Vec<((u32, u32), i32)>;
    let mut by_board: BTreeMap<u32, Scores> = BTreeMap::new();
    for (&(round, table, board), &score) in &scores {
        by_board
            .entry(board)
            .or_default()
            .push(((round, table), score));
    }
    let seat_of: BTreeMap<(u32, u32), (u32, u32)> = sched
        .iter()
        .map(|(r, t, ns, ew, _)| ((*r, *t), (*ns, *ew)))
        .collect();
    let mut ns_total: BTreeMap<u32, f64> = BTreeMap::new();
    let mut ew_total: BTreeMap<u32, f64> = BTreeMap::new();
    for results in by_board.values() {
        for (at, score) in results {
            let mp: f64 = results
                .iter()
                .map(|(_, other)| match score.cmp(other) {
                    std::cmp::Ordering::Greater => 2.0,
                    std::cmp::Ordering::Equal => 1.0,
                    std::cmp::Ordering::Less => 0.0,
                })
                .sum::<f64>()
                - 1.0;
            let (ns, ew) = seat_of[at];
            *ns_total.entry(ns).or_default() += mp;
            *ew_total.entry(ew).or_default() += 12.0 - mp;
        }
    }
    let standings = s
        .get(&format!("/api/v1/events/{event}/bridge-standings"))
        .json();
    assert_eq!(standings["method"], "matchpoints");
    let rankings = standings["rankings"].as_array().unwrap();
    assert_eq!(rankings.len(), 2, "a Mitchell has two winners");
    for (ranking, direction, totals) in [
        (&rankings[0], "NS", &ns_total),
        (&rankings[1], "EW", &ew_total),
    ] {
        assert_eq!(ranking["direction"], direction);
        let mut expected: Vec<(u32, f64)> = totals.iter().map(|(&p, &t)| (p, t)).collect();
        expected.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let ranks = rank_labels(&expected.iter().map(|e| e.1).collect::<Vec<_>>());
        let entries = ranking["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 7);
        for ((pair, total), (entry, rank)) in expected.iter().zip(entries.iter().zip(ranks)) {
            assert_eq!(entry["pair"], *pair, "{direction} order");
            assert_eq!(entry["total"].as_f64().unwrap(), *total);
            assert_eq!(
                entry["percent"].as_f64().unwrap(),
                round2(100.0 * total / (12.0 * 21.0))
            );
            assert_eq!(entry["rank"], rank);
            assert_eq!(entry["boards"], 21);
            assert!(entry["name"].as_str().unwrap().starts_with("North"));
            assert!(entry["participant_id"].is_i64());
        }
    }
    // Deterministic: the same results, sent in the reverse order to a twin event (same lots
    // seed), give the same standings to the byte once participant ids are set aside.
    let (twin, twin_admin) = mitchell_event(&s, json!({}));
    let mut rows: Vec<&str> = csv.lines().collect();
    let head = rows.remove(0);
    rows.reverse();
    let reversed = format!("{head}\n{}\n", rows.join("\n"));
    let r = post_csv(&s, twin, &twin_admin, &reversed);
    assert_eq!(r.status, 200, "{}", r.text());
    let without_ids = |event: i64| {
        let text = s
            .get(&format!("/api/v1/events/{event}/bridge-standings"))
            .text();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        for ranking in v["rankings"].as_array_mut().unwrap() {
            for e in ranking["entries"].as_array_mut().unwrap() {
                e.as_object_mut().unwrap().remove("participant_id");
            }
        }
        v.to_string()
    };
    assert_eq!(without_ids(event), without_ids(twin));
    assert_eq!(
        s.get(&format!("/api/v1/events/{event}/bridge-standings"))
            .body,
        s.get(&format!("/api/v1/events/{event}/bridge-standings"))
            .body
    );
    let csv_standings = s
        .get(&format!(
            "/api/v1/events/{event}/bridge-standings?format=csv"
        ))
        .text();
    assert_eq!(
        csv_standings.lines().next(),
        Some("direction,rank,pair,participant_id,name,total,percent,boards")
    );
    assert_eq!(csv_standings.lines().count(), 15);

    // A pair's score card adds up to its total.
    let card = s
        .get(&format!(
            "/api/v1/events/{event}/pairs/3/scorecard?direction=ns"
        ))
        .json();
    let lines = card["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 21);
    let sum: f64 = lines.iter().map(|l| l["points"].as_f64().unwrap()).sum();
    assert_eq!(round2(sum), ns_total[&3]);
    assert!(lines
        .iter()
        .all(|l| l["direction"] == "NS" && l["table"] == 3));
    s.get(&format!("/api/v1/events/{event}/pairs/3/scorecard"))
        .problem(422);
    s.get(&format!(
        "/api/v1/events/{event}/pairs/9/scorecard?direction=ns"
    ))
    .problem(404);
    s.get(&format!("/api/v1/events/{event}/travellers/22"))
        .problem(404);
}

#[test]
fn bad_rows_are_refused_with_the_row_and_field_and_nothing_is_stored() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let header =
        "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\n";
    let good = "A,1,1,1,1,1,1,N,3NT,=,S2\n";
    // Round 1: table 1 plays boards 1-3 with NS 1 and EW 1.
    let cases = [
        ("A,1,1,4,1,1,1,N,3NT,=,S2\n", "results[1].Board"),
        ("A,1,1,2,1,1,1,N,1NT,-8,S2\n", "results[1].Result"),
        ("A,1,1,2,1,1,1,N,8S,=,S2\n", "results[1].Contract"),
        ("A,1,1,2,9,1,9,N,3NT,=,S2\n", "results[1].PairNS"),
        ("A,1,1,2,1,1,1,N,3NT,=,Z9\n", "results[1].LeadCard"),
        ("A,1,1,2,1,1,2,N,3NT,=,S2\n", "results[1].Declarer"),
    ];
    for (row, field) in cases {
        let r = post_csv(&s, event, &admin, &format!("{header}{good}{row}"));
        r.problem(422);
        assert!(
            r.fields().contains(&field.to_string()),
            "{field}: {}",
            r.text()
        );
        assert!(r.json()["detail"].as_str().unwrap().contains("line 3"));
    }
    // The same faults in JSON name the JSON fields.
    let path = format!("/api/v1/events/{event}/board-results");
    let json_cases = [
        (
            json!({"round": 1, "table": 2, "board": 1, "contract": "3NT", "declarer": "N", "result": "="}),
            "results[0].board",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "contract": "1NT", "declarer": "N", "result": "-8"}),
            "results[0].result",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "contract": "8S", "declarer": "N", "tricks": 9}),
            "results[0].contract",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "ew_pair": 5, "contract": "3NT", "declarer": "N", "tricks": 9}),
            "results[0].ew_pair",
        ),
        (
            json!({"round": 9, "table": 1, "board": 1, "ns_score": 100}),
            "results[0].round",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "contract": "3NT", "declarer": "N", "tricks": 14}),
            "results[0].tricks",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "adjusted": "B+"}),
            "results[0].adjusted",
        ),
        (
            json!({"round": 1, "table": 1, "board": 1, "ns_score": 425}),
            "results[0].ns_score",
        ),
    ];
    for (row, field) in json_cases {
        let r = s.send("POST", &path, Some(&admin), &json!({"results": [row]}));
        r.problem(422);
        assert_eq!(r.fields(), vec![field.to_string()], "{}", r.text());
    }
    let too_many: Vec<Value> = (0..5001)
        .map(|_| json!({"round": 1, "table": 1, "board": 1, "ns_score": 0}))
        .collect();
    let r = s.send("POST", &path, Some(&admin), &json!({ "results": too_many }));
    assert_eq!(r.fields(), vec!["results".to_string()]);
    let r = post_csv(&s, event, &admin, "Table,Round,Board\n1,1,1\n");
    assert_eq!(r.fields(), vec!["header".to_string()]);
    // Nothing was stored by any of them, the good rows included.
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/1"))
        .json();
    assert_eq!(t["results"], json!([]));
    // Without credentials nothing is even looked at.
    let r = s.request(
        "POST",
        &path,
        &[("Content-Type", "text/csv")],
        Some(format!("{header}{good}").as_bytes()),
    );
    r.problem(401);
}

#[test]
fn a_scorer_enters_results_but_only_the_admin_changes_them() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({"scoring": "butler"}));
    let issued = s.send(
        "POST",
        &format!("/api/v1/events/{event}/tokens"),
        Some(&admin),
        &json!({"label": "table terminal"}),
    );
    assert_eq!(issued.status, 201, "{}", issued.text());
    let scorer = issued.json()["token"].as_str().unwrap().to_string();
    let path = format!("/api/v1/events/{event}/board-results");
    // Where board 1 is played, in round order.
    let at: Vec<(u32, u32)> = schedule(&s, event)
        .into_iter()
        .filter(|(_, _, _, _, boards)| boards.contains(&1))
        .map(|(r, t, _, _, _)| (r, t))
        .collect();
    assert_eq!(at.len(), 7);
    let row = |k: usize, rest: Value| {
        let mut v = json!({"round": at[k].0, "table": at[k].1, "board": 1});
        v.as_object_mut()
            .unwrap()
            .extend(rest.as_object().unwrap().clone());
        v
    };
    let first = json!({"results": [
        row(0, json!({"contract": "4S", "declarer": "N", "tricks": 10, "lead": "D10"})),
        row(1, json!({"ns_score": -100})),
        row(2, json!({"adjusted": "A+/A-"})),
        row(3, json!({"contract": "3NT", "declarer": "S", "result": "+1"}))
    ]});
    let r = s.send("POST", &path, Some(&scorer), &first);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["changed"], 4);
    // The identical rows again: fine for the scorer.
    let r = s.send("POST", &path, Some(&scorer), &first);
    assert_eq!(r.json()["changed"], 0);
    // A different result for a stored row: 409 for the scorer, naming the row; nothing changes.
    let change = json!({"results": [
        row(4, json!({"contract": "2H", "declarer": "E", "result": "="})),
        row(0, json!({"contract": "4S", "declarer": "N", "tricks": 9}))
    ]});
    let r = s.send("POST", &path, Some(&scorer), &change);
    let p = r.problem(409);
    assert_eq!(p["errors"][0]["field"], "results[1]", "{p}");
    let message = p["errors"][0]["message"].as_str().unwrap();
    let named = format!("round {}, table {}, board 1", at[0].0, at[0].1);
    assert!(message.contains(&named), "{message}");
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/1"))
        .json();
    assert_eq!(t["results"].as_array().unwrap().len(), 4, "all or nothing");
    // The admin may.
    let r = s.send("POST", &path, Some(&admin), &change);
    assert_eq!(r.status, 200, "{}", r.text());
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/1"))
        .json();
    let lines = t["results"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["tricks"], 9);
    assert_eq!(lines[0]["ns_score"], -50);
    assert_eq!(lines[0]["lead"], json!(null));
    // Butler: a datum and IMPs, no matchpoints; the adjusted score is worth +3/-3.
    assert!(t["datum"].is_i64());
    assert!(lines[0]["ns_imps"].is_f64() && lines[0].get("ns_mp").is_none());
    assert_eq!(lines[2]["adjusted"], "A+/A-");
    assert_eq!(lines[2]["ns_imps"], 3.0);
    assert_eq!(lines[2]["ew_imps"], -3.0);
    let standings = s
        .get(&format!("/api/v1/events/{event}/bridge-standings"))
        .json();
    assert_eq!(standings["method"], "butler");
    assert!(standings["rankings"][0]["entries"][0]["percent"].is_null());
    // A chess event has no board results.
    let (chess, chess_admin) = s.create_event("round_robin");
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{chess}/board-results"),
        Some(&chess_admin),
        &first,
    );
    r.problem(409);
    // Settings are checked.
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{event}"),
        Some(&admin),
        &json!({"settings": {"scoring": "swiss"}}),
    );
    assert_eq!(r.fields(), vec!["settings.scoring".to_string()]);
}

const DEALS: &str = "% hand records\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n\n[Board \"2\"]\n[Dealer \"E\"]\n[Vulnerable \"NS\"]\n[Deal \"E:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n";

#[test]
fn hand_records_and_the_exports_round_trip() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let auth = format!("Bearer {admin}");
    let put = |body: &str| {
        s.request(
            "PUT",
            &format!("/api/v1/events/{event}/deals"),
            &[("Content-Type", "text/plain"), ("Authorization", &auth)],
            Some(body.as_bytes()),
        )
    };
    // The session's results first (their leads are all H3, entered before the deals).
    let sched = schedule(&s, event);
    let vulnerable = vulnerability_reader(&s, event);
    let (csv, _) = session_csv(&sched, &vulnerable);
    let r = post_csv(&s, event, &admin, &csv);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = put(DEALS);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["boards"], json!([1, 2]));
    // The stored leads the opening leader does not hold are reported, not kept silently.
    let conflicts = r.json()["lead_conflicts"].as_array().unwrap().clone();
    assert!(!conflicts.is_empty());
    for c in &conflicts {
        assert!(c["board"] == 1 || c["board"] == 2, "{c}");
        assert_eq!(c["lead"], "H3");
    }
    // A deal with a card twice is refused, naming the line.
    let bad = DEALS.replace("T98.JT9.JT9.JT98 765", "T98.JT9.JT9.JT98 764");
    let r = put(&bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["pbn".to_string()]);
    assert!(r.json()["detail"].as_str().unwrap().contains("line"));
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/2"))
        .json();
    assert_eq!(t["deal"]["east"], "AKQJ.AKQ.AKQ.AKQ");
    assert_eq!(t["dealer"], "E");

    // PBN: read the score tables back; they hold every traveller line.
    let pbn = s.get(&format!("/api/v1/events/{event}/pbn"));
    assert_eq!(pbn.status, 200);
    let text = pbn.text();
    assert!(text.starts_with("% PBN 2.1"));
    assert!(text.contains("[Deal \"N:432.5432.5432.32 AKQJ.AKQ.AKQ.AKQ "));
    assert!(text.contains("[TotalScoreTable \""));
    let rows = tourney::engine::bridge::pbn_export::read_score_tables(&text).unwrap();
    assert_eq!(rows.len(), 147);
    for b in 1..=21u32 {
        let t = s
            .get(&format!("/api/v1/events/{event}/travellers/{b}"))
            .json();
        let from_pbn: Vec<&tourney::engine::bridge::pbn_export::ScoreTableRow> =
            rows.iter().filter(|r| r.board == b).collect();
        let lines = t["results"].as_array().unwrap();
        assert_eq!(from_pbn.len(), lines.len());
        for (row, l) in from_pbn.iter().zip(lines) {
            assert_eq!(row.round, Some(l["round"].as_u64().unwrap() as u32));
            assert_eq!(row.table, Some(l["table"].as_u64().unwrap() as u32));
            assert_eq!(row.ns_pair, l["ns_pair"].as_u64().unwrap() as u32);
            assert_eq!(row.ew_pair, l["ew_pair"].as_u64().unwrap() as u32);
            let o = &row.outcome;
            assert_eq!(json!(o.contract), l["contract"]);
            assert_eq!(json!(o.declarer.map(|d| d.to_string())), l["declarer"]);
            assert_eq!(json!(o.tricks), l["tricks"]);
            assert_eq!(json!(o.lead), l["lead"]);
            assert_eq!(json!(o.ns_score), l["ns_score"]);
        }
    }

    // USEBIO: well formed, one PAIR per pair and one TRAVELLER_LINE per result.
    let xml = s.get(&format!("/api/v1/events/{event}/usebio"));
    assert_eq!(xml.status, 200);
    let xml = xml.text();
    let names = tourney::engine::bridge::usebio::check_well_formed(&xml).unwrap();
    assert_eq!(names.iter().filter(|n| *n == "PAIR").count(), 14);
    assert_eq!(names.iter().filter(|n| *n == "TRAVELLER_LINE").count(), 147);
    assert_eq!(names.iter().filter(|n| *n == "HAND").count(), 8);
    assert!(xml.contains("<WINNER_TYPE>2</WINNER_TYPE>"));
}

/// A pairs event with the given movement and 2·tables pairs, lots drawn.
fn event_with(s: &TestServer, movement: Value, pairs: u32) -> (i64, String) {
    let r = s.send(
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "One field", "game": "bridge", "format": "pairs"}),
    );
    let event = r.json()["id"].as_i64().unwrap();
    let admin = r.json()["admin_token"].as_str().unwrap().to_string();
    let names: Vec<Value> = (1..=pairs)
        .map(|i| json!({"name": format!("P{i}")}))
        .collect();
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": names }),
    );
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &movement,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    s.draw_lots(event, &admin, json!({"method": "random", "seed": 3}));
    (event, admin)
}

#[test]
fn arrow_switched_tables_and_howell_pairs_are_scored_as_one_field() {
    let s = spawn();
    let (event, admin) = event_with(
        &s,
        json!({"kind": "arrow_switch_mitchell", "options": {"tables": 5, "boards_per_round": 2, "switch_rounds": [1]}}),
        10,
    );
    let sched = schedule(&s, event);
    // Round 1 is switched: the EW pair holds the NS cards and scores the NS result.
    let (round, table, ns, ew, boards) = sched[0].clone();
    assert_eq!(round, 1);
    let b = boards[0];
    let csv = format!(
        "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\nA,{table},1,{b},{ns},{ew},{ew},N,7NT,=,\n"
    );
    let r = post_csv(&s, event, &admin, &csv);
    assert_eq!(r.status, 200, "{}", r.text());
    // A terminal may also name the pairs the other way round at a switched table.
    let (_, table2, ns2, ew2, boards2) = sched[1].clone();
    let csv = format!(
        "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\nA,{table2},1,{},{ew2},{ns2},{ns2},E,1C,=,\n",
        boards2[0]
    );
    let r = post_csv(&s, event, &admin, &csv);
    assert_eq!(r.status, 200, "{}", r.text());
    let t = s
        .get(&format!("/api/v1/events/{event}/travellers/{b}"))
        .json();
    assert_eq!(
        t["results"][0]["ns_pair"], ew,
        "the EW pair held the NS cards"
    );
    assert_eq!(t["results"][0]["ew_pair"], ns);
    assert!(t["results"][0]["ns_score"].as_i64().unwrap() >= 1520);
    let st = s
        .get(&format!("/api/v1/events/{event}/bridge-standings"))
        .json();
    let rankings = st["rankings"].as_array().unwrap();
    assert_eq!(rankings.len(), 1, "an arrow switch makes one field");
    assert!(rankings[0]["direction"].is_null());
    assert_eq!(rankings[0]["entries"].as_array().unwrap().len(), 10);
    let card = s
        .get(&format!("/api/v1/events/{event}/pairs/{ew}/scorecard"))
        .json();
    assert_eq!(card["lines"][0]["direction"], "NS");
    assert!(card["direction"].is_null());
    s.get(&format!(
        "/api/v1/events/{event}/pairs/{ew}/scorecard?direction=ns"
    ))
    .problem(422);

    // A Howell: one field, every pair numbered once.
    let (event, admin) = event_with(&s, json!({"kind": "howell", "options": {"tables": 4}}), 8);
    let (round, table, ns, ew, boards) = schedule(&s, event)[0].clone();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&admin),
        &json!({"results": [{"round": round, "table": table, "board": boards[0], "ns_pair": ns, "ew_pair": ew, "contract": "3NT", "declarer": "S", "result": "="}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let st = s
        .get(&format!("/api/v1/events/{event}/bridge-standings"))
        .json();
    assert_eq!(st["rankings"].as_array().unwrap().len(), 1);
    let top = &st["rankings"][0]["entries"][0];
    assert_eq!(top["boards"], 1);
    assert_eq!(top["percent"], 50.0, "one result on a board scores average");
}

/// The fuzzer's finds: the most negative integers once overflowed `abs()` and panicked the
/// worker. Each is a 422 naming the field now.
#[test]
fn the_most_negative_scores_are_refused_not_a_panic() {
    let s = spawn();
    let (event, admin) = mitchell_event(&s, json!({}));
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/board-results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "table": 1, "board": 1, "ns_score": i32::MIN}]}),
    );
    r.problem(422);
    assert!(
        r.fields().iter().any(|f| f == "results[0].ns_score"),
        "{}",
        r.text()
    );
    let r = s.get(&format!("/api/v1/bridge/imps?difference={}", i64::MIN));
    r.problem(422);
    assert_eq!(r.fields(), ["difference"]);
    let r = s.send(
        "POST",
        "/api/v1/bridge/matchpoints",
        None,
        &json!({"scores": [i64::MIN, 420]}),
    );
    r.problem(422);
    assert_eq!(r.fields(), ["scores[0]"]);
    // The server is still there.
    assert_eq!(s.get("/healthz").status, 200);
}
