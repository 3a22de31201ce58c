//! Reference scenario 4 of DESIGN.md (hitman, factored): optimal cost 15 with
//! gold mined twice, in both directions, with every algorithm that must be
//! optimal and every built-in heuristic that is admissible.

use search_core::{Algorithm, Search, SearchLimits};
use state_factored::problems::hitman;
use state_factored::{ForwardSpace, GoalCount, NumericDistance, RegressionSpace};

const OPTIMAL: [&str; 7] = [
    "walk_to_mine",
    "mine_gold",
    "mine_gold",
    "walk_to_shop",
    "buy_weapon",
    "walk_to_target",
    "attack",
];

#[test]
fn hitman_forward_and_regression_with_astar_and_dijkstra() {
    let problem = hitman().unwrap();
    let (d, g, s) = (&problem.domain, &problem.goal, &problem.start);
    let forward = d.forward(g);
    let regression = d.regression(s, g).unwrap();
    for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
        let fwd = Search::new(&forward, s.clone())
            .algorithm(algorithm)
            .heuristic(NumericDistance::admissible(d, s, g))
            .run()
            .unwrap()
            .outcome
            .into_solution()
            .unwrap();
        assert_eq!(fwd.cost, 15, "forward {algorithm:?}");
        assert_eq!(d.names(&fwd.actions), OPTIMAL, "forward {algorithm:?}");
        assert_eq!(d.validate(s, g, &fwd.actions), Ok(15));

        let reg = Search::new(&regression, regression.start_node())
            .algorithm(algorithm)
            .heuristic(NumericDistance::admissible(d, s, g))
            .run()
            .unwrap()
            .outcome
            .into_solution()
            .unwrap();
        assert_eq!(reg.cost, 15, "regression {algorithm:?}");
        let plan = regression.plan(&reg);
        assert_eq!(
            d.names(&plan).iter().filter(|n| **n == "mine_gold").count(),
            2
        );
        assert_eq!(d.validate(s, g, &plan), Ok(15), "regression {algorithm:?}");
    }
}

#[test]
fn hitman_with_every_heuristic_and_algorithm() {
    let problem = hitman().unwrap();
    let (d, g, s) = (&problem.domain, &problem.goal, &problem.start);
    let forward = d.forward(g);
    let regression = d.regression(s, g).unwrap();
    // Gold and noise grow without bound; greedy search breaks ties first in,
    // first out, so it does not dive along `mine_gold` forever. Every run
    // still has a limit, so a search that dives fails rather than hangs.
    let limits = || SearchLimits {
        max_expansions: Some(5_000),
        ..SearchLimits::default()
    };
    let algorithms = [
        Algorithm::AStar,
        Algorithm::WeightedAStar { weight: 2.0 },
        Algorithm::GreedyBestFirst,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
    ];
    for algorithm in algorithms {
        let forward_cost = |r: Result<search_core::ResultOf<ForwardSpace<'_>>, _>| {
            let sol = r.unwrap().outcome.into_solution();
            sol.map(|sol| d.validate(s, g, &sol.actions).unwrap())
        };
        let regression_cost = |r: Result<search_core::ResultOf<RegressionSpace<'_>>, _>| {
            let sol = r.unwrap().outcome.into_solution();
            sol.map(|sol| d.validate(s, g, &regression.plan(&sol)).unwrap())
        };
        let costs = [
            forward_cost(
                Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(GoalCount::new(d, s, g))
                    .run(),
            ),
            forward_cost(
                Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::informative(d, s, g))
                    .run(),
            ),
            forward_cost(
                Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::admissible(d, s, g))
                    .run(),
            ),
            regression_cost(
                Search::new(&regression, regression.start_node())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(GoalCount::new(d, s, g))
                    .run(),
            ),
            regression_cost(
                Search::new(&regression, regression.start_node())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::informative(d, s, g))
                    .run(),
            ),
            regression_cost(
                Search::new(&regression, regression.start_node())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::admissible(d, s, g))
                    .run(),
            ),
        ];
        for cost in costs {
            let cost = cost.unwrap_or_else(|| panic!("{algorithm:?} dived"));
            assert!(cost >= 15, "{algorithm:?}");
            if matches!(algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
                assert_eq!(cost, 15, "{algorithm:?}");
            }
        }
    }
}
