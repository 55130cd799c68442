//! `tourney`: the command line, a dispatcher over `cli` (one module per command). `tourney
//! serve` runs the server; `tourney --help` lists the rest.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("info,actix_server=warn"),
    )
    .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => cli::serve::serve(&args[1..]),
        Some("openapi") => {
            print!("{}", tourney::api::openapi::document_json());
            Ok(())
        }
        Some(
            cmd @ ("pair" | "simulate" | "tiebreaks" | "bench-swiss" | "bench-bridge"
            | "bench-bridge-swiss" | "bench-dutch"),
        ) => {
            let run: fn(&[String]) -> Result<String, cli::CliError> = match cmd {
                "pair" => cli::swiss::pair,
                "tiebreaks" => cli::tiebreaks::tiebreaks,
                "simulate" => cli::swiss::simulate,
                "bench-bridge" => cli::bench_bridge::bench,
                "bench-bridge-swiss" => cli::bench_bridge_swiss::bench,
                "bench-dutch" => cli::bench_dutch::bench,
                _ => cli::swiss::bench,
            };
            return match run(&args[1..]) {
                Ok(out) => {
                    print!("{out}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{}", e.message);
                    ExitCode::from(e.code)
                }
            };
        }
        Some("check") => {
            return match cli::check::check(&args[1..]) {
                Ok((out, all_same)) => {
                    print!("{out}");
                    ExitCode::from(u8::from(!all_same))
                }
                Err(e) => {
                    eprintln!("{}", e.message);
                    ExitCode::from(e.code)
                }
            };
        }
        Some("backup") => cli::backup::backup_or_restore(false, &args[1..]),
        Some("restore") => cli::backup::backup_or_restore(true, &args[1..]),
        Some("bench-live-client") => cli::bench_live_client::run(&args[1..]),
        Some("bench-http") => cli::bench_http::run(&args[1..]).map(|report| print!("{report}")),
        Some("help") | Some("--help") | Some("-h") => {
            print!("{}", cli::USAGE);
            Ok(())
        }
        Some("--version") | Some("-V") | Some("version") => {
            println!("tourney {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        None => Err(format!("no command given\n\n{}", cli::USAGE)),
        Some(other) => Err(format!("unknown command {other:?}\n\n{}", cli::USAGE)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tourney: {e}");
            ExitCode::FAILURE
        }
    }
}
