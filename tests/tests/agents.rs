//! The GOAP agent runtime: acting over ticks, replanning on failure, on a
//! broken precondition and on a more important goal, and goals with no plan.

use std::sync::{Arc, Mutex};

use planners::agent::{Agent, AgentEvent, ExecStatus, ReplanReason, TickStatus};
use state_atomic::{ActionSet, WorldState};

/// A door (shared, owned by the world) between the agent and its food.
fn house() -> Arc<ActionSet> {
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("door_open").unwrap();
    a.declare_shared("alarm").unwrap();
    a.add_action("open_door", 1)
        .pre("door_open", false)
        .eff("door_open", true);
    a.add_action("enter", 1)
        .pre("door_open", true)
        .eff("inside", true);
    a.add_action("eat", 1).pre("inside", true).eff("fed", true);
    a.add_action("hide", 1)
        .pre("inside", true)
        .eff("safe", true);
    a.add_action("pray", 1)
        .pre("miracle", true)
        .eff("rich", true);
    a.declare("miracle").unwrap();
    Arc::new(a)
}

/// Records every event as text.
fn recorder(agent: &mut Agent<ActionSet>) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&log);
    agent.observe(move |event: &AgentEvent<'_>| {
        let line = match event {
            AgentEvent::PlanFound {
                goal,
                actions,
                cost,
            } => {
                format!("plan {goal}: {} ({cost})", actions.join(" "))
            }
            AgentEvent::NoPlan { goal, outcome } => format!("no plan {goal}: {outcome}"),
            AgentEvent::Replanning { goal, reason } => format!("replan {goal}: {reason:?}"),
            AgentEvent::ActionStarted { action } => format!("start {action}"),
            AgentEvent::ActionFinished { action } => format!("finish {action}"),
            AgentEvent::ActionFailed { action } => format!("fail {action}"),
            AgentEvent::GoalReached { goal } => format!("reached {goal}"),
            AgentEvent::PlanningAbandoned { goal, expanded, .. } => {
                format!("abandoned {goal} after {expanded}")
            }
            other => format!("{other:?}"),
        };
        sink.lock().unwrap().push(line);
    });
    log
}

fn run(agent: &mut Agent<ActionSet>, world: &mut WorldState, ticks: usize) -> TickStatus {
    let mut status = TickStatus::Acting;
    for _ in 0..ticks {
        status = agent.tick(world).unwrap();
        if status != TickStatus::Acting {
            break;
        }
    }
    status
}

#[test]
fn follows_a_plan_to_the_goal() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
    // The door is shared: opening it changed the world.
    assert!(world.satisfies(&actions.partial([("door_open", true)]).unwrap()));
    assert!(agent
        .own_state()
        .satisfies(&actions.partial([("fed", true)]).unwrap()));
    assert_eq!(
        *log.lock().unwrap(),
        [
            "plan eat: open_door enter eat (3)",
            "start open_door",
            "finish open_door",
            "start enter",
            "finish enter",
            "start eat",
            "finish eat",
            "reached eat",
        ]
    );
}

#[test]
fn replans_when_an_action_fails() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let mut tries = 0;
    agent
        .bind("enter", move |_: &WorldState| {
            tries += 1;
            if tries == 1 {
                ExecStatus::Failure
            } else {
                ExecStatus::Success
            }
        })
        .unwrap();
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
    let log = log.lock().unwrap();
    let at = log.iter().position(|l| l == "fail enter").unwrap();
    assert_eq!(log[at + 1], "replan eat: ActionFailed");
    // The door stayed open, so the new plan starts at `enter`.
    assert_eq!(log[at + 2], "plan eat: enter eat (2)");
    assert_eq!(log.last().unwrap(), "reached eat");
}

#[test]
fn replans_when_the_world_breaks_a_precondition() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    agent.tick(&mut world).unwrap(); // open_door
    assert_eq!(agent.remaining_plan(), ["enter", "eat"]);
    world = actions.state([]).unwrap(); // the wind shuts the door
    agent.tick(&mut world).unwrap();
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
    let log = log.lock().unwrap();
    assert!(
        log.contains(&"replan eat: PreconditionInvalidated".to_owned()),
        "{log:?}"
    );
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("finish open_door"))
            .count(),
        2
    );
}

#[test]
fn a_more_important_goal_takes_over() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let alarm = actions.partial([("alarm", true)]).unwrap();
    agent.add_goal_when(
        "hide",
        actions.partial([("safe", true)]).unwrap(),
        10,
        move |view: &WorldState| view.satisfies(&alarm),
    );
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    agent.tick(&mut world).unwrap(); // open_door
    agent.tick(&mut world).unwrap(); // enter
    assert_eq!(agent.current_goal(), Some("eat"));
    world = world.with(actions.registry().atom("alarm").unwrap(), true);
    agent.tick(&mut world).unwrap();
    // `hide` took one tick and finished, and eating was planned anew in it.
    assert_eq!(agent.current_goal(), Some("eat"));
    assert_eq!(agent.remaining_plan(), ["eat"]);
    let log = log.lock().unwrap();
    let at = log.iter().position(|l| l.starts_with("replan")).unwrap();
    assert_eq!(log[at], "replan eat: HigherPriorityGoal");
    assert_eq!(log[at + 1], "plan hide: hide (1)");
    assert!(agent
        .own_state()
        .satisfies(&actions.partial([("safe", true)]).unwrap()));
    drop(log);
    assert_eq!(run(&mut agent, &mut world, 10), TickStatus::Idle);
}

#[test]
fn a_goal_with_no_plan_is_reported_and_the_next_is_tried() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("get rich", actions.partial([("rich", true)]).unwrap(), 5);
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    agent.tick(&mut world).unwrap();
    assert_eq!(agent.current_goal(), Some("eat"));
    assert_eq!(log.lock().unwrap()[0], "no plan get rich: unsolvable");
    // Once fed, only the impossible goal is left.
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Stuck);
}

#[test]
fn one_action_set_different_executors_per_agent() {
    let mut a = ActionSet::<u64>::new();
    a.add_action("attack", 1).eff("enemy_down", true);
    let actions = Arc::new(a);
    let calls = Arc::new(Mutex::new(Vec::new()));
    let mut agents: Vec<Agent<ActionSet>> = ["archer", "gunner"]
        .into_iter()
        .map(|who| {
            let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
            agent.add_goal("win", actions.partial([("enemy_down", true)]).unwrap(), 1);
            let calls = Arc::clone(&calls);
            agent
                .bind("attack", move |_: &WorldState| {
                    calls.lock().unwrap().push(who);
                    ExecStatus::Success
                })
                .unwrap();
            agent
        })
        .collect();
    let mut world = actions.state([]).unwrap();
    for agent in &mut agents {
        agent.tick(&mut world).unwrap();
    }
    assert_eq!(*calls.lock().unwrap(), ["archer", "gunner"]);
    assert!(agents
        .iter_mut()
        .all(|a| a.tick(&mut world).unwrap() == TickStatus::Idle));
    assert!(agents[0]
        .bind("teleport", |_: &WorldState| ExecStatus::Success)
        .is_err());
    let _ = ReplanReason::ActionFailed; // every reason has a Display
    assert!(!ReplanReason::HigherPriorityGoal.to_string().is_empty());
}

#[test]
fn factored_agents_share_world_variables() {
    use state_factored::{Action, Domain, Predicate, Schema};
    let mut schema = Schema::new();
    let gold = schema.int("gold").unwrap();
    let ore = schema.int("ore_left").unwrap();
    schema.share("ore_left").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(
            Action::builder("mine")
                .cost(2)
                .pre(Predicate::ge("ore_left", 1))
                .increase("gold", 10)
                .decrease("ore_left", 1),
        )
        .unwrap();
    let domain = Arc::new(domain);
    let goal = domain.goal([Predicate::ge("gold", 20)]).unwrap();
    let start = domain.schema().state().set("ore_left", 3).build().unwrap();
    let mut world = start.clone();
    let mut miners: Vec<Agent<Domain>> = (0..2)
        .map(|_| {
            let mut agent = Agent::new(Arc::clone(&domain), start.clone());
            agent.add_goal("get rich", goal.clone(), 1);
            agent
        })
        .collect();
    // Both plan to mine twice, but the mine (shared) holds three ore.
    let mut last = Vec::new();
    for _ in 0..4 {
        last = miners
            .iter_mut()
            .map(|m| m.tick(&mut world).unwrap())
            .collect();
    }
    assert_eq!(world.int(ore), 0);
    let golds: Vec<i64> = miners.iter().map(|m| m.own_state().int(gold)).collect();
    assert_eq!(golds, [20, 10]);
    assert_eq!(last, [TickStatus::Idle, TickStatus::Stuck]);
}

/// Every observer hears every event, in the order they were added; a later
/// one does not replace an earlier one.
#[test]
fn several_observers_all_hear_every_event() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let first = recorder(&mut agent);
    let second = recorder(&mut agent);
    let order = Arc::new(Mutex::new(Vec::new()));
    for who in ["a", "b"] {
        let sink = Arc::clone(&order);
        agent.observe(move |_: &AgentEvent<'_>| sink.lock().unwrap().push(who));
    }
    let mut world = actions.state([]).unwrap();
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
    let first = first.lock().unwrap().clone();
    assert!(first.iter().any(|line| line == "reached eat"), "{first:?}");
    assert_eq!(first, *second.lock().unwrap());
    let order = order.lock().unwrap();
    assert_eq!(order.len(), 2 * first.len());
    assert!(order.chunks(2).all(|pair| pair == ["a", "b"]), "{order:?}");
}

/// The shop is closed, so the agent forages (cost 22 in all); after its
/// first step the shop opens. With `cheaper_by` it drops the rest (21) for
/// buying (4); without a policy it keeps foraging.
#[test]
fn a_cheaper_plan_replaces_the_current_one_when_the_policy_asks() {
    use planners::agent::ReplanPolicy;
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("shop_open").unwrap();
    a.add_action("go_forest", 1).eff("in_forest", true);
    a.add_action("forage", 20)
        .pre("in_forest", true)
        .eff("has_food", true);
    a.add_action("buy", 3)
        .pre("shop_open", true)
        .eff("has_food", true);
    a.add_action("eat", 1)
        .pre("has_food", true)
        .eff("fed", true);
    let actions = Arc::new(a);
    for policy in [
        None,
        Some(ReplanPolicy {
            cheaper_by: Some(5),
            ..ReplanPolicy::default()
        }),
    ] {
        let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
        agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
        if let Some(policy) = policy {
            agent.set_replan_policy(policy);
        }
        let log = recorder(&mut agent);
        let mut world = actions.state([]).unwrap();
        assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
        world = actions.state(["shop_open"]).unwrap();
        assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
        let log = log.lock().unwrap();
        let started: Vec<&str> = log
            .iter()
            .filter_map(|l| l.strip_prefix("start "))
            .collect();
        if policy.is_some() {
            assert_eq!(started, ["go_forest", "buy", "eat"], "{log:?}");
            assert!(
                log.contains(&"replan eat: CheaperPlan".to_owned()),
                "{log:?}"
            );
        } else {
            assert_eq!(started, ["go_forest", "forage", "eat"], "{log:?}");
        }
    }
}

/// `every_ticks` replans between actions once the period has passed.
#[test]
fn a_periodic_policy_replans_between_actions() {
    use planners::agent::ReplanPolicy;
    let mut a = ActionSet::<u64>::new();
    a.add_action("one", 1).eff("a", true);
    a.add_action("two", 1).pre("a", true).eff("b", true);
    a.add_action("three", 1).pre("b", true).eff("c", true);
    a.add_action("four", 1).pre("c", true).eff("d", true);
    let actions = Arc::new(a);
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("d", actions.partial([("d", true)]).unwrap(), 1);
    agent.set_replan_policy(ReplanPolicy {
        every_ticks: Some(2),
        ..ReplanPolicy::default()
    });
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    assert_eq!(run(&mut agent, &mut world, 20), TickStatus::Idle);
    let log = log.lock().unwrap();
    let periodic = log.iter().filter(|l| *l == "replan d: Periodic").count();
    assert_eq!(periodic, 1, "{log:?}");
    let started: Vec<&str> = log
        .iter()
        .filter_map(|l| l.strip_prefix("start "))
        .collect();
    assert_eq!(started, ["one", "two", "three", "four"], "{log:?}");
}

/// The agent's plan when it plans with `budget`: the first plan found, the
/// ticks spent planning before it, and every event.
fn plan_with(
    budget: planners::agent::PlanningBudget,
    problem: &state_atomic::problems::Problem,
) -> (Vec<String>, usize) {
    let actions = Arc::new(problem.actions.clone());
    let mut agent = Agent::new(Arc::clone(&actions), problem.start);
    agent.add_goal("far", problem.goal, 1);
    agent.set_planning_budget(budget);
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    let mut planning = 0;
    while agent.tick(&mut world).unwrap() == TickStatus::Planning {
        planning += 1;
        assert!(planning < 100_000, "never planned");
    }
    let log = log.lock().unwrap().clone();
    (log, planning)
}

/// A plan sliced over more than a hundred ticks is the plan of one tick.
#[test]
fn a_search_sliced_over_ticks_finds_the_plan_of_one_tick() {
    use planners::agent::PlanningBudget;
    use planners::Budget;
    let problem = state_atomic::problems::chains::<u64>(24, 3).unwrap();
    let (whole, planning) = plan_with(PlanningBudget::default(), &problem);
    assert_eq!(planning, 0);
    let (sliced, planning) = plan_with(
        PlanningBudget {
            per_tick: Some(Budget::Expansions(2)),
            watchdog: None,
        },
        &problem,
    );
    assert!(planning >= 100, "{planning} ticks");
    assert!(whole[0].starts_with("plan far: "), "{whole:?}");
    assert_eq!(sliced[0], whole[0]);
}

/// A search cut off by the tick's budget goes on where it stopped: an
/// agent with five expansions a tick still gets its plan (it used to
/// restart from zero every tick and stay stuck).
#[test]
fn a_small_budget_per_tick_still_reaches_the_goal() {
    use planners::agent::PlanningBudget;
    use planners::Budget;
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(1)),
        watchdog: None,
    });
    let mut world = actions.state([]).unwrap();
    let mut statuses = Vec::new();
    for _ in 0..30 {
        statuses.push(agent.tick(&mut world).unwrap());
    }
    assert!(statuses.contains(&TickStatus::Planning), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&TickStatus::Idle), "{statuses:?}");
}

/// A search that passes the watchdog is abandoned with an event; the next
/// goal is tried, and the abandoned one waits until the view changes.
#[test]
fn the_watchdog_abandons_a_search_and_the_next_goal_is_tried() {
    use planners::agent::PlanningBudget;
    use planners::Budget;
    let problem = state_atomic::problems::chains::<u64>(24, 3).unwrap();
    let mut actions = problem.actions.clone();
    actions.add_action("rest", 1).eff("rested", true);
    let actions = Arc::new(actions);
    let mut agent = Agent::new(Arc::clone(&actions), problem.start);
    agent.add_goal("far", problem.goal, 2);
    agent.add_goal("rest", actions.partial([("rested", true)]).unwrap(), 1);
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(4)),
        watchdog: Some(Budget::Expansions(10)),
    });
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(agent.tick(&mut world).unwrap());
    }
    let log = log.lock().unwrap().clone();
    // Three ticks of four expansions pass the watchdog's ten; that tick's
    // budget is spent, so resting is planned in the next.
    assert_eq!(log[0], "abandoned far after 12", "{log:?}");
    assert_eq!(log[1], "plan rest: rest (1)", "{log:?}");
    let planning = TickStatus::Planning;
    assert_eq!(
        statuses[..4],
        [planning, planning, planning, TickStatus::Acting],
        "{log:?}"
    );
    // Resting changed the view, so the far goal is tried again.
    assert_eq!(statuses[4], planning, "{log:?}");
}

/// A goal with no plan is reported once, not replanned every tick while
/// nothing changes.
#[test]
fn a_goal_with_no_plan_is_not_replanned_while_the_view_stays() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("get rich", actions.partial([("rich", true)]).unwrap(), 5);
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    for _ in 0..5 {
        assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Stuck);
    }
    assert_eq!(*log.lock().unwrap(), ["no plan get rich: unsolvable"]);
    // A miracle: the view changed, so it plans again (and now succeeds).
    agent.set_own_state(actions.state(["miracle"]).unwrap());
    assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
    assert_eq!(log.lock().unwrap()[1], "plan get rich: pray (1)");
}

/// The game's context reaches sensors and executors without shared locks.
#[test]
fn sensors_and_executors_use_the_context_the_caller_lends() {
    struct Game {
        noise: bool,
        shots: Vec<&'static str>,
    }
    let mut a = ActionSet::<u64>::new();
    a.add_action("investigate", 2)
        .pre("heard_noise", true)
        .eff("area_checked", true);
    let actions = Arc::new(a);
    let heard = actions.registry().atom("heard_noise").unwrap();
    let mut guard: Agent<ActionSet, Game> =
        Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    guard.add_goal_when(
        "check",
        actions.partial([("area_checked", true)]).unwrap(),
        1,
        move |view: &WorldState| view.get(heard),
    );
    guard.add_sensor(move |game: &Game, beliefs: &mut WorldState| {
        if game.noise {
            *beliefs = beliefs.with(heard, true);
        }
    });
    guard
        .bind_executor("investigate", |_: &WorldState, game: &mut Game| {
            game.shots.push("investigate");
            ExecStatus::Success
        })
        .unwrap();
    let mut world = actions.state([]).unwrap();
    let mut game = Game {
        noise: false,
        shots: Vec::new(),
    };
    assert_eq!(
        guard.tick_with(&mut world, &mut game).unwrap(),
        TickStatus::Idle
    );
    game.noise = true;
    assert_eq!(
        guard.tick_with(&mut world, &mut game).unwrap(),
        TickStatus::Acting
    );
    assert_eq!(game.shots, ["investigate"]);
}

/// With `on_change`, a change the plan did not make to an atom some action
/// reads replans; a change to an atom nothing reads does not.
#[test]
fn on_change_replans_only_for_atoms_a_plan_reads() {
    use planners::agent::ReplanPolicy;
    let mut a = ActionSet::<u64>::new();
    a.declare_shared("music").unwrap();
    a.declare_shared("river_wild").unwrap();
    a.add_action("walk", 1).eff("at_bridge", true);
    a.add_action("cross", 1)
        .pre("at_bridge", true)
        .eff("across", true);
    a.add_action("swim", 5)
        .pre("river_wild", false)
        .eff("across", true);
    let actions = Arc::new(a);
    for (atom, replans) in [("music", false), ("river_wild", true)] {
        let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
        agent.add_goal("across", actions.partial([("across", true)]).unwrap(), 1);
        agent.set_replan_policy(ReplanPolicy {
            on_change: true,
            ..ReplanPolicy::default()
        });
        let log = recorder(&mut agent);
        let mut world = actions.state([]).unwrap();
        agent.tick(&mut world).unwrap(); // plans walk, cross; walks
        world = actions.state([atom]).unwrap();
        assert_eq!(run(&mut agent, &mut world, 10), TickStatus::Idle);
        let log = log.lock().unwrap();
        let replanned = log.iter().any(|l| l == "replan across: WorldChanged");
        assert_eq!(replanned, replans, "{atom}: {log:?}");
        assert!(log.iter().all(|l| l != "start swim"), "{log:?}");
    }
}

/// Agents are `Send + Sync` (ECS components) and tick on several threads.
#[test]
fn agents_tick_on_several_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Agent<ActionSet>>();
    send_and_sync::<Agent<state_factored::Domain, Vec<u8>>>();
    let actions = house();
    let mut agents: Vec<Agent<ActionSet>> = (0..4)
        .map(|_| {
            let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
            agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
            agent
        })
        .collect();
    std::thread::scope(|scope| {
        for pair in agents.chunks_mut(2) {
            let actions = Arc::clone(&actions);
            scope.spawn(move || {
                for agent in pair {
                    // Each thread's agents share a world of their own.
                    let mut world = actions.state([]).unwrap();
                    assert_eq!(run(agent, &mut world, 20), TickStatus::Idle);
                }
            });
        }
    });
    assert!(agents.iter().all(|a| a.current_goal().is_none()));
}

/// The debug view: an agent that records traces keeps its last plan with
/// the search behind it, and a search sliced over ticks leaves the trace a
/// single call gives (text and DOT alike).
#[test]
fn the_last_plan_carries_the_trace_of_one_call() {
    use planners::agent::PlanningBudget;
    use planners::{Budget, Planner, PlannerConfig};
    let problem = state_atomic::problems::chains::<u64>(6, 3).unwrap();
    let actions = Arc::new(problem.actions.clone());
    let planner = Planner::new(PlannerConfig::default());
    let (report, whole) = planner
        .plan_traced(&*actions, &problem.start, &problem.goal)
        .unwrap();
    let whole = whole.unwrap();

    let mut agent = Agent::new(Arc::clone(&actions), problem.start);
    agent.add_goal("far", problem.goal, 1);
    assert!(agent.last_plan().is_none());
    agent
        .record_traces(true)
        .set_planning_budget(PlanningBudget {
            per_tick: Some(Budget::Expansions(2)),
            watchdog: None,
        });
    let mut world = actions.state([]).unwrap();
    let mut planning = 0;
    while agent.tick(&mut world).unwrap() == TickStatus::Planning {
        planning += 1;
    }
    assert!(planning > 5, "{planning} ticks");
    let last = agent.last_plan().unwrap();
    let plan = report.plan().unwrap();
    assert_eq!(last.goal, "far");
    assert_eq!(last.cost, plan.cost);
    assert_eq!(last.actions, plan.names(&*actions));
    let trace = last.trace.as_ref().unwrap();
    assert_eq!(trace.to_text(), whole.to_text());
    assert_eq!(trace.to_dot(), whole.to_dot());
    assert!(last.to_string().starts_with("far: "));

    // Without `record_traces` the plan is kept, its trace is not.
    let mut quiet = Agent::new(Arc::clone(&actions), problem.start);
    quiet.add_goal("far", problem.goal, 1);
    quiet.tick(&mut world).unwrap();
    assert!(quiet.last_plan().is_some_and(|last| last.trace.is_none()));
}

/// A more important goal found to have no plan from the very view the
/// agent is in does not drop its plan: a long action is not dropped and
/// started over every tick (it used to be).
#[test]
fn a_goal_with_no_plan_does_not_interrupt_a_running_action() {
    let actions = house();
    let mut agent = Agent::new(Arc::clone(&actions), actions.state([]).unwrap());
    agent.add_goal("get rich", actions.partial([("rich", true)]).unwrap(), 5);
    agent.add_goal("eat", actions.partial([("fed", true)]).unwrap(), 1);
    let mut knocks = 0;
    agent
        .bind("open_door", move |_: &WorldState| {
            knocks += 1;
            if knocks < 4 {
                ExecStatus::Running
            } else {
                ExecStatus::Success
            }
        })
        .unwrap();
    let log = recorder(&mut agent);
    let mut world = actions.state([]).unwrap();
    for _ in 0..4 {
        assert_eq!(agent.tick(&mut world).unwrap(), TickStatus::Acting);
    }
    let log = log.lock().unwrap();
    assert_eq!(
        log[..4],
        [
            "no plan get rich: unsolvable",
            "plan eat: open_door enter eat (3)",
            "start open_door",
            "finish open_door",
        ],
        "{log:?}"
    );
}
