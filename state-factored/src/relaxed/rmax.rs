//! ENHSP's `h^rmax` over the numeric relaxation.

use search_core::{Estimate, Heuristic};

use super::{estimate, Costs, Relaxation};
use crate::{Cost, Domain, Goal, State};

/// ENHSP's `hrmax`: `h^max` over the numeric relaxation, a linear
/// condition costing at least `need` times the least cost per unit of its
/// supporters. Admissible; forward.
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
pub struct NumericRmax {
    relaxation: Relaxation,
    costs: Costs,
}

impl NumericRmax {
    /// The heuristic of `domain` toward `goal`; `None` for a domain with
    /// custom effects.
    pub fn new(domain: &Domain, goal: &Goal) -> Option<Self> {
        Some(Self {
            relaxation: Relaxation::new(domain, goal)?,
            costs: Costs::default(),
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
