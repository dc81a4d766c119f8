//! `POST /v1/judge/pdn`: adjudicate every game of a PDN file.
//!
//! The body is PDN text (`text/plain`, `application/x-pdn`) or JSON `{"pdn": ..., "variant"?}`.
//! Each game is judged under its own variant (the `GameType` tag, else the `Variant` tag),
//! unless the request names one. A game that cannot be judged (broken text, unsupported
//! GameType, no variant, bad FEN tag, too many plies) is an entry with an `error`, never a
//! failed request: only the request as a whole (size, number of games, unknown variant, media
//! type) gives a problem document.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::pdn_stream;
use crate::engine::{Engine, Work};
use crate::http::body;
use crate::http::json::{is_json, parse_json_object};
use crate::metrics::tags::GamesJudged;
use crate::ops::find_variant;
use crate::ops::judge::{AdjudicateDto, JudgeSettings, ResultConventionDto, MAX_PLIES_LIMIT};
use crate::ops::records::{decode_pdn, judge_file, FileOptions, PdnJudgeResponse, MAX_GAMES};
use crate::problem::{clip, ApiError, Problem, ProblemCode};
use crate::tables::TableStore;

/// Largest accepted PDN request body, in bytes (1 MiB).
pub const MAX_PDN_BODY_BYTES: usize = 1024 * 1024;

/// The query string of `POST /v1/judge/pdn`. Unknown parameters are refused (400
/// `invalid-query`), as on every endpoint.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PdnQuery {
    /// Judge every game under this variant id (or alias), whatever its GameType or Variant
    /// tag says. (No example: each example file names its variant in its tags.)
    pub variant: Option<String>,
    /// Whose score the results write first: `first-mover` (the default, PDN 3.0: `1-0` is a
    /// Black win in English, Pool and Thai) or `white-first` (`1-0` is always a White win).
    #[param(inline, example = "first-mover")]
    pub result_convention: Option<ResultConventionDto>,
    /// Also give each judged game as canonical PDN 3.0 text (`pdn` of each game): the
    /// result tag set from the judgement, every illegal move and every reading the record
    /// needed marked in a comment.
    #[param(example = false)]
    pub include_pdn: Option<bool>,
    /// Refuse a file that is not PDN 3.0 as the standard's grammar writes it (422 `pdn-syntax`,
    /// with the `line`, `column` and `rule` of its first fault). Without it every deviation
    /// is a warning on its game and the file is read as far as it can be.
    #[param(example = false)]
    pub strict: Option<bool>,
    /// Adjudicate the games the rules leave undecided: `tables` decides each one whose final
    /// position is in the endgame tables (reason `ENDGAME_TABLES`); `none` (the default)
    /// leaves them undecided. The rules, draw rules included, come first; a game of a variant
    /// without tables is judged without them, with the warning `tables-unsupported`.
    #[serde(default, deserialize_with = "adjudicate_param")]
    #[param(inline, value_type = Option<AdjudicateDto>, example = "tables")]
    pub adjudicate: Option<AdjudicateDto>,
    /// A move limit, in plies (1 to 1000): a game still running at this ply is decided there,
    /// by the tables with `adjudicate=tables` when they can, else drawn (reason
    /// `MOVE_LIMIT`); the moves after it are not judged.
    #[serde(default, deserialize_with = "max_plies_param")]
    #[param(value_type = Option<u64>, minimum = 1, maximum = 1000)]
    pub max_plies: Option<u64>,
}

/// `adjudicate`: `none` or `tables`, else refused naming the parameter.
fn adjudicate_param<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<AdjudicateDto>, D::Error> {
    let text = String::deserialize(d)?;
    match text.as_str() {
        "none" => Ok(Some(AdjudicateDto::None)),
        "tables" => Ok(Some(AdjudicateDto::Tables)),
        _ => Err(serde::de::Error::custom(format!(
            "parameter `adjudicate` is `none` or `tables`, not '{}'",
            clip(&text)
        ))),
    }
}

/// `max_plies`: a whole number, else refused naming the parameter (its bounds are checked
/// with the other options).
fn max_plies_param<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let text = String::deserialize(d)?;
    text.parse::<u64>().map(Some).map_err(|_| {
        serde::de::Error::custom(format!(
            "parameter `max_plies` must be a whole number from 1 to {}, not '{}'",
            MAX_PLIES_LIMIT,
            clip(&text)
        ))
    })
}

/// The JSON form of a PDN request.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "pdn": "[Event \"Club\"]\n[GameType \"25\"]\n[Result \"*\"]\n1. c3-d4 f6-g5 2. g3-f4 g5-h4 *\n",
    "variant": "russian"
}))]
pub struct PdnRequest {
    /// The PDN text: one or more games (at most 200).
    pub pdn: String,
    /// Judge every game under this variant id (the `variant` query parameter wins over it).
    #[schema(example = "russian")]
    pub variant: Option<String>,
    /// Whose score the results write first (the `result_convention` query parameter wins over
    /// it); `first-mover` when omitted.
    #[schema(example = "first-mover")]
    pub result_convention: Option<ResultConventionDto>,
    /// Also give each judged game as canonical PDN text (see the `include_pdn` query
    /// parameter, which wins over it).
    #[schema(example = false)]
    pub include_pdn: Option<bool>,
    /// Refuse a file that is not PDN 3.0 (see the `strict` query parameter, which wins over
    /// it).
    #[schema(example = false)]
    pub strict: Option<bool>,
    /// Adjudicate undecided games by the endgame tables (see the `adjudicate` query
    /// parameter, which wins over it); `none` when omitted.
    #[schema(example = "none")]
    pub adjudicate: Option<AdjudicateDto>,
    /// A move limit, in plies (see the `max_plies` query parameter, which wins over it).
    #[schema(example = json!(null), minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "super::judge::whole_number")]
    pub max_plies: Option<u64>,
}

fn media_essence(ct: &str) -> String {
    ct.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_pdn_text(essence: &str) -> bool {
    essence.is_empty()
        || essence.starts_with("text/")
        || matches!(
            essence,
            "application/x-pdn" | "application/pdn" | "application/octet-stream"
        )
}

/// The settings of a JSON body that the query string can also give.
#[derive(Default)]
pub struct PdnSettings {
    variant: Option<String>,
    strict: Option<bool>,
    judge: JudgeSettings,
}

impl PdnQuery {
    /// How the file is judged: each setting from the query when it has it, else from the
    /// JSON body's members (`body`); the variant named for every game looked up.
    pub fn file_options(self, body: PdnSettings) -> Result<FileOptions, ApiError> {
        let from_query = JudgeSettings {
            result_convention: self.result_convention,
            include_pdn: self.include_pdn,
            adjudicate: self.adjudicate,
            max_plies: self.max_plies,
        }
        .check(true)?;
        let judge = from_query.or(body.judge.check(false)?);
        let explicit = match self.variant.or(body.variant) {
            Some(id) => Some(find_variant(&id)?),
            None => None,
        };
        Ok(FileOptions {
            explicit,
            options: judge.options(),
            strict: self.strict.or(body.strict).unwrap_or(false),
        })
    }
}

/// 413: a PDN body above [`MAX_PDN_BODY_BYTES`] (`limit`), as sent or once decoded.
pub fn pdn_too_large(length: Option<usize>, _limit: usize, decoded: bool) -> ApiError {
    let sent = match (length, decoded) {
        (_, true) => {
            "the request body, once decoded (Content-Encoding), is too large; ".to_string()
        }
        (Some(n), false) => format!("the request body has {n} bytes; "),
        (None, false) => "the request body is too large; ".to_string(),
    };
    ApiError::new(
        413,
        ProblemCode::PayloadTooLarge,
        "Request body too large",
        format!("{sent}the limit for PDN files is {MAX_PDN_BODY_BYTES} bytes (1 MiB)"),
    )
    .with_limit("body", MAX_PDN_BODY_BYTES as u64)
}

/// Adjudicate a PDN file: replay every game under its variant's rules, say who won and why,
/// and check each declared result against the moves.
///
/// The variant of a game is, in order: the `variant` query parameter, the `variant` member of a
/// JSON body, the game's `GameType` tag (20 international, 21 english, 22 italian, 23 pool,
/// 24 spanish, 25 russian, 26 brazilian, 27 canadian, 28 portuguese, 29 czech, 30 turkish,
/// 31 thai, 40 frisian, 96 breakthrough, 97 frysk, 98 antidraughts; 99, a game from a set-up
/// position, is international unless the `Variant` tag names another variant), its `Variant`
/// tag (a variant id, or a name other programs write, such as lidraughts' `standard`). A
/// `Variant` tag naming a variant on the board of the GameType's variant wins over the
/// number, which several variants share. A game that cannot be judged is an entry with
/// `outcome: "error"`, not a failed request.
///
/// **Adjudication** (`adjudicate=tables`, `max_plies=N`), as match runners adjudicate
/// unfinished games: a game the rules leave undecided whose final position is in the endgame
/// tables is decided by them (reason `ENDGAME_TABLES`, with the `material` and the `plies` to
/// the end under best play), and a game still running at ply N is decided there, by the
/// tables when they can, else drawn (`MOVE_LIMIT`). The rules, draw rules included, come
/// first; the draw rules are the judge's, not the tables'. A game of a variant without tables
/// is judged without them, with the warning `tables-unsupported`.
///
/// Bounds: the body is at most 1 MiB (413), the file at most 200 games (422
/// `too-many-games`), a game at most 1000 plies (a per-game `too-many-moves` error). A body
/// that is not UTF-8 is read as ISO-8859-1.
///
/// **Files of any size, as a stream.** With `Accept: application/x-ndjson` and a PDN text
/// body (a JSON body is refused 415; pass the variant and the options as query parameters),
/// the answer is 200 at once and its body newline-delimited JSON, written as the file's bytes
/// come in: one line per game, in file order (the object of one entry of `games`, written as
/// soon as the game is judged), then `{"summary": {...}}`. The body is read game by game, so
/// the file may have any number of games; a game is at most 1 MiB (a larger one is an entry
/// with the error `payload-too-large`, and reading goes on at the next line starting with
/// `[`); each game is judged within the work budget of a `/judge` request (over it: an entry
/// with the error `budget-exceeded`). The stream is bounded: at most 1 GiB of body, as sent
/// and once decoded (a larger declared `Content-Length` is 413 at once), at most 10 minutes
/// (both configurable by the operator), at most 30 s without a byte of the body; a replica
/// runs at most 64 stream units at once, a stream counting 1 and 8 more for each brotli or
/// zstd decoding (more: 503 `overloaded`, nothing started). Past a
/// bound, or when the body cannot be decoded, the stream ends with the line
/// `{"error": <problem document>, "summary": <the counts so far>}` instead of the summary:
/// the status was 200 already, so the last line tells whether every game was judged. The
/// text is read as UTF-8 up to its first byte that is not UTF-8, then as ISO-8859-1.
#[utoipa::path(
    post,
    path = "/v1/judge/pdn",
    tag = "judge",
    params(PdnQuery),
    request_body(
        description = "PDN text (`text/plain` or `application/x-pdn`, UTF-8 or ISO-8859-1, at most 1 MiB, at most 200 games), or JSON `{\"pdn\", \"variant\"?}`",
        content(
            (String = "text/plain", examples(
                ("international" = (summary = "A short international game (GameType 20)", value = json!("[Event \"Club\"]\n[GameType \"20\"]\n[Result \"*\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n"))),
                ("russian" = (summary = "A Russian game (GameType 25)", value = json!("[GameType \"25\"]\n[Result \"1-0\"]\n1. c3-d4 f6-g5 2. g3-f4 g5-h4 1-0\n"))),
                ("bad_move" = (summary = "A game with an illegal move (a capture is compulsory)", value = json!("[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *\n"))),
                ("english_tables" = (summary = "An English game ending in two kings against one: send it with adjudicate=tables", value = json!("[GameType \"21\"]\n[FEN \"W:WK18,K22:BK3\"]\n[Result \"0-1\"]\n1... 22-17 2. 3-7 17-13 3. 7-3 18-15 0-1\n"))),
            )),
            (String = "application/x-pdn"),
            (PdnRequest = "application/json"),
        )
    ),
    responses(
        (status = 200, description = "One entry per game; games that cannot be judged are entries with an `error`. With `Accept: application/x-ndjson`: one JSON line per game (a `PdnGameResult`), in file order, each written as soon as its game is judged, then the line `{\"summary\": PdnSummary}`; a stream that hits a bound (1 GiB of body, 10 minutes, 30 s without body bytes) or a body that cannot be decoded ends instead with `{\"error\": Problem, \"summary\": PdnSummary}` (the counts so far)", content(
            (PdnJudgeResponse = "application/json"),
            (String = "application/x-ndjson", example = json!("{\"index\":0,\"line\":1,\"tags\":{\"GameType\":\"20\"},\"variant\":\"international\",\"outcome\":\"judged\",...}\n{\"summary\":{\"games\":1,\"judged\":1,\"errors\":0}}\n")),
        )),
        (status = 400, description = "Empty body, malformed JSON, wrong field types, an unknown `adjudicate` value or `max_plies` out of bounds (`field`, `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant (the problem lists the known ids)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body larger than 1 MiB (streamed: a declared length over the stream's bound)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body neither PDN text nor JSON (streamed: not PDN text), or with a Content-Encoding other than gzip, deflate, br or zstd", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More than 200 games (`too-many-games`; the stream has no such bound), more engine work than the budget of a file (`budget-exceeded`), or with `strict`, a file that is not PDN 3.0 (`pdn-syntax`, with `line`, `column`, `rule`, `expected`; streamed: an error entry for each such game)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), the request timed out (`request-timeout`), or an endgame table the adjudication needs is being computed (`endgame-building`, with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn judge_pdn(
    engine: web::Data<Engine>,
    tables: Option<web::Data<TableStore>>,
    req: HttpRequest,
    query: web::Query<PdnQuery>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let essence = req
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| media_essence(&String::from_utf8_lossy(v.as_bytes())))
        .unwrap_or_default();
    if !is_json(&essence) && !is_pdn_text(&essence) {
        return Err(ApiError::new(
            415,
            ProblemCode::UnsupportedMediaType,
            "Unsupported media type",
            format!(
                "send the PDN file as text/plain or application/x-pdn, or JSON {{\"pdn\": ...}} \
                 as application/json, not '{}'",
                clip(&essence)
            ),
        ));
    }
    let codings = body::codings(&req)?;
    let query = query.into_inner();
    if pdn_stream::wants_ndjson(&req) {
        if is_json(&essence) {
            return Err(pdn_stream::json_refused());
        }
        let file = query.file_options(PdnSettings::default())?;
        return pdn_stream::judge_stream(&req, engine, tables, payload, codings, file);
    }
    let raw = body::read_stream(
        payload,
        body::declared_length(&req),
        MAX_PDN_BODY_BYTES,
        pdn_too_large,
    )
    .await?;
    let bytes = body::decode_as_work(
        &req,
        Work::PdnFile,
        raw,
        codings,
        MAX_PDN_BODY_BYTES,
        pdn_too_large,
    )
    .await?;
    // An empty PDN text is a file without games (judged: none); an empty JSON body is not
    // JSON, and no body at all (nor a Content-Type) is a missing body.
    if (is_json(&essence) || essence.is_empty()) && bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid_body(
            "the request body is missing; send the PDN text (text/plain) or JSON {\"pdn\": ...}",
        ));
    }
    let (text, body) = if is_json(&essence) {
        let r: PdnRequest = parse_json_object(&bytes)?;
        let settings = PdnSettings {
            variant: r.variant,
            strict: r.strict,
            judge: JudgeSettings {
                result_convention: r.result_convention,
                include_pdn: r.include_pdn,
                adjudicate: r.adjudicate,
                max_plies: r.max_plies,
            },
        };
        (r.pdn, settings)
    } else {
        (decode_pdn(&bytes), PdnSettings::default())
    };
    let file = query.file_options(body)?;
    let answer = engine
        .run(Work::PdnFile, move |b| {
            judge_file(
                &text,
                file,
                MAX_GAMES,
                tables.as_ref().map(|t| t.get_ref()),
                b,
            )
        })
        .await?;
    // Per-variant "games judged" counters for the metrics middleware.
    let judged = GamesJudged(answer.judged_by_variant());
    let mut res = HttpResponse::Ok().json(answer);
    res.extensions_mut().insert(judged);
    Ok(res)
}
