//! The Swiss commands of the command line: `pair`, `simulate` and the hidden `bench-swiss`.

use std::io::Read;
use std::time::Instant;

use tourney::engine::chess::swiss::simulate::{
    measure, shaped_state, simulate_by, HistoryShape, RoundQuality, SimulationPlan,
};
use tourney::engine::chess::swiss::trf::{decode_trf, parse_trf_located, write_trf};
use tourney::engine::chess::swiss::us::pair_next_round_tuned;
use tourney::engine::chess::swiss::{
    pair_round, pair_round_accelerated, BoardPairing, ByeAward, ByeKind, RoundPairing,
    SettingsOverrides, SwissError, SwissState,
};
use tourney::engine::matching::BlossomSolver;

/// A failed command: the message for stderr and the exit code (2 = bad input or usage).
use super::CliError;

fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// Options common to the Swiss commands: the settings overrides as (snake_case name, value)
/// pairs, plus the command's own options.
#[derive(Debug, Default)]
struct Options {
    settings: Vec<(String, String)>,
    own: Vec<(String, String)>,
    positional: Vec<String>,
    json: bool,
}

/// Splits `args`: `--system`, `--colour-rule`, `--high-limit`, `--low-limit`, `--seed`,
/// `--rounds` (for `pair`), `--team-avoidance`, `--team-avoidance-rounds`, `--first-colour` take
/// a value and `--fide-style`, `--allow-forfeit-rematch` none (settings); `own` lists the command's other options with a
/// value; `--json` is a flag.
fn parse(args: &[String], own: &[&str], settings_seed: bool) -> Result<Options, CliError> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if !arg.starts_with("--") || arg == "-" {
            o.positional.push(arg.clone());
            i += 1;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        let name = flag.trim_start_matches("--").replace('-', "_");
        let mut value = || -> Result<String, CliError> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| usage(format!("{flag} needs a value")))
        };
        match name.as_str() {
            "fide_style" | "allow_forfeit_rematch" => o
                .settings
                .push((name, inline.clone().unwrap_or("true".into()))),
            "json" => o.json = true,
            "seed" if !settings_seed => {
                let v = value()?;
                o.own.push((name, v));
            }
            "rounds" if !own.contains(&"rounds") => {
                let v = value()?;
                o.settings.push((name, v));
            }
            "system"
            | "colour_rule"
            | "high_limit"
            | "low_limit"
            | "seed"
            | "team_avoidance"
            | "team_avoidance_rounds"
            | "first_colour" => {
                let v = value()?;
                o.settings.push((name, v));
            }
            n if own.contains(&n) => {
                let v = value()?;
                o.own.push((name, v));
            }
            _ => return Err(usage(format!("unknown option {flag}"))),
        }
        i += 1;
    }
    Ok(o)
}

fn overrides(o: &Options) -> Result<SettingsOverrides, CliError> {
    SettingsOverrides::from_pairs(&o.settings)
        .map_err(|e| usage(format!("--{}: {}", e.field.replace('_', "-"), e.message)))
}

fn number<T: std::str::FromStr>(o: &Options, name: &str) -> Result<Option<T>, CliError> {
    match o.own.iter().rev().find(|(k, _)| k == name) {
        None => Ok(None),
        Some((_, v)) => v.parse().map(Some).map_err(|_| {
            usage(format!(
                "--{} needs a number, got {v:?}",
                name.replace('_', "-")
            ))
        }),
    }
}

/// `tourney pair FILE.trf [settings]`: the next round as pretty JSON.
pub fn pair(args: &[String]) -> Result<String, CliError> {
    let o = parse(args, &[], true)?;
    let [file] = o.positional.as_slice() else {
        return Err(usage("pair needs one TRF file (or - for stdin)"));
    };
    let bytes = if file == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| usage(format!("cannot read stdin: {e}")))?;
        b
    } else {
        std::fs::read(file).map_err(|e| usage(format!("cannot read {file}: {e}")))?
    };
    let text = decode_trf(&bytes);
    let (mut state, lines) = parse_trf_located(&text).map_err(|e| usage(e.to_string()))?;
    overrides(&o)?
        .apply(&mut state.settings)
        .map_err(|e| usage(e.to_string()))?;
    // Every fault of the file's state is reported at its line (`line N: ...`).
    let accel =
        tourney::engine::chess::swiss::dutch::read_acceleration(&text, &state).map_err(usage)?;
    let round = pair_round_accelerated(&state, &BlossomSolver, &accel)
        .map_err(|e| usage(lines.locate(&e).to_string()))?;
    serde_json::to_string_pretty(&round)
        .map(|s| s + "\n")
        .map_err(|e| CliError {
            code: 1,
            message: e.to_string(),
        })
}

/// Sum of the per-round figures (largest imbalance: the maximum).
fn totals(rounds: &[RoundQuality]) -> RoundQuality {
    let mut t = RoundQuality {
        round: 0,
        rematches: 0,
        repeated_byes: 0,
        outside_score_group: 0,
        score_difference_sum: 0.0,
        equalisation_failures: 0,
        alternation_failures: 0,
        three_in_a_row: 0,
        imbalance_beyond_two: 0,
        same_colour_clashes: 0,
        largest_imbalance: 0,
        pairing_seconds: 0.0,
    };
    for q in rounds {
        t.rematches += q.rematches;
        t.repeated_byes += q.repeated_byes;
        t.outside_score_group += q.outside_score_group;
        t.score_difference_sum += q.score_difference_sum;
        t.equalisation_failures += q.equalisation_failures;
        t.alternation_failures += q.alternation_failures;
        t.three_in_a_row += q.three_in_a_row;
        t.imbalance_beyond_two += q.imbalance_beyond_two;
        t.same_colour_clashes += q.same_colour_clashes;
        t.largest_imbalance = t.largest_imbalance.max(q.largest_imbalance);
        t.pairing_seconds += q.pairing_seconds;
    }
    t
}

/// Another program's pairing of `state`: the state is written as a TRF file, `command` is
/// run by `sh -c` with the file's path appended, and its output is read as `tourney pair`'s
/// JSON (`pairings`, `byes`; a bye not requested is the pairing bye when worth a point).
fn external_pairing(command: &str, state: &SwissState) -> Result<RoundPairing, SwissError> {
    let fail = |m: String| SwissError {
        field: "pairer".into(),
        message: m,
    };
    let path = std::env::temp_dir().join(format!(
        "tourney-sim-{}-{}.trf",
        std::process::id(),
        state.round_to_pair()
    ));
    std::fs::write(&path, write_trf(state, "simulation"))
        .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{command} \"$0\""))
        .arg(&path)
        .output()
        .map_err(|e| fail(format!("cannot run {command}: {e}")))?;
    let _ = std::fs::remove_file(&path);
    if !out.status.success() {
        return Err(fail(format!(
            "{command} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| fail(format!("{command} printed no pairing JSON: {e}")))?;
    let num = |x: &serde_json::Value| x.as_u64().unwrap_or(0) as u32;
    let pairings = v["pairings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|b| BoardPairing {
                    board: num(&b["board"]),
                    white: num(&b["white"]),
                    black: num(&b["black"]),
                })
                .collect()
        })
        .unwrap_or_default();
    let byes = v["byes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|b| {
                    let player = num(&b["player"]);
                    let points = b["points"].as_f64().unwrap_or(0.0);
                    let requested = state.requested_byes.iter().any(|r| r.player == player);
                    let kind = if requested {
                        ByeKind::Requested
                    } else if points >= 1.0 {
                        ByeKind::Pairing
                    } else {
                        ByeKind::Absent
                    };
                    ByeAward {
                        player,
                        points,
                        kind,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(RoundPairing {
        round: state.round_to_pair(),
        pairings,
        byes,
        explanation: vec![],
    })
}

/// Same-state comparison (`simulate --compare CMD`): every round is also paired by CMD on the
/// very state the event has reached, and both pairings are measured on it; CMD's is not
/// played. Whole events diverge after one different board (other results, other histories),
/// so their sums mix the engines' choices with chance; these sums do not.
#[derive(Default)]
struct SameState {
    this: Vec<RoundQuality>,
    other: Vec<RoundQuality>,
    /// Rounds CMD could not pair (left out of both sums).
    not_paired: u32,
}

impl SameState {
    fn record(&mut self, command: &str, state: &SwissState, this: &RoundPairing) {
        match external_pairing(command, state) {
            Ok(other) => {
                self.this.push(measure(state, this));
                self.other.push(measure(state, &other));
            }
            Err(_) => self.not_paired += 1,
        }
    }
}

/// `tourney simulate --players N --rounds R --seed S [--seeds K] [--absent P] [--pairer CMD]
/// [--compare CMD] [settings] [--json]`: K events (seeds S..S+K−1; the table sums them), each
/// player absent with chance P % per round, paired by the engine or by CMD (see
/// [`external_pairing`]); with `--compare`, see [`SameState`].
pub fn simulate(args: &[String]) -> Result<String, CliError> {
    let o = parse(
        args,
        &["players", "rounds", "seeds", "absent", "pairer", "compare"],
        false,
    )?;
    if let Some(p) = o.positional.first() {
        return Err(usage(format!("unexpected argument {p:?}")));
    }
    let players: u32 = number(&o, "players")?.ok_or_else(|| usage("--players is required"))?;
    let rounds: u32 = number(&o, "rounds")?.ok_or_else(|| usage("--rounds is required"))?;
    let seed: u64 = number(&o, "seed")?.unwrap_or(0);
    let seeds: u64 = number(&o, "seeds")?.unwrap_or(1);
    let absent_percent: u32 = number(&o, "absent")?.unwrap_or(0);
    let own = |name: &str| {
        o.own
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let pairer = own("pairer");
    let compare = own("compare");
    let mut same = SameState::default();
    if players < 2 {
        return Err(usage("--players must be at least 2"));
    }
    if rounds == 0 || rounds > players.max(3) {
        return Err(usage(format!(
            "--rounds must be between 1 and {}",
            players.max(3)
        )));
    }
    if !(1..=1000).contains(&seeds) {
        return Err(usage("--seeds must be between 1 and 1000"));
    }
    if absent_percent > 50 {
        return Err(usage("--absent must be a percentage from 0 to 50"));
    }
    let settings = overrides(&o)?;
    let mut per_round: Vec<RoundQuality> = Vec::new();
    let mut report = None;
    for k in 0..seeds {
        let plan = SimulationPlan {
            players,
            rounds,
            seed: seed + k,
            absent_percent,
        };
        let mut engine = |s: &SwissState| pair_round(s, &BlossomSolver);
        let mut external = |s: &SwissState| external_pairing(pairer.as_deref().unwrap_or(""), s);
        let pair: &mut dyn FnMut(&SwissState) -> Result<RoundPairing, SwissError> =
            if pairer.is_some() {
                &mut external
            } else {
                &mut engine
            };
        let mut pair_and_compare = |s: &SwissState| {
            let p = pair(s)?;
            if let Some(c) = &compare {
                same.record(c, s, &p);
            }
            Ok(p)
        };
        let r = simulate_by(&plan, &settings, &mut pair_and_compare).map_err(|e| CliError {
            code: 1,
            message: e.to_string(),
        })?;
        if per_round.is_empty() {
            per_round = r.per_round.clone();
        } else {
            for (sum, q) in per_round.iter_mut().zip(&r.per_round) {
                *sum = totals(&[sum.clone(), q.clone()]);
                sum.round = q.round;
            }
        }
        report = Some(r);
    }
    let report = report.expect("at least one seed");
    let total = totals(&per_round);
    if o.json {
        let v = serde_json::json!({
            "players": report.players,
            "rounds": report.rounds,
            "seed": seed,
            "seeds": seeds,
            "absent_percent": absent_percent,
            "per_round": per_round,
            "totals": total,
            "same_state": compare.as_ref().map(|c| serde_json::json!({
                "command": c,
                "rounds": same.this.len(),
                "not_paired": same.not_paired,
                "this": totals(&same.this),
                "other": totals(&same.other),
            })),
        });
        return Ok(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n");
    }
    let events = if seeds == 1 {
        format!("seed {seed}")
    } else {
        format!("seeds {seed}-{} (summed)", seed + seeds - 1)
    };
    let mut out = format!(
        "{} players, {} rounds, {events}\n\n{:>5} {:>8} {:>8} {:>8} {:>9} {:>5} {:>5} {:>5} {:>5} {:>6} {:>7} {:>9}\n",
        report.players,
        report.rounds,
        "round",
        "rematch",
        "rep.bye",
        "outside",
        "score.dif",
        "EQ",
        "AL",
        "33",
        "IMB",
        "clash",
        "max.imb",
        "time (s)"
    );
    let line = |label: String, q: &RoundQuality| {
        format!(
            "{label:>5} {:>8} {:>8} {:>8} {:>9.1} {:>5} {:>5} {:>5} {:>5} {:>6} {:>7} {:>9.3}\n",
            q.rematches,
            q.repeated_byes,
            q.outside_score_group,
            q.score_difference_sum,
            q.equalisation_failures,
            q.alternation_failures,
            q.three_in_a_row,
            q.imbalance_beyond_two,
            q.same_colour_clashes,
            q.largest_imbalance,
            q.pairing_seconds
        )
    };
    for q in &per_round {
        out.push_str(&line(q.round.to_string(), q));
    }
    out.push_str(&line("total".into(), &total));
    if let Some(c) = &compare {
        out.push_str(&format!(
            "\nsame state: {} rounds also paired by {c} ({} it could not pair), both measured there\n",
            same.this.len(),
            same.not_paired
        ));
        out.push_str(&line("this".into(), &totals(&same.this)));
        out.push_str(&line("other".into(), &totals(&same.other)));
    }
    out.push_str(
        "\nrematch: boards of players who had met before; rep.bye: second full-point byes\n\
outside: players paired outside their score group; score.dif: sum of the score differences\n\
EQ / AL: players left two colours out of balance / given the colour of their last game\n\
IMB / 33: players the round took beyond |whites - blacks| = 2 / given a colour a third time in a row\n\
clash: boards whose two players were due the same colour\n\
max.imb: largest |whites - blacks| after the round (total: the maximum)\n",
    );
    Ok(out)
}

/// The last round `bench-swiss --round` makes (the rounds before it are played).
const MAX_BENCH_ROUND: u32 = 20;

/// Peak resident memory of this process (VmHWM), in KiB, when the system reports it.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Hidden `tourney bench-swiss --players N [--seed S] [--shape NAME] [--round R]
/// [--window-above M] [--price-per-player K] [--write-trf FILE] [settings]`: builds the state of round R (default 6)
/// of a 9-round event (the rounds before by a quick greedy pairing, not timed) with a history
/// of the shape NAME (`rank`, the default, `open`, `draws`, `baku`, `one-group`, `late`: see
/// `HistoryShape`), then times the pairing of round R alone (model build included), with the
/// settings given (`--fide-style`...). With `--write-trf`, writes that state as TRF instead
/// (the history other programs pair in `scripts/bench-swiss`) and pairs nothing.
pub fn bench(args: &[String]) -> Result<String, CliError> {
    let o = parse(
        args,
        &[
            "players",
            "window_above",
            "price_per_player",
            "write_trf",
            "shape",
            "round",
        ],
        false,
    )?;
    let players: u32 = number(&o, "players")?.ok_or_else(|| usage("--players is required"))?;
    let seed: u64 = number(&o, "seed")?.unwrap_or(1);
    let window_above: Option<usize> = number(&o, "window_above")?;
    let price_per_player: Option<usize> = number(&o, "price_per_player")?;
    if players < 2 {
        return Err(usage("--players must be at least 2"));
    }
    let shape = match o.own.iter().rev().find(|(k, _)| k == "shape") {
        None => HistoryShape::Rank,
        Some((_, name)) => HistoryShape::parse(name).ok_or_else(|| {
            let names: Vec<&str> = HistoryShape::ALL.iter().map(|s| s.name()).collect();
            usage(format!("--shape must be one of {}", names.join(", ")))
        })?,
    };
    let round: u32 = number(&o, "round")?.unwrap_or(6);
    if !(2..=MAX_BENCH_ROUND).contains(&round) {
        return Err(usage(format!(
            "--round must be between 2 and {}",
            MAX_BENCH_ROUND
        )));
    }
    let mut state = shaped_state(players, seed, shape, round);
    overrides(&o)?
        .apply(&mut state.settings)
        .map_err(|e| usage(e.to_string()))?;
    if let Some((_, file)) = o.own.iter().rev().find(|(k, _)| k == "write_trf") {
        let mut text = write_trf(&state, "bench-swiss");
        if shape == HistoryShape::Baku {
            text.insert_str(0, "092 FIDE_DUTCH_2025_BAKU\n");
        }
        std::fs::write(file, text).map_err(|e| CliError {
            code: 1,
            message: format!("cannot write {file}: {e}"),
        })?;
        return Ok(format!(
            "players {players} round {} written to {file}\n",
            state.round_to_pair()
        ));
    }
    if shape == HistoryShape::Baku {
        state.settings.acceleration =
            tourney::engine::chess::swiss::state::AccelerationMethod::Baku;
    }
    let started = Instant::now();
    let paired = if window_above.is_some() || price_per_player.is_some() {
        pair_next_round_tuned(&state, &BlossomSolver, window_above, price_per_player)
    } else {
        pair_round(&state, &BlossomSolver)
    };
    let round = paired.map_err(|e| CliError {
        code: 1,
        message: e.to_string(),
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let notes: Vec<String> = round
        .explanation
        .iter()
        .filter_map(|e| match e {
            tourney::engine::chess::swiss::ExplanationEntry::Note { message } => {
                Some(message.clone())
            }
            _ => None,
        })
        .collect();
    Ok(format!(
        "players {players} round {} boards {} pairing_seconds {seconds:.3} peak_rss_kib {}\n{}\n",
        round.round,
        round.pairings.len(),
        peak_rss_kib().map_or("unknown".to_string(), |k| k.to_string()),
        notes.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    const TRF: &str = "012 Test\nXXR 3\nXXC white1\n\
001    1      Alpha, Anna                       2100                             0.0\n\
001    2      Beta, Bob                         2000                             0.0\n\
001    3      Gamma, Gus                        1900                             0.0\n\
001    4      Delta, Dan                        1800                             0.0\n";

    #[test]
    fn pair_prints_the_public_shape() {
        let dir = tourney::scratch::ScratchDir::new("cli").unwrap();
        let f = dir.path().join("t.trf");
        std::fs::write(&f, TRF).unwrap();
        let out = pair(&args(&[f.to_str().unwrap(), "--system", "adjacent"])).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["round"], 1);
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
        // Adjacent: 1-2, 3-4, White to 1 on board 1 (XXC white1), alternating.
        assert_eq!(v["pairings"][0]["white"], 1);
        assert_eq!(v["pairings"][0]["black"], 2);
        assert_eq!(v["pairings"][1]["white"], 4);
        assert!(v["byes"].as_array().unwrap().is_empty());
        assert!(!v["explanation"].as_array().unwrap().is_empty());
    }

    #[test]
    fn bad_input_exits_2_naming_the_line_or_option() {
        let dir = tourney::scratch::ScratchDir::new("cli").unwrap();
        let f = dir.path().join("bad.trf");
        std::fs::write(&f, TRF.replace("XXR 3", "XXR three")).unwrap();
        let e = pair(&args(&[f.to_str().unwrap()])).unwrap_err();
        assert_eq!(e.code, 2);
        assert!(e.message.starts_with("line 2: "), "{}", e.message);
        let g = dir.path().join("t.trf");
        std::fs::write(&g, TRF).unwrap();
        let e = pair(&args(&[g.to_str().unwrap(), "--colour-rule", "3c"])).unwrap_err();
        assert_eq!(e.code, 2);
        assert!(e.message.starts_with("--colour-rule: "), "{}", e.message);
        let e = pair(&args(&[g.to_str().unwrap(), "--colour"])).unwrap_err();
        assert_eq!(e.code, 2);
        let e = pair(&args(&[])).unwrap_err();
        assert_eq!(e.code, 2);
    }

    #[test]
    fn bench_writes_a_history_that_pair_reads() {
        let dir = tourney::scratch::ScratchDir::new("cli").unwrap();
        let f = dir.path().join("bench.trf");
        let path = f.to_str().unwrap();
        let out = bench(&args(&["--players", "40", "--write-trf", path])).unwrap();
        assert_eq!(out, format!("players 40 round 6 written to {path}\n"));
        let v: serde_json::Value = serde_json::from_str(&pair(&args(&[path])).unwrap()).unwrap();
        assert_eq!(v["round"], 6);
        // 40 players, no absences: 20 boards, every player once.
        let boards = v["pairings"].as_array().unwrap();
        assert_eq!(boards.len(), 20);
        let mut seen: Vec<u64> = boards
            .iter()
            .flat_map(|b| [b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()])
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (1..=40).collect::<Vec<u64>>());
    }

    /// The settings reach the timed pairing: in FIDE style it is `pair --fide-style`'s of the
    /// same history, not the US pairing.
    #[test]
    fn bench_pairs_with_the_settings_given() {
        let dir = tourney::scratch::ScratchDir::new("cli").unwrap();
        let f = dir.path().join("bench.trf");
        let path = f.to_str().unwrap();
        bench(&args(&["--players", "40", "--write-trf", path])).unwrap();
        let totals = |out: &str| {
            let at = out.find("totals: ").expect("a totals note");
            out[at..].split(['\n', '"']).next().unwrap().to_string()
        };
        let fide = totals(&bench(&args(&["--players", "40", "--fide-style"])).unwrap());
        let us = totals(&bench(&args(&["--players", "40"])).unwrap());
        assert_eq!(fide, totals(&pair(&args(&[path, "--fide-style"])).unwrap()));
        assert_eq!(us, totals(&pair(&args(&[path])).unwrap()));
        assert_ne!(fide, us);
        let e = bench(&args(&["--players", "40", "--colour-rule", "3c"])).unwrap_err();
        assert_eq!(e.code, 2);
    }

    #[test]
    fn simulate_compares_on_the_same_state() {
        let run = |compare: &str| {
            let j = simulate(&args(&[
                "--players",
                "9",
                "--rounds",
                "4",
                "--seed",
                "3",
                "--seeds",
                "2",
                "--json",
                "--compare",
                compare,
            ]))
            .unwrap();
            serde_json::from_str::<serde_json::Value>(&j).unwrap()
        };
        // A program that pairs nobody: every round compared, this build's figures over the
        // compared rounds are its whole figures, the other's count nothing.
        let v = run("printf '{\"pairings\":[],\"byes\":[]}'; true");
        let same = &v["same_state"];
        assert_eq!(same["rounds"], 8);
        assert_eq!(same["not_paired"], 0);
        for k in [
            "same_colour_clashes",
            "score_difference_sum",
            "alternation_failures",
        ] {
            assert_eq!(same["this"][k], v["totals"][k], "{k}");
        }
        assert!(v["totals"]["alternation_failures"].as_u64().unwrap() > 0);
        assert_eq!(same["other"]["alternation_failures"], 0);
        // A program that fails: no round compared, the event itself unchanged.
        let w = run("false");
        assert_eq!(w["same_state"]["rounds"], 0);
        assert_eq!(w["same_state"]["not_paired"], 8);
        for k in [
            "same_colour_clashes",
            "score_difference_sum",
            "alternation_failures",
        ] {
            assert_eq!(w["totals"][k], v["totals"][k], "{k}");
        }
    }

    #[test]
    fn simulate_prints_a_table_and_json() {
        let t = simulate(&args(&["--players", "9", "--rounds", "4", "--seed", "3"])).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("9 players, 4 rounds, seed 3"));
        assert!(lines.iter().any(|l| l.trim_start().starts_with("total")));
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.trim_start().starts_with(char::is_numeric))
                .count(),
            5 // the header line "9 players" and rounds 1-4
        );
        let j = simulate(&args(&[
            "--players",
            "9",
            "--rounds",
            "4",
            "--seed",
            "3",
            "--json",
            "--system",
            "adjacent",
        ]))
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["per_round"].as_array().unwrap().len(), 4);
        assert_eq!(v["totals"]["rematches"], 0);
        let e = simulate(&args(&["--players", "9"])).unwrap_err();
        assert_eq!(e.code, 2);
    }
}
