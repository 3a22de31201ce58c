//! Heuristics for both directions.
//!
//! Each heuristic measures a state against constraints. Forward, the state is
//! the node and the constraints the goal's; in regression, the state is the
//! start and the constraints the subgoal's (the cheapest way from a subgoal
//! back to the start is the cheapest forward plan from the start into the
//! subgoal). So one value implements [`Heuristic`] for both [`State`] and
//! [`Subgoal`] nodes. User closures work too, as for any search-core space.

use std::borrow::Cow;

use search_core::{Estimate, Heuristic};

use crate::constraint::Constraint;
use crate::effect::Eff;
use crate::{Cost, Domain, Goal, State, Subgoal};

/// How an action set can change one variable.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reach {
    /// No action changes it.
    Never,
    /// Some action sets, toggles or custom-changes it: one step may do.
    Jump,
    /// Only additions; the largest increase and the largest decrease one
    /// action makes (0 where none goes that way).
    Step { up: f64, down: f64 },
}

fn reaches(domain: &Domain) -> Vec<(Reach, Cost)> {
    let mut table = vec![(Reach::Never, Cost::MAX); domain.schema().len()];
    for action in domain.actions() {
        let cost = action.cost();
        if action.has_custom_effect() {
            for entry in &mut table {
                *entry = (Reach::Jump, entry.1.min(cost));
            }
            continue;
        }
        for (v, chain) in &action.chains {
            let mut delta = 0.0_f64;
            let mut jump = false;
            for effect in chain {
                #[expect(clippy::cast_precision_loss, reason = "step sizes may round")]
                match effect {
                    Eff::AddInt { d, .. } => delta += *d as f64,
                    Eff::SubInt { d, .. } => delta -= *d as f64,
                    Eff::AddFloat { d, .. } => delta += d,
                    _ => jump = true,
                }
            }
            let entry = &mut table[*v as usize];
            entry.1 = entry.1.min(cost);
            let (rise, fall) = (delta.max(0.0), (-delta).max(0.0));
            entry.0 = match (entry.0, jump) {
                (Reach::Jump, _) | (_, true) => Reach::Jump,
                (Reach::Never, false) => Reach::Step {
                    up: rise,
                    down: fall,
                },
                (Reach::Step { up, down }, false) => Reach::Step {
                    up: up.max(rise),
                    down: down.max(fall),
                },
            };
        }
    }
    table
}

/// The classic GOAP heuristic: how many goal predicates the state violates
/// (forward), or how many subgoal constraints the start violates
/// (regression).
///
/// Not admissible in general: one action can fix several predicates, and
/// costs can be below 1. [`is_admissible`](Heuristic::is_admissible) says
/// `true` only when it provably is: every action costs at least 1, no custom
/// effect exists and each action changes at most one variable that can be
/// counted (forward: a goal variable, each with one predicate and no custom
/// or linear goal predicate over several variables; regression: a variable
/// of the goal or of any precondition, with no linear condition or
/// expression effect anywhere). Linear predicates and subgoal constraints
/// count one each.
///
/// ```
/// use search_core::Heuristic;
/// use state_factored::{Action, Domain, GoalCount, Predicate, Schema, State};
/// let mut schema = Schema::new();
/// schema.bool("a").unwrap();
/// schema.bool("b").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("set_a").set("a", true)).unwrap();
/// domain.add_action(Action::builder("set_b").set("b", true)).unwrap();
/// let goal = domain.goal([Predicate::eq("a", true), Predicate::eq("b", true)]).unwrap();
/// let start = domain.schema().default_state();
/// let mut h = GoalCount::new(&domain, &start, &goal);
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), 2.into());
/// assert!(Heuristic::<State, u32>::is_admissible(&h));
/// ```
#[derive(Clone, Debug)]
pub struct GoalCount<'a> {
    goal: Cow<'a, Goal>,
    start: Cow<'a, State>,
    forward_admissible: bool,
    regression_admissible: bool,
}

impl<'a> GoalCount<'a> {
    /// The heuristic for `domain`, `goal` and `start` (the start is used only
    /// in regression).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_factored::{Domain, GoalCount, Predicate, Schema, Subgoal};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 1)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let space = domain.regression(&start, &goal).unwrap();
    /// let mut h = GoalCount::new(&domain, &start, &goal);
    /// assert_eq!(Heuristic::<Subgoal, u32>::estimate(&mut h, &space.start_node()), 1.into());
    /// ```
    pub fn new(domain: &'a Domain, start: &'a State, goal: &'a Goal) -> Self {
        let actions = domain.actions();
        let basic = actions
            .iter()
            .all(|a| a.cost() >= 1 && !a.has_custom_effect());
        let goal_vars: Vec<u32> = goal.constraints.iter().map(|(v, _)| *v).collect();
        let one_each = goal.customs.is_empty() && goal_vars.len() == goal.tests.len();
        let forward = basic
            && one_each
            && actions
                .iter()
                .all(|a| a.changed_vars().filter(|v| goal_vars.contains(v)).count() <= 1);
        let mut counted = goal_vars.clone();
        for action in actions {
            counted.extend(action.pre_constraints.iter().map(|(v, _)| *v));
        }
        // Linear parts put constraints over several variables into
        // subgoals, which one action may fix together.
        let linear = !goal.linear.is_empty()
            || actions.iter().any(|a| {
                !a.pre_linear.is_empty() || a.effects.iter().any(|e| matches!(e, Eff::Expr(_)))
            });
        let regression = basic
            && !linear
            && actions
                .iter()
                .all(|a| a.changed_vars().filter(|v| counted.contains(v)).count() <= 1);
        Self {
            goal: Cow::Borrowed(goal),
            start: Cow::Borrowed(start),
            forward_admissible: forward,
            regression_admissible: regression,
        }
    }

    /// [`new`](Self::new)'s heuristic holding copies of `start` and `goal`
    /// (no borrow), so that a plan sliced over frames can keep it.
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_factored::{Domain, GoalCount, Predicate, Schema, State};
    /// let mut schema = Schema::new();
    /// schema.bool("a").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::eq("a", true)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let mut h: GoalCount<'static> = GoalCount::owned(&domain, &start, &goal);
    /// drop(goal);
    /// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), 1.into());
    /// ```
    pub fn owned(domain: &Domain, start: &State, goal: &Goal) -> GoalCount<'static> {
        let made = GoalCount::new(domain, start, goal);
        GoalCount {
            goal: Cow::Owned(goal.clone()),
            start: Cow::Owned(start.clone()),
            forward_admissible: made.forward_admissible,
            regression_admissible: made.regression_admissible,
        }
    }
}

impl Heuristic<State, Cost> for GoalCount<'_> {
    fn estimate(&mut self, node: &State) -> Estimate<Cost> {
        Estimate::Value(self.goal.unsatisfied(node))
    }

    fn is_admissible(&self) -> bool {
        self.forward_admissible
    }
}

impl Heuristic<Subgoal, Cost> for GoalCount<'_> {
    fn estimate(&mut self, node: &Subgoal) -> Estimate<Cost> {
        let count = node
            .constraints()
            .iter()
            .filter(|(v, c)| !c.allows(self.start.slot(*v as usize)))
            .count()
            + node
                .linear_constraints()
                .iter()
                .filter(|c| !c.is_satisfied_by(&self.start))
                .count();
        Estimate::Value(u32::try_from(count).unwrap_or(u32::MAX))
    }

    fn is_admissible(&self) -> bool {
        self.regression_admissible
    }
}

/// How [`NumericDistance`] combines the variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// The largest per-variable bound: admissible.
    Max,
    /// The sum: more informed, not admissible.
    Sum,
}

/// Numeric distance: for each violated constraint, the fewest actions that
/// can satisfy it, times the cheapest action that changes its variable;
/// combined by [`Combine::Max`] (admissible) or [`Combine::Sum`]
/// (informative).
///
/// For a number only ever changed by additions, the fewest actions is the
/// distance from the value to the allowed interval divided by the largest
/// change one action makes to it that way, rounded up; none that way is a
/// dead end. A variable some action sets
/// (or toggles) needs at least one action. A violated constraint on a
/// variable no action changes is a dead end. Custom goal predicates count 0.
///
/// The admissible form assumes that each action's fixed cost is a lower bound
/// of its cost function, if it has one.
///
/// Linear conditions over several variables are left out of the measure
/// and expression effects count as one step to any value, so it stays
/// admissible (a relaxation) with linear parts about.
///
/// ```
/// use search_core::{Estimate, Heuristic};
/// use state_factored::{Action, Domain, NumericDistance, Predicate, Schema, State};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// schema.bool("flag").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
/// let start = domain.schema().default_state();
/// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
/// let mut h = NumericDistance::admissible(&domain, &start, &goal);
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::Value(9)); // 3 mines
/// let stuck = domain.goal([Predicate::eq("flag", true)]).unwrap();
/// let mut h = NumericDistance::admissible(&domain, &start, &stuck);
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::DeadEnd);
/// ```
#[derive(Clone, Debug)]
pub struct NumericDistance<'a> {
    goal: Cow<'a, Goal>,
    start: Cow<'a, State>,
    combine: Combine,
    reach: Vec<(Reach, Cost)>,
}

impl<'a> NumericDistance<'a> {
    /// The heuristic with `combine` (the start is used only in regression).
    ///
    /// ```
    /// use state_factored::{Combine, Domain, NumericDistance, Schema};
    /// let domain = Domain::new(Schema::new());
    /// let goal = domain.goal([]).unwrap();
    /// let start = domain.schema().default_state();
    /// let h = NumericDistance::new(&domain, &start, &goal, Combine::Sum);
    /// assert_eq!(h.combine(), Combine::Sum);
    /// ```
    pub fn new(domain: &'a Domain, start: &'a State, goal: &'a Goal, combine: Combine) -> Self {
        Self {
            goal: Cow::Borrowed(goal),
            start: Cow::Borrowed(start),
            combine,
            reach: reaches(domain),
        }
    }

    /// [`new`](Self::new)'s heuristic holding copies of `start` and `goal`
    /// (no borrow), so that a plan sliced over frames can keep it.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_factored::{Action, Combine, Domain, NumericDistance, Predicate, Schema, State};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
    /// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let mut h = NumericDistance::owned(&domain, &start, &goal, Combine::Max);
    /// drop(goal);
    /// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::Value(9));
    /// ```
    pub fn owned(
        domain: &Domain,
        start: &State,
        goal: &Goal,
        combine: Combine,
    ) -> NumericDistance<'static> {
        NumericDistance {
            goal: Cow::Owned(goal.clone()),
            start: Cow::Owned(start.clone()),
            combine,
            reach: reaches(domain),
        }
    }

    /// The admissible form ([`Combine::Max`]).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_factored::{Domain, NumericDistance, Schema, State};
    /// let domain = Domain::new(Schema::new());
    /// let goal = domain.goal([]).unwrap();
    /// let start = domain.schema().default_state();
    /// let h = NumericDistance::admissible(&domain, &start, &goal);
    /// assert!(Heuristic::<State, u32>::is_admissible(&h));
    /// ```
    pub fn admissible(domain: &'a Domain, start: &'a State, goal: &'a Goal) -> Self {
        Self::new(domain, start, goal, Combine::Max)
    }

    /// The informative form ([`Combine::Sum`]).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_factored::{Domain, NumericDistance, Schema, State};
    /// let domain = Domain::new(Schema::new());
    /// let goal = domain.goal([]).unwrap();
    /// let start = domain.schema().default_state();
    /// let h = NumericDistance::informative(&domain, &start, &goal);
    /// assert!(!Heuristic::<State, u32>::is_admissible(&h));
    /// ```
    pub fn informative(domain: &'a Domain, start: &'a State, goal: &'a Goal) -> Self {
        Self::new(domain, start, goal, Combine::Sum)
    }

    /// How the variables are combined.
    pub fn combine(&self) -> Combine {
        self.combine
    }

    fn measure(&self, state: &State, constraints: &[(u32, Constraint)]) -> Estimate<Cost> {
        let mut total: u64 = 0;
        for (v, c) in constraints {
            let slot = state.slot(*v as usize);
            if c.allows(slot) {
                continue;
            }
            let (reach, cheapest) = self.reach[*v as usize];
            let steps = match reach {
                Reach::Never => return Estimate::DeadEnd,
                _ if c.is_empty() => return Estimate::DeadEnd,
                Reach::Jump => 1,
                Reach::Step { up, down } => {
                    // Only a change the right way helps: a number that
                    // only grows never reaches a value below it.
                    let toward = |gap: Option<f64>, max: f64| {
                        gap.filter(|_| max > 0.0).map(|d| steps(d, max))
                    };
                    let (rise_needed, fall_needed) = c.gaps(slot);
                    match (toward(rise_needed, up), toward(fall_needed, down)) {
                        (Some(a), Some(b)) => a.min(b),
                        (Some(k), None) | (None, Some(k)) => k,
                        (None, None) => return Estimate::DeadEnd,
                    }
                }
            };
            let value = steps.saturating_mul(u64::from(cheapest));
            total = match self.combine {
                Combine::Max => total.max(value),
                Combine::Sum => total.saturating_add(value),
            };
        }
        Estimate::Value(u32::try_from(total).unwrap_or(u32::MAX))
    }
}

/// The fewest steps of at most `max` that cover `distance`, at least 1;
/// rounded down a hair so float error never overestimates.
fn steps(distance: f64, max: f64) -> u64 {
    if max <= 0.0 {
        return 1;
    }
    let exact = distance / max * (1.0 - 1e-12);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "saturating float-to-int"
    )]
    let k = exact.ceil() as u64;
    k.max(1)
}

impl Heuristic<State, Cost> for NumericDistance<'_> {
    fn estimate(&mut self, node: &State) -> Estimate<Cost> {
        self.measure(node, &self.goal.constraints)
    }

    fn is_admissible(&self) -> bool {
        self.combine == Combine::Max
    }
    /// Dead ends only where a variable can never meet the goal, whatever
    /// the combination: the sum proves them as the maximum does.
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
}

impl Heuristic<Subgoal, Cost> for NumericDistance<'_> {
    fn estimate(&mut self, node: &Subgoal) -> Estimate<Cost> {
        self.measure(&self.start, node.constraints())
    }

    fn is_admissible(&self) -> bool {
        self.combine == Combine::Max
    }
    /// Dead ends only where a variable can never meet the goal, whatever
    /// the combination: the sum proves them as the maximum does.
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
}
