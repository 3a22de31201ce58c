//! Prints sizes, optimal costs and expansions of the synthetic families.
use search_core::{Algorithm, Search, SearchLimits};
use state_atomic::prelude::*;
use state_atomic::problems;

fn c<N>(r: &search_core::SearchResult<N, ActionId, u32>) -> Option<(u32, usize)> {
    r.outcome.solution().map(|s| (s.cost, s.actions.len()))
}

fn main() {
    for size in [40usize] {
        for seed in 1..=3u64 {
            for p in [
                problems::chains::<u64>(size, seed).unwrap(),
                problems::shortcuts(size, seed).unwrap(),
                problems::toggles(size, seed).unwrap(),
            ] {
                let a = &p.actions;
                let lim = SearchLimits {
                    max_expansions: Some(3_000_000),
                    ..SearchLimits::default()
                };
                let fw = ForwardSpace::new(a, p.goal).unwrap();
                let t = std::time::Instant::now();
                let r1 = Search::new(&fw, p.start)
                    .algorithm(Algorithm::AStar)
                    .heuristic(Mismatch::forward(p.goal))
                    .limits(lim.clone())
                    .run()
                    .unwrap();
                let t1 = t.elapsed();
                let t = std::time::Instant::now();
                let r2 = Search::new(&fw, p.start)
                    .algorithm(Algorithm::AStar)
                    .heuristic(RelaxedForward::h_max(a, p.goal))
                    .limits(lim.clone())
                    .run()
                    .unwrap();
                let t2 = t.elapsed();
                let rs = RegressionSpace::new(a, p.start, p.goal).unwrap();
                let t = std::time::Instant::now();
                let r3 = Search::new(&rs, p.goal)
                    .algorithm(Algorithm::AStar)
                    .heuristic(RelaxedRegression::h_max(a, p.start))
                    .limits(lim.clone())
                    .run()
                    .unwrap();
                let t3 = t.elapsed();
                let r4 = Search::new(&rs, p.goal)
                    .algorithm(Algorithm::AStar)
                    .heuristic(Mismatch::regression(p.start))
                    .limits(lim.clone())
                    .run()
                    .unwrap();
                let r5 = Search::new(&rs, p.goal)
                    .algorithm(Algorithm::Dijkstra)
                    .limits(lim.clone())
                    .run()
                    .unwrap();
                println!("{} seed {seed}: atoms {} actions {} | fw-mm {:?} exp {} {:?} | fw-hmax {:?} exp {} {:?} | rg-hmax {:?} exp {} {:?} | rg-mm {:?} exp {} | rg-dij {:?} exp {}",
                    p.name, a.registry().len(), a.len(), c(&r1), r1.stats.expanded, t1, c(&r2), r2.stats.expanded, t2, c(&r3), r3.stats.expanded, t3, c(&r4), r4.stats.expanded, c(&r5), r5.stats.expanded);
            }
        }
    }
}
