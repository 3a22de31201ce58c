//! Landmarks, orderings, the landmark count heuristic and preferred
//! operators on small hand-made tasks, and properties on random ones.

use std::collections::{HashMap, VecDeque};

use search_core::{Estimate, Heuristic, LazyGreedy};
use state_atomic::landmarks::{Allowance, LandmarkCount, LandmarkGraph, Ordering, Stopped};
use state_atomic::{ActionSet, ForwardSpace, PartialState, RelaxedForward, WorldState};

fn landmark_names(actions: &ActionSet<u64>, graph: &LandmarkGraph) -> Vec<String> {
    let atoms: Vec<&str> = actions.registry().names().collect();
    graph
        .landmarks()
        .iter()
        .map(|l| format!("{}{}", if l.value { "" } else { "!" }, atoms[l.atom]))
        .collect()
}

fn hungry() -> (ActionSet<u64>, WorldState<u64>, PartialState<u64>) {
    let mut a = ActionSet::<u64>::new();
    a.add_action("go_to_restaurant", 30)
        .pre("has_restaurant", true)
        .eff("has_food", true);
    a.add_action("buy_groceries", 15)
        .pre("has_supermarket", true)
        .eff("has_groceries", true);
    a.add_action("cook", 10)
        .pre("has_groceries", true)
        .eff("has_food", true);
    a.add_action("search_fridge", 30)
        .pre("fridge_has_bread", true)
        .eff("has_food", true);
    a.add_action("eat", 5)
        .pre("has_food", true)
        .eff("fed", true);
    let start = a.state(["has_restaurant", "has_supermarket"]).unwrap();
    let goal = a.partial([("fed", true)]).unwrap();
    (a, start, goal)
}

fn consumed() -> (ActionSet<u64>, WorldState<u64>, PartialState<u64>) {
    let mut a = ActionSet::<u64>::new();
    a.add_action("mine_ore", 2).eff("has_ore", true);
    a.add_action("sell_ore", 1)
        .pre("has_ore", true)
        .eff("has_money", true)
        .eff("has_ore", false);
    a.add_action("buy_food", 1)
        .pre("has_money", true)
        .eff("has_food", true)
        .eff("has_money", false);
    a.add_action("craft", 1)
        .pre("has_ore", true)
        .pre("has_food", true)
        .eff("crafted", true);
    let start = a.state([]).unwrap();
    let goal = a.partial([("crafted", true)]).unwrap();
    (a, start, goal)
}

fn step(actions: &ActionSet<u64>, state: WorldState<u64>, name: &str) -> WorldState<u64> {
    let action = actions.action(actions.find(name).unwrap()).unwrap();
    assert!(state.satisfies(&action.pre), "{name}");
    state.apply(&action.eff)
}

#[test]
fn hungry_agent_landmarks() {
    let (actions, start, goal) = hungry();
    let graph = LandmarkGraph::zhu_givan(&actions, &start, &goal);
    assert_eq!(landmark_names(&actions, &graph), ["has_food", "fed"]);
    assert!(graph.landmarks()[1].is_goal && !graph.landmarks()[0].is_goal);
    assert_eq!(graph.landmarks()[0].achievers.len(), 3);
    assert_eq!(
        graph.orderings(),
        [(0, 1, Ordering::Natural), (0, 1, Ordering::GreedyNecessary)]
    );
    let mut h = LandmarkCount::new(&actions, &start, goal);
    assert_eq!(h.estimate(&start), Estimate::Value(2));
}

#[test]
fn consumed_fact_landmarks_and_counts_along_the_plan() {
    let (actions, start, goal) = consumed();
    let graph = LandmarkGraph::zhu_givan(&actions, &start, &goal);
    assert_eq!(
        landmark_names(&actions, &graph),
        ["has_ore", "has_money", "has_food", "crafted"]
    );
    let gn: Vec<(usize, usize)> = graph
        .orderings()
        .iter()
        .filter(|o| o.2 == Ordering::GreedyNecessary)
        .map(|o| (o.0, o.1))
        .collect();
    // ore before money and before crafting; money before food; food before crafting
    assert_eq!(gn, [(0, 1), (0, 3), (1, 2), (2, 3)]);
    let natural = graph
        .orderings()
        .iter()
        .filter(|o| o.2 == Ordering::Natural)
        .count();
    assert_eq!(natural, 6); // crafted after all three, food after two, money after one

    let mut h = LandmarkCount::new(&actions, &start, goal);
    let mut state = start;
    let mut values = vec![h.estimate(&state)];
    for name in ["mine_ore", "sell_ore", "buy_food", "mine_ore", "craft"] {
        let next = step(&actions, state, name);
        h.notify_transition(&state, &next);
        values.push(h.estimate(&next));
        state = next;
    }
    // After selling, the ore is needed again (greedy-necessary before crafting).
    let expected = [4, 3, 3, 2, 1, 0].map(Estimate::Value);
    assert_eq!(values, expected);
    assert_eq!(h.future_landmarks(&state), Some(vec![]));
}

#[test]
fn unreachable_goals_and_unachievable_landmarks_are_dead_ends() {
    let mut actions = ActionSet::<u64>::new();
    actions
        .add_action("drop_key", 1)
        .pre("key", true)
        .eff("key", false)
        .eff("x", true);
    actions
        .add_action("never", 1)
        .pre("magic", true)
        .eff("y", true);
    let start = actions.state(["key"]).unwrap();
    let goal = actions.partial([("y", true)]).unwrap();
    let graph = LandmarkGraph::zhu_givan(&actions, &start, &goal);
    assert!(graph.is_unsolvable());
    assert_eq!(
        LandmarkCount::new(&actions, &start, goal).estimate(&start),
        Estimate::DeadEnd
    );

    // key holds at the start and must hold at the end; dropping it is final.
    let goal = actions.partial([("key", true), ("x", true)]).unwrap();
    let mut h = LandmarkCount::new(&actions, &start, goal);
    assert_eq!(h.estimate(&start), Estimate::Value(1));
    let dropped = step(&actions, start, "drop_key");
    h.notify_transition(&start, &dropped);
    assert_eq!(h.estimate(&dropped), Estimate::DeadEnd);
}

#[test]
fn preferred_operators_of_lmcount_and_ff() {
    let (actions, start, goal) = hungry();
    let restaurant = step(&actions, start, "go_to_restaurant");
    let groceries = step(&actions, start, "buy_groceries");

    let mut lm = LandmarkCount::new(&actions, &start, goal);
    lm.estimate(&start);
    assert!(lm.is_preferred(&start, &restaurant));
    assert!(!lm.is_preferred(&start, &groceries));

    // h_add prefers groceries and cooking (25) to the restaurant (30).
    let mut ff = RelaxedForward::h_ff(&actions, goal);
    assert!(!ff.is_preferred(&start, &groceries)); // not yet estimated
    assert_eq!(ff.estimate(&start), Estimate::Value(30));
    assert!(ff.is_preferred(&start, &groceries));
    assert!(!ff.is_preferred(&start, &restaurant));
    let mut hmax = RelaxedForward::h_max(&actions, goal);
    hmax.estimate(&start);
    assert!(!hmax.is_preferred(&start, &groceries));
}

#[test]
fn lazy_search_with_ff_and_lmcount_solves_the_consumed_fact() {
    let (actions, start, goal) = consumed();
    let space = ForwardSpace::new(&actions, goal).unwrap();
    let heuristics: Vec<Box<dyn Heuristic<WorldState<u64>, u32>>> = vec![
        Box::new(RelaxedForward::h_ff(&actions, goal)),
        Box::new(LandmarkCount::new(&actions, &start, goal)),
    ];
    let result = LazyGreedy::new(&space, start, heuristics).run().unwrap();
    let plan = result.outcome.solution().unwrap();
    assert_eq!(
        actions.validate(start, &goal, &plan.actions).unwrap(),
        u64::from(plan.cost)
    );
}

/// A small deterministic generator (no dependency needed for a few tasks).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        u32::try_from((self.0 >> 33) % u64::from(n)).unwrap_or(0)
    }
}

fn random_task(rng: &mut Lcg) -> (ActionSet<u64>, WorldState<u64>, PartialState<u64>) {
    let atoms = 3 + rng.below(4) as usize;
    let names: Vec<String> = (0..atoms).map(|i| format!("p{i}")).collect();
    let mut actions = ActionSet::<u64>::new();
    for name in &names {
        actions.declare(name).unwrap();
    }
    for a in 0..2 + rng.below(6) {
        let mut builder = actions.add_action(&format!("a{a}"), 1 + rng.below(3));
        for name in &names {
            match rng.below(6) {
                0 => {
                    builder.pre(name, true);
                }
                1 => {
                    builder.pre(name, false);
                }
                _ => {}
            }
        }
        for name in &names {
            match rng.below(5) {
                0 => {
                    builder.eff(name, true);
                }
                1 => {
                    builder.eff(name, false);
                }
                _ => {}
            }
        }
    }
    let start: Vec<&str> = names
        .iter()
        .filter(|_| rng.below(2) == 0)
        .map(String::as_str)
        .collect();
    let start = actions.state(start).unwrap();
    let mut goal: Vec<(&str, bool)> = Vec::new();
    for name in &names {
        if rng.below(3) == 0 {
            goal.push((name, rng.below(2) == 0));
        }
    }
    let goal = actions.partial(goal).unwrap();
    (actions, start, goal)
}

/// On random tasks, over every state reached breadth-first from the start
/// (each told its first parent, as a search would): the count is 0 exactly
/// at goal states, and a dead end has no path to the goal.
#[test]
fn zero_only_at_goals_and_dead_ends_are_reliable() {
    let mut rng = Lcg(7);
    let mut dead_ends = 0;
    for _ in 0..300 {
        let (actions, start, goal) = random_task(&mut rng);
        let space = ForwardSpace::new(&actions, goal).unwrap();
        let mut h = LandmarkCount::new(&actions, &start, goal);
        let mut parent: HashMap<WorldState<u64>, Option<WorldState<u64>>> = HashMap::new();
        let mut order = vec![start];
        let mut queue = VecDeque::from([start]);
        parent.insert(start, None);
        let mut edges: Vec<(WorldState<u64>, WorldState<u64>)> = Vec::new();
        while let Some(s) = queue.pop_front() {
            for id in space.applicable(&s) {
                let next = s.apply(&actions.action(id).unwrap().eff);
                edges.push((s, next));
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                    e.insert(Some(s));
                    order.push(next);
                    queue.push_back(next);
                }
            }
        }
        // States that can reach the goal, backwards over the edges.
        let mut solvable: Vec<WorldState<u64>> = order
            .iter()
            .copied()
            .filter(|s| s.satisfies(&goal))
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &(from, to) in &edges {
                if solvable.contains(&to) && !solvable.contains(&from) {
                    solvable.push(from);
                    changed = true;
                }
            }
        }
        for &s in &order {
            if let Some(Some(p)) = parent.get(&s) {
                h.notify_transition(p, &s);
            }
            match h.estimate(&s) {
                Estimate::Value(v) => assert_eq!(v == 0, s.satisfies(&goal), "{s:?}"),
                Estimate::DeadEnd => {
                    dead_ends += 1;
                    assert!(!solvable.contains(&s), "dead end {s:?} reaches the goal");
                }
            }
        }
    }
    assert!(dead_ends > 0, "the tasks should include dead ends");
}

/// Landmark generation stops at a deadline and within its bytes (it was
/// the one long setup with neither): past either, no graph and no count;
/// within both, the same task has its landmarks.
#[test]
fn landmark_generation_stops_at_its_deadline_and_bytes() {
    let (actions, start, goal) = hungry();
    let past = Allowance {
        deadline: Some(std::time::Instant::now()),
        ..Allowance::default()
    };
    assert_eq!(
        LandmarkGraph::zhu_givan_within(&actions, &start, &goal, past).unwrap_err(),
        Stopped::Deadline
    );
    assert!(LandmarkCount::new_within(&actions, &start, goal, past).is_err());
    let unbounded = LandmarkGraph::zhu_givan_within(&actions, &start, &goal, Allowance::default());
    let Err(Stopped::Memory { bytes }) = LandmarkGraph::zhu_givan_within(
        &actions,
        &start,
        &goal,
        Allowance {
            max_bytes: Some(64),
            ..Allowance::default()
        },
    ) else {
        panic!("64 bytes hold no landmark tables");
    };
    assert!(bytes > 64);
    let roomy = Allowance {
        deadline: std::time::Instant::now().checked_add(std::time::Duration::from_secs(3600)),
        max_bytes: Some(1 << 20),
    };
    let graph = LandmarkGraph::zhu_givan_within(&actions, &start, &goal, roomy).unwrap();
    assert_eq!(graph.landmarks(), unbounded.unwrap().landmarks());
    assert_eq!(
        graph.landmarks(),
        LandmarkGraph::zhu_givan(&actions, &start, &goal).landmarks()
    );
    assert!(!graph.landmarks().is_empty());
}
