//! Delete-relaxation heuristics: `h_max`, `h_add` and `h_FF`.
//!
//! Facts are literals, `(atom, value)` pairs, so that preconditions and goals
//! may ask for false atoms: literal `2 * atom + value`. The relaxation keeps
//! every literal once reached. Costs are computed by a generalized Dijkstra
//! over literals (each action fires once its last precondition literal is
//! settled), which is exact for `h_max` and `h_add`.
//!
//! Two things keep the per-state work of the forward heuristics small. Only
//! literals that matter are tracked: a forward heuristic drops every effect
//! literal that is neither a precondition nor a goal (in STRIPS tasks, every
//! delete effect), and the exploration stops once the last goal literal is
//! settled. And `h_max` with one cost for every action (PDDL's unit costs)
//! needs no priority queue: it is the first level of the relaxed planning
//! graph that holds the goal, computed over bitsets on tasks with few
//! actions and narrow states, and breadth-first (a FIFO queue, where a
//! literal's first cost is final) on larger ones.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use search_core::{Estimate, Heuristic};

use crate::{ActionSet, Bits, PartialState, WorldState};

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

const NONE: u32 = u32::MAX;

/// The most action words (actions times 64-bit words of the state) for
/// which forward `h_max` with one action cost scans levels over bitsets
/// ([`Layers`]) rather than counting preconditions. A level is a pass over
/// every action and each word of its bitsets, so counting wins on large,
/// wide tasks; measured crossover (`BENCHMARKS.md`): levels faster on
/// miconic with 1,600 actions of two words and on depot with 588 of three,
/// even on depot with 852 of four, slower on freecell with 3,318 of three.
const LAYERS_MAX_WORDS: usize = 4096;

/// The largest action cost for which `h_max` uses a ring of buckets.
const MAX_RING: u64 = 4096;

/// The priority queue of `(cost, literal)` of a Dijkstra exploration.
///
/// For `h_max` every new cost lies within the largest action cost of the
/// cost being settled, so a ring of `largest + 1` buckets (Dial's algorithm)
/// replaces the binary heap; sums (`h_add`, `h_FF`) use the heap.
#[derive(Clone, Debug)]
enum Queue {
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
    Ring {
        buckets: Vec<Vec<u32>>,
        current: u64,
        len: usize,
    },
}

impl Queue {
    fn clear(&mut self) {
        match self {
            Queue::Heap(heap) => heap.clear(),
            Queue::Ring {
                buckets,
                current,
                len,
            } => {
                if *len > 0 {
                    buckets.iter_mut().for_each(Vec::clear);
                }
                *current = 0;
                *len = 0;
            }
        }
    }

    #[inline]
    fn push(&mut self, cost: u64, literal: u32) {
        match self {
            Queue::Heap(heap) => heap.push(Reverse((cost, literal))),
            Queue::Ring { buckets, len, .. } => {
                #[expect(clippy::cast_possible_truncation, reason = "below the ring size")]
                let slot = (cost % buckets.len() as u64) as usize;
                buckets[slot].push(literal);
                *len += 1;
            }
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Queue::Heap(heap) => heap.pop().map(|Reverse(entry)| entry),
            Queue::Ring {
                buckets,
                current,
                len,
            } => {
                if *len == 0 {
                    return None;
                }
                loop {
                    #[expect(clippy::cast_possible_truncation, reason = "below the ring size")]
                    let slot = (*current % buckets.len() as u64) as usize;
                    if let Some(literal) = buckets[slot].pop() {
                        *len -= 1;
                        return Some((*current, literal));
                    }
                    *current += 1;
                }
            }
        }
    }
}

const INF: u64 = u64::MAX;

/// The relaxed task and the scratch buffers of one exploration.
#[derive(Clone, Debug)]
struct Relaxation<B: Bits> {
    atoms: usize,
    kind: RelaxedKind,
    cost: Vec<u64>,
    /// `Some(c)` for `h_max` when every action costs `c`: explore breadth-first.
    uniform: Option<u64>,
    pre_start: Vec<u32>,
    pre: Vec<u32>,
    /// Effect literals, without those that are neither preconditions nor
    /// targets: nothing reads their cost.
    eff_start: Vec<u32>,
    eff: Vec<u32>,
    /// Literal -> actions that have it as a precondition (CSR).
    users_start: Vec<u32>,
    users: Vec<u32>,
    no_pre: Vec<u32>,
    /// Each action's number of preconditions, copied into `waiting`.
    pre_count: Vec<u32>,
    /// Atoms whose true (false) literal is tracked: the seeds of a state.
    seed_true: B,
    seed_false: B,
    /// Literals whose settling ends the exploration once all are settled.
    is_target: Vec<bool>,
    targets: usize,
    // Scratch.
    lit_cost: Vec<u64>,
    settled: Vec<bool>,
    supporter: Vec<u32>,
    waiting: Vec<u32>,
    acc: Vec<u64>,
    queue: Queue,
    /// The breadth-first exploration's FIFO queue (every literal enters once), and
    /// the seed list of a Dijkstra exploration.
    fifo: Vec<u32>,
    marked: Vec<bool>,
    marked_list: Vec<u32>,
    stack: Vec<u32>,
}

fn literals<B: Bits>(p: &PartialState<B>, atoms: usize, out: &mut Vec<u32>) {
    p.care().for_each_one(|i| {
        if i < atoms {
            #[expect(clippy::cast_possible_truncation, reason = "atoms fit in u32")]
            out.push((2 * i + usize::from(p.values().get(i))) as u32);
        }
    });
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<B: Bits> Relaxation<B> {
    /// The relaxation of `actions`. With `targets`, only preconditions and
    /// `targets` are tracked and an exploration stops once every target is
    /// settled; without, every literal is tracked and explored to the end.
    fn new(actions: &ActionSet<B>, kind: RelaxedKind, targets: Option<&[u32]>) -> Self {
        let atoms = actions.registry().len();
        let lits = 2 * atoms;
        let n = actions.len();
        let mut pre_start = vec![0];
        let mut pre = Vec::new();
        let mut no_pre = Vec::new();
        let mut cost = Vec::with_capacity(n);
        let mut users_lists = vec![Vec::new(); lits];
        for (a, action) in actions.iter().enumerate() {
            let before = pre.len();
            literals(&action.pre, atoms, &mut pre);
            for &l in &pre[before..] {
                users_lists[l as usize].push(to_u32(a));
            }
            if pre.len() == before {
                no_pre.push(to_u32(a));
            }
            pre_start.push(to_u32(pre.len()));
            cost.push(u64::from(action.cost));
        }
        let mut is_target = vec![false; lits];
        let mut tracked = vec![targets.is_none(); lits];
        for &l in targets.unwrap_or_default() {
            is_target[l as usize] = true;
            tracked[l as usize] = true;
        }
        for &l in &pre {
            tracked[l as usize] = true;
        }
        let mut eff_start = vec![0];
        let mut eff = Vec::new();
        let mut scratch = Vec::new();
        for action in actions.iter() {
            scratch.clear();
            literals(&action.eff, atoms, &mut scratch);
            eff.extend(scratch.iter().filter(|&&l| tracked[l as usize]));
            eff_start.push(to_u32(eff.len()));
        }
        let (mut seed_true, mut seed_false) = (B::zero(), B::zero());
        for atom in 0..atoms {
            if tracked[2 * atom + 1] {
                seed_true = seed_true | B::bit(atom);
            }
            if tracked[2 * atom] {
                seed_false = seed_false | B::bit(atom);
            }
        }
        let mut users_start = vec![0];
        let mut users = Vec::new();
        for list in users_lists {
            users.extend(list);
            users_start.push(to_u32(users.len()));
        }
        let pre_count = pre_start.windows(2).map(|w| w[1] - w[0]).collect();
        let largest = cost.iter().copied().max().unwrap_or(0);
        let uniform =
            (kind == RelaxedKind::Max && cost.iter().all(|&c| c == largest)).then_some(largest);
        let queue = if kind == RelaxedKind::Max && largest < MAX_RING {
            #[expect(clippy::cast_possible_truncation, reason = "below MAX_RING")]
            let size = largest as usize + 1;
            Queue::Ring {
                buckets: vec![Vec::new(); size],
                current: 0,
                len: 0,
            }
        } else {
            Queue::Heap(BinaryHeap::new())
        };
        Self {
            atoms,
            kind,
            cost,
            uniform,
            pre_start,
            pre,
            eff_start,
            eff,
            users_start,
            users,
            no_pre,
            pre_count,
            seed_true,
            seed_false,
            targets: is_target.iter().filter(|&&t| t).count(),
            is_target,
            lit_cost: vec![INF; lits],
            settled: vec![false; lits],
            supporter: vec![NONE; lits],
            waiting: vec![0; n],
            acc: vec![0; n],
            queue,
            fifo: Vec::with_capacity(lits),
            marked: vec![false; n],
            marked_list: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Explores from `state`: every tracked literal gets its cost, or (with
    /// targets) at least every target does, or the targets are unreachable.
    fn explore(&mut self, state: B) {
        match self.uniform {
            Some(action_cost) => self.explore_breadth_first(state, action_cost),
            None => self.explore_dijkstra(state),
        }
    }

    /// Puts the tracked literals `state` holds into `fifo` at cost 0;
    /// returns how many targets they leave unreached.
    fn seed(&mut self, state: B) -> usize {
        self.fifo.clear();
        let mut left = self.targets;
        let (fifo, lit_cost, is_target) = (&mut self.fifo, &mut self.lit_cost, &self.is_target);
        let mut add = |l: usize| {
            fifo.push(to_u32(l));
            lit_cost[l] = 0;
            left -= usize::from(is_target[l]);
        };
        (state & self.seed_true).for_each_one(|atom| add(2 * atom + 1));
        (!state & self.seed_false).for_each_one(|atom| add(2 * atom));
        left
    }

    /// `h_max` with every action costing `action_cost`: breadth-first, so
    /// costs leave the FIFO queue in order and a literal's first cost is its
    /// cheapest. The exploration stops when the last target is reached,
    /// before the rest of its layer.
    fn explore_breadth_first(&mut self, state: B, action_cost: u64) {
        self.lit_cost.fill(INF);
        self.waiting.copy_from_slice(&self.pre_count);
        let mut left = self.seed(state);
        let stop = self.targets > 0;
        if stop && left == 0 {
            return;
        }
        // Actions without preconditions fire before any literal is popped.
        let mut reached = |lit_cost: &mut Vec<u64>, fifo: &mut Vec<u32>, e: u32, t: u64| -> bool {
            let e = e as usize;
            if lit_cost[e] != INF {
                return false;
            }
            lit_cost[e] = t;
            fifo.push(to_u32(e));
            if self.is_target[e] {
                left -= 1;
                return stop && left == 0;
            }
            false
        };
        for &a in &self.no_pre {
            let a = a as usize;
            for &e in &self.eff[self.eff_start[a] as usize..self.eff_start[a + 1] as usize] {
                if reached(&mut self.lit_cost, &mut self.fifo, e, action_cost) {
                    return;
                }
            }
        }
        let mut head = 0;
        while head < self.fifo.len() {
            let l = self.fifo[head] as usize;
            head += 1;
            let t = self.lit_cost[l].saturating_add(action_cost);
            for &a in &self.users[self.users_start[l] as usize..self.users_start[l + 1] as usize] {
                let a = a as usize;
                self.waiting[a] -= 1;
                if self.waiting[a] == 0 {
                    for &e in &self.eff[self.eff_start[a] as usize..self.eff_start[a + 1] as usize]
                    {
                        if reached(&mut self.lit_cost, &mut self.fifo, e, t) {
                            return;
                        }
                    }
                }
            }
        }
    }

    fn fire(&mut self, a: usize, at: u64) {
        let t = at.saturating_add(self.cost[a]);
        for k in self.eff_start[a] as usize..self.eff_start[a + 1] as usize {
            let e = self.eff[k] as usize;
            if t < self.lit_cost[e] {
                self.lit_cost[e] = t;
                self.supporter[e] = to_u32(a);
                self.queue.push(t, to_u32(e));
            }
        }
    }

    /// Settles literal `l` at cost `c`; fires the actions it completes.
    fn settle(&mut self, l: usize, c: u64) {
        self.settled[l] = true;
        for k in self.users_start[l] as usize..self.users_start[l + 1] as usize {
            let a = self.users[k] as usize;
            self.acc[a] = match self.kind {
                RelaxedKind::Max => self.acc[a].max(c),
                RelaxedKind::Add | RelaxedKind::Ff => self.acc[a].saturating_add(c),
            };
            self.waiting[a] -= 1;
            if self.waiting[a] == 0 {
                self.fire(a, self.acc[a]);
            }
        }
    }

    /// Generalized Dijkstra over the tracked literals; stops once every
    /// target is settled.
    fn explore_dijkstra(&mut self, state: B) {
        self.lit_cost.fill(INF);
        self.settled.fill(false);
        if self.kind == RelaxedKind::Ff {
            self.supporter.fill(NONE);
        }
        self.acc.fill(0);
        self.waiting.copy_from_slice(&self.pre_count);
        self.queue.clear();
        let mut left = self.seed(state);
        let stop = self.targets > 0;
        if stop && left == 0 {
            return;
        }
        for k in 0..self.fifo.len() {
            let l = self.fifo[k] as usize;
            self.settle(l, 0);
        }
        for k in 0..self.no_pre.len() {
            let a = self.no_pre[k] as usize;
            self.fire(a, 0);
        }
        while let Some((c, l)) = self.queue.pop() {
            let l = l as usize;
            if self.settled[l] || c > self.lit_cost[l] {
                continue;
            }
            self.settle(l, c);
            if self.is_target[l] {
                left -= 1;
                if stop && left == 0 {
                    return;
                }
            }
        }
    }

    /// The heuristic value of the goal literals `goal` after an exploration.
    fn value(&mut self, goal: &[u32]) -> Estimate<u32> {
        let mut total: u64 = 0;
        for &l in goal {
            let c = self.lit_cost[l as usize];
            if c == INF {
                return Estimate::DeadEnd;
            }
            total = match self.kind {
                RelaxedKind::Max => total.max(c),
                RelaxedKind::Add => total.saturating_add(c),
                RelaxedKind::Ff => 0,
            };
        }
        if self.kind == RelaxedKind::Ff {
            total = self.relaxed_plan_cost(goal);
        }
        Estimate::Value(u32::try_from(total).unwrap_or(u32::MAX))
    }

    /// The cost of the relaxed plan that follows best supporters back from
    /// `goal`; literals true at the start have no supporter.
    fn relaxed_plan_cost(&mut self, goal: &[u32]) -> u64 {
        let mut total: u64 = 0;
        self.stack.clear();
        self.stack.extend_from_slice(goal);
        while let Some(l) = self.stack.pop() {
            let a = self.supporter[l as usize];
            if a == NONE || self.marked[a as usize] {
                continue;
            }
            let a = a as usize;
            self.marked[a] = true;
            self.marked_list.push(to_u32(a));
            total = total.saturating_add(self.cost[a]);
            for k in self.pre_start[a] as usize..self.pre_start[a + 1] as usize {
                let p = self.pre[k];
                self.stack.push(p);
            }
        }
        for &a in &self.marked_list {
            self.marked[a as usize] = false;
        }
        self.marked_list.clear();
        total
    }
}

/// `h_max` with one cost for every action, as levels of the relaxed
/// planning graph over bitsets: level `k + 1` holds level `k` and the
/// effects of every action whose preconditions level `k` holds, and `h_max`
/// is the cost times the first level that holds the goal. Each level is one
/// pass of an `and` and a compare per action over a dense array, without the
/// per-literal bookkeeping of the counting exploration; it wins where
/// actions are few and states narrow (see `BENCHMARKS.md`).
#[derive(Clone, Debug)]
struct Layers<B: Bits> {
    /// `(pre, add)` of each action with an effect that matters, where no
    /// precondition or goal asks for a false atom (STRIPS).
    positive: Vec<(B, B)>,
    /// `(pre_true, pre_false, add_true, add_false)` otherwise.
    general: Vec<(B, B, B, B)>,
    goal_true: B,
    goal_false: B,
    atoms: B,
    step: u64,
}

impl<B: Bits> Layers<B> {
    /// The levels of `actions` towards `goal`, if every action costs the
    /// same.
    fn new(actions: &ActionSet<B>, goal: &PartialState<B>) -> Option<Self> {
        let step = actions.iter().next().map_or(0, |a| a.cost);
        if actions.iter().any(|a| a.cost != step) {
            return None;
        }
        let atoms = B::low(actions.registry().len());
        let trues = |p: &PartialState<B>| p.care() & p.values() & atoms;
        let falses = |p: &PartialState<B>| p.care() & !p.values() & atoms;
        let (goal_true, goal_false) = (trues(goal), falses(goal));
        // A false literal matters only if something asks for it.
        let mut asks_false = goal_false;
        for a in actions.iter() {
            asks_false = asks_false | falses(&a.pre);
        }
        let mut positive = Vec::new();
        let mut general = Vec::new();
        for a in actions.iter() {
            let (add_true, add_false) = (trues(&a.eff), falses(&a.eff) & asks_false);
            if asks_false.is_zero() {
                if !add_true.is_zero() {
                    positive.push((trues(&a.pre), add_true));
                }
            } else if !(add_true | add_false).is_zero() {
                general.push((trues(&a.pre), falses(&a.pre), add_true, add_false));
            }
        }
        Some(Self {
            positive,
            general,
            goal_true,
            goal_false,
            atoms,
            step: u64::from(step),
        })
    }

    /// `h_max` of the goal from `state`.
    fn estimate(&self, state: B) -> Estimate<u32> {
        let mut level: u64 = 0;
        let (mut t, mut f) = (state, !state & self.atoms);
        loop {
            if (self.goal_true & !t).is_zero() && (self.goal_false & !f).is_zero() {
                let h = level.saturating_mul(self.step);
                return Estimate::Value(u32::try_from(h).unwrap_or(u32::MAX));
            }
            // The next level is built from this one alone (not updated in
            // place), or an action could use an effect of its own level.
            let (not_t, not_f) = (!t, !f);
            let (mut next_t, mut next_f) = (t, f);
            for &(pre, add) in &self.positive {
                if (pre & not_t).is_zero() {
                    next_t = next_t | add;
                }
            }
            for &(pre_t, pre_f, add_t, add_f) in &self.general {
                if (pre_t & not_t).is_zero() && (pre_f & not_f).is_zero() {
                    next_t = next_t | add_t;
                    next_f = next_f | add_f;
                }
            }
            if next_t == t && next_f == f {
                return Estimate::DeadEnd;
            }
            (t, f) = (next_t, next_f);
            level += 1;
        }
    }
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
        let words = actions.len().saturating_mul(B::CAPACITY / 64);
        let layers = (kind == RelaxedKind::Max && words <= LAYERS_MAX_WORDS)
            .then(|| Layers::new(actions, &goal))
            .flatten();
        Self {
            relaxation,
            layers,
            goal,
            goal_lits,
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
        let outside = self.goal.care() & !B::low(self.relaxation.atoms);
        if !((state.bits() ^ self.goal.values()) & outside).is_zero() {
            return Estimate::DeadEnd;
        }
        if self.goal_lits.is_empty() {
            // Nothing to reach: an exploration without targets would run
            // to the end for nothing.
            return Estimate::Value(0);
        }
        if let Some(layers) = &self.layers {
            return layers.estimate(state.bits());
        }
        self.relaxation.explore(state.bits());
        self.relaxation.value(&self.goal_lits)
    }
    fn is_admissible(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
    fn is_consistent(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
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
        relaxation.explore(start.bits());
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
        let outside = subgoal.care() & !B::low(self.relaxation.atoms);
        if !((self.start.bits() ^ subgoal.values()) & outside).is_zero() {
            return Estimate::DeadEnd;
        }
        let r = &self.relaxation;
        match r.kind {
            RelaxedKind::Max | RelaxedKind::Add => {
                let mut total: u64 = 0;
                let mut dead = false;
                subgoal.care().for_each_one(|i| {
                    if i < r.atoms {
                        let c = r.lit_cost[2 * i + usize::from(subgoal.values().get(i))];
                        if c == INF {
                            dead = true;
                        } else if r.kind == RelaxedKind::Max {
                            total = total.max(c);
                        } else {
                            total = total.saturating_add(c);
                        }
                    }
                });
                if dead {
                    Estimate::DeadEnd
                } else {
                    Estimate::Value(u32::try_from(total).unwrap_or(u32::MAX))
                }
            }
            RelaxedKind::Ff => {
                let mut lits = std::mem::take(&mut self.lits);
                lits.clear();
                literals(subgoal, self.relaxation.atoms, &mut lits);
                let value = self.relaxation.value(&lits);
                self.lits = lits;
                value
            }
        }
    }
    fn is_admissible(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
    fn is_consistent(&self) -> bool {
        self.relaxation.kind == RelaxedKind::Max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Wide;

    /// xorshift64: reproducible random tasks without a dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            #[expect(clippy::cast_possible_truncation, reason = "below n")]
            let r = (self.0 % n as u64) as usize;
            r
        }

        fn bits(&mut self, atoms: usize) -> Wide<2> {
            let mut b = Wide::<2>::zero();
            for i in 0..atoms {
                if self.below(2) == 1 {
                    b = b | Wide::<2>::bit(i);
                }
            }
            b
        }

        /// Up to `max` literals on distinct atoms; only true ones if `strips`.
        fn partial(&mut self, atoms: usize, max: usize, strips: bool) -> Vec<(String, bool)> {
            let mut used = Vec::new();
            let mut out = Vec::new();
            for _ in 0..self.below(max + 1) {
                let atom = self.below(atoms);
                if !used.contains(&atom) {
                    used.push(atom);
                    out.push((format!("a{atom}"), strips || self.below(2) == 1));
                }
            }
            out
        }
    }

    /// On random tasks with one action cost, the bitset levels, the
    /// breadth-first count and Dijkstra give the same `h_max` (the public
    /// heuristics choose among them by size, so a property test of
    /// `RelaxedForward` alone would not reach all three).
    #[test]
    fn levels_breadth_first_and_dijkstra_agree() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let atoms = 1 + rng.below(100);
            let strips = round % 2 == 0;
            let cost = u32::try_from(rng.below(4)).unwrap_or(1);
            let mut actions = ActionSet::<Wide<2>>::new();
            for i in 0..atoms {
                actions.declare(&format!("a{i}")).unwrap();
            }
            for k in 0..rng.below(60) {
                let pre = rng.partial(atoms.min(12), 3, strips);
                let eff = rng.partial(atoms.min(12), 3, false);
                let mut b = actions.add_action(&format!("act{k}"), cost);
                for (name, value) in &pre {
                    b.pre(name, *value);
                }
                for (name, value) in &eff {
                    b.eff(name, *value);
                }
            }
            actions.check().unwrap();
            let goal_spec = rng.partial(atoms.min(12), 4, strips);
            let goal = actions
                .partial(goal_spec.iter().map(|(n, v)| (n.as_str(), *v)))
                .unwrap();
            let mut goal_lits = Vec::new();
            literals(&goal, atoms, &mut goal_lits);
            if goal_lits.is_empty() {
                continue;
            }
            let layers = Layers::new(&actions, &goal).unwrap();
            let mut breadth_first = Relaxation::new(&actions, RelaxedKind::Max, Some(&goal_lits));
            assert!(breadth_first.uniform.is_some());
            let mut dijkstra = breadth_first.clone();
            dijkstra.uniform = None;
            for _ in 0..5 {
                let state = rng.bits(atoms);
                breadth_first.explore(state);
                dijkstra.explore(state);
                let h = layers.estimate(state);
                assert_eq!(breadth_first.value(&goal_lits), h, "round {round}");
                assert_eq!(dijkstra.value(&goal_lits), h, "round {round}");
            }
        }
    }
}
