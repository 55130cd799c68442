//! Bridge sections of a tournament scored across the field, through the API: the scores
//! against a hand computation over every row of each board, each section's own ranking, the
//! groups' refusals, the exports and the page.

use serde_json::{json, Value};

use crate::client::{spawn, TestServer};
use crate::tournaments::{created, enter, new_section, new_tournament};

/// A 3-table Mitchell section (boards 1-6, 2 a round) with its 6 pairs drawn.
fn mitchell_section(s: &TestServer, t: i64, token: &str, name: &str) -> i64 {
    let (id, _) = new_section(
        s,
        t,
        token,
        json!({"name": name, "game": "bridge", "format": "pairs"}),
    );
    let names: Vec<String> = (1..=6).map(|k| format!("{name} pair {k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    enter(s, id, token, &refs);
    let r = s.send(
        "PUT",
        &format!("/api/v1/events/{id}/movement"),
        Some(token),
        &json!({"kind": "mitchell", "options": {"tables": 3, "boards_per_round": 2}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/lots"),
        Some(token),
        &json!({"method": "rating"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    id
}

/// Plays every board of the section: 4S by North, the tricks varying with section, round,
/// table and board (so scores tie and differ across sections); `skip` leaves one out.
fn play(s: &TestServer, id: i64, token: &str, salt: u32, skip: Option<(u32, u32)>) {
    let rows = s.get(&format!("/api/v1/events/{id}/scoring-rows")).json();
    let mut results = Vec::new();
    for row in rows["rows"].as_array().unwrap() {
        let (round, table) = (
            row["round"].as_u64().unwrap() as u32,
            row["table"].as_u64().unwrap() as u32,
        );
        for board in row["low_board"].as_u64().unwrap()..=row["high_board"].as_u64().unwrap() {
            let board = board as u32;
            if skip == Some((round, board)) {
                continue;
            }
            let tricks = 8 + (salt * 7 + round * 3 + table * 5 + board * 11) % 5;
            results.push(json!({"round": round, "table": table, "board": board,
                "contract": "4S", "declarer": "N", "tricks": tricks}));
        }
    }
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/board-results"),
        Some(token),
        &json!({ "results": results }),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn bridge_sections_on_the_same_boards_are_scored_across_the_field() {
    let s = spawn();
    let (t, admin) = new_tournament(&s, "Big bridge night", Some("2026-12-02"));
    let sections: Vec<i64> = ["A", "B", "C"]
        .iter()
        .map(|name| mitchell_section(&s, t, &admin, name))
        .collect();
    for (k, &id) in sections.iter().enumerate() {
        // section C misses one result of board 3: that board is factored up by Neuberg
        let skip = (k == 2).then_some((2, 3));
        play(&s, id, &admin, k as u32, skip);
    }
    // No setting yet: no field.
    let none = s
        .get(&format!("/api/v1/tournaments/{t}/across-the-field"))
        .json();
    assert_eq!(none["fields"], json!([]));
    // A section in no field is scored alone: no mark, its own rows only, no section letters.
    let alone: Vec<Value> = sections
        .iter()
        .map(|id| {
            s.get(&format!("/api/v1/events/{id}/bridge-standings"))
                .json()
        })
        .collect();
    assert!(alone[0].get("across_the_field").is_none());
    let own = s
        .get(&format!("/api/v1/events/{}/travellers/1", sections[0]))
        .json();
    assert!(own.get("across_the_field").is_none());
    assert_eq!(own["results"].as_array().unwrap().len(), 3);
    assert!(own["results"][0].get("section").is_none(), "{own}");
    let page = s.get(&format!("/e/{}/standings", sections[0])).text();
    assert!(!page.contains("Scored across the field"));

    // Bad groups name their field and change nothing.
    let (chess, _) = new_section(
        &s,
        t,
        &admin,
        json!({"name": "Chess", "game": "chess", "format": "swiss"}),
    );
    let before = s.get(&format!("/api/v1/tournaments/{t}")).json();
    let group = |ids: Value| json!({"settings": {"groups": [{"name": "Evening", "sections": ids, "across_the_field": true}]}});
    let patch = |body: Value, token: &str| {
        s.send(
            "PATCH",
            &format!("/api/v1/tournaments/{t}"),
            Some(token),
            &body,
        )
    };
    let r = patch(group(json!([sections[0], chess])), &admin);
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.groups[0].sections[1]"]);
    let r = patch(group(json!([sections[0], 987654])), &admin);
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.groups[0].sections[1]"]);
    let r = patch(group(json!([sections[0], sections[0]])), &admin);
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.groups[0].sections[1]"]);
    let r = patch(json!({"settings": {"across_the_field": "yes"}}), &admin);
    r.problem(422);
    assert_eq!(r.fields(), vec!["settings.across_the_field"]);
    let (_, stranger) = new_tournament(&s, "Stranger", None);
    patch(group(json!(sections.clone())), &stranger).problem(403);
    assert_eq!(s.get(&format!("/api/v1/tournaments/{t}")).json(), before);

    // The three sections as one group scored across the field.
    let r = patch(group(json!(sections.clone())), &admin);
    assert_eq!(r.status, 200, "{}", r.text());
    let answer = s.get(&format!("/api/v1/tournaments/{t}/across-the-field"));
    assert_eq!(answer.status, 200, "{}", answer.text());
    let answer = answer.json();
    let fields = answer["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1);
    let field = &fields[0];
    assert_eq!(field["name"], "Evening");
    let travellers = field["travellers"].as_array().unwrap();
    assert_eq!(travellers.len(), 6, "boards 1-6");

    // Every board: the matchpoints equal a hand computation over every row of the board in
    // all three sections (EBU: 2 per score beaten, 1 per tie; Neuberg to the field's top).
    let most = travellers
        .iter()
        .map(|t| t["results"].as_array().unwrap().len())
        .max()
        .unwrap();
    assert_eq!(most, 9, "3 sections × 3 tables");
    assert!(
        travellers
            .iter()
            .any(|t| t["results"].as_array().unwrap().len() == 8),
        "the board section C did not finish is played 8 times"
    );
    let e = most as f64;
    // pair (event, "NS"/"EW", number) -> (matchpoints, tops)
    let mut totals: std::collections::BTreeMap<(i64, &str, u64), (f64, f64)> = Default::default();
    for tr in travellers {
        let rows = tr["results"].as_array().unwrap();
        let events: std::collections::BTreeSet<i64> = rows
            .iter()
            .map(|r| r["event_id"].as_i64().unwrap())
            .collect();
        assert_eq!(
            events.len(),
            3,
            "every section's rows on board {}",
            tr["board"]
        );
        let scores: Vec<i64> = rows
            .iter()
            .map(|r| r["ns_score"].as_i64().unwrap())
            .collect();
        let a = scores.len() as f64;
        assert_eq!(tr["top"].as_f64().unwrap(), 2.0 * (e - 1.0));
        let neuberg = |mp: f64| if a < e { (mp + 1.0) * e / a - 1.0 } else { mp };
        for (row, &score) in rows.iter().zip(&scores) {
            let mut mp = 0.0;
            for (k, &other) in scores.iter().enumerate() {
                if std::ptr::eq(row, &rows[k]) {
                    continue;
                }
                mp += match score.cmp(&other) {
                    std::cmp::Ordering::Greater => 2.0,
                    std::cmp::Ordering::Equal => 1.0,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
            let ns = neuberg(mp);
            let ew = neuberg(2.0 * (a - 1.0) - mp);
            let close = |got: &Value, want: f64| (got.as_f64().unwrap() - want).abs() < 0.006;
            assert!(
                close(&row["ns_mp"], ns),
                "board {} {row} want {ns}",
                tr["board"]
            );
            assert!(
                close(&row["ew_mp"], ew),
                "board {} {row} want {ew}",
                tr["board"]
            );
            let event = row["event_id"].as_i64().unwrap();
            let top = 2.0 * (e - 1.0);
            for (line, pair, points) in [
                ("NS", row["ns_pair"].as_u64().unwrap(), ns),
                ("EW", row["ew_pair"].as_u64().unwrap(), ew),
            ] {
                let entry = totals.entry((event, line, pair)).or_default();
                entry.0 += points;
                entry.1 += top;
            }
        }
    }
    // The overall ranking: NS of every section together, EW together, each pair's percent the
    // hand computation's, best first.
    let overall = field["overall"].as_array().unwrap();
    assert_eq!(overall.len(), 2);
    for ranking in overall {
        let line = ranking["direction"].as_str().unwrap();
        let entries = ranking["entries"].as_array().unwrap();
        assert_eq!(
            entries.len(),
            9,
            "3 pairs of the line in each of 3 sections"
        );
        let mut last = f64::INFINITY;
        for entry in entries {
            let key = (
                entry["event_id"].as_i64().unwrap(),
                line,
                entry["pair"].as_u64().unwrap(),
            );
            let (mp, tops) = totals[&key];
            let percent = entry["percent"].as_f64().unwrap();
            assert!(
                (percent - 100.0 * mp / tops).abs() < 0.006,
                "{entry} want {}",
                100.0 * mp / tops
            );
            assert!(percent <= last, "ranked best first");
            last = percent;
            assert!(entry["name"].as_str().unwrap().contains(" pair "));
        }
    }
    // Each section's own ranking: its pairs on the field's scores (each total the hand sum of
    // its matchpoints across the field), which its standings show to the byte; and the
    // section scored alone, as its standings were before the group was named.
    let section_rankings = field["section_rankings"].as_array().unwrap();
    assert_eq!(section_rankings.len(), 3);
    for (k, (ranking, &id)) in section_rankings.iter().zip(&sections).enumerate() {
        assert_eq!(ranking["event_id"], id);
        let standings = s
            .get(&format!("/api/v1/events/{id}/bridge-standings"))
            .json();
        assert_eq!(ranking["standings"], standings);
        assert_eq!(ranking["scored_alone"], alone[k]);
        let letter = ["A", "B", "C"][k];
        assert_eq!(
            standings["across_the_field"],
            json!({"tournament_id": t, "field": 1, "name": "Evening", "section": letter})
        );
        for r in standings["rankings"].as_array().unwrap() {
            let line = r["direction"].as_str().unwrap();
            let entries = r["entries"].as_array().unwrap();
            assert_eq!(entries.len(), 3);
            let mut last = f64::INFINITY;
            for e in entries {
                let (mp, tops) = totals[&(id, line, e["pair"].as_u64().unwrap())];
                assert!(
                    (e["total"].as_f64().unwrap() - mp).abs() < 0.006,
                    "{e} want {mp}"
                );
                let percent = e["percent"].as_f64().unwrap();
                assert!((percent - 100.0 * mp / tops).abs() < 0.006, "{e}");
                assert!(percent <= last, "ranked best first");
                last = percent;
            }
        }
    }

    // A section's traveller is the field's: every section's rows of the board with their
    // letters and the field's matchpoints, the section's own mark.
    let b = sections[1];
    for tr in travellers {
        let board = tr["board"].as_u64().unwrap();
        let mine = s.get(&format!("/api/v1/events/{b}/travellers/{board}"));
        assert_eq!(mine.status, 200, "{}", mine.text());
        let mine = mine.json();
        assert_eq!(mine["across_the_field"]["section"], "B");
        let rows = mine["results"].as_array().unwrap();
        let field_rows = tr["results"].as_array().unwrap();
        assert_eq!(rows.len(), field_rows.len());
        for (row, f) in rows.iter().zip(field_rows) {
            let letter = match f["event_id"].as_i64().unwrap() {
                id if id == sections[0] => "A",
                id if id == sections[1] => "B",
                _ => "C",
            };
            assert_eq!(row["section"], letter);
            for key in [
                "ns_pair",
                "ew_pair",
                "ns_score",
                "ns_mp",
                "ew_mp",
                "ns_percent",
            ] {
                assert_eq!(row[key], f[key], "board {board} {key}");
            }
        }
    }
    let page = s.get(&format!("/e/{b}/travellers/3")).text();
    assert!(page.contains("Scored across the field (Evening)"), "{page}");
    assert!(page.contains(&format!("href=\"/t/{t}/fields/1\"")));
    assert_eq!(
        page.matches("<tr class=\"own\">").count(),
        3,
        "section B's 3 tables"
    );
    assert_eq!(
        page.matches("<td>C</td>").count(),
        2,
        "section C's 2 results of board 3"
    );
    let page = s.get(&format!("/e/{b}/standings")).text();
    assert!(page.contains("as section <strong>B</strong>"), "{page}");
    assert!(page.contains(&format!("href=\"/t/{t}/fields/1\"")));
    // The section's scorecard adds up to its standings' total.
    let card = s
        .get(&format!(
            "/api/v1/events/{b}/pairs/1/scorecard?direction=ns"
        ))
        .json();
    let (mp, _) = totals[&(b, "NS", 1)];
    assert!(
        (card["total"].as_f64().unwrap() - mp).abs() < 0.006,
        "{card}"
    );

    // The exports carry the field. USEBIO: SECTION_COUNT 3 and EVENT/SESSION/SECTION per
    // section, each with its own pairs (numbers after its letter, places overall) and its
    // own traveller lines with the field's matchpoints; PBN with every section's rows in each
    // board's score table.
    let usebio = s.get(&format!(
        "/api/v1/tournaments/{t}/across-the-field/1/usebio?club_name=Smith%20%26%20Sons"
    ));
    assert_eq!(usebio.status, 200, "{}", usebio.text());
    let xml = usebio.text();
    let names = tourney::engine::bridge::usebio::check_well_formed(&xml).unwrap();
    assert!(xml.contains("<SECTION_COUNT>3</SECTION_COUNT>"), "{xml}");
    assert!(xml.contains("<SESSION_COUNT>1</SESSION_COUNT>"));
    assert!(xml.contains("<WINNER_TYPE>2</WINNER_TYPE>"));
    assert!(xml.contains("<CLUB_NAME>Smith &amp; Sons</CLUB_NAME>"));
    assert_eq!(
        xml.matches("<TRAVELLER_LINE>").count(),
        53,
        "9 rows × 6 boards, one missing"
    );
    assert_eq!(xml.matches("<PAIR>").count(), 18);
    assert_eq!(names.iter().filter(|n| *n == "SESSION").count(), 1);
    assert_eq!(names.iter().filter(|n| *n == "SECTION").count(), 3);
    assert_eq!(names.iter().filter(|n| *n == "PARTICIPANTS").count(), 3);
    let session = xml.find("<SESSION SESSION_ID=\"1\">").expect("one SESSION");
    let end_session = xml.find("</SESSION>").unwrap();
    assert!(
        !xml[..session].contains("<PARTICIPANTS") && !xml[..session].contains("<BOARD "),
        "nothing of a section directly under EVENT"
    );
    assert!(end_session < xml.find("</EVENT>").unwrap());
    // The text of each element `name` in `block`, in order.
    fn leaves<'a>(block: &'a str, name: &str) -> Vec<&'a str> {
        block
            .split(&format!("<{name}>"))
            .skip(1)
            .map(|rest| rest.split('<').next().unwrap())
            .collect()
    }
    let mut all_mps = Vec::new();
    for (k, &id) in sections.iter().enumerate() {
        let letter = ["A", "B", "C"][k];
        let open = format!("<SECTION SECTION_ID=\"{letter}\">");
        let at = xml.find(&open).unwrap_or_else(|| panic!("{open} in {xml}"));
        assert!(session < at && at < end_session);
        let section = &xml[at..at + xml[at..].find("</SECTION>").unwrap()];
        // Its pairs: its own 3 NS and 3 EW, each with the place of the overall ranking.
        let pairs: Vec<&str> = section.split("<PAIR>").skip(1).collect();
        assert_eq!(pairs.len(), 6, "{section}");
        let mut placed = 0;
        for ranking in field["overall"].as_array().unwrap() {
            let line = ranking["direction"].as_str().unwrap();
            for e in ranking["entries"].as_array().unwrap() {
                if e["event_id"] != id {
                    continue;
                }
                let number = format!("{letter}{}{line}", e["pair"]);
                let pair = pairs
                    .iter()
                    .find(|p| leaves(p, "PAIR_NUMBER") == [number.as_str()])
                    .unwrap_or_else(|| panic!("{number} in section {letter}"));
                let rank = e["rank"].as_str().unwrap().trim_end_matches('=');
                assert_eq!(leaves(pair, "PLACE"), [rank], "{number}");
                assert_eq!(leaves(pair, "DIRECTION"), [line]);
                let percent = format!("{:.2}", e["percent"].as_f64().unwrap());
                assert_eq!(leaves(pair, "PERCENTAGE"), [percent.as_str()]);
                placed += 1;
            }
        }
        assert_eq!(placed, 6);
        // Its traveller lines: the field's rows of this section, board by board, with the
        // field's matchpoints.
        let mut want: Vec<(String, String, String, String, String)> = travellers
            .iter()
            .flat_map(|tr| {
                let board = tr["board"].to_string();
                tr["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| r["event_id"] == id)
                    .map(move |r| {
                        (
                            board.clone(),
                            format!("{letter}{}NS", r["ns_pair"]),
                            format!("{letter}{}EW", r["ew_pair"]),
                            format!("{:.2}", r["ns_mp"].as_f64().unwrap()),
                            format!("{:.2}", r["ew_mp"].as_f64().unwrap()),
                        )
                    })
            })
            .collect();
        let mut got = Vec::new();
        for board in section.split("<BOARD ").skip(1) {
            let number = leaves(board, "BOARD_NUMBER")[0];
            for l in board.split("<TRAVELLER_LINE>").skip(1) {
                got.push((
                    number.to_string(),
                    leaves(l, "NS_PAIR_NUMBER")[0].to_string(),
                    leaves(l, "EW_PAIR_NUMBER")[0].to_string(),
                    leaves(l, "NS_MATCH_POINTS")[0].to_string(),
                    leaves(l, "EW_MATCH_POINTS")[0].to_string(),
                ));
            }
        }
        want.sort();
        got.sort();
        assert_eq!(got.len(), if letter == "C" { 17 } else { 18 });
        assert_eq!(got, want, "section {letter}");
        all_mps.extend(leaves(section, "NS_MATCH_POINTS"));
    }
    let mut json_mps: Vec<String> = travellers
        .iter()
        .flat_map(|t| t["results"].as_array().unwrap().iter())
        .map(|r| format!("{:.2}", r["ns_mp"].as_f64().unwrap()))
        .collect();
    json_mps.sort();
    all_mps.sort();
    assert_eq!(all_mps, json_mps);
    s.get(&format!(
        "/api/v1/tournaments/{t}/across-the-field/2/usebio"
    ))
    .problem(404);
    let pbn = s.get(&format!("/api/v1/tournaments/{t}/across-the-field/1/pbn"));
    assert_eq!(pbn.status, 200, "{}", pbn.text());
    let rows = tourney::engine::bridge::pbn_export::read_score_tables(&pbn.text()).unwrap();
    assert_eq!(rows.len(), 53);
    assert!(
        pbn.text().contains("[ScoreTable \"Section\\2L;Round"),
        "{}",
        pbn.text()
    );
    assert!(pbn.text().contains("[TotalScoreTable \"Rank\\3R;Section"));
    // A section's own exports are its field's, and say so (Content-Location).
    let mine = s.get(&format!(
        "/api/v1/events/{b}/usebio?club_name=Smith%20%26%20Sons"
    ));
    assert_eq!(mine.status, 200, "{}", mine.text());
    assert_eq!(mine.text(), xml);
    let location = format!("/api/v1/tournaments/{t}/across-the-field/1/usebio");
    assert_eq!(mine.header("content-location"), Some(location.as_str()));
    let mine = s.get(&format!("/api/v1/events/{b}/pbn"));
    assert_eq!(mine.text(), pbn.text());
    let location = format!("/api/v1/tournaments/{t}/across-the-field/1/pbn");
    assert_eq!(mine.header("content-location"), Some(location.as_str()));
    let r = s.get(&format!("/api/v1/events/{b}/pbn?games=tables"));
    r.problem(422);
    assert_eq!(r.fields(), vec!["games"]);

    // The landing page names the field and links to its exports.
    let page = s.get(&format!("/t/{t}")).text();
    assert!(page.contains("Scored across the field"), "{page}");
    assert!(page.contains(&format!(
        "href=\"/api/v1/tournaments/{t}/across-the-field/1/usebio\""
    )));
    let fpage = s.get(&format!("/t/{t}/fields/1"));
    assert_eq!(fpage.status, 200, "{}", fpage.text());
    let fpage = fpage.text();
    assert!(
        fpage.contains("Overall NS") && fpage.contains("Overall EW"),
        "{fpage}"
    );
    for id in &sections {
        assert!(fpage.contains(&format!("href=\"/e/{id}/standings\"")));
    }
    assert_eq!(fpage.matches("Board ").count(), 6, "a traveller per board");
    assert_eq!(s.get(&format!("/t/{t}/fields/2")).status, 404);

    // The whole tournament as one field: the same three sections (the chess one is not pairs).
    // The settings merge (RFC 7396): the group stays unless the patch removes it.
    let r = patch(json!({"settings": {"across_the_field": true}}), &admin);
    assert_eq!(r.status, 422, "{}", r.text());
    let r = patch(
        json!({"settings": {"across_the_field": true, "groups": null}}),
        &admin,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let whole = s
        .get(&format!("/api/v1/tournaments/{t}/across-the-field"))
        .json();
    assert_eq!(whole["fields"][0]["travellers"], field["travellers"]);
    assert_eq!(whole["fields"][0]["overall"], field["overall"]);

    // A group travels with the tournament: exported by position, imported under the new ids.
    let mut body = group(json!(sections.clone()));
    body["settings"]["across_the_field"] = json!(null);
    let r = patch(body, &admin);
    assert_eq!(r.status, 200, "{}", r.text());
    let document = s
        .request(
            "GET",
            &format!("/api/v1/tournaments/{t}/export"),
            &[("Authorization", &format!("Bearer {admin}"))],
            None,
        )
        .json();
    assert_eq!(
        document["tournament"]["settings"]["groups"][0]["sections"],
        json!([1, 2, 3])
    );
    let (copy, _) = created(s.send("POST", "/api/v1/tournaments/import", None, &document));
    let copied = s
        .get(&format!("/api/v1/tournaments/{copy}/across-the-field"))
        .json();
    let percents = |f: &Value| -> Vec<Value> {
        f["overall"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                r["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["percent"].clone())
            })
            .collect()
    };
    assert_eq!(copied["fields"][0]["name"], "Evening");
    assert_eq!(percents(&copied["fields"][0]), percents(field));
    let mut bad = document.clone();
    bad["tournament"]["settings"]["groups"][0]["sections"] = json!([1, 9]);
    let r = s.send("POST", "/api/v1/tournaments/import", None, &bad);
    r.problem(422);
    assert_eq!(
        r.fields(),
        vec!["tournament.settings.groups[0].sections[1]"]
    );

    // A result entered in section C moves what section A shows (its version moves with the
    // field's): the board C had not finished now has 9 rows on A's traveller, even for a reader
    // the read cache answered before.
    let a = sections[0];
    let before = s.get(&format!("/api/v1/events/{a}/travellers/3"));
    assert_eq!(before.json()["results"].as_array().unwrap().len(), 8);
    let etag = before.header("etag").unwrap().to_string();
    let page_before = s.get(&format!("/e/{a}/travellers/3")).text();
    let c = sections[2];
    let rows = s.get(&format!("/api/v1/events/{c}/scoring-rows")).json();
    let table = rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["round"] == 2
                && r["low_board"].as_u64() <= Some(3)
                && r["high_board"].as_u64() >= Some(3)
        })
        .unwrap()["table"]
        .clone();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{c}/board-results"),
        Some(&admin),
        &json!({"results": [{"round": 2, "table": table, "board": 3, "contract": "3NT", "declarer": "S", "tricks": 10}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let after = s.get(&format!("/api/v1/events/{a}/travellers/3"));
    assert_eq!(after.json()["results"].as_array().unwrap().len(), 9);
    assert_ne!(after.header("etag").unwrap(), etag);
    let page_after = s.get(&format!("/e/{a}/travellers/3")).text();
    assert_ne!(page_after, page_before);
    assert!(page_after.contains("3NT"));
}
