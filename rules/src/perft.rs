//! Perft: the number of leaf positions `depth` plies below a position. By default one move is
//! counted per move identity (the "drop duplicates" convention of dctl's perft tables); with
//! [`Routes::Each`] every capture route counts ("keep duplicates"). Draw rules are ignored, as
//! in every published table.
//!
//! Every count is charged to a [`Budget`] and stopped by it ([`Budget::unlimited`] for no
//! bound, which the narrow generator then does not charge at all): the general generator charges what a generation costs (one unit for the position,
//! one per capture-search step, one per move made), the narrow one one unit per position whose
//! moves it makes or counts plus one per capture-search step, since it builds no move at the
//! last ply.

use std::collections::HashMap;

use crate::budget::Budget;
use crate::budget::GenError;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;

/// How perft counts a move reached by several capture routes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Routes {
    /// Once: routes with the same start, end and captured set are one move ("drop
    /// duplicates", the convention of most published tables and of the move lists).
    #[default]
    Merged,
    /// Once per route ("keep duplicates").
    Each,
}

/// Counts the leaves `depth` plies below `pos`: by the narrow generator with bulk counting
/// ([`crate::gen::bulk`]) when the variant has one, else by the general generator.
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    count_leaves(variant, pos, depth, Routes::Merged, &Budget::unlimited())
}

/// [`perft`] by the general generator only (the reference the narrow one is checked and
/// measured against).
pub fn perft_general(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    general(
        variant,
        pos,
        depth,
        Routes::Merged,
        &Budget::unlimited(),
        Last::Build,
    )
}

/// Counts the leaves with every capture route counted separately ("keep duplicates").
pub fn perft_keep(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    count_leaves(variant, pos, depth, Routes::Each, &Budget::unlimited())
}

/// Counts the leaves `depth` plies below `pos` as `routes` says, charged to `budget` and
/// stopped by it: merged routes by the narrow generator when the variant has one, everything
/// else by the general generator.
pub fn count_leaves(
    variant: &Variant,
    pos: &Position,
    depth: u32,
    routes: Routes,
    budget: &Budget,
) -> Result<u64, GenError> {
    if depth > 0 && routes == Routes::Merged && !variant.decided(pos) {
        if let Some(bulk) = variant.bulk() {
            return bulk.perft(variant.rules(), pos, depth, budget);
        }
    }
    general(variant, pos, depth, routes, budget, Last::Count)
}

/// How the general generator's walk takes the moves of its last ply.
#[derive(Clone, Copy)]
enum Last {
    /// It builds them, as every request does ([`perft_general`]: the generator's own pace).
    Build,
    /// It counts them, building only captures and moves a rule filters
    /// ([`Variant::count_paths`]): the leaves of most plies of the drop games are counted
    /// in one step.
    Count,
}

fn general(
    variant: &Variant,
    pos: &Position,
    depth: u32,
    routes: Routes,
    budget: &Budget,
    last: Last,
) -> Result<u64, GenError> {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect();
    let dedup = routes == Routes::Merged;
    match last {
        Last::Build => walk::<false>(variant, pos, depth, dedup, budget, &mut buffers),
        Last::Count => walk::<true>(variant, pos, depth, dedup, budget, &mut buffers),
    }
}

/// The leaves below `pos`; with `COUNT` the last ply's moves are counted, not built.
fn walk<const COUNT: bool>(
    variant: &Variant,
    pos: &Position,
    depth: u32,
    dedup: bool,
    budget: &Budget,
    buffers: &mut [Vec<Move>],
) -> Result<u64, GenError> {
    if depth == 0 {
        return Ok(1);
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if COUNT && depth == 1 {
        return variant.count_paths(pos, budget, dedup, moves);
    }
    variant.generate_paths(pos, budget, dedup, moves)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut total = 0;
    for m in moves.iter() {
        let next = variant.play(pos, m);
        total += walk::<COUNT>(variant, &next, depth - 1, dedup, budget, rest)?;
    }
    Ok(total)
}

/// One first move of a divide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The move (one per identity, as [`Variant::legal_moves`] gives it).
    pub mv: Move,
    /// The capture routes counted for it: 1 with [`Routes::Merged`], the number of its
    /// routes with [`Routes::Each`].
    pub routes: u64,
    /// The leaves `depth` plies below the position, through this move: with
    /// [`Routes::Each`], the leaves below the position it leads to, once per route.
    pub leaves: u64,
}

/// Perft split by the first move: every legal move of `pos` (one per identity, in the order
/// of [`Variant::legal_moves`]) with its leaves `depth` plies below `pos`, counted as `routes`
/// says and charged to `budget`. The leaves add up to [`count_leaves`]; at depth 0 there is
/// no first move, and the list is empty.
pub fn divide_with(
    variant: &Variant,
    pos: &Position,
    depth: u32,
    routes: Routes,
    budget: &Budget,
) -> Result<Vec<Split>, GenError> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let moves = variant.legal_moves(pos, budget)?;
    // Routes of the same move lead to the same position: count below it once, times the
    // number of routes.
    let mut counted: HashMap<Move, u64> = HashMap::new();
    if routes == Routes::Each {
        let mut all = Vec::new();
        variant.generate_paths(pos, budget, false, &mut all)?;
        for m in all {
            *counted.entry(m).or_default() += 1;
        }
    }
    moves
        .into_iter()
        .map(|mv| {
            let n = counted.get(&mv).copied().unwrap_or(1);
            let next = variant.play(pos, &mv);
            let below = count_leaves(variant, &next, depth - 1, routes, budget)?;
            Ok(Split {
                mv,
                routes: n,
                leaves: n * below,
            })
        })
        .collect()
}

/// Perft split by the first move: `(move, leaves below it)`, routes merged, with no bound
/// but the capture bound of each position.
pub fn divide(variant: &Variant, pos: &Position, depth: u32) -> Result<Vec<(Move, u64)>, GenError> {
    Ok(
        divide_with(variant, pos, depth, Routes::Merged, &Budget::unlimited())?
            .into_iter()
            .map(|s| (s.mv, s.leaves))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget stops both generators, and a count that fits gives the unbounded figure.
    #[test]
    fn counts_stop_at_the_budget() {
        for id in ["international", "frisian"] {
            let v = crate::variant(id).unwrap();
            let start = v.start();
            let full = Budget::new(10_000_000);
            assert_eq!(
                count_leaves(v, &start, 4, Routes::Merged, &full),
                perft(v, &start, 4),
                "{id}"
            );
            let used = full.used();
            assert!(used > 0, "{id}");
            let short = Budget::new(used - 1);
            assert_eq!(
                count_leaves(v, &start, 4, Routes::Merged, &short),
                Err(GenError::Budget { limit: used - 1 }),
                "{id}"
            );
            assert_eq!(short.left(), 0, "{id}");
            let exact = Budget::new(used);
            assert!(
                count_leaves(v, &start, 4, Routes::Merged, &exact).is_ok(),
                "{id}"
            );
        }
    }

    /// A capture search longer than what the budget has left stops the narrow generator too.
    #[test]
    fn a_long_capture_search_stops_at_the_budget() {
        let v = crate::variant("international").unwrap();
        // PDN 3.0's capture example: a king with several capture routes.
        let pos = v.parse_fen("W:WK47:B14,19,29,31,42").unwrap();
        assert!(v.bulk().is_some());
        let b = Budget::new(2);
        assert_eq!(
            count_leaves(v, &pos, 1, Routes::Merged, &b),
            Err(GenError::Budget { limit: 2 })
        );
        assert_eq!(b.left(), 0);
        assert!(count_leaves(v, &pos, 1, Routes::Merged, &Budget::new(1_000)).is_ok());
    }

    /// A divide adds up to the count, in both conventions, and lists the legal moves.
    #[test]
    fn divide_adds_up() {
        // Frisian's start: the routes of some captures differ from depth 4.
        let v = crate::variant("frisian").unwrap();
        let start = v.start();
        for routes in [Routes::Merged, Routes::Each] {
            let b = Budget::unlimited();
            let split = divide_with(v, &start, 4, routes, &b).unwrap();
            let total: u64 = split.iter().map(|s| s.leaves).sum();
            assert_eq!(total, count_leaves(v, &start, 4, routes, &b).unwrap());
            let moves: Vec<Move> = split.iter().map(|s| s.mv).collect();
            assert_eq!(moves, v.legal_moves(&start, &b).unwrap());
        }
        assert_eq!(divide(v, &start, 0).unwrap(), Vec::new());
    }
}
