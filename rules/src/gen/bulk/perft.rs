//! Perft and move counting by the narrow generator, with bulk counting at the last ply.

use super::captures::captures;
use super::moves::{next_run, play, run_of, NarrowMove, Pos, Run};
use super::quiet::{count_quiet, quiet};
use super::tables::Tables;
use super::Bulk;
use crate::bits::CellSet;
use crate::budget::{Budget, GenError};
use crate::gen::DEFAULT_CAPTURE_LIMIT;
use crate::position::{Kind, Position};
use crate::rules::{Landing, Reach};
use crate::rules::{Removal, Rules};

/// A perft of the narrow generator, for one choice of the monomorphised properties.
///
/// The walk charges `budget` one unit per position whose moves it makes or counts, plus one
/// per capture-search step, once per interior position (for a position two plies above the
/// leaves, with the children it counts: a batch, so the check costs nothing next to the
/// counting). A batch stops early once its capture searches alone pass what the budget has
/// left, and each search is bounded by that too, so the walk stops within one position's
/// search of its bound.
pub(super) struct Walk<
    'a,
    S,
    const IMMEDIATE: bool,
    const FLYING: bool,
    const BEHIND: bool,
    const SLOTS: usize,
> {
    pub(super) t: &'a Tables<S>,
    /// Capture-search steps allowed per position: the default bound, or less when the budget
    /// has less left.
    pub(super) limit: std::cell::Cell<u32>,
    /// Capture-search steps taken.
    pub(super) spent: std::cell::Cell<u64>,
    /// What the walk charges.
    pub(super) budget: &'a Budget,
    /// The king of the side to move that the king-move limit holds, in the position whose
    /// moves are made or counted next (none in a ruleset without the limit).
    pub(super) held: std::cell::Cell<S>,
}

impl<
        'a,
        S: CellSet,
        const IMMEDIATE: bool,
        const FLYING: bool,
        const BEHIND: bool,
        const SLOTS: usize,
    > Walk<'a, S, IMMEDIATE, FLYING, BEHIND, SLOTS>
{
    pub(super) fn new(t: &'a Tables<S>, budget: &'a Budget) -> Self {
        let w = Walk {
            t,
            limit: Default::default(),
            spent: Default::default(),
            budget,
            held: Default::default(),
        };
        w.bound_searches();
        w
    }

    /// Bounds each capture search by what the budget has left.
    fn bound_searches(&self) {
        let left = self.budget.left().min(u64::from(DEFAULT_CAPTURE_LIMIT)) as u32;
        self.limit.set(left);
    }

    /// Charges `units` (and then bounds the next searches by what is left).
    #[inline(always)]
    fn charge(&self, units: u64) -> Result<(), GenError> {
        self.budget.charge(units)?;
        self.bound_searches();
        Ok(())
    }

    /// What an error of a search means: a capture bound lowered to what the budget has left
    /// is the budget's, which the search's steps then exhaust.
    #[cold]
    fn stopped(&self, e: GenError, steps: u64) -> GenError {
        match e {
            GenError::CaptureLimit { .. } if self.limit.get() < DEFAULT_CAPTURE_LIMIT => self
                .budget
                .charge(steps.max(self.budget.left() + 1))
                .err()
                .unwrap_or(GenError::Budget {
                    limit: self.budget.limit(),
                }),
            e => e,
        }
    }

    /// The moves of `p` into `out` (a king held by the king-move limit: [`Walk::held`]).
    pub(super) fn moves(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<(), GenError> {
        let mut spent = self.spent.get();
        let r = captures::<S, IMMEDIATE, FLYING, BEHIND, false, SLOTS>(
            self.t,
            p,
            out,
            self.limit.get(),
            &mut spent,
        );
        self.spent.set(spent);
        r?;
        if out.is_empty() {
            quiet(self.t, p, self.held.get(), out);
        }
        Ok(())
    }

    /// The number of moves of `p` (a king held by the king-move limit: [`Walk::held`]).
    #[inline(never)]
    pub(super) fn count(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<u64, GenError> {
        let mut spent = self.spent.get();
        let r = captures::<S, IMMEDIATE, FLYING, BEHIND, true, SLOTS>(
            self.t,
            p,
            out,
            self.limit.get(),
            &mut spent,
        );
        self.spent.set(spent);
        let n = r?;
        if n > 0 {
            return Ok(n);
        }
        Ok(count_quiet::<S, SLOTS>(self.t, p, self.held.get()))
    }

    /// Leaves `buffers.len()` plies below `p` (one move buffer per ply), charged to the
    /// budget when `CHARGED` (an unlimited budget without a cancellation flag is not: its
    /// walk is the unbudgeted count, check for check).
    pub(super) fn walk<const CHARGED: bool>(
        &self,
        p: &Pos<S>,
        run: Run,
        buffers: &mut [Vec<NarrowMove<S>>],
    ) -> Result<u64, GenError> {
        // The king-move limit's bookkeeping and the end rules' tests only in the walk of a
        // ruleset that has them.
        match (self.t.king_limit != 0, self.t.ends.any()) {
            (false, false) => self.walk_as::<CHARGED, false, false>(p, run, buffers),
            (false, true) => self.walk_as::<CHARGED, false, true>(p, run, buffers),
            (true, false) => self.walk_as::<CHARGED, true, false>(p, run, buffers),
            (true, true) => self.walk_as::<CHARGED, true, true>(p, run, buffers),
        }
    }

    /// Sets [`Walk::held`] for `p` with the runs `run` (`LIMIT` only: otherwise it stays
    /// empty).
    #[inline(always)]
    fn hold<const LIMIT: bool>(&self, p: &Pos<S>, run: &Run) {
        if LIMIT {
            self.held.set(p.held_king(run, self.t.king_limit));
        }
    }

    /// The runs after `m` (`LIMIT` only), played from `run` to `q`.
    #[inline(always)]
    fn run_after<const LIMIT: bool>(&self, q: &Pos<S>, m: &NarrowMove<S>, run: Run) -> Run {
        if LIMIT {
            next_run(q, m, run, self.t.king_limit)
        } else {
            run
        }
    }

    /// The walk; `ENDS`: the ruleset has end rules, and a position they decide has no moves.
    fn walk_as<const CHARGED: bool, const LIMIT: bool, const ENDS: bool>(
        &self,
        p: &Pos<S>,
        run: Run,
        buffers: &mut [Vec<NarrowMove<S>>],
    ) -> Result<u64, GenError> {
        let before = self.spent.get();
        // A search stopped by a bound lowered to the budget is the budget's (charged walks
        // only: an unlimited budget never lowers the bound).
        let stopped = |e| {
            if CHARGED {
                self.stopped(e, self.spent.get() - before)
            } else {
                e
            }
        };
        if ENDS && self.t.decided(p) {
            if CHARGED {
                self.charge(1)?;
            }
            return Ok(0);
        }
        let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.hold::<LIMIT>(p, &run);
        if rest.is_empty() {
            let n = self.count(p, buf).map_err(stopped)?;
            if CHARGED {
                self.charge(1 + self.spent.get() - before)?;
            }
            return Ok(n);
        }
        self.moves(p, buf).map_err(stopped)?;
        let mut total = 0;
        if rest.len() == 1 {
            // The last ply before the leaves: count each child at once, and charge the
            // position and its children together, stopping early only if their capture
            // searches alone spend what the budget has left.
            let scratch = &mut rest[0];
            if !CHARGED {
                for m in buf.iter() {
                    let q = play(p, m);
                    if ENDS && self.t.decided(&q) {
                        continue;
                    }
                    self.hold::<LIMIT>(&q, &self.run_after::<LIMIT>(&q, m, run));
                    total += self.count(&q, scratch)?;
                }
                return Ok(total);
            }
            let stop = before.saturating_add(self.budget.left());
            for m in buf.iter() {
                let q = play(p, m);
                if ENDS && self.t.decided(&q) {
                    continue;
                }
                self.hold::<LIMIT>(&q, &self.run_after::<LIMIT>(&q, m, run));
                total += self.count(&q, scratch).map_err(stopped)?;
                if self.spent.get() > stop {
                    break;
                }
            }
            self.charge(1 + buf.len() as u64 + self.spent.get() - before)?;
            return Ok(total);
        }
        if CHARGED {
            self.charge(1 + self.spent.get() - before)?;
        }
        for m in buf.iter() {
            let q = play(p, m);
            total += self.walk_as::<CHARGED, LIMIT, ENDS>(
                &q,
                self.run_after::<LIMIT>(&q, m, run),
                rest,
            )?;
        }
        Ok(total)
    }
}

pub(super) fn perft_on<S: CellSet>(
    t: &Tables<S>,
    rules: &Rules,
    pos: &Position,
    depth: u32,
    budget: &Budget,
) -> Result<u64, GenError> {
    if depth == 0 {
        return Ok(1);
    }
    let p = Pos::<S>::of(pos, &t.layout);
    let run = run_of(pos, &t.layout);
    let mut buffers: Vec<Vec<NarrowMove<S>>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let immediate = rules.removal == Removal::Immediate;
    let king = rules.piece(Kind::King).reach;
    macro_rules! go {
        ($imm:literal, $fly:literal, $behind:literal) => {
            if t.slots == 4 {
                let w = Walk::<S, $imm, $fly, $behind, 4>::new(t, budget);
                if budget.is_unlimited() {
                    w.walk::<false>(&p, run, &mut buffers)
                } else {
                    w.walk::<true>(&p, run, &mut buffers)
                }
            } else {
                let w = Walk::<S, $imm, $fly, $behind, 8>::new(t, budget);
                if budget.is_unlimited() {
                    w.walk::<false>(&p, run, &mut buffers)
                } else {
                    w.walk::<true>(&p, run, &mut buffers)
                }
            }
        };
    }
    match (immediate, king) {
        (false, Reach::Short) => go!(false, false, false),
        (false, Reach::Flying(Landing::Any)) => go!(false, true, false),
        (false, Reach::Flying(Landing::Behind)) => go!(false, true, true),
        (true, Reach::Short) => go!(true, false, false),
        (true, Reach::Flying(Landing::Any)) => go!(true, true, false),
        (true, Reach::Flying(Landing::Behind)) => go!(true, true, true),
    }
}

impl Bulk {
    /// Perft by the narrow generator of a variant (whose ruleset is `rules`), charged to
    /// `budget` (one unit per position whose moves are made or counted, one per capture-search
    /// step) and stopped by it. The position must not be one the variant's rules have decided
    /// (the caller checks it).
    pub fn perft(
        &self,
        rules: &Rules,
        pos: &Position,
        depth: u32,
        budget: &Budget,
    ) -> Result<u64, GenError> {
        match self {
            Bulk::Word(t) => perft_on::<u64>(t, rules, pos, depth, budget),
            Bulk::TwoWords(t) => perft_on::<u128>(t, rules, pos, depth, budget),
        }
    }

    /// The number of legal moves of `pos` (bulk counting, no move is built), charged to
    /// `budget` (one unit for the position, one per capture-search step, one per move) and
    /// stopped by it. The caller checks that the rules have not decided the position.
    pub fn count_moves(
        &self,
        rules: &Rules,
        pos: &Position,
        budget: &Budget,
    ) -> Result<u64, GenError> {
        match self {
            Bulk::Word(t) => count_moves_on::<u64>(t, rules, pos, budget),
            Bulk::TwoWords(t) => count_moves_on::<u128>(t, rules, pos, budget),
        }
    }

    /// The legal moves of `pos`, as the general generator writes them (`from`, `to`, captured
    /// set, kinds), in no particular order. For the cross-check of the two generators; the
    /// caller checks that the rules have not decided the position.
    pub fn legal_moves(
        &self,
        rules: &Rules,
        pos: &Position,
    ) -> Result<Vec<crate::moves::Move>, GenError> {
        match self {
            Bulk::Word(t) => legal_moves_on::<u64>(t, rules, pos),
            Bulk::TwoWords(t) => legal_moves_on::<u128>(t, rules, pos),
        }
    }
}

pub(super) fn count_moves_on<S: CellSet>(
    t: &Tables<S>,
    rules: &Rules,
    pos: &Position,
    budget: &Budget,
) -> Result<u64, GenError> {
    let p = Pos::<S>::of(pos, &t.layout);
    let run = run_of(pos, &t.layout);
    let mut out = Vec::new();
    let immediate = rules.removal == Removal::Immediate;
    let limit = DEFAULT_CAPTURE_LIMIT.min(budget.left().min(u32::MAX as u64) as u32);
    macro_rules! go {
        ($imm:literal, $fly:literal, $behind:literal) => {
            if t.slots == 4 {
                let w = Walk::<S, $imm, $fly, $behind, 4>::new(t, budget);
                w.hold::<true>(&p, &run);
                let r = w.count(&p, &mut out);
                (r, w.spent.get())
            } else {
                let w = Walk::<S, $imm, $fly, $behind, 8>::new(t, budget);
                w.hold::<true>(&p, &run);
                let r = w.count(&p, &mut out);
                (r, w.spent.get())
            }
        };
    }
    let (r, steps) = match (immediate, rules.piece(Kind::King).reach) {
        (false, Reach::Short) => go!(false, false, false),
        (false, Reach::Flying(Landing::Any)) => go!(false, true, false),
        (false, Reach::Flying(Landing::Behind)) => go!(false, true, true),
        (true, Reach::Short) => go!(true, false, false),
        (true, Reach::Flying(Landing::Any)) => go!(true, true, false),
        (true, Reach::Flying(Landing::Behind)) => go!(true, true, true),
    };
    match r {
        Ok(n) => {
            budget.charge(1 + steps + n)?;
            Ok(n)
        }
        Err(GenError::CaptureLimit { .. }) if limit < DEFAULT_CAPTURE_LIMIT => {
            let _ = budget.charge(steps);
            Err(GenError::Budget {
                limit: budget.limit(),
            })
        }
        Err(e) => Err(e),
    }
}

pub(super) fn legal_moves_on<S: CellSet>(
    t: &Tables<S>,
    rules: &Rules,
    pos: &Position,
) -> Result<Vec<crate::moves::Move>, GenError> {
    let p = Pos::<S>::of(pos, &t.layout);
    let run = run_of(pos, &t.layout);
    let held = p.held_king(&run, t.king_limit);
    let mut out = Vec::new();
    let immediate = rules.removal == Removal::Immediate;
    // The capture search, monomorphised over the removal timing and the king's reach.
    macro_rules! search {
        ($immediate:literal, $flying:literal, $behind:literal) => {
            captures::<S, $immediate, $flying, $behind, false, 8>(
                t,
                &p,
                &mut out,
                DEFAULT_CAPTURE_LIMIT,
                &mut 0,
            )
        };
    }
    let r = match (immediate, rules.piece(Kind::King).reach) {
        (false, Reach::Short) => search!(false, false, false),
        (false, Reach::Flying(Landing::Any)) => search!(false, true, false),
        (false, Reach::Flying(Landing::Behind)) => search!(false, true, true),
        (true, Reach::Short) => search!(true, false, false),
        (true, Reach::Flying(Landing::Any)) => search!(true, true, false),
        (true, Reach::Flying(Landing::Behind)) => search!(true, true, true),
    };
    r?;
    if out.is_empty() {
        quiet(t, &p, held, &mut out);
    }
    Ok(out
        .into_iter()
        .map(|m| {
            crate::moves::Move::new(
                t.layout.cell(m.from) as usize,
                t.layout.cell(m.to) as usize,
                if m.king { Kind::King } else { Kind::Man },
                if m.becomes_king {
                    Kind::King
                } else {
                    Kind::Man
                },
                t.layout.bits(m.captured),
            )
        })
        .collect())
}
