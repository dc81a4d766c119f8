//! `POST /v1/judge/pdn`: adjudicate every game of a PDN file.
//!
//! The body is PDN text (`text/plain`, `application/x-pdn`) or JSON `{"pdn": ..., "variant"?}`.
//! Each game is judged under its own variant (the `GameType` tag, else the `Variant` tag),
//! unless the request names one. A game that cannot be judged (broken text, unsupported
//! GameType, no variant, bad FEN tag, too many plies) is an entry with an `error`, never a
//! failed request: only the request as a whole (size, number of games, unknown variant, media
//! type) gives a problem document.

use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use arbiter_rules::adjudication::{
    judge_pdn_game, result_for_pdn, write_pdn, GameError, GameReport, PdnOut, Probe, ReadOptions,
};
use arbiter_rules::catalogue::{choose_variant, VariantChoice};
use arbiter_rules::notation::pdn::{PdnGame, PdnLimits, PdnReader};
use arbiter_rules::{Budget, GenError, Variant};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::judge::{
    adjudication, draw_rule_text, pdn_result, table_store, AdjudicateDto, ClaimableDraw, ReasonDto,
    RecordWarningDto, ResultConventionDto, TableProbe,
};
use super::judge::{Agreement, VerdictDto};
use super::{body, find_variant, is_json};
use crate::engine::{Engine, Work};
use crate::errors::{ApiError, PrecedenceRule, Problem, ProblemCode, ViolationCode};

/// Largest accepted PDN request body, in bytes (1 MiB).
pub const MAX_PDN_BODY_BYTES: usize = 1024 * 1024;

/// Most games judged in one request.
pub const MAX_GAMES: usize = 200;

/// Most plies judged in one game: the same bound as the moves of `/judge` and `/play`.
pub const MAX_PLIES_PER_GAME: usize = crate::config::MAX_MOVES;

/// PDN text read per work unit (counting and reading a file costs about as much CPU per 8
/// bytes as a unit of engine work).
pub const BYTES_PER_UNIT: u64 = 8;

/// Most tags kept for one game besides its first GameType, Variant, FEN and Result tags (a
/// game with more is an `invalid-game-text` entry).
pub const MAX_TAGS_PER_GAME: usize = 100;

/// Longest tag value or move token kept, in bytes (longer ones are cut).
pub const MAX_TOKEN_BYTES: usize = 4096;

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
            crate::errors::clip(&text)
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
            super::judge::MAX_PLIES_LIMIT,
            crate::errors::clip(&text)
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

/// Whether a game was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// The moves were replayed and judged (the verdict may still be `invalid`).
    Judged,
    /// The game could not be judged (see `error`).
    Error,
}

/// The first move of a game that is not legal.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnInvalidMove {
    /// 1-based ply of the move in the game.
    #[schema(example = 3)]
    pub ply: usize,
    /// The move number written before it in the file, if any.
    #[schema(example = 2)]
    pub move_number: Option<u32>,
    /// The move text as written.
    #[serde(rename = "move")]
    #[schema(example = "28-22")]
    pub move_text: String,
    /// `illegal-move`, `ambiguous-move` or `unparsable-move`.
    #[schema(value_type = String, example = "illegal-move")]
    pub code: ProblemCode,
    /// Why the move was refused.
    #[schema(example = "illegal move: 28-22 does not match any legal move")]
    pub reason: String,
    /// Illegal move: the first rule it breaks (as in a problem document's `violation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation: Option<ViolationCode>,
    /// `capture-precedence`: the precedence rule the capture loses on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precedence: Option<PrecedenceRule>,
    /// The legal moves at that point, in canonical notation.
    #[schema(example = json!(["28x19"]))]
    pub legal_moves: Vec<String>,
}

/// Why a game could not be judged.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameErrorDto {
    /// `invalid-game-text`, `unsupported-variant`, `no-variant`, `invalid-position`,
    /// `too-many-moves` (more than 1000 plies) or `capture-limit`; in a stream also
    /// `payload-too-large` (a game of more than 1 MiB) and `budget-exceeded` (a game over the
    /// work budget of a `/judge` request).
    #[schema(value_type = String, example = "unsupported-variant")]
    pub code: ProblemCode,
    /// Human-readable explanation.
    #[schema(example = "GameType \"41\" is not a variant this service supports")]
    pub detail: String,
}

/// The judgement of one game of the file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnGameResult {
    /// 0-based index of the game in the file.
    #[schema(example = 0)]
    pub index: usize,
    /// 1-based line where the game starts.
    #[schema(example = 1)]
    pub line: usize,
    /// The tag pairs, in file order.
    #[schema(example = json!({"Event": "Club", "GameType": "20", "Result": "2-0"}))]
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The variant id the game was judged under; null when none could be chosen.
    #[schema(example = "international")]
    pub variant: Option<String>,
    /// `judged`, or `error` when the game could not be judged.
    #[schema(example = "judged")]
    pub outcome: GameOutcome,
    /// `white_wins`, `black_wins`, `draw`, `undecided` or `invalid` (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictDto>,
    /// Why the game ended (a rule, or the adjudication asked for); null when it did not
    /// (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Option<ReasonDto>>,
    /// The ply after which the rules (or the adjudication) ended the game (0 = the start
    /// position itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_at_ply: Option<Option<usize>>,
    /// Number of moves legally played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 4)]
    pub plies: Option<usize>,
    /// Moves written after the game had ended, or after the move limit; they are not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 0)]
    pub moves_after_end: Option<usize>,
    /// FEN of the position after the moves legally played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "W:W31-50:B1-20")]
    pub final_position: Option<String>,
    /// The result the moves show, in the variant's PDN style (`2-0`, `1-0`, `1/2-1/2`...);
    /// `*` when undecided or invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2-0")]
    pub result: Option<String>,
    /// The declared result (the `Result` tag, else the game terminator); null if none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2-0")]
    pub declared_result: Option<Option<String>>,
    /// The declared result checked against the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agreement: Option<Agreement>,
    /// Draws a player could have claimed, each with the first ply it was available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_draws: Option<Vec<ClaimableDraw>>,
    /// The first illegal move, when the verdict is `invalid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_move: Option<PdnInvalidMove>,
    /// What the record reader did to read the game (an ambiguous capture resolved by the rest
    /// of the game, text glued to a move, a repaired tag...), in ply order; empty when the
    /// game was read as written (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!([{
        "code": "text-after-move", "ply": 34, "text": "26-22Whiteoversteppedthetimecontrolonthismove.",
        "reading": "26-22", "alternatives": [], "verdict_differs": null,
        "detail": "text glued to the move 26-22; read as the move and the comment 'Whiteoversteppedthetimecontrolonthismove.'"
    }]))]
    pub warnings: Option<Vec<RecordWarningDto>>,
    /// The game as canonical PDN 3.0 text, when asked for (`include_pdn`): its tags with the
    /// `Result` set from the judgement (the declared result where the rules do not decide
    /// the game), the moves legally played in canonical notation, every reading the record
    /// needed and an illegal move marked in comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "[Event \"Club\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n"
    )]
    pub pdn: Option<String>,
    /// Why the game could not be judged (`outcome` = `error` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<GameErrorDto>,
}

/// Counts over the whole file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnSummary {
    /// Games found in the file.
    #[schema(example = 3)]
    pub games: usize,
    /// Games judged (including `invalid` verdicts).
    #[schema(example = 2)]
    pub judged: usize,
    /// Games that could not be judged.
    #[schema(example = 1)]
    pub errors: usize,
}

/// The judgement of a PDN file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnJudgeResponse {
    /// One entry per game, in file order.
    pub games: Vec<PdnGameResult>,
    pub summary: PdnSummary,
}

fn game_error_code(e: &GameError) -> ProblemCode {
    match e {
        GameError::Text(_) => ProblemCode::InvalidGameText,
        GameError::UnsupportedVariant(_) => ProblemCode::UnsupportedVariant,
        GameError::NoVariant => ProblemCode::NoVariant,
        GameError::BadFen(_) => ProblemCode::InvalidPosition,
        GameError::TooManyPlies { .. } => ProblemCode::TooManyMoves,
        GameError::Gen(_) => ProblemCode::CaptureLimit,
    }
}

fn empty_entry(index: usize, game: &PdnGame, variant: Option<&Variant>) -> PdnGameResult {
    PdnGameResult {
        index,
        line: game.line,
        tags: game
            .tags
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect(),
        variant: variant.map(|v| v.id().to_string()),
        outcome: GameOutcome::Error,
        verdict: None,
        reason: None,
        decided_at_ply: None,
        plies: None,
        moves_after_end: None,
        final_position: None,
        result: None,
        declared_result: None,
        agreement: None,
        claimable_draws: None,
        invalid_move: None,
        warnings: None,
        pdn: None,
        error: None,
    }
}

/// The canonical PDN text of a judged game of a file.
pub fn report_pdn(game: &PdnGame, r: &GameReport) -> String {
    let result = result_for_pdn(r.variant, &r.judgement, r.declared.as_deref(), r.convention);
    write_pdn(&PdnOut {
        variant: r.variant,
        tags: &game.tags,
        start: &r.start,
        counters: r.counters,
        judgement: &r.judgement,
        warnings: &r.warnings,
        result: &result,
    })
}

fn judged_entry(index: usize, game: &PdnGame, r: GameReport, include_pdn: bool) -> PdnGameResult {
    let v = r.variant;
    let j = &r.judgement;
    let mut e = empty_entry(index, game, Some(v));
    e.outcome = GameOutcome::Judged;
    e.pdn = include_pdn.then(|| report_pdn(game, &r));
    e.verdict = Some(j.verdict.into());
    e.reason = Some(j.reason.map(|reason| ReasonDto::of(v, j, reason)));
    e.decided_at_ply = Some(j.decided_at_ply);
    e.plies = Some(j.moves.len());
    e.moves_after_end = Some(j.moves_after_end);
    // Sides alternate (a pass is a ply too), so the side to move at the start follows from
    // the final position and the number of plies.
    let first = if j.moves.len() % 2 == 0 {
        j.final_position.side()
    } else {
        j.final_position.side().opponent()
    };
    e.final_position = Some(v.fen_counters(
        &j.final_position,
        super::counters_after(v, r.counters, first, j.moves.iter().map(|d| &d.mv)),
    ));
    e.result = Some(pdn_result(v, j.verdict, r.convention).to_string());
    e.warnings = Some(r.warnings.iter().map(RecordWarningDto::from).collect());
    e.declared_result = Some(r.declared.clone());
    e.agreement = Some(Agreement {
        agrees: r.agreement.agrees,
        explanation: r.agreement.explanation.clone(),
    });
    e.claimable_draws = Some(
        j.claimable
            .iter()
            .map(|c| ClaimableDraw {
                code: c.code.code().to_string(),
                description: draw_rule_text(v, c.code),
                ply: c.ply,
            })
            .collect(),
    );
    e.invalid_move = j.illegal.as_ref().map(|i| {
        let problem = ApiError::bad_move(i.ply, &i.text, i.error.clone());
        let p = problem.problem();
        PdnInvalidMove {
            ply: i.ply,
            move_number: r.illegal_move_number,
            move_text: i.text.clone(),
            code: p.code,
            reason: p.reason.clone().unwrap_or_else(|| i.error.to_string()),
            violation: p.violation,
            precedence: p.precedence,
            legal_moves: i.legal.clone(),
        }
    });
    e
}

/// 422: more games in the file than the bound.
pub fn too_many_games(count: usize, limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        ProblemCode::TooManyGames,
        "Too many games",
        format!(
            "the PDN text has {count} games; at most {limit} games are judged per request: \
             ask for the answer as a stream (`Accept: {}`, one JSON line per game) to have \
             a file of any size judged",
            super::pdn_stream::NDJSON
        ),
    )
    .with_limit("pdn", limit as u64)
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
        StatusCode::PAYLOAD_TOO_LARGE,
        ProblemCode::PayloadTooLarge,
        "Request body too large",
        format!("{sent}the limit for PDN files is {MAX_PDN_BODY_BYTES} bytes (1 MiB)"),
    )
    .with_limit("body", MAX_PDN_BODY_BYTES as u64)
}

/// Judges every game of a PDN text: the work of `POST /v1/judge/pdn` and `arbiter judge`.
/// `explicit` overrides each game's tags; more than `max_games` games is the too-many-games
/// problem.
pub fn judge_pdn_text(
    text: &str,
    explicit: Option<&'static Variant>,
    max_games: usize,
    options: ReadOptions,
    include_pdn: bool,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<PdnJudgeResponse, ApiError> {
    // Reading the text is work too (it is read twice: counted, then judged game by game).
    budget
        .charge(text.len() as u64 / BYTES_PER_UNIT)
        .map_err(|e| ApiError::engine(&e))?;
    // Count first, keeping nothing, so that an oversized file costs no memory.
    let count = PdnReader::count_games(text);
    if count > max_games {
        return Err(too_many_games(count, max_games));
    }
    let limits = READ_LIMITS;
    let mut out = Vec::with_capacity(count);
    for (index, game) in PdnReader::new(text, limits).enumerate() {
        out.push(judge_game(
            index,
            &game,
            explicit,
            options,
            include_pdn,
            probe,
            budget,
        )?);
    }
    let judged = out
        .iter()
        .filter(|g| g.outcome == GameOutcome::Judged)
        .count();
    Ok(PdnJudgeResponse {
        summary: PdnSummary {
            games: out.len(),
            judged,
            errors: out.len() - judged,
        },
        games: out,
    })
}

/// `strict` reading: the text must be PDN 3.0 as the standard's grammar writes it
/// (`arbiter_rules::notation::pdn_grammar`), else the 422 `pdn-syntax` problem for its first
/// fault. Checking is charged to the budget like reading.
pub fn check_strict(text: &str, budget: &Budget) -> Result<(), ApiError> {
    budget
        .charge(text.len() as u64 / BYTES_PER_UNIT)
        .map_err(|e| ApiError::engine(&e))?;
    arbiter_rules::notation::pdn_grammar::check_file(text).map_err(|e| ApiError::pdn_syntax(&e))
}

/// What a PDN file's games keep when read (see [`PdnLimits`]).
pub const READ_LIMITS: PdnLimits = PdnLimits {
    max_plies: MAX_PLIES_PER_GAME,
    max_tags: MAX_TAGS_PER_GAME,
    max_token: MAX_TOKEN_BYTES,
};

/// Judges the game at `index` of a file: its entry, the entry of a game that cannot be judged
/// included; an error only when the budget is spent or the work was cancelled (the request's
/// end, the same way on every replica).
pub fn judge_game(
    index: usize,
    game: &PdnGame,
    explicit: Option<&'static Variant>,
    options: ReadOptions,
    include_pdn: bool,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<PdnGameResult, ApiError> {
    match judge_pdn_game(game, explicit, MAX_PLIES_PER_GAME, options, probe, budget) {
        Ok(report) => Ok(judged_entry(index, game, report, include_pdn)),
        Err(GameError::Gen(e @ (GenError::Budget { .. } | GenError::Cancelled))) => {
            Err(ApiError::engine(&e))
        }
        Err(err) => {
            let variant = match choose_variant(game, explicit) {
                VariantChoice::Found(v) => Some(v),
                _ => None,
            };
            Ok(error_entry(
                index,
                game,
                variant,
                game_error_code(&err),
                err.to_string(),
            ))
        }
    }
}

/// The entry of a game that could not be judged.
pub fn error_entry(
    index: usize,
    game: &PdnGame,
    variant: Option<&Variant>,
    code: ProblemCode,
    detail: String,
) -> PdnGameResult {
    let mut e = empty_entry(index, game, variant);
    e.error = Some(GameErrorDto { code, detail });
    e
}

/// Decodes a PDN body: UTF-8 when it is valid UTF-8, else ISO-8859-1 (every byte one char),
/// as older PDN files are written.
pub fn decode_pdn(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
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

/// The members of a JSON body that the query string can also give.
#[derive(Default)]
struct BodySettings {
    variant: Option<String>,
    convention: Option<ResultConventionDto>,
    include_pdn: Option<bool>,
    strict: Option<bool>,
    adjudicate: Option<AdjudicateDto>,
    max_plies: Option<u64>,
}

/// The reading options, `include_pdn` and the variant named for every game, from the query
/// (which wins) and the JSON body's members.
fn judge_settings(
    query: PdnQuery,
    body: BodySettings,
) -> Result<(ReadOptions, bool, bool, Option<&'static Variant>), ApiError> {
    let BodySettings {
        variant: body_variant,
        convention: body_convention,
        include_pdn: body_pdn,
        strict: body_strict,
        adjudicate,
        max_plies,
    } = body;
    // Each option from the query when it has it, else from the body.
    let from_query = adjudication(query.adjudicate, query.max_plies, true)?;
    let from_body = adjudication(adjudicate, max_plies, false)?;
    let adjudication = arbiter_rules::adjudication::Adjudication {
        tables: match query.adjudicate {
            Some(_) => from_query.tables,
            None => from_body.tables,
        },
        max_plies: from_query.max_plies.or(from_body.max_plies),
    };
    let options = ReadOptions {
        convention: query
            .result_convention
            .or(body_convention)
            .unwrap_or_default()
            .into(),
        adjudication,
        ..ReadOptions::default()
    };
    let include_pdn = query.include_pdn.or(body_pdn).unwrap_or(false);
    let strict = query.strict.or(body_strict).unwrap_or(false);
    let explicit = match query.variant.or(body_variant) {
        Some(id) => Some(find_variant(&id)?),
        None => None,
    };
    Ok((options, include_pdn, strict, explicit))
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
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ProblemCode::UnsupportedMediaType,
            "Unsupported media type",
            format!(
                "send the PDN file as text/plain or application/x-pdn, or JSON {{\"pdn\": ...}} \
                 as application/json, not '{}'",
                crate::errors::clip(&essence)
            ),
        ));
    }
    let codings = body::codings(&req)?;
    if super::pdn_stream::wants_ndjson(&req) {
        if is_json(&essence) {
            return Err(super::pdn_stream::json_refused());
        }
        let query = query.into_inner();
        let (options, include_pdn, strict, explicit) =
            judge_settings(query, BodySettings::default())?;
        return super::pdn_stream::judge_stream(
            &req,
            engine,
            payload,
            codings,
            super::pdn_stream::Settings {
                explicit,
                options,
                include_pdn,
                strict,
                tables: table_store(&req),
            },
        );
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
        let r: PdnRequest = super::parse_json_object(&bytes)?;
        (
            r.pdn,
            BodySettings {
                variant: r.variant,
                convention: r.result_convention,
                include_pdn: r.include_pdn,
                strict: r.strict,
                adjudicate: r.adjudicate,
                max_plies: r.max_plies,
            },
        )
    } else {
        (decode_pdn(&bytes), BodySettings::default())
    };
    let (options, include_pdn, strict, explicit) = judge_settings(query.into_inner(), body)?;
    let store = table_store(&req);
    let answer = engine
        .run(Work::PdnFile, move |b| {
            if strict {
                check_strict(&text, b)?;
            }
            let tables = TableProbe::new(store.as_ref().map(|s| s.get_ref()));
            let answer = judge_pdn_text(
                &text,
                explicit,
                MAX_GAMES,
                options,
                include_pdn,
                &mut tables.probe(),
                b,
            )?;
            tables.finish()?;
            Ok(answer)
        })
        .await?;
    // Per-variant "games judged" counters for the metrics middleware.
    let mut judged: Vec<(String, u64)> = Vec::new();
    for g in &answer.games {
        if let (GameOutcome::Judged, Some(v)) = (&g.outcome, &g.variant) {
            match judged.iter_mut().find(|(id, _)| id == v) {
                Some((_, n)) => *n += 1,
                None => judged.push((v.clone(), 1)),
            }
        }
    }
    let mut res = HttpResponse::Ok().json(answer);
    res.extensions_mut()
        .insert(crate::metrics::GamesJudged(judged));
    Ok(res)
}
