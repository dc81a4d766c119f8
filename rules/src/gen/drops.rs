//! Drops (Vilbergen, Lahti, Hageby: Markus Salo's rules): while the side to move still holds
//! stones in hand ([`crate::rules::Rules::stones_in_hand`]), its only moves are placing one of
//! them on an empty point.
//!
//! A drop is a [`Move::drop`]: its start and end are the cell it fills, and nothing is
//! captured.

use crate::bits::Bits;
use crate::board::Board;
use crate::gen::Sink;
use crate::moves::Move;
use crate::position::{Kind, Position};

/// Puts a drop on every empty cell but those of `barred` (the goal point for the game's
/// first drop, where the rules forbid it) into `out`.
pub(crate) fn drops(board: &Board, pos: &Position, barred: Bits, out: &mut impl Sink) {
    out.cells(board.cells().minus(pos.occupied()).minus(barred), |cell| {
        Move::drop(cell, Kind::Man)
    });
}
