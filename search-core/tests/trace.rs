//! Recorded traces: what they hold (every stored node, the expansions in
//! order, the goal and its path) and how they are written (text and DOT,
//! capped).

use search_core::{Algorithm, Estimate, Heuristic, LazyGreedy, Search, SearchSpace, Status, Trace};

/// An 8x8 grid with a wall down column 4 (open at the bottom row); moves
/// of cost 1 in four directions, from (0, 0) to (7, 0).
struct Grid;

const SIZE: i32 = 8;

impl SearchSpace for Grid {
    type Node = (i32, i32);
    type Action = char;
    type Cost = u32;

    fn is_goal(&self, n: &(i32, i32)) -> bool {
        *n == (SIZE - 1, 0)
    }

    fn successors<F: FnMut(char, (i32, i32), u32)>(&self, &(x, y): &(i32, i32), mut emit: F) {
        for (action, dx, dy) in [('R', 1, 0), ('L', -1, 0), ('D', 0, 1), ('U', 0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            let inside = (0..SIZE).contains(&nx) && (0..SIZE).contains(&ny);
            let wall = nx == 4 && ny < SIZE - 1;
            if inside && !wall {
                emit(action, (nx, ny), 1);
            }
        }
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "heuristics take the node by reference"
)]
fn manhattan(&(x, y): &(i32, i32)) -> u32 {
    (SIZE - 1 - x).unsigned_abs() + y.unsigned_abs()
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "trace labels take the node by reference"
)]
fn label(&(x, y): &(i32, i32)) -> String {
    format!("({x},{y})")
}

fn traced(algorithm: Algorithm) -> (Trace<(i32, i32), char, u32>, search_core::ResultOf<Grid>) {
    let mut search = Search::new(&Grid, (0, 0))
        .algorithm(algorithm)
        .heuristic(manhattan)
        .record_trace(true);
    let result = search.run().unwrap();
    (search.trace().unwrap(), result)
}

/// The lines of a DOT text that declare a node (`  n12 [..];`).
fn node_lines(dot: &str) -> Vec<&str> {
    dot.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.strip_prefix('n').is_some_and(|rest| {
                let digits = rest.chars().take_while(char::is_ascii_digit).count();
                digits > 0 && rest[digits..].starts_with(" [")
            })
        })
        .collect()
}

fn edge_lines(dot: &str) -> Vec<&str> {
    dot.lines().filter(|l| l.contains(" -> ")).collect()
}

#[test]
fn the_dot_is_well_formed_with_one_line_per_node_and_the_plan_highlighted() {
    let (trace, result) = traced(Algorithm::AStar);
    let dot = trace.to_dot(label, char::to_string);
    assert!(dot.starts_with("digraph search {\n") && dot.ends_with("}\n"));
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    assert_eq!(dot.matches('"').count() % 2, 0);
    assert_eq!(node_lines(&dot).len(), trace.nodes().len());
    // Every node but the start hangs from its parent.
    assert_eq!(edge_lines(&dot).len(), trace.nodes().len() - 1);
    let plan = result.outcome.solution().unwrap();
    let highlighted: Vec<&str> = edge_lines(&dot)
        .into_iter()
        .filter(|l| l.contains("penwidth"))
        .collect();
    assert_eq!(highlighted.len(), plan.actions.len());
    let path = trace.path();
    for (step, pair) in path.windows(2).enumerate() {
        let action = plan.actions[step];
        let edge = format!("n{} -> n{} [label=\"{action}\", color=", pair[0], pair[1]);
        assert!(
            highlighted.iter().any(|l| l.contains(&edge)),
            "{edge}\n{dot}"
        );
    }
    let goal = trace.goal().unwrap();
    assert!(dot.contains(&format!("n{goal} [label=\"n{goal} #")));
    assert!(!dot.contains("not shown"));
}

#[test]
fn the_path_is_the_plan() {
    for algorithm in [
        Algorithm::AStar,
        Algorithm::GreedyBestFirst,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
        Algorithm::WeightedAStar { weight: 2.0 },
    ] {
        let (trace, result) = traced(algorithm);
        let plan = result.outcome.solution().unwrap();
        let path = trace.path();
        let nodes: Vec<(i32, i32)> = path
            .iter()
            .map(|&i| trace.nodes()[i as usize].node)
            .collect();
        assert_eq!(nodes, plan.nodes, "{algorithm}");
        let actions: Vec<char> = path[1..]
            .iter()
            .filter_map(|&i| trace.nodes()[i as usize].action)
            .collect();
        assert_eq!(actions, plan.actions, "{algorithm}");
        assert_eq!(trace.nodes()[path[path.len() - 1] as usize].g, plan.cost);
        assert_eq!(trace.nodes().len(), result.stats.stored, "{algorithm}");
    }
}

#[test]
fn expansion_numbers_count_the_expansions() {
    for algorithm in [
        Algorithm::AStar,
        Algorithm::GreedyBestFirst,
        Algorithm::Dijkstra,
        Algorithm::BreadthFirst,
    ] {
        let (trace, result) = traced(algorithm);
        assert_eq!(trace.expansions().len() as u64, result.stats.expanded);
        // Manhattan distance is consistent: nothing is expanded twice, so
        // the numbers are 1..=expanded, each once.
        let mut numbers: Vec<u64> = trace.nodes().iter().filter_map(|n| n.expanded).collect();
        numbers.sort_unstable();
        let expected: Vec<u64> = (1..=result.stats.expanded).collect();
        assert_eq!(numbers, expected, "{algorithm}");
        for (k, &index) in (1..).zip(trace.expansions()) {
            assert_eq!(trace.nodes()[index as usize].expanded, Some(k));
        }
        assert_eq!(trace.nodes()[0].expanded, Some(1));
        assert_eq!(trace.nodes()[0].parent, None);
        // Dijkstra and BFS use no heuristic, the others record it.
        let estimates = trace.nodes().iter().filter(|n| n.h.is_some()).count();
        match algorithm {
            Algorithm::Dijkstra | Algorithm::BreadthFirst => assert_eq!(estimates, 0),
            _ => assert_eq!(estimates, trace.nodes().len()),
        }
    }
}

#[test]
fn without_recording_there_is_no_trace() {
    let mut search = Search::new(&Grid, (0, 0)).heuristic(manhattan);
    search.run().unwrap();
    assert!(search.trace().is_none());
    let mut off = Search::new(&Grid, (0, 0))
        .record_trace(true)
        .record_trace(false);
    off.run().unwrap();
    assert!(off.trace().is_none());
}

#[test]
fn a_trace_mid_search_has_no_goal_yet_and_grows() {
    let mut search = Search::new(&Grid, (0, 0))
        .heuristic(manhattan)
        .record_trace(true);
    assert_eq!(search.step(3).unwrap(), Status::Running);
    let early = search.trace().unwrap();
    assert_eq!(early.expansions().len(), 3);
    assert_eq!(early.goal(), None);
    assert!(early.path().is_empty());
    assert!(early.to_text(label, char::to_string).contains("no goal"));
    search.run().unwrap();
    let done = search.trace().unwrap();
    assert!(done.expansions().starts_with(early.expansions()));
    assert!(done.goal().is_some());
}

#[test]
fn the_text_has_one_line_per_node_and_marks_the_plan() {
    let (trace, result) = traced(Algorithm::AStar);
    let text = trace.to_text(label, char::to_string);
    let mut lines = text.lines();
    let summary = lines.next().unwrap();
    assert_eq!(
        summary,
        format!(
            "{} nodes stored, {} expanded, goal n{} at g=21",
            result.stats.stored,
            result.stats.expanded,
            trace.goal().unwrap()
        )
    );
    let rest: Vec<&str> = lines.collect();
    assert_eq!(rest.len(), trace.nodes().len());
    let marked = rest.iter().filter(|l| l.starts_with('*')).count();
    assert_eq!(marked, trace.path().len());
    assert!(rest[0].starts_with("* n0 (0,0)  g=0 h=7  #1"), "{text}");
    assert!(rest.iter().any(|l| l.ends_with(" goal")));
}

#[test]
fn a_cap_keeps_the_plan_and_says_how_many_were_left_out() {
    let (mut trace, _) = traced(Algorithm::Dijkstra);
    let path = trace.path();
    let total = trace.nodes().len();
    trace.set_max_nodes(3);
    assert!(path.len() > 3);
    let dot = trace.to_dot(label, char::to_string);
    let shown = node_lines(&dot).len();
    assert_eq!(shown, path.len());
    assert!(
        dot.contains(&format!("label=\"{} more nodes not shown\"", total - shown)),
        "{dot}"
    );
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    let text = trace.to_text(label, char::to_string);
    assert_eq!(text.lines().count(), 1 + path.len() + 1);
    assert!(text.ends_with(&format!("... {} more nodes not shown\n", total - shown)));

    // Room beyond the path goes to the first expanded nodes, with their
    // ancestors, so the tree stays connected.
    trace.set_max_nodes(path.len() + 5);
    let dot = trace.to_dot(label, char::to_string);
    assert_eq!(node_lines(&dot).len(), path.len() + 5);
    assert_eq!(edge_lines(&dot).len(), path.len() + 4);
}

/// Manhattan distance, and a dead end on the cells right of the wall's
/// open row but one, to see dead ends in the trace.
struct WithDeadEnds;

impl Heuristic<(i32, i32), u32> for WithDeadEnds {
    fn estimate(&mut self, node: &(i32, i32)) -> Estimate<u32> {
        if *node == (3, 6) {
            Estimate::DeadEnd
        } else {
            Estimate::Value(manhattan(node))
        }
    }
}

#[test]
fn dead_ends_are_marked_and_have_no_estimate() {
    let mut search = Search::new(&Grid, (0, 0))
        .heuristic(WithDeadEnds)
        .record_trace(true);
    let result = search.run().unwrap();
    assert!(result.stats.dead_ends > 0);
    let trace = search.trace().unwrap();
    let dead: Vec<_> = trace.nodes().iter().filter(|n| n.dead_end).collect();
    assert_eq!(dead.len() as u64, result.stats.dead_ends);
    assert!(dead.iter().all(|n| n.h.is_none() && n.expanded.is_none()));
    let dot = trace.to_dot(label, char::to_string);
    assert!(dot.contains("(3,6)\\ng=9\\ndead end"), "{dot}");
}

#[test]
fn restarting_weighted_astar_traces_its_last_iteration() {
    let mut search = Search::new(&Grid, (0, 0))
        .algorithm(Algorithm::RestartingWeightedAStar)
        .heuristic(search_core::Admissible(manhattan))
        .record_trace(true);
    let result = search.run().unwrap();
    let trace = search.trace().unwrap();
    assert!(!search.improvements().is_empty());
    assert!((trace.expansions().len() as u64) < result.stats.expanded);
    assert_eq!(trace.nodes()[0].node, (0, 0));
}

#[test]
fn a_named_trace_renders_as_the_original() {
    let (trace, _) = traced(Algorithm::AStar);
    let dot = trace.to_dot(label, char::to_string);
    let named = trace.map(label, char::to_string);
    assert_eq!(named.to_dot(String::clone, String::clone), dot);
}

#[test]
fn a_search_resumed_over_frames_keeps_its_trace() {
    let (whole, _) = traced(Algorithm::AStar);
    let mut state = Search::new(&Grid, (0, 0))
        .heuristic(manhattan)
        .record_trace(true)
        .into_state()
        .0;
    loop {
        // Asking again on resume keeps what was recorded.
        let mut search = Search::resume(&Grid, state)
            .heuristic(manhattan)
            .record_trace(true);
        let status = search.step(5).unwrap();
        state = search.into_state().0;
        if status == Status::Finished {
            break;
        }
    }
    let sliced = state.trace(&Grid).unwrap();
    assert_eq!(sliced, whole);
}

#[test]
fn lazy_greedy_search_traces_the_nodes_it_took_off_the_open_list() {
    let mut search = LazyGreedy::new(&Grid, (0, 0), vec![manhattan]).record_trace(true);
    let result = search.run().unwrap();
    let trace = search.trace().unwrap();
    let plan = result.outcome.solution().unwrap();
    assert_eq!(trace.expansions().len() as u64, result.stats.expanded);
    assert_eq!(trace.nodes().len(), result.stats.stored);
    let nodes: Vec<(i32, i32)> = trace
        .path()
        .iter()
        .map(|&i| trace.nodes()[i as usize].node)
        .collect();
    assert_eq!(nodes, plan.nodes);
    // The goal is estimated but, in a lazy search, not expanded.
    let goal = &trace.nodes()[trace.goal().unwrap() as usize];
    assert_eq!((goal.h, goal.expanded), (Some(0), None));
    assert!(trace
        .nodes()
        .iter()
        .all(|n| n.h == Some(manhattan(&n.node))));
    let dot = trace.to_dot(label, char::to_string);
    assert_eq!(node_lines(&dot).len(), trace.nodes().len());

    let mut off = LazyGreedy::new(&Grid, (0, 0), vec![manhattan]);
    off.run().unwrap();
    assert!(off.trace().is_none());
}
