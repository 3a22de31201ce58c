//! Bidirectional planning: forward states and regression subgoals searched
//! at once, meeting where a state satisfies a subgoal (NBS, bidirectional
//! Dijkstra, TTBS).

use std::time::{Duration, Instant};

use search_core::bidirectional::{BidirectionalResult, Nbs, Side, Ttbs};
use search_core::{Algorithm, Blind, Outcome, SearchLimits, Statistics};

use crate::planner::plan_outcome;
use crate::{BoxedHeuristic, Direction, PlanError, PlanReport, Planner, PlanningDomain};

impl<D: PlanningDomain> Planner<'_, D> {
    /// One search from both ends: A* as NBS with the configured heuristic
    /// each way (the forward one to the goal, the regression one from the
    /// start), Dijkstra as bidirectional Dijkstra, greedy best-first
    /// search as TTBS with the heuristic's front-to-front form.
    pub(crate) fn bidirectional(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: SearchLimits<u32>,
    ) -> Result<PlanReport<D::ActionId>, PlanError> {
        let blind = match self.config().algorithm {
            Algorithm::AStar => false,
            Algorithm::Dijkstra => true,
            Algorithm::GreedyBestFirst => return self.ttbs(domain, start, goal, limits),
            other => {
                return Err(PlanError::NotBidirectional {
                    algorithm: other.to_string(),
                })
            }
        };
        let forward = domain.forward(goal)?;
        let (regression, subgoal) = domain.regression(start, goal)?;
        let setup = Instant::now();
        self.with_forward_heuristics(domain, start, goal, |make_forward| {
            self.with_regression_heuristics(domain, start, goal, |make_regression| {
                let (to_goal, from_start) = if blind {
                    (boxed_blind(), boxed_blind())
                } else {
                    (self.only(make_forward()?)?, self.only(make_regression()?)?)
                };
                let setup_time = setup.elapsed();
                let mut search = Nbs::new(
                    &forward,
                    start.clone(),
                    &regression,
                    subgoal,
                    domain.meeting(),
                )
                .heuristics(to_goal, from_start)
                .limits(limits);
                let result = search.run()?;
                let sides = [search.forward_statistics(), search.backward_statistics()];
                Ok(report(domain, result, sides, setup_time))
            })
        })
    }

    /// TTBS: greedy search from both ends, each side aiming at the other's
    /// best node by the configured heuristic's front-to-front form.
    fn ttbs(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: SearchLimits<u32>,
    ) -> Result<PlanReport<D::ActionId>, PlanError> {
        let forward = domain.forward(goal)?;
        let (regression, subgoal) = domain.regression(start, goal)?;
        let setup = Instant::now();
        let between = domain.front_to_front(self.config().heuristic.name(), goal)?;
        let setup_time = setup.elapsed();
        let mut search = Ttbs::new(
            &forward,
            start.clone(),
            &regression,
            subgoal,
            domain.meeting(),
            between,
        )
        .limits(limits);
        let result = search.run()?;
        let sides = [search.forward_statistics(), search.backward_statistics()];
        Ok(report(domain, result, sides, setup_time))
    }

    /// The one heuristic of a direction; an alternation is refused.
    fn only<'a, N>(
        &self,
        mut made: Vec<BoxedHeuristic<'a, N>>,
    ) -> Result<BoxedHeuristic<'a, N>, PlanError> {
        match (made.pop(), made.is_empty()) {
            (Some(heuristic), true) => Ok(heuristic),
            _ => Err(PlanError::Alternation {
                heuristic: self.config().heuristic.name().to_owned(),
            }),
        }
    }
}

fn boxed_blind<'a, N>() -> BoxedHeuristic<'a, N> {
    Box::new(Blind)
}

/// The report of a bidirectional search: the plan in execution order (the
/// forward part as found, then the regressed part reversed), each side's
/// statistics and both together.
fn report<D: PlanningDomain>(
    domain: &D,
    result: BidirectionalResult<D::Forward<'_>, D::Regression<'_>>,
    [forward, regression]: [&Statistics; 2],
    setup_time: Duration,
) -> PlanReport<D::ActionId> {
    let forward_steps = result.outcome.solution().map_or(0, |solution| {
        let states = solution
            .nodes
            .iter()
            .filter(|n| matches!(n, Side::Forward(_)));
        states.count().saturating_sub(1)
    });
    let order = |actions: Vec<D::ActionId>| {
        let (prefix, suffix) = actions.split_at(forward_steps.min(actions.len()));
        let regressed: Vec<D::ActionId> = suffix.iter().rev().copied().collect();
        let mut plan = prefix.to_vec();
        plan.extend(domain.execution_order(&regressed));
        plan
    };
    let outcome: Outcome<_, _, u32> = result.outcome;
    PlanReport {
        outcome: plan_outcome(outcome, order),
        direction: Direction::Bidirectional,
        forward: Some(forward.clone()),
        regression: Some(regression.clone()),
        both: Some(result.stats),
        elapsed: Duration::ZERO,
        setup_time,
        improvements: Vec::new(),
        notes: Vec::new(),
    }
}
