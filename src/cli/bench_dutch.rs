//! Hidden `tourney bench-dutch FILE [--round N] [--trf-out PATH]`: times the FIDE Dutch
//! engine on round N (default: the last) of a finished TRF, paired from the history before
//! it, says whether it equals the published round, and writes that history as a TRF for
//! another program (bbpPairings `-p`) to pair the same round (scripts/bench-dutch).

use super::CliError;
use std::time::Instant;
use tourney::engine::chess::swiss::dutch::check::state_before;
use tourney::engine::chess::swiss::dutch::{pair_dutch_accelerated, read_acceleration};
use tourney::engine::chess::swiss::trf::{decode_trf, parse_trf_located, write_trf};
use tourney::engine::chess::swiss::{ByeKind, Colour};
use tourney::engine::matching::BlossomSolver;

fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// The subcommand; its report is one line of `key=value` figures.
pub fn bench(args: &[String]) -> Result<String, CliError> {
    let mut file = None;
    let mut round = None;
    let mut trf_out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--round" => {
                let v = it.next().ok_or_else(|| usage("--round needs a number"))?;
                round = Some(
                    v.parse::<u32>()
                        .map_err(|_| usage("--round needs a number"))?,
                );
            }
            "--trf-out" => {
                trf_out = Some(it.next().ok_or_else(|| usage("--trf-out needs a path"))?)
            }
            x if x.starts_with("--") => return Err(usage(format!("unknown option {x}"))),
            x if file.is_none() => file = Some(x.to_string()),
            x => return Err(usage(format!("one file only; {x:?} is extra"))),
        }
    }
    let file = file.ok_or_else(|| usage("bench-dutch needs a TRF file"))?;
    let bytes = std::fs::read(&file).map_err(|e| usage(format!("cannot read {file}: {e}")))?;
    let text = decode_trf(&bytes);
    let (state, _) = parse_trf_located(&text).map_err(|e| usage(e.to_string()))?;
    let accel = read_acceleration(&text, &state).map_err(usage)?;
    let played = state.rounds_played();
    let round = round.unwrap_or(played);
    if round == 0 || round > played {
        return Err(usage(format!("the file has rounds 1 to {played}")));
    }
    let before = state_before(&state, round);
    if let Some(path) = trf_out {
        let mut trf = write_trf(&before, "bench-dutch");
        // Requested byes and absences of the round, as the file has them.
        trf.push('\n');
        std::fs::write(path, trf).map_err(|e| usage(format!("cannot write {path}: {e}")))?;
    }
    let start = Instant::now();
    let pairing = pair_dutch_accelerated(&before, &BlossomSolver, &accel)
        .map_err(|e| usage(e.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    let r = round as usize - 1;
    let mut published: Vec<(u32, u32)> = state
        .players
        .iter()
        .filter_map(|p| {
            let rec = p.history.get(r)?;
            (rec.colour == Some(Colour::White)).then_some((p.start_number, rec.opponent?))
        })
        .collect();
    published.sort_unstable();
    let mut ours: Vec<(u32, u32)> = pairing
        .pairings
        .iter()
        .map(|b| (b.white, b.black))
        .collect();
    ours.sort_unstable();
    let same_bye = pairing
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pairing)
        .map(|b| b.player)
        == state.players.iter().find_map(|p| {
            (p.history.get(r)?.result == tourney::engine::chess::swiss::RoundResult::PairingBye)
                .then_some(p.start_number)
        });
    let players = before.players.len() - before.absent.len() - before.requested_byes.len();
    Ok(format!(
        "players={players} round={round} seconds={seconds:.3} boards={} same_as_file={}\n",
        pairing.pairings.len(),
        ours == published && same_bye
    ))
}
