//! The landmark count heuristic (LAMA's, Fast Downward's `landmark_sum`
//! with unit costs): how many landmarks a path still has to make true.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;
use search_core::{Estimate, Heuristic};

use super::graph::{Allowance, LandmarkGraph, Ordering, Stopped};
use crate::{ActionSet, Bits, PartialState, WorldState};

/// The landmark count heuristic for [`ForwardSpace`](crate::ForwardSpace):
/// the number of *future* landmarks of the path to a state. Inadmissible
/// (an action may make several landmarks true), path-dependent, with
/// preferred operators.
///
/// Landmarks come from [`LandmarkGraph::zhu_givan`]. Each state keeps two
/// sets, as Fast Downward's landmark status manager does: *past* landmarks,
/// made true on the way to it, and *future* ones, still to make true:
///
/// - at the start, a landmark is past if it holds, and future if it does
///   not, or if it holds but one ordered before it does not (it must be
///   made true again);
/// - along a step from parent to child, a landmark is past if it was past
///   or holds now; future if it was future and does not hold now, or held
///   in the parent too (not made true by this step); also future are goal
///   landmarks that do not hold, and past landmarks that do not hold but
///   must hold just before a greedy-necessary successor that is not yet past
///   (required again);
/// - a state reached along several steps keeps what all agree on: past in
///   every one, future in any one.
///
/// The heuristic learns the step to each state from
/// [`Heuristic::notify_transition`], which the engine calls before each
/// estimate, and keeps the two sets in a table keyed by state, so that a
/// state's sets are there when its successors are reached, whenever that
/// is (lazy search reaches them much later). A state it has not heard of is
/// taken as a start. Dead ends are only those the delete relaxation proves
/// as well (`h_max` is infinite there): a goal landmark that does not hold
/// and that no action achieves, and a task whose goal is unreachable in the
/// relaxation. 0 only where the goal holds: goal literals are landmarks.
///
/// Preferred: a step from a state that makes true one of its future
/// landmarks (Fast Downward's first kind of landmark preferred operators).
///
/// ```
/// use search_core::{lazy_greedy, Estimate, Heuristic};
/// use state_atomic::landmarks::LandmarkCount;
/// use state_atomic::{ActionSet, ForwardSpace};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("walk", 1).eff("at_shop", true);
/// actions.add_action("buy", 1).pre("at_shop", true).eff("has_food", true);
/// actions.add_action("eat", 1).pre("has_food", true).eff("fed", true);
/// let start = actions.state([]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let mut h = LandmarkCount::new(&actions, &start, goal);
/// assert_eq!(h.estimate(&start), Estimate::Value(3));
/// let space = ForwardSpace::new(&actions, goal).unwrap();
/// let h = LandmarkCount::new(&actions, &start, goal);
/// let plan = lazy_greedy(&space, start, h).unwrap().outcome.into_solution().unwrap();
/// assert_eq!(actions.names(&plan.actions), ["walk", "buy", "eat"]);
/// ```
#[derive(Clone, Debug)]
pub struct LandmarkCount<B: Bits = u64> {
    graph: LandmarkGraph,
    /// The task's atoms, as bits.
    known: B,
    goal: PartialState<B>,
    /// Words of one landmark bitset.
    words: usize,
    goals: Vec<u32>,
    /// Each landmark with greedy-necessary successors, and those.
    greedy_necessary: Vec<(u32, Vec<u32>)>,
    /// The landmarks ordered before each landmark.
    parents: Vec<Vec<u32>>,
    achievable: Vec<bool>,
    /// Each known state's slot in `past` and `future` (`words` each).
    slots: HashMap<WorldState<B>, u32, FxBuildHasher>,
    /// The heap bytes of the states in `slots`.
    state_bytes: usize,
    past: Vec<u64>,
    future: Vec<u64>,
    next_past: Vec<u64>,
    next_future: Vec<u64>,
}

impl<B: Bits> LandmarkCount<B> {
    /// The landmark count for reaching `goal` from `start` with `actions`;
    /// computes the landmark graph.
    pub fn new(actions: &ActionSet<B>, start: &WorldState<B>, goal: PartialState<B>) -> Self {
        let graph = LandmarkGraph::zhu_givan(actions, start, &goal);
        Self::from_graph(actions, goal, graph)
    }

    /// [`new`](Self::new), with the landmark graph computed within
    /// `allowance` ([`LandmarkGraph::zhu_givan_within`]).
    ///
    /// # Errors
    /// [`Stopped`] when generation runs past the allowance's deadline or
    /// bytes.
    pub fn new_within(
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: PartialState<B>,
        allowance: Allowance,
    ) -> Result<Self, Stopped> {
        let graph = LandmarkGraph::zhu_givan_within(actions, start, &goal, allowance)?;
        Ok(Self::from_graph(actions, goal, graph))
    }

    fn from_graph(actions: &ActionSet<B>, goal: PartialState<B>, graph: LandmarkGraph) -> Self {
        let n = graph.landmarks().len();
        let mut parents = vec![Vec::new(); n];
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &(from, to, kind) in graph.orderings() {
            let from32 = u32::try_from(from).unwrap_or(u32::MAX);
            // Orderings are sorted: both kinds joining two landmarks are
            // neighbours, so a repeated parent is the last one.
            if parents[to].last() != Some(&from32) {
                parents[to].push(from32);
            }
            if kind == Ordering::GreedyNecessary {
                children[from].push(u32::try_from(to).unwrap_or(u32::MAX));
            }
        }
        let greedy_necessary = children
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_empty())
            .map(|(i, c)| (u32::try_from(i).unwrap_or(u32::MAX), c))
            .collect();
        let ids = (0..n).map(|i| u32::try_from(i).unwrap_or(u32::MAX));
        Self {
            goals: ids
                .filter(|&i| graph.landmarks()[i as usize].is_goal)
                .collect(),
            achievable: graph
                .landmarks()
                .iter()
                .map(|l| !l.achievers.is_empty())
                .collect(),
            known: B::low(actions.registry().len()),
            goal,
            words: n.div_ceil(64),
            greedy_necessary,
            parents,
            graph,
            slots: HashMap::default(),
            state_bytes: 0,
            past: Vec::new(),
            future: Vec::new(),
            next_past: Vec::new(),
            next_future: Vec::new(),
        }
    }

    /// The landmark graph.
    pub fn graph(&self) -> &LandmarkGraph {
        &self.graph
    }

    /// The future landmarks of `state` (indices into the graph's
    /// landmarks), if the heuristic has met it.
    pub fn future_landmarks(&self, state: &WorldState<B>) -> Option<Vec<usize>> {
        let slot = *self.slots.get(state)? as usize;
        let bits = &self.future[slot * self.words..(slot + 1) * self.words];
        Some(
            (0..self.graph.landmarks().len())
                .filter(|&i| get(bits, i))
                .collect(),
        )
    }

    fn holds(&self, id: usize, state: &WorldState<B>) -> bool {
        self.graph.landmarks()[id].holds_in(state)
    }

    /// The slot of `state`, progressed as a start if it is new.
    fn slot(&mut self, state: &WorldState<B>) -> u32 {
        if let Some(&slot) = self.slots.get(state) {
            return slot;
        }
        let n = self.graph.landmarks().len();
        let mut past = vec![0; self.words];
        let mut future = vec![0; self.words];
        for id in 0..n {
            if self.holds(id, state) {
                set(&mut past, id);
                if self.parents[id]
                    .iter()
                    .any(|&p| !self.holds(p as usize, state))
                {
                    set(&mut future, id);
                }
            } else {
                set(&mut future, id);
            }
        }
        self.store(state.clone(), &past, &future)
    }

    fn store(&mut self, state: WorldState<B>, past: &[u64], future: &[u64]) -> u32 {
        let slot = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.past.extend_from_slice(past);
        self.future.extend_from_slice(future);
        self.state_bytes += state.as_bits().heap_bytes();
        self.slots.insert(state, slot);
        slot
    }
}

fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for LandmarkCount<B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        if self.graph.is_unsolvable() {
            return Estimate::DeadEnd;
        }
        if self.goal.is_wrong_beyond(state.as_bits(), &self.known) {
            return Estimate::DeadEnd;
        }
        let slot = self.slot(state) as usize;
        let future = &self.future[slot * self.words..(slot + 1) * self.words];
        let mut count: u32 = 0;
        for (w, &word) in future.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let id = w * 64 + rest.trailing_zeros() as usize;
                // Only what the delete relaxation proves too: a goal
                // literal that no action makes true. A landmark required
                // again, or one of a state met without its path, proves
                // nothing from this state alone.
                let landmark = &self.graph.landmarks()[id];
                if !self.achievable[id] && landmark.is_goal && !landmark.holds_in(state) {
                    return Estimate::DeadEnd;
                }
                count += 1;
                rest &= rest - 1;
            }
        }
        Estimate::Value(count)
    }

    /// Dead ends only where the relaxation cannot reach the goal (see the
    /// type's docs).
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }

    /// The per-state table, which grows with every state the search
    /// reaches, and the landmark graph with its orderings and achievers.
    fn memory_bytes(&self) -> usize {
        use crate::vec_bytes;
        let slot = std::mem::size_of::<(WorldState<B>, u32)>() + 1;
        let lists =
            |lists: &Vec<Vec<u32>>| vec_bytes(lists) + lists.iter().map(vec_bytes).sum::<usize>();
        self.slots.capacity() * slot
            + self.state_bytes
            + self.known.heap_bytes()
            + [&self.past, &self.future, &self.next_past, &self.next_future]
                .into_iter()
                .map(vec_bytes)
                .sum::<usize>()
            + lists(&self.parents)
            + vec_bytes(&self.greedy_necessary)
            + self
                .greedy_necessary
                .iter()
                .map(|(_, achievers)| vec_bytes(achievers))
                .sum::<usize>()
            + vec_bytes(&self.goals)
            + vec_bytes(&self.achievable)
            + self.graph.heap_bytes()
    }

    fn notify_transition(&mut self, parent: &WorldState<B>, child: &WorldState<B>) {
        if parent == child {
            return;
        }
        let from = self.slot(parent) as usize * self.words;
        let words = self.words;
        let mut past = std::mem::take(&mut self.next_past);
        let mut future = std::mem::take(&mut self.next_future);
        past.clear();
        past.extend_from_slice(&self.past[from..from + words]);
        future.clear();
        future.resize(words, 0);
        for id in 0..self.graph.landmarks().len() {
            let now = self.holds(id, child);
            if now {
                set(&mut past, id);
            }
            if get(&self.future[from..from + words], id) && (!now || self.holds(id, parent)) {
                set(&mut future, id);
            }
        }
        for &g in &self.goals {
            if !self.holds(g as usize, child) {
                set(&mut future, g as usize);
            }
        }
        for (tail, children) in &self.greedy_necessary {
            let tail = *tail as usize;
            if !self.holds(tail, child) && children.iter().any(|&c| !get(&past, c as usize)) {
                set(&mut future, tail);
            }
        }
        match self.slots.get(child) {
            Some(&slot) => {
                let at = slot as usize * words;
                for w in 0..words {
                    self.past[at + w] &= past[w];
                    self.future[at + w] |= future[w];
                }
            }
            None => {
                self.store(child.clone(), &past, &future);
            }
        }
        self.next_past = past;
        self.next_future = future;
    }

    fn is_preferred(&mut self, parent: &WorldState<B>, child: &WorldState<B>) -> bool {
        let Some(&slot) = self.slots.get(parent) else {
            return false;
        };
        let future = &self.future[slot as usize * self.words..(slot as usize + 1) * self.words];
        let mut preferred = false;
        (parent.bits() ^ child.as_bits()).for_each_one(|atom| {
            if let Some(id) = self.graph.find(atom, child.as_bits().get(atom)) {
                preferred |= get(future, id);
            }
        });
        preferred
    }
}
