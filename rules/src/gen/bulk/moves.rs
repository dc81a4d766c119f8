//! Positions and moves of the narrow generator.

use super::tables::Layout;
use crate::bits::CellSet;
use crate::position::{Color, Kind, Position};

/// A position of the narrow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pos<S> {
    pub(super) men: [S; 2],
    pub(super) kings: [S; 2],
    pub(super) side: usize,
}

impl<S: CellSet> Pos<S> {
    pub(super) fn of(p: &Position, layout: &Layout) -> Pos<S> {
        Pos {
            men: Color::BOTH.map(|c| layout.set(p.pieces(c, Kind::Man))),
            kings: Color::BOTH.map(|c| layout.set(p.pieces(c, Kind::King))),
            side: p.side() as usize,
        }
    }

    #[inline(always)]
    pub(super) fn occupied(&self) -> S {
        self.men[0]
            .or(self.men[1])
            .or(self.kings[0])
            .or(self.kings[1])
    }
}

/// A move of the narrow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NarrowMove<S> {
    pub from: u8,
    pub to: u8,
    pub captured: S,
    /// The moving piece is a king.
    pub king: bool,
    /// The moving piece is a king after the move (a crowned man, or a king).
    pub becomes_king: bool,
}

impl<S: CellSet> NarrowMove<S> {
    /// The identity of the move, for collapsing routes into moves.
    #[inline(always)]
    pub(super) fn same(&self, o: &Self) -> bool {
        self.from == o.from
            && self.to == o.to
            && self.captured == o.captured
            && self.becomes_king == o.becomes_king
    }
}

#[inline(always)]
pub(super) fn play<S: CellSet>(p: &Pos<S>, m: &NarrowMove<S>) -> Pos<S> {
    let mut q = *p;
    let me = p.side;
    let them = 1 - me;
    let from = S::bit(m.from as u32);
    let to = S::bit(m.to as u32);
    if m.king {
        q.kings[me] = q.kings[me].xor(from).or(to);
    } else {
        q.men[me] = q.men[me].xor(from);
        if m.becomes_king {
            q.kings[me] = q.kings[me].or(to);
        } else {
            q.men[me] = q.men[me].or(to);
        }
    }
    if !m.captured.is_zero() {
        q.men[them] = q.men[them].andn(m.captured);
        q.kings[them] = q.kings[them].andn(m.captured);
    }
    q.side = them;
    q
}
