//! `GET|POST /v1/variants/{variant}/moves`: the legal moves of a position.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::engine::{Engine, Work};
use crate::http::json::JsonBody;
use crate::metrics::tags::MovesGenerated;
use crate::ops::find_variant;
use crate::ops::moves::{answer_moves, MovesAnswer, MovesResponse};
use crate::problem::{ApiError, Problem};

/// The position whose moves are wanted.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"position": "W:W31-50:B1-20"}))]
pub struct MovesRequest {
    /// FEN of the position; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[schema(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub position: Option<String>,
}

/// Query string of `GET /v1/variants/{variant}/moves`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MovesQuery {
    /// FEN of the position; omitted = the variant's start position.
    /// Drop games add the stones still in hand, White's then Black's: `W:Wc2:Ba1:S3,3`;
    /// Frisian each side's king run, its square and quiet moves in a row: `:R46/2,-`.
    #[param(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub position: Option<String>,
}

/// The 200 answer, tagged with the number of moves for the metrics.
fn moves_response(answer: MovesAnswer) -> HttpResponse {
    let n = answer.len() as u64;
    let mut res = HttpResponse::Ok()
        .content_type(actix_web::http::header::ContentType::json())
        .body(answer.to_json());
    res.extensions_mut().insert(MovesGenerated(n));
    res
}

/// List the legal moves of a position (FEN in the query string).
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/moves",
    tag = "moves",
    params(
        ("variant" = String, Path, description = "Variant id", example = "international"),
        MovesQuery,
    ),
    responses(
        (status = 200, description = "The position, its status and its legal moves", body = MovesResponse),
        (status = 400, description = "Invalid FEN or query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request needs more engine work than its budget (`budget-exceeded`), or one position's capture search exceeds its bound (`capture-limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), or the request timed out (`request-timeout`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_moves(
    engine: web::Data<Engine>,
    path: web::Path<String>,
    query: web::Query<MovesQuery>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    let fen = query.into_inner().position;
    let answer = engine
        .run(Work::Request, move |b| answer_moves(v, fen.as_deref(), b))
        .await?;
    Ok(moves_response(answer))
}

/// List the legal moves of a position (FEN in the body; an empty body or `{}` means the
/// start position).
#[utoipa::path(
    post,
    path = "/v1/variants/{variant}/moves",
    tag = "moves",
    params(("variant" = String, Path, description = "Variant id", example = "international")),
    request_body(content = Option<MovesRequest>, description = "The position; optional: an empty body, `null` or `{}` means the start position", content_type = "application/json", example = json!({"position": "W:W31-50:B1-20"})),
    responses(
        (status = 200, description = "The position, its status and its legal moves", body = MovesResponse),
        (status = 400, description = "Malformed JSON, wrong field types or invalid FEN", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body larger than 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json, or with a Content-Encoding other than gzip, deflate, br or zstd", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request needs more engine work than its budget (`budget-exceeded`), or one position's capture search exceeds its bound (`capture-limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), or the request timed out (`request-timeout`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn post_moves(
    engine: web::Data<Engine>,
    path: web::Path<String>,
    _: web::Query<super::NoParams>,
    body: JsonBody<MovesRequest>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    let fen = body.0.unwrap_or_default().position;
    let answer = engine
        .run(Work::Request, move |b| answer_moves(v, fen.as_deref(), b))
        .await?;
    Ok(moves_response(answer))
}
