//! `tourney bench-http` (hidden): a small HTTP/1.1 load generator for the page benchmarks
//! (scripts/bench-pages). Each connection is one thread sending GETs with keep-alive, one at
//! a time, for a fixed time; the answer is the requests per second, the latencies, how many
//! answers were 304s and the mean body size.
//!
//!   tourney bench-http --url http://127.0.0.1:8080/e/1/standings --seconds 10 --connections 8
//!       [--header 'Accept-Encoding: gzip'] [--header 'If-None-Match: "v4"']
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

/// What one connection saw.
#[derive(Default)]
struct Seen {
    latencies: Vec<Duration>,
    not_modified: usize,
    body_bytes: usize,
}

/// One connection's loop: what it saw, or the first failure.
fn hammer(host: &str, path: &str, headers: &[String], until: Instant) -> Result<Seen, String> {
    let stream = TcpStream::connect(host).map_err(|e| format!("connect {host}: {e}"))?;
    stream.set_nodelay(true).ok();
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n");
    let mut seen = Seen::default();
    while Instant::now() < until {
        let started = Instant::now();
        writer
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut length = 0usize;
        let mut chunked = false;
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        if status.starts_with("HTTP/1.1 304") {
            seen.not_modified += 1;
        } else if !status.starts_with("HTTP/1.1 200") {
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
                if k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked") {
                    chunked = true;
                }
            }
        }
        seen.body_bytes += if chunked {
            read_chunks(&mut reader)?
        } else {
            let mut body = vec![0; length];
            reader.read_exact(&mut body).map_err(|e| e.to_string())?;
            length
        };
        seen.latencies.push(started.elapsed());
    }
    Ok(seen)
}

/// Reads a chunked body (a server compressing on the fly sends no length); its size.
fn read_chunks(reader: &mut impl BufRead) -> Result<usize, String> {
    let mut total = 0;
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).map_err(|e| e.to_string())?;
        let hex = size.trim().split(';').next().unwrap_or("");
        let n = usize::from_str_radix(hex, 16).map_err(|_| format!("bad chunk size {size:?}"))?;
        // the chunk and its CRLF (the last chunk has only the CRLF)
        let mut chunk = vec![0; n + 2];
        reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
        total += n;
        if n == 0 {
            return Ok(total);
        }
    }
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
    let headers: Vec<String> = args
        .windows(2)
        .filter(|w| w[0] == "--header")
        .map(|w| w[1].clone())
        .collect();
    if let Some(bad) = headers
        .iter()
        .find(|h| !h.contains(':') || h.contains('\n'))
    {
        return Err(format!("--header {bad:?}: expected `Name: value`"));
    }
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..connections)
        .map(|_| {
            let (host, path, headers) = (host.to_string(), path.to_string(), headers.clone());
            std::thread::spawn(move || hammer(&host, &path, &headers, until))
        })
        .collect();
    let mut all = Vec::new();
    let (mut not_modified, mut body_bytes) = (0, 0);
    for w in workers {
        let seen = w.join().map_err(|_| "a connection panicked")??;
        all.extend(seen.latencies);
        not_modified += seen.not_modified;
        body_bytes += seen.body_bytes;
    }
    let elapsed = started.elapsed().as_secs_f64();
    if all.is_empty() {
        return Err("no request answered".into());
    }
    all.sort_unstable();
    let pct = |p: f64| all[((all.len() - 1) as f64 * p) as usize].as_secs_f64() * 1000.0;
    Ok(format!(
        "{url} {headers:?}\n  requests {}  seconds {elapsed:.1}  connections {connections}  304s {not_modified}  mean body {} bytes\n  per second {:.0}  latency ms p50 {:.2} p99 {:.2} max {:.2}\n",
        all.len(),
        body_bytes / all.len(),
        all.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        pct(1.0),
    ))
}
