//! The narrow generator's cell sets: one machine word, or two ([`CellSet`]).

use crate::bits::Bits;

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
    same_ops!();
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
    same_ops!();
}
