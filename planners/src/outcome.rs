//! What a planner returns.

use std::time::Duration;

use search_core::{Limit, Statistics};

use crate::{Direction, PlanningDomain};

/// A plan: actions in execution order and their total cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<Id> {
    /// The actions, in the order they are executed.
    pub actions: Vec<Id>,
    /// The sum of the actions' costs.
    pub cost: u64,
}

impl<Id: Copy> Plan<Id> {
    /// The number of actions.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether the plan has no actions (the start already satisfies the goal).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The actions' names in `domain`.
    pub fn names<'d, D: PlanningDomain<ActionId = Id>>(&self, domain: &'d D) -> Vec<&'d str> {
        self.actions
            .iter()
            .map(|&id| domain.action_name(id))
            .collect()
    }
}

/// How planning ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanOutcome<Id> {
    /// A plan reaches the goal.
    Solved(Plan<Id>),
    /// No plan exists: the search space was exhausted, with only proven
    /// dead ends left out.
    Unsolvable,
    /// The search ran dry without a plan, but it left out states that a
    /// heuristic called dead ends without promising they are
    /// ([`Heuristic::dead_ends_are_reliable`](search_core::Heuristic::dead_ends_are_reliable)):
    /// not a proof that no plan exists.
    NoPlanFound,
    /// A limit stopped the search before it could answer. An anytime
    /// search keeps the best plan it found before: valid, not known to be
    /// optimal.
    LimitReached {
        /// The limit that stopped the search.
        limit: Limit,
        /// The best plan found before the limit, if any.
        best: Option<Plan<Id>>,
    },
    /// The caller's cancellation flag was raised; `best` as for
    /// [`LimitReached`](PlanOutcome::LimitReached).
    Cancelled {
        /// The best plan found before the cancellation, if any.
        best: Option<Plan<Id>>,
    },
}

impl<Id> PlanOutcome<Id> {
    /// The plan found, if any: a solved outcome's, or the best plan an
    /// anytime search found before a limit or cancellation stopped it (then
    /// not known to be optimal; match [`PlanOutcome::Solved`] to tell).
    pub fn plan(&self) -> Option<&Plan<Id>> {
        match self {
            PlanOutcome::Solved(plan) => Some(plan),
            PlanOutcome::LimitReached { best, .. } | PlanOutcome::Cancelled { best } => {
                best.as_ref()
            }
            PlanOutcome::Unsolvable | PlanOutcome::NoPlanFound => None,
        }
    }

    /// The plan, taken out: the solution, or the best plan a limit or
    /// cancellation left.
    ///
    /// ```
    /// use planners::{Plan, PlanOutcome};
    /// let outcome = PlanOutcome::Solved(Plan { actions: vec![1_u32], cost: 3 });
    /// assert_eq!(outcome.into_plan().unwrap().cost, 3);
    /// ```
    pub fn into_plan(self) -> Option<Plan<Id>> {
        match self {
            PlanOutcome::Solved(plan) => Some(plan),
            PlanOutcome::LimitReached { best, .. } | PlanOutcome::Cancelled { best } => best,
            PlanOutcome::Unsolvable | PlanOutcome::NoPlanFound => None,
        }
    }

    /// The limit that stopped the search, if one did.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            PlanOutcome::LimitReached { limit, .. } => Some(*limit),
            _ => None,
        }
    }

    /// The same outcome with each plan's actions mapped by `map` (to
    /// another action numbering, say, or into execution order).
    pub fn map_plan<Id2>(self, map: impl FnOnce(Plan<Id>) -> Plan<Id2>) -> PlanOutcome<Id2> {
        match self {
            PlanOutcome::Solved(plan) => PlanOutcome::Solved(map(plan)),
            PlanOutcome::Unsolvable => PlanOutcome::Unsolvable,
            PlanOutcome::NoPlanFound => PlanOutcome::NoPlanFound,
            PlanOutcome::LimitReached { limit, best } => PlanOutcome::LimitReached {
                limit,
                best: best.map(map),
            },
            PlanOutcome::Cancelled { best } => PlanOutcome::Cancelled {
                best: best.map(map),
            },
        }
    }

    /// A short lower-case name: `solved`, `unsolvable`, `no_plan_found`,
    /// `limit`, `cancelled`.
    pub fn name(&self) -> &'static str {
        match self {
            PlanOutcome::Solved(_) => "solved",
            PlanOutcome::Unsolvable => "unsolvable",
            PlanOutcome::NoPlanFound => "no_plan_found",
            PlanOutcome::LimitReached { .. } => "limit",
            PlanOutcome::Cancelled { .. } => "cancelled",
        }
    }

    /// Whether this settles the question (solved or proved unsolvable).
    pub fn is_definitive(&self) -> bool {
        matches!(self, PlanOutcome::Solved(_) | PlanOutcome::Unsolvable)
    }
}

/// The outcome with the statistics of the searches that produced it.
#[derive(Clone, Debug)]
pub struct PlanReport<Id> {
    /// How planning ended.
    pub outcome: PlanOutcome<Id>,
    /// The direction whose search produced the outcome: for a portfolio, the
    /// winner.
    pub direction: Direction,
    /// The forward search's statistics, if it ran.
    pub forward: Option<Statistics>,
    /// The regression search's statistics, if it ran.
    pub regression: Option<Statistics>,
    /// A bidirectional search's statistics over both sides (each side's
    /// are in `forward` and `regression`).
    pub both: Option<Statistics>,
    /// Wall time of the whole call.
    pub elapsed: Duration,
    /// Time spent making the heuristic (tables built before its first
    /// estimate), part of `elapsed`; for a portfolio, the longer of the two
    /// directions' (they run at once).
    pub setup_time: Duration,
    /// The plans an anytime search
    /// ([`Algorithm::RestartingWeightedAStar`](search_core::Algorithm)) found on
    /// the way, each cheaper than the one before, the last the outcome's
    /// (empty for the other algorithms).
    pub improvements: Vec<PlanImprovement<Id>>,
    /// What the planner did otherwise than asked, e.g. a portfolio that
    /// planned forward only because regression cannot run on the domain.
    pub notes: Vec<String>,
}

/// A plan an anytime search found, cheaper than every one before it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanImprovement<Id> {
    /// The plan, in execution order.
    pub plan: Plan<Id>,
    /// The weight of the weighted A* iteration that found it.
    pub weight: f64,
    /// Expansions, over all iterations, when it was found.
    pub expanded: u64,
    /// Search time, over all iterations, when it was found.
    pub elapsed: Duration,
}

impl<Id> PlanReport<Id> {
    /// A report of no search yet: no plan found, forward, no statistics.
    pub(crate) fn empty() -> Self {
        PlanReport {
            outcome: PlanOutcome::NoPlanFound,
            direction: Direction::Forward,
            forward: None,
            regression: None,
            both: None,
            elapsed: Duration::ZERO,
            setup_time: Duration::ZERO,
            improvements: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The same report with every plan's actions (the outcome's and the
    /// improvements') renamed by `rename`: a domain's action identifiers as
    /// a task's numbers, say.
    ///
    /// ```
    /// use planners::{Direction, Plan, PlanOutcome, PlanReport};
    /// let report = PlanReport {
    ///     outcome: PlanOutcome::Solved(Plan { actions: vec![2_u32, 0], cost: 2 }),
    ///     direction: Direction::Forward,
    ///     forward: None,
    ///     regression: None,
    ///     both: None,
    ///     elapsed: std::time::Duration::ZERO,
    ///     setup_time: std::time::Duration::ZERO,
    ///     improvements: Vec::new(),
    ///     notes: Vec::new(),
    /// };
    /// let named = report.map_actions(|a| ["a", "b", "c"][a as usize]);
    /// assert_eq!(named.plan().unwrap().actions, ["c", "a"]);
    /// ```
    pub fn map_actions<Id2>(self, rename: impl Fn(Id) -> Id2) -> PlanReport<Id2> {
        let plan = |p: Plan<Id>| Plan {
            actions: p.actions.into_iter().map(&rename).collect(),
            cost: p.cost,
        };
        PlanReport {
            outcome: self.outcome.map_plan(plan),
            direction: self.direction,
            forward: self.forward,
            regression: self.regression,
            both: self.both,
            elapsed: self.elapsed,
            setup_time: self.setup_time,
            improvements: self
                .improvements
                .into_iter()
                .map(|i| PlanImprovement {
                    plan: plan(i.plan),
                    weight: i.weight,
                    expanded: i.expanded,
                    elapsed: i.elapsed,
                })
                .collect(),
            notes: self.notes,
        }
    }

    /// The plan, if solved.
    pub fn plan(&self) -> Option<&Plan<Id>> {
        self.outcome.plan()
    }

    /// The statistics of the direction that produced the outcome.
    pub fn stats(&self) -> &Statistics {
        let chosen = match self.direction {
            Direction::Regression => self.regression.as_ref(),
            Direction::Bidirectional => self.both.as_ref(),
            _ => self.forward.as_ref(),
        };
        chosen
            .or(self.forward.as_ref())
            .or(self.regression.as_ref())
            .unwrap_or(&EMPTY)
    }
}

static EMPTY: Statistics = Statistics {
    expanded: 0,
    generated: 0,
    evaluated: 0,
    duplicates: 0,
    reopened: 0,
    dead_ends: 0,
    dominated: 0,
    expanded_until_last_jump: 0,
    max_open: 0,
    stored: 0,
    estimated_bytes: 0,
    elapsed: Duration::ZERO,
};
