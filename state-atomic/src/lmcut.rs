//! LM-cut (Helmert and Domshlak 2009), as Fast Downward computes it.
//!
//! Each round computes `h_max` over the delete relaxation, keeping for each
//! action its `h_max` supporter (a costliest precondition). The goal zone is
//! the artificial goal and what reaches it through zero-cost actions'
//! supporters, where a zero-cost action's supporter is re-chosen, among its
//! costliest preconditions, to be one already in the zone or else on its
//! border, as Fast Downward's default does (`goal_zone_detection`,
//! `border_detection`; actions whose cost earlier rounds used up are
//! zero-cost too, so this matters on unit-cost tasks: freecell task03's
//! initial value is 17 with it, 6 without). The cut is every action whose
//! supporter is reachable from the state without crossing the goal zone and
//! which adds a goal-zone literal.
//! The cut's cheapest cost is a landmark's cost: it is added to the value and
//! taken off every action of the cut, and `h_max` is updated for the
//! cheaper actions only. The rounds end when `h_max` of the goal is 0.
//!
//! Facts are literals, `2 * atom + value`, as in the relaxed heuristics
//! (`relaxed/`), so preconditions and goals may ask for false atoms. Two
//! artificial literals follow them: a precondition that every state holds,
//! given to actions without preconditions so that every action has a
//! supporter, and the goal, added by a zero-cost action whose preconditions
//! are the goal literals.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use search_core::{Estimate, Heuristic};

use crate::relaxed::literals;
use crate::{ActionSet, Bits, PartialState, WorldState};

/// The `h_max` of a literal not reached.
const UNREACHED: u64 = u64::MAX;

/// No supporter: the action is not reached.
const NONE: u32 = u32::MAX;

/// The largest `h_max` bound for which the queue is a list of buckets, one
/// per cost (Fast Downward's bucket queue); above it, a binary heap.
const MAX_BUCKETS: u64 = 1 << 14;

/// An index as `u32` (literals and actions are counted in `u32`).
fn to_u32(i: usize) -> u32 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "literals and actions fit in u32"
    )]
    let i = i as u32;
    i
}

/// Inverts per-action literal lists (`lists` cut by `starts`) into
/// per-literal action lists over `props` literals, as `(starts, actions)`.
fn by_literal(lists: &[u32], starts: &[u32], props: usize) -> (Vec<u32>, Vec<u32>) {
    let mut per_literal = vec![Vec::new(); props];
    for (op, range) in starts.windows(2).enumerate() {
        for &l in &lists[range[0] as usize..range[1] as usize] {
            per_literal[l as usize].push(to_u32(op));
        }
    }
    let mut start = vec![0];
    let mut flat = Vec::new();
    for list in per_literal {
        flat.extend(list);
        start.push(to_u32(flat.len()));
    }
    (start, flat)
}

/// The `(cost, literal)` queue of the `h_max` explorations. Buckets pop the
/// literal pushed last among the cheapest, as Fast Downward's do, so ties
/// between supporters break the same way where literals are ordered alike.
#[derive(Clone, Debug)]
enum Queue {
    Buckets {
        /// Bucket `c` holds the literals queued at cost `c`.
        slots: Vec<Vec<u32>>,
        /// No bucket below it holds a literal.
        current: usize,
        len: usize,
    },
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
}

impl Queue {
    /// Buckets if every cost pushed is at most `bound` and that is small.
    fn new(bound: u64) -> Self {
        if bound < MAX_BUCKETS {
            #[expect(clippy::cast_possible_truncation, reason = "below MAX_BUCKETS")]
            let size = bound as usize + 1;
            Queue::Buckets {
                slots: vec![Vec::new(); size],
                current: 0,
                len: 0,
            }
        } else {
            Queue::Heap(BinaryHeap::new())
        }
    }

    fn clear(&mut self) {
        match self {
            Queue::Buckets {
                slots,
                current,
                len,
            } => {
                if *len > 0 {
                    slots.iter_mut().for_each(Vec::clear);
                }
                *current = 0;
                *len = 0;
            }
            Queue::Heap(heap) => heap.clear(),
        }
    }

    fn push(&mut self, cost: u64, literal: u32) {
        match self {
            Queue::Buckets {
                slots,
                current,
                len,
            } => {
                #[expect(clippy::cast_possible_truncation, reason = "below the bucket count")]
                let c = cost as usize;
                // Explorations push no cost below the one popped last; this
                // keeps the queue right if one did.
                *current = (*current).min(c);
                slots[c].push(literal);
                *len += 1;
            }
            Queue::Heap(heap) => heap.push(Reverse((cost, literal))),
        }
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Queue::Buckets {
                slots,
                current,
                len,
            } => {
                if *len == 0 {
                    return None;
                }
                loop {
                    if let Some(literal) = slots[*current].pop() {
                        *len -= 1;
                        return Some((*current as u64, literal));
                    }
                    *current += 1;
                }
            }
            Queue::Heap(heap) => heap.pop().map(|Reverse(entry)| entry),
        }
    }
}

/// Every literal `action` may make true, into `out` (cleared first): a
/// conditional effect counts as unconditional, so the action achieves
/// more than it can and the cuts stay admissible.
fn effect_literals<B: Bits>(action: &crate::Action<B>, atoms: usize, out: &mut Vec<u32>) {
    out.clear();
    literals(&action.eff, atoms, out);
    for w in &action.when {
        literals(&w.effect, atoms, out);
    }
    if !action.when.is_empty() {
        out.sort_unstable();
        out.dedup();
    }
}

/// The LM-cut heuristic for [`ForwardSpace`](crate::ForwardSpace): the sum
/// of the costs of disjunctive action landmarks found by repeated cuts in
/// the `h_max` justification graph. Admissible, and at least `h_max`
/// ([`RelaxedForward::h_max`](crate::RelaxedForward::h_max)); not consistent
/// in general. A state from which the goal is relaxed unreachable is a dead
/// end.
///
/// Zero-cost actions are fine: they join the goal zone rather than a cut.
/// An action with conditional effects ([`ActionSet::add_when`](crate::ActionSet::add_when)) counts as
/// achieving every one of them whatever their conditions (Fast Downward's
/// LM-cut refuses such tasks): the relaxation gains plans, so the cuts stay
/// admissible, but inform less.
/// Atoms the registry does not know (bits beyond it) are compared with the
/// state directly: no action changes them. The buffers of the computation
/// are kept, so an estimate does not allocate.
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_atomic::{ActionSet, ForwardSpace, LmCut, RelaxedForward};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("get_a", 3).eff("a", true);
/// actions.add_action("get_b", 4).pre("busy", false).eff("b", true);
/// let goal = actions.partial([("a", true), ("b", true)]).unwrap();
/// let start = actions.state([]).unwrap();
/// // Both landmarks count: 3 + 4, where h_max sees only the costlier.
/// assert_eq!(LmCut::new(&actions, goal).estimate(&start), Estimate::Value(7));
/// assert_eq!(RelaxedForward::h_max(&actions, goal).estimate(&start), Estimate::Value(4));
/// let space = ForwardSpace::new(&actions, goal).unwrap();
/// let result = astar(&space, start, LmCut::new(&actions, goal)).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 7);
/// ```
#[derive(Clone, Debug)]
pub struct LmCut<B: Bits = u64> {
    /// The goal, for its atoms beyond the registry.
    goal: PartialState<B>,
    atoms: usize,
    /// Atoms whose true (false) literal some action or the goal asks for:
    /// a state's literals that matter.
    seed_true: B,
    seed_false: B,
    /// The task's atoms, as bits.
    known: B,
    /// Each action's cost; the last action is the artificial goal action.
    base_cost: Vec<u64>,
    pre_start: Vec<u32>,
    pre: Vec<u32>,
    /// Effect literals that something asks for; the others cannot matter.
    eff_start: Vec<u32>,
    eff: Vec<u32>,
    /// Literal -> actions that have it as a precondition (CSR).
    users_start: Vec<u32>,
    users: Vec<u32>,
    /// Literal -> actions that add it (CSR).
    achievers_start: Vec<u32>,
    achievers: Vec<u32>,
    /// Each action's number of preconditions, copied into `unsatisfied`.
    pre_count: Vec<u32>,
    /// `in_goal[l]`: literal `l` is a precondition of the artificial goal
    /// action, which `users` leaves out so that the goal can change (in
    /// regression, with every subgoal).
    in_goal: Vec<bool>,
    // Scratch, reused by every estimate.
    cost: Vec<u64>,
    unsatisfied: Vec<u32>,
    supporter: Vec<u32>,
    supporter_cost: Vec<u64>,
    h: Vec<u64>,
    /// `zone[l] == round`: literal `l` is in this round's goal zone.
    zone: Vec<u32>,
    /// `before[l] == round`: reached this round without the goal zone.
    before: Vec<u32>,
    round: u32,
    /// The search's deadline: past it, an estimate stops after its round
    /// with the cuts so far (still a lower bound).
    deadline: Option<Instant>,
    /// The literals the state holds that matter, and the artificial one.
    seeds: Vec<u32>,
    stack: Vec<u32>,
    /// The goal zone's depth-first walk: a literal and its next achiever.
    frames: Vec<(u32, u32)>,
    cut: Vec<u32>,
    queue: Queue,
}

impl<B: Bits> LmCut<B> {
    /// The heap bytes of the compiled task and its scratch (the queue's
    /// aside: at most one entry per literal).
    fn heap_bytes(&self) -> usize {
        use crate::vec_bytes;
        let u32s = [
            &self.pre_start,
            &self.pre,
            &self.eff_start,
            &self.eff,
            &self.users_start,
            &self.users,
            &self.achievers_start,
            &self.achievers,
            &self.pre_count,
            &self.unsatisfied,
            &self.supporter,
            &self.zone,
            &self.before,
            &self.seeds,
            &self.stack,
            &self.cut,
        ];
        let u64s = [&self.base_cost, &self.cost, &self.supporter_cost, &self.h];
        u32s.into_iter().map(vec_bytes).sum::<usize>()
            + u64s.into_iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.in_goal)
            + vec_bytes(&self.frames)
            + [&self.seed_true, &self.seed_false, &self.known]
                .into_iter()
                .map(Bits::heap_bytes)
                .sum::<usize>()
    }

    /// LM-cut towards `goal` for `actions`.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_atomic::{ActionSet, LmCut, WorldState};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let mut h = LmCut::new(&actions, goal);
    /// assert_eq!(h.estimate(&actions.state(["has_groceries"]).unwrap()), Estimate::Value(15));
    /// assert_eq!(h.estimate(&actions.state([]).unwrap()), Estimate::DeadEnd);
    /// assert!(Heuristic::<WorldState, u32>::is_admissible(&h));
    /// ```
    pub fn new(actions: &ActionSet<B>, goal: PartialState<B>) -> Self {
        Self::build(actions, goal, false)
    }

    /// The tables for `actions`, the goal action asking for `goal`; with
    /// `ask_all`, every literal is kept (a later goal may ask for any).
    fn build(actions: &ActionSet<B>, goal: PartialState<B>, ask_all: bool) -> Self {
        let atoms = actions.registry().len();
        let artificial_pre = 2 * atoms;
        let artificial_goal = 2 * atoms + 1;
        let props = 2 * atoms + 2;
        let mut goal_lits = Vec::new();
        literals(&goal, atoms, &mut goal_lits);
        // A literal matters if an action or the goal asks for it.
        let mut asked = vec![ask_all; props];
        let mut scratch = Vec::new();
        for action in actions.iter() {
            scratch.clear();
            literals(&action.pre, atoms, &mut scratch);
            for &l in &scratch {
                asked[l as usize] = true;
            }
        }
        for &l in &goal_lits {
            asked[l as usize] = true;
        }
        asked[artificial_goal] = true;

        let mut pre_start = vec![0];
        let mut pre = Vec::new();
        let mut eff_start = vec![0];
        let mut eff = Vec::new();
        let mut base_cost = Vec::new();
        let mut add = |pre_lits: &[u32], eff_lits: &[u32], cost: u32| {
            // An action without an effect that matters is left out.
            if !eff_lits.iter().any(|&l| asked[l as usize]) {
                return;
            }
            if pre_lits.is_empty() {
                pre.push(to_u32(artificial_pre));
            } else {
                pre.extend_from_slice(pre_lits);
            }
            pre_start.push(to_u32(pre.len()));
            eff.extend(eff_lits.iter().filter(|&&l| asked[l as usize]));
            eff_start.push(to_u32(eff.len()));
            base_cost.push(u64::from(cost));
        };
        let mut effects = Vec::new();
        for (i, action) in actions.iter().enumerate() {
            scratch.clear();
            literals(&action.pre, atoms, &mut scratch);
            effect_literals(action, atoms, &mut effects);
            add(&scratch, &effects, actions.least_cost(i));
        }
        add(&goal_lits, &[to_u32(artificial_goal)], 0);

        let ops = base_cost.len();
        // The goal action (the last) is found through `in_goal` instead.
        let (users_start, users) = by_literal(&pre, &pre_start[..ops], props);
        let (achievers_start, achievers) = by_literal(&eff, &eff_start, props);
        let (mut seed_true, mut seed_false) = (B::zero(), B::zero());
        for atom in 0..atoms {
            if asked[2 * atom + 1] {
                seed_true = seed_true | B::bit(atom);
            }
            if asked[2 * atom] {
                seed_false = seed_false | B::bit(atom);
            }
        }
        let pre_count = pre_start.windows(2).map(|w| w[1] - w[0]).collect();
        // An `h_max` sums the costs of distinct actions along a chain of
        // supporters, so no cost pushed exceeds the sum of the largest.
        let largest = base_cost.iter().copied().max().unwrap_or(0);
        let bound = largest.saturating_mul(ops as u64);
        let mut built = Self {
            goal,
            atoms,
            seed_true,
            seed_false,
            known: B::low(atoms),
            cost: base_cost.clone(),
            base_cost,
            pre_start,
            pre,
            eff_start,
            eff,
            users_start,
            users,
            achievers_start,
            achievers,
            pre_count,
            in_goal: vec![false; props],
            unsatisfied: vec![0; ops],
            supporter: vec![NONE; ops],
            supporter_cost: vec![UNREACHED; ops],
            h: vec![UNREACHED; props],
            zone: vec![0; props],
            before: vec![0; props],
            round: 0,
            deadline: None,
            seeds: Vec::with_capacity(props),
            stack: Vec::with_capacity(props),
            frames: Vec::new(),
            cut: Vec::with_capacity(ops),
            queue: Queue::new(bound),
        };
        built.mark_goal_literals(true);
        built
    }

    fn artificial_goal(&self) -> usize {
        2 * self.atoms + 1
    }

    /// The artificial goal action: the last.
    fn goal_action(&self) -> usize {
        self.base_cost.len() - 1
    }

    /// Sets (or clears) `in_goal` for the goal action's preconditions.
    fn mark_goal_literals(&mut self, value: bool) {
        let op = self.goal_action();
        for k in self.pre_start[op] as usize..self.pre_start[op + 1] as usize {
            self.in_goal[self.pre[k] as usize] = value;
        }
    }

    /// Whether every literal of `goal` (within the registry) is one this
    /// relaxation keeps.
    fn keeps(&self, goal: &PartialState<B>) -> bool {
        let inside = goal.care() & &self.known;
        let wants_true = inside.clone() & goal.as_values();
        let wants_false = inside & !goal.values();
        (wants_true & !self.seed_true.clone()).is_zero()
            && (wants_false & !self.seed_false.clone()).is_zero()
    }

    /// Makes the goal action ask for `goal` instead.
    fn set_goal(&mut self, goal: &PartialState<B>) {
        self.mark_goal_literals(false);
        let op = self.goal_action();
        self.pre.truncate(self.pre_start[op] as usize);
        literals(goal, self.atoms, &mut self.pre);
        if self.pre.len() == self.pre_start[op] as usize {
            self.pre.push(to_u32(2 * self.atoms));
        }
        self.pre_start[op + 1] = to_u32(self.pre.len());
        self.pre_count[op] = self.pre_start[op + 1] - self.pre_start[op];
        self.goal.clone_from(goal);
        self.mark_goal_literals(true);
    }

    /// The actions with precondition `l`, the goal action last if it asks
    /// for `l`. `users` is `self.users`, taken out for the caller's loop so
    /// that the loop may change the rest of `self`.
    fn users_of<'u>(&self, users: &'u [u32], l: usize) -> impl Iterator<Item = usize> + 'u {
        let goal = self.in_goal[l].then(|| self.goal_action());
        users[self.users_start[l] as usize..self.users_start[l + 1] as usize]
            .iter()
            .map(|&op| op as usize)
            .chain(goal)
    }

    fn enqueue(&mut self, literal: u32, cost: u64) {
        let l = literal as usize;
        if cost < self.h[l] {
            self.h[l] = cost;
            self.queue.push(cost, literal);
        }
    }

    fn enqueue_effects(&mut self, op: usize, cost: u64) {
        for k in self.eff_start[op] as usize..self.eff_start[op + 1] as usize {
            self.enqueue(self.eff[k], cost);
        }
    }

    /// `h_max` from the state's literals (`seeds`), each reached action's
    /// supporter being the precondition settled last.
    fn first_exploration(&mut self) {
        self.cost.copy_from_slice(&self.base_cost);
        self.unsatisfied.copy_from_slice(&self.pre_count);
        self.supporter.fill(NONE);
        self.supporter_cost.fill(UNREACHED);
        self.h.fill(UNREACHED);
        self.queue.clear();
        for k in 0..self.seeds.len() {
            self.enqueue(self.seeds[k], 0);
        }
        let users = std::mem::take(&mut self.users);
        while let Some((c, l)) = self.queue.pop() {
            if self.h[l as usize] < c {
                continue;
            }
            let l = l as usize;
            for op in self.users_of(&users, l) {
                self.unsatisfied[op] -= 1;
                if self.unsatisfied[op] == 0 {
                    self.supporter[op] = to_u32(l);
                    self.supporter_cost[op] = c;
                    self.enqueue_effects(op, c + self.cost[op]);
                }
            }
        }
        self.users = users;
    }

    /// Marks the goal zone, depth first: the artificial goal, and from each
    /// marked literal the supporters of its zero-cost achievers (chosen by
    /// [`zone_supporter`](Self::zone_supporter)).
    fn mark_goal_zone(&mut self) {
        let goal = self.artificial_goal();
        self.zone[goal] = self.round;
        self.frames.clear();
        self.frames.push((to_u32(goal), self.achievers_start[goal]));
        while let Some(&(l, k)) = self.frames.last() {
            if k == self.achievers_start[l as usize + 1] {
                self.frames.pop();
                continue;
            }
            if let Some(frame) = self.frames.last_mut() {
                frame.1 += 1;
            }
            let op = self.achievers[k as usize] as usize;
            // An unreached zero-cost achiever has no supporter.
            if self.cost[op] != 0 || self.supporter[op] == NONE {
                continue;
            }
            let p = self.zone_supporter(op);
            self.supporter[op] = to_u32(p);
            if self.zone[p] != self.round {
                self.zone[p] = self.round;
                self.frames.push((to_u32(p), self.achievers_start[p]));
            }
        }
    }

    /// The supporter of zero-cost action `op` as the goal zone grows: among
    /// its costliest preconditions, one already in the zone, else one on
    /// its border (no reached zero-cost action adds it, so the zone stops
    /// there), else the `h_max` supporter. Fast Downward's default
    /// (`goal_zone_detection`, `border_detection`): the zone stays small,
    /// so cuts lie closer to the goal. Any costliest precondition is a
    /// valid supporter, so the estimate stays admissible.
    fn zone_supporter(&self, op: usize) -> usize {
        let supporter = self.supporter[op] as usize;
        let costliest = self.pre[self.pre_start[op] as usize..self.pre_start[op + 1] as usize]
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| self.h[p] == self.h[supporter]);
        let on_border = |p: usize| {
            self.achievers[self.achievers_start[p] as usize..self.achievers_start[p + 1] as usize]
                .iter()
                .all(|&a| self.cost[a as usize] != 0 || self.supporter[a as usize] == NONE)
        };
        costliest
            .clone()
            .find(|&p| self.zone[p] == self.round)
            .or_else(|| costliest.clone().find(|&p| on_border(p)))
            .unwrap_or(supporter)
    }

    /// Collects the cut: from the state's literals along supporters, the
    /// actions that would enter the goal zone.
    fn find_cut(&mut self) {
        self.cut.clear();
        self.stack.clear();
        for k in 0..self.seeds.len() {
            let l = self.seeds[k];
            self.before[l as usize] = self.round;
            self.stack.push(l);
        }
        let users = std::mem::take(&mut self.users);
        while let Some(l) = self.stack.pop() {
            let l = l as usize;
            for op in self.users_of(&users, l) {
                if self.supporter[op] as usize != l {
                    continue;
                }
                let effects = self.eff_start[op] as usize..self.eff_start[op + 1] as usize;
                if self.eff[effects.clone()]
                    .iter()
                    .any(|&e| self.zone[e as usize] == self.round)
                {
                    // A zero-cost action into the zone has its supporter
                    // in the zone, which is never reached here.
                    debug_assert!(self.cost[op] > 0);
                    self.cut.push(to_u32(op));
                } else {
                    for k in effects {
                        let e = self.eff[k];
                        if self.before[e as usize] != self.round {
                            self.before[e as usize] = self.round;
                            self.stack.push(e);
                        }
                    }
                }
            }
        }
        self.users = users;
    }

    /// Updates `h_max` after the cut's actions got cheaper: only literals
    /// whose cost falls, and actions whose supporter's cost fell, are
    /// revisited.
    fn update_exploration(&mut self) {
        self.queue.clear();
        for k in 0..self.cut.len() {
            let op = self.cut[k] as usize;
            let at = self.h[self.supporter[op] as usize] + self.cost[op];
            self.enqueue_effects(op, at);
        }
        let users = std::mem::take(&mut self.users);
        while let Some((c, l)) = self.queue.pop() {
            if self.h[l as usize] < c {
                continue;
            }
            let l = l as usize;
            for op in self.users_of(&users, l) {
                if self.supporter[op] as usize != l || self.supporter_cost[op] <= c {
                    continue;
                }
                let old = self.supporter_cost[op];
                // The costliest precondition, the first one among equals
                // (Fast Downward's `update_h_max_supporter`).
                let mut best = self.supporter[op] as usize;
                for &p in &self.pre[self.pre_start[op] as usize..self.pre_start[op + 1] as usize] {
                    if self.h[p as usize] > self.h[best] {
                        best = p as usize;
                    }
                }
                self.supporter[op] = to_u32(best);
                self.supporter_cost[op] = self.h[best];
                if self.h[best] != old {
                    self.enqueue_effects(op, self.h[best] + self.cost[op]);
                }
            }
        }
        self.users = users;
    }

    /// Starts a round: fresh goal-zone and before-zone marks.
    fn next_round(&mut self) {
        if self.round == u32::MAX {
            self.zone.fill(0);
            self.before.fill(0);
            self.round = 0;
        }
        self.round += 1;
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for LmCut<B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        if self.goal.is_wrong_beyond(state.as_bits(), &self.known) {
            return Estimate::DeadEnd;
        }
        self.seeds.clear();
        let seeds = &mut self.seeds;
        (state.bits() & &self.seed_true).for_each_one(|atom| seeds.push(to_u32(2 * atom + 1)));
        (!state.bits() & &self.seed_false).for_each_one(|atom| seeds.push(to_u32(2 * atom)));
        seeds.push(to_u32(2 * self.atoms));
        self.first_exploration();
        let goal = self.artificial_goal();
        if self.h[goal] == UNREACHED {
            return Estimate::DeadEnd;
        }
        let mut total: u64 = 0;
        while self.h[goal] != 0 {
            self.next_round();
            self.mark_goal_zone();
            self.find_cut();
            let cut_cost = self
                .cut
                .iter()
                .map(|&op| self.cost[op as usize])
                .min()
                .unwrap_or(0);
            debug_assert!(cut_cost > 0, "a cut is never empty or free");
            if cut_cost == 0 {
                // Cannot happen (see `find_cut`); stop rather than loop.
                break;
            }
            for k in 0..self.cut.len() {
                self.cost[self.cut[k] as usize] -= cut_cost;
            }
            total = total.saturating_add(cut_cost);
            // A round costs far more than a clock reading.
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                break;
            }
            self.update_exploration();
        }
        Estimate::Value(u32::try_from(total).unwrap_or(u32::MAX))
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        false
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The compiled task and its scratch: made once, sized by the task.
    fn memory_bytes(&self) -> usize {
        self.heap_bytes()
    }
}

/// LM-cut for regression: the cost of reaching a subgoal from the start,
/// as LM-cut estimates it (the start's literals seed the relaxation and the
/// subgoal is the goal). Admissible; a subgoal the start cannot reach even
/// in the relaxation is a dead end. It is as strong toward the start as
/// [`LmCut`] is toward the goal, and dominates
/// [`RelaxedRegression::h_max`](crate::RelaxedRegression::h_max).
///
/// Regression's subgoals ask only for literals of the goal and of action
/// preconditions, so the relaxation keeps only those; a subgoal that asks
/// for another literal is estimated over every literal instead (tables
/// built the first time one comes).
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_atomic::{ActionSet, LmCutRegression, RegressionSpace};
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let mut h = LmCutRegression::new(&actions, start, goal);
/// assert_eq!(h.estimate(&goal), Estimate::Value(15));
/// let space = RegressionSpace::new(&actions, start, goal).unwrap();
/// let result = astar(&space, goal, LmCutRegression::new(&actions, start, goal)).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 15);
/// ```
#[derive(Clone, Debug)]
pub struct LmCutRegression<'a, B: Bits = u64> {
    actions: &'a ActionSet<B>,
    /// Over the literals of the goal and of preconditions.
    narrow: LmCut<B>,
    /// Over every literal, for other subgoals; made when first needed.
    wide: Option<Box<LmCut<B>>>,
    start: WorldState<B>,
}

impl<'a, B: Bits> LmCutRegression<'a, B> {
    /// LM-cut from `start` for `actions`, toward the subgoals that
    /// regression from `goal` meets (and any other, more slowly).
    pub fn new(actions: &'a ActionSet<B>, start: WorldState<B>, goal: PartialState<B>) -> Self {
        Self {
            actions,
            narrow: LmCut::build(actions, goal, false),
            wide: None,
            start,
        }
    }
}

impl<B: Bits> Heuristic<PartialState<B>, u32> for LmCutRegression<'_, B> {
    fn estimate(&mut self, subgoal: &PartialState<B>) -> Estimate<u32> {
        let deadline = self.narrow.deadline;
        let cut = if self.narrow.keeps(subgoal) {
            &mut self.narrow
        } else {
            let actions = self.actions;
            self.wide
                .get_or_insert_with(|| Box::new(LmCut::build(actions, subgoal.clone(), true)))
        };
        cut.set_goal(subgoal);
        cut.deadline = deadline;
        cut.estimate(&self.start)
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        false
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.narrow.deadline = deadline;
    }

    /// Both compiled tasks (the wide one once a subgoal needs it).
    fn memory_bytes(&self) -> usize {
        self.narrow.heap_bytes() + self.wide.as_ref().map_or(0, |wide| wide.heap_bytes())
    }
}
