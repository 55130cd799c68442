//! The live stream with a real server-sent-events client over a TcpStream: publish a round
//! and see the message arrive; one message per change (a bulk upload too); reconnect with
//! Last-Event-ID; the heartbeat; the subscriber cap, with closed connections let go at once;
//! HTTP/1.0 without chunks.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::{spawn_with, TestServer};
use crate::swiss::{pair, publish, swiss_event};
use crate::teams::{add_team, event_with};

/// One server-sent event.
#[derive(Debug, Default)]
struct Message {
    id: Option<String>,
    event: Option<String>,
    data: Option<Value>,
    comment: Option<String>,
}

/// A minimal SSE client: connects, checks the status line and headers, reads messages.
struct SseClient {
    reader: BufReader<TcpStream>,
}

impl SseClient {
    /// The status code, and the client when it is 200.
    fn connect(
        s: &TestServer,
        path: &str,
        last_event_id: Option<&str>,
    ) -> (u16, Option<SseClient>) {
        let (status, client, _) = SseClient::connect_with(s, path, last_event_id, "HTTP/1.1");
        (status, client)
    }

    /// [`SseClient::connect`] in an HTTP version, with the response's headers.
    fn connect_with(
        s: &TestServer,
        path: &str,
        last_event_id: Option<&str>,
        version: &str,
    ) -> (u16, Option<SseClient>, Vec<String>) {
        let mut stream = TcpStream::connect(&s.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut req = format!(
            "GET {path} {version}\r\nHost: {}\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip\r\n",
            s.addr
        );
        if let Some(id) = last_event_id {
            req.push_str(&format!("Last-Event-ID: {id}\r\n"));
        }
        req.push_str("\r\n");
        stream.write_all(req.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            headers.push(line.trim().to_ascii_lowercase());
        }
        if status != 200 {
            return (status, None, headers);
        }
        assert!(
            headers
                .iter()
                .any(|h| h == "content-type: text/event-stream"),
            "{headers:?}"
        );
        assert!(
            !headers
                .iter()
                .any(|h| h.starts_with("content-encoding: gzip")),
            "never compressed: {headers:?}"
        );
        let chunked = headers.iter().any(|h| h == "transfer-encoding: chunked");
        assert_eq!(
            chunked,
            version == "HTTP/1.1",
            "chunks in HTTP/1.1 only: {headers:?}"
        );
        (status, Some(SseClient { reader }), headers)
    }

    /// The next line of the event stream, chunk framing taken off.
    fn line(&mut self) -> String {
        // chunks hold whole messages here; a line of the body never spans two chunks
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("stream open");
            assert!(n > 0, "stream ended");
            let trimmed = line.trim_end_matches(['\r', '\n']).to_string();
            // a chunk-size line is hex digits alone, and the blank after a chunk's data
            // ends in \r\n (the event stream itself uses bare \n)
            if line.ends_with("\r\n")
                && (trimmed.is_empty() || trimmed.chars().all(|c| c.is_ascii_hexdigit()))
            {
                continue;
            }
            return trimmed;
        }
    }

    fn message(&mut self) -> Message {
        let mut m = Message::default();
        loop {
            let line = self.line();
            if line.is_empty() {
                if m.id.is_some() || m.event.is_some() || m.comment.is_some() {
                    return m;
                }
                continue;
            }
            if let Some(c) = line.strip_prefix(':') {
                m.comment = Some(c.trim().to_string());
            } else if let Some((field, value)) = line.split_once(": ") {
                match field {
                    "id" => m.id = Some(value.to_string()),
                    "event" => m.event = Some(value.to_string()),
                    "data" => m.data = Some(serde_json::from_str(value).unwrap()),
                    _ => panic!("unknown field {field}"),
                }
            }
        }
    }

    /// The next message that is not a heartbeat.
    fn next_event(&mut self) -> Message {
        loop {
            let m = self.message();
            if m.comment.is_none() {
                return m;
            }
        }
    }
}

/// The data of the next message, which must be of `kind`.
fn expect(client: &mut SseClient, kind: &str) -> Value {
    let m = client.next_event();
    assert_eq!(m.event.as_deref(), Some(kind), "{m:?}");
    m.data.unwrap()
}

#[test]
fn a_subscriber_sees_rounds_and_results_live_and_replays_on_reconnect() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_millis(300)));
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 9}));
    s.add_players(event, &admin, 6);
    let path = format!("/api/v1/events/{event}/stream");
    let (status, client) = SseClient::connect(&s, &path, None);
    assert_eq!(status, 200);
    let mut client = client.unwrap();

    // Pairing a draft says nothing; publishing it does.
    pair(&s, event, &admin);
    let round = publish(&s, event, &admin, 1);
    let m = client.next_event();
    assert_eq!(m.event.as_deref(), Some("rounds"));
    assert_eq!(
        m.data.unwrap(),
        json!({"event_id": event, "deleted": [], "published": [1]})
    );
    let first_id = m.id.expect("an id");

    // A result: one `results` message naming the round and board, and the standings.
    let game = &round["games"][0];
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": game["id"], "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        expect(&mut client, "results"),
        json!({"event_id": event, "rounds": [{"round": 1, "boards": [game["board"]]}], "results": 1,
               "standings": format!("/api/v1/events/{event}/standings")})
    );
    // The same result again changes nothing and says nothing: the next thing is a heartbeat.
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": game["id"], "result": "1-0"}]}),
    );
    let started = Instant::now();
    let m = client.message();
    assert_eq!(m.comment.as_deref(), Some("heartbeat"), "{m:?}");
    assert!(started.elapsed() < Duration::from_secs(5));

    // Reconnecting after the first message replays the one that followed.
    let (_, again) = SseClient::connect(&s, &path, Some(&first_id));
    let mut again = again.unwrap();
    assert_eq!(expect(&mut again, "results")["results"], 1);
    // An id this server never gave: a `resync`, whose id is the latest.
    let (_, stale) = SseClient::connect(&s, &path, Some("1-1"));
    let mut stale = stale.unwrap();
    let m = stale.next_event();
    assert_eq!(m.event.as_deref(), Some("resync"));
    let data = m.data.unwrap();
    assert_eq!(data["reason"], "not_kept");
    assert_eq!(data["href"], format!("/api/v1/events/{event}"));
    let latest = m.id.expect("a resync has the latest id");
    assert!(latest.ends_with("-2"), "{latest}");

    // Three subscribers is this server's cap: a fourth gets a 429 problem.
    let (status, _) = SseClient::connect(&s, &path, None);
    assert_eq!(status, 429);
    // One leaves: there is room again at once (the server sees the connection close).
    drop(stale);
    crate::client::wait_until(
        Duration::from_secs(1),
        "the closed subscriber is let go at once",
        || {
            let (status, c) = SseClient::connect(&s, &path, None);
            drop(c);
            status == 200
        },
    );

    // Unknown event: 404.
    let (status, _) = SseClient::connect(&s, "/api/v1/events/999999/stream", None);
    assert_eq!(status, 404);
}

#[test]
fn closed_connections_free_their_places_at_once() {
    let s = spawn_with(tourney::live::Live::new(50, Duration::from_secs(15)));
    let (event, _) = s.create_event("round_robin");
    let path = format!("/api/v1/events/{event}/stream");
    for round in 0..3 {
        let phones: Vec<SseClient> = (0..50)
            .map(|_| SseClient::connect(&s, &path, None).1.expect("a place"))
            .collect();
        assert_eq!(SseClient::connect(&s, &path, None).0, 429, "round {round}");
        drop(phones);
        // every place is free again well before any heartbeat
        crate::client::wait_until(Duration::from_secs(2), "places freed", || {
            s.get(&format!("/api/v1/events/{event}")).status == 200
                && SseClient::connect(&s, &path, None).0 == 200
        });
    }
}

#[test]
fn a_bulk_upload_is_one_message() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 9}));
    s.add_players(event, &admin, 200);
    pair(&s, event, &admin);
    let round = publish(&s, event, &admin, 1);
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let csv: String = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| format!("1,{},1/2-1/2\n", g["board"]))
        .collect();
    let r = s.request(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        &[
            ("Content-Type", "text/csv"),
            ("Authorization", &format!("Bearer {admin}")),
        ],
        Some(csv.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let data = expect(&mut client, "results");
    assert_eq!(data["results"], 100);
    assert_eq!(data["rounds"][0]["boards"].as_array().unwrap().len(), 100);
    // and nothing more: a second upload's message comes next
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"round": 1, "board": 1, "result": "1-0"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(expect(&mut client, "results")["results"], 1);
}

#[test]
fn an_http_1_0_client_gets_the_stream_without_chunks() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 9}));
    s.add_players(event, &admin, 4);
    pair(&s, event, &admin);
    let (status, client, headers) = SseClient::connect_with(
        &s,
        &format!("/api/v1/events/{event}/stream"),
        None,
        "HTTP/1.0",
    );
    assert_eq!(status, 200);
    assert!(
        !headers.iter().any(|h| h.starts_with("content-length")),
        "{headers:?}"
    );
    let mut client = client.unwrap();
    publish(&s, event, &admin, 1);
    let mut raw = String::new();
    // the body is the event stream itself: no chunk sizes between its lines
    while !raw.ends_with("\n\n") {
        let mut line = String::new();
        client.reader.read_line(&mut line).unwrap();
        raw.push_str(&line);
    }
    assert!(raw.starts_with("id: "), "{raw:?}");
    assert!(raw.contains("\nevent: rounds\ndata: {"), "{raw:?}");
}

#[test]
fn a_keyed_upload_is_told_once_and_only_when_stored() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_millis(500)));
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 9}));
    s.add_players(event, &admin, 4);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let upload = |key: &str, csv: &str| {
        s.request(
            "POST",
            &format!("/api/v1/events/{event}/results"),
            &[
                ("Content-Type", "text/csv"),
                ("Authorization", &format!("Bearer {admin}")),
                ("Idempotency-Key", key),
            ],
            Some(csv.as_bytes()),
        )
    };
    // refused (a bad line): rolled back, nothing told
    assert_eq!(upload("k-bad", "1,1,1-0\n1,9,1-0\n").status, 422);
    assert_eq!(upload("k-good", "1,1,1-0\n1,2,0-1\n").status, 200);
    // replayed: stored once, told once
    let again = upload("k-good", "1,1,1-0\n1,2,0-1\n");
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    let data = expect(&mut client, "results");
    assert_eq!(data["rounds"], json!([{"round": 1, "boards": [1, 2]}]));
    assert_eq!(client.message().comment.as_deref(), Some("heartbeat"));
}

#[test]
fn deleting_a_published_round_is_announced() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = swiss_event(&s, json!({"rounds": 3, "seed": 9}));
    s.add_players(event, &admin, 4);
    pair(&s, event, &admin);
    publish(&s, event, &admin, 1);
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let r = s.send(
        "DELETE",
        &format!("/api/v1/events/{event}/rounds/1"),
        Some(&admin),
        &json!({}),
    );
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(
        expect(&mut client, "rounds"),
        json!({"event_id": event, "deleted": [1], "published": []})
    );
}

#[test]
fn a_round_robins_schedule_made_and_made_again_is_one_message_each() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = s.create_event("round_robin");
    s.add_players(event, &admin, 4);
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let draw = |seed: u64| {
        let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": seed}));
        assert_eq!(r.status, 200, "{}", r.text());
    };
    // Drawing lots makes the three rounds of 4 players, published at once.
    draw(5);
    let rounds = expect(&mut client, "rounds");
    assert_eq!(
        (&rounds["deleted"], &rounds["published"]),
        (&json!([]), &json!([1, 2, 3]))
    );
    // Drawing again replaces the schedule: the old rounds go, the new ones come.
    draw(6);
    let rounds = expect(&mut client, "rounds");
    assert_eq!(
        (&rounds["deleted"], &rounds["published"]),
        (&json!([1, 2, 3]), &json!([1, 2, 3]))
    );
    // A result of a round robin, as in a Swiss.
    let game = s.get(&format!("/api/v1/events/{event}/rounds/2")).json()["games"][0].clone();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": game["id"], "result": "0-1"}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        expect(&mut client, "results")["rounds"],
        json!([{"round": 2, "boards": [game["board"]]}])
    );
    // A draw refused (results are in) announces nothing: the next message is a new result's.
    let r = s.draw_lots(event, &admin, json!({"method": "random", "seed": 7}));
    assert_eq!(r.status, 409, "{}", r.text());
    s.send(
        "POST",
        &format!("/api/v1/events/{event}/results"),
        Some(&admin),
        &json!({"results": [{"game_id": game["id"], "result": "1-0"}]}),
    );
    assert_eq!(expect(&mut client, "results")["results"], 1);
}

#[test]
fn a_bridge_board_result_is_announced_with_the_bridge_standings() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = crate::bridge_results::mitchell_event(&s, json!({}));
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let row = json!({"round": 1, "table": 1, "board": 1, "contract": "3NT", "declarer": "N", "result": "="});
    let send = || {
        let r = s.send(
            "POST",
            &format!("/api/v1/events/{event}/board-results"),
            Some(&admin),
            &json!({ "results": [row] }),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    };
    send();
    let m = client.next_event();
    assert_eq!(m.event.as_deref(), Some("results"));
    assert_eq!(
        m.data.unwrap(),
        json!({"event_id": event, "rounds": [{"round": 1, "boards": [1]}], "results": 1,
               "standings": format!("/api/v1/events/{event}/bridge-standings")})
    );
    // The same row again changes nothing and says nothing (a heartbeat is 15 s away; the
    // replay after the message is empty).
    send();
    let (_, again) = SseClient::connect(
        &s,
        &format!("/api/v1/events/{event}/stream"),
        Some(&m.id.unwrap()),
    );
    let mut again = again.unwrap();
    again
        .reader
        .get_ref()
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let mut line = String::new();
    assert!(
        std::io::BufRead::read_line(&mut again.reader, &mut line).is_err(),
        "{line}"
    );
}

#[test]
fn a_team_events_schedule_is_announced_like_a_round_robins() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (event, admin) = event_with(&s, "scheveningen", json!({}));
    add_team(&s, event, &admin, "Hastings", 4, 2300);
    add_team(&s, event, &admin, "Oxford", 4, 2400);
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{event}/stream"), None);
    let mut client = client.unwrap();
    let r = s.draw_lots(event, &admin, json!({"method": "rating"}));
    assert_eq!(r.status, 200, "{}", r.text());
    // A 4-board Scheveningen match: four rounds, one message.
    assert_eq!(
        expect(&mut client, "rounds")["published"],
        json!([1, 2, 3, 4])
    );
}

#[test]
fn a_bridge_swiss_round_drawn_and_deleted_is_told_live() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (id, token) = crate::bridge_team_events::bridge_event(&s, "swiss_teams", json!({}));
    for k in 1..=4 {
        let r = crate::bridge_team_events::add_bridge_team(&s, id, &token, k, 4);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = crate::bridge_team_events::draw_lots_by_rating(&s, id, &token);
    assert_eq!(r.status, 200, "{}", r.text());
    let (status, client) = SseClient::connect(&s, &format!("/api/v1/events/{id}/stream"), None);
    assert_eq!(status, 200);
    let mut client = client.unwrap();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&token),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(expect(&mut client, "rounds")["published"], json!([1]));
    let r = s.delete(&format!("/api/v1/events/{id}/rounds/1"), Some(&token));
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(expect(&mut client, "rounds")["deleted"], json!([1]));
}

#[test]
fn a_bridge_match_entered_is_told_with_the_vp_standings() {
    let s = spawn_with(tourney::live::Live::new(3, Duration::from_secs(15)));
    let (id, token) = crate::bridge_team_events::bridge_event(&s, "swiss_teams", json!({}));
    for k in 1..=4 {
        let r = crate::bridge_team_events::add_bridge_team(&s, id, &token, k, 4);
        assert_eq!(r.status, 201, "{}", r.text());
    }
    assert_eq!(
        crate::bridge_team_events::draw_lots_by_rating(&s, id, &token).status,
        200
    );
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/rounds"),
        Some(&token),
        &json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let top = r.json()["matches"][0].clone();
    let (_, client) = SseClient::connect(&s, &format!("/api/v1/events/{id}/stream"), None);
    let mut client = client.unwrap();
    let r = s.send(
        "POST",
        &format!("/api/v1/events/{id}/matches"),
        Some(&token),
        &json!({"matches": [{"round": 1, "home": top["home"], "away": top["away"], "vp_home": 15, "vp_away": 5}]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        expect(&mut client, "results"),
        json!({"event_id": id, "rounds": [{"round": 1, "matches": [{"home": top["home"], "away": top["away"]}]}],
               "results": 1, "standings": format!("/api/v1/events/{id}/vp-standings")})
    );
}
