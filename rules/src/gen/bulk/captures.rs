//! The capture search of the narrow generator: short and flying pieces, both removal
//! timings, mid-capture promotion and precedence.

use super::moves::{NarrowMove, Pos};
use super::tables::{Slots, Tables};
use crate::bits::CellSet;
use crate::board::Dir;
use crate::budget::GenError;
use crate::rules::MidCapturePromotion;

/// What a capture sequence has taken so far.
#[derive(Clone, Copy)]
pub(super) struct Seq<S> {
    pub(super) captured: S,
    pub(super) n: u32,
    /// The precedence key ([`super::tables::Keys`]), the capturing piece's part included.
    pub(super) key: u64,
}

/// The capture search of one position: every piece of the side to move in turn. With
/// `COUNT`, the sequences no other route can duplicate are counted without building their
/// moves ([`Captures::counted`]).
pub(super) struct Captures<
    'a,
    S,
    const IMMEDIATE: bool,
    const FLYING: bool,
    const BEHIND: bool,
    const COUNT: bool,
> {
    pub(super) t: &'a Tables<S>,
    pub(super) me: usize,
    pub(super) enemy_kings: S,
    /// The cells the capturing piece may pass or land on before it captures: every cell but
    /// those of the other pieces.
    pub(super) open: S,
    /// What a man may capture, and a king: the enemy pieces, or its men only.
    pub(super) prey: [S; 2],
    pub(super) from: u8,
    pub(super) start_king: bool,
    pub(super) best: u64,
    pub(super) steps: u32,
    pub(super) out: &'a mut Vec<NarrowMove<S>>,
    /// Sequences with the best key counted but not in `out` (`COUNT` only).
    pub(super) counted: u64,
    /// Ends found at the landings of the current flying jump, kept until it is known
    /// whether a landing can go on (then only those landings count).
    pub(super) pending: Vec<(u8, Seq<S>)>,
}

impl<
        'a,
        S: CellSet,
        const IMMEDIATE: bool,
        const FLYING: bool,
        const BEHIND: bool,
        const COUNT: bool,
    > Captures<'a, S, IMMEDIATE, FLYING, BEHIND, COUNT>
{
    /// Cells a capturing piece may pass or land on, given what it has captured.
    #[inline(always)]
    pub(super) fn free(&self, captured: S) -> S {
        if IMMEDIATE {
            self.open.or(captured)
        } else {
            self.open
        }
    }

    #[inline(always)]
    pub(super) fn victims(&self, captured: S, king: bool) -> S {
        self.prey[king as usize].andn(captured)
    }

    /// The sequence `s` with `victim` taken.
    #[inline(always)]
    pub(super) fn with(&self, s: Seq<S>, victim: S) -> Seq<S> {
        let keys = &self.t.keys;
        let add = if victim.and(self.enemy_kings).is_zero() {
            keys.man
        } else if s.n < 32 {
            keys.king.wrapping_add(keys.early << (31 - s.n))
        } else {
            keys.king
        };
        Seq {
            captured: s.captured.or(victim),
            n: s.n + 1,
            key: s.key.wrapping_add(add),
        }
    }

    /// Whether a sequence with the key `key` is kept: the best so far (the worse ones kept
    /// until now are dropped).
    #[inline(always)]
    fn keeps(&mut self, key: u64) -> bool {
        if key < self.best {
            return false;
        }
        if key > self.best {
            self.best = key;
            self.out.clear();
            self.counted = 0;
        }
        true
    }

    #[inline(always)]
    pub(super) fn record(&mut self, to: u8, becomes_king: bool, s: Seq<S>) {
        if !self.keeps(s.key) {
            return;
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
    ///
    /// The victims are found among the cells next to it (`Tables::man_next`), one table
    /// look-up for every direction at once, and each is jumped onto the cell behind it. A man
    /// never jumps back: the piece it has just taken is no victim any more.
    pub(super) fn man(&mut self, cur: S, s: Seq<S>) -> bool {
        self.steps += 1;
        let c = cur.lowest();
        let mut next =
            self.t.man_next[self.me][c as usize & 127].and(self.victims(s.captured, false));
        if next.is_zero() {
            return false;
        }
        let free = self.free(s.captured);
        let mut found = false;
        while !next.is_zero() {
            let v = next.lowest();
            next = next.rest();
            // The cell behind the victim, the same offset on.
            let land = S::bit(2 * v - c).and(free);
            if land.is_zero() {
                continue;
            }
            found = true;
            self.man_lands(land, S::bit(v), s);
        }
        found
    }

    /// A sequence of a man's jumps ends on `to`. With `COUNT`, one of one or two pieces is
    /// only counted: no other route makes its move. (A man's jump lands right behind its
    /// victim, so a route is fixed by its victims in order; the other order of two victims
    /// would have the same start and end only if the second jump went back over the first
    /// victim. A route through a crowning takes its first victim by the same jump, whose
    /// landing is then a promotion square, where the man's route does not stop.)
    #[inline(always)]
    fn man_ends(&mut self, to: u8, becomes_king: bool, s: Seq<S>) {
        if COUNT && s.n <= 2 {
            if self.keeps(s.key) {
                self.counted += 1;
            }
        } else {
            self.record(to, becomes_king, s);
        }
    }

    /// A man has jumped `over` onto `land`: the sequence goes on from there (as a man, or
    /// crowned as a king), or ends there.
    #[inline]
    pub(super) fn man_lands(&mut self, land: S, over: S, s: Seq<S>) {
        let next = self.with(s, over);
        let to = land.lowest() as u8;
        if !land.and(self.t.promo[self.me]).is_zero() {
            match self.t.mid {
                MidCapturePromotion::End => self.man_ends(to, true, next),
                MidCapturePromotion::Pass => {
                    if !self.man(land, next) {
                        self.man_ends(to, true, next);
                    }
                }
                MidCapturePromotion::KingContinue => {
                    // The direction of the jump, for the ban on turning back.
                    let off = to as i32 - over.lowest() as i32;
                    let d = (0..8).find(|&d| self.t.shift[d] == off);
                    if self.king(to as u32, next, d, None) == 0 {
                        self.record(to, true, next);
                    }
                }
            }
        } else if !self.man(land, next) {
            self.man_ends(to, false, next);
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
            let mut sq = start.rot(off).and(into);
            if FLYING {
                while !sq.and(free).is_zero() {
                    sq = sq.rot(off).and(into);
                }
            }
            if sq.and(victims).is_zero() {
                continue;
            }
            let next = self.with(s, sq);
            let free_after = self.free(next.captured).and(into);
            let mut land = sq.rot(off).and(free_after);
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
                land = land.rot(off).and(free_after);
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
/// best precedence only, each move once). With `COUNT`, the single captures found by set
/// operations are only counted, and `out` holds the others. `SLOTS`: the length of the men's
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
    // The first jump of every man at once, direction by direction: reach, the cells from
    // which a man jumps in some direction (a victim next, a free cell behind); jumpers[i],
    // the men that jump in slot i's direction.
    let men = p.men[me];
    let targets = if t.men_take_kings {
        enemy
    } else {
        enemy.andn(enemy_kings)
    };
    let mut reach = S::default();
    let mut jumpers = [S::default(); SLOTS];
    // The slots with jumpers, a bit each.
    let mut live = 0u32;
    for i in 0..SLOTS {
        // The victims with a free cell behind, moved back onto the cells a jump starts from
        // (`mc.on`, where the cells behind are on the board: others may wrap).
        let back = mc.neg[i];
        let r = targets.and(empty.rot(back)).rot(back).and(mc.on[i]);
        reach = reach.or(r);
        let j = men.and(r);
        jumpers[i] = j;
        live |= (!j.is_zero() as u32) << i;
    }
    let kings = p.kings[me];
    if live == 0 && kings.is_zero() {
        return Ok(0);
    }
    // Captures of a single piece by a man that cannot go on: found by set operations, one
    // direction at a time, and kept apart by the kind of piece taken where precedence tells
    // them apart (their keys: one man, or one king, taken by a man). A man that has jumped
    // can go on if its landing cell is in `reach`: from there the piece it took, or the cell
    // it left (which `reach` counts as occupied), is in the one direction back. Landings on a
    // promotion square, and those that can go on, are searched.
    let split = t.split_singles;
    let mut single = [[S::default(); SLOTS]; 2];
    let mut single_n = [0u64; 2];
    let mut search = !kings.is_zero();
    while live != 0 {
        let i = live.trailing_zeros() as usize % SLOTS;
        live &= live - 1;
        let j = jumpers[i];
        let off = mc.off[i];
        let done = j.rot(2 * off).andn(reach).andn(t.promo[me]);
        let (on_men, on_kings) = if split {
            let k = done.and(enemy_kings.rot(off));
            (done.andn(k), k)
        } else {
            (done, S::default())
        };
        if !COUNT {
            single[0][i] = on_men;
            single[1][i] = on_kings;
        }
        single_n[0] += few(on_men);
        single_n[1] += few(on_kings);
        let left = j.andn(done.rot(-2 * off));
        jumpers[i] = left;
        search |= !left.is_zero();
    }
    // The best key of the search and the sequences it counted without building their moves.
    let (mut best, mut counted) = (0u64, 0u64);
    if search {
        let mut c = Captures::<S, IMMEDIATE, FLYING, BEHIND, COUNT> {
            t,
            me,
            enemy_kings,
            open: t.cells.andn(all),
            prey: [
                targets,
                if t.kings_take_kings {
                    enemy
                } else {
                    enemy.andn(enemy_kings)
                },
            ],
            from: 0,
            start_king: false,
            best: 0,
            steps: 0,
            out: &mut *out,
            counted: 0,
            pending: Vec::new(),
        };
        let seq = Seq {
            captured: S::default(),
            n: 0,
            key: 0,
        };
        for i in 0..SLOTS {
            let mut j = jumpers[i];
            let off = mc.off[i];
            while !j.is_zero() {
                let from = j.lowest();
                j = j.rest();
                let b = S::bit(from);
                c.from = from as u8;
                c.open = t.cells.andn(all.andn(b));
                let over = b.rot(off);
                c.man_lands(over.rot(off), over, seq);
            }
        }
        let seq = Seq {
            key: t.keys.by_king,
            ..seq
        };
        let mut kings = kings;
        c.start_king = true;
        while !kings.is_zero() {
            let from = kings.lowest();
            kings = kings.rest();
            c.from = from as u8;
            c.open = t.cells.andn(all.andn(S::bit(from)));
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
        (best, counted) = (c.best, c.counted);
    }
    // The single captures, where precedence keeps them: those of the better key of the two
    // kinds, if it is no worse than the search's.
    let mut singles = 0u64;
    if single_n != [0, 0] {
        let [men_key, kings_key] = t.single_key;
        let top = if single_n[1] > 0 && (single_n[0] == 0 || kings_key > men_key) {
            kings_key
        } else {
            men_key
        };
        if top > best || out.is_empty() && counted == 0 {
            best = top;
            out.clear();
            counted = 0;
        }
        for kind in 0..2 {
            if single_n[kind] > 0 && t.single_key[kind] == best {
                if COUNT {
                    singles += single_n[kind];
                } else {
                    push_singles(mc, &single[kind], out);
                }
            }
        }
    }
    // Routes with the same identity are one move.
    if out.len() > 1 {
        out.sort_unstable();
        out.dedup_by(|a, b| a.same(b));
    }
    Ok(singles + counted + out.len() as u64)
}

/// The number of cells of a set that has few (a bit at a time: cheaper than a population
/// count without the processor's instruction, for the one or two of most sets).
#[inline(always)]
fn few<S: CellSet>(mut s: S) -> u64 {
    let mut n = 0;
    while !s.is_zero() {
        n += 1;
        s = s.rest();
    }
    n
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
                captured: land.rot(-off),
                king: false,
                becomes_king: false,
            });
        }
    }
}
