//! `GET /v1/variants/{variant}/endgame`: the value of a position with few pieces under best
//! play, and of each of its moves, from the endgame tables.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::engine::{Engine, Work};
use crate::ops::endgame::{evaluate, EndgameResponse};
use crate::ops::find_variant;
use crate::problem::{ApiError, Problem};
use crate::tables::TableStore;

/// Query string of `GET /v1/variants/{variant}/endgame`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EndgameQuery {
    /// FEN of the position.
    #[param(example = "B:WK14,K18:BK5", min_length = 1, max_length = 4096)]
    pub position: String,
}

/// The value of a position under best play, and of each of its moves, from the endgame
/// tables.
///
/// For positions with few pieces: those with at most the replica's built-in number of pieces
/// (4 by default) have their tables computed on first use, which may take a few seconds
/// (meanwhile the answer is 503 `endgame-building` with `Retry-After`); larger positions are
/// answered when the replica has prebuilt tables for them. The drop games (Hageby, Lahti,
/// both Vilbergens) are solved whole: every position of a game, from the empty board on, is
/// in their tables. The value is the result with best play from both sides and the plies to
/// the end of the game; play that never ends is a draw, and the variant's draw rules, which
/// need the game's history, are not applied (`/judge` applies them).
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/endgame",
    tag = "endgame",
    params(
        ("variant" = String, Path, description = "Variant id", example = "english"),
        EndgameQuery,
    ),
    responses(
        (status = 200, description = "The value of the position and of each legal move", body = EndgameResponse),
        (status = 400, description = "Invalid FEN or query string: `position` missing, an unknown parameter (`invalid-query`, `invalid-position`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant (`unknown-variant`), or a position outside the tables of this replica (`endgame-not-in-tables`, with `material` and `tables`: the built-in piece bound and the prebuilt materials)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The variant has no endgame tables (`endgame-unsupported`, the detail says why: every variant of the catalogue has tables today), or the moves need more engine work than the budget (`budget-exceeded`, `capture-limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The position's table is being computed on this replica (`endgame-building`, with `Retry-After`), every engine slot is busy (`overloaded`, with `Retry-After`), or the request timed out (`request-timeout`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_endgame(
    engine: web::Data<Engine>,
    store: web::Data<TableStore>,
    path: web::Path<String>,
    query: web::Query<EndgameQuery>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    let fen = query.into_inner().position;
    let store = store.into_inner();
    // A probe may wait for a table being computed: off the I/O workers, without holding an
    // engine slot while it waits.
    let answer = engine
        .run_waiting(Work::Request, move |b| evaluate(&store, v, &fen, b))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
