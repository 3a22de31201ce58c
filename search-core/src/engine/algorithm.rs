//! Which algorithm a [`Search`](crate::Search) runs, and each one's
//! priority rule: the engine's, so that the one-call front doors
//! (`astar()`, `greedy()` ...) depend on the engine and not the reverse.

use crate::engine::anytime::RESTART_WEIGHTS;
use crate::{Cost, SearchError};

/// Which algorithm a [`Search`](crate::Search) runs.
///
/// | algorithm | expands by | heuristic | reopens | returns |
/// |---|---|---|---|---|
/// | [`AStar`](Algorithm::AStar) | `g + h` | yes | yes | optimal with admissible `h` |
/// | [`WeightedAStar`](Algorithm::WeightedAStar) | `g + floor(w h)` | yes | yes | at most `w` times optimal with admissible `h` |
/// | [`GreedyBestFirst`](Algorithm::GreedyBestFirst) | `h`, ties first in, first out | yes | no | any plan, fast |
/// | [`Dijkstra`](Algorithm::Dijkstra) | `g` | ignored | never needed | optimal |
/// | [`BreadthFirst`](Algorithm::BreadthFirst) | depth | ignored | no | fewest edges |
/// | [`RestartingWeightedAStar`](Algorithm::RestartingWeightedAStar) | `g + floor(w h)`, `w` = 5, 3, 2, 1 | yes | yes | better plans as it goes; optimal at the end with admissible `h` |
/// | [`LazyGreedy`](Algorithm::LazyGreedy) | the parent's `h` | one or more | no | any plan, fewer evaluations |
/// | [`LazyTypeBased`](Algorithm::LazyTypeBased) | the parent's `h`, and in turn a random type (`h`, `g`) | one or more | no | any plan, out of plateaus sooner |
/// | [`LazyHelpful`](Algorithm::LazyHelpful) | the parent's `h`, preferred successors only | one or more | no | any plan, far fewer expansions where the relaxed plan points the way; incomplete |
///
/// Ties among equal priorities go to the larger `g` (the deeper node), then
/// to the node stored first; greedy best-first search breaks them first in,
/// first out alone, as Fast Downward's eager greedy search does, so a plateau
/// is searched breadth-first rather than dived into forever. Everything is
/// deterministic: the same space and start give the same expansions on every
/// run.
///
/// Lazy greedy search (with or without type-based exploration) runs in its
/// own engine, [`LazyGreedy`](crate::LazyGreedy); a [`Search`](crate::Search)
/// refuses it with [`SearchError::NeedsLazyGreedy`].
///
/// `Display` writes a short name (`astar`, `wastar2`, `gbfs`, `dijkstra`,
/// `bfs`, `lazygbfs`) and `FromStr` reads it back, with aliases:
///
/// ```
/// use search_core::Algorithm;
/// let algorithm: Algorithm = "wastar:1.5".parse().unwrap();
/// assert_eq!(algorithm, Algorithm::WeightedAStar { weight: 1.5 });
/// assert_eq!(algorithm.to_string(), "wastar1.5");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Algorithm {
    /// A*, see [`astar`](crate::astar()).
    #[default]
    AStar,
    /// Weighted A*, see [`weighted_astar`](crate::weighted_astar()).
    WeightedAStar {
        /// The heuristic's weight, finite and at least 1.
        weight: f64,
    },
    /// Greedy best-first search, see [`greedy`](crate::greedy()).
    GreedyBestFirst,
    /// Dijkstra's uniform-cost search, see [`dijkstra`](crate::dijkstra()).
    Dijkstra,
    /// Breadth-first search, see [`bfs`](crate::bfs()).
    BreadthFirst,
    /// Restarting weighted A*, an anytime search: weighted A* with the
    /// weights [`RESTART_WEIGHTS`](crate::RESTART_WEIGHTS) in turn, each
    /// iteration pruned to plans cheaper than the best so far; see
    /// [`Search::improvements`](crate::Search::improvements) and the module `anytime`'s rules.
    RestartingWeightedAStar,
    /// Lazy greedy best-first search with preferred operators, see
    /// [`LazyGreedy`](crate::LazyGreedy).
    LazyGreedy,
    /// Lazy greedy best-first search with preferred operators and
    /// type-based exploration (Xie, Müller, Holte and Imai, AAAI 2014), see
    /// [`LazyGreedy::type_based`](crate::LazyGreedy::type_based).
    LazyTypeBased,
    /// Lazy greedy best-first search that queues only preferred successors
    /// where an expansion has any (helpful-actions pruning, as ENHSP's
    /// `-ha true`); incomplete, see
    /// [`LazyGreedy::helpful_only`](crate::LazyGreedy::helpful_only).
    LazyHelpful,
}

impl Algorithm {
    /// Whether it runs in the lazy engine, [`LazyGreedy`](crate::LazyGreedy):
    /// lazy greedy search, with type-based exploration or helpful-actions
    /// pruning or neither.
    ///
    /// ```
    /// use search_core::Algorithm;
    /// assert!(Algorithm::LazyTypeBased.is_lazy() && !Algorithm::GreedyBestFirst.is_lazy());
    /// ```
    pub fn is_lazy(self) -> bool {
        matches!(
            self,
            Algorithm::LazyGreedy | Algorithm::LazyTypeBased | Algorithm::LazyHelpful
        )
    }

    /// Breadth-first search, which needs no open list. A `matches!` rather
    /// than `==`: the derived `PartialEq` also compares a weight's float.
    #[inline]
    pub(crate) fn is_bfs(self) -> bool {
        matches!(self, Algorithm::BreadthFirst)
    }

    #[inline]
    pub(crate) fn uses_heuristic(self) -> bool {
        !matches!(self, Algorithm::Dijkstra | Algorithm::BreadthFirst)
    }

    /// Whether integer priorities may use the bucket queue: the priority is
    /// never below `g` and ties follow it.
    pub(crate) fn buckets_integer_priorities(self) -> bool {
        matches!(
            self,
            Algorithm::AStar
                | Algorithm::WeightedAStar { .. }
                | Algorithm::Dijkstra
                | Algorithm::RestartingWeightedAStar
        )
    }

    pub(crate) fn reopens(self) -> bool {
        matches!(
            self,
            Algorithm::AStar | Algorithm::WeightedAStar { .. } | Algorithm::RestartingWeightedAStar
        )
    }

    /// The open-list priority of a node, each algorithm's rule (saturated
    /// at the cost type's largest value, see [`Cost::saturating_add`]):
    /// A* `g + h`; weighted A* `g + floor(w h)`; greedy search `h`;
    /// Dijkstra `g`; breadth-first search the store's order (`g` here, never
    /// read).
    #[inline]
    pub(crate) fn priority<C: Cost>(self, g: C, h: C) -> C {
        match self {
            Algorithm::AStar => g.saturating_add(h),
            Algorithm::WeightedAStar { weight } => g.saturating_add(h.scale(weight)),
            Algorithm::GreedyBestFirst
            | Algorithm::LazyGreedy
            | Algorithm::LazyTypeBased
            | Algorithm::LazyHelpful => h,
            Algorithm::Dijkstra | Algorithm::BreadthFirst => g,
            // A search runs its iterations' algorithms; this is the first's.
            Algorithm::RestartingWeightedAStar => g.saturating_add(h.scale(RESTART_WEIGHTS[0])),
        }
    }

    /// The `g` that breaks ties among equal priorities: the path cost, so
    /// the deeper node goes first, except in greedy search, where the same
    /// zero for every node leaves the order to the push (first in, first
    /// out). Preferring depth there dives forever down a plateau with an
    /// action that repeats without end.
    #[inline]
    pub(crate) fn tie_g<C: Cost>(self, g: C) -> C {
        match self {
            Algorithm::GreedyBestFirst
            | Algorithm::LazyGreedy
            | Algorithm::LazyTypeBased
            | Algorithm::LazyHelpful => C::zero(),
            _ => g,
        }
    }

    /// Checks a weighted A*'s weight.
    pub(crate) fn validate(self) -> Result<(), SearchError> {
        match self {
            Algorithm::WeightedAStar { weight } if !(weight.is_finite() && weight >= 1.0) => {
                Err(SearchError::InvalidWeight { weight })
            }
            _ if self.is_lazy() => Err(SearchError::NeedsLazyGreedy),
            _ => Ok(()),
        }
    }
}
