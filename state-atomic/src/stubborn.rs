//! Partial-order reduction for forward search: atom-centric strong
//! stubborn sets ("An Atom-Centric Perspective on Stubborn Sets", Röger,
//! Helmert, Seipp and Sievers, `SoCS` 2020; Fast
//! Downward's `atom_centric_stubborn_sets()`).
//!
//! Actions that do not interfere can be applied in any order; search
//! needs only one. A strong stubborn set of a state holds the actions
//! of one way towards one goal atom that the state lacks, closed under
//! "what could enable them" (for an inapplicable action, the achievers of
//! one precondition it lacks) and "what could interfere with them" (for
//! an applicable one, the actions that disable it, that it disables, or
//! whose effects conflict with its own). Expanding only the applicable
//! actions of such a set keeps every optimal plan's cost reachable, so A*
//! stays optimal with any admissible heuristic.
//!
//! Atom-centric: the closure marks literals (an atom and a value), each
//! once per state, instead of pairs of actions: "every achiever of this
//! literal" and "every action that needs this literal". An atom here is a
//! variable with two values, so interference reads directly off the
//! literals: an action that sets an atom to one value disables those
//! that need the other and conflicts with those that set the other.
//!
//! When the first 1,000 expanded states prune fewer than a fifth of their
//! applicable actions, pruning switches off for the rest of the search
//! (as Fast Downward's `min_required_pruning_ratio = 0.2`): on tasks
//! where actions all interfere, computing the sets costs more than it
//! saves.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::action::Rule;
use crate::{Bits, PartialState};

/// Expansions before the pruning ratio is checked.
const CHECK_AFTER: u64 = 1_000;

/// The smallest share of applicable actions pruned that keeps pruning on.
const MIN_PRUNED_RATIO: f64 = 0.2;

/// An atom and a value: `atom * 2 + value`.
type Literal = u32;

/// The stubborn sets of one forward search: the task's literals indexed,
/// and the scratch space and counts of the search (behind a lock, so that
/// the space stays `Sync`; a clone starts with fresh counts).
#[derive(Debug)]
pub(crate) struct StubbornSets {
    /// Per literal: the actions whose effects make it true.
    achievers: Vec<Vec<u32>>,
    /// Per literal: the actions whose preconditions need it.
    needers: Vec<Vec<u32>>,
    /// Per action: its precondition's literals.
    pre: Vec<Vec<Literal>>,
    /// Per action: its effect's literals.
    eff: Vec<Vec<Literal>>,
    goal: Vec<Literal>,
    scratch: Mutex<Scratch>,
}

impl Clone for StubbornSets {
    fn clone(&self) -> Self {
        let scratch = Scratch::sized(self.pre.len(), self.achievers.len());
        Self {
            achievers: self.achievers.clone(),
            needers: self.needers.clone(),
            pre: self.pre.clone(),
            eff: self.eff.clone(),
            goal: self.goal.clone(),
            scratch: Mutex::new(scratch),
        }
    }
}

/// The two lists an atom-centric mark takes in whole.
#[derive(Clone, Copy)]
enum Side {
    /// The actions that make a literal true.
    Achievers,
    /// The actions that need it.
    Needers,
}

#[derive(Debug, Default)]
struct Scratch {
    /// The applicable actions of the state being expanded, then those kept.
    actions: Vec<u32>,
    /// Per action: in this state's stubborn set.
    stubborn: Vec<bool>,
    /// Per literal and side: its achievers (needers) are in the set.
    marked: [Vec<bool>; 2],
    /// What the marks above set, to clear them after.
    touched_actions: Vec<u32>,
    touched_literals: Vec<Literal>,
    queue: Vec<u32>,
    /// Whether pruning is on; off for good once it pays too little.
    off: bool,
    expansions: u64,
    applicable: u64,
    pruned: u64,
}

/// What pruning did in one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruningStats {
    /// States whose applicable actions went through pruning.
    pub expansions: u64,
    /// Applicable actions of those states.
    pub applicable: u64,
    /// Of those, the ones pruned.
    pub pruned: u64,
    /// Whether pruning switched itself off (it pruned too little).
    pub switched_off: bool,
}

/// [`PruningStats`] summed over searches, from any thread: a task that
/// several searches run on (a portfolio, a planner called again) hands
/// one to each forward space ([`ForwardSpace::report_to`](crate::ForwardSpace::report_to)).
#[derive(Debug, Default)]
pub struct PruningTally {
    expansions: AtomicU64,
    applicable: AtomicU64,
    pruned: AtomicU64,
    switched_off: AtomicU64,
}

impl PruningTally {
    /// Adds one search's counts.
    pub fn add(&self, stats: PruningStats) {
        self.expansions
            .fetch_add(stats.expansions, Ordering::Relaxed);
        self.applicable
            .fetch_add(stats.applicable, Ordering::Relaxed);
        self.pruned.fetch_add(stats.pruned, Ordering::Relaxed);
        self.switched_off
            .fetch_add(u64::from(stats.switched_off), Ordering::Relaxed);
    }

    /// The sums so far; `switched_off` when pruning switched off in some
    /// search.
    pub fn total(&self) -> PruningStats {
        PruningStats {
            expansions: self.expansions.load(Ordering::Relaxed),
            applicable: self.applicable.load(Ordering::Relaxed),
            pruned: self.pruned.load(Ordering::Relaxed),
            switched_off: self.switched_off.load(Ordering::Relaxed) > 0,
        }
    }
}

impl Scratch {
    fn sized(actions: usize, literals: usize) -> Self {
        Self {
            stubborn: vec![false; actions],
            marked: [vec![false; literals], vec![false; literals]],
            ..Self::default()
        }
    }
}

fn literals<B: Bits>(partial: &PartialState<B>) -> Vec<Literal> {
    let mut out = Vec::new();
    partial.as_care().for_each_one(|atom| {
        let value = partial.as_values().get(atom);
        out.push(literal(atom, value));
    });
    out
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "action sets hold fewer than 2^31 atoms"
)]
fn literal(atom: usize, value: bool) -> Literal {
    (atom as u32) << 1 | u32::from(value)
}

fn holds<B: Bits>(state: &B, l: Literal) -> bool {
    state.get((l >> 1) as usize) == (l & 1 == 1)
}

impl StubbornSets {
    pub(crate) fn new<B: Bits>(rules: &[Rule<B>], goal: &PartialState<B>) -> Self {
        let pre: Vec<Vec<Literal>> = rules.iter().map(|r| literals(&r.pre)).collect();
        let eff: Vec<Vec<Literal>> = rules.iter().map(|r| literals(&r.eff)).collect();
        let goal = literals(goal);
        let most = pre
            .iter()
            .chain(&eff)
            .flatten()
            .chain(&goal)
            .map(|&l| l as usize + 1)
            .max()
            .unwrap_or(0);
        let slots = (most + 1) & !1;
        let mut achievers = vec![Vec::new(); slots];
        let mut needers = vec![Vec::new(); slots];
        for (i, (p, e)) in pre.iter().zip(&eff).enumerate() {
            #[expect(clippy::cast_possible_truncation, reason = "fewer than 2^32 actions")]
            let i = i as u32;
            for &l in e {
                achievers[l as usize].push(i);
            }
            for &l in p {
                needers[l as usize].push(i);
            }
        }
        Self {
            scratch: Mutex::new(Scratch::sized(rules.len(), slots)),
            achievers,
            needers,
            pre,
            eff,
            goal,
        }
    }

    fn scratch(&self) -> MutexGuard<'_, Scratch> {
        // A panic mid-prune leaves marks set; the next state's sets are
        // then larger than needed, never too small.
        self.scratch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether pruning is still on (it switches itself off).
    pub(crate) fn is_on(&self) -> bool {
        !self.scratch().off
    }

    /// Calls `kept` with each action that `for_each_applicable` gives for
    /// `state` and that is in its stubborn set, in the order given.
    pub(crate) fn for_each_kept<B: Bits>(
        &self,
        state: &B,
        for_each_applicable: impl FnOnce(&mut dyn FnMut(u32)),
        kept: impl FnMut(u32),
    ) {
        let mut guard = self.scratch();
        let s = &mut *guard;
        let mut actions = std::mem::take(&mut s.actions);
        actions.clear();
        for_each_applicable(&mut |a| actions.push(a));
        self.prune(s, state, &mut actions);
        actions.iter().copied().for_each(kept);
        s.actions = actions;
    }

    /// Keeps of `applicable` (the actions applicable in `state`) those in
    /// the state's stubborn set.
    fn prune<B: Bits>(&self, s: &mut Scratch, state: &B, applicable: &mut Vec<u32>) {
        if s.off || applicable.len() < 2 {
            return;
        }
        let Some(&missing) = self.goal.iter().find(|&&l| !holds(state, l)) else {
            return; // a goal state: nothing to choose
        };
        self.mark(s, Side::Achievers, missing);
        while let Some(a) = s.queue.pop() {
            let a = a as usize;
            match self.pre[a].iter().find(|&&l| !holds(state, l)) {
                None => {
                    // Applicable: what disables it, what it disables, what
                    // conflicts with its effects.
                    for &l in &self.pre[a] {
                        self.mark(s, Side::Achievers, l ^ 1);
                    }
                    for &l in &self.eff[a] {
                        self.mark(s, Side::Needers, l ^ 1);
                        self.mark(s, Side::Achievers, l ^ 1);
                    }
                }
                Some(&first) => {
                    // One precondition it lacks: prefer one whose achievers
                    // are in already (nothing new to add).
                    let in_already = &s.marked[Side::Achievers as usize];
                    let lacking = self.pre[a]
                        .iter()
                        .find(|&&l| in_already[l as usize] && !holds(state, l))
                        .copied()
                        .unwrap_or(first);
                    self.mark(s, Side::Achievers, lacking);
                }
            }
        }
        let before = applicable.len();
        applicable.retain(|&a| s.stubborn[a as usize]);
        s.expansions += 1;
        s.applicable += before as u64;
        s.pruned += (before - applicable.len()) as u64;
        for a in s.touched_actions.drain(..) {
            s.stubborn[a as usize] = false;
        }
        for l in s.touched_literals.drain(..) {
            for marks in &mut s.marked {
                marks[l as usize] = false;
            }
        }
        if s.expansions == CHECK_AFTER {
            #[expect(clippy::cast_precision_loss, reason = "a ratio")]
            let ratio = s.pruned as f64 / s.applicable.max(1) as f64;
            s.off = ratio < MIN_PRUNED_RATIO;
        }
    }

    /// Puts every action of `side` of literal `l` in the set, once.
    fn mark(&self, s: &mut Scratch, side: Side, l: Literal) {
        let Some(marked) = s.marked[side as usize].get_mut(l as usize) else {
            return; // no action achieves or needs it
        };
        if *marked {
            return;
        }
        *marked = true;
        s.touched_literals.push(l);
        let actions = match side {
            Side::Achievers => &self.achievers,
            Side::Needers => &self.needers,
        };
        for &a in &actions[l as usize] {
            Self::add(s, a);
        }
    }

    fn add(s: &mut Scratch, a: u32) {
        if !s.stubborn[a as usize] {
            s.stubborn[a as usize] = true;
            s.touched_actions.push(a);
            s.queue.push(a);
        }
    }

    /// What pruning did so far.
    pub(crate) fn stats(&self) -> PruningStats {
        let s = self.scratch();
        PruningStats {
            expansions: s.expansions,
            applicable: s.applicable,
            pruned: s.pruned,
            switched_off: s.off,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{ActionSet, ForwardSpace, WorldState};
    use search_core::SearchSpace;

    fn shared<T: Send + Sync>(_: &T) {}

    /// A pruned space is shared by threads as an unpruned one is, and each
    /// search on it gets whole sets.
    #[test]
    fn a_pruned_space_is_shared_across_threads() {
        let mut actions = ActionSet::<u64>::new();
        for name in ["a", "b", "c"] {
            actions.add_action(name, 1).eff(name, true);
        }
        let goal = actions
            .partial([("a", true), ("b", true), ("c", true)])
            .unwrap();
        let space = ForwardSpace::new(&actions, goal).unwrap().stubborn_sets();
        shared(&space);
        let start = WorldState::<u64>::empty();
        let counts: Vec<usize> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        let mut n = 0;
                        space.successors(&start, |_, _, _| n += 1);
                        n
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        // One goal atom's achiever of the three: the others commute with it.
        assert_eq!(counts, [1, 1]);
        assert_eq!(space.pruning_stats().unwrap().pruned, 4);
        assert_eq!(space.clone().pruning_stats().unwrap().pruned, 0);
    }
}
