//! The numeric part of a ground task (PDDL 2.1 numeric fluents): linear
//! expressions over the fluents that actions change, comparisons and
//! effects on them. Grounding folds every fluent no action changes (a
//! static fluent) into constants, so `(>= (fuel ?p) (* (distance ?a ?b)
//! (rate ?p)))` becomes `fuel(p1) - 1350 >= 0`; what is left must be
//! linear in the changing fluents, or grounding refuses it by name.
//!
//! Numbers are `f64`: the integers and decimals of the IPC numeric
//! benchmarks are exact in it, and sums of decimals are off by at most a
//! few units in the last place; [`Comparison::holds`] allows for that
//! with a tolerance of `1e-9` relative to the magnitudes compared.

use std::fmt;

pub use crate::syntax::Comparison;

/// A linear expression over fluents: `sum coefficient * fluent + constant`,
/// with fluents by index into [`NumericFluents::names`]. Terms are sorted by
/// fluent, each fluent at most once, no coefficient zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinearExpr {
    /// `(fluent, coefficient)`, by fluent.
    pub terms: Vec<(u32, f64)>,
    /// The constant.
    pub constant: f64,
}

impl LinearExpr {
    /// The constant `c`.
    pub fn constant(c: f64) -> Self {
        Self {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// `1 * fluent`.
    pub fn fluent(fluent: u32) -> Self {
        Self {
            terms: vec![(fluent, 1.0)],
            constant: 0.0,
        }
    }

    /// Whether no fluent appears in it.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// `self + factor * other`, normalised.
    pub(crate) fn add_scaled(&self, other: &Self, factor: f64) -> Self {
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let a = self.terms.get(i).copied();
            let b = other.terms.get(j).map(|&(f, c)| (f, c * factor));
            let next = match (a, b) {
                (Some(a), Some(b)) if a.0 == b.0 => {
                    i += 1;
                    j += 1;
                    (a.0, a.1 + b.1)
                }
                (Some(a), Some(b)) if a.0 < b.0 => {
                    i += 1;
                    a
                }
                (Some(a), None) => {
                    i += 1;
                    a
                }
                (_, Some(b)) => {
                    j += 1;
                    b
                }
                (None, None) => break,
            };
            if next.1 != 0.0 {
                terms.push(next);
            }
        }
        Self {
            terms,
            constant: self.constant + factor * other.constant,
        }
    }

    /// `factor * self`.
    pub(crate) fn scaled(&self, factor: f64) -> Self {
        Self::default().add_scaled(self, factor)
    }

    /// The fluents it reads.
    pub fn fluents(&self) -> impl Iterator<Item = u32> + '_ {
        self.terms.iter().map(|&(f, _)| f)
    }

    /// Its value where fluent `f` has value `values[f]`.
    ///
    /// ```
    /// use searchlab_pddl::LinearExpr;
    /// let e = LinearExpr { terms: vec![(0, 2.0), (1, -1.0)], constant: 3.0 };
    /// assert_eq!(e.eval(&[5.0, 4.0]), 9.0);
    /// ```
    pub fn eval(&self, values: &[f64]) -> f64 {
        self.terms
            .iter()
            .fold(self.constant, |sum, &(f, c)| sum + c * values[f as usize])
    }

    /// The expression with each fluent renamed by `map` (terms whose
    /// fluent maps to `None` must not exist).
    pub(crate) fn renumbered(&mut self, map: &[Option<u32>]) {
        for (f, _) in &mut self.terms {
            *f = map[*f as usize].unwrap_or(u32::MAX);
        }
        self.terms.sort_unstable_by_key(|&(f, _)| f);
    }

    /// The expression written with fluent names.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Shown { expr: self, names }
    }
}

struct Shown<'a> {
    expr: &'a LinearExpr,
    names: &'a [String],
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for &(fluent, c) in &self.expr.terms {
            let name = self.names.get(fluent as usize).map_or("?", String::as_str);
            let sign = if c < 0.0 { "-" } else { "+" };
            if first {
                if c < 0.0 {
                    f.write_str("-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            if (c.abs() - 1.0).abs() < f64::EPSILON {
                write!(f, "{name}")?;
            } else {
                write!(f, "{}*{name}", c.abs())?;
            }
            first = false;
        }
        let c = self.expr.constant;
        if first {
            write!(f, "{c}")
        } else if c != 0.0 {
            write!(f, " {} {}", if c < 0.0 { "-" } else { "+" }, c.abs())
        } else {
            Ok(())
        }
    }
}

impl Comparison {
    /// Whether `left op right` holds, within a tolerance of `1e-9`
    /// relative to the larger magnitude (at least 1), so that decimal
    /// sums such as `0.1 + 0.2` equal `0.3`.
    ///
    /// ```
    /// use searchlab_pddl::Comparison;
    /// assert!(Comparison::Eq.holds(0.1 + 0.2, 0.3));
    /// assert!(!Comparison::Lt.holds(0.1 + 0.2, 0.3));
    /// assert!(Comparison::Ge.holds(2.0, 1.0));
    /// ```
    pub fn holds(self, left: f64, right: f64) -> bool {
        let tolerance = 1e-9 * left.abs().max(right.abs()).max(1.0);
        let diff = left - right;
        match self {
            Self::Lt => diff < -tolerance,
            Self::Le => diff <= tolerance,
            Self::Eq => diff.abs() <= tolerance,
            Self::Ge => diff >= -tolerance,
            Self::Gt => diff > tolerance,
        }
    }
}

/// A linear condition `expr op 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearCondition {
    /// The left side; the right is 0.
    pub expr: LinearExpr,
    /// The comparison.
    pub op: Comparison,
}

impl LinearCondition {
    /// Whether it holds where fluent `f` has value `values[f]`.
    pub fn holds(&self, values: &[f64]) -> bool {
        self.op.holds(self.expr.eval(values), 0.0)
    }
}

/// A numeric effect of a ground operator. Expressions read the state the
/// operator is applied in (PDDL's effects are simultaneous).
#[derive(Clone, Debug, PartialEq)]
pub enum NumericEffect {
    /// `fluent := value`.
    Assign {
        /// The fluent changed.
        fluent: u32,
        /// Its new value.
        value: LinearExpr,
    },
    /// `fluent += by` (`decrease` is an increase by the negation).
    Increase {
        /// The fluent changed.
        fluent: u32,
        /// What is added.
        by: LinearExpr,
    },
}

impl NumericEffect {
    /// The fluent it changes.
    pub fn fluent(&self) -> u32 {
        match self {
            Self::Assign { fluent, .. } | Self::Increase { fluent, .. } => *fluent,
        }
    }

    /// The expression it reads.
    pub fn expr(&self) -> &LinearExpr {
        match self {
            Self::Assign { value, .. } => value,
            Self::Increase { by, .. } => by,
        }
    }

    pub(crate) fn expr_mut(&mut self) -> &mut LinearExpr {
        match self {
            Self::Assign { value, .. } => value,
            Self::Increase { by, .. } => by,
        }
    }

    pub(crate) fn fluent_mut(&mut self) -> &mut u32 {
        match self {
            Self::Assign { fluent, .. } | Self::Increase { fluent, .. } => fluent,
        }
    }
}

/// What a ground operator adds to a numeric task: linear conditions, numeric
/// effects, and a cost that depends on the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OperatorNumeric {
    /// Conditions that must hold before it applies.
    pub conditions: Vec<LinearCondition>,
    /// Its numeric effects.
    pub effects: Vec<NumericEffect>,
    /// Its cost when the metric's increase depends on changing fluents
    /// (evaluated in the state it applies in); `None` when the operator's
    /// `cost` says it.
    pub cost: Option<LinearExpr>,
}

/// The changing fluents of a numeric task: their names, initial values and
/// the goal's numeric conditions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumericFluents {
    /// `(function arg ...)` per fluent.
    pub names: Vec<String>,
    /// Per fluent: its value in the initial state.
    pub init: Vec<f64>,
    /// The goal's linear conditions.
    pub goal: Vec<LinearCondition>,
    /// Disjunctions of linear conditions the goal wants besides: at least
    /// one of each clause holds.
    pub goal_clauses: Vec<Vec<LinearCondition>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_merge_terms_and_drop_zeros() {
        let a = LinearExpr {
            terms: vec![(0, 1.0), (2, 3.0)],
            constant: 1.0,
        };
        let b = LinearExpr {
            terms: vec![(1, 2.0), (2, 1.5)],
            constant: 4.0,
        };
        let sum = a.add_scaled(&b, -2.0);
        assert_eq!(sum.terms, [(0, 1.0), (1, -4.0)]);
        assert!((sum.constant + 7.0).abs() < 1e-12);
        let names = ["x".to_owned(), "y".to_owned()];
        assert_eq!(sum.display(&names).to_string(), "x - 4*y - 7");
    }
}
