//! `tourney bench-bridge-swiss` (hidden): the bridge Swiss draw for a large field late in the
//! event (400 contestants, round 9, under 50 ms). Rounds 1 to R−1 are drawn by the
//! engine itself with random VP results (a random 0–20 split a match, 12 VPs a bye), then the
//! draw of round R is timed several times on the same history.

use std::time::Instant;

use tourney::engine::bridge::swiss::{draw, Contestant, DrawRequest, OddNumber, Round1};
use tourney::engine::rng::SplitMix64;

use super::bench_bridge::{fail, option};
use super::CliError;

pub fn bench(args: &[String]) -> Result<String, CliError> {
    let n = option(args, "--contestants", 400)? as usize;
    let round = option(args, "--round", 9)?;
    let runs = option(args, "--runs", 7)?;
    let mut rng = SplitMix64::new(15);
    let mut field: Vec<Contestant> = (1..=n as u64)
        .map(|id| Contestant {
            id,
            score: 0.0,
            seed: Some(id as u32),
            opponents: Vec::new(),
            byes: 0,
            home_table: None,
        })
        .collect();
    let request = |field: &[Contestant]| DrawRequest {
        contestants: field.to_vec(),
        round1: Round1::Split,
        random_seed: None,
        rounds: Some(round),
        odd: OddNumber::Bye,
        keep_home_tables: false,
    };
    for _ in 1..round {
        let d = draw(&request(&field)).map_err(|e| fail(e.message))?;
        let index = |id: u64| id as usize - 1;
        for m in &d.matches {
            let home = rng.below(21) as f64;
            field[index(m.home)].score += home;
            field[index(m.away)].score += 20.0 - home;
            field[index(m.home)].opponents.push(m.away);
            field[index(m.away)].opponents.push(m.home);
        }
        if let Some(bye) = d.bye {
            field[index(bye)].score += 12.0;
            field[index(bye)].byes += 1;
        }
    }
    let req = request(&field);
    let mut times = Vec::new();
    let mut matches = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let d = draw(&req).map_err(|e| fail(e.message))?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        matches = d.matches.len();
    }
    times.sort_by(f64::total_cmp);
    Ok(format!(
        "bridge Swiss draw, {n} contestants, round {round} ({matches} matches), {runs} runs: median {:.2} ms, min {:.2} ms, max {:.2} ms (goal < 50 ms)\n",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    ))
}
