//! The Swiss engine for other software: `POST /api/v1/pairings/swiss` pairs the next round of
//! a section sent as a FIDE TRF file or as JSON, stores nothing. The pairing's work budget,
//! stopped when the client leaves, serves an event's pairing too.

use actix_web::http::header;
use actix_web::{post, web, HttpRequest, HttpResponse};

use crate::api::extract::{parse_json, QueryParams};
use crate::api::responses::PublicPairing;
use crate::engine::chess::swiss::accel::{read_acceleration, Acceleration};
use crate::engine::chess::swiss::pair_round_accelerated;
use crate::engine::chess::swiss::trf::{decode_trf, parse_trf, TrfError};
use crate::engine::chess::swiss::{
    Budget, RoundPairing, SettingsOverrides, SwissError, SwissState,
};
use crate::error::{ApiError, ApiResult};
use crate::store::Store;

fn trf_error(e: TrfError) -> ApiError {
    ApiError::invalid(format!("line {}", e.line), e.message)
}

pub(crate) fn state_error(e: SwissError) -> ApiError {
    ApiError::invalid(e.field, e.message)
}

/// The work budget of one pairing request ([`crate::limits::pairing_budget`]), stopped when
/// the request's client leaves ([`crate::api::connection`]) or the request is dropped: the
/// pairing, running on a blocking thread, then stops at its next check instead of burning
/// CPU for nobody.
pub(crate) struct RequestBudget(Budget);

impl RequestBudget {
    pub(crate) fn start(req: &HttpRequest) -> RequestBudget {
        let budget = Budget::within(crate::limits::pairing_budget());
        crate::api::connection::stop_when_client_leaves(req, budget.clone());
        RequestBudget(budget)
    }

    /// The budget to hand to the engine (shares the stop flag).
    pub(crate) fn budget(&self) -> Budget {
        self.0.clone()
    }

    /// The engine's error, or the 503 of a pairing its budget stopped.
    pub(crate) fn error(&self, e: SwissError, otherwise: fn(SwissError) -> ApiError) -> ApiError {
        pairing_error(&self.0, e, otherwise)
    }
}

/// The engine's error, unless `budget` stopped the pairing: then a 503 that says so.
pub(crate) fn pairing_error(
    budget: &Budget,
    e: SwissError,
    otherwise: fn(SwissError) -> ApiError,
) -> ApiError {
    if budget.spent() {
        ApiError::Unavailable(format!(
            "the pairing was stopped after its time budget of {} s (TOURNEY_PAIRING_SECONDS) or because its client left",
            crate::limits::pairing_budget().as_secs()
        ))
    } else {
        otherwise(e)
    }
}

impl Drop for RequestBudget {
    fn drop(&mut self) {
        self.0.stop();
    }
}

fn is_json(req: &HttpRequest, body: &[u8]) -> bool {
    match req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    {
        Some(ct) => ct.contains("json"),
        None => body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'),
    }
}

/// A small TRF file (a four-player section after round 1): the example of the TRF bodies.
pub(crate) fn example_trf() -> &'static str {
    "012 Club Swiss\nXXR 5\n001    1      Anna                              2100                    1.0    1     3 w 1\n001    2      Ben                               2000                    0.0    3     4 b 0\n001    3      Cleo                              1900                    0.0    4     1 b 0\n001    4      Dan                               1800                    1.0    2     2 w 1\n"
}

/// Pair the next round of a section sent whole: a FIDE TRF-16 file (`text/plain`; `XXR`/`142`
/// rounds, `XXC`/`152` first colour, `240` byes, `260` prohibited pairs, `0000 - H`/`Z`/`F` in
/// the next round's column for requested byes, and for `fide_dutch` the acceleration records
/// `XXA`/`250` or a `092` type ending in `_BAKU`; CR, LF or CRLF line ends) or the same state
/// as JSON (`application/json`). Settings come as query parameters (`acceleration=baku`: the
/// Baku method, in place of the file's records). Nothing is stored. The answer names players
/// by their start numbers.
///
/// 422: A bad TRF line (`line N`), JSON field, or an inconsistent history (a player in two games, an unknown start number, contradicting results).
#[utoipa::path(
    post, path = "/api/v1/pairings/swiss", tag = "tables",
    params(SettingsOverrides),
    request_body(content(
        (String = "text/plain", example = example_trf),
        (SwissState = "application/json"),
    )),
    responses(
        (status = 200, description = "The next round; start numbers", body = RoundPairing),
        PublicPairing,
    )
)]
#[post("/api/v1/pairings/swiss")]
pub async fn pair_swiss(
    req: HttpRequest,
    store: web::Data<Store>,
    crate::api::extract::RawBody(body): crate::api::extract::RawBody,
    QueryParams(query): QueryParams<SettingsOverrides>,
) -> ApiResult<HttpResponse> {
    let (mut state, accel): (SwissState, _) = if is_json(&req, &body) {
        (parse_json(&body)?, Acceleration::none())
    } else {
        let text = decode_trf(&body);
        let state = parse_trf(&text).map_err(trf_error)?;
        let accel = read_acceleration(&text, &state).map_err(|m| match m.split_once(": ") {
            // the reader names the line as `line N: ...`, as the TRF parser does
            Some((line, rest)) if line.starts_with("line ") => ApiError::invalid(line, rest),
            _ => ApiError::invalid("body", m),
        })?;
        (state, accel)
    };
    query.apply(&mut state.settings).map_err(state_error)?;
    state.validate().map_err(state_error)?;
    let _turn = store.pairing_turn().await?;
    let guard = RequestBudget::start(&req);
    let budget = guard.budget();
    let system = state.settings.system.as_str();
    let pairing = web::block(move || {
        crate::metrics::time_pairing(system, "stateless", || {
            pair_round_accelerated(&state, &budget.solver(), &accel)
        })
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the pairing task failed: {e}")))?
    .map_err(|e| guard.error(e, state_error))?;
    Ok(HttpResponse::Ok().json(pairing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::ResponseError;

    /// A request that is dropped (its client gone) stops its pairing, and a stopped pairing is
    /// reported as a 503, not as the engine's error.
    #[test]
    fn a_dropped_request_stops_its_pairing_with_a_503() {
        let req = actix_web::test::TestRequest::default().to_http_request();
        let guard = RequestBudget::start(&req);
        let budget = guard.budget();
        let engine = || SwissError {
            field: "solver".into(),
            message: "stopped".into(),
        };
        assert_eq!(
            guard.error(engine(), state_error).status_code().as_u16(),
            422
        );
        drop(guard);
        assert!(budget.spent());
        let e = pairing_error(&budget, engine(), state_error);
        assert_eq!(e.status_code().as_u16(), 503);
        assert!(e.to_string().contains("time budget"));
    }
}
