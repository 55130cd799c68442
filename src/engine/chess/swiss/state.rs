//! Input state of a Swiss section: players, their round-by-round history, the section
//! settings and the requests for the round being paired. This is the "same state as JSON"
//! accepted by the stateless pairing endpoint, and what [`super::trf::parse_trf`] produces.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A colour in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The outcome of one round for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoundResult {
    /// Game won over the board.
    Win,
    /// Game drawn.
    Draw,
    /// Game lost over the board.
    Loss,
    /// Won by forfeit (the game counts as not played for colours and, unless the section
    /// allows it, the two players may not meet again).
    ForfeitWin,
    /// Lost by forfeit.
    ForfeitLoss,
    /// Full-point bye given by the pairing (odd number of players; TRF `U`).
    PairingBye,
    /// Full-point bye requested in advance or granted by the director (TRF `F`).
    FullBye,
    /// Half-point bye (TRF `H`).
    HalfBye,
    /// Zero-point bye: absent, withdrawn, or entered late (TRF `Z`, or an empty column).
    ZeroBye,
}

impl RoundResult {
    /// Points in half-points (win 2, draw 1, loss 0).
    pub fn half_points(self) -> u32 {
        match self {
            RoundResult::Win
            | RoundResult::ForfeitWin
            | RoundResult::PairingBye
            | RoundResult::FullBye => 2,
            RoundResult::Draw | RoundResult::HalfBye => 1,
            _ => 0,
        }
    }
    /// True for the results that need an opponent.
    pub fn has_opponent(self) -> bool {
        matches!(
            self,
            RoundResult::Win
                | RoundResult::Draw
                | RoundResult::Loss
                | RoundResult::ForfeitWin
                | RoundResult::ForfeitLoss
        )
    }
    /// True when the game was played over the board (it gives a colour).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            RoundResult::Win | RoundResult::Draw | RoundResult::Loss
        )
    }
    /// True for a bye worth a full point (pairing or requested).
    pub fn is_full_bye(self) -> bool {
        matches!(self, RoundResult::PairingBye | RoundResult::FullBye)
    }
}

/// One round of one player's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RoundRecord {
    /// Start number of the opponent; none for byes.
    #[serde(default)]
    pub opponent: Option<u32>,
    /// Colour played; none for byes and forfeits.
    #[serde(default)]
    pub colour: Option<Colour>,
    /// The result for this player.
    pub result: RoundResult,
}

/// A player of the section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SwissPlayer {
    /// Start number (the TRF start number), unique, 1 to 99999.
    #[schema(minimum = 1, maximum = 99999)]
    pub start_number: u32,
    /// Name as printed (no control characters).
    #[serde(default)]
    #[schema(value_type = crate::limits::schema::PlainText)]
    pub name: String,
    /// Rating (0 when unknown).
    #[serde(default)]
    #[schema(maximum = 4000)]
    pub rating: u32,
    /// Team, club or family code for pairing avoidance.
    #[serde(default)]
    #[schema(value_type = Option<crate::limits::schema::Code>)]
    pub team: Option<String>,
    /// The player has no rating (ranked by the rating given, usually 0; avoided for the bye).
    #[serde(default)]
    pub unrated: bool,
    /// One record per completed round, round 1 first. A shorter list means the player was
    /// absent (late entry): missing rounds count as zero-point byes.
    #[serde(default)]
    #[schema(max_items = 99)]
    pub history: Vec<RoundRecord>,
    /// Withdrawn from the event: not paired any more.
    #[serde(default)]
    pub withdrawn: bool,
    /// Points added by the director (half-points), e.g. for a late entry given a score.
    #[serde(default)]
    #[schema(minimum = -198, maximum = 198)]
    pub adjustment_half_points: i32,
    /// Sex as the TRF writes it (column 10: usually m for men, w for women; any one character is
    /// kept as read); not used by the pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<TrfSex>)]
    pub sex: Option<String>,
    /// FIDE title as the TRF writes it (`GM`, `g`, `WIM`…, columns 11-13); not used by the
    /// pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<TrfTitle>)]
    pub title: Option<String>,
    /// FIDE federation code (`NOR`, columns 54-56); not used by the pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<TrfFederation>)]
    pub federation: Option<String>,
    /// FIDE id (columns 58-68); not used by the pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<TrfFideId>)]
    pub fide_id: Option<String>,
    /// Birth date as the TRF writes it (`YYYY/MM/DD` or a year, columns 70-79); not used by
    /// the pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<TrfBirthDate>)]
    pub birth_date: Option<String>,
}

/// The acceleration a section asks for (`acceleration` setting, FIDE Dutch only): `none`, or
/// `baku` (the Baku method, [`Acceleration::baku`]). A TRF's `XXA`/`250` records come on top
/// of `none` when the file is paired.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccelerationMethod {
    /// No acceleration (default).
    #[default]
    None,
    /// The Baku method (C.04.5.1).
    Baku,
}

/// Which natural pairing the section uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PairingSystem {
    /// Top half against bottom half in every score group (US Chess / WinTD Swiss).
    #[default]
    Swiss,
    /// 1-2, 3-4: adjacent players inside every score group.
    Adjacent,
    /// The FIDE Dutch system (C.04.3), paired by [`crate::engine::chess::swiss::dutch`]; the US
    /// settings (colour rule, limits, team avoidance) do not apply to it. Sections of at most
    /// 10 000 players (`limits::MAX_DUTCH_PLAYERS`).
    FideDutch,
    /// The FIDE Burstein system (C.04.4.2), paired by
    /// [`crate::engine::chess::swiss::burstein`] as bbpPairings pairs it; the US settings do
    /// not apply to it. Sections of at most 3 000 players.
    FideBurstein,
    /// The FIDE Dubov system (C.04.4.1), paired by [`crate::engine::chess::swiss::dubov`];
    /// the US settings do not apply to it. Sections of at most 1 000 players.
    FideDubov,
    /// The FIDE Lim system (C.04.4.3), paired by [`crate::engine::chess::swiss::lim`]; the
    /// US settings do not apply to it. Sections of at most 1 000 players.
    FideLim,
}

impl PairingSystem {
    /// The name settings and the API use.
    pub fn as_str(self) -> &'static str {
        match self {
            PairingSystem::Swiss => "swiss",
            PairingSystem::Adjacent => "adjacent",
            PairingSystem::FideDutch => "fide_dutch",
            PairingSystem::FideBurstein => "fide_burstein",
            PairingSystem::FideDubov => "fide_dubov",
            PairingSystem::FideLim => "fide_lim",
        }
    }
}

/// Colour rule 3 when two players have identical colour histories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
pub enum ColourRule {
    /// Variation 29I1: the due colour to the higher-ranked player in even or plus score
    /// groups, to the lower-ranked one in minus groups; coin flip in the last round (29I4).
    #[default]
    #[serde(rename = "3a")]
    Rule3a,
    /// The due colour always to the higher-ranked player.
    #[serde(rename = "3b")]
    Rule3b,
}

/// Team/club/family code avoidance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamAvoidance {
    /// Team codes play no part.
    #[default]
    Ignore,
    /// Avoid pairing players with the same code in every round.
    Avoid,
    /// Avoid only in rounds 1..=`team_avoidance_rounds`.
    AvoidFirstN,
}

fn default_high() -> u32 {
    200
}
fn default_low() -> u32 {
    80
}

/// Section settings (WinTD's Add/Edit a Section dialog).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SwissSettings {
    /// Natural pairing: `swiss` or `adjacent` (1-2, 3-4).
    #[serde(default)]
    pub system: PairingSystem,
    /// Colour rule 3: `3a` or `3b`.
    #[serde(default)]
    pub colour_rule: ColourRule,
    /// Equalisation ("high") limit in rating points (default 200).
    #[serde(default = "default_high")]
    #[schema(maximum = 4000)]
    pub high_limit: u32,
    /// Alternation ("low") limit in rating points (default 80).
    #[serde(default = "default_low")]
    #[schema(maximum = 4000)]
    pub low_limit: u32,
    /// No rating limits ("None (FIDE style)"): colours are corrected whatever it costs.
    #[serde(default)]
    pub fide_style: bool,
    /// Team code avoidance.
    #[serde(default)]
    pub team_avoidance: TeamAvoidance,
    /// N for `avoid_first_n`.
    #[serde(default)]
    #[schema(maximum = 99)]
    pub team_avoidance_rounds: u32,
    /// Pairs the director prohibits (start numbers).
    #[serde(default)]
    #[schema(max_items = 1000, value_type = Vec<crate::limits::schema::StartNumberPair>)]
    pub prohibited_pairs: Vec<[u32; 2]>,
    /// May two players whose game was forfeited meet again?
    #[serde(default)]
    pub allow_forfeit_rematch: bool,
    /// Planned number of rounds (0 = unknown: no look-ahead, no last-round rule).
    #[serde(default)]
    #[schema(maximum = 99)]
    pub total_rounds: u32,
    /// Seed of every coin flip.
    #[serde(default)]
    pub seed: u64,
    /// Colour of the higher-ranked player on board 1 in round 1; none = coin flip.
    #[serde(default)]
    pub first_colour: Option<Colour>,
    /// Acceleration (FIDE Dutch only): `none` (default) or `baku`.
    #[serde(default)]
    pub acceleration: AccelerationMethod,
}

impl Default for SwissSettings {
    fn default() -> Self {
        SwissSettings {
            system: PairingSystem::Swiss,
            colour_rule: ColourRule::Rule3a,
            high_limit: 200,
            low_limit: 80,
            fide_style: false,
            team_avoidance: TeamAvoidance::Ignore,
            team_avoidance_rounds: 0,
            prohibited_pairs: Vec::new(),
            allow_forfeit_rematch: false,
            total_rounds: 0,
            seed: 0,
            first_colour: None,
            acceleration: Default::default(),
        }
    }
}

/// The widths of a player's identity columns in a TRF file (sex, title, federation, FIDE id,
/// birth date): a value sent must fit its column.
pub const TRF_SEX_WIDTH: usize = 1;
/// See [`TRF_SEX_WIDTH`].
pub const TRF_TITLE_WIDTH: usize = 3;
/// See [`TRF_SEX_WIDTH`].
pub const TRF_FEDERATION_WIDTH: usize = 3;
/// See [`TRF_SEX_WIDTH`].
pub const TRF_FIDE_ID_WIDTH: usize = 11;
/// See [`TRF_SEX_WIDTH`].
pub const TRF_BIRTH_DATE_WIDTH: usize = 10;

crate::limits::schema::text_bound!(
    /// A player's sex as a TRF file writes it (one character).
    TrfSex: TRF_SEX_WIDTH
);
crate::limits::schema::text_bound!(
    /// A FIDE title as a TRF file writes it.
    TrfTitle: TRF_TITLE_WIDTH
);
crate::limits::schema::text_bound!(
    /// A FIDE federation code.
    TrfFederation: TRF_FEDERATION_WIDTH
);
crate::limits::schema::text_bound!(
    /// A FIDE id.
    TrfFideId: TRF_FIDE_ID_WIDTH
);
crate::limits::schema::text_bound!(
    /// A birth date as a TRF file writes it.
    TrfBirthDate: TRF_BIRTH_DATE_WIDTH
);

/// The points a requested bye may give: none (absent), half a point or a whole one.
pub const BYE_POINTS: [f64; 3] = [0.0, 0.5, 1.0];

/// A bye's points: 0, 0.5 or 1 ([`BYE_POINTS`]), written as a range in steps (client
/// generators take no enum of numbers with a fraction).
pub struct ByePoints;

impl utoipa::PartialSchema for ByePoints {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let step = BYE_POINTS[1] - BYE_POINTS[0];
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some(
                "A bye's points: 1 (a full-point bye), 0.5 (a half-point bye) or 0 (absent).",
            ))
            .minimum(Some(BYE_POINTS[0]))
            .maximum(Some(BYE_POINTS[BYE_POINTS.len() - 1]))
            .multiple_of(Some(step))
            .into()
    }
}

impl ToSchema for ByePoints {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("ByePoints")
    }
}

/// A bye requested in advance for the round being paired.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RequestedBye {
    /// Start number.
    pub player: u32,
    /// 0, 0.5 or 1.
    #[schema(value_type = ByePoints)]
    pub points: f64,
}

/// The whole state needed to pair the next round. Its parts must agree (rules between fields,
/// refused with 422 naming the one at fault): start numbers unique and every one named known,
/// each game in both players' histories alike, at least two players left to pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SwissState {
    /// Section settings.
    #[serde(default)]
    pub settings: SwissSettings,
    /// All players ever entered.
    #[schema(min_items = 2, max_items = 10000)]
    pub players: Vec<SwissPlayer>,
    /// Round to pair; none = one more than the longest history.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 99)]
    pub round: Option<u32>,
    /// Byes requested for the round being paired (absent players get a zero-point bye).
    #[serde(default)]
    #[schema(max_items = 10000)]
    pub requested_byes: Vec<RequestedBye>,
    /// Start numbers absent for this round only (zero-point bye).
    #[serde(default)]
    #[schema(max_items = 10000)]
    pub absent: Vec<u32>,
}

/// Why a state cannot be paired. `field` names the JSON path at fault.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SwissError {
    /// JSON path or TRF line of the fault, e.g. `players[3].history[1].opponent`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SwissError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for SwissError {}

pub(crate) fn err(field: impl Into<String>, message: impl Into<String>) -> SwissError {
    SwissError {
        field: field.into(),
        message: message.into(),
    }
}

impl SwissState {
    /// Number of completed rounds (the longest history).
    pub fn rounds_played(&self) -> u32 {
        self.players
            .iter()
            .map(|p| p.history.len() as u32)
            .max()
            .unwrap_or(0)
    }

    /// The round being paired.
    pub fn round_to_pair(&self) -> u32 {
        self.round.unwrap_or_else(|| self.rounds_played() + 1)
    }
}

/// Derived facts about one player used by the pairing.
#[derive(Debug, Clone)]
pub(crate) struct PlayerView {
    pub sn: u32,
    /// Pairing-number position (0 = the first) for the FIDE colour rules: the start number's
    /// place among the players numbered ([`super::round::pairing_positions`]); `sn − 1` unless
    /// the pairing sets it.
    pub position: usize,
    pub rating: u32,
    pub unrated: bool,
    pub team: Option<String>,
    /// Score in half-points.
    pub score: i64,
    /// Colours of games played over the board, oldest first.
    pub colours: Vec<Colour>,
    /// Opponents met over the board (and, unless allowed, in forfeited games).
    pub met: Vec<u32>,
    pub had_full_bye: bool,
}

impl PlayerView {
    /// Whites minus blacks.
    pub fn imbalance(&self) -> i64 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }
}

pub(crate) fn view(state: &SwissState, index: usize) -> PlayerView {
    let p = &state.players[index];
    let mut score = p.adjustment_half_points as i64;
    let mut colours = Vec::new();
    let mut met = Vec::new();
    let mut had_full_bye = false;
    for rec in &p.history {
        score += rec.result.half_points() as i64;
        if rec.result.is_played() {
            if let Some(c) = rec.colour {
                colours.push(c);
            }
        }
        if let Some(o) = rec.opponent {
            if rec.result.is_played() || !state.settings.allow_forfeit_rematch {
                met.push(o);
            }
        }
        if rec.result.is_full_bye() {
            had_full_bye = true;
        }
    }
    PlayerView {
        sn: p.start_number,
        position: p.start_number.saturating_sub(1) as usize,
        rating: p.rating,
        unrated: p.unrated,
        team: p.team.clone().filter(|t| !t.trim().is_empty()),
        score,
        colours,
        met,
        had_full_bye,
    }
}
