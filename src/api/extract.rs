//! Request and response plumbing shared by every handler: JSON bodies and query strings that
//! name the field at fault, bearer credentials, pagination, and ETag / 304 answers.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;
use crate::limits::{MAX_OFFSET, MAX_PAGE_LIMIT};

/// Largest request body accepted (bulk participant lists, TRF files).
pub const MAX_BODY: usize = crate::limits::MAX_BODY_BYTES;

/// Parses JSON, naming the field at fault in the error.
///
/// An integer may be written with a zero fraction (`1219.0`), as JSON Schema counts it an
/// integer: a body that may hold such a number (a digit then `.`, `e` or `E`) is read as a
/// JSON value first and those numbers made integers, also inside fields kept as JSON (an
/// event's settings); every other body is read in one pass.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    check_object(body)?;
    if !has_fraction(body) {
        let de = &mut serde_json::Deserializer::from_slice(body);
        return serde_path_to_error::deserialize(de).map_err(json_error);
    }
    let mut value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| json_error_inner(e, None))?;
    whole_numbers(&mut value);
    serde_path_to_error::deserialize(value).map_err(json_error)
}

/// [`parse_json`] for a body whose member `kept` holds JSON stored and given back as it came
/// (an event document's `tables`): the numbers inside it stay as written (`0.0` stays a
/// float), the others are read as [`parse_json`] reads them.
pub fn parse_json_keeping<T: DeserializeOwned>(body: &[u8], kept: &str) -> Result<T, ApiError> {
    check_object(body)?;
    let mut value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| json_error_inner(e, None))?;
    if let serde_json::Value::Object(map) = &mut value {
        for (key, member) in map.iter_mut() {
            if key != kept {
                whole_numbers(member);
            }
        }
    }
    serde_path_to_error::deserialize(value).map_err(json_error)
}

/// A body is one JSON object: serde would also read a struct from an array of its fields in
/// order (`[null]`), which no client means.
fn check_object(body: &[u8]) -> Result<(), ApiError> {
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        None => Err(ApiError::bad_request(None, "the request needs a JSON body")),
        Some(b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
            Err(ApiError::invalid("body", "must be a JSON object"))
        }
        Some(_) => Ok(()),
    }
}

/// Whether a body may hold a number with a fraction or an exponent.
fn has_fraction(body: &[u8]) -> bool {
    body.windows(2)
        .any(|w| w[0].is_ascii_digit() && matches!(w[1], b'.' | b'e' | b'E'))
}

/// Writes every number of `value` that is a whole number with a fraction (`4.0`, `1e3`) as
/// the integer it is.
fn whole_numbers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if x.fract() == 0.0 && x.abs() < 9.0e15 {
                *value = serde_json::Value::from(x as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        serde_json::Value::Object(map) => map.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

fn json_error(e: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let path = e.path().to_string();
    let field = if path == "." || path.is_empty() {
        None
    } else {
        Some(path)
    };
    json_error_inner(e.into_inner(), field)
}

fn json_error_inner(inner: serde_json::Error, field: Option<String>) -> ApiError {
    if inner.is_syntax() || inner.is_eof() {
        return ApiError::bad_request(None, format!("malformed JSON: {inner}"));
    }
    let message = inner.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    match field {
        Some(f) => ApiError::invalid(f, message),
        None => {
            // serde names a missing field in its message: "missing field `name`"
            let missing = message
                .strip_prefix("missing field `")
                .and_then(|m| m.strip_suffix('`'));
            match missing {
                Some(f) => ApiError::invalid(f, "is required"),
                None => ApiError::invalid("body", message),
            }
        }
    }
}

/// What a body that could not be read gets: 413 naming the bound when it is too large, else
/// 400.
pub fn body_error(e: actix_web::Error) -> ApiError {
    if e.as_response_error().status_code() == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge(format!(
            "a request body may hold at most {MAX_BODY} bytes ({} MiB); send fewer items per request",
            MAX_BODY >> 20
        ))
    } else {
        ApiError::bad_request(None, format!("cannot read the request body: {e}"))
    }
}

/// Reads a request body whole, within [`crate::limits::BODY_TIMEOUT`] (a stalled body is a
/// 408) and the size bound (413).
pub fn read_body(
    req: &HttpRequest,
    payload: &mut Payload,
) -> impl std::future::Future<Output = Result<web::Bytes, ApiError>> {
    let bytes = web::Bytes::from_request(req, payload);
    let req = req.clone();
    async move {
        reserve_body_room(&req, MAX_BODY).await?;
        match tokio::time::timeout(crate::limits::BODY_TIMEOUT, bytes).await {
            Ok(read) => read.map_err(body_error),
            Err(_) => Err(ApiError::RequestTimeout(format!(
                "the request body did not arrive within {} s",
                crate::limits::BODY_TIMEOUT.as_secs()
            ))),
        }
    }
}

/// Waits for room to read the body of `req` ([`Store::body_room`]): as many bytes as its
/// `Content-Length` announces, or `limit` when it announces none. The room is kept in the
/// request's extensions, so it is held until the request is answered. A body announced over
/// `limit` is refused at once by its reader and takes no room.
pub async fn reserve_body_room(req: &HttpRequest, limit: usize) -> Result<(), ApiError> {
    let Some(store) = req.app_data::<web::Data<crate::store::Store>>() else {
        return Ok(());
    };
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.trim().parse::<usize>().ok());
    if announced.is_some_and(|n| n > limit) {
        return Ok(());
    }
    let room = store.body_room(announced.unwrap_or(limit)).await?;
    req.extensions_mut().insert(room);
    Ok(())
}

/// Reads a request body of at most `limit` bytes (a route with a bound of its own, above the
/// server's [`MAX_BODY`]), within [`crate::limits::BODY_TIMEOUT`] (408); over the bound: 413.
/// It waits for room first, as [`read_body`] does.
pub async fn read_body_up_to(
    req: &HttpRequest,
    mut payload: web::Payload,
    limit: usize,
) -> Result<web::Bytes, ApiError> {
    reserve_body_room(req, limit).await?;
    let read = async move {
        let mut body = web::BytesMut::new();
        loop {
            let next = std::future::poll_fn(|cx| {
                futures_core::Stream::poll_next(std::pin::Pin::new(&mut payload), cx)
            })
            .await;
            let Some(chunk) = next else {
                return Ok(body.freeze());
            };
            let chunk = chunk.map_err(|e| {
                ApiError::bad_request(None, format!("cannot read the request body: {e}"))
            })?;
            if body.len() + chunk.len() > limit {
                return Err(ApiError::PayloadTooLarge(format!(
                    "this request body may hold at most {limit} bytes ({} MiB)",
                    limit >> 20
                )));
            }
            body.extend_from_slice(&chunk);
        }
    };
    match tokio::time::timeout(crate::limits::BODY_TIMEOUT, read).await {
        Ok(read) => read,
        Err(_) => Err(ApiError::RequestTimeout(format!(
            "the request body did not arrive within {} s",
            crate::limits::BODY_TIMEOUT.as_secs()
        ))),
    }
}

/// A request body as bytes (TRF, CSV or JSON read by the handler), its errors as problems.
pub struct RawBody(pub web::Bytes);

impl FromRequest for RawBody {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(req, payload);
        Box::pin(async move { body.await.map(RawBody) })
    }
}

/// A file sent whole (a TRF file, a PBN file): as text (`text/plain`, the file's bytes) or, for
/// clients that send JSON only, as one JSON string (`Content-Type: application/json`). Either
/// way the handler gets the file's bytes.
pub struct TextBody(pub web::Bytes);

impl FromRequest for TextBody {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.to_ascii_lowercase().contains("json"));
        let body = read_body(req, payload);
        Box::pin(async move {
            let body = body.await?;
            if !json {
                return Ok(TextBody(body));
            }
            match serde_json::from_slice::<serde_json::Value>(&body) {
                Ok(serde_json::Value::String(text)) => Ok(TextBody(web::Bytes::from(text))),
                Ok(_) => Err(ApiError::invalid(
                    "body",
                    "a JSON body is the file as one JSON string",
                )),
                Err(e) => Err(json_error_inner(e, None)),
            }
        })
    }
}

/// A JSON request body (any content type is accepted; scripts often omit it).
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(req, payload);
        Box::pin(async move {
            let body = body.await?;
            parse_json(&body).map(JsonBody)
        })
    }
}

/// Parses a query string, naming the parameter at fault.
pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded_parse(query));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        if let Some(f) = message
            .strip_prefix("missing field `")
            .and_then(|m| m.strip_suffix('`'))
        {
            return ApiError::invalid(f, "is required");
        }
        let field = if path == "." || path.is_empty() {
            "query".to_string()
        } else {
            path
        };
        ApiError::invalid(field, message)
    })
}

fn form_urlencoded_parse(query: &str) -> form_urlencoded::Parse<'_> {
    form_urlencoded::parse(query.as_bytes())
}

/// Query parameters, with errors naming the parameter.
pub struct QueryParams<T>(pub T);

impl<T: DeserializeOwned> FromRequest for QueryParams<T> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(parse_query(req.query_string()).map(QueryParams))
    }
}

/// The bearer token of a request, if it has one.
pub struct Bearer(pub Option<String>);

impl FromRequest for Bearer {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.trim().split_once(' ')?;
                scheme
                    .eq_ignore_ascii_case("bearer")
                    .then(|| rest.trim().to_string())
            })
            .filter(|t| !t.is_empty());
        ready(Ok(Bearer(token)))
    }
}

/// `?limit=&offset=` of a list.
#[derive(Debug, Clone, Copy, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Pagination {
    /// Items per page (1–500, default 50).
    #[param(minimum = 1, maximum = 500, default = 50)]
    pub limit: Option<u32>,
    /// Items to skip (0 to 2⁶³ − 1, default 0).
    #[param(minimum = 0, maximum = 9223372036854775807_u64, default = 0)]
    pub offset: Option<u64>,
}

impl Pagination {
    /// The checked (limit, offset).
    pub fn resolve(self) -> Result<(u32, u64), ApiError> {
        let limit = self.limit.unwrap_or(50);
        if !(1..=MAX_PAGE_LIMIT).contains(&limit) {
            return Err(ApiError::invalid(
                "limit",
                format!("must be between 1 and {MAX_PAGE_LIMIT}"),
            ));
        }
        let offset = self.offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            return Err(ApiError::invalid(
                "offset",
                format!("must be between 0 and {MAX_OFFSET}"),
            ));
        }
        Ok((limit, offset))
    }
}

/// The version of the event a GET reads, noted before the handler runs (so the data it sends
/// is at least that new): its ETag starts with it, and that ETag works as an `If-Match`.
#[derive(Debug, Clone, Copy)]
pub struct SeenVersion(pub i64);

fn etag_of(req: &HttpRequest, body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    match req.extensions().get::<SeenVersion>() {
        Some(SeenVersion(version)) => format!("\"v{version}-{hex}\""),
        None => format!("\"{hex}\""),
    }
}

/// An `If-Match` header: the event versions a change may apply to.
///
/// Accepted forms (a list separated by commas, weak `W/` prefixes allowed): `*` (any version,
/// the event must exist), and every ETag the server sends for an event's data: `"v42"`,
/// `"v42-gz"`, `"v42-csv"`, `"v42-csv-gz"` (public reads) and `"v42-<hash>"` (reads with a
/// token); also the bare version, `"42"` or `42` (the `version` a client may have noted). A
/// tag of another shape names no version and so never matches (412).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IfMatch {
    pub versions: Vec<i64>,
    pub any: bool,
}

impl IfMatch {
    /// The `If-Match` of a request's headers, `None` without one.
    pub fn of(headers: &header::HeaderMap) -> Option<IfMatch> {
        let mut values = headers
            .get_all(header::IF_MATCH)
            .filter_map(|v| v.to_str().ok())
            .peekable();
        values.peek()?;
        let mut parsed = IfMatch::default();
        for tag in values.flat_map(|v| v.split(',')).map(str::trim) {
            if tag == "*" {
                parsed.any = true;
            } else if let Some(version) = version_of_tag(tag) {
                parsed.versions.push(version);
            }
        }
        Some(parsed)
    }
}

/// The event version an entity tag names (see [`IfMatch`]).
fn version_of_tag(tag: &str) -> Option<i64> {
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    let bare = tag
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(tag);
    let (digits, rest) = match bare.strip_prefix('v') {
        Some(v) => v.split_once('-').unwrap_or((v, "")),
        None => (bare, ""),
    };
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let suffix_ok = rest.is_empty() || bare.starts_with('v');
    (plain && suffix_ok).then(|| digits.parse().ok()).flatten()
}

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    /// A request without the header is refused (400); take `Option<IfMatch>` where it is optional.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(IfMatch::of(req.headers()).ok_or_else(|| {
            ApiError::bad_request(Some("If-Match"), "this change needs the If-Match header")
        }))
    }
}

fn matches_if_none_match(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == etag)
}

/// A 200 answer of `body` with `content_type`, carrying an ETag; 304 when the client already
/// has it (`If-None-Match`); 422 when `?format=` asks for another form than this one (a route
/// without CSV asked for CSV).
pub fn cached(req: &HttpRequest, content_type: &str, body: Vec<u8>) -> HttpResponse {
    if let Err(e) = check_format_answered(req.query_string(), content_type) {
        return actix_web::ResponseError::error_response(&e);
    }
    let etag = etag_of(req, &body);
    if matches_if_none_match(req, &etag) {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .finish();
    }
    HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type(content_type)
        .body(body)
}

/// A JSON 200 answer with an ETag (304 when unchanged).
pub fn json_cached<T: Serialize>(req: &HttpRequest, value: &T) -> Result<HttpResponse, ApiError> {
    let body = serde_json::to_vec(value)
        .map_err(|e| ApiError::Internal(format!("cannot serialise the answer: {e}")))?;
    Ok(cached(req, "application/json", body))
}

/// A CSV answer (UTF-8), with the ETag and 304 handling of [`cached`].
pub fn csv_cached(req: &HttpRequest, text: String) -> HttpResponse {
    cached(req, "text/csv; charset=utf-8", text.into_bytes())
}

/// Whether a list is asked for as CSV: `?format=csv|json`, else `Accept: text/csv`.
pub fn wants_csv(req: &HttpRequest, format: Option<&str>) -> Result<bool, ApiError> {
    match format {
        Some("csv") => Ok(true),
        Some("json") => Ok(false),
        Some(other) => Err(ApiError::invalid(
            "format",
            format!("{other:?} is not a format; use json or csv"),
        )),
        None => Ok(req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/csv"))),
    }
}

/// The forms a list can be read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Json,
    Csv,
}

/// `?format=json|csv` of a list that can be served as CSV.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FormatQuery {
    /// `json` (default) or `csv` (also chosen by `Accept: text/csv`).
    #[param(inline, value_type = Option<ExportFormat>)]
    pub format: Option<String>,
}

/// A `?format=` that names another form than the `content_type` answered is refused: `json`
/// goes with JSON answers, `csv` with CSV ones, and routes with neither take none.
fn check_format_answered(query: &str, content_type: &str) -> Result<(), ApiError> {
    let answered = match content_type {
        "application/json" => Some("json"),
        t if t.starts_with("text/csv") => Some("csv"),
        _ => None,
    };
    for (key, value) in form_urlencoded_parse(query) {
        if key == "format" && answered != Some(value.as_ref()) {
            return Err(ApiError::invalid(
                "format",
                match answered {
                    Some(_) => format!("{value:?}: this resource is read as json only"),
                    None => format!("{value:?}: this resource has no other forms; omit format"),
                },
            ));
        }
    }
    Ok(())
}

/// One cell of a CSV file (RFC 4180), the one writer of every CSV the server serves.
///
/// Text cells (names, codes, labels: anything a client typed) that a spreadsheet would read as
/// a formula, starting with `=`, `+`, `-`, `@`, a tab or a carriage return, get a leading `'`
/// (OWASP's rule against CSV injection), so `=HYPERLINK(...)` shows as text. Numbers and
/// results the server itself writes go through [`csv_number`] instead, so a score of `-1` or
/// a result `-/+` stays as it is. Then the cell is quoted when it holds a comma, a quote, a
/// line break or a leading or trailing space, quotes doubled.
pub fn csv_field(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        quote_csv(&format!("'{s}"))
    } else {
        quote_csv(s)
    }
}

/// A cell the server writes itself (a number, a result, a date): quoted if needed, never
/// prefixed.
pub fn csv_number(s: &str) -> String {
    quote_csv(s)
}

fn quote_csv(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Label {
        label: Option<String>,
    }

    #[test]
    fn a_body_is_an_object_never_an_array_of_fields() {
        // serde alone reads `[null]` as Label { label: None }: the fuzzer's "accepted invalid".
        for body in ["[null]", " [\"x\"]", "\"x\"", "1", "true", "null"] {
            match parse_json::<Label>(body.as_bytes()) {
                Err(ApiError::Validation(errors)) => assert_eq!(errors[0].field, "body", "{body}"),
                other => panic!("{body}: {other:?}"),
            }
        }
        assert!(parse_json::<Label>(b" {\"label\": null}").is_ok());
    }

    #[test]
    fn csv_text_cells_cannot_become_formulas() {
        assert_eq!(
            csv_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("-2+3"), "'-2+3");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("\rx"), "\"'\rx\"");
        assert_eq!(csv_field("Smith, John"), "\"Smith, John\"");
        assert_eq!(csv_field("a\nb"), "\"a\nb\"");
        assert_eq!(csv_field("Anna"), "Anna");
        // Numbers the server writes stay numbers.
        assert_eq!(csv_number("-1.5"), "-1.5");
        assert_eq!(csv_number("-/+"), "-/+");
    }

    #[test]
    fn every_etag_the_server_sends_names_its_version_in_if_match() {
        let parse = |value: &str| {
            let mut headers = header::HeaderMap::new();
            headers.insert(header::IF_MATCH, value.parse().unwrap());
            IfMatch::of(&headers).unwrap()
        };
        for tag in [
            "\"v42\"",
            "\"v42-gz\"",
            "\"v42-csv\"",
            "\"v42-csv-gz\"",
            "W/\"v42-0a1b2c3d4e5f60718293a4b5\"",
            "\"42\"",
            "42",
        ] {
            assert_eq!(parse(tag).versions, [42], "{tag}");
        }
        assert_eq!(parse("\"v1\", \"v7-gz\"").versions, [1, 7]);
        assert!(parse("*").any);
        // shapes that name no version: never a match
        for tag in [
            "\"3fa9c0\"",
            "\"v\"",
            "\"42-gz\"",
            "\"v4x\"",
            "\"\"",
            "\"v99999999999999999999\"",
        ] {
            let parsed = parse(tag);
            assert!(parsed.versions.is_empty() && !parsed.any, "{tag}");
        }
        assert_eq!(IfMatch::of(&header::HeaderMap::new()), None);
    }

    #[test]
    fn offsets_beyond_sqlite_integers_are_refused() {
        let page = |offset| Pagination {
            limit: None,
            offset: Some(offset),
        };
        assert_eq!(page(MAX_OFFSET).resolve().unwrap(), (50, MAX_OFFSET));
        match page(MAX_OFFSET + 1).resolve() {
            Err(ApiError::Validation(e)) => assert_eq!(e[0].field, "offset"),
            other => panic!("{other:?}"),
        }
    }
}
