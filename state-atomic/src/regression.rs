//! Regression search: from the goal back to a subgoal the start satisfies.

use std::cell::{Cell, RefCell};

use rustc_hash::FxHashMap;
use search_core::{CheapestStep, SearchSpace};

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

/// The lowest set bit of `bits`.
fn lowest<B: Bits>(bits: &B) -> Option<usize> {
    let mut low = None;
    bits.for_each_one(|i| {
        low.get_or_insert(i);
    });
    low
}

/// Expanded subgoals by `care` mask, with their costs from the goal.
#[derive(Debug)]
struct ClosedIndex<B: Bits> {
    /// The cheapest cost from the goal at which each subgoal was emitted.
    best: FxHashMap<PartialState<B>, u64>,
    /// Per `care` mask: expanded subgoals' values and costs.
    by_care: Vec<(B, FxHashMap<B, u64>)>,
    care_slot: FxHashMap<B, usize>,
    /// Slots of `by_care` by the lowest atom of their mask: a mask can only
    /// be a subset of a subgoal's `care` if its lowest atom is in it.
    by_lowest: Vec<Vec<(B, usize)>>,
    /// Slots whose mask is empty (the empty subgoal).
    empty: Option<usize>,
}

impl<B: Bits> ClosedIndex<B> {
    fn new() -> Self {
        Self {
            best: FxHashMap::default(),
            by_care: Vec::new(),
            care_slot: FxHashMap::default(),
            by_lowest: Vec::new(),
            empty: None,
        }
    }

    /// Records `subgoal` as expanded and returns its cost from the goal.
    fn close(&mut self, subgoal: &PartialState<B>) -> u64 {
        let g = self.best.get(subgoal).copied().unwrap_or(0);
        let care = subgoal.as_care();
        let slot = if let Some(&slot) = self.care_slot.get(care) {
            slot
        } else {
            {
                let slot = self.by_care.len();
                self.by_care.push((care.clone(), FxHashMap::default()));
                self.care_slot.insert(care.clone(), slot);
                match lowest(care) {
                    None => self.empty = Some(slot),
                    Some(low) => {
                        if self.by_lowest.len() <= low {
                            self.by_lowest.resize_with(low + 1, Vec::new);
                        }
                        self.by_lowest[low].push((care.clone(), slot));
                    }
                }
                slot
            }
        };
        let entry = self.by_care[slot].1.entry(subgoal.values()).or_insert(g);
        *entry = (*entry).min(g);
        g
    }

    /// Whether an expanded subgoal subsumes `subgoal` at cost at most `g`.
    fn dominates(&self, subgoal: &PartialState<B>, g: u64) -> bool {
        let check = |care: &B, slot: usize| {
            (care.clone() & !subgoal.care()).is_zero()
                && self.by_care[slot]
                    .1
                    .get(&(subgoal.values() & care))
                    .is_some_and(|&closed_g| closed_g <= g)
        };
        if self.empty.is_some_and(|slot| check(&B::zero(), slot)) {
            return true;
        }
        let mut found = false;
        subgoal.as_care().for_each_one(|low| {
            if !found {
                if let Some(slots) = self.by_lowest.get(low) {
                    found = slots.iter().any(|(care, slot)| check(care, *slot));
                }
            }
        });
        found
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
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let space = RegressionSpace::new(&actions, start, goal).unwrap();
/// let result = astar(&space, goal, Mismatch::regression(&start)).unwrap();
/// let solution = result.outcome.solution().unwrap();
/// let plan = RegressionSpace::<u64>::execution_order(&solution.actions);
/// assert_eq!(actions.names(&plan), ["buy_groceries", "cook", "eat"]);
/// assert_eq!(solution.cost, 30);
/// ```
#[derive(Debug)]
pub struct RegressionSpace<'a, B: Bits = u64> {
    rules: &'a [Rule<B>],
    /// Per literal: the actions whose effects set it. Only these can be
    /// relevant to a subgoal that contains the literal.
    achievers: Achievers,
    /// The candidates of one expansion: a bitset over the actions.
    scratch: RefCell<Vec<u64>>,
    start: WorldState<B>,
    goal: PartialState<B>,
    closed: Option<RefCell<ClosedIndex<B>>>,
    pruned: Cell<u64>,
    /// Per atom: the atoms that cannot be true together with it in a
    /// reachable state (empty: no mutex pruning).
    mutexes: Vec<B>,
    mutex_pruned: Cell<u64>,
}

/// The most words [`Achievers::Rows`] may take (32 MiB); larger tasks
/// get lists.
const ROWS_MAX_WORDS: usize = 1 << 22;

/// Per literal `2 * atom + value`: the actions whose effects set it.
#[derive(Debug)]
enum Achievers {
    /// A bitset over the actions per literal, of `words` words: a
    /// subgoal's candidates are the union of its literals' rows.
    Rows { rows: Vec<u64>, words: usize },
    /// Where rows would take more than [`ROWS_MAX_WORDS`] (a bit per
    /// literal and action): literal `l`'s actions are
    /// `ids[starts[l]..starts[l + 1]]`.
    Lists { starts: Vec<usize>, ids: Vec<u32> },
}

impl Achievers {
    fn new<B: Bits>(rules: &[Rule<B>], literals: usize) -> Self {
        let words = rules.len().div_ceil(64).max(1);
        if literals.saturating_mul(words) <= ROWS_MAX_WORDS {
            let mut rows = vec![0; literals * words];
            each_achiever(rules, literals, |literal, i| {
                rows[literal * words + i / 64] |= 1 << (i % 64);
            });
            return Achievers::Rows { rows, words };
        }
        let mut starts = vec![0; literals + 1];
        each_achiever(rules, literals, |literal, _| starts[literal + 1] += 1);
        for l in 0..literals {
            starts[l + 1] += starts[l];
        }
        let mut next = starts.clone();
        let mut ids = vec![0; starts[literals]];
        each_achiever(rules, literals, |literal, i| {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "action sets hold fewer than 2^32 actions"
            )]
            let id = i as u32;
            ids[next[literal]] = id;
            next[literal] += 1;
        });
        Achievers::Lists { starts, ids }
    }

    /// Adds literal `literal`'s actions to `candidates`.
    #[inline]
    fn add_to(&self, literal: usize, candidates: &mut [u64]) {
        match self {
            Achievers::Rows { rows, words } => {
                if let Some(row) = rows.get(literal * words..(literal + 1) * words) {
                    for (c, a) in candidates.iter_mut().zip(row) {
                        *c |= a;
                    }
                }
            }
            Achievers::Lists { starts, ids } => {
                if let Some(&[begin, end]) = starts.get(literal..literal + 2) {
                    for &i in &ids[begin..end] {
                        candidates[i as usize / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
    }
}

/// Calls `f(literal, i)` for each literal below `literals` that rule `i`'s
/// effects set.
fn each_achiever<B: Bits>(rules: &[Rule<B>], literals: usize, mut f: impl FnMut(usize, usize)) {
    for (i, rule) in rules.iter().enumerate() {
        rule.eff.as_care().for_each_one(|atom| {
            let literal = 2 * atom + usize::from(rule.eff.as_values().get(atom));
            if literal < literals {
                f(literal, i);
            }
        });
    }
}

/// Whether two atoms of `set` are mutually exclusive in `table`.
#[inline]
fn has_mutex<B: Bits>(table: &[B], set: &B) -> bool {
    let mut found = false;
    set.for_each_one(|atom| {
        if !found {
            found = table
                .get(atom)
                .is_some_and(|m| !(m.clone() & set).is_zero());
        }
    });
    found
}

impl<'a, B: Bits> RegressionSpace<'a, B> {
    /// The regression space of `actions` from `goal` back to `start`, with
    /// [`Subsumption::Parent`] pruning. Search it from `goal`.
    ///
    /// # Errors
    /// The first error the action set's builder kept
    /// ([`ActionSet::check`]), and [`AtomicError::StateDependentCost`]
    /// naming an action whose cost depends on the state
    /// ([`ActionBuilder::cost_fn`](crate::ActionBuilder::cost_fn)):
    /// regression does not know the state an action is applied in.
    ///
    /// ```
    /// use state_atomic::{ActionSet, AtomicError, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let space = RegressionSpace::new(&actions, actions.state([]).unwrap(), goal).unwrap();
    /// assert_eq!(space.goal(), goal);
    ///
    /// actions.add_action("feast", 1).eff("fed", true).cost_fn(|_| 2);
    /// let refused = RegressionSpace::new(&actions, actions.state([]).unwrap(), goal);
    /// assert!(matches!(refused, Err(AtomicError::StateDependentCost { action, .. }) if action == "feast"));
    /// ```
    pub fn new(
        actions: &'a ActionSet<B>,
        start: WorldState<B>,
        goal: PartialState<B>,
    ) -> Result<Self, AtomicError> {
        actions.check()?;
        actions.check_fixed_costs("regression")?;
        actions.check_unconditional("regression")?;
        let rules = actions.rules();
        let words = rules.len().div_ceil(64).max(1);
        Ok(Self {
            rules,
            achievers: Achievers::new(rules, 2 * actions.registry().len()),
            scratch: RefCell::new(vec![0; words]),
            start,
            goal,
            closed: None,
            pruned: Cell::new(0),
            mutexes: Vec::new(),
            mutex_pruned: Cell::new(0),
        })
    }

    /// Chooses the subsumption pruning.
    ///
    /// ```
    /// use search_core::dijkstra;
    /// use state_atomic::{ActionSet, RegressionSpace, Subsumption};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// actions.add_action("cook", 5).eff("has_food", true);
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

    /// Prunes subgoals that ask for two mutually exclusive atoms to be true
    /// (pairs no reachable state holds, such as `h^2` mutexes): a regressed
    /// subgoal that contains such a pair, and an action whose regression
    /// would need one after it (the subgoal's true atoms together with the
    /// atoms the action makes true). `table[a]` holds the atoms mutually
    /// exclusive with atom `a`; it must be symmetric, and only sound pairs
    /// (no reachable state holds both) keep the search complete. An empty
    /// table turns the pruning off.
    ///
    /// ```
    /// use search_core::bfs;
    /// use state_atomic::{ActionSet, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// // holding and empty_hand (atoms 0 and 1) never hold together.
    /// actions.add_action("pick", 1).pre("empty_hand", true).eff("holding", true).eff("empty_hand", false);
    /// actions.add_action("magic", 1).pre("holding", true).pre("empty_hand", true).eff("won", true);
    /// let (start, goal) = (actions.state(["empty_hand"]).unwrap(), actions.partial([("won", true)]).unwrap());
    /// let space = RegressionSpace::new(&actions, start, goal).unwrap().mutexes(vec![0b10, 0b01, 0]);
    /// assert!(bfs(&space, goal).unwrap().outcome.solution().is_none());
    /// assert_eq!(space.mutex_pruned(), 1);
    /// ```
    #[must_use]
    pub fn mutexes(mut self, table: Vec<B>) -> Self {
        self.mutexes = table;
        self
    }

    /// How many successors mutex pruning has dropped so far (see
    /// [`mutexes`](Self::mutexes)).
    ///
    /// ```
    /// use state_atomic::{ActionSet, PartialState, RegressionSpace, WorldState};
    /// let actions = ActionSet::<u64>::new();
    /// let space = RegressionSpace::new(&actions, WorldState::empty(), PartialState::empty()).unwrap();
    /// assert_eq!(space.mutex_pruned(), 0);
    /// ```
    pub fn mutex_pruned(&self) -> u64 {
        self.mutex_pruned.get()
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
        self.goal.clone()
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
        self.start.clone()
    }

    /// How many successors subsumption pruning has dropped so far.
    ///
    /// ```
    /// use search_core::bfs;
    /// use state_atomic::{ActionSet, RegressionSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// actions.add_action("touch", 1).pre("fed", true).eff("fed", true); // regresses to itself
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
    /// let a = actions.add_action("a", 1).id().unwrap();
    /// let b = actions.add_action("b", 1).id().unwrap();
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
    fn successors<F>(&self, node: &PartialState<B>, emit: F)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        let mut closed = self.closed.as_ref().map(RefCell::borrow_mut);
        let g = closed.as_mut().map_or(0, |c| c.close(node));
        let (pruned, mutex_pruned) = self.regressions(node, g, &mut closed, emit);
        self.pruned.set(self.pruned.get() + pruned);
        self.mutex_pruned
            .set(self.mutex_pruned.get() + mutex_pruned);
    }

    /// The step the search took from `parent` to `child`, from the plain
    /// successors: pruning by expanded subgoals ([`Subsumption::Closed`])
    /// depends on what was expanded since, and it counts what it prunes.
    fn action_between(
        &self,
        parent: &PartialState<B>,
        child: &PartialState<B>,
    ) -> Option<(ActionId, u32)> {
        let mut cheapest = CheapestStep::to(child);
        self.plain_successors(parent, |id, sub, cost| cheapest.offer(id, &sub, cost));
        cheapest.found()
    }

    #[inline]
    fn node_heap_bytes(&self, node: &PartialState<B>) -> usize {
        node.as_values().heap_bytes() + node.as_care().heap_bytes()
    }

    /// Regressing through an action again is a few word operations: lazy
    /// search keeps an action per edge, not a subgoal.
    fn makes_successors(&self) -> bool {
        true
    }

    fn successor(&self, node: &PartialState<B>, action: &ActionId) -> Option<PartialState<B>> {
        let rule = self.rules.get(action.index())?;
        node.regress(&rule.pre, &rule.eff)
    }
}

impl<B: Bits> RegressionSpace<'_, B> {
    /// Every successor of `node`, as [`successors`](SearchSpace::successors)
    /// emits them without pruning by expanded subgoals (and without
    /// counting): the regression relation with the parent and mutex
    /// pruning, from which plans are written.
    pub fn plain_successors<F>(&self, node: &PartialState<B>, emit: F)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        self.regressions(node, 0, &mut None, emit);
    }

    /// The successors of `node` at cost `g` from the goal, pruned by
    /// `closed` if given; returns how many subsumption and the mutexes
    /// pruned.
    #[inline]
    fn regressions<F>(
        &self,
        node: &PartialState<B>,
        g: u64,
        closed: &mut Option<std::cell::RefMut<'_, ClosedIndex<B>>>,
        mut emit: F,
    ) -> (u64, u64)
    where
        F: FnMut(ActionId, PartialState<B>, u32),
    {
        let mut pruned = 0;
        let mut mutex_pruned = 0;
        let mutexes = (!self.mutexes.is_empty()).then_some(self.mutexes.as_slice());
        // The candidates: actions that set some literal of the subgoal.
        let mut candidates = self.scratch.borrow_mut();
        candidates.fill(0);
        node.as_care().for_each_one(|atom| {
            let literal = 2 * atom + usize::from(node.as_values().get(atom));
            self.achievers.add_to(literal, &mut candidates);
        });
        for (w, &word) in candidates.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let rule = &self.rules[i];
                if let Some(table) = mutexes {
                    let Some(sub) = node.regress(&rule.pre, &rule.eff) else {
                        continue;
                    };
                    // The state right after the action holds the subgoal's
                    // true atoms and the action's true effects; the state
                    // before it, the regressed subgoal's true atoms.
                    let after = (node.values() & node.as_care() & !rule.eff.care())
                        | (rule.eff.values() & rule.eff.as_care());
                    if has_mutex(table, &after) || has_mutex(table, &(sub.values() & sub.as_care()))
                    {
                        mutex_pruned += 1;
                        continue;
                    }
                }
                regress_one(node, i, rule, g, closed, &mut pruned, &mut emit);
            }
        }
        (pruned, mutex_pruned)
    }
}

/// The body of [`RegressionSpace::successors`] for action `i`.
#[inline]
fn regress_one<B: Bits, F>(
    node: &PartialState<B>,
    i: usize,
    rule: &Rule<B>,
    g: u64,
    closed: &mut Option<std::cell::RefMut<'_, ClosedIndex<B>>>,
    pruned: &mut u64,
    emit: &mut F,
) where
    F: FnMut(ActionId, PartialState<B>, u32),
{
    {
        let Some(sub) = node.regress(&rule.pre, &rule.eff) else {
            return;
        };
        if node.is_subset_of(&sub) {
            *pruned += 1;
            return;
        }
        if let Some(c) = closed.as_mut() {
            let child_g = g + u64::from(rule.cost);
            if c.dominates(&sub, child_g) {
                *pruned += 1;
                return;
            }
            c.note(sub.clone(), child_g);
        }
        #[expect(
            clippy::cast_possible_truncation,
            reason = "action sets hold fewer than 2^32 actions"
        )]
        emit(ActionId(i as u32), sub, rule.cost);
    }
}
