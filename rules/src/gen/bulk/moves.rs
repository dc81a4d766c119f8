//! Positions and moves of the narrow generator.

use super::layout::Layout;
use crate::bits::CellSet;
use crate::position::{Color, Kind, Position};

/// A position of the narrow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pos<S> {
    pub(super) men: [S; 2],
    pub(super) kings: [S; 2],
    pub(super) side: usize,
}

/// Each side's run of non-capturing moves by one king (the king-move limit), as `[narrow id
/// of the king, moves]` (`[0, 0]`: none). Carried beside the position, and only by the walks
/// of a ruleset with the limit, so that the others copy no more than their pieces.
pub(super) type Run = [[u8; 2]; 2];

impl<S: CellSet> Pos<S> {
    pub(super) fn of(p: &Position, layout: &Layout) -> Pos<S> {
        Pos {
            men: Color::BOTH.map(|c| layout.set(p.pieces(c, Kind::Man))),
            kings: Color::BOTH.map(|c| layout.set(p.pieces(c, Kind::King))),
            side: p.side() as usize,
        }
    }

    /// The king of the side to move that may not make a non-capturing move now, under the
    /// king-move limit `limit` (0: none) with the runs `run`, if any.
    #[inline(always)]
    pub(super) fn held_king(&self, run: &Run, limit: u8) -> S {
        let me = self.side;
        let [cell, n] = run[me];
        if limit != 0 && n >= limit && !self.men[me].is_zero() {
            S::bit(cell as u32)
        } else {
            S::default()
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

/// The runs of a position.
pub(super) fn run_of(p: &Position, layout: &Layout) -> Run {
    Color::BOTH.map(|c| {
        let r = p.king_run(c);
        if r.count == 0 {
            [0, 0]
        } else {
            [layout.id(r.cell as usize) as u8, r.count]
        }
    })
}

/// The runs after `m`, played from a position whose runs were `run` to `q`, under the
/// king-move limit `limit`. As `Variant::play`: a king's non-capturing move extends its
/// side's run (counted up to the limit) while the side has men, anything else ends it; a
/// captured king's run ends with it.
#[inline(always)]
pub(super) fn next_run<S: CellSet>(q: &Pos<S>, m: &NarrowMove<S>, run: Run, limit: u8) -> Run {
    let them = q.side;
    let me = 1 - them;
    let mut r = run;
    if m.king && m.captured.is_zero() && !q.men[me].is_zero() {
        r[me][1] = if run[me][1] > 0 && run[me][0] == m.from {
            (run[me][1] + 1).min(limit)
        } else {
            1
        };
        r[me][0] = m.to;
    } else {
        r[me] = [0, 0];
    }
    if r[them][1] > 0 && m.captured.has(r[them][0] as usize) {
        r[them] = [0, 0];
    }
    r
}
