//! `searchlab`: until the benchmark suite lands, a grid path-finding demo that
//! runs A*, Dijkstra and BFS on one seeded grid and prints what each did.

use benches::grid::Grid;
use search_core::{Algorithm, Search, SearchError};

fn main() -> Result<(), SearchError> {
    let grid = Grid::random(1000, 1000, 0.25, 1);
    println!(
        "1000x1000 grid, 25% blocked (seed 1), from (0, 0) to {:?}",
        grid.goal
    );
    println!(
        "{:<9} {:>6} {:>10} {:>10} {:>10} {:>10} {:>9} {:>10}",
        "algorithm", "cost", "expanded", "generated", "evaluated", "stored", "max open", "time"
    );
    for (name, algorithm) in [
        ("A*", Algorithm::AStar),
        ("Dijkstra", Algorithm::Dijkstra),
        ("BFS", Algorithm::BreadthFirst),
    ] {
        let result = Search::new(&grid, (0, 0))
            .algorithm(algorithm)
            .heuristic(grid.heuristic())
            .run()?;
        let cost = result
            .outcome
            .solution()
            .map_or_else(|| result.outcome.name().to_owned(), |s| s.cost.to_string());
        let s = &result.stats;
        println!(
            "{name:<9} {cost:>6} {:>10} {:>10} {:>10} {:>10} {:>9} {:>10.2?}",
            s.expanded, s.generated, s.evaluated, s.stored, s.max_open, s.elapsed
        );
    }
    Ok(())
}
