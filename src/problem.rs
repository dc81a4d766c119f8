//! The problem vocabulary: every failure of every operation and front end, as the RFC 9457
//! problem document (`application/problem+json`) that HTTP answers with and the command line
//! prints. Nothing here knows HTTP's framework: the status is a number, and the HTTP layer
//! (`http::errors`) writes an [`ApiError`] as an answer.
//!
//! Every failure has a stable `type` (`urn:arbiter:problem:<code>`) and `code`; extension
//! members carry what a client needs to react (the known variants, the offending move and its
//! index, the legal moves, the candidates of an ambiguous move, the bound that was exceeded).

use arbiter_rules::notation::violation::{precedence_code, Violation, PRECEDENCE_CODES};
use arbiter_rules::rules::Precedence;
use arbiter_rules::{FenError, GenError, MoveError};
use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::config::{MAX_BODY_BYTES, MAX_MOVES};

/// The media type of every error response.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The stable code of a problem: the last segment of its `type`
/// (`urn:arbiter:problem:<code>`), written in kebab-case (`BudgetExceeded` is
/// `budget-exceeded`). Its text is serde's: [`fmt::Display`] writes what serde writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemCode {
    // Requests the HTTP layer refuses.
    BadRequest,
    NotFound,
    MethodNotAllowed,
    PayloadTooLarge,
    UnsupportedMediaType,
    UnsupportedContentEncoding,
    InvalidEncoding,
    RequestHeadTimeout,
    RequestHeaderFieldsTooLarge,
    ClientError,
    // Requests whose content is refused.
    MalformedJson,
    InvalidBody,
    InvalidQuery,
    InvalidPath,
    UnknownVariant,
    InvalidPosition,
    UnparsableMove,
    IllegalMove,
    AmbiguousMove,
    TooManyMoves,
    TooManyGames,
    PdnSyntax,
    // Games of a PDN file that cannot be judged (an entry's `error`, not a request's).
    InvalidGameText,
    UnsupportedVariant,
    NoVariant,
    // Endgame tables.
    EndgameNotInTables,
    EndgameUnsupported,
    EndgameBuilding,
    // The engine's bounds.
    CaptureLimit,
    BudgetExceeded,
    // The service's state.
    Overloaded,
    RequestTimeout,
    ShuttingDown,
    NotReady,
    Internal,
}

impl ProblemCode {
    /// The problem's `type`: `urn:arbiter:problem:<code>`.
    pub fn type_uri(self) -> String {
        format!("urn:arbiter:problem:{self}")
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // serde writes a unit variant into a formatter as its (renamed) name.
        self.serialize(f)
    }
}

/// The first rule an illegal move breaks, written as its code (`capture-compulsory`); the
/// codes and their meanings are the engine's ([`Violation`]), listed in the schema's
/// description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViolationCode(pub Violation);

impl Serialize for ViolationCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.code())
    }
}

impl<'de> Deserialize<'de> for ViolationCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        Violation::ALL
            .iter()
            .find(|v| v.code() == code)
            .map(|&v| ViolationCode(v))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown violation '{code}'")))
    }
}

impl utoipa::PartialSchema for ViolationCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let mut description = String::from(
            "The first rule an illegal move breaks, in the variant's own terms \
             (`reason` says it in words):\n",
        );
        for v in Violation::ALL {
            description.push_str(&format!("\n- `{}`: {}", v.code(), v.meaning()));
        }
        code_schema(Violation::ALL.iter().map(|v| v.code()), description)
    }
}

impl ToSchema for ViolationCode {
    fn name() -> std::borrow::Cow<'static, str> {
        "Violation".into()
    }
}

/// A capture-precedence rule, written as its code (`most-pieces`, one of the engine's
/// [`PRECEDENCE_CODES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrecedenceRule(pub &'static str);

impl PrecedenceRule {
    pub fn of(p: &Precedence) -> Self {
        PrecedenceRule(precedence_code(p))
    }
}

impl Serialize for PrecedenceRule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for PrecedenceRule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        PRECEDENCE_CODES
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(c, _)| PrecedenceRule(c))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown precedence rule '{code}'")))
    }
}

impl utoipa::PartialSchema for PrecedenceRule {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let mut description = String::from(
            "The capture-precedence rule a capture loses on (`capture-precedence`); the \
             variant's description lists its rules in order:\n",
        );
        for (code, meaning) in PRECEDENCE_CODES {
            description.push_str(&format!("\n- `{code}`: {meaning}"));
        }
        code_schema(PRECEDENCE_CODES.iter().map(|(c, _)| *c), description)
    }
}

impl ToSchema for PrecedenceRule {
    fn name() -> std::borrow::Cow<'static, str> {
        "PrecedenceRule".into()
    }
}

/// A string schema with these values and this description.
fn code_schema<'a>(
    codes: impl Iterator<Item = &'a str>,
    description: String,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(codes))
        .description(Some(description))
        .into()
}

/// An RFC 9457 problem: the body of every 4xx and 5xx response.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:arbiter:problem:unknown-variant",
    "title": "Unknown variant",
    "status": 404,
    "detail": "there is no variant 'chess'; known variants: international, english, russian",
    "code": "unknown-variant",
    "known_variants": ["international", "english", "russian"]
}))]
pub struct Problem {
    /// Stable URI identifying the kind of problem: `urn:arbiter:problem:<code>`.
    #[serde(rename = "type")]
    #[schema(example = "urn:arbiter:problem:illegal-move")]
    pub problem_type: String,
    /// Short human-readable summary of the kind of problem.
    #[schema(example = "Illegal move")]
    pub title: String,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// Human-readable explanation of this occurrence.
    #[schema(example = "ply 1 ('32-23'): illegal move: 32-23 does not match any legal move")]
    pub detail: String,
    /// Stable machine-readable code (the last segment of `type`).
    #[schema(value_type = String, example = "illegal-move")]
    pub code: ProblemCode,
    /// The request field or parameter at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "position")]
    pub field: Option<String>,
    /// Unknown variant: the ids of every variant of the catalogue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_variants: Option<Vec<String>>,
    /// Move problems: the move text as sent.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    #[schema(example = "32-23")]
    pub move_text: Option<String>,
    /// Move problems: the 1-based ply of the move in the request (1 for `move`; in a list,
    /// its position counted from 1), as `/judge` counts plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 1)]
    pub ply: Option<usize>,
    /// Move problems: why the move was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Illegal move: the first rule the move breaks (also on an unparsable move whose square
    /// the board does not have: `no-such-square`); `reason` says it in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation: Option<ViolationCode>,
    /// `capture-precedence`: the precedence rule the capture loses on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precedence: Option<PrecedenceRule>,
    /// Move problems: every legal move of the position, in canonical notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<String>>,
    /// Ambiguous move: every legal move the text matches, in long notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<String>>,
    /// Bound problems: the bound that was exceeded (bytes or moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Wrong method: the methods the path accepts (also in the `Allow` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_methods: Option<Vec<String>>,
    /// PDN syntax (`pdn-syntax`): the 1-based line of the first text the PDN 3.0 grammar
    /// rejects.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 3)]
    pub line: Option<usize>,
    /// PDN syntax: its 1-based column, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 8)]
    pub column: Option<usize>,
    /// PDN syntax: the production of the PDN 3.0 grammar it breaks (`PdnTag`, `GameMove`,
    /// `Move`, `Variation`, `Game`, `PdnFile`, `Result`, `Fen`, `GameType`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "PdnTag")]
    pub rule: Option<String>,
    /// PDN syntax: what the grammar accepts there, by the standard's names (the results of the
    /// game type for `Result`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["STRING"]))]
    pub expected: Option<Vec<String>>,
    /// Perft over its budget (`budget-exceeded`): the deepest depth the budget reaches from
    /// the position; the same request at this depth is answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 8)]
    pub reachable_depth: Option<u32>,
    /// Endgame problems: the material of the position (White's pieces, `v`, Black's: `KKvK`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "KKKvKK")]
    pub material: Option<String>,
    /// `endgame-not-in-tables`: the tables this replica has for the variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<crate::tables::Available>,
}

/// An error answered with a problem document.
#[derive(Clone, Debug)]
pub struct ApiError {
    status: u16,
    problem: Box<Problem>,
    allow: Option<&'static str>,
    retry_after: Option<u64>,
    /// Headers to answer with besides the problem's own (the request id and the version on
    /// the request-timeout answer, made outside the middleware that adds them elsewhere).
    headers: Vec<(&'static str, String)>,
}

impl ApiError {
    /// A problem with no extension members.
    pub fn new(status: u16, code: ProblemCode, title: &str, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            problem: Box::new(Problem {
                problem_type: code.type_uri(),
                title: title.to_string(),
                status,
                detail: detail.into(),
                code,
                field: None,
                known_variants: None,
                move_text: None,
                ply: None,
                reason: None,
                violation: None,
                precedence: None,
                legal_moves: None,
                candidates: None,
                limit: None,
                allowed_methods: None,
                line: None,
                column: None,
                rule: None,
                expected: None,
                reachable_depth: None,
                material: None,
                tables: None,
            }),
            allow: None,
            retry_after: None,
            headers: Vec::new(),
        }
    }

    /// Adds a header to the answer.
    pub fn with_header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_string()));
        self
    }

    /// The problem document.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Sets the `field` member (the request field or header at fault).
    pub fn with_field(mut self, field: &str) -> Self {
        self.problem.field = Some(field.to_string());
        self
    }

    /// Sets the `limit` member (the bound that was exceeded) and the field at fault.
    pub fn with_limit(mut self, field: &str, limit: u64) -> Self {
        self.problem.field = Some(field.to_string());
        self.problem.limit = Some(limit);
        self
    }

    /// 404: no variant with this id.
    pub fn unknown_variant(id: &str) -> Self {
        let known: Vec<String> = arbiter_rules::ids().into_iter().map(String::from).collect();
        let mut e = ApiError::new(
            404,
            ProblemCode::UnknownVariant,
            "Unknown variant",
            format!(
                "there is no variant '{}'; known variants: {}",
                clip(id),
                known.join(", ")
            ),
        );
        e.problem.known_variants = Some(known);
        e
    }

    /// 400: a FEN the engine refuses; the detail is the engine's message.
    pub fn invalid_position(field: &str, err: &FenError) -> Self {
        ApiError::new(
            400,
            ProblemCode::InvalidPosition,
            "Invalid position",
            format!("{field}: {err}"),
        )
        .with_field(field)
    }

    /// Why the engine stopped: 422 `capture-limit` (one position's capture search is over its
    /// bound) or 422 `budget-exceeded` (the request needs more work than its budget; `limit`
    /// is the budget in work units). Both are properties of the request, so they are the same
    /// on every replica: a load balancer must not retry them. A cancelled job (the request's
    /// time ran out) is 503 `request-timeout`.
    pub fn engine(err: &GenError) -> Self {
        match err {
            GenError::CaptureLimit { .. } => ApiError::new(
                422,
                ProblemCode::CaptureLimit,
                "Capture enumeration bound exceeded",
                err.to_string(),
            ),
            GenError::Budget { limit } => {
                let mut e = ApiError::new(
                    422,
                    ProblemCode::BudgetExceeded,
                    "Work budget exceeded",
                    format!(
                        "{err}; the bound is the same on every replica, so retrying does not \
                         help: send less work per request (fewer moves or games)"
                    ),
                );
                e.problem.limit = Some(*limit);
                e
            }
            GenError::Cancelled => ApiError::new(
                503,
                ProblemCode::RequestTimeout,
                "Request timed out",
                "the request's time ran out and its engine work was stopped",
            ),
        }
    }

    /// 422 `pdn-syntax`: a PDN text that `strict` reading refuses, at the first place the PDN
    /// 3.0 grammar rejects.
    pub fn pdn_syntax(err: &arbiter_rules::notation::pdn::PdnSyntaxError) -> Self {
        let mut e = ApiError::new(422, ProblemCode::PdnSyntax, "Not PDN 3.0", err.to_string());
        e.problem.line = Some(err.line);
        e.problem.column = Some(err.column);
        e.problem.rule = Some(err.rule.clone());
        e.problem.expected = Some(err.expected.clone());
        e
    }

    /// 503 with `Retry-After`: every engine slot is busy; the request was not started.
    pub fn overloaded(max_jobs: usize, retry_after_secs: u64) -> Self {
        let mut e = ApiError::new(
            503,
            ProblemCode::Overloaded,
            "Overloaded",
            format!(
                "all {max_jobs} engine slots of this replica are busy; the request was not \
                 started: retry after {retry_after_secs} s or on another replica"
            ),
        );
        e.problem.limit = Some(max_jobs as u64);
        e.retry_after = Some(retry_after_secs);
        e
    }

    /// Perft over its budget: the `budget-exceeded` problem of `err`, with the deepest depth
    /// the budget reaches (`reachable_depth`) and a detail that says it.
    pub fn perft_over_budget(err: &GenError, depth: u32, reachable: u32) -> Self {
        let mut e = ApiError::engine(err);
        if e.problem.code == ProblemCode::BudgetExceeded {
            e.problem.detail = format!(
                "{err}: perft to depth {depth} needs more; from this position the budget \
                 reaches depth {reachable}, and a request for depth {reachable} or less is \
                 answered (the bound is the same on every replica, so retrying does not help)"
            );
            e.problem.field = Some("depth".to_string());
            e.problem.reachable_depth = Some(reachable);
        }
        e
    }

    /// 404 `endgame-not-in-tables`: the position has more pieces than the tables this replica
    /// has for the variant (`available`), or a position after one of its moves has no table.
    pub fn endgame_not_in_tables(
        variant: &str,
        material: &str,
        detail: Option<String>,
        available: crate::tables::Available,
    ) -> Self {
        let detail = detail.unwrap_or_else(|| {
            let prebuilt = if available.prebuilt.is_empty() {
                "no prebuilt tables".to_string()
            } else {
                format!("prebuilt tables: {}", available.prebuilt.join(", "))
            };
            format!(
                "the {variant} position ({material}) is not in the endgame tables of this \
                 replica: positions of up to {} pieces are computed on first use, in tables of \
                 at most {} positions whose build fits the {} MiB memory budget for tables \
                 (ARBITER_TABLES_MEMORY_BYTES); {prebuilt}",
                available.builtin_pieces,
                available.builtin_max_positions,
                available.builtin_memory_bytes.div_ceil(1 << 20)
            )
        });
        let mut e = ApiError::new(
            404,
            ProblemCode::EndgameNotInTables,
            "Position not in the endgame tables",
            detail,
        );
        e.problem.material = Some(material.to_string());
        e.problem.tables = Some(available);
        e
    }

    /// A [`crate::tables::TablesError`] as a problem: 422 `endgame-unsupported` (the variant
    /// has no tables: the detail says why), 503 `endgame-building` with `Retry-After` (the
    /// table is being computed), or 404 `endgame-not-in-tables` for a table that cannot be
    /// computed (too large).
    pub fn tables(
        err: &crate::tables::TablesError,
        variant: &str,
        available: crate::tables::Available,
    ) -> Self {
        use crate::tables::TablesError;
        match err {
            TablesError::Unsupported { .. } => ApiError::new(
                422,
                ProblemCode::EndgameUnsupported,
                "No endgame tables for this variant",
                err.to_string(),
            ),
            TablesError::Building {
                material,
                retry_after,
            } => {
                let mut e = ApiError::new(
                    503,
                    ProblemCode::EndgameBuilding,
                    "Endgame table being computed",
                    err.to_string(),
                );
                e.problem.material = Some(material.name());
                e.retry_after = Some(*retry_after);
                e
            }
            TablesError::Failed { material, .. } => ApiError::endgame_not_in_tables(
                variant,
                &material.name(),
                Some(err.to_string()),
                available,
            ),
            TablesError::Work(e) => ApiError::engine(e),
        }
    }

    /// 422 (or the capture-limit problem): a move that does not name exactly one legal move;
    /// `ply` is its 1-based place in the request.
    pub fn bad_move(ply: usize, text: &str, err: MoveError) -> Self {
        let reason = err.to_string();
        let detail = format!("ply {ply} ('{}'): {reason}", clip(text));
        let (violation, precedence) = (err.violation(), err.precedence());
        let (code, title, legal, candidates) = match err {
            MoveError::Gen(g) => return ApiError::engine(&g),
            MoveError::Syntax { .. } | MoveError::UnknownSquare { .. } => {
                (ProblemCode::UnparsableMove, "Unparsable move", None, None)
            }
            MoveError::Illegal { legal, .. } => {
                (ProblemCode::IllegalMove, "Illegal move", Some(legal), None)
            }
            MoveError::Ambiguous { candidates } => (
                ProblemCode::AmbiguousMove,
                "Ambiguous move",
                None,
                Some(candidates),
            ),
        };
        let mut e = ApiError::new(422, code, title, detail);
        e.problem.move_text = Some(clip(text));
        e.problem.ply = Some(ply);
        e.problem.reason = Some(reason);
        e.problem.violation = violation.map(ViolationCode);
        e.problem.precedence = precedence.as_ref().map(PrecedenceRule::of);
        e.problem.legal_moves = legal;
        e.problem.candidates = candidates;
        e
    }

    /// Adds the legal moves of the position to a move problem that lacks them.
    pub fn with_legal_moves(mut self, legal: Vec<String>) -> Self {
        if self.problem.move_text.is_some() && self.problem.legal_moves.is_none() {
            self.problem.legal_moves = Some(legal);
        }
        self
    }

    /// 422: more moves than [`MAX_MOVES`] in one request.
    pub fn too_many_moves(count: usize) -> Self {
        let mut e = ApiError::new(
            422,
            ProblemCode::TooManyMoves,
            "Too many moves",
            format!(
                "the request has {count} moves; at most {MAX_MOVES} moves are accepted per request"
            ),
        )
        .with_field("moves");
        e.problem.limit = Some(MAX_MOVES as u64);
        e
    }

    /// 400: the body is not valid JSON.
    pub fn malformed_json(detail: impl std::fmt::Display) -> Self {
        ApiError::new(
            400,
            ProblemCode::MalformedJson,
            "Malformed JSON",
            format!("the request body is not valid JSON: {detail}"),
        )
    }

    /// 400: the body is JSON but not the expected shape.
    pub fn invalid_body(detail: impl Into<String>) -> Self {
        ApiError::new(
            400,
            ProblemCode::InvalidBody,
            "Invalid request body",
            detail,
        )
    }

    /// 400: bad query string.
    pub fn invalid_query(detail: impl std::fmt::Display) -> Self {
        ApiError::new(
            400,
            ProblemCode::InvalidQuery,
            "Invalid query string",
            format!("the query string is not valid: {detail}"),
        )
    }

    /// 413: body larger than the default limit [`MAX_BODY_BYTES`].
    pub fn payload_too_large(length: Option<usize>) -> Self {
        ApiError::payload_too_large_limit(length, MAX_BODY_BYTES)
    }

    /// 413: body larger than `limit` bytes (the configured body limit).
    pub fn payload_too_large_limit(length: Option<usize>, limit: usize) -> Self {
        ApiError::body_too_large(length, limit, false)
    }

    /// 413: body larger than `limit` bytes, as sent or (`decoded`) once its Content-Encoding
    /// is undone.
    pub fn body_too_large(length: Option<usize>, limit: usize, decoded: bool) -> Self {
        let sent = match (length, decoded) {
            (_, true) => {
                "the request body, once decoded (Content-Encoding), is too large; ".to_string()
            }
            (Some(n), false) => format!("the request body has {n} bytes; "),
            (None, false) => "the request body is too large; ".to_string(),
        };
        let mut e = ApiError::new(
            413,
            ProblemCode::PayloadTooLarge,
            "Request body too large",
            format!("{sent}the limit is {limit} bytes ({} KiB)", limit / 1024),
        );
        e.problem.limit = Some(limit as u64);
        e
    }

    /// 503: the request took longer than the configured request timeout (`limit` seconds).
    pub fn request_timeout(limit: std::time::Duration) -> Self {
        let mut e = ApiError::new(
            503,
            ProblemCode::RequestTimeout,
            "Request timed out",
            format!(
                "the request was not answered within the request timeout of {} s",
                limit.as_secs()
            ),
        );
        e.problem.limit = Some(limit.as_secs());
        e
    }

    /// 415: the body is not sent as JSON.
    pub fn unsupported_media_type(content_type: &str) -> Self {
        ApiError::new(
            415,
            ProblemCode::UnsupportedMediaType,
            "Unsupported media type",
            format!(
                "the request body must be sent with Content-Type: application/json, not '{}'",
                clip(content_type)
            ),
        )
    }

    /// 404: no such path.
    pub fn not_found(path: &str) -> Self {
        ApiError::new(
            404,
            ProblemCode::NotFound,
            "Not found",
            format!(
                "there is no resource at '{}'; the API is described at /api-docs/openapi.json",
                clip(path)
            ),
        )
    }

    /// 405 with an `Allow` header.
    pub fn method_not_allowed(method: &str, allow: &'static str) -> Self {
        let mut e = ApiError::new(
            405,
            ProblemCode::MethodNotAllowed,
            "Method not allowed",
            format!(
                "method {} is not allowed here; allowed: {allow}",
                clip(method)
            ),
        );
        e.problem.allowed_methods = Some(allow.split(", ").map(String::from).collect());
        e.allow = Some(allow);
        e
    }

    /// A problem for an HTTP status and its reason phrase, made outside the operations (a
    /// route that does not exist, a body the framework refused, a failure of the server). Its
    /// title is the reason phrase written like every other title ("Not found", "Request
    /// header fields too large").
    pub fn from_status_code(status: u16, reason: &str) -> Self {
        let title = sentence_case(reason);
        let title = title.as_str();
        let code = match status {
            400 => ProblemCode::BadRequest,
            404 => ProblemCode::NotFound,
            405 => ProblemCode::MethodNotAllowed,
            413 => ProblemCode::PayloadTooLarge,
            415 => ProblemCode::UnsupportedMediaType,
            s if s >= 500 => ProblemCode::Internal,
            _ => ProblemCode::ClientError,
        };
        let detail = if status >= 500 {
            "the server failed to answer this request".to_string()
        } else {
            format!("the request failed: {title}")
        };
        ApiError::new(status, code, title, detail)
    }

    /// 500: the server failed (a panic in engine work, a broken invariant).
    pub fn internal() -> Self {
        ApiError::from_status_code(500, "Internal Server Error")
    }

    /// 503: the server cannot take the work now (it is stopping).
    pub fn unavailable() -> Self {
        ApiError::from_status_code(503, "Service Unavailable")
    }

    /// The methods of an `Allow` header, for a 405.
    pub fn allow(&self) -> Option<&'static str> {
        self.allow
    }

    /// Seconds of a `Retry-After` header, when the client may retry later.
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }

    /// Headers to answer with besides the problem's own.
    pub fn headers(&self) -> &[(&'static str, String)] {
        &self.headers
    }
}

/// "Request Header Fields Too Large" → "Request header fields too large" (acronyms such as
/// "URI" kept).
fn sentence_case(text: &str) -> String {
    text.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i == 0 || w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase()) {
                w.to_string()
            } else {
                w.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.problem.code, self.problem.detail)
    }
}

/// Shortens client text quoted in messages.
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Maps a JSON deserialization error (with its path) to a 400 problem.
pub fn json_error(err: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let path = err.path().to_string();
    let inner = err.into_inner();
    match inner.classify() {
        serde_json::error::Category::Data => {
            let at = if path.is_empty() || path == "." {
                String::new()
            } else {
                format!("field '{path}': ")
            };
            // serde calls an enum's values "variants", which reads as draughts variants here.
            let message = inner
                .to_string()
                .replace("unknown variant", "unknown value");
            let mut e = ApiError::invalid_body(format!("{at}{message}"));
            if !at.is_empty() {
                e = e.with_field(&path);
            }
            e
        }
        _ => ApiError::malformed_json(inner),
    }
}
