//! Agent goals: priorities that change with the world (closures of the
//! view, evaluated every tick), goals that repeat once reached, and
//! one-shot goals that leave once reached.

use std::sync::{Arc, Mutex};

use planners::agent::{Agent, AgentDomain, AgentEvent, AgentGoal, ExecStatus, TickStatus};
use state_atomic::{ActionSet, WorldState};
use state_factored::{Action, Domain, IntVar, Predicate, Schema, State};

/// Records every event as text, prefixed with the tick it happened in.
fn recorder<D: AgentDomain, C>(
    agent: &mut Agent<D, C>,
) -> (Arc<Mutex<Vec<String>>>, Arc<Mutex<u32>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let tick = Arc::new(Mutex::new(0));
    let (sink, now) = (Arc::clone(&log), Arc::clone(&tick));
    agent.observe(move |event: &AgentEvent<'_>| {
        let line = match event {
            AgentEvent::PlanFound { goal, actions, .. } => {
                format!("plan {goal}: {}", actions.join(" "))
            }
            AgentEvent::NoPlan { goal, outcome } => format!("no plan {goal}: {outcome}"),
            AgentEvent::Replanning { goal, reason } => format!("replan {goal}: {reason:?}"),
            AgentEvent::ActionStarted { action } => format!("start {action}"),
            AgentEvent::ActionFinished { action } => format!("finish {action}"),
            AgentEvent::ActionFailed { action } => format!("fail {action}"),
            AgentEvent::GoalReached { goal } => format!("reached {goal}"),
            other => format!("{other:?}"),
        };
        let now = *now.lock().unwrap();
        sink.lock().unwrap().push(format!("{now}: {line}"));
    });
    (log, tick)
}

/// A worker whose hunger (its own) rises by one each tick, sensed before it
/// looks at the world: working matters 5, eating as much as the hunger.
fn hungry_worker() -> (Arc<Domain>, Agent<Domain>, IntVar) {
    let mut schema = Schema::new();
    let hunger = schema.int("hunger").unwrap();
    let work = schema.int("work").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(Action::builder("work").increase("work", 1))
        .unwrap();
    domain
        .add_action(Action::builder("eat").set("hunger", 0))
        .unwrap();
    let domain = Arc::new(domain);
    let mut agent = Agent::new(Arc::clone(&domain), domain.schema().default_state());
    let done = domain.goal([Predicate::ge("work", 8)]).unwrap();
    let fed = domain.goal([Predicate::le("hunger", 0)]).unwrap();
    agent.add_goal("work", done, 5);
    agent.add(
        AgentGoal::new("eat", fed)
            .priority_fn(move |view: &State| i32::try_from(view.int(hunger)).unwrap_or(i32::MAX)),
    );
    agent.add_sensor(move |(): &(), own: &mut State| {
        own.set_int(hunger, own.int(hunger) + 1);
    });
    (domain, agent, work)
}

/// Hunger rises each tick; once it passes work's 5 the agent drops its
/// work plan, as it would for a goal of a higher fixed priority, eats, and
/// goes back to work. At 5 (a tie) it keeps working.
#[test]
fn a_priority_that_rises_with_the_world_takes_over() {
    let (domain, mut agent, work) = hungry_worker();
    let (log, tick) = recorder(&mut agent);
    let mut world = domain.schema().default_state();
    for t in 1..=12 {
        *tick.lock().unwrap() = t;
        assert_eq!(
            agent.tick(&mut world).unwrap(),
            TickStatus::Acting,
            "tick {t}"
        );
    }
    let log = log.lock().unwrap();
    let replans: Vec<&String> = log.iter().filter(|l| l.contains("replan")).collect();
    assert_eq!(replans, ["6: replan work: HigherPriorityGoal"], "{log:?}");
    let at = log.iter().position(|l| l.contains("replan")).unwrap();
    assert_eq!(
        log[at + 1..at + 6],
        [
            "6: plan eat: eat",
            "6: start eat",
            "6: finish eat",
            "6: reached eat",
            "6: plan work: work work work",
        ],
        "{log:?}"
    );
    // Five ticks of work before the meal, three after: done.
    assert_eq!(agent.own_state().int(work), 8);
    assert!(log.iter().any(|l| l == "9: reached work"), "{log:?}");
}

/// `priorities` shows what a tick compares, and the fixed-priority API is
/// the constant closure.
#[test]
fn priorities_are_evaluated_in_the_view() {
    let (domain, mut agent, _) = hungry_worker();
    let hungry = domain.schema().state().set("hunger", 9).build().unwrap();
    assert_eq!(agent.priorities(&hungry), [("work", 5), ("eat", 0)]);
    agent.set_own_state(hungry.clone());
    assert_eq!(agent.priorities(&hungry), [("work", 5), ("eat", 9)]);
    assert_eq!(agent.goal_names(), ["work", "eat"]);
}

fn patrol() -> Arc<ActionSet> {
    let mut a = ActionSet::<u64>::new();
    a.add_action("go_a", 1).eff("at_a", true).eff("at_b", false);
    a.add_action("go_b", 1).eff("at_b", true).eff("at_a", false);
    Arc::new(a)
}

/// Two posts, a goal for each: a reached goal is pursued again once it
/// stops holding, so the guard walks between them for as long as it runs,
/// acting every tick (the next plan is made in the tick the last ends).
#[test]
fn goals_repeat_a_patrol_goes_on() {
    let actions = patrol();
    let mut guard = Agent::new(Arc::clone(&actions), actions.state(["at_a"]).unwrap());
    guard.add_goal("guard a", actions.partial([("at_a", true)]).unwrap(), 1);
    guard.add_goal("guard b", actions.partial([("at_b", true)]).unwrap(), 1);
    let (log, _) = recorder(&mut guard);
    let mut world = actions.state([]).unwrap();
    for _ in 0..6 {
        assert_eq!(guard.tick(&mut world).unwrap(), TickStatus::Acting);
    }
    let log = log.lock().unwrap();
    let reached: Vec<&str> = log
        .iter()
        .filter_map(|l| l.strip_prefix("0: reached "))
        .collect();
    assert_eq!(
        reached,
        ["guard b", "guard a", "guard b", "guard a", "guard b", "guard a"]
    );
}

/// The agent grows hungry every fourth tick; it eats (cooking takes two
/// ticks) each time.
#[test]
fn goals_repeat_an_agent_eats_whenever_hunger_returns() {
    let mut a = ActionSet::<u64>::new();
    a.add_action("cook", 1)
        .pre("hungry", true)
        .eff("has_food", true);
    a.add_action("eat", 1)
        .pre("has_food", true)
        .eff("hungry", false)
        .eff("has_food", false);
    let actions = Arc::new(a);
    let hungry = actions.registry().atom("hungry").unwrap();
    let mut agent: Agent<ActionSet, u32> = Agent::new(Arc::clone(&actions), WorldState::empty());
    agent.add_goal("eat", actions.partial([("hungry", false)]).unwrap(), 1);
    agent.add_sensor(move |tick: &u32, own: &mut WorldState| {
        if tick.is_multiple_of(4) {
            *own = own.with(hungry, true);
        }
    });
    let mut stirred = false;
    agent
        .bind("cook", move |_: &WorldState| {
            stirred = !stirred;
            if stirred {
                ExecStatus::Running
            } else {
                ExecStatus::Success
            }
        })
        .unwrap();
    let meals = Arc::new(Mutex::new(0));
    let count = Arc::clone(&meals);
    agent.observe(move |event: &AgentEvent<'_>| {
        if matches!(event, AgentEvent::GoalReached { goal: "eat" }) {
            *count.lock().unwrap() += 1;
        }
    });
    let mut world = WorldState::empty();
    let mut statuses = Vec::new();
    for mut tick in 0..12 {
        statuses.push(agent.tick_with(&mut world, &mut tick).unwrap());
    }
    assert_eq!(*meals.lock().unwrap(), 3, "{statuses:?}");
    assert_eq!(statuses[3], TickStatus::Idle);
    assert!(!agent.own_state().get(hungry));
}

/// A one-shot goal leaves once reached and is not pursued again when it
/// stops holding; a repeating one is. The goals after it keep their
/// priorities and what the agent knows of them (a goal with no plan is
/// not tried again from the same view).
#[test]
fn a_one_shot_goal_is_removed_once_reached() {
    let mut a = ActionSet::<u64>::new();
    a.add_action("deliver", 1).eff("delivered", true);
    a.add_action("eat", 1).eff("fed", true);
    a.add_action("pray", 1)
        .pre("miracle", true)
        .eff("rich", true);
    let actions = Arc::new(a);
    let delivered = actions.partial([("delivered", true)]).unwrap();
    for once in [true, false] {
        let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
        let deliver = AgentGoal::new("deliver", delivered).priority(3);
        agent.add(if once { deliver.once() } else { deliver });
        agent.add_goal("get rich", actions.partial([("rich", true)]).unwrap(), 2);
        agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
        let (log, _) = recorder(&mut agent);
        let mut world = actions.state([]).unwrap();
        assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
        assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
        let names = agent.goal_names();
        if once {
            assert_eq!(names, ["get rich", "eat"]);
        } else {
            assert_eq!(names, ["deliver", "get rich", "eat"]);
        }
        assert_eq!(
            *log.lock().unwrap(),
            [
                "0: plan deliver: deliver",
                "0: start deliver",
                "0: finish deliver",
                "0: reached deliver",
                "0: no plan get rich: unsolvable",
                "0: plan eat: eat",
                "0: start eat",
                "0: finish eat",
                "0: reached eat",
                "0: no plan get rich: unsolvable",
            ],
            "once: {once}"
        );
        // The parcel is lost: only the repeating goal delivers it again.
        agent.set_own_state(
            agent
                .own_state()
                .with(actions.registry().atom("delivered").unwrap(), false),
        );
        let status = agent.tick(&mut world).unwrap();
        if once {
            assert_eq!(status, TickStatus::Stuck);
        } else {
            assert_eq!(status, TickStatus::Acting);
            assert_eq!(agent.last_plan().unwrap().goal, "deliver");
        }
    }
}
