//! The rules of C.04.3 one at a time, on small histories made by hand
//! (tests/fixtures/dutch/rules/, see its README): the topscorer exceptions of the last
//! round, the colour allocation rules E.1-E.5, the PAB's eligibility and score (C.2, C.5,
//! C.9) and forced boards in a director's draft. Each case asserts the property the rule
//! decides and, for every file, that bbpPairings (v6, `--dutch FILE -p`, its output kept
//! beside the file as `.bbp`) pairs the same boards, colours and PAB.

mod bye;
mod colour;
mod force;
mod topscorer;

use super::pair_dutch;
use crate::engine::chess::swiss::trf::parse_trf;
use crate::engine::chess::swiss::{ByeKind, RoundPairing, SwissState};
use crate::engine::matching::BlossomSolver;

/// A hand-made history: its TRF text and bbpPairings' pairing of its next round.
struct Case {
    name: &'static str,
    trf: &'static str,
    bbp: &'static str,
}

/// `case!("name")`: tests/fixtures/dutch/rules/name.trf and name.bbp.
macro_rules! case {
    ($name:literal) => {
        super::Case {
            name: $name,
            trf: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/dutch/rules/",
                $name,
                ".trf"
            )),
            bbp: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/dutch/rules/",
                $name,
                ".bbp"
            )),
        }
    };
}
use case;

/// A round as compared: boards (white, black) in board order and the PAB.
#[derive(Debug, PartialEq, Eq)]
struct Boards {
    boards: Vec<(u32, u32)>,
    pab: Option<u32>,
}

impl Boards {
    fn of(p: &RoundPairing) -> Self {
        Boards {
            boards: p.pairings.iter().map(|b| (b.white, b.black)).collect(),
            pab: p
                .byes
                .iter()
                .find(|b| b.kind == ByeKind::Pairing)
                .map(|b| b.player),
        }
    }

    /// bbpPairings' `-p` output: the number of boards, then `white black` per line,
    /// `player 0` for the PAB.
    fn of_bbp(text: &str) -> Self {
        let mut boards = Vec::new();
        let mut pab = None;
        for line in text.lines().skip(1) {
            let n: Vec<u32> = line
                .split_whitespace()
                .map(|x| x.parse().expect("bbpPairings output"))
                .collect();
            match n[..] {
                [p, 0] => pab = Some(p),
                [w, b] => boards.push((w, b)),
                _ => panic!("bbpPairings output line {line:?}"),
            }
        }
        Boards { boards, pab }
    }

    /// Whether the two meet (either colours).
    fn meet(&self, a: u32, b: u32) -> bool {
        self.boards.contains(&(a, b)) || self.boards.contains(&(b, a))
    }

    /// The colours in which `a` meets someone: `(a, opponent)` when white.
    fn board_of(&self, a: u32) -> (u32, u32) {
        *self
            .boards
            .iter()
            .find(|&&(w, b)| w == a || b == a)
            .unwrap_or_else(|| panic!("{a} is on no board of {self:?}"))
    }
}

impl Case {
    fn state(&self) -> SwissState {
        parse_trf(self.trf).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    /// Our pairing of the next round, checked to be bbpPairings' (boards in any order,
    /// colours and PAB identical).
    fn paired(&self) -> Boards {
        let ours = Boards::of(&pair_dutch(&self.state(), &BlossomSolver).unwrap());
        let theirs = Boards::of_bbp(self.bbp);
        let sorted = |b: &Boards| {
            let mut v = b.boards.clone();
            v.sort_unstable();
            (v, b.pab)
        };
        assert_eq!(
            sorted(&ours),
            sorted(&theirs),
            "{}: ours {ours:?}, bbpPairings {theirs:?}",
            self.name
        );
        ours
    }
}

/// The facts of the rules for every player of a case, by start number (no acceleration).
fn facts(state: &SwissState) -> std::collections::HashMap<u32, super::player::DutchPlayer> {
    super::player::players(state, &|_, _| 0)
        .into_iter()
        .map(|p| (p.sn, p))
        .collect()
}
