//! `Planner::plan_traced`: the trace of the search behind a plan, with the
//! domain's names, in every direction and for every kind of domain.

use planners::pddl::{solve_text, PddlOptions};
use planners::{Direction, PlanTrace, Planner, PlannerConfig, PlanningDomain};
use search_core::{Admissible, Algorithm};
use state_atomic::problems as atomic;
use state_factored::problems as factored;
use tests::{heuristic, planner_config as config};

const DIRECTIONS: [Direction; 3] = [
    Direction::Forward,
    Direction::Regression,
    Direction::Portfolio,
];

/// The action names along the trace's path, from its start to its goal.
fn path_actions(trace: &PlanTrace) -> Vec<String> {
    let nodes = trace.trace().nodes();
    trace.trace().path()[1..]
        .iter()
        .filter_map(|&i| nodes[i as usize].action.clone())
        .collect()
}

/// The plan the trace shows, in execution order.
fn plan_of(trace: &PlanTrace) -> Vec<String> {
    let mut actions = path_actions(trace);
    if trace.direction() == Direction::Regression {
        actions.reverse();
    }
    actions
}

#[test]
fn an_atomic_plan_is_the_path_of_its_trace_in_every_direction() {
    let problem = atomic::hungry_agent::<u64>().unwrap();
    for direction in DIRECTIONS {
        let planner = Planner::new(config(direction, Algorithm::AStar, heuristic("hmax")));
        let (report, trace) = planner
            .plan_traced(&problem.actions, &problem.start, &problem.goal)
            .unwrap();
        let trace = trace.unwrap_or_else(|| panic!("{direction}: no trace"));
        let plan = report.plan().unwrap();
        assert_eq!(plan.cost, 30, "{direction}");
        assert_eq!(trace.direction(), report.direction, "{direction}");
        assert_eq!(plan_of(&trace), plan.names(&problem.actions), "{direction}");
        let stats = match report.direction {
            Direction::Regression => report.regression.as_ref(),
            _ => report.forward.as_ref(),
        };
        assert_eq!(
            trace.trace().expansions().len() as u64,
            stats.unwrap().expanded,
            "{direction}"
        );
        // The same outcome as an untraced plan.
        let untraced = planner
            .plan(&problem.actions, &problem.start, &problem.goal)
            .unwrap();
        assert_eq!(untraced.plan(), report.plan(), "{direction}");
    }
}

#[test]
fn atomic_nodes_are_named_by_their_atoms() {
    let problem = atomic::hungry_agent::<u64>().unwrap();
    let planner = Planner::new(PlannerConfig::default());
    let (_, trace) = planner
        .plan_traced(&problem.actions, &problem.start, &problem.goal)
        .unwrap();
    let trace = trace.unwrap();
    assert_eq!(
        trace.trace().nodes()[0].node,
        "{has_restaurant, has_supermarket}"
    );
    let text = trace.to_text();
    assert!(
        text.contains("buy_groceries -> {has_restaurant, has_supermarket, has_groceries}"),
        "{text}"
    );
    let dot = trace.to_dot();
    assert!(dot.contains("label=\"cook\", color="), "{dot}");

    let regression = Planner::new(config(
        Direction::Regression,
        Algorithm::AStar,
        heuristic("hmax"),
    ));
    let (_, trace) = regression
        .plan_traced(&problem.actions, &problem.start, &problem.goal)
        .unwrap();
    let trace = trace.unwrap();
    assert_eq!(trace.trace().nodes()[0].node, "{fed}");
    assert!(trace
        .to_text()
        .starts_with("regression (nodes are subgoals"));
}

#[test]
fn factored_states_show_values_and_subgoals_show_constraints() {
    let problem = factored::hitman().unwrap();
    let (domain, start, goal) = (&problem.domain, &problem.start, &problem.goal);
    let forward = Planner::new(config(
        Direction::Forward,
        Algorithm::AStar,
        heuristic("numeric"),
    ));
    let (report, trace) = forward.plan_traced(domain, start, goal).unwrap();
    let trace = trace.unwrap();
    assert_eq!(plan_of(&trace), report.plan().unwrap().names(domain));
    assert_eq!(
        trace.trace().nodes()[0].node,
        domain.schema().describe(start)
    );
    assert!(trace.trace().nodes()[0].node.contains('='));

    let regression = Planner::new(config(
        Direction::Regression,
        Algorithm::AStar,
        heuristic("numeric"),
    ));
    let (report, trace) = regression.plan_traced(domain, start, goal).unwrap();
    let trace = trace.unwrap();
    assert_eq!(plan_of(&trace), report.plan().unwrap().names(domain));
    let (_, subgoal) = PlanningDomain::regression(domain, start, goal).unwrap();
    assert_eq!(
        trace.trace().nodes()[0].node,
        subgoal.describe(domain.schema())
    );
    assert_ne!(trace.trace().nodes()[0].node, format!("{subgoal:?}"));
    // Bounds that regression moved from the type's extremes read as open.
    let text = trace.to_text();
    assert!(text.contains("gold>=60, location=\"shop\""), "{text}");
    assert!(!text.contains("922337"), "{text}");
}

#[test]
fn lazy_greedy_search_traces_the_nodes_it_took_off_the_open_list() {
    let problem = atomic::hungry_agent::<u64>().unwrap();
    for (direction, heuristics) in [
        (Direction::Forward, "ff+lmcount"),
        (Direction::Regression, "ff"),
    ] {
        let planner = Planner::new(config(
            direction,
            Algorithm::LazyGreedy,
            heuristic(heuristics),
        ));
        let (report, trace) = planner
            .plan_traced(&problem.actions, &problem.start, &problem.goal)
            .unwrap();
        let trace = trace.unwrap();
        let plan = report.plan().unwrap();
        assert_eq!(plan_of(&trace), plan.names(&problem.actions), "{direction}");
        let stats = report.forward.as_ref().or(report.regression.as_ref());
        assert_eq!(
            trace.trace().expansions().len() as u64,
            stats.unwrap().expanded,
            "{direction}"
        );
        assert_eq!(trace.trace().nodes().len(), stats.unwrap().stored);
        assert!(trace.trace().nodes()[0].h.is_some());
    }
}

#[test]
fn a_custom_heuristic_serves_the_traced_plan() {
    let problem = atomic::hungry_agent::<u64>().unwrap();
    let goal = problem.goal;
    let planner = Planner::new(PlannerConfig::default()).with_forward_heuristic(move || {
        Admissible(move |s: &state_atomic::WorldState<u64>| u32::from(!s.satisfies(&goal)))
    });
    let (report, trace) = planner
        .plan_traced(&problem.actions, &problem.start, &problem.goal)
        .unwrap();
    let trace = trace.unwrap();
    assert_eq!(report.plan().unwrap().cost, 30);
    // The custom heuristic's estimates are in the trace: 1 until fed.
    assert_eq!(trace.trace().nodes()[0].h, Some(1));
}

#[test]
fn a_pddl_trace_names_facts_and_operators() {
    let domain = "(define (domain d) (:predicates (at ?x) (road ?x ?y))
      (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
        :effect (and (at ?y) (not (at ?x)))))";
    let problem = "(define (problem p) (:domain d) (:objects a b c)
      (:init (at a) (road a b) (road b c)) (:goal (at c)))";
    for direction in [Direction::Forward, Direction::Regression] {
        let config = config(direction, Algorithm::AStar, heuristic("hmax"));
        let options = PddlOptions {
            trace: true,
            ..PddlOptions::default()
        };
        let solution = solve_text(domain, problem, &config, &options).unwrap();
        let trace = solution.trace.unwrap();
        let text = trace.to_text();
        let plan = plan_of(&trace);
        assert_eq!(plan.len(), 2, "{text}");
        assert!(plan[0].contains("go") && plan[0].contains('a'), "{text}");
        assert!(text.contains("at"), "{text}");
        let untraced = solve_text(domain, problem, &config, &PddlOptions::default()).unwrap();
        assert!(untraced.trace.is_none());
    }
}
