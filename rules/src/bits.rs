//! A fixed-size set of board cells.
//!
//! Every board in the catalogue has at most [`MAX_CELLS`] cells (the 12×12 Canadian board has
//! 72 dark squares, the full 8×8 boards 64). The set is a pair of machine words, so it is `Copy`
//! and the hot loops of move generation never allocate. Widening it (for the 160-square Camelot
//! board) is a change to [`WORDS`] alone.

/// Number of 64-bit words in a [`Bits`] set.
pub const WORDS: usize = 2;
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
        (self.0[(cell >> 6) % WORDS] >> (cell & 63)) & 1 != 0
    }

    #[inline(always)]
    pub fn insert(&mut self, cell: usize) {
        self.0[(cell >> 6) % WORDS] |= 1u64 << (cell & 63);
    }

    #[inline(always)]
    pub fn remove(&mut self, cell: usize) {
        self.0[(cell >> 6) % WORDS] &= !(1u64 << (cell & 63));
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
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
        assert_eq!(Bits::EMPTY.first(), None);
        assert_eq!(b.first(), Some(64));
        assert_eq!(a.shifted(1).iter().collect::<Vec<_>>(), vec![1, 6, 64, 65]);
        assert_eq!(a.shifted(-6).iter().collect::<Vec<_>>(), vec![57, 58, 121]);
        assert_eq!(a.shifted(70).iter().collect::<Vec<_>>(), vec![70, 75]);
        assert_eq!(a.shifted(-64).iter().collect::<Vec<_>>(), vec![0, 63]);
        assert_eq!(a.shifted(128), Bits::EMPTY);
    }
}
