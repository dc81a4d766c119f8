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

/// Each side's run of non-capturing moves by one king (the king-move limit): the narrow id
/// of the king and the number of moves (0: none). Carried beside the position, and only by
/// the walks of a ruleset with the limit, so that the others copy no more than their pieces.
///
/// Packed in one integer, 16 bits a side (the id in the low byte, the moves in the high
/// one), so that it stays in a register: as an array indexed by side it went through memory,
/// and reading it whole after writing a part stalled each move of the walk (perf: a tenth
/// of a Frisian perft's cycles on that one load).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Run(u32);

impl Run {
    /// The run of `side`: the king's narrow id and the number of moves.
    #[inline(always)]
    pub(super) fn of(self, side: usize) -> (u8, u8) {
        let v = self.0 >> (16 * (side & 1));
        (v as u8, (v >> 8) as u8)
    }

    /// The runs with that of `side` set to `moves` by the king on `cell`.
    #[inline(always)]
    pub(super) fn set(self, side: usize, cell: u8, moves: u8) -> Run {
        let at = 16 * (side & 1);
        Run(self.0 & !(0xffff << at) | (cell as u32 | (moves as u32) << 8) << at)
    }
}

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
        let (cell, n) = run.of(me);
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
    Color::BOTH.iter().fold(Run::default(), |run, &c| {
        let r = p.king_run(c);
        if r.count == 0 {
            run
        } else {
            run.set(c as usize, layout.id(r.cell as usize) as u8, r.count)
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
    let (cell, n) = run.of(me);
    let mut r = if m.king && m.captured.is_zero() && !q.men[me].is_zero() {
        let moves = if n > 0 && cell == m.from {
            (n + 1).min(limit)
        } else {
            1
        };
        run.set(me, m.to, moves)
    } else {
        run.set(me, 0, 0)
    };
    let (cell, n) = r.of(them);
    if n > 0 && m.captured.has(cell as usize) {
        r = r.set(them, 0, 0);
    }
    r
}
