//! Embeds the git revision searchlab is built from, which every record
//! carries: `SEARCHLAB_REVISION` (the commit's hash) and `SEARCHLAB_DIRTY`
//! (`true` when the sources built into searchlab differ from the commit),
//! both `unknown` outside a git checkout (a crate tarball, no `git`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What is built into the `searchlab` program, relative to the workspace
/// root: an edit there makes the build dirty.
const SOURCES: [&str; 15] = [
    "Cargo.toml",
    "Cargo.lock",
    "search-core/Cargo.toml",
    "search-core/src",
    "state-atomic/Cargo.toml",
    "state-atomic/src",
    "state-factored/Cargo.toml",
    "state-factored/src",
    "planners/Cargo.toml",
    "planners/src",
    "benches/lab/Cargo.toml",
    "benches/lab/build.rs",
    "benches/lab/src",
    "benches/searchlab/Cargo.toml",
    "benches/searchlab/src",
];

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest.join("../..");
    // Only this repository's own checkout, not one it happens to sit in.
    let in_checkout = root.join(".git").exists();
    let revision = in_checkout
        .then(|| git(&root, &["rev-parse", "HEAD"]))
        .flatten();
    let dirty = revision.as_ref().and_then(|_| {
        // Without optional locks, status leaves the index alone: rewriting
        // it would disturb the user's git and make every build look new.
        let mut args = vec![
            "--no-optional-locks",
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
        ];
        args.extend(SOURCES);
        git(&root, &args).map(|changes| !changes.is_empty())
    });
    println!(
        "cargo:rustc-env=SEARCHLAB_REVISION={}",
        revision.as_deref().unwrap_or("unknown")
    );
    println!(
        "cargo:rustc-env=SEARCHLAB_DIRTY={}",
        dirty.map_or("unknown", |d| if d { "true" } else { "false" })
    );
    if revision.is_none() {
        // Watch for a checkout to appear: while `.git` is missing, cargo
        // reruns this script on every build (a few milliseconds), so a
        // build directory shared with a copy outside git never keeps
        // "unknown" for a checkout.
        println!("cargo:rerun-if-changed=build.rs");
        println!("cargo:rerun-if-changed={}", root.join(".git").display());
        return;
    }
    // Rerun when HEAD moves (a checkout, a commit) or a source changes;
    // staging (the index) changes neither the commit nor the sources.
    let mut watched: Vec<String> = SOURCES
        .iter()
        .map(|s| root.join(s).display().to_string())
        .collect();
    let mut git_files = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    if let Some(branch) = git(&root, &["symbolic-ref", "-q", "HEAD"]) {
        git_files.push(branch);
    }
    for file in git_files {
        // A missing file would make cargo rerun this script every build.
        if let Some(path) = git(&root, &["rev-parse", "--git-path", &file])
            .map(|p| root.join(p))
            .filter(|p| p.exists())
        {
            watched.push(path.display().to_string());
        }
    }
    for path in watched {
        println!("cargo:rerun-if-changed={path}");
    }
}
