//! Bitsets: `u64` for up to 64 atoms, [`Wide`] for a fixed number of
//! words, [`SparseBits`](crate::SparseBits) for any number of atoms.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of bits, one per atom.
///
/// Implemented by `u64` (64 atoms, the fast path), by [`Wide<N>`]
/// (`N * 64` atoms) and by [`SparseBits`](crate::SparseBits) (any number of atoms, on the
/// heap). Everything in this crate is generic over `Bits` and
/// monomorphized, so the `u64` path has no dynamic dispatch and no heap
/// allocation per state.
///
/// The fixed widths are `Copy`, and cloning them is a copy; the heap-backed
/// [`SparseBits`](crate::SparseBits) is only `Clone`. Operators take their left operand by
/// value and their right one by value or by reference (`a.clone() & &b`),
/// so generic code clones only what it consumes.
///
/// ```
/// use state_atomic::Bits;
/// let b = <u64 as Bits>::bit(3) | <u64 as Bits>::bit(5);
/// assert!(b.get(3) && !b.get(4));
/// assert_eq!(Bits::count_ones(&b), 2);
/// let mut seen = Vec::new();
/// b.for_each_one(|i| seen.push(i));
/// assert_eq!(seen, [3, 5]);
/// ```
pub trait Bits:
    Clone
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + for<'a> BitAnd<&'a Self, Output = Self>
    + for<'a> BitOr<&'a Self, Output = Self>
    + for<'a> BitXor<&'a Self, Output = Self>
{
    /// How many atoms fit (`usize::MAX` for [`SparseBits`](crate::SparseBits), which holds
    /// any bit index).
    const CAPACITY: usize;

    /// No bit set.
    fn zero() -> Self;

    /// Only bit `index` set. `index` must be below [`CAPACITY`](Bits::CAPACITY).
    fn bit(index: usize) -> Self;

    /// Whether bit `index` is set.
    fn get(&self, index: usize) -> bool;

    /// How many bits are set.
    fn count_ones(&self) -> u32;

    /// Whether no bit is set.
    fn is_zero(&self) -> bool;

    /// Calls `f` with the index of every set bit, in increasing order.
    fn for_each_one<F: FnMut(usize)>(&self, f: F);

    /// The lowest `n` bits set (`n` at most [`CAPACITY`](Bits::CAPACITY)).
    fn low(n: usize) -> Self;

    /// The bits at `indices` set (in any order, repeats allowed), each
    /// below [`CAPACITY`](Bits::CAPACITY): the [`bit`](Self::bit)s or-ed
    /// together, in one step where that is faster.
    ///
    /// ```
    /// use state_atomic::{Bits, SparseBits};
    /// assert_eq!(<u64 as Bits>::from_ones([5, 1, 5]), 0b100010);
    /// assert_eq!(SparseBits::from_ones([70, 3]), SparseBits::bit(3) | SparseBits::bit(70));
    /// ```
    #[inline]
    fn from_ones(indices: impl IntoIterator<Item = usize>) -> Self {
        indices
            .into_iter()
            .fold(Self::zero(), |bits, i| bits | Self::bit(i))
    }

    /// The 64 bits from bit `64 * index` on (`index` below
    /// `CAPACITY / 64`, or 0); packed states read their fields with it.
    ///
    /// ```
    /// use state_atomic::{Bits, Wide};
    /// assert_eq!(Wide::<2>::bit(67).word(1), 0b1000);
    /// assert_eq!(<u64 as Bits>::bit(5).word(0), 32);
    /// ```
    #[inline]
    fn word(&self, index: usize) -> u64 {
        (0..64)
            .filter(|b| self.get(64 * index + b))
            .fold(0, |word, b| word | 1 << b)
    }

    /// Whether `self` and `other` agree on every bit of `mask`:
    /// `((self ^ other) & mask).is_zero()`, the test of a state against a
    /// partial state, without building the sets in between.
    ///
    /// ```
    /// use state_atomic::Bits;
    /// assert!(0b0110_u64.agrees_on(&0b0100, &0b1100));
    /// assert!(!0b0110_u64.agrees_on(&0b0100, &0b0010));
    /// ```
    #[inline]
    fn agrees_on(&self, other: &Self, mask: &Self) -> bool {
        ((self.clone() ^ other) & mask).is_zero()
    }

    /// The heap memory the set holds, in bytes (0 for the fixed widths).
    ///
    /// ```
    /// use state_atomic::{Bits, SparseBits};
    /// assert_eq!(<u64 as Bits>::bit(5).heap_bytes(), 0);
    /// assert!(SparseBits::bit(5).heap_bytes() > 0);
    /// ```
    #[inline]
    fn heap_bytes(&self) -> usize {
        0
    }
}

impl Bits for u64 {
    const CAPACITY: usize = 64;

    #[inline]
    fn zero() -> Self {
        0
    }

    #[inline]
    fn bit(index: usize) -> Self {
        1 << index
    }

    #[inline]
    fn get(&self, index: usize) -> bool {
        self >> index & 1 == 1
    }

    #[inline]
    fn count_ones(&self) -> u32 {
        u64::count_ones(*self)
    }

    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }

    #[inline]
    fn for_each_one<F: FnMut(usize)>(&self, mut f: F) {
        let mut rest = *self;
        while rest != 0 {
            f(rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }

    #[inline]
    fn low(n: usize) -> Self {
        if n >= 64 {
            u64::MAX
        } else {
            (1 << n) - 1
        }
    }

    #[inline]
    fn word(&self, _: usize) -> u64 {
        *self
    }
}

/// A bitset of `N` 64-bit words: `N * 64` atoms, with the same API as `u64`.
///
/// ```
/// use state_atomic::{Bits, Wide};
/// let b = Wide::<2>::bit(70) | Wide::<2>::bit(1);
/// assert!(b.get(70) && b.get(1));
/// assert_eq!(b.count_ones(), 2);
/// assert_eq!(Wide::<2>::CAPACITY, 128);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

impl<const N: usize> Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Wide(")?;
        for (i, word) in self.0.iter().enumerate().rev() {
            if i + 1 < N {
                f.write_str("_")?;
            }
            write!(f, "{word:016x}")?;
        }
        f.write_str(")")
    }
}

macro_rules! wide_op {
    ($trait:ident, $method:ident, $assign:tt) => {
        impl<const N: usize> $trait for Wide<N> {
            type Output = Self;
            #[inline]
            fn $method(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o $assign r;
                }
                Self(out)
            }
        }

        impl<const N: usize> $trait<&Wide<N>> for Wide<N> {
            type Output = Self;
            #[inline]
            fn $method(self, rhs: &Self) -> Self {
                $trait::$method(self, *rhs)
            }
        }
    };
}

wide_op!(BitAnd, bitand, &=);
wide_op!(BitOr, bitor, |=);
wide_op!(BitXor, bitxor, ^=);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Self(self.0.map(|w| !w))
    }
}

impl<const N: usize> Bits for Wide<N> {
    const CAPACITY: usize = 64 * N;

    #[inline]
    fn zero() -> Self {
        Self([0; N])
    }

    #[inline]
    fn bit(index: usize) -> Self {
        let mut words = [0; N];
        words[index / 64] = 1 << (index % 64);
        Self(words)
    }

    #[inline]
    fn get(&self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 == 1
    }

    #[inline]
    fn count_ones(&self) -> u32 {
        self.0.iter().copied().map(u64::count_ones).sum()
    }

    #[inline]
    fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    fn for_each_one<F: FnMut(usize)>(&self, mut f: F) {
        for (i, word) in self.0.iter().enumerate() {
            word.for_each_one(|b| f(i * 64 + b));
        }
    }

    #[inline]
    fn low(n: usize) -> Self {
        let mut words = [0; N];
        for (i, w) in words.iter_mut().enumerate() {
            *w = <u64 as Bits>::low(n.saturating_sub(i * 64));
        }
        Self(words)
    }

    #[inline]
    fn word(&self, index: usize) -> u64 {
        self.0[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_matches_u64_on_the_low_word() {
        for n in [0, 1, 5, 63, 64] {
            assert_eq!(Wide::<1>::low(n).0[0], <u64 as Bits>::low(n));
        }
        assert_eq!(Wide::<2>::low(70).count_ones(), 70);
        let mut seen = Vec::new();
        (Wide::<3>::bit(0) | Wide::<3>::bit(130)).for_each_one(|i| seen.push(i));
        assert_eq!(seen, [0, 130]);
        assert!((!Wide::<2>::zero()).get(127));
    }
}
