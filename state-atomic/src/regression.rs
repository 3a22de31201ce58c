//! Regression search: from the goal back to a subgoal the start satisfies.

use std::cell::{Cell, RefCell};

use rustc_hash::FxHashMap;
use search_core::SearchSpace;

use crate::action::Rule;
use crate::{ActionId, ActionSet, AtomicError, Bits, PartialState, WorldState};

/// Whether [`RegressionSpace`] prunes subgoals subsumed by others.
///
/// A subgoal `G'` that contains every constraint of a subgoal `G` reached at
/// no greater cost can be pruned: every plan that achieves `G'` achieves `G`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Subsumption {
    /// Prune a successor that contains every constraint of the subgoal being
    /// expanded (its parent). Costs one comparison per successor; sound for
    /// every algorithm, BFS's fewest-actions guarantee included.
    #[default]
    Parent,
    /// Also prune a successor subsumed by any expanded subgoal whose cost
    /// from the goal is no greater. Keeps expanded subgoals in a table per
    /// `care` mask and costs one lookup per mask per successor; preserves
    /// optimal costs (A*, Dijkstra) but not BFS's fewest actions, and the
    /// space then serves one search only.
    Closed,
}

/// Expanded subgoals by `care` mask, with their costs from the goal.
#[derive(Debug)]
struct ClosedIndex<B: Bits> {
    /// The cheapest cost from the goal at which each subgoal was emitted.
    best: FxHashMap<PartialState<B>, u64>,
    /// Per `care` mask: expanded subgoals' values and costs.
    by_care: Vec<(B, FxHashMap<B, u64>)>,
    care_slot: FxHashMap<B, usize>,
}

impl<B: Bits> ClosedIndex<B> {
    fn new() -> Self {
        Self {
            best: FxHashMap::default(),
            by_care: Vec::new(),
            care_slot: FxHashMap::default(),
        }
    }

    /// Records `subgoal` as expanded and returns its cost from the goal.
    fn close(&mut self, subgoal: &PartialState<B>) -> u64 {
        let g = self.best.get(subgoal).copied().unwrap_or(0);
        let care = subgoal.care();
        let slot = *self.care_slot.entry(care).or_insert_with(|| {
            self.by_care.push((care, FxHashMap::default()));
            self.by_care.len() - 1
        });
        let entry = self.by_care[slot].1.entry(subgoal.values()).or_insert(g);
        *entry = (*entry).min(g);
        g
    }

    /// Whether an expanded subgoal subsumes `subgoal` at cost at most `g`.
    fn dominates(&self, subgoal: &PartialState<B>, g: u64) -> bool {
        self.by_care.iter().any(|(care, table)| {
            (*care & !subgoal.care()).is_zero()
                && table
                    .get(&(subgoal.values() & *care))
                    .is_some_and(|&closed_g| closed_g <= g)
        })
    }

    fn note(&mut self, subgoal: PartialState<B>, g: u64) {
        let best = self.best.entry(subgoal).or_insert(g);
        *best = (*best).min(g);
    }
}

/// The regression search space of an action set from a goal back to a start
/// state: nodes are subgoals ([`PartialState`]s), the search starts at the
/// goal, and a node is a goal of the search when the start state satisfies
/// it. Edges are labelled by [`ActionId`]; the solution's actions come out
/// last action first, and [`execution_order`](Self::execution_order) turns
/// them around.
///
/// An action is relevant to subgoal `G` if its effects give at least one atom
/// of `G` the value `G` wants and none the opposite value; it is consistent if
/// its preconditions do not contradict `G` on the atoms its effects leave
/// alone. Then `G' = (G without the effects' atoms) and pre`.
///
/// ```
/// use search_core::astar;
/// use state_atomic::{ActionSet, Mismatch, RegressionSpace};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let space = RegressionSpace::new(&actions, start, goal).unwrap();
/// let result = astar(&space, goal, Mismatch::regression(start)).unwrap();
/// let solution = result.outcome.solution().unwrap();
/// let plan = RegressionSpace::<u64>::execution_order(&solution.actions);
/// assert_eq!(actions.names(&plan), ["buy_groceries", "cook", "eat"]);
/// assert_eq!(solution.cost, 30);
/// ```
#[derive(Debug)]
pub struct RegressionSpace<'a, B: Bits = u64> {
    rules: &'a [Rule<B>],
    start: WorldState<B>,
    goal: PartialState<B>,
    closed: Option<RefCell<ClosedIndex<B>>>,
    pruned: Cell<u64>,
}

impl<'a, B: Bits> RegressionSpace<'a, B> {
    /// The regression space of `actions` from `goal` back to `start`, with
    /// [`Subsumption::Parent`] pruning. Search it from `goal`.
    ///
    /// # Errors
    /// The first error the action set's builder kept
    /// ([`ActionSet::check`]).
    ///
    /// ```
    /// use state_atomic::{ActionSet, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let space = RegressionSpace::new(&actions, actions.state([]).unwrap(), goal).unwrap();
    /// assert_eq!(space.goal(), goal);
    /// ```
    pub fn new(
        actions: &'a ActionSet<B>,
        start: WorldState<B>,
        goal: PartialState<B>,
    ) -> Result<Self, AtomicError> {
        actions.check()?;
        Ok(Self {
            rules: actions.rules(),
            start,
            goal,
            closed: None,
            pruned: Cell::new(0),
        })
    }

    /// Chooses the subsumption pruning.
    ///
    /// ```
    /// use search_core::dijkstra;
    /// use state_atomic::{ActionSet, RegressionSpace, Subsumption};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add("eat", 5).pre("has_food", true).eff("fed", true);
    /// actions.add("cook", 5).eff("has_food", true);
    /// let (start, goal) = (actions.state([]).unwrap(), actions.partial([("fed", true)]).unwrap());
    /// let space = RegressionSpace::new(&actions, start, goal).unwrap().subsumption(Subsumption::Closed);
    /// assert_eq!(dijkstra(&space, goal).unwrap().outcome.solution().unwrap().cost, 10);
    /// ```
    #[must_use]
    pub fn subsumption(mut self, how: Subsumption) -> Self {
        self.closed = match how {
            Subsumption::Parent => None,
            Subsumption::Closed => Some(RefCell::new(ClosedIndex::new())),
        };
        self
    }

    /// The goal, the node to start the search from.
    ///
    /// ```
    /// use state_atomic::{ActionSet, PartialState, RegressionSpace, WorldState};
    /// let actions = ActionSet::<u64>::new();
    /// let space = RegressionSpace::new(&actions, WorldState::empty(), PartialState::empty()).unwrap();
    /// assert!(space.goal().is_empty());
    /// ```
    pub fn goal(&self) -> PartialState<B> {
        self.goal
    }

    /// The start state.
    ///
    /// ```
    /// use state_atomic::{ActionSet, PartialState, RegressionSpace, WorldState};
    /// let actions = ActionSet::<u64>::new();
    /// let space = RegressionSpace::new(&actions, WorldState::new(3), PartialState::empty()).unwrap();
    /// assert_eq!(space.start().bits(), 3);
    /// ```
    pub fn start(&self) -> WorldState<B> {
        self.start
    }

    /// How many successors subsumption pruning has dropped so far.
    ///
    /// ```
    /// use search_core::bfs;
    /// use state_atomic::{ActionSet, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add("eat", 5).pre("has_food", true).eff("fed", true);
    /// actions.add("touch", 1).pre("fed", true).eff("fed", true); // regresses to itself
    /// let (start, goal) = (actions.state([]).unwrap(), actions.partial([("fed", true)]).unwrap());
    /// let space = RegressionSpace::new(&actions, start, goal).unwrap();
    /// let _ = bfs(&space, goal).unwrap();
    /// assert!(space.pruned() >= 1);
    /// ```
    pub fn pruned(&self) -> u64 {
        self.pruned.get()
    }

    /// A regression solution's actions (last action first) in execution
    /// order.
    ///
    /// ```
    /// use state_atomic::{ActionSet, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// let a = actions.add("a", 1).id().unwrap();
    /// let b = actions.add("b", 1).id().unwrap();
    /// assert_eq!(RegressionSpace::<u64>::execution_order(&[b, a]), [a, b]);
    /// ```
    pub fn execution_order(regressed: &[ActionId]) -> Vec<ActionId> {
        regressed.iter().rev().copied().collect()
    }
}

impl<B: Bits> SearchSpace for RegressionSpace<'_, B> {
    type Node = PartialState<B>;
    type Action = ActionId;
    type Cost = u32;

    #[inline]
    fn is_goal(&self, node: &PartialState<B>) -> bool {
        self.start.satisfies(node)
    }

    #[inline]
    fn successors<F>(&self, node: &PartialState<B>, mut emit: F)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        let mut closed = self.closed.as_ref().map(RefCell::borrow_mut);
        let g = closed.as_mut().map_or(0, |c| c.close(node));
        let mut pruned = 0;
        for (i, rule) in self.rules.iter().enumerate() {
            let Some(sub) = node.regress(&rule.pre, &rule.eff) else {
                continue;
            };
            if node.is_subset_of(&sub) {
                pruned += 1;
                continue;
            }
            if let Some(c) = closed.as_mut() {
                let child_g = g + u64::from(rule.cost);
                if c.dominates(&sub, child_g) {
                    pruned += 1;
                    continue;
                }
                c.note(sub, child_g);
            }
            #[expect(
                clippy::cast_possible_truncation,
                reason = "action sets hold fewer than 2^32 actions"
            )]
            emit(ActionId(i as u32), sub, rule.cost);
        }
        self.pruned.set(self.pruned.get() + pruned);
    }
}
