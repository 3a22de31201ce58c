//! Every dead end a registered heuristic reports is one the delete
//! relaxation proves too (`h_max` is infinite there), or, for heuristics
//! that see beyond the relaxation (pattern databases), one from which an
//! exhaustive search finds no goal, in both directions, on
//! random PDDL tasks with action costs (zero included), negative
//! preconditions and goals and conditional effects, searched on fact
//! states and on packed ones. Searches report `unsolvable` from dead ends
//! only, so a false dead end is a false proof.

use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;
use std::hash::Hash;

use planners::heuristics::Registry;
use planners::pddl::{
    ground, h2_mutexes, parse_domain, parse_problem, GroundingLimits, PackedTask, Packing, Task,
};
use planners::{BoxedHeuristic, PlanningDomain};
use proptest::prelude::*;
use search_core::{Estimate, SearchSpace};
use state_atomic::Wide;

type B = Wide<2>;

/// The most nodes explored per task and direction: enough for the small
/// tasks below to be explored whole, or nearly.
const NODES: usize = 400;

/// A small seeded generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap_or(0)
    }

    /// An atom of `from`, negated one time in `negate`.
    fn pick(&mut self, from: &[&str], negate: usize) -> String {
        let atom = from[self.below(from.len())];
        if self.below(negate) == 0 {
            format!("(not {atom})")
        } else {
            atom.to_owned()
        }
    }
}

/// A task from `seed`: a token moving around three places (a mutex group
/// that packing folds into one field), a switch (`on`/`off`), three unary
/// predicates, and random actions over them with zero to three costs,
/// negative preconditions and conditional effects. `key` holds at the start
/// and no action adds it: a landmark that, once deleted, is gone for good.
fn random_task(seed: u64) -> (String, String) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    // Conditions read anything; effects write all but `at` and `key`, and
    // delete `key`.
    let conditions = ["(p ?x)", "(q ?x)", "(r ?x)", "(on)", "(at ?x)", "(key)"];
    let effects = ["(p ?x)", "(q ?x)", "(r ?x)", "(on)", "(off)"];
    let mut domain = String::from(
        "(define (domain random)
 (:requirements :strips :typing :negative-preconditions :conditional-effects :action-costs)
 (:types place)
 (:predicates (at ?x - place) (link ?x ?y - place) (p ?x - place) (q ?x - place)
              (r ?x - place) (on) (off) (key))
 (:functions (total-cost) - number)
 (:action move :parameters (?x ?y - place)
  :precondition (and (at ?x) (link ?x ?y))
  :effect (and (not (at ?x)) (at ?y) (increase (total-cost) 1)))
 (:action switch :parameters ()
  :precondition (on)
  :effect (and (not (on)) (off)))\n",
    );
    let actions = 2 + rng.below(4);
    // The unary predicates some action adds: goals are mostly made of them.
    let mut made: Vec<String> = Vec::new();
    for a in 0..actions {
        let pre: Vec<String> = (0..rng.below(3))
            .map(|_| rng.pick(&conditions, 4))
            .collect();
        let mut eff: Vec<String> = (0..=rng.below(2)).map(|_| rng.pick(&effects, 4)).collect();
        made.extend(
            eff.iter()
                .filter(|e| e.ends_with("?x)"))
                .map(|e| e[1..2].to_owned()),
        );
        if rng.below(3) == 0 {
            eff.push("(not (key))".to_owned());
        }
        if rng.below(2) == 0 {
            let condition = rng.pick(&conditions, 3);
            let effect = rng.pick(&effects, 3);
            eff.push(format!("(when {condition} {effect})"));
        }
        let cost = rng.below(4);
        let _ = writeln!(
            domain,
            " (:action a{a} :parameters (?x - place)\n  :precondition (and {})\n  :effect (and {} (increase (total-cost) {cost})))",
            pre.join(" "),
            eff.join(" ")
        );
    }
    domain.push(')');
    let mut init: Vec<String> = ["(at l0)", "(link l0 l1)", "(link l1 l2)", "(key)", "(on)"]
        .map(str::to_owned)
        .to_vec();
    if rng.below(2) == 0 {
        init.push("(link l2 l0)".to_owned());
    }
    for place in ["l0", "l1", "l2"] {
        for predicate in ["p", "q", "r"] {
            if rng.below(4) == 0 {
                init.push(format!("({predicate} {place})"));
            }
        }
    }
    let goal: Vec<String> = (0..=rng.below(2))
        .map(|_| {
            let place = ["l0", "l1", "l2"][rng.below(3)];
            match rng.below(6) {
                0 => "(key)".to_owned(),
                1 => format!("(not (p {place}))"),
                2 => format!("(at {place})"),
                _ if made.is_empty() => format!("(q {place})"),
                _ => format!("({} {place})", made[rng.below(made.len())]),
            }
        })
        .collect();
    let problem = format!(
        "(define (problem t) (:domain random) (:objects l0 l1 l2 - place)
 (:init {} (= (total-cost) 0))
 (:goal (and {}))
 (:metric minimize (total-cost)))",
        init.join(" "),
        goal.join(" ")
    );
    (domain, problem)
}

/// Heuristics whose dead ends the delete relaxation need not see: each
/// is checked against an exhaustive search instead.
const BEYOND_RELAXATION: [&str; 1] = ["ipdb"];

/// Whether a goal is reachable from `node` in `space` (explored whole:
/// the tasks are small).
fn solvable<S>(space: &S, node: &S::Node) -> bool
where
    S: SearchSpace<Cost = u32>,
    S::Node: Clone + Eq + Hash,
{
    let mut seen: HashSet<S::Node> = HashSet::from([node.clone()]);
    let mut queue = VecDeque::from([node.clone()]);
    while let Some(next) = queue.pop_front() {
        if space.is_goal(&next) {
            return true;
        }
        space.successors(&next, |_, child, _| {
            if seen.insert(child.clone()) {
                queue.push_back(child);
            }
        });
    }
    false
}

/// Explores `space` breadth-first from `root` (up to [`NODES`] nodes) and
/// checks each registered heuristic made by `make` against `hmax` on every
/// node, telling it each step first as a search would. Returns the dead
/// ends seen.
fn check_space<'a, S, M>(
    space: &S,
    root: &S::Node,
    make: M,
    what: &str,
) -> Result<u64, TestCaseError>
where
    S: SearchSpace<Cost = u32>,
    S::Node: Clone + Eq + Hash + std::fmt::Debug,
    M: Fn(&str) -> Option<BoxedHeuristic<'a, S::Node>>,
{
    let mut edges: Vec<(S::Node, S::Node)> = Vec::new();
    let mut seen: HashSet<S::Node> = HashSet::from([root.clone()]);
    let mut queue = VecDeque::from([root.clone()]);
    while let Some(node) = queue.pop_front() {
        space.successors(&node, |_, next, _| {
            edges.push((node.clone(), next.clone()));
            if seen.len() < NODES && !seen.contains(&next) {
                seen.insert(next.clone());
                queue.push_back(next);
            }
        });
    }
    edges.retain(|(_, to)| seen.contains(to));
    let mut hmax = make("hmax").expect("hmax serves every PDDL task");
    let mut dead_ends = 0;
    for named in Registry::builtin().iter() {
        let Some(mut h) = make(named.name()) else {
            continue;
        };
        let mut check = |h: &mut BoxedHeuristic<'a, S::Node>, node: &S::Node| {
            if h.estimate(node) == Estimate::DeadEnd {
                dead_ends += 1;
                let relaxed = hmax.estimate(node) == Estimate::DeadEnd;
                prop_assert!(
                    relaxed
                        || (BEYOND_RELAXATION.contains(&named.name()) && !solvable(space, node)),
                    "{}: {} calls {:?} a dead end, the relaxation does not{}",
                    what,
                    named.name(),
                    node,
                    if relaxed {
                        ""
                    } else {
                        ", and a plan leaves it"
                    }
                );
            }
            Ok(())
        };
        check(&mut h, root)?;
        for (from, to) in &edges {
            h.notify_transition(from, to);
            check(&mut h, to)?;
        }
    }
    Ok(dead_ends)
}

/// Both directions of `domain` for `(start, goal)`, every registered
/// heuristic that serves it.
fn check_domain<D>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    what: &str,
) -> Result<u64, TestCaseError>
where
    D: PlanningDomain,
    D::State: Hash + Eq + Clone + std::fmt::Debug,
    D::Subgoal: Hash + Eq + Clone + std::fmt::Debug,
{
    let (view_start, view_goal) = domain.view_problem(start, goal);
    let registry = Registry::builtin();
    let forward = domain.forward(goal).expect("a forward space");
    let mut dead_ends = check_space(
        &forward,
        start,
        |name| {
            let named = registry.get(name).ok()?;
            let made = named
                .forward(domain.task_view(), &view_start, &view_goal)
                .ok()?;
            Some(domain.view_forward(made))
        },
        &format!("{what} forward"),
    )?;
    let (regression, root) = domain.regression(start, goal).expect("a regression space");
    dead_ends += check_space(
        &regression,
        &root,
        |name| {
            let named = registry.get(name).ok()?;
            let made = named
                .regression(domain.task_view(), &view_start, &view_goal)
                .ok()?;
            Some(domain.view_regression(made))
        },
        &format!("{what} regression"),
    )?;
    Ok(dead_ends)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_reported_dead_end_is_one_of_the_delete_relaxation(seed in any::<u64>()) {
        let (domain_text, problem_text) = random_task(seed);
        let domain = parse_domain("random", &domain_text).unwrap();
        let problem = parse_problem(&domain, "t", &problem_text).unwrap();
        let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
        prop_assume!(task.facts.len() <= 128);
        let facts = Task::<B>::new(&task).unwrap();
        check_domain(&facts, &facts.start(), &facts.goal(), "facts")?;
        let packing = Packing::new(&task, &h2_mutexes(&task));
        if let Some(packed) = PackedTask::<B, B>::new(&task, packing).unwrap() {
            check_domain(&packed, &packed.start(), &packed.goal(), "packed")?;
        }
    }
}

/// The landmark count, told of each step, meets dead ends on these tasks
/// (a goal literal true at the start, deleted, and made true by no action):
/// the property above is not checked on nothing.
#[test]
fn the_random_tasks_hold_dead_ends() {
    let mut dead_ends = 0;
    for seed in 0..200 {
        let (domain_text, problem_text) = random_task(seed);
        let domain = parse_domain("random", &domain_text).unwrap();
        let problem = parse_problem(&domain, "t", &problem_text).unwrap();
        let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
        let facts = Task::<B>::new(&task).unwrap();
        dead_ends += check_domain(&facts, &facts.start(), &facts.goal(), "facts")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(dead_ends > 0);
}
