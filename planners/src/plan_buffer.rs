//! Plans into the caller's buffers: [`PlanBuffer`] and
//! [`Planner::plan_into`], for agents that plan every frame.

use std::time::{Duration, Instant};

use search_core::{Outcome, SearchLimits, SearchSpace, Solution, Statistics, TinyWorkspace};

use crate::planner::{plan_outcome, TinyRun};
use crate::{
    Direction, Plan, PlanError, PlanOutcome, PlanReport, Planner, PlanningDomain, QuickSearch,
};

/// A plan's buffers, kept by the caller from one plan to the next: the
/// report with its plan, the states along the plan if asked for, and the
/// tiny search's tables. After the first few plans,
/// [`Planner::plan_into`] allocates nothing on a tiny problem.
///
/// Statistics count expansions and the like at no cost; the time spent is
/// measured only when asked for ([`with_timing`](Self::with_timing)):
/// reading the clock is a noticeable part of a plan of a few nodes.
///
/// ```
/// use planners::{PlanBuffer, Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let planner = Planner::new(PlannerConfig::default());
/// let mut buffer = PlanBuffer::new().with_states(true);
/// for _ in 0..3 {
///     let report = planner.plan_into(&actions, &start, &goal, &mut buffer).unwrap();
///     assert_eq!(report.plan().unwrap().cost, 15);
/// }
/// assert_eq!(buffer.plan().unwrap().names(&actions), ["cook", "eat"]);
/// assert_eq!(buffer.states().len(), 3); // the start, after cook, after eat
/// assert!(buffer.states()[2].satisfies(&goal));
/// ```
pub struct PlanBuffer<D: PlanningDomain> {
    report: PlanReport<D::ActionId>,
    states: Vec<D::State>,
    record_states: bool,
    timing: bool,
    tiny: TinyWorkspace<D::State, D::ActionId, u32>,
}

impl<D: PlanningDomain> Default for PlanBuffer<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: PlanningDomain> std::fmt::Debug for PlanBuffer<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanBuffer")
            .field("report", &self.report)
            .field("states", &self.states.len())
            .field("record_states", &self.record_states)
            .field("timing", &self.timing)
            .finish_non_exhaustive()
    }
}

impl<D: PlanningDomain> PlanBuffer<D> {
    /// Empty buffers: no plan yet ([`PlanOutcome::NoPlanFound`]), no
    /// states recorded, no timing.
    pub fn new() -> Self {
        let mut tiny = TinyWorkspace::default();
        tiny.set_timed(false);
        Self {
            report: PlanReport::empty(),
            states: Vec::new(),
            record_states: false,
            timing: false,
            tiny,
        }
    }

    /// Whether to keep the states along each plan ([`states`](Self::states)).
    #[must_use]
    pub fn with_states(mut self, record: bool) -> Self {
        self.record_states = record;
        self
    }

    /// Whether to measure the time a plan takes: the report's `elapsed`,
    /// and on the tiny path its search's. Without, they are zero (a plan
    /// on the general path still times its searches).
    #[must_use]
    pub fn with_timing(mut self, timing: bool) -> Self {
        self.timing = timing;
        self.tiny.set_timed(timing);
        self
    }

    /// The last plan's report.
    pub fn report(&self) -> &PlanReport<D::ActionId> {
        &self.report
    }

    /// The last plan, if one was found.
    pub fn plan(&self) -> Option<&Plan<D::ActionId>> {
        self.report.plan()
    }

    /// The states along the last plan, the start first and the state the
    /// plan ends in last, when recording them ([`with_states`](Self::with_states));
    /// empty otherwise, or without a plan.
    pub fn states(&self) -> &[D::State] {
        &self.states
    }

    /// The last plan's report, leaving the buffers.
    pub fn into_report(self) -> PlanReport<D::ActionId> {
        self.report
    }

    /// Empties the report and the states, handing their vectors to the
    /// tiny search for its next solution.
    fn recycle(&mut self) {
        let old = std::mem::replace(&mut self.report.outcome, PlanOutcome::NoPlanFound);
        let actions = old.into_plan().map(|plan| plan.actions).unwrap_or_default();
        self.tiny.recycle(Solution {
            actions,
            nodes: std::mem::take(&mut self.states),
            cost: 0,
        });
        self.report.improvements.clear();
        self.report.notes.clear();
    }

    /// Takes a forward search's outcome and statistics as the report.
    fn settle_forward(
        &mut self,
        mut outcome: Outcome<D::State, D::ActionId, u32>,
        stats: Statistics,
    ) {
        let solution = match &mut outcome {
            Outcome::Solved(solution)
            | Outcome::LimitReached {
                best: Some(solution),
                ..
            }
            | Outcome::Cancelled {
                best: Some(solution),
            } => Some(solution),
            _ => None,
        };
        if let Some(solution) = solution {
            self.states = std::mem::take(&mut solution.nodes);
            if !self.record_states {
                self.states.clear();
            }
        }
        let report = &mut self.report;
        report.outcome = plan_outcome(outcome, |actions| actions);
        report.direction = Direction::Forward;
        report.forward = Some(stats);
        report.regression = None;
        report.both = None;
        report.setup_time = Duration::ZERO;
    }
}

impl<D: PlanningDomain> Planner<'_, D> {
    /// Plans as [`plan`](Planner::plan) does, into `buffer`: the report
    /// (the same one [`plan`](Planner::plan) returns) and, if asked for,
    /// the states along the plan stay in the buffer until the next call.
    ///
    /// Forward A* on a tiny problem with a built-in heuristic the domain
    /// has a quick form of (`blind`, `mismatch`, `hmax` on atomic domains,
    /// `blind` on factored ones) runs in the buffer's own tables and reuses
    /// the last plan's vectors ([`PlanningDomain::quick_forward_search`]:
    /// a factored domain of at most 8 variables whose actions compile
    /// searches fixed-width states in tables kept per thread, and
    /// translates the plan's states back): after the first few plans it
    /// allocates nothing (a test counts). Any
    /// other plan runs as [`plan`](Planner::plan) does and moves its report
    /// into the buffer.
    ///
    /// # Errors
    /// As for [`plan`](Planner::plan).
    pub fn plan_into<'b>(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        buffer: &'b mut PlanBuffer<D>,
    ) -> Result<&'b PlanReport<D::ActionId>, PlanError> {
        let began = buffer.timing.then(Instant::now);
        let limits = &self.config().limits;
        let run = self.tiny_into(domain, start, goal, buffer, limits);
        if run != TinyRun::Settled {
            // Too large for the tiny engine: forward search without it.
            buffer.report = match run {
                TinyRun::TooLarge => self
                    .forward(domain, start, goal, limits.clone(), None, false)?
                    .into_report(Direction::Forward),
                _ => self.plan(domain, start, goal)?,
            };
            if buffer.record_states {
                if let Some(plan) = buffer.report.plan() {
                    replay(domain, start, goal, &plan.actions, &mut buffer.states)?;
                }
            }
        }
        buffer.report.elapsed = began.map(|t| t.elapsed()).unwrap_or_default();
        Ok(&buffer.report)
    }

    /// Forward A* in the tiny engine with the domain's quick heuristic,
    /// within `limits`, in the buffer's tables: whether it settled the
    /// report, found the problem too large, or did not run (the
    /// configuration is not one the tiny engine runs). Only a settled run
    /// leaves a report in the buffer.
    pub(crate) fn tiny_into(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        buffer: &mut PlanBuffer<D>,
        limits: &SearchLimits<u32>,
    ) -> TinyRun {
        buffer.recycle();
        if self.config().direction != Direction::Forward || !self.runs_quick(limits) {
            return TinyRun::NotRun;
        }
        let result = match self.quick_search(domain, start, goal, limits, &mut buffer.tiny) {
            QuickSearch::Ran(result) => result,
            QuickSearch::TooLarge => return TinyRun::TooLarge,
            QuickSearch::NotRun => return TinyRun::NotRun,
        };
        buffer.settle_forward(result.outcome, result.stats);
        TinyRun::Settled
    }
}

/// The states along `plan` from `start`, into `states`, replayed through
/// the forward space (a plan from the general engine carries no states).
fn replay<D: PlanningDomain>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    plan: &[D::ActionId],
    states: &mut Vec<D::State>,
) -> Result<(), PlanError> {
    let space = domain.forward(goal)?;
    states.clear();
    states.push(start.clone());
    for (step, &action) in plan.iter().enumerate() {
        let mut next = None;
        let state = states.last().unwrap_or(start);
        space.successors(state, |id, child, _| {
            if id == action && next.is_none() {
                next = Some(child);
            }
        });
        let Some(next) = next else {
            let name = domain.action_name(action);
            return Err(PlanError::Invalid(format!(
                "step {}: {name} is not applicable",
                step + 1
            )));
        };
        states.push(next);
    }
    Ok(())
}
