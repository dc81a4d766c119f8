//! Opening removals (Konane, as BrainKing plays it): plies in which the side to move takes one
//! of its own pieces off the board ([`crate::rules::OpeningRemoval`]).
//!
//! A removal is written as a [`Move`] whose start and end are the removed piece's cell and
//! whose captured set is that cell ([`Move::is_removal`]); no other move has that shape, since
//! a capture never takes the capturer's own cell.

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
            out.push(Move {
                from: cell as u8,
                to: cell as u8,
                piece: kind,
                becomes: kind,
                captured: Bits::single(cell),
            });
        }
    }
}
