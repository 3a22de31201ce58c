//! The portfolio's first phase: both directions on the caller's thread, in
//! the tiny engine, before any thread is woken.
//!
//! On a problem that one direction solves in a few dozen expansions,
//! handing the other direction to a second thread costs more than the
//! search (tens of microseconds to wake it and to join). So a portfolio
//! first steps both directions here, an expansion at a time, giving each
//! turn to the direction with less work ahead: its open list times its
//! time per expansion (Pohl's cardinality rule for bidirectional search,
//! weighed by what a node costs each direction). The first direction that
//! settles the problem answers; past a small budget of time the problem is
//! not tiny, and the threaded portfolio starts afresh.

use std::time::{Duration, Instant};

use search_core::{Heuristic, Outcome, Status, TinyAstar};

use crate::planner::plan_outcome;
use crate::{Direction, PlanError, PlanReport, Planner, PlanningDomain};

/// Expansions per turn: one, so that the direction that needs fewer is not
/// held back by the other (a forward expansion can evaluate dozens of
/// successors with `h_max`; a turn's clock reads are a small part of it).
const SLICE: u64 = 1;

/// The time both directions together search here before the problem is
/// handed to the threaded portfolio: a few times what a hand-off to a kept
/// thread and back costs on the reference machine (the threaded portfolio
/// took 20 to 30 µs more than regression alone on shortcuts-40, `cargo
/// bench -p benches --bench agents -- portfolio`), and enough for
/// toggles-40, whose first forward expansion takes 10 µs. A problem that
/// needs more pays this once, on top of the threaded portfolio.
const INLINE_TIME: Duration = Duration::from_micros(60);

impl<D: PlanningDomain> Planner<'_, D> {
    /// Both directions in the tiny engine on this thread, until one
    /// settles the problem (a plan, or a proof that there is none) or
    /// [`INLINE_TIME`] is spent; `None` when they did not settle it, or the
    /// configuration is not one the tiny engine runs, or the domain has no
    /// quick form of the forward heuristic (then the problem is not a
    /// small GOAP task, and making its heuristics here would be paid twice).
    pub(crate) fn portfolio_inline(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Result<Option<PlanReport<D::ActionId>>, PlanError> {
        let limits = &self.config().limits;
        if !self.runs_quick(limits) {
            return Ok(None);
        }
        let Some(mut to_goal) = self.quick_heuristic(domain, goal) else {
            return Ok(None);
        };
        let forward = domain.forward(goal)?;
        let Ok((regression, subgoal)) = domain.regression(start, goal) else {
            return Ok(None); // the threaded portfolio says why, or goes forward
        };
        self.with_regression_heuristics(domain, start, goal, |make_regression| {
            // A heuristic regression does not serve is the threaded
            // portfolio's to handle (forward alone, with a note), as is
            // every other error in making it.
            let Ok(mut made_regression) = make_regression() else {
                return Ok(None);
            };
            let [from_start] = &mut made_regression[..] else {
                return Ok(None);
            };
            self.forward_tiny.with(|forward_buffers| {
                self.regression_tiny.with(|regression_buffers| {
                    let forward = TinyAstar::new(
                        &forward,
                        start.clone(),
                        &mut to_goal,
                        limits,
                        forward_buffers,
                    );
                    let regression = TinyAstar::new(
                        &regression,
                        subgoal,
                        from_start.as_mut(),
                        limits,
                        regression_buffers,
                    );
                    let (Some(forward), Some(regression)) = (forward, regression) else {
                        return Ok(None);
                    };
                    Ok(race(domain, forward, regression))
                })
            })
        })
    }
}

/// Steps `forward` and `regression` by turns until one settles the
/// problem; its report, or `None`.
///
/// The turn goes to the direction whose open list costs less to work
/// through: its length times the time an expansion has taken it so far.
/// Open lists alone mislead where one direction's heuristic costs ten
/// times the other's per node (forward `h_max` against regression's table
/// from the start).
fn race<D: PlanningDomain, F, R>(
    domain: &D,
    mut forward: TinyAstar<'_, D::Forward<'_>, F>,
    mut regression: TinyAstar<'_, D::Regression<'_>, R>,
) -> Option<PlanReport<D::ActionId>>
where
    F: Heuristic<D::State, u32> + ?Sized,
    R: Heuristic<D::Subgoal, u32> + ?Sized,
{
    let (mut forward_time, mut regression_time) = (Duration::ZERO, Duration::ZERO);
    loop {
        let (forward_stats, regression_stats) = (forward.statistics(), regression.statistics());
        // Each direction has had a turn before the time runs out.
        let both_began = forward_stats.expanded > 0 && regression_stats.expanded > 0;
        if both_began && forward_time + regression_time >= INLINE_TIME {
            return None;
        }
        let ahead = |time: Duration, expanded: u64, open: usize| {
            time.as_nanos() * open as u128 / u128::from(expanded.max(1))
        };
        // Regression takes the first turn: in a GOAP task its expansions
        // are the cheaper (its heuristic reads a table made from the start).
        let forward_turn = regression_stats.expanded > 0
            && ahead(forward_time, forward_stats.expanded, forward.open_len())
                <= ahead(
                    regression_time,
                    regression_stats.expanded,
                    regression.open_len(),
                );
        let began = Instant::now();
        if forward_turn {
            let status = forward.step(SLICE)?;
            forward_time += began.elapsed();
            if status == Status::Finished {
                let others = regression.statistics().clone();
                let result = forward.into_result()?;
                let report = settled(result.outcome, |actions| actions)?;
                return Some(PlanReport {
                    direction: Direction::Forward,
                    forward: Some(result.stats),
                    regression: Some(others),
                    ..report
                });
            }
        } else {
            let status = regression.step(SLICE)?;
            regression_time += began.elapsed();
            if status == Status::Finished {
                let others = forward.statistics().clone();
                let result = regression.into_result()?;
                let order = |actions: Vec<D::ActionId>| domain.execution_order(&actions);
                let report = settled(result.outcome, order)?;
                return Some(PlanReport {
                    direction: Direction::Regression,
                    forward: Some(others),
                    regression: Some(result.stats),
                    ..report
                });
            }
        }
    }
}

/// A report of `outcome` (its plan's actions put in execution order by
/// `order`) if it settles the problem: a plan, or a proof there is none.
fn settled<N, Id: Copy>(
    outcome: Outcome<N, Id, u32>,
    order: impl FnOnce(Vec<Id>) -> Vec<Id>,
) -> Option<PlanReport<Id>> {
    matches!(outcome, Outcome::Solved(_) | Outcome::Exhausted).then(|| PlanReport {
        outcome: plan_outcome(outcome, order),
        ..PlanReport::empty()
    })
}
