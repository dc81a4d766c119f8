//! Move generators, one file per mechanism.
//!
//! [`generate`] is the single entry point: captures first (they are compulsory), then, only if
//! there is none, the non-capturing moves.

mod captures;
mod steps;

pub use captures::GenError;

use crate::moves::{Move, Route};
use crate::position::Position;
use crate::variant::Variant;

/// Default bound on the capture search, in search steps per position. Real games stay far
/// below it (the richest published positions need a few thousand); only constructed
/// positions with many kings can reach it.
pub const DEFAULT_CAPTURE_LIMIT: u32 = 2_000_000;

/// Fills `out` with the legal moves of `pos` (cleared first). Allocates only if `out` must
/// grow.
pub fn generate(
    variant: &Variant,
    pos: &Position,
    limit: u32,
    out: &mut Vec<Move>,
) -> Result<(), GenError> {
    generate_paths(variant, pos, limit, true, out)
}

/// Like [`generate`], but with `dedup == false` every complete capture route is its own entry
/// (moves with the same identity appear once per route): the "keep duplicates" convention of
/// some published perft tables.
pub fn generate_paths(
    variant: &Variant,
    pos: &Position,
    limit: u32,
    dedup: bool,
    out: &mut Vec<Move>,
) -> Result<(), GenError> {
    out.clear();
    let promo = variant.promotion(pos.side());
    {
        let mut s = captures::Search::<false>::new(
            variant.board(),
            variant.rules(),
            promo,
            pos,
            limit,
            out,
        );
        s.dedup = dedup;
        s.run(pos)?;
    }
    if out.is_empty() {
        steps::quiet_moves(variant.board(), variant.rules(), promo, pos, out);
    }
    Ok(())
}

/// The legal moves of `pos` with every capture route of each (non-captures have none).
pub fn generate_with_routes(
    variant: &Variant,
    pos: &Position,
    limit: u32,
) -> Result<Vec<(Move, Vec<Route>)>, GenError> {
    let mut out = Vec::new();
    let promo = variant.promotion(pos.side());
    let routes = {
        let mut s = captures::Search::<true>::new(
            variant.board(),
            variant.rules(),
            promo,
            pos,
            limit,
            &mut out,
        );
        s.run(pos)?;
        std::mem::take(&mut s.routes)
    };
    if out.is_empty() {
        steps::quiet_moves(variant.board(), variant.rules(), promo, pos, &mut out);
        return Ok(out.into_iter().map(|m| (m, Vec::new())).collect());
    }
    Ok(out.into_iter().zip(routes).collect())
}
