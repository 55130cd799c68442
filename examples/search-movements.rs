//! The offline searches whose results the movement generators embed (issue 14). CI never
//! runs them: the tests re-verify the embedded results instead. Each prints the line to
//! embed. Run in release (a debug build is many times slower):
//!
//!   cargo run --release --example search-movements -- rover 15
//!   cargo run --release --example search-movements -- three-quarter 10 11
//!
//! - `rover T [NODES]`: the EW exchange and NS rover list of a Mitchell on T tables, 3 | T
//!   (`mitchell::rover::search_exchange`; EXCHANGE_ROVERS). 15 and 21 tables: at once; 33
//!   tables: `rover 33 100000000`, about 2 minutes.
//! - `three-quarter T R [CAP BUDGET]`: a cyclic 3/4 Howell starter (`howell::search::
//!   search_three_quarter`, default cap 200 and budget 8 000 000; THREE_QUARTER in
//!   howell/data.rs).
//! - `free-sets T R [PARTITIONS RESTARTS NODES KICKS]`: a 3/4 Howell with sets chosen per
//!   table and round (`howell::design::three_quarter_free_sets`, default 4 6 2000000 30;
//!   THREE_QUARTER_LAYOUTS).
//! - `design T R [RESTARTS STEPS KICKS]`: a 3/4 Howell as a Howell design (`howell::design::
//!   three_quarter_design`, default 4 40000000 30; THREE_QUARTER_DESIGNS).
//! - `howell T [RESTARTS BUDGET CANDIDATES]`: a cyclic Howell starter (`howell::search::search`,
//!   default 40 100000 5000; STARTERS).
//! - `half-sets T REPEAT [ABSENT RESTARTS KICKS]`: a half-set Howell (`howell::half_sets::
//!   search_half_sets`, default 0 200 50; HALF_SET_LAYOUTS).
//! - `levels`: the balance of every Howell and 3/4 Howell served, with all pairs and with a
//!   half table (the figures the tests assert).

use std::time::Instant;

use tourney::engine::bridge::movement::howell::design::{
    three_quarter_design, three_quarter_free_sets,
};
use tourney::engine::bridge::movement::howell::half_sets::search_half_sets;
use tourney::engine::bridge::movement::howell::search::{search, search_three_quarter};
use tourney::engine::bridge::movement::howell::{
    howell, three_quarter_howell, three_quarter_rounds, MAX_TABLES, MIN_TABLES,
};
use tourney::engine::bridge::movement::mitchell::rover::search_exchange;
use tourney::engine::bridge::movement::model::{Direction, MovementParams};
use tourney::engine::bridge::movement::report::balance;

fn arg(args: &[String], i: usize, default: Option<u64>) -> Result<u64, String> {
    match args.get(i) {
        Some(a) => a
            .parse()
            .map_err(|_| format!("argument {i}: {a:?} is not a number")),
        None => default.ok_or_else(|| format!("argument {i} is missing")),
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let what = args.first().map(String::as_str).unwrap_or("");
    match what {
        "rover" => {
            let t = arg(args, 1, None)? as u32;
            let nodes = arg(args, 2, Some(20_000_000))? as usize;
            match search_exchange(t, nodes) {
                Some(((a, b), g, list)) => Ok(format!("({t}, ({a}, {b}), {g}, &{list:?}),")),
                None => Err(format!("no exchange device found for {t} tables")),
            }
        }
        "three-quarter" => {
            let (t, r) = (arg(args, 1, None)? as u32, arg(args, 2, None)? as u32);
            let cap = arg(args, 3, Some(200))? as usize;
            let budget = arg(args, 4, Some(8_000_000))?;
            match search_three_quarter(t, r, cap, budget) {
                Some((st, pct)) => Ok(format!(
                    "({t}, {r}, &{:?}, &{:?}), // {pct:.2}",
                    st.moving, st.stationary
                )),
                None => Err(format!(
                    "no 3/4 Howell starter found for {t} tables, {r} rounds"
                )),
            }
        }
        "free-sets" => {
            let (t, r) = (arg(args, 1, None)? as u32, arg(args, 2, None)? as u32);
            let found = three_quarter_free_sets(
                t,
                r,
                arg(args, 3, Some(4))? as usize,
                arg(args, 4, Some(6))? as usize,
                arg(args, 5, Some(2_000_000))?,
                arg(args, 6, Some(30))? as usize,
            );
            match found {
                Some((lay, pct)) => Ok(format!("({t}, {r}, &{lay:?}), // {pct:.2}")),
                None => Err(format!("no layout found for {t} tables, {r} rounds")),
            }
        }
        "design" => {
            let (t, r) = (arg(args, 1, None)? as u32, arg(args, 2, None)? as u32);
            let found = three_quarter_design(
                t,
                r,
                arg(args, 3, Some(4))? as usize,
                arg(args, 4, Some(40_000_000))?,
                arg(args, 5, Some(30))? as usize,
            );
            match found {
                Some((lay, pct)) => Ok(format!("({t}, {r}, &{lay:?}), // {pct:.2}")),
                None => Err(format!("no Howell design found for {t} tables, {r} rounds")),
            }
        }
        "howell" => {
            let t = arg(args, 1, None)? as u32;
            let found = search(
                t,
                arg(args, 2, Some(40))? as usize,
                arg(args, 3, Some(100_000))?,
                arg(args, 4, Some(5_000))? as usize,
            );
            match found {
                Some((st, q)) => Ok(format!(
                    "({t}, {}, {}, {}, &{:?}), // quality {q}",
                    st.stationary_ns, st.partner, st.partner_set, st.rows
                )),
                None => Err(format!("no starter found for {t} tables")),
            }
        }
        "half-sets" => {
            let (t, repeat) = (arg(args, 1, None)? as u32, arg(args, 2, None)? as u32);
            let absent = Some(arg(args, 3, Some(0))? as u32).filter(|&p| p > 0);
            let found = search_half_sets(
                t,
                repeat,
                absent,
                arg(args, 4, Some(200))? as usize,
                arg(args, 5, Some(50))? as usize,
            );
            match found {
                Some((lay, pct)) => Ok(format!("({t}, {repeat}, &{lay:?}), // {pct:.2}")),
                None => Err(format!("no half-set layout found for {t} tables")),
            }
        }
        "levels" => Ok(levels()),
        _ => Err("usage: search-movements rover T [NODES] | three-quarter T R [CAP BUDGET] | free-sets T R [...] | design T R [...] | howell T [...] | half-sets T REPEAT [...] | levels".into()),
    }
}

/// Balance of every Howell served (2 boards a round), all pairs and with a half table,
/// floored to 0.01.
fn levels() -> String {
    let pct = |kind: &str, t: u32, rounds: Option<u32>, half: bool| {
        let p = MovementParams {
            tables: t,
            rounds,
            half_table: half.then_some(Direction::Ew),
            ..Default::default()
        };
        let m = if kind == "howell" {
            howell(&p)
        } else {
            three_quarter_howell(&p)
        };
        // floored to 0.01, as the tests' levels are
        m.map_or(f64::NAN, |m| (balance(&m).percent * 100.0).floor() / 100.0)
    };
    let mut out = String::from("kind tables rounds full half\n");
    for t in MIN_TABLES..=MAX_TABLES {
        let full = 2 * t - 1;
        let mut rounds = vec![full];
        if t <= 3 {
            rounds.push(2 * full);
        }
        for r in rounds {
            out.push_str(&format!(
                "howell {t} {r} {:.2} {:.2}\n",
                pct("howell", t, Some(r), false),
                pct("howell", t, Some(r), true)
            ));
        }
        for r in three_quarter_rounds(t) {
            out.push_str(&format!(
                "three_quarter_howell {t} {r} {:.2} {:.2}\n",
                pct("tq", t, Some(r), false),
                pct("tq", t, Some(r), true)
            ));
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = Instant::now();
    match run(&args) {
        Ok(line) => println!("{line}\n// {:.1} s", start.elapsed().as_secs_f64()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
