//! The one search loop. Every algorithm writes its step ([`Step`]); the
//! loop here owns what they share: the clock, the limits (expansions,
//! stored nodes, memory, time), cancellation, the end state and the
//! outcome built from it.

use std::time::{Duration, Instant};

use crate::{Cost, Limit, Outcome, SearchError, SearchLimits, SearchResult, Solution, Statistics};

/// Whether a search can go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It stopped after the requested number of expansions; step again.
    Running,
    /// It ended; [`Search::run`](crate::Search::run) returns the result.
    Finished,
}

/// How a finished search ended.
#[derive(Clone, Debug)]
pub(crate) enum End {
    /// At the goal with this index (the algorithm's own numbering).
    Goal(u32),
    Exhausted,
    Limit(Limit),
    Cancelled,
    Failed(SearchError),
}

impl End {
    /// What ends a search with nothing left to expand: the first path cost
    /// that passed the cost type if the search left one out, the cost bound
    /// if it `pruned` a path, and otherwise exhaustion.
    pub(crate) fn ran_dry(overflow: Option<SearchError>, pruned: bool) -> End {
        if let Some(error) = overflow {
            End::Failed(error)
        } else if pruned {
            End::Limit(Limit::CostBound)
        } else {
            End::Exhausted
        }
    }

    /// The goal's index, if the search ended at one.
    pub(crate) fn goal(end: Option<&End>) -> Option<u32> {
        match end {
            Some(End::Goal(goal)) => Some(*goal),
            _ => None,
        }
    }
}

/// What every search keeps for the loop: its limits, statistics, clock and
/// end.
#[derive(Clone, Debug)]
pub(crate) struct Core<C> {
    pub(crate) limits: SearchLimits<C>,
    pub(crate) stats: Statistics,
    pub(crate) end: Option<End>,
    pub(crate) clock: Clock,
}

impl<C> Core<C> {
    /// The time the search has left under its time limit, if it has one.
    pub(crate) fn time_left(&self) -> Option<Duration> {
        let max = self.limits.max_time?;
        Some(max.saturating_sub(self.stats.elapsed))
    }
}

impl<C> Default for Core<C> {
    fn default() -> Self {
        Self {
            limits: SearchLimits::default(),
            stats: Statistics::default(),
            end: None,
            clock: Clock::default(),
        }
    }
}

/// When a paced search reads the clock for `max_time`.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    /// The expansion count at which to read it next.
    next: u64,
    /// The search time and expansions at the last reading.
    last: (Duration, u64),
    /// Whether expansions are slow (a millisecond or more each, or of
    /// unknown pace), so that the clock is read after each evaluation too.
    pub(crate) each_evaluation: bool,
}

impl Default for Clock {
    fn default() -> Self {
        Self {
            next: 0,
            last: (Duration::ZERO, 0),
            each_evaluation: true,
        }
    }
}

impl Clock {
    /// Paces afresh from `stats` (a new iteration: its pace is unknown).
    pub(crate) fn restart(&mut self, stats: &Statistics) {
        self.next = stats.expanded;
        self.last = (stats.elapsed, stats.expanded);
        self.each_evaluation = true;
    }

    /// Chooses when to read the clock next: after as many expansions as
    /// take about a millisecond at the pace since the last reading (less
    /// near the limit), at most 64 (a reading costs about as much as a fast
    /// grid expansion) and at least one. So a search passes `max_time` by
    /// at most a millisecond or so, or one expansion when they are slower.
    fn plan(&mut self, now: Duration, max: Duration, expanded: u64) {
        let (then, at) = self.last;
        let done = u128::from(expanded - at);
        let stride = match now.saturating_sub(then).as_nanos().checked_div(done) {
            Some(pace) => {
                let interval = max.saturating_sub(now).min(Duration::from_millis(1));
                let stride = interval.as_nanos() / pace.max(1);
                u64::try_from(stride).unwrap_or(64).clamp(1, 64)
            }
            None => 1, // no pace yet
        };
        self.last = (now, expanded);
        self.next = expanded + stride;
        self.each_evaluation = stride == 1;
    }
}

type CostOf<T> = <T as Step>::Cost;
pub(crate) type PlanOf<T> = Solution<<T as Step>::Node, <T as Step>::Action, CostOf<T>>;
type ResultOf<T> = SearchResult<<T as Step>::Node, <T as Step>::Action, CostOf<T>>;

/// One algorithm's step, and what the loop asks of it.
pub(crate) trait Step {
    /// The nodes of the solutions it returns.
    type Node;
    /// Their actions.
    type Action;
    /// Their costs.
    type Cost: Cost;

    /// Whether the clock is read only about every millisecond of
    /// expansions ([`Clock`]), for searches whose expansions are cheap;
    /// otherwise it is read before every step.
    const PACED_CLOCK: bool;

    fn core(&self) -> &Core<CostOf<Self>>;

    fn core_mut(&mut self) -> &mut Core<CostOf<Self>>;

    /// Gets ready for the steps of one call that began at `started`: tells
    /// the heuristics the deadline and their memory budget, and begins the
    /// search on the first call.
    fn prepare(&mut self, started: Instant);

    /// Advances by one move; returns whether it spent one of the call's
    /// steps.
    fn advance(&mut self, started: Instant) -> bool;

    /// The nodes stored, for `max_stored_nodes`; `None` if the limit does
    /// not apply.
    fn stored_nodes(&self) -> Option<usize>;

    /// Whether the search's memory, grown by what one more step may add,
    /// would pass `max` bytes.
    fn exceeds_memory(&self, max: usize) -> bool;

    /// Fills in the statistics measured at the end of a call.
    fn settle(&mut self) {}

    /// The plan to the goal with index `goal`.
    ///
    /// # Errors
    /// The error that kept the plan from being written out.
    fn solution(&self, goal: u32) -> Result<PlanOf<Self>, SearchError>;

    /// The best plan an anytime search found before it ended.
    fn best(&self) -> Option<PlanOf<Self>> {
        None
    }

    /// Whether the heuristics' dead ends are reliable, so that running dry
    /// proves no plan exists.
    fn dead_ends_are_reliable(&self) -> bool;

    /// Whether the search left out successors that are not dead ends (as
    /// helpful-actions pruning does), so that running dry proves nothing.
    fn left_out_states(&self) -> bool {
        false
    }
}

/// Advances `search` by at most `budget` steps.
///
/// # Errors
/// The error the search failed with.
pub(crate) fn step<T: Step>(search: &mut T, budget: u64) -> Result<Status, SearchError> {
    let started = Instant::now();
    search.prepare(started);
    let limited = search.core().limits.checks_expansions();
    let mut budget = budget;
    while search.core().end.is_none() && budget > 0 {
        if let Some(end) = limited.then(|| check_limits(search, started)).flatten() {
            search.core_mut().end = Some(end);
            break;
        }
        if search.advance(started) {
            budget -= 1;
        }
    }
    search.core_mut().stats.elapsed += started.elapsed();
    search.settle();
    match &search.core().end {
        None => Ok(Status::Running),
        Some(End::Failed(error)) => Err(error.clone()),
        Some(_) => Ok(Status::Finished),
    }
}

/// Runs `search` to its end and builds the result. May be called again; it
/// returns the same result.
///
/// # Errors
/// The error the search failed with.
pub(crate) fn run<T: Step>(search: &mut T) -> Result<ResultOf<T>, SearchError> {
    while step(search, u64::MAX)? == Status::Running {}
    // An anytime search's best plan; a limit or cancellation that came
    // before the search ended keeps it but does not make it a final answer.
    let best = search.best();
    let core = search.core();
    let outcome = match (best, &core.end) {
        (best, Some(End::Limit(limit))) => Outcome::LimitReached {
            limit: *limit,
            best,
        },
        (best, Some(End::Cancelled)) => Outcome::Cancelled { best },
        (Some(best), _) => Outcome::Solved(best),
        (None, Some(End::Goal(goal))) => Outcome::Solved(search.solution(*goal)?),
        _ if search.left_out_states() => Outcome::NoSolutionFound,
        _ => Outcome::ran_dry(core.stats.dead_ends, search.dead_ends_are_reliable()),
    };
    Ok(SearchResult {
        outcome,
        stats: core.stats.clone(),
    })
}

/// The limit that stops `search` before its next step, if any.
pub(crate) fn check_limits<T: Step>(search: &mut T, started: Instant) -> Option<End> {
    let core = search.core();
    let limits = &core.limits;
    if limits.is_cancelled() {
        return Some(End::Cancelled);
    }
    if limits
        .max_expansions
        .is_some_and(|m| core.stats.expanded >= m)
    {
        return Some(End::Limit(Limit::Expansions));
    }
    if limits
        .max_stored_nodes
        .is_some_and(|m| search.stored_nodes().is_some_and(|n| n >= m))
    {
        return Some(End::Limit(Limit::StoredNodes));
    }
    if limits
        .max_memory_bytes
        .is_some_and(|m| search.exceeds_memory(m))
    {
        return Some(End::Limit(Limit::Memory));
    }
    let max = limits.max_time?;
    let core = search.core_mut();
    let expanded = core.stats.expanded;
    if !T::PACED_CLOCK || expanded >= core.clock.next {
        let now = core.stats.elapsed + started.elapsed();
        if now >= max {
            return Some(End::Limit(Limit::Time));
        }
        if T::PACED_CLOCK {
            core.clock.plan(now, max, expanded);
        }
    }
    None
}
