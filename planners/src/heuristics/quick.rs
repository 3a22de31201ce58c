//! Built-in heuristics without the registry's set-up, for small atomic
//! tasks: made from the action set in a few nanoseconds and dispatched
//! statically, so a plan of a few expansions does not pay for building
//! tables (see [`PlanningDomain::quick_forward_heuristic`](crate::PlanningDomain::quick_forward_heuristic)).

use search_core::{Estimate, Heuristic};
use state_atomic::{ActionSet, Bits, Mismatch, PartialState, SmallHMax, WorldState};

/// `blind`, `mismatch` or `hmax` forward, with the registry's values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum QuickAtomic<'a, B: Bits> {
    /// 0 where the goal holds, else the cheapest action's cost.
    Blind {
        goal: PartialState<B>,
        cheapest: u32,
    },
    Mismatch(Mismatch<B>),
    HMax(SmallHMax<'a, B>),
}

impl<'a, B: Bits> QuickAtomic<'a, B> {
    /// The built-in heuristic `name` towards `goal`, if it has a quick
    /// form for `actions` (none where an action's cost depends on the
    /// state: the registry's heuristics handle those).
    pub(crate) fn new(
        name: &str,
        actions: &'a ActionSet<B>,
        goal: &PartialState<B>,
    ) -> Option<Self> {
        if actions.check_fixed_costs("").is_err() {
            return None;
        }
        match name {
            "blind" => Some(QuickAtomic::Blind {
                goal: goal.clone(),
                cheapest: actions.iter().map(|a| a.cost).min().unwrap_or(0),
            }),
            "mismatch" => Some(QuickAtomic::Mismatch(Mismatch::forward(goal.clone()))),
            "hmax" => SmallHMax::new(actions, goal.clone()).map(QuickAtomic::HMax),
            _ => None,
        }
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for QuickAtomic<'_, B> {
    #[inline]
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        match self {
            QuickAtomic::Blind { goal, cheapest } => {
                Estimate::Value(if state.satisfies(goal) { 0 } else { *cheapest })
            }
            QuickAtomic::Mismatch(h) => h.estimate(state),
            QuickAtomic::HMax(h) => h.estimate(state),
        }
    }

    fn is_admissible(&self) -> bool {
        match self {
            QuickAtomic::Blind { .. } => true,
            QuickAtomic::Mismatch(h) => Heuristic::<WorldState<B>, u32>::is_admissible(h),
            QuickAtomic::HMax(h) => Heuristic::<WorldState<B>, u32>::is_admissible(h),
        }
    }

    fn is_consistent(&self) -> bool {
        match self {
            QuickAtomic::Blind { .. } => true,
            QuickAtomic::Mismatch(h) => Heuristic::<WorldState<B>, u32>::is_consistent(h),
            QuickAtomic::HMax(h) => Heuristic::<WorldState<B>, u32>::is_consistent(h),
        }
    }

    fn is_cheap(&self) -> bool {
        match self {
            QuickAtomic::Blind { .. } => true,
            QuickAtomic::Mismatch(h) => Heuristic::<WorldState<B>, u32>::is_cheap(h),
            QuickAtomic::HMax(h) => Heuristic::<WorldState<B>, u32>::is_cheap(h),
        }
    }
}
