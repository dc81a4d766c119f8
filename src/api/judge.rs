//! `POST /v1/variants/{variant}/judge`: judge a whole game and check a claimed result.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::NoParams;
use crate::engine::{Engine, Work};
use crate::http::json::JsonBody;
use crate::ops;
use crate::ops::judge::{
    AdjudicateDto, ClaimedResult, GameInput, JudgeResponse, JudgeSettings, ResultConventionDto,
};
use crate::ops::{check_move_count, find_variant};
use crate::problem::{ApiError, Problem};
use crate::tables::TableStore;

/// A game to judge.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "start_position": "W:W31-50:B1-20",
    "moves": ["32-28", "19-23", "28x19", "14x23"],
    "declared_result": "1-1"
}))]
pub struct JudgeRequest {
    /// FEN of the position the game starts from; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[schema(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub start_position: Option<String>,
    /// The moves of the game in order, short or long notation (at most 1000: the same
    /// per-game bound as a game of `POST /v1/judge/pdn`, and the same `too-many-moves` code).
    #[schema(example = json!(["32-28", "19-23", "28x19", "14x23"]))]
    pub moves: Vec<String>,
    /// The declared result to check (a game record's `Result`): `white_wins`, `black_wins`,
    /// `draw` or a PDN result (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0`, `*`), its
    /// figures read by `result_convention`. (`claimed_result`, its former name, is read too.)
    #[schema(example = "1-1")]
    #[serde(alias = "claimed_result")]
    pub declared_result: Option<ClaimedResult>,
    /// Whose score the PDN results (`declared_result` and the answer's `result`) write first;
    /// `first-mover` when omitted.
    #[schema(example = "first-mover")]
    pub result_convention: Option<ResultConventionDto>,
    /// Also give the game as canonical PDN 3.0 text (`pdn` in the answer).
    #[schema(example = false)]
    pub include_pdn: Option<bool>,
    /// Adjudicate a game the rules leave undecided: `tables` decides it by the endgame
    /// tables when its final position is in them (reason `ENDGAME_TABLES`, with the material
    /// and the plies to the end under best play); `none` (the default) leaves it undecided.
    /// The variant's rules, draw rules included, come first: a game they end is never
    /// re-decided. The tables give game-theoretic values; the draw rules are the judge's, not
    /// the tables'. A variant without tables (its rules keep history the tables cannot hold,
    /// such as Frisian's king runs) is judged without them, with the warning
    /// `tables-unsupported`; tables that cannot be probed give `tables-unavailable`.
    #[schema(example = "none")]
    pub adjudicate: Option<AdjudicateDto>,
    /// A move limit, in plies (1 to 1000): a game still running at this ply is decided there,
    /// by the tables with `adjudicate: tables` when they can, else drawn (reason
    /// `MOVE_LIMIT`); the moves after it are not judged (`moves_after_end`).
    #[schema(example = json!(null), minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "whole_number")]
    pub max_plies: Option<u64>,
}

/// Judge a game: play its moves, apply the end-of-game and draw rules, and check the claimed
/// declared result. An illegal move is a verdict (`invalid`), not an error.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/judge",
    tag = "judge",
    params(("variant" = String, Path, description = "Variant id", example = "international")),
    request_body(content(
        (JudgeRequest = "application/json", examples(
            ("international" = (summary = "A short international game and its declared result", value = json!({
                "start_position": "W:W31-50:B1-20",
                "moves": ["32-28", "19-23", "28x19", "14x23"],
                "declared_result": "1-1"
            }))),
            ("tables" = (summary = "A game that ends in a king against two men, adjudicated by the endgame tables", value = json!({
                "start_position": "W:WK48:B7,8",
                "moves": ["48-30", "8-12"],
                "declared_result": "2-0",
                "adjudicate": "tables"
            }))),
            ("move_limit" = (summary = "The same game stopped at a move limit of 1 ply, adjudicated there", value = json!({
                "start_position": "W:WK48:B7,8",
                "moves": ["48-30", "8-12"],
                "adjudicate": "tables",
                "max_plies": 1
            }))),
        )),
    )),
    responses(
        (status = 200, description = "The judgement (including `invalid` when a move is illegal)", body = JudgeResponse),
        (status = 400, description = "Malformed JSON, wrong field types, unknown claimed result or `adjudicate` value, `max_plies` out of bounds (`field`, `limit`), or invalid FEN", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body larger than 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json, or with a Content-Encoding other than gzip, deflate, br or zstd", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More than 1000 moves, more engine work than the budget (`budget-exceeded`), or capture enumeration bound exceeded", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), the request timed out (`request-timeout`), or an endgame table the adjudication needs is being computed (`endgame-building`, with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn judge(
    engine: web::Data<Engine>,
    tables: Option<web::Data<TableStore>>,
    path: web::Path<String>,
    _: web::Query<NoParams>,
    body: JsonBody<JudgeRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0.ok_or_else(|| {
        ApiError::invalid_body("the request body is empty; send a JSON object with 'moves'")
    })?;
    let v = find_variant(&path)?;
    let game = req.into_input()?;
    let answer = engine
        .run(Work::Request, move |b| {
            ops::judge::judge(v, &game, tables.as_ref().map(|t| t.get_ref()), b)
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

impl JudgeRequest {
    /// The game to judge, its options checked (the number of moves, `max_plies`).
    pub fn into_input(self) -> Result<GameInput, ApiError> {
        check_move_count(self.moves.len())?;
        let settings = JudgeSettings {
            result_convention: self.result_convention,
            include_pdn: self.include_pdn,
            adjudicate: self.adjudicate,
            max_plies: self.max_plies,
        }
        .check(false)?;
        Ok(GameInput {
            start_position: self.start_position,
            moves: self.moves,
            declared_result: self.declared_result,
            options: settings.options(),
        })
    }
}

/// An optional whole number, also when written with a zero fraction (`55.0`), as JSON Schema's
/// `integer` allows.
pub fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    use serde::Deserialize;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    if let Some(u) = n.as_u64() {
        return Ok(Some(u));
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && (0.0..=1e15).contains(&f) => Ok(Some(f as u64)),
        _ => Err(serde::de::Error::custom(format!(
            "invalid value {n}, expected a whole number"
        ))),
    }
}
