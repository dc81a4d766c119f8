//! Perft: the number of leaf positions a number of plies below a position, optionally split by
//! the first move ("divide"), for checking a move generator.
//!
//! The count runs within the request's work budget (`Work::Request`), depth by depth: 1, 2,
//! ... up to the depth asked, all charged to the one budget. When the budget runs out, the
//! deepest depth completed is what it reaches from that position, and the 422
//! `budget-exceeded` problem says so (`reachable_depth`). The work is the same for the same
//! request on every replica, so a request for that depth (with the same other parameters) is
//! answered. Counting every depth costs about a tenth more than the last one alone (each
//! depth has several times the leaves of the one before), and the answer gives all of them.

use arbiter_rules::{Budget, MoveList, Position, Routes, Split, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::parse_position_counters;
use crate::problem::ApiError;

/// The deepest perft served. Deep counts are bounded by the work budget long before this;
/// the bound only keeps the depth a small number.
pub const MAX_DEPTH: u32 = 30;

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
                ApiError::internal()
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

/// What perft counts: from which position, how deep, split by the first move or not, with
/// every capture route counted or not.
#[derive(Clone, Debug, Default)]
pub struct PerftInput {
    /// FEN of the position (`None`: the variant's start position).
    pub position: Option<String>,
    /// Depth in plies.
    pub depth: u32,
    /// Also count below each legal move.
    pub divide: bool,
    /// Count every capture route ("keep duplicates").
    pub keep: bool,
}

/// The perft answer of `input`, charged to `budget`: the work of the perft endpoint and of
/// `arbiter perft --divide`.
pub fn perft(
    v: &'static Variant,
    input: &PerftInput,
    budget: &Budget,
) -> Result<PerftResponse, ApiError> {
    let (pos, _) = parse_position_counters(v, "position", input.position.as_deref())?;
    let keep = input.keep;
    let routes = if keep { Routes::Each } else { Routes::Merged };
    let divide = input.divide;
    let names = if divide {
        Some(
            v.list_moves(&pos, budget)
                .map_err(|e| ApiError::engine(&e))?,
        )
    } else {
        None
    };
    let (by_depth, split) = perft_by_depth(v, &pos, input.depth, routes, divide, budget)
        .map_err(|s| ApiError::perft_over_budget(&s.error, input.depth, s.reached))?;
    let divide = match &names {
        Some(names) => Some(name_divide(v, input.depth, &split, names, routes)?),
        None => None,
    };
    Ok(PerftResponse {
        variant: v.id().to_string(),
        position: v.fen(&pos),
        depth: input.depth,
        keep,
        nodes: by_depth.last().copied().unwrap_or(1),
        nodes_by_depth: by_depth,
        divide,
    })
}

/// Perft at one depth: the leaves, and with `divide` the count below each legal move.
#[derive(Clone, Debug)]
pub struct PerftCount {
    pub nodes: u64,
    /// With `divide`: every legal move, in the order and notation of `/moves`, with the leaves
    /// below it (empty at depth 0).
    pub divide: Option<Vec<PerftMove>>,
}

/// Perft of `input` at its depth only (not every depth before it, as [`perft`] counts),
/// charged to `budget`: the work of `arbiter perft`, which measures the move generator's
/// pace.
pub fn count(
    v: &'static Variant,
    input: &PerftInput,
    budget: &Budget,
) -> Result<PerftCount, ApiError> {
    let (pos, _) = parse_position_counters(v, "position", input.position.as_deref())?;
    let routes = if input.keep {
        Routes::Each
    } else {
        Routes::Merged
    };
    let engine = |e: arbiter_rules::GenError| ApiError::engine(&e);
    if !input.divide {
        let nodes =
            arbiter_rules::count_leaves(v, &pos, input.depth, routes, budget).map_err(engine)?;
        return Ok(PerftCount {
            nodes,
            divide: None,
        });
    }
    let names = v.list_moves(&pos, budget).map_err(engine)?;
    let split = arbiter_rules::divide_with(v, &pos, input.depth, routes, budget).map_err(engine)?;
    let named = name_divide(v, input.depth, &split, &names, routes)?;
    let nodes = if input.depth == 0 {
        1
    } else {
        named.iter().map(|m| m.nodes).sum()
    };
    Ok(PerftCount {
        nodes,
        divide: Some(named),
    })
}
