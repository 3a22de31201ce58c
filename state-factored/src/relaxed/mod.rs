//! The numeric relaxation of a factored domain that [`NumericRmax`] and
//! [`NumericRelaxedPlan`] estimate with, as ENHSP's `hrmax` and `hmrp` do
//! (Scala, Haslum, Thiébaux and Ramírez, "Interval-based relaxation for
//! general numeric planning", ECAI 2016, and "Subgoaling techniques for
//! satisficing and optimal numeric planning", JAIR 2020).
//!
//! Every precondition and goal becomes a condition: a constraint on one
//! discrete variable (bool, string, or a number outside one interval), or
//! a linear one `sum w_i x_i + k >= 0` (an interval on a number is two of
//! those, `==` two, `<` over ints `<= -1`, `!=` and custom predicates are
//! left out: they never make an estimate larger). An action supports a
//! discrete condition by setting its variable to an allowed value (a
//! toggle, or any change to a number, counts), and a linear one by the
//! amount its effects add to the sum, `delta`: a constant for `+=` and
//! `-=` of constants, unbounded for an assignment or an expression that
//! reads another variable. From a state, a linear condition short by
//! `need` costs
//!
//! - for `hrmax`: the larger of two lower bounds, the cheapest supporter
//!   with its precondition (`h^max`), and `need` times the least cost per
//!   unit of any supporter; admissible, since a plan needs one supporter
//!   at least and all of `need`;
//! - for `hmrp`: its best supporter's precondition (`h^add`) plus the
//!   supporter's cost repeated `ceil(need / delta)` times.
//!
//! Costs are propagated to a fixpoint (a cost may fall after the
//! conditions that use it were costed, so each round goes over all of
//! them until nothing falls).

mod mrp;
mod rmax;

pub use mrp::NumericRelaxedPlan;
pub use rmax::NumericRmax;

use search_core::Estimate;

use crate::constraint::{Constraint, Intervals};
use crate::effect::{Eff, ExprKind};
use crate::linear::{Linear, LinearTest};
use crate::linear_constraint::LinearConstraint;
use crate::value::{key_float, key_int};
use crate::{Cost, Domain, Goal, State, VarType};

/// A condition of the relaxation.
#[derive(Clone, Debug, PartialEq)]
enum Cond {
    /// A constraint on one discrete variable (or a number outside one
    /// interval).
    Var { var: u32, constraint: Constraint },
    /// `sum w_i x_i + k >= 0`.
    AtLeast { terms: Vec<(u32, f64)>, k: f64 },
}

/// What an action does to one variable: the variable, the change to it
/// as a number, the slot it sets it to (if it does), whether it toggles it.
type VarChange = (u32, Change, Option<u64>, bool);

/// What an action does to a number.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change {
    By(f64),
    Any,
}

/// An action of the relaxation.
#[derive(Clone, Debug)]
struct Step {
    /// Its cost; `None` when it depends on the state (`cost_fn`).
    cost: Option<Cost>,
    pre: Vec<u32>,
}

/// A supporter of a condition: the action and what it adds (`None`: any
/// amount, or a discrete condition).
#[derive(Clone, Copy, Debug)]
struct Support {
    action: u32,
    delta: Option<f64>,
}

/// A condition's identity, for sharing equal ones.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CondKey {
    Var(u32, Constraint),
    AtLeast(Vec<(u32, u64)>, u64),
}

impl Cond {
    fn key(&self) -> CondKey {
        match self {
            Cond::Var { var, constraint } => CondKey::Var(*var, constraint.clone()),
            Cond::AtLeast { terms, k } => CondKey::AtLeast(
                terms.iter().map(|&(v, w)| (v, w.to_bits())).collect(),
                k.to_bits(),
            ),
        }
    }
}

/// A factored domain's numeric relaxation with respect to a goal.
#[derive(Clone, Debug)]
pub(crate) struct Relaxation {
    conds: Vec<Cond>,
    index: rustc_hash::FxHashMap<CondKey, u32>,
    steps: Vec<Step>,
    /// Per condition: its supporters.
    support: Vec<Vec<Support>>,
    goal: Vec<u32>,
    /// Per variable: whether it is a float (else read as an int).
    float: Vec<bool>,
    /// Per variable: whether it is a number.
    numeric: Vec<bool>,
    /// Per action: what it does to each variable it changes.
    changes: Vec<Vec<VarChange>>,
    /// Per variable: the actions that change it.
    changers: Vec<Vec<u32>>,
}

/// The fixpoint of one estimate.
#[derive(Clone, Debug, Default)]
struct Costs {
    /// Per condition.
    cond: Vec<f64>,
    /// Per action: its precondition's cost.
    pre: Vec<f64>,
    /// Per condition: how far its sum is below 0 (0 if it holds).
    need: Vec<f64>,
    /// Per condition: its best supporter (`hmrp`), if costed.
    best: Vec<Option<Support>>,
    /// Per action: its cost in the state estimated.
    step: Vec<f64>,
    /// `hmrp`'s relaxed plan: per action, how often it repeats; per
    /// condition, whether it was reached; the conditions left to reach.
    repeats: Vec<f64>,
    seen: Vec<bool>,
    stack: Vec<u32>,
}

impl Relaxation {
    /// The relaxation of `domain` toward `goal`; `None` for a domain with
    /// custom effects, which could change anything.
    #[expect(
        clippy::cast_precision_loss,
        reason = "ints as estimates' numbers: 2^53 is far beyond any plan's"
    )]
    pub(crate) fn new(domain: &Domain, goal: &Goal) -> Option<Self> {
        let schema = domain.schema();
        let float: Vec<bool> = schema
            .vars()
            .map(|v| v.var_type() == VarType::Float)
            .collect();
        let numeric: Vec<bool> = schema
            .vars()
            .map(|v| matches!(v.var_type(), VarType::Int | VarType::Float))
            .collect();
        let mut relaxation = Relaxation {
            conds: Vec::new(),
            index: rustc_hash::FxHashMap::default(),
            steps: Vec::new(),
            support: Vec::new(),
            goal: Vec::new(),
            float,
            numeric: numeric.clone(),
            changes: Vec::new(),
            changers: vec![Vec::new(); schema.len()],
        };
        let mut changes: Vec<Vec<VarChange>> = Vec::new();
        for action in domain.actions() {
            let mut pre = Vec::new();
            for (var, constraint) in &action.pre_constraints {
                relaxation.constraint(*var, constraint, numeric[*var as usize], &mut pre);
            }
            for (test, _) in &action.pre_linear {
                relaxation.linear(test, &mut pre);
            }
            let mut effects = Vec::new();
            for (var, chain) in &action.chains {
                let mut change = Change::By(0.0);
                let mut set = None;
                let mut toggled = false;
                for effect in chain {
                    match effect {
                        Eff::Set { slot, .. } => {
                            set = Some(*slot);
                            change = Change::Any;
                        }
                        Eff::AddInt { d, .. } => change = add(change, Change::By(*d as f64)),
                        Eff::SubInt { d, .. } => change = add(change, Change::By(-(*d as f64))),
                        Eff::AddFloat { d, .. } => change = add(change, Change::By(*d)),
                        Eff::Toggle { .. } => {
                            toggled = true;
                            change = Change::Any;
                        }
                        Eff::Expr(e) => {
                            let constant = match &e.expr {
                                Linear::Exact { terms, constant } if terms.is_empty() => {
                                    Some(*constant as f64)
                                }
                                Linear::Float { terms, constant } if terms.is_empty() => {
                                    Some(*constant)
                                }
                                _ => None,
                            };
                            change = match (e.kind, constant) {
                                (ExprKind::Increase, Some(c)) => add(change, Change::By(c)),
                                (ExprKind::Decrease, Some(c)) => add(change, Change::By(-c)),
                                _ => Change::Any,
                            };
                            set = None;
                        }
                        Eff::Custom { .. } => return None,
                    }
                }
                effects.push((*var, change, set, toggled));
            }
            if action
                .effects
                .iter()
                .any(|e| matches!(e, Eff::Custom { .. }))
            {
                return None;
            }
            relaxation.add_pair_sums(&mut pre);
            relaxation.steps.push(Step {
                cost: action.cost_fn.is_none().then_some(action.cost),
                pre,
            });
            changes.push(effects);
        }
        let mut goal_conds = Vec::new();
        for (var, constraint) in &goal.constraints {
            relaxation.constraint(*var, constraint, numeric[*var as usize], &mut goal_conds);
        }
        for (test, _) in &goal.linear {
            relaxation.linear(test, &mut goal_conds);
        }
        relaxation.add_pair_sums(&mut goal_conds);
        relaxation.goal = goal_conds;
        relaxation.index_supporters(changes);
        Some(relaxation)
    }

    /// Keeps the actions' `changes`, indexes them by variable, and finds
    /// every condition's supporters.
    fn index_supporters(&mut self, changes: Vec<Vec<VarChange>>) {
        for (a, changed) in changes.iter().enumerate() {
            for &(var, ..) in changed {
                self.changers[var as usize].push(u32::try_from(a).unwrap_or(u32::MAX));
            }
        }
        self.changes = changes;
        self.support = self
            .conds
            .iter()
            .map(|cond| self.supporters(cond))
            .collect();
    }

    /// The supporters of `cond`: the actions that change one of its
    /// variables, in order, with what they add.
    fn supporters(&self, cond: &Cond) -> Vec<Support> {
        let mut candidates: Vec<u32> = match cond {
            Cond::Var { var, .. } => self.changers[*var as usize].clone(),
            Cond::AtLeast { terms, .. } => terms
                .iter()
                .flat_map(|&(v, _)| self.changers[v as usize].iter().copied())
                .collect(),
        };
        candidates.sort_unstable();
        candidates.dedup();
        candidates
            .into_iter()
            .filter_map(|a| support(cond, a, &self.changes[a as usize]))
            .collect()
    }

    /// The conditions `constraints` and `linear` (a regression subgoal's)
    /// stand for, with the sums of pairs of the linear ones.
    fn subgoal_conds(
        &self,
        constraints: &[(u32, Constraint)],
        linear: &[LinearConstraint],
    ) -> Vec<Cond> {
        let mut conds = Vec::new();
        for (var, constraint) in constraints {
            constraint_conds(*var, constraint, self.numeric[*var as usize], &mut conds);
        }
        for c in linear {
            for (terms, k) in c.at_least() {
                conds.push(Cond::AtLeast { terms, k });
            }
        }
        let sums = pair_sums(conds.iter());
        conds.extend(sums);
        conds
    }

    /// The cost of `cond` (which need not be one of the relaxation's) at
    /// `costs`' fixpoint from `state`, `h^rmax`'s way.
    fn rmax_cost(&self, cond: &Cond, state: &State, costs: &Costs) -> f64 {
        let need = self.need(cond, state);
        if need == 0.0 {
            return 0.0;
        }
        let supporters = self.supporters(cond);
        value(need, &supporters, costs, false).0
    }

    /// The index of `cond`, added if new.
    fn intern(&mut self, cond: Cond) -> u32 {
        let next = u32::try_from(self.conds.len()).unwrap_or(u32::MAX);
        let index = *self.index.entry(cond.key()).or_insert(next);
        if index == next {
            self.conds.push(cond);
        }
        index
    }

    /// Adds to a conjunction of conditions the sum of each pair of its
    /// linear ones (ENHSP's redundant constraints): implied by the pair, a
    /// sum needs both shortfalls at once, so `h^max` sees more than either
    /// alone (two counters short by 5 each need 10 steps of +1). At most
    /// [`PAIRED`] linear conditions are paired.
    fn add_pair_sums(&mut self, conds: &mut Vec<u32>) {
        conds.sort_unstable();
        conds.dedup();
        let sums = pair_sums(conds.iter().map(|&c| &self.conds[c as usize]));
        for sum in sums {
            conds.push(self.intern(sum));
        }
        conds.sort_unstable();
        conds.dedup();
    }

    /// The conditions of a constraint on one variable.
    fn constraint(&mut self, var: u32, constraint: &Constraint, numeric: bool, out: &mut Vec<u32>) {
        let mut conds = Vec::new();
        constraint_conds(var, constraint, numeric, &mut conds);
        for cond in conds {
            out.push(self.intern(cond));
        }
    }

    /// The conditions of a linear test `expr op 0` (`!=` has none).
    fn linear(&mut self, test: &LinearTest, out: &mut Vec<u32>) {
        for (terms, k) in test.at_least() {
            out.push(self.intern(Cond::AtLeast { terms, k }));
        }
    }

    /// A number's value in `state`.
    fn value(&self, state: &State, var: u32) -> f64 {
        let slot = state.slot(var as usize);
        if self.float[var as usize] {
            key_float(slot)
        } else {
            #[expect(
                clippy::cast_precision_loss,
                reason = "an estimate: 2^53 is far beyond any plan's numbers"
            )]
            let v = key_int(slot) as f64;
            v
        }
    }

    /// How far `cond`'s sum is below 0 in `state` (0 if it holds).
    fn need(&self, cond: &Cond, state: &State) -> f64 {
        match cond {
            Cond::Var { var, constraint } => {
                if constraint.allows(state.slot(*var as usize)) {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
            Cond::AtLeast { terms, k } => {
                let sum = terms
                    .iter()
                    .fold(*k, |s, &(v, w)| s + w * self.value(state, v));
                let tolerance = 1e-9 * sum.abs().max(1.0);
                if sum >= -tolerance {
                    0.0
                } else {
                    -sum
                }
            }
        }
    }

    /// The fixpoint from `state`: `additive` for `hmrp` (sums, repetitions),
    /// else `hrmax`'s (maxima, cost per unit). `cost` gives an action's cost
    /// where it depends on the state.
    fn propagate(
        &self,
        state: &State,
        additive: bool,
        cost: impl Fn(u32) -> f64,
        costs: &mut Costs,
    ) {
        let n = self.conds.len();
        costs.need.clear();
        costs
            .need
            .extend(self.conds.iter().map(|c| self.need(c, state)));
        costs.cond.clear();
        costs.cond.extend(
            costs
                .need
                .iter()
                .map(|&need| if need == 0.0 { 0.0 } else { f64::INFINITY }),
        );
        costs.best.clear();
        costs.best.resize(n, None);
        costs.pre.clear();
        costs.pre.resize(self.steps.len(), f64::INFINITY);
        costs.step.clear();
        costs
            .step
            .extend(self.steps.iter().enumerate().map(|(a, step)| {
                step.cost
                    .map_or_else(|| cost(u32::try_from(a).unwrap_or(u32::MAX)), f64::from)
            }));
        loop {
            for (a, step) in self.steps.iter().enumerate() {
                costs.pre[a] = if additive {
                    step.pre.iter().map(|&c| costs.cond[c as usize]).sum()
                } else {
                    step.pre
                        .iter()
                        .map(|&c| costs.cond[c as usize])
                        .fold(0.0, f64::max)
                };
            }
            let mut fell = false;
            for c in 0..n {
                if costs.need[c] == 0.0 {
                    continue;
                }
                let (value, best) = value(costs.need[c], &self.support[c], costs, additive);
                if value < costs.cond[c] - 1e-9 {
                    costs.cond[c] = value;
                    costs.best[c] = best;
                    fell = true;
                }
            }
            if !fell {
                return;
            }
        }
    }
}

/// The most linear conditions of one conjunction whose pairs are summed.
const PAIRED: usize = 12;

/// The sum of two changes to one number.
fn add(a: Change, b: Change) -> Change {
    match (a, b) {
        (Change::By(x), Change::By(y)) => Change::By(x + y),
        _ => Change::Any,
    }
}

/// `set`'s one interval as optional bounds (`None` for an unbounded side),
/// or `None` if it is not one interval.
fn one_interval(set: &Intervals, int: bool) -> Option<(Option<f64>, Option<f64>)> {
    if int {
        let [(low, high)] = set.to_ints()[..] else {
            return None;
        };
        #[expect(clippy::cast_precision_loss, reason = "bounds of an estimate")]
        let bounds = (
            (low != i64::MIN).then_some(low as f64),
            (high != i64::MAX).then_some(high as f64),
        );
        Some(bounds)
    } else {
        let [(low, high)] = set.to_floats()[..] else {
            return None;
        };
        Some((
            low.is_finite().then_some(low),
            high.is_finite().then_some(high),
        ))
    }
}

/// Whether action `a`, making the `changed` changes, supports `cond`, and
/// what it adds to it.
fn support(cond: &Cond, a: u32, changed: &[VarChange]) -> Option<Support> {
    match cond {
        Cond::Var { var, constraint } => {
            let supports = changed.iter().any(|&(v, change, set, toggled)| {
                v == *var
                    && match set {
                        Some(slot) => constraint.allows(slot),
                        None => toggled || change != Change::By(0.0),
                    }
            });
            supports.then_some(Support {
                action: a,
                delta: None,
            })
        }
        Cond::AtLeast { terms, .. } => {
            let mut delta = Some(0.0);
            for &(v, change, _, _) in changed {
                let Some(&(_, w)) = terms.iter().find(|t| t.0 == v) else {
                    continue;
                };
                delta = match (delta, change) {
                    (Some(d), Change::By(x)) => Some(d + w * x),
                    _ => None,
                };
            }
            match delta {
                Some(d) if d <= 1e-12 => None,
                delta => Some(Support { action: a, delta }),
            }
        }
    }
}

/// The cost of a condition short by `need` from its `supporters` at the
/// actions' precondition costs in `costs`, and its best supporter: for
/// `hmrp` (`additive`) the cheapest supporter repeated as often as it
/// must be, for `hrmax` the larger of the cheapest supporter once and
/// `need` times the least cost per unit.
fn value(
    need: f64,
    supporters: &[Support],
    costs: &Costs,
    additive: bool,
) -> (f64, Option<Support>) {
    let mut cheapest = f64::INFINITY;
    let mut per_unit = f64::INFINITY;
    let mut best = None;
    for s in supporters {
        let a = s.action as usize;
        let pre = costs.pre[a];
        if pre.is_infinite() {
            continue;
        }
        let step = costs.step[a];
        let repeats = match (s.delta, need.is_finite()) {
            (Some(delta), true) => (need / delta - 1e-9).ceil().max(1.0),
            _ => 1.0,
        };
        let total = if additive {
            pre + repeats * step
        } else {
            pre + step
        };
        if total < cheapest {
            cheapest = total;
            best = Some(*s);
        }
        let unit = match (s.delta, need.is_finite()) {
            (Some(delta), true) => step / delta,
            _ => 0.0,
        };
        per_unit = per_unit.min(unit);
    }
    let value = if additive || !need.is_finite() {
        cheapest
    } else {
        cheapest.max(need * per_unit)
    };
    (value, best)
}

/// The sums of each pair of the first [`PAIRED`] linear conditions among
/// `conds` (ENHSP's redundant constraints).
fn pair_sums<'c>(conds: impl Iterator<Item = &'c Cond>) -> Vec<Cond> {
    let linear: Vec<(Vec<(u32, f64)>, f64)> = conds
        .filter_map(|c| match c {
            Cond::AtLeast { terms, k } => Some((terms.clone(), *k)),
            Cond::Var { .. } => None,
        })
        .take(PAIRED)
        .collect();
    let mut sums = Vec::new();
    for (i, a) in linear.iter().enumerate() {
        for b in &linear[i + 1..] {
            sums.extend(pair_sum(a, b));
        }
    }
    sums
}

/// The sum of two linear conditions `a` and `b` (`None` if no term is
/// left): implied by them both.
fn pair_sum(a: &(Vec<(u32, f64)>, f64), b: &(Vec<(u32, f64)>, f64)) -> Option<Cond> {
    let mut terms = a.0.clone();
    for &(v, w) in &b.0 {
        match terms.iter_mut().find(|t| t.0 == v) {
            Some(t) => t.1 += w,
            None => terms.push((v, w)),
        }
    }
    terms.retain(|t| t.1.abs() > 1e-12);
    terms.sort_unstable_by_key(|t| t.0);
    let k = a.1 + b.1;
    (!terms.is_empty()).then_some(Cond::AtLeast { terms, k })
}

/// The conditions of a constraint on one variable (`numeric`: the
/// variable is a number): one interval as its bounds, anything else as it
/// is.
fn constraint_conds(var: u32, constraint: &Constraint, numeric: bool, out: &mut Vec<Cond>) {
    let interval = match constraint {
        Constraint::Int(set) if numeric => one_interval(set, true),
        Constraint::Float(set) if numeric => one_interval(set, false),
        _ => None,
    };
    match interval {
        Some((low, high)) => {
            if let Some(low) = low {
                out.push(Cond::AtLeast {
                    terms: vec![(var, 1.0)],
                    k: -low,
                });
            }
            if let Some(high) = high {
                out.push(Cond::AtLeast {
                    terms: vec![(var, -1.0)],
                    k: high,
                });
            }
        }
        None => out.push(Cond::Var {
            var,
            constraint: constraint.clone(),
        }),
    }
}

/// A cost as an estimate: rounded up, infinite as a dead end.
fn estimate(value: f64) -> Estimate<Cost> {
    if value.is_finite() {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "clamped to Cost's range"
        )]
        let v = (value - 1e-9).ceil().clamp(0.0, f64::from(Cost::MAX)) as Cost;
        Estimate::Value(v)
    } else {
        Estimate::DeadEnd
    }
}
