//! `/api/v1/bridge/*`: stateless bridge scoring for other programs (no event needed): the
//! score of a board, the matchpoints of a board, IMPs, victory points, the double-dummy
//! analysis of deals. The rules are the engine's (`engine::bridge::scoring`, `::analysis`).

use actix_web::{get, post, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::api::extract::{json_cached, JsonBody, QueryParams};
use crate::api::responses::{PublicSubmit, StatelessRead};
use crate::engine::bridge::analysis::{par, DdTable, Par};
use crate::engine::bridge::scoring::notation::{
    AdjustedText, BoardScoreValue, ContractText, ResultText, SeatText, Tricks, VpBoards,
};
use crate::engine::bridge::scoring::{
    self, BoardScore, Contract, Matchpoints, Scale, ScoreError, Seat, Vulnerability, MAX_BOARDS,
    MAX_SCORE,
};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::limits::schema::{integer_bound, MovementNumber};

/// The highest board number accepted (the cycle repeats every 16 boards).
pub const MAX_BOARD: u32 = crate::limits::MAX_MOVEMENT_NUMBER;
/// The most results of one board that are matchpointed in one request.
pub const MAX_SCORES: usize = 1_000;
/// The largest IMP margin accepted for victory points.
pub const MAX_IMP_MARGIN: u32 = 100_000;

integer_bound!(
    /// The results of the most played board.
    ExpectedScores: UInt32, 1, MAX_SCORES
);

integer_bound!(
    /// A difference in points: at most twice the largest board score either way.
    PointDifference: Int64, -2 * MAX_SCORE, 2 * MAX_SCORE
);

integer_bound!(
    /// The winner's IMP margin of a match.
    ImpMargin: Int64, 0, MAX_IMP_MARGIN
);

/// One score of `POST /api/v1/bridge/matchpoints`: the NS score, an adjusted score
/// (`"A+/A-"`) or a split score (`{"ns": -620, "ew": -420}`).
struct MatchpointScore;

impl utoipa::PartialSchema for MatchpointScore {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::OneOfBuilder;
        use utoipa::openapi::Ref;
        OneOfBuilder::new()
            .description(Some(
                "The NS score, an adjusted score (`\"A+/A-\"`) or a split score (`{\"ns\": -620, \"ew\": -420}`).",
            ))
            .item(Ref::from_schema_name(BoardScoreValue::name()))
            .item(Ref::from_schema_name(AdjustedText::name()))
            .item(Ref::from_schema_name(SplitScore::name()))
            .into()
    }
}

impl ToSchema for MatchpointScore {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        use utoipa::PartialSchema;
        for (name, schema) in [
            (BoardScoreValue::name(), BoardScoreValue::schema()),
            (AdjustedText::name(), AdjustedText::schema()),
            (SplitScore::name(), SplitScore::schema()),
        ] {
            schemas.push((name.into_owned(), schema));
        }
    }
}

/// A split score: the score each side is given, both from NS's side.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)] // documents the JSON only
#[serde(deny_unknown_fields)]
struct SplitScore {
    #[schema(value_type = BoardScoreValue)]
    ns: i32,
    #[schema(value_type = BoardScoreValue)]
    ew: i32,
}

fn score_error(e: ScoreError) -> ApiError {
    ApiError::invalid(e.field, e.message)
}

/// A `+` written unencoded in a query string (`result=+1`) arrives as a space: a result of a
/// space and digits reads as `+digits`.
fn plus_sign(result: &str) -> String {
    match result.strip_prefix(' ') {
        Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => format!("+{d}"),
        _ => result.to_string(),
    }
}

/// `?board=7&contract=4SX&declarer=N&tricks=11` (or `vulnerability=` instead of `board`,
/// `result=+1` instead of `tricks`).
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ScoreQuery {
    /// Board number (1–9999): gives the dealer and the vulnerability. Give the board or the
    /// vulnerability (both: they must agree).
    #[param(inline, value_type = Option<MovementNumber>)]
    pub board: Option<u32>,
    /// `none`, `ns`, `ew` or `both`, instead of (or agreeing with) `board`.
    #[param(inline, value_type = Option<Vulnerability>)]
    pub vulnerability: Option<String>,
    /// `1C` … `7NT` (`N` for `NT`), optionally `X` or `XX`; or `PASS`.
    #[param(inline, value_type = ContractText)]
    pub contract: String,
    /// `N`, `E`, `S` or `W` (needed for a contract, not for `PASS`).
    #[param(inline, value_type = Option<SeatText>)]
    pub declarer: Option<String>,
    /// Tricks taken by declarer, 0–13. Give `tricks` or `result` for a contract, not both.
    #[param(inline, value_type = Option<Tricks>)]
    pub tricks: Option<u32>,
    /// The result against the contract instead of `tricks`: `=`, `+1`, `-2` (`+` may be
    /// written unencoded); it must fit the contract.
    #[param(inline, value_type = Option<ResultText>)]
    pub result: Option<String>,
}

/// The score of one board.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"board": 7, "dealer": "S", "vulnerability": "both", "contract": "4SX",
    "declarer": "N", "tricks": 11, "result": "+1", "ns_score": 990, "ew_score": -990}))]
pub struct BoardScoreAnswer {
    /// The board asked for (null when only the vulnerability was given).
    pub board: Option<u32>,
    /// The board's dealer (null when only the vulnerability was given).
    pub dealer: Option<Seat>,
    pub vulnerability: Vulnerability,
    /// The contract in canonical form.
    pub contract: Contract,
    /// The declarer (null for a passed-out board).
    pub declarer: Option<Seat>,
    /// Tricks taken by declarer (0 for a passed-out board).
    pub tricks: u8,
    /// The result against the contract: `=`, `+1`, `-2` (empty for a passed-out board).
    pub result: String,
    pub ns_score: i32,
    pub ew_score: i32,
}

impl ScoreQuery {
    fn answer(self) -> Result<BoardScoreAnswer, ApiError> {
        if let Some(b) = self.board {
            if !(1..=MAX_BOARD).contains(&b) {
                return Err(ApiError::invalid(
                    "board",
                    format!("must be 1 to {MAX_BOARD}"),
                ));
            }
        }
        let given: Option<Vulnerability> = self
            .vulnerability
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(score_error)?;
        let vulnerability = match (self.board, given) {
            (None, None) => {
                return Err(ApiError::invalid(
                    "board",
                    "give the board or the vulnerability",
                ))
            }
            (None, Some(v)) => v,
            (Some(b), None) => scoring::vulnerability(b),
            (Some(b), Some(v)) if scoring::vulnerability(b) == v => v,
            (Some(b), Some(v)) => {
                return Err(ApiError::invalid(
                    "vulnerability",
                    format!(
                        "board {b} is {}, not {v}; give the board or the vulnerability",
                        scoring::vulnerability(b)
                    ),
                ))
            }
        };
        let contract: Contract = self.contract.parse().map_err(score_error)?;
        let declarer: Option<Seat> = self
            .declarer
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(score_error)?;
        let (declarer, tricks) = match contract {
            Contract::PassedOut => {
                if let Some(r) = self.result.as_deref() {
                    scoring::tricks_from_result(&contract, &plus_sign(r)).map_err(score_error)?;
                }
                if let Some(t) = self.tricks.filter(|&t| t != 0) {
                    return Err(ApiError::invalid(
                        "tricks",
                        format!("{t}: the board was passed out, no tricks were taken"),
                    ));
                }
                (None, 0)
            }
            Contract::Bid { .. } => {
                let Some(declarer) = declarer else {
                    return Err(ApiError::invalid("declarer", "is required (N, E, S or W)"));
                };
                let tricks = match (self.tricks, self.result.as_deref()) {
                    (Some(_), Some(_)) => {
                        return Err(ApiError::invalid(
                            "result",
                            "give tricks or result, not both",
                        ))
                    }
                    (None, None) => {
                        return Err(ApiError::invalid("tricks", "give tricks (0–13) or result"))
                    }
                    (Some(t), None) if t > 13 => {
                        return Err(ApiError::invalid("tricks", format!("{t}: a deal has 13")))
                    }
                    (Some(t), None) => t as u8,
                    (None, Some(r)) => scoring::tricks_from_result(&contract, &plus_sign(r))
                        .map_err(score_error)?,
                };
                (Some(declarer), tricks)
            }
        };
        let ns_score = scoring::ns_score(
            &contract,
            declarer.unwrap_or(Seat::N),
            tricks,
            vulnerability,
        )
        .map_err(score_error)?;
        Ok(BoardScoreAnswer {
            board: self.board,
            dealer: self.board.map(scoring::dealer),
            vulnerability,
            contract,
            declarer,
            tricks,
            result: scoring::result_notation(&contract, tricks),
            ns_score,
            ew_score: -ns_score,
        })
    }
}

/// The duplicate score of one board (law 77): dealer and vulnerability from the board
/// number, the NS and EW scores of a contract and its result.
#[utoipa::path(
    get, path = "/api/v1/bridge/score", tag = "bridge",
    params(ScoreQuery),
    responses(
        (status = 200, body = BoardScoreAnswer),
        StatelessRead,
    )
)]
#[get("/api/v1/bridge/score")]
pub async fn board_score(
    req: HttpRequest,
    QueryParams(q): QueryParams<ScoreQuery>,
) -> ApiResult<HttpResponse> {
    json_cached(&req, &q.answer()?)
}

/// The results of one board to matchpoint.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"scores": [420, 450, -50, "A+/A-", {"ns": -620, "ew": -420}], "expected": 6, "scale": "ebu"}))]
pub struct MatchpointRequest {
    /// The NS scores of the board, 1 to 1000 of them. Each is a number (the NS score), an
    /// adjusted score `"A+/A-"` (NS/EW: `A+`, `A`, `A-`, or `60`, `50`, `40`), or a split
    /// score `{"ns": -620, "ew": -420}` (the score each side is given, both from NS's side).
    #[schema(value_type = Vec<MatchpointScore>, min_items = 1, max_items = 1000)]
    pub scores: Vec<Value>,
    /// The number of results of the most played board (default: the number of scores);
    /// when larger, the board is factored by Neuberg. At least the number of scores (a rule
    /// between the two fields).
    #[schema(value_type = Option<ExpectedScores>)]
    pub expected: Option<usize>,
    /// `ebu` (2 per score beaten, default) or `acbl` (1).
    #[serde(default)]
    pub scale: Scale,
}

/// One entry of `scores` as a board score; errors name `scores[i]`.
fn board_score_entry(i: usize, v: &Value) -> Result<BoardScore, FieldError> {
    let field = format!("scores[{i}]");
    let score = |v: &Value, field: String| -> Result<i32, FieldError> {
        match v.as_i64() {
            Some(x) if x.unsigned_abs() <= MAX_SCORE.unsigned_abs().into() => Ok(x as i32),
            Some(_) => Err(FieldError {
                field,
                message: format!("a board score is at most {MAX_SCORE} either way"),
            }),
            None => Err(FieldError {
                field,
                message: "must be a whole number".into(),
            }),
        }
    };
    match v {
        Value::Number(_) => score(v, field).map(BoardScore::Score),
        Value::String(s) => scoring::parse_adjusted(s)
            .map(|(ns, ew)| BoardScore::Adjusted { ns, ew })
            .map_err(|e| FieldError { field, message: e.message }),
        Value::Object(o) => {
            if let Some(k) = o.keys().find(|k| *k != "ns" && *k != "ew") {
                return Err(FieldError {
                    field: format!("{field}.{k}"),
                    message: "a split score has only ns and ew".into(),
                });
            }
            let side = |k: &str| match o.get(k) {
                Some(v) => score(v, format!("{field}.{k}")),
                None => Err(FieldError { field: format!("{field}.{k}"), message: "is required".into() }),
            };
            Ok(BoardScore::Split { ns: side("ns")?, ew: side("ew")? })
        }
        _ => Err(FieldError {
            field,
            message: "a score is a number, an adjusted score (\"A+/A-\") or a split score ({\"ns\", \"ew\"})".into(),
        }),
    }
}

/// Matchpoints of the results of one board: `top`, the NS and EW matchpoints and percentages
/// in the order given. Adjusted scores get 60/50/40 % of the top; the real scores are
/// matchpointed among themselves and Neuberg-factored to the full top.
#[utoipa::path(
    post, path = "/api/v1/bridge/matchpoints", tag = "bridge",
    request_body = MatchpointRequest,
    responses(
        (status = 200, body = Matchpoints),
        PublicSubmit,
    )
)]
#[post("/api/v1/bridge/matchpoints")]
pub async fn board_matchpoints(
    JsonBody(body): JsonBody<MatchpointRequest>,
) -> ApiResult<HttpResponse> {
    let n = body.scores.len();
    if !(1..=MAX_SCORES).contains(&n) {
        return Err(ApiError::invalid(
            "scores",
            format!("give 1 to {MAX_SCORES} scores"),
        ));
    }
    let expected = body.expected.unwrap_or(n);
    if expected < n || expected > MAX_SCORES {
        return Err(ApiError::invalid(
            "expected",
            format!("must be at least the number of scores ({n}) and at most {MAX_SCORES}"),
        ));
    }
    let mut errors = Vec::new();
    let mut scores = Vec::with_capacity(n);
    for (i, v) in body.scores.iter().enumerate() {
        match board_score_entry(i, v) {
            Ok(s) => scores.push(s),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    Ok(HttpResponse::Ok().json(scoring::matchpoints(&scores, expected, body.scale)))
}

/// `?difference=D`: a difference in points, at most twice the largest board score either way.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ImpQuery {
    /// The difference in points (−15200 … 15200).
    #[param(inline, value_type = PointDifference)]
    pub difference: i64,
}

/// IMPs of a difference.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImpAnswer {
    pub imps: i32,
}

/// IMPs of a difference in points (WBF table, sign kept).
#[utoipa::path(
    get, path = "/api/v1/bridge/imps", tag = "bridge",
    params(ImpQuery),
    responses(
        (status = 200, body = ImpAnswer),
        StatelessRead,
    )
)]
#[get("/api/v1/bridge/imps")]
pub async fn imps(
    req: HttpRequest,
    QueryParams(q): QueryParams<ImpQuery>,
) -> ApiResult<HttpResponse> {
    let bound = 2 * i64::from(MAX_SCORE);
    if q.difference.unsigned_abs() > bound.unsigned_abs() {
        return Err(ApiError::invalid(
            "difference",
            format!("at most {bound} either way (twice the largest board score)"),
        ));
    }
    json_cached(
        &req,
        &ImpAnswer {
            imps: scoring::imps(q.difference as i32),
        },
    )
}

/// `?imps=M&boards=B`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct VpQuery {
    /// The winner's IMP margin, 0 or more.
    #[param(inline, value_type = ImpMargin)]
    pub imps: i64,
    /// Boards in the match, 1–1000.
    #[param(inline, value_type = VpBoards)]
    pub boards: u32,
}

/// Victory points of a match.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"winner": 12.8, "loser": 7.2}))]
pub struct VpAnswer {
    pub winner: f64,
    pub loser: f64,
}

/// Victory points for an IMP margin (WBF 2013 continuous 20-point scale, with the WBF
/// concavity correction).
#[utoipa::path(
    get, path = "/api/v1/bridge/vp", tag = "bridge",
    params(VpQuery),
    responses(
        (status = 200, body = VpAnswer),
        StatelessRead,
    )
)]
#[get("/api/v1/bridge/vp")]
pub async fn victory_points(
    req: HttpRequest,
    QueryParams(q): QueryParams<VpQuery>,
) -> ApiResult<HttpResponse> {
    if !(0..=i64::from(MAX_IMP_MARGIN)).contains(&q.imps) {
        return Err(ApiError::invalid(
            "imps",
            format!("the winner's margin: 0 to {MAX_IMP_MARGIN}"),
        ));
    }
    if !(1..=MAX_BOARDS).contains(&q.boards) {
        return Err(ApiError::invalid(
            "boards",
            format!("must be 1 to {MAX_BOARDS}"),
        ));
    }
    let (winner, loser) = scoring::victory_points(q.imps as u32, q.boards);
    json_cached(&req, &VpAnswer { winner, loser })
}

/// The most deals one `POST /api/v1/bridge/analyse` may ask for (a 36-board set).
pub const MAX_ANALYSE: usize = 36;

/// One deal to analyse.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"deal": "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "board": 5}))]
pub struct AnalyseDeal {
    /// A PBN deal string: the first seat, a colon, the four hands clockwise, each
    /// `spades.hearts.diamonds.clubs`.
    #[schema(max_length = 80)]
    pub deal: String,
    /// The board number (1–9999): its dealer and vulnerability, unless given.
    #[schema(minimum = 1, maximum = 9999)]
    pub board: Option<u32>,
    /// `N`, `E`, `S` or `W` (default: the board's, else N).
    #[schema(value_type = Option<Seat>)]
    pub dealer: Option<String>,
    /// `none`, `ns`, `ew`, `both` (PBN's `None`, `NS`, `EW`, `All` too; default: the
    /// board's, else none).
    #[schema(value_type = Option<Vulnerability>)]
    pub vulnerability: Option<String>,
}

/// Deals to analyse: one (`deal`, with `board`, `dealer`, `vulnerability`) or a list
/// (`deals`), not both.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"deals": [
    {"deal": "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "board": 1},
    {"deal": "N:A8643.KQ.K7.AJ92 KT.A9874.J853.Q3 QJ972.6.AQ.KT875 5.JT532.T9642.64", "dealer": "E", "vulnerability": "ns"}
]}))]
pub struct AnalyseRequest {
    #[schema(max_length = 80)]
    pub deal: Option<String>,
    #[schema(minimum = 1, maximum = 9999)]
    pub board: Option<u32>,
    #[schema(value_type = Option<Seat>)]
    pub dealer: Option<String>,
    #[schema(value_type = Option<Vulnerability>)]
    pub vulnerability: Option<String>,
    #[schema(max_items = 36)]
    pub deals: Option<Vec<AnalyseDeal>>,
}

/// One deal analysed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnalysedDeal {
    pub board: Option<u32>,
    /// The deal, North first.
    pub deal: String,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    pub double_dummy: DdTable,
    pub par: Par,
}

/// The deals analysed, in the order given.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnalyseAnswer {
    pub results: Vec<AnalysedDeal>,
}

/// A deal read and checked: `at` prefixes the fields named (`deals[2].`).
fn read_analyse_deal(
    at: &str,
    d: &AnalyseDeal,
    errors: &mut Vec<FieldError>,
) -> Option<(Option<u32>, [String; 4], Seat, Vulnerability)> {
    let mut bad = |field: &str, message: String| {
        errors.push(FieldError {
            field: format!("{at}{field}"),
            message,
        })
    };
    if d.deal.chars().count() > 80 {
        bad("deal", "must be at most 80 characters".into());
        return None;
    }
    let hands = match scoring::parse_deal_string(&d.deal) {
        Ok(h) => Some(h),
        Err(e) => {
            bad("deal", e.message);
            None
        }
    };
    if let Some(b) = d.board.filter(|b| !(1..=MAX_BOARD).contains(b)) {
        bad(
            "board",
            format!("{b} is not a board number (1 to {MAX_BOARD})"),
        );
        return None;
    }
    let dealer = match d.dealer.as_deref() {
        None => Some(d.board.map_or(Seat::N, scoring::dealer)),
        Some(s) => match s.parse::<Seat>() {
            Ok(seat) if s.trim().len() == 1 => Some(seat),
            _ => {
                bad("dealer", format!("{s:?} is not a seat (N, E, S or W)"));
                None
            }
        },
    };
    let vulnerability = match d.vulnerability.as_deref() {
        None => Some(d.board.map_or(Vulnerability::None, scoring::vulnerability)),
        Some(s) => match s.parse::<Vulnerability>() {
            Ok(v) => Some(v),
            Err(e) => {
                bad("vulnerability", e.message);
                None
            }
        },
    };
    Some((d.board, hands?, dealer?, vulnerability?))
}

/// The double-dummy analysis of one deal or a list (at most 36): for each, the tricks each
/// declarer takes in each strain with all hands open (DDS), and the par score and contracts
/// at its vulnerability with its dealer's side bidding first. Stores nothing. The analysis
/// takes its turn with the server's own (one at a time, spread over all cores); a deal takes
/// about 0.3 s of CPU (docs/performance.md).
#[utoipa::path(
    post, path = "/api/v1/bridge/analyse", tag = "bridge",
    request_body = AnalyseRequest,
    responses(
        (status = 200, body = AnalyseAnswer),
        PublicSubmit,
    )
)]
#[post("/api/v1/bridge/analyse")]
pub async fn analyse_deals(JsonBody(body): JsonBody<AnalyseRequest>) -> ApiResult<HttpResponse> {
    let single = body.deal.is_some()
        || body.board.is_some()
        || body.dealer.is_some()
        || body.vulnerability.is_some();
    let list: Vec<(String, AnalyseDeal)> =
        match (body.deals, single) {
            (Some(_), true) => return Err(ApiError::invalid(
                "deals",
                "give one deal (deal, board, dealer, vulnerability) or a list (deals), not both",
            )),
            (None, false) => {
                return Err(ApiError::invalid(
                    "deal",
                    "give a deal (a PBN deal string N:... ) or a list of deals",
                ))
            }
            (None, true) => vec![(
                String::new(),
                AnalyseDeal {
                    deal: body.deal.ok_or_else(|| {
                        ApiError::invalid("deal", "is required (a PBN deal string N:...)")
                    })?,
                    board: body.board,
                    dealer: body.dealer,
                    vulnerability: body.vulnerability,
                },
            )],
            (Some(deals), false) => {
                if deals.is_empty() || deals.len() > MAX_ANALYSE {
                    return Err(ApiError::invalid(
                        "deals",
                        format!("give 1 to {MAX_ANALYSE} deals"),
                    ));
                }
                deals
                    .into_iter()
                    .enumerate()
                    .map(|(i, d)| (format!("deals[{i}]."), d))
                    .collect()
            }
        };
    let mut errors = Vec::new();
    let read: Vec<_> = list
        .iter()
        .filter_map(|(at, d)| read_analyse_deal(at, d, &mut errors))
        .collect();
    crate::error::check(errors)?;
    // each distinct deal solved once
    let mut distinct: Vec<[String; 4]> = Vec::new();
    for r in &read {
        if !distinct.contains(&r.1) {
            distinct.push(r.1.clone());
        }
    }
    let solving = distinct.clone();
    let tables = actix_web::web::block(move || crate::analysis::solve(&solving))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let results = read
        .into_iter()
        .map(|(board, hands, dealer, vulnerability)| {
            let k = distinct.iter().position(|h| *h == hands).unwrap_or(0);
            let table = tables[k];
            AnalysedDeal {
                board,
                deal: scoring::deal_string(&hands),
                dealer,
                vulnerability,
                par: par(&table, vulnerability, dealer),
                double_dummy: table,
            }
        })
        .collect();
    Ok(HttpResponse::Ok().json(AnalyseAnswer { results }))
}
