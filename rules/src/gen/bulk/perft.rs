//! Perft and move counting by the narrow generator, with bulk counting at the last ply.

use super::captures::captures;
use super::cells::CellSet;
use super::moves::{play, NarrowMove, Pos};
use super::quiet::{count_quiet, quiet};
use super::tables::Tables;
use super::Bulk;
use crate::budget::GenError;
use crate::gen::DEFAULT_CAPTURE_LIMIT;
use crate::position::{Kind, Position};
use crate::rules::{Landing, Reach};
use crate::rules::{Removal, Rules};

/// A perft of the narrow generator, for one choice of the monomorphised properties.
pub(super) struct Walk<
    'a,
    S,
    const IMMEDIATE: bool,
    const FLYING: bool,
    const BEHIND: bool,
    const SLOTS: usize,
> {
    pub(super) t: &'a Tables<S>,
    /// Capture-search steps allowed per position.
    pub(super) limit: u32,
    /// Capture-search steps taken.
    pub(super) spent: std::cell::Cell<u64>,
}

impl<
        S: CellSet,
        const IMMEDIATE: bool,
        const FLYING: bool,
        const BEHIND: bool,
        const SLOTS: usize,
    > Walk<'_, S, IMMEDIATE, FLYING, BEHIND, SLOTS>
{
    pub(super) fn moves(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<(), GenError> {
        let mut spent = self.spent.get();
        let r = captures::<S, IMMEDIATE, FLYING, BEHIND, false, SLOTS>(
            self.t, p, out, self.limit, &mut spent,
        );
        self.spent.set(spent);
        r?;
        if out.is_empty() {
            quiet(self.t, p, out);
        }
        Ok(())
    }

    #[inline(never)]
    pub(super) fn count(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<u64, GenError> {
        let mut spent = self.spent.get();
        let r = captures::<S, IMMEDIATE, FLYING, BEHIND, true, SLOTS>(
            self.t, p, out, self.limit, &mut spent,
        );
        self.spent.set(spent);
        let n = r?;
        if n > 0 {
            return Ok(n);
        }
        Ok(count_quiet::<S, SLOTS>(self.t, p))
    }

    /// Leaves `buffers.len()` plies below `p` (one move buffer per ply).
    pub(super) fn walk(
        &self,
        p: &Pos<S>,
        buffers: &mut [Vec<NarrowMove<S>>],
    ) -> Result<u64, GenError> {
        let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
        if rest.is_empty() {
            return self.count(p, buf);
        }
        self.moves(p, buf)?;
        let mut total = 0;
        if rest.len() == 1 {
            // The last ply before the leaves: count each child at once.
            let scratch = &mut rest[0];
            for m in buf.iter() {
                total += self.count(&play(p, m), scratch)?;
            }
            return Ok(total);
        }
        for m in buf.iter() {
            total += self.walk(&play(p, m), rest)?;
        }
        Ok(total)
    }
}

pub(super) fn perft_on<S: CellSet>(
    t: &Tables<S>,
    rules: &Rules,
    pos: &Position,
    depth: u32,
) -> Result<u64, GenError> {
    if depth == 0 {
        return Ok(1);
    }
    let p = Pos::<S>::of(pos);
    let mut buffers: Vec<Vec<NarrowMove<S>>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let immediate = rules.removal == Removal::Immediate;
    let king = rules.piece(Kind::King).reach;
    macro_rules! go {
        ($imm:literal, $fly:literal, $behind:literal) => {
            if t.slots == 4 {
                Walk::<S, $imm, $fly, $behind, 4> {
                    t,
                    limit: DEFAULT_CAPTURE_LIMIT,
                    spent: Default::default(),
                }
                .walk(&p, &mut buffers)
            } else {
                Walk::<S, $imm, $fly, $behind, 8> {
                    t,
                    limit: DEFAULT_CAPTURE_LIMIT,
                    spent: Default::default(),
                }
                .walk(&p, &mut buffers)
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
    /// Perft by the narrow generator of a variant (whose ruleset is `rules`). The position
    /// must not be one the variant's rules have decided (the caller checks it).
    pub fn perft(&self, rules: &Rules, pos: &Position, depth: u32) -> Result<u64, GenError> {
        match self {
            Bulk::Word(t) => perft_on::<u64>(t, rules, pos, depth),
            Bulk::TwoWords(t) => perft_on::<u128>(t, rules, pos, depth),
        }
    }

    /// The number of legal moves of `pos` (bulk counting, no move is built), charged to
    /// `budget` (one unit for the position, one per capture-search step, one per move) and
    /// stopped by it. The caller checks that the rules have not decided the position.
    pub fn count_moves(
        &self,
        rules: &Rules,
        pos: &Position,
        budget: &crate::budget::Budget,
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
    budget: &crate::budget::Budget,
) -> Result<u64, GenError> {
    let p = Pos::<S>::of(pos);
    let mut out = Vec::new();
    let immediate = rules.removal == Removal::Immediate;
    let limit = DEFAULT_CAPTURE_LIMIT.min(budget.left().min(u32::MAX as u64) as u32);
    let spent = std::cell::Cell::new(0u64);
    macro_rules! go {
        ($imm:literal, $fly:literal, $behind:literal) => {
            if t.slots == 4 {
                let w = Walk::<S, $imm, $fly, $behind, 4> { t, limit, spent };
                let r = w.count(&p, &mut out);
                (r, w.spent.get())
            } else {
                let w = Walk::<S, $imm, $fly, $behind, 8> { t, limit, spent };
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
    let p = Pos::<S>::of(pos);
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
        quiet(t, &p, &mut out);
    }
    Ok(out
        .into_iter()
        .map(|m| crate::moves::Move {
            from: m.from,
            to: m.to,
            piece: if m.king { Kind::King } else { Kind::Man },
            becomes: if m.becomes_king {
                Kind::King
            } else {
                Kind::Man
            },
            captured: m.captured.to_bits(),
        })
        .collect())
}
