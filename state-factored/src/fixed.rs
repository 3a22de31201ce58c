//! Fixed-width states and their forward space: a state of at most `W`
//! variables as a plain array, copied, hashed and compared without a branch
//! on its length, for the plans of a game agent's few dozen states.

use std::hash::{Hash, Hasher};

use search_core::SearchSpace;

use crate::compiled::holds_fixed;
use crate::constraint::Check;
use crate::{ActionId, Cost, Domain, Goal, State};

/// A state of at most `W` variables, in a plain array (the slots past the
/// schema's variables stay 0): `Copy`, so a successor is a copy and a few
/// slot writes. [`FixedForward`] searches over it; convert with
/// [`FixedForward::fixed`] and [`FixedForward::state`].
#[derive(Clone, Copy)]
pub struct FixedState<const W: usize>([u64; W]);

impl<const W: usize> PartialEq for FixedState<W> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        // Differences folded without a branch: an array's `==` calls
        // `memcmp`, which costs more than the compare.
        self.0.iter().zip(&other.0).fold(0, |d, (a, b)| d | (a ^ b)) == 0
    }
}

impl<const W: usize> Eq for FixedState<W> {}

impl<const W: usize> Hash for FixedState<W> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Word by word, all `W` of them: a loop the compiler unrolls.
        for &slot in &self.0 {
            state.write_u64(slot);
        }
    }
}

impl<const W: usize> std::fmt::Debug for FixedState<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0).finish()
    }
}

/// Forward search over [`FixedState`]s: the same successors, in the same
/// order and at the same costs, as [`ForwardSpace`](crate::ForwardSpace)'s,
/// for a domain whose actions are all compiled to slot checks and slot
/// writes, towards a goal of slot checks alone (see
/// [`Domain::fixed_forward`]).
///
/// ```
/// use search_core::{tiny_astar, SearchLimits, TinyWorkspace};
/// use state_factored::{Action, Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// let gold = schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").increase("gold", 25)).unwrap();
/// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
/// let space = domain.fixed_forward::<4>(&goal).unwrap();
/// let start = space.fixed(&domain.schema().default_state()).unwrap();
/// let mut workspace = TinyWorkspace::default();
/// let result = tiny_astar(&space, start, &mut |_: &_| 0, &SearchLimits::default(), &mut workspace);
/// let solution = result.unwrap().outcome.into_solution().unwrap();
/// assert_eq!(solution.actions.len(), 3);
/// assert_eq!(space.state(solution.nodes.last().unwrap()).int(gold), 75);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FixedForward<'a, const W: usize> {
    domain: &'a Domain,
    goal: &'a [Check],
}

impl Domain {
    /// Forward search over fixed-width states of `W` slots, if the domain
    /// fits: at most `W` variables, every action's preconditions and
    /// effects simple enough to compile (comparisons of one variable with
    /// a constant; setting, adding a constant, toggling; a fixed cost), and
    /// a goal of such comparisons alone. `None` otherwise: search
    /// [`forward`](Self::forward) then.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("mine").increase("gold", 25)).unwrap();
    /// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
    /// assert!(domain.fixed_forward::<4>(&goal).is_some());
    /// assert!(domain.fixed_forward::<0>(&goal).is_none()); // one variable
    /// ```
    pub fn fixed_forward<'a, const W: usize>(
        &'a self,
        goal: &'a Goal,
    ) -> Option<FixedForward<'a, W>> {
        let fits = self.schema().len() <= W && self.compiled().is_complete();
        Some(FixedForward {
            domain: self,
            goal: goal.fast.checks_only().filter(|_| fits)?,
        })
    }
}

impl<const W: usize> FixedForward<'_, W> {
    /// `state` as a fixed-width state; `None` if it has more than `W`
    /// variables.
    pub fn fixed(&self, state: &State) -> Option<FixedState<W>> {
        let slots = state.as_slots();
        let mut fixed = [0; W];
        fixed.get_mut(..slots.len())?.copy_from_slice(slots);
        Some(FixedState(fixed))
    }

    /// The domain's state that `fixed` holds.
    pub fn state(&self, fixed: &FixedState<W>) -> State {
        State::from_fixed(&fixed.0, self.domain.schema().len())
    }

    /// The goal test on a fixed-width state.
    #[inline]
    pub fn is_satisfied(&self, fixed: &FixedState<W>) -> bool {
        holds_fixed(self.goal, &fixed.0)
    }
}

impl<const W: usize> SearchSpace for FixedForward<'_, W> {
    type Node = FixedState<W>;
    type Action = ActionId;
    type Cost = Cost;

    #[inline]
    fn is_goal(&self, node: &FixedState<W>) -> bool {
        self.is_satisfied(node)
    }

    #[inline]
    fn successors<F>(&self, node: &FixedState<W>, mut emit: F)
    where
        F: FnMut(ActionId, FixedState<W>, Cost),
    {
        self.domain
            .compiled()
            .fixed_successors(&node.0, |id, next, cost| emit(id, FixedState(next), cost));
    }
}
