//! The README's walk-throughs, run as a reader runs them: every ```sh block that follows a
//! `<!-- walkthrough -->` line is pasted alone into a fresh `bash -euo pipefail` (an empty
//! environment but `PATH`, its own working directory), with the server address rewritten to a
//! test server's. A block passes when the shell exits 0 and every request it made was answered
//! with a 2xx (counted by the server's `/metrics`, so a block whose curl does not fail on an
//! error status is caught too). Only bash, curl and python3 are assumed.

use std::collections::BTreeMap;
use std::process::Command;

use crate::client::{spawn, TestServer};

const MARK: &str = "<!-- walkthrough -->";
/// The address the README's blocks use (`cargo run -- serve`'s default).
const ADDRESS: &str = "http://127.0.0.1:8080";

/// A walk-through: the README line of its opening fence, and its code.
struct Block {
    line: usize,
    code: String,
}

/// The block after each mark. A mark not followed by a ```sh fence fails, so a block cannot
/// drop out of the test unnoticed.
fn walkthroughs(readme: &str) -> Vec<Block> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() != MARK {
            continue;
        }
        let fence = i + 1;
        assert_eq!(
            lines.get(fence).map(|l| l.trim()),
            Some("```sh"),
            "README.md line {}: a walk-through mark must be followed by a ```sh block",
            i + 1
        );
        let body: Vec<&str> = lines[fence + 1..]
            .iter()
            .take_while(|l| l.trim() != "```")
            .copied()
            .collect();
        assert!(
            fence + 1 + body.len() < lines.len(),
            "README.md line {}: the walk-through block is not closed",
            fence + 1
        );
        blocks.push(Block {
            line: fence + 1,
            code: body.join("\n") + "\n",
        });
    }
    blocks
}

/// The requests the server has answered so far, by status (`tourney_requests_total`), leaving
/// out the test's own reads of `/metrics`.
fn answered(s: &TestServer) -> BTreeMap<u16, u64> {
    let metrics = s.get("/metrics");
    assert_eq!(metrics.status, 200);
    let mut by_status = BTreeMap::new();
    for line in metrics.text().lines() {
        if !line.starts_with("tourney_requests_total{") || line.contains("route=\"/metrics\"") {
            continue;
        }
        let status: u16 = line
            .split("status=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a metrics line without a status: {line}"));
        let count: u64 = line
            .rsplit(' ')
            .next()
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("a metrics line without a count: {line}"));
        *by_status.entry(status).or_insert(0) += count;
    }
    by_status
}

/// The answers counted in `after` but not in `before`, by status.
fn since(before: &BTreeMap<u16, u64>, after: &BTreeMap<u16, u64>) -> BTreeMap<u16, u64> {
    after
        .iter()
        .map(|(status, n)| (*status, n - before.get(status).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

#[test]
fn every_readme_walkthrough_runs_pasted_alone() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let blocks = walkthroughs(&readme);
    assert!(
        blocks.len() >= 3,
        "the README has a round robin, a Swiss and a bridge walk-through: {} found",
        blocks.len()
    );
    let s = spawn();
    let path = std::env::var("PATH").unwrap_or_default();
    for block in &blocks {
        assert!(
            block.code.contains(ADDRESS),
            "README.md line {}: the block does not talk to {ADDRESS}",
            block.line
        );
        let code = block.code.replace(ADDRESS, &format!("http://{}", s.addr));
        // A fresh shell in a directory of its own: nothing of this process's environment, and
        // no ~/.curlrc but one that bounds each request.
        let dir = tourney::scratch::ScratchDir::new("walkthrough").expect("scratch dir");
        std::fs::write(dir.path().join(".curlrc"), "max-time = 120\n").unwrap();
        let before = answered(&s);
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &code])
            .env_clear()
            .env("PATH", &path)
            .env("HOME", dir.path())
            .env("CURL_HOME", dir.path())
            .current_dir(dir.path())
            .output()
            .expect("bash (with curl and python3) must be installed to run the walk-throughs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "README.md line {}: the walk-through failed ({})\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
            block.line,
            out.status
        );
        // Each request is counted before its answer goes out, so the shell's are all in.
        let new = since(&before, &answered(&s));
        assert!(
            !new.is_empty(),
            "README.md line {}: the walk-through made no request",
            block.line
        );
        let failed: Vec<_> = new.iter().filter(|(status, _)| **status >= 300).collect();
        assert!(
            failed.is_empty(),
            "README.md line {}: answers other than 2xx (status, count): {failed:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
            block.line
        );
    }
}
