//! ENHSP's `h^mrp`: the relaxed plan with repetitions, and its helpful
//! actions.

use search_core::{Estimate, Heuristic};

use super::{estimate, Costs, Relaxation};
use crate::{ActionId, Cost, Domain, Goal, State};

/// ENHSP's `hmrp` (Metric-FF's heuristic with repetitions): the cost of a
/// relaxed plan whose supporters repeat as often as a linear condition
/// needs, found through `h^add`; its actions that apply are helpful
/// ([`Heuristic::is_preferred`]). Not admissible; forward.
///
/// ```
/// use search_core::{Heuristic, Estimate};
/// use state_factored::{Action, Domain, NumericRelaxedPlan, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").cost(3).increase("gold", 10)).unwrap();
/// let goal = domain.goal([Predicate::ge("gold", 45)]).unwrap();
/// let start = domain.schema().default_state();
/// let mut h = NumericRelaxedPlan::new(&domain, &goal).unwrap();
/// // Five mines.
/// assert_eq!(h.estimate(&start), Estimate::Value(15));
/// ```
pub struct NumericRelaxedPlan<'a> {
    domain: &'a Domain,
    relaxation: Relaxation,
    costs: Costs,
    /// The state last estimated, its helpful actions, and the states they
    /// lead to (made when first asked).
    last: Option<State>,
    helpful: Vec<ActionId>,
    helpful_states: Option<Vec<State>>,
}

impl<'a> NumericRelaxedPlan<'a> {
    /// The heuristic of `domain` toward `goal`; `None` for a domain with
    /// custom effects.
    pub fn new(domain: &'a Domain, goal: &Goal) -> Option<Self> {
        Some(Self {
            domain,
            relaxation: Relaxation::new(domain, goal)?,
            costs: Costs::default(),
            last: None,
            helpful: Vec::new(),
            helpful_states: None,
        })
    }
}

impl Heuristic<State, Cost> for NumericRelaxedPlan<'_> {
    fn estimate(&mut self, state: &State) -> Estimate<Cost> {
        let domain = self.domain;
        let by_state = |a: u32| f64::from(domain.actions()[a as usize].cost_in(state));
        self.relaxation
            .propagate(state, true, by_state, &mut self.costs);
        match &mut self.last {
            Some(last) => last.clone_from(state),
            None => self.last = Some(state.clone()),
        }
        self.helpful.clear();
        self.helpful_states = None;
        let relaxation = &self.relaxation;
        let costs = &mut self.costs;
        if relaxation
            .goal
            .iter()
            .any(|&c| costs.cond[c as usize].is_infinite())
        {
            return Estimate::DeadEnd;
        }
        // The relaxed plan: best supporters back from the goal, each
        // repeated as often as the conditions it supports need.
        let Costs {
            need,
            best,
            pre,
            step,
            repeats,
            seen,
            stack,
            ..
        } = costs;
        repeats.clear();
        repeats.resize(relaxation.steps.len(), 0.0);
        seen.clear();
        seen.resize(relaxation.conds.len(), false);
        stack.clear();
        stack.extend(&relaxation.goal);
        while let Some(c) = stack.pop() {
            let c = c as usize;
            if seen[c] || need[c] == 0.0 {
                continue;
            }
            seen[c] = true;
            let Some(support) = best[c] else {
                continue;
            };
            let a = support.action as usize;
            let times = match support.delta {
                Some(delta) if need[c].is_finite() => (need[c] / delta - 1e-9).ceil().max(1.0),
                _ => 1.0,
            };
            repeats[a] = repeats[a].max(times);
            stack.extend(&relaxation.steps[a].pre);
        }
        let mut value = 0.0;
        for (a, &times) in repeats.iter().enumerate() {
            if times > 0.0 {
                value += times * step[a];
                if pre[a] == 0.0 {
                    self.helpful
                        .push(ActionId(u32::try_from(a).unwrap_or(u32::MAX)));
                }
            }
        }
        estimate(value)
    }

    fn is_preferred(&mut self, parent: &State, child: &State) -> bool {
        if self.last.as_ref() != Some(parent) {
            return false;
        }
        let domain = self.domain;
        let helpful = &self.helpful;
        let states = self.helpful_states.get_or_insert_with(|| {
            helpful
                .iter()
                .filter_map(|&a| domain.action(a).effects_on(parent))
                .collect()
        });
        states.contains(child)
    }

    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
}
