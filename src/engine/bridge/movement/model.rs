//! The one data model for every bridge pairs movement (seed 002).
//!
//! A movement is plain data: for every round and table, the NS pair, the EW pair and the
//! board set played there (with its board numbers). Everything a director chooses by
//! (stationary pairs, shared sets, sit-outs, balance) is derived from it by `report`.
//!
//! The JSON shape is a public contract:
//! `{"kind":K,"tables":T,"pair_numbering":"mitchell"|"howell","boards_per_round":B,
//!   "rounds":[{"round":1,"tables":[{"table":1,"ns":1,"ew":1,"set":1,"boards":[1,2,3]}],
//!   "sit_out":[{"ew":8}]}]}`

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The layouts of a Twin Mitchell (`twin_mode`).
pub const TWIN_MODES: [&str; 2] = ["stanzas", "sections"];

/// `twin_mode` in the API document: one of [`TWIN_MODES`], or null.
fn twin_mode_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .description(Some(
            "Twin Mitchell: `stanzas` (one section, two stanzas) or `sections` (two sections sharing boards).",
        ))
        .enum_values(Some(TWIN_MODES.iter().copied().map(Some).chain([None])))
        .build()
}

/// How pairs are numbered, which decides how the movement is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PairNumbering {
    /// NS 1..T and EW 1..T are different pairs: two fields, two winners.
    Mitchell,
    /// One number space for all pairs: one field, one winner.
    Howell,
}

/// A seat direction at a table.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Ns,
    Ew,
}

/// A pair's identity. Under Mitchell numbering NS 3 and EW 3 are different pairs; under
/// Howell numbering the direction is not part of the identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairId {
    Ns(u32),
    Ew(u32),
    Pair(u32),
}

/// A pair that does not play in a round. Serialises as `{"ns":n}`, `{"ew":n}` (Mitchell
/// numbering) or `{"pair":n}` (Howell numbering).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum SitOut {
    Ns(u32),
    Ew(u32),
    Pair(u32),
}

impl SitOut {
    pub fn pair_id(self) -> PairId {
        match self {
            SitOut::Ns(n) => PairId::Ns(n),
            SitOut::Ew(n) => PairId::Ew(n),
            SitOut::Pair(n) => PairId::Pair(n),
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One table in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MovementTable)]
pub struct TableRound {
    /// Table number (1-based, one series across the whole room).
    pub table: u32,
    /// The pair sitting North-South, or null at a half table with the NS seats empty.
    pub ns: Option<u32>,
    /// The pair sitting East-West, or null at a half table with the EW seats empty.
    pub ew: Option<u32>,
    /// The board set played at this table this round.
    pub set: u32,
    /// The board numbers of that set, in play order.
    pub boards: Vec<u32>,
    /// True in an arrow-switched round: the EW pair plays the NS cards (and is scored so).
    #[serde(default, skip_serializing_if = "is_false")]
    pub arrow_switch: bool,
    /// Section label where one movement runs as several sections (twin or web Mitchells);
    /// omitted for a single section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Half-set movements only (boards split into half-sets that travel separately): the two
    /// half-sets played here this round, in play order (the first half of the round, then the
    /// second; tables exchange half-sets at half time). `boards` then lists their boards in
    /// that order, the first half-set's first, and `set` is the first half-set's set.
    /// Omitted when the table plays one whole set. (Any other count is a validator finding.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub half_sets: Vec<HalfSet>,
}

/// Half of a set's boards: with B boards a set, half 1 is its first B/2 boards, half 2 the
/// last B/2.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[schema(as = MovementHalfSet)]
pub struct HalfSet {
    /// The set the boards belong to.
    pub set: u32,
    /// 1: the set's first half, 2: its second half (any other value is a validator finding).
    pub half: u32,
}

impl HalfSet {
    /// The boards of this half when every set holds `boards_per_round` boards (even).
    pub fn boards(self, boards_per_round: u32) -> Vec<u32> {
        let all = set_boards(self.set, boards_per_round);
        let mid = all.len() / 2;
        if self.half == 1 {
            all[..mid].to_vec()
        } else {
            all[mid..].to_vec()
        }
    }
}

impl TableRound {
    /// A table playing one whole set (no arrow switch, no section label).
    pub fn whole(table: u32, ns: Option<u32>, ew: Option<u32>, set: u32, boards: Vec<u32>) -> Self {
        TableRound {
            table,
            ns,
            ew,
            set,
            boards,
            arrow_switch: false,
            section: None,
            half_sets: Vec::new(),
        }
    }

    /// The sets whose boards are played here: `set`, or the sets of the half-sets.
    pub fn sets_played(&self) -> Vec<u32> {
        if self.half_sets.is_empty() {
            vec![self.set]
        } else {
            let mut v: Vec<u32> = self.half_sets.iter().map(|h| h.set).collect();
            v.dedup();
            v
        }
    }
}

/// One round of a movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MovementRound)]
pub struct Round {
    pub round: u32,
    pub tables: Vec<TableRound>,
    /// Pairs that do not play this round.
    #[serde(default)]
    pub sit_out: Vec<SitOut>,
    /// Sets not in play this round (on a relay or bye stand).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relay_sets: Vec<u32>,
}

/// A complete movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Movement {
    /// The generator that built it (a kind of `GET /api/v1/movements`, e.g. `mitchell`), or a
    /// label of the director's own for a movement made by hand (e.g. `custom`).
    pub kind: String,
    /// Number of tables in the room (a half table counts as a table).
    #[schema(maximum = 1000)]
    pub tables: u32,
    pub pair_numbering: PairNumbering,
    pub boards_per_round: u32,
    #[schema(max_items = 500)]
    pub rounds: Vec<Round>,
}

impl Movement {
    /// The identity of the pair sitting in `dir` at `t` under this movement's numbering.
    pub fn pair_at(&self, t: &TableRound, dir: Direction) -> Option<PairId> {
        let n = match dir {
            Direction::Ns => t.ns?,
            Direction::Ew => t.ew?,
        };
        Some(match (self.pair_numbering, dir) {
            (PairNumbering::Howell, _) => PairId::Pair(n),
            (PairNumbering::Mitchell, Direction::Ns) => PairId::Ns(n),
            (PairNumbering::Mitchell, Direction::Ew) => PairId::Ew(n),
        })
    }
}

/// The pairs seated at a table, with their seat: NS first.
pub(crate) fn seated(m: &Movement, t: &TableRound) -> Vec<(PairId, Direction)> {
    [Direction::Ns, Direction::Ew]
        .into_iter()
        .filter_map(|d| m.pair_at(t, d).map(|p| (p, d)))
        .collect()
}

/// True when both seats of the table are filled, so the boards are actually played.
pub(crate) fn is_full(t: &TableRound) -> bool {
    t.ns.is_some() && t.ew.is_some()
}

/// The most boards a round any pairs movement serves (the schema of
/// `MovementParams::boards_per_round` states the same bound).
pub const MAX_BOARDS_PER_ROUND: u32 = 8;

/// Board numbers of set `set` (1-based) when every set holds `boards_per_round` boards.
pub fn set_boards(set: u32, boards_per_round: u32) -> Vec<u32> {
    let first = (set - 1) * boards_per_round + 1;
    (first..first + boards_per_round).collect()
}

/// The options a generator may take (query parameters of `GET /api/v1/movements/{kind}`).
/// Each generator reads the ones that apply to it and rejects, with a `MovementError`,
/// values it cannot serve. Shared by all generators: add fields, never rename them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MovementParams {
    /// Number of tables, a half table included.
    pub tables: u32,
    /// Rounds to play (curtailing); default: the full movement.
    pub rounds: Option<u32>,
    /// Boards per round (default 2 for Howells, 3 for Mitchells unless stated otherwise);
    /// 1 to `MAX_BOARDS_PER_ROUND` (8).
    #[schema(minimum = 1, maximum = 8)]
    pub boards_per_round: Option<u32>,
    /// A half table: which direction's seats are empty (Mitchell) / an odd number of pairs (Howell).
    pub half_table: Option<Direction>,
    /// Which table holds the half table (default: the highest).
    pub half_table_at: Option<u32>,
    /// Add an NS rover (pair T+1) to a full-table Mitchell.
    #[serde(default)]
    pub rover: bool,
    /// Round from which a late rover joins a running Mitchell (default 1: from the start).
    pub rover_from_round: Option<u32>,
    /// Skip Mitchell: skip after this many rounds.
    pub skip_after: Option<u32>,
    /// Arrow-switch Mitchell: the rounds that are switched.
    pub switch_rounds: Option<Vec<u32>>,
    /// Web Mitchell: number of web tables (even).
    pub web_tables: Option<u32>,
    /// Appendix Mitchells: the base (prime for the Appendix Mitchell).
    pub base_tables: Option<u32>,
    /// Appendix Mitchell pair-movement variant (e.g. `ns_up2_ew_up1`).
    pub variant: Option<String>,
    /// Twin Mitchell: `stanzas` (one section, two stanzas) or `sections` (two sections sharing boards).
    #[schema(schema_with = twin_mode_schema)]
    pub twin_mode: Option<String>,
    /// Number of sets of boards available.
    pub sets: Option<u32>,
}

/// Why a generator or the validator refuses a request: names the field at fault and, for
/// sizes a generator cannot serve, the sizes it can.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MovementError {
    /// The request field at fault (`tables`, `rounds`, `half_table`, ...).
    pub field: String,
    /// What is wrong, in a director's words.
    pub message: String,
    /// The values this generator can serve, when that helps (e.g. "even numbers of tables from 4").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supported: Option<String>,
}

impl MovementError {
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        MovementError {
            field: field.to_string(),
            message: message.into(),
            supported: None,
        }
    }

    pub fn with_supported(mut self, supported: impl Into<String>) -> Self {
        self.supported = Some(supported.into());
        self
    }
}

impl std::fmt::Display for MovementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)?;
        if let Some(s) = &self.supported {
            write!(f, " (supported: {s})")?;
        }
        Ok(())
    }
}
