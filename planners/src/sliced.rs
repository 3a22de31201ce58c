//! Planning sliced across game frames: a plan in progress that owns what it
//! needs, advanced a budget at a time, and resumed where it stopped.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use search_core::{Heuristic, Search, SearchSpace, SearchState, Statistics, Status, Trace};

use crate::planner::{cannot_regress, plan_improvements, plan_outcome, Buffers, DirectionRun};
use crate::{
    BoxedHeuristic, Direction, PlanError, PlanOutcome, PlanReport, PlanTrace, Planner,
    PlanningDomain,
};

/// How much work one slice of planning may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// At most this many expansions (over both directions of a portfolio).
    Expansions(u64),
    /// About this much time: the slice stops at the first expansion that
    /// ends past it.
    Time(Duration),
}

impl Budget {
    /// Whether `expanded` expansions in `elapsed` time have used it up.
    pub fn is_spent(self, expanded: u64, elapsed: Duration) -> bool {
        match self {
            Budget::Expansions(max) => expanded >= max,
            Budget::Time(max) => elapsed >= max,
        }
    }

    /// Half of it, for each direction of a portfolio (at least one
    /// expansion, so both go on).
    /// The expansions a search run at once, not sliced, may take within
    /// this budget: all of an expansion budget, and for a time budget as
    /// many as the tiny engine runs in that time at
    /// [`TINY_EXPANSION`] each (at least one).
    pub(crate) fn expansions_at_once(self) -> u64 {
        match self {
            Budget::Expansions(n) => n,
            Budget::Time(t) => {
                let n = t.as_nanos() / TINY_EXPANSION.as_nanos();
                u64::try_from(n).unwrap_or(u64::MAX).max(1)
            }
        }
    }

    /// One of `parts` equal parts of this budget (rounded down, so that
    /// the parts stay within it).
    #[cfg(feature = "bevy")]
    pub(crate) fn split(self, parts: usize) -> Self {
        let parts = parts.max(1);
        match self {
            Budget::Expansions(n) => Budget::Expansions(n / parts as u64),
            Budget::Time(t) => Budget::Time(t / u32::try_from(parts).unwrap_or(u32::MAX)),
        }
    }

    fn half(self) -> Self {
        match self {
            Budget::Expansions(n) => Budget::Expansions(n.div_ceil(2)),
            Budget::Time(t) => Budget::Time(t / 2),
        }
    }
}

/// Expansions between two looks at the clock under a time budget: a clock
/// read costs about as much as a fast expansion.
const CLOCK_STRIDE: u64 = 8;

/// A generous time for one expansion of the tiny engine on a game agent's
/// problem (the reference scenarios take 30 to 150 ns an expansion,
/// `cargo bench -p benches --bench atomic -- buffer-forward`), so that a
/// search run at once within a time budget stops well inside it.
const TINY_EXPANSION: Duration = Duration::from_nanos(500);

/// One direction of a job.
enum Side<N, Id> {
    /// Not used by this job's direction.
    Unused,
    /// Not begun yet.
    Ready,
    /// Stopped after a slice; resumes with the next.
    Paused(Box<SearchState<N, Id, u32>>),
    /// Ended, with its trace if the job records traces.
    Done(DirectionRun<Id>, Option<Box<PlanTrace>>),
}

impl<N, Id> Side<N, Id> {
    fn is_running(&self) -> bool {
        matches!(self, Side::Ready | Side::Paused(_))
    }

    fn finished(&self) -> Option<&DirectionRun<Id>> {
        match self {
            Side::Done(run, _) => Some(run),
            _ => None,
        }
    }
}

/// A direction's heuristic as a job holds it between slices.
enum Kept<N> {
    /// Not asked for yet: the direction's first slice asks the planner.
    Unasked,
    /// Made once, in the form that owns what it reads, and lent to every
    /// slice's search. The mutex is never locked (the job reaches it
    /// through `&mut`): it makes the job `Sync`, as a Bevy component must
    /// be, around a heuristic that is only `Send`.
    Owned(Mutex<BoxedHeuristic<'static, N>>),
    /// The planner has no owned form of it: made anew each slice.
    Remade,
}

impl<N> Kept<N> {
    /// The owned heuristic, asking `make` for it on the first call.
    fn get_or_make(
        &mut self,
        make: impl FnOnce() -> Option<BoxedHeuristic<'static, N>>,
    ) -> Option<&mut BoxedHeuristic<'static, N>> {
        if matches!(self, Kept::Unasked) {
            *self = make().map_or(Kept::Remade, |h| Kept::Owned(Mutex::new(h)));
        }
        match self {
            Kept::Owned(heuristic) => {
                Some(heuristic.get_mut().unwrap_or_else(PoisonError::into_inner))
            }
            _ => None,
        }
    }
}

/// A plan in progress, advanced a slice at a time.
///
/// A [`PlanJob`] shares its domain through an [`Arc`] and owns its start,
/// goal and searches ([`SearchState`]), so it can live in a component
/// between frames and move between threads. Each
/// [`advance`](PlanJob::advance) makes the searches' spaces anew from the
/// domain (they borrow it) and goes on for at most a [`Budget`].
///
/// The heuristics are made once per direction and kept from slice to
/// slice where they own what they read: the built-in `hmax`, `hadd`,
/// `ff`, `mismatch` and `mismatch-admissible` on atomic domains and
/// grounded PDDL tasks without axioms, `lmcut` forward, and `mismatch`,
/// `numeric`, `numeric-sum` and `hrmax` on factored domains (a factory
/// says so with
/// [`forward_owned`](crate::heuristics::HeuristicFactory::forward_owned)).
/// The others borrow the domain, so each slice makes them anew; the
/// built-in ones give the same values every time they are made, so a plan
/// sliced over many ticks is the plan of one call either way.
///
/// It plans as the [`Planner`] given to [`advance`](PlanJob::advance) is
/// configured (direction, algorithm, heuristic, limits); give it the same
/// planner every time. The planner's limits hold over the whole job
/// (`max_time` counts search time across slices), so they are the job's
/// watchdog. A portfolio advances both directions in each slice, half the
/// budget each. Lazy greedy search is not sliced
/// ([`PlanError::NotSliced`]).
///
/// ```
/// use std::sync::Arc;
/// use planners::{Budget, PlanJob, Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let actions = Arc::new(actions);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let planner = Planner::new(PlannerConfig::default());
/// let mut job = PlanJob::new(Arc::clone(&actions), start, goal);
/// let mut frames = 0;
/// let report = loop {
///     frames += 1;
///     if let Some(report) = job.advance(&planner, Budget::Expansions(1)).unwrap() {
///         break report;
///     }
/// };
/// assert_eq!(report.plan().unwrap().cost, 30);
/// assert!(frames > 1);
/// ```
pub struct PlanJob<D: PlanningDomain> {
    domain: Arc<D>,
    start: D::State,
    goal: D::Goal,
    forward: Side<D::State, D::ActionId>,
    regression: Side<D::Subgoal, D::ActionId>,
    forward_heuristic: Kept<D::State>,
    regression_heuristic: Kept<D::Subgoal>,
    /// Expansions and wall time over every slice so far.
    spent: (u64, Duration),
    setup_time: Duration,
    notes: Vec<String>,
    report: Option<PlanReport<D::ActionId>>,
    /// Whether the searches record traces, and the trace of the direction
    /// that gave the report.
    record_trace: bool,
    trace: Option<PlanTrace>,
}

impl<D: PlanningDomain> PlanJob<D> {
    /// A job planning from `start` to `goal` in `domain`; nothing runs
    /// until the first [`advance`](PlanJob::advance).
    pub fn new(domain: Arc<D>, start: D::State, goal: D::Goal) -> Self {
        Self {
            domain,
            start,
            goal,
            forward: Side::Unused,
            regression: Side::Unused,
            forward_heuristic: Kept::Unasked,
            regression_heuristic: Kept::Unasked,
            spent: (0, Duration::ZERO),
            setup_time: Duration::ZERO,
            notes: Vec::new(),
            report: None,
            record_trace: false,
            trace: None,
        }
    }

    /// Starts planning again, from `start` toward the same goal: the
    /// searches, report and spending begin anew, and the forward heuristic
    /// made for this goal is kept where it owns what it reads (see the
    /// type's docs), so an agent that replans toward one goal builds its
    /// tables once. (The regression heuristic estimates from the start, so
    /// it is made anew.) Give the job the same planner as before.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::heuristics::heuristic;
    /// use planners::{Budget, PlanJob, Planner, PlannerConfig};
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let planner = Planner::new(PlannerConfig { heuristic: heuristic("hmax").unwrap(), ..PlannerConfig::default() });
    ///
    /// let mut job = PlanJob::new(Arc::clone(&actions), actions.state(["has_groceries"]).unwrap(), goal);
    /// while job.advance(&planner, Budget::Expansions(1)).unwrap().is_none() {}
    /// job.replan(actions.state(["has_food"]).unwrap());
    /// let report = loop {
    ///     if let Some(report) = job.advance(&planner, Budget::Expansions(1)).unwrap() {
    ///         break report;
    ///     }
    /// };
    /// assert_eq!(report.plan().unwrap().cost, 5);
    /// ```
    pub fn replan(&mut self, start: D::State) {
        self.start = start;
        self.forward = Side::Unused;
        self.regression = Side::Unused;
        self.regression_heuristic = Kept::Unasked;
        self.spent = (0, Duration::ZERO);
        self.setup_time = Duration::ZERO;
        self.notes.clear();
        self.report = None;
        self.trace = None;
    }

    /// Records the searches' traces (off by default), to be read with
    /// [`trace`](PlanJob::trace) once the job has ended. Turn it on before
    /// the first [`advance`](PlanJob::advance).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use planners::{Budget, PlanJob, Planner, PlannerConfig};
    /// # use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let start = actions.state(["has_groceries"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    ///
    /// let planner = Planner::new(PlannerConfig::default());
    /// let mut job = PlanJob::new(actions, start, goal).record_trace(true);
    /// while job.advance(&planner, Budget::Expansions(1)).unwrap().is_none() {}
    /// let trace = job.trace().unwrap();
    /// assert!(trace.to_text().contains("eat -> {has_groceries, has_food, fed}"));
    /// ```
    #[must_use]
    pub fn record_trace(mut self, record: bool) -> Self {
        self.record_trace = record;
        self
    }

    /// The trace of the search that gave the report, once the job has
    /// ended, if [`record_trace`](PlanJob::record_trace) is on.
    pub fn trace(&self) -> Option<&PlanTrace> {
        self.trace.as_ref()
    }

    /// The goal being planned for.
    pub fn goal(&self) -> &D::Goal {
        &self.goal
    }

    /// The state the plan starts from.
    pub fn start(&self) -> &D::State {
        &self.start
    }

    /// Expansions (both directions) and wall time over every slice so far.
    pub fn spent(&self) -> (u64, Duration) {
        self.spent
    }

    /// Whether the job has ended ([`advance`](PlanJob::advance) then
    /// returns its report at once).
    pub fn is_finished(&self) -> bool {
        self.report.is_some()
    }

    /// Plans for at most `budget` more, going on where the last slice
    /// stopped. Returns the report once planning has ended (and again on
    /// every later call), `None` while it goes on.
    ///
    /// # Errors
    /// As [`Planner::plan`], and [`PlanError::NotSliced`] for lazy greedy
    /// and bidirectional search.
    pub fn advance(
        &mut self,
        planner: &Planner<'_, D>,
        budget: Budget,
    ) -> Result<Option<PlanReport<D::ActionId>>, PlanError> {
        if let Some(report) = &self.report {
            return Ok(Some(report.clone()));
        }
        let config = planner.config();
        if config.algorithm.is_lazy() || config.direction == Direction::Bidirectional {
            return Err(PlanError::NotSliced {
                algorithm: config.direction.algorithm_name(config.algorithm),
            });
        }
        if matches!(
            (&self.forward, &self.regression),
            (Side::Unused, Side::Unused)
        ) {
            let both = config.direction == Direction::Portfolio;
            if both || config.direction == Direction::Forward {
                self.forward = Side::Ready;
            }
            if both || config.direction == Direction::Regression {
                self.regression = Side::Ready;
            }
        }
        let began = Instant::now();
        let expanded_before = self.expanded();
        let share = if self.forward.is_running() && self.regression.is_running() {
            budget.half()
        } else {
            budget
        };
        if self.forward.is_running() {
            self.advance_forward(planner, share)?;
        }
        let forward_settled = self
            .forward
            .finished()
            .is_some_and(|run| run.outcome.is_definitive());
        if self.regression.is_running() && !forward_settled {
            match self.advance_regression(planner, share) {
                Ok(side) => self.regression = side,
                Err(error) if cannot_regress(&error) && !matches!(self.forward, Side::Unused) => {
                    // A portfolio plans forward alone where regression cannot run.
                    self.notes
                        .push(format!("the portfolio planned forward only: {error}"));
                }
                Err(error) => return Err(error),
            }
        }
        self.spent.0 += self.expanded() - expanded_before;
        self.spent.1 += began.elapsed();
        self.report = self.finish();
        Ok(self.report.clone())
    }

    /// One slice of the forward search, with the kept heuristic where
    /// there is one.
    fn advance_forward(
        &mut self,
        planner: &Planner<'_, D>,
        share: Budget,
    ) -> Result<(), PlanError> {
        let domain = &*self.domain;
        let (start, goal) = (&self.start, &self.goal);
        let setup = Instant::now();
        let space = domain.forward(goal)?;
        let side = std::mem::replace(&mut self.forward, Side::Unused);
        let buffers = &planner.forward_buffers;
        let first = || start.clone();
        let name = |trace| PlanTrace::forward(domain, trace);
        let naming = self.record_trace.then_some(&name as &dyn Fn(_) -> _);
        let owned = self
            .forward_heuristic
            .get_or_make(|| planner.owned_forward_heuristic(domain, start, goal));
        self.forward = planner.with_forward_heuristics(domain, start, goal, |make| {
            let heuristics = match owned {
                Some(kept) => vec![Box::new(&mut **kept) as BoxedHeuristic<'_, _>],
                None => make()?,
            };
            self.setup_time += setup.elapsed();
            advance_side(
                planner,
                &space,
                side,
                first,
                heuristics,
                buffers,
                share,
                |a| a,
                naming,
            )
        })?;
        Ok(())
    }

    /// One slice of the regression, with the kept heuristic where there is
    /// one; the side as it stands after it.
    fn advance_regression(
        &mut self,
        planner: &Planner<'_, D>,
        share: Budget,
    ) -> Result<Side<D::Subgoal, D::ActionId>, PlanError> {
        let domain = &*self.domain;
        let (start, goal) = (&self.start, &self.goal);
        let side = std::mem::replace(&mut self.regression, Side::Unused);
        let setup = Instant::now();
        let (space, node) = domain.regression(start, goal)?;
        let buffers = &planner.regression_buffers;
        let order = |actions: Vec<D::ActionId>| domain.execution_order(&actions);
        let name = |trace| PlanTrace::regression(domain, trace);
        let naming = self.record_trace.then_some(&name as &dyn Fn(_) -> _);
        let owned = self
            .regression_heuristic
            .get_or_make(|| planner.owned_regression_heuristic(domain, start, goal));
        planner.with_regression_heuristics(domain, start, goal, |make| {
            let heuristics = match owned {
                Some(kept) => vec![Box::new(&mut **kept) as BoxedHeuristic<'_, _>],
                None => make()?,
            };
            self.setup_time += setup.elapsed();
            advance_side(
                planner,
                &space,
                side,
                || node,
                heuristics,
                buffers,
                share,
                order,
                naming,
            )
        })
    }

    /// Expansions so far over both directions (finished ones included).
    fn expanded(&self) -> u64 {
        self.forward.expanded() + self.regression.expanded()
    }

    /// The report, once a direction settled the question or both ended.
    fn finish(&mut self) -> Option<PlanReport<D::ActionId>> {
        let forward = self.forward.finished();
        let regression = self.regression.finished();
        let settled = |run: Option<&DirectionRun<D::ActionId>>| {
            run.is_some_and(|run| run.outcome.is_definitive())
        };
        let direction = if settled(forward) {
            Direction::Forward
        } else if settled(regression) {
            Direction::Regression
        } else if self.forward.is_running() || self.regression.is_running() {
            return None;
        } else if matches!(
            regression.map(|run| &run.outcome),
            Some(PlanOutcome::LimitReached { .. })
        ) && !matches!(
            forward.map(|run| &run.outcome),
            Some(PlanOutcome::LimitReached { .. })
        ) {
            Direction::Regression
        } else if forward.is_some() {
            Direction::Forward
        } else {
            Direction::Regression
        };
        let (forward_stats, regression_stats) =
            (self.forward.statistics(), self.regression.statistics());
        let (run, trace) = match direction {
            Direction::Regression => self.regression.take_run(),
            _ => self.forward.take_run(),
        }?;
        self.trace = trace.map(|trace| *trace);
        Some(PlanReport {
            outcome: run.outcome,
            direction,
            forward: forward_stats,
            regression: regression_stats,
            both: None,
            elapsed: self.spent.1,
            setup_time: self.setup_time,
            improvements: run.improvements,
            notes: std::mem::take(&mut self.notes),
        })
    }
}

impl<N, Id> Side<N, Id> {
    /// The run of an ended direction and its trace, taken out (the side is
    /// left unused).
    fn take_run(&mut self) -> Option<(DirectionRun<Id>, Option<Box<PlanTrace>>)> {
        match std::mem::replace(self, Side::Unused) {
            Side::Done(run, trace) => Some((run, trace)),
            other => {
                *self = other;
                None
            }
        }
    }

    fn expanded(&self) -> u64 {
        self.statistics().map_or(0, |stats| stats.expanded)
    }

    fn statistics(&self) -> Option<Statistics> {
        match self {
            Side::Paused(state) => Some(state.statistics().clone()),
            Side::Done(run, _) => Some(run.stats.clone()),
            Side::Unused | Side::Ready => None,
        }
    }
}

/// Names a direction's trace with its domain.
type Namer<'a, N, A> = &'a dyn Fn(Trace<N, A, u32>) -> PlanTrace;

/// One slice of one direction's search: begins it (`begin` gives the start
/// node) or resumes it, runs it for `budget`, and returns where it stands.
/// Once it ends, `order` puts its plan in execution order and `naming`
/// names its trace (recorded only when there is a namer).
#[expect(
    clippy::too_many_arguments,
    reason = "one direction's parts, named at the two call sites"
)]
fn advance_side<S: SearchSpace<Cost = u32>>(
    planner: &Planner<'_, impl PlanningDomain>,
    space: &S,
    side: Side<S::Node, S::Action>,
    begin: impl FnOnce() -> S::Node,
    mut heuristics: Vec<BoxedHeuristic<'_, S::Node>>,
    buffers: &Buffers<S::Node>,
    budget: Budget,
    order: impl Fn(Vec<S::Action>) -> Vec<S::Action>,
    naming: Option<Namer<'_, S::Node, S::Action>>,
) -> Result<Side<S::Node, S::Action>, PlanError>
where
    S::Action: Copy,
{
    let config = planner.config();
    let (Some(heuristic), true) = (heuristics.pop(), heuristics.is_empty()) else {
        return Err(PlanError::Alternation {
            heuristic: config.heuristic.name().to_owned(),
        });
    };
    let search = match side {
        Side::Paused(state) => Search::resume(space, *state),
        _ => Search::new(space, begin())
            .algorithm(config.algorithm)
            .limits(config.limits.clone())
            .workspace(buffers.take())
            .record_trace(naming.is_some()),
    };
    let mut search = search.heuristic(heuristic);
    if step_within(&mut search, budget)? == Status::Running {
        return Ok(Side::Paused(Box::new(search.into_state().0)));
    }
    let result = search.run()?;
    let improvements = search.improvements().to_vec();
    let trace = naming.and_then(|name| search.trace().map(|trace| Box::new(name(trace))));
    buffers.keep(search.into_workspace(), result.stats.estimated_bytes);
    let run = DirectionRun {
        outcome: plan_outcome(result.outcome, &order),
        stats: result.stats,
        setup_time: Duration::ZERO,
        improvements: plan_improvements(improvements, &order),
    };
    Ok(Side::Done(run, trace))
}

/// Steps `search` until it ends or `budget` is used up.
fn step_within<S: SearchSpace, H: Heuristic<S::Node, S::Cost>>(
    search: &mut Search<'_, S, H>,
    budget: Budget,
) -> Result<Status, PlanError> {
    match budget {
        Budget::Expansions(n) => Ok(search.step(n)?),
        Budget::Time(max) => {
            let began = Instant::now();
            loop {
                let status = search.step(CLOCK_STRIDE)?;
                if status == Status::Finished || began.elapsed() >= max {
                    return Ok(status);
                }
            }
        }
    }
}
