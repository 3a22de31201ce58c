//! Planning sliced across ticks (`PlanJob`): the same plan as one call,
//! the planner's limits over the whole job, and clear refusals.

use std::sync::Arc;
use std::time::Duration;

use std::sync::atomic::{AtomicUsize, Ordering};

use planners::heuristics::{heuristic, AtomicFactory, NamedHeuristic};
use planners::{
    BoxedHeuristic, Budget, Direction, PlanError, PlanJob, PlanOutcome, Planner, PlannerConfig,
};
use search_core::{Algorithm, Limit, SearchLimits};
use state_atomic::{problems, ActionSet, Bits, PartialState, RelaxedForward, WorldState};
use state_factored::{Action, Domain, Predicate, Schema};

fn planner(direction: Direction, name: &str) -> Planner<'static, state_atomic::ActionSet> {
    Planner::new(PlannerConfig {
        direction,
        heuristic: heuristic(name).unwrap(),
        ..PlannerConfig::default()
    })
}

/// Advances `job` with `budget` until it ends; returns the report and the
/// number of slices.
fn run_sliced<D: planners::PlanningDomain>(
    job: &mut PlanJob<D>,
    planner: &Planner<'_, D>,
    budget: Budget,
) -> (planners::PlanReport<D::ActionId>, usize) {
    let mut slices = 0;
    loop {
        slices += 1;
        assert!(slices < 1_000_000, "a sliced plan never ended");
        if let Some(report) = job.advance(planner, budget).unwrap() {
            return (report, slices);
        }
    }
}

#[test]
fn a_hard_plan_sliced_over_a_hundred_ticks_is_the_plan_of_one_call() {
    let problem = problems::chains::<u64>(24, 3).unwrap();
    let actions = Arc::new(problem.actions.clone());
    for direction in [
        Direction::Forward,
        Direction::Regression,
        Direction::Portfolio,
    ] {
        for name in ["blind", "hmax", "ff", "lmcut"] {
            let planner = planner(direction, name);
            let whole = planner
                .plan(&*actions, &problem.start, &problem.goal)
                .unwrap();
            let expanded = whole.forward.as_ref().map_or(0, |s| s.expanded)
                + whole.regression.as_ref().map_or(0, |s| s.expanded);
            let budget = (expanded / 120).max(1);
            let mut job = PlanJob::new(Arc::clone(&actions), problem.start, problem.goal);
            let (sliced, ticks) = run_sliced(&mut job, &planner, Budget::Expansions(budget));
            let at = format!("{direction:?} {name}: {expanded} expansions, {ticks} ticks");
            let plan = sliced.plan().unwrap();
            let cost = planners::validate(&*actions, &problem.start, &problem.goal, &plan.actions);
            assert_eq!(cost.unwrap(), whole.plan().unwrap().cost, "{at}");
            if direction != Direction::Portfolio {
                // A portfolio's winner (and so its plan among the optimal
                // ones) depends on which direction ends first.
                assert_eq!(sliced.plan(), whole.plan(), "{at}");
                assert_eq!(sliced.direction, whole.direction, "{at}");
                // One direction expands exactly as one call does.
                assert_eq!(
                    sliced.forward.as_ref().map(|s| s.expanded),
                    whole.forward.as_ref().map(|s| s.expanded),
                    "{at}"
                );
                assert_eq!(
                    sliced.regression.as_ref().map(|s| s.expanded),
                    whole.regression.as_ref().map(|s| s.expanded),
                    "{at}"
                );
                let fewest = usize::try_from(expanded).unwrap().min(100);
                assert!(ticks >= fewest, "{at}");
                assert_eq!(job.spent().0, expanded, "{at}");
            }
            // A finished job gives its report again.
            let again = job
                .advance(&planner, Budget::Expansions(1))
                .unwrap()
                .unwrap();
            assert_eq!(again.plan(), sliced.plan(), "{at}");
        }
    }
}

#[test]
fn a_time_budget_slices_and_ends() {
    let problem = problems::chains::<u64>(24, 3).unwrap();
    let actions = Arc::new(problem.actions.clone());
    let planner = planner(Direction::Forward, "hmax");
    let whole = planner
        .plan(&*actions, &problem.start, &problem.goal)
        .unwrap();
    let mut job = PlanJob::new(actions, problem.start, problem.goal);
    let (sliced, _) = run_sliced(&mut job, &planner, Budget::Time(Duration::from_micros(50)));
    assert_eq!(sliced.plan(), whole.plan());
}

#[test]
fn the_planner_limits_hold_over_the_whole_job() {
    let problem = problems::chains::<u64>(24, 3).unwrap();
    let actions = Arc::new(problem.actions.clone());
    let planner = Planner::new(PlannerConfig {
        limits: SearchLimits {
            max_expansions: Some(5),
            ..SearchLimits::default()
        },
        ..PlannerConfig::default()
    });
    let mut job = PlanJob::new(actions, problem.start, problem.goal);
    let (report, slices) = run_sliced(&mut job, &planner, Budget::Expansions(1));
    assert_eq!(
        report.outcome,
        PlanOutcome::LimitReached {
            limit: Limit::Expansions,
            best: None,
        }
    );
    assert_eq!(report.forward.unwrap().expanded, 5);
    assert_eq!(slices, 6, "five slices of one expansion, then the limit");
}

#[test]
fn lazy_greedy_search_is_refused_by_name() {
    for algorithm in [Algorithm::LazyGreedy, Algorithm::LazyTypeBased] {
        let problem = problems::hungry_agent::<u64>().unwrap();
        let planner = Planner::new(PlannerConfig {
            algorithm,
            heuristic: heuristic("ff").unwrap(),
            ..PlannerConfig::default()
        });
        let mut job = PlanJob::new(Arc::new(problem.actions), problem.start, problem.goal);
        let error = job.advance(&planner, Budget::Expansions(10)).unwrap_err();
        assert!(matches!(error, PlanError::NotSliced { .. }), "{error}");
        assert!(
            error.to_string().contains(&algorithm.to_string()),
            "{error}"
        );
    }
}

#[test]
fn a_sliced_portfolio_plans_forward_with_a_note_where_regression_cannot_run() {
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(Action::builder("mine").cost_fn(|_| 3).increase("gold", 25))
        .unwrap();
    let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
    let start = domain.schema().default_state();
    let planner = Planner::new(PlannerConfig {
        direction: Direction::Portfolio,
        ..PlannerConfig::default()
    });
    let mut job = PlanJob::new(Arc::new(domain), start, goal);
    let (report, _) = run_sliced(&mut job, &planner, Budget::Expansions(1));
    assert_eq!(report.plan().unwrap().cost, 9);
    assert_eq!(report.direction, Direction::Forward);
    assert!(
        report.notes.iter().any(|n| n.contains("forward only")),
        "{:?}",
        report.notes
    );
}

#[test]
fn a_plan_job_can_move_between_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<PlanJob<state_atomic::ActionSet>>();
    send_and_sync::<PlanJob<Domain>>();
}

/// `h_max` forward, counting the heuristics it makes: owned ones (when
/// `owned`) and borrowing ones.
struct Counted {
    owned: bool,
    made_owned: Arc<AtomicUsize>,
    made_borrowing: Arc<AtomicUsize>,
}

impl AtomicFactory for Counted {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        self.made_borrowing.fetch_add(1, Ordering::Relaxed);
        Some(Box::new(RelaxedForward::h_max(actions, goal.clone())))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }

    fn forward_owned<B: Bits>(
        &self,
        actions: &ActionSet<B>,
        _: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        if !self.owned {
            return None;
        }
        self.made_owned.fetch_add(1, Ordering::Relaxed);
        Some(Box::new(RelaxedForward::h_max(actions, goal.clone())))
    }
}

#[test]
fn a_sliced_job_keeps_an_owned_heuristic_across_slices_and_replans() {
    let problem = problems::chains::<u64>(24, 3).unwrap();
    let actions = Arc::new(problem.actions.clone());
    for owned in [true, false] {
        let (made_owned, made_borrowing) = (Arc::default(), Arc::default());
        let counted = NamedHeuristic::builder("counted-hmax", "h_max, counted")
            .admissible()
            .atomic(Counted {
                owned,
                made_owned: Arc::clone(&made_owned),
                made_borrowing: Arc::clone(&made_borrowing),
            })
            .build();
        let planner = Planner::new(PlannerConfig {
            heuristic: counted,
            ..PlannerConfig::default()
        });
        let whole = planner
            .plan(&*actions, &problem.start, &problem.goal)
            .unwrap();
        let at_once = made_borrowing.load(Ordering::Relaxed);
        let mut job = PlanJob::new(Arc::clone(&actions), problem.start, problem.goal);
        let (in_slices, ticks) = run_sliced(&mut job, &planner, Budget::Expansions(2));
        assert!(ticks > 10, "{ticks} ticks");
        let expanded = |report: &planners::PlanReport<_>| report.forward.as_ref().unwrap().expanded;
        assert_eq!(in_slices.plan(), whole.plan());
        assert_eq!(expanded(&in_slices), expanded(&whole));
        let made = |counter: &AtomicUsize| counter.load(Ordering::Relaxed);
        if owned {
            assert_eq!((made(&made_owned), made(&made_borrowing)), (1, at_once));
        } else {
            // Without an owned form each slice makes the heuristic anew.
            assert_eq!(made(&made_borrowing), at_once + ticks);
        }

        // Replanning toward the same goal from the middle of the plan
        // keeps the owned heuristic and finds the rest of the plan.
        let plan = whole.plan().unwrap();
        let middle = actions
            .replay(problem.start, &plan.actions[..plan.actions.len() / 2])
            .unwrap();
        let rest = planner.plan(&*actions, &middle, &problem.goal).unwrap();
        let borrowing_before = made(&made_borrowing);
        job.replan(middle);
        assert!(!job.is_finished());
        let (replanned, more) = run_sliced(&mut job, &planner, Budget::Expansions(2));
        assert_eq!(replanned.plan(), rest.plan());
        assert_eq!(expanded(&replanned), expanded(&rest));
        assert_eq!(job.spent().0, expanded(&rest));
        if owned {
            assert_eq!(made(&made_owned), 1, "kept over the replan");
        } else {
            assert_eq!(made(&made_borrowing), borrowing_before + more);
        }
    }
}

#[test]
fn an_agent_replanning_its_goal_keeps_the_heuristic_of_its_last_sliced_search() {
    use planners::agent::{Agent, ExecStatus, PlanningBudget, TickStatus};

    let mut chain = ActionSet::<u64>::new();
    for i in 0..6 {
        chain
            .add_action(&format!("step{i}"), 1)
            .pre(&format!("s{i}"), true)
            .eff(&format!("s{}", i + 1), true);
    }
    let actions = Arc::new(chain);
    let made_owned = Arc::new(AtomicUsize::new(0));
    let counted = NamedHeuristic::builder("counted-hmax", "h_max, counted")
        .admissible()
        .atomic(Counted {
            owned: true,
            made_owned: Arc::clone(&made_owned),
            made_borrowing: Arc::default(),
        })
        .build();
    let start = actions.state(["s0"]).unwrap();
    let mut agent = Agent::new(Arc::clone(&actions), start);
    agent.set_planner(PlannerConfig {
        heuristic: counted,
        ..PlannerConfig::default()
    });
    agent.add_goal("walk", actions.partial([("s6", true)]).unwrap(), 1);
    agent.set_planning_budget(PlanningBudget {
        per_tick: Some(Budget::Expansions(2)),
        watchdog: None,
    });
    for action in actions.iter() {
        agent
            .bind(&action.name, |_: &WorldState| ExecStatus::Success)
            .unwrap();
    }
    let mut world = actions.state([]).unwrap();
    for walk in 1..=2 {
        let mut planning = 0;
        for _ in 0..100 {
            match agent.tick(&mut world).unwrap() {
                TickStatus::Planning => planning += 1,
                TickStatus::Idle => break,
                _ => {}
            }
        }
        assert!(planning > 1, "walk {walk}: the search was sliced");
        assert!(agent
            .own_state()
            .satisfies(&actions.partial([("s6", true)]).unwrap()));
        // The same heuristic served both walks' searches.
        assert_eq!(made_owned.load(Ordering::Relaxed), 1, "walk {walk}");
        agent.set_own_state(start);
    }
}

/// Gold and wood to gather: a few dozen states, several ways to order.
fn camp() -> (Domain, state_factored::State, state_factored::Goal) {
    let mut schema = Schema::new();
    schema.int("gold").unwrap();
    schema.int("wood").unwrap();
    schema.bool("fire").unwrap();
    let mut domain = Domain::new(schema);
    domain
        .add_action(Action::builder("mine").cost(3).increase("gold", 25))
        .unwrap();
    domain
        .add_action(Action::builder("chop").cost(2).increase("wood", 10))
        .unwrap();
    domain
        .add_action(
            Action::builder("light")
                .cost(1)
                .pre(Predicate::ge("wood", 20))
                .decrease("wood", 20)
                .set("fire", true),
        )
        .unwrap();
    let goal = domain
        .goal([
            Predicate::ge("gold", 50),
            Predicate::ge("wood", 10),
            Predicate::eq("fire", true),
        ])
        .unwrap();
    let start = domain.schema().default_state();
    (domain, start, goal)
}

#[test]
fn a_factored_plan_sliced_is_the_plan_of_one_call_with_each_kept_heuristic() {
    let hitman = state_factored::problems::hitman().unwrap();
    let (camp, camp_start, camp_goal) = camp();
    for (domain, start, goal) in [
        (hitman.domain, hitman.start, hitman.goal),
        (camp, camp_start, camp_goal),
    ] {
        let domain = Arc::new(domain);
        for direction in [Direction::Forward, Direction::Regression] {
            // `mismatch`, `numeric` and `numeric-sum` keep copies of the
            // start and goal, `hrmax` its tables; `hmax` is made anew.
            for name in ["mismatch", "numeric", "numeric-sum", "hrmax", "hmax"] {
                let planner = Planner::new(PlannerConfig {
                    direction,
                    heuristic: heuristic(name).unwrap(),
                    ..PlannerConfig::default()
                });
                let at = format!("{direction:?} {name}");
                let whole = planner.plan(&*domain, &start, &goal).unwrap();
                let mut job = PlanJob::new(Arc::clone(&domain), start.clone(), goal.clone());
                let (sliced, ticks) = run_sliced(&mut job, &planner, Budget::Expansions(1));
                let expanded = |report: &planners::PlanReport<_>| {
                    report
                        .forward
                        .as_ref()
                        .or(report.regression.as_ref())
                        .map(|s| s.expanded)
                };
                assert!(whole.plan().is_some(), "{at}");
                assert_eq!(sliced.plan(), whole.plan(), "{at}");
                assert_eq!(expanded(&sliced), expanded(&whole), "{at}");
                assert!(ticks > 3, "{at}: {ticks} ticks");
            }
        }
    }
}
