//! The relaxed exploration the three heuristics share: the task compiled to
//! literals, seeded from a state, and a generalized Dijkstra that gives each
//! literal its relaxed cost. Each action fires once its last precondition
//! literal is settled, at its preconditions' costs combined by the rule of
//! the heuristic (`hmax::combine`, `hadd::combine`), which makes the
//! costs exact for `h_max` and `h_add`.
//!
//! Only literals that matter are tracked: with targets (forward search),
//! every effect literal that is neither a precondition nor a target is
//! dropped (in STRIPS tasks, every delete effect), and the exploration stops
//! once the last target is settled.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use search_core::Estimate;

use super::hff::RelaxedPlan;
use super::hmax::Buckets;
use super::{hadd, hmax, RelaxedKind};
use crate::{ActionSet, Bits, PartialState};

/// No supporter: the literal holds in the state, or is not reached.
pub(super) const NONE: u32 = u32::MAX;

/// The cost of a literal not reached.
pub(super) const INF: u64 = u64::MAX;

/// The priority queue of `(cost, literal)` of a Dijkstra exploration: a
/// binary heap, or for `h_max` a ring of buckets (`hmax::Buckets`).
#[derive(Clone, Debug)]
enum Queue {
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
    Buckets(Buckets),
}

impl Queue {
    fn clear(&mut self) {
        match self {
            Queue::Heap(heap) => heap.clear(),
            Queue::Buckets(buckets) => buckets.clear(),
        }
    }

    #[inline]
    fn push(&mut self, cost: u64, literal: u32) {
        match self {
            Queue::Heap(heap) => heap.push(Reverse((cost, literal))),
            Queue::Buckets(buckets) => buckets.push(cost, literal),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Queue::Heap(heap) => heap.pop().map(|Reverse(entry)| entry),
            Queue::Buckets(buckets) => buckets.pop(),
        }
    }
}

/// The relaxed task and the scratch buffers of one exploration.
///
/// The fields are visible to the heuristics' modules, which explore
/// (`h_max`'s breadth-first exploration) and read back (`h_FF`'s relaxed
/// plan) over the same compiled task.
#[derive(Clone, Debug)]
pub(super) struct Relaxation<B: Bits> {
    pub(super) atoms: usize,
    pub(super) kind: RelaxedKind,
    /// The relaxed actions are the action set's
    /// [`relaxed_parts`](ActionSet::relaxed_parts): an action and each of
    /// its conditional effects. Their arrays below are by part; this gives
    /// each part's action.
    pub(super) action_of: Vec<u32>,
    pub(super) cost: Vec<u64>,
    /// `Some(c)` for `h_max` when every action costs `c`: explore breadth-first.
    pub(super) uniform: Option<u64>,
    pub(super) pre_start: Vec<u32>,
    pub(super) pre: Vec<u32>,
    /// Effect literals, without those that are neither preconditions nor
    /// targets: nothing reads their cost.
    pub(super) eff_start: Vec<u32>,
    pub(super) eff: Vec<u32>,
    /// Literal -> actions that have it as a precondition (CSR).
    pub(super) users_start: Vec<u32>,
    pub(super) users: Vec<u32>,
    pub(super) no_pre: Vec<u32>,
    /// Each action's number of preconditions, copied into `waiting`.
    pub(super) pre_count: Vec<u32>,
    /// Atoms whose true (false) literal is tracked: the seeds of a state.
    seed_true: B,
    seed_false: B,
    /// The task's atoms, as bits.
    pub(super) known: B,
    /// Literals whose settling ends the exploration once all are settled.
    pub(super) is_target: Vec<bool>,
    pub(super) targets: usize,
    // Scratch.
    pub(super) lit_cost: Vec<u64>,
    settled: Vec<bool>,
    pub(super) supporter: Vec<u32>,
    pub(super) waiting: Vec<u32>,
    acc: Vec<u64>,
    queue: Queue,
    /// The breadth-first exploration's FIFO queue (every literal enters once), and
    /// the seed list of a Dijkstra exploration.
    pub(super) fifo: Vec<u32>,
    /// `h_FF`'s scratch.
    pub(super) plan: RelaxedPlan,
}

impl<B: Bits> Relaxation<B> {
    /// The heap bytes of the compiled task and its scratch (the queue's
    /// aside: it holds at most one entry per literal).
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::vec_bytes;
        let u32s = [
            &self.pre_start,
            &self.pre,
            &self.eff_start,
            &self.eff,
            &self.users_start,
            &self.users,
            &self.no_pre,
            &self.pre_count,
            &self.supporter,
            &self.waiting,
            &self.fifo,
        ];
        let u64s = [&self.cost, &self.lit_cost, &self.acc];
        u32s.into_iter().map(vec_bytes).sum::<usize>()
            + u64s.into_iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.is_target)
            + vec_bytes(&self.settled)
            + self.plan.heap_bytes()
            + self.seed_true.heap_bytes()
            + self.seed_false.heap_bytes()
            + self.known.heap_bytes()
    }
}

/// Appends the literals of `p` on the first `atoms` atoms to `out`
/// (`2 * atom + value`; LM-cut compiles its task the same way).
pub(crate) fn literals<B: Bits>(p: &PartialState<B>, atoms: usize, out: &mut Vec<u32>) {
    p.as_care().for_each_one(|i| {
        if i < atoms {
            #[expect(clippy::cast_possible_truncation, reason = "atoms fit in u32")]
            out.push((2 * i + usize::from(p.as_values().get(i))) as u32);
        }
    });
}

/// An index as `u32` (indices are below `2 * atoms` or the action count).
pub(super) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<B: Bits> Relaxation<B> {
    /// The relaxation of `actions`. With `targets`, only preconditions and
    /// `targets` are tracked and an exploration stops once every target is
    /// settled; without, every literal is tracked and explored to the end.
    pub(super) fn new(actions: &ActionSet<B>, kind: RelaxedKind, targets: Option<&[u32]>) -> Self {
        let atoms = actions.registry().len();
        let lits = 2 * atoms;
        let mut pre_start = vec![0];
        let mut pre = Vec::new();
        let mut no_pre = Vec::new();
        let mut cost = Vec::with_capacity(actions.len());
        let mut action_of = Vec::with_capacity(actions.len());
        let mut users_lists = vec![Vec::new(); lits];
        for (a, part) in actions.relaxed_parts().enumerate() {
            let before = pre.len();
            literals(&part.pre, atoms, &mut pre);
            for &l in &pre[before..] {
                users_lists[l as usize].push(to_u32(a));
            }
            if pre.len() == before {
                no_pre.push(to_u32(a));
            }
            pre_start.push(to_u32(pre.len()));
            cost.push(u64::from(actions.least_cost(part.action)));
            action_of.push(to_u32(part.action));
        }
        let n = action_of.len();
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
        for part in actions.relaxed_parts() {
            scratch.clear();
            literals(part.eff, atoms, &mut scratch);
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
        let buckets = (kind == RelaxedKind::Max)
            .then(|| Buckets::new(largest))
            .flatten();
        let queue = buckets.map_or_else(|| Queue::Heap(BinaryHeap::new()), Queue::Buckets);
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
            known: B::low(atoms),
            targets: is_target.iter().filter(|&&t| t).count(),
            is_target,
            lit_cost: vec![INF; lits],
            settled: vec![false; lits],
            supporter: vec![NONE; lits],
            waiting: vec![0; n],
            acc: vec![0; n],
            queue,
            fifo: Vec::with_capacity(lits),
            plan: RelaxedPlan::new(n, actions.len()),
            action_of,
        }
    }

    /// Makes `lits` the targets an exploration stops at once all are
    /// settled (none: explore every tracked literal). Each must be tracked:
    /// a precondition's, or a target's when the relaxation was made.
    pub(super) fn aim(&mut self, lits: &[u32]) {
        self.is_target.fill(false);
        for &l in lits {
            self.is_target[l as usize] = true;
        }
        self.targets = self.is_target.iter().filter(|&&t| t).count();
    }

    /// Explores from `state`: every tracked literal gets its cost, or (with
    /// targets) at least every target does, or the targets are unreachable.
    pub(super) fn explore(&mut self, state: &B) {
        match self.uniform {
            Some(action_cost) => self.explore_breadth_first(state, action_cost),
            None => self.explore_dijkstra(state),
        }
    }

    /// Puts the tracked literals `state` holds into `fifo` at cost 0;
    /// returns how many targets they leave unreached.
    pub(super) fn seed(&mut self, state: &B) -> usize {
        self.fifo.clear();
        let mut left = self.targets;
        let (fifo, lit_cost, is_target) = (&mut self.fifo, &mut self.lit_cost, &self.is_target);
        let mut add = |l: usize| {
            fifo.push(to_u32(l));
            lit_cost[l] = 0;
            left -= usize::from(is_target[l]);
        };
        (state.clone() & &self.seed_true).for_each_one(|atom| add(2 * atom + 1));
        (!state.clone() & &self.seed_false).for_each_one(|atom| add(2 * atom));
        left
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
            // `h_FF` takes `h_add`'s best supporters, so it sums too.
            self.acc[a] = match self.kind {
                RelaxedKind::Max => hmax::combine(self.acc[a], c),
                RelaxedKind::Add | RelaxedKind::Ff => hadd::combine(self.acc[a], c),
            };
            self.waiting[a] -= 1;
            if self.waiting[a] == 0 {
                self.fire(a, self.acc[a]);
            }
        }
    }

    /// Generalized Dijkstra over the tracked literals; stops once every
    /// target is settled.
    fn explore_dijkstra(&mut self, state: &B) {
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
    pub(super) fn value(&mut self, goal: &[u32]) -> Estimate<u32> {
        let mut total: u64 = 0;
        for &l in goal {
            let c = self.lit_cost[l as usize];
            if c == INF {
                return Estimate::DeadEnd;
            }
            total = match self.kind {
                RelaxedKind::Max => hmax::combine(total, c),
                RelaxedKind::Add => hadd::combine(total, c),
                RelaxedKind::Ff => 0,
            };
        }
        if self.kind == RelaxedKind::Ff {
            total = self.relaxed_plan_cost(goal);
        }
        Estimate::Value(u32::try_from(total).unwrap_or(u32::MAX))
    }
}
