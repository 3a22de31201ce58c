//! Input files are read with a size cap: `/dev/zero` and oversize files are
//! refused with a clear error by every loader, never read without bound.

use std::path::{Path, PathBuf};

use planners::input::{read_capped, MAX_INPUT_BYTES};
use planners::pddl::{solve_files, PddlError, SolveError};
use planners::problem::{load, ProblemError};
use planners::PlannerConfig;
use searchlab_lab::cli::plan::{plan_file, plan_pddl, PlanRequest, EXIT_INPUT_ERROR};

const LIMIT: &str = "file is larger than the 64 MiB input limit";

fn gripper() -> (PathBuf, PathBuf) {
    let dir = tests::pddl_benchmarks().join("gripper");
    (dir.join("domain.pddl"), dir.join("task01.pddl"))
}

/// Checks that every loader refuses `big`, naming it.
fn every_loader_refuses(big: &Path) {
    let name = big.display().to_string();
    let expected = format!("{name}: {LIMIT}");

    let error = load(big).unwrap_err();
    assert!(matches!(error, ProblemError::TooLarge { .. }), "{error}");
    assert_eq!(error.to_string(), expected);
    assert!(error.location().is_none());

    let (domain, problem) = gripper();
    for (d, p) in [(big, problem.as_path()), (domain.as_path(), big)] {
        let error = solve_files(d, p, &PlannerConfig::default()).unwrap_err();
        assert!(
            matches!(error, SolveError::Pddl(PddlError::FileTooLarge { .. })),
            "{error}"
        );
        assert_eq!(error.to_string(), expected);
    }

    let (text, code) = plan_file(big, &PlanRequest::default());
    assert_eq!(code, EXIT_INPUT_ERROR);
    assert_eq!(text, format!("error: {expected}\n"));
    let (text, code) = plan_pddl(&domain, big, &PlanRequest::default(), None);
    assert_eq!(code, EXIT_INPUT_ERROR);
    assert_eq!(text, format!("error: {expected}\n"));

    let error = searchlab_lab::suite_file::load_pddl(&domain, big, None).unwrap_err();
    assert_eq!(error.to_string(), expected);
    let error = searchlab_lab::suite_file::load_suite(big).unwrap_err();
    assert_eq!(error.to_string(), expected);
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_by_every_loader() {
    every_loader_refuses(Path::new("/dev/zero"));
}

#[test]
fn an_oversize_file_is_refused_by_every_loader() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("input_files_oversize.toml");
    // A sparse file: one byte over the limit costs nothing on disk.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_INPUT_BYTES + 1).unwrap();
    drop(file);
    every_loader_refuses(&path);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn files_up_to_the_cap_are_read() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("input_files_cap.txt");
    std::fs::write(&path, "0123456789").unwrap();
    assert_eq!(read_capped(&path, 10).unwrap().len(), 10);
    let error = read_capped(&path, 9).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
    assert_eq!(
        error.to_string(),
        "file is larger than the 9-byte input limit"
    );
    let _ = std::fs::remove_file(&path);
    #[cfg(unix)]
    {
        let error = read_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(
            error.to_string(),
            "file is larger than the 1 MiB input limit"
        );
    }
}
