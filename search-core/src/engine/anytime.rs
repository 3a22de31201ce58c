//! Restarting weighted A*: an anytime search that keeps improving its plan.
//!
//! Weighted A* with the weights 5, 3, 2 and 1 in turn (LAMA's schedule),
//! each run from the start again and pruned to paths strictly cheaper than
//! the best plan found so far (`g`, or `g + h` with an admissible
//! heuristic, at least the best cost is pruned). Each plan an iteration
//! finds is cheaper than every one before it; they are readable between
//! steps ([`Search::improvements`](crate::Search::improvements)), so a caller
//! can act on the first and take the better ones as they come. The last
//! weight repeats while it still finds cheaper plans.
//!
//! The search ends when
//! - an iteration exhausts what the bound leaves: no cheaper plan exists,
//!   so the best one is optimal (with an admissible heuristic, or without
//!   one, since a pruned search with an inadmissible heuristic prunes on `g`
//!   alone);
//! - weight 1 with an admissible heuristic found a plan: A* under the bound,
//!   so that plan is optimal;
//! - a limit or cancellation stops it: the outcome is the best plan so far
//!   (or the limit, if none).
//!
//! Each iteration restarts from scratch (as Fast Downward's iterated search
//! does) rather than reusing the previous tree (as Richter, Thayer and Ruml's
//! restarting weighted A* does): simpler, and the schedule's later weights
//! dominate the time anyway. The statistics add up over iterations; the
//! limits (expansions, time, memory) hold for the whole run.

use std::time::Duration;

use crate::{Algorithm, Cost, Solution};

/// The weights of the iterations, in order; the last repeats.
pub const RESTART_WEIGHTS: [f64; 4] = [5.0, 3.0, 2.0, 1.0];

/// A plan found by restarting weighted A*, cheaper than every one before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Improvement<N, A, C> {
    /// The plan.
    pub solution: Solution<N, A, C>,
    /// The weight of the iteration that found it.
    pub weight: f64,
    /// Expansions over all iterations when it was found.
    pub expanded: u64,
    /// Search time over all iterations when it was found.
    pub elapsed: Duration,
}

/// Where restarting weighted A* stands between iterations.
#[derive(Clone, Debug)]
pub(crate) struct Schedule<N, A, C> {
    /// Index of the running iteration's weight in [`RESTART_WEIGHTS`].
    iteration: usize,
    pub(crate) improvements: Vec<Improvement<N, A, C>>,
}

/// What to do after an iteration ended.
pub(crate) enum Next {
    /// Run the next iteration, with this algorithm.
    Restart(Algorithm),
    /// The whole search is over.
    Finish,
}

impl<N, A, C: Cost> Schedule<N, A, C> {
    pub(crate) fn new() -> Self {
        Self {
            iteration: 0,
            improvements: Vec::new(),
        }
    }

    fn is_last(&self) -> bool {
        self.iteration + 1 >= RESTART_WEIGHTS.len()
    }

    fn weight(&self) -> f64 {
        RESTART_WEIGHTS[self.iteration.min(RESTART_WEIGHTS.len() - 1)]
    }

    /// The running iteration's algorithm: the last weight, 1, is A*.
    pub(crate) fn algorithm(&self) -> Algorithm {
        if self.is_last() {
            Algorithm::AStar
        } else {
            Algorithm::WeightedAStar {
                weight: self.weight(),
            }
        }
    }

    /// The best plan's cost: later iterations keep only cheaper paths.
    pub(crate) fn bound(&self) -> Option<C> {
        self.improvements.last().map(|i| i.solution.cost)
    }

    /// The running iteration found `solution` (cheaper than the bound, which
    /// pruned everything else).
    pub(crate) fn found(
        &mut self,
        solution: Solution<N, A, C>,
        expanded: u64,
        elapsed: Duration,
        admissible: bool,
    ) -> Next {
        let weight = self.weight();
        let free = solution.cost.is_zero();
        self.improvements.push(Improvement {
            solution,
            weight,
            expanded,
            elapsed,
        });
        if free || (self.is_last() && admissible) {
            return Next::Finish; // nothing is cheaper; or A*: optimal
        }
        self.iteration += 1;
        Next::Restart(self.algorithm())
    }
}
