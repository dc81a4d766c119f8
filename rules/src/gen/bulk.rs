//! The generator on narrow cell sets, with bulk counting: the fast path of perft.
//!
//! The same rules as the other generators, read from the same ruleset data, on a position held
//! in cell sets of the board's own width ([`CellSet`]: one machine word for every board of up to
//! 64 cell ids, two for up to 128), monomorphised over that width, the capture removal
//! (deferred or immediate) and the king's reach (short, or flying), and chosen once per variant
//! ([`Bulk::of`]) from ruleset *properties*, never from a variant's id.
//!
//! What makes it fast:
//! - every piece set is one or two machine words; a step or a jump of every man at once is a
//!   shift of a set (the board's padded layout makes each direction a constant shift);
//! - at the last ply perft counts the moves without making them: quiet moves by popcounts of
//!   shifted sets, captures by their search, collapsed to distinct moves by a sort;
//! - a flying king finds its victim by stepping a one-bit set along the direction, and searches
//!   each landing square once: a landing's continuations are looked for as it is explored, and
//!   the landing rule (`diagonal.md` §1.1 rule 6: land where the capture can go on, if it can
//!   anywhere) is applied afterwards, by dropping the ends recorded at landings that cannot;
//! - capture precedence is one integer key per sequence, compiled from the ruleset's
//!   precedence list, so only sequences with the best key are kept.
//!
//! It serves the rulesets made of men and kings that step, slide, and capture by short or
//! flying leaps, with either removal timing, any mid-capture promotion and precedence, and the
//! Turkish ban on turning back. Variants with another mechanism (parachutists, drops,
//! removals, line moves, end rules, the Frisian king-move limit, Killer's halt, the no-return
//! rule, step-only links, graph boards without constant shifts) are counted by the general
//! generator; both are checked against each other on random positions of every variant
//! (`tests/bulk.rs`) and against the published perft tables.

// The direction loops index several parallel arrays by slot.
#![allow(clippy::needless_range_loop)]

use crate::bits::Bits;
use crate::board::{Dir, DIRS};
use crate::budget::GenError;
use crate::gen::DEFAULT_CAPTURE_LIMIT;
use crate::position::{Color, Kind, Position};
use crate::rules::{Goal, Landing, MidCapturePromotion, PieceRules, Precedence, Range, Reach};
use crate::rules::{Removal, Rules};

/// A set of cells in one or two machine words.
pub trait CellSet: Copy + Eq + Ord + Default + Send + Sync + std::fmt::Debug + 'static {
    /// How many cell ids the set holds.
    const CELLS: usize;
    fn from_bits(b: Bits) -> Self;
    fn to_bits(self) -> Bits;
    fn bit(i: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn andn(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// Every cell moved by `off` ids (positive: up); cells leaving the set are dropped.
    fn shift(self, off: i32) -> Self;
    fn count(self) -> u32;
    fn is_zero(self) -> bool;
    /// The lowest cell (the set must not be empty).
    fn lowest(self) -> u32;
    /// The set without its lowest cell.
    fn rest(self) -> Self;
}

impl CellSet for u64 {
    const CELLS: usize = 64;
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        b.words()[0]
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        let mut w = [0u64; crate::bits::WORDS];
        w[0] = self;
        Bits::from_words(w)
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        1u64 << i
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn shift(self, off: i32) -> Self {
        if off >= 0 {
            self << off
        } else {
            self >> -off
        }
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn rest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

impl CellSet for u128 {
    const CELLS: usize = 128;
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        let w = b.words();
        w[0] as u128 | (w[1] as u128) << 64
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        let mut w = [0u64; crate::bits::WORDS];
        w[0] = self as u64;
        w[1] = (self >> 64) as u64;
        Bits::from_words(w)
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        1u128 << i
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn shift(self, off: i32) -> Self {
        if off >= 0 {
            self << off
        } else {
            self >> -off
        }
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn rest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

/// The ruleset, compiled for the narrow generator.
#[derive(Clone, Debug)]
pub struct Tables<S> {
    cells: S,
    promo: [S; 2],
    /// Id offset of each direction (0: the board has no link that way).
    shift: [i32; DIRS],
    man_move: [u8; 2],
    man_cap: [u8; 2],
    /// The men's capture directions as slots (the first `slots` used; an unused slot has
    /// offset 0 and an empty mask), so that the hot loops run a fixed number of times.
    mc: [Slots<S>; 2],
    /// The men's quiet directions, as slots.
    mm: [Slots<S>; 2],
    /// How many slots the direction loops run: 4 when the men have at most 4 capture and 4
    /// move directions, else 8.
    slots: usize,
    king_move: [u8; 2],
    king_cap: [u8; 2],
    men_take_kings: bool,
    kings_take_kings: bool,
    king_slides: bool,
    mid: MidCapturePromotion,
    no_reversal: bool,
    precedence: Vec<Precedence>,
    /// The precedence compiled: free choice, most pieces, or the general key.
    key_kind: KeyKind,
    /// Values of a captured man and king, for value precedence.
    value: (u32, u32),
}

/// Directions as slots: offsets, directions, masks (every cell for a used slot, none for an
/// unused one) and the slot of the opposite direction (8: none).
#[derive(Clone, Copy, Debug)]
struct Slots<S> {
    off: [i32; 8],
    dir: [u8; 8],
    on: [S; 8],
    back: [u8; 8],
}

impl<S: CellSet> Slots<S> {
    fn of(dirs: u8, shift: &[i32; DIRS], cells: S) -> Slots<S> {
        let mut s = Slots {
            off: [0; 8],
            dir: [0; 8],
            on: [S::default(); 8],
            back: [8; 8],
        };
        let list: Vec<usize> = (0..DIRS).filter(|d| dirs & (1 << d) != 0).collect();
        for (i, &d) in list.iter().enumerate() {
            s.off[i] = shift[d];
            s.dir[i] = d as u8;
            s.on[i] = cells;
            let back = Dir::ALL[d].opposite() as usize;
            if let Some(j) = list.iter().position(|&e| e == back) {
                s.back[i] = j as u8;
            }
        }
        s
    }
}

/// How capture sequences are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyKind {
    /// Free choice: every complete sequence is legal.
    Free,
    /// The most pieces captured.
    Count,
    /// The general key of the precedence list.
    General,
}

/// The narrow generator chosen for a variant, by the width of its board.
#[derive(Clone, Debug)]
pub enum Bulk {
    /// Boards of up to 64 cell ids (every 8×8 and 10×10 board of dark squares).
    Word(Box<Tables<u64>>),
    /// Boards of up to 128 cell ids (12×12, full 8×8 boards).
    TwoWords(Box<Tables<u128>>),
}

/// Whether a piece kind's rules are within the narrow generator's reach.
fn plain(p: &PieceRules, becomes: Kind) -> bool {
    p.max_jumps == 0 && !p.halt_behind_last_king && p.after_capture == becomes
}

impl Bulk {
    /// The narrow generator for `rules` on `board`, if the ruleset uses only what it does
    /// (see the module documentation).
    pub fn of(board: &crate::board::Board, rules: &Rules, promo: [Bits; 2]) -> Option<Bulk> {
        let shifts = board.shifts()?;
        let man = rules.piece(Kind::Man);
        let king = rules.piece(Kind::King);
        let para = rules.piece(Kind::Parachutist);
        let ok = board.step_only().is_empty()
            && *para == PieceRules::ABSENT
            && man.range == Range::Step
            && man.reach == Reach::Short
            && plain(man, Kind::Man)
            && matches!(king.range, Range::Step | Range::Slide)
            && (*king == PieceRules::ABSENT || plain(king, Kind::King))
            && !rules.straight_captures
            && !rules.capture_may_stop
            && !rules.first_jump_along_moves
            && !rules.no_return
            && rules.opening_removals.is_empty()
            && rules.stones_in_hand == 0
            && !rules.far_rank_frozen
            && rules.king_quiet_limit == 0
            && rules.ends.is_empty()
            && rules.goal != Goal::NoMovesPasses;
        if !ok {
            return None;
        }
        let mut shift = [0i32; DIRS];
        for d in 0..DIRS {
            if shifts[d] != i16::MAX {
                shift[d] = shifts[d] as i32;
            }
        }
        let value = rules
            .precedence
            .iter()
            .find_map(|p| match p {
                Precedence::Value { man, king } => Some((*man as u32, *king as u32)),
                _ => None,
            })
            .unwrap_or((0, 0));
        fn tables<S: CellSet>(
            board: &crate::board::Board,
            rules: &Rules,
            promo: [Bits; 2],
            shift: [i32; DIRS],
            value: (u32, u32),
        ) -> Tables<S> {
            let man = rules.piece(Kind::Man);
            let king = rules.piece(Kind::King);
            // Only directions the board has links for.
            let linked: u8 = (0..DIRS)
                .filter(|&d| shift[d] != 0)
                .fold(0, |m, d| m | 1 << d);
            let cells = S::from_bits(board.cells());
            let man_move = man.moves.map(|d| d.0 & linked);
            let man_cap = man.captures.map(|d| d.0 & linked);
            let widest = man_move
                .iter()
                .chain(man_cap.iter())
                .map(|m| m.count_ones())
                .max()
                .unwrap_or(0);
            Tables {
                mc: man_cap.map(|d| Slots::of(d, &shift, cells)),
                mm: man_move.map(|d| Slots::of(d, &shift, cells)),
                slots: if widest <= 4 { 4 } else { 8 },
                cells,
                promo: promo.map(S::from_bits),
                shift,
                man_move,
                man_cap,
                king_move: king.moves.map(|d| d.0 & linked),
                king_cap: king.captures.map(|d| d.0 & linked),
                men_take_kings: man.captures_kings,
                kings_take_kings: king.captures_kings,
                king_slides: king.range == Range::Slide,
                mid: rules.mid_capture_promotion,
                no_reversal: rules.no_reversal,
                precedence: rules.precedence.clone(),
                key_kind: match rules.precedence.as_slice() {
                    [] => KeyKind::Free,
                    [Precedence::Count] => KeyKind::Count,
                    _ => KeyKind::General,
                },
                value,
            }
        }
        let ids = board.id_bound();
        if ids <= 64 {
            Some(Bulk::Word(Box::new(tables::<u64>(
                board, rules, promo, shift, value,
            ))))
        } else if ids <= 128 {
            Some(Bulk::TwoWords(Box::new(tables::<u128>(
                board, rules, promo, shift, value,
            ))))
        } else {
            None
        }
    }
}

/// A position of the narrow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos<S> {
    men: [S; 2],
    kings: [S; 2],
    side: usize,
}

impl<S: CellSet> Pos<S> {
    fn of(p: &Position) -> Pos<S> {
        Pos {
            men: Color::BOTH.map(|c| S::from_bits(p.pieces(c, Kind::Man))),
            kings: Color::BOTH.map(|c| S::from_bits(p.pieces(c, Kind::King))),
            side: p.side() as usize,
        }
    }

    #[inline(always)]
    fn occupied(&self) -> S {
        self.men[0]
            .or(self.men[1])
            .or(self.kings[0])
            .or(self.kings[1])
    }
}

/// A move of the narrow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NarrowMove<S> {
    pub from: u8,
    pub to: u8,
    pub captured: S,
    /// The moving piece is a king.
    pub king: bool,
    /// The moving piece is a king after the move (a crowned man, or a king).
    pub becomes_king: bool,
}

impl<S: CellSet> NarrowMove<S> {
    /// The identity of the move, for collapsing routes into moves.
    #[inline(always)]
    fn same(&self, o: &Self) -> bool {
        self.from == o.from
            && self.to == o.to
            && self.captured == o.captured
            && self.becomes_king == o.becomes_king
    }
}

#[inline(always)]
fn play<S: CellSet>(p: &Pos<S>, m: &NarrowMove<S>) -> Pos<S> {
    let mut q = *p;
    let me = p.side;
    let them = 1 - me;
    let from = S::bit(m.from as u32);
    let to = S::bit(m.to as u32);
    if m.king {
        q.kings[me] = q.kings[me].xor(from).or(to);
    } else {
        q.men[me] = q.men[me].xor(from);
        if m.becomes_king {
            q.kings[me] = q.kings[me].or(to);
        } else {
            q.men[me] = q.men[me].or(to);
        }
    }
    if !m.captured.is_zero() {
        q.men[them] = q.men[them].andn(m.captured);
        q.kings[them] = q.kings[them].andn(m.captured);
    }
    q.side = them;
    q
}

/// What a capture sequence has taken so far.
#[derive(Clone, Copy)]
struct Seq<S> {
    captured: S,
    n: u32,
    kings: u32,
    /// Bit `31 - i` set when the `i`-th captured piece is a king.
    mask: u32,
    value: u32,
}

/// The capture search of one position: every piece of the side to move in turn.
struct Captures<'a, S, const IMMEDIATE: bool, const FLYING: bool, const BEHIND: bool> {
    t: &'a Tables<S>,
    me: usize,
    enemy: S,
    enemy_kings: S,
    /// Every piece but the capturing one.
    occ: S,
    from: u8,
    start_king: bool,
    best: u64,
    steps: u32,
    out: &'a mut Vec<NarrowMove<S>>,
    /// Ends found at the landings of the current flying jump, kept until it is known
    /// whether a landing can go on (then only those landings count).
    pending: Vec<(u8, Seq<S>)>,
}

impl<'a, S: CellSet, const IMMEDIATE: bool, const FLYING: bool, const BEHIND: bool>
    Captures<'a, S, IMMEDIATE, FLYING, BEHIND>
{
    /// Cells a capturing piece may pass or land on, given what it has captured.
    #[inline(always)]
    fn free(&self, captured: S) -> S {
        if IMMEDIATE {
            self.t.cells.andn(self.occ.andn(captured))
        } else {
            self.t.cells.andn(self.occ)
        }
    }

    #[inline(always)]
    fn victims(&self, captured: S, king: bool) -> S {
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
    fn with(&self, s: Seq<S>, victim: S) -> Seq<S> {
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
    fn key(&self, s: &Seq<S>) -> u64 {
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
    fn record(&mut self, to: u8, becomes_king: bool, s: Seq<S>) {
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
    fn after(&self, dirs: u8, last: Option<usize>) -> u8 {
        match last {
            Some(l) if self.t.no_reversal => dirs & !(1 << Dir::ALL[l].opposite() as u8),
            _ => dirs,
        }
    }

    /// A man on `cur` extends the sequence `s`; returns whether it could capture again.
    fn man(&mut self, cur: S, s: Seq<S>, last: Option<usize>) -> bool {
        self.steps += 1;
        let mut found = false;
        let mut dirs = self.after(self.t.man_cap[self.me], last);
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
    fn man_lands(&mut self, land: S, over: S, d: usize, s: Seq<S>) {
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
    fn king(&mut self, cur: u32, s: Seq<S>, last: Option<usize>, straight: Option<usize>) -> u8 {
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
            let mut sq = start.shift(off).and(self.t.cells);
            if FLYING {
                while !sq.and(free).is_zero() {
                    sq = sq.shift(off).and(self.t.cells);
                }
            }
            if sq.and(victims).is_zero() {
                continue;
            }
            let next = self.with(s, sq);
            let free_after = self.free(next.captured);
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
                let ends: Vec<(u8, Seq<S>)> = self.pending.drain(mark..).collect();
                for (to, seq) in ends {
                    self.record(to, true, seq);
                }
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
fn captures<
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
fn push_singles<S: CellSet, const SLOTS: usize>(
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

/// The quiet moves of `p` into `out` (appended).
fn quiet<S: CellSet>(t: &Tables<S>, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) {
    let me = p.side;
    let empty = t.cells.andn(p.occupied());
    let promo = t.promo[me];
    let mut dirs = t.man_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let mut to = p.men[me].shift(off).and(empty);
        while !to.is_zero() {
            let c = to.lowest();
            to = to.rest();
            out.push(NarrowMove {
                from: (c as i32 - off) as u8,
                to: c as u8,
                captured: S::default(),
                king: false,
                becomes_king: !promo.and(S::bit(c)).is_zero(),
            });
        }
    }
    let mut dirs = t.king_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let mut kings = p.kings[me];
        while !kings.is_zero() {
            let from = kings.lowest();
            kings = kings.rest();
            let mut sq = S::bit(from).shift(off).and(empty);
            while !sq.is_zero() {
                out.push(NarrowMove {
                    from: from as u8,
                    to: sq.lowest() as u8,
                    captured: S::default(),
                    king: true,
                    becomes_king: true,
                });
                if !t.king_slides {
                    break;
                }
                sq = sq.shift(off).and(empty);
            }
        }
    }
}

/// The number of quiet moves of `p`, by popcounts.
#[inline(always)]
fn count_quiet<S: CellSet, const SLOTS: usize>(t: &Tables<S>, p: &Pos<S>) -> u64 {
    let me = p.side;
    let empty = t.cells.andn(p.occupied());
    let mut n = 0u64;
    let mm = &t.mm[me];
    let men = p.men[me];
    for i in 0..SLOTS {
        let to = men.shift(mm.off[i]).and(empty).and(mm.on[i]);
        if !to.is_zero() {
            n += to.count() as u64;
        }
    }
    let kings = p.kings[me];
    if kings.is_zero() {
        return n;
    }
    let mut dirs = t.king_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let mut k = kings.shift(off).and(empty);
        while !k.is_zero() {
            n += k.count() as u64;
            if !t.king_slides {
                break;
            }
            k = k.shift(off).and(empty);
        }
    }
    n
}

/// A perft of the narrow generator, for one choice of the monomorphised properties.
struct Walk<
    'a,
    S,
    const IMMEDIATE: bool,
    const FLYING: bool,
    const BEHIND: bool,
    const SLOTS: usize,
> {
    t: &'a Tables<S>,
    /// Capture-search steps allowed per position.
    limit: u32,
    /// Capture-search steps taken.
    spent: std::cell::Cell<u64>,
}

impl<
        S: CellSet,
        const IMMEDIATE: bool,
        const FLYING: bool,
        const BEHIND: bool,
        const SLOTS: usize,
    > Walk<'_, S, IMMEDIATE, FLYING, BEHIND, SLOTS>
{
    fn moves(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<(), GenError> {
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
    fn count(&self, p: &Pos<S>, out: &mut Vec<NarrowMove<S>>) -> Result<u64, GenError> {
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
    fn walk(&self, p: &Pos<S>, buffers: &mut [Vec<NarrowMove<S>>]) -> Result<u64, GenError> {
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

fn perft_on<S: CellSet>(
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

fn count_moves_on<S: CellSet>(
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

fn legal_moves_on<S: CellSet>(
    t: &Tables<S>,
    rules: &Rules,
    pos: &Position,
) -> Result<Vec<crate::moves::Move>, GenError> {
    let p = Pos::<S>::of(pos);
    let mut out = Vec::new();
    let immediate = rules.removal == Removal::Immediate;
    let r = match (immediate, rules.piece(Kind::King).reach) {
        (false, Reach::Short) => captures::<S, false, false, false, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
        (false, Reach::Flying(Landing::Any)) => captures::<S, false, true, false, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
        (false, Reach::Flying(Landing::Behind)) => captures::<S, false, true, true, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
        (true, Reach::Short) => captures::<S, true, false, false, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
        (true, Reach::Flying(Landing::Any)) => captures::<S, true, true, false, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
        (true, Reach::Flying(Landing::Behind)) => captures::<S, true, true, true, false, 8>(
            t,
            &p,
            &mut out,
            DEFAULT_CAPTURE_LIMIT,
            &mut 0,
        ),
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
