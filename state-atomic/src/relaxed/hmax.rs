//! `h_max`: the costliest goal literal, each literal costing its cheapest
//! achiever plus its costliest precondition. Admissible and consistent.
//!
//! Besides the combination rule, what is here is how `h_max` is computed
//! faster than by the shared Dijkstra. With one cost for every action
//! (PDDL's unit costs) it needs no priority queue: it is the first level of
//! the relaxed planning graph that holds the goal, computed over bitsets
//! ([`Layers`], forward only: regression explores once, from the start) on
//! tasks with few actions and narrow states, and breadth-first (a FIFO
//! queue, where a literal's first cost is final) on larger ones. With other
//! costs, Dijkstra's queue is a ring of buckets ([`Buckets`]).

use search_core::Estimate;

use super::costs::{to_u32, Relaxation, INF};
use crate::{ActionSet, Bits, PartialState};

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

/// An action's (or the goal's) cost so far with one more literal at cost
/// `c`: the costliest.
#[inline]
pub(super) fn combine(acc: u64, c: u64) -> u64 {
    acc.max(c)
}

/// Dijkstra's priority queue for `h_max`: every new cost lies within the
/// largest action cost of the cost being settled, so a ring of
/// `largest + 1` buckets (Dial's algorithm) replaces the binary heap that
/// sums (`h_add`, `h_FF`) need.
#[derive(Clone, Debug)]
pub(super) struct Buckets {
    /// Bucket `cost % slots.len()` holds the literals queued at `cost`.
    slots: Vec<Vec<u32>>,
    /// The cost of the bucket `pop` takes from.
    current: u64,
    /// How many literals the ring holds.
    len: usize,
}

impl Buckets {
    /// A ring for action costs up to `largest`, if it is below [`MAX_RING`].
    pub(super) fn new(largest: u64) -> Option<Self> {
        if largest >= MAX_RING {
            return None;
        }
        #[expect(clippy::cast_possible_truncation, reason = "below MAX_RING")]
        let size = largest as usize + 1;
        Some(Self {
            slots: vec![Vec::new(); size],
            current: 0,
            len: 0,
        })
    }

    pub(super) fn clear(&mut self) {
        if self.len > 0 {
            self.slots.iter_mut().for_each(Vec::clear);
        }
        self.current = 0;
        self.len = 0;
    }

    #[inline]
    pub(super) fn push(&mut self, cost: u64, literal: u32) {
        #[expect(clippy::cast_possible_truncation, reason = "below the ring size")]
        let slot = (cost % self.slots.len() as u64) as usize;
        self.slots[slot].push(literal);
        self.len += 1;
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            #[expect(clippy::cast_possible_truncation, reason = "below the ring size")]
            let slot = (self.current % self.slots.len() as u64) as usize;
            if let Some(literal) = self.slots[slot].pop() {
                self.len -= 1;
                return Some((self.current, literal));
            }
            self.current += 1;
        }
    }
}

impl<B: Bits> Relaxation<B> {
    /// `h_max` with every action costing `action_cost`: breadth-first, so
    /// costs leave the FIFO queue in order and a literal's first cost is its
    /// cheapest. The exploration stops when the last target is reached,
    /// before the rest of its layer.
    pub(super) fn explore_breadth_first(&mut self, state: &B, action_cost: u64) {
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
}

/// `h_max` with one cost for every action, as levels of the relaxed
/// planning graph over bitsets: level `k + 1` holds level `k` and the
/// effects of every action whose preconditions level `k` holds, and `h_max`
/// is the cost times the first level that holds the goal. Each level is one
/// pass of an `and` and a compare per action over a dense array, without the
/// per-literal bookkeeping of the counting exploration; it wins where
/// actions are few and states narrow (see `BENCHMARKS.md`).
#[derive(Clone, Debug)]
pub(super) struct Layers<B: Bits> {
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
    pub(super) fn heap_bytes(&self) -> usize {
        crate::vec_bytes(&self.positive) + crate::vec_bytes(&self.general)
    }

    /// The levels of `actions` towards `goal`, if every action costs the
    /// same and the task is small enough for levels to beat counting
    /// preconditions ([`LAYERS_MAX_WORDS`]).
    pub(super) fn when_faster(actions: &ActionSet<B>, goal: &PartialState<B>) -> Option<Self> {
        // Never on a `SparseBits` (whose capacity is unbounded).
        let words = actions.len().saturating_mul(B::CAPACITY / 64);
        if words > LAYERS_MAX_WORDS {
            return None;
        }
        Self::new(actions, goal)
    }

    /// The levels of `actions` towards `goal`, if every action costs the
    /// same.
    fn new(actions: &ActionSet<B>, goal: &PartialState<B>) -> Option<Self> {
        let step = if actions.is_empty() {
            0
        } else {
            actions.least_cost(0)
        };
        if (0..actions.len()).any(|i| actions.least_cost(i) != step) {
            return None;
        }
        let atoms = B::low(actions.registry().len());
        let trues = |p: &PartialState<B>| p.care() & p.as_values() & &atoms;
        let falses = |p: &PartialState<B>| p.care() & !p.values() & &atoms;
        let (goal_true, goal_false) = (trues(goal), falses(goal));
        // A false literal matters only if something asks for it.
        let mut asks_false = goal_false.clone();
        for a in actions.relaxed_parts() {
            asks_false = asks_false | falses(&a.pre);
        }
        let mut positive = Vec::new();
        let mut general = Vec::new();
        for a in actions.relaxed_parts() {
            let (add_true, add_false) = (trues(a.eff), falses(a.eff) & &asks_false);
            if asks_false.is_zero() {
                if !add_true.is_zero() {
                    positive.push((trues(&a.pre), add_true));
                }
            } else if !(add_true.clone() | &add_false).is_zero() {
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
    pub(super) fn estimate(&self, state: &B) -> Estimate<u32> {
        let mut level: u64 = 0;
        let (mut t, mut f) = (state.clone(), !state.clone() & &self.atoms);
        loop {
            let (not_t, not_f) = (!t.clone(), !f.clone());
            if (self.goal_true.clone() & &not_t).is_zero()
                && (self.goal_false.clone() & &not_f).is_zero()
            {
                let h = level.saturating_mul(self.step);
                return Estimate::Value(u32::try_from(h).unwrap_or(u32::MAX));
            }
            // The next level is built from this one alone (not updated in
            // place), or an action could use an effect of its own level.
            let (mut next_t, mut next_f) = (t.clone(), f.clone());
            for (pre, add) in &self.positive {
                if (pre.clone() & &not_t).is_zero() {
                    next_t = next_t | add;
                }
            }
            for (pre_t, pre_f, add_t, add_f) in &self.general {
                if (pre_t.clone() & &not_t).is_zero() && (pre_f.clone() & &not_f).is_zero() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relaxed::costs::literals;
    use crate::RelaxedKind;
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
                breadth_first.explore(&state);
                dijkstra.explore(&state);
                let h = layers.estimate(&state);
                assert_eq!(breadth_first.value(&goal_lits), h, "round {round}");
                assert_eq!(dijkstra.value(&goal_lits), h, "round {round}");
            }
        }
    }
}
