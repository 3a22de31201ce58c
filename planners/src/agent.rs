//! The GOAP agent runtime: goals with priorities, plans that are followed
//! action by action over game ticks, and replanning when the world moves.
//!
//! An [`Agent`] holds its private state (its beliefs), its goals and an
//! executor per action name, and shares one domain (action set) with every
//! other agent. Each [`tick`](Agent::tick):
//!
//! 1. runs the agent's sensors, which write its beliefs from the game;
//! 2. merges the world's shared state with the agent's private state (its
//!    *view*);
//! 3. selects the most important goal that is relevant and not yet satisfied
//!    (higher priority first; ties go to the goal added first). A goal's
//!    priority is a number or a closure of the view
//!    ([`AgentGoal::priority_fn`]: hunger that rises over time), evaluated
//!    anew every tick;
//! 4. drops the current plan if a more important goal became relevant (or
//!    another goal's priority overtook the current goal's), if the next
//!    action's precondition no longer holds, or as the [`ReplanPolicy`] says
//!    (reported as [`AgentEvent::Replanning`]). An action that was running
//!    runs on while the next plan is searched, unless its precondition
//!    broke; the new plan takes over once found, going on with that action
//!    if it starts with it;
//! 5. plans when there is no plan, within the tick's planning budget
//!    ([`PlanningBudget`]): a search that does not end in this tick goes on
//!    in the next ([`TickStatus::Planning`]); a goal with no plan (or whose
//!    search passed the watchdog) is reported and the next goal is tried, and
//!    it is not tried again until the agent's view changes. Where the
//!    planner runs A* in its tiny engine (the built-in `blind`, `mismatch`
//!    and `hmax` forward) and the budget leaves room for 16 expansions or
//!    more, a new search runs at once into buffers the agent keeps
//!    ([`PlanBuffer`]), several times faster than a
//!    sliced search and with the same plan; one that does not end within
//!    the budget is sliced from then on;
//! 6. runs the current action's executor once: `Running` waits for the next
//!    tick, `Success` applies the action's effects (shared parts to the world,
//!    the rest to the agent) and moves on, `Failure` drops the plan so the
//!    next tick replans. When the plan's last action succeeds, its goal is
//!    reached ([`AgentEvent::GoalReached`]) and the next plan's search starts
//!    in the same tick, within what is left of the tick's budget: a plan
//!    found then is followed from the next tick, with no tick spent idle.
//!
//! Goals repeat: a goal that was reached is pursued again whenever it stops
//! holding (a patrol between two posts, a meal whenever hunger returns). A
//! goal added with [`AgentGoal::once`] is removed once reached instead.
//!
//! An action with no executor bound succeeds at once (a bookkeeping action).
//!
//! Executors and sensors may use a context `C` that the caller lends to each
//! [`tick_with`](Agent::tick_with) (the game's world, an ECS query, a
//! physics handle), so they need no `Arc<Mutex<..>>`. Agents are `Send` and
//! `Sync`: an agent can be an ECS component and agents can tick on several
//! threads.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use search_core::{Limit, SearchLimits, TINY_MAX_NODES};

use crate::planner::TinyRun;

use crate::{
    Budget, Direction, PlanBuffer, PlanError, PlanJob, PlanOutcome, PlanReport, PlanTrace, Planner,
    PlannerConfig, PlanningDomain,
};

/// A [`PlanningDomain`] that agents can act in: it can merge the world's
/// shared state with an agent's own, apply actions and test goals.
pub trait AgentDomain: PlanningDomain<Goal: Clone + Send> + Send {
    /// The agent's view: the shared parts of `world` with the rest of `own`.
    fn view(&self, world: &Self::State, own: &Self::State) -> Self::State;

    /// Stores a view after an action: shared parts into `world`, the rest into
    /// `own`.
    fn write_back(&self, view: &Self::State, world: &mut Self::State, own: &mut Self::State);

    /// Whether `action`'s preconditions hold in `state`.
    fn is_applicable(&self, state: &Self::State, action: Self::ActionId) -> bool;

    /// `state` after `action`, or `None` if it is not applicable.
    fn apply(&self, state: &Self::State, action: Self::ActionId) -> Option<Self::State>;

    /// Whether `state` satisfies `goal`.
    fn is_satisfied(&self, state: &Self::State, goal: &Self::Goal) -> bool;

    /// The action with this name.
    fn find_action(&self, name: &str) -> Option<Self::ActionId>;

    /// Whether `now` differs from `expected` in something a plan for `goal`
    /// could depend on (for [`ReplanPolicy::on_change`]). The default: any
    /// difference at all.
    fn relevant_change(
        &self,
        expected: &Self::State,
        now: &Self::State,
        goal: &Self::Goal,
    ) -> bool {
        let _ = goal;
        expected != now
    }
}

/// What an executor says after running an action for one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    /// Still going: call again next tick.
    Running,
    /// Done: apply the action's effects.
    Success,
    /// It did not work out: replan.
    Failure,
}

/// Runs one action for an agent, one tick at a time, with the context `C`
/// the caller lends to [`Agent::tick_with`]. Closures
/// `FnMut(&State, &mut C) -> ExecStatus` are executors; [`Agent::bind`]
/// also takes closures that need only the view.
pub trait Executor<S, C = ()>: Send + Sync {
    /// Advances the action; `view` is the agent's current view of the world.
    fn execute(&mut self, view: &S, context: &mut C) -> ExecStatus;
}

impl<S, C, F: FnMut(&S, &mut C) -> ExecStatus + Send + Sync> Executor<S, C> for F {
    fn execute(&mut self, view: &S, context: &mut C) -> ExecStatus {
        self(view, context)
    }
}

/// Why an agent dropped its plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplanReason {
    /// The executor reported failure.
    ActionFailed,
    /// The next action's precondition no longer holds.
    PreconditionInvalidated,
    /// A more important goal became relevant.
    HigherPriorityGoal,
    /// A plan cheaper than what is left of the current one by more than
    /// the policy's margin exists ([`ReplanPolicy::cheaper_by`]).
    CheaperPlan,
    /// The policy's period passed ([`ReplanPolicy::every_ticks`]).
    Periodic,
    /// The view changed otherwise than the plan expected, in something the
    /// plan could depend on ([`ReplanPolicy::on_change`]).
    WorldChanged,
}

/// When an agent replans beyond the reasons it always has (a failed
/// action, a broken precondition, a more important goal). Both checks run
/// between actions only, never while an executor is running one; the
/// default does neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplanPolicy {
    /// Plans anew every this many ticks of following a plan.
    pub every_ticks: Option<u32>,
    /// Plans the current goal again before each action, and switches when
    /// the new plan costs less than what is left of the current one by more
    /// than this (a shop that reopened mid-plan). One search per action.
    pub cheaper_by: Option<u64>,
    /// Plans anew when the view differs from what the plan expected (the
    /// state its last action left, or the one it was planned from) in
    /// something a plan could depend on
    /// ([`AgentDomain::relevant_change`]): another agent or the game moved
    /// the world.
    pub on_change: bool,
}

/// How much planning an agent does per tick, and in all for one goal.
///
/// By default a plan is made in the tick that needs it, whatever it costs
/// (within the planner's limits). With `per_tick`, a search stops when the
/// tick's share is spent and goes on in the next tick where it stopped
/// ([`TickStatus::Planning`]), so one hard plan never stalls a frame. With
/// `watchdog`, a search that has used that much over all its ticks is
/// abandoned ([`AgentEvent::PlanningAbandoned`]) and the next goal is
/// tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanningBudget {
    /// The most planning in one tick.
    pub per_tick: Option<Budget>,
    /// The most planning for one goal over all ticks.
    pub watchdog: Option<Budget>,
}

impl fmt::Display for ReplanReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReplanReason::ActionFailed => "the action failed",
            ReplanReason::PreconditionInvalidated => {
                "the next action's precondition no longer holds"
            }
            ReplanReason::HigherPriorityGoal => "a more important goal became relevant",
            ReplanReason::CheaperPlan => "a cheaper plan exists",
            ReplanReason::Periodic => "the replanning period passed",
            ReplanReason::WorldChanged => "the world changed",
        })
    }
}

/// Something that happened during a tick, for debugging and visualisation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentEvent<'a> {
    /// A plan was found for a goal.
    PlanFound {
        /// The goal's name.
        goal: &'a str,
        /// The actions' names in order.
        actions: Vec<&'a str>,
        /// The plan's cost.
        cost: u64,
    },
    /// No plan reaches a goal (unsolvable, or a limit was hit); the next goal
    /// is tried.
    NoPlan {
        /// The goal's name.
        goal: &'a str,
        /// `unsolvable`, `no_plan_found`, `limit` or `cancelled`.
        outcome: &'static str,
    },
    /// A search passed the watchdog ([`PlanningBudget::watchdog`]) and was
    /// dropped; the next goal is tried.
    PlanningAbandoned {
        /// The goal's name.
        goal: &'a str,
        /// Expansions over all its ticks.
        expanded: u64,
        /// Planning time over all its ticks.
        elapsed: Duration,
    },
    /// The plan was dropped; a new one follows.
    Replanning {
        /// The goal the dropped plan was for.
        goal: &'a str,
        /// Why.
        reason: ReplanReason,
    },
    /// An action's executor ran for the first time.
    ActionStarted {
        /// The action's name.
        action: &'a str,
    },
    /// An action succeeded and its effects were applied.
    ActionFinished {
        /// The action's name.
        action: &'a str,
    },
    /// An action failed.
    ActionFailed {
        /// The action's name.
        action: &'a str,
    },
    /// The last action of a plan finished: the goal holds.
    GoalReached {
        /// The goal's name.
        goal: &'a str,
    },
}

/// Which kind of [`AgentEvent`] it is, without its names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentEventKind {
    /// [`AgentEvent::PlanFound`].
    PlanFound,
    /// [`AgentEvent::NoPlan`].
    NoPlan,
    /// [`AgentEvent::PlanningAbandoned`].
    PlanningAbandoned,
    /// [`AgentEvent::Replanning`].
    Replanning,
    /// [`AgentEvent::ActionStarted`].
    ActionStarted,
    /// [`AgentEvent::ActionFinished`].
    ActionFinished,
    /// [`AgentEvent::ActionFailed`].
    ActionFailed,
    /// [`AgentEvent::GoalReached`].
    GoalReached,
}

impl AgentEvent<'_> {
    /// Which kind of event it is.
    ///
    /// ```
    /// use planners::agent::{AgentEvent, AgentEventKind};
    /// let event = AgentEvent::ActionStarted { action: "cook" };
    /// assert_eq!(event.kind(), AgentEventKind::ActionStarted);
    /// assert_eq!(event.subject(), "cook");
    /// ```
    pub fn kind(&self) -> AgentEventKind {
        match self {
            AgentEvent::PlanFound { .. } => AgentEventKind::PlanFound,
            AgentEvent::NoPlan { .. } => AgentEventKind::NoPlan,
            AgentEvent::PlanningAbandoned { .. } => AgentEventKind::PlanningAbandoned,
            AgentEvent::Replanning { .. } => AgentEventKind::Replanning,
            AgentEvent::ActionStarted { .. } => AgentEventKind::ActionStarted,
            AgentEvent::ActionFinished { .. } => AgentEventKind::ActionFinished,
            AgentEvent::ActionFailed { .. } => AgentEventKind::ActionFailed,
            AgentEvent::GoalReached { .. } => AgentEventKind::GoalReached,
        }
    }

    /// The goal or the action the event is about.
    pub fn subject(&self) -> &str {
        match self {
            AgentEvent::PlanFound { goal, .. }
            | AgentEvent::NoPlan { goal, .. }
            | AgentEvent::PlanningAbandoned { goal, .. }
            | AgentEvent::Replanning { goal, .. }
            | AgentEvent::GoalReached { goal } => goal,
            AgentEvent::ActionStarted { action }
            | AgentEvent::ActionFinished { action }
            | AgentEvent::ActionFailed { action } => action,
        }
    }
}

impl fmt::Display for AgentEvent<'_> {
    /// One line for a log: `plans to eat: cook, eat (cost 15)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentEvent::PlanFound {
                goal,
                actions,
                cost,
            } => write!(f, "plans to {goal}: {} (cost {cost})", actions.join(", ")),
            AgentEvent::NoPlan { goal, outcome } => write!(f, "cannot {goal} ({outcome})"),
            AgentEvent::PlanningAbandoned {
                goal,
                expanded,
                elapsed,
            } => write!(
                f,
                "gives up planning to {goal} after {expanded} expansions ({elapsed:?})"
            ),
            AgentEvent::Replanning { goal, reason } => {
                write!(f, "drops its plan to {goal}: {reason}")
            }
            AgentEvent::ActionStarted { action } => write!(f, "starts {action}"),
            AgentEvent::ActionFinished { action } => write!(f, "finishes {action}"),
            AgentEvent::ActionFailed { action } => write!(f, "fails to {action}"),
            AgentEvent::GoalReached { goal } => write!(f, "reached its goal: {goal}"),
        }
    }
}

/// The last plan an agent made, for a debug view: the goal, the plan, and
/// (when the agent records traces, [`Agent::record_traces`]) the search
/// behind it, which shows why the agent chose that plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanRecord {
    /// The goal's name.
    pub goal: String,
    /// The actions' names in order.
    pub actions: Vec<String>,
    /// The plan's cost.
    pub cost: u64,
    /// The direction whose search gave the plan.
    pub direction: Direction,
    /// That search's exploration, named by the domain.
    pub trace: Option<PlanTrace>,
}

impl fmt::Display for PlanRecord {
    /// `eat: cook, eat (cost 15, forward)`, then the trace as text if there
    /// is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let direction = match self.direction {
            Direction::Regression => "regression",
            _ => "forward",
        };
        write!(
            f,
            "{}: {} (cost {}, {direction})",
            self.goal,
            self.actions.join(", "),
            self.cost
        )?;
        match &self.trace {
            Some(trace) => write!(f, "\n{}", trace.to_text()),
            None => Ok(()),
        }
    }
}

/// What an agent did in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TickStatus {
    /// An action is running or just finished; more to do (a search for
    /// the next plan may be under way too).
    Acting,
    /// Every relevant goal is satisfied.
    Idle,
    /// Relevant goals exist but none has a plan.
    Stuck,
    /// A search is under way and no action ran; it goes on next tick.
    Planning,
}

type Relevance<S> = Box<dyn Fn(&S) -> bool + Send + Sync>;
type Priority<S> = Box<dyn Fn(&S) -> i32 + Send + Sync>;

/// A goal as an agent pursues it, for [`Agent::add`]: what to reach (`G`,
/// the domain's goal), how much it matters in a view of state `S` (a
/// number, or a closure evaluated every tick), when it is relevant, and
/// whether it is pursued again once reached.
///
/// By default a goal has priority 0, is always relevant, and repeats: once
/// reached, it is pursued again whenever it stops holding.
///
/// ```
/// use std::sync::Arc;
/// use planners::agent::{Agent, AgentGoal};
/// use state_atomic::{ActionSet, WorldState};
///
/// let mut actions = ActionSet::<u64>::new();
/// let hungry = actions.declare("hungry").unwrap();
/// let starving = actions.declare("starving").unwrap();
/// let paid = actions.declare("paid").unwrap();
/// actions.add_action("eat", 1).eff("hungry", false).eff("starving", false);
/// actions.add_action("work", 1).eff("paid", true);
/// let actions = Arc::new(actions);
///
/// let worker = |own: &[&str]| {
///     let mut agent = Agent::new(Arc::clone(&actions), actions.state(own.iter().copied()).unwrap());
///     agent.add_goal("work", actions.partial([("paid", true)]).unwrap(), 5);
///     // Hunger matters little, until it turns to starving.
///     agent.add(
///         AgentGoal::new("eat", actions.partial([("hungry", false)]).unwrap())
///             .priority_fn(move |view: &WorldState| if view.get(starving) { 10 } else { 1 }),
///     );
///     agent
/// };
/// let mut world = actions.state([]).unwrap();
///
/// let mut hungry_one = worker(&["hungry"]);
/// assert_eq!(hungry_one.priorities(&world), [("work", 5), ("eat", 1)]);
/// hungry_one.tick(&mut world).unwrap();
/// assert!(hungry_one.own_state().get(paid) && hungry_one.own_state().get(hungry)); // worked first
///
/// let mut starving_one = worker(&["hungry", "starving"]);
/// assert_eq!(starving_one.priorities(&world), [("work", 5), ("eat", 10)]);
/// starving_one.tick(&mut world).unwrap();
/// assert!(!starving_one.own_state().get(paid) && !starving_one.own_state().get(hungry)); // ate first
/// ```
pub struct AgentGoal<S, G> {
    name: String,
    goal: G,
    priority: Priority<S>,
    relevant: Option<Relevance<S>>,
    once: bool,
}

impl<S, G> AgentGoal<S, G> {
    /// A goal called `name` that reaching `goal` achieves: priority 0,
    /// always relevant, repeating.
    ///
    /// ```
    /// use planners::agent::AgentGoal;
    /// use state_atomic::{ActionSet, PartialState, WorldState};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).eff("fed", true);
    /// let eat: AgentGoal<WorldState, PartialState> = AgentGoal::new("eat", actions.partial([("fed", true)]).unwrap());
    /// assert_eq!(eat.name(), "eat");
    /// ```
    pub fn new(name: &str, goal: G) -> Self {
        Self {
            name: name.to_owned(),
            goal,
            priority: Box::new(|_| 0),
            relevant: None,
            once: false,
        }
    }

    /// A fixed priority: the constant closure. Higher wins.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, AgentGoal};
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let mut agent: Agent<ActionSet> = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// agent.add(AgentGoal::new("eat", actions.partial([("fed", true)]).unwrap()).priority(3));
    /// assert_eq!(agent.priorities(&actions.state([]).unwrap()), [("eat", 3)]);
    /// ```
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = Box::new(move |_| priority);
        self
    }

    /// A priority that is a function of the agent's view (a sensor's
    /// reading: hunger, danger, fatigue), evaluated every tick. When another
    /// goal's priority overtakes the current goal's, the agent drops its
    /// plan ([`ReplanReason::HigherPriorityGoal`]) as it does for a fixed
    /// higher priority; equal priorities do not take over.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, AgentGoal};
    /// use state_factored::{Action, Domain, Predicate, Schema, State};
    ///
    /// let mut schema = Schema::new();
    /// let hunger = schema.int("hunger").unwrap();
    /// let domain = Arc::new({
    ///     let mut domain = Domain::new(schema);
    ///     domain.add_action(Action::builder("eat").set("hunger", 0)).unwrap();
    ///     domain
    /// });
    /// let mut agent: Agent<Domain> = Agent::new(Arc::clone(&domain), domain.schema().default_state());
    /// let fed = domain.goal([Predicate::le("hunger", 0)]).unwrap();
    /// agent.add(AgentGoal::new("eat", fed).priority_fn(move |view: &State| view.int(hunger) as i32));
    /// let world = domain.schema().state().set("hunger", 7).build().unwrap();
    /// assert_eq!(agent.priorities(&world), [("eat", 0)]); // hunger is the agent's own
    /// agent.set_own_state(world.clone());
    /// assert_eq!(agent.priorities(&world), [("eat", 7)]);
    /// ```
    #[must_use]
    pub fn priority_fn(mut self, priority: impl Fn(&S) -> i32 + Send + Sync + 'static) -> Self {
        self.priority = Box::new(priority);
        self
    }

    /// Pursued only while `relevant` holds in the view.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, AgentGoal, TickStatus};
    /// use state_atomic::{ActionSet, WorldState};
    /// let mut actions = ActionSet::<u64>::new();
    /// let alarm = actions.declare_shared("alarm").unwrap();
    /// actions.add_action("hide", 1).eff("hidden", true);
    /// let actions = Arc::new(actions);
    /// let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// agent.add(
    ///     AgentGoal::new("hide", actions.partial([("hidden", true)]).unwrap())
    ///         .when(move |view: &WorldState| view.get(alarm)),
    /// );
    /// assert_eq!(agent.tick(&mut actions.state([]).unwrap()).unwrap(), TickStatus::Idle);
    /// assert_eq!(agent.tick(&mut actions.state(["alarm"]).unwrap()).unwrap(), TickStatus::Acting);
    /// ```
    #[must_use]
    pub fn when(mut self, relevant: impl Fn(&S) -> bool + Send + Sync + 'static) -> Self {
        self.relevant = Some(Box::new(relevant));
        self
    }

    /// A one-shot goal: removed from the agent once reached (its plan's last
    /// action succeeded), not pursued again when it stops holding.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, AgentGoal, TickStatus};
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("deliver", 1).eff("delivered", true);
    /// let actions = Arc::new(actions);
    /// let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// agent.add(AgentGoal::new("deliver", actions.partial([("delivered", true)]).unwrap()).once());
    /// let mut world = actions.state([]).unwrap();
    /// assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
    /// assert!(agent.goal_names().is_empty());
    /// agent.set_own_state(actions.state([]).unwrap()); // the parcel is lost
    /// assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Idle);
    /// ```
    #[must_use]
    pub fn once(mut self) -> Self {
        self.once = true;
        self
    }

    /// The goal's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<S, G: fmt::Debug> fmt::Debug for AgentGoal<S, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentGoal")
            .field("name", &self.name)
            .field("goal", &self.goal)
            .field("relevant_when", &self.relevant.is_some())
            .field("once", &self.once)
            .finish_non_exhaustive()
    }
}

type GoalEntry<D> = AgentGoal<<D as PlanningDomain>::State, <D as PlanningDomain>::Goal>;

struct CurrentPlan<S, Id> {
    goal: usize,
    actions: Vec<Id>,
    step: usize,
    started: bool,
    /// Ticks spent following this plan.
    ticks: u32,
    /// The view the plan expects now: the one its last action left, or the
    /// one it was planned from.
    expected: S,
}

/// The running action of a plan dropped for a reason that leaves it
/// applicable (a more important goal): it runs on while the next plan is
/// searched.
struct Carried<Id> {
    /// The dropped plan's goal.
    goal: usize,
    action: Id,
    /// Whether it was the dropped plan's last action (its success reaches
    /// that goal).
    last: bool,
}

/// How running an action for one tick went.
enum Ran<S> {
    Running,
    Failed,
    /// It succeeded; the view after it.
    Finished(S),
    /// It succeeded but `apply` refused it.
    Refused,
}

/// A search for a goal, under way over ticks.
struct Search<D: PlanningDomain> {
    goal: usize,
    job: PlanJob<D>,
}

/// The fewest expansions a tick's budget must leave for a search to be
/// tried at once, in the tiny engine, rather than sliced. A game agent's
/// plan takes a handful of expansions (2 to 8 on the reference scenarios
/// with `h_max`); a budget below this asks for slicing, and a search that
/// does not fit would spend it and start again sliced.
const AT_ONCE_MIN: u64 = 16;

/// How a search tried at once ended.
enum AtOnce<Id> {
    Planned(Box<PlanReport<Id>>),
    /// Too large for the tiny engine or the budget: slice it, with what
    /// is left of the budget.
    Slice(Budget),
}

/// How the planning step of a tick ended.
enum Planned<S, Id> {
    Plan(CurrentPlan<S, Id>),
    Searching,
    Idle,
    Stuck,
}

type Observer = Box<dyn for<'e> FnMut(&AgentEvent<'e>) + Send + Sync>;
type Sensor<S, C> = Box<dyn FnMut(&C, &mut S) + Send + Sync>;

/// A GOAP agent; see the [module docs](self).
///
/// ```
/// use std::sync::Arc;
/// use planners::agent::{Agent, ExecStatus, TickStatus};
/// use state_atomic::{ActionSet, WorldState};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.declare_shared("night").unwrap();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let actions = Arc::new(actions);
///
/// let own = actions.state(["has_groceries"]).unwrap();
/// let mut agent = Agent::new(Arc::clone(&actions), own);
/// agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
/// let mut cooking = 0;
/// agent.bind("cook", move |_: &WorldState| {
///     cooking += 1;
///     if cooking < 3 { ExecStatus::Running } else { ExecStatus::Success }
/// }).unwrap();
///
/// let mut world = actions.state(["night"]).unwrap();
/// let mut ticks = 0;
/// while agent.tick(&mut world).unwrap() == TickStatus::Acting {
///     ticks += 1;
/// }
/// assert_eq!(ticks, 4); // cook runs 3 ticks, eat succeeds at once
/// assert!(agent.view(&world).satisfies(&actions.partial([("fed", true)]).unwrap()));
/// ```
pub struct Agent<D: AgentDomain, C = ()> {
    domain: Arc<D>,
    own: D::State,
    goals: Vec<GoalEntry<D>>,
    executors: HashMap<D::ActionId, Box<dyn Executor<D::State, C>>>,
    sensors: Vec<Sensor<D::State, C>>,
    planner: Planner<'static, D>,
    /// The buffers of the plans made at once, without a sliced search.
    buffer: PlanBuffer<D>,
    current: Option<CurrentPlan<D::State, D::ActionId>>,
    search: Option<Search<D>>,
    /// The last sliced search that ended: a new one for its goal goes on
    /// from it ([`PlanJob::replan`]), keeping the heuristic it made.
    finished: Option<Search<D>>,
    carried: Option<Carried<D::ActionId>>,
    /// Goals that found no plan from this view: not tried again until the
    /// view changes.
    given_up: Option<(D::State, Vec<usize>)>,
    observers: Vec<Observer>,
    policy: ReplanPolicy,
    budget: PlanningBudget,
    /// Expansions and time of the sliced searches over the agent's life.
    spent: (u64, Duration),
    /// What had been spent when the tick in progress began.
    spent_before_tick: (u64, Duration),
    /// Whether searches record their traces, and the last plan made.
    record_traces: bool,
    last_plan: Option<PlanRecord>,
}

impl<D: AgentDomain, C> Agent<D, C> {
    /// An agent acting in `domain` with private state `own`, planning with
    /// forward A* and no heuristic until [`set_planner`](Agent::set_planner).
    pub fn new(domain: Arc<D>, own: D::State) -> Self {
        Self {
            domain,
            own,
            goals: Vec::new(),
            executors: HashMap::new(),
            sensors: Vec::new(),
            planner: Planner::new(PlannerConfig::default()),
            buffer: PlanBuffer::new(),
            current: None,
            search: None,
            finished: None,
            carried: None,
            given_up: None,
            observers: Vec::new(),
            policy: ReplanPolicy::default(),
            budget: PlanningBudget::default(),
            spent: (0, Duration::ZERO),
            spent_before_tick: (0, Duration::ZERO),
            record_traces: false,
            last_plan: None,
        }
    }

    /// Replans as `policy` says, beyond the reasons an agent always has.
    pub fn set_replan_policy(&mut self, policy: ReplanPolicy) -> &mut Self {
        self.policy = policy;
        self
    }

    /// Plans within `budget` per tick and per goal from now on.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, PlanningBudget, TickStatus};
    /// use planners::Budget;
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// for i in 0..6 {
    ///     actions.add_action(&format!("step{i}"), 1).pre(&format!("s{i}"), true).eff(&format!("s{}", i + 1), true);
    /// }
    /// let actions = Arc::new(actions);
    /// let mut agent = Agent::new(Arc::clone(&actions), actions.state(["s0"]).unwrap());
    /// agent.add_goal("walk", actions.partial([("s6", true)]).unwrap(), 1);
    /// agent.set_planning_budget(PlanningBudget {
    ///     per_tick: Some(Budget::Expansions(2)),
    ///     watchdog: None,
    /// });
    /// let mut world = actions.state([]).unwrap();
    /// let mut planning = 0;
    /// while agent.tick(&mut world).unwrap() == TickStatus::Planning {
    ///     planning += 1;
    /// }
    /// // Seven expansions, two per tick: the fourth tick finds the plan
    /// // and takes its first step.
    /// assert_eq!(planning, 3);
    /// assert_eq!(agent.remaining_plan().len(), 5);
    /// ```
    pub fn set_planning_budget(&mut self, budget: PlanningBudget) -> &mut Self {
        self.budget = budget;
        self
    }

    /// The planning budget set by
    /// [`set_planning_budget`](Agent::set_planning_budget).
    pub fn planning_budget(&self) -> PlanningBudget {
        self.budget
    }

    /// Expansions and time spent planning over the agent's life, within
    /// the [`PlanningBudget`] (the searches of
    /// [`ReplanPolicy::cheaper_by`] are not counted). The difference across
    /// a tick is what that tick planned.
    pub fn planning_spent(&self) -> (u64, Duration) {
        self.spent
    }

    /// Plans with `config` from now on.
    pub fn set_planner(&mut self, config: PlannerConfig) -> &mut Self {
        self.planner = Planner::new(config);
        self.current = None;
        self.search = None;
        self.finished = None;
        self.carried = None;
        self.given_up = None;
        self
    }

    /// Adds a goal that is always relevant, with a fixed priority (higher
    /// wins) and repeating: `add(AgentGoal::new(name, goal).priority(priority))`.
    pub fn add_goal(&mut self, name: &str, goal: D::Goal, priority: i32) -> &mut Self {
        self.add(AgentGoal::new(name, goal).priority(priority))
    }

    /// Adds a goal that is pursued only while `relevant` holds in the view:
    /// `add(AgentGoal::new(name, goal).priority(priority).when(relevant))`.
    pub fn add_goal_when(
        &mut self,
        name: &str,
        goal: D::Goal,
        priority: i32,
        relevant: impl Fn(&D::State) -> bool + Send + Sync + 'static,
    ) -> &mut Self {
        self.add(AgentGoal::new(name, goal).priority(priority).when(relevant))
    }

    /// Adds `goal`, after the goals added before it (which win ties); see
    /// [`AgentGoal`] for its priority (fixed or a closure of the view), its
    /// relevance, and whether it repeats.
    pub fn add(&mut self, goal: AgentGoal<D::State, D::Goal>) -> &mut Self {
        self.goals.push(goal);
        self
    }

    /// The names of the agent's goals, in the order they were added (a
    /// one-shot goal leaves once reached).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::Agent;
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let mut agent: Agent<ActionSet> = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    /// assert_eq!(agent.goal_names(), ["eat"]);
    /// ```
    pub fn goal_names(&self) -> Vec<&str> {
        self.goals.iter().map(|g| g.name.as_str()).collect()
    }

    /// Each goal's name and its priority in the agent's view of `world`, in
    /// the order the goals were added: what the next tick compares (before
    /// its sensors run), for a debug view.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, AgentGoal};
    /// use state_atomic::{ActionSet, WorldState};
    /// let mut actions = ActionSet::<u64>::new();
    /// let night = actions.declare_shared("night").unwrap();
    /// actions.add_action("sleep", 1).eff("rested", true);
    /// let actions = Arc::new(actions);
    /// let mut agent: Agent<ActionSet> = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// agent.add(
    ///     AgentGoal::new("sleep", actions.partial([("rested", true)]).unwrap())
    ///         .priority_fn(move |view: &WorldState| if view.get(night) { 8 } else { 2 }),
    /// );
    /// assert_eq!(agent.priorities(&actions.state(["night"]).unwrap()), [("sleep", 8)]);
    /// ```
    pub fn priorities(&self, world: &D::State) -> Vec<(&str, i32)> {
        let view = self.view(world);
        self.goals
            .iter()
            .map(|g| (g.name.as_str(), (g.priority)(&view)))
            .collect()
    }

    /// Binds this agent's executor for the action named `action`: a
    /// closure that sees the agent's view.
    ///
    /// # Errors
    /// [`PlanError::UnknownName`] if the domain has no such action.
    pub fn bind(
        &mut self,
        action: &str,
        mut executor: impl FnMut(&D::State) -> ExecStatus + Send + Sync + 'static,
    ) -> Result<&mut Self, PlanError> {
        self.bind_executor(action, move |view: &D::State, _: &mut C| executor(view))
    }

    /// Binds this agent's executor for the action named `action`: an
    /// [`Executor`], or a closure that sees the view and the context lent
    /// to [`tick_with`](Agent::tick_with).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, ExecStatus};
    /// use state_atomic::{ActionSet, WorldState};
    ///
    /// /// The game's side of things.
    /// struct Game { arrows_shot: u32 }
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("shoot", 1).eff("enemy_down", true);
    /// let actions = Arc::new(actions);
    /// let mut archer: Agent<ActionSet, Game> = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// archer.add_goal("win", actions.partial([("enemy_down", true)]).unwrap(), 1);
    /// archer.bind_executor("shoot", |_: &WorldState, game: &mut Game| {
    ///     game.arrows_shot += 1;
    ///     ExecStatus::Success
    /// }).unwrap();
    ///
    /// let mut game = Game { arrows_shot: 0 };
    /// let mut world = actions.state([]).unwrap();
    /// archer.tick_with(&mut world, &mut game).unwrap();
    /// assert_eq!(game.arrows_shot, 1);
    /// ```
    ///
    /// # Errors
    /// [`PlanError::UnknownName`] if the domain has no such action.
    pub fn bind_executor(
        &mut self,
        action: &str,
        executor: impl Executor<D::State, C> + 'static,
    ) -> Result<&mut Self, PlanError> {
        let id = self
            .domain
            .find_action(action)
            .ok_or_else(|| PlanError::UnknownName {
                kind: "action",
                name: action.to_owned(),
                known: "the domain's actions".to_owned(),
            })?;
        self.executors.insert(id, Box::new(executor));
        Ok(self)
    }

    /// Adds a sensor: at the start of every tick, before the agent looks at
    /// the world, it reads the context and writes the agent's beliefs (its
    /// private state). Sensors run in the order they were added.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::{Agent, TickStatus};
    /// use state_atomic::ActionSet;
    ///
    /// struct Game { enemy_distance: f32 }
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("flee", 1).pre("enemy_near", true).eff("safe", true);
    /// let actions = Arc::new(actions);
    /// let near = actions.registry().atom("enemy_near").unwrap();
    /// let mut deer: Agent<ActionSet, Game> = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    /// deer.add_goal("be safe", actions.partial([("safe", true)]).unwrap(), 1);
    /// deer.add_sensor(move |game: &Game, beliefs| {
    ///     *beliefs = beliefs.with(near, game.enemy_distance < 10.0);
    /// });
    ///
    /// let mut world = actions.state([]).unwrap();
    /// let mut far = Game { enemy_distance: 50.0 };
    /// assert_eq!(deer.tick_with(&mut world, &mut far).unwrap(), TickStatus::Stuck);
    /// let mut close = Game { enemy_distance: 3.0 };
    /// assert_eq!(deer.tick_with(&mut world, &mut close).unwrap(), TickStatus::Acting);
    /// ```
    pub fn add_sensor(
        &mut self,
        sensor: impl FnMut(&C, &mut D::State) + Send + Sync + 'static,
    ) -> &mut Self {
        self.sensors.push(Box::new(sensor));
        self
    }

    /// Calls `observer` with every event from now on, after the observers
    /// given before it (a debug log and a game's UI can both listen).
    pub fn observe(
        &mut self,
        observer: impl for<'e> FnMut(&AgentEvent<'e>) + Send + Sync + 'static,
    ) -> &mut Self {
        self.observers.push(Box::new(observer));
        self
    }

    /// The agent's private state.
    pub fn own_state(&self) -> &D::State {
        &self.own
    }

    /// Replaces the agent's private state (the plan is kept; the next tick
    /// checks it).
    pub fn set_own_state(&mut self, own: D::State) {
        self.own = own;
    }

    /// The agent's view of `world`.
    pub fn view(&self, world: &D::State) -> D::State {
        self.domain.view(world, &self.own)
    }

    /// The name of the goal being pursued (or planned for), if any.
    pub fn current_goal(&self) -> Option<&str> {
        let goal = match (&self.current, &self.search) {
            (Some(current), _) => current.goal,
            (None, Some(search)) => search.goal,
            (None, None) => return None,
        };
        Some(self.goals[goal].name.as_str())
    }

    /// Has the agent's searches record their exploration (off by default;
    /// it costs memory and time), so that [`last_plan`](Agent::last_plan)
    /// carries a [`PlanTrace`] to read as text or Graphviz DOT.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use planners::agent::Agent;
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let mut agent = Agent::new(Arc::clone(&actions), actions.state(["has_groceries"]).unwrap());
    /// agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    /// agent.record_traces(true);
    ///
    /// let mut world = actions.state([]).unwrap();
    /// agent.tick(&mut world).unwrap();
    /// let last = agent.last_plan().unwrap();
    /// assert_eq!(last.to_string().lines().next(), Some("eat: cook, eat (cost 15, forward)"));
    /// let dot = last.trace.as_ref().unwrap().to_dot();
    /// assert!(dot.starts_with("digraph"));
    /// ```
    pub fn record_traces(&mut self, record: bool) -> &mut Self {
        self.record_traces = record;
        self.finished = None; // its job records as it was told
        self
    }

    /// The last plan the agent made (kept after it is done or dropped), for
    /// a debug view; with its search's trace if
    /// [`record_traces`](Agent::record_traces) was on.
    pub fn last_plan(&self) -> Option<&PlanRecord> {
        self.last_plan.as_ref()
    }

    /// The remaining actions of the current plan, by name; while a new
    /// plan is searched, the action of the dropped one that runs on.
    pub fn remaining_plan(&self) -> Vec<&str> {
        match (&self.current, &self.carried) {
            (Some(c), _) => c.actions[c.step..]
                .iter()
                .map(|&id| self.domain.action_name(id))
                .collect(),
            (None, Some(carried)) => vec![self.domain.action_name(carried.action)],
            (None, None) => Vec::new(),
        }
    }

    /// One step of the agent's life with the context `context`, which its
    /// sensors read and its executors use; see the [module docs](self).
    /// Effects on shared state are written into `world`.
    ///
    /// It is [`plan_phase`](Agent::plan_phase) then, unless that ended
    /// the tick, [`act_phase`](Agent::act_phase).
    ///
    /// # Errors
    /// [`PlanError`] when planning meets bad input (not when no plan exists).
    pub fn tick_with(
        &mut self,
        world: &mut D::State,
        context: &mut C,
    ) -> Result<TickStatus, PlanError> {
        match self.plan_phase(world, context)? {
            Some(status) => Ok(status),
            None => self.act_phase(world, context),
        }
    }

    /// The first part of a tick, which reads the world and the context but
    /// changes neither: the sensors run, the current plan is checked and
    /// dropped if it must be, and a plan is searched where there is none
    /// (steps 1 to 5 of the [module docs](self)). Many agents can take this
    /// phase at once, on several threads, from the same world; each then
    /// takes [`act_phase`](Agent::act_phase) in turn.
    ///
    /// Returns the tick's status when the tick ends here (planning goes
    /// on, nothing to do, or stuck), `None` when the agent has an action to
    /// run.
    ///
    /// # Errors
    /// [`PlanError`] when planning meets bad input (not when no plan exists).
    pub fn plan_phase(
        &mut self,
        world: &D::State,
        context: &C,
    ) -> Result<Option<TickStatus>, PlanError> {
        for sense in &mut self.sensors {
            sense(context, &mut self.own);
        }
        let view = self.domain.view(world, &self.own);
        self.spent_before_tick = self.spent;
        if let Some(reason) = self.plan_is_stale(&view) {
            self.drop_plan(reason, &view);
        }
        if let Some(reason) = self.policy_replan(&view)? {
            self.drop_plan(reason, &view);
        }
        if let Some(carried) = &self.carried {
            if !self.domain.is_applicable(&view, carried.action) {
                self.carried = None;
            }
        }
        if let Some(current) = self.current.as_mut() {
            current.ticks = current.ticks.saturating_add(1);
        }
        if self.current.is_none() {
            match self.plan(&view, self.left_of_tick(self.spent_before_tick))? {
                Planned::Plan(current) => self.follow(current),
                // The action of the dropped plan runs on meanwhile.
                Planned::Searching if self.carried.is_some() => {}
                Planned::Searching => return Ok(Some(TickStatus::Planning)),
                Planned::Idle => {
                    self.carried = None;
                    return Ok(Some(TickStatus::Idle));
                }
                Planned::Stuck => {
                    self.carried = None;
                    return Ok(Some(TickStatus::Stuck));
                }
            }
        }
        Ok(None)
    }

    /// The second part of a tick, after [`plan_phase`](Agent::plan_phase)
    /// returned `None`: the current action's executor runs once, in the
    /// world as it is now (another agent may have changed it since this
    /// one planned: an action whose precondition broke is refused and its
    /// plan dropped), and when a plan ends the next one's search starts,
    /// within what is left of the tick's budget (step 6).
    ///
    /// # Errors
    /// [`PlanError`] when planning meets bad input (not when no plan exists).
    pub fn act_phase(
        &mut self,
        world: &mut D::State,
        context: &mut C,
    ) -> Result<TickStatus, PlanError> {
        let view = self.domain.view(world, &self.own);
        if self.act(&view, world, context) && self.current.is_none() {
            // Done with a plan: the next one's search starts now, not next tick.
            let left = self.left_of_tick(self.spent_before_tick);
            if !left.is_spent(0, Duration::ZERO) {
                let view = self.domain.view(world, &self.own);
                if let Planned::Plan(next) = self.plan(&view, left)? {
                    self.follow(next);
                }
            }
        }
        Ok(TickStatus::Acting)
    }

    /// What is left of this tick's planning budget, given what had been
    /// spent when it began.
    fn left_of_tick(&self, before: (u64, Duration)) -> Budget {
        let expanded = self.spent.0 - before.0;
        let elapsed = self.spent.1.saturating_sub(before.1);
        match self.budget.per_tick {
            None => Budget::Expansions(u64::MAX),
            Some(Budget::Expansions(n)) => Budget::Expansions(n.saturating_sub(expanded)),
            Some(Budget::Time(t)) => Budget::Time(t.saturating_sub(elapsed)),
        }
    }

    /// Follows `plan`, going on with the carried action if `plan` starts
    /// with it (a new plan that starts otherwise interrupts it).
    fn follow(&mut self, mut plan: CurrentPlan<D::State, D::ActionId>) {
        if let Some(carried) = self.carried.take() {
            plan.started = plan.actions.first() == Some(&carried.action);
        }
        self.current = Some(plan);
    }

    /// Drops the current plan, saying why. Its action that was running runs
    /// on while the next plan is searched, unless `reason` says it cannot.
    fn drop_plan(&mut self, reason: ReplanReason, view: &D::State) {
        let Some(current) = self.current.take() else {
            return;
        };
        let goal = &self.goals[current.goal].name;
        emit(
            &mut self.observers,
            &AgentEvent::Replanning { goal, reason },
        );
        let broken = matches!(
            reason,
            ReplanReason::ActionFailed | ReplanReason::PreconditionInvalidated
        );
        let running = current
            .actions
            .get(current.step)
            .filter(|&&action| current.started && self.domain.is_applicable(view, action));
        if let (false, Some(&action)) = (broken, running) {
            self.carried = Some(Carried {
                goal: current.goal,
                action,
                last: current.step + 1 == current.actions.len(),
            });
        }
    }

    /// Why the current plan must go, if it must.
    fn plan_is_stale(&self, view: &D::State) -> Option<ReplanReason> {
        let current = self.current.as_ref()?;
        // A goal found to have no plan from this very view does not count.
        let best = self.candidates(view).find(|&g| !self.given_up_in(view, g));
        let priority = |g: usize| (self.goals[g].priority)(view);
        if best.is_some_and(|g| priority(g) > priority(current.goal)) {
            return Some(ReplanReason::HigherPriorityGoal);
        }
        let next = *current.actions.get(current.step)?;
        (!self.domain.is_applicable(view, next)).then_some(ReplanReason::PreconditionInvalidated)
    }

    /// Why the replan policy drops the current plan before its next action,
    /// if it does.
    fn policy_replan(&mut self, view: &D::State) -> Result<Option<ReplanReason>, PlanError> {
        let Some(current) = self.current.as_ref().filter(|c| !c.started) else {
            return Ok(None);
        };
        let goal = &self.goals[current.goal].goal;
        if self.policy.on_change && self.domain.relevant_change(&current.expected, view, goal) {
            return Ok(Some(ReplanReason::WorldChanged));
        }
        if self.policy.every_ticks.is_some_and(|n| current.ticks >= n) {
            return Ok(Some(ReplanReason::Periodic));
        }
        let Some(margin) = self.policy.cheaper_by else {
            return Ok(None);
        };
        let rest = &current.actions[current.step..];
        let Ok(left) = self.domain.validate(view, goal, rest) else {
            return Ok(None); // a broken plan is the other checks' business
        };
        let report = self
            .planner
            .plan_into(&self.domain, view, goal, &mut self.buffer)?;
        let cheaper = report
            .plan()
            .is_some_and(|plan| plan.cost.saturating_add(margin) < left);
        Ok(cheaper.then_some(ReplanReason::CheaperPlan))
    }

    /// Relevant, unsatisfied goals, most important in `view` first (ties
    /// in the order added).
    fn candidates(&self, view: &D::State) -> impl Iterator<Item = usize> {
        let mut order: Vec<(i32, usize)> = (0..self.goals.len())
            .filter(|&g| {
                let goal = &self.goals[g];
                goal.relevant.as_ref().is_none_or(|r| r(view))
                    && !self.domain.is_satisfied(view, &goal.goal)
            })
            .map(|g| ((self.goals[g].priority)(view), g))
            .collect();
        order.sort_by_key(|&(priority, _)| std::cmp::Reverse(priority));
        order.into_iter().map(|(_, g)| g)
    }

    /// Whether `goal` was found to have no plan from `view` itself.
    fn given_up_in(&self, view: &D::State, goal: usize) -> bool {
        self.given_up
            .as_ref()
            .is_some_and(|(seen, goals)| seen == view && goals.contains(&goal))
    }

    /// Plans for the most important goal that has a plan, within `budget`;
    /// goes on with the search of an earlier tick if its goal is still the
    /// one to pursue.
    fn plan(
        &mut self,
        view: &D::State,
        budget: Budget,
    ) -> Result<Planned<D::State, D::ActionId>, PlanError> {
        if self.given_up.as_ref().is_some_and(|(seen, _)| seen != view) {
            self.given_up = None;
        }
        let Some(goal) = self.candidates(view).find(|&g| !self.given_up_in(view, g)) else {
            self.search = None;
            return Ok(if self.candidates(view).next().is_none() {
                Planned::Idle
            } else {
                Planned::Stuck
            });
        };
        if self.search.as_ref().is_some_and(|s| s.goal != goal) {
            self.search = None; // another goal matters more now
        }
        let mut budget = budget;
        if self.search.is_none() && !self.record_traces {
            match self.plan_at_once(goal, view, budget) {
                AtOnce::Planned(report) => {
                    let report = *report;
                    let left = budget_left(budget, report.stats().expanded, report.elapsed);
                    return self.settle(goal, report, true, None, view, left);
                }
                AtOnce::Slice(left) => budget = left,
            }
        }
        let search = self
            .search
            .take()
            .unwrap_or_else(|| match self.finished.take() {
                Some(mut done) if done.goal == goal => {
                    done.job.replan(view.clone());
                    done
                }
                _ => Search {
                    goal,
                    job: PlanJob::new(
                        Arc::clone(&self.domain),
                        view.clone(),
                        self.goals[goal].goal.clone(),
                    )
                    .record_trace(self.record_traces),
                },
            });
        self.search_for(search, view, budget)
    }

    /// Plans for `goal` at once, into the agent's kept buffer, where the
    /// planner runs the search in its tiny engine, `budget` leaves room
    /// for [`AT_ONCE_MIN`] expansions and the search ends within it (no
    /// allocation but the plan the agent keeps). Otherwise the goal is
    /// left to a search sliced over ticks, with what is left of `budget`
    /// (an attempt that ran out spent it).
    fn plan_at_once(
        &mut self,
        goal: usize,
        view: &D::State,
        budget: Budget,
    ) -> AtOnce<D::ActionId> {
        let cap = budget.expansions_at_once();
        if cap < AT_ONCE_MIN {
            return AtOnce::Slice(budget);
        }
        let began = Instant::now();
        let limits = &self.planner.config().limits;
        let capped = SearchLimits {
            max_expansions: Some(limits.max_expansions.map_or(cap, |m| m.min(cap))),
            ..limits.clone()
        };
        let goal = &self.goals[goal].goal;
        let run = self
            .planner
            .tiny_into(&self.domain, view, goal, &mut self.buffer, &capped);
        let report = self.buffer.report();
        let expanded = match run {
            TinyRun::Settled => report.stats().expanded,
            // It stopped within the cap and past the tiny engine's size.
            TinyRun::TooLarge => cap.min(TINY_MAX_NODES as u64),
            TinyRun::NotRun => 0,
        };
        let elapsed = began.elapsed();
        self.spent.0 = self.spent.0.saturating_add(expanded);
        self.spent.1 += elapsed;
        // Stopped by the cap, not by the planner's own limit: too large.
        let capped_only = report.outcome.limit() == Some(Limit::Expansions)
            && limits.max_expansions.is_none_or(|m| m > cap);
        if run != TinyRun::Settled || capped_only {
            return AtOnce::Slice(budget_left(budget, expanded, elapsed));
        }
        let mut report = Box::new(report.clone());
        report.elapsed = elapsed;
        AtOnce::Planned(report)
    }

    /// Advances `search` by `budget` and acts on how it ended.
    fn search_for(
        &mut self,
        mut search: Search<D>,
        view: &D::State,
        budget: Budget,
    ) -> Result<Planned<D::State, D::ActionId>, PlanError> {
        let began = Instant::now();
        let expanded_before = search.job.spent().0;
        let advanced = search.job.advance(&self.planner, budget);
        self.spent.0 += search.job.spent().0 - expanded_before;
        self.spent.1 += began.elapsed();
        let advanced = advanced?;
        // What is left of the tick's budget for the next goal, if any.
        let expanded = search.job.spent().0 - expanded_before;
        let left = budget_left(budget, expanded, began.elapsed());
        let Some(report) = advanced else {
            let (expanded, elapsed) = search.job.spent();
            if self
                .budget
                .watchdog
                .is_some_and(|w| w.is_spent(expanded, elapsed))
            {
                let event = AgentEvent::PlanningAbandoned {
                    goal: &self.goals[search.goal].name,
                    expanded,
                    elapsed,
                };
                emit(&mut self.observers, &event);
                self.give_up(search.goal, view);
                return self.next_goal(view, left);
            }
            self.search = Some(search);
            return Ok(Planned::Searching);
        };
        let from_view = search.job.start() == view;
        let trace = search.job.trace().cloned();
        let goal = search.goal;
        self.finished = Some(search);
        self.settle(goal, report, from_view, trace, view, left)
    }

    /// Acts on a finished search for `goal`: follows its plan if it still
    /// works from `view` (`from_view`: it was planned from `view`), or
    /// goes on to the next goal with what is `left` of the tick's budget.
    fn settle(
        &mut self,
        goal: usize,
        report: PlanReport<D::ActionId>,
        from_view: bool,
        trace: Option<PlanTrace>,
        view: &D::State,
        left: Budget,
    ) -> Result<Planned<D::State, D::ActionId>, PlanError> {
        let entry = &self.goals[goal];
        match report.outcome {
            // Planned from an earlier view: it must still work from this one.
            PlanOutcome::Solved(plan)
                if from_view
                    || self
                        .domain
                        .validate(view, &entry.goal, &plan.actions)
                        .is_ok() =>
            {
                let actions = plan.names(&*self.domain);
                self.last_plan = Some(PlanRecord {
                    goal: entry.name.clone(),
                    actions: actions.iter().map(|&a| a.to_owned()).collect(),
                    cost: plan.cost,
                    direction: report.direction,
                    trace,
                });
                let event = AgentEvent::PlanFound {
                    goal: &entry.name,
                    actions,
                    cost: plan.cost,
                };
                emit(&mut self.observers, &event);
                Ok(Planned::Plan(CurrentPlan {
                    goal,
                    actions: plan.actions,
                    step: 0,
                    started: false,
                    ticks: 0,
                    expected: view.clone(),
                }))
            }
            PlanOutcome::Solved(_) => {
                // The world moved on while it planned: plan again from here.
                self.next_goal(view, left)
            }
            outcome => {
                let event = AgentEvent::NoPlan {
                    goal: &entry.name,
                    outcome: outcome.name(),
                };
                emit(&mut self.observers, &event);
                self.give_up(goal, view);
                self.next_goal(view, left)
            }
        }
    }

    /// After a goal's search ended without a plan to follow: the next goal,
    /// in the same tick if its budget is not spent.
    fn next_goal(
        &mut self,
        view: &D::State,
        left: Budget,
    ) -> Result<Planned<D::State, D::ActionId>, PlanError> {
        if left.is_spent(0, Duration::ZERO) {
            return Ok(Planned::Searching);
        }
        self.plan(view, left)
    }

    /// Stops trying `goal` until the view changes from `view`.
    fn give_up(&mut self, goal: usize, view: &D::State) {
        match &mut self.given_up {
            Some((_, goals)) => goals.push(goal),
            None => self.given_up = Some((view.clone(), vec![goal])),
        }
    }

    /// Runs the current action's executor once, or the carried action's
    /// while there is no plan; returns whether an action succeeded (or an
    /// empty plan ended), which may leave the agent without a plan.
    fn act(&mut self, view: &D::State, world: &mut D::State, context: &mut C) -> bool {
        let Some(current) = self.current.as_mut() else {
            return self.act_carried(view, world, context);
        };
        let Some(&action) = current.actions.get(current.step) else {
            // An empty plan: the goal already holds.
            self.current = None;
            return true;
        };
        if !current.started {
            current.started = true;
            let action = self.domain.action_name(action);
            emit(&mut self.observers, &AgentEvent::ActionStarted { action });
        }
        let reason = match self.run(action, view, world, context) {
            Ran::Running => return false,
            Ran::Failed => ReplanReason::ActionFailed,
            // Checked at the top of this tick, so only a domain whose
            // `apply` refuses more than `is_applicable` gets here.
            Ran::Refused => ReplanReason::PreconditionInvalidated,
            Ran::Finished(after) => {
                let Some(current) = self.current.as_mut() else {
                    return true;
                };
                current.step += 1;
                current.started = false;
                current.expected = after;
                if current.step == current.actions.len() {
                    let goal = current.goal;
                    self.current = None;
                    self.reached(goal);
                }
                return true;
            }
        };
        if let Some(current) = self.current.take() {
            let goal = &self.goals[current.goal].name;
            emit(
                &mut self.observers,
                &AgentEvent::Replanning { goal, reason },
            );
        }
        false
    }

    /// Runs the carried action's executor once; returns whether it
    /// succeeded. Its plan was dropped, so a failure only ends it.
    fn act_carried(&mut self, view: &D::State, world: &mut D::State, context: &mut C) -> bool {
        let Some(action) = self.carried.as_ref().map(|c| c.action) else {
            return false;
        };
        match self.run(action, view, world, context) {
            Ran::Running => false,
            Ran::Failed | Ran::Refused => {
                self.carried = None;
                false
            }
            Ran::Finished(_) => {
                if let Some(carried) = self.carried.take().filter(|c| c.last) {
                    self.reached(carried.goal);
                }
                true
            }
        }
    }

    /// Runs `action`'s executor once; on success applies its effects (shared
    /// parts to `world`, the rest to the agent). Reports what it did.
    fn run(
        &mut self,
        action: D::ActionId,
        view: &D::State,
        world: &mut D::State,
        context: &mut C,
    ) -> Ran<D::State> {
        let name = self.domain.action_name(action);
        let status = self
            .executors
            .get_mut(&action)
            .map_or(ExecStatus::Success, |e| e.execute(view, context));
        match status {
            ExecStatus::Running => Ran::Running,
            ExecStatus::Failure => {
                emit(
                    &mut self.observers,
                    &AgentEvent::ActionFailed { action: name },
                );
                Ran::Failed
            }
            ExecStatus::Success => {
                let Some(after) = self.domain.apply(view, action) else {
                    return Ran::Refused;
                };
                self.domain.write_back(&after, world, &mut self.own);
                emit(
                    &mut self.observers,
                    &AgentEvent::ActionFinished { action: name },
                );
                Ran::Finished(after)
            }
        }
    }

    /// Reports `goal` reached, and removes it if it was a one-shot goal.
    fn reached(&mut self, goal: usize) {
        let entry = &self.goals[goal];
        emit(
            &mut self.observers,
            &AgentEvent::GoalReached { goal: &entry.name },
        );
        if !entry.once {
            return;
        }
        self.goals.remove(goal);
        let after = |g: usize| if g > goal { g - 1 } else { g };
        if let Some(current) = &mut self.current {
            current.goal = after(current.goal);
        }
        if let Some(carried) = &mut self.carried {
            carried.goal = after(carried.goal);
        }
        for search in [&mut self.search, &mut self.finished] {
            match search {
                Some(s) if s.goal == goal => *search = None,
                Some(s) => s.goal = after(s.goal),
                None => {}
            }
        }
        if let Some((_, given_up)) = &mut self.given_up {
            given_up.retain(|&g| g != goal);
            for g in given_up {
                *g = after(*g);
            }
        }
    }
}

impl<D: AgentDomain> Agent<D> {
    /// One step of the agent's life (for agents whose executors and sensors
    /// need no context); see the [module docs](self). Effects on shared
    /// state are written into `world`.
    ///
    /// # Errors
    /// [`PlanError`] when planning meets bad input (not when no plan exists).
    pub fn tick(&mut self, world: &mut D::State) -> Result<TickStatus, PlanError> {
        self.tick_with(world, &mut ())
    }
}

/// What is left of `budget` after `expanded` expansions in `elapsed`.
fn budget_left(budget: Budget, expanded: u64, elapsed: Duration) -> Budget {
    match budget {
        Budget::Expansions(n) => Budget::Expansions(n.saturating_sub(expanded)),
        Budget::Time(max) => Budget::Time(max.saturating_sub(elapsed)),
    }
}

fn emit(observers: &mut [Observer], event: &AgentEvent<'_>) {
    for observe in observers {
        observe(event);
    }
}
