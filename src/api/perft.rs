//! `GET /v1/variants/{variant}/perft`: the number of leaf positions a number of plies below a
//! position, optionally split by the first move ("divide"), for checking a move generator.
//!
//! The count runs within the request's work budget (`Work::Request`), depth by depth: 1, 2,
//! ... up to the depth asked, all charged to the one budget. When the budget runs out, the
//! deepest depth completed is what it reaches from that position, and the 422
//! `budget-exceeded` problem says so (`reachable_depth`). The work is the same for the same
//! request on every replica, so a request for that depth (with the same other parameters) is
//! answered. Counting every depth costs about a tenth more than the last one alone (each
//! depth has several times the leaves of the one before), and the answer gives all of them.

use actix_web::{web, HttpResponse};
use arbiter_rules::{Budget, MoveList, Position, Routes, Split, Variant};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{find_variant, parse_position_counters};
use crate::engine::{Engine, Work};
use crate::errors::{clip, ApiError, Problem};

/// The deepest perft served. Deep counts are bounded by the work budget long before this;
/// the bound only keeps the depth a small number.
pub const MAX_DEPTH: u32 = 30;

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

/// A first move and the leaves below it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PerftMove {
    /// The move in canonical notation (as `/moves` gives it).
    #[serde(rename = "move")]
    #[schema(example = "32-28")]
    pub notation: String,
    /// The leaves `depth` plies below the position whose first move is this one.
    #[schema(example = 81)]
    pub nodes: u64,
    /// With `keep`: the capture routes of the move, each counted (`nodes` is the count below
    /// the position it leads to, once per route).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub routes: Option<u64>,
}

/// A perft count.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "variant": "international",
    "position": "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
    "depth": 2,
    "keep": false,
    "nodes": 81,
    "nodes_by_depth": [9, 81],
    "divide": [
        {"move": "31-26", "nodes": 9}, {"move": "31-27", "nodes": 9},
        {"move": "32-27", "nodes": 9}, {"move": "32-28", "nodes": 9},
        {"move": "33-28", "nodes": 9}, {"move": "33-29", "nodes": 9},
        {"move": "34-29", "nodes": 9}, {"move": "34-30", "nodes": 9},
        {"move": "35-30", "nodes": 9}
    ]
}))]
pub struct PerftResponse {
    /// The variant id.
    #[schema(example = "international")]
    pub variant: String,
    /// The position, as canonical FEN.
    pub position: String,
    /// The depth counted, in plies.
    #[schema(example = 3)]
    pub depth: u32,
    /// Whether every capture route was counted ("keep duplicates").
    #[schema(example = false)]
    pub keep: bool,
    /// The leaves `depth` plies below the position (1 at depth 0). Draw rules are ignored,
    /// as in every published table; a position the rules have decided has no moves.
    #[schema(example = 658)]
    pub nodes: u64,
    /// The leaves at each depth from 1 to `depth` (the last one is `nodes`).
    #[schema(example = json!([9, 81, 658]))]
    pub nodes_by_depth: Vec<u64>,
    /// With `divide`: every legal move, in the order of `/moves`, with the leaves below it;
    /// they add up to `nodes` (at depth 0 there is no first move, and the list is empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<PerftMove>>,
}

/// Why a perft stopped, with the deepest depth completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub error: arbiter_rules::GenError,
    /// The deepest depth counted in full before the work stopped.
    pub reached: u32,
}

/// The divide of a position at `depth` named for a client: its split by
/// [`arbiter_rules::divide_with`], in the order and notation of `names` (the
/// [`Variant::list_moves`] of the position). Empty at depth 0 (no first move).
pub fn name_divide(
    v: &Variant,
    depth: u32,
    split: &[Split],
    names: &MoveList,
    routes: Routes,
) -> Result<Vec<PerftMove>, ApiError> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let index: std::collections::HashMap<_, _> =
        split.iter().map(|s| (s.mv, (s.leaves, s.routes))).collect();
    names
        .iter()
        .map(|view| {
            let (nodes, n) = index.get(&view.mv).copied().ok_or_else(|| {
                tracing::error!(variant = v.id(), "a listed move is not in the divide");
                ApiError::from_status(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR)
            })?;
            Ok(PerftMove {
                notation: view.notation.to_string(),
                nodes,
                routes: (routes == Routes::Each).then_some(n),
            })
        })
        .collect()
}

/// Perft of `pos` at depths 1 to `depth` in turn under `budget`: the leaves at each depth
/// and, with `divide`, each depth split by the first move (the last split is returned). Every
/// depth is counted the same way (split or not), so the work of the depths before a stop is
/// the whole work of a request for the last of them.
pub fn perft_by_depth(
    v: &Variant,
    pos: &Position,
    depth: u32,
    routes: Routes,
    divide: bool,
    budget: &Budget,
) -> Result<(Vec<u64>, Vec<Split>), Stopped> {
    let mut by_depth = Vec::with_capacity(depth as usize);
    let mut split = Vec::new();
    for d in 1..=depth {
        if by_depth.last() == Some(&0) {
            // No position at the depth before: none below it either.
            by_depth.push(0);
            continue;
        }
        let stopped = |error| Stopped {
            error,
            reached: d - 1,
        };
        let nodes = if divide {
            split = arbiter_rules::divide_with(v, pos, d, routes, budget).map_err(stopped)?;
            split.iter().map(|s| s.leaves).sum()
        } else {
            arbiter_rules::count_leaves(v, pos, d, routes, budget).map_err(stopped)?
        };
        by_depth.push(nodes);
    }
    Ok((by_depth, split))
}

/// The perft answer of a query, charged to `budget`: the work of the perft endpoint.
pub fn answer_perft(
    v: &'static Variant,
    query: &PerftQuery,
    budget: &Budget,
) -> Result<PerftResponse, ApiError> {
    let (pos, _) = parse_position_counters(v, "position", query.position.as_deref())?;
    let keep = query.keep.unwrap_or(false);
    let routes = if keep { Routes::Each } else { Routes::Merged };
    let divide = query.divide.unwrap_or(false);
    let names = if divide {
        Some(
            v.list_moves(&pos, budget)
                .map_err(|e| ApiError::engine(&e))?,
        )
    } else {
        None
    };
    let (by_depth, split) = perft_by_depth(v, &pos, query.depth, routes, divide, budget)
        .map_err(|s| ApiError::perft_over_budget(&s.error, query.depth, s.reached))?;
    let divide = match &names {
        Some(names) => Some(name_divide(v, query.depth, &split, names, routes)?),
        None => None,
    };
    Ok(PerftResponse {
        variant: v.id().to_string(),
        position: v.fen(&pos),
        depth: query.depth,
        keep,
        nodes: by_depth.last().copied().unwrap_or(1),
        nodes_by_depth: by_depth,
        divide,
    })
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
    let query = query.into_inner();
    let answer = engine
        .run(Work::Request, move |b| answer_perft(v, &query, b))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
