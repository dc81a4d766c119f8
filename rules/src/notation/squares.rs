//! Square names, numeric (`32`) and algebraic (`c3`, [`crate::board::Board::parse_algebraic`]),
//! and the squares a move text names: the bottom of the notation layer, which the move text
//! reader ([`super::movetext`]) and the explanation of illegal moves ([`super::violation`])
//! both read with.

use crate::variant::Variant;

/// Longest move text accepted, in bytes.
pub const MAX_MOVE_TEXT: usize = 512;

/// Why a text names no squares of the board ([`parse_squares`]); a
/// [`MoveError`](super::movetext::MoveError) of the same name when the text is read as a
/// move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquaresError {
    /// Not move text at all.
    Syntax { reason: String },
    /// A square that does not exist on this board.
    UnknownSquare { square: String },
}

/// A text cut to 40 characters, to quote in an error.
pub(crate) fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

impl Variant {
    /// `ed4` / `e:d4`: a file letter, then the destination square (algebraic boards only).
    pub(crate) fn file_short_form(&self, text: &str) -> Option<(u8, usize)> {
        if !self.algebraic() {
            return None;
        }
        let t = text.trim().trim_end_matches(['!', '?', '+', '#']);
        let mut chars = t.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() || file as u8 - b'a' >= self.board().width() {
            return None;
        }
        let rest = chars.as_str();
        let rest = rest.strip_prefix([':', 'x']).unwrap_or(rest);
        if !rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            return None;
        }
        let to = self.board().parse_algebraic(rest)?;
        Some((file as u8 - b'a', to))
    }

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

/// Splits move text into squares. Accepts `-`, `x`, `X` and `:` as separators, trailing
/// move-strength marks (`!`, `?`), and alphanumeric moves without separators (`c3d4`). An
/// opening removal, `x` and one square (`xd5`), and a drop, `*` (or `@`) and one square
/// (`*c2`), read as that square twice.
pub fn parse_squares(variant: &Variant, text: &str) -> Result<Vec<usize>, SquaresError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(SquaresError::Syntax {
            reason: "empty move".into(),
        });
    }
    if t.len() > MAX_MOVE_TEXT {
        return Err(SquaresError::Syntax {
            reason: format!("move text longer than {MAX_MOVE_TEXT} bytes"),
        });
    }
    let t = t.trim_end_matches(['!', '?', '+', '#', '*']);
    // A drop: `*` (or `@`) and the square it fills.
    if let Some(square) = t.strip_prefix(['*', '@']) {
        return match variant.parse_square(square.trim()) {
            Some(cell) => Ok(vec![cell, cell]),
            None => Err(SquaresError::UnknownSquare {
                square: clip(square.trim()),
            }),
        };
    }
    // An opening removal (Konane): `x` and the square of the piece taken off.
    if let Some(square) = t.strip_prefix(['x', 'X']) {
        if let Some(cell) = variant.parse_square(square.trim()) {
            return Ok(vec![cell, cell]);
        }
    }
    let parts: Vec<&str> = if t.contains(['-', 'x', 'X', ':']) {
        t.split(['-', 'x', 'X', ':']).collect()
    } else {
        // Alphanumeric without separators: letter followed by digits, repeated.
        let mut parts = Vec::new();
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            if !b[i].is_ascii_alphabetic() {
                return Err(SquaresError::Syntax {
                    reason: format!(
                        "'{}' has no separator between squares (use '-' or 'x')",
                        clip(t)
                    ),
                });
            }
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            parts.push(&t[start..i]);
        }
        parts
    };
    if parts.len() < 2 {
        return Err(SquaresError::Syntax {
            reason: format!("'{}' names fewer than two squares", clip(t)),
        });
    }
    parts
        .into_iter()
        .map(|p| {
            let p = p.trim();
            if p.is_empty() {
                return Err(SquaresError::Syntax {
                    reason: format!("'{}' has an empty square", clip(t)),
                });
            }
            variant
                .parse_square(p)
                .ok_or_else(|| SquaresError::UnknownSquare { square: clip(p) })
        })
        .collect()
}
