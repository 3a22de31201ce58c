//! Linear expressions over numeric variables: `sum a_i * x_i + c`.
//!
//! [`Expr`] is what users write (names and constants); [`Linear`] is an
//! expression checked against a schema, with variable indices, in one of two
//! arithmetics (see the crate docs): exact integers when every variable is an
//! int and every number an integer, `f64` otherwise.

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use crate::value::{key_float, key_int};
use crate::{FactoredError, Op, Schema, State, VarType};

/// The relative tolerance of comparisons evaluated in `f64`.
pub(crate) const FLOAT_TOLERANCE: f64 = 1e-9;

/// A number in an expression: an exact integer or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    #[expect(
        clippy::cast_precision_loss,
        reason = "f64 arithmetic is the stated fallback"
    )]
    fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }

    fn is_zero(self) -> bool {
        match self {
            Num::Int(i) => i == 0,
            Num::Float(x) => x == 0.0,
        }
    }

    fn add(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a
                .checked_add(b)
                .map_or_else(|| Num::Float(self.to_f64() + other.to_f64()), Num::Int),
            _ => Num::Float(self.to_f64() + other.to_f64()),
        }
    }

    fn mul(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a
                .checked_mul(b)
                .map_or_else(|| Num::Float(self.to_f64() * other.to_f64()), Num::Int),
            _ => Num::Float(self.to_f64() * other.to_f64()),
        }
    }

    fn neg(self) -> Num {
        self.mul(Num::Int(-1))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

/// A linear expression over numeric variables, `a_1 * x_1 + ... + c`,
/// written with variable names and checked against the schema when the
/// action or goal that uses it is built.
///
/// Build one from [`Expr::var`] and constants (`i64`, `i32`, `f64`) with
/// `+`, `-`, unary `-` and multiplication by a constant; a product of two
/// variables cannot be written. The expression is kept normalised: the
/// terms of one variable are merged (in the order they first appear) and
/// terms whose coefficient is zero dropped, so equal sums are equal values.
///
/// Integer constants stay exact; an integer overflow while building falls
/// back to `f64`, as any float constant does (the crate docs give the
/// arithmetic).
///
/// ```
/// use state_factored::Expr;
/// let e = Expr::var("gold") + 2 * Expr::var("wood") - 10;
/// assert_eq!(e.to_string(), "gold + 2 * wood - 10");
/// let merged = Expr::var("x") + Expr::var("y") - Expr::var("x");
/// assert_eq!(merged, Expr::var("y"));
/// assert_eq!((-(Expr::var("x") * 0.5) + 1.5).to_string(), "-0.5 * x + 1.5");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub struct Expr {
    terms: Vec<(String, Num)>,
    constant: Num,
}

impl Expr {
    /// The variable `name` (coefficient 1).
    ///
    /// ```
    /// use state_factored::Expr;
    /// assert_eq!(Expr::var("gold").to_string(), "gold");
    /// ```
    pub fn var(name: &str) -> Self {
        Self {
            terms: vec![(name.to_owned(), Num::Int(1))],
            constant: Num::Int(0),
        }
    }

    /// A constant expression.
    ///
    /// ```
    /// use state_factored::Expr;
    /// assert_eq!(Expr::constant(2.5).to_string(), "2.5");
    /// assert!(Expr::constant(3).is_constant());
    /// ```
    pub fn constant(value: impl Into<Expr>) -> Self {
        value.into()
    }

    /// Whether the expression has no variable.
    ///
    /// ```
    /// use state_factored::Expr;
    /// assert!(!Expr::var("x").is_constant());
    /// assert!((Expr::var("x") - Expr::var("x") + 1).is_constant());
    /// ```
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The variables the expression reads, with their coefficients as
    /// `f64`, in the order they first appear.
    ///
    /// ```
    /// use state_factored::Expr;
    /// let e = 3 * Expr::var("a") - Expr::var("b");
    /// assert_eq!(e.terms().collect::<Vec<_>>(), [("a", 3.0), ("b", -1.0)]);
    /// ```
    pub fn terms(&self) -> impl Iterator<Item = (&str, f64)> + '_ {
        self.terms.iter().map(|(n, a)| (n.as_str(), a.to_f64()))
    }

    /// The product of two expressions when it is linear (one of them is a
    /// constant); `None` when both read variables.
    ///
    /// ```
    /// use state_factored::Expr;
    /// let twice = Expr::product(Expr::constant(2), Expr::var("x") + 1).unwrap();
    /// assert_eq!(twice.to_string(), "2 * x + 2");
    /// assert!(Expr::product(Expr::var("x"), Expr::var("y")).is_none());
    /// ```
    #[must_use]
    pub fn product(a: Expr, b: Expr) -> Option<Expr> {
        if b.is_constant() {
            Some(a.scaled(b.constant))
        } else if a.is_constant() {
            Some(b.scaled(a.constant))
        } else {
            None
        }
    }

    fn scaled(mut self, factor: Num) -> Self {
        for (_, a) in &mut self.terms {
            *a = a.mul(factor);
        }
        self.constant = self.constant.mul(factor);
        self.terms.retain(|(_, a)| !a.is_zero());
        self
    }

    fn plus(mut self, other: Expr) -> Self {
        for (name, a) in other.terms {
            match self.terms.iter_mut().find(|(n, _)| *n == name) {
                Some((_, b)) => *b = b.add(a),
                None => self.terms.push((name, a)),
            }
        }
        self.constant = self.constant.add(other.constant);
        self.terms.retain(|(_, a)| !a.is_zero());
        self
    }

    /// The expression checked against `schema`.
    pub(crate) fn compile(&self, schema: &Schema, context: &str) -> Result<Linear, FactoredError> {
        let mut vars = Vec::with_capacity(self.terms.len());
        for (name, a) in &self.terms {
            let var = schema.resolve(name, context)?;
            let ty = var.var_type();
            if !matches!(ty, VarType::Int | VarType::Float) {
                return Err(FactoredError::UnsupportedOperation {
                    variable: name.clone(),
                    ty,
                    operation: "linear expression",
                    context: context.to_owned(),
                });
            }
            if let Num::Float(x) = a {
                if !x.is_finite() {
                    return Err(FactoredError::NonFinite {
                        variable: name.clone(),
                        value: *x,
                        context: format!("the coefficient in {context}"),
                    });
                }
            }
            vars.push((u32::try_from(var.index()).unwrap_or(u32::MAX), ty, *a));
        }
        if let Num::Float(x) = self.constant {
            if !x.is_finite() {
                return Err(FactoredError::NonFinite {
                    variable: self.to_string(),
                    value: x,
                    context: format!("the constant in {context}"),
                });
            }
        }
        vars.sort_by_key(|(v, _, _)| *v);
        let exact = vars
            .iter()
            .all(|(_, ty, a)| *ty == VarType::Int && matches!(a, Num::Int(_)))
            && matches!(self.constant, Num::Int(_));
        Ok(if exact {
            let int = |n: Num| match n {
                Num::Int(i) => i,
                Num::Float(_) => 0,
            };
            Linear::Exact {
                terms: vars.iter().map(|&(v, _, a)| (v, int(a))).collect(),
                constant: int(self.constant),
            }
        } else {
            Linear::Float {
                terms: vars
                    .iter()
                    .map(|&(v, ty, a)| (v, a.to_f64(), ty == VarType::Float))
                    .collect(),
                constant: self.constant.to_f64(),
            }
        })
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let negative = |n: Num| match n {
            Num::Int(i) => i < 0,
            Num::Float(x) => x < 0.0,
        };
        for (k, (name, a)) in self.terms.iter().enumerate() {
            let (sign, magnitude) = if negative(*a) {
                ("-", a.neg())
            } else {
                ("+", *a)
            };
            match (k, sign) {
                (0, "-") => f.write_str("-")?,
                (0, _) => {}
                _ => write!(f, " {sign} ")?,
            }
            if magnitude == Num::Int(1) {
                f.write_str(name)?;
            } else {
                write!(f, "{magnitude} * {name}")?;
            }
        }
        if self.terms.is_empty() {
            write!(f, "{}", self.constant)
        } else if self.constant.is_zero() {
            Ok(())
        } else if negative(self.constant) {
            write!(f, " - {}", self.constant.neg())
        } else {
            write!(f, " + {}", self.constant)
        }
    }
}

impl From<i64> for Expr {
    fn from(value: i64) -> Self {
        Self {
            terms: Vec::new(),
            constant: Num::Int(value),
        }
    }
}

impl From<i32> for Expr {
    fn from(value: i32) -> Self {
        Self::from(i64::from(value))
    }
}

impl From<f64> for Expr {
    fn from(value: f64) -> Self {
        Self {
            terms: Vec::new(),
            constant: Num::Float(value),
        }
    }
}

impl<T: Into<Expr>> Add<T> for Expr {
    type Output = Expr;

    fn add(self, other: T) -> Expr {
        self.plus(other.into())
    }
}

impl<T: Into<Expr>> Sub<T> for Expr {
    type Output = Expr;

    fn sub(self, other: T) -> Expr {
        self.plus(-other.into())
    }
}

impl Neg for Expr {
    type Output = Expr;

    fn neg(self) -> Expr {
        self.scaled(Num::Int(-1))
    }
}

macro_rules! scalar {
    ($($t:ty => $num:expr),*) => {$(
        impl Mul<$t> for Expr {
            type Output = Expr;

            fn mul(self, factor: $t) -> Expr {
                self.scaled($num(factor))
            }
        }

        impl Mul<Expr> for $t {
            type Output = Expr;

            fn mul(self, expr: Expr) -> Expr {
                expr.scaled($num(self))
            }
        }

        impl Add<Expr> for $t {
            type Output = Expr;

            fn add(self, expr: Expr) -> Expr {
                Expr::from(self).plus(expr)
            }
        }

        impl Sub<Expr> for $t {
            type Output = Expr;

            fn sub(self, expr: Expr) -> Expr {
                Expr::from(self).plus(-expr)
            }
        }
    )*};
}

scalar!(i64 => Num::Int, f64 => Num::Float);

/// A linear expression checked against a schema, terms sorted by variable.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Linear {
    /// Ints only, integer coefficients: evaluated exactly (in `i128`,
    /// checked).
    Exact {
        terms: Box<[(u32, i64)]>,
        constant: i64,
    },
    /// Some float variable or non-integer number: evaluated in `f64`. Each
    /// term says whether its variable is a float.
    Float {
        terms: Box<[(u32, f64, bool)]>,
        constant: f64,
    },
}

impl Linear {
    /// The variables it reads, ascending.
    pub(crate) fn vars(&self) -> Vec<u32> {
        match self {
            Linear::Exact { terms, .. } => terms.iter().map(|t| t.0).collect(),
            Linear::Float { terms, .. } => terms.iter().map(|t| t.0).collect(),
        }
    }

    /// The exact value in `state`, `None` on overflow (or for an `f64`
    /// expression).
    #[inline]
    pub(crate) fn exact(&self, state: &State) -> Option<i128> {
        let Linear::Exact { terms, constant } = self else {
            return None;
        };
        let mut sum = i128::from(*constant);
        for &(v, a) in terms {
            let term = i128::from(a) * i128::from(key_int(state.slot(v as usize)));
            sum = sum.checked_add(term)?;
        }
        Some(sum)
    }

    /// The `f64` value in `state`, and the largest magnitude of its terms and
    /// constant (the scale of the comparison tolerance).
    #[inline]
    pub(crate) fn float(&self, state: &State) -> (f64, f64) {
        #[expect(
            clippy::cast_precision_loss,
            reason = "f64 arithmetic is the stated fallback"
        )]
        let read = |v: u32, float: bool| {
            let slot = state.slot(v as usize);
            if float {
                key_float(slot)
            } else {
                key_int(slot) as f64
            }
        };
        match self {
            Linear::Exact { terms, constant } => {
                #[expect(
                    clippy::cast_precision_loss,
                    reason = "f64 arithmetic is the stated fallback"
                )]
                let terms = terms.iter().map(|&(v, a)| a as f64 * read(v, false));
                #[expect(
                    clippy::cast_precision_loss,
                    reason = "f64 arithmetic is the stated fallback"
                )]
                sum_and_scale(terms, *constant as f64)
            }
            Linear::Float { terms, constant } => {
                let terms = terms.iter().map(|&(v, a, float)| a * read(v, float));
                sum_and_scale(terms, *constant)
            }
        }
    }
}

fn sum_and_scale(terms: impl Iterator<Item = f64>, constant: f64) -> (f64, f64) {
    let mut sum = constant;
    let mut scale = constant.abs().max(1.0);
    for t in terms {
        sum += t;
        scale = scale.max(t.abs());
    }
    (sum, scale)
}

/// Whether `difference op 0` holds within the float tolerance of `scale`.
#[inline]
pub(crate) fn float_holds(difference: f64, scale: f64, op: Op) -> bool {
    let tolerance = FLOAT_TOLERANCE * scale;
    if !difference.is_finite() {
        return false;
    }
    match op {
        Op::Eq => difference.abs() <= tolerance,
        Op::Ne => difference.abs() > tolerance,
        Op::Lt => difference < -tolerance,
        Op::Le => difference <= tolerance,
        Op::Gt => difference > tolerance,
        Op::Ge => difference >= -tolerance,
    }
}

/// Whether `value op 0` holds exactly.
#[inline]
pub(crate) fn exact_holds(value: i128, op: Op) -> bool {
    match op {
        Op::Eq => value == 0,
        Op::Ne => value != 0,
        Op::Lt => value < 0,
        Op::Le => value <= 0,
        Op::Gt => value > 0,
        Op::Ge => value >= 0,
    }
}

/// A compiled linear condition: `expr op 0`.
#[derive(Clone, Debug)]
pub(crate) struct LinearTest {
    pub(crate) expr: Linear,
    pub(crate) op: Op,
}

/// A linear condition `Σ w_i x_i + k >= 0`: terms `(variable, w_i)` and `k`.
pub(crate) type AtLeast = (Vec<(u32, f64)>, f64);

impl LinearTest {
    /// The test as conditions `Σ w_i x_i + k >= 0` a relaxation can read:
    /// one for `>=`, `>`, `<=`, `<` (over the integers `> 0` is `>= 1`; over
    /// the reals it relaxes to `>= 0`), two for `==`, none for `!=`.
    #[expect(
        clippy::cast_precision_loss,
        reason = "ints as estimates' numbers: 2^53 is far beyond any plan's"
    )]
    pub(crate) fn at_least(&self) -> Vec<AtLeast> {
        let (terms, k, exact): (Vec<(u32, f64)>, f64, bool) = match &self.expr {
            Linear::Exact { terms, constant } => (
                terms.iter().map(|&(v, c)| (v, c as f64)).collect(),
                *constant as f64,
                true,
            ),
            Linear::Float { terms, constant } => (
                terms.iter().map(|&(v, c, _)| (v, c)).collect(),
                *constant,
                false,
            ),
        };
        let negated = || terms.iter().map(|&(v, c)| (v, -c)).collect::<Vec<_>>();
        let strict = if exact { 1.0 } else { 0.0 };
        match self.op {
            Op::Ge => vec![(terms, k)],
            Op::Gt => vec![(terms, k - strict)],
            Op::Le => vec![(negated(), -k)],
            Op::Lt => vec![(negated(), -k - strict)],
            Op::Eq => vec![(terms.clone(), k), (negated(), -k)],
            Op::Ne => Vec::new(),
        }
    }

    #[inline]
    pub(crate) fn holds(&self, state: &State) -> bool {
        match &self.expr {
            Linear::Exact { .. } => self
                .expr
                .exact(state)
                .is_some_and(|value| exact_holds(value, self.op)),
            Linear::Float { .. } => {
                let (difference, scale) = self.expr.float(state);
                float_holds(difference, scale, self.op)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_normalisation() {
        let e = Expr::var("a") - 2 * Expr::var("b") + Expr::var("a") - 1;
        assert_eq!(e.to_string(), "2 * a - 2 * b - 1");
        assert_eq!((Expr::var("a") * 2 - 2 * Expr::var("a")).to_string(), "0");
        assert_eq!((-Expr::var("a")).to_string(), "-a");
        assert_eq!(Expr::constant(-3).to_string(), "-3");
        assert_eq!((1 - Expr::var("x")).to_string(), "-x + 1");
        let big = Expr::constant(i64::MAX) + 1;
        assert!(matches!(big.constant, Num::Float(_)));
    }

    #[test]
    fn float_comparisons_have_a_relative_tolerance() {
        assert!(float_holds(0.1 + 0.2 - 0.3, 1.0, Op::Eq));
        assert!(!float_holds(1e-6, 1.0, Op::Eq));
        assert!(float_holds(1e-3, 1e7, Op::Eq));
        assert!(!float_holds(0.1 + 0.2 - 0.3, 1.0, Op::Gt));
        assert!(float_holds(0.1 + 0.2 - 0.3, 1.0, Op::Le));
        assert!(!float_holds(f64::NAN, 1.0, Op::Ne));
    }
}
