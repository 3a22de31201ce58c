//! The problem files under `problems/`: each loads, matches the built-in
//! reference problem, and plans to the optimal cost of DESIGN.md in every
//! direction; bad files give located errors; truncated and mutated files
//! give errors, never panics.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planners::problem::{load, parse, LoadedProblem, ProblemError};
use planners::{Direction, PlannerConfig, PlanningDomain};
use search_core::Algorithm;
use state_atomic::problems as atomic;
use state_factored::problems as factored;
use tests::heuristic;

/// Every shipped file with its optimal cost (DESIGN.md, "Reference
/// scenarios").
const OPTIMA: [(&str, u64); 7] = [
    ("hungry_agent.toml", 30),
    ("enemy_ship_aim.toml", 5),
    ("enemy_ship_chase.toml", 4),
    ("enemy_ship_evade.toml", 2),
    ("enemy_ship_shoot.toml", 2),
    ("consumed_fact.toml", 7),
    ("hitman.toml", 15),
];

const DIRECTIONS: [Direction; 3] = [
    Direction::Forward,
    Direction::Regression,
    Direction::Portfolio,
];

fn problems_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("problems")
}

/// Every `.toml` file under `problems/`, sorted.
fn problem_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(problems_dir())
        .expect("problems/ exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> &str {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("a UTF-8 file name")
}

use tests::planner_config as config;

/// Plans with `config`, validates the plan and returns its cost.
fn solve<D: PlanningDomain>(
    domain: &D,
    start: &D::State,
    goal: &D::Goal,
    config: PlannerConfig,
) -> u64 {
    tests::plan_and_validate(domain, start, goal, config).0
}

#[test]
fn every_shipped_file_is_in_the_table_and_notes_its_optimum() {
    let shipped: BTreeSet<String> = problem_files()
        .iter()
        .map(|p| file_name(p).to_owned())
        .collect();
    let listed: BTreeSet<String> = OPTIMA.iter().map(|(f, _)| (*f).to_owned()).collect();
    assert_eq!(shipped, listed);
    for (file, optimum) in OPTIMA {
        let text = std::fs::read_to_string(problems_dir().join(file)).unwrap();
        assert!(
            text.lines()
                .any(|l| l.starts_with('#') && l.contains(&format!("cost {optimum}"))),
            "{file} does not note its optimal cost {optimum} in a comment"
        );
    }
}

#[test]
fn every_file_plans_to_its_optimum_in_every_direction() {
    for (file, optimum) in OPTIMA {
        let problem = load(&problems_dir().join(file)).unwrap_or_else(|e| panic!("{e}"));
        for direction in DIRECTIONS {
            match &problem {
                LoadedProblem::Atomic(p) => {
                    for (algorithm, heuristic) in [
                        (Algorithm::AStar, heuristic("hmax")),
                        (Algorithm::AStar, heuristic("blind")),
                        (Algorithm::Dijkstra, heuristic("blind")),
                    ] {
                        let c = config(direction, algorithm, heuristic);
                        assert_eq!(solve(&p.actions, &p.start, &p.goal, c), optimum, "{file}");
                    }
                }
                LoadedProblem::Factored(p) => {
                    for (algorithm, heuristic) in [
                        (Algorithm::AStar, heuristic("numeric")),
                        (Algorithm::AStar, heuristic("blind")),
                        (Algorithm::Dijkstra, heuristic("blind")),
                    ] {
                        let c = config(direction, algorithm, heuristic);
                        assert_eq!(solve(&p.domain, &p.start, &p.goal, c), optimum, "{file}");
                    }
                }
            }
        }
    }
}

/// Atom names, actions (by atom name), start and goal: the same problem
/// whatever the bit order.
fn describe_atomic(p: &atomic::Problem<u64>) -> String {
    let atoms = p.actions.registry();
    let mut out = format!(
        "start: {}\ngoal: {}\n",
        atoms.named(&p.start),
        atoms.named(&p.goal)
    );
    for a in p.actions.iter() {
        let _ = writeln!(
            out,
            "{} {} pre {} eff {}",
            a.name,
            a.cost,
            atoms.named(&a.pre),
            atoms.named(&a.eff)
        );
    }
    out
}

#[test]
fn atomic_files_match_the_built_in_problems() {
    let ship = |start: &[&str]| atomic::enemy_ship::<u64>(start).unwrap();
    let cases = [
        ("hungry_agent.toml", atomic::hungry_agent::<u64>().unwrap()),
        ("enemy_ship_aim.toml", ship(&["safe", "ammo_full"])),
        (
            "enemy_ship_chase.toml",
            ship(&["safe", "ammo_full", "player_weak"]),
        ),
        ("enemy_ship_evade.toml", ship(&["ammo_full"])),
        (
            "enemy_ship_shoot.toml",
            ship(&["safe", "ammo_full", "aim_ready"]),
        ),
        (
            "consumed_fact.toml",
            atomic::consumed_fact::<u64>().unwrap(),
        ),
    ];
    for (file, built_in) in cases {
        let LoadedProblem::Atomic(loaded) = load(&problems_dir().join(file)).unwrap() else {
            panic!("{file} is atomic")
        };
        assert_eq!(
            describe_atomic(&loaded),
            describe_atomic(&built_in),
            "{file}"
        );
        let names: Vec<&str> = loaded.actions.registry().names().collect();
        let built_in_names: Vec<&str> = built_in.actions.registry().names().collect();
        assert_eq!(names, built_in_names, "{file}: atom order");
    }
}

#[test]
fn the_hitman_file_matches_the_built_in_problem() {
    let LoadedProblem::Factored(loaded) = load(&problems_dir().join("hitman.toml")).unwrap() else {
        panic!("hitman is factored")
    };
    let built_in = factored::hitman().unwrap();
    assert_eq!(loaded.name, "hitman");
    let schema = loaded.domain.schema();
    assert_eq!(
        schema.describe(&loaded.start),
        built_in.domain.schema().describe(&built_in.start)
    );
    let actions = |d: &state_factored::Domain| -> Vec<(String, u32)> {
        d.actions()
            .iter()
            .map(|a| (a.name().to_owned(), a.cost()))
            .collect()
    };
    assert_eq!(actions(&loaded.domain), actions(&built_in.domain));
    assert_eq!(format!("{:?}", loaded.goal), format!("{:?}", built_in.goal));
}

#[test]
fn shared_atoms_and_start_overrides_load() {
    let text = r#"
kind = "atomic"
atoms = ["hungry", "fed"]
shared = ["night"]
start = ["hungry", "night", "!fed"]
goal = ["fed == true", "hungry != true"]

[[action]]
name = "eat"
pre = ["hungry", "night == true"]
eff = ["fed", "hungry = false"]
"#;
    let LoadedProblem::Atomic(p) = parse(text, "night.toml").unwrap() else {
        panic!()
    };
    assert_eq!(p.name, "night");
    let night = p.actions.registry().atom("night").unwrap();
    assert!(p.actions.registry().is_shared(night));
    assert_eq!(p.actions.iter().next().unwrap().cost, 1, "the default cost");
    assert_eq!(p.start, p.actions.state(["hungry", "night"]).unwrap());
    let c = config(Direction::Portfolio, Algorithm::AStar, heuristic("hmax"));
    assert_eq!(solve(&p.actions, &p.start, &p.goal, c), 1);

    let text = r#"
kind = "factored"
name = "toggles"
start = ["gold = 7", 'at = "mine"']
goal = ["lit", "gold in [10, 12]", "at in {'mine', 'shop'}", "noise < 1"]

[variables]
lit = { type = "bool" }
gold = { type = "int", start = 1 }
at = "home"
noise = { type = "float", start = 0 }

[[action]]
name = "flip"
eff = ["lit = !lit"]

[[action]]
name = "earn"
cost = 2
pre = ["!lit"]
eff = ["gold += 2", "noise += 0.25"]
"#;
    let LoadedProblem::Factored(p) = parse(text, "t.toml").unwrap() else {
        panic!()
    };
    assert_eq!(
        p.domain.schema().describe(&p.start),
        "lit=false gold=7 at=\"mine\" noise=0"
    );
    let c = config(Direction::Forward, Algorithm::AStar, heuristic("blind"));
    assert_eq!(solve(&p.domain, &p.start, &p.goal, c), 2 * 2 + 1);
}

/// A minimal valid factored file, to break in one place at a time.
const FACTORED: &str = r#"kind = "factored"
goal = ["done"]

[variables]
gold = 20
location = "home"
done = false

[[action]]
name = "work"
cost = 2
pre = ['location == "mine"']
eff = ["gold += 25"]

[[action]]
name = "finish"
pre = ["gold >= 60"]
eff = ["done = true"]
"#;

/// A minimal valid atomic file.
const ATOMIC: &str = r#"kind = "atomic"
atoms = ["has_food", "fed"]
start = ["has_food"]
goal = ["fed"]

[[action]]
name = "eat"
cost = 5
pre = ["has_food"]
eff = ["fed", "!has_food"]
"#;

/// `base` with the first `from` replaced by `to`.
fn edit(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "{from:?} is not in the base file");
    base.replacen(from, to, 1)
}

fn error_of(text: &str) -> ProblemError {
    match parse(text, "bad.toml") {
        Ok(p) => panic!("expected an error, loaded {}:\n{text}", p.name()),
        Err(e) => e,
    }
}

#[test]
fn the_minimal_files_are_valid() {
    assert!(parse(FACTORED, "f.toml").is_ok());
    assert!(parse(ATOMIC, "a.toml").is_ok());
}

#[test]
fn errors_give_file_line_column_and_what_is_wrong() {
    let many_atoms: Vec<String> = (0..65).map(|i| format!("\"a{i}\"")).collect();
    let many_atoms = edit(
        ATOMIC,
        r#"atoms = ["has_food", "fed"]"#,
        &format!("atoms = [\"has_food\", \"fed\", {}]", many_atoms.join(", ")),
    );
    let a62_column = many_atoms
        .lines()
        .nth(1)
        .and_then(|l| l.find("\"a62\""))
        .unwrap()
        + 1;
    let a62 = format!(
        "bad.toml:2:{a62_column}: atom `a62` does not fit: this state type holds at most 64 atoms"
    );
    #[rustfmt::skip]
    let cases: Vec<(String, &str)> = vec![
        // TOML syntax and structure.
        (edit(ATOMIC, r#"goal = ["fed"]"#, r#"goal = ["fed""#), "bad.toml:6:1: missing comma between array elements"),
        (edit(ATOMIC, "cost = 5", "costs = 5"), "bad.toml:8:1: unknown field `costs`"),
        (edit(ATOMIC, "cost = 5", "cost = \"5\""), "bad.toml:8:8: invalid type: string \"5\", expected i64"),
        (edit(FACTORED, "done = false", "done = false\ngold = 1"), "bad.toml:8:1: duplicate key"),
        // Missing sections.
        (edit(ATOMIC, "kind = \"atomic\"\n", ""), "bad.toml:1:1: missing `kind = \"atomic\"` or `kind = \"factored\"`"),
        (edit(ATOMIC, "goal = [\"fed\"]\n", ""), "bad.toml:1:1: missing `goal = [...]`"),
        (edit(ATOMIC, "atoms = [\"has_food\", \"fed\"]\n", ""), "bad.toml:1:1: missing `atoms = [...]`"),
        (edit(FACTORED, "[variables]\ngold = 20\nlocation = \"home\"\ndone = false\n", ""), "bad.toml:1:1: missing `[variables]`"),
        (ATOMIC[..ATOMIC.find("[[action]]").unwrap()].to_owned(), "bad.toml:1:1: missing actions: add `[[action]]` tables"),
        // Kinds.
        (edit(ATOMIC, "\"atomic\"", "\"quantum\""), "bad.toml:1:8: unknown kind `quantum`: write \"atomic\" or \"factored\""),
        (edit(FACTORED, "goal", "atoms = [\"x\"]\ngoal"), "bad.toml:2:9: `atoms` and `shared` belong to atomic problems"),
        (edit(ATOMIC, "[[action]]", "[variables]\nx = 1\n\n[[action]]"), "bad.toml:6:1: `[variables]` belongs to factored problems"),
        // Unknown names, pointing inside the string.
        (edit(ATOMIC, r#"pre = ["has_food"]"#, r#"pre = ["has_fod"]"#), "bad.toml:9:9: unknown atom `has_fod`"),
        (edit(ATOMIC, r#"goal = ["fed"]"#, r#"goal = ["!fead"]"#), "bad.toml:4:11: unknown atom `fead`"),
        (edit(ATOMIC, r#"start = ["has_food"]"#, r#"start = ["hungry"]"#), "bad.toml:3:11: unknown atom `hungry`"),
        (edit(FACTORED, "gold += 25", "gld += 25"), "bad.toml:13:9: unknown variable `gld`"),
        (edit(FACTORED, r#"pre = ['location == "mine"']"#, r#"pre = ["location == \"mine\" ", "x < 2"]"#), "bad.toml:12:34: unknown variable `x`"),
        (edit(FACTORED, r#"pre = ['location == "mine"']"#, r#"pre = ["location == \"mine\" && x"]"#), "bad.toml:12:30: malformed condition `location == \"mine\" && x`: unexpected character `&`"),
        // Type mismatches: at the value, or at the operator.
        (edit(FACTORED, "gold >= 60", "gold >= \\\"lots\\\""), "bad.toml:17:17: type mismatch: variable `gold` is an int but `\"lots\"` is a string"),
        (edit(FACTORED, "gold >= 60", "gold >= 60.5"), "bad.toml:17:17: type mismatch: variable `gold` is an int but `60.5` is a float"),
        (edit(FACTORED, "location == \"mine\"", "location < \"mine\""), "bad.toml:12:18: type mismatch: `<` does not apply to string variable `location`"),
        (edit(FACTORED, "done = true", "done += 1"), "bad.toml:18:14: type mismatch: `+=` does not apply to bool variable `done`"),
        (edit(FACTORED, "done = true", "gold = !gold"), "bad.toml:18:17: type mismatch: only bools toggle"),
        (edit(FACTORED, "gold >= 60", "gold"), "bad.toml:17:9: type mismatch: variable `gold` is an int, not a bool"),
        (edit(FACTORED, "gold = 20", "gold = { type = \"int\", start = 2.5 }"), "bad.toml:5:8: type mismatch: variable `gold` is an int but its start value is a float"),
        (edit(FACTORED, "location == \"mine\"", "location in [1, 2]"), "bad.toml:12:18: type mismatch: `in` does not apply to string variable `location`"),
        (edit(ATOMIC, r#"pre = ["has_food"]"#, r#"pre = ["has_food == 1"]"#), "bad.toml:9:21: type mismatch: atom `has_food` is true or false but `1` is an int"),
        (edit(ATOMIC, r#"eff = ["fed", "!has_food"]"#, r#"eff = ["fed += 1"]"#), "bad.toml:10:13: type mismatch: `+=` does not apply to atom `fed`"),
        // Malformed expressions.
        (edit(FACTORED, "gold >= 60", "gold => 60"), "bad.toml:17:15: malformed condition `gold => 60`: expected a value after `=`, found `>`"),
        (edit(FACTORED, "gold >= 60", "gold >="), "bad.toml:17:16: malformed condition `gold >=`: expected a value after `>=`, found the end"),
        (edit(FACTORED, "gold >= 60", "gold = 60"), "bad.toml:17:14: malformed condition `gold = 60`: `=` assigns; a condition compares"),
        (edit(FACTORED, "done = true", "done == true"), "bad.toml:18:14: malformed effect `done == true`: `==` compares; an effect assigns"),
        (edit(FACTORED, "'location == \"mine\"'", "'location == \"mine'"), "bad.toml:12:21: malformed condition `location == \"mine`: string not closed"),
        (edit(FACTORED, "\"gold += 25\"", "\"\""), "bad.toml:13:9: malformed effect ``: the expression is empty"),
        (edit(FACTORED, "'location == \"mine\"'", "'location == mine'"), "bad.toml:12:21: malformed condition `location == mine`: expected a value after `==`, found the name `mine`"),
        (edit(ATOMIC, r#"pre = ["has_food"]"#, r#"pre = ["has_food > false"]"#), "bad.toml:9:18: malformed condition `has_food > false`: atoms are compared with `==` and `!=` only"),
        (edit(ATOMIC, r#"eff = ["fed", "!has_food"]"#, r#"eff = ["fed = !fed"]"#), "bad.toml:10:13: malformed effect `fed = !fed`: an atomic effect cannot toggle"),
        (edit(FACTORED, "goal = [\"done\"]", "goal = [\"done\"]\nstart = [\"gold += 1\"]"), "bad.toml:3:11: malformed start value `gold += 1`: a start value is written `gold = value`"),
        (edit(FACTORED, "goal = [\"done\"]", "goal = [\"done\"]\nstart = [\"gold = 1\", \"done = false\",\n  \"gold = 2\"]"), "bad.toml:4:4: variable `gold` is set twice in `start` (first on line 3)"),
        (edit(FACTORED, "gold >= 60", "gold in [5, 1]"), "bad.toml:17:18: malformed condition `gold in [5, 1]`: the range is empty: its low end 5 is above its high end 1"),
        (edit(&edit(FACTORED, "done = false", "done = false\nnoise = 0.0"), "gold >= 60", "noise in [1, 0.25]"), "bad.toml:18:19: malformed condition `noise in [1, 0.25]`: the range is empty: its low end 1 is above its high end 0.25"),
        // Linear arithmetic: names, types and linearity, inside the string.
        (edit(FACTORED, "gold >= 60", "gold - silver >= 10"), "bad.toml:17:16: unknown variable `silver`"),
        (edit(FACTORED, "gold >= 60", "gold + 2 * done >= 10"), "bad.toml:17:20: type mismatch: variable `done` is a bool, not a number"),
        (edit(FACTORED, "gold >= 60", "gold * gold >= 4"), "bad.toml:17:9: malformed condition `gold * gold >= 4`: not linear: `gold * gold` multiplies two variables"),
        (edit(FACTORED, "gold >= 60", "2 * (gold + 1) * gold < 4"), "bad.toml:17:9: malformed condition `2 * (gold + 1) * gold < 4`: not linear"),
        (edit(FACTORED, "gold >= 60", "gold + >= 3"), "bad.toml:17:16: malformed condition `gold + >= 3`: expected a value, found `>=`"),
        (edit(FACTORED, "gold >= 60", "gold - 1 in [1, 2]"), "bad.toml:17:18: malformed condition `gold - 1 in [1, 2]`: `in` needs one variable on its left"),
        (edit(FACTORED, "gold >= 60", "gold >= 'a' + 1"), "bad.toml:17:17: type mismatch: `\"a\"` is a string, not a number"),
        (edit(FACTORED, "'location == \"mine\"'", "'location == gold + 1'"), "bad.toml:12:9: type mismatch: variable `location` is a string, not a number"),
        (edit(FACTORED, "gold += 25", "gold += 25 * silver"), "bad.toml:13:22: unknown variable `silver`"),
        (edit(FACTORED, "gold += 25", "gold -= 2 * done + 1"), "bad.toml:13:21: type mismatch: variable `done` is a bool, not a number"),
        (edit(FACTORED, "gold += 25", "gold = gold * gold"), "bad.toml:13:16: malformed effect `gold = gold * gold`: not linear: `gold * gold` multiplies two variables"),
        (edit(FACTORED, "gold += 25", "gold + 1 = 3"), "bad.toml:13:18: malformed effect `gold + 1 = 3`: `=` needs one variable on its left"),
        (edit(FACTORED, "gold += 25", "gold + 1 >= 3"), "bad.toml:13:18: malformed effect `gold + 1 >= 3`: an effect changes one variable"),
        (edit(FACTORED, "done = true", "done = gold - 1"), "bad.toml:18:9: type mismatch: variable `done` is a bool, not a number"),
        (edit(ATOMIC, r#"pre = ["has_food"]"#, r#"pre = ["has_food + fed == 1"]"#), "bad.toml:9:9: malformed condition `has_food + fed == 1`: atoms take no arithmetic"),
        // Duplicates.
        (edit(ATOMIC, "\n[[action]]", "\n[[action]]\nname = \"eat\"\n\n[[action]]"), "bad.toml:10:8: action `eat` is declared twice (first on line 7)"),
        (edit(ATOMIC, r#"["has_food", "fed"]"#, r#"["has_food", "fed", "has_food"]"#), "bad.toml:2:29: atom `has_food` is declared twice (first on line 2)"),
        // Values out of range, contradictions, capacity.
        (edit(ATOMIC, "cost = 5", "cost = -1"), "bad.toml:8:8: cost -1 is not a whole number from 0 to 4294967295"),
        (edit(ATOMIC, "cost = 5", "cost = 4294967296"), "bad.toml:8:8: cost 4294967296 is not a whole number"),
        (edit(ATOMIC, r#"pre = ["has_food"]"#, r#"pre = ["has_food", "!has_food"]"#), "bad.toml:9:21: action `eat` gives atom `has_food` both values in its preconditions"),
        (edit(ATOMIC, r#"goal = ["fed"]"#, r#"goal = ["fed", "fed == false"]"#), "bad.toml:4:17: the goal asks for both values of atom `fed`"),
        (edit(ATOMIC, r#"["has_food", "fed"]"#, r#"["has food", "fed"]"#), "bad.toml:2:10: atom name `has food` is not letters, digits and `_`"),
        (many_atoms.clone(), &a62),
        (edit(FACTORED, "gold = 20", "gold = [20]"), "bad.toml:5:8: variable `gold` cannot start as array"),
        (edit(FACTORED, "gold = 20", "gold = { type = \"money\" }"), "bad.toml:5:8: variable `gold` has unknown type `money`"),
        (edit(FACTORED, "gold = 20", "gold = nan"), "bad.toml:5:8: variable `gold` in state gets NaN: floats must be finite"),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in &cases {
        let error = error_of(text);
        let shown = error.to_string();
        if !shown.starts_with(expected) {
            wrong.push(format!(
                "expected an error starting with\n  {expected}\ngot\n  {shown}"
            ));
        }
        assert!(error.location().is_some(), "{shown}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn errors_are_of_the_right_kind() {
    let kind = |text: &str| match error_of(text) {
        ProblemError::Syntax { .. } => "syntax",
        ProblemError::Missing { .. } => "missing",
        ProblemError::Unknown { .. } => "unknown",
        ProblemError::TypeMismatch { .. } => "type",
        ProblemError::Malformed { .. } => "malformed",
        ProblemError::Duplicate { .. } => "duplicate",
        ProblemError::Invalid { .. } => "invalid",
        other => panic!("{other}"),
    };
    assert_eq!(kind(&edit(ATOMIC, "kind", "kin")), "syntax");
    assert_eq!(kind(&edit(ATOMIC, "goal = [\"fed\"]\n", "")), "missing");
    assert_eq!(kind(&edit(FACTORED, "gold >= 60", "gild >= 60")), "unknown");
    assert_eq!(kind(&edit(FACTORED, "gold >= 60", "gold >= true")), "type");
    assert_eq!(
        kind(&edit(FACTORED, "gold >= 60", "gold >= >= 60")),
        "malformed"
    );
    assert_eq!(
        kind(&edit(
            ATOMIC,
            "\n[[action]]",
            "\n[[action]]\nname = \"eat\"\n[[action]]"
        )),
        "duplicate"
    );
    assert_eq!(kind(&edit(ATOMIC, "cost = 5", "cost = -5")), "invalid");
}

#[test]
fn a_multi_line_string_is_located_at_its_start() {
    let text = edit(
        FACTORED,
        "eff = [\"gold += 25\"]",
        "eff = [\"\"\"\ngld += 25\"\"\"]",
    );
    let shown = error_of(&text).to_string();
    assert!(
        shown.starts_with("bad.toml:13:8: unknown variable `gld`"),
        "{shown}"
    );
}

#[test]
fn io_errors_name_the_file() {
    let missing = problems_dir().join("no_such_problem.toml");
    let error = load(&missing).unwrap_err();
    assert!(matches!(error, ProblemError::Io { .. }));
    assert!(error.location().is_none());
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}: cannot read the file: ", missing.display())),
        "{error}"
    );

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("problem_files_not_utf8.toml");
    std::fs::write(&path, b"kind = \"atomic\"\nname = \"\xff\"\n").unwrap();
    let error = load(&path).unwrap_err();
    let at = error.location().expect("a location");
    assert_eq!((at.line, at.column), (2, 9), "{error}");
    assert!(
        error.to_string().ends_with("the file is not UTF-8 text"),
        "{error}"
    );
}

/// An atomic file of `actions` actions over 64 atoms.
fn large_atomic(actions: usize) -> String {
    let atoms: Vec<String> = (0..64).map(|i| format!("\"a{i}\"")).collect();
    let mut text = format!(
        "kind = \"atomic\"\natoms = [{}]\nstart = [\"a0\"]\ngoal = [\"a63\"]\n",
        atoms.join(", ")
    );
    for i in 0..actions {
        let _ = write!(
            text,
            "\n[[action]]\nname = \"step{i}\"\ncost = {}\npre = [\"a{}\", \"!a{}\"]\neff = [\"a{}\", \"!a{}\"]\n",
            i % 7 + 1,
            i % 64,
            (i + 1) % 64,
            (i + 1) % 64,
            i % 64
        );
    }
    text
}

/// A factored file of `actions` actions over three variables.
fn large_factored(actions: usize) -> String {
    let mut text = String::from(
        "kind = \"factored\"\ngoal = [\"gold >= 100\", 'at == \"home\"']\n\n\
         [variables]\ngold = 0\nat = \"home\"\nnoise = 0.0\n",
    );
    for i in 0..actions {
        let _ = write!(
            text,
            "\n[[action]]\nname = \"step{i}\"\ncost = {}\npre = [\"gold in [{}, {}]\", 'at != \"p{i}\"']\n\
             eff = [\"gold += {}\", 'at = \"p{}\"', \"noise += 0.5\"]\n",
            i % 7 + 1,
            i % 100,
            i % 100 + 50,
            i % 5 + 1,
            i % 3
        );
    }
    text
}

#[test]
fn large_files_load_in_linear_time() {
    // Locating names rescanned the file from its start, so 20,000 actions
    // took minutes in a debug build; a line index makes it linear.
    const ACTIONS: usize = 20_000;
    for (text, kind) in [
        (large_atomic(ACTIONS), "atomic"),
        (large_factored(ACTIONS), "factored"),
    ] {
        let loaded = parse(&text, "large.toml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.kind(), kind);
        let count = match &loaded {
            LoadedProblem::Atomic(p) => p.actions.len(),
            LoadedProblem::Factored(p) => p.domain.actions().len(),
        };
        assert_eq!(count, ACTIONS);
        // An error at the end is located on the file's last line.
        let broken = format!("{text}\n[[action]]\nname = \"step7\"\n");
        let last_line = broken.lines().count();
        let first_line = text.lines().position(|l| l == "name = \"step7\"").unwrap() + 1;
        assert_eq!(
            error_of(&broken).to_string(),
            format!(
                "bad.toml:{last_line}:8: action `step7` is declared twice (first on line {first_line})"
            )
        );
    }
}

use tests::SplitMix64 as Rng;

/// Bytes that make TOML and the expression language interesting.
const ALPHABET: &[u8] = b"\"'[]{}=!<>+-.,#\\\n \t0123456789_aefinrtux\x00\xc3\xa9\xff";

/// One random edit of `bytes`: overwrite, insert, delete, duplicate a span,
/// or swap two lines.
fn mutate(bytes: &mut Vec<u8>, rng: &mut Rng) {
    let len = bytes.len().max(1);
    let at = rng.below(len).min(bytes.len());
    match rng.below(6) {
        0 => {
            if at < bytes.len() {
                bytes[at] = ALPHABET[rng.below(ALPHABET.len())];
            }
        }
        1 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
        2 => {
            let end = (at + 1 + rng.below(8)).min(bytes.len());
            bytes.drain(at..end);
        }
        3 => {
            let end = (at + 1 + rng.below(40)).min(bytes.len());
            let chunk = bytes[at..end].to_vec();
            let to = rng.below(bytes.len() + 1).min(bytes.len());
            bytes.splice(to..to, chunk);
        }
        4 => {
            if at < bytes.len() {
                bytes[at] = u8::try_from(rng.below(256)).unwrap();
            }
        }
        _ => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let a = rng.below(lines.len());
                let b = rng.below(lines.len());
                lines.swap(a, b);
            }
            *bytes = lines.join("\n").into_bytes();
        }
    }
}

/// Parses `text`, turning a panic into a test failure that shows the input;
/// checks that an error's location is inside the text.
fn parse_without_panic(text: &str, what: &str) -> bool {
    let result = std::panic::catch_unwind(|| parse(text, "fuzz.toml"))
        .unwrap_or_else(|_| panic!("parse panicked on {what}:\n{text:?}"));
    match result {
        Ok(_) => true,
        Err(e) => {
            let at = e.location().expect("parse errors have a location");
            let lines = text.split('\n').count();
            assert!(
                at.file == "fuzz.toml" && (1..=lines).contains(&at.line),
                "{what}: {e}"
            );
            assert!(
                e.to_string()
                    .starts_with(&format!("fuzz.toml:{}:{}: ", at.line, at.column)),
                "{e}"
            );
            false
        }
    }
}

#[test]
fn truncated_and_mutated_files_give_errors_not_panics() {
    let mut cases = 0;
    let mut loaded = 0;
    for path in problem_files() {
        let name = file_name(&path).to_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        // Every truncation at a character boundary, stepping a few bytes.
        for cut in (0..text.len())
            .step_by(3)
            .filter(|&c| text.is_char_boundary(c))
        {
            cases += 1;
            loaded += usize::from(parse_without_panic(
                &text[..cut],
                &format!("{name} cut at {cut}"),
            ));
        }
        // Random edits, 1 to 4 at a time.
        let mut rng = Rng::new(0x5EED ^ text.len() as u64);
        for case in 0..400 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..=rng.below(4) {
                mutate(&mut bytes, &mut rng);
            }
            let mutated = String::from_utf8_lossy(&bytes);
            cases += 1;
            loaded += usize::from(parse_without_panic(
                &mutated,
                &format!("{name} mutation {case}"),
            ));
        }
    }
    assert!(cases > 3000, "{cases} cases");
    // Some mutations (in comments, say) leave a valid file; most do not.
    assert!(loaded > 0 && loaded < cases, "{loaded} of {cases} loaded");
}

#[test]
fn deep_nesting_and_odd_text_give_errors() {
    let deep_array = format!("kind = \"atomic\"\natoms = {}", "[".repeat(100_000));
    let deep_table = format!("kind = \"atomic\"\natoms = {}", "{ a = ".repeat(100_000));
    let long_expression = edit(
        ATOMIC,
        r#"pre = ["has_food"]"#,
        &format!("pre = [\"{}\"]", "!".repeat(100_000)),
    );
    for text in [
        deep_array.as_str(),
        deep_table.as_str(),
        &long_expression,
        "",
        "\u{feff}",
        "\0",
        "kind = \"atomic\"\r\natoms = [\"é\"]\r\n",
    ] {
        let shown = error_of(text).to_string();
        assert!(shown.starts_with("bad.toml:"), "{shown}");
    }
}
