//! Edge and path costs: every integer type, and floats through [`FloatCost`].

use std::cmp::Ordering;
use std::fmt::{self, Debug, Display};
use std::hash::{Hash, Hasher};
use std::ops::Add;

use num_traits::{CheckedAdd, Zero};

/// A path cost: totally ordered, with a zero and a checked sum.
///
/// Implemented for every primitive integer type and for [`FloatCost`]. Edge
/// costs must be valid ([`Cost::is_valid_edge`]): the engine reports a
/// negative or NaN edge as [`SearchError::InvalidCost`](crate::SearchError)
/// naming the node, and an overflowing path sum as
/// [`SearchError::CostOverflow`](crate::SearchError), naming the node and
/// [`Cost::largest`]. A path cost plus its heuristic estimate (a priority)
/// saturates at [`Cost::largest`] instead: it is no path's cost.
pub trait Cost:
    Copy + Ord + Debug + Display + Zero + CheckedAdd + Add<Output = Self> + Send + Sync + 'static
{
    /// Whether this value may label an edge: not negative, not NaN.
    fn is_valid_edge(self) -> bool;

    /// `floor(self * weight)`, for weighted A*. `weight` is at least 1.
    ///
    /// Rounding down keeps weighted A*'s bound: `floor(w h) <= w h`.
    #[must_use]
    fn scale(self, weight: f64) -> Self;

    /// The cost as a float, for reports and ratios.
    fn to_f64(self) -> f64;

    /// The cost as a bucket number for bucket-based open lists, if it is a
    /// non-negative integer that fits `usize`; `None` keeps the heap.
    fn to_bucket(self) -> Option<usize>;

    /// The largest value a path cost may take, which errors name when a
    /// path passes it.
    ///
    /// ```
    /// use search_core::{Cost, FloatCost};
    /// assert_eq!(<u32 as Cost>::largest(), 4_294_967_295);
    /// assert_eq!(FloatCost::largest(), FloatCost::new(f64::MAX));
    /// ```
    fn largest() -> Self;

    /// `self + other`, or [`largest`](Cost::largest) if the sum passes it:
    /// a priority `g + h` that saturates still orders after every one that
    /// fits, and a node whose `g + h` passes the largest path cost is on no
    /// path that fits the type, so its place among such nodes is moot.
    ///
    /// ```
    /// use search_core::Cost;
    /// assert_eq!(Cost::saturating_add(u32::MAX - 1, 5), u32::MAX);
    /// assert_eq!(Cost::saturating_add(2_u32, 3), 5);
    /// ```
    #[must_use]
    fn saturating_add(self, other: Self) -> Self {
        self.checked_add(&other).unwrap_or_else(Self::largest)
    }
}

macro_rules! integer_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            #[allow(unused_comparisons, reason = "unsigned types are never negative")]
            #[inline]
            fn is_valid_edge(self) -> bool {
                self >= 0
            }

            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_lossless,
                clippy::float_cmp,
                reason = "the lints differ between the integer types of this macro"
            )]
            #[inline]
            fn scale(self, weight: f64) -> Self {
                if weight == 1.0 {
                    self
                } else {
                    // Float-to-int `as` saturates, so a huge product cannot wrap.
                    (self as f64 * weight).floor() as $t
                }
            }

            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_lossless,
                reason = "the lints differ between the integer types of this macro"
            )]
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }

            #[inline]
            fn to_bucket(self) -> Option<usize> {
                usize::try_from(self).ok()
            }

            fn largest() -> Self {
                <$t>::MAX
            }

            #[inline]
            fn saturating_add(self, other: Self) -> Self {
                <$t>::saturating_add(self, other)
            }
        }
    )*};
}

integer_cost!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// A finite-or-infinite `f64` cost with a total order (`f64::total_cmp`).
///
/// NaN can be stored but is never a valid edge cost: the engine rejects it.
///
/// ```
/// use search_core::FloatCost;
/// let a = FloatCost::new(1.5);
/// assert!(a < FloatCost::new(2.0));
/// assert_eq!((a + a).get(), 3.0);
/// ```
#[derive(Clone, Copy, Default)]
pub struct FloatCost(f64);

impl FloatCost {
    /// Wraps a float.
    pub const fn new(value: f64) -> Self {
        Self(value)
    }

    /// The wrapped float.
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl From<f64> for FloatCost {
    fn from(value: f64) -> Self {
        Self(value)
    }
}

impl PartialEq for FloatCost {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for FloatCost {}

impl PartialOrd for FloatCost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FloatCost {
    fn cmp(&self, other: &Self) -> Ordering {
        // -0.0 and 0.0 are one cost.
        (self.0 + 0.0).total_cmp(&(other.0 + 0.0))
    }
}

impl Hash for FloatCost {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.0 + 0.0).to_bits().hash(state);
    }
}

impl Debug for FloatCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(&self.0, f)
    }
}

impl Display for FloatCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.0, f)
    }
}

impl Add for FloatCost {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self(self.0 + rhs.0)
    }
}

impl CheckedAdd for FloatCost {
    fn checked_add(&self, rhs: &Self) -> Option<Self> {
        let sum = self.0 + rhs.0;
        sum.is_finite().then_some(Self(sum))
    }
}

impl Zero for FloatCost {
    fn zero() -> Self {
        Self(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

impl Cost for FloatCost {
    fn is_valid_edge(self) -> bool {
        self.0 >= 0.0
    }

    fn scale(self, weight: f64) -> Self {
        Self(self.0 * weight)
    }

    fn to_f64(self) -> f64 {
        self.0
    }

    fn to_bucket(self) -> Option<usize> {
        None
    }

    fn largest() -> Self {
        Self(f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_validity() {
        assert!(0_i32.is_valid_edge());
        assert!(!(-1_i64).is_valid_edge());
        assert!(7_u8.is_valid_edge());
        assert!(FloatCost::new(-0.0).is_valid_edge());
        assert!(!FloatCost::new(f64::NAN).is_valid_edge());
        assert!(!FloatCost::new(-0.5).is_valid_edge());
    }

    #[test]
    fn scaling_rounds_down_and_saturates() {
        assert_eq!(7_u32.scale(1.5), 10);
        assert_eq!(u8::MAX.scale(2.0), u8::MAX);
        assert_eq!(FloatCost::new(2.0).scale(1.25), FloatCost::new(2.5));
    }

    #[test]
    fn float_overflow_is_detected() {
        assert!(FloatCost::new(f64::MAX)
            .checked_add(&FloatCost::new(f64::MAX))
            .is_none());
    }
}
