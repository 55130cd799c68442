//! `tourney bench-http` (hidden): a small HTTP/1.1 load generator for the page benchmarks
//! (scripts/bench-pages). Each connection is one thread sending GETs with keep-alive, one at
//! a time, for a fixed time; the answer is the requests per second and the latencies.
//!
//!   tourney bench-http --url http://127.0.0.1:8080/e/1/standings --seconds 10 --connections 8
//!
//! It runs on the same machine as the server, so it takes CPU from it: the figure is a floor.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.windows(2)
        .find(|w| w[0] == name)
        .map(|w| w[1].as_str())
}

/// One connection's loop: latencies of the answered requests, or the first failure.
fn hammer(host: &str, path: &str, until: Instant) -> Result<Vec<Duration>, String> {
    let stream = TcpStream::connect(host).map_err(|e| format!("connect {host}: {e}"))?;
    stream.set_nodelay(true).ok();
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    let mut latencies = Vec::new();
    while Instant::now() < until {
        let started = Instant::now();
        writer
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut length = 0usize;
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        if !status.starts_with("HTTP/1.1 200") {
            return Err(format!("{path}: {}", status.trim()));
        }
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().map_err(|_| "bad content-length")?;
                }
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        latencies.push(started.elapsed());
    }
    Ok(latencies)
}

/// Runs the benchmark; the report as text.
pub fn run(args: &[String]) -> Result<String, String> {
    let url = value(args, "--url").ok_or("--url is required")?;
    let seconds: u64 = value(args, "--seconds")
        .unwrap_or("10")
        .parse()
        .map_err(|_| "--seconds")?;
    let connections: usize = value(args, "--connections")
        .unwrap_or("8")
        .parse()
        .map_err(|_| "--connections")?;
    let rest = url
        .strip_prefix("http://")
        .ok_or("--url must start with http://")?;
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..connections)
        .map(|_| {
            let (host, path) = (host.to_string(), path.to_string());
            std::thread::spawn(move || hammer(&host, &path, until))
        })
        .collect();
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.join().map_err(|_| "a connection panicked")??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    if all.is_empty() {
        return Err("no request answered".into());
    }
    all.sort_unstable();
    let pct = |p: f64| all[((all.len() - 1) as f64 * p) as usize].as_secs_f64() * 1000.0;
    Ok(format!(
        "{url}\n  requests {}  seconds {elapsed:.1}  connections {connections}\n  per second {:.0}  latency ms p50 {:.2} p99 {:.2} max {:.2}\n",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        pct(1.0),
    ))
}
