//! `POST /v1/variants/{variant}/play`: play one move or a sequence of moves.

use actix_web::{web, HttpResponse};
use arbiter_rules::{Budget, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{check_move_count, find_variant, position_status, JsonBody, PositionStatus, Side};
use crate::engine::{Engine, Work};
use crate::errors::{ApiError, Problem};

/// A position and the move(s) to play: exactly one of `move` and `moves`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"position": "W:W31-50:B1-20", "move": "32-28"}))]
pub struct PlayRequest {
    /// FEN of the position to play from; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`.
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
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`.
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
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`.
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

/// The position after the moves.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayResponse {
    /// The variant id.
    #[schema(example = "international")]
    pub variant: String,
    /// FEN of the position after the moves.
    #[schema(
        example = "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    )]
    pub position: String,
    /// Canonical notation of each move played.
    #[schema(example = json!(["32-28"]))]
    pub moves: Vec<String>,
    /// The side to move in the new position.
    #[schema(example = "black")]
    pub side_to_move: Side,
    /// Whether the game is over in the new position (judged on its own; send the whole game
    /// to `/judge` for draws by repetition).
    pub status: PositionStatus,
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

/// Plays `texts` from `fen` (`None` = the start position), charged to `budget`: the work of
/// the play endpoint.
pub fn play_moves(
    v: &'static Variant,
    fen: Option<&str>,
    texts: &[String],
    budget: &Budget,
) -> Result<PlayResponse, ApiError> {
    let (mut pos, start_counters) = super::parse_position_counters(v, "position", fen)?;
    let mut counters = start_counters;
    let mut played = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let d = v
            .parse_move(&pos, text, budget)
            .map_err(|e| ApiError::bad_move(index + 1, text, e))
            .map_err(|e| match v.describe_moves(&pos, budget) {
                Ok(ds) => e.with_legal_moves(ds.into_iter().map(|d| d.notation).collect()),
                Err(_) => e,
            })?;
        counters = counters.map(|c| c.after(v, pos.side(), &d.mv));
        pos = v.play(&pos, &d.mv);
        played.push(d.notation);
    }
    Ok(PlayResponse {
        variant: v.id().to_string(),
        position: v.fen_counters(&pos, counters),
        moves: played,
        side_to_move: pos.side().into(),
        status: position_status(v, &pos, budget)?,
    })
}
