//! `tourney`: the command line. `tourney serve` runs the server; `tourney openapi` prints the
//! OpenAPI document; `tourney pair` and `tourney simulate` run the Swiss engine.

mod bench_http;
mod swiss_cli;

use std::net::TcpListener;
use std::process::ExitCode;

use tourney::config::ServeConfig;

const USAGE: &str = "\
tourney - event server for chess and bridge tournament directors

USAGE:
    tourney serve [--listen ADDR:PORT] [--db PATH]
        Serve the API (default 127.0.0.1:8080, database ./tourney.db; also TOURNEY_LISTEN,
        TOURNEY_DB). Docs at /docs, the OpenAPI document at /openapi.json.
    tourney openapi
        Print the OpenAPI document.
    tourney pair FILE.trf [--system swiss|adjacent] [--colour-rule 3a|3b] [--high-limit N]
                 [--low-limit N] [--fide-style] [--seed S]
        Pair the next round of a Swiss section (FIDE TRF file, - for stdin) and print it as
        JSON. A bad file or option exits with code 2 (\"line N: ...\" on stderr).
    tourney simulate --players N --rounds R [--seed S] [--system ...] [--colour-rule ...]
                 [--high-limit N] [--low-limit N] [--fide-style] [--json]
        Play whole Swiss events with rating-based random results and print quality figures
        per round (rematches, byes, score groups, colours, pairing time) and totals.
";

fn serve(args: &[String]) -> Result<(), String> {
    let config = ServeConfig::from_args(args, |k| std::env::var(k).ok())?;
    let store = tourney::store::Store::open(&config.db)?;
    let listener = TcpListener::bind(&config.listen)
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    log::info!(
        "tourney listening on http://{} (database {})",
        config.listen,
        config.db.display()
    );
    eprintln!(
        "tourney listening on http://{}  (docs: http://{}/docs, database {})",
        config.listen,
        config.listen,
        config.db.display()
    );
    actix_web::rt::System::new().block_on(async move {
        tourney::server::build(listener, store)
            .map_err(|e| format!("cannot start the server: {e}"))?
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        Some("openapi") => {
            print!("{}", tourney::api::openapi::document_json());
            Ok(())
        }
        Some(cmd @ ("pair" | "simulate" | "bench-swiss")) => {
            let run: fn(&[String]) -> Result<String, swiss_cli::CliError> = match cmd {
                "pair" => swiss_cli::pair,
                "simulate" => swiss_cli::simulate,
                _ => swiss_cli::bench,
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
        Some("bench-http") => bench_http::run(&args[1..]).map(|report| print!("{report}")),
        Some("help") | Some("--help") | Some("-h") => {
            print!("{USAGE}");
            Ok(())
        }
        None => Err(format!("no command given\n\n{USAGE}")),
        Some(other) => Err(format!("unknown command {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tourney: {e}");
            ExitCode::FAILURE
        }
    }
}
