//! The capture search of the narrow generator: short and flying pieces, both removal
//! timings, mid-capture promotion and precedence.

use super::moves::{NarrowMove, Pos};
use super::tables::{KeyKind, Slots, Tables};
use crate::bits::CellSet;
use crate::board::Dir;
use crate::budget::GenError;
use crate::rules::{MidCapturePromotion, Precedence};

/// What a capture sequence has taken so far.
#[derive(Clone, Copy)]
pub(super) struct Seq<S> {
    pub(super) captured: S,
    pub(super) n: u32,
    pub(super) kings: u32,
    /// Bit `31 - i` set when the `i`-th captured piece is a king.
    pub(super) mask: u32,
    pub(super) value: u32,
}

/// The capture search of one position: every piece of the side to move in turn.
pub(super) struct Captures<'a, S, const IMMEDIATE: bool, const FLYING: bool, const BEHIND: bool> {
    pub(super) t: &'a Tables<S>,
    pub(super) me: usize,
    pub(super) enemy: S,
    pub(super) enemy_kings: S,
    /// Every piece but the capturing one.
    pub(super) occ: S,
    pub(super) from: u8,
    pub(super) start_king: bool,
    pub(super) best: u64,
    pub(super) steps: u32,
    pub(super) out: &'a mut Vec<NarrowMove<S>>,
    /// Ends found at the landings of the current flying jump, kept until it is known
    /// whether a landing can go on (then only those landings count).
    pub(super) pending: Vec<(u8, Seq<S>)>,
}

impl<'a, S: CellSet, const IMMEDIATE: bool, const FLYING: bool, const BEHIND: bool>
    Captures<'a, S, IMMEDIATE, FLYING, BEHIND>
{
    /// Cells a capturing piece may pass or land on, given what it has captured.
    #[inline(always)]
    pub(super) fn free(&self, captured: S) -> S {
        if IMMEDIATE {
            self.t.cells.andn(self.occ.andn(captured))
        } else {
            self.t.cells.andn(self.occ)
        }
    }

    #[inline(always)]
    pub(super) fn victims(&self, captured: S, king: bool) -> S {
        let v = self.enemy.andn(captured);
        let takes_kings = if king {
            self.t.kings_take_kings
        } else {
            self.t.men_take_kings
        };
        if takes_kings {
            v
        } else {
            v.andn(self.enemy_kings)
        }
    }

    #[inline(always)]
    pub(super) fn with(&self, s: Seq<S>, victim: S) -> Seq<S> {
        let is_king = !victim.and(self.enemy_kings).is_zero();
        Seq {
            captured: s.captured.or(victim),
            n: s.n + 1,
            kings: s.kings + is_king as u32,
            mask: if is_king && s.n < 32 {
                s.mask | 1 << (31 - s.n)
            } else {
                s.mask
            },
            value: s.value
                + if is_king {
                    self.t.value.1
                } else {
                    self.t.value.0
                },
        }
    }

    #[inline(always)]
    pub(super) fn key(&self, s: &Seq<S>) -> u64 {
        match self.t.key_kind {
            KeyKind::Free => return 0,
            KeyKind::Count => return s.n as u64,
            KeyKind::General => {}
        }
        let mut key = 0u64;
        for p in &self.t.precedence {
            key = match p {
                Precedence::Count => key << 8 | s.n as u64,
                Precedence::Value { .. } => key << 16 | s.value as u64,
                Precedence::ByKing => key << 1 | self.start_king as u64,
                Precedence::KingsCaptured => key << 8 | s.kings as u64,
                Precedence::KingsEarly => key << 32 | s.mask as u64,
            };
        }
        key
    }

    #[inline(always)]
    pub(super) fn record(&mut self, to: u8, becomes_king: bool, s: Seq<S>) {
        let key = self.key(&s);
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.out.clear();
        }
        self.out.push(NarrowMove {
            from: self.from,
            to,
            captured: s.captured,
            king: self.start_king,
            becomes_king,
        });
    }

    /// Directions a jump may take after one in `last` (the Turkish ban on turning back).
    #[inline(always)]
    pub(super) fn after(&self, dirs: u8, last: Option<usize>) -> u8 {
        match last {
            Some(l) if self.t.no_reversal => dirs & !(1 << Dir::ALL[l].opposite() as u8),
            _ => dirs,
        }
    }

    /// A man on `cur` extends the sequence `s`; returns whether it could capture again.
    pub(super) fn man(&mut self, cur: S, s: Seq<S>, last: Option<usize>) -> bool {
        self.steps += 1;
        let mut found = false;
        // Only the directions a jump from `cur` stays on the board in: no wrap onto another
        // row in a compact layout, and no direction that leaves the board at once.
        let mut dirs = self.after(self.t.man_cap[self.me], last) & self.t.jump_dirs(cur.lowest());
        let victims = self.victims(s.captured, false);
        let free = self.free(s.captured);
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let off = self.t.shift[d & 7];
            let over = cur.shift(off).and(victims);
            if over.is_zero() {
                continue;
            }
            let land = over.shift(off).and(free);
            if land.is_zero() {
                continue;
            }
            found = true;
            self.man_lands(land, over, d, s);
        }
        found
    }

    /// A man has jumped `over` in direction `d` onto `land`: the sequence goes on from there
    /// (as a man, or crowned as a king), or ends there.
    #[inline]
    pub(super) fn man_lands(&mut self, land: S, over: S, d: usize, s: Seq<S>) {
        let next = self.with(s, over);
        let to = land.lowest() as u8;
        if !land.and(self.t.promo[self.me]).is_zero() {
            match self.t.mid {
                MidCapturePromotion::End => self.record(to, true, next),
                MidCapturePromotion::Pass => {
                    if !self.man(land, next, Some(d)) {
                        self.record(to, true, next);
                    }
                }
                MidCapturePromotion::KingContinue => {
                    if self.king(to as u32, next, Some(d), None) == 0 {
                        self.record(to, true, next);
                    }
                }
            }
        } else if !self.man(land, next, Some(d)) {
            self.record(to, false, next);
        }
    }

    /// A king on `cur` extends the sequence `s`; returns the directions it could capture in.
    /// `straight` is left out: from a landing square after the first behind a piece, going
    /// straight on meets what the first one meets.
    pub(super) fn king(
        &mut self,
        cur: u32,
        s: Seq<S>,
        last: Option<usize>,
        straight: Option<usize>,
    ) -> u8 {
        self.steps += 1;
        let mut found = 0u8;
        let mut dirs = self.after(self.t.king_cap[self.me], last);
        if let Some(st) = straight {
            dirs &= !(1 << st);
        }
        let victims = self.victims(s.captured, true);
        let free = self.free(s.captured);
        let start = S::bit(cur);
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let off = self.t.shift[d & 7];
            let into = self.t.into[d & 7];
            let mut sq = start.shift(off).and(into);
            if FLYING {
                while !sq.and(free).is_zero() {
                    sq = sq.shift(off).and(into);
                }
            }
            if sq.and(victims).is_zero() {
                continue;
            }
            let next = self.with(s, sq);
            let free_after = self.free(next.captured).and(into);
            let mut land = sq.shift(off).and(free_after);
            if land.is_zero() {
                continue;
            }
            found |= 1 << d;
            if !FLYING || BEHIND {
                let to = land.lowest();
                if self.king(to, next, Some(d), None) == 0 {
                    self.record(to as u8, true, next);
                }
                continue;
            }
            // Every landing square, each searched once; the ends wait until it is known
            // whether some landing can go on.
            let mark = self.pending.len();
            let mut first_dirs = 0u8;
            let mut goes_on = false;
            let mut j = 0;
            while !land.is_zero() {
                let to = land.lowest();
                let found_here = if j == 0 {
                    let f = self.king(to, next, Some(d), None);
                    first_dirs = f;
                    f != 0
                } else {
                    // Going straight on from here meets what the first landing meets.
                    self.king(to, next, Some(d), Some(d)) != 0 || first_dirs & (1 << d) != 0
                };
                if found_here {
                    goes_on = true;
                } else if !goes_on {
                    self.pending.push((to as u8, next));
                }
                land = land.shift(off).and(free_after);
                j += 1;
            }
            if goes_on {
                self.pending.truncate(mark);
            } else {
                if self.t.halt && !sq.and(self.enemy_kings).is_zero() {
                    // The killer rule: the capture ends here with a king taken, so the king
                    // stops right behind it (the first landing, pushed first).
                    self.pending.truncate(mark + 1);
                }
                for k in mark..self.pending.len() {
                    let (to, seq) = self.pending[k];
                    self.record(to, true, seq);
                }
                self.pending.truncate(mark);
            }
        }
        found
    }
}

/// The capture moves of `p`: their number, and the moves themselves in `out` (cleared first;
/// best precedence only, each move once). With `COUNT`, the sequences of a single capture
/// that cannot go on are only counted when precedence does not tell them apart (free choice,
/// or the most pieces), and `out` holds the others. `SLOTS`: the length of the men's
/// direction loops ([`Tables::slots`]). `Err` when the search goes past the capture bound.
pub(super) fn captures<
    S: CellSet,
    const IMMEDIATE: bool,
    const FLYING: bool,
    const BEHIND: bool,
    const COUNT: bool,
    const SLOTS: usize,
>(
    t: &Tables<S>,
    p: &Pos<S>,
    out: &mut Vec<NarrowMove<S>>,
    limit: u32,
    spent: &mut u64,
) -> Result<u64, GenError> {
    out.clear();
    let me = p.side;
    let them = 1 - me;
    let enemy = p.men[them].or(p.kings[them]);
    let enemy_kings = p.kings[them];
    let all = p.occupied();
    let empty = t.cells.andn(all);
    let mc = &t.mc[me];
    // The first jump of every man at once, direction by direction: reach[i], the cells from
    // which a man jumps in slot i's direction (a victim next, a free cell behind); jumpers[i],
    // the men on them.
    let men = p.men[me];
    let targets = if t.men_take_kings {
        enemy
    } else {
        enemy.andn(enemy_kings)
    };
    let mut reach = [S::default(); SLOTS];
    let mut jumpers = [S::default(); SLOTS];
    let mut any = S::default();
    for i in 0..SLOTS {
        let off = mc.off[i];
        let r = targets.shift(-off).and(empty.shift(-2 * off)).and(mc.on[i]);
        reach[i] = r;
        let j = men.and(r);
        any = any.or(j);
        jumpers[i] = j;
    }
    let any = !any.is_zero();
    let kings = p.kings[me];
    if !any && kings.is_zero() {
        return Ok(0);
    }
    // Single captures that cannot go on, when precedence cannot tell them apart: found by set
    // operations, one direction at a time. A man that has jumped in one direction can go on in
    // another one that is not back (the piece it took stands there or, removed, leaves it its
    // own start square, which it cannot jump onto) if a victim is next to its landing cell
    // with a free cell behind. Landings on a promotion square, and those that can go on, are
    // searched.
    let simple = t.key_kind != KeyKind::General;
    let mut singles = [S::default(); SLOTS];
    let mut single_count = 0u64;
    let mut search = !kings.is_zero();
    if any && simple {
        for i in 0..SLOTS {
            let j = jumpers[i];
            if j.is_zero() {
                continue;
            }
            let off = mc.off[i];
            let lands = j.shift(2 * off);
            let back = mc.back[i] as usize;
            let mut goes_on = S::default();
            for (k, r) in reach.iter().enumerate() {
                if k != back {
                    goes_on = goes_on.or(*r);
                }
            }
            let done = lands.andn(goes_on).andn(t.promo[me]);
            singles[i] = done;
            single_count += done.count() as u64;
            let left = j.andn(done.shift(-2 * off));
            jumpers[i] = left;
            search |= !left.is_zero();
        }
    } else {
        search = true;
    }
    if !search {
        // Only single captures: nothing to search, nothing to compare.
        if !COUNT {
            push_singles(mc, &singles, out);
            return Ok(out.len() as u64);
        }
        return Ok(single_count);
    }
    let mut c = Captures::<S, IMMEDIATE, FLYING, BEHIND> {
        t,
        me,
        enemy,
        enemy_kings,
        occ: all,
        from: 0,
        start_king: false,
        best: 0,
        steps: 0,
        out,
        pending: Vec::new(),
    };
    let seq = Seq {
        captured: S::default(),
        n: 0,
        kings: 0,
        mask: 0,
        value: 0,
    };
    if any {
        c.start_king = false;
        for i in 0..SLOTS {
            let mut j = jumpers[i];
            let off = mc.off[i];
            let d = mc.dir[i] as usize;
            while !j.is_zero() {
                let from = j.lowest();
                j = j.rest();
                let b = S::bit(from);
                c.from = from as u8;
                c.occ = all.andn(b);
                let over = b.shift(off);
                c.man_lands(over.shift(off), over, d, seq);
            }
        }
    }
    let mut kings = kings;
    while !kings.is_zero() {
        let from = kings.lowest();
        kings = kings.rest();
        c.from = from as u8;
        c.start_king = true;
        c.occ = all.andn(S::bit(from));
        c.king(from, seq, None, None);
        if c.steps > limit {
            *spent += c.steps as u64;
            return Err(GenError::CaptureLimit { limit });
        }
    }
    *spent += c.steps as u64;
    if c.steps > limit {
        return Err(GenError::CaptureLimit { limit });
    }
    // The single captures, if precedence keeps them: their key is that of one man taken.
    if single_count > 0 {
        let key = match t.key_kind {
            KeyKind::Free => 0,
            _ => 1,
        };
        if key > c.best {
            c.best = key;
            c.out.clear();
        }
        if key < c.best {
            single_count = 0;
        } else if !COUNT {
            push_singles(mc, &singles, c.out);
            single_count = 0;
        }
    }
    // Routes with the same identity are one move.
    if out.len() > 1 {
        out.sort_unstable();
        out.dedup_by(|a, b| a.same(b));
    }
    Ok(single_count + out.len() as u64)
}

/// The single captures found by set operations ([`captures`]) into `out` (appended).
pub(super) fn push_singles<S: CellSet, const SLOTS: usize>(
    mc: &Slots<S>,
    singles: &[S; SLOTS],
    out: &mut Vec<NarrowMove<S>>,
) {
    for i in 0..SLOTS {
        let off = mc.off[i];
        let mut done = singles[i];
        while !done.is_zero() {
            let to = done.lowest();
            done = done.rest();
            let land = S::bit(to);
            out.push(NarrowMove {
                from: (to as i32 - 2 * off) as u8,
                to: to as u8,
                captured: land.shift(-off),
                king: false,
                becomes_king: false,
            });
        }
    }
}
