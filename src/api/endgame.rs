//! `GET /v1/variants/{variant}/endgame`: the value of a position with few pieces under best
//! play, and of each of its moves, from the endgame tables.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::engine::{Engine, Work};
use crate::ops::endgame::{evaluate, tables_info, EndgameResponse, EndgameTables};
use crate::ops::find_variant;
use crate::problem::{ApiError, Problem};
use crate::tables::TableStore;

/// Query string of `GET /v1/variants/{variant}/endgame`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EndgameQuery {
    /// FEN of the position. Its half-move clock (`:H<plies>`, lidraughts' counter) is the
    /// count of the rules that count plies since a man move or a capture.
    #[param(example = "B:WK14,K18:BK5", min_length = 1, max_length = 4096)]
    pub position: String,
    /// The counts of the variant's counted draw rules that the FEN cannot carry, as
    /// `CODE:PLIES` pairs separated by commas (`FRISIAN_2V1_7:6`, `ENDGAME_16:10,KINGS_25:3`):
    /// the plies each rule has counted. A rule not given counts from 0 here.
    #[param(example = "NO_PROGRESS_40:0", max_length = 512)]
    pub counts: Option<String>,
}

/// The value of a position under best play, and of each of its moves, from the endgame
/// tables.
///
/// For positions with few pieces: those with at most the replica's built-in number of pieces
/// (4 by default) have their tables computed on first use, which may take a few seconds
/// (meanwhile the answer is 503 `endgame-building` with `Retry-After`); larger positions are
/// answered when the replica has prebuilt tables for them. The drop games (Hageby, Lahti,
/// both Vilbergens) are solved whole: every position of a game, from the empty board on, is
/// in their tables. Two values: the game-theoretic
/// one (the result with best play from both sides and the plies to the end of the game; play
/// that never ends is a draw), and `rules`, the value under the variant's counting rules
/// (the 25-move rule, the 16- and 5-move endings, Frisian's two kings against one...) with
/// the counts given: the FEN's half-move clock and the `counts` parameter. Where a count
/// turns a win into a draw, `rules.differs` says `cursed-win` (or `blessed-loss` for the
/// loser) and `rules.drawn_by` names the rule. Repetition, which needs the positions of the
/// game, is not counted: `/judge` applies it.
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
        (status = 422, description = "The variant has no endgame tables (`endgame-unsupported`, the detail says why: every variant of the catalogue has tables), or the moves need more engine work than the budget (`budget-exceeded`, `capture-limit`)", body = Problem, content_type = "application/problem+json"),
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
    let EndgameQuery { position, counts } = query.into_inner();
    let store = store.into_inner();
    // A probe may wait for a table being computed: off the I/O workers, without holding an
    // engine slot while it waits.
    let answer = engine
        .run_waiting(Work::Request, move |b| {
            evaluate(&store, v, &position, counts.as_deref(), b)
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// The endgame tables this replica has for a variant.
///
/// Whether the variant has tables at all (and why not), the materials whose tables are
/// computed on first use, and those served from prebuilt files: `/endgame` answers a
/// position whose material is listed, and 404 `endgame-not-in-tables` for any other.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/endgame/tables",
    tag = "endgame",
    params(("variant" = String, Path, description = "Variant id", example = "english")),
    responses(
        (status = 200, description = "The tables of the variant on this replica", body = EndgameTables),
        (status = 404, description = "Unknown variant (`unknown-variant`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_endgame_tables(
    store: web::Data<TableStore>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    Ok(HttpResponse::Ok().json(tables_info(&store, v)))
}
