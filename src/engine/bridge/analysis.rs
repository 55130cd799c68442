//! Double-dummy analysis of a deal: how many tricks each seat takes as declarer in each strain
//! with all four hands open, and the par score and contracts (pure: a deal in, numbers out).
//!
//! # What a hand record shows
//! - **The double-dummy table**: for each declarer (N, E, S, W) and strain (NT, ♠, ♥, ♦, ♣)
//!   the tricks the declarer's side takes when every player sees every card and plays
//!   perfectly, the opening lead from the declarer's left. Declarers of one side usually make
//!   the same, but not always (the lead comes from a different hand).
//! - **Par**: the score when both sides bid perfectly knowing the table. Each side may bid any
//!   contract it makes; the other side may outbid it or sacrifice (a doubled contract that goes
//!   down for less than the opponents would score). Par is the score neither side can improve
//!   by bidding on, signed for NS; its contracts are those that reach it (a sacrifice doubled,
//!   with its undertricks). When both sides can make something the dealer's side gets the first
//!   chance to bid (DDS's "dealer par").
//!
//! # Where the numbers come from
//! The solver is DDS 2.9 (Bo Haglund and Soren Hein), the double-dummy engine the bridge world
//! uses, through the `pons-dds` crate: a line-by-line Rust port checked against the C++ library
//! bit for bit, which builds with cargo alone (the C++ bindings on crates.io need libclang at
//! build time, which a fresh machine does not have). Par is DDS's own `DealerParBin`, ported
//! the same way. `scripts/check-bridge-readers` compares our tables and par with endplay, which
//! binds the C++ DDS, on every board of the test sessions.
//!
//! # Stored form
//! A table is kept as the 20 hexadecimal digits of PBN 2.1's `DoubleDummyTricks` tag: the
//! declarers in the order N, S, E, W, each with the strains NT, ♠, ♥, ♦, ♣ (so `d...` first is
//! North's no-trump tricks). [`DdTable::to_pbn`] and [`DdTable::from_pbn`] convert.

use std::fmt;

use contract_bridge::{FullDeal, Penalty, Seat as DdsSeat, Strain as DdsStrain};
use pons_dds::{calculate_par, solve_deals, NonEmptyStrainFlags, TrickCountTable};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::scoring::{deal_string, Seat, Vulnerability};

/// The strains in the order PBN and hand records list them.
pub const STRAINS: [&str; 5] = ["NT", "S", "H", "D", "C"];

/// Declarers in the order of PBN's `DoubleDummyTricks` (N, S, E, W).
const PBN_DECLARERS: [Seat; 4] = [Seat::N, Seat::S, Seat::E, Seat::W];

/// Tricks one declarer takes in each strain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"NT": 9, "S": 10, "H": 7, "D": 8, "C": 6}))]
pub struct StrainTricks {
    #[serde(rename = "NT")]
    pub nt: u8,
    #[serde(rename = "S")]
    pub spades: u8,
    #[serde(rename = "H")]
    pub hearts: u8,
    #[serde(rename = "D")]
    pub diamonds: u8,
    #[serde(rename = "C")]
    pub clubs: u8,
}

impl StrainTricks {
    /// In the order of [`STRAINS`]: NT, ♠, ♥, ♦, ♣.
    pub fn as_array(&self) -> [u8; 5] {
        [self.nt, self.spades, self.hearts, self.diamonds, self.clubs]
    }

    fn from_array(t: [u8; 5]) -> StrainTricks {
        StrainTricks {
            nt: t[0],
            spades: t[1],
            hearts: t[2],
            diamonds: t[3],
            clubs: t[4],
        }
    }
}

/// The double-dummy table of a deal: the tricks each declarer takes in each strain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = DoubleDummyTable, example = json!({
    "N": {"NT": 9, "S": 10, "H": 7, "D": 8, "C": 6},
    "E": {"NT": 4, "S": 3, "H": 6, "D": 5, "C": 7},
    "S": {"NT": 9, "S": 10, "H": 7, "D": 8, "C": 6},
    "W": {"NT": 4, "S": 3, "H": 6, "D": 5, "C": 7}
}))]
pub struct DdTable {
    #[serde(rename = "N")]
    pub north: StrainTricks,
    #[serde(rename = "E")]
    pub east: StrainTricks,
    #[serde(rename = "S")]
    pub south: StrainTricks,
    #[serde(rename = "W")]
    pub west: StrainTricks,
}

impl DdTable {
    /// The tricks of one declarer.
    pub fn declarer(&self, seat: Seat) -> StrainTricks {
        match seat {
            Seat::N => self.north,
            Seat::E => self.east,
            Seat::S => self.south,
            Seat::W => self.west,
        }
    }

    fn declarer_mut(&mut self, seat: Seat) -> &mut StrainTricks {
        match seat {
            Seat::N => &mut self.north,
            Seat::E => &mut self.east,
            Seat::S => &mut self.south,
            Seat::W => &mut self.west,
        }
    }

    /// The PBN 2.1 `DoubleDummyTricks` value: 20 hexadecimal digits, declarers N, S, E, W,
    /// each NT, ♠, ♥, ♦, ♣.
    pub fn to_pbn(&self) -> String {
        PBN_DECLARERS
            .iter()
            .flat_map(|&s| self.declarer(s).as_array())
            .map(|t| char::from_digit(u32::from(t), 16).unwrap_or('0'))
            .collect()
    }

    /// Reads [`DdTable::to_pbn`]'s form back; None unless it is 20 hexadecimal digits of 0–13.
    pub fn from_pbn(text: &str) -> Option<DdTable> {
        let digits: Vec<u8> = text
            .chars()
            .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
            .collect::<Option<_>>()?;
        if digits.len() != 20 || digits.iter().any(|&d| d > 13) {
            return None;
        }
        let empty = StrainTricks::from_array([0; 5]);
        let mut table = DdTable {
            north: empty,
            east: empty,
            south: empty,
            west: empty,
        };
        for (k, &seat) in PBN_DECLARERS.iter().enumerate() {
            let mut row = [0u8; 5];
            row.copy_from_slice(&digits[k * 5..k * 5 + 5]);
            *table.declarer_mut(seat) = StrainTricks::from_array(row);
        }
        Some(table)
    }
}

/// One par contract: the contract (a sacrifice doubled), its declarer and the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"contract": "4S", "declarer": "N", "result": "="}))]
pub struct ParContract {
    /// `4S`, `5DX` (a sacrifice is doubled), `3NT`.
    pub contract: String,
    pub declarer: Seat,
    /// `=`, `+1` (overtricks), `-2` (a sacrifice's undertricks).
    pub result: String,
}

/// The par of a deal at a vulnerability, dealer's side bidding first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"score": 420, "contracts": [
    {"contract": "4S", "declarer": "N", "result": "="},
    {"contract": "4S", "declarer": "S", "result": "="}
]}))]
pub struct Par {
    /// The par score for NS (negative when EW gain); 0 when the deal is passed out.
    pub score: i32,
    /// The contracts reaching it, each declarer listed (empty when passed out).
    pub contracts: Vec<ParContract>,
}

impl Par {
    /// The PBN `OptimumScore` value: `NS 420`, `EW 100`, or `NS 0` for a passed-out deal.
    pub fn optimum_score(&self) -> String {
        if self.score < 0 {
            format!("EW {}", -self.score)
        } else {
            format!("NS {}", self.score)
        }
    }

    /// The PBN `ParContract` value: each contract with its side, `NS 4S` (both declarers of
    /// a side making the same contract are written once), several joined by `; `; `Pass` for a
    /// passed-out deal.
    pub fn par_contract(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        for c in &self.contracts {
            let side = if c.declarer.is_ns() { "NS" } else { "EW" };
            let result = if c.result == "=" { "" } else { &c.result };
            let text = format!("{side} {}{result}", c.contract);
            if !out.contains(&text) {
                out.push(text);
            }
        }
        if out.is_empty() {
            "Pass".into()
        } else {
            out.join("; ")
        }
    }
}

/// Whether a hand record's analysis is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// Stored; the worker has not analysed it yet.
    Pending,
    Done,
}

/// A hand record's double-dummy analysis: its table and par once done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"status": "done",
    "double_dummy": {"N": {"NT": 9, "S": 10, "H": 7, "D": 8, "C": 6}, "E": {"NT": 4, "S": 3, "H": 6, "D": 5, "C": 7},
                     "S": {"NT": 9, "S": 10, "H": 7, "D": 8, "C": 6}, "W": {"NT": 4, "S": 3, "H": 6, "D": 5, "C": 7}},
    "par": {"score": 420, "contracts": [{"contract": "4S", "declarer": "N", "result": "="}, {"contract": "4S", "declarer": "S", "result": "="}]}}))]
pub struct DealAnalysis {
    pub status: AnalysisStatus,
    /// Null while pending.
    pub double_dummy: Option<DdTable>,
    /// At the board's vulnerability, its dealer's side bidding first; null while pending.
    pub par: Option<Par>,
}

impl DealAnalysis {
    /// The analysis of a board from its stored table (None: pending).
    pub fn of(table: Option<DdTable>, vulnerability: Vulnerability, dealer: Seat) -> DealAnalysis {
        match table {
            None => DealAnalysis {
                status: AnalysisStatus::Pending,
                double_dummy: None,
                par: None,
            },
            Some(t) => DealAnalysis {
                status: AnalysisStatus::Done,
                par: Some(par(&t, vulnerability, dealer)),
                double_dummy: Some(t),
            },
        }
    }
}

/// A deal the solver cannot take (never one [`super::scoring::parse_deal_string`] accepted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisError(pub String);

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn dds_seat(s: Seat) -> DdsSeat {
    match s {
        Seat::N => DdsSeat::North,
        Seat::E => DdsSeat::East,
        Seat::S => DdsSeat::South,
        Seat::W => DdsSeat::West,
    }
}

fn seat_of(s: DdsSeat) -> Seat {
    match s {
        DdsSeat::North => Seat::N,
        DdsSeat::East => Seat::E,
        DdsSeat::South => Seat::S,
        DdsSeat::West => Seat::W,
    }
}

const DDS_STRAINS: [DdsStrain; 5] = [
    DdsStrain::Notrump,
    DdsStrain::Spades,
    DdsStrain::Hearts,
    DdsStrain::Diamonds,
    DdsStrain::Clubs,
];

fn table_of(t: &TrickCountTable) -> DdTable {
    let row = |seat: Seat| {
        let mut r = [0u8; 5];
        for (k, strain) in DDS_STRAINS.iter().enumerate() {
            r[k] = t[*strain].get(dds_seat(seat)).get();
        }
        StrainTricks::from_array(r)
    };
    DdTable {
        north: row(Seat::N),
        east: row(Seat::E),
        south: row(Seat::S),
        west: row(Seat::W),
    }
}

fn counts_of(t: &DdTable) -> TrickCountTable {
    let mut rows = [pons_dds::TrickCountRow::new(0, 0, 0, 0); 5];
    // TrickCountTable's rows are in the crate's ascending strain order (C, D, H, S, NT).
    for strain in DDS_STRAINS {
        let k = DDS_STRAINS.iter().position(|s| *s == strain).unwrap_or(0);
        rows[strain as usize] = pons_dds::TrickCountRow::new(
            t.north.as_array()[k],
            t.east.as_array()[k],
            t.south.as_array()[k],
            t.west.as_array()[k],
        );
    }
    TrickCountTable(rows)
}

/// The solver's deal from four hands N, E, S, W (`AKQ.JT9.876.5432`).
fn full_deal(hands: &[String; 4]) -> Result<FullDeal, AnalysisError> {
    deal_string(hands)
        .parse()
        .map_err(|e| AnalysisError(format!("the solver cannot read the deal: {e:?}")))
}

/// The double-dummy tables of `deals` (each four hands N, E, S, W), in order. The deals are
/// spread over the machine's cores (rayon); the caller bounds how many it sends at once.
pub fn analyse(deals: &[[String; 4]]) -> Result<Vec<DdTable>, AnalysisError> {
    let full: Vec<FullDeal> = deals.iter().map(full_deal).collect::<Result<_, _>>()?;
    Ok(solve_deals(&full, NonEmptyStrainFlags::ALL)
        .iter()
        .map(table_of)
        .collect())
}

/// The par of a deal from its table, its vulnerability and its dealer (DDS's dealer par).
pub fn par(table: &DdTable, vulnerability: Vulnerability, dealer: Seat) -> Par {
    use pons_dds::Vulnerability as V;
    let vul = match vulnerability {
        Vulnerability::None => V::NONE,
        Vulnerability::Ns => V::NS,
        Vulnerability::Ew => V::EW,
        Vulnerability::Both => V::ALL,
    };
    let p = calculate_par(counts_of(table), vul, dds_seat(dealer));
    Par {
        score: p.score,
        contracts: p
            .contracts
            .iter()
            .map(|c| {
                let strain = match c.contract.bid.strain {
                    DdsStrain::Clubs => "C",
                    DdsStrain::Diamonds => "D",
                    DdsStrain::Hearts => "H",
                    DdsStrain::Spades => "S",
                    DdsStrain::Notrump => "NT",
                };
                let doubling = match c.contract.penalty {
                    Penalty::Undoubled => "",
                    Penalty::Doubled => "X",
                    Penalty::Redoubled => "XX",
                };
                ParContract {
                    contract: format!("{}{strain}{doubling}", c.contract.bid.level.get()),
                    declarer: seat_of(c.declarer),
                    result: match c.overtricks {
                        0 => "=".into(),
                        o if o > 0 => format!("+{o}"),
                        o => o.to_string(),
                    },
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::parse_deal_string;

    fn hands(deal: &str) -> [String; 4] {
        parse_deal_string(deal).unwrap()
    }

    #[test]
    fn each_hand_a_suit_makes_thirteen_in_it() {
        // North all spades, East all hearts, South all diamonds, West all clubs.
        let deal = hands("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432");
        let t = analyse(&[deal]).unwrap()[0];
        assert_eq!(t.north.spades, 13);
        assert_eq!(t.south.spades, 13); // the lead from West cannot stop North's spades
        assert_eq!(t.east.hearts, 13);
        assert_eq!(t.north.nt, 0); // East leads a heart and runs 13
        assert_eq!(t.west.clubs, 13);
        let p = par(&t, Vulnerability::None, Seat::N);
        // NS bid 7♠ first (North deals): 1510, and 7♥ by EW cannot beat it undoubled.
        assert_eq!(p.score, 1510);
        assert!(p.contracts.iter().all(|c| c.contract == "7S"));
        assert_eq!(p.optimum_score(), "NS 1510");
        assert_eq!(p.par_contract(), "NS 7S");
    }

    #[test]
    fn the_pbn_form_reads_back() {
        let deal = hands("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765");
        let t = analyse(&[deal]).unwrap()[0];
        let text = t.to_pbn();
        assert_eq!(text.len(), 20);
        assert_eq!(DdTable::from_pbn(&text), Some(t));
        // N first, then S: North's no-trump tricks lead the string
        assert_eq!(
            text.chars().next().unwrap().to_digit(16).unwrap() as u8,
            t.north.nt
        );
        assert_eq!(
            text.chars().nth(5).unwrap().to_digit(16).unwrap() as u8,
            t.south.nt
        );
        for bad in [
            "",
            "0123456789abcdef012",
            "0123456789abcdef012g",
            "eeeeeeeeeeeeeeeeeeee",
        ] {
            assert_eq!(DdTable::from_pbn(bad), None, "{bad}");
        }
        // counts_of is the inverse of table_of
        assert_eq!(table_of(&counts_of(&t)), t);
    }

    #[test]
    fn par_contracts_take_the_tricks_the_table_gives() {
        // Every par contract takes exactly its declarer's double-dummy tricks; a contract
        // that goes down is a doubled sacrifice; at every vulnerability.
        let deals = [
            hands("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            hands("N:A8643.KQ.K7.AJ92 KT.A9874.J853.Q3 QJ972.6.AQ.KT875 5.JT532.T9642.64"),
        ];
        for t in analyse(&deals).unwrap() {
            for vul in [
                Vulnerability::None,
                Vulnerability::Ns,
                Vulnerability::Ew,
                Vulnerability::Both,
            ] {
                for dealer in Seat::ALL {
                    let p = par(&t, vul, dealer);
                    for c in &p.contracts {
                        let level: u8 = c.contract[..1].parse().unwrap();
                        let strain = STRAINS
                            .iter()
                            .position(|s| c.contract[1..].trim_end_matches('X') == *s)
                            .unwrap();
                        let offset: i32 = if c.result == "=" {
                            0
                        } else {
                            c.result.parse().unwrap()
                        };
                        let made = i32::from(t.declarer(c.declarer).as_array()[strain]);
                        assert_eq!(made, i32::from(level) + 6 + offset, "{c:?} {t:?}");
                        if offset < 0 {
                            assert!(c.contract.ends_with('X'), "{c:?}");
                        }
                    }
                }
            }
        }
    }
}
