//! Derived predicates: ground axioms, stratified and evaluated after each
//! step, as Fast Downward does.
//!
//! A derived fact is false unless an axiom derives it from the state's
//! other facts (closed world, least fixed point). Axioms may depend on
//! derived facts, positively in any way (recursion: `above` through `on`)
//! and negatively only on facts that do not depend back on them: the
//! strongly connected components of the dependency graph (head to body,
//! on ground facts) are the strata, and a negative dependency inside one
//! is refused. Strata are evaluated in dependency order, each to its fixed
//! point by counting the body facts still missing per axiom, so closing a
//! state takes time linear in the axioms.

use state_atomic::{Bits, PartialState, WorldState};

use crate::{GroundOperator, GroundTask, PddlError};

/// The bits of `facts`, a list of fact indices: the state or mask with
/// exactly those facts set. `B` must hold every index in `facts`.
///
/// ```
/// let bits: u64 = searchlab_pddl::bits_of(&[0, 3]);
/// assert_eq!(bits, 0b1001);
/// ```
pub fn bits_of<B: Bits>(facts: &[u32]) -> B {
    B::from_ones(facts.iter().map(|&f| f as usize))
}

/// One ground axiom, ready to fire within its stratum.
#[derive(Clone, Debug)]
struct Rule<B: Bits> {
    /// The body's literals fixed before the stratum is evaluated: basic
    /// facts, and derived facts of earlier strata.
    fixed: PartialState<B>,
    /// The body's derived facts of the same stratum (all true needed).
    inner: Vec<u32>,
    /// The derived fact.
    head: u32,
}

/// The axioms of a task, which close a state: [`close`](Self::close)
/// clears its derived facts and derives them again from the others.
///
/// ```
/// use searchlab_pddl::{ground, parse_domain, parse_problem, Axioms, GroundingLimits};
/// use state_atomic::WorldState;
/// let domain = parse_domain("d", "(define (domain d) (:requirements :adl :derived-predicates)
///   (:predicates (on ?x ?y) (above ?x ?y) (clear ?x))
///   (:derived (above ?x ?y) (or (on ?x ?y) (exists (?z) (and (on ?x ?z) (above ?z ?y)))))
///   (:derived (clear ?x) (not (exists (?y) (on ?y ?x))))
///   (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (clear ?x))
///     :effect (not (on ?x ?y))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c)
///   (:init (on a b) (on b c)) (:goal (not (above a c))))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// let axioms = Axioms::<u64>::new(&task).unwrap();
/// let fact = |name: &str| task.facts.iter().position(|f| f == name).unwrap();
/// let start = axioms.close(WorldState::new(task.init.iter().fold(0, |s, &f| s | 1 << f)));
/// assert!(start.bits() & 1 << fact("(above a c)") != 0);
/// assert!(start.bits() & 1 << fact("(clear a)") != 0);
/// ```
#[derive(Clone, Debug)]
pub struct Axioms<B: Bits> {
    /// Every derived fact.
    derived: B,
    /// The rules, stratum after stratum.
    rules: Vec<Rule<B>>,
    /// Where each stratum's rules end in `rules`.
    strata: Vec<usize>,
    /// Per fact: the rules of its stratum whose `inner` holds it.
    watchers: Vec<Vec<u32>>,
}

impl<B: Bits> Axioms<B> {
    /// The heap memory the rules hold, in bytes.
    pub fn heap_bytes(&self) -> usize {
        let lists = |v: &Vec<u32>| v.capacity() * size_of::<u32>();
        self.rules.capacity() * size_of::<Rule<B>>()
            + self.rules.iter().map(|r| lists(&r.inner)).sum::<usize>()
            + self.strata.capacity() * size_of::<usize>()
            + self.watchers.capacity() * size_of::<Vec<u32>>()
            + self.watchers.iter().map(lists).sum::<usize>()
    }

    /// The axioms of `task`, stratified.
    ///
    /// # Errors
    /// [`PddlError::NotStratifiable`] naming a derived fact that depends
    /// on its own negation.
    pub fn new(task: &GroundTask) -> Result<Self, PddlError> {
        let n = task.facts.len();
        let stratum_of = stratify(task)?;
        let mut order: Vec<usize> = (0..task.axioms.len()).collect();
        order.sort_by_key(|&a| stratum_of[task.axioms[a].add[0] as usize]);
        let mut rules = Vec::with_capacity(order.len());
        let mut strata = Vec::new();
        let mut watchers = vec![Vec::new(); n];
        for (i, &a) in order.iter().enumerate() {
            let axiom = &task.axioms[a];
            let head = axiom.add[0];
            let stratum = stratum_of[head as usize];
            if i > 0 && stratum != stratum_of[task.axioms[order[i - 1]].add[0] as usize] {
                strata.push(i);
            }
            let (inner, fixed): (Vec<u32>, Vec<u32>) = axiom
                .pre
                .iter()
                .partition(|&&f| stratum_of[f as usize] == stratum);
            for &f in &inner {
                watchers[f as usize].push(u32::try_from(i).unwrap_or(u32::MAX));
            }
            let fixed_true: B = bits_of(&fixed);
            rules.push(Rule {
                fixed: PartialState::new(
                    fixed_true.clone(),
                    fixed_true | bits_of::<B>(&axiom.neg_pre),
                ),
                inner,
                head,
            });
        }
        strata.push(rules.len());
        let heads: Vec<u32> = task.axioms.iter().map(|a| a.add[0]).collect();
        Ok(Self {
            derived: bits_of(&heads),
            rules,
            strata,
            watchers,
        })
    }

    /// The derived facts.
    pub fn derived(&self) -> B {
        self.derived.clone()
    }

    /// `state` with its derived facts as the axioms derive them from its
    /// other facts (whatever `state` said of them before).
    pub fn close(&self, state: WorldState<B>) -> WorldState<B> {
        if self.rules.is_empty() {
            return state;
        }
        let mut bits = state.bits() & !self.derived.clone();
        let mut missing = vec![0_u32; self.rules.len()];
        let mut queue = Vec::new();
        let mut begin = 0;
        for &end in &self.strata {
            for (rule, count) in self.rules[begin..end].iter().zip(&mut missing[begin..end]) {
                *count = if bits.agrees_on(rule.fixed.as_values(), rule.fixed.as_care()) {
                    if rule.inner.is_empty() {
                        queue.push(rule.head);
                    }
                    u32::try_from(rule.inner.len()).unwrap_or(u32::MAX)
                } else {
                    u32::MAX
                };
            }
            while let Some(f) = queue.pop() {
                if bits.get(f as usize) {
                    continue;
                }
                bits = bits | B::bit(f as usize);
                for &r in &self.watchers[f as usize] {
                    let count = &mut missing[r as usize];
                    if *count != u32::MAX {
                        *count -= 1;
                        if *count == 0 {
                            queue.push(self.rules[r as usize].head);
                        }
                    }
                }
            }
            begin = end;
        }
        WorldState::new(bits)
    }
}

/// Per fact, its stratum: the index of its strongly connected component
/// of the dependency graph (a derived fact's axioms' body facts), in an
/// order where a fact's dependencies come first. Basic facts are
/// components of their own.
fn stratify(task: &GroundTask) -> Result<Vec<usize>, PddlError> {
    let n = task.facts.len();
    let mut depends: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    for axiom in &task.axioms {
        let head = axiom.add[0] as usize;
        let positive = axiom.pre.iter().map(|&f| (f, true));
        let negative = axiom.neg_pre.iter().map(|&f| (f, false));
        depends[head].extend(positive.chain(negative));
    }
    let component = strongly_connected(&depends);
    for (head, list) in depends.iter().enumerate() {
        for &(on, positive) in list {
            if !positive && component[on as usize] == component[head] {
                return Err(PddlError::NotStratifiable {
                    fact: task.facts[head].clone(),
                    negated: task.facts[on as usize].clone(),
                });
            }
        }
    }
    Ok(component)
}

/// Tarjan's algorithm, without recursion: per node its component, numbered
/// in the order components complete (a component after every one it
/// reaches).
fn strongly_connected(edges: &[Vec<(u32, bool)>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = 0;
    // (node, next edge to look at)
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(top) = calls.last_mut() {
            let (v, edge) = *top;
            if let Some(&(w, _)) = edges[v].get(edge) {
                top.1 += 1;
                let w = w as usize;
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

/// The derived facts some condition wants false: an operator's or an
/// axiom's precondition, or the goal. The heuristics' view gets an action
/// of cost 0 making each of them false, since a step may falsify them
/// where the delete relaxation never would.
pub fn negated_derived(task: &GroundTask) -> Vec<u32> {
    let mut derived = vec![false; task.facts.len()];
    for axiom in &task.axioms {
        derived[axiom.add[0] as usize] = true;
    }
    let mut negated: Vec<u32> = task
        .operators
        .iter()
        .chain(&task.axioms)
        .flat_map(|o: &GroundOperator| &o.neg_pre)
        .chain(&task.goal_false)
        .copied()
        .filter(|&f| derived[f as usize])
        .collect();
    negated.sort_unstable();
    negated.dedup();
    negated
}
