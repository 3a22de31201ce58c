//! Regression: subgoals from the goal back towards the start.

use search_core::{SearchSpace, Solution};

use crate::constraint::{Constraint, Intervals};
use crate::effect::Eff;
use crate::linear::Linear;
use crate::linear_constraint::{
    chain_map, membership, normalise, simplify, widest_gap, Affine, LinearConstraint, Normal,
};
use crate::predicate::first_key;
use crate::state::heap_block;
use crate::value::{finite_float_keys, float_key, int_key, key_float, key_int};
use crate::{ActionId, Cost, Domain, FactoredError, Goal, Schema, State, StrSet, Symbol, VarType};

/// A regression node: per-variable constraints that every state reaching the
/// goal by the rest of the plan satisfies.
///
/// Canonical: sorted by variable, each constraint normalised, unconstrained
/// variables left out, so equal constraint sets are equal and hash equally.
///
/// ```
/// use state_factored::{Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let domain = Domain::new(schema);
/// let a = domain.goal([Predicate::ge("gold", 5), Predicate::le("gold", 9)]).unwrap();
/// let b = domain.goal([Predicate::in_range("gold", 5, 9)]).unwrap();
/// let start = domain.schema().default_state();
/// assert_eq!(
///     domain.regression(&start, &a).unwrap().start_node(),
///     domain.regression(&start, &b).unwrap().start_node(),
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subgoal {
    constraints: Vec<(u32, Constraint)>,
    /// Canonical and sorted; `None` when empty, so that a subgoal without
    /// linear parts grows by one pointer only.
    #[expect(
        clippy::box_collection,
        reason = "one pointer in every subgoal, where a Vec would be three"
    )]
    linear: Option<Box<Vec<LinearConstraint>>>,
}

impl Subgoal {
    /// The constrained variables (by index, ascending) and their constraints.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::eq("armed", true)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.constraints().len(), 1);
    /// assert_eq!(node.constraints()[0].0, 1);
    /// ```
    pub fn constraints(&self) -> &[(u32, Constraint)] {
        &self.constraints
    }

    /// The linear constraints over several int variables, canonical and
    /// sorted (see [`LinearConstraint`]).
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("x").unwrap();
    /// schema.int("y").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::linear(Expr::var("x") - Expr::var("y"), Op::Lt, 3)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.linear_constraints().len(), 1);
    /// assert!(node.constraints().is_empty());
    /// ```
    pub fn linear_constraints(&self) -> &[LinearConstraint] {
        self.linear.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The subgoal in words, for traces and logs: each constrained
    /// variable's allowed values by name (`gold>=60`, `armed=true`,
    /// `place="mine" or place="shop"`), joined by `, `; `(anything)` when
    /// nothing is constrained. `schema` is the domain's.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// schema.string("place").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([
    ///     Predicate::ge("gold", 60),
    ///     Predicate::eq("armed", true),
    ///     Predicate::ne("place", "jail"),
    /// ]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.describe(domain.schema()), "gold>=60, armed=true, place!=\"jail\"");
    /// ```
    pub fn describe(&self, schema: &Schema) -> String {
        let names: Vec<&str> = schema.vars().map(|v| schema.name(v)).collect();
        let parts: Vec<String> = self
            .constraints
            .iter()
            .map(|(var, constraint)| {
                let name = names.get(*var as usize).copied().unwrap_or("?");
                describe_constraint(name, constraint, schema)
            })
            .chain(self.linear_constraints().iter().map(|c| c.describe(&names)))
            .collect();
        if parts.is_empty() {
            "(anything)".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// Bytes the subgoal owns on the heap: its list of constraints and
    /// their interval and symbol lists (allocated capacity, with the
    /// allocator's overhead, as [`State::heap_bytes`] counts it). The search
    /// engine counts them against its memory limit
    /// ([`SearchSpace::node_heap_bytes`]).
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 5)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert!(node.heap_bytes() >= std::mem::size_of_val(node.constraints()));
    /// ```
    pub fn heap_bytes(&self) -> usize {
        let constraints = heap_block(self.constraints.capacity() * size_of::<(u32, Constraint)>());
        constraints
            + self
                .constraints
                .iter()
                .map(|(_, c)| c.heap_bytes())
                .sum::<usize>()
            + self.linear.as_deref().map_or(0, |linear| {
                heap_block(size_of::<Vec<LinearConstraint>>())
                    + heap_block(linear.capacity() * size_of::<LinearConstraint>())
                    + linear
                        .iter()
                        .map(LinearConstraint::heap_bytes)
                        .sum::<usize>()
            })
    }

    /// The constrained variables (by index) whose constraint `state`
    /// violates.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 5)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let node = domain.regression(&start, &goal).unwrap().start_node();
    /// assert_eq!(node.unmet_by(&start).collect::<Vec<_>>(), [0]);
    /// ```
    pub fn unmet_by<'s>(&'s self, state: &'s State) -> impl Iterator<Item = usize> + 's {
        self.constraints
            .iter()
            .filter(|(v, c)| !c.allows(state.slot(*v as usize)))
            .map(|(v, _)| *v as usize)
    }

    /// Whether `state` satisfies every constraint.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 5)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let node = domain.regression(&start, &goal).unwrap().start_node();
    /// assert!(!node.is_satisfied_by(&start));
    /// ```
    #[inline]
    pub fn is_satisfied_by(&self, state: &State) -> bool {
        self.constraints
            .iter()
            .all(|(v, c)| c.allows(state.slot(*v as usize)))
            && self
                .linear_constraints()
                .iter()
                .all(|c| c.is_satisfied_by(state))
    }
}

/// Regression search: from the goal, backwards through actions, to a subgoal
/// that the start state satisfies.
///
/// Regressing subgoal `G` through action `a` gives the set of states in which
/// `a` is applicable and leads into `G`, exactly:
///
/// - `a` is *relevant* if it changes a variable that `G` constrains;
/// - each constrained variable is regressed through `a`'s effects on it, last
///   effect first: `v := c` drops the constraint if `c` satisfies it and makes
///   `a` inconsistent if not; `v += d` shifts the interval by `-d` (for
///   floats, to exactly the floats `x` with `x + d` inside, rounding
///   included); `toggle` swaps the allowed bools. Values whose effect would
///   overflow are left out; a variable that `G` leaves unconstrained stays
///   unconstrained (so the overflow of an unconstrained variable, possible
///   only within `|d|` times the plan length of the type's limits, is not
///   excluded: [`Domain::validate`] checks a plan);
/// - preconditions are intersected in; an empty constraint makes `a`
///   inconsistent;
/// - a subgoal that constrains a variable no action changes, in a way the
///   start violates, is a dead end and is not generated.
///
/// With linear parts (linear conditions over several ints, expression
/// effects), subgoals also hold [`LinearConstraint`]s:
///
/// - each int variable that `a` changes is replaced, in every linear
///   constraint of `G`, by the affine map its effects apply (read in the
///   state before `a`: `x += y` maps `x` to `x + y`, `x := 2 * y` to `2y`);
/// - a variable's per-variable constraint goes through an expression effect
///   the same way: it stays per-variable when the map reads one variable
///   (`x := y + 2`), else becomes linear constraints (the two bounds of its
///   hull and one `!=` per value missing inside it);
/// - linear preconditions are added; everything is normalised (one-variable
///   constraints become per-variable ones, coefficients divided by their
///   common divisor), constraints with the same terms merged (the tighter
///   `<=` kept, an `==` against its `<=` and `!=`), constraints the
///   per-variable bounds imply dropped, and the subgoal pruned when a
///   constraint contradicts another or cannot be met within the bounds;
/// - the maps are exact over the integers: a subgoal whose coefficients
///   would leave `i64` is not generated, and an intermediate overflow of an
///   effect chain that forward search would reject is not excluded
///   ([`Domain::validate`] checks a plan).
///
/// Linear conditions and expression effects in `f64` cannot be regressed
/// exactly and are refused by name when the space is built.
///
/// The plan is the regressed actions in reverse: [`plan`](Self::plan).
/// Forward and regression optimal costs agree. Custom predicates, custom
/// effects and cost functions cannot be regressed: [`new`](Self::new) refuses
/// them. A numeric goal can make the space infinite, as forward.
///
/// ```
/// use search_core::astar;
/// use state_factored::{Action, Domain, NumericDistance, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// schema.bool("armed").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
/// domain
///     .add_action(Action::builder("buy").pre(Predicate::ge("gold", 60)).decrease("gold", 60).set("armed", true))
///     .unwrap();
/// let goal = domain.goal([Predicate::eq("armed", true)]).unwrap();
/// let start = domain.schema().state().set("gold", 20).build().unwrap();
/// let space = domain.regression(&start, &goal).unwrap();
/// let h = NumericDistance::admissible(&domain, &start, &goal);
/// let result = astar(&space, space.start_node(), h).unwrap();
/// let solution = result.outcome.solution().unwrap();
/// assert_eq!(solution.cost, 7);
/// assert_eq!(domain.names(&space.plan(solution)), ["mine", "mine", "buy"]);
/// ```
#[derive(Clone, Debug)]
pub struct RegressionSpace<'a> {
    domain: &'a Domain,
    goal: &'a Goal,
    start: &'a State,
    /// Whether some action changes each variable.
    changed: Vec<bool>,
    /// Present when the domain or goal has linear parts (linear conditions,
    /// expression effects); without them regression takes the per-variable
    /// path alone.
    linear: Option<LinearParts>,
}

/// What regression through linear parts needs of each action, computed
/// once.
#[derive(Clone, Debug)]
struct LinearParts {
    /// Per action: the affine map of each int variable it changes, sorted;
    /// `None` if one has no exact map (its actions are not regressed).
    maps: Vec<Option<Vec<(u32, Affine)>>>,
    /// Per action: its linear preconditions, normalised.
    pre: Vec<Vec<Normal>>,
}

/// Gaps in an int condition wider than this are refused when the domain
/// has expression effects (regressing through one lists the gap's values).
const WIDEST_REGRESSABLE_GAP: i128 = 64;

impl<'a> RegressionSpace<'a> {
    /// The regression space of `domain` from `goal` back to `start`.
    ///
    /// # Errors
    /// [`FactoredError::NotRegressable`] naming every custom predicate,
    /// custom effect and cost function of the domain and the goal; every
    /// linear condition or expression effect evaluated in `f64` (a float
    /// variable or a non-integer number: its rounding has no exact
    /// preimage); and, when the domain has expression effects, every int
    /// condition that allows values with a gap of more than 64 between them
    /// (`one_of([0, 100])`), which an expression cannot carry back as a
    /// conjunction of linear constraints.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Effect, FactoredError, RegressionSpace, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain
    ///     .add_action(Action::builder("warp").effect(Effect::custom("teleport", |_, _| true)))
    ///     .unwrap();
    /// let goal = domain.goal([]).unwrap();
    /// let start = domain.schema().default_state();
    /// let error = RegressionSpace::new(&domain, &start, &goal).unwrap_err();
    /// assert_eq!(error.to_string(), "regression cannot use custom effect `teleport` of action `warp`");
    /// ```
    pub fn new(
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Result<Self, FactoredError> {
        let mut items: Vec<String> = goal
            .customs
            .iter()
            .map(|n| format!("custom predicate `{n}` of the goal"))
            .collect();
        for action in domain.actions() {
            items.extend(action.customs.iter().cloned());
        }
        items.extend(unregressable(domain, goal));
        if !items.is_empty() {
            return Err(FactoredError::NotRegressable { items });
        }
        let mut changed = vec![false; domain.schema().len()];
        for action in domain.actions() {
            for v in action.changed_vars() {
                changed[v as usize] = true;
            }
        }
        let has_linear = !goal.linear.is_empty()
            || domain.actions().iter().any(|a| {
                !a.pre_linear.is_empty() || a.effects.iter().any(|e| matches!(e, Eff::Expr(_)))
            });
        let types: Vec<VarType> = domain.schema().vars().map(crate::Var::var_type).collect();
        let linear = has_linear.then(|| LinearParts {
            maps: domain
                .actions()
                .iter()
                .map(|a| {
                    a.chains
                        .iter()
                        .filter(|(v, _)| types[*v as usize] == VarType::Int)
                        .map(|(v, chain)| chain_map(*v, chain).map(|m| (*v, m)))
                        .collect()
                })
                .collect(),
            pre: domain
                .actions()
                .iter()
                .map(|a| {
                    a.pre_linear
                        .iter()
                        .filter_map(|(test, _)| {
                            Affine::of(&test.expr).map(|form| normalise(&form, test.op))
                        })
                        .collect()
                })
                .collect(),
        });
        Ok(Self {
            domain,
            goal,
            start,
            changed,
            linear,
        })
    }

    /// The search's start node: the goal as a subgoal.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", i64::MIN)]).unwrap(); // always true
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert!(node.constraints().is_empty());
    /// ```
    pub fn start_node(&self) -> Subgoal {
        let constraints = self
            .goal
            .constraints
            .iter()
            .filter(|(_, c)| !c.is_universal())
            .cloned()
            .collect();
        if self.goal.linear.is_empty() {
            return Subgoal {
                constraints,
                linear: None,
            };
        }
        let pending = self
            .goal
            .linear
            .iter()
            .filter_map(|(test, _)| Affine::of(&test.expr).map(|form| normalise(&form, test.op)))
            .collect();
        combine(constraints, pending).unwrap_or_else(|| Subgoal {
            constraints: Vec::new(),
            linear: Some(Box::new(vec![LinearConstraint::unsatisfiable()])),
        })
    }

    /// The start state.
    pub fn start(&self) -> &'a State {
        self.start
    }

    /// The domain.
    pub fn domain(&self) -> &'a Domain {
        self.domain
    }

    /// The forward plan of a regression solution: its actions reversed.
    ///
    /// ```
    /// use search_core::bfs;
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.bool("a").unwrap();
    /// schema.bool("b").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("first").set("a", true)).unwrap();
    /// domain.add_action(Action::builder("second").pre(Predicate::eq("a", true)).set("b", true)).unwrap();
    /// let goal = domain.goal([Predicate::eq("b", true)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let space = domain.regression(&start, &goal).unwrap();
    /// let result = bfs(&space, space.start_node()).unwrap();
    /// let plan = space.plan(result.outcome.solution().unwrap());
    /// assert_eq!(domain.names(&plan), ["first", "second"]);
    /// ```
    pub fn plan<C>(&self, solution: &Solution<Subgoal, ActionId, C>) -> Vec<ActionId> {
        solution.actions.iter().rev().copied().collect()
    }

    /// `goal` regressed through action `index`, or `None` if the action is
    /// irrelevant or inconsistent or the result a dead end.
    fn regress(&self, goal: &Subgoal, index: usize) -> Option<Subgoal> {
        if let Some(parts) = &self.linear {
            return self.regress_linear(goal, index, parts);
        }
        let action = &self.domain.actions()[index];
        let chains = &action.chains;
        let relevant = chains.iter().any(|(v, _)| {
            goal.constraints
                .binary_search_by_key(v, |(w, _)| *w)
                .is_ok()
        });
        if !relevant {
            return None;
        }
        let mut constraints =
            Vec::with_capacity(goal.constraints.len() + action.pre_constraints.len());
        let mut k = 0;
        for (v, c) in &goal.constraints {
            while k < chains.len() && chains[k].0 < *v {
                k += 1;
            }
            if k < chains.len() && chains[k].0 == *v {
                let mut c = c.clone();
                for effect in chains[k].1.iter().rev() {
                    c = preimage(effect, &c);
                    if c.is_empty() {
                        return None;
                    }
                }
                if !c.is_universal() {
                    constraints.push((*v, c));
                }
            } else {
                constraints.push((*v, c.clone()));
            }
        }
        for (v, p) in &action.pre_constraints {
            match constraints.binary_search_by_key(v, |(w, _)| *w) {
                Ok(at) => {
                    let c = constraints[at].1.intersect(p);
                    if c.is_empty() {
                        return None;
                    }
                    constraints[at].1 = c;
                }
                Err(at) => {
                    if p.is_empty() {
                        return None;
                    }
                    if !p.is_universal() {
                        constraints.insert(at, (*v, p.clone()));
                    }
                }
            }
        }
        let dead = constraints
            .iter()
            .any(|(v, c)| !self.changed[*v as usize] && !c.allows(self.start.slot(*v as usize)));
        (!dead).then_some(Subgoal {
            constraints,
            linear: None,
        })
    }

    /// [`regress`](Self::regress) in a domain with linear parts: each
    /// variable an expression changes is replaced by the affine map of its
    /// effects, in the linear constraints and in its own per-variable
    /// constraint (which becomes linear constraints when the map reads
    /// several variables).
    fn regress_linear(&self, goal: &Subgoal, index: usize, parts: &LinearParts) -> Option<Subgoal> {
        let action = &self.domain.actions()[index];
        let chains = &action.chains;
        let maps = parts.maps[index].as_ref()?;
        let changes = |v: u32| chains.binary_search_by_key(&v, |(w, _)| *w).is_ok();
        let relevant = goal.constraints.iter().any(|(v, _)| changes(*v))
            || goal
                .linear_constraints()
                .iter()
                .any(|c| c.terms().iter().any(|(v, _)| changes(*v)));
        if !relevant {
            return None;
        }
        let mut constraints: Vec<(u32, Constraint)> =
            Vec::with_capacity(goal.constraints.len() + action.pre_constraints.len());
        let mut pending: Vec<Normal> = Vec::new();
        for (v, c) in &goal.constraints {
            let Ok(k) = chains.binary_search_by_key(v, |(w, _)| *w) else {
                constraints.push((*v, c.clone()));
                continue;
            };
            let chain = &chains[k].1;
            if chain.iter().any(|e| matches!(e, Eff::Expr(_))) {
                // Float targets are refused when the space is built.
                let Constraint::Int(set) = c else { return None };
                let at = maps.binary_search_by_key(v, |(w, _)| *w).ok()?;
                pending.extend(membership(&maps[at].1, set)?);
            } else {
                let mut c = c.clone();
                for effect in chain.iter().rev() {
                    c = preimage(effect, &c);
                    if c.is_empty() {
                        return None;
                    }
                }
                constraints.push((*v, c));
            }
        }
        for c in goal.linear_constraints() {
            let (form, op) = c.to_affine();
            pending.push(normalise(&form.substitute(maps)?, op));
        }
        constraints.extend(action.pre_constraints.iter().cloned());
        pending.extend(parts.pre[index].iter().cloned());
        let subgoal = combine(constraints, pending)?;
        let dead =
            subgoal.constraints.iter().any(|(v, c)| {
                !self.changed[*v as usize] && !c.allows(self.start.slot(*v as usize))
            }) || subgoal.linear_constraints().iter().any(|c| {
                c.terms().iter().all(|(v, _)| !self.changed[*v as usize])
                    && !c.is_satisfied_by(self.start)
            });
        (!dead).then_some(subgoal)
    }
}

/// A subgoal from per-variable constraints (any order, a variable possibly
/// more than once) and normalised linear ones: intersected, sorted,
/// simplified; `None` when provably inconsistent.
fn combine(mut constraints: Vec<(u32, Constraint)>, pending: Vec<Normal>) -> Option<Subgoal> {
    let mut linear = Vec::new();
    for n in pending {
        match n {
            Normal::True => {}
            Normal::False | Normal::Overflow => return None,
            Normal::Var(v, c) => constraints.push((v, c)),
            Normal::Linear(c) => linear.push(c),
        }
    }
    constraints.sort_by_key(|(v, _)| *v);
    let mut merged: Vec<(u32, Constraint)> = Vec::with_capacity(constraints.len());
    for (v, c) in constraints {
        match merged.last_mut() {
            Some((w, d)) if *w == v => *d = d.intersect(&c),
            _ => merged.push((v, c)),
        }
    }
    if merged.iter().any(|(_, c)| c.is_empty()) {
        return None;
    }
    merged.retain(|(_, c)| !c.is_universal());
    let hull = |v: u32| -> (Option<i128>, Option<i128>) {
        match merged.binary_search_by_key(&v, |(w, _)| *w) {
            Ok(at) => match &merged[at].1 {
                Constraint::Int(set) => {
                    let ints = set.to_ints();
                    let lo = ints.first().map(|p| p.0).filter(|&lo| lo > i64::MIN);
                    let hi = ints.last().map(|p| p.1).filter(|&hi| hi < i64::MAX);
                    (lo.map(i128::from), hi.map(i128::from))
                }
                _ => (None, None),
            },
            Err(_) => (None, None),
        }
    };
    if !simplify(&mut linear, &hull) {
        return None;
    }
    Some(Subgoal {
        constraints: merged,
        linear: (!linear.is_empty()).then(|| Box::new(linear)),
    })
}

/// What regression cannot carry through the linear parts of `domain` and
/// `goal`, named.
fn unregressable(domain: &Domain, goal: &Goal) -> Vec<String> {
    let mut items = Vec::new();
    let float = |linear: &Linear| matches!(linear, Linear::Float { .. });
    for (test, text) in &goal.linear {
        if float(&test.expr) {
            items.push(format!(
                "linear condition `{text}` of the goal (f64 arithmetic)"
            ));
        }
    }
    let mut expressions = false;
    for action in domain.actions() {
        for (test, text) in &action.pre_linear {
            if float(&test.expr) {
                items.push(format!(
                    "linear condition `{text}` of action `{}` (f64 arithmetic)",
                    action.name()
                ));
            }
        }
        for effect in &action.effects {
            if let Eff::Expr(e) = effect {
                expressions = true;
                if e.float_target || float(&e.expr) {
                    items.push(format!(
                        "expression effect `{}` of action `{}` (f64 arithmetic)",
                        e.text,
                        action.name()
                    ));
                }
            }
        }
    }
    if expressions {
        let names: Vec<&str> = domain
            .schema()
            .vars()
            .map(|v| domain.schema().name(v))
            .collect();
        let mut gaps = |constraints: &[(u32, Constraint)], context: String| {
            for (v, c) in constraints {
                if widest_gap(c) > WIDEST_REGRESSABLE_GAP {
                    items.push(format!(
                        "the condition on `{}` of {context} (values with wide gaps between them, with expression effects in the domain)",
                        names.get(*v as usize).copied().unwrap_or("?")
                    ));
                }
            }
        };
        gaps(&goal.constraints, "the goal".to_owned());
        for action in domain.actions() {
            gaps(
                &action.pre_constraints,
                format!("action `{}`", action.name()),
            );
        }
    }
    items
}

impl SearchSpace for RegressionSpace<'_> {
    type Node = Subgoal;
    type Action = ActionId;
    type Cost = Cost;

    #[inline]
    fn is_goal(&self, node: &Subgoal) -> bool {
        node.is_satisfied_by(self.start)
    }

    fn successors<F>(&self, node: &Subgoal, mut emit: F)
    where
        F: FnMut(ActionId, Subgoal, Cost),
    {
        for (i, action) in self.domain.actions().iter().enumerate() {
            if let Some(previous) = self.regress(node, i) {
                let id = ActionId(u32::try_from(i).unwrap_or(u32::MAX));
                emit(id, previous, action.cost());
            }
        }
    }

    fn node_heap_bytes(&self, node: &Subgoal) -> usize {
        node.heap_bytes()
    }
}

/// The constraint before `effect` whose result is `after`.
fn preimage(effect: &Eff, after: &Constraint) -> Constraint {
    match (effect, after) {
        (Eff::Set { slot, .. }, c) => {
            if c.allows(*slot) {
                c.universal_like()
            } else {
                c.empty_like()
            }
        }
        (Eff::Toggle { .. }, Constraint::Bool(mask)) => {
            Constraint::Bool(((mask & 1) << 1) | ((mask >> 1) & 1))
        }
        (Eff::AddInt { d, .. }, c @ Constraint::Int(set)) => {
            if c.is_universal() {
                c.clone()
            } else {
                Constraint::Int(shift_int(set, i128::from(*d)))
            }
        }
        (Eff::SubInt { d, .. }, c @ Constraint::Int(set)) => {
            if c.is_universal() {
                c.clone()
            } else {
                Constraint::Int(shift_int(set, -i128::from(*d)))
            }
        }
        (Eff::AddFloat { d, .. }, c @ Constraint::Float(set)) => {
            if c.is_universal() {
                c.clone()
            } else {
                Constraint::Float(shift_float(set, *d))
            }
        }
        // Custom effects are refused before searching; a type mismatch
        // cannot pass the schema checks.
        (_, c) => c.empty_like(),
    }
}

/// The ints `x` with `x + d` in `set` and no overflow.
fn shift_int(set: &Intervals, d: i128) -> Intervals {
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    let raw = set
        .0
        .iter()
        .filter_map(|&(lo, hi)| {
            let lo = (i128::from(key_int(lo)) - d).max(min);
            let hi = (i128::from(key_int(hi)) - d).min(max);
            let lo = i64::try_from(lo).ok()?;
            let hi = i64::try_from(hi).ok()?;
            (lo <= hi).then(|| (int_key(lo), int_key(hi)))
        })
        .collect();
    Intervals::new(VarType::Int, raw)
}

/// The finite floats `x` with `x + d` (rounded as `f64`) finite and in `set`.
fn shift_float(set: &Intervals, d: f64) -> Intervals {
    let (min, max) = finite_float_keys();
    let image = |k: u64| float_key(key_float(k) + d);
    let raw = set
        .0
        .iter()
        .filter_map(|&(lo, hi)| {
            // `image` is monotone in the key, so the preimage is an interval.
            let first = first_key(min, max, |k| image(k) >= lo)?;
            let last =
                first_key(min, max, |k| image(k) > hi).map_or(Some(max), |k| k.checked_sub(1))?;
            (first <= last).then_some((first, last))
        })
        .collect();
    Intervals::new(VarType::Float, raw)
}

/// One variable's constraint in words; see [`Subgoal::describe`].
fn describe_constraint(name: &str, constraint: &Constraint, schema: &Schema) -> String {
    // Regression through increases and decreases moves the type's extremes
    // by the amounts; bounds beyond half the range limit nothing real.
    let ints = |set: &Intervals| {
        let pieces = set.to_ints().into_iter().map(|(lo, hi)| {
            (
                (lo > i64::MIN / 2).then(|| lo.to_string()),
                (hi < i64::MAX / 2).then(|| hi.to_string()),
            )
        });
        ranges(name, pieces.collect())
    };
    let floats = |set: &Intervals| {
        let pieces = set.to_floats().into_iter().map(|(lo, hi)| {
            (
                (lo > -f64::MAX / 2.0).then(|| format!("{lo:?}")),
                (hi < f64::MAX / 2.0).then(|| format!("{hi:?}")),
            )
        });
        ranges(name, pieces.collect())
    };
    let text = |id: &u32| {
        schema
            .symbol_name(Symbol(*id))
            .map_or_else(|| format!("#{id}"), |s| format!("{s:?}"))
    };
    match constraint {
        Constraint::Bool(0) => format!("{name} impossible"),
        Constraint::Bool(1) => format!("{name}=false"),
        Constraint::Bool(2) => format!("{name}=true"),
        Constraint::Bool(_) => format!("{name} any"),
        Constraint::Int(set) => ints(set),
        Constraint::Float(set) => floats(set),
        Constraint::Str(StrSet::Only(ids)) if ids.is_empty() => format!("{name} impossible"),
        Constraint::Str(StrSet::Only(ids)) => ids
            .iter()
            .map(|id| format!("{name}={}", text(id)))
            .collect::<Vec<_>>()
            .join(" or "),
        Constraint::Str(StrSet::Except(ids)) if ids.is_empty() => format!("{name} any"),
        Constraint::Str(StrSet::Except(ids)) => ids
            .iter()
            .map(|id| format!("{name}!={}", text(id)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Intervals in words (`name=v`, `name>=low`, `name<=high`,
/// `name in low..=high`, a missing bound being open), joined by ` or `.
fn ranges(name: &str, pieces: Vec<(Option<String>, Option<String>)>) -> String {
    if pieces.is_empty() {
        return format!("{name} impossible");
    }
    pieces
        .into_iter()
        .map(|piece| match piece {
            (Some(lo), Some(hi)) if lo == hi => format!("{name}={lo}"),
            (Some(lo), Some(hi)) => format!("{name} in {lo}..={hi}"),
            (Some(lo), None) => format!("{name}>={lo}"),
            (None, Some(hi)) => format!("{name}<={hi}"),
            (None, None) => format!("{name} any"),
        })
        .collect::<Vec<_>>()
        .join(" or ")
}
