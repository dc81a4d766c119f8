//! Opening removals (Konane, as BrainKing plays it): plies in which the side to move takes one
//! of its own pieces off the board ([`crate::rules::OpeningRemoval`]).
//!
//! A removal is a [`Move::removal`]: its start and end are the removed piece's cell, and its
//! captured set is that cell.

use crate::bits::Bits;
use crate::board::{Board, NONE};
use crate::moves::Move;
use crate::position::{Kind, Position};
use crate::rules::OpeningRemoval;

/// Appends every removal `step` allows the side to move; `among` holds the cells an
/// [`OpeningRemoval::Among`] step names.
pub(crate) fn removals(
    board: &Board,
    step: OpeningRemoval,
    among: Bits,
    pos: &Position,
    out: &mut Vec<Move>,
) {
    let me = pos.side();
    let free = board.cells().minus(pos.occupied());
    for kind in Kind::ALL {
        let allowed: Bits = match step {
            OpeningRemoval::Among(_) => among,
            OpeningRemoval::NextToEmpty(dirs) => board
                .cells()
                .iter()
                .filter(|&c| {
                    dirs.iter().any(|d| {
                        let n = board.next(c, d);
                        n != NONE && free.contains(n as usize)
                    })
                })
                .collect(),
        };
        for cell in pos.pieces(me, kind).intersect(allowed).iter() {
            out.push(Move::removal(cell, kind));
        }
    }
}
