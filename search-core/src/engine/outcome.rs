//! The result every algorithm returns.

use crate::{Cost, Limit, Statistics};

/// A path from the start to a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<N, A, C> {
    /// The actions along the path, in order; one fewer than `nodes`.
    pub actions: Vec<A>,
    /// The nodes along the path, from the start to the goal.
    pub nodes: Vec<N>,
    /// The sum of the edge costs along the path.
    pub cost: C,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<N, A, C> {
    /// A goal was reached.
    Solved(Solution<N, A, C>),
    /// Every reachable node was seen: no goal is reachable (dead ends
    /// excluded by the heuristic count as unreachable, which they are: see
    /// [`Heuristic::dead_ends_are_reliable`](crate::Heuristic::dead_ends_are_reliable)).
    Exhausted,
    /// The search ran dry without reaching a goal, but it dropped nodes that
    /// a heuristic called dead ends without promising they are: a goal may
    /// still be reachable. Not a proof that none is.
    NoSolutionFound,
    /// A limit stopped the search before it ended. An anytime search
    /// ([`Algorithm::RestartingWeightedAStar`](crate::Algorithm)) keeps the
    /// best solution it found before: a valid path, not known to be optimal.
    LimitReached {
        /// The limit that stopped the search.
        limit: Limit,
        /// The best solution found before the limit, if any.
        best: Option<Solution<N, A, C>>,
    },
    /// The cancellation flag was raised; `best` as for
    /// [`LimitReached`](Outcome::LimitReached).
    Cancelled {
        /// The best solution found before the cancellation, if any.
        best: Option<Solution<N, A, C>>,
    },
}

impl<N, A, C> Outcome<N, A, C> {
    /// The solution found, if any: the goal's path when solved, or the best
    /// path an anytime search found before a limit or cancellation stopped
    /// it (then not known to be optimal; match [`Outcome::Solved`] to tell).
    pub fn solution(&self) -> Option<&Solution<N, A, C>> {
        match self {
            Outcome::Solved(solution) => Some(solution),
            Outcome::LimitReached { best, .. } | Outcome::Cancelled { best } => best.as_ref(),
            Outcome::Exhausted | Outcome::NoSolutionFound => None,
        }
    }

    /// The solution found, if any, consuming the outcome; see
    /// [`solution`](Outcome::solution).
    pub fn into_solution(self) -> Option<Solution<N, A, C>> {
        match self {
            Outcome::Solved(solution) => Some(solution),
            Outcome::LimitReached { best, .. } | Outcome::Cancelled { best } => best,
            Outcome::Exhausted | Outcome::NoSolutionFound => None,
        }
    }

    /// The outcome with its solution, if any, passed through `f`: the same
    /// outcome over other nodes or actions, e.g. a search's over a compact
    /// form of the nodes translated back.
    ///
    /// ```
    /// use search_core::{Outcome, Solution};
    ///
    /// let solved = Outcome::Solved(Solution { actions: vec!['a'], nodes: vec![1_u8, 2], cost: 3_u32 });
    /// let wide = solved.map_solution(|s| Solution {
    ///     actions: s.actions,
    ///     nodes: s.nodes.into_iter().map(u64::from).collect(),
    ///     cost: s.cost,
    /// });
    /// assert_eq!(wide.solution().unwrap().nodes, [1_u64, 2]);
    /// ```
    pub fn map_solution<M, B>(
        self,
        f: impl FnOnce(Solution<N, A, C>) -> Solution<M, B, C>,
    ) -> Outcome<M, B, C> {
        match self {
            Outcome::Solved(solution) => Outcome::Solved(f(solution)),
            Outcome::LimitReached { limit, best } => Outcome::LimitReached {
                limit,
                best: best.map(f),
            },
            Outcome::Cancelled { best } => Outcome::Cancelled { best: best.map(f) },
            Outcome::Exhausted => Outcome::Exhausted,
            Outcome::NoSolutionFound => Outcome::NoSolutionFound,
        }
    }

    /// The limit that stopped the search, if one did.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            Outcome::LimitReached { limit, .. } => Some(*limit),
            _ => None,
        }
    }

    /// A short lower-case name: `solved`, `exhausted`, `no_solution_found`,
    /// `limit`, `cancelled`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Solved(_) => "solved",
            Outcome::Exhausted => "exhausted",
            Outcome::NoSolutionFound => "no_solution_found",
            Outcome::LimitReached { .. } => "limit",
            Outcome::Cancelled { .. } => "cancelled",
        }
    }
}

impl<N, A, C> Outcome<N, A, C> {
    /// How a search that ran dry without reaching a goal ended: exhausted,
    /// unless it dropped `dead_ends` of a heuristic whose dead ends are not
    /// `reliable`.
    pub(crate) fn ran_dry(dead_ends: u64, reliable: bool) -> Self {
        if dead_ends > 0 && !reliable {
            Outcome::NoSolutionFound
        } else {
            Outcome::Exhausted
        }
    }
}

/// An outcome and the statistics of the search that produced it.
#[derive(Clone, Debug)]
pub struct SearchResult<N, A, C> {
    /// How the search ended.
    pub outcome: Outcome<N, A, C>,
    /// What it did on the way.
    pub stats: Statistics,
}

/// Bad input found while searching, or in an algorithm's name. "No solution"
/// is an outcome, not an error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// An edge cost was negative or NaN.
    #[error("invalid edge cost {cost} from node {node}: costs must be non-negative numbers")]
    InvalidCost {
        /// The node whose successor had the cost (its `Debug` form).
        node: String,
        /// The cost (its `Debug` form).
        cost: String,
    },
    /// A path cost passed the largest value of the cost type: the costs
    /// along a path add up to more than the type holds. Such paths are left
    /// out; this is the error only when the search finds no other plan.
    #[error(
        "path cost above {max}, the largest value of the cost type {cost_type}: the path to \
         node {node} costs {path_cost} and its next action costs {action_cost}; use smaller \
         action costs or a wider cost type"
    )]
    CostOverflow {
        /// The node being expanded (its `Debug` form).
        node: String,
        /// The cost of the path to `node` (its `Display` form).
        path_cost: String,
        /// The cost of the action that would pass the limit.
        action_cost: String,
        /// The cost type's name, e.g. `u32`.
        cost_type: &'static str,
        /// The cost type's largest value, e.g. `4294967295`.
        max: String,
    },
    /// A node's number in the space's dense numbering was out of range.
    #[error("node {node} has number {number}, not below the space's {numbers} node numbers")]
    NodeNumberOutOfRange {
        /// The node (its `Debug` form).
        node: String,
        /// Its number.
        number: u64,
        /// The space's [`node_numbers`](crate::SearchSpace::node_numbers).
        numbers: u64,
    },
    /// Two nodes had the same number in the space's dense numbering.
    #[error("nodes {node} and {other} both have number {number}; a dense numbering gives each node its own")]
    NodeNumberShared {
        /// The node being stored (its `Debug` form).
        node: String,
        /// The stored node with the same number (its `Debug` form).
        other: String,
        /// The number.
        number: u64,
    },
    /// A space that says it makes successors from actions
    /// ([`makes_successors`](crate::SearchSpace::makes_successors)) did not
    /// make one it had emitted.
    #[error(
        "the space emitted a successor of node {node} that its `successor` method did not \
         make again: a space whose `makes_successors` is true makes every successor it emits"
    )]
    SuccessorNotMade {
        /// The parent node (its `Debug` form).
        node: String,
    },
    /// A space gave a node other successors when asked again: the engine
    /// keeps no action per node and finds a plan's actions again from each
    /// parent's successors, so a space must give a node the same successors
    /// every time ([`SearchSpace::successors`](crate::SearchSpace::successors)).
    #[error(
        "node {successor} was reached from node {node}, but the space no longer gives it as a \
         successor of that node: a space must give a node the same successors every time"
    )]
    SuccessorsChanged {
        /// The parent (its `Debug` form).
        node: String,
        /// The stored successor the space no longer gives (its `Debug` form).
        successor: String,
    },
    /// Weighted A* needs a finite weight of at least 1.
    #[error("weighted A* needs a finite weight >= 1, got {weight}")]
    InvalidWeight {
        /// The weight given.
        weight: f64,
    },
    /// [`Algorithm::LazyGreedy`](crate::Algorithm::LazyGreedy) given to a
    /// [`Search`](crate::Search), which runs the eager algorithms only.
    #[error("lazy greedy search runs in its own engine: use search_core::LazyGreedy, not Search")]
    NeedsLazyGreedy,
    /// A name that is not an [`Algorithm`](crate::Algorithm)'s (see its
    /// `FromStr`).
    #[error("unknown algorithm `{name}` (known: {known})")]
    UnknownAlgorithm {
        /// The name given.
        name: String,
        /// The names that exist.
        known: &'static str,
    },
    /// A [`Grid`](crate::Grid) map that cannot be read.
    #[error("grid map, line {line}, column {column}: {why}")]
    InvalidGrid {
        /// The line (from 1).
        line: usize,
        /// The column (from 1, in characters).
        column: usize,
        /// What is wrong there.
        why: String,
    },
}

/// The error for an edge of cost `cost` out of `node` at path cost `g`: a
/// path cost past the cost type, or an edge cost that is negative or NaN.
#[cold]
pub(crate) fn edge_error<N: std::fmt::Debug, C: Cost>(node: &N, g: C, cost: C) -> SearchError {
    let node = format!("{node:?}");
    if cost.is_valid_edge() {
        SearchError::CostOverflow {
            node,
            path_cost: g.to_string(),
            action_cost: cost.to_string(),
            cost_type: std::any::type_name::<C>(),
            max: C::largest().to_string(),
        }
    } else {
        SearchError::InvalidCost {
            node,
            cost: format!("{cost:?}"),
        }
    }
}
