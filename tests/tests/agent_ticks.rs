//! Tick by tick: an agent whose searches take more than one tick's
//! planning budget never spends a tick neither acting nor holding a plan
//! where it need not. The next plan's search starts in the tick the last
//! plan ends, and a running action runs on while a more important goal's
//! plan is searched.

use std::sync::{Arc, Mutex};

use planners::agent::{Agent, AgentEvent, ExecStatus, PlanningBudget, TickStatus};
use planners::Budget;
use state_atomic::{ActionSet, WorldState};

/// One tick as a test sees it.
#[derive(Debug)]
struct Tick {
    status: TickStatus,
    /// An executor ran.
    acted: bool,
    /// The agent holds a plan (or has nothing to do).
    answered: bool,
}

/// Adds `steps` actions `{prefix}{i}`: `{prefix}{i}` true makes
/// `{prefix}{i + 1}` true, the first one also requiring `first_pre`.
fn chain(actions: &mut ActionSet, prefix: &str, steps: usize, first_pre: Option<&str>) {
    for i in 0..steps {
        let mut action = actions.add_action(&format!("{prefix}_{i}"), 1);
        action
            .pre(&format!("{prefix}{i}"), true)
            .eff(&format!("{prefix}{}", i + 1), true);
        if let (0, Some(atom)) = (i, first_pre) {
            action.pre(atom, true);
        }
    }
}

/// Binds an executor to every action that counts its calls in `acted`,
/// `walk` taking `walk_ticks` ticks.
fn count_acts(
    agent: &mut Agent<ActionSet>,
    actions: &ActionSet,
    walk_ticks: u32,
) -> Arc<Mutex<u32>> {
    let acted = Arc::new(Mutex::new(0));
    for action in actions.iter() {
        let acted = Arc::clone(&acted);
        let mut calls = 0u32;
        let ticks = if action.name == "walk" { walk_ticks } else { 1 };
        agent
            .bind(&action.name, move |_: &WorldState| {
                *acted.lock().unwrap() += 1;
                calls += 1;
                if calls.is_multiple_of(ticks) {
                    ExecStatus::Success
                } else {
                    ExecStatus::Running
                }
            })
            .unwrap();
    }
    acted
}

/// Ticks until the agent is idle (at most `most` ticks), with `before`
/// changing the world ahead of each tick (numbered from 1).
fn trace(
    agent: &mut Agent<ActionSet>,
    acted: &Mutex<u32>,
    world: &mut WorldState,
    most: usize,
    before: impl Fn(usize, &mut WorldState),
) -> Vec<Tick> {
    let mut ticks = Vec::new();
    for t in 1..=most {
        before(t, world);
        let calls = *acted.lock().unwrap();
        let status = agent.tick(world).unwrap();
        ticks.push(Tick {
            status,
            acted: *acted.lock().unwrap() > calls,
            answered: !agent.remaining_plan().is_empty() || status == TickStatus::Idle,
        });
        if status == TickStatus::Idle {
            break;
        }
    }
    ticks
}

fn events(agent: &mut Agent<ActionSet>) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&log);
    agent.observe(move |event: &AgentEvent<'_>| sink.lock().unwrap().push(event.to_string()));
    log
}

/// Fetching is planned and done in the first tick; the long walk's search
/// (fourteen expansions, ten a tick) then starts in that same tick, so the
/// second tick ends it and takes the first step. The agent used to spend
/// the second tick planning and nothing else.
#[test]
fn the_next_plan_is_searched_in_the_tick_the_last_one_ends() {
    let mut a = ActionSet::<u64>::new();
    a.add_action("fetch", 1).eff("fetched", true);
    chain(&mut a, "s", 13, None);
    let actions = Arc::new(a);
    let mut agent = Agent::new(Arc::clone(&actions), actions.state(["s0"]).unwrap());
    agent.add_goal("fetch", actions.partial([("fetched", true)]).unwrap(), 2);
    agent.add_goal("walk far", actions.partial([("s13", true)]).unwrap(), 1);
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(10)),
        watchdog: None,
    });
    let acted = count_acts(&mut agent, &actions, 1);
    let log = events(&mut agent);
    let mut world = actions.state([]).unwrap();
    let ticks = trace(&mut agent, &acted, &mut world, 40, |_, _| {});
    assert_eq!(ticks.len(), 15, "{ticks:?}"); // fetch, 13 steps, idle
    for (t, tick) in ticks.iter().enumerate() {
        assert!(tick.acted || tick.answered, "tick {}: {ticks:?}", t + 1);
        assert_ne!(
            tick.status,
            TickStatus::Planning,
            "tick {}: {ticks:?}",
            t + 1
        );
    }
    let log = log.lock().unwrap();
    let reached = log
        .iter()
        .position(|l| l == "reached its goal: fetch")
        .unwrap();
    assert!(
        log[reached + 1].starts_with("plans to walk far: s_0, "),
        "{log:?}"
    );
    assert_eq!(log[reached + 2], "starts s_0", "{log:?}");
}

/// A household whose alarm sends the agent into hiding: nine steps, found
/// in four ticks of eight expansions.
fn household() -> Arc<ActionSet> {
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("alarm").unwrap();
    a.add_action("walk", 1).eff("in_kitchen", true);
    a.add_action("eat", 1)
        .pre("in_kitchen", true)
        .eff("fed", true);
    chain(&mut a, "h", 9, Some("alarm"));
    Arc::new(a)
}

/// The agent walks to the kitchen (ten ticks) when the alarm sounds: it
/// drops its plan to eat at once, but walks on while the plan to hide is
/// searched, then hides. It used to stand still for those ticks.
#[test]
fn a_running_action_runs_on_while_a_more_important_plan_is_searched() {
    let actions = household();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state(["h0"]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let alarm = actions.registry().atom("alarm").unwrap();
    agent.add_goal_when(
        "hide",
        actions.partial([("h9", true)]).unwrap(),
        10,
        move |view: &WorldState| view.get(alarm),
    );
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(8)),
        watchdog: None,
    });
    let acted = count_acts(&mut agent, &actions, 10);
    let log = events(&mut agent);
    let mut world = actions.state([]).unwrap();
    let ticks = trace(&mut agent, &acted, &mut world, 40, |t, world| {
        if t == 3 {
            *world = world.with(alarm, true);
        }
    });
    let log = log.lock().unwrap();
    for (t, tick) in ticks.iter().enumerate() {
        assert!(
            tick.acted || tick.answered,
            "tick {}: {ticks:?} {log:?}",
            t + 1
        );
        assert_ne!(
            tick.status,
            TickStatus::Planning,
            "tick {}: {ticks:?}",
            t + 1
        );
    }
    let dropped = log
        .iter()
        .position(|l| l == "drops its plan to eat: a more important goal became relevant")
        .unwrap();
    let found = log
        .iter()
        .position(|l| l.starts_with("plans to hide"))
        .unwrap();
    assert_eq!(found, dropped + 1, "{log:?}");
    assert_eq!(log[found + 1], "starts h_0", "{log:?}");
    // The walk went on until the plan to hide took over: it never finished.
    let hidden = log
        .iter()
        .position(|l| l == "reached its goal: hide")
        .unwrap();
    assert!(
        !log[..hidden].contains(&"finishes walk".to_owned()),
        "{log:?}"
    );
    assert!(ticks[2..6].iter().all(|t| t.acted), "{ticks:?}");
}

/// When the new plan starts with the action that runs on, it goes on with
/// it rather than start it again.
#[test]
fn a_new_plan_that_starts_with_the_running_action_goes_on_with_it() {
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("alarm").unwrap();
    a.add_action("walk", 1).eff("in_kitchen", true);
    a.add_action("eat", 1)
        .pre("in_kitchen", true)
        .eff("fed", true);
    a.add_action("hide_in_pantry", 1)
        .pre("in_kitchen", true)
        .pre("alarm", true)
        .eff("safe", true);
    let actions = Arc::new(a);
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let alarm = actions.registry().atom("alarm").unwrap();
    agent.add_goal_when(
        "hide",
        actions.partial([("safe", true)]).unwrap(),
        10,
        move |view: &WorldState| view.get(alarm),
    );
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(1)),
        watchdog: None,
    });
    let acted = count_acts(&mut agent, &actions, 6);
    let log = events(&mut agent);
    let mut world = actions.state([]).unwrap();
    let mut ran = Vec::new();
    for t in 1..=20 {
        if t == 5 {
            world = world.with(alarm, true);
        }
        agent.tick(&mut world).unwrap();
        ran.push(agent.remaining_plan().join(" "));
    }
    let log = log.lock().unwrap();
    assert_eq!(
        *log,
        [
            "plans to eat: walk, eat (cost 2)",
            "starts walk",
            "drops its plan to eat: a more important goal became relevant",
            "plans to hide: walk, hide_in_pantry (cost 2)",
            "finishes walk",
            "starts hide_in_pantry",
            "finishes hide_in_pantry",
            "reached its goal: hide",
            "plans to eat: eat (cost 1)",
            "starts eat",
            "finishes eat",
            "reached its goal: eat",
        ]
    );
    // Two ticks planning to eat, two walking towards it; then two walking
    // on while hiding is planned (one expansion a tick); the plan to hide
    // goes on with the walk, which ends after its sixth call.
    assert_eq!(
        ran[..9],
        [
            "",
            "",
            "walk eat",
            "walk eat",
            "walk",
            "walk",
            "walk hide_in_pantry",
            "hide_in_pantry",
            ""
        ]
    );
    assert_eq!(*acted.lock().unwrap(), 6 + 1 + 1);
}

/// The plans an agent makes over a walk of `steps` steps (beside a second
/// walk of `aside` steps that leads nowhere) and what its searches
/// expanded, with `per_tick` as its budget.
fn walk_plans(steps: usize, aside: usize, per_tick: Option<Budget>) -> (Vec<String>, u64, usize) {
    let mut actions = ActionSet::new();
    chain(&mut actions, "s", steps, None);
    chain(&mut actions, "t", aside, None);
    let actions = Arc::new(actions);
    let start = if aside > 0 {
        vec!["s0", "t0"]
    } else {
        vec!["s0"]
    };
    let mut agent = Agent::new(Arc::clone(&actions), actions.state(start).unwrap());
    agent.add_goal(
        "walk",
        actions
            .partial([(format!("s{steps}").as_str(), true)])
            .unwrap(),
        1,
    );
    agent.set_planning_budget(PlanningBudget {
        per_tick,
        watchdog: None,
    });
    let _ = count_acts(&mut agent, &actions, 1);
    let seen = events(&mut agent);
    let mut world = actions.state([]).unwrap();
    let mut planning_ticks = 0;
    for _ in 0..200 {
        match agent.tick(&mut world).unwrap() {
            TickStatus::Planning => planning_ticks += 1,
            TickStatus::Idle => break,
            _ => {}
        }
    }
    let found = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.starts_with("plans to"))
        .cloned()
        .collect();
    (found, agent.planning_spent().0, planning_ticks)
}

#[test]
fn a_search_run_at_once_plans_as_a_sliced_one() {
    // Twenty steps: 21 expansions. With no budget, or one that leaves room
    // for a search at once (16 or more), the plan comes in the first tick; with three
    // expansions a tick, a sliced search plans for six ticks and acts in
    // the seventh, which ends its search. The plans and
    // the expansions counted agree.
    let (at_once, expanded, ticks) = walk_plans(20, 0, None);
    assert_eq!(ticks, 0);
    let (roomy, roomy_expanded, roomy_ticks) = walk_plans(20, 0, Some(Budget::Expansions(1000)));
    let (sliced, sliced_expanded, sliced_ticks) = walk_plans(20, 0, Some(Budget::Expansions(3)));
    assert_eq!(at_once.len(), 1, "{at_once:?}");
    assert_eq!(at_once, roomy);
    assert_eq!(at_once, sliced);
    assert_eq!((roomy_ticks, sliced_ticks), (0, 6));
    assert_eq!(expanded, 21);
    assert_eq!((roomy_expanded, sliced_expanded), (21, 21));
    // A budget that the search at once runs out of (twelve steps beside a
    // walk of twelve more: A* expands more than 16 nodes, 16 a tick):
    // that attempt is spent, then the search is sliced, and the plan is the
    // same.
    let (long, long_expanded, _) = walk_plans(12, 12, None);
    assert!(long_expanded > 16, "{long_expanded}");
    let (tight, tight_expanded, tight_ticks) = walk_plans(12, 12, Some(Budget::Expansions(16)));
    assert_eq!(long, tight);
    assert!(tight_ticks >= 2, "{tight_ticks}");
    assert_eq!(tight_expanded, 16 + long_expanded);
}

/// A planner with no tiny path (a heuristic without a quick form) plans
/// sliced, with no budget too, and counts only the expansions it made: a
/// search at once that did not run spends nothing.
#[test]
fn a_planner_without_a_tiny_path_plans_sliced_and_counts_what_it_spent() {
    let mut actions = ActionSet::new();
    chain(&mut actions, "s", 5, None);
    let actions = Arc::new(actions);
    let mut agent = Agent::new(Arc::clone(&actions), actions.state(["s0"]).unwrap());
    agent.add_goal("walk", actions.partial([("s5", true)]).unwrap(), 1);
    agent.set_planner(planners::PlannerConfig {
        heuristic: planners::heuristics::heuristic("ff").unwrap(),
        ..planners::PlannerConfig::default()
    });
    let _ = count_acts(&mut agent, &actions, 1);
    let mut world = actions.state([]).unwrap();
    while agent.tick(&mut world).unwrap() != TickStatus::Idle {}
    let (expanded, _) = agent.planning_spent();
    assert!((1..100).contains(&expanded), "{expanded}");
}
