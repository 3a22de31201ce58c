//! `h^2` mutexes: pairs of facts no reachable state holds together.
//!
//! The `h^2` fixpoint over pairs (Haslum and Geffner, 2000): a pair is
//! reachable if the initial state holds it, or an operator whose
//! preconditions are pairwise reachable adds both, or adds one while the
//! other, not deleted, is reachable together with every precondition.
//! Negative preconditions are ignored, which only adds reachable pairs: the
//! mutexes stay sound.

use std::time::Instant;

use state_atomic::Bits;

use crate::GroundTask;

/// The `h^2` mutex pairs of a [`GroundTask`].
///
/// ```
/// use searchlab_pddl::{ground, h2_mutexes, parse_domain, parse_problem, GroundingLimits};
/// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c) \
///     (:init (at a) (road a b) (road b c)) (:goal (at c)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// let mutexes = h2_mutexes(&task);
/// assert_eq!(mutexes.pairs(), 3); // the robot is in one place at a time
/// assert!(mutexes.are_mutex(0, 1));
/// ```
#[derive(Clone, Debug)]
pub struct Mutexes {
    facts: usize,
    words: usize,
    /// Row `p`: the facts mutually exclusive with `p`.
    rows: Vec<u64>,
}

fn get(row: &[u64], q: usize) -> bool {
    row[q / 64] >> (q % 64) & 1 == 1
}

fn set(row: &mut [u64], q: usize) {
    row[q / 64] |= 1 << (q % 64);
}

impl Mutexes {
    /// The bytes `h^2` takes to find the mutexes of `facts` facts: two
    /// tables of a bit per pair of facts.
    pub fn bytes_to_find(facts: usize) -> usize {
        2 * facts.saturating_mul(facts.div_ceil(64).max(1)) * size_of::<u64>()
    }

    /// The heap memory the table holds, in bytes.
    pub fn heap_bytes(&self) -> usize {
        self.rows.capacity() * size_of::<u64>()
    }

    /// No mutexes over `facts` facts.
    pub fn none(facts: usize) -> Self {
        let words = facts.div_ceil(64).max(1);
        Self {
            facts,
            words,
            rows: vec![0; facts * words],
        }
    }

    /// Whether facts `p` and `q` are mutually exclusive.
    pub fn are_mutex(&self, p: usize, q: usize) -> bool {
        p < self.facts && q < self.facts && get(&self.rows[p * self.words..], q)
    }

    /// How many unordered mutex pairs there are.
    pub fn pairs(&self) -> usize {
        self.rows
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// The mutexes as a table for
    /// [`RegressionSpace::mutexes`](state_atomic::RegressionSpace::mutexes):
    /// per fact, the facts mutually exclusive with it.
    pub fn table<B: Bits>(&self) -> Vec<B> {
        (0..self.facts)
            .map(|p| {
                let mut bits = B::zero();
                let row = &self.rows[p * self.words..(p + 1) * self.words];
                for (w, &word) in row.iter().enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        let q = w * 64 + rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if q < B::CAPACITY {
                            bits = bits | B::bit(q);
                        }
                    }
                }
                bits
            })
            .collect()
    }
}

/// Computes the `h^2` mutexes of `task` (pairs of distinct facts, both
/// reachable on their own, that no reachable state holds together). A
/// task with derived predicates (axioms) gets none: its operators alone
/// do not say which states are reachable; nor does one with conditional
/// effects, which the fixpoint does not read.
pub fn h2_mutexes(task: &GroundTask) -> Mutexes {
    // Without a deadline the fixpoint always ends; no mutexes would be the
    // sound answer anyway.
    h2_mutexes_until(task, None).unwrap_or_else(|| {
        let (facts, words) = (task.facts.len(), task.facts.len().div_ceil(64).max(1));
        Mutexes {
            facts,
            words,
            rows: vec![0; facts * words],
        }
    })
}

/// [`h2_mutexes`], or `None` if `deadline` passes first (the clock is read
/// every 256 operators of each pass over them).
///
/// ```
/// use std::time::Instant;
/// use searchlab_pddl::{ground, h2_mutexes_until, parse_domain, parse_problem, GroundingLimits};
/// let domain = parse_domain("d.pddl", "(define (domain d) (:predicates (a) (b))
///     (:action go :precondition (a) :effect (and (b) (not (a)))))").unwrap();
/// let problem = parse_problem(&domain, "p.pddl", "(define (problem p) (:domain d) (:init (a)) (:goal (b)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// assert!(h2_mutexes_until(&task, None).is_some());
/// assert!(h2_mutexes_until(&task, Some(Instant::now())).is_none());
/// ```
pub fn h2_mutexes_until(task: &GroundTask, deadline: Option<Instant>) -> Option<Mutexes> {
    let past = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    if past() {
        return None;
    }
    let n = task.facts.len();
    let words = n.div_ceil(64).max(1);
    if !task.axioms.is_empty() || task.has_conditional_effects() {
        return Some(Mutexes {
            facts: n,
            words,
            rows: vec![0; n * words],
        });
    }
    // reach[p]: the facts q with {p, q} reachable; reach[p][p]: p reachable.
    let mut reach = vec![0u64; n * words];
    for &p in &task.init {
        for &q in &task.init {
            set(&mut reach[p as usize * words..], q as usize);
        }
    }
    let mut compatible = vec![0u64; words];
    let mut adds = vec![0u64; words];
    let mut applicable = vec![false; task.operators.len()];
    loop {
        let mut changed = false;
        for (i, op) in task.operators.iter().enumerate() {
            if i % 256 == 255 && past() {
                return None;
            }
            // The facts reachable together with every precondition.
            compatible.fill(u64::MAX);
            if op.pre.is_empty() {
                for p in 0..n {
                    if !get(&reach[p * words..], p) {
                        compatible[p / 64] &= !(1 << (p % 64));
                    }
                }
                for p in n..words * 64 {
                    compatible[p / 64] &= !(1 << (p % 64));
                }
            }
            for &p in &op.pre {
                let row = &reach[p as usize * words..(p as usize + 1) * words];
                for (c, r) in compatible.iter_mut().zip(row) {
                    *c &= r;
                }
            }
            if !op.pre.iter().all(|&p| get(&compatible, p as usize)) {
                continue;
            }
            applicable[i] = true;
            adds.fill(0);
            for &p in &op.add {
                set(&mut adds, p as usize);
            }
            for &q in op.del.iter().chain(&op.add) {
                compatible[q as usize / 64] &= !(1 << (q % 64));
            }
            for &p in &op.add {
                let row = &mut reach[p as usize * words..(p as usize + 1) * words];
                for ((r, c), a) in row.iter_mut().zip(&compatible).zip(&adds) {
                    let new = *r | c | a;
                    if new != *r {
                        *r = new;
                        changed = true;
                    }
                }
            }
        }
        // Pairs are unordered.
        for p in 0..n {
            for w in 0..words {
                let mut rest = reach[p * words + w];
                while rest != 0 {
                    let q = w * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if !get(&reach[q * words..], p) {
                        set(&mut reach[q * words..], p);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut rows = vec![0u64; n * words];
    for p in 0..n {
        if !get(&reach[p * words..], p) {
            continue;
        }
        for q in 0..n {
            if q != p && get(&reach[q * words..], q) && !get(&reach[p * words..], q) {
                set(&mut rows[p * words..], q);
            }
        }
    }
    Some(Mutexes {
        facts: n,
        words,
        rows,
    })
}
