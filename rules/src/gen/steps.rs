//! Non-capturing moves: single steps and slides along the direction links.

use crate::bits::{Bits, CellSet};
use crate::board::{Board, DirSet, NONE};
use crate::gen::Sink;
use crate::moves::Move;
use crate::position::{Color, Kind, Position};
use crate::rules::{Range, Rules};

/// Puts every non-capturing move of the side to move into `out`.
///
/// The rarely used mechanisms (a frozen far rank, step-only links) are chosen once per call,
/// so that the variants without them run code that does not test for them.
#[inline]
pub(crate) fn quiet_moves(
    board: &Board,
    rules: &Rules,
    promo: Bits,
    pos: &Position,
    out: &mut impl Sink,
) {
    let rare = rules.far_rank_frozen || !board.step_only().is_empty();
    super::by_width!(board, S => {
        let promo = S::from_bits(promo);
        if rare {
            quiet_moves_of::<S, true>(board, rules, promo, pos, out)
        } else {
            quiet_moves_of::<S, false>(board, rules, promo, pos, out)
        }
    })
}

/// [`quiet_moves`] in cell sets of the board's width `S`.
fn quiet_moves_of<S: CellSet, const RARE: bool>(
    board: &Board,
    rules: &Rules,
    promo: S,
    pos: &Position,
    out: &mut impl Sink,
) {
    let me = pos.side();
    let c = me as usize;
    let occ = S::from_bits(pos.occupied());
    let run = pos.king_run(me);
    let restricted = rules.king_quiet_limit != 0
        && run.count >= rules.king_quiet_limit
        && !pos.pieces(me, Kind::Man).is_empty();
    for kind in Kind::ALL {
        if !pos.has_kind(kind) {
            continue;
        }
        let pr = rules.piece(kind);
        let dirs = pr.moves[c];
        if dirs.is_empty() {
            continue;
        }
        let mut pieces = S::from_bits(pos.pieces(me, kind));
        if kind == Kind::King && restricted {
            pieces = pieces.without(run.cell as usize);
        }
        if RARE && kind == Kind::Man && rules.far_rank_frozen {
            let far = match me {
                Color::White => board.height() - 1,
                Color::Black => 0,
            };
            pieces = pieces.andn(S::from_bits(board.rank(far)));
        }
        let step = |from: usize, to: usize| {
            let becomes = if kind == Kind::Man && promo.has(to) {
                Kind::King
            } else {
                kind
            };
            Move::step(from, to, kind, becomes)
        };
        match (pr.range, board.shifts()) {
            (Range::Step, Some(shifts)) => {
                // Whole-set steps: every piece moved one cell in each direction at once.
                let free = S::from_bits(board.cells()).andn(occ);
                for d in dirs.iter() {
                    let off = shifts[d as usize] as i32;
                    out.cells(pieces.shift(off).and(free), |to| {
                        step((to as i32 - off) as usize, to)
                    });
                }
            }
            (Range::Step, None) => {
                // Step-only links (Seth's arc) serve pieces that step in every direction.
                let arcs = RARE && dirs == DirSet::ALL && !board.step_only().is_empty();
                for from in pieces.cells() {
                    for d in dirs.iter() {
                        let to = board.next(from, d);
                        if to != NONE && !occ.has(to as usize) {
                            out.one(step(from, to as usize));
                        }
                    }
                    if arcs {
                        for to in board.step_only_from(from) {
                            if !occ.has(to) {
                                out.one(step(from, to));
                            }
                        }
                    }
                }
            }
            (Range::Line, _) => {
                // The line ahead of the tail: own men, then the cell the head steps onto.
                let men = S::from_bits(pos.pieces(me, Kind::Man));
                for from in pieces.cells() {
                    for d in dirs.iter() {
                        let mut to = board.next(from, d);
                        while to != NONE && men.has(to as usize) {
                            to = board.next(to as usize, d);
                        }
                        if to != NONE && !occ.has(to as usize) {
                            out.one(step(from, to as usize));
                        }
                    }
                }
            }
            (Range::Slide, _) => {
                for from in pieces.cells() {
                    for d in dirs.iter() {
                        for &to in board.ray(from, d) {
                            if occ.has(to as usize) {
                                break;
                            }
                            out.one(step(from, to as usize));
                        }
                    }
                }
            }
        }
    }
}
