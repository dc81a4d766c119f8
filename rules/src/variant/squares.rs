//! The names and numbers of a variant's squares, as its notation writes them (reading them is
//! [`crate::notation::squares`]'s).

use crate::position::Kind;

use super::{Variant, FEN_ENTRY_BYTES};

impl Variant {
    /// Whether squares are written algebraically.
    pub fn algebraic(&self) -> bool {
        self.spec.algebraic
    }

    /// The display name of a cell in this variant's notation.
    pub fn square_name(&self, cell: usize) -> String {
        self.square_str(cell).to_string()
    }

    /// The display name of a cell, borrowed from the variant's table of names.
    #[inline]
    pub fn square_str(&self, cell: usize) -> &str {
        &self.names[cell]
    }

    /// Numeric name of a cell (every variant has one, even algebraic ones).
    pub fn square_number(&self, cell: usize) -> u16 {
        self.numbers[cell]
    }

    /// Where a cell comes in the documented order of squares: the numeric name on boards
    /// written with numbers; on algebraic boards file by file, each from rank 1 up (a1, a2,
    /// ..., b1, ...), which is the alphabetical order of the names on boards with at most 9
    /// ranks. Move lists are sorted by it ([`Variant::describe_moves`]).
    pub fn square_order(&self, cell: usize) -> u16 {
        if self.spec.algebraic {
            let (x, y) = self.board.xy(cell);
            x as u16 * self.board.height() as u16 + y as u16
        } else {
            self.numbers[cell]
        }
    }

    /// The cell with numeric name `n`.
    pub fn cell_of_number(&self, n: u32) -> Option<usize> {
        match self.by_number.get(n as usize) {
            Some(&c) if n > 0 && c != u8::MAX => Some(c as usize),
            _ => None,
        }
    }

    /// The numeric name of every cell, indexed by cell id.
    pub fn numbers(&self) -> &[u16] {
        &self.numbers
    }

    /// The cells in the order a FEN lists them, as runs of consecutive cell ids, each within
    /// one word of a cell set: the first cell and the length.
    #[inline]
    pub(crate) fn fen_runs(&self) -> &[(u8, u8)] {
        &self.fen_runs
    }

    /// Each cell's entry in a FEN list (`,31`), zero-padded to [`FEN_ENTRY_BYTES`], and its
    /// length.
    #[inline]
    pub(crate) fn fen_entries(&self) -> &[([u8; FEN_ENTRY_BYTES], u8)] {
        &self.fen_entries
    }

    /// A cell's entry in a FEN list: a comma and the cell's name (`,31`), zero-padded to a
    /// fixed 8 bytes, and its length: a block that writers copy whole, then cut.
    #[inline]
    pub fn fen_entry(&self, cell: usize) -> ([u8; FEN_ENTRY_BYTES], usize) {
        let (entry, len) = self.fen_entries[cell];
        (entry, usize::from(len))
    }

    /// Whether the PDN 3.0 grammar has no name for some of this variant's squares: an
    /// algebraic board wider or taller than 8 (its squares are `a1` to `h8`). Moves of such a
    /// variant are no moves of the grammar ([`Variant::beyond_pdn_fen`] for its FEN).
    pub fn beyond_pdn_squares(&self) -> bool {
        self.algebraic() && (self.board().width() > 8 || self.board().height() > 8)
    }

    /// Whether a FEN of this variant can be beyond the PDN 3.0 FEN grammar: squares it has no
    /// name for ([`Variant::beyond_pdn_squares`]), or pieces other than men and kings (the
    /// grammar has only the `K` prefix).
    pub fn beyond_pdn_fen(&self) -> bool {
        let other_kinds = [Kind::Parachutist, Kind::Knight].iter().any(|&k| {
            let p = self.rules().piece(k);
            !p.moves[0].is_empty() || !p.captures[0].is_empty()
        });
        self.beyond_pdn_squares() || other_kinds
    }
}
