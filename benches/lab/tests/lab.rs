//! A researcher's own `searchlab`: `Lab::new().heuristic(..)` adds a
//! heuristic that suite files and `--configs` can name.

use std::process::ExitCode;

use search_core::Admissible;
use searchlab_lab::suite::CustomHeuristic;
use searchlab_lab::Lab;
use state_atomic::WorldState;

/// 1 while the goal does not hold: admissible with unit-or-more costs.
fn open(h: CustomHeuristic) -> CustomHeuristic {
    h.atomic_forward(|problem| {
        let goal = problem.goal;
        Box::new(Admissible(move |s: &WorldState| {
            u32::from(!s.satisfies(&goal))
        }))
    })
}

fn suite_file(name: &str, configs: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-lab-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("suite.toml");
    let text = format!("[[problems]]\ngenerator = \"reference\"\n\n[[configs]]\n{configs}\n");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_suite_file_names_the_researchers_heuristic() {
    let path = suite_file("names", "heuristics = [\"open\", \"hmax\"]");
    let args = [
        "searchlab",
        "bench",
        path.to_str().unwrap(),
        "--no-progress",
    ];
    assert_eq!(
        Lab::new().heuristic("open", open).run(args),
        ExitCode::SUCCESS
    );
    // Without it, the name is unknown: an input error.
    assert_eq!(Lab::new().run(args), ExitCode::from(2));
}

#[test]
fn a_configuration_name_may_carry_the_researchers_heuristic() {
    let path = suite_file(
        "by-name",
        "names = [\"fwd-astar-open\", \"fwd-wastar2-open\"]",
    );
    let args = [
        "searchlab",
        "bench",
        path.to_str().unwrap(),
        "--no-progress",
    ];
    assert_eq!(
        Lab::new().heuristic("open", open).run(args),
        ExitCode::SUCCESS
    );
}

#[test]
fn help_and_bad_flags_have_their_exit_codes() {
    assert_eq!(Lab::new().run(["searchlab", "--help"]), ExitCode::SUCCESS);
    assert_eq!(
        Lab::new().run(["searchlab", "bench", "--jobs", "x"]),
        ExitCode::from(2)
    );
}
