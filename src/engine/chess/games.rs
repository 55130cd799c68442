//! A game's result as a director writes it, and the games and byes of a section: the records
//! the standings ([`crate::engine::chess::scoring`]) and every tie-break are computed from.
//!
//! Points are counted in half-points so that ties are exact.

/// Every way a result may be written (spaces aside), and the result it is.
pub const RESULT_SPELLINGS: [(&str, GameResult); 20] = [
    ("1-0", GameResult::WhiteWin),
    ("0-1", GameResult::BlackWin),
    ("1/2-1/2", GameResult::Draw),
    ("½-½", GameResult::Draw),
    ("0.5-0.5", GameResult::Draw),
    ("=", GameResult::Draw),
    ("½", GameResult::Draw),
    ("+/-", GameResult::WhiteForfeitWin),
    ("+:-", GameResult::WhiteForfeitWin),
    ("+--", GameResult::WhiteForfeitWin),
    ("+-", GameResult::WhiteForfeitWin),
    ("-/+", GameResult::BlackForfeitWin),
    ("-:+", GameResult::BlackForfeitWin),
    ("--+", GameResult::BlackForfeitWin),
    ("-+", GameResult::BlackForfeitWin),
    ("-/-", GameResult::DoubleForfeit),
    ("-:-", GameResult::DoubleForfeit),
    ("---", GameResult::DoubleForfeit),
    ("0-0", GameResult::DoubleForfeit),
    ("--", GameResult::DoubleForfeit),
];

/// A game's result as the API takes it: any spelling of [`RESULT_SPELLINGS`], spaces anywhere.
pub struct GameResultText;

impl utoipa::PartialSchema for GameResultText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use crate::limits::schema::{space, spaced_word};
        let w = space();
        let spellings = RESULT_SPELLINGS
            .iter()
            .map(|(spelling, _)| spaced_word(spelling, &w))
            .collect::<Vec<_>>()
            .join("|");
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A result: `1-0`, `0-1`, `1/2-1/2` (or `½-½`, `=`), `+/-` and `-/+` (forfeits), `-/-` (double forfeit); spaces anywhere.",
            ))
            .pattern(Some(format!("^{w}(?:{spellings}){w}$")))
            .into()
    }
}

impl utoipa::ToSchema for GameResultText {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("GameResultText")
    }
}

/// A game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWin,
    BlackWin,
    Draw,
    /// White wins by forfeit (`+/-`).
    WhiteForfeitWin,
    /// Black wins by forfeit (`-/+`).
    BlackForfeitWin,
    /// Neither player appeared (`-/-`).
    DoubleForfeit,
}

impl GameResult {
    /// Accepts `1-0`, `0-1`, `1/2-1/2`, `½-½`, `0.5-0.5`, `=`, `+/-`, `-/+`, `-/-` (also `+:-`,
    /// `+--`, `--+`, `---`, `0-0` for a double forfeit), ignoring spaces.
    pub fn parse(text: &str) -> Option<GameResult> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        RESULT_SPELLINGS
            .iter()
            .find(|(spelling, _)| *spelling == t)
            .map(|&(_, result)| result)
    }

    /// The stored, canonical notation.
    pub fn canonical(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1-0",
            GameResult::BlackWin => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::WhiteForfeitWin => "+/-",
            GameResult::BlackForfeitWin => "-/+",
            GameResult::DoubleForfeit => "-/-",
        }
    }

    /// Half-points scored by (white, black).
    pub fn half_points(self) -> (u32, u32) {
        match self {
            GameResult::WhiteWin | GameResult::WhiteForfeitWin => (2, 0),
            GameResult::BlackWin | GameResult::BlackForfeitWin => (0, 2),
            GameResult::Draw => (1, 1),
            GameResult::DoubleForfeit => (0, 0),
        }
    }

    /// Whether the game was played over the board.
    pub fn played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWin | GameResult::BlackWin | GameResult::Draw
        )
    }
}

/// A game between players `white` and `black` (indices into the player list).
#[derive(Debug, Clone, Copy)]
pub struct ScoredGame {
    pub round: u32,
    pub white: usize,
    pub black: usize,
    pub result: Option<GameResult>,
}

/// Points a player received without a game (a bye) in a round, in half-points.
#[derive(Debug, Clone, Copy)]
pub struct ScoredBye {
    pub round: u32,
    pub player: usize,
    pub half_points: u32,
    /// The pairing-allocated bye (the odd player's), not one asked for or an absence.
    pub allocated: bool,
}
