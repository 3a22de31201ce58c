//! `h_max` for small tasks, with nothing to build: each estimate relaxes
//! the actions in place until no literal gets cheaper (Bellman-Ford over
//! literals), with the costs on the stack.
//!
//! [`RelaxedForward::h_max`](crate::RelaxedForward::h_max) builds tables
//! (about 2 µs on a five-action task) that pay off over a long search; a
//! game agent's plan of a few expansions over a handful of actions spends
//! most of its time building them. This one costs nothing to make, and
//! each estimate takes a few passes over the actions; it computes the same
//! function (a test checks it against `RelaxedForward::h_max`).

use search_core::{Estimate, Heuristic};

use crate::{ActionSet, Bits, PartialState, WorldState};

/// The most actions [`SmallHMax::new`] accepts: each estimate passes over
/// every action a few times, which stays cheaper than building
/// `RelaxedForward`'s tables only on small tasks.
pub const SMALL_HMAX_MAX_ACTIONS: usize = 64;

/// Forward `h_max` towards a goal for tasks of at most 64 atoms and
/// [`SMALL_HMAX_MAX_ACTIONS`] actions. Admissible and consistent.
///
/// ```
/// use search_core::{Estimate, Heuristic};
/// use state_atomic::{ActionSet, SmallHMax};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let mut h = SmallHMax::new(&actions, goal).unwrap();
/// assert_eq!(h.estimate(&actions.state(["has_groceries"]).unwrap()), Estimate::Value(15));
/// assert_eq!(h.estimate(&actions.state([]).unwrap()), Estimate::DeadEnd);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SmallHMax<'a, B: Bits = u64> {
    actions: &'a ActionSet<B>,
    goal: PartialState<B>,
}

impl<'a, B: Bits> SmallHMax<'a, B> {
    /// `h_max` towards `goal`, or `None` when the task is not small (more
    /// than 64 atoms fit `B`, or more than [`SMALL_HMAX_MAX_ACTIONS`]
    /// actions), an action's cost depends on the state
    /// ([`ActionBuilder::cost_fn`](crate::ActionBuilder::cost_fn)) or an
    /// action has conditional effects.
    ///
    /// ```
    /// use state_atomic::{ActionSet, SmallHMax};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("walk", 1).eff("at_shop", true).cost_fn(|_| 3);
    /// let goal = actions.partial([("at_shop", true)]).unwrap();
    /// assert!(SmallHMax::new(&actions, goal).is_none());
    /// ```
    pub fn new(actions: &'a ActionSet<B>, goal: PartialState<B>) -> Option<Self> {
        (B::CAPACITY <= 64
            && actions.len() <= SMALL_HMAX_MAX_ACTIONS
            && actions.cost_fns().0.is_empty()
            && !actions.has_conditional_effects())
        .then_some(Self { actions, goal })
    }
}

/// Literal `2 * atom + value`'s cost in `costs`.
#[inline]
fn literal(atom: usize, value: bool) -> usize {
    2 * atom + usize::from(value)
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for SmallHMax<'_, B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        let (goal_true, goal_false) = split(&self.goal);
        // Reached literals as bitsets; the state's own cost 0, the others
        // their costs so far, saturating at `u32::MAX` as the value does.
        let (start_true, start_false) = (state.bits(), !state.bits());
        let (mut reached_true, mut reached_false) = (start_true.clone(), start_false.clone());
        let mut costs = [u32::MAX; 128];
        let cost_of = |costs: &[u32; 128], atom: usize, value: bool| {
            let start = if value { &start_true } else { &start_false };
            if start.get(atom) {
                0
            } else {
                costs[literal(atom, value)]
            }
        };
        let done = |t: &B, f: &B| {
            (goal_true.clone() & !t.clone()).is_zero()
                && (goal_false.clone() & !f.clone()).is_zero()
        };
        let mut changed = true;
        while changed {
            changed = false;
            for action in self.actions.iter() {
                let (pre_true, pre_false) = split(&action.pre);
                if !(pre_true.clone() & !reached_true.clone()).is_zero()
                    || !(pre_false.clone() & !reached_false.clone()).is_zero()
                {
                    continue;
                }
                let mut pre = 0;
                pre_true.for_each_one(|atom| pre = pre.max(cost_of(&costs, atom, true)));
                pre_false.for_each_one(|atom| pre = pre.max(cost_of(&costs, atom, false)));
                let cost = pre.saturating_add(action.cost);
                // The start's literals cost 0 already.
                let (eff_true, eff_false) = split(&action.eff);
                let (eff_true, eff_false) = (
                    eff_true & !start_true.clone(),
                    eff_false & !start_false.clone(),
                );
                let mut lower = |atom: usize, value: bool| {
                    let c = &mut costs[literal(atom, value)];
                    if cost < *c {
                        *c = cost;
                        changed = true;
                    }
                };
                eff_true.for_each_one(|atom| lower(atom, true));
                eff_false.for_each_one(|atom| lower(atom, false));
                reached_true = reached_true | eff_true;
                reached_false = reached_false | eff_false;
            }
        }
        if !done(&reached_true, &reached_false) {
            return Estimate::DeadEnd;
        }
        let mut h = 0;
        goal_true.for_each_one(|atom| h = h.max(cost_of(&costs, atom, true)));
        goal_false.for_each_one(|atom| h = h.max(cost_of(&costs, atom, false)));
        Estimate::Value(h)
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// A partial state's true and false literals.
#[inline]
fn split<B: Bits>(p: &PartialState<B>) -> (B, B) {
    (p.care() & p.values(), p.care() & !p.values())
}
