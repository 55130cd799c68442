//! The hidden `bench-bridge` command: a bridge pairs session over the real HTTP API on a
//! temporary database. A Mitchell of `--tables` tables (default 29) and `--boards-per-round`
//! boards (default 2) is set up, then, `--runs` times (default 7), a fresh event's whole
//! session is uploaded as one CSV request (timed), and the standings are asked for
//! (timed, full recomputation: no ETag sent). Prints the median, min and max of each.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Instant;

use serde_json::{json, Value};

use super::CliError;

pub(crate) fn fail(message: impl Into<String>) -> CliError {
    CliError {
        code: 1,
        message: message.into(),
    }
}

/// One HTTP/1.1 exchange over a fresh connection: (status, body).
fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<u8>), CliError> {
    let io = |e: std::io::Error| fail(format!("{method} {path}: {e}"));
    let mut stream = TcpStream::connect(addr).map_err(io)?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).map_err(io)?;
    stream.write_all(body).map_err(io)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(io)?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| fail(format!("{method} {path}: no header end")))?;
    let status = String::from_utf8_lossy(&raw[..split])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| fail(format!("{method} {path}: no status")))?;
    Ok((status, raw[split + 4..].to_vec()))
}

fn json_call(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Result<Value, CliError> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a.as_str()));
    }
    let (status, body) = request(addr, method, path, &headers, body.to_string().as_bytes())?;
    if !(200..300).contains(&status) {
        return Err(fail(format!(
            "{method} {path}: {status} {}",
            String::from_utf8_lossy(&body)
        )));
    }
    serde_json::from_slice(&body).map_err(|e| fail(format!("{method} {path}: {e}")))
}

/// A fresh event with its movement and lots: (event id, admin token, the session's CSV).
fn setup(addr: &str, tables: u32, per_round: u32) -> Result<(i64, String, String), CliError> {
    let created = json_call(
        addr,
        "POST",
        "/api/v1/events",
        None,
        &json!({"name": "Benchmark pairs", "game": "bridge", "format": "pairs"}),
    )?;
    let event = created["id"].as_i64().unwrap_or_default();
    let admin = created["admin_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let pairs: Vec<Value> = (1..=2 * tables)
        .map(|i| json!({"name": format!("Pair {i}")}))
        .collect();
    json_call(
        addr,
        "POST",
        &format!("/api/v1/events/{event}/participants/bulk"),
        Some(&admin),
        &json!({ "participants": pairs }),
    )?;
    let chosen = json_call(
        addr,
        "PUT",
        &format!("/api/v1/events/{event}/movement"),
        Some(&admin),
        &json!({"kind": "mitchell", "options": {"tables": tables, "boards_per_round": per_round}}),
    )?;
    json_call(
        addr,
        "POST",
        &format!("/api/v1/events/{event}/lots"),
        Some(&admin),
        &json!({"method": "random", "seed": 1}),
    )?;
    // A spread of contracts, so every board has different scores to compare.
    const PLAYS: [(&str, char, &str); 6] = [
        ("3NT", 'N', "="),
        ("4 S", 'S', "+1"),
        ("2H", 'E', "-1"),
        ("1NT", 'W', "="),
        ("3 C x", 'N', "-2"),
        ("4HX", 'E', "-3"),
    ];
    let mut csv = String::from(
        "Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard\n",
    );
    let rounds = chosen["movement"]["rounds"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for r in &rounds {
        let round = r["round"].as_u64().unwrap_or_default();
        for t in r["tables"].as_array().into_iter().flatten() {
            let (table, ns, ew) = (
                t["table"].as_u64().unwrap_or_default(),
                t["ns"].as_u64().unwrap_or_default(),
                t["ew"].as_u64().unwrap_or_default(),
            );
            for b in t["boards"].as_array().into_iter().flatten() {
                let b = b.as_u64().unwrap_or_default();
                let (contract, seat, result) =
                    PLAYS[((b * 7 + table * 3 + round * 5) % PLAYS.len() as u64) as usize];
                let declarer = if "NS".contains(seat) { ns } else { ew };
                csv.push_str(&format!(
                    "A,{table},{round},{b},{ns},{ew},{declarer},{seat},{contract},{result},H3\n"
                ));
            }
        }
    }
    Ok((event, admin, csv))
}

fn stats(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    let median = if ms.len() % 2 == 1 {
        ms[ms.len() / 2]
    } else {
        (ms[ms.len() / 2 - 1] + ms[ms.len() / 2]) / 2.0
    };
    format!(
        "median_ms {median:.2} min_ms {:.2} max_ms {:.2}",
        ms[0],
        ms[ms.len() - 1]
    )
}

pub(crate) fn option(args: &[String], name: &str, default: u32) -> Result<u32, CliError> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .filter(|&v| v > 0)
            .ok_or_else(|| CliError {
                code: 2,
                message: format!("{name} needs a positive whole number"),
            }),
    }
}

/// `tourney bench-bridge [--tables T] [--boards-per-round B] [--runs N]`.
pub fn bench(args: &[String]) -> Result<String, CliError> {
    let tables = option(args, "--tables", 29)?;
    let per_round = option(args, "--boards-per-round", 2)?;
    let runs = option(args, "--runs", 7)?;
    let dir = std::env::temp_dir().join(format!("tourney-bench-bridge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    let store = tourney::store::Store::open(&dir.join("bench.db")).map_err(fail)?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| fail(e.to_string()))?;
    let addr = listener
        .local_addr()
        .map_err(|e| fail(e.to_string()))?
        .to_string();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            if let Ok(server) = tourney::server::build(listener, store) {
                let _ = server.await;
            }
        })
    });
    let result = (|| {
        let (mut upload, mut standings) = (Vec::new(), Vec::new());
        let mut results = 0;
        for _ in 0..runs {
            let (event, admin, csv) = setup(&addr, tables, per_round)?;
            let auth = format!("Bearer {admin}");
            let path = format!("/api/v1/events/{event}/board-results");
            let started = Instant::now();
            let (status, body) = request(
                &addr,
                "POST",
                &path,
                &[("Content-Type", "text/csv"), ("Authorization", &auth)],
                csv.as_bytes(),
            )?;
            upload.push(started.elapsed().as_secs_f64() * 1000.0);
            if status != 200 {
                return Err(fail(format!(
                    "upload: {status} {}",
                    String::from_utf8_lossy(&body)
                )));
            }
            let answer: Value = serde_json::from_slice(&body).map_err(|e| fail(e.to_string()))?;
            results = answer["changed"].as_u64().unwrap_or_default();
            for _ in 0..3 {
                let started = Instant::now();
                let (status, _) = request(
                    &addr,
                    "GET",
                    &format!("/api/v1/events/{event}/bridge-standings"),
                    &[],
                    b"",
                )?;
                standings.push(started.elapsed().as_secs_f64() * 1000.0);
                if status != 200 {
                    return Err(fail(format!("standings: {status}")));
                }
            }
        }
        Ok(format!(
            "tables {tables} boards_per_round {per_round} results {results} runs {runs}\nupload {} (goal < 100)\nstandings {} (goal < 50)\n",
            stats(upload),
            stats(standings)
        ))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
