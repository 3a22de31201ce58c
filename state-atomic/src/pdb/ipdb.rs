//! The iPDB heuristic for forward search: pattern databases chosen by
//! hill climbing, combined by the canonical heuristic.

use search_core::{Estimate, Heuristic};

use super::canonical::{affecting, canonical, maximal_cliques};
use super::hill_climbing::{hill_climb, IpdbConfig};
use super::projection::PatternDatabase;
use super::variables::Variables;
use crate::{ActionSet, Bits, PartialState, WorldState};

/// iPDB (Haslum, Botea, Helmert, Bonet and Koenig 2007) for
/// [`ForwardSpace`](crate::ForwardSpace): the canonical heuristic over the
/// pattern databases that hill climbing from the start chooses. It reads
/// the task as finite-domain variables: each of the action set's [mutex
/// groups](ActionSet::set_mutex_groups) is one variable (which of its atoms
/// holds, or none), every other atom a binary one. Admissible, provided
/// the action set's [mutex groups](ActionSet::mutex_groups) hold in every
/// state reached from the start; a state some database cannot bring to the
/// goal is a dead end. Forward only: the databases are distances to the
/// goal.
///
/// The tables are built once, in [`new`](Self::new), within
/// [`IpdbConfig`]'s limits; an estimate reads one entry per database.
/// Actions with a cost function count at cost 0 (admissible, weak).
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_atomic::{ActionSet, ForwardSpace, Ipdb};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("go_ab", 2).pre("at_a", true).eff("at_a", false).eff("at_b", true);
/// actions.add_action("go_bc", 3).pre("at_b", true).eff("at_b", false).eff("at_c", true);
/// actions.add_action("paint", 0).pre("at_b", true).eff("painted", true);
/// // At most one place holds: the robot's place is one variable.
/// actions.set_mutex_groups([vec![0, 1, 2]]).unwrap();
/// let start = actions.state(["at_a"]).unwrap();
/// let goal = actions.partial([("at_c", true), ("painted", true)]).unwrap();
/// let mut h = Ipdb::new(&actions, &start, goal);
/// assert_eq!(h.estimate(&start), Estimate::Value(5));
/// let space = ForwardSpace::new(&actions, goal).unwrap();
/// let result = astar(&space, start, h).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 5);
/// ```
#[derive(Clone, Debug)]
pub struct Ipdb<B: Bits = u64> {
    task: Variables,
    databases: Vec<PatternDatabase>,
    cliques: Vec<Vec<usize>>,
    /// The variables some pattern holds: the only ones an estimate reads.
    used: Vec<u32>,
    /// The goal, for its atoms beyond the registry.
    goal: PartialState<B>,
    known: B,
    // Scratch, reused by every estimate.
    values: Vec<u32>,
    distances: Vec<u32>,
}

impl<B: Bits> Ipdb<B> {
    /// iPDB toward `goal` for `actions`, its patterns chosen from `start`
    /// within [`IpdbConfig::default`].
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, Ipdb};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// let start = actions.state([]).unwrap();
    /// let goal = actions.partial([("has_food", true)]).unwrap();
    /// assert_eq!(Ipdb::new(&actions, &start, goal).estimate(&start), Estimate::DeadEnd);
    /// ```
    pub fn new(actions: &ActionSet<B>, start: &WorldState<B>, goal: PartialState<B>) -> Self {
        Self::with_config(actions, start, goal, &IpdbConfig::default())
    }

    /// iPDB as [`new`](Self::new), within `config`. An action set with
    /// conditional effects ([`ActionSet::add_when`](crate::ActionSet::add_when)) gets no pattern, so
    /// the estimate is 0 (but for a goal no action can reach): projections
    /// read every effect as unconditional. Planners refuse iPDB on such a
    /// set.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, Ipdb, IpdbConfig};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("shop", 5).eff("has_groceries", true);
    /// let start = actions.state([]).unwrap();
    /// let goal = actions.partial([("has_food", true)]).unwrap();
    /// let config = IpdbConfig { min_improvement: 1, ..IpdbConfig::default() };
    /// let mut h = Ipdb::with_config(&actions, &start, goal, &config);
    /// assert_eq!(h.estimate(&start), Estimate::Value(15));
    /// assert_eq!(h.patterns().len(), 2); // {has_food}, then {has_food, has_groceries}
    /// ```
    pub fn with_config(
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: PartialState<B>,
        config: &IpdbConfig,
    ) -> Self {
        let task = Variables::new(actions, &goal);
        let start_values: Vec<u32> = (0..task.len()).map(|v| task.value(v, start)).collect();
        // Projections read every effect as unconditional: a set with
        // conditional effects gets no database, and the estimate 0.
        let databases = if actions.has_conditional_effects() {
            Vec::new()
        } else {
            hill_climb(&task, &start_values, config)
        };
        let changing: Vec<Vec<u64>> = databases
            .iter()
            .map(|d| affecting(&task, &d.pattern))
            .collect();
        let cliques = maximal_cliques(&changing);
        let mut used: Vec<u32> = databases
            .iter()
            .flat_map(|d| d.pattern.iter().copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        let values = vec![0; task.len()];
        Self {
            known: actions.registry().as_mask().clone(),
            distances: vec![0; databases.len()],
            task,
            databases,
            cliques,
            used,
            goal,
            values,
        }
    }

    /// The patterns chosen, each as its variables' indices (increasing).
    pub fn patterns(&self) -> Vec<Vec<usize>> {
        self.databases
            .iter()
            .map(|d| d.pattern.iter().map(|&v| v as usize).collect())
            .collect()
    }

    /// How many abstract states the databases hold, summed.
    pub fn abstract_states(&self) -> usize {
        self.databases.iter().map(PatternDatabase::size).sum()
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for Ipdb<B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        if self.task.goal.is_none() || self.goal.is_wrong_beyond(state.as_bits(), &self.known) {
            return Estimate::DeadEnd;
        }
        for &v in &self.used {
            self.values[v as usize] = self.task.value(v as usize, state);
        }
        for (distance, database) in self.distances.iter_mut().zip(&self.databases) {
            *distance = database.distance(&self.values);
        }
        match canonical(&self.distances, &self.cliques) {
            Some(h) => Estimate::Value(u32::try_from(h).unwrap_or(u32::MAX - 1)),
            None => Estimate::DeadEnd,
        }
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        false
    }

    /// The databases and the task's operators: made once.
    fn memory_bytes(&self) -> usize {
        self.databases
            .iter()
            .map(PatternDatabase::heap_bytes)
            .sum::<usize>()
            + self.values.capacity() * 4
            + self.distances.capacity() * 4
    }
}
