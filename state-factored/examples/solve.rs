//! Solves the built-in problems in both directions and prints costs and
//! expansions: `cargo run --release -p state-factored --example solve`.

use search_core::{Algorithm, Search, SearchLimits};
use state_factored::problems::{chains, economy, hitman, Problem};
use state_factored::{GoalCount, NumericDistance};

fn report(problem: &Problem) {
    let limits = || SearchLimits {
        max_expansions: Some(300_000),
        ..SearchLimits::default()
    };
    let (d, g, s) = (&problem.domain, &problem.goal, &problem.start);
    let forward = d.forward(g);
    let regression = d.regression(s, g).expect("no custom parts");
    for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
        for (hname, which) in [("count", 0), ("max", 1), ("sum", 2)] {
            if algorithm == Algorithm::Dijkstra && which > 0 {
                continue;
            }
            let fwd = match which {
                0 => Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(GoalCount::new(d, s, g))
                    .run(),
                1 => Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::admissible(d, s, g))
                    .run(),
                _ => Search::new(&forward, s.clone())
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::informative(d, s, g))
                    .run(),
            }
            .expect("valid costs");
            let start = regression.start_node();
            let reg = match which {
                0 => Search::new(&regression, start)
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(GoalCount::new(d, s, g))
                    .run(),
                1 => Search::new(&regression, start)
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::admissible(d, s, g))
                    .run(),
                _ => Search::new(&regression, start)
                    .algorithm(algorithm)
                    .limits(limits())
                    .heuristic(NumericDistance::informative(d, s, g))
                    .run(),
            }
            .expect("valid costs");
            println!(
                "{:<10} {:<9} {:<5} fwd {:>16} exp {:>8} {:>9.3?} | reg {:>16} exp {:>8} {:>9.3?}",
                problem.name,
                format!("{algorithm:?}"),
                hname,
                show(&fwd.outcome),
                fwd.stats.expanded,
                fwd.stats.elapsed,
                show(&reg.outcome),
                reg.stats.expanded,
                reg.stats.elapsed,
            );
        }
    }
}

fn show<N>(o: &search_core::Outcome<N, state_factored::ActionId, u32>) -> String {
    o.solution().map_or_else(
        || o.name().to_string(),
        |sol| format!("cost {} len {}", sol.cost, sol.actions.len()),
    )
}

fn main() {
    for problem in [hitman(), economy(1), economy(3), chains(1), chains(2)] {
        report(&problem.expect("valid problem"));
    }
}
