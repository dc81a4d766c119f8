//! Perft: the number of leaf positions `depth` plies below a position, counting one move per
//! move identity (the "drop duplicates" convention of dctl's perft tables). Draw rules are
//! ignored, as in every published table.

use crate::budget::Budget;
use crate::budget::GenError;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;

/// Counts the leaves `depth` plies below `pos`: by the narrow generator with bulk counting
/// ([`crate::gen::bulk`]) when the variant has one, else by the general generator.
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    if depth > 0 && !variant.decided(pos) {
        if let Some(bulk) = variant.bulk() {
            return bulk.perft(variant.rules(), pos, depth);
        }
    }
    perft_with(variant, pos, depth, true)
}

/// [`perft`] by the general generator only (the reference the narrow one is checked and
/// measured against).
pub fn perft_general(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    perft_with(variant, pos, depth, true)
}

/// Counts the leaves with every capture route counted separately ("keep duplicates").
pub fn perft_keep(variant: &Variant, pos: &Position, depth: u32) -> Result<u64, GenError> {
    perft_with(variant, pos, depth, false)
}

fn perft_with(variant: &Variant, pos: &Position, depth: u32, dedup: bool) -> Result<u64, GenError> {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect();
    walk(
        variant,
        pos,
        depth,
        dedup,
        &Budget::unlimited(),
        &mut buffers,
    )
}

fn walk(
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
    variant.generate_paths(pos, budget, dedup, moves)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut total = 0;
    for m in moves.iter() {
        let next = variant.play(pos, m);
        total += walk(variant, &next, depth - 1, dedup, budget, rest)?;
    }
    Ok(total)
}

/// Perft split by the first move: `(move, leaves below it)`.
pub fn divide(variant: &Variant, pos: &Position, depth: u32) -> Result<Vec<(Move, u64)>, GenError> {
    let moves = variant.legal_moves(pos, &Budget::unlimited())?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    moves
        .into_iter()
        .map(|m| {
            let next = variant.play(pos, &m);
            Ok((m, perft(variant, &next, depth - 1)?))
        })
        .collect()
}
