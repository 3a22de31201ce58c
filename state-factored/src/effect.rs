//! Effects: what an action does to the variables.

use std::fmt;
use std::sync::Arc;

use crate::linear::{Linear, FLOAT_TOLERANCE};
use crate::value::{float_key, int_key, key_float, key_int};
use crate::{Expr, FactoredError, Schema, State, Value, VarType};

/// A custom effect: reads the state before the action, writes the state
/// being built; returns `false` to make the action inapplicable.
pub type EffectFn = Arc<dyn Fn(&State, &mut State) -> bool + Send + Sync>;

#[derive(Clone)]
enum Kind {
    Set {
        var: String,
        value: Value,
    },
    Increase {
        var: String,
        value: Value,
    },
    Decrease {
        var: String,
        value: Value,
    },
    Toggle {
        var: String,
    },
    Expression {
        var: String,
        kind: ExprKind,
        expr: Expr,
    },
    Custom {
        name: Arc<str>,
        apply: EffectFn,
    },
}

/// How an expression effect combines with its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExprKind {
    /// `x := e`
    Assign,
    /// `x += e`
    Increase,
    /// `x -= e`
    Decrease,
}

impl ExprKind {
    fn symbol(self) -> &'static str {
        match self {
            ExprKind::Assign => ":=",
            ExprKind::Increase => "+=",
            ExprKind::Decrease => "-=",
        }
    }
}

/// A change to one variable, written with names and checked against the
/// schema when its action is built.
///
/// - [`set`](Effect::set) any variable to a constant;
/// - [`increase`](Effect::increase) or [`decrease`](Effect::decrease) an int
///   or a float by a constant: an int that would overflow, or a float that
///   would stop being finite, makes the action inapplicable in that state
///   (never wraps, never panics);
/// - [`toggle`](Effect::toggle) a bool;
/// - [`assign`](Effect::assign), [`increase_by`](Effect::increase_by) and
///   [`decrease_by`](Effect::decrease_by) an int or a float by a linear
///   [`Expr`] of numeric variables (PDDL's `assign`, `increase`, `decrease`;
///   `scale-up` by `c` is `assign(x, c * x)`);
/// - [`custom`](Effect::custom): a named closure (forward search only).
///
/// An action's effects run in the order given. Each reads the value that the
/// earlier effects of the same action left in the variable it changes (so
/// `increase 2` then `increase 3` adds 5, and `set 5` then `increase 1`
/// leaves 6); a variable no effect touches keeps its value. The expression
/// of an expression effect, like a custom effect, reads the state the action
/// starts from, whatever earlier effects of the same action wrote (PDDL's
/// simultaneous effects: `x := y` then `y := x` swaps them).
///
/// An int variable that would receive a value out of range, or (from an
/// `f64` expression) a value that is not within the comparison tolerance of
/// an integer, makes the action inapplicable in that state; a float that
/// would stop being finite likewise (PDDL: an undefined result makes the
/// action inapplicable).
///
/// ```
/// use state_factored::{Action, Domain, Effect, Schema};
/// let mut schema = Schema::new();
/// let gold = schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// let id = domain
///     .add_action(Action::builder("bonus").effect(Effect::set("gold", 5)).effect(Effect::increase("gold", 1)))
///     .unwrap();
/// let after = domain.apply(id, &domain.schema().default_state()).unwrap();
/// assert_eq!(after.int(gold), 6);
/// ```
#[derive(Clone)]
#[must_use]
pub struct Effect(Kind);

impl fmt::Debug for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Set { var, value } => write!(f, "{var} := {value}"),
            Kind::Increase { var, value } => write!(f, "{var} += {value}"),
            Kind::Decrease { var, value } => write!(f, "{var} -= {value}"),
            Kind::Toggle { var } => write!(f, "toggle {var}"),
            Kind::Expression { var, kind, expr } => write!(f, "{var} {} {expr}", kind.symbol()),
            Kind::Custom { name, .. } => write!(f, "custom `{name}`"),
        }
    }
}

impl Effect {
    /// `var := value`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let at = schema.string("at").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let go = domain.add_action(Action::builder("go").effect(Effect::set("at", "shop"))).unwrap();
    /// let s = domain.apply(go, &domain.schema().default_state()).unwrap();
    /// assert_eq!(s.symbol(at), domain.schema().intern("shop"));
    /// ```
    pub fn set(var: &str, value: impl Into<Value>) -> Self {
        Self(Kind::Set {
            var: var.to_owned(),
            value: value.into(),
        })
    }

    /// `var += value` (ints and floats), PDDL's `increase`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let mine = domain.add_action(Action::builder("mine").effect(Effect::increase("gold", 25))).unwrap();
    /// assert_eq!(domain.apply(mine, &domain.schema().default_state()).unwrap().int(gold), 25);
    /// ```
    pub fn increase(var: &str, value: impl Into<Value>) -> Self {
        Self(Kind::Increase {
            var: var.to_owned(),
            value: value.into(),
        })
    }

    /// `var -= value` (ints and floats), PDDL's `decrease`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let pay = domain.add_action(Action::builder("pay").effect(Effect::decrease("gold", 60))).unwrap();
    /// assert_eq!(domain.apply(pay, &domain.schema().default_state()).unwrap().int(gold), -60);
    /// ```
    pub fn decrease(var: &str, value: impl Into<Value>) -> Self {
        Self(Kind::Decrease {
            var: var.to_owned(),
            value: value.into(),
        })
    }

    /// Flips a bool.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let lit = schema.bool("lit").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let flip = domain.add_action(Action::builder("flip").effect(Effect::toggle("lit"))).unwrap();
    /// assert!(domain.apply(flip, &domain.schema().default_state()).unwrap().bool(lit));
    /// ```
    pub fn toggle(var: &str) -> Self {
        Self(Kind::Toggle {
            var: var.to_owned(),
        })
    }

    /// `var := expr` (ints and floats): the expression is evaluated in the
    /// state the action starts from.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let x = schema.int("x").unwrap();
    /// let y = schema.int("y").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let swap = domain
    ///     .add_action(
    ///         Action::builder("swap")
    ///             .effect(Effect::assign("x", Expr::var("y")))
    ///             .effect(Effect::assign("y", Expr::var("x"))),
    ///     )
    ///     .unwrap();
    /// let s = domain.schema().state().set("x", 1).set("y", 2).build().unwrap();
    /// let after = domain.apply(swap, &s).unwrap();
    /// assert_eq!((after.int(x), after.int(y)), (2, 1));
    /// ```
    pub fn assign(var: &str, expr: impl Into<Expr>) -> Self {
        Self(Kind::Expression {
            var: var.to_owned(),
            kind: ExprKind::Assign,
            expr: expr.into(),
        })
    }

    /// `var += expr` (ints and floats), the expression evaluated in the
    /// state the action starts from.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// schema.int("miners").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let dig = domain
    ///     .add_action(Action::builder("dig").effect(Effect::increase_by("gold", 3 * Expr::var("miners"))))
    ///     .unwrap();
    /// let s = domain.schema().state().set("miners", 2).build().unwrap();
    /// assert_eq!(domain.apply(dig, &s).unwrap().int(gold), 6);
    /// ```
    pub fn increase_by(var: &str, expr: impl Into<Expr>) -> Self {
        Self(Kind::Expression {
            var: var.to_owned(),
            kind: ExprKind::Increase,
            expr: expr.into(),
        })
    }

    /// `var -= expr` (ints and floats), the expression evaluated in the
    /// state the action starts from.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let fuel = schema.float("fuel").unwrap();
    /// schema.float("distance").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let drive = domain
    ///     .add_action(Action::builder("drive").effect(Effect::decrease_by("fuel", 0.5 * Expr::var("distance"))))
    ///     .unwrap();
    /// let s = domain.schema().state().set("fuel", 10.0).set("distance", 4.0).build().unwrap();
    /// assert_eq!(domain.apply(drive, &s).unwrap().float(fuel), 8.0);
    /// ```
    pub fn decrease_by(var: &str, expr: impl Into<Expr>) -> Self {
        Self(Kind::Expression {
            var: var.to_owned(),
            kind: ExprKind::Decrease,
            expr: expr.into(),
        })
    }

    /// A named closure: it reads the state before the action and writes the
    /// state being built, returning `false` to make the action inapplicable.
    /// Forward search only: the regression space refuses it, naming it.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let double = domain
    ///     .add_action(Action::builder("double").effect(Effect::custom("double_gold", move |before, after| {
    ///         match before.int(gold).checked_mul(2) {
    ///             Some(g) => { after.set_int(gold, g); true }
    ///             None => false,
    ///         }
    ///     })))
    ///     .unwrap();
    /// let s = domain.schema().state().set("gold", 21).build().unwrap();
    /// assert_eq!(domain.apply(double, &s).unwrap().int(gold), 42);
    /// ```
    pub fn custom(
        name: &str,
        apply: impl Fn(&State, &mut State) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self(Kind::Custom {
            name: name.into(),
            apply: Arc::new(apply),
        })
    }

    /// The effect checked against `schema`.
    pub(crate) fn compile(&self, schema: &Schema, context: &str) -> Result<Eff, FactoredError> {
        let (var, value, negate) = match &self.0 {
            Kind::Custom { name, apply } => {
                return Ok(Eff::Custom {
                    name: name.clone(),
                    apply: apply.clone(),
                })
            }
            Kind::Toggle { var } => {
                let var = schema.resolve(var, context)?;
                if var.var_type() != VarType::Bool {
                    return Err(FactoredError::UnsupportedOperation {
                        variable: schema.name(var).to_owned(),
                        ty: var.var_type(),
                        operation: "toggle",
                        context: context.to_owned(),
                    });
                }
                return Ok(Eff::Toggle { var: index(var) });
            }
            Kind::Set { var, value } => {
                let var = schema.resolve(var, context)?;
                let slot = schema.encode(var, value, context)?;
                return Ok(Eff::Set {
                    var: index(var),
                    slot,
                });
            }
            Kind::Expression { var, kind, expr } => {
                return compile_expression(schema, context, var, *kind, expr);
            }
            Kind::Increase { var, value } => (var, value, false),
            Kind::Decrease { var, value } => (var, value, true),
        };
        let var = schema.resolve(var, context)?;
        let operation = if negate { "decrease" } else { "increase" };
        let slot = schema.encode(var, value, context)?;
        match var.var_type() {
            VarType::Int => {
                let d = key_int(slot);
                Ok(if negate {
                    Eff::SubInt { var: index(var), d }
                } else {
                    Eff::AddInt { var: index(var), d }
                })
            }
            VarType::Float => {
                let d = key_float(slot);
                Ok(Eff::AddFloat {
                    var: index(var),
                    d: if negate { -d } else { d },
                })
            }
            ty => Err(FactoredError::UnsupportedOperation {
                variable: schema.name(var).to_owned(),
                ty,
                operation,
                context: context.to_owned(),
            }),
        }
    }
}

/// An expression effect checked against `schema`; constant ones become the
/// constant effects they are.
fn compile_expression(
    schema: &Schema,
    context: &str,
    name: &str,
    kind: ExprKind,
    expr: &Expr,
) -> Result<Eff, FactoredError> {
    let var = schema.resolve(name, context)?;
    let ty = var.var_type();
    if !matches!(ty, VarType::Int | VarType::Float) {
        return Err(FactoredError::UnsupportedOperation {
            variable: name.to_owned(),
            ty,
            operation: kind.symbol(),
            context: context.to_owned(),
        });
    }
    let linear = expr.compile(schema, context)?;
    let text: Arc<str> = format!("{name} {} {expr}", kind.symbol()).into();
    let v = index(var);
    match (&linear, ty, kind) {
        (Linear::Exact { terms, constant }, VarType::Int, _) if terms.is_empty() => {
            Ok(match kind {
                ExprKind::Assign => Eff::Set {
                    var: v,
                    slot: int_key(*constant),
                },
                ExprKind::Increase => Eff::AddInt {
                    var: v,
                    d: *constant,
                },
                ExprKind::Decrease => Eff::SubInt {
                    var: v,
                    d: *constant,
                },
            })
        }
        (_, VarType::Float, _) if linear_is_constant(&linear) => {
            let c = linear_constant(&linear);
            Ok(match kind {
                ExprKind::Assign => Eff::Set {
                    var: v,
                    slot: float_key(c),
                },
                ExprKind::Increase => Eff::AddFloat { var: v, d: c },
                ExprKind::Decrease => Eff::AddFloat { var: v, d: -c },
            })
        }
        _ => Ok(Eff::Expr(Box::new(ExprEffect {
            var: v,
            kind,
            expr: linear,
            float_target: ty == VarType::Float,
            text,
        }))),
    }
}

fn linear_is_constant(linear: &Linear) -> bool {
    match linear {
        Linear::Exact { terms, .. } => terms.is_empty(),
        Linear::Float { terms, .. } => terms.is_empty(),
    }
}

#[expect(
    clippy::cast_precision_loss,
    reason = "a float variable takes it as f64"
)]
fn linear_constant(linear: &Linear) -> f64 {
    match linear {
        Linear::Exact { constant, .. } => *constant as f64,
        Linear::Float { constant, .. } => *constant,
    }
}

/// A compiled expression effect.
#[derive(Clone, Debug)]
pub(crate) struct ExprEffect {
    pub(crate) var: u32,
    pub(crate) kind: ExprKind,
    pub(crate) expr: Linear,
    pub(crate) float_target: bool,
    /// The effect as written, for messages.
    pub(crate) text: Arc<str>,
}

impl ExprEffect {
    /// Applies the effect to `after`, the expression read in `before`;
    /// `false` when the result is undefined for the variable.
    fn apply(&self, before: &State, after: &mut State) -> bool {
        let i = self.var as usize;
        if self.float_target {
            let (value, _) = self.expr.float(before);
            let current = key_float(after.slot(i));
            let x = match self.kind {
                ExprKind::Assign => value,
                ExprKind::Increase => current + value,
                ExprKind::Decrease => current - value,
            };
            if !x.is_finite() {
                return false;
            }
            after.set_slot(i, float_key(x));
            return true;
        }
        let value = match &self.expr {
            Linear::Exact { .. } => match self.expr.exact(before) {
                Some(v) => v,
                None => return false,
            },
            Linear::Float { .. } => {
                let (value, scale) = self.expr.float(before);
                let nearest = value.round();
                if !(nearest.abs() < 9.2e18 && (value - nearest).abs() <= FLOAT_TOLERANCE * scale) {
                    return false;
                }
                #[expect(clippy::cast_possible_truncation, reason = "in range, checked above")]
                let n = nearest as i64;
                i128::from(n)
            }
        };
        let current = i128::from(key_int(after.slot(i)));
        let x = match self.kind {
            ExprKind::Assign => Some(value),
            ExprKind::Increase => current.checked_add(value),
            ExprKind::Decrease => current.checked_sub(value),
        };
        match x.and_then(|x| i64::try_from(x).ok()) {
            Some(x) => {
                after.set_slot(i, int_key(x));
                true
            }
            None => false,
        }
    }
}

fn index(var: crate::Var) -> u32 {
    u32::try_from(var.index()).unwrap_or(u32::MAX)
}

/// A compiled effect.
#[derive(Clone)]
pub(crate) enum Eff {
    Set {
        var: u32,
        slot: u64,
    },
    AddInt {
        var: u32,
        d: i64,
    },
    SubInt {
        var: u32,
        d: i64,
    },
    AddFloat {
        var: u32,
        d: f64,
    },
    Toggle {
        var: u32,
    },
    /// Boxed: it is rare, and the common effects stay small.
    Expr(Box<ExprEffect>),
    Custom {
        name: Arc<str>,
        apply: EffectFn,
    },
}

impl Eff {
    /// The variable it changes; `None` for a custom effect.
    pub(crate) fn var(&self) -> Option<u32> {
        match self {
            Eff::Set { var, .. }
            | Eff::AddInt { var, .. }
            | Eff::SubInt { var, .. }
            | Eff::AddFloat { var, .. }
            | Eff::Toggle { var } => Some(*var),
            Eff::Expr(e) => Some(e.var),
            Eff::Custom { .. } => None,
        }
    }

    /// Applies the effect to `after`; `false` if it overflows or fails.
    #[inline]
    pub(crate) fn apply(&self, before: &State, after: &mut State) -> bool {
        match self {
            Eff::Set { var, slot } => after.set_slot(*var as usize, *slot),
            Eff::AddInt { var, d } => {
                let i = *var as usize;
                let Some(x) = key_int(after.slot(i)).checked_add(*d) else {
                    return false;
                };
                after.set_slot(i, int_key(x));
            }
            Eff::SubInt { var, d } => {
                let i = *var as usize;
                let Some(x) = key_int(after.slot(i)).checked_sub(*d) else {
                    return false;
                };
                after.set_slot(i, int_key(x));
            }
            Eff::AddFloat { var, d } => {
                let i = *var as usize;
                let x = key_float(after.slot(i)) + d;
                if !x.is_finite() {
                    return false;
                }
                after.set_slot(i, float_key(x));
            }
            Eff::Toggle { var } => {
                let i = *var as usize;
                after.set_slot(i, after.slot(i) ^ 1);
            }
            Eff::Expr(e) => return e.apply(before, after),
            Eff::Custom { apply, .. } => return apply(before, after),
        }
        true
    }
}

/// What one action does to one variable, all its effects on it taken
/// together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Change {
    /// The variable ends at this slot whatever it was.
    Const(u64),
    /// The variable moves by this much (only additions and subtractions).
    Delta(f64),
    /// The variable may end anywhere (toggles of an unknown bool, expression
    /// and custom effects).
    Any,
}

/// The change of an effect chain on a variable of type `ty`; `None` if the
/// chain never applies (a constant that overflows) or changes nothing.
pub(crate) fn classify(chain: &[Eff], ty: VarType) -> Option<Change> {
    let mut known: Option<u64> = None;
    let mut int_delta: i128 = 0;
    let mut float_delta = 0.0_f64;
    for effect in chain {
        match (effect, known) {
            (Eff::Set { slot, .. }, _) => known = Some(*slot),
            (Eff::AddInt { d, .. }, Some(k)) => known = Some(int_key(key_int(k).checked_add(*d)?)),
            (Eff::SubInt { d, .. }, Some(k)) => known = Some(int_key(key_int(k).checked_sub(*d)?)),
            (Eff::AddInt { d, .. }, None) => int_delta += i128::from(*d),
            (Eff::SubInt { d, .. }, None) => int_delta -= i128::from(*d),
            (Eff::AddFloat { d, .. }, Some(k)) => {
                let x = key_float(k) + d;
                if !x.is_finite() {
                    return None;
                }
                known = Some(float_key(x));
            }
            (Eff::AddFloat { d, .. }, None) => float_delta += d,
            (Eff::Toggle { .. }, Some(k)) => known = Some(k ^ 1),
            (Eff::Toggle { .. }, None) | (Eff::Expr(_) | Eff::Custom { .. }, _) => {
                return Some(Change::Any)
            }
        }
    }
    if let Some(k) = known {
        return Some(Change::Const(k));
    }
    #[expect(clippy::cast_precision_loss, reason = "step sizes may round")]
    let delta = match ty {
        VarType::Float => float_delta,
        _ => int_delta as f64,
    };
    (delta != 0.0).then_some(Change::Delta(delta))
}
