//! The classic GOAP heuristic, goal-mismatch count, and an admissible variant.

use search_core::{Estimate, Heuristic};

use crate::{ActionSet, Bits, PartialState, WorldState};

/// Goal-mismatch count, the classic GOAP heuristic: how many goal atoms a
/// state gets wrong (forward), or how many atoms of a subgoal the start
/// state gets wrong (regression).
///
/// **Not admissible in general**: one action that fixes two goal atoms at
/// cost 1 makes it overestimate, and so does an action that costs 0. The
/// condition under which it is admissible (and consistent): every action
/// that sets some goal atom to its goal value (forward; in regression, every
/// action with an effect, since a subgoal may name any atom) costs at least
/// 1 and sets at most one such atom (in regression, at most one atom). Then
/// each action lowers the count by at most 1 and costs at least 1. Because
/// that cannot be checked from the goal alone, the heuristic declares itself
/// inadmissible, and A* with it may return a plan that is not the cheapest;
/// [`AdmissibleMismatch`] is the safe variant.
///
/// Use [`Mismatch::forward`] with [`ForwardSpace`](crate::ForwardSpace)
/// (nodes are [`WorldState`]s) and [`Mismatch::regression`] with
/// [`RegressionSpace`](crate::RegressionSpace) (nodes are
/// [`PartialState`]s).
///
/// ```
/// use search_core::{Estimate, Heuristic};
/// use state_atomic::{Mismatch, PartialState, WorldState};
/// let goal = PartialState::<u64>::new(0b011, 0b111);
/// let mut h = Mismatch::forward(goal);
/// assert_eq!(h.estimate(&WorldState::new(0b110)), Estimate::Value(2));
/// assert!(!Heuristic::<WorldState<u64>, u32>::is_admissible(&h));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Mismatch<B: Bits = u64> {
    against: PartialState<B>,
}

impl<B: Bits> Mismatch<B> {
    /// Counts the atoms of `goal` that a state gets wrong.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{Mismatch, PartialState, WorldState};
    /// let mut h = Mismatch::forward(PartialState::<u64>::new(1, 1));
    /// assert_eq!(h.estimate(&WorldState::new(1)), Estimate::Value(0));
    /// ```
    pub fn forward(goal: PartialState<B>) -> Self {
        Self { against: goal }
    }

    /// Counts the atoms of a subgoal that `start` gets wrong.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{Mismatch, PartialState, WorldState};
    /// let mut h = Mismatch::regression(&WorldState::<u64>::new(0b01));
    /// assert_eq!(h.estimate(&PartialState::new(0b10, 0b11)), Estimate::Value(2));
    /// ```
    pub fn regression(start: &WorldState<B>) -> Self {
        Self {
            against: start.to_partial(!B::zero()),
        }
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for Mismatch<B> {
    #[inline]
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        Estimate::Value(
            ((state.bits() ^ self.against.as_values()) & self.against.as_care()).count_ones(),
        )
    }
    fn is_cheap(&self) -> bool {
        true
    }
}

impl<B: Bits> Heuristic<PartialState<B>, u32> for Mismatch<B> {
    #[inline]
    fn estimate(&mut self, subgoal: &PartialState<B>) -> Estimate<u32> {
        Estimate::Value(subgoal.mismatches(&self.against))
    }
    fn is_cheap(&self) -> bool {
        true
    }
}

/// The admissible goal-mismatch heuristic: `ceil(m / k) * c`, where `m` is
/// the mismatch count, `k` the most wrong atoms one action can fix and `c`
/// the cheapest action that fixes one. Admissible and consistent with any
/// non-negative costs; a dead end when a wrong atom can never be fixed.
///
/// Forward, `k` and `c` count only actions that set a goal atom to its goal
/// value; in regression, every action with effects (the subgoal changes).
///
/// ```
/// use search_core::{Estimate, Heuristic};
/// use state_atomic::{ActionSet, AdmissibleMismatch};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("both", 3).eff("a", true).eff("b", true);
/// let goal = actions.partial([("a", true), ("b", true)]).unwrap();
/// let mut h = AdmissibleMismatch::forward(&actions, goal);
/// assert_eq!(h.estimate(&actions.state([]).unwrap()), Estimate::Value(3)); // not 2
/// assert!(Heuristic::<state_atomic::WorldState, u32>::is_admissible(&h));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AdmissibleMismatch<B: Bits = u64> {
    against: PartialState<B>,
    /// The most wrong atoms one action fixes (0: none can be fixed).
    per_action: u32,
    cheapest: u32,
}

impl<B: Bits> AdmissibleMismatch<B> {
    /// The forward heuristic towards `goal` for `actions`.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, AdmissibleMismatch};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let mut h = AdmissibleMismatch::forward(&actions, goal);
    /// assert_eq!(h.estimate(&actions.state([]).unwrap()), Estimate::Value(5));
    /// ```
    pub fn forward(actions: &ActionSet<B>, goal: PartialState<B>) -> Self {
        let (per_action, cheapest) = fixers(actions, |eff| {
            eff.care() & goal.care() & !(eff.values() ^ goal.values())
        });
        Self {
            against: goal,
            per_action,
            cheapest,
        }
    }

    /// The regression heuristic back to `start` for `actions`.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, AdmissibleMismatch};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let mut h = AdmissibleMismatch::regression(&actions, &actions.state([]).unwrap());
    /// assert_eq!(h.estimate(&goal), Estimate::Value(5));
    /// ```
    pub fn regression(actions: &ActionSet<B>, start: &WorldState<B>) -> Self {
        let (per_action, cheapest) = fixers(actions, PartialState::care);
        Self {
            against: start.to_partial(!B::zero()),
            per_action,
            cheapest,
        }
    }

    fn value(&self, mismatches: u32) -> Estimate<u32> {
        if mismatches == 0 {
            Estimate::Value(0)
        } else if self.per_action == 0 {
            Estimate::DeadEnd
        } else {
            Estimate::Value(
                mismatches
                    .div_ceil(self.per_action)
                    .saturating_mul(self.cheapest),
            )
        }
    }
}

/// The most atoms one action fixes, and the cheapest action that fixes one;
/// `fixes` gives the atoms an effect fixes. An action with conditional
/// effects may fix what any of its effects fixes.
fn fixers<B: Bits>(actions: &ActionSet<B>, fixes: impl Fn(&PartialState<B>) -> B) -> (u32, u32) {
    let mut most = 0;
    let mut cheapest = u32::MAX;
    for (i, action) in actions.iter().enumerate() {
        let k = action
            .when
            .iter()
            .fold(fixes(&action.eff), |bits, w| bits | fixes(&w.effect))
            .count_ones();
        if k > 0 {
            most = most.max(k);
            cheapest = cheapest.min(actions.least_cost(i));
        }
    }
    (most, cheapest)
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for AdmissibleMismatch<B> {
    #[inline]
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        self.value(
            ((state.bits() ^ self.against.as_values()) & self.against.as_care()).count_ones(),
        )
    }
    fn is_admissible(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        true
    }
    fn is_cheap(&self) -> bool {
        true
    }
}

impl<B: Bits> Heuristic<PartialState<B>, u32> for AdmissibleMismatch<B> {
    #[inline]
    fn estimate(&mut self, subgoal: &PartialState<B>) -> Estimate<u32> {
        self.value(subgoal.mismatches(&self.against))
    }
    fn is_admissible(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        true
    }
    fn is_cheap(&self) -> bool {
        true
    }
}
