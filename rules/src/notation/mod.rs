//! Text forms: square names, FEN, PDN move text.

pub mod fen;
pub mod movetext;
pub mod squares;
