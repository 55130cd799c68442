//! Benchmark of `POST /api/v1/movements/validate`'s work (issue 14): the worst custom
//! movements within the limits (4 MiB body, 1 000 tables, 500 rounds, 2 002 pairs), each
//! parsed from its JSON body and reported on (validation, facts and balance), as the handler
//! does. Run with `scripts/bench-movements`. Goal: every one under 200 ms.

use std::time::Instant;

use tourney::engine::bridge::movement::model::{Movement, PairNumbering, Round, TableRound};
use tourney::engine::bridge::movement::report::report;
use tourney::limits::MAX_BODY_BYTES;

fn table(table: u32, ns: u32, ew: u32, set: u32, boards: Vec<u32>) -> TableRound {
    TableRound {
        table,
        ns: Some(ns),
        ew: Some(ew),
        set,
        boards,
        arrow_switch: false,
        section: None,
        half_sets: Vec::new(),
    }
}

fn movement(kind: &str, tables: u32, numbering: PairNumbering, rounds: Vec<Round>) -> Movement {
    Movement {
        kind: kind.into(),
        tables,
        pair_numbering: numbering,
        boards_per_round: 1,
        rounds,
    }
}

fn round(n: u32, tables: Vec<TableRound>) -> Round {
    Round {
        round: n,
        tables,
        sit_out: vec![],
        relay_sets: vec![],
    }
}

/// 1 000 tables, 2 000 pairs, every table of a round playing the same board; as many rounds
/// as the body holds. `same_board`: board 1 in every round (pairs replay it: invalid).
fn shared(same_board: bool, rounds: u32) -> Movement {
    let rounds = (1..=rounds)
        .map(|r| {
            let set = if same_board { 1 } else { r };
            round(
                r,
                (1..=1000)
                    .map(|t| {
                        let ew = 1000 + (t + r - 2) % 1000 + 1;
                        table(t, t, ew, set, vec![set])
                    })
                    .collect(),
            )
        })
        .collect();
    movement("shared", 1000, PairNumbering::Howell, rounds)
}

/// A Mitchell of `t` tables and `t` rounds, one board a round.
fn mitchell(t: u32) -> Movement {
    let rounds = (1..=t)
        .map(|r| {
            round(
                r,
                (1..=t)
                    .map(|k| {
                        let ew = (k + t - r) % t + 1;
                        let set = (k + r - 2) % t + 1;
                        table(k, k, ew, set, vec![set])
                    })
                    .collect(),
            )
        })
        .collect();
    movement("mitchell", t, PairNumbering::Mitchell, rounds)
}

/// 400 rounds of 150 tables, 300 pairs, each table its own board drawn so that boards
/// travel among many different tables (many board classes, every pair meeting many).
fn scattered() -> Movement {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n) as u32
    };
    let rounds = (1..=400)
        .map(|r| {
            round(
                r,
                (1..=150)
                    .map(|t| {
                        let b = 1 + next(9999);
                        table(t, t, 150 + (t + r) % 150 + 1, b, vec![b])
                    })
                    .collect(),
            )
        })
        .collect();
    movement("scattered", 150, PairNumbering::Howell, rounds)
}

fn main() {
    let runs: usize = std::env::args()
        .skip_while(|a| a != "--runs")
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let cases = [
        (
            "1000 tables sharing one board each round",
            shared(false, 70),
        ),
        (
            "1000 tables sharing board 1 in every round",
            shared(true, 70),
        ),
        ("Mitchell, 249 tables, 249 rounds", mitchell(249)),
        ("400 rounds, 150 tables, scattered boards", scattered()),
    ];
    println!("movement                                        body      median     max");
    let mut worst = 0f64;
    for (name, m) in cases {
        let body = serde_json::to_vec(&m).expect("serialise");
        assert!(body.len() <= MAX_BODY_BYTES, "{name}: {} bytes", body.len());
        let mut times = Vec::new();
        let mut valid = false;
        {
            let t0 = Instant::now();
            let parsed: Movement = serde_json::from_slice(&body).expect("parse");
            let t1 = Instant::now();
            let f = tourney::engine::bridge::movement::validate::validate(&parsed);
            let t2 = Instant::now();
            let b = tourney::engine::bridge::movement::report::balance(&parsed);
            let t3 = Instant::now();
            eprintln!(
                "  parse {:?} validate {:?} ({} findings) balance {:?} ({:.1}%)",
                t1 - t0,
                t2 - t1,
                f.len(),
                t3 - t2,
                b.percent
            );
        }
        for _ in 0..runs {
            let start = Instant::now();
            let parsed: Movement = serde_json::from_slice(&body).expect("parse");
            let r = report(&parsed);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            valid = r.valid;
        }
        times.sort_by(f64::total_cmp);
        let (median, max) = (times[times.len() / 2], times[times.len() - 1]);
        worst = worst.max(max);
        println!(
            "{name:<46} {:>5.2} MB {median:>8.1} ms {max:>6.1} ms{}",
            body.len() as f64 / 1e6,
            if valid { "" } else { "  (invalid)" }
        );
    }
    println!("worst: {worst:.1} ms (goal < 200 ms)");
}
