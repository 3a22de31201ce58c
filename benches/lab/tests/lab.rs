//! A researcher's own `searchlab`: `Lab::new().heuristic(..)` adds a
//! heuristic that the default suite, suite files, `--configs` and `plan`
//! know, on every kind of problem its factories serve.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use planners::heuristics::{AtomicFactory, HeuristicFactory, NamedHeuristic, TaskView};
use planners::BoxedHeuristic;
use search_core::Admissible;
use searchlab_lab::record::read_jsonl;
use searchlab_lab::Lab;
use state_atomic::{ActionSet, Bits, PartialState, WorldState};

/// 1 while some goal condition is unmet: admissible with costs of 1 or
/// more. Written once, against `TaskView`.
struct Open;

impl HeuristicFactory for Open {
    fn forward<'a, T: TaskView>(
        &self,
        task: &'a T,
        _: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>> {
        Some(Box::new(Admissible(move |s: &T::State| {
            u32::from(!task.meets_goal(goal, s))
        })))
    }

    fn regression<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        _: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>> {
        Some(Box::new(Admissible(move |g: &T::Subgoal| {
            u32::from(!task.start_meets(start, g))
        })))
    }
}

fn open() -> NamedHeuristic {
    NamedHeuristic::builder("open", "1 until the goal holds")
        .admissible()
        .generic(Open)
        .build()
}

/// The wrong goal atoms, for atomic tasks of any width only.
struct Wrong;

impl AtomicFactory for Wrong {
    fn forward<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(move |s: &WorldState<B>| {
            ((s.bits() ^ goal.values()) & goal.care()).count_ones()
        }))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        Some(Box::new(move |g: &PartialState<B>| {
            ((start.bits() ^ g.values()) & g.care()).count_ones()
        }))
    }
}

fn wrong() -> NamedHeuristic {
    NamedHeuristic::builder("wrong", "wrong goal atoms")
        .forward_only()
        .atomic(Wrong)
        .build()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-lab-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn suite_file(dir: &Path, problems: &str, configs: &str) -> PathBuf {
    let path = dir.join("suite.toml");
    let text = format!("{problems}\n[[configs]]\n{configs}\n");
    std::fs::write(&path, text).unwrap();
    path
}

const REFERENCE: &str = "[[problems]]\ngenerator = \"reference\"\n";

/// A star of 70 places around a hub: 71 facts, so the task is grounded on
/// a two-word state.
fn wide_pddl_task(dir: &Path) -> String {
    let domain = "(define (domain star) (:requirements :strips)
      (:predicates (at ?x) (road ?x ?y))
      (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
        :effect (and (at ?y) (not (at ?x)))))";
    let mut objects = String::from("hub");
    let mut init = String::from("(at hub)");
    for i in 0..70 {
        let _ = write!(objects, " p{i}");
        let _ = write!(init, " (road hub p{i}) (road p{i} hub)");
    }
    let problem = format!(
        "(define (problem star70) (:domain star) (:objects {objects}) (:init {init}) (:goal (and (at p69))))"
    );
    std::fs::write(dir.join("domain.pddl"), domain).unwrap();
    std::fs::write(dir.join("star70.pddl"), problem).unwrap();
    "[[problems]]\npddl_domain = \"domain.pddl\"\npddl_problems = [\"star70.pddl\"]\n".to_owned()
}

fn bench(lab: Lab, suite: &Path, out: &Path) -> ExitCode {
    lab.run([
        "searchlab",
        "bench",
        suite.to_str().unwrap(),
        "--no-progress",
        "--in-process",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn a_heuristic_written_once_runs_on_atomic_wide_factored_and_pddl_problems_both_ways() {
    let dir = scratch("everywhere");
    let problems = format!("{REFERENCE}{}", wide_pddl_task(&dir));
    let suite = suite_file(
        &dir,
        &problems,
        "heuristics = [\"open\", \"hmax\"]\ndirections = [\"forward\", \"regression\"]",
    );
    let out = dir.join("out");
    assert_eq!(
        bench(Lab::new().heuristic(open()), &suite, &out),
        ExitCode::SUCCESS
    );
    let records = read_jsonl(&out.join("results.jsonl")).unwrap();
    for config in ["fwd-astar-open", "reg-astar-open"] {
        for problem in ["hungry-agent", "hitman", "star70"] {
            let record = records
                .iter()
                .find(|r| r.config == config && r.problem == problem)
                .unwrap_or_else(|| panic!("no run of {config} on {problem}"));
            assert!(record.solved(), "{config} on {problem}: {record:?}");
            assert_eq!(record.validated, Some(true));
            assert!(record.setup_time.is_some_and(|t| t <= record.time));
            let hmax = config.replace("open", "hmax");
            let optimal = records
                .iter()
                .find(|r| r.config == hmax && r.problem == problem)
                .unwrap();
            assert_eq!(record.cost, optimal.cost, "{config} on {problem}");
        }
    }
    let star = records.iter().find(|r| r.problem == "star70").unwrap();
    assert!(star.translator_time.is_some(), "star70 is a PDDL task");
}

#[test]
fn a_heuristic_for_one_representation_is_skipped_elsewhere_with_a_note() {
    let dir = scratch("skipped");
    let suite = suite_file(
        &dir,
        REFERENCE,
        "heuristics = [\"wrong\"]\ndirections = [\"forward\", \"regression\"]",
    );
    let mut registry = planners::heuristics::Registry::builtin();
    registry.add(wrong()).unwrap();
    let loaded = searchlab_lab::suite_file::load_suite_with(&suite, &registry).unwrap();
    let notes = loaded.skip_notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("fwd-astar-wrong skips 1 factored problem (wrong serves atomic problems in forward search only)"),
        "{notes:?}"
    );
    assert!(notes[1].contains("reg-astar-wrong skips"), "{notes:?}");
    // The forward runs happen on the atomic problems, none elsewhere.
    let runs = loaded.runs();
    assert!(runs
        .iter()
        .all(|r| loaded.configs[r.config].name == "fwd-astar-wrong"));
    assert_eq!(runs.len(), loaded.problems.len() - 1);
}

#[test]
fn a_suite_file_names_the_researchers_heuristic() {
    let dir = scratch("names");
    let path = suite_file(&dir, REFERENCE, "heuristics = [\"open\", \"hmax\"]");
    let args = [
        "searchlab",
        "bench",
        path.to_str().unwrap(),
        "--no-progress",
    ];
    assert_eq!(Lab::new().heuristic(open()).run(args), ExitCode::SUCCESS);
    // Without it, the name is unknown: an input error.
    assert_eq!(Lab::new().run(args), ExitCode::from(2));
}

#[test]
fn a_configuration_name_may_carry_the_researchers_heuristic() {
    let dir = scratch("by-name");
    let path = suite_file(
        &dir,
        REFERENCE,
        "names = [\"fwd-astar-open\", \"fwd-wastar2-open\"]",
    );
    let args = [
        "searchlab",
        "bench",
        path.to_str().unwrap(),
        "--no-progress",
    ];
    assert_eq!(Lab::new().heuristic(open()).run(args), ExitCode::SUCCESS);
}

#[test]
fn a_heuristic_whose_name_is_taken_is_an_input_error() {
    let taken = NamedHeuristic::builder("hmax", "mine")
        .generic(Open)
        .build();
    let lab = Lab::new().heuristic(taken);
    assert_eq!(lab.run(["searchlab", "heuristics"]), ExitCode::from(2));
}

#[test]
fn plan_and_heuristics_know_the_researchers_heuristic() {
    let lab = Lab::new().heuristic(open()).heuristic(wrong());
    let names = lab.heuristics().names();
    assert!(names.contains(&"open") && names.contains(&"hmax"));
    assert_eq!(lab.run(["searchlab", "heuristics"]), ExitCode::SUCCESS);
    let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/hungry_agent.toml");
    for heuristic in ["open", "wrong"] {
        let lab = Lab::new().heuristic(open()).heuristic(wrong());
        let args = [
            "searchlab",
            "plan",
            problems.to_str().unwrap(),
            "--heuristic",
            heuristic,
        ];
        assert_eq!(lab.run(args), ExitCode::SUCCESS, "{heuristic}");
    }
    // `wrong` does not serve regression: an input error, not a panic.
    let lab = Lab::new().heuristic(wrong());
    let args = [
        "searchlab",
        "plan",
        problems.to_str().unwrap(),
        "--heuristic",
        "wrong",
        "--direction",
        "regression",
    ];
    assert_eq!(lab.run(args), ExitCode::from(2));
}

#[test]
fn help_and_bad_flags_have_their_exit_codes() {
    assert_eq!(Lab::new().run(["searchlab", "--help"]), ExitCode::SUCCESS);
    assert_eq!(
        Lab::new().run(["searchlab", "bench", "--jobs", "x"]),
        ExitCode::from(2)
    );
}
