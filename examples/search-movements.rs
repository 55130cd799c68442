//! The offline searches whose results the movement generators embed (issue 14). CI never
//! runs them: the tests re-verify the embedded results instead. Each prints the line to
//! embed. Run in release (a debug build is many times slower):
//!
//!   cargo run --release --example search-movements -- rover 15
//!   cargo run --release --example search-movements -- three-quarter 10 11
//!
//! - `rover T [NODES]`: the EW exchange and NS rover list of a Mitchell on T tables, 3 | T
//!   (`mitchell::rover::search_exchange`; EXCHANGE_ROVERS). 15 tables: about 10 s, 21: 2 min.
//! - `three-quarter T R [CAP BUDGET]`: a cyclic 3/4 Howell starter (`howell::search::
//!   search_three_quarter`, default cap 200 and budget 8 000 000; THREE_QUARTER in
//!   howell/data.rs).

use std::time::Instant;

use tourney::engine::bridge::movement::howell::search::search_three_quarter;
use tourney::engine::bridge::movement::mitchell::rover::search_exchange;

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
        _ => Err("usage: search-movements rover T [NODES] | three-quarter T R [CAP BUDGET]".into()),
    }
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
