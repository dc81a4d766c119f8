//! The ruleset compiled for the narrow generator ([`Tables`]), and the choice of a
//! variant's narrow generator ([`Bulk::of`]).

use super::layout::Layout;
use super::moves::Pos;
use super::Bulk;
use crate::bits::Bits;
use crate::bits::CellSet;
use crate::board::{Board, Dir, DIRS};
use crate::ends::EndKind;
use crate::position::Kind;
use crate::rules::Rules;
use crate::rules::{Goal, MidCapturePromotion, PieceRules, Precedence, Range, Reach};

/// The ruleset, compiled for the narrow generator.
#[derive(Clone, Debug)]
pub struct Tables<S> {
    /// Where each cell is kept ([`Layout`]).
    pub(super) layout: Layout,
    pub(super) cells: S,
    /// The cells a step in each direction can reach (the cells whose neighbour the other way
    /// links to them): a set moved one step is masked with it, so that no cell wraps onto
    /// another row in a compact layout.
    pub(super) into: [S; DIRS],
    pub(super) promo: [S; 2],
    /// Id offset of each direction (0: the board has no link that way).
    pub(super) shift: [i32; DIRS],
    pub(super) man_move: [u8; 2],
    /// The men's capture directions as slots (the first `slots` used; an unused slot has
    /// offset 0 and an empty mask), so that the hot loops run a fixed number of times. The
    /// mask of a capture slot is the cells a jump that way can start from; of a quiet slot,
    /// the cells a step that way can reach.
    pub(super) mc: [Slots<S>; 2],
    /// The men's quiet directions, as slots.
    pub(super) mm: [Slots<S>; 2],
    /// How many slots the direction loops run: 4 when the men have at most 4 capture and 4
    /// move directions, else 8.
    pub(super) slots: usize,
    /// How many of them the men's quiet directions take: 4 when they have at most 4.
    pub(super) quiet_slots: usize,
    pub(super) king_move: [u8; 2],
    pub(super) king_cap: [u8; 2],
    pub(super) men_take_kings: bool,
    pub(super) kings_take_kings: bool,
    pub(super) king_slides: bool,
    pub(super) mid: MidCapturePromotion,
    pub(super) no_reversal: bool,
    /// The precedence compiled ([`Keys`]).
    pub(super) keys: Keys,
    /// The keys of a man's capture of one man, and of one king.
    pub(super) single_key: [u64; 2],
    /// Whether they differ (and men may take kings): the single captures are then counted
    /// by the kind of piece taken.
    pub(super) split_singles: bool,
    /// The killer rule: a flying king whose capture ends with a king taken stops right
    /// behind it.
    pub(super) halt: bool,
    /// The ruleset's end rules, each a test of the piece sets.
    pub(super) ends: Ends,
    /// The king-move limit: non-capturing moves in a row by one king while its side has men
    /// (0: none).
    pub(super) king_limit: u8,
    /// For each side and narrow id, the cells next to it that a man there could capture on
    /// (in one of its capture directions, with a cell behind).
    pub(super) man_next: [[S; 128]; 2],
}

/// The precedence list compiled into one integer key per capture sequence, the sum of what
/// each captured piece and the capturing piece add, so that a sequence's key grows as it is
/// searched and precedence is one comparison.
///
/// The list ranks sequences by its keys in turn, each within a field of fixed width above
/// the fields of the keys after it: the number of pieces (8 bits), their value (16), a king
/// capturing (1), the number of kings (8), the kings' places in the sequence (32, bit 31 − i
/// for the i-th piece). Every field is a sum over the captured pieces (or the capturing
/// one), so the key is: pieces × `man` or `king` each, plus `by_king` for a king capturing,
/// plus `early` shifted by 31 − i for a king taken i-th. An empty list (free choice) gives
/// every sequence the key 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Keys {
    /// What a captured man adds.
    pub(super) man: u64,
    /// What a captured king adds (before `early`).
    pub(super) king: u64,
    /// What a capture by a king adds.
    pub(super) by_king: u64,
    /// The unit of the kings-earliest field (0: not in the list).
    pub(super) early: u64,
}

impl Keys {
    pub(super) fn of(list: &[Precedence]) -> Keys {
        let mut k = Keys::default();
        let mut at = 0u32;
        // Fields past the 64th bit are cut off, as in a key built by shifting.
        let add = |to: &mut u64, n: u64, unit: u64| *to = to.wrapping_add(n.wrapping_mul(unit));
        for p in list.iter().rev() {
            let unit = 1u64.checked_shl(at).unwrap_or(0);
            at += match *p {
                Precedence::Count => {
                    add(&mut k.man, 1, unit);
                    add(&mut k.king, 1, unit);
                    8
                }
                Precedence::Value { man, king } => {
                    add(&mut k.man, man as u64, unit);
                    add(&mut k.king, king as u64, unit);
                    16
                }
                Precedence::ByKing => {
                    add(&mut k.by_king, 1, unit);
                    1
                }
                Precedence::KingsCaptured => {
                    add(&mut k.king, 1, unit);
                    8
                }
                Precedence::KingsEarly => {
                    add(&mut k.early, 1, unit);
                    32
                }
            };
        }
        k
    }
}

/// The end rules the narrow generator knows: a position they decide has no moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Ends {
    /// A king on the board: the side that crowned it has won (`FirstKingWins`).
    pub(super) any_king: bool,
    /// A lone king against a lone man (`LoneKingBeatsLoneMan`).
    pub(super) king_against_man: bool,
    /// A lone king each (`LoneKingsDraw`).
    pub(super) king_against_king: bool,
}

impl Ends {
    /// Whether there is any (the walks of rulesets without end rules test none).
    pub(super) fn any(&self) -> bool {
        *self != Ends::default()
    }

    /// The end rules of `rules`, if the narrow generator knows every one.
    ///
    /// The tests are those of `crate::ends::decide`, on the narrow sets.
    fn of(rules: &Rules) -> Option<Ends> {
        let mut e = Ends::default();
        for r in &rules.ends {
            match r.kind {
                EndKind::FirstKingWins => e.any_king = true,
                EndKind::LoneKingBeatsLoneMan => e.king_against_man = true,
                EndKind::LoneKingsDraw => e.king_against_king = true,
                _ => return None,
            }
        }
        Some(e)
    }
}

impl<S: CellSet> Tables<S> {
    /// Whether an end rule has decided `p` (then it has no moves). Only the walks of rulesets
    /// with end rules ask.
    #[inline(never)]
    pub(super) fn decided(&self, p: &Pos<S>) -> bool {
        let single = |s: S| !s.is_zero() && s.rest().is_zero();
        let kings = p.kings[0].or(p.kings[1]);
        if self.ends.any_king && !kings.is_zero() {
            return true;
        }
        let lone_king = |c: usize| single(p.kings[c]) && p.men[c].is_zero();
        let lone_man = |c: usize| single(p.men[c]) && p.kings[c].is_zero();
        (self.ends.king_against_man
            && ((lone_king(0) && lone_man(1)) || (lone_man(0) && lone_king(1))))
            || (self.ends.king_against_king && lone_king(0) && lone_king(1))
    }
}

/// Directions as slots: offsets each way and masks (for a used slot, the cells the mask is
/// of; none for an unused one, whose offsets are 0).
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots<S> {
    pub(super) off: [i32; 8],
    /// The offsets the other way.
    pub(super) neg: [i32; 8],
    pub(super) on: [S; 8],
}

impl<S: CellSet> Slots<S> {
    pub(super) fn of(dirs: u8, shift: &[i32; DIRS], mask: &[S; DIRS]) -> Slots<S> {
        let mut s = Slots {
            off: [0; 8],
            neg: [0; 8],
            on: [S::default(); 8],
        };
        let used = (0..DIRS).filter(|d| dirs & (1 << d) != 0);
        for (i, d) in used.enumerate() {
            s.off[i] = shift[d];
            s.neg[i] = -shift[d];
            s.on[i] = mask[d];
        }
        s
    }
}

/// Whether a piece kind's rules are within the narrow generator's reach. The killer rule
/// (`halt_behind_last_king`) is: a short piece lands right behind its victim anyway, and a
/// flying king's is [`Tables::halt`].
pub(super) fn plain(p: &PieceRules, becomes: Kind) -> bool {
    p.max_jumps == 0 && p.after_capture == becomes
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
            && !rules.leaps()
            && rules.castles.is_none()
            && rules.goal != Goal::NoMovesPasses;
        if !ok {
            return None;
        }
        let ends = Ends::of(rules)?;
        let mut shift = [0i32; DIRS];
        for d in 0..DIRS {
            if shifts[d] != i16::MAX {
                shift[d] = shifts[d] as i32;
            }
        }
        let ids = board.id_bound();
        let mut layout = Layout::same(board);
        if ids > 64 {
            if let Some((compact, offsets)) = Layout::compact(board) {
                layout = compact;
                shift = offsets;
            }
        }
        fn tables<S: CellSet>(
            board: &Board,
            rules: &Rules,
            promo: [Bits; 2],
            layout: Layout,
            shift: [i32; DIRS],
            ends: Ends,
        ) -> Tables<S> {
            let man = rules.piece(Kind::Man);
            let king = rules.piece(Kind::King);
            // Only directions the board has links for.
            let linked: u8 = (0..DIRS)
                .filter(|&d| shift[d] != 0)
                .fold(0, |m, d| m | 1 << d);
            let cells: S = layout.set(board.cells());
            // The cells a step reaches, and those a jump (two steps) starts from, per direction.
            let mut into = [Bits::EMPTY; DIRS];
            let mut jumps = [Bits::EMPTY; DIRS];
            let mut man_next = [[S::default(); 128]; 2];
            for c in board.cells().iter() {
                for d in Dir::ALL {
                    let to = board.next(c, d);
                    if to == crate::board::NONE {
                        continue;
                    }
                    let i = d as usize;
                    into[i].insert(to as usize);
                    if board.next(to as usize, d) != crate::board::NONE {
                        jumps[i].insert(c);
                        for side in 0..2 {
                            if man.captures[side].0 & linked & 1 << i != 0 {
                                let n = &mut man_next[side][layout.id(c)];
                                *n = n.with(layout.id(to as usize));
                            }
                        }
                    }
                }
            }
            let into = into.map(|b| layout.set::<S>(b));
            let jumps = jumps.map(|b| layout.set::<S>(b));
            let man_move = man.moves.map(|d| d.0 & linked);
            let man_cap = man.captures.map(|d| d.0 & linked);
            let widest = man_move
                .iter()
                .chain(man_cap.iter())
                .map(|m| m.count_ones())
                .max()
                .unwrap_or(0);
            let keys = Keys::of(&rules.precedence);
            let single_key = [keys.man, keys.king.wrapping_add(keys.early << 31)];
            Tables {
                mc: man_cap.map(|d| Slots::of(d, &shift, &jumps)),
                mm: man_move.map(|d| Slots::of(d, &shift, &into)),
                slots: if widest <= 4 { 4 } else { 8 },
                quiet_slots: if man_move.iter().all(|m| m.count_ones() <= 4) {
                    4
                } else {
                    8
                },
                cells,
                into,
                promo: promo.map(|p| layout.set(p)),
                layout,
                shift,
                man_move,
                king_move: king.moves.map(|d| d.0 & linked),
                king_cap: king.captures.map(|d| d.0 & linked),
                men_take_kings: man.captures_kings,
                kings_take_kings: king.captures_kings,
                king_slides: king.range == Range::Slide,
                mid: rules.mid_capture_promotion,
                no_reversal: rules.no_reversal,
                keys,
                single_key,
                split_singles: man.captures_kings && single_key[0] != single_key[1],
                halt: king.halt_behind_last_king,
                king_limit: rules.king_quiet_limit,
                ends,
                man_next,
            }
        }
        if ids <= 64 || layout.is_compact() {
            Some(Bulk::Word(Box::new(tables::<u64>(
                board, rules, promo, layout, shift, ends,
            ))))
        } else if ids <= 128 {
            Some(Bulk::TwoWords(Box::new(tables::<u128>(
                board, rules, promo, layout, shift, ends,
            ))))
        } else {
            None
        }
    }
}
