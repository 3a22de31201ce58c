//! LAMA-style satisficing search: lazy greedy best-first search alternating
//! between `h_FF` and the landmark count, with preferred operators (and
//! with type-based exploration), solves shipped PDDL tasks with plans that
//! validate.

use planners::heuristics::heuristic;
use planners::pddl::{solve_text, validate_text, PddlOptions};
use planners::{Direction, PlannerConfig};
use search_core::{Algorithm, SearchLimits};

fn read(path: &str) -> String {
    let path = tests::pddl_benchmarks().join("..").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lama_like() -> PlannerConfig {
    PlannerConfig {
        direction: Direction::Forward,
        algorithm: Algorithm::LazyGreedy,
        heuristic: heuristic("ff+lmcount").unwrap(),
        limits: SearchLimits {
            max_expansions: Some(200_000),
            ..SearchLimits::default()
        },
    }
}

/// LAMA's first iteration, and the same with type-based exploration.
#[test]
fn ff_and_lmcount_solve_shipped_tasks_with_valid_plans() {
    let typed = PlannerConfig {
        algorithm: Algorithm::LazyTypeBased,
        ..lama_like()
    };
    assert_eq!(lama_like().name(), "fwd-lazygbfs-ff+lmcount");
    assert_eq!(typed.name(), "fwd-lazytype-ff+lmcount");
    for config in [lama_like(), typed] {
        solves_shipped_tasks(&config);
    }
}

fn solves_shipped_tasks(config: &PlannerConfig) {
    for (domain, problem) in [
        ("pddl/blocks/domain.pddl", "pddl/blocks/task05.pddl"),
        ("pddl/gripper/domain.pddl", "pddl/gripper/task03.pddl"),
        ("pddl/logistics/domain.pddl", "pddl/logistics/task03.pddl"),
        ("pddl/miconic/domain.pddl", "pddl/miconic/task05.pddl"),
        ("pddl/depot/domain.pddl", "pddl/depot/task01.pddl"),
        (
            "pddl-ipc/elevators-opt08-strips/domain.pddl",
            "pddl-ipc/elevators-opt08-strips/p01.pddl",
        ),
        (
            "pddl-ipc/parcprinter-08-strips/p01-domain.pddl",
            "pddl-ipc/parcprinter-08-strips/p01.pddl",
        ),
    ] {
        let (domain_text, problem_text) = (read(domain), read(problem));
        let solution = solve_text(&domain_text, &problem_text, config, &PddlOptions::default())
            .unwrap_or_else(|e| panic!("{problem}: {e}"));
        let plan = solution
            .plan
            .as_ref()
            .unwrap_or_else(|| panic!("{problem}: {:?}", solution.report.outcome));
        let cost = validate_text(
            (domain, &domain_text),
            (problem, &problem_text),
            ("plan", &plan.to_ipc_string()),
        )
        .unwrap_or_else(|e| panic!("{problem}: {e}"));
        assert_eq!(cost, plan.cost(), "{problem}");
    }
}

#[test]
fn eager_algorithms_refuse_an_alternation() {
    let config = PlannerConfig {
        algorithm: Algorithm::GreedyBestFirst,
        ..lama_like()
    };
    let domain = read("pddl/gripper/domain.pddl");
    let problem = read("pddl/gripper/task01.pddl");
    let error = solve_text(&domain, &problem, &config, &PddlOptions::default()).unwrap_err();
    assert!(
        error.to_string().contains("only lazy greedy search"),
        "{error}"
    );
    // lmcount alone is forward-only.
    let config = PlannerConfig {
        direction: Direction::Regression,
        heuristic: heuristic("lmcount").unwrap(),
        ..lama_like()
    };
    let error = solve_text(&domain, &problem, &config, &PddlOptions::default()).unwrap_err();
    assert!(error.to_string().contains("lmcount"), "{error}");
}

#[test]
fn lmcount_alone_works_in_eager_and_lazy_greedy_search() {
    let domain = read("pddl/logistics/domain.pddl");
    let problem = read("pddl/logistics/task02.pddl");
    for algorithm in [Algorithm::GreedyBestFirst, Algorithm::LazyGreedy] {
        let config = PlannerConfig {
            algorithm,
            heuristic: heuristic("lmcount").unwrap(),
            ..lama_like()
        };
        let solution = solve_text(&domain, &problem, &config, &PddlOptions::default())
            .unwrap_or_else(|e| panic!("{algorithm}: {e}"));
        assert!(
            solution.plan.is_some(),
            "{algorithm}: {:?}",
            solution.report.outcome
        );
    }
}
