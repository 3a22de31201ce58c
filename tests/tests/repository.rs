//! The repository stands on its own and its crates can be published: no
//! shipped file reaches outside the checkout, the licences the manifests
//! declare are there, and every declared `rust-version` is at least what the
//! dependencies need.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use tests::repository_root;

/// The crates meant for crates.io.
const LIBRARIES: [&str; 4] = ["search-core", "state-atomic", "state-factored", "planners"];

/// `path` with `.` and `..` resolved lexically (no file system access, so a
/// path that escapes is caught even when its target does not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn manifest(path: &Path) -> toml::Table {
    read(path)
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every string in a suite's `[[problems]]` tables names files relative to
/// the suite file; none may resolve outside the repository.
#[test]
fn shipped_suites_read_only_inside_the_repository() {
    let root = normalize(&repository_root());
    let dir = root.join("benches/suites");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let suite = manifest(&path);
        let problems = suite.get("problems").and_then(toml::Value::as_array);
        for table in problems
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_table)
        {
            for key in ["files", "pddl_domain", "pddl_problems"] {
                let values = match table.get(key) {
                    Some(toml::Value::String(one)) => vec![one.clone()],
                    Some(toml::Value::Array(many)) => many
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                    _ => continue,
                };
                for value in values {
                    let target = normalize(&dir.join(&value));
                    assert!(
                        target.starts_with(&root),
                        "{}: `{value}` reads outside the repository ({})",
                        path.display(),
                        target.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 0, "no shipped suite names a file");
}

/// Spellings of the development machine's folder, put together so that
/// this file does not contain them (and so does not match itself).
const NEEDLES: [&str; 3] = [
    concat!("..", "/shared"),
    concat!("shared/", "benchmarks"),
    concat!("\"sha", "red\""),
];

/// The text files that a user runs or reads (sources, manifests, suites,
/// scripts, docs) never name the development machine's `shared/` folder.
/// The files the repository ships: those git tracks, in a checkout (so a
/// virtual environment or results a user made beside them are not read);
/// in a copy without `.git` (as CI tests), every file but build output.
fn shipped_files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success() && root.join(".git").exists());
    if let Some(out) = listed {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| root.join(String::from_utf8_lossy(name).as_ref()))
            .filter(|path| path.is_file())
            .collect();
    }
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), "target" | ".git" | ".peers") {
                    stack.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn no_shipped_file_points_at_the_development_machine() {
    let root = repository_root();
    let mut offenders = Vec::new();
    let mut seen = 0;
    for path in shipped_files(&root) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // The vendored benchmarks' manifests cite their sources.
        if path.starts_with(root.join("benchmarks")) {
            continue;
        }
        let text_file = ["rs", "toml", "sh", "py", "md", "txt"]
            .iter()
            .any(|ext| name.ends_with(&format!(".{ext}")))
            || name == "run";
        if !text_file {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for needle in NEEDLES {
            if text.contains(needle) {
                offenders.push(format!("{}: `{needle}`", path.display()));
            }
        }
    }
    assert!(
        seen > 50,
        "walked only {seen} files from {}",
        root.display()
    );
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_declared_licences_are_in_the_repository_and_in_each_library() {
    let root = repository_root();
    let workspace = manifest(&root.join("Cargo.toml"));
    assert_eq!(
        workspace["workspace"]["package"]["license"].as_str(),
        Some("MIT OR Apache-2.0")
    );
    let mit = read(&root.join("LICENSE-MIT"));
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    let apache = read(&root.join("LICENSE-APACHE"));
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0"));
    // `cargo package` copies only what is inside a crate's folder.
    for library in LIBRARIES {
        assert_eq!(
            read(&root.join(library).join("LICENSE-MIT")),
            mit,
            "{library}"
        );
        assert_eq!(
            read(&root.join(library).join("LICENSE-APACHE")),
            apache,
            "{library}"
        );
    }
}

#[test]
fn library_manifests_carry_what_crates_io_needs() {
    let root = repository_root();
    let workspace = manifest(&root.join("Cargo.toml"));
    let shared = workspace["workspace"]["package"].as_table().unwrap();
    // A repository is real or absent; a placeholder address misleads.
    if let Some(url) = shared.get("repository").and_then(toml::Value::as_str) {
        assert!(
            !url.contains(".invalid") && !url.contains("example"),
            "{url}"
        );
    }
    let dependencies = workspace["workspace"]["dependencies"].as_table().unwrap();
    for library in LIBRARIES {
        let package = manifest(&root.join(library).join("Cargo.toml"));
        let package = package["package"].as_table().unwrap();
        for field in [
            "description",
            "keywords",
            "categories",
            "readme",
            "documentation",
        ] {
            assert!(package.contains_key(field), "{library} has no `{field}`");
        }
        let keywords = package["keywords"].as_array().unwrap();
        assert!(
            keywords.len() <= 5,
            "{library}: crates.io takes five keywords"
        );
        assert!(root.join(library).join("README.md").is_file(), "{library}");
        // A path dependency needs a version to be published.
        let entry = dependencies[library].as_table().unwrap();
        assert!(
            entry.contains_key("version"),
            "`{library}` in [workspace.dependencies]"
        );
    }
}

/// A `major.minor[.patch]` version, compared numerically.
fn version(text: &str) -> [u64; 3] {
    let mut parts = text.split('.').map(|p| p.parse().unwrap_or(0));
    [0; 3].map(|_| parts.next().unwrap_or(0))
}

/// Each workspace crate's `rust-version` is at least the highest that any
/// crate it builds with (dependencies of every kind, transitively) declares.
#[test]
fn declared_rust_versions_cover_every_dependency() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Only this host's dependencies: a fresh clone has downloaded nothing
    // else, and the test must not need the network.
    let rustc = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let rustc = String::from_utf8_lossy(&rustc.stdout);
    let host = rustc
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--locked"])
        .args(["--filter-platform", host])
        .current_dir(repository_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();

    let rust_version: HashMap<&str, Option<&str>> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["rust_version"].as_str()))
        .collect();
    let edges: HashMap<&str, Vec<&str>> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let deps = n["dependencies"].as_array().unwrap();
            (
                n["id"].as_str().unwrap(),
                deps.iter().filter_map(|d| d.as_str()).collect(),
            )
        })
        .collect();

    let mut too_old = BTreeMap::new();
    for member in metadata["workspace_members"].as_array().unwrap() {
        let member = member.as_str().unwrap();
        let declared = rust_version[member].unwrap_or_else(|| panic!("{member}: no rust-version"));
        let mut stack: Vec<&str> = edges[member].clone();
        let mut seen = std::collections::HashSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            if let Some(needed) = rust_version[id] {
                if version(needed) > version(declared) {
                    too_old.insert(
                        member.to_owned(),
                        format!("{id} needs {needed}, declared {declared}"),
                    );
                }
            }
            stack.extend(edges[id].iter().copied());
        }
    }
    assert!(too_old.is_empty(), "{too_old:#?}");
}
