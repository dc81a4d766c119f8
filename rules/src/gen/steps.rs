//! Non-capturing moves: single steps and slides along the direction links.

use crate::bits::Bits;
use crate::board::{Board, NONE};
use crate::moves::Move;
use crate::position::{Kind, Position};
use crate::rules::{Range, Rules};

/// Appends every non-capturing move of the side to move.
pub(crate) fn quiet_moves(
    board: &Board,
    rules: &Rules,
    promo: Bits,
    pos: &Position,
    out: &mut Vec<Move>,
) {
    let me = pos.side();
    let c = me as usize;
    let occ = pos.occupied();
    let run = pos.king_run(me);
    let restricted = rules.king_quiet_limit != 0
        && run.count >= rules.king_quiet_limit
        && !pos.pieces(me, Kind::Man).is_empty();
    for kind in Kind::ALL {
        let pr = rules.piece(kind);
        let dirs = pr.moves[c];
        if dirs.is_empty() {
            continue;
        }
        for from in pos.pieces(me, kind).iter() {
            if kind == Kind::King && restricted && run.cell as usize == from {
                continue;
            }
            let becomes = |to: usize| {
                if kind == Kind::Man && promo.contains(to) {
                    Kind::King
                } else {
                    kind
                }
            };
            for d in dirs.iter() {
                match pr.range {
                    Range::Step => {
                        let to = board.next(from, d);
                        if to != NONE && !occ.contains(to as usize) {
                            out.push(Move {
                                from: from as u8,
                                to,
                                piece: kind,
                                becomes: becomes(to as usize),
                                captured: Bits::EMPTY,
                            });
                        }
                    }
                    Range::Slide => {
                        for &to in board.ray(from, d) {
                            if occ.contains(to as usize) {
                                break;
                            }
                            out.push(Move {
                                from: from as u8,
                                to,
                                piece: kind,
                                becomes: becomes(to as usize),
                                captured: Bits::EMPTY,
                            });
                        }
                    }
                }
            }
        }
    }
}
