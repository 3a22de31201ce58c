//! Atomic actions whose cost depends on the state (`cost_fn`): forward
//! search and validation use the state's cost, regression and the
//! heuristics that tabulate costs refuse the set by the action's name.

use std::sync::Arc;

use planners::agent::{Agent, TickStatus};
use planners::heuristics::heuristic;
use planners::{validate, Budget, Direction, PlanError, PlanJob, Planner, PlannerConfig};
use search_core::{Algorithm, Estimate, Heuristic, SearchLimits};
use state_atomic::{ActionSet, AtomicError, PartialState, RelaxedForward, WorldState};

/// Walking to town costs 1 when rested and 10 when not (its fixed cost
/// says 1); resting costs 2 and the bus 6. From tired, resting then walking
/// (3) beats the bus (6), which beats walking tired (10): a search that
/// read the fixed cost would walk at once for "1".
fn town() -> ActionSet {
    let mut actions = ActionSet::<u64>::new();
    let rested = actions.declare("rested").unwrap();
    actions.add_action("rest", 2).eff("rested", true);
    actions
        .add_action("walk", 1)
        .eff("in_town", true)
        .cost_fn(move |s| if s.get(rested) { 1 } else { 10 });
    actions.add_action("bus", 6).eff("in_town", true);
    actions
}

fn goal(actions: &ActionSet) -> PartialState<u64> {
    actions.partial([("in_town", true)]).unwrap()
}

fn planner(direction: Direction, algorithm: Algorithm, name: &str) -> Planner<'static, ActionSet> {
    Planner::new(PlannerConfig {
        direction,
        algorithm,
        heuristic: heuristic(name).unwrap(),
        ..PlannerConfig::default()
    })
}

#[test]
fn forward_search_finds_the_plan_the_state_costs_make_cheapest() {
    let actions = town();
    let goal = goal(&actions);
    let tired = actions.state([]).unwrap();
    let rested = actions.state(["rested"]).unwrap();
    for (algorithm, name) in [
        (Algorithm::AStar, "blind"),
        (Algorithm::Dijkstra, "blind"),
        (Algorithm::AStar, "mismatch"),
        (Algorithm::GreedyBestFirst, "lmcount"),
    ] {
        let planner = planner(Direction::Forward, algorithm, name);
        for (start, plan, cost) in [(tired, vec!["rest", "walk"], 3), (rested, vec!["walk"], 1)] {
            let report = planner.plan(&actions, &start, &goal).unwrap();
            let found = report.plan().unwrap();
            if algorithm != Algorithm::GreedyBestFirst {
                assert_eq!(found.names(&actions), plan, "{algorithm} {name}");
                assert_eq!(found.cost, cost, "{algorithm} {name}");
            }
            // The plan's cost is what the states along it say.
            assert_eq!(
                validate(&actions, &start, &goal, &found.actions).unwrap(),
                found.cost,
                "{algorithm} {name}"
            );
        }
    }
    // The general engine (a trace asks for it) and a search sliced over
    // ticks agree with the tiny engine.
    let planner = planner(Direction::Forward, Algorithm::AStar, "blind");
    let (report, trace) = planner.plan_traced(&actions, &tired, &goal).unwrap();
    assert!(trace.is_some());
    assert_eq!(report.plan().unwrap().cost, 3);
    let mut job = PlanJob::new(Arc::new(town()), tired, goal);
    let report = loop {
        if let Some(report) = job.advance(&planner, Budget::Expansions(1)).unwrap() {
            break report;
        }
    };
    assert_eq!(report.plan().unwrap().cost, 3);
}

#[test]
fn validation_charges_each_step_in_the_state_before_it() {
    let actions = town();
    let goal = goal(&actions);
    let tired = actions.state([]).unwrap();
    let id = |name| actions.find(name).unwrap();
    assert_eq!(
        validate(&actions, &tired, &goal, &[id("walk")]).unwrap(),
        10
    );
    assert_eq!(
        validate(&actions, &tired, &goal, &[id("rest"), id("walk")]).unwrap(),
        3
    );
    assert_eq!(actions.cost_in(id("walk"), &tired), Some(10));
    assert_eq!(actions.cost_in(id("bus"), &tired), Some(6));
    assert!(actions.has_cost_fn(id("walk")) && !actions.has_cost_fn(id("bus")));
}

#[test]
fn regression_refuses_the_set_naming_the_action() {
    let actions = town();
    let goal = goal(&actions);
    let start = actions.state([]).unwrap();
    let error = planner(Direction::Regression, Algorithm::AStar, "blind")
        .plan(&actions, &start, &goal)
        .unwrap_err();
    match &error {
        PlanError::Atomic(AtomicError::StateDependentCost { action, needed_by }) => {
            assert_eq!(action, "walk");
            assert_eq!(needed_by, "regression");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        error.to_string().starts_with(
            "regression needs fixed action costs, but the cost of action `walk` depends on the state"
        ),
        "{error}"
    );
    // A portfolio plans forward alone, and says why.
    let report = planner(Direction::Portfolio, Algorithm::AStar, "blind")
        .plan(&actions, &start, &goal)
        .unwrap();
    assert_eq!(report.direction, Direction::Forward);
    assert_eq!(report.plan().unwrap().cost, 3);
    assert!(
        report.notes.iter().any(|n| n.contains("action `walk`")),
        "{:?}",
        report.notes
    );
}

#[test]
fn heuristics_that_tabulate_costs_refuse_the_set_by_name() {
    let actions = town();
    let goal = goal(&actions);
    let start = actions.state([]).unwrap();
    for name in ["hmax", "hadd", "ff", "lmcut", "mismatch-admissible"] {
        let error = planner(Direction::Forward, Algorithm::AStar, name)
            .plan(&actions, &start, &goal)
            .unwrap_err();
        assert!(
            matches!(&error, PlanError::Atomic(AtomicError::StateDependentCost { action, .. }) if action == "walk"),
            "{name}: {error:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with(&format!("heuristic `{name}` needs fixed action costs")),
            "{error}"
        );
    }
    // Without a cost function the same heuristics plan as before.
    let mut fixed = ActionSet::<u64>::new();
    fixed.add_action("walk", 1).eff("in_town", true);
    let goal = fixed.partial([("in_town", true)]).unwrap();
    let report = planner(Direction::Forward, Algorithm::AStar, "hmax")
        .plan(&fixed, &fixed.state([]).unwrap(), &goal)
        .unwrap();
    assert_eq!(report.plan().unwrap().cost, 1);
}

/// Used directly, the relaxation heuristics count an action with a cost
/// function as free (a bound of its cost in every state), never as its
/// fixed cost.
#[test]
fn relaxed_heuristics_count_a_cost_function_as_free() {
    let mut actions = ActionSet::<u64>::new();
    actions.add_action("rest", 2).eff("rested", true);
    actions
        .add_action("walk", 50)
        .pre("rested", true)
        .eff("in_town", true)
        .cost_fn(|_| 7);
    let goal = actions.partial([("in_town", true)]).unwrap();
    let mut h = RelaxedForward::h_max(&actions, goal);
    let start: WorldState = actions.state([]).unwrap();
    assert_eq!(h.estimate(&start), Estimate::Value(2));
    assert!(Heuristic::<WorldState, u32>::is_admissible(&h));
}

#[test]
fn an_agent_walks_or_rests_as_the_costs_say() {
    let actions = Arc::new(town());
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("go to town", goal(&actions), 1);
    let mut world = actions.state([]).unwrap();
    while agent.tick(&mut world).unwrap() == TickStatus::Acting {}
    let last = agent.last_plan().unwrap();
    assert_eq!(last.actions, ["rest", "walk"]);
    assert_eq!(last.cost, 3);
    // Limits as an agent sets them change nothing.
    let limited = Planner::<ActionSet>::new(PlannerConfig {
        limits: SearchLimits {
            max_expansions: Some(100),
            ..SearchLimits::default()
        },
        ..PlannerConfig::default()
    });
    let report = limited
        .plan(&actions, &actions.state([]).unwrap(), &goal(&actions))
        .unwrap();
    assert_eq!(report.plan().unwrap().cost, 3);
}
