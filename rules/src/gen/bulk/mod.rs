//! The generator on narrow cell sets, with bulk counting: the fast path of perft.
//!
//! The same rules as the other generators, read from the same ruleset data, on a position held
//! in cell sets of the board's own width ([`CellSet`]: one machine word for every board of up to
//! 64 cell ids or 64 squares, two for up to 128), monomorphised over that width, the capture removal
//! (deferred or immediate) and the king's reach (short, or flying), and chosen once per variant
//! ([`Bulk::of`]) from ruleset *properties*, never from a variant's id.
//!
//! What makes it fast:
//! - every piece set is one or two machine words; a step or a jump of every man at once is a
//!   shift of a set (the board's padded layout makes each direction a constant shift; a board
//!   whose padding would need a second word, the full 8×8 board, is kept in a compact layout
//!   of its own, `layout::Layout`, where steps that would wrap onto another row are masked);
//! - at the last ply perft counts the moves without making them: quiet moves by popcounts of
//!   shifted sets, captures by their search, collapsed to distinct moves by a sort;
//! - a flying king finds its victim by stepping a one-bit set along the direction, and searches
//!   each landing square once: a landing's continuations are looked for as it is explored, and
//!   the landing rule (a capture goes on while it can, FMJD art. 4: land where the capture
//!   can go on, if it can anywhere) is applied afterwards, by dropping the ends recorded at
//!   landings that cannot;
//! - capture precedence is one integer key per sequence, compiled from the ruleset's
//!   precedence list, so only sequences with the best key are kept.
//!
//! It serves the rulesets made of men and kings that step, slide, and capture by short or
//! flying leaps, with either removal timing, any mid-capture promotion and precedence, the
//! Turkish ban on turning back, Killer's halt behind a last captured king, the Frisian
//! king-move limit (each side's run of king moves is carried beside the position, by the walks
//! of a ruleset with the limit only), and the end rules that are tests of piece sets (the first
//! king wins; a lone king against a lone man or a lone king). Variants with another mechanism
//! (parachutists, drops, removals, line moves, other end rules, the no-return rule, step-only
//! links, graph boards without constant shifts) are counted by the general generator; both are checked against each other on random positions of every variant
//! (`tests/bulk.rs`) and against the published perft tables.
//!
//! The modules, each importing only from those before it (and [`Bulk`] from here): `layout`
//! (where each cell is kept), `moves` (positions and moves), `tables` (the ruleset compiled),
//! `captures` and `quiet` (the moves of a position), `perft` (the walks).

// The direction loops index several parallel arrays by slot.
#![allow(clippy::needless_range_loop)]

mod captures;
mod layout;
mod moves;
mod perft;
mod quiet;
mod tables;

pub use crate::bits::CellSet;
pub use moves::NarrowMove;
pub use tables::Tables;

/// The narrow generator chosen for a variant, by the width of its board.
#[derive(Clone, Debug)]
pub enum Bulk {
    /// Boards of up to 64 cell ids (every 8×8 and 10×10 board of dark squares).
    Word(Box<Tables<u64>>),
    /// Boards of up to 128 cell ids (12×12, full 8×8 boards).
    TwoWords(Box<Tables<u128>>),
}
