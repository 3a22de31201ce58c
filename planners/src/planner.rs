//! The planner: one API over every [`PlanningDomain`], in three directions.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use search_core::{
    tiny_accepts, tiny_astar, Algorithm, Heuristic, Improvement, LazyGreedy, Outcome, ResultOf,
    Search, SearchLimits, SearchSpace, Solution, Status, TinyWorkspace, Trace, Workspace,
};

use crate::runtime::beside::run_beside;
use crate::runtime::tiny_buffers::TinyBuffers;

use crate::{
    BoxedHeuristic, Direction, Plan, PlanError, PlanImprovement, PlanOutcome, PlanReport,
    PlanTrace, PlannerConfig, PlanningDomain, QuickSearch,
};

/// Expansions between two looks at the caller's cancellation flag in a
/// portfolio: about a tenth of a millisecond of search.
const PORTFOLIO_STEP: u64 = 256;

/// Makes a direction's heuristics anew (one, or a lazy search's several).
pub(crate) type Maker<'v, N> = dyn Fn() -> Result<Vec<BoxedHeuristic<'v, N>>, PlanError> + 'v;

type Factory<'h, N> = Box<dyn Fn() -> BoxedHeuristic<'h, N> + Send + Sync + 'h>;

/// Plans on any [`PlanningDomain`] with a [`PlannerConfig`].
///
/// The heuristic is the config's built-in one unless a custom heuristic is
/// given for a direction ([`with_forward_heuristic`](Planner::with_forward_heuristic),
/// [`with_regression_heuristic`](Planner::with_regression_heuristic)); a
/// custom heuristic is a factory, so that every search (and both threads of a
/// portfolio) gets a fresh one. A planner is `Sync`: one planner can serve
/// many threads.
///
/// A planner keeps the buffers of its small searches (up to 1 MiB each, a
/// few per direction) and hands them to the next,
/// so an agent that replans every few frames does not allocate a search's
/// tables each time (on the hitman problem this is about a quarter of a
/// plan's time; BENCHMARKS.md). Buffers of larger searches are freed with
/// them.
///
/// ```
/// use planners::{heuristics::heuristic, Direction, Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_supermarket"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// for direction in [Direction::Forward, Direction::Regression, Direction::Portfolio] {
///     let planner = Planner::new(PlannerConfig {
///         direction,
///         heuristic: heuristic("hmax").unwrap(),
///         ..PlannerConfig::default()
///     });
///     let report = planner.plan(&actions, &start, &goal).unwrap();
///     let plan = report.plan().unwrap();
///     assert_eq!(plan.cost, 30);
///     assert_eq!(plan.names(&actions), ["buy_groceries", "cook", "eat"]);
///     assert_eq!(planners::validate(&actions, &start, &goal, &plan.actions).unwrap(), 30);
/// }
/// ```
pub struct Planner<'h, D: PlanningDomain> {
    config: PlannerConfig,
    forward: Option<Factory<'h, D::State>>,
    regression: Option<Factory<'h, D::Subgoal>>,
    pub(crate) forward_buffers: Buffers<D::State>,
    pub(crate) regression_buffers: Buffers<D::Subgoal>,
    pub(crate) forward_tiny: TinyBuffers<D::State, D::ActionId>,
    pub(crate) regression_tiny: TinyBuffers<D::Subgoal, D::ActionId>,
    /// The config's heuristic's name when it is one built-in heuristic,
    /// which a domain may have a quick form of.
    builtin: Option<&'static str>,
    /// Where the searches leave their traces, when recording
    /// ([`Planner::plan_traced`]).
    traces: Option<Traces>,
}

/// The traces of one call's searches, one per direction (a portfolio
/// records both, then keeps the winner's).
#[derive(Default)]
struct Traces {
    forward: Mutex<Option<PlanTrace>>,
    regression: Mutex<Option<PlanTrace>>,
}

impl Traces {
    fn slot(&self, direction: Direction) -> Option<&Mutex<Option<PlanTrace>>> {
        match direction {
            Direction::Forward => Some(&self.forward),
            Direction::Regression => Some(&self.regression),
            Direction::Portfolio | Direction::Bidirectional => None,
        }
    }

    fn keep(&self, trace: PlanTrace) {
        if let Some(mut slot) = self.slot(trace.direction()).and_then(|s| s.lock().ok()) {
            *slot = Some(trace);
        }
    }

    fn take(&self, direction: Direction) -> Option<PlanTrace> {
        self.slot(direction)?.lock().ok()?.take()
    }
}

/// A factory that calls a planner's factory, to lend it to a planner that
/// lives shorter.
fn lend<'a, 'h: 'a, N: 'a>(make: &'a Factory<'h, N>) -> Factory<'a, N> {
    Box::new(move || -> BoxedHeuristic<'a, N> { make() })
}

/// The most bytes (the engine's estimate) a search's buffers may hold to be
/// kept for the next search. Above this a search allocates in proportion to
/// its size anyway, and keeping its buffers would pin that memory.
const KEPT_BYTES: usize = 1 << 20;

/// How many buffers a planner keeps per direction: enough for a portfolio
/// and a few threads planning at once.
const KEPT_BUFFERS: usize = 4;

/// Search buffers kept between plans.
pub(crate) struct Buffers<N> {
    kept: Mutex<Vec<Workspace<N, u32>>>,
}

impl<N> Default for Buffers<N> {
    fn default() -> Self {
        Self {
            kept: Mutex::new(Vec::new()),
        }
    }
}

impl<N> Buffers<N> {
    /// Kept buffers, or new ones. A poisoned lock only means another thread
    /// panicked while pushing or popping; new buffers are always correct.
    pub(crate) fn take(&self) -> Workspace<N, u32> {
        self.kept
            .lock()
            .ok()
            .and_then(|mut kept| kept.pop())
            .unwrap_or_default()
    }

    /// Keeps `workspace` for a later search if it is small and there is room.
    pub(crate) fn keep(&self, workspace: Workspace<N, u32>, bytes: usize) {
        if bytes <= KEPT_BYTES {
            if let Ok(mut kept) = self.kept.lock() {
                if kept.len() < KEPT_BUFFERS {
                    kept.push(workspace);
                }
            }
        }
    }
}

impl<'h, D: PlanningDomain> Planner<'h, D> {
    /// A planner with `config` and the config's built-in heuristic.
    pub fn new(config: PlannerConfig) -> Self {
        Self {
            forward: None,
            regression: None,
            forward_buffers: Buffers::default(),
            regression_buffers: Buffers::default(),
            forward_tiny: TinyBuffers::default(),
            regression_tiny: TinyBuffers::default(),
            builtin: config.heuristic.builtin_name(),
            traces: None,
            config,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &PlannerConfig {
        &self.config
    }

    /// Uses heuristics made by `make` for forward search.
    ///
    /// ```
    /// use planners::{Planner, PlannerConfig};
    /// use search_core::Admissible;
    /// use state_atomic::{ActionSet, WorldState};
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_food"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let planner = Planner::new(PlannerConfig::default())
    ///     .with_forward_heuristic(move || Admissible(move |s: &WorldState| u32::from(!s.satisfies(&goal))));
    /// assert_eq!(planner.plan(&actions, &start, &goal).unwrap().plan().unwrap().cost, 5);
    /// ```
    #[must_use]
    pub fn with_forward_heuristic<H, F>(mut self, make: F) -> Self
    where
        F: Fn() -> H + Send + Sync + 'h,
        H: Heuristic<D::State, u32> + Send + 'h,
    {
        self.forward = Some(Box::new(move || Box::new(make())));
        self
    }

    /// Uses heuristics made by `make` for regression (estimating the cost
    /// from the start to a subgoal).
    #[must_use]
    pub fn with_regression_heuristic<H, F>(mut self, make: F) -> Self
    where
        F: Fn() -> H + Send + Sync + 'h,
        H: Heuristic<D::Subgoal, u32> + Send + 'h,
    {
        self.regression = Some(Box::new(move || Box::new(make())));
        self
    }

    /// Plans from `start` to `goal` in the configured direction.
    ///
    /// # Errors
    /// [`PlanError`] when the domain refuses the problem or the direction
    /// (regression of custom predicates, or of atomic actions whose cost
    /// depends on the state), a heuristic is not available for this domain
    /// (or tabulates costs that depend on the state), or the search meets
    /// bad input. No plan is an outcome,
    /// not an error.
    pub fn plan(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Result<PlanReport<D::ActionId>, PlanError> {
        let began = Instant::now();
        let limits = &self.config.limits;
        let mut report = match self.config.direction {
            Direction::Forward => self
                .forward(domain, start, goal, limits.clone(), None, true)?
                .into_report(Direction::Forward),
            Direction::Regression => self
                .regression(domain, start, goal, limits.clone(), None)?
                .into_report(Direction::Regression),
            Direction::Portfolio => self.portfolio(domain, start, goal)?,
            Direction::Bidirectional => self.bidirectional(domain, start, goal, limits.clone())?,
        };
        report.elapsed = began.elapsed();
        Ok(report)
    }

    /// Plans as [`plan`](Planner::plan) does, recording the search's
    /// exploration: returns the report and the trace, with the domain's
    /// names, of the search that produced the outcome (a portfolio's
    /// winner); `None` only when no search ran to give one. Recording
    /// costs a copy of every stored node, so keep it for debugging: an
    /// agent's debug view, `searchlab plan --trace`.
    ///
    /// # Errors
    /// As for [`plan`](Planner::plan).
    ///
    /// ```
    /// use planners::{heuristics::heuristic, Direction, Planner, PlannerConfig};
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_groceries"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let planner = Planner::new(PlannerConfig {
    ///     direction: Direction::Regression,
    ///     heuristic: heuristic("hmax").unwrap(),
    ///     ..PlannerConfig::default()
    /// });
    /// let (report, trace) = planner.plan_traced(&actions, &start, &goal).unwrap();
    /// let trace = trace.unwrap();
    /// assert_eq!(trace.direction(), Direction::Regression);
    /// // Regression's nodes are subgoals: the goal, then what must hold before eating.
    /// assert_eq!(trace.trace().nodes()[0].node, "{fed}");
    /// assert!(trace.to_text().contains("eat -> {has_food}"));
    /// assert_eq!(report.plan().unwrap().names(&actions), ["cook", "eat"]);
    /// ```
    pub fn plan_traced(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Result<(PlanReport<D::ActionId>, Option<PlanTrace>), PlanError> {
        // A planner of this call's own, so that planning on other threads
        // cannot mix its traces with this call's.
        let recorder = Planner {
            config: self.config.clone(),
            forward: self.forward.as_ref().map(lend),
            regression: self.regression.as_ref().map(lend),
            forward_buffers: Buffers::default(),
            regression_buffers: Buffers::default(),
            forward_tiny: TinyBuffers::default(),
            regression_tiny: TinyBuffers::default(),
            builtin: self.builtin,
            traces: Some(Traces::default()),
        };
        let report = recorder.plan(domain, start, goal)?;
        let trace = recorder
            .traces
            .as_ref()
            .and_then(|traces| traces.take(report.direction));
        Ok((report, trace))
    }

    /// Both directions: first on this thread while the problem looks tiny
    /// ([`portfolio_inline`](Self::portfolio_inline)), then on two threads.
    fn portfolio(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Result<PlanReport<D::ActionId>, PlanError> {
        match self.portfolio_inline(domain, start, goal)? {
            Some(report) => Ok(report),
            None => self.portfolio_threads(domain, start, goal),
        }
    }

    /// Forward and regression at once: forward on this thread, regression
    /// on another that is free for it (see [`run_beside`]), so both always
    /// run together. The first definitive answer wins
    /// and raises the shared flag that cancels the other; so does an error,
    /// which ends the portfolio anyway.
    fn portfolio_threads(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Result<PlanReport<D::ActionId>, PlanError> {
        const NONE: u8 = 0;
        const FORWARD: u8 = 1;
        const REGRESSION: u8 = 2;
        let stop = Arc::new(AtomicBool::new(false));
        let winner = AtomicU8::new(NONE);
        let user = self.config.limits.cancel.clone();
        let limits = SearchLimits {
            cancel: Some(Arc::clone(&stop)),
            ..self.config.limits.clone()
        };
        let watch = Watch {
            user: user.as_deref(),
            stop: &stop,
        };
        let finish = |run: &Result<DirectionRun<D::ActionId>, PlanError>, me: u8| {
            let settled = match run {
                Ok(run) => {
                    run.outcome.is_definitive()
                        && winner
                            .compare_exchange(NONE, me, Ordering::AcqRel, Ordering::Acquire)
                            .is_ok()
                }
                // Forward answers alone where regression cannot run.
                Err(e) => !cannot_regress(e),
            };
            if settled {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let caller = std::thread::current();
        let started = AtomicBool::new(false);
        let (forward, regression) = run_beside(
            || {
                // A thread woken from sleep waits for a core while this one
                // searches (for milliseconds on a busy host); this thread,
                // put to sleep until the other runs, gets one back in
                // microseconds. So both directions start together.
                while !started.load(Ordering::Acquire) {
                    std::thread::park();
                }
                let raised = StopOnPanic(&stop);
                let forward = self.forward(domain, start, goal, limits.clone(), Some(watch), true);
                finish(&forward, FORWARD);
                drop(raised);
                forward
            },
            || {
                started.store(true, Ordering::Release);
                caller.unpark();
                let raised = StopOnPanic(&stop);
                let run = self.regression(domain, start, goal, limits.clone(), Some(watch));
                finish(&run, REGRESSION);
                drop(raised);
                run
            },
        );
        let forward = forward?;
        let regression = match regression {
            Err(e) if cannot_regress(&e) => {
                // Forward alone answers; it ran to its end (nothing cancelled it).
                let mut report = PlanReport {
                    outcome: forward.outcome,
                    direction: Direction::Forward,
                    forward: Some(forward.stats),
                    regression: None,
                    both: None,
                    elapsed: Duration::ZERO,
                    setup_time: forward.setup_time,
                    improvements: forward.improvements,
                    notes: Vec::new(),
                };
                report
                    .notes
                    .push(format!("the portfolio planned forward only: {e}"));
                return Ok(report);
            }
            regression => regression?,
        };
        let setup_time = forward.setup_time.max(regression.setup_time);
        let (forward_stats, regression_stats) = (forward.stats, regression.stats);
        let forward = (forward.outcome, forward.improvements);
        let regression = (regression.outcome, regression.improvements);
        let ((outcome, improvements), direction) = match winner.load(Ordering::Acquire) {
            FORWARD => (forward, Direction::Forward),
            REGRESSION => (regression, Direction::Regression),
            // Neither settled it: a limit (or the caller) stopped both.
            _ => match (forward, regression) {
                (limit @ (PlanOutcome::LimitReached { .. }, _), _) => (limit, Direction::Forward),
                (_, limit @ (PlanOutcome::LimitReached { .. }, _)) => {
                    (limit, Direction::Regression)
                }
                (outcome, _) => (outcome, Direction::Forward),
            },
        };
        Ok(PlanReport {
            outcome,
            direction,
            forward: Some(forward_stats),
            regression: Some(regression_stats),
            both: None,
            elapsed: Duration::ZERO,
            setup_time,
            improvements,
            notes: Vec::new(),
        })
    }

    /// Forward search; `tiny` false where the tiny engine already found
    /// the problem too large (it is not tried again).
    pub(crate) fn forward(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: SearchLimits<u32>,
        watch: Option<Watch<'_>>,
        tiny: bool,
    ) -> Result<DirectionRun<D::ActionId>, PlanError> {
        let space = domain.forward(goal)?;
        let mut tiny = tiny;
        if tiny {
            match self.quick_forward(domain, start, goal, &limits, watch) {
                Ok(run) => return Ok(run),
                Err(TinyRun::TooLarge) => tiny = false,
                Err(_) => {}
            }
        }
        let setup = Instant::now();
        self.with_forward_heuristics(domain, start, goal, |make| {
            let heuristic = make()?;
            let setup_time = setup.elapsed();
            let buffers = (&self.forward_buffers, tiny.then_some(&self.forward_tiny));
            let (result, improvements, trace) = self.search(
                &space,
                start.clone(),
                heuristic,
                make,
                limits,
                watch,
                buffers,
            )?;
            if let (Some(traces), Some(trace)) = (&self.traces, trace) {
                traces.keep(PlanTrace::forward(domain, trace));
            }
            Ok(DirectionRun {
                outcome: plan_outcome(result.outcome, |actions| actions),
                stats: result.stats,
                setup_time,
                improvements: plan_improvements(improvements, |actions| actions),
            })
        })
    }

    /// A tiny forward A* with the domain's quick form of the built-in
    /// heuristic (no set-up), when the search and the heuristic allow it
    /// and the problem is tiny; otherwise why not: it did not run, or the
    /// problem is too large.
    fn quick_forward(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: &SearchLimits<u32>,
        watch: Option<Watch<'_>>,
    ) -> Result<DirectionRun<D::ActionId>, TinyRun> {
        if watch.is_some() || !self.runs_quick(limits) {
            return Err(TinyRun::NotRun);
        }
        let found = self
            .forward_tiny
            .with(|ws| self.quick_search(domain, start, goal, limits, ws));
        let result = match found {
            QuickSearch::Ran(result) => result,
            QuickSearch::TooLarge => return Err(TinyRun::TooLarge),
            QuickSearch::NotRun => return Err(TinyRun::NotRun),
        };
        Ok(DirectionRun {
            outcome: plan_outcome(result.outcome, |actions| actions),
            stats: result.stats,
            setup_time: Duration::ZERO,
            improvements: Vec::new(),
        })
    }

    /// Whether a forward search may run in the tiny engine with a quick
    /// heuristic: no custom heuristic, and [`runs_tiny`](Self::runs_tiny).
    pub(crate) fn runs_quick(&self, limits: &SearchLimits<u32>) -> bool {
        self.forward.is_none() && self.runs_tiny_here(limits)
    }

    /// Whether a search on the caller's thread (not a portfolio's) may run
    /// in the tiny engine.
    pub(crate) fn runs_tiny_here(&self, limits: &SearchLimits<u32>) -> bool {
        self.runs_tiny(limits, None)
    }

    /// Forward A* in the tiny engine with the domain's quick form of the
    /// config's built-in heuristic ([`PlanningDomain::quick_forward_search`]).
    pub(crate) fn quick_search(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: &SearchLimits<u32>,
        workspace: &mut TinyWorkspace<D::State, D::ActionId, u32>,
    ) -> QuickSearch<D::State, D::ActionId> {
        match self.builtin {
            Some(name) => domain.quick_forward_search(name, start, goal, limits, workspace),
            None => QuickSearch::NotRun,
        }
    }

    /// The domain's quick form of the config's built-in heuristic toward
    /// `goal`, if it has one.
    pub(crate) fn quick_heuristic<'a>(
        &self,
        domain: &'a D,
        goal: &'a D::Goal,
    ) -> Option<impl Heuristic<D::State, u32> + 'a> {
        domain.quick_forward_heuristic(self.builtin?, goal)
    }

    /// Whether a search may run in the tiny engine: A* outside a
    /// portfolio, with limits it honours.
    fn runs_tiny(&self, limits: &SearchLimits<u32>, watch: Option<Watch<'_>>) -> bool {
        matches!(self.config.algorithm, Algorithm::AStar)
            && watch.is_none()
            && self.traces.is_none()
            && tiny_accepts(limits)
    }

    fn regression(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        limits: SearchLimits<u32>,
        watch: Option<Watch<'_>>,
    ) -> Result<DirectionRun<D::ActionId>, PlanError> {
        let (space, node) = domain.regression(start, goal)?;
        let setup = Instant::now();
        self.with_regression_heuristics(domain, start, goal, |make| {
            let heuristic = make()?;
            let setup_time = setup.elapsed();
            let buffers = (&self.regression_buffers, Some(&self.regression_tiny));
            let (result, improvements, trace) =
                self.search(&space, node, heuristic, make, limits, watch, buffers)?;
            if let (Some(traces), Some(trace)) = (&self.traces, trace) {
                traces.keep(PlanTrace::regression(domain, trace));
            }
            let order = |actions: Vec<D::ActionId>| domain.execution_order(&actions);
            Ok(DirectionRun {
                outcome: plan_outcome(result.outcome, order),
                stats: result.stats,
                setup_time,
                improvements: plan_improvements(improvements, order),
            })
        })
    }

    /// The configured forward heuristic in the form that owns what it
    /// reads, which a sliced job keeps between slices: where it is one
    /// registered heuristic (not a custom closure, not an alternation)
    /// whose factory and the domain's view have that form; `None`
    /// otherwise (the job then makes it anew each slice).
    pub(crate) fn owned_forward_heuristic(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Option<BoxedHeuristic<'static, D::State>> {
        if self.forward.is_some() {
            return None;
        }
        let (view_start, view_goal) = domain.view_problem(start, goal);
        let made =
            self.config
                .heuristic
                .forward_owned(domain.task_view(), &view_start, &view_goal)?;
        domain.view_owned_forward(made)
    }

    /// The configured regression heuristic in the form that owns what it
    /// reads; see [`owned_forward_heuristic`](Self::owned_forward_heuristic).
    pub(crate) fn owned_regression_heuristic(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
    ) -> Option<BoxedHeuristic<'static, D::Subgoal>> {
        if self.regression.is_some() {
            return None;
        }
        let (view_start, view_goal) = domain.view_problem(start, goal);
        let made =
            self.config
                .heuristic
                .regression_owned(domain.task_view(), &view_start, &view_goal)?;
        domain.view_owned_regression(made)
    }

    /// Calls `then` with a maker of the forward heuristics (the custom
    /// one, or the config's parts), which may borrow the view's start and
    /// goal; each call makes them anew.
    pub(crate) fn with_forward_heuristics<R>(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        then: impl for<'v> FnOnce(&'v Maker<'v, D::State>) -> Result<R, PlanError>,
    ) -> Result<R, PlanError> {
        let (view_start, view_goal) = domain.view_problem(start, goal);
        let make = || match &self.forward {
            Some(make) => Ok(vec![make()]),
            None => self
                .config
                .heuristic
                .parts()
                .iter()
                .map(|h| {
                    let made = h.forward(domain.task_view(), &view_start, &view_goal)?;
                    Ok(domain.view_forward(made))
                })
                .collect(),
        };
        then(&make)
    }

    /// Calls `then` with a maker of the regression heuristics (the custom
    /// one, or the config's parts), which may borrow the view's start and
    /// goal; each call makes them anew.
    pub(crate) fn with_regression_heuristics<R>(
        &self,
        domain: &D,
        start: &D::State,
        goal: &D::Goal,
        then: impl for<'v> FnOnce(&'v Maker<'v, D::Subgoal>) -> Result<R, PlanError>,
    ) -> Result<R, PlanError> {
        let (view_start, view_goal) = domain.view_problem(start, goal);
        let make = || match &self.regression {
            Some(make) => Ok(vec![make()]),
            None => self
                .config
                .heuristic
                .parts()
                .iter()
                .map(|h| {
                    let made = h.regression(domain.task_view(), &view_start, &view_goal)?;
                    Ok(domain.view_regression(made))
                })
                .collect(),
        };
        then(&make)
    }

    /// Runs the configured algorithm with `heuristics` (several only for
    /// lazy greedy search, which alternates between them), and returns its
    /// trace when recording.
    ///
    /// A* outside a portfolio, with limits the tiny engine honours and no
    /// trace asked for, runs there first ([`tiny_astar`]), in this thread's
    /// kept buffers; a problem too large for it goes on to the general
    /// engine with fresh heuristics from `make` (the first may have learned
    /// along the way). Both give the same result.
    #[expect(clippy::too_many_arguments, reason = "one search's inputs")]
    fn search<'a, S: SearchSpace<Cost = u32>>(
        &self,
        space: &S,
        start: S::Node,
        mut heuristics: Vec<BoxedHeuristic<'a, S::Node>>,
        make: impl Fn() -> Result<Vec<BoxedHeuristic<'a, S::Node>>, PlanError>,
        limits: SearchLimits<u32>,
        watch: Option<Watch<'_>>,
        (buffers, tiny): KeptBuffers<'_, S::Node, S::Action>,
    ) -> Result<SearchRun<S>, PlanError> {
        let tiny = tiny.filter(|_| heuristics.len() == 1 && self.runs_tiny(&limits, watch));
        let mut handover = None;
        if let Some(tiny) = tiny {
            let heuristic = &mut heuristics[0];
            let found = tiny.with(|ws| {
                let found = tiny_astar(space, start.clone(), heuristic, &limits, ws);
                handover = ws.take_handover();
                found
            });
            if let Some(result) = found {
                return Ok((result, Vec::new(), None));
            }
            // Grown too large, the tiny search goes on in the general
            // engine with the same heuristic; stopped for anything else,
            // the general engine starts over with a heuristic made anew.
            if handover.is_none() {
                heuristics = make()?;
            }
        }
        if self.config.algorithm.is_lazy() {
            // Preferred operators from every heuristic that gives them, as
            // LAMA; its own tables, so no buffers are kept.
            let mut search = LazyGreedy::new(space, start, heuristics)
                .type_based(self.config.algorithm == Algorithm::LazyTypeBased)
                .helpful_only(self.config.algorithm == Algorithm::LazyHelpful)
                .limits(limits)
                .record_trace(self.traces.is_some());
            if let Some(watch) = watch {
                watch.forward_cancellation();
                while search.step(PORTFOLIO_STEP)? == Status::Running {
                    watch.forward_cancellation();
                }
            }
            return Ok((search.run()?, Vec::new(), search.trace()));
        }
        let (Some(heuristic), true) = (heuristics.pop(), heuristics.is_empty()) else {
            return Err(PlanError::Alternation {
                heuristic: self.config.heuristic.name().to_owned(),
            });
        };
        let mut search = Search::new(space, start)
            .algorithm(self.config.algorithm)
            .heuristic(heuristic)
            .limits(limits)
            .workspace(buffers.take())
            .record_trace(self.traces.is_some());
        if let Some(handover) = handover {
            search = search.take_over(handover);
        }
        if let Some(watch) = watch {
            watch.forward_cancellation();
            while search.step(PORTFOLIO_STEP)? == Status::Running {
                watch.forward_cancellation();
            }
        }
        let result = search.run()?;
        let improvements = search.improvements().to_vec();
        let trace = search.trace();
        buffers.keep(search.into_workspace(), result.stats.estimated_bytes);
        Ok((result, improvements, trace))
    }
}

/// A direction's kept buffers: the general engine's, and the tiny
/// engine's unless the tiny engine is not to be tried.
type KeptBuffers<'b, N, A> = (&'b Buffers<N>, Option<&'b TinyBuffers<N, A>>);

/// A search's result, an anytime search's plans on the way, and the trace
/// when recording.
type SearchRun<S> = (
    ResultOf<S>,
    Vec<SearchImprovement<S>>,
    Option<Trace<<S as SearchSpace>::Node, <S as SearchSpace>::Action, u32>>,
);

type SearchImprovement<S> =
    Improvement<<S as SearchSpace>::Node, <S as SearchSpace>::Action, <S as SearchSpace>::Cost>;

/// One direction's search: its outcome, statistics, heuristic setup time and
/// an anytime search's plans on the way.
pub(crate) struct DirectionRun<Id> {
    pub(crate) outcome: PlanOutcome<Id>,
    pub(crate) stats: search_core::Statistics,
    pub(crate) setup_time: Duration,
    pub(crate) improvements: Vec<PlanImprovement<Id>>,
}

impl<Id> DirectionRun<Id> {
    /// The report of a plan that searched in `direction` alone.
    pub(crate) fn into_report(self, direction: Direction) -> PlanReport<Id> {
        let forward = direction == Direction::Forward;
        PlanReport {
            outcome: self.outcome,
            direction,
            forward: forward.then(|| self.stats.clone()),
            regression: (!forward).then_some(self.stats),
            setup_time: self.setup_time,
            improvements: self.improvements,
            ..PlanReport::empty()
        }
    }
}

/// The caller's cancellation flag, passed on to a portfolio's shared flag.
#[derive(Clone, Copy)]
pub(crate) struct Watch<'a> {
    user: Option<&'a AtomicBool>,
    stop: &'a AtomicBool,
}

impl Watch<'_> {
    fn forward_cancellation(self) {
        if self.user.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Raises a portfolio's flag if dropped while this thread panics, so that
/// the other direction stops instead of running on while the panic waits
/// for its thread.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether `error` says regression cannot run here at all (the domain or
/// the heuristic does not serve it), rather than that it went wrong.
pub(crate) fn cannot_regress(error: &PlanError) -> bool {
    matches!(
        error,
        PlanError::Factored(state_factored::FactoredError::NotRegressable { .. })
            | PlanError::Atomic(
                state_atomic::AtomicError::StateDependentCost { .. }
                    | state_atomic::AtomicError::ConditionalEffects { .. }
            )
            | PlanError::DerivedPredicates { .. }
            | PlanError::UnsupportedHeuristic {
                direction: Direction::Regression,
                ..
            }
    )
}

pub(crate) fn plan_improvements<N, Id: Copy>(
    improvements: Vec<Improvement<N, Id, u32>>,
    order: impl Fn(Vec<Id>) -> Vec<Id>,
) -> Vec<PlanImprovement<Id>> {
    improvements
        .into_iter()
        .map(|i| PlanImprovement {
            plan: Plan {
                actions: order(i.solution.actions),
                cost: u64::from(i.solution.cost),
            },
            weight: i.weight,
            expanded: i.expanded,
            elapsed: i.elapsed,
        })
        .collect()
}

pub(crate) fn plan_outcome<N, Id: Copy>(
    outcome: Outcome<N, Id, u32>,
    order: impl FnOnce(Vec<Id>) -> Vec<Id>,
) -> PlanOutcome<Id> {
    let plan = |solution: Solution<N, Id, u32>| Plan {
        actions: order(solution.actions),
        cost: u64::from(solution.cost),
    };
    match outcome {
        Outcome::Solved(solution) => PlanOutcome::Solved(plan(solution)),
        Outcome::Exhausted => PlanOutcome::Unsolvable,
        Outcome::NoSolutionFound => PlanOutcome::NoPlanFound,
        Outcome::LimitReached { limit, best } => PlanOutcome::LimitReached {
            limit,
            best: best.map(plan),
        },
        Outcome::Cancelled { best } => PlanOutcome::Cancelled {
            best: best.map(plan),
        },
    }
}

/// How a plan in the tiny engine went (`Planner::tiny_into`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TinyRun {
    /// It ran to an outcome; the buffer holds the report.
    Settled,
    /// It stored more nodes than the tiny engine keeps and gave up.
    TooLarge,
    /// The configuration or the domain has no tiny path.
    NotRun,
}
