//! `POST /v1/variants/{variant}/play`: play one move or a sequence of moves.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::{Engine, Work};
use crate::http::json::JsonBody;
use crate::ops::play::{play_moves, PlayResponse};
use crate::ops::{check_move_count, find_variant};
use crate::problem::{ApiError, Problem};

/// A position and the move(s) to play: exactly one of `move` and `moves`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"position": "W:W31-50:B1-20", "move": "32-28"}))]
pub struct PlayRequest {
    /// FEN of the position to play from; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[schema(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub position: Option<String>,
    /// One move, in short or long notation (a drop: `*c2`; an opening removal: `xd5`).
    #[serde(rename = "move")]
    #[schema(example = "32-28")]
    pub single: Option<String>,
    /// Several moves played in order (at most 1000).
    #[schema(example = json!(["32-28", "19-23"]))]
    pub moves: Option<Vec<String>>,
}

/// Play one move (the schema of a `PlayRequest` with `move`).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct PlayOne {
    /// FEN of the position to play from; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[schema(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    position: Option<String>,
    /// One move, in short or long notation (a drop: `*c2`; an opening removal: `xd5`).
    #[serde(rename = "move")]
    #[schema(example = "32-28", min_length = 1, max_length = 512)]
    single: String,
    /// Absent or null.
    #[schema(schema_with = null_schema)]
    moves: Option<()>,
}

/// The schema of a member that may only be absent or null.
fn null_schema() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Null)
        .description(Some("absent or null"))
        .build()
}

/// Play several moves (the schema of a `PlayRequest` with `moves`).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct PlayMany {
    /// FEN of the position to play from; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[schema(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    position: Option<String>,
    /// Moves played in order (at most 1000).
    #[schema(example = json!(["32-28", "19-23"]), max_items = 1000)]
    moves: Vec<String>,
    /// Absent or null.
    #[serde(rename = "move")]
    #[schema(schema_with = null_schema)]
    single: Option<()>,
}

/// The body of `/play` as documented: exactly one of `move` and `moves` (a body with both or
/// neither is a 400). Read as [`PlayRequest`].
#[derive(ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
#[schema(example = json!({"position": "W:W31-50:B1-20", "move": "32-28"}))]
pub enum PlayBody {
    One(PlayOne),
    Many(PlayMany),
}

/// Play one move (`move`) or several (`moves`) from a position.
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/play",
    tag = "play",
    params(("variant" = String, Path, description = "Variant id", example = "international")),
    request_body(content = PlayBody, description = "A position (optional: the start position) and exactly one of `move` (one move) and `moves` (a list)", content_type = "application/json"),
    responses(
        (status = 200, description = "The new position", body = PlayResponse),
        (status = 400, description = "Malformed JSON, wrong field types, both or neither of `move`/`moves`, or invalid FEN", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body larger than 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json, or with a Content-Encoding other than gzip, deflate, br or zstd", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Illegal, ambiguous or unparsable move (with its 1-based `ply`, the legal moves and, for an illegal move, the `violation`: the first rule it breaks), more than 1000 moves, more engine work than the budget (`budget-exceeded`), or capture enumeration bound exceeded", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), or the request timed out (`request-timeout`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn play(
    engine: web::Data<Engine>,
    path: web::Path<String>,
    _: web::Query<super::NoParams>,
    body: JsonBody<PlayRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0.unwrap_or_default();
    let v = find_variant(&path)?;
    let texts = match (req.single, req.moves) {
        (Some(m), None) => vec![m],
        (None, Some(ms)) => ms,
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid_body(
                "give either 'move' or 'moves', not both",
            ))
        }
        (None, None) => {
            return Err(ApiError::invalid_body(
                "missing the move to play: give 'move' (one move) or 'moves' (a list)",
            ))
        }
    };
    check_move_count(texts.len())?;
    let fen = req.position;
    let answer = engine
        .run(Work::Request, move |b| {
            play_moves(v, fen.as_deref(), &texts, b)
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
