//! Forward search: from the start state through applicable actions.

use search_core::{CheapestStep, SearchSpace};

use crate::action::{CostFns, Rule};
use crate::stubborn::StubbornSets;
use crate::{
    ActionId, ActionSet, AtomicError, Bits, PartialState, PruningStats, PruningTally, WorldState,
};

/// How [`ForwardSpace`] finds the applicable actions of a state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Applicability {
    /// Tests every action's preconditions: one `xor`, `and` and compare per
    /// action over a compact array. The default: see `BENCHMARKS.md`.
    #[default]
    Scan,
    /// Groups actions by one precondition literal and skips a whole group
    /// when the state gets that literal wrong.
    Grouped,
}

/// Actions grouped by one precondition literal each.
#[derive(Clone, Debug)]
pub(crate) struct GroupedIndex<B: Bits> {
    /// `(literal, end)`: the group's test and the end of its run in `rules`.
    groups: Vec<(PartialState<B>, u32)>,
    rules: Vec<(ActionId, Rule<B>)>,
}

impl<B: Bits> GroupedIndex<B> {
    pub(crate) fn new(rules: &[Rule<B>]) -> Self {
        // Key each action by its lowest precondition atom, or by nothing.
        let key = |r: &Rule<B>| {
            let mut first = None;
            r.pre.as_care().for_each_one(|i| {
                first.get_or_insert(i);
            });
            first.map(|i| (i, r.pre.as_values().get(i)))
        };
        let mut order: Vec<u32> = (0..u32::try_from(rules.len()).unwrap_or(u32::MAX)).collect();
        order.sort_by_key(|&i| key(&rules[i as usize]));
        let mut groups: Vec<(PartialState<B>, u32)> = Vec::new();
        let mut grouped = Vec::with_capacity(rules.len());
        let mut last = None;
        for i in order {
            let rule = rules[i as usize].clone();
            let k = key(&rule);
            if groups.is_empty() || k != last {
                let test = k.map_or(PartialState::empty(), |(atom, value)| {
                    let bit = B::bit(atom);
                    PartialState::new(if value { bit.clone() } else { B::zero() }, bit)
                });
                groups.push((test, 0));
                last = k;
            }
            grouped.push((ActionId(i), rule));
            if let Some(g) = groups.last_mut() {
                g.1 = u32::try_from(grouped.len()).unwrap_or(u32::MAX);
            }
        }
        Self {
            groups,
            rules: grouped,
        }
    }
}

/// The forward search space of an action set towards a goal: nodes are
/// complete [`WorldState`]s, edges are applicable actions labelled by
/// [`ActionId`] with the action's cost (`u32`).
///
/// Actions that leave a state unchanged are not emitted: such a self-loop is
/// never part of a cheapest or shortest plan. An action with a cost
/// function ([`ActionBuilder::cost_fn`](crate::ActionBuilder::cost_fn))
/// costs what the function says in the state it leaves.
///
/// ```
/// use search_core::astar;
/// use state_atomic::{ActionSet, ForwardSpace, Mismatch};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let space = ForwardSpace::new(&actions, goal).unwrap();
/// let result = astar(&space, start, Mismatch::forward(goal)).unwrap();
/// let plan = result.outcome.solution().unwrap();
/// assert_eq!(actions.names(&plan.actions), ["buy_groceries", "cook", "eat"]);
/// assert_eq!(plan.cost, 30);
/// ```
#[derive(Clone, Debug)]
pub struct ForwardSpace<'a, B: Bits = u64> {
    rules: &'a [Rule<B>],
    /// The set, for its actions' conditional effects; `None` when no
    /// action has any.
    conditional: Option<&'a ActionSet<B>>,
    /// Cost functions by action index; empty when no action has one.
    cost_fns: &'a CostFns<B>,
    goal: PartialState<B>,
    grouped: Option<GroupedIndex<B>>,
    /// Partial-order reduction, when asked for.
    stubborn: Option<Box<StubbornSets>>,
    /// Where pruning's counts go when the space is dropped.
    tally: Option<&'a PruningTally>,
}

impl<B: Bits> Drop for ForwardSpace<'_, B> {
    fn drop(&mut self) {
        if let (Some(tally), Some(stubborn)) = (self.tally, &self.stubborn) {
            tally.add(stubborn.stats());
        }
    }
}

impl<'a, B: Bits> ForwardSpace<'a, B> {
    /// The forward space of `actions` towards `goal`.
    ///
    /// # Errors
    /// The first error the action set's builder kept
    /// ([`ActionSet::check`]).
    ///
    /// ```
    /// use state_atomic::{ActionSet, ForwardSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// assert!(ForwardSpace::new(&actions, goal).is_ok());
    /// ```
    pub fn new(actions: &'a ActionSet<B>, goal: PartialState<B>) -> Result<Self, AtomicError> {
        actions.check()?;
        Ok(Self {
            rules: actions.rules(),
            conditional: actions.has_conditional_effects().then_some(actions),
            cost_fns: actions.cost_fns(),
            goal,
            grouped: None,
            stubborn: None,
            tally: None,
        })
    }

    /// Expands only the applicable actions of each state's strong
    /// stubborn set (atom-centric strong stubborn sets: Röger, Helmert,
    /// Seipp and Sievers, `SoCS` 2020): fewer successors where actions do
    /// not interfere, the same optimal plan cost. Pruning switches itself
    /// off when the first 1,000 states prune less than a fifth of their
    /// actions. A set with conditional effects is not pruned (the stubborn
    /// sets' interference reads every effect as unconditional):
    /// [`pruning_stats`](Self::pruning_stats) then gives `None`.
    ///
    /// ```
    /// use search_core::astar;
    /// use state_atomic::{ActionSet, ForwardSpace, Mismatch};
    /// // Four switches, each turned on by its own action: any order does.
    /// let mut actions = ActionSet::<u64>::new();
    /// let names = ["s0", "s1", "s2", "s3"];
    /// for name in names {
    ///     actions.add_action(name, 1).eff(name, true);
    /// }
    /// let goal = actions.partial(names.map(|n| (n, true))).unwrap();
    /// let start = actions.state([]).unwrap();
    /// let plain = ForwardSpace::new(&actions, goal).unwrap();
    /// let pruned = ForwardSpace::new(&actions, goal).unwrap().stubborn_sets();
    /// let all = astar(&plain, start, Mismatch::forward(goal)).unwrap();
    /// let few = astar(&pruned, start, Mismatch::forward(goal)).unwrap();
    /// assert_eq!(few.outcome.solution().unwrap().cost, 4);
    /// assert!(few.stats.generated < all.stats.generated);
    /// assert!(pruned.pruning_stats().unwrap().pruned > 0);
    /// ```
    #[must_use]
    pub fn stubborn_sets(mut self) -> Self {
        if self.conditional.is_some() {
            return self;
        }
        self.stubborn = Some(Box::new(StubbornSets::new(self.rules, &self.goal)));
        self
    }

    /// Adds what pruning did to `tally` when the space is dropped.
    ///
    /// ```
    /// use state_atomic::{ActionSet, ForwardSpace, PruningTally};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let tally = PruningTally::default();
    /// drop(ForwardSpace::new(&actions, goal).unwrap().stubborn_sets().report_to(&tally));
    /// assert_eq!(tally.total().pruned, 0);
    /// ```
    #[must_use]
    pub fn report_to(mut self, tally: &'a PruningTally) -> Self {
        self.tally = Some(tally);
        self
    }

    /// What pruning did so far, if [`stubborn_sets`](Self::stubborn_sets)
    /// asked for it.
    pub fn pruning_stats(&self) -> Option<PruningStats> {
        self.stubborn.as_ref().map(|s| s.stats())
    }

    /// Chooses how applicable actions are found.
    ///
    /// ```
    /// use state_atomic::{ActionSet, Applicability, ForwardSpace};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let space = ForwardSpace::new(&actions, goal).unwrap().applicability(Applicability::Grouped);
    /// let start = actions.state(["has_food"]).unwrap();
    /// assert_eq!(space.applicable(&start).len(), 1);
    /// ```
    #[must_use]
    pub fn applicability(mut self, how: Applicability) -> Self {
        self.grouped = match how {
            Applicability::Scan => None,
            Applicability::Grouped => Some(GroupedIndex::new(self.rules)),
        };
        self
    }

    /// The goal.
    ///
    /// ```
    /// use state_atomic::{ActionSet, ForwardSpace, PartialState};
    /// let actions = ActionSet::<u64>::new();
    /// let space = ForwardSpace::new(&actions, PartialState::empty()).unwrap();
    /// assert!(space.goal().is_empty());
    /// ```
    pub fn goal(&self) -> PartialState<B> {
        self.goal.clone()
    }

    /// The actions applicable in `state`, in the order they are emitted.
    ///
    /// ```
    /// use state_atomic::{ActionSet, ForwardSpace, PartialState};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// actions.add_action("shop", 5).eff("has_food", true);
    /// let space = ForwardSpace::new(&actions, PartialState::empty()).unwrap();
    /// assert_eq!(space.applicable(&actions.state([]).unwrap()).len(), 1);
    /// ```
    pub fn applicable(&self, state: &WorldState<B>) -> Vec<ActionId> {
        let mut ids = Vec::new();
        self.for_each_applicable(state, |id, _| ids.push(id));
        ids
    }

    #[inline]
    fn for_each_applicable<F: FnMut(ActionId, &Rule<B>)>(&self, state: &WorldState<B>, mut f: F) {
        match &self.grouped {
            None => {
                for (i, rule) in self.rules.iter().enumerate() {
                    if state.satisfies(&rule.pre) {
                        #[expect(
                            clippy::cast_possible_truncation,
                            reason = "action sets hold fewer than 2^32 actions"
                        )]
                        f(ActionId(i as u32), rule);
                    }
                }
            }
            Some(index) => {
                let mut begin = 0;
                for (test, end) in &index.groups {
                    let end = *end as usize;
                    if state.satisfies(test) {
                        for (id, rule) in &index.rules[begin..end] {
                            if state.satisfies(&rule.pre) {
                                f(*id, rule);
                            }
                        }
                    }
                    begin = end;
                }
            }
        }
    }
}

impl<B: Bits> ForwardSpace<'_, B> {
    /// `node` after action `id` (its rule `rule`), conditional effects
    /// included.
    #[inline]
    fn apply(&self, node: &WorldState<B>, id: ActionId, rule: &Rule<B>) -> WorldState<B> {
        let whole = self.conditional.filter(|_| rule.conditional);
        match whole.and_then(|set| set.action(id)) {
            Some(action) => node.apply_when(&rule.eff, &action.when),
            None => node.apply(&rule.eff),
        }
    }

    /// Emits `rule`'s successor of `node` unless it is `node` itself, at
    /// the action's cost there.
    #[inline]
    fn emit_successor<F>(&self, node: &WorldState<B>, id: ActionId, rule: &Rule<B>, emit: &mut F)
    where
        F: FnMut(ActionId, WorldState<B>, u32),
    {
        let next = self.apply(node, id, rule);
        if next != *node {
            let cost = match self.cost_fns.0.get(id.index()) {
                Some(Some(cost)) => cost(node),
                _ => rule.cost,
            };
            emit(id, next, cost);
        }
    }

    /// Every successor of `node`, as [`successors`](SearchSpace::successors)
    /// emits them without stubborn-set pruning (and without counting): the
    /// transition relation itself, from which plans are written.
    #[inline]
    pub fn plain_successors<F>(&self, node: &WorldState<B>, mut emit: F)
    where
        F: FnMut(ActionId, WorldState<B>, u32),
    {
        if self.cost_fns.0.is_empty() && self.conditional.is_none() {
            self.for_each_applicable(node, |id, rule| {
                let next = node.apply(&rule.eff);
                if next != *node {
                    emit(id, next, rule.cost);
                }
            });
        } else {
            self.for_each_applicable(node, |id, rule| {
                self.emit_successor(node, id, rule, &mut emit);
            });
        }
    }
}

impl<B: Bits> SearchSpace for ForwardSpace<'_, B> {
    type Node = WorldState<B>;
    type Action = ActionId;
    type Cost = u32;

    #[inline]
    fn is_goal(&self, node: &WorldState<B>) -> bool {
        node.satisfies(&self.goal)
    }

    #[inline]
    fn successors<F>(&self, node: &WorldState<B>, mut emit: F)
    where
        F: FnMut(ActionId, WorldState<B>, u32),
    {
        if let Some(stubborn) = self.stubborn.as_ref().filter(|s| s.is_on()) {
            stubborn.for_each_kept(
                node.as_bits(),
                |push| self.for_each_applicable(node, |id, _| push(id.0)),
                |i| self.emit_successor(node, ActionId(i), &self.rules[i as usize], &mut emit),
            );
        } else {
            self.plain_successors(node, emit);
        }
    }

    /// The step the search took from `parent` to `child`, from the plain
    /// successors: stubborn sets keep, for a state, a subset of them that
    /// depends on whether pruning has switched off since, and they count
    /// what they prune.
    fn action_between(
        &self,
        parent: &WorldState<B>,
        child: &WorldState<B>,
    ) -> Option<(ActionId, u32)> {
        let mut cheapest = CheapestStep::to(child);
        self.plain_successors(parent, |id, next, cost| cheapest.offer(id, &next, cost));
        cheapest.found()
    }

    #[inline]
    fn node_heap_bytes(&self, node: &WorldState<B>) -> usize {
        node.as_bits().heap_bytes()
    }

    /// Applying an action again is a few word operations: lazy search
    /// keeps an action per edge, not a state of up to 4 KiB.
    fn makes_successors(&self) -> bool {
        true
    }

    fn successor(&self, node: &WorldState<B>, action: &ActionId) -> Option<WorldState<B>> {
        let rule = self.rules.get(action.index())?;
        node.satisfies(&rule.pre)
            .then(|| self.apply(node, *action, rule))
    }
}
