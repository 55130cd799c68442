//! Contracts (`4SX`, `3NT`, `PASS`) and results (`=`, `+1`, `-2`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

use super::ScoreError;

/// The denomination of a contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strain {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
    NoTrump,
}

/// Whether the final contract was doubled or redoubled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Doubling {
    Undoubled,
    Doubled,
    Redoubled,
}

/// A board's final contract. In JSON it is the canonical string (`"4SX"`, `"3NT"`, `"PASS"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Contract {
    PassedOut,
    Bid {
        level: u8,
        strain: Strain,
        doubling: Doubling,
    },
}

impl Strain {
    /// The letter used in the canonical contract (`C`, `D`, `H`, `S`, `NT`).
    pub fn symbol(self) -> &'static str {
        match self {
            Strain::Clubs => "C",
            Strain::Diamonds => "D",
            Strain::Hearts => "H",
            Strain::Spades => "S",
            Strain::NoTrump => "NT",
        }
    }
}

impl Doubling {
    pub fn symbol(self) -> &'static str {
        match self {
            Doubling::Undoubled => "",
            Doubling::Doubled => "X",
            Doubling::Redoubled => "XX",
        }
    }
}

impl Contract {
    /// The tricks declarer must take (level + 6); 0 for a passed-out board.
    pub fn tricks_needed(&self) -> u8 {
        match self {
            Contract::PassedOut => 0,
            Contract::Bid { level, .. } => level + 6,
        }
    }
}

fn contract_error(s: &str, why: &str) -> ScoreError {
    ScoreError::new("contract", format!("'{s}' is not a contract: {why}"))
}

impl FromStr for Contract {
    type Err = ScoreError;
    /// Level 1–7, strain `C`, `D`, `H`, `S` (or ♣ ♦ ♥ ♠), `N` or `NT`, then nothing, `X` (or `*`) or `XX`
    /// (or `**`); any case, spaces anywhere (`4 H x`). A passed-out board is `PASS`, `P` or
    /// `AP` (all pass).
    fn from_str(s: &str) -> Result<Self, ScoreError> {
        let compact: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '♣' | '♧' => 'C',
                '♦' | '♢' => 'D',
                '♥' | '♡' => 'H',
                '♠' | '♤' => 'S',
                c => c.to_ascii_uppercase(),
            })
            .collect();
        if matches!(
            compact.as_str(),
            "PASS" | "P" | "AP" | "ALLPASS" | "PASSEDOUT"
        ) {
            return Ok(Contract::PassedOut);
        }
        let mut rest = compact.as_str();
        let level = match rest.chars().next() {
            Some(c @ '1'..='7') => c as u8 - b'0',
            Some(c) if c.is_ascii_digit() => return Err(contract_error(s, "the level is 1 to 7")),
            _ => {
                return Err(contract_error(
                    s,
                    "expected a level 1–7, a strain and X/XX, or PASS",
                ))
            }
        };
        rest = &rest[1..];
        let (strain, after) = if let Some(r) = rest.strip_prefix("NT") {
            (Strain::NoTrump, r)
        } else {
            let strain = match rest.chars().next() {
                Some('C') => Strain::Clubs,
                Some('D') => Strain::Diamonds,
                Some('H') => Strain::Hearts,
                Some('S') => Strain::Spades,
                Some('N') => Strain::NoTrump,
                _ => return Err(contract_error(s, "the strain is C, D, H, S or NT")),
            };
            (strain, &rest[1..])
        };
        let doubling = match after {
            "" => Doubling::Undoubled,
            "X" | "*" => Doubling::Doubled,
            "XX" | "**" => Doubling::Redoubled,
            _ => {
                return Err(contract_error(
                    s,
                    "after the strain only X or XX may follow",
                ))
            }
        };
        Ok(Contract::Bid {
            level,
            strain,
            doubling,
        })
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contract::PassedOut => f.write_str("PASS"),
            Contract::Bid {
                level,
                strain,
                doubling,
            } => {
                write!(f, "{level}{}{}", strain.symbol(), doubling.symbol())
            }
        }
    }
}

impl TryFrom<String> for Contract {
    type Error = ScoreError;
    fn try_from(s: String) -> Result<Self, ScoreError> {
        s.parse()
    }
}

impl From<Contract> for String {
    fn from(c: Contract) -> String {
        c.to_string()
    }
}

impl utoipa::PartialSchema for Contract {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "Level 1–7, strain C/D/H/S/NT, optional X or XX; or PASS",
            ))
            .examples(["4SX", "3NT", "PASS"])
            .into()
    }
}

impl utoipa::ToSchema for Contract {}

fn result_error(result: &str, why: String) -> ScoreError {
    ScoreError::new(
        "result",
        format!("'{result}' is not a possible result: {why}"),
    )
}

/// The tricks declarer took, from the result relative to the contract: `=` (or `0`) made
/// exactly, `+k` overtricks, `-k` down k. Made/down must stay within 0–13 tricks. A passed-out
/// board has no result: empty, `=`, `0` or `-` all give 0 tricks.
pub fn tricks_from_result(contract: &Contract, result: &str) -> Result<u8, ScoreError> {
    let r = result.trim();
    let Contract::Bid { .. } = contract else {
        return match r {
            "" | "=" | "0" | "-" => Ok(0),
            _ => Err(result_error(result, "the board was passed out".into())),
        };
    };
    if r.is_empty() || r == "-" {
        return Err(result_error(
            result,
            format!(
                "nothing or '-' fits a passed-out board only; for {contract} write =, +k or -k"
            ),
        ));
    }
    let needed = i32::from(contract.tricks_needed());
    let offset: i32 = match r {
        "=" | "0" | "+0" | "-0" => 0,
        _ => {
            let (sign, digits) = match r.chars().next() {
                Some('+') => (1, &r[1..]),
                Some('-') => (-1, &r[1..]),
                Some('\u{2212}') => (-1, &r['\u{2212}'.len_utf8()..]),
                _ => return Err(result_error(result, "write =, +k or -k".into())),
            };
            if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(result_error(result, "write =, +k or -k".into()));
            }
            sign * digits.parse::<i32>().expect("one or two digits")
        }
    };
    let tricks = needed + offset;
    if !(0..=13).contains(&tricks) {
        return Err(result_error(
            result,
            format!("{contract} needs {needed} tricks, and a deal has 13"),
        ));
    }
    Ok(tricks as u8)
}

/// The result relative to the contract: `=`, `+1`, `-2`; empty for a passed-out board.
pub fn result_notation(contract: &Contract, tricks: u8) -> String {
    if let Contract::PassedOut = contract {
        return String::new();
    }
    let offset = i32::from(tricks) - i32::from(contract.tricks_needed());
    match offset {
        0 => "=".to_string(),
        o if o > 0 => format!("+{o}"),
        o => o.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(level: u8, strain: Strain, doubling: Doubling) -> Contract {
        Contract::Bid {
            level,
            strain,
            doubling,
        }
    }

    #[test]
    fn contracts_parse_in_every_spelling() {
        use Doubling::*;
        use Strain::*;
        let cases = [
            ("4SX", bid(4, Spades, Doubled)),
            ("4 H x", bid(4, Hearts, Doubled)),
            ("3NT", bid(3, NoTrump, Undoubled)),
            ("3N", bid(3, NoTrump, Undoubled)),
            ("3nt", bid(3, NoTrump, Undoubled)),
            ("7NXX", bid(7, NoTrump, Redoubled)),
            ("7NTXX", bid(7, NoTrump, Redoubled)),
            ("1c", bid(1, Clubs, Undoubled)),
            ("2D*", bid(2, Diamonds, Doubled)),
            ("5 d x x", bid(5, Diamonds, Redoubled)),
            ("6S**", bid(6, Spades, Redoubled)),
            ("4♠X", bid(4, Spades, Doubled)),
            ("2 ♥", bid(2, Hearts, Undoubled)),
            ("1♦", bid(1, Diamonds, Undoubled)),
            ("3♣xx", bid(3, Clubs, Redoubled)),
            ("PASS", Contract::PassedOut),
            ("p", Contract::PassedOut),
            (" Pass ", Contract::PassedOut),
            ("AP", Contract::PassedOut),
        ];
        for (s, c) in cases {
            assert_eq!(s.parse::<Contract>().unwrap(), c, "{s}");
        }
    }

    #[test]
    fn bad_contracts_are_rejected_naming_the_contract() {
        for s in [
            "8S", "0NT", "4", "4Z", "4SXXX", "4SY", "", "S4", "44S", "4NTT", "9", "4é", "é4S",
            "4♠♥",
        ] {
            let e = s.parse::<Contract>().unwrap_err();
            assert_eq!(e.field, "contract", "{s}");
            assert!(e.message.contains(&format!("'{s}'")), "{s}: {}", e.message);
        }
        assert!("8S"
            .parse::<Contract>()
            .unwrap_err()
            .message
            .contains("1 to 7"));
    }

    #[test]
    fn canonical_form_round_trips() {
        for s in ["4SX", "3NT", "7NTXX", "1C", "2D", "6H", "PASS"] {
            let c: Contract = s.parse().unwrap();
            assert_eq!(c.to_string(), s);
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{s}\""));
            assert_eq!(
                serde_json::from_str::<Contract>(&format!("\"{s}\"")).unwrap(),
                c
            );
        }
        assert_eq!("4 h x".parse::<Contract>().unwrap().to_string(), "4HX");
        assert!(serde_json::from_str::<Contract>("\"8S\"").is_err());
    }

    #[test]
    fn results_give_tricks_and_back() {
        let c: Contract = "4S".parse().unwrap();
        assert_eq!(tricks_from_result(&c, "=").unwrap(), 10);
        assert_eq!(tricks_from_result(&c, "0").unwrap(), 10);
        assert_eq!(tricks_from_result(&c, "+1").unwrap(), 11);
        assert_eq!(tricks_from_result(&c, "+3").unwrap(), 13);
        assert_eq!(tricks_from_result(&c, "-2").unwrap(), 8);
        assert_eq!(tricks_from_result(&c, " -10 ").unwrap(), 0);
        for (tricks, text) in [(10, "="), (11, "+1"), (8, "-2"), (0, "-10"), (13, "+3")] {
            assert_eq!(result_notation(&c, tricks), text);
            assert_eq!(tricks_from_result(&c, text).unwrap(), tricks);
        }
        let one_nt: Contract = "1NT".parse().unwrap();
        assert_eq!(tricks_from_result(&one_nt, "-7").unwrap(), 0);
        let passed = Contract::PassedOut;
        assert_eq!(tricks_from_result(&passed, "").unwrap(), 0);
        assert_eq!(result_notation(&passed, 0), "");
    }

    #[test]
    fn impossible_results_are_rejected_naming_the_result() {
        let one_nt: Contract = "1NT".parse().unwrap();
        let seven: Contract = "7H".parse().unwrap();
        let four: Contract = "4S".parse().unwrap();
        for (c, r) in [
            (&one_nt, "-8"),
            (&seven, "+1"),
            (&four, "+4"),
            (&four, "1"),
            (&four, "made"),
            (&four, "+"),
            (&four, "-1-"),
            (&four, "+100"),
            (&four, ""),
            (&Contract::PassedOut, "+1"),
        ] {
            let e = tricks_from_result(c, r).unwrap_err();
            assert_eq!(e.field, "result", "{c} {r}");
        }
        // A blank result (the schema lets it through for a passed-out board) says why.
        for r in ["", " \u{3000}\t", "-"] {
            let e = tricks_from_result(&four, r).unwrap_err();
            assert!(
                e.message.contains("fits a passed-out board only"),
                "{}",
                e.message
            );
        }
    }
}
