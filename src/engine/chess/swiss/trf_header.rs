//! The tournament lines of a TRF file (TRF-16 and TRF-2026): what a file says about the
//! event besides its players, read on import and written on export.
//!
//! | line | holds |
//! | --- | --- |
//! | `012` | the tournament's name |
//! | `022` | the city (place) |
//! | `032` | the federation |
//! | `042`, `052` | start and end dates: `YYYY/MM/DD` (also `YYYY-MM-DD`, `YYYY.MM.DD`, `DD.MM.YYYY`, `DD/MM/YYYY`, `YY/MM/DD`) |
//! | `092` | the type of tournament: a round robin when it says so (`Round Robin`, `Round-Robin`, `RR`, `Berger`, `Double Round Robin`, `Scheveningen` aside) |
//! | `102` | the chief arbiter |
//! | `112` | a deputy arbiter, one per line |
//! | `122` | the time control as written |
//!
//! A date that cannot be read is an error at its line: the start date chooses the text of
//! the tie-break regulations, so it is not guessed.

use chrono::NaiveDate;

use super::state::{RoundResult, SwissState};
use super::trf::TrfError;
use crate::engine::chess::games::{GameResult, ScoredBye, ScoredGame};

/// What a TRF file's tournament lines say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrfHeader {
    pub name: Option<String>,
    pub place: Option<String>,
    pub federation: Option<String>,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    /// The `092` line as written.
    pub kind: Option<String>,
    pub chief_arbiter: Option<String>,
    pub deputy_arbiters: Vec<String>,
    pub time_control: Option<String>,
}

/// Reads a date as TRF files write them.
pub fn parse_trf_date(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    let parts: Vec<&str> = t.split(['/', '-', '.']).collect();
    if parts.len() != 3 || parts.iter().any(|p| !p.chars().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let num = |s: &str| s.parse::<u32>().ok();
    let (y, m, d) = match (parts[0].len(), parts[2].len()) {
        (4, _) => (num(parts[0])? as i32, num(parts[1])?, num(parts[2])?),
        (_, 4) => (num(parts[2])? as i32, num(parts[1])?, num(parts[0])?),
        (2, 2) => (2000 + num(parts[0])? as i32, num(parts[1])?, num(parts[2])?),
        _ => return None,
    };
    NaiveDate::from_ymd_opt(y, m, d)
}

impl TrfHeader {
    /// Reads the tournament lines; a date that cannot be read is an error at its line.
    pub fn read(text: &str) -> Result<TrfHeader, TrfError> {
        let mut h = TrfHeader::default();
        let lines = text
            .split("\r\n")
            .flat_map(|l| l.split(['\r', '\n']))
            .enumerate();
        for (k, line) in lines {
            let code: String = line.chars().take(3).collect();
            let rest: String = line.chars().skip(4).collect();
            let value = rest.trim();
            let text = (!value.is_empty()).then(|| value.to_string());
            match code.as_str() {
                "012" => h.name = text,
                "022" => h.place = text,
                "032" => h.federation = text,
                "092" => h.kind = text,
                "102" => h.chief_arbiter = text,
                "112" => h.deputy_arbiters.extend(text),
                "122" => h.time_control = text,
                "042" | "052" => {
                    let Some(v) = text else { continue };
                    let date = parse_trf_date(&v).ok_or_else(|| TrfError {
                        line: k + 1,
                        message: format!(
                            "`{v}` is not a date (YYYY/MM/DD): the {} date",
                            if code == "042" { "start" } else { "end" }
                        ),
                    })?;
                    if code == "042" {
                        h.start_date = Some(date);
                    } else {
                        h.end_date = Some(date);
                    }
                }
                _ => {}
            }
        }
        Ok(h)
    }

    /// Whether the `092` line calls the tournament a round robin.
    pub fn round_robin(&self) -> bool {
        let Some(kind) = &self.kind else {
            return false;
        };
        let k = kind.to_ascii_lowercase().replace(['-', '_'], " ");
        k.contains("round robin")
            || k.contains("berger")
            || k.contains("all play all")
            || k.split_whitespace().any(|w| w == "rr" || w == "drr")
    }

    /// The tournament lines as a TRF file writes them (`012` to `122`), each ending in LF;
    /// `players` and `rated` give `062` and `072`.
    pub fn write(&self, players: usize, rated: usize) -> String {
        let mut out = String::new();
        let mut line = |code: &str, value: &str| {
            let clean: String = value
                .chars()
                .map(|c| if crate::limits::is_control(c) { ' ' } else { c })
                .collect();
            if !clean.trim().is_empty() {
                out.push_str(&format!("{code} {}\n", clean.trim()));
            }
        };
        let date = |d: Option<NaiveDate>| d.map(|d| d.format("%Y/%m/%d").to_string());
        line("012", self.name.as_deref().unwrap_or(""));
        line("022", self.place.as_deref().unwrap_or(""));
        line("032", self.federation.as_deref().unwrap_or(""));
        line("042", &date(self.start_date).unwrap_or_default());
        line("052", &date(self.end_date).unwrap_or_default());
        line("062", &players.to_string());
        line("072", &rated.to_string());
        line("092", self.kind.as_deref().unwrap_or(""));
        line("102", self.chief_arbiter.as_deref().unwrap_or(""));
        for d in &self.deputy_arbiters {
            line("112", d);
        }
        line("122", self.time_control.as_deref().unwrap_or(""));
        out
    }
}

/// [`super::trf::write_trf`] with the tournament lines of `header` (`012` to `122`,
/// [`TrfHeader::write`]) and each player's final rank in the rank column
/// (`ranks[i]` for `state.players[i]`, from the event's standings and tie-breaks).
pub fn write_event_trf(state: &SwissState, header: &TrfHeader, ranks: &[u32]) -> String {
    let rated = state
        .players
        .iter()
        .filter(|p| !p.unrated && p.rating > 0)
        .count();
    let mut out = header.write(state.players.len(), rated);
    out.push_str(&super::trf::write_players(state, Some(ranks)));
    out
}

/// A TRF file's games and byes as the standings count them, players indexed in start-number
/// order (each game once, from White's side; a pairing-allocated bye marked as one).
pub fn records(state: &SwissState) -> (Vec<ScoredGame>, Vec<ScoredBye>) {
    let mut order: Vec<usize> = (0..state.players.len()).collect();
    order.sort_by_key(|&i| state.players[i].start_number);
    let index: std::collections::HashMap<u32, usize> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| (state.players[i].start_number, k))
        .collect();
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let p = &state.players[i];
        for (r, rec) in p.history.iter().enumerate() {
            let round = r as u32 + 1;
            let Some(o) = rec.opponent.filter(|_| rec.result.has_opponent()) else {
                let (half_points, allocated) = match rec.result {
                    RoundResult::PairingBye => (2, true),
                    RoundResult::FullBye => (2, false),
                    RoundResult::HalfBye => (1, false),
                    _ => (0, false),
                };
                byes.push(ScoredBye {
                    round,
                    player: k,
                    half_points,
                    allocated,
                });
                continue;
            };
            let other = index[&o];
            // each game once: from white's side (the lower start number without colours)
            let white = match rec.colour {
                Some(c) => c == super::state::Colour::White,
                None => p.start_number < o,
            };
            if !white {
                continue;
            }
            let back = state.players[order[other]]
                .history
                .get(r)
                .map_or(RoundResult::ForfeitLoss, |h| h.result);
            let result = match (rec.result, back) {
                (RoundResult::Win, _) => GameResult::WhiteWin,
                (RoundResult::Loss, _) => GameResult::BlackWin,
                (RoundResult::Draw, _) => GameResult::Draw,
                (RoundResult::ForfeitWin, _) => GameResult::WhiteForfeitWin,
                (RoundResult::ForfeitLoss, RoundResult::ForfeitWin) => GameResult::BlackForfeitWin,
                _ => GameResult::DoubleForfeit,
            };
            games.push(ScoredGame {
                round,
                white: k,
                black: other,
                result: Some(result),
            });
        }
    }
    (games, byes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_lines_read_and_written_back() {
        let text = "012 Oslo Open\r\n022 Oslo\n032 NOR\n042 2026/03/01\n052 05.03.2026\n\
                    092 Individual: Swiss-System\n102 IA Jane Doe (1234567)\n112 FA John Roe\n\
                    112 NA Ann Poe\n122 90'/40+30'+30\"\n001    1 ...";
        let h = TrfHeader::read(text).unwrap();
        assert_eq!(h.name.as_deref(), Some("Oslo Open"));
        assert_eq!(h.start_date, NaiveDate::from_ymd_opt(2026, 3, 1));
        assert_eq!(h.end_date, NaiveDate::from_ymd_opt(2026, 3, 5));
        assert_eq!(h.deputy_arbiters, vec!["FA John Roe", "NA Ann Poe"]);
        assert!(!h.round_robin());
        let back = TrfHeader::read(&h.write(10, 8)).unwrap();
        assert_eq!(back, h);
        for rr in [
            "Round Robin",
            "Individual: Round-Robin",
            "Double RR",
            "Berger",
        ] {
            let h = TrfHeader {
                kind: Some(rr.into()),
                ..Default::default()
            };
            assert!(h.round_robin(), "{rr}");
        }
        let bad = TrfHeader::read("012 T\n042 next week\n").unwrap_err();
        assert_eq!(bad.line, 2);
        assert_eq!(
            parse_trf_date("26/03/01"),
            NaiveDate::from_ymd_opt(2026, 3, 1)
        );
        assert_eq!(parse_trf_date("2026-02-30"), None);
    }
}
