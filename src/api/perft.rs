//! `GET /v1/variants/{variant}/perft`: perft and divide, for checking a move generator.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Deserializer};
use utoipa::IntoParams;

use crate::engine::{Engine, Work};
use crate::ops::find_variant;
use crate::ops::perft::{perft, PerftInput, PerftResponse, MAX_DEPTH};
use crate::problem::{clip, ApiError, Problem};

/// Query string of `GET /v1/variants/{variant}/perft`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PerftQuery {
    /// FEN of the position; omitted = the variant's start position.
    #[param(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub position: Option<String>,
    /// Depth in plies, 0 to 30 (perft 0 is 1: the position itself).
    #[serde(deserialize_with = "depth_param")]
    #[param(value_type = u32, minimum = 0, maximum = 30, example = 3)]
    pub depth: u32,
    /// Also give the count below each legal move (`divide`), in the order and notation of
    /// `/moves`. To find where two move generators part: compare their divides, play the
    /// first move whose counts differ, and divide again one ply shallower.
    #[serde(default, deserialize_with = "bool_param")]
    #[param(value_type = Option<bool>, example = true)]
    pub divide: Option<bool>,
    /// Count every capture route as a move of its own ("keep duplicates"); by default routes
    /// with the same start, end and captured pieces are one move ("drop duplicates", as
    /// `/moves` lists them and most published tables count).
    #[serde(default, deserialize_with = "bool_param")]
    #[param(value_type = Option<bool>, example = false)]
    pub keep: Option<bool>,
}

/// `depth`: a whole number from 0 to [`MAX_DEPTH`]; any other value is refused naming the
/// parameter.
fn depth_param<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let text = String::deserialize(d)?;
    text.parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_DEPTH)
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "parameter `depth` must be a whole number from 0 to {MAX_DEPTH}, not '{}'",
                clip(&text)
            ))
        })
}

/// `divide`, `keep`: `true` or `false`.
fn bool_param<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let text = String::deserialize(d)?;
    match text.as_str() {
        "true" => Ok(Some(true)),
        "false" => Ok(Some(false)),
        _ => Err(serde::de::Error::custom(format!(
            "parameters `divide` and `keep` are `true` or `false`, not '{}'",
            clip(&text)
        ))),
    }
}

impl PerftQuery {
    /// What to count.
    pub fn input(self) -> PerftInput {
        PerftInput {
            position: self.position,
            depth: self.depth,
            divide: self.divide.unwrap_or(false),
            keep: self.keep.unwrap_or(false),
        }
    }
}

/// Count the leaf positions a number of plies below a position (perft), optionally split by
/// the first move.
///
/// For engine authors checking a move generator against the rules. The count runs depth by
/// depth within the request's work budget; a request over it is answered 422
/// `budget-exceeded` with `reachable_depth`, the deepest depth the budget reaches from the
/// position, which a request for that depth is answered with.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/perft",
    tag = "moves",
    params(
        ("variant" = String, Path, description = "Variant id", example = "international"),
        PerftQuery,
    ),
    responses(
        (status = 200, description = "The leaf counts by depth, and with `divide` the count below each legal move", body = PerftResponse),
        (status = 400, description = "Invalid FEN or query string: `depth` missing or not a whole number from 0 to 30, `divide` or `keep` not `true` or `false`, an unknown parameter (`invalid-query`, `invalid-position`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The count needs more engine work than its budget (`budget-exceeded`, with `reachable_depth`: the deepest depth the budget reaches from the position), or one position's capture search exceeds its bound (`capture-limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every engine slot of the replica is busy (`overloaded`, with a `Retry-After` header; nothing was started), or the request timed out (`request-timeout`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_perft(
    engine: web::Data<Engine>,
    path: web::Path<String>,
    query: web::Query<PerftQuery>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    let input = query.into_inner().input();
    let answer = engine
        .run(Work::Request, move |b| perft(v, &input, b))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
