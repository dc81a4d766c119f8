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
    pub(super) man_cap: [u8; 2],
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
    pub(super) king_move: [u8; 2],
    pub(super) king_cap: [u8; 2],
    pub(super) men_take_kings: bool,
    pub(super) kings_take_kings: bool,
    pub(super) king_slides: bool,
    pub(super) mid: MidCapturePromotion,
    pub(super) no_reversal: bool,
    pub(super) precedence: Vec<Precedence>,
    /// The precedence compiled: free choice, most pieces, or the general key.
    pub(super) key_kind: KeyKind,
    /// Values of a captured man and king, for value precedence.
    pub(super) value: (u32, u32),
    /// The killer rule: a flying king whose capture ends with a king taken stops right
    /// behind it.
    pub(super) halt: bool,
    /// The ruleset's end rules, each a test of the piece sets.
    pub(super) ends: Ends,
    /// The king-move limit: non-capturing moves in a row by one king while its side has men
    /// (0: none).
    pub(super) king_limit: u8,
    /// The directions a jump (two steps) can take from each cell, by narrow id.
    pub(super) jumps_from: [u8; 128],
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

    /// The directions a jump can take from the cell with narrow id `cell`.
    #[inline(always)]
    pub(super) fn jump_dirs(&self, cell: u32) -> u8 {
        self.jumps_from[cell as usize & 127]
    }
}

/// Directions as slots: offsets, directions, masks (every cell for a used slot, none for an
/// unused one) and the slot of the opposite direction (8: none).
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots<S> {
    pub(super) off: [i32; 8],
    pub(super) dir: [u8; 8],
    pub(super) on: [S; 8],
    pub(super) back: [u8; 8],
}

impl<S: CellSet> Slots<S> {
    pub(super) fn of(dirs: u8, shift: &[i32; DIRS], mask: &[S; DIRS]) -> Slots<S> {
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
            s.on[i] = mask[d];
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
pub(super) enum KeyKind {
    /// Free choice: every complete sequence is legal.
    Free,
    /// The most pieces captured.
    Count,
    /// The general key of the precedence list.
    General,
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
        let value = rules
            .precedence
            .iter()
            .find_map(|p| match p {
                Precedence::Value { man, king } => Some((*man as u32, *king as u32)),
                _ => None,
            })
            .unwrap_or((0, 0));
        fn tables<S: CellSet>(
            board: &Board,
            rules: &Rules,
            promo: [Bits; 2],
            layout: Layout,
            shift: [i32; DIRS],
            value: (u32, u32),
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
            let mut jumps_from = [0u8; 128];
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
                        jumps_from[layout.id(c)] |= 1 << i;
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
            Tables {
                mc: man_cap.map(|d| Slots::of(d, &shift, &jumps)),
                mm: man_move.map(|d| Slots::of(d, &shift, &into)),
                slots: if widest <= 4 { 4 } else { 8 },
                cells,
                into,
                promo: promo.map(|p| layout.set(p)),
                layout,
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
                halt: king.halt_behind_last_king,
                king_limit: rules.king_quiet_limit,
                ends,
                jumps_from,
            }
        }
        if ids <= 64 || layout.is_compact() {
            Some(Bulk::Word(Box::new(tables::<u64>(
                board, rules, promo, layout, shift, value, ends,
            ))))
        } else if ids <= 128 {
            Some(Bulk::TwoWords(Box::new(tables::<u128>(
                board, rules, promo, layout, shift, value, ends,
            ))))
        } else {
            None
        }
    }
}
