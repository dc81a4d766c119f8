//! Text forms: square names, FEN, PDN move text, PDN files.
//!
//! The files, each using only those before it: [`squares`] (square names; a move text split
//! into squares), [`fen`], [`violation`] (why a move text names no legal move), [`movetext`]
//! (the legal moves written, move text read), and [`pdn`] (game files).

pub mod fen;
pub mod listing;
pub mod movetext;
pub mod pdn;
pub mod squares;
pub mod violation;
