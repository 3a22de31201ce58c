//! What the suite commands refuse or repair before they run: suite files
//! without limits, out-of-range limits, problems listed twice, configurations
//! and generator sizes that could never run, records no run could have
//! produced, and merges whose parts disagree.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use searchlab_lab::defaults::{DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_TIME};
use searchlab_lab::plot::{coverage_svg, scatter_svg};
use searchlab_lab::record::{merge, read_jsonl, write_jsonl, Prefer, RunOutcome, RunRecord};
use searchlab_lab::report::Attribute;
use searchlab_lab::suite::{time_limit, Configuration, MAX_TIME};
use searchlab_lab::suite_file::parse_suite;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchlab-suite-checks-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn error_of(text: &str) -> String {
    error_in(text, Path::new("."))
}

fn error_in(text: &str, base: &Path) -> String {
    match parse_suite(text, "s.toml", base) {
        Ok(suite) => panic!("accepted: {} problems", suite.problems.len()),
        Err(e) => e.to_string(),
    }
}

const REFERENCE: &str = "[[problems]]\ngenerator = \"reference\"\n";
const ONE_CONFIG: &str = "[[configs]]\nheuristic = \"hmax\"\n";

#[test]
fn a_suite_file_without_limits_gets_the_default_time_and_memory_limits() {
    let suite = parse_suite(
        &format!("{REFERENCE}{ONE_CONFIG}"),
        "s.toml",
        Path::new("."),
    )
    .unwrap();
    assert_eq!(suite.limits.max_time, Some(DEFAULT_MAX_TIME));
    assert_eq!(
        suite.limits.max_memory_bytes,
        Some(DEFAULT_MAX_MEMORY_BYTES)
    );
    // An expansion limit changes what a suite measures; it stays opt-in.
    assert_eq!(suite.limits.max_expansions, None);

    // A limit left out of `[limits]` is a default too, and a configuration's
    // own limits start from the suite's.
    let text = format!(
        "[limits]\nmax_expansions = 1000\n{REFERENCE}\
         [[configs]]\nname = \"quick\"\nheuristic = \"hmax\"\nmax_memory_mb = 64\n"
    );
    let suite = parse_suite(&text, "s.toml", Path::new(".")).unwrap();
    assert_eq!(suite.limits.max_expansions, Some(1000));
    assert_eq!(suite.limits.max_time, Some(DEFAULT_MAX_TIME));
    assert_eq!(
        suite.limits.max_memory_bytes,
        Some(DEFAULT_MAX_MEMORY_BYTES)
    );
    let own = suite.configs[0].limits.unwrap();
    assert_eq!(own.max_memory_bytes, Some(64 << 20));
    assert_eq!(own.max_time, Some(DEFAULT_MAX_TIME));
    assert_eq!(own.max_expansions, Some(1000));
}

#[test]
fn out_of_range_time_limits_are_refused_with_their_line() {
    for bad in ["1e20", "-1.0", "0.0", "nan", "inf", "-inf", "31536000.5"] {
        let error = error_of(&format!(
            "name = \"x\"\n[limits]\nmax_time = {bad}\n{REFERENCE}{ONE_CONFIG}"
        ));
        assert!(
            error.starts_with("s.toml: line 3: max_time"),
            "{bad}: {error}"
        );
        assert!(error.contains("at most 31536000"), "{bad}: {error}");
        let error = error_of(&format!(
            "{REFERENCE}{ONE_CONFIG}[[configs]]\nheuristic = \"ff\"\nmax_time = {bad}\n"
        ));
        assert!(
            error.starts_with("s.toml: line 7: max_time"),
            "{bad}: {error}"
        );
    }
    // The same conversion serves the command line.
    assert_eq!(time_limit(2.5), Ok(Duration::from_millis(2500)));
    assert_eq!(time_limit(MAX_TIME.as_secs_f64()), Ok(MAX_TIME));
    for bad in [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e20, f64::MAX] {
        let error = time_limit(bad).unwrap_err();
        assert!(error.contains("positive number of seconds"), "{error}");
    }
}

#[test]
fn a_problem_listed_twice_is_refused_with_both_places() {
    let error = error_of(&format!("{REFERENCE}{ONE_CONFIG}{REFERENCE}"));
    assert!(
        error.contains("`reference/hungry-agent` is listed twice: line 1 and line 5"),
        "{error}"
    );

    let text = "[[problems]]\ngenerator = \"atomic-chains\"\nsizes = [16, 24, 16]\n";
    let error = error_of(&format!("{text}{ONE_CONFIG}"));
    assert!(
        error.contains("`atomic-chains/chains-16-s1` is listed twice: line 1 and line 1"),
        "{error}"
    );

    // The same file through two globs counts as twice.
    let root = tests::repository_root();
    let text = "[[problems]]\nfiles = [\"problems/hungry_agent.toml\"]\n\
                [[problems]]\nfiles = [\"problems/hungry_*.toml\"]\n\
                domain = \"other\"\n[[configs]]\nheuristic = \"hmax\"\n";
    let error = error_in(text, &root);
    assert!(error.contains("listed twice: line 1"), "{error}");
    assert!(error.contains("and line 3"), "{error}");
    assert!(error.contains("hungry_agent.toml"), "{error}");

    // Different problems with the same domain and name would share a row of
    // every table.
    let dir = temp_dir("same-name");
    let problem = std::fs::read_to_string(root.join("problems/hungry_agent.toml")).unwrap();
    std::fs::write(dir.join("a.toml"), &problem).unwrap();
    std::fs::write(dir.join("b.toml"), &problem).unwrap();
    let error = error_in(
        "[[problems]]\nfiles = [\"*.toml\"]\ndomain = \"d\"\n[[configs]]\nheuristic = \"hmax\"\n",
        &dir,
    );
    assert!(
        error.contains("`d/hungry-agent` is listed twice"),
        "{error}"
    );
    assert!(
        error.contains("a.toml") && error.contains("b.toml"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn configurations_that_cannot_run_are_refused_when_the_suite_loads() {
    let error = error_of(&format!(
        "{REFERENCE}[[configs]]\nalgorithms = [\"astar\", \"wastar:0.5\"]\n"
    ));
    assert!(error.starts_with("s.toml: line 3:"), "{error}");
    assert!(
        error.contains("weighted A* needs a finite weight >= 1, got 0.5"),
        "{error}"
    );
    let error = error_of(&format!(
        "{REFERENCE}[[configs]]\nnames = [\"fwd-wastar0.5-hmax\"]\n"
    ));
    assert!(error.starts_with("s.toml: line 3:"), "{error}");
    assert!(error.contains("got 0.5"), "{error}");
    for bad in ["wastar:nan", "wastar:inf", "wastar:-2"] {
        let error = error_of(&format!("{REFERENCE}[[configs]]\nalgorithm = \"{bad}\"\n"));
        assert!(
            error.contains("needs a finite weight >= 1"),
            "{bad}: {error}"
        );
    }
    assert!(Configuration::by_name("reg-wastar0.9-ff").is_err());
    assert!(Configuration::by_name("reg-wastar1.5-ff").is_ok());
}

#[test]
fn generator_sizes_are_checked_against_the_generators_range() {
    for (generator, size, range) in [
        ("atomic-chains", "18446744073709551615", "1 to 64"),
        ("atomic-toggles", "65", "1 to 64"),
        ("atomic-shortcuts", "0", "1 to 64"),
        ("factored-chains", "18446744073709551615", "1 to 4294967295"),
        ("factored-economy", "4294967296", "1 to 4294967295"),
    ] {
        let error = error_of(&format!(
            "name = \"x\"\n[[problems]]\ngenerator = \"{generator}\"\nsizes = [16, {size}]\n{ONE_CONFIG}"
        ));
        assert!(error.starts_with("s.toml: line 2:"), "{error}");
        assert!(
            error.contains(&format!("`{generator}` takes sizes {range}, not {size}")),
            "{error}"
        );
        assert!(!error.contains("integral type"), "{error}");
    }
    // Every size in range generates.
    for generator in ["atomic-chains", "atomic-shortcuts", "atomic-toggles"] {
        for size in 1..=64 {
            searchlab_lab::defaults::generate(generator, size, 1).unwrap();
        }
    }
}

fn record(run: usize, problem: &str, config: &str, time: f64) -> RunRecord {
    let mut r = RunRecord::new(run, "d", problem, config);
    r.outcome = RunOutcome::Solved;
    r.validated = Some(true);
    r.cost = Some(3);
    r.expanded = 10;
    r.time = time;
    r
}

#[test]
fn records_with_impossible_times_are_refused_with_their_line() {
    let dir = temp_dir("records");
    let file = dir.join("r.jsonl");
    for bad in [1e305, -1.0, 4e7] {
        write_jsonl(&file, &[record(0, "p", "A", 1.0), record(1, "q", "A", bad)]).unwrap();
        let error = read_jsonl(&file).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("{}:2: malformed record: time", file.display())),
            "{error}"
        );
    }
    let mut cpu = record(1, "q", "A", 1.0);
    cpu.cpu_time = Some(1e305);
    write_jsonl(&file, &[cpu]).unwrap();
    let error = read_jsonl(&file).unwrap_err().to_string();
    assert!(error.contains(":1: malformed record: cpu_time"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `f` on a thread of its own and gives up after a while: a plot that
/// never finishes must fail the test, not hang it.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("still running after a minute")
}

#[test]
fn plots_refuse_records_with_impossible_times_instead_of_hanging() {
    let records = vec![record(0, "p", "A", 1e305), record(0, "p", "B", 1.0)];
    let configs = vec!["A".to_owned(), "B".to_owned()];
    let error = within({
        let records = records.clone();
        move || coverage_svg(&records, &configs).map(|_| ())
    })
    .unwrap_err()
    .to_string();
    assert!(error.contains("time 1e305"), "{error}");
    let error = within(move || scatter_svg(&records, "A", "B", Attribute::Time).map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(error.contains("time 1e305"), "{error}");
    // The largest counters plot.
    let mut big = record(0, "p", "A", MAX_TIME.as_secs_f64());
    big.expanded = u64::MAX;
    big.memory = u64::MAX;
    let records = vec![big, record(0, "p", "B", 1.0)];
    within(move || {
        scatter_svg(&records, "A", "B", Attribute::Expansions).unwrap();
        scatter_svg(&records, "A", "B", Attribute::Time).unwrap();
        coverage_svg(&records, &["A".to_owned(), "B".to_owned()]).unwrap();
    });
}

#[test]
fn merge_refuses_conflicting_duplicates_unless_told_which_wins() {
    let a = vec![record(0, "p", "A", 1.0), record(1, "q", "A", 2.0)];
    let b = vec![record(1, "q", "A", 2.0), record(2, "r", "A", 3.0)];
    // An identical duplicate is dropped quietly.
    let merged = merge(
        vec![("a.jsonl".to_owned(), a.clone()), ("b.jsonl".to_owned(), b)],
        None,
    )
    .unwrap();
    assert_eq!(merged.records.len(), 3);
    assert_eq!((merged.identical, merged.conflicts), (1, 0));

    let mut c = vec![record(1, "q", "A", 9.0)];
    c[0].outcome = RunOutcome::Limit;
    c[0].validated = None;
    let parts = || {
        vec![
            ("a.jsonl".to_owned(), a.clone()),
            ("c.jsonl".to_owned(), c.clone()),
        ]
    };
    let error = merge(parts(), None).unwrap_err().to_string();
    assert!(
        error.contains("run A on d/q differs between a.jsonl and c.jsonl"),
        "{error}"
    );
    assert!(error.contains("--prefer first"), "{error}");

    let first = merge(parts(), Some(Prefer::First)).unwrap();
    assert_eq!((first.identical, first.conflicts), (0, 1));
    assert_eq!(first.records, a);
    let last = merge(parts(), Some(Prefer::Last)).unwrap();
    assert_eq!(last.records, [a[0].clone(), c[0].clone()]);

    // Within one file too.
    let twice = vec![record(0, "p", "A", 1.0), record(0, "p", "A", 1.5)];
    let error = merge(vec![("t.jsonl".to_owned(), twice)], None)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("differs between t.jsonl and t.jsonl"),
        "{error}"
    );
}
