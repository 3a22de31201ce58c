//! [`SparseBits`]: a bitset of any width, on the heap.

use std::fmt::{self, Debug};
use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::Bits;

/// A set of bits of any width: it stores its words that are not zero (as
/// `(index, word)` pairs, by increasing index), so a state of a task with
/// a hundred thousand atoms takes the words its true atoms fall in, and an
/// action's masks take the few words its atoms fall in.
///
/// It is the [`Bits`] for tasks beyond the widest [`Wide`](crate::Wide)
/// the program compiles, with the same API; [`CAPACITY`](Bits::CAPACITY)
/// is `usize::MAX`. Each set is a heap allocation (none when empty), so it
/// is slower than the fixed widths and is `Clone` but not `Copy`.
///
/// `!` is exact: the complement of a finite set holds every other bit, up
/// to any index. Such a set is only a step in an expression (`a & !b`):
/// [`count_ones`](Bits::count_ones) saturates on it and
/// [`for_each_one`](Bits::for_each_one) refuses it.
///
/// ```
/// use state_atomic::{Bits, SparseBits};
/// let a = SparseBits::bit(3) | SparseBits::bit(1_000_000);
/// let b = SparseBits::bit(3) | SparseBits::bit(7);
/// assert_eq!(a.clone() & &b, SparseBits::bit(3));
/// assert!((a.clone() & !b.clone()).get(1_000_000));
/// let mut seen = Vec::new();
/// (a ^ b).for_each_one(|i| seen.push(i));
/// assert_eq!(seen, [7, 1_000_000]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct SparseBits {
    /// `(index, word)` for each word that differs from the fill word, by
    /// increasing index: the set's one representation, so that equal sets
    /// compare and hash equal.
    words: Vec<(usize, u64)>,
    /// Whether every word not listed is all ones (a complement) rather
    /// than zero.
    filled: bool,
}

/// The word every unlisted word of a set with `filled` is.
#[inline]
fn fill_word(filled: bool) -> u64 {
    if filled {
        u64::MAX
    } else {
        0
    }
}

impl SparseBits {
    /// The word every unlisted word is.
    #[inline]
    fn fill(&self) -> u64 {
        fill_word(self.filled)
    }

    /// Word `index`, listed or not.
    #[inline]
    fn word_at(&self, index: usize) -> u64 {
        match self.words.binary_search_by_key(&index, |&(i, _)| i) {
            Ok(at) => self.words[at].1,
            Err(_) => self.fill(),
        }
    }

    /// `op` applied word by word to `a` and `b`.
    fn combine(a: &Self, b: &Self, op: impl Fn(u64, u64) -> u64) -> Self {
        let fill = op(a.fill(), b.fill());
        let mut words = Vec::with_capacity(a.words.len() + b.words.len());
        let (mut i, mut j) = (0, 0);
        while i < a.words.len() || j < b.words.len() {
            let (ia, ib) = (
                a.words.get(i).map_or(usize::MAX, |w| w.0),
                b.words.get(j).map_or(usize::MAX, |w| w.0),
            );
            let index = ia.min(ib);
            let wa = if ia == index { a.words[i].1 } else { a.fill() };
            let wb = if ib == index { b.words[j].1 } else { b.fill() };
            i += usize::from(ia == index);
            j += usize::from(ib == index);
            let word = op(wa, wb);
            if word != fill {
                words.push((index, word));
            }
        }
        words.shrink_to_fit();
        Self {
            words,
            filled: fill == u64::MAX,
        }
    }

    /// `self op rhs` in place for `op` `|` or `^` (which keep a zero word
    /// of either side's as the other's) where `rhs` starts at or after
    /// this set's last word, as a set built bit by bit in increasing order
    /// grows; `false`, untouched, otherwise.
    fn extend(&mut self, rhs: &Self, op: impl Fn(u64, u64) -> u64) -> bool {
        if self.filled || rhs.filled {
            return false;
        }
        let mut rest = rhs.words.as_slice();
        match (self.words.last_mut(), rest.first()) {
            (Some(last), Some(&(first, word))) if first == last.0 => {
                last.1 = op(last.1, word);
                if last.1 == 0 {
                    self.words.pop();
                }
                rest = &rest[1..];
            }
            (Some(last), Some(&(first, _))) if first < last.0 => return false,
            _ => {}
        }
        self.words.extend_from_slice(rest);
        true
    }
}

impl Debug for SparseBits {
    /// The set bits' indices, `!` before those of a complement's clear bits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.filled {
            f.write_str("!")?;
        }
        f.write_str("SparseBits")?;
        let mut set = f.debug_set();
        for &(index, word) in &self.words {
            (word ^ self.fill()).for_each_one(|b| {
                set.entry(&(index * 64 + b));
            });
        }
        set.finish()
    }
}

impl BitAnd<&SparseBits> for SparseBits {
    type Output = Self;

    fn bitand(mut self, rhs: &Self) -> Self {
        if self.filled {
            return SparseBits::combine(&self, rhs, |a, b| a & b);
        }
        // Only the words listed here can stay set: narrow them in place.
        let mut j = 0;
        self.words.retain_mut(|(index, word)| {
            while rhs.words.get(j).is_some_and(|&(i, _)| i < *index) {
                j += 1;
            }
            *word &= match rhs.words.get(j) {
                Some(&(i, w)) if i == *index => w,
                _ => rhs.fill(),
            };
            *word != 0
        });
        self
    }
}

impl BitOr<&SparseBits> for SparseBits {
    type Output = Self;

    fn bitor(mut self, rhs: &Self) -> Self {
        if self.extend(rhs, |a, b| a | b) {
            return self;
        }
        SparseBits::combine(&self, rhs, |a, b| a | b)
    }
}

impl BitXor<&SparseBits> for SparseBits {
    type Output = Self;

    fn bitxor(mut self, rhs: &Self) -> Self {
        if self.extend(rhs, |a, b| a ^ b) {
            return self;
        }
        SparseBits::combine(&self, rhs, |a, b| a ^ b)
    }
}

macro_rules! sparse_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for SparseBits {
            type Output = Self;

            #[inline]
            fn $method(self, rhs: Self) -> Self {
                self $op &rhs
            }
        }

        impl $trait<&SparseBits> for &SparseBits {
            type Output = SparseBits;

            #[inline]
            fn $method(self, rhs: &SparseBits) -> SparseBits {
                SparseBits::combine(self, rhs, |a, b| a $op b)
            }
        }
    };
}

sparse_op!(BitAnd, bitand, &);
sparse_op!(BitOr, bitor, |);
sparse_op!(BitXor, bitxor, ^);

impl Not for SparseBits {
    type Output = Self;

    fn not(mut self) -> Self {
        for (_, word) in &mut self.words {
            *word = !*word;
        }
        self.filled = !self.filled;
        self
    }
}

impl Not for &SparseBits {
    type Output = SparseBits;

    fn not(self) -> SparseBits {
        !self.clone()
    }
}

impl Bits for SparseBits {
    const CAPACITY: usize = usize::MAX;

    #[inline]
    fn zero() -> Self {
        Self::default()
    }

    #[inline]
    fn bit(index: usize) -> Self {
        Self {
            words: vec![(index / 64, 1 << (index % 64))],
            filled: false,
        }
    }

    #[inline]
    fn get(&self, index: usize) -> bool {
        self.word_at(index / 64) >> (index % 64) & 1 == 1
    }

    /// How many bits are set: `u32::MAX` for a complement, or past it.
    fn count_ones(&self) -> u32 {
        if self.filled {
            return u32::MAX;
        }
        let ones: usize = self.words.iter().map(|w| w.1.count_ones() as usize).sum();
        u32::try_from(ones).unwrap_or(u32::MAX)
    }

    #[inline]
    fn is_zero(&self) -> bool {
        !self.filled && self.words.is_empty()
    }

    /// Calls `f` with the index of every set bit, in increasing order.
    ///
    /// # Panics
    /// On a complement (`!a`), which holds bits up to any index.
    fn for_each_one<F: FnMut(usize)>(&self, mut f: F) {
        assert!(
            !self.filled,
            "a complement holds bits up to any index: intersect it first"
        );
        for &(index, word) in &self.words {
            word.for_each_one(|b| f(index * 64 + b));
        }
    }

    fn low(n: usize) -> Self {
        let mut words: Vec<(usize, u64)> = (0..n / 64).map(|i| (i, u64::MAX)).collect();
        if !n.is_multiple_of(64) {
            words.push((n / 64, <u64 as Bits>::low(n % 64)));
        }
        Self {
            words,
            filled: false,
        }
    }

    fn from_ones(indices: impl IntoIterator<Item = usize>) -> Self {
        let mut words: Vec<(usize, u64)> = indices
            .into_iter()
            .map(|i| (i / 64, 1 << (i % 64)))
            .collect();
        words.sort_unstable_by_key(|&(index, _)| index);
        words.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 |= next.1;
            }
            same
        });
        words.shrink_to_fit();
        Self {
            words,
            filled: false,
        }
    }

    #[inline]
    fn word(&self, index: usize) -> u64 {
        self.word_at(index)
    }

    fn agrees_on(&self, other: &Self, mask: &Self) -> bool {
        if (self.fill() ^ other.fill()) & mask.fill() != 0 {
            return false;
        }
        let agree = |index: usize, m: u64| (self.word_at(index) ^ other.word_at(index)) & m == 0;
        if mask.filled {
            // Past the check above, only a word listed somewhere can disagree.
            let listed = self.words.iter().chain(&other.words).chain(&mask.words);
            listed
                .map(|&(index, _)| index)
                .all(|index| agree(index, mask.word_at(index)))
        } else {
            mask.words.iter().all(|&(index, m)| agree(index, m))
        }
    }

    fn heap_bytes(&self) -> usize {
        self.words.capacity() * size_of::<(usize, u64)>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Wide;

    /// `SparseBits` and `Wide<4>` built from the same bits.
    fn pair(bits: &[usize]) -> (SparseBits, Wide<4>) {
        bits.iter()
            .fold((SparseBits::zero(), Wide::zero()), |(s, w), &b| {
                (s | SparseBits::bit(b), w | Wide::bit(b))
            })
    }

    fn ones(s: &SparseBits) -> Vec<usize> {
        let mut seen = Vec::new();
        s.for_each_one(|i| seen.push(i));
        seen
    }

    fn wide_ones(w: Wide<4>) -> Vec<usize> {
        let mut seen = Vec::new();
        w.for_each_one(|i| seen.push(i));
        seen
    }

    #[test]
    fn operators_match_a_fixed_width() {
        let sets: [&[usize]; 5] = [&[], &[0], &[1, 64, 200], &[3, 64, 65, 255], &[200, 201]];
        let low = (SparseBits::low(256), Wide::<4>::low(256));
        for a in sets {
            for b in sets {
                let ((sa, wa), (sb, wb)) = (pair(a), pair(b));
                assert_eq!(
                    ones(&(sa.clone() & &sb)),
                    wide_ones(wa & wb),
                    "{a:?} & {b:?}"
                );
                assert_eq!(
                    ones(&(sa.clone() | &sb)),
                    wide_ones(wa | wb),
                    "{a:?} | {b:?}"
                );
                assert_eq!(
                    ones(&(sa.clone() ^ &sb)),
                    wide_ones(wa ^ wb),
                    "{a:?} ^ {b:?}"
                );
                let and_not = (sa.clone() & !sb.clone(), wa & !wb);
                assert_eq!(ones(&and_not.0), wide_ones(and_not.1), "{a:?} & !{b:?}");
                let not_or = ((!sa.clone() | &sb) & &low.0, (!wa | wb) & low.1);
                assert_eq!(ones(&not_or.0), wide_ones(not_or.1), "!{a:?} | {b:?}");
                assert_eq!(&sa & &sb, sa.clone() & sb.clone());
                for mask in sets {
                    let (sm, wm) = pair(mask);
                    assert_eq!(sa.agrees_on(&sb, &sm), wa.agrees_on(&wb, &wm));
                    let (nm, nw) = (!sm, !wm);
                    assert_eq!(sa.agrees_on(&sb, &nm), wa.agrees_on(&wb, &nw));
                }
            }
        }
    }

    #[test]
    fn equal_sets_are_equal_however_built() {
        let a = SparseBits::bit(70) | SparseBits::bit(3);
        let b = (SparseBits::low(128) & !SparseBits::low(71)) ^ SparseBits::low(128);
        let b = b & !SparseBits::low(70) | SparseBits::bit(3);
        assert_eq!(a, b);
        assert_eq!(!!a.clone(), a);
        assert_eq!(a.clone() ^ &a, SparseBits::zero());
        // Grown at its last word, and emptied there.
        assert_eq!(
            SparseBits::bit(70) | SparseBits::bit(71),
            SparseBits::from_ones([71, 70])
        );
        assert_eq!(
            SparseBits::bit(70) ^ SparseBits::bit(70),
            SparseBits::zero()
        );
        assert!((SparseBits::bit(70) ^ SparseBits::bit(70)).words.is_empty());
        assert!((SparseBits::bit(5) & SparseBits::bit(6)).words.is_empty());
    }

    #[test]
    fn complements_hold_every_other_bit() {
        let all_but_one = !SparseBits::bit(100);
        assert!(all_but_one.get(1 << 40) && !all_but_one.get(100));
        assert_eq!(all_but_one.count_ones(), u32::MAX);
        assert_eq!(all_but_one.word(1), !(1 << 36));
        assert_eq!(format!("{all_but_one:?}"), "!SparseBits{100}");
        assert_eq!(format!("{:?}", SparseBits::low(2)), "SparseBits{0, 1}");
        assert!(!(!SparseBits::zero()).is_zero());
    }

    #[test]
    #[should_panic(expected = "a complement")]
    fn a_complement_cannot_be_listed() {
        (!SparseBits::zero()).for_each_one(|_| {});
    }
}
