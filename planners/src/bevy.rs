//! GOAP agents in a `bevy_ecs` world (feature `bevy`): a plugin whose
//! system ticks every agent once per frame within one planning budget
//! shared by all of them.
//!
//! - [`GoapAgent<D, C>`](GoapAgent) is the component: an [`Agent`] and
//!   what its last tick did.
//! - [`SharedWorld<D>`](SharedWorld) is the resource holding the world's
//!   shared state, which every agent reads and writes.
//! - [`FrameBudget`] bounds the planning of all agents in a frame, in
//!   expansions or in time. Each agent plans at most its own
//!   [`PlanningBudget::per_tick`] and at most what is left of the frame's
//!   budget; once that is spent, the other agents still tick (their actions
//!   go on) but do not plan, and their searches wait. Agents tick in a
//!   rotating order: the first agent left without planning in a frame goes
//!   first in the next, so no agent starves.
//! - [`FrameReport`] says what the last frame did: ticks by status,
//!   expansions, planning time, agents left waiting, errors.
//! - [`GoapPlugin<D, C>`](GoapPlugin) adds the system to `Update` (or a
//!   schedule of your choice) in the set [`GoapSystems`], so the game's
//!   systems can run before it (moving the world) or after it (reading
//!   statuses).
//!
//! **The context.** An agent's executors and sensors get a `&mut C`
//! ([`Agent::tick_with`]): here `C` is a [`Resource`] that the system takes
//! mutably and lends to each agent in turn. Insert it before the first
//! update; agents that need no context use [`NoContext`], which the plugin
//! inserts. Executors that change other entities can record what to do in
//! the context (a queue of orders) for a later system to apply.
//!
//! **Events.** [`AgentEvent`](crate::agent::AgentEvent)s reach the agent's
//! observers ([`Agent::observe`]) as they happen; they are not forwarded as
//! bevy messages.
//!
//! **What a budget counts.** The searches of every goal, run at once or
//! sliced ([`Agent::planning_spent`]); the searches of
//! [`ReplanPolicy::cheaper_by`](crate::agent::ReplanPolicy::cheaper_by),
//! executors and sensors are not counted. An expansion budget is kept
//! exactly when the agents' own per-tick budgets (if any) count expansions
//! too (a portfolio may go one over: it splits a slice between its two
//! directions, rounding up); a time budget is passed by at most one
//! agent's last few expansions. Where an agent's per-tick budget is of the
//! other kind, the agent plans its own slice while the frame has budget
//! left, so the frame goes over by at most that slice.
//!
//! ```
//! use std::sync::Arc;
//! use bevy_app::prelude::*;
//! use planners::agent::{Agent, PlanningBudget};
//! use planners::bevy::{FrameBudget, FrameReport, GoapAgent, GoapPlugin, SharedWorld};
//! use planners::Budget;
//! use state_atomic::ActionSet;
//!
//! let mut actions = ActionSet::<u64>::new();
//! actions.declare_shared("shop_open").unwrap();
//! actions.add_action("buy_groceries", 15).pre("shop_open", true).eff("has_groceries", true);
//! actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
//! actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
//! let actions = Arc::new(actions);
//!
//! let mut app = App::new();
//! app.add_plugins(GoapPlugin::<ActionSet>::new())
//!     .insert_resource(SharedWorld::<ActionSet>(actions.state(["shop_open"]).unwrap()))
//!     .insert_resource(FrameBudget { per_frame: Some(Budget::Expansions(10)) });
//! for _ in 0..3 {
//!     let mut villager = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
//!     villager.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
//!     app.world_mut().spawn(GoapAgent::<ActionSet>::new(villager));
//! }
//!
//! let mut expanded = 0;
//! for _ in 0..6 {
//!     app.update();
//!     let report = app.world().resource::<FrameReport>();
//!     assert!(report.expanded <= 10);
//!     expanded += report.expanded;
//! }
//! let fed = actions.partial([("fed", true)]).unwrap();
//! let mut agents = app.world_mut().query::<&GoapAgent<ActionSet>>();
//! let world = &app.world().resource::<SharedWorld<ActionSet>>().0;
//! for villager in agents.iter(app.world()) {
//!     assert!(villager.view(world).satisfies(&fed));
//! }
//! assert_eq!(expanded, 12); // four expansions per plan, sliced over frames
//! ```

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

use bevy_app::{App, First, Plugin, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};

use crate::agent::{Agent, AgentDomain, PlanningBudget, TickStatus};
use crate::{Budget, PlanError};

/// Ticks every [`GoapAgent<D, C>`](GoapAgent) once per run of its schedule;
/// see the [module docs](self). Add one per domain type; the agents of all
/// of them share the [`FrameBudget`].
pub struct GoapPlugin<D, C = NoContext> {
    schedule: InternedScheduleLabel,
    marker: PhantomData<fn() -> (D, C)>,
}

impl<D, C> GoapPlugin<D, C> {
    /// Ticks the agents in `Update`.
    pub fn new() -> Self {
        Self::in_schedule(Update)
    }

    /// Ticks the agents in `schedule` (`FixedUpdate` for ticks at a fixed
    /// rate).
    #[expect(
        clippy::needless_pass_by_value,
        reason = "labels are unit values, taken as bevy's own methods take them"
    )]
    pub fn in_schedule(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            marker: PhantomData,
        }
    }
}

impl<D, C> Default for GoapPlugin<D, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D, C> Plugin for GoapPlugin<D, C>
where
    D: AgentDomain + Sync + 'static,
    C: Resource,
    Agent<D, C>: Send + Sync,
{
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FramePlugin>() {
            app.add_plugins(FramePlugin);
        }
        app.add_systems(self.schedule, tick_agents::<D, C>.in_set(GoapSystems));
    }
}

/// The resources every [`GoapPlugin`] shares, added by the first one.
struct FramePlugin;

impl Plugin for FramePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameBudget>()
            .init_resource::<FrameReport>()
            .init_resource::<NoContext>()
            .add_systems(First, |mut report: ResMut<FrameReport>| {
                *report = FrameReport::default();
            });
    }
}

/// The system set in which [`GoapPlugin`]s tick their agents.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoapSystems;

/// The context of agents whose executors and sensors need none.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoContext;

/// A GOAP agent as a component, with what its last tick did.
///
/// It dereferences to its [`Agent`], so goals, executors, sensors and
/// observers can be added after it was spawned.
#[derive(Component)]
pub struct GoapAgent<D: AgentDomain, C = NoContext> {
    agent: Agent<D, C>,
    status: Option<TickStatus>,
}

impl<D: AgentDomain, C> GoapAgent<D, C> {
    /// The component for `agent`.
    pub fn new(agent: Agent<D, C>) -> Self {
        Self {
            agent,
            status: None,
        }
    }

    /// What the agent's last tick did; `None` before its first tick, or
    /// after a tick that failed with an error (see [`FrameReport::errors`]).
    pub fn status(&self) -> Option<TickStatus> {
        self.status
    }

    /// The agent, out of the component.
    pub fn into_inner(self) -> Agent<D, C> {
        self.agent
    }
}

impl<D: AgentDomain, C> From<Agent<D, C>> for GoapAgent<D, C> {
    fn from(agent: Agent<D, C>) -> Self {
        Self::new(agent)
    }
}

impl<D: AgentDomain, C> Deref for GoapAgent<D, C> {
    type Target = Agent<D, C>;

    fn deref(&self) -> &Agent<D, C> {
        &self.agent
    }
}

impl<D: AgentDomain, C> DerefMut for GoapAgent<D, C> {
    fn deref_mut(&mut self) -> &mut Agent<D, C> {
        &mut self.agent
    }
}

/// The world's shared state for the agents of domain `D`: what they all
/// see and change. Insert it before the first update; the game's systems
/// change it as the world moves.
#[derive(Resource)]
pub struct SharedWorld<D: AgentDomain>(pub D::State);

/// The most planning per frame across all agents; see the
/// [module docs](self) for what it counts.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameBudget {
    /// The budget, or `None` (the default) for no limit beyond each
    /// agent's own [`PlanningBudget`].
    pub per_frame: Option<Budget>,
}

/// What the agents did in the last frame (since `First` ran), over every
/// [`GoapPlugin`].
#[derive(Resource, Debug, Default)]
pub struct FrameReport {
    /// Agents ticked.
    pub ticked: usize,
    /// Ticks that ended [`TickStatus::Acting`].
    pub acting: usize,
    /// Ticks that ended [`TickStatus::Planning`] (a search goes on).
    pub planning: usize,
    /// Ticks that ended [`TickStatus::Idle`].
    pub idle: usize,
    /// Ticks that ended [`TickStatus::Stuck`].
    pub stuck: usize,
    /// Agents that needed to plan after the frame's budget was spent: they
    /// go first next frame.
    pub waiting: usize,
    /// Expansions planned.
    pub expanded: u64,
    /// Time spent planning.
    pub planning_time: Duration,
    /// Ticks that failed, by agent.
    pub errors: Vec<(Entity, PlanError)>,
}

/// The first agent left waiting in the last frame, which goes first in this
/// one.
#[derive(Default)]
struct Rotation(Option<Entity>);

/// Ticks every agent once, from the one left waiting last frame, each
/// within its share of the frame's budget.
#[expect(
    clippy::needless_pass_by_value,
    reason = "bevy passes system parameters by value"
)]
fn tick_agents<D: AgentDomain + Sync + 'static, C: Resource>(
    mut agents: Query<(Entity, &mut GoapAgent<D, C>)>,
    mut world: ResMut<SharedWorld<D>>,
    mut context: ResMut<C>,
    budget: Res<FrameBudget>,
    mut report: ResMut<FrameReport>,
    mut rotation: Local<Rotation>,
) where
    Agent<D, C>: Send + Sync,
{
    let start = rotation
        .0
        .take()
        .and_then(|first| agents.iter().position(|(entity, _)| entity == first))
        .unwrap_or(0);
    let mut tick = |entity: Entity, goap: &mut GoapAgent<D, C>| {
        let own = goap.agent.planning_budget();
        let frame_left = budget.per_frame.map(|frame| left(frame, &report));
        let starved = frame_left == Some(None);
        let per_tick = match frame_left {
            None => own.per_tick,
            Some(None) => Some(Budget::Expansions(0)), // act, but plan nothing
            Some(Some(left)) => Some(share(left, own.per_tick)),
        };
        goap.agent
            .set_planning_budget(PlanningBudget { per_tick, ..own });
        let before = goap.agent.planning_spent();
        let ticked = goap.agent.tick_with(&mut world.0, &mut context);
        goap.agent.set_planning_budget(own);
        let after = goap.agent.planning_spent();
        report.ticked += 1;
        report.expanded += after.0 - before.0;
        report.planning_time += after.1.saturating_sub(before.1);
        goap.status = ticked.as_ref().ok().copied();
        match ticked {
            Ok(TickStatus::Acting) => report.acting += 1,
            Ok(TickStatus::Idle) => report.idle += 1,
            Ok(TickStatus::Stuck) => report.stuck += 1,
            Ok(TickStatus::Planning) => {
                report.planning += 1;
                if starved {
                    report.waiting += 1;
                    rotation.0.get_or_insert(entity);
                }
            }
            Err(error) => report.errors.push((entity, error)),
        }
    };
    for (entity, mut goap) in agents.iter_mut().skip(start) {
        tick(entity, &mut goap);
    }
    for (entity, mut goap) in agents.iter_mut().take(start) {
        tick(entity, &mut goap);
    }
}

/// What is left of the frame's budget, or `None` once it is spent.
fn left(frame: Budget, report: &FrameReport) -> Option<Budget> {
    let left = match frame {
        Budget::Expansions(n) => Budget::Expansions(n.saturating_sub(report.expanded)),
        Budget::Time(t) => Budget::Time(t.saturating_sub(report.planning_time)),
    };
    (!left.is_spent(0, Duration::ZERO)).then_some(left)
}

/// An agent's share of what is `left` of the frame's budget: at most its
/// own `slice` where that counts the same thing, its slice where it counts
/// the other.
fn share(left: Budget, slice: Option<Budget>) -> Budget {
    match (left, slice) {
        (Budget::Expansions(n), Some(Budget::Expansions(m))) => Budget::Expansions(n.min(m)),
        (Budget::Time(t), Some(Budget::Time(u))) => Budget::Time(t.min(u)),
        (_, Some(slice)) => slice,
        (left, None) => left,
    }
}
