//! `tourney serve`: the server on a database until Ctrl-C.

use std::net::TcpListener;

use tourney::config::ServeConfig;

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

pub fn serve(args: &[String]) -> Result<(), String> {
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
