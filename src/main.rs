//! `tourney`: the command line. `tourney serve` runs the server; `tourney openapi` prints the
//! OpenAPI document; `tourney pair` and `tourney simulate` run the Swiss engine; the hidden
//! `bench-swiss`, `bench-bridge` and `bench-bridge-swiss` measure the Swiss pairing, a bridge
//! session's upload and the bridge Swiss draw; `bench-dutch` the FIDE Dutch engine.

mod bench_http;
mod bridge_bench;
mod bridge_swiss_bench;
mod dutch_bench;
mod dutch_cli;
mod swiss_cli;

use std::net::TcpListener;
use std::process::ExitCode;

use tourney::config::ServeConfig;

const USAGE: &str = "\
tourney - event server for chess and bridge tournament directors

USAGE:
    tourney serve [--listen ADDR:PORT] [--db PATH] [--cors-origin ORIGIN]...
        Serve the API until stopped (Ctrl-C); `tourney serve --help` says more.
    tourney openapi
        Print the OpenAPI document.
    tourney pair FILE.trf [--system swiss|adjacent|fide_dutch] [--colour-rule 3a|3b] [--high-limit N]
                 [--low-limit N] [--fide-style] [--seed S]
        Pair the next round of a Swiss section (FIDE TRF file, - for stdin) and print it as
        JSON. A bad file or option exits with code 2 (\"line N: ...\" on stderr).
    tourney simulate --players N --rounds R [--seed S] [--system ...] [--colour-rule ...]
                 [--high-limit N] [--low-limit N] [--fide-style] [--json]
        Play whole Swiss events with rating-based random results and print quality figures
        per round (rematches, byes, score groups, colours, pairing time) and totals.
    tourney check FILE.trf --system fide_dutch [--json]
        Re-pair every round of a finished event (FIDE TRF) by the FIDE Dutch system and list
        the rounds whose boards, colours or pairing bye differ from the file's (exit code 1
        when some differ).
    tourney backup [--db PATH] OUT
        Copy the database (default ./tourney.db, or TOURNEY_DB) to OUT, consistently, while
        the server runs; the copy is integrity-checked. OUT must not exist.
    tourney restore [--db PATH] BACKUP
        Replace the database with BACKUP after checking its integrity. Stop the server first.
    tourney --help | --version
";

const SERVE_USAGE: &str = "\
tourney serve - serve the API (it holds the terminal; stop it with Ctrl-C)

USAGE:
    tourney serve [--listen ADDR:PORT] [--db PATH] [--cors-origin ORIGIN]...

OPTIONS:
    --listen ADDR:PORT     Where to listen (default 127.0.0.1:8080; port 0 picks a free one).
                           Also TOURNEY_LISTEN.
    --db PATH              The SQLite database, created if missing (default ./tourney.db).
                           Also TOURNEY_DB.
    --cors-origin ORIGIN   A web origin (https://club.example) whose pages may write; repeat
                           or comma-separate for several. Also TOURNEY_CORS_ORIGINS. Default
                           none; every origin may read.

ENVIRONMENT:
    TOURNEY_SYNCHRONOUS    normal (default: WAL never corrupts, a power cut may lose the last
                           commits) or full (every answered change survives a power cut).
    TOURNEY_ADMIN_TOKEN    The server admin token (GET /api/v1/admin/backup), 16 characters or
                           more; unset: the one in PATH.admin-token, created at first start.

The first line on stderr says where it listens. Docs at /docs, the OpenAPI document at
/openapi.json.
";

fn serve(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{SERVE_USAGE}");
        return Ok(());
    }
    let config = ServeConfig::from_args(args, |k| std::env::var(k).ok())?;
    // freed memory shared by the threads and given back (see `tourney::memory`)
    tourney::memory::limit_arenas(2);
    tourney::memory::give_back_every(std::time::Duration::from_secs(30));
    let store = tourney::store::Store::open(&config.db)?;
    let listener = TcpListener::bind(&config.listen)
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    eprintln!(
        "tourney listening on http://{address}  (docs: http://{address}/docs, database {}; Ctrl-C stops it)",
        config.db.display()
    );
    let cors = tourney::server::CorsPolicy {
        write_origins: config.cors_origins,
    };
    actix_web::rt::System::new().block_on(async move {
        tourney::server::build_with(listener, store, cors)
            .map_err(|e| format!("cannot start the server: {e}"))?
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

/// `backup` and `restore`: `[--db PATH] FILE`.
fn backup_or_restore(restore: bool, args: &[String]) -> Result<(), String> {
    let mut db = std::env::var("TOURNEY_DB")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tourney.db".into());
    let mut file = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--db" => db = rest.next().ok_or("--db needs a path")?.clone(),
            a if a.starts_with("--db=") => db = a["--db=".len()..].to_string(),
            a if a.starts_with('-') => return Err(format!("unknown option {a:?}\n\n{USAGE}")),
            a if file.is_none() => file = Some(a.to_string()),
            a => return Err(format!("one file only; {a:?} is extra")),
        }
    }
    let file = file.ok_or_else(|| format!("name the file\n\n{USAGE}"))?;
    let (db, file) = (std::path::Path::new(&db), std::path::Path::new(&file));
    if restore {
        tourney::store::backup::restore(file, db)?;
        eprintln!(
            "restored {} from {} (integrity ok)",
            db.display(),
            file.display()
        );
    } else {
        tourney::store::backup::backup(db, file)?;
        eprintln!(
            "backed up {} to {} (integrity ok)",
            db.display(),
            file.display()
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("info,actix_server=warn"),
    )
    .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        Some("openapi") => {
            print!("{}", tourney::api::openapi::document_json());
            Ok(())
        }
        Some(
            cmd @ ("pair" | "simulate" | "bench-swiss" | "bench-bridge" | "bench-bridge-swiss"
            | "bench-dutch"),
        ) => {
            let run: fn(&[String]) -> Result<String, swiss_cli::CliError> = match cmd {
                "pair" => swiss_cli::pair,
                "simulate" => swiss_cli::simulate,
                "bench-bridge" => bridge_bench::bench,
                "bench-bridge-swiss" => bridge_swiss_bench::bench,
                "bench-dutch" => dutch_bench::bench,
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
        Some("check") => {
            return match dutch_cli::check(&args[1..]) {
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
        Some("backup") => backup_or_restore(false, &args[1..]),
        Some("restore") => backup_or_restore(true, &args[1..]),
        Some("bench-http") => bench_http::run(&args[1..]).map(|report| print!("{report}")),
        Some("help") | Some("--help") | Some("-h") => {
            print!("{USAGE}");
            Ok(())
        }
        Some("--version") | Some("-V") | Some("version") => {
            println!("tourney {}", env!("CARGO_PKG_VERSION"));
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
