//! Board facts from the standard 16-board cycle: the dealer and the vulnerability of board n.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ScoreError;

/// A seat at the table (also: the declarer).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[schema(as = BridgeSeat)]
pub enum Seat {
    N,
    E,
    S,
    W,
}

/// Who is vulnerable on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Vulnerability {
    None,
    Ns,
    Ew,
    Both,
}

impl Seat {
    /// The four seats in the order N, E, S, W (the order of the dealer's rotation).
    pub const ALL: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    /// True for North and South.
    pub fn is_ns(self) -> bool {
        matches!(self, Seat::N | Seat::S)
    }

    /// 0 for N, 1 for E, 2 for S, 3 for W.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name, as PBN and the table terminals write it.
    pub fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self.index()]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Seat {
    type Err = ScoreError;
    /// `N`, `E`, `S`, `W` in either case, or the full names `North` … `West`.
    fn from_str(s: &str) -> Result<Self, ScoreError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "n" | "north" => Ok(Seat::N),
            "e" | "east" => Ok(Seat::E),
            "s" | "south" => Ok(Seat::S),
            "w" | "west" => Ok(Seat::W),
            _ => Err(ScoreError::new(
                "declarer",
                format!("'{s}' is not a seat (N, E, S or W)"),
            )),
        }
    }
}

impl Vulnerability {
    /// Is the side of `seat` vulnerable?
    pub fn is_vulnerable(self, seat: Seat) -> bool {
        match self {
            Vulnerability::None => false,
            Vulnerability::Both => true,
            Vulnerability::Ns => seat.is_ns(),
            Vulnerability::Ew => !seat.is_ns(),
        }
    }

    /// The PBN `[Vulnerable]` value: `None`, `NS`, `EW`, `All`.
    pub fn pbn_name(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::Ns => "NS",
            Vulnerability::Ew => "EW",
            Vulnerability::Both => "All",
        }
    }
}

impl fmt::Display for Vulnerability {
    /// The API spelling: `none`, `ns`, `ew`, `both`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Vulnerability::None => "none",
            Vulnerability::Ns => "ns",
            Vulnerability::Ew => "ew",
            Vulnerability::Both => "both",
        })
    }
}

impl FromStr for Vulnerability {
    type Err = ScoreError;
    /// The API spelling (`none`, `ns`, `ew`, `both`) and the PBN ones (`None`, `Love`, `-`,
    /// `NS`, `EW`, `All`, `Both`), in any case.
    fn from_str(s: &str) -> Result<Self, ScoreError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "love" | "-" => Ok(Vulnerability::None),
            "ns" => Ok(Vulnerability::Ns),
            "ew" => Ok(Vulnerability::Ew),
            "both" | "all" => Ok(Vulnerability::Both),
            _ => Err(ScoreError::new(
                "vulnerability",
                format!("'{s}' is not a vulnerability (none, ns, ew or both)"),
            )),
        }
    }
}

/// The vulnerability of boards 1–16; board n has that of board ((n − 1) mod 16) + 1.
const CYCLE: [Vulnerability; 16] = {
    use Vulnerability::*;
    [
        None, Ns, Ew, Both, Ns, Ew, Both, None, Ew, Both, None, Ns, Both, None, Ns, Ew,
    ]
};

/// Position of board n in the 16-board cycle, 0-based. Board 0 counts as board 16 (the cycle
/// is taken modulo 16), so no board number panics.
fn cycle_index(board: u32) -> usize {
    ((board % 16 + 15) % 16) as usize
}

/// The dealer of board n: N, E, S, W in turn from board 1.
pub fn dealer(board: u32) -> Seat {
    Seat::ALL[cycle_index(board) % 4]
}

/// The vulnerability of board n from the standard 16-board cycle.
pub fn vulnerability(board: u32) -> Vulnerability {
    CYCLE[cycle_index(board)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use Vulnerability as V;

    #[test]
    fn the_sixteen_board_cycle() {
        let expected = [
            (Seat::N, V::None),
            (Seat::E, V::Ns),
            (Seat::S, V::Ew),
            (Seat::W, V::Both),
            (Seat::N, V::Ns),
            (Seat::E, V::Ew),
            (Seat::S, V::Both),
            (Seat::W, V::None),
            (Seat::N, V::Ew),
            (Seat::E, V::Both),
            (Seat::S, V::None),
            (Seat::W, V::Ns),
            (Seat::N, V::Both),
            (Seat::E, V::None),
            (Seat::S, V::Ns),
            (Seat::W, V::Ew),
        ];
        for (i, &(d, v)) in expected.iter().enumerate() {
            let board = i as u32 + 1;
            assert_eq!(
                (dealer(board), vulnerability(board)),
                (d, v),
                "board {board}"
            );
            // the cycle repeats every 16 boards
            assert_eq!((dealer(board + 16), vulnerability(board + 32)), (d, v));
        }
        assert_eq!((dealer(0), vulnerability(0)), (Seat::W, V::Ew));
        assert_eq!(vulnerability(u32::MAX), vulnerability(15)); // 2³² − 1 ≡ 15 (mod 16)
    }

    #[test]
    fn sides_and_names() {
        assert!(Seat::N.is_ns() && Seat::S.is_ns() && !Seat::E.is_ns() && !Seat::W.is_ns());
        assert!(V::Ns.is_vulnerable(Seat::S) && !V::Ns.is_vulnerable(Seat::W));
        assert!(V::Ew.is_vulnerable(Seat::E) && !V::Ew.is_vulnerable(Seat::N));
        assert!(V::Both.is_vulnerable(Seat::W) && !V::None.is_vulnerable(Seat::N));
        assert_eq!("w".parse::<Seat>().unwrap(), Seat::W);
        assert_eq!("North".parse::<Seat>().unwrap(), Seat::N);
        assert_eq!("X".parse::<Seat>().unwrap_err().field, "declarer");
        assert_eq!("All".parse::<V>().unwrap(), V::Both);
        assert_eq!("love".parse::<V>().unwrap(), V::None);
        assert_eq!("ns".parse::<V>().unwrap(), V::Ns);
        assert_eq!("sn".parse::<V>().unwrap_err().field, "vulnerability");
        assert_eq!(V::Both.to_string(), "both");
        assert_eq!(V::Both.pbn_name(), "All");
        assert_eq!(serde_json::to_string(&Seat::E).unwrap(), "\"E\"");
        assert_eq!(serde_json::to_string(&V::Ew).unwrap(), "\"ew\"");
    }
}
