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
//! **Events.** [`AgentEvent`]s reach the agent's
//! observers ([`Agent::observe`]) as they happen. An agent spawned
//! [`with_messages`](GoapAgent::with_messages) also sends each as a
//! [`GoapMessage`] (its entity, the event's kind, the goal or action it
//! names, and the event in words), written after the agents' ticks, for
//! any system to read with a `MessageReader<GoapMessage>`.
//!
//! **Threads.** A tick is two phases ([`Agent::plan_phase`], which reads
//! the world, and [`Agent::act_phase`], which changes it). The system runs
//! every agent's plan phase first, on [`PlanningThreads`] threads (one by
//! default), each thread taking an equal part of the agents and of the
//! frame's budget, then the act phases one agent after another. Agents
//! plan from the world as the frame found it; an action another agent's
//! act phase broke meanwhile is refused, and its plan dropped.
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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy_app::{App, First, Plugin, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};

use crate::agent::{Agent, AgentDomain, AgentEvent, AgentEventKind, PlanningBudget, TickStatus};
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
            .init_resource::<PlanningThreads>()
            .init_resource::<FrameReport>()
            .init_resource::<NoContext>()
            .add_message::<GoapMessage>()
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

/// An [`AgentEvent`] as a bevy message, from an
/// agent spawned [`with_messages`](GoapAgent::with_messages).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct GoapMessage {
    /// The agent's entity.
    pub entity: Entity,
    /// Which event it is.
    pub kind: AgentEventKind,
    /// The goal or action it names.
    pub subject: String,
    /// The event in words (its `Display`: the plan and its cost, the
    /// reason to replan).
    pub text: String,
}

/// Events an agent's observer keeps for the system to send.
type Outbox = Arc<Mutex<Vec<(AgentEventKind, String, String)>>>;

/// A GOAP agent as a component, with what its last tick did.
///
/// It dereferences to its [`Agent`], so goals, executors, sensors and
/// observers can be added after it was spawned.
#[derive(Component)]
pub struct GoapAgent<D: AgentDomain, C = NoContext> {
    agent: Agent<D, C>,
    status: Option<TickStatus>,
    /// Whether this frame's plan phase left an action to run.
    acts: bool,
    /// Events to send as [`GoapMessage`]s, when asked for.
    outbox: Option<Outbox>,
}

impl<D: AgentDomain, C> GoapAgent<D, C> {
    /// The component for `agent`.
    pub fn new(agent: Agent<D, C>) -> Self {
        Self {
            agent,
            status: None,
            acts: false,
            outbox: None,
        }
    }

    /// The component for `agent`, whose events are also sent as
    /// [`GoapMessage`]s (each one's names copied into strings).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bevy_app::prelude::*;
    /// use bevy_ecs::prelude::*;
    /// use planners::agent::{Agent, AgentEventKind};
    /// use planners::bevy::{GoapAgent, GoapMessage, GoapPlugin, SharedWorld};
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let actions = Arc::new(actions);
    /// let mut app = App::new();
    /// app.add_plugins(GoapPlugin::<ActionSet>::new())
    ///     .insert_resource(SharedWorld::<ActionSet>(actions.state([]).unwrap()));
    /// let mut agent = Agent::new(Arc::clone(&actions), actions.state(["has_food"]).unwrap());
    /// agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    /// let entity = app.world_mut().spawn(GoapAgent::<ActionSet>::with_messages(agent)).id();
    /// app.update();
    /// let messages = app.world().resource::<Messages<GoapMessage>>();
    /// let kinds: Vec<_> = messages.iter_current_update_messages().map(|m| (m.entity, m.kind)).collect();
    /// assert_eq!(kinds[0], (entity, AgentEventKind::PlanFound));
    /// assert_eq!(kinds.last(), Some(&(entity, AgentEventKind::GoalReached)));
    /// ```
    pub fn with_messages(mut agent: Agent<D, C>) -> Self {
        let outbox = Outbox::default();
        let sink = Arc::clone(&outbox);
        agent.observe(move |event: &AgentEvent<'_>| {
            let kept = (event.kind(), event.subject().to_owned(), event.to_string());
            if let Ok(mut kept_events) = sink.lock() {
                kept_events.push(kept);
            }
        });
        Self {
            outbox: Some(outbox),
            ..Self::new(agent)
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

/// How many threads the agents' plan phases run on in each frame: 1 (the
/// default) plans on the system's thread; more plans on that many, each
/// taking an equal part of the agents (in the frame's order) and of the
/// [`FrameBudget`].
///
/// ```
/// use planners::bevy::PlanningThreads;
/// assert_eq!(PlanningThreads::default(), PlanningThreads(1));
/// let all = PlanningThreads::available();
/// assert!(all.0 >= 1);
/// ```
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanningThreads(pub usize);

impl Default for PlanningThreads {
    fn default() -> Self {
        Self(1)
    }
}

impl PlanningThreads {
    /// As many threads as the machine runs at once.
    pub fn available() -> Self {
        Self(std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
    }
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
    /// The first agent in this frame's order left waiting.
    first_waiting: Option<Entity>,
}

/// The first agent left waiting in the last frame, which goes first in this
/// one.
#[derive(Default)]
struct Rotation(Option<Entity>);

/// The threads the agents' plan phases run on, kept between frames.
#[derive(Default)]
struct Helpers(Option<rayon::ThreadPool>);

/// Ticks every agent once, from the one left waiting last frame: first
/// every agent's [`plan_phase`](Agent::plan_phase), on
/// [`PlanningThreads`] threads, each within its share of the frame's
/// budget; then, in turn, the [`act_phase`](Agent::act_phase) of those
/// with an action to run.
#[expect(
    clippy::needless_pass_by_value,
    clippy::too_many_arguments,
    reason = "bevy passes system parameters by value, one per resource"
)]
fn tick_agents<D: AgentDomain + Sync + 'static, C: Resource>(
    mut agents: Query<(Entity, &mut GoapAgent<D, C>)>,
    mut world: ResMut<SharedWorld<D>>,
    mut context: ResMut<C>,
    budget: Res<FrameBudget>,
    threads: Res<PlanningThreads>,
    mut report: ResMut<FrameReport>,
    mut rotation: Local<Rotation>,
    mut helpers: Local<Helpers>,
    mut messages: MessageWriter<GoapMessage>,
) where
    Agent<D, C>: Send + Sync,
{
    let mut order: Vec<(Entity, Mut<GoapAgent<D, C>>)> = agents.iter_mut().collect();
    let start = rotation
        .0
        .take()
        .and_then(|first| order.iter().position(|(entity, _)| *entity == first))
        .unwrap_or(0);
    order.rotate_left(start);

    // The plan phases: the frame's budget split evenly between the chunks.
    let chunks = threads.0.clamp(1, order.len().max(1));
    let share = match budget.per_frame.map(|frame| left(frame, &report)) {
        None => Share::Unbounded,
        Some(None) => Share::Spent,
        Some(Some(left)) => Share::Of(left.split(chunks)),
    };
    let (world_now, context_now) = (&world.0, &*context);
    let plan_chunk = |chunk: &mut [(Entity, Mut<GoapAgent<D, C>>)]| {
        let mut tally = FrameReport::default();
        for (entity, goap) in chunk {
            plan_one(*entity, goap, world_now, context_now, share, &mut tally);
        }
        tally
    };
    let chunk_len = order.len().div_ceil(chunks).max(1);
    let tallies: Vec<FrameReport> = if chunks == 1 {
        vec![plan_chunk(&mut order)]
    } else {
        let pool = helpers.0.get_or_insert_with(|| helper_pool(chunks - 1));
        if pool.current_num_threads() != chunks - 1 {
            *pool = helper_pool(chunks - 1);
        }
        let mut parts: Vec<_> = order.chunks_mut(chunk_len).collect();
        let mut tallies: Vec<FrameReport> =
            (0..parts.len()).map(|_| FrameReport::default()).collect();
        let (first, rest) = parts.split_first_mut().expect("at least one chunk");
        let (mine, theirs) = tallies.split_first_mut().expect("one tally a chunk");
        pool.in_place_scope(|scope| {
            for (part, tally) in rest.iter_mut().zip(theirs.iter_mut()) {
                let plan_chunk = &plan_chunk;
                scope.spawn(move |_| *tally = plan_chunk(part));
            }
            *mine = plan_chunk(first);
        });
        tallies
    };
    for tally in tallies {
        if rotation.0.is_none() {
            rotation.0 = tally.first_waiting;
        }
        report.absorb(tally);
    }

    // The act phases, one agent after another: they change the world.
    for (entity, goap) in &mut order {
        if !goap.acts {
            continue;
        }
        let own = goap.agent.planning_budget();
        let per_tick = match budget.per_frame.map(|frame| left(frame, &report)) {
            None => own.per_tick,
            Some(None) => Some(Budget::Expansions(0)),
            Some(Some(left)) => Some(share_of(left, own.per_tick)),
        };
        goap.agent
            .set_planning_budget(PlanningBudget { per_tick, ..own });
        let before = goap.agent.planning_spent();
        let acted = goap.agent.act_phase(&mut world.0, &mut context);
        goap.agent.set_planning_budget(own);
        report.count_spent(before, goap.agent.planning_spent());
        goap.status = acted.as_ref().ok().copied();
        match acted {
            Ok(_) => report.acting += 1,
            Err(error) => report.errors.push((*entity, error)),
        }
    }
    for (entity, goap) in &order {
        let Some(outbox) = &goap.outbox else {
            continue;
        };
        let Ok(mut kept) = outbox.lock() else {
            continue;
        };
        for (kind, subject, text) in kept.drain(..) {
            messages.write(GoapMessage {
                entity: *entity,
                kind,
                subject,
                text,
            });
        }
    }
}

/// A pool of `threads` threads for the plan phases beside the system's own.
fn helper_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("searchlab-goap-{i}"))
        .build()
        .expect("the operating system starts a thread")
}

/// A chunk's part of the frame's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Share {
    /// No frame budget.
    Unbounded,
    /// Nothing was left at the frame's start.
    Spent,
    Of(Budget),
}

/// One agent's plan phase within `share` of the frame's budget, less what
/// its chunk spent so far (`tally`), counted in `tally`.
fn plan_one<D: AgentDomain, C>(
    entity: Entity,
    goap: &mut GoapAgent<D, C>,
    world: &D::State,
    context: &C,
    share: Share,
    tally: &mut FrameReport,
) {
    let own = goap.agent.planning_budget();
    let chunk_left = match share {
        Share::Unbounded => None,
        Share::Spent => Some(None),
        Share::Of(share) => Some(left(share, tally)),
    };
    let starved = chunk_left == Some(None);
    let per_tick = match chunk_left {
        None => own.per_tick,
        Some(None) => Some(Budget::Expansions(0)), // act, but plan nothing
        Some(Some(left)) => Some(share_of(left, own.per_tick)),
    };
    goap.agent
        .set_planning_budget(PlanningBudget { per_tick, ..own });
    let before = goap.agent.planning_spent();
    let planned = goap.agent.plan_phase(world, context);
    goap.agent.set_planning_budget(own);
    tally.count_spent(before, goap.agent.planning_spent());
    tally.ticked += 1;
    goap.acts = matches!(planned, Ok(None));
    goap.status = match &planned {
        Ok(Some(status)) => Some(*status),
        Ok(None) | Err(_) => None,
    };
    match planned {
        Ok(None) => {}
        Ok(Some(TickStatus::Acting)) => tally.acting += 1,
        Ok(Some(TickStatus::Idle)) => tally.idle += 1,
        Ok(Some(TickStatus::Stuck)) => tally.stuck += 1,
        Ok(Some(TickStatus::Planning)) => {
            tally.planning += 1;
            if starved {
                tally.waiting += 1;
                tally.first_waiting.get_or_insert(entity);
            }
        }
        Err(error) => tally.errors.push((entity, error)),
    }
}

impl FrameReport {
    /// Counts what an agent spent planning between `before` and `after`
    /// ([`Agent::planning_spent`]).
    fn count_spent(&mut self, before: (u64, Duration), after: (u64, Duration)) {
        self.expanded += after.0 - before.0;
        self.planning_time += after.1.saturating_sub(before.1);
    }

    /// Adds a chunk's tally of plan phases.
    fn absorb(&mut self, tally: FrameReport) {
        self.ticked += tally.ticked;
        self.acting += tally.acting;
        self.planning += tally.planning;
        self.idle += tally.idle;
        self.stuck += tally.stuck;
        self.waiting += tally.waiting;
        self.expanded += tally.expanded;
        self.planning_time += tally.planning_time;
        self.errors.extend(tally.errors);
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
fn share_of(left: Budget, slice: Option<Budget>) -> Budget {
    match (left, slice) {
        (Budget::Expansions(n), Some(Budget::Expansions(m))) => Budget::Expansions(n.min(m)),
        (Budget::Time(t), Some(Budget::Time(u))) => Budget::Time(t.min(u)),
        (_, Some(slice)) => slice,
        (left, None) => left,
    }
}
