//! The command line: each command in a module of its own; `main.rs` dispatches to them.
//! `serve` runs the server; `pair`, `simulate` and `check` run the Swiss engines on TRF files,
//! `tiebreaks` the tie-breaks;
//! `backup` and `restore` copy the database; the hidden `bench-*` commands measure.

pub mod backup;
pub mod bench_bridge;
pub mod bench_bridge_swiss;
pub mod bench_dutch;
pub mod bench_http;
pub mod bench_live_client;
pub mod check;
pub mod serve;
pub mod swiss;
pub mod tiebreaks;

/// A command's failure: the exit code and the message printed on stderr.
#[derive(Debug, PartialEq, Eq)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

pub const USAGE: &str = "\
tourney - event server for chess and bridge tournament directors

USAGE:
    tourney serve [--listen ADDR:PORT] [--db PATH] [--cors-origin ORIGIN]...
        Serve the API until stopped (Ctrl-C); `tourney serve --help` says more.
    tourney openapi
        Print the OpenAPI document.
    tourney pair FILE.trf [--system swiss|adjacent|fide_dutch|fide_burstein|fide_dubov|
                 fide_lim]
                 [--colour-rule 3a|3b]
                 [--high-limit N] [--low-limit N] [--fide-style] [--seed S]
        Pair the next round of a Swiss section (FIDE TRF file, - for stdin) and print it as
        JSON. A bad file or option exits with code 2 (\"line N: ...\" on stderr).
    tourney simulate --players N --rounds R [--seed S] [--system ...] [--colour-rule ...]
                 [--high-limit N] [--low-limit N] [--fide-style] [--json]
        Play whole Swiss events with rating-based random results and print quality figures
        per round (rematches, byes, score groups, colours, pairing time) and totals.
    tourney check FILE.trf --system fide_dutch|fide_burstein|fide_dubov|fide_lim [--json]
        Re-pair every round of a finished event (FIDE TRF) by the FIDE Dutch (Burstein, Dubov,
        Lim) system and list
        the rounds whose boards, colours or pairing bye differ from the file's (exit code 1
        when some differ).
    tourney tiebreaks FILE.trf [--tiebreaks BH/C1,BH,DE,...] [--rules 2023|2026]
                 [--format swiss|round_robin] [--unrated RATING]
        The standings of a TRF file with FIDE tie-breaks (C.07 codes, comma-separated) by
        either text of C.07 (default: by the file's start date), one tab-separated line per
        player in start-number order: No, Rank, Points, the values (- for none).
    tourney backup [--db PATH] OUT
        Copy the database (default ./tourney.db, or TOURNEY_DB) to OUT, consistently, while
        the server runs; the copy is integrity-checked. OUT must not exist.
    tourney restore [--db PATH] BACKUP
        Replace the database with BACKUP after checking its integrity. Stop the server first.
    tourney --help | --version
";
