//! `tourney tiebreaks FILE.trf`: the standings of a TRF file with any FIDE tie-breaks, by
//! either text of C.07, as the server computes them, one tab-separated line per player. What
//! `scripts/tiebreak-agreement` compares with FIDE's TieBreakServer.

use tourney::engine::chess::scoring::{self, Section, TiebreakOrder, TiebreakRules};
use tourney::engine::chess::swiss::trf::{decode_trf, parse_trf};
use tourney::engine::chess::swiss::trf_header::{records, TrfHeader};

use super::CliError;

fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// `tourney tiebreaks FILE.trf [--tiebreaks BH/C1,SB,...] [--rules 2023|2026]
/// [--format swiss|round_robin] [--unrated N]`
pub fn tiebreaks(args: &[String]) -> Result<String, CliError> {
    let mut file = None;
    let mut list = "BH/C1,BH,DE,ARO/C1,WIN,BPG".to_string();
    let mut rules = None;
    let mut format = None;
    let mut unrated = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| usage(format!("{a} needs a value")))
        };
        match a.as_str() {
            "--tiebreaks" => list = value()?,
            "--rules" => rules = Some(value()?),
            "--format" => format = Some(value()?),
            "--unrated" => {
                unrated = Some(
                    value()?
                        .parse::<i32>()
                        .map_err(|_| usage("--unrated needs a rating"))?,
                )
            }
            x if x.starts_with("--") => return Err(usage(format!("unknown option {x}"))),
            x if file.is_none() => file = Some(x.to_string()),
            x => return Err(usage(format!("one file only; {x:?} is extra"))),
        }
    }
    let file = file.ok_or_else(|| usage("tiebreaks needs a TRF file"))?;
    let bytes = if file == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .map_err(|e| usage(format!("cannot read stdin: {e}")))?;
        b
    } else {
        std::fs::read(&file).map_err(|e| usage(format!("cannot read {file}: {e}")))?
    };
    let text = decode_trf(&bytes);
    let header = TrfHeader::read(&text).map_err(|e| usage(e.to_string()))?;
    let state = parse_trf(&text).map_err(|e| usage(e.to_string()))?;
    let order = TiebreakOrder::List(list.split(',').map(|t| t.trim().to_string()).collect());
    let asked = order.resolve().map_err(|errors| {
        usage(
            errors
                .iter()
                .map(|(i, m)| format!("tie-break {}: {m}", i + 1))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let rules = match rules.as_deref() {
        None => TiebreakRules::for_event(None, header.start_date),
        Some("2023") => TiebreakRules::C2023,
        Some("2026") => TiebreakRules::C2026,
        Some(x) => return Err(usage(format!("--rules 2023 or 2026, not {x:?}"))),
    };
    let predetermined = match format.as_deref() {
        None => header.round_robin(),
        Some("swiss") => false,
        Some("round_robin") => true,
        Some(x) => return Err(usage(format!("--format swiss or round_robin, not {x:?}"))),
    };
    let mut players: Vec<_> = state.players.iter().collect();
    players.sort_by_key(|p| p.start_number);
    let ratings: Vec<Option<i32>> = players
        .iter()
        .map(|p| (!p.unrated && p.rating > 0).then_some(p.rating as i32))
        .collect();
    let numbers: Vec<Option<u32>> = players.iter().map(|p| Some(p.start_number)).collect();
    let (games, byes) = records(&state);
    let section = Section {
        games: &games,
        byes: &byes,
        ratings: &ratings,
        pairing_numbers: &numbers,
        predetermined,
        rules,
        unrated_rating: unrated,
        final_round: state.settings.total_rounds,
    };
    let standing = scoring::standings_of(players.len(), &section, &asked);
    let mut by_player = vec![None; players.len()];
    for s in &standing {
        by_player[s.player] = Some(s);
    }
    let mut out = format!(
        "No\tRank\tPoints\t{}\n",
        asked
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join("\t")
    );
    for (p, s) in players.iter().zip(by_player) {
        let s = s.expect("every player ranked");
        out.push_str(&format!(
            "{}\t{}\t{}",
            p.start_number,
            s.rank,
            s.half_points as f64 / 2.0
        ));
        for (a, v) in asked.iter().zip(&s.values) {
            let unit = scoring::unit(a.tiebreak.code) as f64;
            match v {
                Some(v) => out.push_str(&format!("\t{}", *v as f64 / unit)),
                None => out.push_str("\t-"),
            }
        }
        out.push('\n');
    }
    Ok(out)
}
