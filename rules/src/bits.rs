//! Sets of board cells.
//!
//! [`Bits`] is the set positions, moves and boards are stored in: three machine words, room
//! for every board of the catalogue (the 160-square Camelot board is the largest; the 12×12
//! Canadian board has 72 dark squares, the full 8×8 boards 64). It is `Copy`, so nothing that
//! handles cells allocates.
//!
//! The move generators work in sets of the board's own width instead ([`CellSet`]): one
//! machine word for boards of up to 64 cell ids, two for up to 128, and [`Bits`] itself above.
//! A generator is monomorphised over the width and chosen once per call by
//! [`Board::id_bound`](crate::board::Board::id_bound), so the wide storage costs the boards of
//! up to 128 cells nothing in their hot loops. Measured with callgrind on the general
//! generator: three-word sets in its loops cost 18–21 % more instructions on international,
//! russian and frisian than the two-word sets it had before; in the board's width it runs
//! 13–14 % fewer than then (one word for those boards). What remains of the wider storage is
//! the cost of copying positions (160 bytes), a few percent on the drop games and Konane.

/// Number of 64-bit words in a [`Bits`] set.
pub const WORDS: usize = 3;
/// The largest number of cells a board may have.
pub const MAX_CELLS: usize = WORDS * 64;

/// A set of cells, indexed `0..MAX_CELLS`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bits([u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set holding only `cell`.
    #[inline(always)]
    pub fn single(cell: usize) -> Bits {
        let mut b = Bits::EMPTY;
        b.insert(cell);
        b
    }

    #[inline(always)]
    pub fn contains(&self, cell: usize) -> bool {
        self.0
            .get(cell >> 6)
            .is_some_and(|w| (w >> (cell & 63)) & 1 != 0)
    }

    #[inline(always)]
    pub fn insert(&mut self, cell: usize) {
        if let Some(w) = self.0.get_mut(cell >> 6) {
            *w |= 1u64 << (cell & 63);
        }
    }

    #[inline(always)]
    pub fn remove(&mut self, cell: usize) {
        if let Some(w) = self.0.get_mut(cell >> 6) {
            *w &= !(1u64 << (cell & 63));
        }
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Whether the set holds more than `n` cells, for a small `n`: its lowest cells taken off
    /// one by one (cheaper than [`Bits::len`], a population count per word on processors
    /// without the instruction).
    #[inline(always)]
    pub fn more_than(&self, n: u32) -> bool {
        let mut rest = *self;
        for _ in 0..n {
            match rest.0.iter_mut().find(|w| **w != 0) {
                Some(w) => *w &= *w - 1,
                None => return false,
            }
        }
        !rest.is_empty()
    }

    /// Whether the set holds exactly one cell (cheaper than [`Bits::len`], a population count
    /// per word on processors without the instruction).
    #[inline(always)]
    pub fn is_single(&self) -> bool {
        let mut seen = 0u32;
        for &w in &self.0 {
            seen += u32::from(w != 0) + u32::from(w & w.wrapping_sub(1) != 0);
        }
        seen == 1
    }

    #[inline(always)]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    pub fn union(self, other: Bits) -> Bits {
        let mut r = self;
        for i in 0..WORDS {
            r.0[i] |= other.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn intersect(self, other: Bits) -> Bits {
        let mut r = self;
        for i in 0..WORDS {
            r.0[i] &= other.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn minus(self, other: Bits) -> Bits {
        let mut r = self;
        for i in 0..WORDS {
            r.0[i] &= !other.0[i];
        }
        r
    }

    /// Every cell id moved by `off` (positive: to higher ids); ids leaving the range
    /// `0..MAX_CELLS` are dropped.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    pub fn shifted(self, off: i32) -> Bits {
        if off.unsigned_abs() as usize >= MAX_CELLS {
            return Bits::EMPTY;
        }
        if WORDS == 2 {
            let v = self.0[0] as u128 | (self.0[1] as u128) << 64;
            let r = if off >= 0 { v << off } else { v >> -off };
            let mut out = [0u64; WORDS];
            out[0] = r as u64;
            out[WORDS - 1] = (r >> 64) as u64;
            return Bits(out);
        }
        if WORDS == 3 && off != 0 && off.unsigned_abs() < 64 {
            let w = self.0;
            let mut out = [0u64; WORDS];
            if off > 0 {
                let (s, t) = (off as u32, 64 - off as u32);
                out[0] = w[0] << s;
                out[1] = (w[1] << s) | (w[0] >> t);
                out[WORDS - 1] = (w[WORDS - 1] << s) | (w[1] >> t);
            } else {
                let (s, t) = ((-off) as u32, (64 + off) as u32);
                out[0] = (w[0] >> s) | (w[1] << t);
                out[1] = (w[1] >> s) | (w[WORDS - 1] << t);
                out[WORDS - 1] = w[WORDS - 1] >> s;
            }
            return Bits(out);
        }
        let words = (off.unsigned_abs() / 64) as usize;
        let bits = off.unsigned_abs() % 64;
        let mut r = [0u64; WORDS];
        if off >= 0 {
            for i in (words..WORDS).rev() {
                let src = i - words;
                let mut w = self.0[src] << bits;
                if bits != 0 && src > 0 {
                    w |= self.0[src - 1] >> (64 - bits);
                }
                r[i] = w;
            }
        } else {
            for i in 0..WORDS - words {
                let src = i + words;
                let mut w = self.0[src] >> bits;
                if bits != 0 && src + 1 < WORDS {
                    w |= self.0[src + 1] << (64 - bits);
                }
                r[i] = w;
            }
        }
        Bits(r)
    }

    /// The words of the set, lowest cells first.
    #[inline(always)]
    pub fn words(&self) -> [u64; WORDS] {
        self.0
    }

    /// The set of these words, lowest cells first.
    #[inline(always)]
    pub fn from_words(words: [u64; WORDS]) -> Bits {
        Bits(words)
    }

    /// The lowest cell in the set.
    #[inline(always)]
    pub fn first(&self) -> Option<usize> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Iterates over the cells in increasing order.
    #[inline(always)]
    pub fn iter(self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut b = Bits::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

/// Iterator over the cells of a [`Bits`] set.
pub struct BitsIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// A set of cells in the width a move generator works in: `u64` (boards of up to 64 cell
/// ids), `u128` or `[u64; 2]` (up to 128) or [`Bits`] (up to [`MAX_CELLS`]).
pub trait CellSet: Copy + Eq + Ord + Default + Send + Sync + std::fmt::Debug + 'static {
    /// How many cell ids the set holds.
    const CELLS: usize;
    /// The iterator of [`CellSet::cells`].
    type Cells: Iterator<Item = usize>;
    fn from_bits(b: Bits) -> Self;
    fn to_bits(self) -> Bits;
    fn bit(i: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn andn(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// Every cell moved by `off` ids (positive: up); cells leaving the set are dropped.
    fn shift(self, off: i32) -> Self;
    /// [`CellSet::shift`] for callers that keep only cells `c` with `c - off` a cell id of
    /// the set's width: those are the same, others may be anything. A rotation of the word
    /// where the width is one integer (no branch on the sign of `off`).
    #[inline(always)]
    fn rot(self, off: i32) -> Self {
        self.shift(off)
    }
    fn count(self) -> u32;
    fn is_zero(self) -> bool;
    /// The lowest cell (the set must not be empty).
    fn lowest(self) -> u32;
    /// The set without its lowest cell.
    fn rest(self) -> Self;

    /// Whether `cell` is in the set.
    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        !self.and(Self::bit(cell as u32)).is_zero()
    }
    /// The set with `cell` added.
    #[inline(always)]
    fn with(self, cell: usize) -> Self {
        self.or(Self::bit(cell as u32))
    }
    /// The set with `cell` taken out.
    #[inline(always)]
    fn without(self, cell: usize) -> Self {
        self.andn(Self::bit(cell as u32))
    }
    /// The cells, lowest first.
    fn cells(self) -> Self::Cells;
}

/// Iterator over the cells of a one-word set, lowest first.
pub struct WordCells(u64);

impl Iterator for WordCells {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

/// The operations whose code is the same for every integer width.
macro_rules! same_ops {
    () => {
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
        fn rot(self, off: i32) -> Self {
            // The rotation is taken modulo the width, a power of two that divides 2^32.
            self.rotate_left(off as u32)
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
    };
}

/// Iterator over the cells of a two-word set, lowest first.
pub struct TwoWordCells(u64, u64);

impl Iterator for TwoWordCells {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 != 0 {
            let c = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(c)
        } else if self.1 != 0 {
            let c = self.1.trailing_zeros() as usize;
            self.1 &= self.1 - 1;
            Some(64 + c)
        } else {
            None
        }
    }
}

impl CellSet for u64 {
    const CELLS: usize = 64;
    type Cells = WordCells;
    #[inline(always)]
    fn cells(self) -> WordCells {
        WordCells(self)
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        b.0[0]
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        let mut w = [0u64; WORDS];
        w[0] = self;
        Bits(w)
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        1u64 << i
    }
    same_ops!();
}

impl CellSet for u128 {
    const CELLS: usize = 128;
    // Word by word: the lowest cell and the rest of a u128 take a branch and a borrow each.
    type Cells = TwoWordCells;
    #[inline(always)]
    fn cells(self) -> TwoWordCells {
        TwoWordCells(self as u64, (self >> 64) as u64)
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        b.0[0] as u128 | (b.0[1] as u128) << 64
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        let mut w = [0u64; WORDS];
        w[0] = self as u64;
        w[1] = (self >> 64) as u64;
        Bits(w)
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        1u128 << i
    }
    same_ops!();
}

/// Two words in memory: the general generator's sets for boards of 65 to 128 cell ids. The
/// generators test and update cells one by one in their line and landing loops, where a
/// `u128` held in registers needs several instructions and a branch per variable shift
/// (Dameo's perft ran 50 % slower in `u128` than in this form, which is the two-word `Bits` the
/// general generator had before the storage widened).
impl CellSet for [u64; 2] {
    const CELLS: usize = 128;
    type Cells = TwoWordCells;
    #[inline(always)]
    fn cells(self) -> TwoWordCells {
        TwoWordCells(self[0], self[1])
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        [b.0[0], b.0[1]]
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        let mut w = [0u64; WORDS];
        w[0] = self[0];
        w[1] = self[1];
        Bits(w)
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        let mut w = [0u64; 2];
        w[(i as usize >> 6) & 1] = 1u64 << (i & 63);
        w
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        [self[0] & o[0], self[1] & o[1]]
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        [self[0] | o[0], self[1] | o[1]]
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        [self[0] & !o[0], self[1] & !o[1]]
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        [self[0] ^ o[0], self[1] ^ o[1]]
    }
    #[inline(always)]
    fn shift(self, off: i32) -> Self {
        let v = (self[0] as u128 | (self[1] as u128) << 64).shift(off);
        [v as u64, (v >> 64) as u64]
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self[0].count_ones() + self[1].count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self[0] | self[1] == 0
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        if self[0] != 0 {
            self[0].trailing_zeros()
        } else {
            64 + self[1].trailing_zeros()
        }
    }
    #[inline(always)]
    fn rest(self) -> Self {
        if self[0] != 0 {
            [self[0] & (self[0] - 1), self[1]]
        } else {
            [0, self[1] & self[1].wrapping_sub(1)]
        }
    }
    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        (self[(cell >> 6) & 1] >> (cell & 63)) & 1 != 0
    }
    #[inline(always)]
    fn with(self, cell: usize) -> Self {
        let mut r = self;
        r[(cell >> 6) & 1] |= 1u64 << (cell & 63);
        r
    }
    #[inline(always)]
    fn without(self, cell: usize) -> Self {
        let mut r = self;
        r[(cell >> 6) & 1] &= !(1u64 << (cell & 63));
        r
    }
}

impl CellSet for Bits {
    const CELLS: usize = MAX_CELLS;
    type Cells = BitsIter;
    #[inline(always)]
    fn cells(self) -> BitsIter {
        self.iter()
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> Self {
        b
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        self
    }
    #[inline(always)]
    fn bit(i: u32) -> Self {
        Bits::single(i as usize)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.intersect(o)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.union(o)
    }
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        self.minus(o)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..WORDS {
            r.0[i] ^= o.0[i];
        }
        r
    }
    #[inline(always)]
    fn shift(self, off: i32) -> Self {
        self.shifted(off)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.len()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.is_empty()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.first().map_or(MAX_CELLS as u32, |c| c as u32)
    }
    #[inline(always)]
    fn rest(self) -> Self {
        let mut r = self;
        if let Some(w) = r.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        r
    }
    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        self.contains(cell)
    }
    #[inline(always)]
    fn with(self, cell: usize) -> Self {
        let mut r = self;
        r.insert(cell);
        r
    }
    #[inline(always)]
    fn without(self, cell: usize) -> Self {
        let mut r = self;
        r.remove(cell);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: Bits = [0, 5, 63, 64, 127].into_iter().collect();
        assert_eq!(a.len(), 5);
        assert!(a.contains(64) && !a.contains(65));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 127]);
        let b = Bits::single(64);
        assert_eq!(a.minus(b).len(), 4);
        assert_eq!(a.intersect(b), b);
        assert!(b.is_single() && !a.is_single() && !Bits::EMPTY.is_single());
        assert!(a.more_than(4) && !a.more_than(5) && !Bits::EMPTY.more_than(0));
        assert!(b.more_than(0) && !b.more_than(1));
        assert!(!Bits::single(64).union(Bits::single(65)).is_single());
        assert!(!Bits::single(3).union(Bits::single(130)).is_single());
        assert_eq!(Bits::EMPTY.first(), None);
        assert_eq!(b.first(), Some(64));
        assert_eq!(
            a.shifted(1).iter().collect::<Vec<_>>(),
            vec![1, 6, 64, 65, 128]
        );
        assert_eq!(a.shifted(-6).iter().collect::<Vec<_>>(), vec![57, 58, 121]);
        assert_eq!(
            a.shifted(70).iter().collect::<Vec<_>>(),
            vec![70, 75, 133, 134]
        );
        assert_eq!(a.shifted(-64).iter().collect::<Vec<_>>(), vec![0, 63]);
        assert_eq!(a.shifted(MAX_CELLS as i32), Bits::EMPTY);
        let wide: Bits = [3, 63, 64, 127, 128, 159, 191].into_iter().collect();
        assert_eq!(
            wide.shifted(13).iter().collect::<Vec<_>>(),
            vec![16, 76, 77, 140, 141, 172]
        );
        assert_eq!(
            wide.shifted(-13).iter().collect::<Vec<_>>(),
            vec![50, 51, 114, 115, 146, 178]
        );
        assert_eq!(wide.shifted(130).iter().collect::<Vec<_>>(), vec![133]);
        assert_eq!(wide.shifted(-130).iter().collect::<Vec<_>>(), vec![29, 61]);
    }

    /// Every width gives the same answers as the others on the cells it holds.
    #[test]
    fn cell_sets_of_every_width_agree() {
        fn check<S: CellSet>(cells: &[usize], off: i32) {
            let b: Bits = cells.iter().copied().filter(|&c| c < S::CELLS).collect();
            let s = S::from_bits(b);
            assert_eq!(s.to_bits(), b);
            assert_eq!(s.count(), b.len());
            assert_eq!(s.cells().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
            let mut shifted = b.shifted(off);
            for c in S::CELLS..MAX_CELLS {
                shifted.remove(c);
            }
            assert_eq!(s.shift(off).to_bits(), shifted);
            // A rotation agrees with the shift on the cells whose source is in the width.
            let sourced: Bits = (0..S::CELLS)
                .filter(|&c| (0..S::CELLS as i32).contains(&(c as i32 - off)))
                .collect();
            let sourced = S::from_bits(sourced);
            assert_eq!(s.rot(off).and(sourced), s.shift(off).and(sourced));
            assert!(b.iter().all(|c| s.has(c)) && !s.has(2));
            assert_eq!(s.with(2).without(2), s);
        }
        let cells = [0, 1, 5, 40, 63, 64, 100, 127, 128, 150, 191];
        for off in [-13, -6, -1, 1, 5, 13] {
            check::<u64>(&cells, off);
            check::<u128>(&cells, off);
            check::<[u64; 2]>(&cells, off);
            check::<Bits>(&cells, off);
        }
    }
}
