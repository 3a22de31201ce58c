//! ENHSP's `h^rmax` over the numeric relaxation, forward and in
//! regression.

use search_core::{Estimate, Heuristic};

use super::{estimate, Costs, Relaxation};
use crate::{Cost, Domain, Goal, State, Subgoal};

/// ENHSP's `hrmax`: `h^max` over the numeric relaxation, a linear
/// condition costing at least `need` times the least cost per unit of its
/// supporters. Admissible, in both directions: forward it estimates a
/// state's distance to the goal; built with [`NumericRmax::regression`],
/// a subgoal's distance from the start (the relaxation's fixpoint from the
/// start is computed once, and each subgoal's conditions, the sums of
/// pairs of its linear ones included, are costed against it).
///
/// ```
/// use search_core::{astar, Heuristic, Estimate};
/// use state_factored::{Action, Domain, NumericRmax, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").cost(3).increase("gold", 10)).unwrap();
/// let goal = domain.goal([Predicate::ge("gold", 45)]).unwrap();
/// let start = domain.schema().default_state();
/// let mut h = NumericRmax::new(&domain, &goal).unwrap();
/// // 45 gold at 10 a mine: 4.5 mines at least, 13.5 rounds up to 14.
/// assert_eq!(h.estimate(&start), Estimate::Value(14));
/// let plan = astar(&domain.forward(&goal), start, h).unwrap().outcome.into_solution().unwrap();
/// assert_eq!(plan.cost, 15);
/// ```
#[derive(Clone, Debug)]
pub struct NumericRmax {
    relaxation: Relaxation,
    costs: Costs,
    /// In regression: the start and the relaxation's fixpoint from it.
    start: Option<(State, Costs)>,
}

impl NumericRmax {
    /// The heuristic of `domain` toward `goal`; `None` for a domain with
    /// custom effects.
    pub fn new(domain: &Domain, goal: &Goal) -> Option<Self> {
        Some(Self {
            relaxation: Relaxation::new(domain, goal)?,
            costs: Costs::default(),
            start: None,
        })
    }

    /// The heuristic for regression from `start` toward `goal`: it
    /// estimates subgoals ([`Subgoal`]); `None` for a domain with custom
    /// effects.
    ///
    /// ```
    /// use search_core::{astar, Heuristic, Estimate};
    /// use state_factored::{Action, Domain, NumericRmax, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("mine").cost(3).increase("gold", 10)).unwrap();
    /// let goal = domain.goal([Predicate::ge("gold", 45)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let space = domain.regression(&start, &goal).unwrap();
    /// let mut h = NumericRmax::regression(&domain, &start, &goal).unwrap();
    /// assert_eq!(h.estimate(&space.start_node()), Estimate::Value(14));
    /// let plan = astar(&space, space.start_node(), h).unwrap().outcome.into_solution().unwrap();
    /// assert_eq!(plan.cost, 15);
    /// ```
    pub fn regression(domain: &Domain, start: &State, goal: &Goal) -> Option<Self> {
        let relaxation = Relaxation::new(domain, goal)?;
        let mut from_start = Costs::default();
        relaxation.propagate(start, false, |_| 0.0, &mut from_start);
        Some(Self {
            relaxation,
            costs: Costs::default(),
            start: Some((start.clone(), from_start)),
        })
    }
}

impl Heuristic<State, Cost> for NumericRmax {
    fn estimate(&mut self, state: &State) -> Estimate<Cost> {
        self.relaxation
            .propagate(state, false, |_| 0.0, &mut self.costs);
        let value = self
            .relaxation
            .goal
            .iter()
            .map(|&c| self.costs.cond[c as usize])
            .fold(0.0, f64::max);
        estimate(value)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

impl Heuristic<Subgoal, Cost> for NumericRmax {
    /// The subgoal's cost from the start; 0 if the heuristic was built
    /// for forward search ([`NumericRmax::new`]), which has no start.
    fn estimate(&mut self, subgoal: &Subgoal) -> Estimate<Cost> {
        let Some((start, from_start)) = &self.start else {
            return Estimate::Value(0);
        };
        let conds = self
            .relaxation
            .subgoal_conds(subgoal.constraints(), subgoal.linear_constraints());
        let value = conds
            .iter()
            .map(|c| self.relaxation.rmax_cost(c, start, from_start))
            .fold(0.0, f64::max);
        estimate(value)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}
