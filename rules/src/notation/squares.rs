//! Square names: numeric (`32`) and algebraic (`c3`, [`crate::board::Board::parse_algebraic`]).

use crate::variant::Variant;

impl Variant {
    /// Parses a square in numeric (in the variant's numbering) or algebraic form.
    pub fn parse_square(&self, s: &str) -> Option<usize> {
        let first = s.chars().next()?;
        if first.is_ascii_digit() {
            if s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            self.cell_of_number(s.parse().ok()?)
        } else {
            self.board().parse_algebraic(s)
        }
    }
}
