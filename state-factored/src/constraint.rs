//! Per-variable constraints: what a predicate allows, and what a regression
//! subgoal asks of one variable.
//!
//! Numbers are sets of key intervals (see `value.rs`): a predicate like
//! `x != 3` is two intervals. Bools are a two-bit mask, strings a finite set
//! or the complement of one. Every constructor normalises, so equal sets are
//! equal values and hash equally.

use crate::state::heap_block;
use crate::value::{finite_float_keys, key_float, key_int, NEG_ZERO_KEY};
use crate::VarType;

/// The values one variable may take.
///
/// ```
/// use state_factored::{Action, Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let domain = Domain::new(schema);
/// let goal = domain.goal([Predicate::ge("gold", 60), Predicate::ne("gold", 70)]).unwrap();
/// let subgoal = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
/// let (_, gold) = &subgoal.constraints()[0];
/// assert!(!gold.is_universal() && !gold.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// Allowed bools: bit 0 for `false`, bit 1 for `true`.
    Bool(u8),
    /// Allowed ints, as sorted disjoint inclusive key intervals.
    Int(Intervals),
    /// Allowed floats, as sorted disjoint inclusive key intervals.
    Float(Intervals),
    /// Allowed strings.
    Str(StrSet),
}

/// Sorted, disjoint, non-adjacent inclusive intervals of order-preserving
/// keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Intervals(pub(crate) Vec<(u64, u64)>);

/// A set of string symbols: a finite set, or all strings but a finite set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StrSet {
    /// Exactly these symbols (sorted).
    Only(Vec<u32>),
    /// Every symbol but these (sorted).
    Except(Vec<u32>),
}

/// The key range a type's values live in.
fn domain(ty: VarType) -> (u64, u64) {
    match ty {
        VarType::Float => finite_float_keys(),
        _ => (0, u64::MAX),
    }
}

impl Intervals {
    /// Sorts, clamps to the type's range and merges `raw` into canonical form.
    pub(crate) fn new(ty: VarType, mut raw: Vec<(u64, u64)>) -> Self {
        let (min, max) = domain(ty);
        let float = ty == VarType::Float;
        raw.retain_mut(|(lo, hi)| {
            *lo = (*lo).max(min);
            *hi = (*hi).min(max);
            if float {
                // -0.0 is no state's value: join across it, so that sets
                // equal on every stored value are equal.
                if *lo == NEG_ZERO_KEY + 1 {
                    *lo = NEG_ZERO_KEY;
                }
                if *hi == NEG_ZERO_KEY - 1 {
                    *hi = NEG_ZERO_KEY;
                }
            }
            lo <= hi
        });
        raw.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(raw.len());
        for (lo, hi) in raw {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        if float {
            merged.retain_mut(|(lo, hi)| {
                if *lo == NEG_ZERO_KEY {
                    *lo += 1;
                }
                if *hi == NEG_ZERO_KEY {
                    *hi -= 1;
                }
                lo <= hi
            });
        }
        Self(merged)
    }

    fn universal(ty: VarType) -> Self {
        Self(vec![domain(ty)])
    }

    #[inline]
    fn contains(&self, key: u64) -> bool {
        self.0.iter().any(|&(lo, hi)| lo <= key && key <= hi)
    }

    fn intersect(&self, other: &Self) -> Self {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.0.len() && j < other.0.len() {
            let (a, b) = (self.0[i], other.0[j]);
            let lo = a.0.max(b.0);
            let hi = a.1.min(b.1);
            if lo <= hi {
                out.push((lo, hi));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Self(out)
    }

    /// The intervals as `(low, high)` ints.
    ///
    /// ```
    /// use state_factored::{Constraint, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::in_range("gold", 3, 9)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// let Constraint::Int(set) = &node.constraints()[0].1 else { panic!() };
    /// assert_eq!(set.to_ints(), vec![(3, 9)]);
    /// ```
    pub fn to_ints(&self) -> Vec<(i64, i64)> {
        self.0
            .iter()
            .map(|&(lo, hi)| (key_int(lo), key_int(hi)))
            .collect()
    }

    /// The intervals as `(low, high)` floats.
    ///
    /// ```
    /// use state_factored::{Constraint, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.float("noise").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::in_range("noise", 0.5, 1.5)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// let Constraint::Float(set) = &node.constraints()[0].1 else { panic!() };
    /// assert_eq!(set.to_floats(), vec![(0.5, 1.5)]);
    /// ```
    pub fn to_floats(&self) -> Vec<(f64, f64)> {
        self.0
            .iter()
            .map(|&(lo, hi)| (key_float(lo), key_float(hi)))
            .collect()
    }
}

impl StrSet {
    fn contains(&self, symbol: u32) -> bool {
        match self {
            StrSet::Only(set) => set.binary_search(&symbol).is_ok(),
            StrSet::Except(set) => set.binary_search(&symbol).is_err(),
        }
    }

    fn intersect(&self, other: &Self) -> Self {
        match (self, other) {
            (StrSet::Only(a), StrSet::Only(b)) => StrSet::Only(
                a.iter()
                    .copied()
                    .filter(|s| b.binary_search(s).is_ok())
                    .collect(),
            ),
            (StrSet::Only(a), StrSet::Except(b)) | (StrSet::Except(b), StrSet::Only(a)) => {
                StrSet::Only(
                    a.iter()
                        .copied()
                        .filter(|s| b.binary_search(s).is_err())
                        .collect(),
                )
            }
            (StrSet::Except(a), StrSet::Except(b)) => {
                let mut all: Vec<u32> = a.iter().chain(b).copied().collect();
                all.sort_unstable();
                all.dedup();
                StrSet::Except(all)
            }
        }
    }
}

/// A constraint in its cheapest form for testing state slots: the slot is
/// inside `[low, low + span]` (or outside it, when `inside` is false).
/// One subtraction and one comparison: the offset from `low` wraps past
/// `span` for slots below `low`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Check {
    pub(crate) var: u32,
    low: u64,
    span: u64,
    inside: bool,
}

impl Check {
    /// The check that `var`'s slot is within `[low, high]` (`inside`) or
    /// not; an empty interval (`low > high`) is the check that never holds
    /// (or always does).
    fn new(var: u32, low: u64, high: u64, inside: bool) -> Self {
        let (low, span, inside) = match high.checked_sub(low) {
            Some(span) => (low, span, inside),
            None => (0, u64::MAX, !inside),
        };
        Self {
            var,
            low,
            span,
            inside,
        }
    }

    #[inline]
    pub(crate) fn holds(self, slot: u64) -> bool {
        (slot.wrapping_sub(self.low) <= self.span) == self.inside
    }
}

impl Constraint {
    /// Bytes the constraint owns on the heap (allocated capacity, with the
    /// allocator's overhead).
    pub(crate) fn heap_bytes(&self) -> usize {
        heap_block(match self {
            Constraint::Bool(_) => 0,
            Constraint::Int(Intervals(v)) | Constraint::Float(Intervals(v)) => {
                v.capacity() * size_of::<(u64, u64)>()
            }
            Constraint::Str(StrSet::Only(v) | StrSet::Except(v)) => v.capacity() * size_of::<u32>(),
        })
    }

    /// The constraint on `var` as one [`Check`] on the values a state can
    /// hold, if it is that simple (every built-in comparison is);
    /// `Some(Err(()))` when it always holds.
    pub(crate) fn to_check(&self, var: u32) -> Option<Result<Check, ()>> {
        let inside = |low, high| Some(Ok(Check::new(var, low, high, true)));
        let outside = |low, high| Some(Ok(Check::new(var, low, high, false)));
        match self {
            Constraint::Bool(0b11) => Some(Err(())),
            Constraint::Bool(0b01) => inside(0, 0),
            Constraint::Bool(0b10) => inside(1, 1),
            Constraint::Bool(_) => inside(1, 0),
            Constraint::Int(_) | Constraint::Float(_) => {
                let (set, (min, max)) = self.numeric()?;
                match set.0.as_slice() {
                    [] => inside(1, 0),
                    [(lo, hi)] if (*lo, *hi) == (min, max) => Some(Err(())),
                    [(lo, hi)] => inside(*lo, *hi),
                    [(first, a), (b, last)] if *first == min && *last == max => {
                        outside(a + 1, b - 1)
                    }
                    _ => None,
                }
            }
            Constraint::Str(StrSet::Only(set)) => match set.as_slice() {
                [] => inside(1, 0),
                [s] => inside(u64::from(*s), u64::from(*s)),
                _ => None,
            },
            Constraint::Str(StrSet::Except(set)) => match set.as_slice() {
                [] => Some(Err(())),
                [s] => outside(u64::from(*s), u64::from(*s)),
                _ => None,
            },
        }
    }

    /// The constraint that allows every value of type `ty`.
    pub(crate) fn universal(ty: VarType) -> Self {
        match ty {
            VarType::Bool => Constraint::Bool(0b11),
            VarType::Int => Constraint::Int(Intervals::universal(ty)),
            VarType::Float => Constraint::Float(Intervals::universal(ty)),
            VarType::Str => Constraint::Str(StrSet::Except(Vec::new())),
        }
    }

    /// The constraint that allows everything, of the same type.
    pub(crate) fn universal_like(&self) -> Self {
        Self::universal(match self {
            Constraint::Bool(_) => VarType::Bool,
            Constraint::Int(_) => VarType::Int,
            Constraint::Float(_) => VarType::Float,
            Constraint::Str(_) => VarType::Str,
        })
    }

    /// The constraint that allows nothing, of the same type.
    pub(crate) fn empty_like(&self) -> Self {
        match self {
            Constraint::Bool(_) => Constraint::Bool(0),
            Constraint::Int(_) => Constraint::Int(Intervals(Vec::new())),
            Constraint::Float(_) => Constraint::Float(Intervals(Vec::new())),
            Constraint::Str(_) => Constraint::Str(StrSet::Only(Vec::new())),
        }
    }

    /// Whether a state slot holding `slot` satisfies the constraint.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.bool("armed").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::eq("armed", true)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert!(!node.constraints()[0].1.allows(0)); // false is slot 0
    /// ```
    #[inline]
    pub fn allows(&self, slot: u64) -> bool {
        match self {
            Constraint::Bool(mask) => slot < 2 && mask >> slot & 1 == 1,
            Constraint::Int(set) | Constraint::Float(set) => set.contains(slot),
            Constraint::Str(set) => u32::try_from(slot).is_ok_and(|s| set.contains(s)),
        }
    }

    /// Whether no value satisfies the constraint.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::gt("gold", 5), Predicate::lt("gold", 6)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert!(node.constraints()[0].1.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        match self {
            Constraint::Bool(mask) => *mask == 0,
            Constraint::Int(set) | Constraint::Float(set) => set.0.is_empty(),
            Constraint::Str(set) => matches!(set, StrSet::Only(s) if s.is_empty()),
        }
    }

    /// Whether every value satisfies the constraint.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 0)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert!(!node.constraints()[0].1.is_universal());
    /// ```
    pub fn is_universal(&self) -> bool {
        match self {
            Constraint::Bool(mask) => *mask == 0b11,
            Constraint::Int(set) => set.0 == [domain(VarType::Int)],
            Constraint::Float(set) => set.0 == [domain(VarType::Float)],
            Constraint::Str(set) => matches!(set, StrSet::Except(s) if s.is_empty()),
        }
    }

    /// The values both constraints allow. Constraints of different types
    /// (which a checked domain never mixes) give the empty constraint.
    #[must_use]
    pub(crate) fn intersect(&self, other: &Self) -> Self {
        match (self, other) {
            (Constraint::Bool(a), Constraint::Bool(b)) => Constraint::Bool(a & b),
            (Constraint::Int(a), Constraint::Int(b)) => Constraint::Int(a.intersect(b)),
            (Constraint::Float(a), Constraint::Float(b)) => Constraint::Float(a.intersect(b)),
            (Constraint::Str(a), Constraint::Str(b)) => Constraint::Str(a.intersect(b)),
            _ => self.empty_like(),
        }
    }

    /// A numeric constraint's intervals and its type's whole key range.
    fn numeric(&self) -> Option<(&Intervals, (u64, u64))> {
        match self {
            Constraint::Int(set) => Some((set, domain(VarType::Int))),
            Constraint::Float(set) => Some((set, domain(VarType::Float))),
            _ => None,
        }
    }

    /// `Some(true)` for a number bounded below only (`x >= c`), `Some(false)`
    /// for one bounded above only (`x <= c`), `None` otherwise.
    pub(crate) fn one_sided(&self) -> Option<bool> {
        let (set, (min, max)) = self.numeric()?;
        match set.0.as_slice() {
            [(lo, hi)] if *hi == max && *lo > min => Some(true),
            [(lo, hi)] if *lo == min && *hi < max => Some(false),
            _ => None,
        }
    }

    /// For a number that the constraint does not allow: how far it is below
    /// the nearest allowed value above it, and above the nearest allowed
    /// value below it (`None` where there is none). `(None, None)` for bools
    /// and strings.
    pub(crate) fn gaps(&self, slot: u64) -> (Option<f64>, Option<f64>) {
        // The difference of two keys' values, exact for ints (in i128)
        // before the one rounding to f64.
        #[expect(clippy::cast_precision_loss, reason = "heuristic distances may round")]
        let diff = |high: u64, low: u64| match self {
            Constraint::Int(_) => {
                let (high, low) = (key_int(high), key_int(low));
                match high.checked_sub(low) {
                    Some(d) => d as f64,
                    None => (i128::from(high) - i128::from(low)) as f64,
                }
            }
            _ => key_float(high) - key_float(low),
        };
        let (Constraint::Int(set) | Constraint::Float(set)) = self else {
            return (None, None);
        };
        let mut up: Option<f64> = None;
        let mut down: Option<f64> = None;
        for &(lo, hi) in &set.0 {
            if lo > slot {
                let d = diff(lo, slot);
                up = Some(up.map_or(d, |u| u.min(d)));
            } else if hi < slot {
                let d = diff(slot, hi);
                down = Some(down.map_or(d, |u| u.min(d)));
            }
        }
        (up, down)
    }
}
