//! Actions: preconditions, effects and a cost.

use std::fmt;
use std::sync::Arc;

use crate::constraint::Constraint;
use crate::effect::Eff;
use crate::linear::LinearTest;
use crate::predicate::{linear_tests, per_variable, Tests};
use crate::{Cost, Effect, Expr, FactoredError, Predicate, Schema, State, Value};

/// A state-dependent cost.
pub type CostFn = Arc<dyn Fn(&State) -> Cost + Send + Sync>;

/// The index of an action in its [`Domain`](crate::Domain): the edge label of
/// both search spaces.
///
/// ```
/// use state_factored::{Action, Domain, Schema};
/// let mut domain = Domain::new(Schema::new());
/// let wait = domain.add_action(Action::builder("wait")).unwrap();
/// assert_eq!(wait.index(), 0);
/// assert_eq!(domain.action(wait).name(), "wait");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionId(pub(crate) u32);

impl ActionId {
    /// The action's position in its domain.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An action of a domain, checked against its schema: a conjunction of
/// preconditions, effects applied in order, and a cost (1 unless set).
///
/// Build one with [`Action::builder`] and add it with
/// [`Domain::add_action`](crate::Domain::add_action).
///
/// ```
/// use state_factored::{Action, Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.string("location").unwrap();
/// let mut domain = Domain::new(schema);
/// let walk = domain
///     .add_action(
///         Action::builder("walk_to_shop")
///             .cost(2)
///             .pre(Predicate::ne("location", "shop"))
///             .set("location", "shop"),
///     )
///     .unwrap();
/// let start = domain.schema().default_state();
/// assert!(domain.action(walk).is_applicable(&start));
/// assert_eq!(domain.action(walk).cost(), 2);
/// ```
#[derive(Clone)]
pub struct Action {
    pub(crate) name: Arc<str>,
    pub(crate) cost: Cost,
    pub(crate) cost_fn: Option<CostFn>,
    /// The preconditions, compiled for speed.
    pub(crate) pre_tests: Tests,
    pub(crate) effects: Vec<Eff>,
    /// Preconditions intersected per variable (custom ones left out).
    pub(crate) pre_constraints: Vec<(u32, Constraint)>,
    /// The linear preconditions over several variables (or in `f64`), with
    /// their texts.
    pub(crate) pre_linear: Vec<(LinearTest, Arc<str>)>,
    /// Each changed variable with its effects, in order.
    pub(crate) chains: Vec<(u32, Vec<Eff>)>,
    /// Names of custom predicates and effects.
    pub(crate) customs: Vec<String>,
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Action")
            .field("name", &self.name)
            .field("cost", &self.cost)
            .finish_non_exhaustive()
    }
}

impl Action {
    /// A builder for an action named `name`, with cost 1.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("idle")).unwrap();
    /// assert_eq!(domain.action(id).cost(), 1);
    /// ```
    pub fn builder(name: &str) -> ActionBuilder {
        ActionBuilder {
            name: name.to_owned(),
            cost: 1,
            cost_fn: None,
            pre: Vec::new(),
            effects: Vec::new(),
        }
    }

    /// The action's name.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("idle")).unwrap();
    /// assert_eq!(domain.action(id).name(), "idle");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fixed cost (the cost function's lower bound when there is one).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("rest").cost(4)).unwrap();
    /// assert_eq!(domain.action(id).cost(), 4);
    /// ```
    pub fn cost(&self) -> Cost {
        self.cost
    }

    /// The cost of applying the action in `state`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// let load = schema.int("load").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain
    ///     .add_action(Action::builder("carry").cost_fn(move |s| 1 + s.int(load).unsigned_abs() as u32))
    ///     .unwrap();
    /// let s = domain.schema().state().set("load", 3).build().unwrap();
    /// assert_eq!(domain.action(id).cost_in(&s), 4);
    /// ```
    pub fn cost_in(&self, state: &State) -> Cost {
        match &self.cost_fn {
            Some(f) => f(state),
            None => self.cost,
        }
    }

    /// Whether every precondition holds in `state`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let buy = domain.add_action(Action::builder("buy").pre(Predicate::ge("gold", 60))).unwrap();
    /// assert!(!domain.action(buy).is_applicable(&domain.schema().default_state()));
    /// ```
    #[inline]
    pub fn is_applicable(&self, state: &State) -> bool {
        self.pre_tests.hold(state)
    }

    /// The state after applying the action's effects to `state`, or `None`
    /// if an effect overflows or a custom effect refuses. Preconditions are
    /// not checked: see [`is_applicable`](Self::is_applicable).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("mint").increase("gold", i64::MAX)).unwrap();
    /// let rich = domain.schema().state().set("gold", 1).build().unwrap();
    /// assert!(domain.action(id).effects_on(&rich).is_none()); // would overflow
    /// ```
    #[inline]
    pub fn effects_on(&self, state: &State) -> Option<State> {
        let mut next = state.clone();
        for effect in &self.effects {
            if !effect.apply(state, &mut next) {
                return None;
            }
        }
        Some(next)
    }

    /// The variables the action changes (custom effects are not counted).
    pub(crate) fn changed_vars(&self) -> impl Iterator<Item = u32> + '_ {
        self.chains.iter().map(|(v, _)| *v)
    }

    /// The variables (by index) the action's effects change, or `None` when
    /// it has a custom effect, which may change any variable.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let arm = domain.add_action(Action::builder("arm").set("armed", true)).unwrap();
    /// assert_eq!(domain.action(arm).changed_variables().unwrap().collect::<Vec<_>>(), [1]);
    /// ```
    pub fn changed_variables(&self) -> Option<impl Iterator<Item = usize> + '_> {
        (!self.has_custom_effect()).then(|| self.chains.iter().map(|(v, _)| *v as usize))
    }

    /// Whether the action has custom effects (which may change anything).
    pub(crate) fn has_custom_effect(&self) -> bool {
        self.effects.iter().any(|e| matches!(e, Eff::Custom { .. }))
    }
}

/// Builds an [`Action`]; names are checked when the domain adds it.
#[derive(Clone)]
#[must_use]
pub struct ActionBuilder {
    name: String,
    cost: Cost,
    cost_fn: Option<CostFn>,
    pre: Vec<Predicate>,
    effects: Vec<Effect>,
}

impl fmt::Debug for ActionBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActionBuilder")
            .field("name", &self.name)
            .field("cost", &self.cost)
            .field("pre", &self.pre)
            .field("effects", &self.effects)
            .finish_non_exhaustive()
    }
}

impl ActionBuilder {
    /// Sets the cost (default 1).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("nap").cost(9)).unwrap();
    /// assert_eq!(domain.action(id).cost(), 9);
    /// ```
    pub fn cost(mut self, cost: Cost) -> Self {
        self.cost = cost;
        self
    }

    /// Makes the cost a function of the state before the action.
    /// Forward search only; the fixed [`cost`](Self::cost) should be a lower
    /// bound of it, since heuristics assume it is.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("wait").cost(0).cost_fn(|_| 3)).unwrap();
    /// assert_eq!(domain.action(id).cost_in(&domain.schema().default_state()), 3);
    /// ```
    pub fn cost_fn(mut self, cost: impl Fn(&State) -> Cost + Send + Sync + 'static) -> Self {
        self.cost_fn = Some(Arc::new(cost));
        self
    }

    /// Adds a precondition.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.bool("armed").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("attack").pre(Predicate::eq("armed", true))).unwrap();
    /// assert!(!domain.action(id).is_applicable(&domain.schema().default_state()));
    /// ```
    pub fn pre(mut self, predicate: Predicate) -> Self {
        self.pre.push(predicate);
        self
    }

    /// Adds an effect (effects run in the order added).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, Schema};
    /// let mut schema = Schema::new();
    /// let armed = schema.bool("armed").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("arm").effect(Effect::set("armed", true))).unwrap();
    /// assert!(domain.apply(id, &domain.schema().default_state()).unwrap().bool(armed));
    /// ```
    pub fn effect(mut self, effect: Effect) -> Self {
        self.effects.push(effect);
        self
    }

    /// Adds the effect `var := value`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// let n = schema.int("n").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("reset").set("n", 7)).unwrap();
    /// assert_eq!(domain.apply(id, &domain.schema().default_state()).unwrap().int(n), 7);
    /// ```
    pub fn set(self, var: &str, value: impl Into<Value>) -> Self {
        self.effect(Effect::set(var, value))
    }

    /// Adds the effect `var += value`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// let n = schema.int("n").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("inc").increase("n", 2)).unwrap();
    /// assert_eq!(domain.apply(id, &domain.schema().default_state()).unwrap().int(n), 2);
    /// ```
    pub fn increase(self, var: &str, value: impl Into<Value>) -> Self {
        self.effect(Effect::increase(var, value))
    }

    /// Adds the effect `var -= value`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut schema = Schema::new();
    /// let n = schema.int("n").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("dec").decrease("n", 2)).unwrap();
    /// assert_eq!(domain.apply(id, &domain.schema().default_state()).unwrap().int(n), -2);
    /// ```
    pub fn decrease(self, var: &str, value: impl Into<Value>) -> Self {
        self.effect(Effect::decrease(var, value))
    }

    /// Adds the effect `var := expr`, the expression read in the state the
    /// action starts from ([`Effect::assign`]).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let n = schema.int("n").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("double").assign("n", 2 * Expr::var("n"))).unwrap();
    /// let s = domain.schema().state().set("n", 4).build().unwrap();
    /// assert_eq!(domain.apply(id, &s).unwrap().int(n), 8);
    /// ```
    pub fn assign(self, var: &str, expr: impl Into<Expr>) -> Self {
        self.effect(Effect::assign(var, expr))
    }

    /// Adds the effect `var += expr` ([`Effect::increase_by`]).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// schema.int("mines").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("collect").increase_by("gold", Expr::var("mines") + 1)).unwrap();
    /// let s = domain.schema().state().set("mines", 2).build().unwrap();
    /// assert_eq!(domain.apply(id, &s).unwrap().int(gold), 3);
    /// ```
    pub fn increase_by(self, var: &str, expr: impl Into<Expr>) -> Self {
        self.effect(Effect::increase_by(var, expr))
    }

    /// Adds the effect `var -= expr` ([`Effect::decrease_by`]).
    ///
    /// ```
    /// use state_factored::{Action, Domain, Expr, Schema};
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// schema.int("price").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let id = domain.add_action(Action::builder("pay").decrease_by("gold", Expr::var("price"))).unwrap();
    /// let s = domain.schema().state().set("gold", 10).set("price", 4).build().unwrap();
    /// assert_eq!(domain.apply(id, &s).unwrap().int(gold), 6);
    /// ```
    pub fn decrease_by(self, var: &str, expr: impl Into<Expr>) -> Self {
        self.effect(Effect::decrease_by(var, expr))
    }

    /// Checks the action against `schema`.
    pub(crate) fn build(self, schema: &Schema) -> Result<Action, FactoredError> {
        let context = format!("action `{}`", self.name);
        let pre = self
            .pre
            .iter()
            .map(|p| p.compile(schema, &context))
            .collect::<Result<Vec<_>, _>>()?;
        let effects = self
            .effects
            .iter()
            .map(|e| e.compile(schema, &context))
            .collect::<Result<Vec<_>, _>>()?;
        let (pre_constraints, custom_pre) = per_variable(&pre);
        let mut chains: Vec<(u32, Vec<Eff>)> = Vec::new();
        let mut customs: Vec<String> = custom_pre
            .iter()
            .map(|n| format!("custom predicate `{n}` of action `{}`", self.name))
            .collect();
        for effect in &effects {
            match effect.var() {
                Some(var) => match chains.iter_mut().find(|(v, _)| *v == var) {
                    Some((_, chain)) => chain.push(effect.clone()),
                    None => chains.push((var, vec![effect.clone()])),
                },
                None => {
                    if let Eff::Custom { name, .. } = effect {
                        customs.push(format!("custom effect `{name}` of action `{}`", self.name));
                    }
                }
            }
        }
        chains.sort_by_key(|(v, _)| *v);
        if self.cost_fn.is_some() {
            customs.push(format!("the cost function of action `{}`", self.name));
        }
        Ok(Action {
            name: self.name.into(),
            cost: self.cost,
            cost_fn: self.cost_fn,
            pre_tests: Tests::new(&pre),
            effects,
            pre_constraints,
            pre_linear: linear_tests(&pre),
            chains,
            customs,
        })
    }
}
