//! Numbering the positions of one material: each group of like pieces (one colour, one kind)
//! is a combination of the cells where such a piece may stand, ranked in the combinatorial
//! number system; the groups' ranks are digits of one mixed-radix number, and the side to
//! move is the lowest digit.
//!
//! The numbering ignores that two groups may name the same cell: such numbers are not
//! positions, and the solver marks them so. It wastes a few per cent of the space on small
//! materials and keeps ranking to a table lookup per piece.
//!
//! Under a king-move limit (Frisian), a side with men and kings also has its king run in the
//! position: none, or which of its kings (the first, second, ... in cell order) has made 1 to
//! `limit` non-capturing moves in a row. Each such side's run is one more digit, above the
//! pieces' digits: `1 + limit * kings` values. A side without men, or without kings, has no
//! run, and no digit: the limit binds only while the side has men.

use crate::bits::{Bits, MAX_CELLS};
use crate::material::{Material, MAX_GROUP};
use crate::position::{Color, Kind, KingRun, Position, KINDS};
use crate::variant::Variant;

/// `n choose k` for `n <= MAX_CELLS`, `k <= MAX_GROUP`.
struct Binomials([[u64; MAX_GROUP + 1]; MAX_CELLS + 1]);

impl Binomials {
    fn new() -> Binomials {
        let mut t = [[0u64; MAX_GROUP + 1]; MAX_CELLS + 1];
        for (n, row) in t.iter_mut().enumerate() {
            for (k, slot) in row.iter_mut().enumerate().take(MAX_GROUP.min(n) + 1) {
                // C(n, k) = C(n-1, k-1) * n / k, exact at every step.
                let mut c: u128 = 1;
                for i in 0..k {
                    c = c * (n - i) as u128 / (i + 1) as u128;
                }
                *slot = c.min(u64::MAX as u128) as u64;
            }
        }
        Binomials(t)
    }

    #[inline(always)]
    fn get(&self, n: usize, k: usize) -> u64 {
        self.0[n][k]
    }
}

/// One group of like pieces: where they may stand and how many there are.
struct Group {
    color: Color,
    kind: Kind,
    count: usize,
    /// The cells a piece of the group may stand on, in increasing order.
    cells: Vec<u8>,
    /// Each cell's position in `cells` (`u8::MAX`: not allowed).
    slot: Vec<u8>,
    /// Number of combinations: C(cells, count).
    size: u64,
    /// What one step of this group's rank adds to an index.
    stride: u64,
}

/// The numbering of one material's positions.
pub(crate) struct Indexer {
    groups: Vec<Group>,
    binom: Binomials,
    /// Number of indices: both sides to move, every run.
    size: u64,
    /// Number of placements of the pieces, both sides to move: the indices below it have no
    /// runs, and the run digits count in units of it.
    placements: u64,
    /// The king-move limit, 0 for none.
    limit: u8,
    /// Each side's number of run values: `1 + limit * kings` for a side with men and kings
    /// under a limit, 1 otherwise.
    runs: [u64; 2],
}

impl Indexer {
    /// The numbering of `material` on `variant`'s board, or `None` when a group does not fit
    /// (more pieces of a kind than [`MAX_GROUP`] or than the cells they may stand on) or the
    /// count overflows.
    pub(crate) fn new(variant: &Variant, material: &Material) -> Option<Indexer> {
        let binom = Binomials::new();
        let board = variant.board();
        let mut groups = Vec::new();
        let mut size: u64 = 2;
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let count = material.counts[color as usize][kind as usize] as usize;
                if count == 0 {
                    continue;
                }
                if count > MAX_GROUP {
                    return None;
                }
                let barred = if kind == Kind::Man {
                    variant.promotion(color)
                } else {
                    Bits::EMPTY
                };
                let cells: Vec<u8> = board
                    .cells()
                    .minus(barred)
                    .iter()
                    .map(|c| c as u8)
                    .collect();
                if cells.len() < count {
                    return None;
                }
                let mut slot = vec![u8::MAX; MAX_CELLS];
                for (i, &c) in cells.iter().enumerate() {
                    slot[c as usize] = i as u8;
                }
                let gsize = binom.get(cells.len(), count);
                size = size.checked_mul(gsize)?;
                groups.push(Group {
                    color,
                    kind,
                    count,
                    cells,
                    slot,
                    size: gsize,
                    stride: 0,
                });
            }
        }
        let mut stride = 2;
        for g in groups.iter_mut().rev() {
            g.stride = stride;
            stride *= g.size;
        }
        let limit = variant.rules().king_quiet_limit;
        let runs = Color::BOTH.map(|c| {
            let men = material.counts[c as usize][Kind::Man as usize];
            let kings = material.counts[c as usize][Kind::King as usize];
            if limit != 0 && men > 0 && kings > 0 {
                1 + u64::from(limit) * u64::from(kings)
            } else {
                1
            }
        });
        let placements = size;
        let size = size.checked_mul(runs[0])?.checked_mul(runs[1])?;
        Some(Indexer {
            groups,
            binom,
            size,
            placements,
            limit,
            runs,
        })
    }

    /// Number of indices (positions and non-positions, both sides to move, every run).
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// Whether the material's positions have king runs.
    pub(crate) fn has_runs(&self) -> bool {
        self.runs != [1, 1]
    }

    /// Number of run values of `color`'s side (1: it has no run).
    #[inline]
    pub(crate) fn run_values(&self, color: Color) -> u64 {
        self.runs[color as usize]
    }

    /// The index of `pos`, which must have this material; `None` if a piece stands where its
    /// group may not.
    #[inline]
    pub(crate) fn index(&self, pos: &Position) -> Option<u64> {
        let placement = self.placement_index(pos)?;
        if !self.has_runs() {
            return Some(placement);
        }
        let [w, b] = Color::BOTH.map(|c| self.run_digit(c, pos.king_run(c), pos));
        Some(self.with_runs(placement, [w, b]))
    }

    /// The index of the placement `placement` (an index below [`Indexer::placements`]) with the
    /// run digits `digits`, White's and Black's.
    #[inline]
    pub(crate) fn with_runs(&self, placement: u64, digits: [u64; 2]) -> u64 {
        placement + self.placements * (digits[0] + self.runs[0] * digits[1])
    }

    /// An index's placement (the index of its pieces and side, without runs) and run digits.
    #[inline]
    pub(crate) fn split(&self, index: u64) -> (u64, [u64; 2]) {
        let d = index / self.placements;
        (
            index % self.placements,
            [d % self.runs[0], d / self.runs[0]],
        )
    }

    /// The run digit of `color`'s `run` in `pos`: 0 for none, else `1 + limit * k + count - 1`
    /// for a run of its `k`-th king in cell order.
    #[inline]
    fn run_digit(&self, color: Color, run: KingRun, pos: &Position) -> u64 {
        if self.runs[color as usize] == 1 || run.count == 0 {
            return 0;
        }
        let kings = pos.pieces(color, Kind::King);
        if !kings.contains(run.cell as usize) {
            return 0;
        }
        self.run_code(kings, run.cell as usize, run.count)
    }

    /// The run digit of `count` moves by the king on `cell`, one of `kings`.
    #[inline]
    pub(crate) fn run_code(&self, kings: Bits, cell: usize, count: u8) -> u64 {
        let below = kings.iter().take_while(|&c| c < cell).count() as u64;
        1 + u64::from(self.limit) * below + u64::from(count.min(self.limit)) - 1
    }

    /// The king-move limit (0: none).
    #[inline]
    pub(crate) fn limit(&self) -> u8 {
        self.limit
    }

    /// The runs that the digits `digits` give the kings `kings` (by colour).
    #[inline]
    pub(crate) fn runs_of(&self, digits: [u64; 2], kings: [Bits; 2]) -> [KingRun; 2] {
        Color::BOTH.map(|c| {
            let d = digits[c as usize];
            if d == 0 {
                return KingRun::default();
            }
            let k = (d - 1) / u64::from(self.limit);
            let count = ((d - 1) % u64::from(self.limit)) as u8 + 1;
            match kings[c as usize].iter().nth(k as usize) {
                Some(cell) => KingRun {
                    cell: cell as u8,
                    count,
                },
                None => KingRun::default(),
            }
        })
    }

    /// The position index `index` stands for, checked as `variant` checks a placement; `None`
    /// when it is none (two pieces on a cell, a piece where it may not stand).
    #[inline]
    pub(crate) fn position(&self, variant: &Variant, index: u64) -> Option<Position> {
        let (side, sets) = self.pieces(index)?;
        let mut pos = variant.placed(side, sets)?;
        if self.has_runs() {
            let (_, digits) = self.split(index);
            let kings = [sets[0][Kind::King as usize], sets[1][Kind::King as usize]];
            pos.king_run = self.runs_of(digits, kings);
        }
        Some(pos)
    }

    /// The index of the placement of `pos` (its pieces and side, not its runs).
    #[inline]
    fn placement_index(&self, pos: &Position) -> Option<u64> {
        let mut idx: u64 = 0;
        for g in &self.groups {
            let mut rank: u64 = 0;
            let mut j = 0;
            for cell in pos.pieces(g.color, g.kind).iter() {
                let s = g.slot[cell];
                if s == u8::MAX {
                    return None;
                }
                j += 1;
                rank += self.binom.get(s as usize, j);
            }
            debug_assert_eq!(j, g.count);
            idx = idx * g.size + rank;
        }
        Some(idx * 2 + pos.side() as u64)
    }

    /// The group of pieces of `color` and `kind`, if the material has such pieces.
    #[inline]
    pub(crate) fn group(&self, color: Color, kind: Kind) -> Option<usize> {
        self.groups
            .iter()
            .position(|g| g.color == color && g.kind == kind)
    }

    /// The rank of group `g` standing on `cells`; `None` if one of them is barred to it.
    #[inline]
    pub(crate) fn rank(&self, g: usize, cells: Bits) -> Option<u64> {
        let g = &self.groups[g];
        if g.count == 1 {
            let s = g.slot[cells.first()?];
            return (s != u8::MAX).then_some(u64::from(s));
        }
        let mut rank = 0;
        for (j, cell) in cells.iter().enumerate() {
            let s = g.slot[cell];
            if s == u8::MAX {
                return None;
            }
            rank += self.binom.get(s as usize, j + 1);
        }
        Some(rank)
    }

    /// Number of groups of like pieces.
    pub(crate) fn groups(&self) -> usize {
        self.groups.len()
    }

    /// The colour and kind of group `g`.
    pub(crate) fn group_key(&self, g: usize) -> (Color, Kind) {
        (self.groups[g].color, self.groups[g].kind)
    }

    /// Number of ranks of group `g`.
    pub(crate) fn group_size(&self, g: usize) -> u64 {
        self.groups[g].size
    }

    /// The cells group `g` stands on at `rank`.
    pub(crate) fn group_cells(&self, g: usize, rank: u64) -> Bits {
        let mut set = Bits::EMPTY;
        self.unrank(&self.groups[g], rank, &mut set);
        set
    }

    /// Adds the cells of `g`'s combination `rank` to `set`.
    #[inline]
    fn unrank(&self, g: &Group, mut rank: u64, set: &mut Bits) {
        if g.count == 1 {
            set.insert(g.cells[rank as usize] as usize);
            return;
        }
        let mut top = g.cells.len();
        for j in (1..=g.count).rev() {
            // C(a, j) grows with a: binary search in j-1..top (C(j-1, j) = 0 <= rank).
            let (mut lo, mut hi) = (j - 1, top - 1);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if self.binom.get(mid, j) <= rank {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            top = lo;
            rank -= self.binom.get(lo, j);
            set.insert(g.cells[lo] as usize);
        }
    }

    /// What one step of group `g`'s rank adds to an index.
    #[inline]
    pub(crate) fn stride(&self, g: usize) -> u64 {
        self.groups[g].stride
    }

    /// The pieces and side an index stands for; `None` when two pieces share a cell.
    #[inline]
    pub(crate) fn pieces(&self, index: u64) -> Option<(Color, [[Bits; KINDS]; 2])> {
        let index = index % self.placements;
        let side = if index & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut rest = index >> 1;
        let mut sets = [[Bits::EMPTY; KINDS]; 2];
        let mut all = Bits::EMPTY;
        for g in self.groups.iter().rev() {
            let rank = rest % g.size;
            rest /= g.size;
            let mut set = Bits::EMPTY;
            self.unrank(g, rank, &mut set);
            if !all.intersect(set).is_empty() {
                return None;
            }
            all = all.union(set);
            sets[g.color as usize][g.kind as usize] = set;
        }
        Some((side, sets))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_names_its_own_position() {
        let v = crate::variant("russian").unwrap();
        let m = Material::parse("KMvK").unwrap();
        let ix = Indexer::new(v, &m).unwrap();
        // 32 cells; white men avoid the 4 promotion squares.
        assert_eq!(ix.size(), 2 * 32 * 28 * 32);
        let mut positions = 0;
        for i in 0..ix.size() {
            if let Some((side, sets)) = ix.pieces(i) {
                let p = Position::of_pieces(side, sets);
                assert_eq!(ix.index(&p), Some(i));
                positions += 1;
            }
        }
        // Three distinct cells: 2 sides * 28 (man) * 31 * 30.
        assert_eq!(positions, 2 * 28 * 31 * 30);
    }
}
