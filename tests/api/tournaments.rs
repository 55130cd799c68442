//! Tournaments of several sections through the API: one token for every section, the listing,
//! search across sections, a late change of section, and the refusals that change nothing.

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};

pub(crate) fn created(r: crate::client::Response) -> (i64, String) {
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (
        v["id"].as_i64().unwrap(),
        v["admin_token"].as_str().unwrap().to_string(),
    )
}

pub(crate) fn new_tournament(s: &TestServer, name: &str, start: Option<&str>) -> (i64, String) {
    created(s.send(
        "POST",
        "/api/v1/tournaments",
        None,
        &json!({"name": name, "start_date": start, "end_date": start, "place": "Town Hall"}),
    ))
}

pub(crate) fn new_section(s: &TestServer, t: i64, token: &str, body: Value) -> (i64, String) {
    created(s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/events"),
        Some(token),
        &body,
    ))
}

pub(crate) fn enter(s: &TestServer, event: i64, token: &str, names: &[&str]) -> Vec<i64> {
    let list: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 2000 - 10 * i as i64}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(token),
        &json!({ "participants": list }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

/// Everything a reader sees of the tournament and its sections (for "nothing changed").
fn snapshot(s: &TestServer, t: i64) -> Value {
    let tournament = s.get(&format!("/api/v1/tournaments/{t}")).json();
    let mut sections = Vec::new();
    for section in tournament["sections"].as_array().unwrap() {
        let id = section["id"].as_i64().unwrap();
        let event = s.get(&format!("/api/v1/events/{id}")).json();
        let players = s
            .get(&format!("/api/v1/events/{id}/participants?limit=500"))
            .json();
        sections.push(json!({"event": event, "participants": players}));
    }
    json!({"tournament": tournament, "sections": sections})
}

#[test]
fn one_token_runs_three_chess_sections() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Autumn Weekend", Some("2026-11-28"));
    let (open, open_token) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Open", "game": "chess", "format": "swiss", "settings": {"rounds": 3}}),
    );
    let (u2000, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "U2000", "game": "chess", "format": "swiss", "settings": {"rounds": 3}}),
    );
    let (u1600, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "U1600", "game": "chess", "format": "round_robin"}),
    );
    // The tournament's token enters players, draws, pairs, publishes and scores every section.
    let open_ids = enter(&s, open, &admin, &["Anna", "Ben", "Cleo", "Dan"]);
    enter(
        &s,
        u2000,
        &admin,
        &["Émile", "Fay", "Gus", "Hal", "Ida", "Jon"],
    );
    enter(&s, u1600, &admin, &["Kim", "Lou", "Mia", "Ned"]);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{u1600}/lots"),
        Some(&admin),
        &json!({"method": "rating"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    for section in [open, u2000] {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{section}/rounds"),
            Some(&admin),
            &json!({}),
        );
        assert!(r.status == 200 || r.status == 201, "{}", r.text());
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{section}/rounds/1/publish"),
            Some(&admin),
            &json!({}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{open}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}, {"round": 1, "board": 2, "result": "1/2-1/2"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // the results entered with the tournament's token count: 1-0 and a draw, 2 points in all
    let standings = s.get(&format!("/api/v1/events/{open}/standings")).json();
    let points: f64 = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 2.0, "{standings}");
    // A section's own token still works on its section, and only there.
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{open}"),
        Some(&open_token),
        &json!({"name": "Open A"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{u2000}"),
        Some(&open_token),
        &json!({"name": "taken over"}),
    );
    r.problem(403);
    // ... and creates no section of the tournament.
    let r = s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/events"),
        Some(&open_token),
        &json!({"name": "Rapid", "game": "chess", "format": "swiss"}),
    );
    r.problem(403);

    // The tournament lists its sections with format, state, rounds and participants.
    let detail = s.get(&format!("/api/v1/tournaments/{t}"));
    assert_eq!(detail.status, 200, "{}", detail.text());
    let detail = detail.json();
    assert_eq!(detail["name"], "Autumn Weekend");
    assert_eq!(detail["place"], "Town Hall");
    assert_eq!(detail["section_count"], 3);
    let sections = detail["sections"].as_array().unwrap();
    let ids: Vec<i64> = sections.iter().map(|x| x["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![open, u2000, u1600]);
    assert_eq!(sections[0]["name"], "Open A");
    assert_eq!(sections[0]["format"], "swiss");
    assert_eq!(sections[0]["state"], "in_play");
    assert_eq!(sections[0]["rounds"], 1);
    assert_eq!(sections[0]["current_round"], 1);
    assert_eq!(sections[0]["participants"], 4);
    assert_eq!(sections[0]["results"], 2);
    assert_eq!(sections[1]["participants"], 6);
    assert_eq!(sections[2]["format"], "round_robin");
    assert_eq!(
        sections[2]["rounds"], 3,
        "a 4-player round robin has 3 rounds"
    );
    // every section names its tournament
    for id in [open, u2000, u1600] {
        assert_eq!(
            s.get(&format!("/api/v1/events/{id}")).json()["tournament_id"],
            t
        );
    }

    // A round robin played to the end is finished.
    for round in 1..=3 {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{u1600}/results"),
            Some(&admin),
            &json!({"results": [{"round": round, "board": 1, "result": "1-0"}, {"round": round, "board": 2, "result": "0-1"}]}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let detail = s.get(&format!("/api/v1/tournaments/{t}")).json();
    assert_eq!(detail["sections"][2]["state"], "finished");
    assert_eq!(detail["sections"][2]["current_round"], 3);

    // Search finds a player in any section, accents aside; each names his section.
    let found = s
        .get(&format!(
            "/api/v1/tournaments/{t}/participants?search=emile"
        ))
        .json();
    assert_eq!(found["total"], 1);
    assert_eq!(found["items"][0]["name"], "Émile");
    assert_eq!(found["items"][0]["event_id"], u2000);
    let all = s
        .get(&format!(
            "/api/v1/tournaments/{t}/participants?limit=5&offset=2"
        ))
        .json();
    assert_eq!(all["total"], 14);
    assert_eq!(all["items"].as_array().unwrap().len(), 5);

    // A late entry in the Open, not yet paired, moves to the U2000 under the same id.
    let late = enter(&s, open, &admin, &["Zoë Late"])[0];
    let r = s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/participants/{late}/move"),
        Some(&admin),
        &json!({"event_id": u2000}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let moved = r.json();
    assert_eq!(moved["id"], late);
    assert_eq!(moved["event_id"], u2000);
    assert!(moved["pairing_number"].is_null());
    assert_eq!(
        s.get(&format!("/api/v1/events/{u2000}/participants/{late}"))
            .status,
        200
    );
    s.get(&format!("/api/v1/events/{open}/participants/{late}"))
        .problem(404);
    // his history in the new section is empty
    let games = s.get(&format!("/api/v1/events/{u2000}/participants/{late}/games"));
    assert_eq!(games.status, 200, "{}", games.text());
    let games = games.json();
    assert_eq!(games["rounds"], json!([]), "{games}");
    assert_eq!(games["points"].as_f64().unwrap_or(0.0), 0.0, "{games}");

    // A player who has played does not move: 409 naming the participant, nothing changed.
    let before = snapshot(&s, t);
    let r = s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/participants/{}/move", open_ids[0]),
        Some(&admin),
        &json!({"event_id": u2000}),
    );
    r.problem(409);
    assert_eq!(r.fields(), vec!["participant_id"]);
    assert_eq!(snapshot(&s, t), before);
}

#[test]
fn refusals_name_the_field_and_change_nothing() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Spring Open", Some("2027-04-01"));
    let (other, other_admin) = new_tournament(&s, "Other", None);
    let (a, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "A", "game": "chess", "format": "swiss"}),
    );
    let (b, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "B", "game": "chess", "format": "round_robin"}),
    );
    let (bridge, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Pairs", "game": "bridge", "format": "pairs"}),
    );
    let (elsewhere, _) = new_section(
        &s,
        other,
        &other_admin,
        json!({"name": "X", "game": "chess", "format": "swiss"}),
    );
    let players = enter(&s, a, &admin, &["Anna", "Ben"]);
    enter(&s, b, &admin, &["Cleo", "Dan", "Eve"]);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{b}/lots"),
        Some(&admin),
        &json!({"method": "rating"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let drawn = s.get(&format!("/api/v1/events/{b}/participants")).json()["items"][0]["id"]
        .as_i64()
        .unwrap();
    let events_before = s.get("/api/v1/events").json()["total"].clone();
    let before = snapshot(&s, t);
    let before_other = snapshot(&s, other);

    // A section of a tournament that does not exist.
    let r = s.send(
        "POST",
        "/api/v1/tournaments/999999/events",
        Some(&admin),
        &json!({"name": "Ghost", "game": "chess", "format": "swiss"}),
    );
    let p = r.problem(404);
    assert!(
        p["detail"].as_str().unwrap().contains("tournament_id"),
        "{p}"
    );
    // A token of another tournament: neither a new section nor a change of a section.
    let r = s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/events"),
        Some(&other_admin),
        &json!({"name": "Intruder", "game": "chess", "format": "swiss"}),
    );
    let p = r.problem(403);
    assert!(p["detail"].as_str().unwrap().contains("tournament"), "{p}");
    let r = s.send(
        "PATCH",
        &format!("/api/v1/events/{a}"),
        Some(&other_admin),
        &json!({"name": "taken over"}),
    );
    r.problem(403);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{a}/participants"),
        Some(&other_admin),
        &json!({"name": "Intruder"}),
    );
    r.problem(403);
    // no token, or one nobody issued
    s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/events"),
        None,
        &json!({"name": "Anon", "game": "chess", "format": "swiss"}),
    )
    .problem(401);
    // A bad section body names its field, before anything is written.
    let r = s.send(
        "POST",
        &format!("/api/v1/tournaments/{t}/events"),
        Some(&admin),
        &json!({"name": "Bad", "game": "chess", "format": "ladder"}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["format"]);
    // A bad tournament names its field.
    let r = s.send(
        "POST",
        "/api/v1/tournaments",
        None,
        &json!({"name": "Dates", "start_date": "2027-01-02", "end_date": "2027-01-01"}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["end_date"]);
    let r = s.send(
        "POST",
        "/api/v1/tournaments",
        None,
        &json!({"name": " ", "place": "x".repeat(201)}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["name", "place"]);
    let r = s.send(
        "POST",
        "/api/v1/tournaments",
        None,
        &json!({"name": "S", "settings": {"colour": "red"}}),
    );
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.colour"]);

    // Moves that cannot be: to a section of another tournament, to a bridge section, to the
    // same section, of a player drawn in a round robin, with another tournament's token.
    let move_to = |pid: i64, to: i64, token: &str| {
        s.send(
            "POST",
            &format!("/api/v1/tournaments/{t}/participants/{pid}/move"),
            Some(token),
            &json!({ "event_id": to }),
        )
    };
    for to in [elsewhere, bridge, a, 999999] {
        let r = move_to(players[0], to, &admin);
        r.problem(422);
        assert_eq!(r.fields(), vec!["event_id"], "to {to}");
    }
    let r = move_to(drawn, a, &admin);
    r.problem(409);
    assert_eq!(r.fields(), vec!["participant_id"]);
    move_to(players[0], b, &other_admin).problem(403);
    // into a round robin already drawn
    let r = move_to(players[0], b, &admin);
    r.problem(409);
    assert_eq!(r.fields(), vec!["event_id"]);

    assert_eq!(snapshot(&s, t), before);
    assert_eq!(snapshot(&s, other), before_other);
    assert_eq!(s.get("/api/v1/events").json()["total"], events_before);
}

#[test]
fn tournaments_are_listed_by_date_and_paged() {
    let s = spawn();
    let (late, _) = new_tournament(&s, "Winter", Some("2027-01-15"));
    let (undated, _) = new_tournament(&s, "Some day", None);
    let (early, _) = new_tournament(&s, "Autumn", Some("2026-10-01"));
    let page = s.get("/api/v1/tournaments").json();
    assert_eq!(page["total"], 3);
    let ids: Vec<i64> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![early, late, undated]);
    let second = s.get("/api/v1/tournaments?limit=1&offset=1").json();
    assert_eq!(second["items"][0]["id"], late);
    assert_eq!(second["limit"], 1);
    s.get("/api/v1/tournaments?limit=0").problem(422);
    s.get("/api/v1/tournaments/12345").problem(404);
    // the token is never listed
    assert!(!page.to_string().contains("admin_token"));
}

#[test]
fn the_landing_page_lists_the_sections_and_every_section_links_back() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Club <Night> & Co", Some("2026-12-01"));
    let (a, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "<b>Open</b>", "game": "chess", "format": "round_robin"}),
    );
    let (b, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Pairs B", "game": "bridge", "format": "pairs"}),
    );
    enter(&s, a, &admin, &["Anna", "Ben", "Cleo", "Dan"]);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{a}/lots"),
        Some(&admin),
        &json!({"method": "rating"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let (alone, _) = s.create_event("swiss");

    let page = s.get(&format!("/t/{t}"));
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let html = page.text();
    // every text escaped
    assert!(html.contains("Club &lt;Night&gt; &amp; Co"), "{html}");
    assert!(html.contains("&lt;b&gt;Open&lt;/b&gt;") && !html.contains("<b>Open"));
    for id in [a, b] {
        assert!(html.contains(&format!("href=\"/e/{id}\"")), "{html}");
        assert!(html.contains(&format!("href=\"/e/{id}/standings\"")));
        // the live state: each section's stream of changes
        assert!(html.contains(&format!("href=\"/api/v1/events/{id}/stream\"")));
    }
    // the round robin is drawn: round 1 is current, of 3
    assert!(
        html.contains(&format!("href=\"/e/{a}/rounds/1\"")),
        "{html}"
    );
    assert!(html.contains("in play") && html.contains("entries open"));

    for path in [
        format!("/e/{a}"),
        format!("/e/{a}/standings"),
        format!("/e/{a}/rounds/1"),
        format!("/e/{b}"),
    ] {
        let r = s.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert!(
            r.text().contains(&format!("href=\"/t/{t}\"")),
            "{path} links back"
        );
    }
    assert!(!s.get(&format!("/e/{alone}")).text().contains("href=\"/t/"));
    for missing in ["/t/999999", "/t/abc", "/t/1/whatever"] {
        let r = s.get(missing);
        assert_eq!(r.status, 404, "{missing}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
    }
}

/// The document without its moment of export (and each section's).
fn without_moments(mut doc: Value) -> Value {
    doc["exported_at"] = Value::Null;
    for section in doc["sections"].as_array_mut().unwrap() {
        section["exported_at"] = Value::Null;
    }
    doc
}

#[test]
fn a_tournament_exports_and_imports_whole_or_not_at_all() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Export Open", Some("2026-11-28"));
    let (rr, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "RR", "game": "chess", "format": "round_robin"}),
    );
    let (swiss, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Swiss", "game": "chess", "format": "swiss", "settings": {"rounds": 4}}),
    );
    let (pairs, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Pairs", "game": "bridge", "format": "pairs"}),
    );
    enter(&s, rr, &admin, &["Anna", "Ben", "Cleo", "Dan"]);
    enter(&s, swiss, &admin, &["Eve", "Fay"]);
    enter(&s, pairs, &admin, &["A & B", "C & D"]);
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{rr}/lots"),
        Some(&admin),
        &json!({"method": "rating"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{rr}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());

    // Only the tournament's token exports.
    let path = format!("/api/v1/tournaments/{t}/export");
    s.get(&path).problem(401);
    let (_, other_admin) = new_tournament(&s, "Other", None);
    s.request(
        "GET",
        &path,
        &[("Authorization", &format!("Bearer {other_admin}"))],
        None,
    )
    .problem(403);
    let auth = format!("Bearer {admin}");
    let exported = s.request("GET", &path, &[("Authorization", &auth)], None);
    assert_eq!(exported.status, 200, "{}", exported.text());
    let document = exported.json();
    assert_eq!(document["kind"], "tourney-tournament");
    assert_eq!(document["tournament"]["name"], "Export Open");
    assert_eq!(document["sections"].as_array().unwrap().len(), 3);
    assert!(
        !exported.text().contains(&admin),
        "no token in the document"
    );
    // each section is the section's own export
    let own = s.request(
        "GET",
        &format!("/api/v1/events/{swiss}/export"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(own.status, 200, "{}", own.text());
    let mut own = own.json();
    own["exported_at"] = Value::Null;
    let mut second = document["sections"][1].clone();
    second["exported_at"] = Value::Null;
    assert_eq!(second, own);

    // Imported: a new tournament, the same sections, a new token that runs them.
    // (a second later, so a timestamp the import rewrote would show in the round trip)
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let imported = s.send("POST", "/api/v1/tournaments/import", None, &document);
    let (copy, copy_admin) = created(imported);
    assert_ne!(copy, t);
    let detail = s.get(&format!("/api/v1/tournaments/{copy}")).json();
    let names: Vec<&str> = detail["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["RR", "Swiss", "Pairs"]);
    assert_eq!(detail["sections"][0]["results"], 1);
    let again = s.request(
        "GET",
        &format!("/api/v1/tournaments/{copy}/export"),
        &[("Authorization", &format!("Bearer {copy_admin}"))],
        None,
    );
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(
        without_moments(again.json()),
        without_moments(document.clone())
    );
    let copied_rr = detail["sections"][0]["id"].as_i64().unwrap();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{copied_rr}/results"),
        Some(&copy_admin),
        &json!({"results": [{"round": 1, "board": 2, "result": "0-1"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    s.send(
        "PATCH",
        &format!("/api/v1/events/{copied_rr}"),
        Some(&admin),
        &json!({"name": "not yours"}),
    )
    .problem(403);

    // A fault in one section: 422 naming its path, and nothing of the tournament is written.
    let tournaments_before = s.get("/api/v1/tournaments").json()["total"].clone();
    let events_before = s.get("/api/v1/events").json()["total"].clone();
    let mut bad = document.clone();
    bad["sections"][0]["tables"]["games"][0]["white_id"] = json!(999);
    let r = s.send("POST", "/api/v1/tournaments/import", None, &bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["sections[0].tables.games[0].white_id"]);
    let mut bad = document.clone();
    bad["sections"][1]["tables"]["events"][0]["format"] = json!("ladder");
    let r = s.send("POST", "/api/v1/tournaments/import", None, &bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["sections[1].tables.events[0].format"]);
    let mut bad = document.clone();
    bad["tournament"]["name"] = json!("");
    bad["kind"] = json!("tourney-event");
    let r = s.send("POST", "/api/v1/tournaments/import", None, &bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["kind"]);
    bad["kind"] = json!("tourney-tournament");
    let r = s.send("POST", "/api/v1/tournaments/import", None, &bad);
    r.problem(422);
    assert_eq!(r.fields(), vec!["tournament.name"]);
    assert_eq!(
        s.get("/api/v1/tournaments").json()["total"],
        tournaments_before
    );
    assert_eq!(s.get("/api/v1/events").json()["total"], events_before);
}

#[test]
fn backups_and_metrics_hold_tournaments() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Backed up", None);
    for name in ["A", "B"] {
        new_section(
            &s,
            t,
            &admin,
            json!({"name": name, "game": "bridge", "format": "pairs"}),
        );
    }
    s.create_event("swiss");
    let metrics = s.get("/metrics").text();
    assert!(metrics.contains("\ntourney_tournaments 1\n"), "{metrics}");
    assert!(
        metrics.contains("\ntourney_tournament_sections 2\n"),
        "{metrics}"
    );
    assert!(metrics.contains("route=\"/api/v1/tournaments/{tournament_id}/events\""));

    let token = std::fs::read_to_string(tourney::store::backup::admin_token_path(&s.db))
        .unwrap()
        .trim()
        .to_string();
    let backup = s.request(
        "GET",
        "/api/v1/admin/backup",
        &[("Authorization", &format!("Bearer {token}"))],
        None,
    );
    assert_eq!(backup.status, 200);
    let dir = tourney::scratch::ScratchDir::new("tournament-backup").unwrap();
    let copy = dir.path().join("copy.db");
    std::fs::write(&copy, &backup.body).unwrap();
    let restored = crate::client::spawn_on(&copy);
    let detail = restored.get(&format!("/api/v1/tournaments/{t}"));
    assert_eq!(detail.status, 200, "{}", detail.text());
    assert_eq!(
        detail.json(),
        s.get(&format!("/api/v1/tournaments/{t}")).json()
    );
}
