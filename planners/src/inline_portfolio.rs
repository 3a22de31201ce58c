//! The portfolio's first phase: both directions on the caller's thread, in
//! the tiny engine, before any thread is woken.
//!
//! On a problem that one direction solves in a few dozen expansions,
//! handing the other direction to a second thread costs more than the
//! search (tens of microseconds to wake it and to join). So a portfolio
//! first steps both directions here, in stretches of expansions, sharing
//! the time between them in inverse proportion to what an expansion costs
//! each: a direction whose expansions cost ten times the other's gets a
//! tenth of its time. Before a direction's first expansion its cost is
//! predicted (its start's successors times what evaluating the start
//! took), so a direction whose first expansion alone would take longer
//! than the other's whole search is not paid for. The first direction that
//! settles the problem answers; past a small budget of time the problem is
//! not tiny, and the threaded portfolio starts afresh.
//!
//! The bet is that the direction with cheaper expansions is the one that
//! ends first, as in GOAP tasks, where regression's heuristic reads a table
//! made from the start and forward's recomputes a fixpoint per state (on
//! the `portfolio/*` benches one forward expansion with `h_max` costs 14
//! to 60 regression expansions). Where the dearer direction needs far
//! fewer expansions, it gets its share of the time all the same, and past
//! the budget both run at full speed on two threads.

use std::time::{Duration, Instant};

use search_core::{
    Heuristic, Outcome, SearchLimits, SearchSpace, Status, TinyAstar, TinyWorkspace,
};

use crate::planner::plan_outcome;
use crate::{Direction, PlanError, PlanReport, Planner, PlanningDomain};

/// The most expansions a stretch runs between clock reads: a clock read
/// (about 25 ns here) per expansion was a third of the first phase's
/// overhead on the benches.
const MAX_STRETCH: u64 = 64;

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
                    let forward = Racer::new(
                        &forward,
                        start.clone(),
                        &mut to_goal,
                        limits,
                        forward_buffers,
                    );
                    let regression = Racer::new(
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

/// A direction in the race: its search and its pace.
struct Racer<'t, S: SearchSpace, H: ?Sized> {
    search: TinyAstar<'t, S, H>,
    pace: Pace,
}

/// A direction's time in the race: what it has taken so far, and what an
/// expansion is expected to cost it.
#[derive(Clone, Copy, Debug)]
struct Pace {
    spent: Duration,
    per_expansion: Duration,
}

impl Pace {
    /// Before the first expansion: an evaluation for each of the start's
    /// `successors`, at what evaluating the start took.
    fn predicted(evaluation: Duration, successors: u32) -> Self {
        Pace {
            spent: evaluation,
            per_expansion: evaluation * successors.max(1),
        }
    }

    /// After a stretch that took `took`, with `expanded` expansions so far.
    fn record(&mut self, took: Duration, expanded: u64) {
        self.spent += took;
        let expanded = u32::try_from(expanded.max(1)).unwrap_or(u32::MAX);
        self.per_expansion = self.spent / expanded;
    }

    /// The time spent once one more expansion is made, weighed by what an
    /// expansion costs (ns²): the turn goes to the smaller claim, which
    /// shares the time in inverse proportion to the cost of an expansion.
    fn claim(&self) -> u128 {
        (self.spent + self.per_expansion).as_nanos() * self.cost()
    }

    /// What an expansion costs, in ns (at least 1).
    fn cost(&self) -> u128 {
        self.per_expansion.as_nanos().max(1)
    }

    /// How many expansions this direction may make before its claim passes
    /// `other`'s (at least one, at most [`MAX_STRETCH`]), and before the
    /// race's `left` time is spent.
    fn stretch(&self, other: &Pace, left: Duration) -> u64 {
        let cost = self.cost();
        let fair = (other.claim() / cost).saturating_sub(self.spent.as_nanos()) / cost;
        let within = left.as_nanos() / cost + 1;
        u64::try_from(fair.min(within)).map_or(MAX_STRETCH, |n| n.clamp(1, MAX_STRETCH))
    }
}

/// Steps the forward and regression searches in stretches until one
/// settles the problem; its report, or `None` once [`INLINE_TIME`] is spent.
///
/// The turn goes to the direction with the smaller [`Pace::claim`]; ties
/// to regression, whose expansions are the cheaper in a GOAP task.
fn race<D: PlanningDomain, F, R>(
    domain: &D,
    mut forward: Racer<'_, D::Forward<'_>, F>,
    mut regression: Racer<'_, D::Regression<'_>, R>,
) -> Option<PlanReport<D::ActionId>>
where
    F: Heuristic<D::State, u32> + ?Sized,
    R: Heuristic<D::Subgoal, u32> + ?Sized,
{
    loop {
        let spent = forward.pace.spent + regression.pace.spent;
        let left = INLINE_TIME
            .checked_sub(spent)
            .filter(|left| !left.is_zero())?;
        if forward.pace.claim() < regression.pace.claim() {
            if forward.stretch(&regression.pace, left)? == Status::Finished {
                let others = regression.search.statistics().clone();
                let result = forward.search.into_result()?;
                let report = settled(result.outcome, |actions| actions)?;
                return Some(PlanReport {
                    direction: Direction::Forward,
                    forward: Some(result.stats),
                    regression: Some(others),
                    ..report
                });
            }
        } else if regression.stretch(&forward.pace, left)? == Status::Finished {
            let others = forward.search.statistics().clone();
            let result = regression.search.into_result()?;
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

impl<'t, S, H> Racer<'t, S, H>
where
    S: SearchSpace<Cost = u32>,
    H: Heuristic<S::Node, u32> + ?Sized,
{
    /// A tiny A* from `start` (see [`TinyAstar::new`]) whose first
    /// expansion is predicted from the start's successors in `space` and
    /// the time evaluating the start took.
    fn new(
        space: &'t S,
        start: S::Node,
        heuristic: &'t mut H,
        limits: &'t SearchLimits<u32>,
        buffers: &'t mut TinyWorkspace<S::Node, S::Action, u32>,
    ) -> Option<Self> {
        let mut successors = 0_u32;
        space.successors(&start, |_, _, _| successors = successors.saturating_add(1));
        let began = Instant::now();
        let search = TinyAstar::new(space, start, heuristic, limits, buffers)?;
        let pace = Pace::predicted(began.elapsed(), successors);
        Some(Racer { search, pace })
    }

    /// One stretch of expansions (see [`Pace::stretch`]), timed; `None`
    /// when the problem is not tiny after all.
    fn stretch(&mut self, other: &Pace, left: Duration) -> Option<Status> {
        let began = Instant::now();
        let status = self.search.step(self.pace.stretch(other, left))?;
        let expanded = self.search.statistics().expanded;
        self.pace.record(began.elapsed(), expanded);
        Some(status)
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

#[cfg(test)]
mod tests {
    use super::*;

    const US: Duration = Duration::from_micros(1);

    #[test]
    fn a_first_expansion_is_predicted_from_the_start_s_successors() {
        let pace = Pace::predicted(US, 12);
        assert_eq!((pace.spent, pace.per_expansion), (US, 12 * US));
        // A start with no successors still costs its own expansion.
        assert_eq!(Pace::predicted(US, 0).per_expansion, US);
    }

    #[test]
    fn time_is_shared_in_inverse_proportion_to_an_expansion_s_cost() {
        // Forward's first expansion is predicted at 10 µs, regression's
        // expansions measured at 0.2 µs: regression gets the turns until it
        // has spent 50 times what forward would (about 550 µs), far past a
        // race.
        let forward = Pace::predicted(US, 10);
        let mut regression = Pace::predicted(US / 5, 1);
        regression.record(20 * US, 100);
        assert!(regression.claim() < forward.claim());
        assert_eq!(regression.stretch(&forward, INLINE_TIME), MAX_STRETCH);
        // Near the end of the race the stretch stops at the time left: 1 µs
        // at 202 ns an expansion is 4 of them, and one that runs past.
        assert_eq!(regression.stretch(&forward, US), 5);
        // Past its share, forward has the turn, one expansion at a time.
        regression.record(600 * US, 3000);
        assert!(forward.claim() < regression.claim());
        assert_eq!(forward.stretch(&regression, INLINE_TIME), 1);
    }

    #[test]
    fn equal_costs_alternate_in_stretches_of_equal_time() {
        let mut forward = Pace::predicted(US, 1);
        let regression = Pace::predicted(US, 1);
        // Forward at 1 µs an expansion, 5 µs spent; regression, 1 µs spent,
        // catches up by 4 expansions and one more.
        forward.record(4 * US, 5);
        assert_eq!(regression.stretch(&forward, INLINE_TIME), 5);
    }
}
