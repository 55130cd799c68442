//! Every bound the server enforces on what a request may ask for, written once.
//!
//! A request that asks for more gets a 422 naming the field; the OpenAPI schema shows the same
//! numbers (`minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `maxItems`), taken from
//! these constants through the documentation types of [`schema`]. The bounds are
//! generous for what directors run, and small enough that no single request can take the
//! server's memory or more than its share of CPU (see [`pairing_budget`]).
//!
//! Bounds that belong to one engine's tables stay beside the engine and are listed here:
//! Scheveningen 2 to 20 boards ([`crate::engine::chess::scheveningen::MAX_BOARDS`]), Hilton 4
//! to 26 teams of up to 100 boards ([`crate::engine::chess::hilton::MAX_TEAMS`],
//! [`crate::engine::chess::hilton::MAX_BOARDS`], also the largest team), bridge movements of
//! up to 60 Mitchell or 30 Howell tables and 8 boards a round (the generators' own checks),
//! the movement recommender up to 200 pairs and boards.

use std::time::Duration;

pub mod schema;

/// Rounds of a paired event: `settings.rounds` of a Swiss event, `?rounds=` of the stateless
/// pairing, TRF `XXR`/`142`, the engine's `total_rounds` and history, a round a bye is asked
/// for. The longest Swiss events run 9 to 15 rounds. (Round robins have the rounds of their
/// table, bounded by [`MAX_ROUND_ROBIN_PLAYERS`].)
pub const MAX_ROUNDS: u32 = 99;

/// Players of a Swiss section (stateless pairing, TRF import, an event's pairing): the size
/// the engine is benchmarked at (`scripts/bench-swiss`: 8 s in a release build, target 20 s),
/// five times the largest open Swiss sections.
pub const MAX_SECTION_PLAYERS: usize = 10_000;

/// Players of a section paired by the FIDE Dutch system (`system: fide_dutch`): the section
/// bound. Its engine hands each bracket's solve every pair inside the bracket (the pairs
/// with at most one end in it are priced in lazily), so the memory of a round grows with
/// the square of its largest bracket, about 35 bytes a pair (each pair's ends and packed
/// values and its place in its two players' lists; costs, flags and the lists of the
/// solver's edges are worked out or kept per edge in bits). The worst case is one score
/// group of the whole field (round 2 after a round 1 of draws only): release build,
/// `tourney bench-swiss --players 9999 --shape one-group --round 2 --write-trf F`, then
/// `tourney pair --system fide_dutch F`, whole process, 2-core machine: 16.5 s CPU and
/// 1.76 GiB peak; 5 000 players 5.8 s CPU and 475 MiB. The other shapes of
/// `scripts/bench-swiss shapes` take at most 718 MiB at 9 999 players (figures in
/// docs/performance.md).
pub const MAX_DUTCH_PLAYERS: usize = 10_000;

/// Players of a section paired by the FIDE Burstein system (`system: fide_burstein`). Its
/// engine fixes the score groups with every pair inside a group (and between a group and
/// the one below) as an edge, and pairs each group with one matching over all the players,
/// so memory and time grow with the square of the largest score group, the seeding halves
/// of rounds 1 and 2 (figures in the module doc of
/// [`crate::engine::chess::swiss::burstein`]).
pub const MAX_BURSTEIN_PLAYERS: usize = 3_000;

/// Players of a section paired by the FIDE Dubov system (`system: fide_dubov`). A score
/// group's own pairs are all edges of its solves, and a group that needs many upfloaters and
/// shifters takes a solve per player it settles, so the worst rounds grow faster than the
/// field: release build, `tourney bench-swiss --players N --system fide_dubov --round 3`
/// (greedy histories, most of a score group due the same colour; 2-core machine shared with
/// other builds, load ~10, CPU user+sys of `tourney pair` on the `--write-trf` history):
/// 1 000 players 2.0 s and 58 MB (`--shape one-group` 5.9 s); a played event
/// (`tourney simulate --players 1000 --rounds 9 --system fide_dubov`) at most 0.11 s a
/// round. Beyond this bound a 422 names `players`.
pub const MAX_DUBOV_PLAYERS: usize = 1_000;

/// Players of a section paired by the FIDE Lim system (`system: fide_lim`). A score group
/// whose proposed pairing does not stand is one solve over its own pairs (a complete graph
/// of the group), so time and memory grow with the square of the largest group: release
/// build, 1 000 players, a played event (`tourney simulate --players 1000 --rounds 9 --system
/// fide_lim`) at most 0.37 s a round, the greedy histories of `tourney bench-swiss --system
/// fide_lim --round 3` 1.2 s and 49 MB (CPU user+sys of `tourney pair` on the `--write-trf`
/// history); `--shape open` rounds 5, 6 and 8 take 32-39 s. Beyond this bound a 422 names
/// `players`.
pub const MAX_LIM_PLAYERS: usize = 1_000;

/// A start (pairing) number of a Swiss state sent as JSON. (A TRF file holds four digits,
/// see [`crate::engine::chess::swiss::trf::MAX_TRF_START_NUMBER`].)
pub const MAX_START_NUMBER: u32 = 99_999;

/// Participants of one event (every format); the Swiss section bound, since a Swiss event is
/// the largest kind.
pub const MAX_PARTICIPANTS: usize = MAX_SECTION_PLAYERS;

/// Participants entered by one bulk request.
pub const MAX_BULK_PARTICIPANTS: usize = 5_000;

/// Results entered by one request: every game of the largest round.
pub const MAX_RESULTS: usize = MAX_PARTICIPANTS / 2;

/// Players of a round robin (Berger tables, round robin events): 100 players make a 99-round
/// event, far beyond any all-play-all a director runs, and a double table of 100 players is a
/// 0.4 MB answer (1000 players made it 38 MB).
pub const MAX_ROUND_ROBIN_PLAYERS: u32 = 100;

/// Rounds of the longest chess event: a double round robin of [`MAX_ROUND_ROBIN_PLAYERS`].
pub const MAX_EVENT_ROUNDS: u32 = 2 * (MAX_ROUND_ROBIN_PLAYERS - 1);

/// Pairs a director prohibits in one section (family members, team-mates beyond the club
/// rule): a handful in practice.
pub const MAX_PROHIBITED_PAIRS: usize = 1_000;

/// A rating (Elo and national scales all stay well below).
pub const MAX_RATING: u32 = 4_000;

/// A director's score adjustment, in half-points either way: at most every round's point.
pub const MAX_ADJUSTMENT_HALF_POINTS: i32 = 2 * MAX_ROUNDS as i32;

/// Sections of one tournament (a weekend open has a handful, a big bridge night a few more).
pub const MAX_TOURNAMENT_SECTIONS: usize = 50;

/// A name (event, participant, team, token label).
pub const MAX_NAME_CHARS: usize = 200;

/// Deputy arbiters an event's details name (TRF `112` lines).
pub const MAX_DEPUTY_ARBITERS: usize = 20;

/// A short code or identifier (club, federation, external id, team code, section label).
pub const MAX_CODE_CHARS: usize = 64;

/// A seed of the random choices (a draw of lots, a Swiss section's coin flips): stored in
/// SQLite's signed 64-bit integers.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Items per page of a list.
pub const MAX_PAGE_LIMIT: u32 = 500;

/// Items to skip in a list: SQLite counts in signed 64-bit integers.
pub const MAX_OFFSET: u64 = i64::MAX as u64;

/// How long a request body may take to arrive whole before the request is cut with 408.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Largest request body accepted (bulk participant lists, TRF files of 9 999 players).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// Largest event document accepted by `POST /api/v1/events/import` (an exported 2 000-player
/// Swiss event with one round is 0.86 MB; a 10 000-player one after 9 rounds stays well under).
pub const MAX_IMPORT_BYTES: usize = 64 * 1024 * 1024;

/// A bridge movement sent for checking: rounds and tables.
pub const MAX_MOVEMENT_ROUNDS: usize = 500;
/// See [`MAX_MOVEMENT_ROUNDS`].
pub const MAX_MOVEMENT_TABLES: u32 = 1_000;
/// The most pairs a movement may name: two a table and a rover at the largest room.
pub const MAX_MOVEMENT_PAIRS: usize = 2 * MAX_MOVEMENT_TABLES as usize + 2;
/// Pair, set and board numbers of a movement: four digits, as on every guide card and
/// traveller (and far above 2 pairs a table of [`MAX_MOVEMENT_TABLES`]).
pub const MAX_MOVEMENT_NUMBER: u32 = 9_999;

/// What is wrong with a text a client sent (a name, a code, a label), if anything: more than
/// `max` characters, or a control character (a line break or a tab in a name would forge
/// lines and cells of the TRF and CSV files it is written to; so would the Unicode line and
/// paragraph separators in readers that take them as line breaks; a bidirectional embedding,
/// override or isolate would reorder the rest of a standings line or file as displayed).
/// The one rule of every text field, at the API (`domain::validate_text`) and inside engine
/// inputs (Swiss states, movements).
pub fn text_fault(text: &str, max: usize) -> Option<String> {
    if text.chars().count() > max {
        Some(format!("must be at most {max} characters"))
    } else {
        text.chars().find(|&c| is_control(c)).map(|c| {
            format!(
                "must not hold control characters (found U+{:04X})",
                c as u32
            )
        })
    }
}

/// A control character, a line or paragraph separator, or a bidirectional embedding,
/// override or isolate (U+202A..U+202E, U+2066..U+2069). The marks U+200E and U+200F, which
/// reorder nothing beyond themselves, are letters' business and allowed.
pub(crate) fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The whole number (at least 1) the environment variable `name` holds, or `default` when it
/// is unset, not a number or 0: the server's numeric settings (`TOURNEY_PAIRING_SECONDS`,
/// `TOURNEY_WRITE_WAIT_SECONDS`, `TOURNEY_AUTH_FAILURES`).
pub(crate) fn setting_from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(default)
}

/// Default wall-clock budget of one pairing (seconds); see [`pairing_budget`].
pub const DEFAULT_PAIRING_SECONDS: u64 = 60;

/// How long one Swiss pairing (stateless `POST /api/v1/pairings/swiss`, or pairing an event's
/// round) may run before it is stopped with a 503: `TOURNEY_PAIRING_SECONDS` (a whole number
/// of seconds, at least 1), default [`DEFAULT_PAIRING_SECONDS`] (three times the benchmarked
/// time of a 10 000-player round). The matching solver asks it before every blossom stage, so
/// a pairing stops within one stage (and one pricing pass) of the budget being spent or of
/// its client leaving. Measured on a debug build with a 3000-player state: budgets of 1, 3
/// and 6 s answered 503 after 2.1, 4.6 and 6.8 s (JSON parsing before the budget starts
/// included).
pub fn pairing_budget() -> Duration {
    static BUDGET: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        Duration::from_secs(setting_from_env(
            "TOURNEY_PAIRING_SECONDS",
            DEFAULT_PAIRING_SECONDS,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_setting_is_a_whole_number_of_at_least_one_or_its_default() {
        // A name no other code reads, so no other test sees it change.
        let name = "TOURNEY_TEST_SETTING_FROM_ENV";
        std::env::remove_var(name);
        assert_eq!(setting_from_env(name, 7), 7, "unset");
        for (value, expected) in [(" 12 ", 12), ("0", 7), ("-3", 7), ("ten", 7), ("", 7)] {
            std::env::set_var(name, value);
            assert_eq!(setting_from_env(name, 7), expected, "{value:?}");
        }
        std::env::remove_var(name);
    }

    /// The document shows every bound: most through the documentation types of [`schema`]
    /// (taken from these constants), a few as literals (`maxItems`, which utoipa takes only
    /// as a literal): this keeps every copy equal to the constant it documents.
    #[test]
    fn the_schema_shows_the_limits_the_server_enforces() {
        let doc: Value = serde_json::from_str(&crate::api::openapi::document_json()).unwrap();
        // a property's or parameter's schema, through a `$ref` and a `oneOf` with `null`
        let resolve = |mut s: Value| -> Value {
            loop {
                if let Some(r) = s["$ref"].as_str() {
                    let name = r.trim_start_matches("#/components/schemas/");
                    s = doc["components"]["schemas"][name].clone();
                } else if let Some(items) = s["oneOf"].as_array() {
                    match items.iter().find(|i| i["type"] != "null") {
                        Some(i) => s = i.clone(),
                        None => return s,
                    }
                } else {
                    return s;
                }
            }
        };
        let schema = |name: &str, prop: &str, key: &str| -> Value {
            let prop = &doc["components"]["schemas"][name]["properties"][prop];
            match &prop[key] {
                Value::Null => resolve(prop.clone())[key].clone(),
                shown => shown.clone(),
            }
        };
        let param = |path: &str, name: &str, key: &str| -> Value {
            let params = doc["paths"][path]["get"]["parameters"]
                .as_array()
                .or_else(|| doc["paths"][path]["post"]["parameters"].as_array())
                .unwrap_or_else(|| panic!("{path} has no parameters"));
            let p = params.iter().find(|p| p["name"] == name).unwrap();
            resolve(p["schema"].clone())[key].clone()
        };
        let rounds = Value::from(MAX_ROUNDS);
        let rating = Value::from(MAX_RATING);
        let name = Value::from(MAX_NAME_CHARS);
        let code = Value::from(MAX_CODE_CHARS);
        let players = Value::from(MAX_SECTION_PLAYERS);
        let checks = [
            (schema("NewParticipant", "name", "maxLength"), &name),
            (schema("NewParticipant", "rating", "maximum"), &rating),
            (schema("NewParticipant", "club", "maxLength"), &code),
            (schema("NewParticipant", "federation", "maxLength"), &code),
            (schema("NewParticipant", "external_id", "maxLength"), &code),
            (schema("ParticipantPatch", "name", "maxLength"), &name),
            (schema("ParticipantPatch", "rating", "maximum"), &rating),
            (schema("ParticipantPatch", "club", "maxLength"), &code),
            (schema("NewSwissEvent", "name", "maxLength"), &name),
            (schema("EventPatch", "name", "maxLength"), &name),
            (schema("NewBye", "round", "maximum"), &rounds),
            (schema("NewTeam", "name", "maxLength"), &name),
            (
                schema("Movement", "tables", "maximum"),
                &Value::from(MAX_MOVEMENT_TABLES),
            ),
            (
                schema("Movement", "rounds", "maxItems"),
                &Value::from(MAX_MOVEMENT_ROUNDS),
            ),
            (schema("NewScorerToken", "label", "maxLength"), &name),
            (
                schema("SubmitResults", "results", "maxItems"),
                &Value::from(MAX_RESULTS),
            ),
            (
                schema("BulkParticipants", "participants", "maxItems"),
                &Value::from(MAX_BULK_PARTICIPANTS),
            ),
            (schema("SwissPlayer", "name", "maxLength"), &name),
            (schema("SwissPlayer", "team", "maxLength"), &code),
            (schema("SwissPlayer", "rating", "maximum"), &rating),
            (schema("SwissPlayer", "history", "maxItems"), &rounds),
            (
                schema("SwissPlayer", "start_number", "maximum"),
                &Value::from(MAX_START_NUMBER),
            ),
            (
                schema("SwissPlayer", "adjustment_half_points", "maximum"),
                &Value::from(MAX_ADJUSTMENT_HALF_POINTS),
            ),
            (
                schema("SwissPlayer", "adjustment_half_points", "minimum"),
                &Value::from(-MAX_ADJUSTMENT_HALF_POINTS),
            ),
            (schema("SwissState", "players", "maxItems"), &players),
            (schema("SwissState", "requested_byes", "maxItems"), &players),
            (schema("SwissState", "absent", "maxItems"), &players),
            (schema("SwissState", "round", "maximum"), &rounds),
            (schema("SwissSettings", "total_rounds", "maximum"), &rounds),
            (
                schema("SwissSettings", "team_avoidance_rounds", "maximum"),
                &rounds,
            ),
            (schema("SwissSettings", "high_limit", "maximum"), &rating),
            (schema("SwissSettings", "low_limit", "maximum"), &rating),
            (
                schema("SwissSettings", "prohibited_pairs", "maxItems"),
                &Value::from(MAX_PROHIBITED_PAIRS),
            ),
            (
                param("/api/v1/pairings/swiss", "rounds", "maximum"),
                &rounds,
            ),
            (
                param("/api/v1/pairings/swiss", "high_limit", "maximum"),
                &rating,
            ),
            (
                param("/api/v1/pairings/swiss", "team_avoidance_rounds", "maximum"),
                &rounds,
            ),
            (
                param("/api/v1/tables/berger", "players", "maximum"),
                &Value::from(MAX_ROUND_ROBIN_PLAYERS),
            ),
            (
                param("/api/v1/events", "limit", "maximum"),
                &Value::from(MAX_PAGE_LIMIT),
            ),
            (
                param("/api/v1/events", "offset", "maximum"),
                &Value::from(MAX_OFFSET),
            ),
        ];
        for (i, (shown, limit)) in checks.iter().enumerate() {
            assert_eq!(shown, *limit, "check {i}");
        }
        let more = [
            (
                schema("NewParticipant", "name", "minLength"),
                Value::from(1),
            ),
            (
                schema("SubmitBoardResults", "results", "maxItems"),
                Value::from(crate::api::bridge::entries::MAX_ROWS),
            ),
            (
                schema("MatchpointRequest", "scores", "maxItems"),
                Value::from(crate::api::bridge::tools::MAX_SCORES),
            ),
            (
                schema("SubmitMatches", "matches", "maxItems"),
                Value::from(crate::api::bridge::matches::MAX_MATCHES),
            ),
        ];
        for (i, (shown, limit)) in more.iter().enumerate() {
            assert_eq!(shown, limit, "more {i}");
        }
    }
}
