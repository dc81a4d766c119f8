//! Move generators, one file per mechanism. They read a board, a ruleset and the promotion
//! squares, never a variant: [`Variant::generate`](crate::variant::Variant::generate) puts
//! them together into the legal moves of a position.

pub mod bulk;
pub(crate) mod captures;
pub(crate) mod drops;
pub(crate) mod leaps;
pub(crate) mod removals;
pub(crate) mod steps;

use crate::bits::CellSet;
use crate::moves::Move;

/// Where the generators put what they find: the moves themselves (a `Vec<Move>`), or only
/// their number ([`Count`]), which perft needs at its last ply. Captures, and moves that a
/// rule still filters, always go to a list ([`Sink::list`]).
pub(crate) trait Sink {
    /// The moves `make` builds from each cell of `cells` (a count: `cells`' size).
    fn cells<S: CellSet>(&mut self, cells: S, make: impl FnMut(usize) -> Move);
    /// One move.
    fn one(&mut self, m: Move);
    /// The list that captures and filtered moves are built in.
    fn list(&mut self) -> &mut Vec<Move>;
    /// The moves found.
    fn len(&self) -> usize;
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn cells<S: CellSet>(&mut self, cells: S, mut make: impl FnMut(usize) -> Move) {
        for c in cells.cells() {
            self.push(make(c));
        }
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }

    #[inline(always)]
    fn list(&mut self) -> &mut Vec<Move> {
        self
    }

    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

/// A [`Sink`] that counts: the moves of [`Sink::list`], and a number for the others.
pub(crate) struct Count<'a> {
    pub counted: usize,
    pub list: &'a mut Vec<Move>,
}

impl Sink for Count<'_> {
    #[inline(always)]
    fn cells<S: CellSet>(&mut self, cells: S, _: impl FnMut(usize) -> Move) {
        self.counted += cells.count() as usize;
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.counted += 1;
    }

    #[inline(always)]
    fn list(&mut self) -> &mut Vec<Move> {
        self.list
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.counted + self.list.len()
    }
}

/// Runs `$body` with `$S` the cell-set type of `$board`'s width ([`CellSet`](crate::bits::CellSet)):
/// `u64` for boards of up to 64 cell ids, `[u64; 2]` for up to 128, [`Bits`](crate::bits::Bits)
/// above. The general generators are monomorphised over it, so the wide storage set costs
/// the narrower boards nothing in their loops.
macro_rules! by_width {
    ($board:expr, $S:ident => $body:expr) => {
        match $board.id_bound() {
            0..=64 => {
                type $S = u64;
                $body
            }
            65..=128 => {
                type $S = [u64; 2];
                $body
            }
            _ => {
                type $S = $crate::bits::Bits;
                $body
            }
        }
    };
}
pub(crate) use by_width;

/// Default bound on the capture search, in search steps per position (a step: a node of the
/// search, or a landing square a flying king probes for a further capture). Real games stay
/// far below it (the richest published positions need a few thousand); only constructed
/// positions with many kings can reach it.
pub const DEFAULT_CAPTURE_LIMIT: u32 = 8_000_000;

/// Why a search bounded by `limit` steps stopped early: cancelled, its request's budget spent
/// (`limit` was the budget's remainder, below `capture_limit`), or the capture bound reached.
pub(crate) fn stop_reason(
    cancelled: bool,
    limit: u32,
    capture_limit: u32,
    budget: &crate::budget::Budget,
) -> crate::budget::GenError {
    use crate::budget::GenError;
    if cancelled {
        GenError::Cancelled
    } else if limit < capture_limit {
        GenError::Budget {
            limit: budget.limit(),
        }
    } else {
        GenError::CaptureLimit {
            limit: capture_limit,
        }
    }
}
