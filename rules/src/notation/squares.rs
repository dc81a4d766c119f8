//! Square names: numeric (`32`) and algebraic (`c3`).

use crate::board::Board;
use crate::variant::Variant;

/// Parses an algebraic square (`a1`, `j10`) on a board.
pub fn parse_algebraic(board: &Board, s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank = chars.as_str();
    if rank.is_empty() || rank.len() > 3 || !rank.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: i32 = rank.parse().ok()?;
    board.at(file as i32 - 'a' as i32, y - 1)
}

/// Parses a square of a variant, numeric (in the variant's numbering) or algebraic.
pub fn parse_square(variant: &Variant, s: &str) -> Option<usize> {
    let first = s.chars().next()?;
    if first.is_ascii_digit() {
        if s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        variant.cell_of_number(s.parse().ok()?)
    } else {
        parse_algebraic(variant.board(), s)
    }
}
