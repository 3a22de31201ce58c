//! Predicates: one variable compared with constants, or a named closure.

use std::fmt;
use std::sync::Arc;

use crate::constraint::{Check, Constraint, Intervals, StrSet};
use crate::linear::{float_holds, Linear, LinearTest};
use crate::value::{finite_float_keys, float_key, int_key, key_float};
use crate::{Expr, FactoredError, Schema, State, Value, Var, VarType};

/// A custom predicate's test.
pub type PredicateFn = Arc<dyn Fn(&State) -> bool + Send + Sync>;

/// A comparison operator.
///
/// ```
/// use state_factored::Op;
/// assert_eq!(Op::Le.to_string(), "<=");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[derive(Clone)]
enum Kind {
    Compare {
        var: String,
        op: Op,
        value: Value,
    },
    Range {
        var: String,
        low: Value,
        high: Value,
    },
    OneOf {
        var: String,
        values: Vec<Value>,
    },
    Linear {
        lhs: Expr,
        op: Op,
        rhs: Expr,
    },
    Custom {
        name: Arc<str>,
        test: PredicateFn,
    },
}

/// A condition on a state, written with variable names and checked against a
/// schema when an action or goal is built.
///
/// - Comparisons `==`, `!=`, `<`, `<=`, `>`, `>=` of a variable with a
///   constant. Bools and strings take `==` and `!=` only.
/// - [`in_range`](Predicate::in_range) (inclusive) and
///   [`one_of`](Predicate::one_of).
/// - Float equality is exact unless [`with_tolerance`](Predicate::with_tolerance)
///   gives a tolerance `t`: then `== c` means `c - t <= x <= c + t` (bounds
///   computed in `f64`) and `!= c` its complement.
/// - [`linear`](Predicate::linear): two linear [`Expr`]essions compared,
///   such as `gold + 2 * wood >= 10`, in the arithmetic the crate docs give.
/// - [`custom`](Predicate::custom): a named closure, for what the others
///   cannot say. Forward search only.
///
/// ```
/// use state_factored::{Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.float("noise").unwrap();
/// let domain = Domain::new(schema);
/// let goal = domain.goal([Predicate::eq("noise", 0.5).with_tolerance(0.1)]).unwrap();
/// let s = domain.schema().state().set("noise", 0.55).build().unwrap();
/// assert!(goal.is_satisfied(&s));
/// ```
#[derive(Clone)]
#[must_use]
pub struct Predicate {
    kind: Kind,
    tolerance: Option<f64>,
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Compare { var, op, value } => write!(f, "{var} {op} {value}")?,
            Kind::Range { var, low, high } => write!(f, "{var} in [{low}, {high}]")?,
            Kind::OneOf { var, values } => write!(f, "{var} in {values:?}")?,
            Kind::Linear { lhs, op, rhs } => write!(f, "{lhs} {op} {rhs}")?,
            Kind::Custom { name, .. } => write!(f, "custom `{name}`")?,
        }
        if let Some(t) = self.tolerance {
            write!(f, " ± {t}")?;
        }
        Ok(())
    }
}

macro_rules! comparison {
    ($(#[$doc:meta])* $fn:ident, $op:ident) => {
        $(#[$doc])*
        pub fn $fn(var: &str, value: impl Into<Value>) -> Self {
            Self::compare(var, Op::$op, value)
        }
    };
}

impl Predicate {
    fn new(kind: Kind) -> Self {
        Self {
            kind,
            tolerance: None,
        }
    }

    /// `var op value`.
    ///
    /// ```
    /// use state_factored::{Domain, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::compare("gold", Op::Gt, 10)]).unwrap();
    /// assert!(!goal.is_satisfied(&domain.schema().default_state()));
    /// ```
    pub fn compare(var: &str, op: Op, value: impl Into<Value>) -> Self {
        Self::new(Kind::Compare {
            var: var.to_owned(),
            op,
            value: value.into(),
        })
    }

    comparison!(
        /// `var == value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.string("at").unwrap();
        /// let domain = Domain::new(schema);
        /// let goal = domain.goal([Predicate::eq("at", "")]).unwrap();
        /// assert!(goal.is_satisfied(&domain.schema().default_state()));
        /// ```
        eq, Eq
    );
    comparison!(
        /// `var != value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.bool("armed").unwrap();
        /// let domain = Domain::new(schema);
        /// let goal = domain.goal([Predicate::ne("armed", true)]).unwrap();
        /// assert!(goal.is_satisfied(&domain.schema().default_state()));
        /// ```
        ne, Ne
    );
    comparison!(
        /// `var < value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.int("gold").unwrap();
        /// let domain = Domain::new(schema);
        /// assert!(domain.goal([Predicate::lt("gold", 1)]).unwrap().is_satisfied(&domain.schema().default_state()));
        /// ```
        lt, Lt
    );
    comparison!(
        /// `var <= value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.int("gold").unwrap();
        /// let domain = Domain::new(schema);
        /// assert!(domain.goal([Predicate::le("gold", 0)]).unwrap().is_satisfied(&domain.schema().default_state()));
        /// ```
        le, Le
    );
    comparison!(
        /// `var > value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.int("gold").unwrap();
        /// let domain = Domain::new(schema);
        /// assert!(!domain.goal([Predicate::gt("gold", 0)]).unwrap().is_satisfied(&domain.schema().default_state()));
        /// ```
        gt, Gt
    );
    comparison!(
        /// `var >= value`.
        ///
        /// ```
        /// use state_factored::{Domain, Predicate, Schema};
        /// let mut schema = Schema::new();
        /// schema.int("gold").unwrap();
        /// let domain = Domain::new(schema);
        /// assert!(domain.goal([Predicate::ge("gold", 0)]).unwrap().is_satisfied(&domain.schema().default_state()));
        /// ```
        ge, Ge
    );

    /// `low <= var <= high` (numbers only; empty when `low > high`).
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::in_range("gold", -1, 1)]).unwrap();
    /// assert!(goal.is_satisfied(&domain.schema().default_state()));
    /// ```
    pub fn in_range(var: &str, low: impl Into<Value>, high: impl Into<Value>) -> Self {
        Self::new(Kind::Range {
            var: var.to_owned(),
            low: low.into(),
            high: high.into(),
        })
    }

    /// `var` equals one of `values`.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.string("at").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::one_of("at", ["mine", "shop"])]).unwrap();
    /// let s = domain.schema().state().set("at", "shop").build().unwrap();
    /// assert!(goal.is_satisfied(&s));
    /// ```
    pub fn one_of<V: Into<Value>>(var: &str, values: impl IntoIterator<Item = V>) -> Self {
        Self::new(Kind::OneOf {
            var: var.to_owned(),
            values: values.into_iter().map(Into::into).collect(),
        })
    }

    /// `lhs op rhs`, two linear expressions over numeric variables.
    ///
    /// Ints with integer coefficients compare exactly; anything with a float
    /// variable or a non-integer number compares in `f64` within a relative
    /// tolerance (the crate docs give both rules). A condition on one
    /// variable with coefficient 1 (or, for ints, any integer coefficient)
    /// becomes the same per-variable interval that [`compare`](Self::compare)
    /// builds, so it costs no more to test.
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.int("wood").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain
    ///     .goal([Predicate::linear(Expr::var("gold") + 2 * Expr::var("wood"), Op::Ge, 10)])
    ///     .unwrap();
    /// let s = domain.schema().state().set("gold", 4).set("wood", 3).build().unwrap();
    /// assert!(goal.is_satisfied(&s));
    /// assert!(!goal.is_satisfied(&domain.schema().default_state()));
    /// ```
    pub fn linear(lhs: impl Into<Expr>, op: Op, rhs: impl Into<Expr>) -> Self {
        Self::new(Kind::Linear {
            lhs: lhs.into(),
            op,
            rhs: rhs.into(),
        })
    }

    /// A named closure over the whole state. Forward search only: the
    /// regression space refuses domains that use one, naming it.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// let a = schema.int("a").unwrap();
    /// let b = schema.int("b").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain
    ///     .goal([Predicate::custom("a_above_b", move |s| s.int(a) > s.int(b))])
    ///     .unwrap();
    /// assert!(!goal.is_satisfied(&domain.schema().default_state()));
    /// ```
    pub fn custom(name: &str, test: impl Fn(&State) -> bool + Send + Sync + 'static) -> Self {
        Self::new(Kind::Custom {
            name: name.into(),
            test: Arc::new(test),
        })
    }

    /// Sets the tolerance of a float `==` or `!=`; an error at build time on
    /// anything else, or if negative or not finite.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.float("x").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ne("x", 1.0).with_tolerance(0.5)]).unwrap();
    /// let s = domain.schema().state().set("x", 1.4).build().unwrap();
    /// assert!(!goal.is_satisfied(&s));
    /// ```
    pub fn with_tolerance(mut self, tolerance: f64) -> Self {
        self.tolerance = Some(tolerance);
        self
    }

    /// The predicate checked against `schema`; `context` names where it is
    /// used in errors.
    pub(crate) fn compile(&self, schema: &Schema, context: &str) -> Result<Test, FactoredError> {
        let tolerance = self.tolerance;
        match &self.kind {
            Kind::Custom { name, test } => Ok(Test::Custom {
                name: name.clone(),
                test: test.clone(),
            }),
            Kind::Compare { var, op, value } => {
                let var = schema.resolve(var, context)?;
                compare(schema, var, *op, value, tolerance, context)
            }
            Kind::Linear { lhs, op, rhs } => {
                let text = format!("{lhs} {op} {rhs}");
                if tolerance.is_some() {
                    return Err(FactoredError::UnsupportedOperation {
                        variable: text,
                        ty: VarType::Float,
                        operation: "tolerance",
                        context: context.to_owned(),
                    });
                }
                let difference = (lhs.clone() - rhs.clone()).compile(schema, context)?;
                Ok(linear_test(difference, *op, text.into()))
            }
            Kind::Range { var, low, high } => {
                let var = schema.resolve(var, context)?;
                let unsupported = |operation| FactoredError::UnsupportedOperation {
                    variable: schema.name(var).to_owned(),
                    ty: var.var_type(),
                    operation,
                    context: context.to_owned(),
                };
                if !matches!(var.var_type(), VarType::Int | VarType::Float) {
                    return Err(unsupported("in_range"));
                }
                if tolerance.is_some() {
                    return Err(unsupported("tolerance"));
                }
                let low = schema.encode(var, low, context)?;
                let high = schema.encode(var, high, context)?;
                Ok(Test::var(var, numeric(var, vec![(low, high)])))
            }
            Kind::OneOf { var, values } => {
                let var = schema.resolve(var, context)?;
                if tolerance.is_some() {
                    return Err(FactoredError::UnsupportedOperation {
                        variable: schema.name(var).to_owned(),
                        ty: var.var_type(),
                        operation: "tolerance",
                        context: context.to_owned(),
                    });
                }
                let slots = values
                    .iter()
                    .map(|v| schema.encode(var, v, context))
                    .collect::<Result<Vec<_>, _>>()?;
                let constraint = match var.var_type() {
                    VarType::Bool => Constraint::Bool(slots.iter().fold(0, |m, &s| m | (1 << s))),
                    VarType::Str => Constraint::Str(StrSet::Only(symbols(&slots))),
                    _ => numeric(var, slots.iter().map(|&s| (s, s)).collect()),
                };
                Ok(Test::var(var, constraint))
            }
        }
    }
}

fn symbols(slots: &[u64]) -> Vec<u32> {
    let mut set: Vec<u32> = slots
        .iter()
        .filter_map(|&s| u32::try_from(s).ok())
        .collect();
    set.sort_unstable();
    set.dedup();
    set
}

fn numeric(var: Var, raw: Vec<(u64, u64)>) -> Constraint {
    let set = Intervals::new(var.var_type(), raw);
    if var.var_type() == VarType::Float {
        Constraint::Float(set)
    } else {
        Constraint::Int(set)
    }
}

fn compare(
    schema: &Schema,
    var: Var,
    op: Op,
    value: &Value,
    tolerance: Option<f64>,
    context: &str,
) -> Result<Test, FactoredError> {
    let ty = var.var_type();
    let unsupported = |operation| FactoredError::UnsupportedOperation {
        variable: schema.name(var).to_owned(),
        ty,
        operation,
        context: context.to_owned(),
    };
    if let Some(t) = tolerance {
        if ty != VarType::Float || !matches!(op, Op::Eq | Op::Ne) {
            return Err(unsupported("tolerance"));
        }
        if !(t.is_finite() && t >= 0.0) {
            return Err(FactoredError::NonFinite {
                variable: schema.name(var).to_owned(),
                value: t,
                context: format!("the tolerance in {context}"),
            });
        }
    }
    let slot = schema.encode(var, value, context)?;
    let constraint = match ty {
        VarType::Bool => {
            let bit = 1 << slot;
            match op {
                Op::Eq => Constraint::Bool(bit),
                Op::Ne => Constraint::Bool(0b11 & !bit),
                _ => return Err(unsupported(op.symbol())),
            }
        }
        VarType::Str => {
            let set = symbols(&[slot]);
            match op {
                Op::Eq => Constraint::Str(StrSet::Only(set)),
                Op::Ne => Constraint::Str(StrSet::Except(set)),
                _ => return Err(unsupported(op.symbol())),
            }
        }
        VarType::Int | VarType::Float => {
            let (low, high) = match tolerance {
                Some(t) => {
                    let c = crate::value::key_float(slot);
                    (float_key(c - t), float_key(c + t))
                }
                None => (slot, slot),
            };
            let below = |k: u64| k.checked_sub(1).map(|k| (0, k));
            let above = |k: u64| k.checked_add(1).map(|k| (k, u64::MAX));
            let raw: Vec<(u64, u64)> = match op {
                Op::Eq => vec![(low, high)],
                Op::Ne => below(low).into_iter().chain(above(high)).collect(),
                Op::Lt => below(slot).into_iter().collect(),
                Op::Le => vec![(0, slot)],
                Op::Gt => above(slot).into_iter().collect(),
                Op::Ge => vec![(slot, u64::MAX)],
            };
            numeric(var, raw)
        }
    };
    Ok(Test::var(var, constraint))
}

/// `difference op 0` as a per-variable constraint when it is one (a float
/// with coefficient 1, or an int with an integer coefficient), else a
/// linear test.
fn linear_test(difference: Linear, op: Op, text: Arc<str>) -> Test {
    match &difference {
        Linear::Exact { terms, constant } => match terms.as_ref() {
            [(var, a)] => Test::Var {
                var: *var,
                constraint: Constraint::Int(Intervals::new(
                    VarType::Int,
                    int_solutions(i128::from(*a), i128::from(*constant), op),
                )),
            },
            _ => Test::Linear {
                test: LinearTest {
                    expr: difference,
                    op,
                },
                text,
            },
        },
        Linear::Float { terms, constant } => match terms.as_ref() {
            #[expect(clippy::float_cmp, reason = "exactly the coefficient 1")]
            [(var, a, true)] if *a == 1.0 => Test::Var {
                var: *var,
                constraint: Constraint::Float(float_solutions(*constant, op)),
            },
            _ => Test::Linear {
                test: LinearTest {
                    expr: difference,
                    op,
                },
                text,
            },
        },
    }
}

/// The int keys `x` with `a x + c op 0` (`a != 0`), exactly.
pub(crate) fn int_solutions(a: i128, c: i128, op: Op) -> Vec<(u64, u64)> {
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    let key = |x: i128| int_key(i64::try_from(x.clamp(min, max)).unwrap_or(0));
    // a x <= -c  <=>  x <= floor(-c / a) for a > 0, x >= ceil(-c / a) for a < 0.
    let at_most = |a: i128, c: i128| -> Vec<(u64, u64)> {
        // Euclid's quotient is the floor for a > 0 and the ceiling for a < 0.
        let bound = (-c).div_euclid(a);
        if a > 0 {
            if bound < min {
                vec![]
            } else {
                vec![(key(min), key(bound))]
            }
        } else if bound > max {
            vec![]
        } else {
            vec![(key(bound), key(max))]
        }
    };
    let exact = |a: i128, c: i128| ((-c) % a == 0).then(|| -c / a);
    match op {
        Op::Le => at_most(a, c),
        Op::Lt => at_most(a, c + 1),
        Op::Ge => at_most(-a, -c),
        Op::Gt => at_most(-a, -c + 1),
        Op::Eq => match exact(a, c) {
            Some(x) if (min..=max).contains(&x) => vec![(key(x), key(x))],
            _ => vec![],
        },
        Op::Ne => match exact(a, c) {
            Some(x) if (min..=max).contains(&x) => {
                let mut out = Vec::new();
                if x > min {
                    out.push((key(min), key(x - 1)));
                }
                if x < max {
                    out.push((key(x + 1), key(max)));
                }
                out
            }
            _ => vec![(key(min), key(max))],
        },
    }
}

/// The finite float keys `x` with `x + c op 0` within the linear
/// tolerance: the comparison is monotone in `x`, so each side is one
/// interval, found by bisection over the ordered keys.
fn float_solutions(c: f64, op: Op) -> Intervals {
    let (min, max) = finite_float_keys();
    let holds = |k: u64, op: Op| {
        let x = key_float(k);
        float_holds(x + c, x.abs().max(c.abs()).max(1.0), op)
    };
    // The least key from which `x + c >= 0` (within tolerance) holds, and
    // the least from which `x + c > 0` holds.
    let ge = first_key(min, max, |k| holds(k, Op::Ge));
    let gt = first_key(min, max, |k| holds(k, Op::Gt));
    let below = |first: Option<u64>| match first {
        Some(k) if k > min => vec![(min, k - 1)],
        Some(_) => vec![],
        None => vec![(min, max)],
    };
    let above = |first: Option<u64>| first.map_or_else(Vec::new, |k| vec![(k, max)]);
    let raw = match op {
        Op::Ge => above(ge),
        Op::Gt => above(gt),
        Op::Lt => below(ge),
        Op::Le => below(gt),
        Op::Eq => match (ge, gt) {
            (Some(lo), Some(hi)) if lo < hi => vec![(lo, hi - 1)],
            (Some(lo), None) => vec![(lo, max)],
            _ => vec![],
        },
        Op::Ne => {
            let mut out = below(ge);
            out.extend(above(gt));
            out
        }
    };
    Intervals::new(VarType::Float, raw)
}

/// The least key in `[low, high]` where the monotone `test` holds.
pub(crate) fn first_key(mut low: u64, high: u64, test: impl Fn(u64) -> bool) -> Option<u64> {
    if !test(high) {
        return None;
    }
    let mut high = high;
    while low < high {
        let mid = low + (high - low) / 2;
        if test(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    Some(low)
}

/// A compiled predicate.
#[derive(Clone)]
pub(crate) enum Test {
    /// A constraint on one variable.
    Var { var: u32, constraint: Constraint },
    /// A linear condition over several variables (or an `f64` one), with
    /// its text for messages.
    Linear { test: LinearTest, text: Arc<str> },
    /// A named closure.
    Custom { name: Arc<str>, test: PredicateFn },
}

impl Test {
    fn var(var: Var, constraint: Constraint) -> Self {
        Test::Var {
            var: u32::try_from(var.index()).unwrap_or(u32::MAX),
            constraint,
        }
    }

    #[inline]
    pub(crate) fn holds(&self, state: &State) -> bool {
        match self {
            Test::Var { var, constraint } => constraint.allows(state.slot(*var as usize)),
            Test::Linear { test, .. } => test.holds(state),
            Test::Custom { test, .. } => test(state),
        }
    }
}

/// Tests compiled for speed: each constraint that one [`Check`] can say, and
/// the rest (wider sets, custom tests) as they are. Always-true tests are
/// dropped.
#[derive(Clone, Default)]
pub(crate) struct Tests {
    checks: Vec<Check>,
    rest: Vec<Test>,
}

impl Tests {
    pub(crate) fn new(tests: &[Test]) -> Self {
        let mut out = Self::default();
        for test in tests {
            match test {
                Test::Var { var, constraint } => match constraint.to_check(*var) {
                    Some(Ok(check)) => out.checks.push(check),
                    Some(Err(())) => {}
                    None => out.rest.push(test.clone()),
                },
                Test::Linear { .. } | Test::Custom { .. } => out.rest.push(test.clone()),
            }
        }
        out
    }

    /// The checks, when they are all the tests (none wider or custom).
    pub(crate) fn checks_only(&self) -> Option<&[Check]> {
        self.rest.is_empty().then_some(self.checks.as_slice())
    }

    #[inline]
    pub(crate) fn hold(&self, state: &State) -> bool {
        self.checks
            .iter()
            .all(|c| c.holds(state.slot(c.var as usize)))
            && self.rest.iter().all(|t| t.holds(state))
    }
}

/// Intersects the variable tests of `tests` per variable, sorted by
/// variable; also returns the names of the custom tests.
pub(crate) fn per_variable(tests: &[Test]) -> (Vec<(u32, Constraint)>, Vec<Arc<str>>) {
    let mut constraints: Vec<(u32, Constraint)> = Vec::new();
    let mut customs = Vec::new();
    for test in tests {
        match test {
            Test::Var { var, constraint } => match constraints.iter_mut().find(|(v, _)| v == var) {
                Some((_, c)) => *c = c.intersect(constraint),
                None => constraints.push((*var, constraint.clone())),
            },
            Test::Custom { name, .. } => customs.push(name.clone()),
            Test::Linear { .. } => {}
        }
    }
    constraints.sort_by_key(|(v, _)| *v);
    (constraints, customs)
}

/// The linear tests of `tests`, with their texts.
pub(crate) fn linear_tests(tests: &[Test]) -> Vec<(LinearTest, Arc<str>)> {
    tests
        .iter()
        .filter_map(|t| match t {
            Test::Linear { test, text } => Some((test.clone(), text.clone())),
            _ => None,
        })
        .collect()
}
