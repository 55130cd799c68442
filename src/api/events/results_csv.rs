//! Results as CSV (`Content-Type: text/csv`) for `POST /api/v1/events/{id}/results`: a
//! scorer's spreadsheet or script sends one line per game.
//!
//! Two layouts, each with or without its header line:
//! * `round,board,result` — `2,3,1/2-1/2`;
//! * `round,white,black,result` with pairing numbers, white first — `2,7,12,1-0`.
//!
//! Blank lines are skipped; a cell may be wrapped in double quotes. Every line is checked
//! before anything is stored, and every bad line is reported as `line N` (the file's own line
//! number, header included).

use crate::engine::chess::scoring::GameResult;
use crate::error::FieldError;

/// How a result names its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameRef {
    Id(i64),
    Board {
        round: u32,
        board: u32,
    },
    /// By the players' pairing numbers, white first.
    Numbers {
        round: u32,
        white: u32,
        black: u32,
    },
}

/// Most lines a file may hold.
pub const MAX_LINES: usize = 10_000;

/// One line of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvResult {
    /// The file's line number (1 = the first line).
    pub line: usize,
    pub game: GameRef,
    pub result: GameResult,
}

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    Board,
    Numbers,
}

fn cells(line: &str) -> Vec<&str> {
    line.split(',')
        .map(|c| {
            let c = c.trim();
            c.strip_prefix('"')
                .and_then(|c| c.strip_suffix('"'))
                .unwrap_or(c)
                .trim()
        })
        .collect()
}

fn header_layout(cells: &[&str]) -> Option<Layout> {
    let names: Vec<String> = cells.iter().map(|c| c.to_ascii_lowercase()).collect();
    match names
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["round", "board", "result"] => Some(Layout::Board),
        ["round", "white", "black", "result"] => Some(Layout::Numbers),
        _ => None,
    }
}

fn number(cell: &str, what: &str, line: usize, errors: &mut Vec<FieldError>) -> u32 {
    match cell.parse::<u32>() {
        Ok(n) if n >= 1 => n,
        _ => {
            errors.push(FieldError {
                field: format!("line {line}"),
                message: format!("{what} {cell:?} is not a whole number from 1"),
            });
            0
        }
    }
}

/// Reads the file: the good lines and every bad line's error (a file that cannot be read at
/// all has one error naming `body`). The caller stores nothing unless the errors are empty,
/// after checking the good lines against the event so that every problem is reported at once.
pub fn parse(text: &str) -> (Vec<CsvResult>, Vec<FieldError>) {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    let mut layout = None;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_start_matches('\u{feff}')))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    if lines.len() > MAX_LINES + 1 {
        let error = FieldError {
            field: "body".into(),
            message: format!("at most {MAX_LINES} lines per request"),
        };
        return (Vec::new(), vec![error]);
    }
    for (k, (line, text)) in lines.into_iter().enumerate() {
        let row = cells(text);
        if k == 0 {
            if let Some(l) = header_layout(&row) {
                layout = Some(l);
                continue;
            }
        }
        let this = match (layout, row.len()) {
            (Some(Layout::Board), 3) => Layout::Board,
            (Some(Layout::Numbers), 4) => Layout::Numbers,
            (None, 3) => Layout::Board,
            (None, 4) => Layout::Numbers,
            (_, n) => {
                errors.push(FieldError {
                    field: format!("line {line}"),
                    message: format!(
                        "has {n} cells; expected round,board,result or round,white,black,result"
                    ),
                });
                continue;
            }
        };
        // the first data line fixes the layout of a file without a header
        layout.get_or_insert(this);
        let errors_before = errors.len();
        let round = number(row[0], "round", line, &mut errors);
        let game = match this {
            Layout::Board => GameRef::Board {
                round,
                board: number(row[1], "board", line, &mut errors),
            },
            Layout::Numbers => GameRef::Numbers {
                round,
                white: number(row[1], "white", line, &mut errors),
                black: number(row[2], "black", line, &mut errors),
            },
        };
        let cell = row[row.len() - 1];
        match GameResult::parse(cell) {
            Some(result) if errors.len() == errors_before => {
                out.push(CsvResult { line, game, result })
            }
            Some(_) => {}
            None => errors.push(FieldError {
                field: format!("line {line}"),
                message: format!(
                    "{cell:?} is not a result; use 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-"
                ),
            }),
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(FieldError {
            field: "body".into(),
            message: "holds no result line".into(),
        });
    }
    (out, errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;

    #[test]
    fn both_layouts_with_or_without_a_header() {
        let (by_board, errors) = parse("round,board,result\r\n1,1,1-0\r\n\r\n1,2,\"½-½\"\r\n");
        assert!(errors.is_empty());
        assert_eq!(
            by_board,
            vec![
                CsvResult {
                    line: 2,
                    game: GameRef::Board { round: 1, board: 1 },
                    result: WhiteWin
                },
                CsvResult {
                    line: 4,
                    game: GameRef::Board { round: 1, board: 2 },
                    result: Draw
                },
            ]
        );
        let (by_numbers, _) = parse("2,7,12,0-1\n2,3,1,+/-");
        assert_eq!(
            by_numbers[1].game,
            GameRef::Numbers {
                round: 2,
                white: 3,
                black: 1
            }
        );
        assert_eq!(by_numbers[1].result, WhiteForfeitWin);
        let (headed, _) = parse("Round, White, Black, Result\n1,1,2,1-0");
        assert_eq!(headed[0].line, 2);
    }

    #[test]
    fn every_bad_line_is_named() {
        let (good, errors) = parse("round,board,result\n1,1,1-0\n1,x,1-0\n1,3,2-0\n1,4\n0,5,0-1\n");
        assert_eq!(good.len(), 1, "line 2 is good");
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, vec!["line 3", "line 4", "line 5", "line 6"]);
        assert!(errors[1].message.contains("\"2-0\""));
        // a header fixes the layout: four cells under a three-column header are wrong
        let (_, errors) = parse("round,board,result\n1,2,3,1-0");
        assert_eq!(errors[0].field, "line 2");
        assert_eq!(parse("\n\n").1[0].field, "body");
        assert_eq!(parse("round,board,result\n").1[0].field, "body");
    }

    #[test]
    fn the_file_has_a_bound() {
        let big = "1,1,1-0\n".repeat(MAX_LINES + 2);
        assert_eq!(parse(&big).1[0].field, "body");
    }
}
