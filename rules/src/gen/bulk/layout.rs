//! Where the narrow generator keeps each cell of a board ([`Layout`]).

use crate::bits::{Bits, CellSet};
use crate::board::{Board, Dir, DIRS};

/// Where the narrow generator keeps each cell of a board: at the board's own id, or, for a
/// board whose padded ids run past 64 while its squares fit in one word (the full 8×8 board:
/// 71 ids, 64 squares), at `width × y + x`. Each direction is still a constant offset; a step
/// that would wrap onto the next row is masked out (`Tables::into`).
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// The narrow id of each board id (`None`: the board's own ids).
    narrow: Option<Vec<u8>>,
    /// The board id of each narrow id.
    board: Vec<u8>,
}

impl Layout {
    /// Whether this is the compact layout (which fits one word whatever the board's ids).
    pub(super) fn is_compact(&self) -> bool {
        self.narrow.is_some()
    }

    /// The board's own ids.
    pub(super) fn same(board: &Board) -> Layout {
        Layout {
            narrow: None,
            board: (0..board.id_bound()).map(|c| c as u8).collect(),
        }
    }

    /// The compact row-major layout of `board` and the offset of each direction in it (0:
    /// no link that way), if each direction is a constant offset there and it fits in one
    /// word.
    pub(super) fn compact(board: &Board) -> Option<(Layout, [i32; DIRS])> {
        let w = board.width() as usize;
        if w * board.height() as usize > 64 {
            return None;
        }
        let mut narrow = vec![u8::MAX; board.id_bound()];
        let mut back = vec![0u8; 64];
        for c in board.cells().iter() {
            let (x, y) = board.xy(c);
            let n = w * y as usize + x as usize;
            narrow[c] = n as u8;
            back[n] = c as u8;
        }
        let mut shift = [0i32; DIRS];
        for c in board.cells().iter() {
            for d in Dir::ALL {
                let to = board.next(c, d);
                if to == crate::board::NONE {
                    continue;
                }
                let off = narrow[to as usize] as i32 - narrow[c] as i32;
                let known = &mut shift[d as usize];
                if *known == 0 {
                    *known = off;
                } else if *known != off {
                    return None;
                }
            }
        }
        Some((
            Layout {
                narrow: Some(narrow),
                board: back,
            },
            shift,
        ))
    }

    /// A set of board cells in this layout.
    #[inline]
    pub(super) fn set<S: CellSet>(&self, b: Bits) -> S {
        match &self.narrow {
            None => S::from_bits(b),
            Some(n) => b.iter().fold(S::default(), |s, c| s.with(n[c] as usize)),
        }
    }

    /// A set of this layout as board cells.
    pub(super) fn bits<S: CellSet>(&self, s: S) -> Bits {
        match &self.narrow {
            None => s.to_bits(),
            Some(_) => s.cells().map(|n| self.board[n] as usize).collect(),
        }
    }

    /// The narrow id of a board cell.
    pub(super) fn id(&self, cell: usize) -> usize {
        self.narrow.as_ref().map_or(cell, |n| n[cell] as usize)
    }

    /// The board id of a narrow id.
    pub(super) fn cell(&self, n: u8) -> u8 {
        self.board[n as usize]
    }
}
