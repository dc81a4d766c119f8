//! Move generators, one file per mechanism.
//!
//! [`generate`] is the single entry point: captures first (they are compulsory), then, only if
//! there is none, the non-capturing moves. A position that an end rule of the variant has
//! decided ([`crate::ends`]) has no legal moves; in the opening plies of a variant with
//! opening removals (Konane) the removals are the only moves, and while the side to move
//! holds stones in hand (drop games) the drops are. Every generation charges a [`Budget`]: one
//! unit for the position, one per capture-search node and one per move produced.

pub mod bulk;
mod captures;
mod drops;
mod removals;
mod steps;

pub use captures::GenError;

use crate::budget::Budget;
use crate::moves::{Move, Route};
use crate::position::Position;
use crate::rules::Goal;
use crate::variant::Variant;

/// Default bound on the capture search, in search steps per position (a step: a node of the
/// search, or a landing square a flying king probes for a further capture). Real games stay
/// far below it (the richest published positions need a few thousand); only constructed
/// positions with many kings can reach it.
pub const DEFAULT_CAPTURE_LIMIT: u32 = 8_000_000;

/// Fills `out` with the legal moves of `pos` (cleared first). Allocates only if `out` must
/// grow.
pub fn generate(
    variant: &Variant,
    pos: &Position,
    budget: &Budget,
    out: &mut Vec<Move>,
) -> Result<(), GenError> {
    generate_paths(variant, pos, budget, true, out)
}

/// Like [`generate`], but with `dedup == false` every complete capture route is its own entry
/// (moves with the same identity appear once per route): the "keep duplicates" convention of
/// some published perft tables.
pub fn generate_paths(
    variant: &Variant,
    pos: &Position,
    budget: &Budget,
    dedup: bool,
    out: &mut Vec<Move>,
) -> Result<(), GenError> {
    out.clear();
    if variant.decided(pos) {
        return budget.charge(1);
    }
    if variant.has_placements() {
        if let Some(step) = variant.opening_removal(pos) {
            removals::removals(variant.board(), step, pos, out);
            return budget.charge(1 + out.len() as u64);
        }
        if variant.drops_now(pos) {
            drops::drops(variant.board(), pos, variant.barred_drops(pos), out);
            return budget.charge(1 + out.len() as u64);
        }
    }
    let promo = variant.promotion(pos.side());
    let steps = {
        let mut s = captures::Search::<false>::new(
            variant.board(),
            variant.rules(),
            promo,
            pos,
            DEFAULT_CAPTURE_LIMIT,
            budget,
            out,
        );
        s.dedup = dedup;
        let r = s.run(pos);
        let steps = s.steps;
        r.inspect_err(|_| {
            let _ = budget.charge(steps as u64);
        })?;
        steps
    };
    let no_return = variant.rules().no_return;
    if no_return {
        out.retain(|m| !returns(pos, m));
    }
    if out.is_empty() {
        steps::quiet_moves(variant.board(), variant.rules(), promo, pos, out);
        if no_return {
            out.retain(|m| !returns(pos, m));
        }
        if out.is_empty() && variant.rules().goal == Goal::NoMovesPasses {
            out.push(Move::PASS);
        }
    }
    budget.charge(1 + steps as u64 + out.len() as u64)
}

/// Whether `m` takes the piece the side to move moved last back to where it came from (the
/// no-return rule: such a move is not legal, and a capture it would be is not compulsory).
#[inline]
fn returns(pos: &Position, m: &Move) -> bool {
    pos.last_move(pos.side())
        .is_some_and(|(from, to)| m.from as usize == to && m.to as usize == from)
}

/// Whether the side to move of `pos` has a legal move other than a pass, ignoring the end
/// rules (the `BOTH_BLOCKED` rule asks it of both sides). Captures are looked for under the
/// default capture bound only: the variants with passes have small boards.
pub(crate) fn has_move_but_pass(variant: &Variant, pos: &Position) -> bool {
    if variant.drops_now(pos) {
        return !variant.board().cells().minus(pos.occupied()).is_empty();
    }
    let mut out = Vec::new();
    let promo = variant.promotion(pos.side());
    let budget = Budget::unlimited();
    let found = captures::Search::<false>::new(
        variant.board(),
        variant.rules(),
        promo,
        pos,
        DEFAULT_CAPTURE_LIMIT,
        &budget,
        &mut out,
    )
    .run(pos);
    if found.is_err() {
        return true;
    }
    if variant.rules().no_return {
        out.retain(|m| !returns(pos, m));
    }
    if !out.is_empty() {
        return true;
    }
    steps::quiet_moves(variant.board(), variant.rules(), promo, pos, &mut out);
    if variant.rules().no_return {
        out.retain(|m| !returns(pos, m));
    }
    !out.is_empty()
}

/// A legal move with what notation needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub mv: Move,
    /// The canonical route of a capture (its PDN route with the smallest list of square
    /// numbers); `None` for a non-capturing move.
    pub route: Option<Route>,
    /// Whether the move text given to [`generate_described`] is a complete long form of one of
    /// its routes (for a non-capturing move: the text is exactly its start and end).
    pub named: bool,
}

/// The legal moves of `pos` with their canonical routes and, when `text` (the squares of a
/// move text) is given, whether it names one of each move's routes. Every capture route is
/// looked at as the search finds it; only one route per move is kept.
pub fn generate_described(
    variant: &Variant,
    pos: &Position,
    budget: &Budget,
    text: Option<&[usize]>,
) -> Result<Vec<Found>, GenError> {
    generate_matching(variant, pos, budget, text, false)
}

/// [`generate_described`], with `partly`: `named` says whether the text is a complete *or
/// incomplete* long form of one of the move's routes
/// ([`names_route_partly`](crate::moves::names_route_partly)).
pub fn generate_matching(
    variant: &Variant,
    pos: &Position,
    budget: &Budget,
    text: Option<&[usize]>,
    partly: bool,
) -> Result<Vec<Found>, GenError> {
    if variant.decided(pos) {
        budget.charge(1)?;
        return Ok(Vec::new());
    }
    // Room for the moves of most positions at once, not a doubling every few moves.
    let mut out = Vec::with_capacity(32);
    let placing = variant.opening_removal(pos);
    if placing.is_some() || variant.drops_now(pos) {
        match placing {
            Some(step) => removals::removals(variant.board(), step, pos, &mut out),
            None => drops::drops(variant.board(), pos, variant.barred_drops(pos), &mut out),
        }
        budget.charge(1 + out.len() as u64)?;
        return Ok(out
            .into_iter()
            .map(|mv| Found {
                mv,
                route: None,
                named: text == Some(&[mv.from as usize, mv.to as usize][..]),
            })
            .collect());
    }
    let promo = variant.promotion(pos.side());
    let mut rs = captures::RouteState::default();
    let steps = {
        let mut s = captures::Search::<true>::new(
            variant.board(),
            variant.rules(),
            promo,
            pos,
            DEFAULT_CAPTURE_LIMIT,
            budget,
            &mut out,
        )
        .with_notation(
            captures::Notation {
                numbers: variant.numbers(),
                text,
                partly,
            },
            &mut rs,
        );
        let r = s.run(pos);
        let steps = s.steps;
        r.inspect_err(|_| {
            let _ = budget.charge(steps as u64);
        })?;
        s.steps
    };
    let (routes, named) = (rs.routes, rs.named);
    let no_return = variant.rules().no_return;
    let mut found: Vec<Found> = out
        .drain(..)
        .zip(routes)
        .zip(named)
        .map(|((mv, route), named)| Found {
            mv,
            route: Some(route),
            named,
        })
        .collect();
    if no_return {
        found.retain(|f| !returns(pos, &f.mv));
    }
    if found.is_empty() {
        steps::quiet_moves(variant.board(), variant.rules(), promo, pos, &mut out);
        if no_return {
            out.retain(|m| !returns(pos, m));
        }
        if out.is_empty() && variant.rules().goal == Goal::NoMovesPasses {
            out.push(Move::PASS);
        }
        found = out
            .into_iter()
            .map(|mv| Found {
                mv,
                route: None,
                named: text == Some(&[mv.from as usize, mv.to as usize][..]),
            })
            .collect();
    }
    budget.charge(1 + steps as u64 + found.len() as u64)?;
    Ok(found)
}
