//! The non-capturing moves of the narrow generator: listed, or counted by popcounts.

use super::moves::{NarrowMove, Pos};
use super::tables::Tables;
use crate::bits::CellSet;

/// The quiet moves of `p` into `out` (appended); `held`: a king that may not move now (the
/// king-move limit).
pub(super) fn quiet<S: CellSet>(t: &Tables<S>, p: &Pos<S>, held: S, out: &mut Vec<NarrowMove<S>>) {
    let me = p.side;
    let empty = t.cells.andn(p.occupied());
    let promo = t.promo[me];
    let mut dirs = t.man_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let mut to = p.men[me].rot(off).and(empty).and(t.into[d & 7]);
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
    let movers = p.kings[me].andn(held);
    let mut dirs = t.king_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let empty = empty.and(t.into[d & 7]);
        let mut kings = movers;
        while !kings.is_zero() {
            let from = kings.lowest();
            kings = kings.rest();
            let mut sq = S::bit(from).rot(off).and(empty);
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
                sq = sq.rot(off).and(empty);
            }
        }
    }
}

/// The number of quiet moves of `p`, by popcounts; `held`: as for [`quiet`].
#[inline(always)]
pub(super) fn count_quiet<S: CellSet, const SLOTS: usize>(
    t: &Tables<S>,
    p: &Pos<S>,
    held: S,
) -> u64 {
    let me = p.side;
    let empty = t.cells.andn(p.occupied());
    let mut n = 0u64;
    let mm = &t.mm[me];
    let men = p.men[me];
    for i in 0..SLOTS {
        if i == 4 && t.quiet_slots == 4 {
            // The men move in at most four directions (Frisian men capture in eight).
            break;
        }
        let to = men.rot(mm.off[i]).and(empty).and(mm.on[i]);
        if !to.is_zero() {
            n += to.count() as u64;
        }
    }
    let kings = p.kings[me];
    if kings.is_zero() {
        return n;
    }
    let kings = kings.andn(held);
    let mut dirs = t.king_move[me];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let off = t.shift[d & 7];
        let empty = empty.and(t.into[d & 7]);
        let mut k = kings.rot(off).and(empty);
        while !k.is_zero() {
            n += k.count() as u64;
            if !t.king_slides {
                break;
            }
            k = k.rot(off).and(empty);
        }
    }
    n
}
