//! `tourney check FILE --system fide_dutch|fide_burstein|fide_dubov|fide_lim [--json]`:
//! re-pairs every round of a finished TRF with the FIDE Dutch (or Burstein, Dubov, Lim) engine and lists the rounds whose pairings (boards, colours, the
//! pairing bye) differ from the published ones, like bbpPairings' `-c`.

use super::CliError;
use tourney::engine::chess::swiss::burstein::pair_burstein;
use tourney::engine::chess::swiss::dubov::pair_dubov;
use tourney::engine::chess::swiss::dutch::check::{check_event, check_event_with, RoundCheck};
use tourney::engine::chess::swiss::dutch::read_acceleration;
use tourney::engine::chess::swiss::lim::pair_lim;
use tourney::engine::chess::swiss::trf::{decode_trf, parse_trf_located};
use tourney::engine::matching::BlossomSolver;

fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

fn seat(s: &(u32, u32)) -> String {
    if s.1 == 0 {
        format!("{} bye", s.0)
    } else {
        format!("{}-{}", s.0, s.1)
    }
}

fn line(c: &RoundCheck) -> String {
    if let Some(e) = &c.error {
        return format!("round {}: not paired: {e}\n", c.round);
    }
    if c.agrees() {
        return format!("round {}: same\n", c.round);
    }
    let list = |v: &[(u32, u32)]| v.iter().map(seat).collect::<Vec<_>>().join(" ");
    format!(
        "round {}: DIFFERS published {} | ours {}\n",
        c.round,
        list(&c.published_only),
        list(&c.ours_only)
    )
}

/// The `check` subcommand. Exit code 0 when every round agrees, 1 when some differ (the
/// report lists them), 2 for a bad file or option.
pub fn check(args: &[String]) -> Result<(String, bool), CliError> {
    let mut file = None;
    let mut system = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--system" => system = Some(it.next().ok_or_else(|| usage("--system needs a value"))?),
            "--json" => json = true,
            x if x.starts_with("--") => return Err(usage(format!("unknown option {x}"))),
            x if file.is_none() => file = Some(x.to_string()),
            x => return Err(usage(format!("one file only; {x:?} is extra"))),
        }
    }
    let file = file.ok_or_else(|| usage("check needs a TRF file"))?;
    let system = match system.map(String::as_str) {
        Some(x @ ("fide_dutch" | "fide_burstein" | "fide_dubov" | "fide_lim")) => x,
        Some(x) => {
            return Err(usage(format!(
                "check knows --system fide_dutch, fide_burstein, fide_dubov or fide_lim, not {x:?}"
            )))
        }
        None => {
            return Err(usage(
                "check needs --system fide_dutch, fide_burstein, fide_dubov or fide_lim",
            ))
        }
    };
    let bytes = std::fs::read(&file).map_err(|e| usage(format!("cannot read {file}: {e}")))?;
    let text = decode_trf(&bytes);
    let (state, lines) = parse_trf_located(&text).map_err(|e| usage(e.to_string()))?;
    let accel = read_acceleration(&text, &state).map_err(usage)?;
    let checks = match system {
        "fide_burstein" => {
            check_event_with(&state, &|before| pair_burstein(before, &BlossomSolver))
        }
        "fide_dubov" => check_event_with(&state, &|before| pair_dubov(before, &BlossomSolver)),
        "fide_lim" => check_event_with(&state, &|before| pair_lim(before, &BlossomSolver)),
        _ => check_event(&state, &BlossomSolver, &accel),
    }
    .map_err(|e| usage(lines.locate(&e).to_string()))?;
    let all = checks.iter().all(RoundCheck::agrees);
    let out = if json {
        let rounds: Vec<serde_json::Value> = checks
            .iter()
            .map(|c| {
                serde_json::json!({
                    "round": c.round,
                    "same": c.agrees(),
                    "published_only": c.published_only,
                    "ours_only": c.ours_only,
                    "error": c.error,
                })
            })
            .collect();
        serde_json::to_string(&serde_json::json!({ "file": file, "rounds": rounds }))
            .map(|s| s + "\n")
            .map_err(|e| usage(e.to_string()))?
    } else {
        let same = checks.iter().filter(|c| c.agrees()).count();
        let mut s: String = checks.iter().map(line).collect();
        s.push_str(&format!("{same} of {} rounds the same\n", checks.len()));
        s
    };
    Ok((out, all))
}
