//! A goal-pattern database (PDB): a user heuristic for atomic tasks, in both
//! search directions.
//!
//! The pattern is a few of the goal's atoms. Projecting every state onto
//! them gives an abstract task of `2^k` states whose cheapest costs, found
//! once by Dijkstra's algorithm, never exceed the concrete ones: every
//! concrete plan projects to an abstract plan of the same cost. So both
//! heuristics are admissible, and consistent (an action's projection is an
//! abstract edge of the same cost, or a self-loop).
//!
//! - [`ForwardPdb`] estimates a world state's cost to the goal: one lookup
//!   in a table of `2^k` goal distances.
//! - [`RegressionPdb`] estimates a subgoal's cost from the fixed start: one
//!   lookup in a table of `3^k` entries, one per way a subgoal can constrain
//!   the pattern.
//!
//! An example binary runs no doctests; the tests at the end of this file show
//! each item in use.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::marker::PhantomData;

use search_core::{Estimate, Heuristic};
use state_atomic::{ActionSet, Bits, PartialState, WorldState};

/// The pattern size [`ForwardPdb::new`] and [`RegressionPdb::new`] are
/// usually given.
pub const DEFAULT_MAX_ATOMS: usize = 8;

/// The largest pattern: a larger `max_atoms` counts as this. The regression
/// table then has `3^12 = 531,441` entries (2 MiB).
pub const MAX_PATTERN_ATOMS: usize = 12;

/// A table entry for an abstract state from which no goal is reachable.
const UNREACHABLE: u32 = u32::MAX;

/// An action projected onto the pattern: masks over the pattern's `k` bits
/// (bit `i` is the pattern's `i`-th atom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Projected {
    pre_care: usize,
    pre_values: usize,
    eff_care: usize,
    eff_values: usize,
    /// Last, so that sorting puts the cheapest of equal projections first.
    cost: u32,
}

impl Projected {
    #[inline]
    fn is_applicable(self, state: usize) -> bool {
        (state ^ self.pre_values) & self.pre_care == 0
    }

    #[inline]
    fn apply(self, state: usize) -> usize {
        (state & !self.eff_care) | self.eff_values
    }

    /// Whether the same masks (any cost).
    fn same_rule(self, other: Self) -> bool {
        (
            self.pre_care,
            self.pre_values,
            self.eff_care,
            self.eff_values,
        ) == (
            other.pre_care,
            other.pre_values,
            other.eff_care,
            other.eff_values,
        )
    }
}

/// The pattern and the projected actions: what both tables are built from.
#[derive(Clone, Debug)]
struct Abstraction {
    pattern: Vec<usize>,
    actions: Vec<Projected>,
}

impl Abstraction {
    /// The first `max_atoms` (at most [`MAX_PATTERN_ATOMS`]) goal atoms by
    /// bit position: a choice that needs no analysis and is the same on
    /// every run; the goal atoms a task declares first are often the
    /// important ones.
    fn new<B: Bits>(actions: &ActionSet<B>, goal: &PartialState<B>, max_atoms: usize) -> Self {
        let mut pattern = Vec::new();
        goal.care().for_each_one(|atom| pattern.push(atom));
        pattern.truncate(max_atoms.min(MAX_PATTERN_ATOMS));
        let mut abstraction = Self {
            pattern,
            actions: Vec::new(),
        };
        let mut projected: Vec<Projected> = actions
            .iter()
            .filter_map(|action| {
                let pre_care = abstraction.project(action.pre.as_care());
                let pre_values = abstraction.project(action.pre.as_values());
                // Setting an atom to the value the precondition demands
                // changes nothing; without such atoms more actions are seen
                // to be self-loops.
                let unchanged =
                    pre_care & !(pre_values ^ abstraction.project(action.eff.as_values()));
                let eff_care = abstraction.project(action.eff.as_care()) & !unchanged;
                let eff_values = abstraction.project(action.eff.as_values()) & eff_care;
                (eff_care != 0).then_some(Projected {
                    pre_care,
                    pre_values,
                    eff_care,
                    eff_values,
                    cost: action.cost,
                })
            })
            .collect();
        // Many actions project alike; only the cheapest matters.
        projected.sort_unstable();
        projected.dedup_by(|later, kept| later.same_rule(*kept));
        abstraction.actions = projected;
        abstraction
    }

    /// The abstract state (or mask) of `bits`: bit `i` is pattern atom `i`.
    #[inline]
    fn project<B: Bits>(&self, bits: &B) -> usize {
        self.pattern
            .iter()
            .enumerate()
            .fold(0, |abstract_bits, (i, &atom)| {
                abstract_bits | (usize::from(bits.get(atom)) << i)
            })
    }

    fn states(&self) -> usize {
        1 << self.pattern.len()
    }
}

/// Dijkstra's algorithm over the `states` abstract states from `sources`;
/// `edges(state, out)` pushes `(neighbour, cost)` pairs. An unreached state
/// gets [`UNREACHABLE`]; a distance at or above it (a path costlier than
/// `u32` holds) is stored one below, which is still no more than the
/// concrete cost.
fn dijkstra<F>(states: usize, sources: impl IntoIterator<Item = usize>, mut edges: F) -> Vec<u32>
where
    F: FnMut(usize, &mut Vec<(usize, u32)>),
{
    let mut dist = vec![u64::MAX; states];
    let mut open = BinaryHeap::new();
    for source in sources {
        dist[source] = 0;
        open.push(Reverse((0, source)));
    }
    let mut out = Vec::new();
    while let Some(Reverse((d, state))) = open.pop() {
        if d > dist[state] {
            continue;
        }
        out.clear();
        edges(state, &mut out);
        for &(next, cost) in &out {
            let through = d + u64::from(cost);
            if through < dist[next] {
                dist[next] = through;
                open.push(Reverse((through, next)));
            }
        }
    }
    dist.into_iter()
        .map(|d| match d {
            u64::MAX => UNREACHABLE,
            finite => u32::try_from(finite).map_or(UNREACHABLE - 1, |d| d.min(UNREACHABLE - 1)),
        })
        .collect()
}

/// A table entry as an estimate.
#[inline]
fn estimate(entry: u32) -> Estimate<u32> {
    if entry == UNREACHABLE {
        Estimate::DeadEnd
    } else {
        Estimate::Value(entry)
    }
}

/// A goal-pattern database for forward search: the cheapest cost from a
/// world state's projection to the goal's projection in the abstract task.
///
/// Admissible and consistent; [`Estimate::DeadEnd`] when the abstract goal
/// is unreachable, which makes the concrete goal unreachable too. Owns its
/// table, so it can move to another thread or outlive the action set.
#[derive(Clone, Debug)]
pub struct ForwardPdb<B: Bits = u64> {
    abstraction: Abstraction,
    /// Per abstract state: the cheapest abstract cost to the goal.
    table: Vec<u32>,
    _bits: PhantomData<B>,
}

impl<B: Bits> ForwardPdb<B> {
    /// The pattern database of `actions` towards `goal` over the first
    /// `max_atoms` of the goal's atoms by bit position (at most
    /// [`MAX_PATTERN_ATOMS`]; [`DEFAULT_MAX_ATOMS`] is a good start). Setup
    /// time and memory grow as `2^k` times the number of distinct projected
    /// actions. `max_atoms = 0` gives the blind heuristic.
    ///
    /// `actions` should have passed [`ActionSet::check`], as the search
    /// spaces demand.
    pub fn new(actions: &ActionSet<B>, goal: &PartialState<B>, max_atoms: usize) -> Self {
        let abstraction = Abstraction::new(actions, goal, max_atoms);
        let goal_care = abstraction.project(goal.as_care());
        let goal_values = abstraction.project(goal.as_values());
        let goals = (0..abstraction.states()).filter(|s| (s ^ goal_values) & goal_care == 0);
        // Backwards from the goals: the predecessors of `state` through an
        // action are the states that satisfy its precondition and that it
        // turns into `state`.
        let table = dijkstra(abstraction.states(), goals, |state, out| {
            for action in &abstraction.actions {
                if (state ^ action.eff_values) & action.eff_care != 0
                    || (state ^ action.pre_values) & action.pre_care & !action.eff_care != 0
                {
                    continue;
                }
                // The effect's atoms held anything before, within the
                // precondition: fixed where it cares, free elsewhere.
                let fixed = (state & !action.eff_care) | (action.pre_values & action.eff_care);
                let free = action.eff_care & !action.pre_care;
                let mut subset = free;
                loop {
                    let before = fixed | subset;
                    if before != state {
                        out.push((before, action.cost));
                    }
                    if subset == 0 {
                        break;
                    }
                    subset = (subset - 1) & free;
                }
            }
        });
        Self {
            abstraction,
            table,
            _bits: PhantomData,
        }
    }

    /// The pattern's atoms (bit positions), in increasing order.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tests read it"))]
    pub fn pattern(&self) -> &[usize] {
        &self.abstraction.pattern
    }

    /// How many entries the table holds: `2^k` for a pattern of `k` atoms.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tests read it"))]
    pub fn table_size(&self) -> usize {
        self.table.len()
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for ForwardPdb<B> {
    #[inline]
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        estimate(self.table[self.abstraction.project(state.as_bits())])
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

/// A goal-pattern database for regression search: the cheapest abstract
/// cost from the start's projection to any abstract state that agrees with a
/// subgoal on the pattern atoms the subgoal specifies.
///
/// Admissible and consistent; [`Estimate::DeadEnd`] when no such abstract
/// state is reachable, so no state that satisfies the subgoal is. Owns its
/// table, so it can move to another thread or outlive the action set.
#[derive(Clone, Debug)]
pub struct RegressionPdb<B: Bits = u64> {
    abstraction: Abstraction,
    /// Per subgoal projection, numbered in base 3 with one digit per pattern
    /// atom (0 unspecified, 1 false, 2 true): the cheapest cost of a
    /// matching abstract state.
    table: Vec<u32>,
    /// `3^i` for pattern atom `i`.
    powers: Vec<usize>,
    _bits: PhantomData<B>,
}

impl<B: Bits> RegressionPdb<B> {
    /// The pattern database of `actions` from `start`, for subgoals of a
    /// regression from `goal`, over the first `max_atoms` of the goal's atoms
    /// by bit position (at most [`MAX_PATTERN_ATOMS`]; [`DEFAULT_MAX_ATOMS`]
    /// is a good start). Setup time and memory grow as `3^k`.
    /// `max_atoms = 0` gives the blind heuristic.
    ///
    /// `actions` should have passed [`ActionSet::check`], as the search
    /// spaces demand.
    pub fn new(
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        max_atoms: usize,
    ) -> Self {
        let abstraction = Abstraction::new(actions, goal, max_atoms);
        let from_start = dijkstra(
            abstraction.states(),
            [abstraction.project(start.as_bits())],
            |state, out| {
                for action in &abstraction.actions {
                    if action.is_applicable(state) {
                        let after = action.apply(state);
                        if after != state {
                            out.push((after, action.cost));
                        }
                    }
                }
            },
        );
        let k = abstraction.pattern.len();
        let powers: Vec<usize> = std::iter::successors(Some(1_usize), |p| Some(p * 3))
            .take(k + 1)
            .collect();
        let size = powers[k];
        // An entry with an unspecified atom is the cheaper of the two entries
        // that specify it, both at higher numbers: fill from the top down.
        let mut table = vec![UNREACHABLE; size];
        for index in (0..size).rev() {
            let mut rest = index;
            let mut state = 0;
            let mut unspecified = None;
            for (i, &power) in powers[..k].iter().enumerate() {
                match rest % 3 {
                    0 => {
                        unspecified = Some(power);
                        break;
                    }
                    2 => state |= 1 << i,
                    _ => {}
                }
                rest /= 3;
            }
            table[index] = match unspecified {
                None => from_start[state],
                Some(power) => table[index + power].min(table[index + 2 * power]),
            };
        }
        Self {
            abstraction,
            table,
            powers,
            _bits: PhantomData,
        }
    }

    /// The pattern's atoms (bit positions), in increasing order.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tests read it"))]
    pub fn pattern(&self) -> &[usize] {
        &self.abstraction.pattern
    }

    /// How many entries the table holds: `3^k` for a pattern of `k` atoms.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tests read it"))]
    pub fn table_size(&self) -> usize {
        self.table.len()
    }
}

impl<B: Bits> Heuristic<PartialState<B>, u32> for RegressionPdb<B> {
    #[inline]
    fn estimate(&mut self, subgoal: &PartialState<B>) -> Estimate<u32> {
        let (care, values) = (subgoal.care(), subgoal.values());
        let index = self
            .abstraction
            .pattern
            .iter()
            .zip(&self.powers)
            .map(|(&atom, &power)| {
                if care.get(atom) {
                    (1 + usize::from(values.get(atom))) * power
                } else {
                    0
                }
            })
            .sum::<usize>();
        estimate(self.table[index])
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;
    use search_core::{Algorithm, Estimate, Heuristic, Search, SearchSpace};
    use state_atomic::{
        problems, ActionSet, Bits, ForwardSpace, PartialState, RegressionSpace, Wide, WorldState,
    };

    use super::{ForwardPdb, RegressionPdb, MAX_PATTERN_ATOMS};

    /// The most atoms a random task has.
    const ATOMS: usize = 8;

    /// One optional value per atom: a precondition, an effect or a goal.
    type Literals = Vec<Option<bool>>;

    /// A random task, independent of the state width: per action one
    /// optional value per atom for its precondition and for its effect, and
    /// a cost. Only the first `atoms` entries of each list are used.
    #[derive(Clone, Debug)]
    struct Task {
        atoms: usize,
        actions: Vec<(Literals, Literals, u32)>,
        start: Vec<bool>,
        goal: Literals,
        /// Further subgoals for the regression estimate.
        subgoals: Vec<Literals>,
        /// Which reachable states to compare with Dijkstra.
        picks: Vec<usize>,
        max_atoms: usize,
    }

    fn literal(unspecified: u32) -> impl Strategy<Value = Option<bool>> {
        prop_oneof![unspecified => Just(None), 1 => Just(Some(false)), 1 => Just(Some(true))]
    }

    fn literals(unspecified: u32) -> impl Strategy<Value = Literals> {
        prop::collection::vec(literal(unspecified), ATOMS)
    }

    /// Tasks of 3 to 8 atoms, 2 to 10 actions with costs 0 to 5; `full_goal`
    /// makes the goal specify every atom (and the pattern hold them all).
    fn task(full_goal: bool) -> impl Strategy<Value = Task> {
        let goal = if full_goal {
            prop::collection::vec(any::<bool>().prop_map(Some), ATOMS).boxed()
        } else {
            literals(2).boxed()
        };
        (
            3..=ATOMS,
            prop::collection::vec((literals(6), literals(1), 0_u32..=5), 2..=10),
            prop::collection::vec(any::<bool>(), ATOMS),
            goal,
            prop::collection::vec(literals(1), 3),
            prop::collection::vec(any::<usize>(), 4),
            0..=ATOMS,
        )
            .prop_map(
                move |(atoms, actions, start, mut goal, subgoals, picks, max_atoms)| {
                    // The start gets the goal's first atom wrong, so most
                    // tasks need a plan.
                    let first = goal[..atoms].iter().position(Option::is_some).unwrap_or(0);
                    goal[first] = Some(!start[first]);
                    Task {
                        atoms,
                        actions,
                        start,
                        goal,
                        subgoals,
                        picks,
                        max_atoms: if full_goal { ATOMS } else { max_atoms },
                    }
                },
            )
    }

    /// The task's actions, start and goal with atom `i` at bit `offset + i`.
    struct Built<B: Bits> {
        actions: ActionSet<B>,
        start: WorldState<B>,
        goal: PartialState<B>,
        offset: usize,
        atoms: usize,
    }

    impl<B: Bits> Built<B> {
        fn new(task: &Task, offset: usize) -> Self {
            let mut actions = ActionSet::<B>::new();
            for i in 0..offset + task.atoms {
                actions
                    .declare(&format!("a{i}"))
                    .expect("the width holds the task");
            }
            let mut built = Self {
                actions: ActionSet::new(),
                start: WorldState::empty(),
                goal: PartialState::empty(),
                offset,
                atoms: task.atoms,
            };
            for (k, (pre, eff, cost)) in task.actions.iter().enumerate() {
                let (pre, eff) = (built.partial(pre), built.partial(eff));
                actions
                    .add_partial(&format!("act{k}"), *cost, pre, eff)
                    .expect("declared atoms");
            }
            let start = (0..task.atoms)
                .filter(|&i| task.start[i])
                .fold(B::zero(), |bits, i| bits | B::bit(offset + i));
            built.actions = actions;
            built.start = WorldState::new(start);
            built.goal = built.partial(&task.goal);
            built
        }

        fn partial(&self, literals: &[Option<bool>]) -> PartialState<B> {
            let (mut values, mut care) = (B::zero(), B::zero());
            for (i, literal) in literals.iter().take(self.atoms).enumerate() {
                if let Some(value) = literal {
                    care = care | B::bit(self.offset + i);
                    if *value {
                        values = values | B::bit(self.offset + i);
                    }
                }
            }
            PartialState::new(values, care)
        }
    }

    /// The optimal cost from `start` in `space`, by Dijkstra.
    fn optimal<S: SearchSpace<Cost = u32>>(space: &S, start: S::Node) -> Option<u32> {
        let result = Search::new(space, start)
            .algorithm(Algorithm::Dijkstra)
            .run()
            .expect("small costs");
        result.outcome.solution().map(|s| s.cost)
    }

    /// The cost A* finds with `heuristic`, and the solution's actions.
    fn astar<S, H>(space: &S, start: S::Node, heuristic: H) -> Option<(u32, Vec<S::Action>)>
    where
        S: SearchSpace<Cost = u32>,
        H: Heuristic<S::Node, u32>,
    {
        let result = Search::new(space, start)
            .algorithm(Algorithm::AStar)
            .heuristic(heuristic)
            .run()
            .expect("small costs");
        result.outcome.into_solution().map(|s| (s.cost, s.actions))
    }

    /// Every state reachable from `start`, start first.
    fn reachable<B: Bits>(space: &ForwardSpace<'_, B>, start: WorldState<B>) -> Vec<WorldState<B>> {
        let mut seen = HashSet::from([start.clone()]);
        let mut order = vec![start];
        let mut next = 0;
        while let Some(state) = order.get(next).cloned() {
            next += 1;
            space.successors(&state, |_, child, _| {
                if seen.insert(child.clone()) {
                    order.push(child);
                }
            });
        }
        order
    }

    /// `h` against the true cost `optimal`: never above it, a dead end only
    /// without a plan, and equal to it if `exact`.
    fn check_estimate(
        h: Estimate<u32>,
        optimal: Option<u32>,
        exact: bool,
    ) -> Result<(), TestCaseError> {
        match (h, optimal) {
            (Estimate::DeadEnd, Some(cost)) => Err(TestCaseError::fail(format!(
                "dead end, but a plan costs {cost}"
            ))),
            (Estimate::Value(h), Some(cost)) if h > cost || (exact && h != cost) => {
                Err(TestCaseError::fail(format!("h = {h}, optimal cost {cost}")))
            }
            (Estimate::Value(h), None) if exact => {
                Err(TestCaseError::fail(format!("h = {h}, but no plan exists")))
            }
            _ => Ok(()),
        }
    }

    /// `h(from) <= cost + h(to)`, a dead end counting as infinite.
    fn check_consistent(
        from: Estimate<u32>,
        cost: u32,
        to: Estimate<u32>,
    ) -> Result<(), TestCaseError> {
        match (from, to) {
            (_, Estimate::DeadEnd) => Ok(()),
            (Estimate::DeadEnd, Estimate::Value(h)) => Err(TestCaseError::fail(format!(
                "a dead end has a successor with h = {h}"
            ))),
            (Estimate::Value(a), Estimate::Value(b)) => {
                prop_assert!(a <= cost + b, "h = {a} > {cost} + {b}");
                Ok(())
            }
        }
    }

    /// The pattern is the goal's first `max_atoms` atoms by position.
    fn check_pattern<B: Bits>(
        built: &Built<B>,
        max_atoms: usize,
        pattern: &[usize],
    ) -> Result<(), TestCaseError> {
        let mut goal_atoms = Vec::new();
        built.goal.care().for_each_one(|atom| goal_atoms.push(atom));
        goal_atoms.truncate(max_atoms.min(MAX_PATTERN_ATOMS));
        prop_assert_eq!(pattern, goal_atoms.as_slice());
        Ok(())
    }

    /// Forward: A* with the PDB finds Dijkstra's cost; the estimate is
    /// admissible at the start and at sampled reachable states (exact when
    /// the pattern holds every atom), consistent on every reachable edge,
    /// and 0 at goal states.
    fn check_forward<B: Bits>(task: &Task, offset: usize) -> Result<(), TestCaseError> {
        let built = Built::<B>::new(task, offset);
        let space = ForwardSpace::new(&built.actions, built.goal.clone()).expect("checked actions");
        let mut pdb = ForwardPdb::new(&built.actions, &built.goal, task.max_atoms);
        check_pattern(&built, task.max_atoms, pdb.pattern())?;
        prop_assert_eq!(pdb.table_size(), 1 << pdb.pattern().len());
        let exact = pdb.pattern().len() == built.atoms;

        let cost = optimal(&space, built.start.clone());
        let found = astar(&space, built.start.clone(), pdb.clone());
        prop_assert_eq!(found.map(|(c, _)| c), cost);
        check_estimate(pdb.estimate(&built.start), cost, exact)?;

        let states = reachable(&space, built.start.clone());
        for state in &states {
            let h = pdb.estimate(state);
            if space.is_goal(state) {
                prop_assert_eq!(h, Estimate::Value(0));
            }
            let mut edges = Vec::new();
            space.successors(state, |_, child, cost| edges.push((child, cost)));
            for (child, cost) in edges {
                check_consistent(h, cost, pdb.estimate(&child))?;
            }
        }
        for pick in &task.picks {
            let state = &states[pick % states.len()];
            check_estimate(pdb.estimate(state), optimal(&space, state.clone()), exact)?;
        }
        Ok(())
    }

    /// Regression: A* with the PDB finds forward Dijkstra's cost; the
    /// estimate is admissible at the goal, along the plan and at random
    /// subgoals (exact when the pattern holds every atom), and consistent on
    /// their regression edges.
    fn check_regression<B: Bits>(task: &Task, offset: usize) -> Result<(), TestCaseError> {
        let built = Built::<B>::new(task, offset);
        let forward =
            ForwardSpace::new(&built.actions, built.goal.clone()).expect("checked actions");
        let space = RegressionSpace::new(&built.actions, built.start.clone(), built.goal.clone())
            .expect("checked actions");
        let mut pdb = RegressionPdb::new(&built.actions, &built.start, &built.goal, task.max_atoms);
        check_pattern(&built, task.max_atoms, pdb.pattern())?;
        prop_assert_eq!(
            pdb.table_size(),
            3_usize.pow(pdb.pattern().len().try_into().expect("small"))
        );
        let exact = pdb.pattern().len() == built.atoms;

        let cost = optimal(&forward, built.start.clone());
        let found = astar(&space, built.goal.clone(), pdb.clone());
        prop_assert_eq!(found.as_ref().map(|(c, _)| *c), cost);
        check_estimate(pdb.estimate(&built.goal), cost, exact)?;

        // Along the plan, from the goal: the cost still ahead of each subgoal.
        if let Some((total, regressed)) = found {
            let mut subgoal = built.goal.clone();
            let mut left = total;
            for id in regressed {
                let action = built.actions.action(id).expect("an action of the set");
                check_estimate(pdb.estimate(&subgoal), Some(left), false)?;
                subgoal = subgoal
                    .regress(&action.pre, &action.eff)
                    .expect("the plan regresses");
                left -= action.cost;
            }
            prop_assert_eq!(pdb.estimate(&subgoal), Estimate::Value(0));
        }

        let subgoals = task.subgoals.iter().map(|s| built.partial(s));
        for subgoal in std::iter::once(built.goal.clone()).chain(subgoals) {
            let towards =
                ForwardSpace::new(&built.actions, subgoal.clone()).expect("checked actions");
            let h = pdb.estimate(&subgoal);
            // A pattern of every atom is exact for any subgoal, not just the goal.
            check_estimate(h, optimal(&towards, built.start.clone()), exact)?;
            let mut edges = Vec::new();
            space.successors(&subgoal, |_, before, cost| edges.push((before, cost)));
            for (before, cost) in edges {
                check_consistent(h, cost, pdb.estimate(&before))?;
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn forward_pdb_is_admissible_and_astar_optimal_on_u64(task in task(false), offset in 0_usize..=56) {
            check_forward::<u64>(&task, offset)?;
        }

        #[test]
        fn forward_pdb_is_admissible_and_astar_optimal_on_wide(task in task(false), offset in 56_usize..=120) {
            check_forward::<Wide<2>>(&task, offset)?;
        }

        #[test]
        fn regression_pdb_is_admissible_and_astar_optimal_on_u64(task in task(false), offset in 0_usize..=56) {
            check_regression::<u64>(&task, offset)?;
        }

        #[test]
        fn regression_pdb_is_admissible_and_astar_optimal_on_wide(task in task(false), offset in 56_usize..=120) {
            check_regression::<Wide<2>>(&task, offset)?;
        }

        /// A pattern of every atom is no abstraction: both tables hold the
        /// true costs, which catches a table that underestimates.
        #[test]
        fn pdbs_of_every_atom_are_exact(task in task(true), offset in 0_usize..=120) {
            check_forward::<Wide<2>>(&task, offset)?;
            check_regression::<Wide<2>>(&task, offset)?;
        }
    }

    #[test]
    fn hungry_agent_estimates_the_cost_of_eating() {
        let p = problems::hungry_agent::<u64>().expect("a reference problem");
        let mut forward = ForwardPdb::new(&p.actions, &p.goal, 8);
        // The pattern is `fed` alone: only `eat` (cost 5) touches it.
        assert_eq!(forward.pattern(), [5]);
        assert_eq!(forward.table_size(), 2);
        assert_eq!(forward.estimate(&p.start), Estimate::Value(5));
        let space = ForwardSpace::new(&p.actions, p.goal).expect("checked actions");
        assert_eq!(astar(&space, p.start, forward).map(|(c, _)| c), Some(30));

        let mut regression = RegressionPdb::new(&p.actions, &p.start, &p.goal, 8);
        assert_eq!(regression.table_size(), 3);
        assert_eq!(regression.estimate(&p.goal), Estimate::Value(5));
        assert_eq!(
            regression.estimate(&PartialState::empty()),
            Estimate::Value(0)
        );
        let space = RegressionSpace::new(&p.actions, p.start, p.goal).expect("checked actions");
        assert_eq!(astar(&space, p.goal, regression).map(|(c, _)| c), Some(30));
    }

    #[test]
    fn a_goal_the_actions_cannot_reach_is_a_dead_end() {
        let mut actions = ActionSet::<u64>::new();
        actions.add_action("lock", 1).eff("open", false);
        actions
            .add_action("eat", 1)
            .pre("open", true)
            .eff("fed", true);
        let start = actions.state([]).expect("no atoms");
        let goal = actions.partial([("open", true)]).expect("declared");
        assert_eq!(
            ForwardPdb::new(&actions, &goal, 8).estimate(&start),
            Estimate::DeadEnd
        );
        let mut regression = RegressionPdb::new(&actions, &start, &goal, 8);
        assert_eq!(regression.estimate(&goal), Estimate::DeadEnd);
        let closed = actions.partial([("open", false)]).expect("declared");
        assert_eq!(regression.estimate(&closed), Estimate::Value(0));
    }

    #[test]
    fn the_pattern_is_the_lowest_goal_atoms_up_to_twelve() {
        let mut actions = ActionSet::<Wide<2>>::new();
        for i in 0..80 {
            actions.declare(&format!("a{i}")).expect("fits");
        }
        let atoms: Vec<usize> = (0..14).map(|i| 60 + 2 * i).collect();
        let care = atoms
            .iter()
            .fold(Wide::zero(), |bits, &i| bits | Wide::bit(i));
        let goal = PartialState::new(care, care);
        for (max_atoms, k) in [(0, 0), (3, 3), (12, 12), (100, 12)] {
            let forward = ForwardPdb::new(&actions, &goal, max_atoms);
            assert_eq!(forward.pattern(), &atoms[..k]);
            assert_eq!(forward.table_size(), 1 << k);
        }
        let regression = RegressionPdb::new(&actions, &WorldState::empty(), &goal, 100);
        assert_eq!(regression.pattern(), &atoms[..12]);
        assert_eq!(regression.table_size(), 531_441);
    }

    #[test]
    fn pdbs_are_send_and_static() {
        fn movable<T: Send + 'static>() {}
        movable::<ForwardPdb<u64>>();
        movable::<RegressionPdb<Wide<2>>>();
    }
}
