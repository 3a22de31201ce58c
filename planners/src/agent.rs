//! The GOAP agent runtime: goals with priorities, plans that are followed
//! action by action over game ticks, and replanning when the world moves.
//!
//! An [`Agent`] holds its private state, its goals and an executor per action
//! name, and shares one domain (action set) with every other agent. Each
//! [`tick`](Agent::tick):
//!
//! 1. merges the world's shared state with the agent's private state (its
//!    *view*);
//! 2. selects the most important goal that is relevant and not yet satisfied
//!    (higher priority first; ties go to the goal added first);
//! 3. drops the current plan if a more important goal became relevant, or if
//!    the next action's precondition no longer holds (reported as
//!    [`AgentEvent::Replanning`]);
//! 4. plans when there is no plan; a goal with no plan is reported
//!    ([`AgentEvent::NoPlan`]) and the next goal is tried;
//! 5. runs the current action's executor once: `Running` waits for the next
//!    tick, `Success` applies the action's effects (shared parts to the world,
//!    the rest to the agent) and moves on, `Failure` drops the plan so the
//!    next tick replans.
//!
//! An action with no executor bound succeeds at once (a bookkeeping action).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::{PlanError, PlanOutcome, Planner, PlannerConfig, PlanningDomain};

/// A [`PlanningDomain`] that agents can act in: it can merge the world's
/// shared state with an agent's own, apply actions and test goals.
pub trait AgentDomain: PlanningDomain {
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

/// Runs one action for an agent, one tick at a time. Closures
/// `FnMut(&State) -> ExecStatus` are executors.
pub trait Executor<S>: Send {
    /// Advances the action; `view` is the agent's current view of the world.
    fn execute(&mut self, view: &S) -> ExecStatus;
}

impl<S, F: FnMut(&S) -> ExecStatus + Send> Executor<S> for F {
    fn execute(&mut self, view: &S) -> ExecStatus {
        self(view)
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
        })
    }
}

/// Something that happened during a tick, for debugging and visualisation.
#[derive(Clone, Debug, PartialEq, Eq)]
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
        /// `unsolvable`, `limit` or `cancelled`.
        outcome: &'static str,
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

/// What an agent did in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TickStatus {
    /// An action is running or just finished; more to do.
    Acting,
    /// Every relevant goal is satisfied.
    Idle,
    /// Relevant goals exist but none has a plan.
    Stuck,
}

type Relevance<S> = Box<dyn Fn(&S) -> bool + Send + Sync>;

struct GoalEntry<D: PlanningDomain> {
    name: String,
    goal: D::Goal,
    priority: i32,
    relevant: Option<Relevance<D::State>>,
}

struct CurrentPlan<Id> {
    goal: usize,
    actions: Vec<Id>,
    step: usize,
    started: bool,
    /// Ticks spent following this plan.
    ticks: u32,
}

type Observer = Box<dyn for<'e> FnMut(&AgentEvent<'e>) + Send>;

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
pub struct Agent<D: AgentDomain> {
    domain: Arc<D>,
    own: D::State,
    goals: Vec<GoalEntry<D>>,
    executors: HashMap<D::ActionId, Box<dyn Executor<D::State>>>,
    planner: Planner<'static, D>,
    current: Option<CurrentPlan<D::ActionId>>,
    observers: Vec<Observer>,
    policy: ReplanPolicy,
}

impl<D: AgentDomain> Agent<D> {
    /// An agent acting in `domain` with private state `own`, planning with
    /// forward A* and no heuristic until [`set_planner`](Agent::set_planner).
    pub fn new(domain: Arc<D>, own: D::State) -> Self {
        Self {
            domain,
            own,
            goals: Vec::new(),
            executors: HashMap::new(),
            planner: Planner::new(PlannerConfig::default()),
            current: None,
            observers: Vec::new(),
            policy: ReplanPolicy::default(),
        }
    }

    /// Replans as `policy` says, beyond the reasons an agent always has.
    pub fn set_replan_policy(&mut self, policy: ReplanPolicy) -> &mut Self {
        self.policy = policy;
        self
    }

    /// Plans with `config` from now on.
    pub fn set_planner(&mut self, config: PlannerConfig) -> &mut Self {
        self.planner = Planner::new(config);
        self.current = None;
        self
    }

    /// Adds a goal that is always relevant. Higher `priority` wins.
    pub fn add_goal(&mut self, name: &str, goal: D::Goal, priority: i32) -> &mut Self {
        self.goals.push(GoalEntry {
            name: name.to_owned(),
            goal,
            priority,
            relevant: None,
        });
        self
    }

    /// Adds a goal that is pursued only while `relevant` holds in the view.
    pub fn add_goal_when(
        &mut self,
        name: &str,
        goal: D::Goal,
        priority: i32,
        relevant: impl Fn(&D::State) -> bool + Send + Sync + 'static,
    ) -> &mut Self {
        self.goals.push(GoalEntry {
            name: name.to_owned(),
            goal,
            priority,
            relevant: Some(Box::new(relevant)),
        });
        self
    }

    /// Binds this agent's executor for the action named `action`.
    ///
    /// # Errors
    /// [`PlanError::UnknownName`] if the domain has no such action.
    pub fn bind(
        &mut self,
        action: &str,
        executor: impl Executor<D::State> + 'static,
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

    /// Calls `observer` with every event from now on, after the observers
    /// given before it (a debug log and a game's UI can both listen).
    pub fn observe(
        &mut self,
        observer: impl for<'e> FnMut(&AgentEvent<'e>) + Send + 'static,
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

    /// The name of the goal being pursued, if any.
    pub fn current_goal(&self) -> Option<&str> {
        self.current
            .as_ref()
            .map(|c| self.goals[c.goal].name.as_str())
    }

    /// The remaining actions of the current plan, by name.
    pub fn remaining_plan(&self) -> Vec<&str> {
        self.current.as_ref().map_or_else(Vec::new, |c| {
            c.actions[c.step..]
                .iter()
                .map(|&id| self.domain.action_name(id))
                .collect()
        })
    }

    /// One step of the agent's life; see the [module docs](self). Effects on
    /// shared state are written into `world`.
    ///
    /// # Errors
    /// [`PlanError`] when planning meets bad input (not when no plan exists).
    pub fn tick(&mut self, world: &mut D::State) -> Result<TickStatus, PlanError> {
        let view = self.domain.view(world, &self.own);
        if let Some(reason) = self.plan_is_stale(&view) {
            if let Some(current) = self.current.take() {
                let goal = &self.goals[current.goal].name;
                emit(
                    &mut self.observers,
                    &AgentEvent::Replanning { goal, reason },
                );
            }
        }
        if let Some(reason) = self.policy_replan(&view)? {
            if let Some(current) = self.current.take() {
                let goal = &self.goals[current.goal].name;
                emit(
                    &mut self.observers,
                    &AgentEvent::Replanning { goal, reason },
                );
            }
        }
        if let Some(current) = self.current.as_mut() {
            current.ticks = current.ticks.saturating_add(1);
        }
        if self.current.is_none() {
            match self.plan(&view)? {
                Some(current) => self.current = Some(current),
                None if self.candidates(&view).next().is_none() => return Ok(TickStatus::Idle),
                None => return Ok(TickStatus::Stuck),
            }
        }
        Ok(self.act(&view, world))
    }

    /// Why the current plan must go, if it must.
    fn plan_is_stale(&self, view: &D::State) -> Option<ReplanReason> {
        let current = self.current.as_ref()?;
        let best = self.candidates(view).next();
        if best.is_some_and(|g| self.goals[g].priority > self.goals[current.goal].priority) {
            return Some(ReplanReason::HigherPriorityGoal);
        }
        let next = *current.actions.get(current.step)?;
        (!self.domain.is_applicable(view, next)).then_some(ReplanReason::PreconditionInvalidated)
    }

    /// Why the replan policy drops the current plan before its next action,
    /// if it does.
    fn policy_replan(&self, view: &D::State) -> Result<Option<ReplanReason>, PlanError> {
        let Some(current) = self.current.as_ref().filter(|c| !c.started) else {
            return Ok(None);
        };
        if self.policy.every_ticks.is_some_and(|n| current.ticks >= n) {
            return Ok(Some(ReplanReason::Periodic));
        }
        let Some(margin) = self.policy.cheaper_by else {
            return Ok(None);
        };
        let goal = &self.goals[current.goal].goal;
        let rest = &current.actions[current.step..];
        let Ok(left) = self.domain.validate(view, goal, rest) else {
            return Ok(None); // a broken plan is the other checks' business
        };
        let report = self.planner.plan(&self.domain, view, goal)?;
        let cheaper = report
            .plan()
            .is_some_and(|plan| plan.cost.saturating_add(margin) < left);
        Ok(cheaper.then_some(ReplanReason::CheaperPlan))
    }

    /// Relevant, unsatisfied goals, most important first.
    fn candidates<'s>(&'s self, view: &'s D::State) -> impl Iterator<Item = usize> + 's {
        let mut order: Vec<usize> = (0..self.goals.len())
            .filter(|&g| {
                let goal = &self.goals[g];
                goal.relevant.as_ref().is_none_or(|r| r(view))
                    && !self.domain.is_satisfied(view, &goal.goal)
            })
            .collect();
        order.sort_by_key(|&g| std::cmp::Reverse(self.goals[g].priority));
        order.into_iter()
    }

    /// Plans for the most important goal that has a plan.
    fn plan(&mut self, view: &D::State) -> Result<Option<CurrentPlan<D::ActionId>>, PlanError> {
        let candidates: Vec<usize> = self.candidates(view).collect();
        for g in candidates {
            let goal = &self.goals[g];
            let report = self.planner.plan(&self.domain, view, &goal.goal)?;
            match report.outcome {
                PlanOutcome::Solved(plan) => {
                    let actions = plan.names(&*self.domain);
                    let event = AgentEvent::PlanFound {
                        goal: &goal.name,
                        actions,
                        cost: plan.cost,
                    };
                    emit(&mut self.observers, &event);
                    return Ok(Some(CurrentPlan {
                        goal: g,
                        actions: plan.actions,
                        step: 0,
                        started: false,
                        ticks: 0,
                    }));
                }
                outcome => {
                    let event = AgentEvent::NoPlan {
                        goal: &goal.name,
                        outcome: outcome.name(),
                    };
                    emit(&mut self.observers, &event);
                }
            }
        }
        Ok(None)
    }

    /// Runs the current action's executor once.
    fn act(&mut self, view: &D::State, world: &mut D::State) -> TickStatus {
        let Some(current) = self.current.as_mut() else {
            return TickStatus::Idle;
        };
        let Some(&action) = current.actions.get(current.step) else {
            // An empty plan: the goal already holds.
            self.current = None;
            return TickStatus::Acting;
        };
        let name = self.domain.action_name(action);
        if !current.started {
            current.started = true;
            emit(
                &mut self.observers,
                &AgentEvent::ActionStarted { action: name },
            );
        }
        let status = self
            .executors
            .get_mut(&action)
            .map_or(ExecStatus::Success, |e| e.execute(view));
        match status {
            ExecStatus::Running => {}
            ExecStatus::Failure => {
                emit(
                    &mut self.observers,
                    &AgentEvent::ActionFailed { action: name },
                );
                let goal = &self.goals[current.goal].name;
                let reason = ReplanReason::ActionFailed;
                emit(
                    &mut self.observers,
                    &AgentEvent::Replanning { goal, reason },
                );
                self.current = None;
            }
            ExecStatus::Success => {
                let goal = &self.goals[current.goal].name;
                let Some(after) = self.domain.apply(view, action) else {
                    // Checked at the top of this tick, so only a domain whose
                    // `apply` refuses more than `is_applicable` gets here.
                    let reason = ReplanReason::PreconditionInvalidated;
                    emit(
                        &mut self.observers,
                        &AgentEvent::Replanning { goal, reason },
                    );
                    self.current = None;
                    return TickStatus::Acting;
                };
                self.domain.write_back(&after, world, &mut self.own);
                emit(
                    &mut self.observers,
                    &AgentEvent::ActionFinished { action: name },
                );
                current.step += 1;
                current.started = false;
                if current.step == current.actions.len() {
                    emit(&mut self.observers, &AgentEvent::GoalReached { goal });
                    self.current = None;
                }
            }
        }
        TickStatus::Acting
    }
}

fn emit(observers: &mut [Observer], event: &AgentEvent<'_>) {
    for observe in observers {
        observe(event);
    }
}
