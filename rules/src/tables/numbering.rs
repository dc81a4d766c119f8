//! How a table numbers its positions, whatever they hold besides the pieces.
//!
//! - [`Numbering::Pieces`]: pieces on cells, the side to move and, under a king-move limit,
//!   the king runs ([`Indexer`]). Every variant of men and kings.
//! - [`Numbering::Extra`]: the same placement, times a digit of state the rules keep in the
//!   position: the castle moves each side has made (Camelot), or each side's last move
//!   under the no-return rule (BrainKing's Alquerque).
//! - [`Numbering::Stock`]: the drop games, whose tables count a side's stones on the board
//!   and in hand together ([`super::material_of`]): every split of them between board and
//!   hand, each placement numbered exactly (White's stones among the points, Black's among
//!   the points left).
//!
//! Each numbering maps a position of its material to one index and back; an index that
//! stands for no position (two pieces on a cell, a last move that cannot be) gives `None`.
//! State the rules keep but that cannot change what follows is not numbered: a last move
//! that no move of the piece could take back is the same position as no last move at all.

use crate::bits::{Bits, MAX_CELLS};
use crate::board::NONE;
use crate::material::{Material, MAX_GROUP};
use crate::position::{Color, Kind, Position, KINDS};
use crate::variant::Variant;

use super::index::Indexer;

/// The numbering of one table's positions.
pub(crate) enum Numbering {
    Pieces(Indexer),
    Extra(Extra),
    Stock(Stock),
}

impl Numbering {
    /// The numbering of `material` in `variant`, or `None` when the variant cannot have that
    /// material (see [`Indexer::new`]).
    pub(crate) fn new(variant: &Variant, material: &Material) -> Option<Numbering> {
        let r = variant.rules();
        if r.stones_in_hand != 0 {
            return Stock::new(variant, material).map(Numbering::Stock);
        }
        let ix = Indexer::new(variant, material)?;
        let castles = r.castles.map_or(0, |c| c.moves);
        if castles > 0 {
            return Some(Numbering::Extra(Extra::castles(ix, castles)?));
        }
        if r.no_return {
            return Some(Numbering::Extra(Extra::last_moves(variant, material, ix)?));
        }
        Some(Numbering::Pieces(ix))
    }

    /// Number of indices.
    #[inline]
    pub(crate) fn size(&self) -> u64 {
        match self {
            Numbering::Pieces(ix) => ix.size(),
            Numbering::Extra(x) => x.size,
            Numbering::Stock(s) => s.size,
        }
    }

    /// The index of `pos`, which must have this numbering's material; `None` if a piece
    /// stands where it may not.
    #[inline]
    pub(crate) fn index(&self, pos: &Position) -> Option<u64> {
        match self {
            Numbering::Pieces(ix) => ix.index(pos),
            Numbering::Extra(x) => x.index(pos),
            Numbering::Stock(s) => s.index(pos),
        }
    }

    /// The position index `index` stands for, checked as `variant` checks a placement.
    #[inline]
    pub(crate) fn position(&self, variant: &Variant, index: u64) -> Option<Position> {
        match self {
            Numbering::Pieces(ix) => ix.position(variant, index),
            Numbering::Extra(x) => x.position(variant, index),
            Numbering::Stock(s) => s.position(variant, index),
        }
    }

    /// The parts of the indices to solve one after the other, in that order: a move leads
    /// from a part to the same part or to one before it. Castle moves only add to the count
    /// of castle moves made, so a table with castle moves is solved from the most castle moves
    /// down, the placements of one count at a time; the other numberings are one part.
    pub(crate) fn layers(&self) -> Vec<std::ops::Range<u64>> {
        match self {
            Numbering::Extra(Extra {
                ix,
                state: State::Castles { .. },
                per_side,
                ..
            }) => {
                let n = ix.size();
                (0..per_side[0] * per_side[1])
                    .rev()
                    .map(|d| d * n..(d + 1) * n)
                    .collect()
            }
            _ => std::iter::once(0..self.size()).collect(),
        }
    }

    /// The piece numbering, for a table of pieces only.
    pub(crate) fn pieces(&self) -> Option<&Indexer> {
        match self {
            Numbering::Pieces(ix) => Some(ix),
            _ => None,
        }
    }
}

/// A placement ([`Indexer`], without king runs) times one digit of extra state per side.
pub(crate) struct Extra {
    ix: Indexer,
    state: State,
    /// Values of each side's digit.
    per_side: [u64; 2],
    size: u64,
}

/// What the extra digits hold.
enum State {
    /// Castle moves made, 0 to `limit`.
    Castles { limit: u8 },
    /// The last move: 0 for none (or one no move could take back), else `1 + k * width + j`
    /// for a move that ended on the side's `k`-th piece (in cell order) and came from
    /// `from[color][to][j]`.
    Last { from: [Vec<Vec<u8>>; 2], width: u64 },
}

impl Extra {
    fn castles(ix: Indexer, limit: u8) -> Option<Extra> {
        if ix.has_runs() {
            return None;
        }
        let v = u64::from(limit) + 1;
        let size = ix.size().checked_mul(v * v)?;
        Some(Extra {
            ix,
            state: State::Castles { limit },
            per_side: [v, v],
            size,
        })
    }

    /// Last moves under the no-return rule. The rule forbids the piece a side moved last to
    /// go straight back, by a step or a capture: so the move's start matters only where a
    /// step of the piece, or a chain of jumps (the first along the directions the rules
    /// allow a first jump, then any), could lead back to it. Those are the starts numbered,
    /// for each cell a piece may stand on; any other start is no last move.
    fn last_moves(variant: &Variant, material: &Material, ix: Indexer) -> Option<Extra> {
        if ix.has_runs() {
            return None;
        }
        let board = variant.board();
        let r = variant.rules();
        let mut from: [Vec<Vec<u8>>; 2] = [
            vec![Vec::new(); board.id_bound()],
            vec![Vec::new(); board.id_bound()],
        ];
        for color in Color::BOTH {
            let c = color as usize;
            for kind in Kind::ALL {
                let pr = r.piece(kind);
                if pr.moves[c].is_empty() && pr.captures[c].is_empty() {
                    continue;
                }
                for to in board.cells().iter() {
                    let mut back = Bits::EMPTY;
                    for d in pr.moves[c].iter() {
                        let x = board.next(to, d);
                        if x != NONE {
                            back.insert(x as usize);
                        }
                    }
                    // Jump chains: every landing of one, wherever it could stop.
                    let first = if r.first_jump_along_moves {
                        pr.moves[c]
                    } else {
                        pr.captures[c]
                    };
                    let mut seen = Bits::EMPTY;
                    let mut todo = Vec::new();
                    for d in first.iter() {
                        let [over, land] = board.jump(to, d);
                        if over != NONE && land != NONE && !seen.contains(land as usize) {
                            seen.insert(land as usize);
                            todo.push(land as usize);
                        }
                    }
                    while let Some(x) = todo.pop() {
                        for d in pr.captures[c].iter() {
                            let [over, land] = board.jump(x, d);
                            if over != NONE && land != NONE && !seen.contains(land as usize) {
                                seen.insert(land as usize);
                                todo.push(land as usize);
                            }
                        }
                    }
                    let list = &mut from[c][to];
                    for x in back.union(seen).iter() {
                        if !list.contains(&(x as u8)) {
                            list.push(x as u8);
                        }
                    }
                    list.sort_unstable();
                }
            }
        }
        let width = from
            .iter()
            .flatten()
            .map(|l| l.len() as u64)
            .max()
            .unwrap_or(0);
        let per_side = Color::BOTH.map(|c| 1 + u64::from(material.side(c)) * width);
        let size = ix
            .size()
            .checked_mul(per_side[0])?
            .checked_mul(per_side[1])?;
        Some(Extra {
            ix,
            state: State::Last { from, width },
            per_side,
            size,
        })
    }

    #[inline]
    fn index(&self, pos: &Position) -> Option<u64> {
        let base = self.ix.index(pos)?;
        let digit = |c: Color| -> Option<u64> {
            match &self.state {
                State::Castles { limit } => {
                    let n = pos.castle_moves(c);
                    (n <= *limit).then_some(u64::from(n))
                }
                State::Last { from, width } => {
                    let Some((f, t)) = pos.last_move(c) else {
                        return Some(0);
                    };
                    let mine = pos.side_pieces(c);
                    if !mine.contains(t) {
                        return Some(0);
                    }
                    let Some(j) = from[c as usize][t].iter().position(|&x| x as usize == f) else {
                        return Some(0);
                    };
                    let k = mine.iter().take_while(|&x| x < t).count() as u64;
                    Some(1 + k * width + j as u64)
                }
            }
        };
        let (w, b) = (digit(Color::White)?, digit(Color::Black)?);
        Some(base + self.ix.size() * (w + self.per_side[0] * b))
    }

    #[inline]
    fn position(&self, variant: &Variant, index: u64) -> Option<Position> {
        let n = self.ix.size();
        let mut pos = self.ix.position(variant, index % n)?;
        let d = index / n;
        let digits = [d % self.per_side[0], d / self.per_side[0]];
        for c in Color::BOTH {
            let digit = digits[c as usize];
            match &self.state {
                State::Castles { .. } => pos.castle_moves[c as usize] = digit as u8,
                State::Last { from, width } => {
                    if digit == 0 {
                        continue;
                    }
                    let (k, j) = ((digit - 1) / width, (digit - 1) % width);
                    let to = pos.side_pieces(c).iter().nth(k as usize)?;
                    let f = *from[c as usize][to].get(j as usize)?;
                    pos.last[c as usize] = [f, to as u8];
                }
            }
        }
        Some(pos)
    }
}

/// `n choose k` for `n <= MAX_CELLS`, `k <= MAX_GROUP`.
fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut c: u64 = 1;
    for i in 0..k {
        c = c * (n - i) as u64 / (i + 1) as u64;
    }
    c
}

/// The drop games' numbering: the stones of each side on the board and in hand together
/// (the material), every split of them between board and hand a block of indices. In a
/// block, White's stones are a combination of the board's points and Black's a combination
/// of the points White leaves, each ranked in the combinatorial number system; the side to
/// move is the lowest digit.
pub(crate) struct Stock {
    /// `C(n, k)` for `n` up to the board's points, `k` up to the most stones a side has.
    binom: Vec<[u64; MAX_GROUP + 1]>,
    points: usize,
    /// Each cell's position among the board's points (`u8::MAX`: not a point).
    slot: Vec<u8>,
    /// The board's points, in increasing order.
    cells: Vec<u8>,
    /// Each side's stones, board and hand.
    stones: [usize; 2],
    /// The first index of each block, by White's and Black's stones on the board:
    /// `start[w * (stones[1] + 1) + b]`; one more entry at the end, the size.
    start: Vec<u64>,
    size: u64,
}

impl Stock {
    fn new(variant: &Variant, material: &Material) -> Option<Stock> {
        let stones = Color::BOTH.map(|c| material.side(c) as usize);
        // Stones only, as many as the rules give a side at most.
        if Kind::ALL.iter().any(|&k| {
            k != Kind::Man
                && (material.count(Color::White, k) > 0 || material.count(Color::Black, k) > 0)
        }) || stones
            .iter()
            .any(|&s| s > usize::from(variant.rules().stones_in_hand))
            || stones.iter().any(|&s| s > MAX_GROUP)
        {
            return None;
        }
        let board = variant.board();
        let cells: Vec<u8> = board.cells().iter().map(|c| c as u8).collect();
        let points = cells.len();
        if points > MAX_CELLS {
            return None;
        }
        let mut slot = vec![u8::MAX; MAX_CELLS];
        for (i, &c) in cells.iter().enumerate() {
            slot[c as usize] = i as u8;
        }
        let binom: Vec<[u64; MAX_GROUP + 1]> = (0..=points)
            .map(|n| {
                let mut row = [0u64; MAX_GROUP + 1];
                for (k, x) in row.iter_mut().enumerate() {
                    *x = choose(n, k);
                }
                row
            })
            .collect();
        let mut start = Vec::new();
        let mut at: u64 = 0;
        for w in 0..=stones[0] {
            for b in 0..=stones[1] {
                start.push(at);
                let placements = if w + b > points {
                    0
                } else {
                    choose(points, w) * choose(points - w, b)
                };
                at = at.checked_add(placements.checked_mul(2)?)?;
            }
        }
        start.push(at);
        Some(Stock {
            binom,
            points,
            slot,
            cells,
            stones,
            start,
            size: at,
        })
    }

    /// The rank of `slots` (increasing) as a combination.
    #[inline]
    fn rank(&self, slots: impl Iterator<Item = usize>) -> u64 {
        slots.enumerate().map(|(j, s)| self.binom[s][j + 1]).sum()
    }

    /// The `count` slots (of `0..n`) of combination `rank`, into `out`.
    #[inline]
    fn unrank(&self, n: usize, count: usize, mut rank: u64, out: &mut Vec<usize>) {
        out.clear();
        let mut top = n;
        for j in (1..=count).rev() {
            // The largest a < top with C(a, j) <= rank.
            let mut a = top - 1;
            while self.binom[a][j] > rank {
                a -= 1;
            }
            rank -= self.binom[a][j];
            out.push(a);
            top = a;
        }
        out.reverse();
    }

    #[inline]
    fn index(&self, pos: &Position) -> Option<u64> {
        let white = pos.side_pieces(Color::White);
        let black = pos.side_pieces(Color::Black);
        let (w, b) = (white.len() as usize, black.len() as usize);
        for (c, n) in [(Color::White, w), (Color::Black, b)] {
            if n + usize::from(pos.hand(c)) != self.stones[c as usize] {
                return None;
            }
        }
        if !pos.pieces(Color::White, Kind::Man).eq(&white)
            || !pos.pieces(Color::Black, Kind::Man).eq(&black)
        {
            return None;
        }
        let mut slots_w = Vec::with_capacity(w);
        for c in white.iter() {
            let s = self.slot[c];
            if s == u8::MAX {
                return None;
            }
            slots_w.push(s as usize);
        }
        let rank_w = self.rank(slots_w.iter().copied());
        // Black's points among those White leaves: a point's slot less the White stones
        // below it.
        let mut slots_b = Vec::with_capacity(b);
        for c in black.iter() {
            let s = self.slot[c];
            if s == u8::MAX {
                return None;
            }
            let below = slots_w.iter().filter(|&&x| x < s as usize).count();
            slots_b.push(s as usize - below);
        }
        let rank_b = self.rank(slots_b.into_iter());
        let block = self.start[w * (self.stones[1] + 1) + b];
        let blacks = self.binom[self.points - w][b];
        Some(block + (rank_w * blacks + rank_b) * 2 + pos.side() as u64)
    }

    fn position(&self, variant: &Variant, index: u64) -> Option<Position> {
        if index >= self.size {
            return None;
        }
        // The block: the last start at or below the index.
        let k = self.start.partition_point(|&s| s <= index) - 1;
        let (w, b) = (k / (self.stones[1] + 1), k % (self.stones[1] + 1));
        let at = index - self.start[k];
        let side = if at & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let blacks = self.binom[self.points - w][b];
        let (rank_w, rank_b) = ((at >> 1) / blacks, (at >> 1) % blacks);
        let mut slots = Vec::with_capacity(w.max(b));
        self.unrank(self.points, w, rank_w, &mut slots);
        let mut sets = [[Bits::EMPTY; KINDS]; 2];
        let mut free: Vec<u8> = Vec::with_capacity(self.points);
        let mut taken = vec![false; self.points];
        for &s in &slots {
            sets[0][Kind::Man as usize].insert(self.cells[s] as usize);
            taken[s] = true;
        }
        free.extend(
            (0..self.points)
                .filter(|&s| !taken[s])
                .map(|s| self.cells[s]),
        );
        self.unrank(self.points - w, b, rank_b, &mut slots);
        for &s in &slots {
            sets[1][Kind::Man as usize].insert(free[s] as usize);
        }
        let mut pos = variant.placed(side, sets)?;
        pos.hand = [(self.stones[0] - w) as u8, (self.stones[1] - b) as u8];
        Some(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index of the new numberings names a position whose index it is, and the
    /// positions are as many as counted from the rules.
    #[test]
    fn every_index_names_its_own_position() {
        // Hageby's 13 points, 3 stones against 2 (on the board and in hand): every split.
        let v = crate::variant("hageby").unwrap();
        let m = Material::parse("MMMvMM").unwrap();
        let n = Numbering::new(v, &m).unwrap();
        let mut expected = 0;
        for w in 0..=3u64 {
            for b in 0..=2u64 {
                expected += 2 * choose(13, w as usize) * choose(13 - w as usize, b as usize);
            }
        }
        assert_eq!(n.size(), expected);
        for i in 0..n.size() {
            let p = n.position(v, i).expect("every index is a position");
            assert_eq!(n.index(&p), Some(i), "{}", v.fen(&p));
        }
        // Camelot: castle moves, 3 values a side.
        let v = crate::variant("camelot").unwrap();
        let m = Material::parse("NvN").unwrap();
        let n = Numbering::new(v, &m).unwrap();
        assert_eq!(n.size(), 160 * 160 * 2 * 9);
        let mut positions = 0;
        for i in 0..n.size() {
            if let Some(p) = n.position(v, i) {
                assert_eq!(n.index(&p), Some(i));
                positions += 1;
            }
        }
        assert_eq!(positions, 160 * 159 * 2 * 9);
        // BrainKing's Alquerque: last moves.
        let v = crate::variant("alquerque-brainking").unwrap();
        let m = Material::parse("MMvM").unwrap();
        let n = Numbering::new(v, &m).unwrap();
        let mut positions = 0;
        for i in 0..n.size() {
            if let Some(p) = n.position(v, i) {
                assert_eq!(n.index(&p), Some(i), "{}", v.fen(&p));
                positions += 1;
            }
        }
        assert!(positions > 0);
    }
}
