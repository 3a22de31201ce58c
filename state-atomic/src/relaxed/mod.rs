//! Delete-relaxation heuristics: `h_max`, `h_add` and `h_FF`.
//!
//! Facts are literals, `(atom, value)` pairs, so that preconditions and goals
//! may ask for false atoms: literal `2 * atom + value`. The relaxation keeps
//! every literal once reached.
//!
//! The three share one exploration, a generalized Dijkstra over literals
//! (`costs.rs`); each heuristic's file holds what is its own, in both
//! directions: `h_max`'s rule and its faster explorations (`hmax.rs`),
//! `h_add`'s rule (`hadd.rs`), `h_FF`'s relaxed plan (`hff.rs`). The public
//! types below stay cut by direction, as the API has them, because the
//! directions differ in when they explore, not in what a heuristic computes:
//! forward explores from each state towards the goal's literals, regression
//! once from the start, reading each subgoal off those costs.

mod costs;
mod hadd;
mod hff;
mod hmax;
mod small;

use search_core::bidirectional::FrontToFront;
use search_core::{Estimate, Heuristic};

pub(crate) use self::costs::literals;
use self::costs::{to_u32, Relaxation};
use self::hmax::Layers;
pub use self::small::{SmallHMax, SMALL_HMAX_MAX_ACTIONS};
use crate::{ActionSet, Bits, PartialState, When, WorldState};

/// Which delete-relaxation heuristic a [`RelaxedForward`] or
/// [`RelaxedRegression`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RelaxedKind {
    /// `h_max`: the costliest goal literal, each literal costing its cheapest
    /// achiever plus its costliest precondition. Admissible and consistent.
    Max,
    /// `h_add`: the sum over goal literals, preconditions summed too.
    /// Informative, not admissible.
    Add,
    /// `h_FF`: the cost of a relaxed plan extracted from `h_add`'s best
    /// supporters. Informative, not admissible.
    Ff,
}

/// A delete-relaxation heuristic for [`ForwardSpace`](crate::ForwardSpace):
/// one relaxed exploration from each state, stopped once the goal literals
/// are reached. See [`RelaxedKind`] for `h_max`, `h_add` and `h_FF`.
///
/// Atoms the registry does not know (bits beyond it) are compared with the
/// state directly: no action changes them.
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_atomic::{ActionSet, ForwardSpace, RelaxedForward, RelaxedKind};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let start = actions.state(["has_groceries"]).unwrap();
/// let mut h = RelaxedForward::new(&actions, goal, RelaxedKind::Max);
/// assert_eq!(h.estimate(&start), Estimate::Value(15));
/// let space = ForwardSpace::new(&actions, goal).unwrap();
/// assert_eq!(astar(&space, start, h).unwrap().outcome.solution().unwrap().cost, 15);
/// ```
#[derive(Clone, Debug)]
pub struct RelaxedForward<B: Bits = u64> {
    relaxation: Relaxation<B>,
    /// `h_max` by levels, when every action costs the same.
    layers: Option<Layers<B>>,
    goal: PartialState<B>,
    goal_lits: Vec<u32>,
    /// `h_FF`'s helpful actions: each action's precondition and effect as
    /// literals (a few per action, where masks would take four states'
    /// width), the state last estimated, and the successors its relaxed
    /// plan's applicable actions lead to (made when first asked).
    steps: Steps<B>,
    estimated: Option<WorldState<B>>,
    helpful: Option<Vec<WorldState<B>>>,
}

impl<B: Bits> RelaxedForward<B> {
    /// The `kind` heuristic towards `goal` for `actions`.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, RelaxedForward, RelaxedKind};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let mut h = RelaxedForward::new(&actions, goal, RelaxedKind::Ff);
    /// assert_eq!(h.estimate(&actions.state([]).unwrap()), Estimate::Value(5));
    /// ```
    pub fn new(actions: &ActionSet<B>, goal: PartialState<B>, kind: RelaxedKind) -> Self {
        let mut goal_lits = Vec::new();
        literals(&goal, actions.registry().len(), &mut goal_lits);
        let relaxation = Relaxation::new(actions, kind, Some(&goal_lits));
        let layers = (kind == RelaxedKind::Max)
            .then(|| Layers::when_faster(actions, &goal))
            .flatten();
        let steps = if kind == RelaxedKind::Ff {
            Steps::new(actions)
        } else {
            Steps::default()
        };
        Self {
            relaxation,
            layers,
            goal,
            goal_lits,
            steps,
            estimated: None,
            helpful: None,
        }
    }

    /// `h_max` towards `goal`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedForward, WorldState};
    /// let h = RelaxedForward::h_max(&ActionSet::<u64>::new(), PartialState::empty());
    /// assert!(Heuristic::<WorldState, u32>::is_admissible(&h));
    /// ```
    pub fn h_max(actions: &ActionSet<B>, goal: PartialState<B>) -> Self {
        Self::new(actions, goal, RelaxedKind::Max)
    }

    /// `h_add` towards `goal`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedForward, WorldState};
    /// let h = RelaxedForward::h_add(&ActionSet::<u64>::new(), PartialState::empty());
    /// assert!(!Heuristic::<WorldState, u32>::is_admissible(&h));
    /// ```
    pub fn h_add(actions: &ActionSet<B>, goal: PartialState<B>) -> Self {
        Self::new(actions, goal, RelaxedKind::Add)
    }

    /// `h_FF` towards `goal`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedForward, WorldState};
    /// let h = RelaxedForward::h_ff(&ActionSet::<u64>::new(), PartialState::empty());
    /// assert!(!Heuristic::<WorldState, u32>::is_admissible(&h));
    /// ```
    pub fn h_ff(actions: &ActionSet<B>, goal: PartialState<B>) -> Self {
        Self::new(actions, goal, RelaxedKind::Ff)
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for RelaxedForward<B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        self.estimated = Some(state.clone());
        self.helpful = None;
        self.relaxation.plan.last.clear();
        if self
            .goal
            .is_wrong_beyond(state.as_bits(), &self.relaxation.known)
        {
            return Estimate::DeadEnd;
        }
        if self.goal_lits.is_empty() {
            // Nothing to reach: an exploration without targets would run
            // to the end for nothing.
            return Estimate::Value(0);
        }
        if let Some(layers) = &self.layers {
            return layers.estimate(state.as_bits());
        }
        self.relaxation.explore(state.as_bits());
        self.relaxation.value(&self.goal_lits)
    }
    fn is_admissible(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
    /// Dead ends only where the relaxation cannot reach the goal, whatever
    /// the kind: `h_max` is infinite there too.
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }

    /// The compiled relaxation, the layers, `h_FF`'s copy of the actions
    /// and its helpful successors: made once, sized by the task.
    fn memory_bytes(&self) -> usize {
        use crate::vec_bytes;
        self.relaxation.heap_bytes()
            + self.layers.as_ref().map_or(0, Layers::heap_bytes)
            + vec_bytes(&self.goal_lits)
            + self.steps.heap_bytes()
            + self.helpful.as_ref().map_or(0, vec_bytes)
    }

    /// `h_FF`'s helpful actions, as Fast Downward's `ff` prefers: a step by
    /// an action of the relaxed plan of `parent` (the state last estimated)
    /// that applies in it. `h_max` and `h_add` prefer nothing.
    fn is_preferred(&mut self, parent: &WorldState<B>, child: &WorldState<B>) -> bool {
        if self.estimated.as_ref() != Some(parent) {
            return false;
        }
        let steps = &self.steps;
        let plan = &self.relaxation.plan.last;
        let helpful = self.helpful.get_or_insert_with(|| {
            plan.iter()
                .filter_map(|&a| steps.apply(a, parent))
                .collect()
        });
        helpful.contains(child)
    }
}

/// Each action's precondition and effect as literals (`2 * atom + value`),
/// end to end: `pre[a]` is `lits[starts[2a]..starts[2a + 1]]`, `eff[a]`
/// the rest up to `starts[2a + 2]`; and the actions with conditional
/// effects, by index, with their effects whole (their successor depends
/// on the state).
#[derive(Clone, Debug)]
struct Steps<B: Bits> {
    starts: Vec<u32>,
    lits: Vec<u32>,
    conditional: Vec<(u32, PartialState<B>, Vec<When<B>>)>,
}

impl<B: Bits> Default for Steps<B> {
    fn default() -> Self {
        Self {
            starts: Vec::new(),
            lits: Vec::new(),
            conditional: Vec::new(),
        }
    }
}

impl<B: Bits> Steps<B> {
    fn new(actions: &ActionSet<B>) -> Self {
        let atoms = actions.registry().len();
        let mut steps = Steps {
            starts: vec![0],
            lits: Vec::new(),
            conditional: Vec::new(),
        };
        for (a, action) in actions.iter().enumerate() {
            for part in [&action.pre, &action.eff] {
                literals(part, atoms, &mut steps.lits);
                steps.starts.push(to_u32(steps.lits.len()));
            }
            if !action.when.is_empty() {
                let whole = (to_u32(a), action.eff.clone(), action.when.clone());
                steps.conditional.push(whole);
            }
        }
        steps
    }

    /// The successor of `state` by `action`, if its precondition holds.
    fn apply(&self, action: u32, state: &WorldState<B>) -> Option<WorldState<B>> {
        let at = |k: usize| self.starts[k] as usize;
        let a = 2 * action as usize;
        let pre = &self.lits[at(a)..at(a + 1)];
        let eff = &self.lits[at(a + 1)..at(a + 2)];
        if !pre
            .iter()
            .all(|&l| state.as_bits().get(l as usize / 2) == (l & 1 == 1))
        {
            return None;
        }
        if let Ok(k) = self.conditional.binary_search_by_key(&action, |c| c.0) {
            let (_, eff, when) = &self.conditional[k];
            return Some(state.apply_when(eff, when));
        }
        let set = |bits: B, &l: &u32| {
            let bit = B::bit(l as usize / 2);
            if l & 1 == 1 {
                bits | bit
            } else {
                bits & !bit
            }
        };
        Some(WorldState::new(eff.iter().fold(state.bits(), set)))
    }

    fn heap_bytes(&self) -> usize {
        let whens: usize = self
            .conditional
            .iter()
            .map(|(_, eff, when)| {
                eff.heap_bytes()
                    + crate::vec_bytes(when)
                    + when
                        .iter()
                        .map(|w| w.condition.heap_bytes() + w.effect.heap_bytes())
                        .sum::<usize>()
            })
            .sum();
        crate::vec_bytes(&self.starts)
            + crate::vec_bytes(&self.lits)
            + crate::vec_bytes(&self.conditional)
            + whens
    }
}

/// A delete-relaxation heuristic for
/// [`RegressionSpace`](crate::RegressionSpace): one relaxed exploration from
/// the start state when it is built, then each subgoal's value is a max or a
/// sum over its literals (`h_FF`: a relaxed plan from the stored best
/// supporters). See [`RelaxedKind`].
///
/// ```
/// use search_core::{Estimate, Heuristic};
/// use state_atomic::{ActionSet, RelaxedKind, RelaxedRegression};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let mut h = RelaxedRegression::new(&actions, start, RelaxedKind::Add);
/// let subgoal = actions.partial([("fed", true), ("has_food", true)]).unwrap();
/// assert_eq!(h.estimate(&subgoal), Estimate::Value(25)); // 15 + 10
/// ```
#[derive(Clone, Debug)]
pub struct RelaxedRegression<B: Bits = u64> {
    relaxation: Relaxation<B>,
    start: WorldState<B>,
    lits: Vec<u32>,
}

impl<B: Bits> RelaxedRegression<B> {
    /// The `kind` heuristic back to `start` for `actions`.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, RelaxedKind, RelaxedRegression};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let mut h = RelaxedRegression::new(&actions, actions.state([]).unwrap(), RelaxedKind::Max);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// assert_eq!(h.estimate(&goal), Estimate::DeadEnd); // no food, ever
    /// ```
    pub fn new(actions: &ActionSet<B>, start: WorldState<B>, kind: RelaxedKind) -> Self {
        let mut relaxation = Relaxation::new(actions, kind, None);
        relaxation.explore(start.as_bits());
        Self {
            relaxation,
            start,
            lits: Vec::new(),
        }
    }

    /// `h_max` back to `start`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedRegression, WorldState};
    /// let h = RelaxedRegression::h_max(&ActionSet::<u64>::new(), WorldState::empty());
    /// assert!(Heuristic::<PartialState, u32>::is_admissible(&h));
    /// ```
    pub fn h_max(actions: &ActionSet<B>, start: WorldState<B>) -> Self {
        Self::new(actions, start, RelaxedKind::Max)
    }

    /// `h_add` back to `start`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedRegression, WorldState};
    /// let h = RelaxedRegression::h_add(&ActionSet::<u64>::new(), WorldState::empty());
    /// assert!(!Heuristic::<PartialState, u32>::is_admissible(&h));
    /// ```
    pub fn h_add(actions: &ActionSet<B>, start: WorldState<B>) -> Self {
        Self::new(actions, start, RelaxedKind::Add)
    }

    /// `h_FF` back to `start`; see [`new`](Self::new).
    ///
    /// ```
    /// use search_core::Heuristic;
    /// use state_atomic::{ActionSet, PartialState, RelaxedRegression, WorldState};
    /// let h = RelaxedRegression::h_ff(&ActionSet::<u64>::new(), WorldState::empty());
    /// assert!(!Heuristic::<PartialState, u32>::is_admissible(&h));
    /// ```
    pub fn h_ff(actions: &ActionSet<B>, start: WorldState<B>) -> Self {
        Self::new(actions, start, RelaxedKind::Ff)
    }
}

impl<B: Bits> Heuristic<PartialState<B>, u32> for RelaxedRegression<B> {
    fn estimate(&mut self, subgoal: &PartialState<B>) -> Estimate<u32> {
        if subgoal.is_wrong_beyond(self.start.as_bits(), &self.relaxation.known) {
            return Estimate::DeadEnd;
        }
        // One path for all three: the literals, then the heuristic's value
        // of them over the costs explored from the start.
        let mut lits = std::mem::take(&mut self.lits);
        lits.clear();
        literals(subgoal, self.relaxation.atoms, &mut lits);
        let value = self.relaxation.value(&lits);
        self.lits = lits;
        value
    }
    fn is_admissible(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
    /// Dead ends only where the relaxation cannot reach the goal, whatever
    /// the kind: `h_max` is infinite there too.
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
    /// The compiled relaxation and the costs explored from the start.
    fn memory_bytes(&self) -> usize {
        self.relaxation.heap_bytes() + crate::vec_bytes(&self.lits)
    }
}

/// A delete-relaxation heuristic between a state and a regression subgoal:
/// the front-to-front estimate of
/// [`Ttbs`](search_core::bidirectional::Ttbs), where a forward state aims at
/// the regression side's best subgoal and a subgoal is estimated from the
/// forward side's best state. A state asked for the first time is
/// explored until the subgoal's literals are settled, as
/// [`RelaxedForward`] explores toward its goal (the forward side asks of a
/// new state each time); asked again, it is explored to the end once and
/// every further subgoal's value is read off that, as
/// [`RelaxedRegression`] does from the start (the regression side asks of
/// one state for all the subgoals of an expansion).
///
/// ```
/// use search_core::bidirectional::FrontToFront;
/// use search_core::Estimate;
/// use state_atomic::{ActionSet, RelaxedBetween, RelaxedKind};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let fed = actions.partial([("fed", true)]).unwrap();
/// let mut h = RelaxedBetween::new(&actions, &fed, RelaxedKind::Add);
/// let state = actions.state(["has_groceries"]).unwrap();
/// assert_eq!(h.estimate(&state, &fed), Estimate::Value(15));
/// let food = actions.partial([("has_food", true)]).unwrap();
/// assert_eq!(h.estimate(&state, &food), Estimate::Value(10));
/// assert_eq!(h.estimate(&actions.state([]).unwrap(), &food), Estimate::DeadEnd);
/// ```
#[derive(Clone, Debug)]
pub struct RelaxedBetween<B: Bits = u64> {
    relaxation: Relaxation<B>,
    /// The literals the relaxation tracks, by literal.
    tracked: Vec<bool>,
    /// The state the relaxation was last explored from, and whether to the
    /// end.
    explored: Option<(WorldState<B>, bool)>,
    lits: Vec<u32>,
}

impl<B: Bits> RelaxedBetween<B> {
    /// The `kind` heuristic between states and the subgoals of `actions`
    /// that regression reaches from `goal`. Only the literals such a
    /// subgoal can hold are tracked, those of `goal` and of preconditions
    /// (in STRIPS tasks, no delete effect), as [`RelaxedForward`] tracks
    /// toward its goal; a subgoal with another literal is a dead end.
    pub fn new(actions: &ActionSet<B>, goal: &PartialState<B>, kind: RelaxedKind) -> Self {
        let mut goal_lits = Vec::new();
        literals(goal, actions.registry().len(), &mut goal_lits);
        let relaxation = Relaxation::new(actions, kind, Some(&goal_lits));
        let mut tracked = vec![false; 2 * relaxation.atoms];
        for &l in goal_lits.iter().chain(&relaxation.pre) {
            tracked[l as usize] = true;
        }
        Self {
            relaxation,
            tracked,
            explored: None,
            lits: Vec::new(),
        }
    }
}

impl<B: Bits> FrontToFront<WorldState<B>, PartialState<B>, u32> for RelaxedBetween<B> {
    fn estimate(&mut self, state: &WorldState<B>, subgoal: &PartialState<B>) -> Estimate<u32> {
        if subgoal.is_wrong_beyond(state.as_bits(), &self.relaxation.known) {
            return Estimate::DeadEnd;
        }
        let mut lits = std::mem::take(&mut self.lits);
        lits.clear();
        literals(subgoal, self.relaxation.atoms, &mut lits);
        if lits.iter().any(|&l| !self.tracked[l as usize]) {
            self.lits = lits;
            return Estimate::DeadEnd;
        }
        match &self.explored {
            Some((explored, true)) if explored == state => {}
            Some((explored, false)) if explored == state => {
                self.relaxation.aim(&[]);
                self.relaxation.explore(state.as_bits());
                self.explored = Some((state.clone(), true));
            }
            _ => {
                self.relaxation.aim(&lits);
                self.relaxation.explore(state.as_bits());
                self.explored = Some((state.clone(), false));
            }
        }
        let value = self.relaxation.value(&lits);
        self.lits = lits;
        value
    }

    /// The compiled relaxation and its scratch.
    fn memory_bytes(&self) -> usize {
        self.relaxation.heap_bytes()
            + crate::vec_bytes(&self.lits)
            + crate::vec_bytes(&self.tracked)
    }
}
