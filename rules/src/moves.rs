//! Moves.
//!
//! A move is identified by its start, its end, the set of pieces it captures and what the
//! moving piece becomes (§1.2 of the rules): two capture routes with the same identity are one
//! move. The route itself is not part of the move; [`Variant::routes`](crate::Variant::routes)
//! recovers the routes of a move when notation needs them.

use crate::bits::Bits;
use crate::board::Dir;
use crate::position::Kind;

/// A legal move (or a candidate for one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    /// The kind of the moving piece before the move.
    pub piece: Kind,
    /// The kind of the moving piece after the move (a man that is crowned becomes a king).
    pub becomes: Kind,
    /// The cells of the captured pieces.
    pub captured: Bits,
}

impl Move {
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether the moving piece is crowned by this move.
    pub fn is_promotion(&self) -> bool {
        self.becomes == Kind::King && self.piece != Kind::King
    }

    /// Same start, end, captured set and resulting kind.
    #[inline(always)]
    pub fn same_identity(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.becomes == other.becomes
            && self.captured == other.captured
    }
}

/// One jump of a capture route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    pub dir: Dir,
    /// The cell of the captured piece.
    pub over: u8,
    /// Where the piece landed.
    pub to: u8,
}

/// A capture route: the start cell and the jumps in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    pub from: u8,
    pub jumps: Vec<Jump>,
}
