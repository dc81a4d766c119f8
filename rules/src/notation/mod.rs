//! Text forms: square names, FEN, PDN move text.

pub mod fen;
pub mod movetext;
pub mod pdn;
pub mod pdn_grammar;
pub mod pdn_stream;
pub mod squares;
pub mod violation;
