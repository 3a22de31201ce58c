//! The README's commands run as written. Every `sh` block's files exist in
//! the repository; the blocks marked `<!-- runnable -->` run in order, as
//! one script each, from a scratch folder that sees the repository's files,
//! with `cargo run --release --` standing for this build of `searchlab`.
//! Before, `report all.jsonl` failed unless a line before it had run, and
//! `plan domain.pddl problem.pddl` named files that do not exist.

use std::path::PathBuf;
use std::process::Command;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A fenced `sh` block: its text and whether it is marked runnable.
struct Block {
    line: usize,
    text: String,
    runnable: bool,
}

fn sh_blocks(readme: &str) -> Vec<Block> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "```sh" {
            let marked = lines[..i]
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.trim() == "<!-- runnable -->");
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == "```")
                .expect("a closed block");
            blocks.push(Block {
                line: i + 1,
                text: lines[i + 1..end].join("\n"),
                runnable: marked,
            });
            i = end;
        }
        i += 1;
    }
    blocks
}

/// The words of a block's commands, comments and line continuations gone.
fn words(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(" #").next().unwrap_or(l))
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .filter(|w| *w != "\\")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_file_a_readme_command_names_exists() {
    let root = repository();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = sh_blocks(&readme);
    assert!(blocks.len() >= 4, "the README's command blocks");
    for block in &blocks {
        for word in words(&block.text) {
            // Inputs: problem and suite files, and paths into the
            // repository's own folders (outputs such as results/ and
            // target/ are made by the commands).
            let input = std::path::Path::new(&word)
                .extension()
                .is_some_and(|e| e == "pddl" || e == "toml");
            let first = word.split_once('/').map(|(first, _)| first);
            let shipped = first.is_some_and(|f| f != "target" && root.join(f).is_dir());
            if (input || shipped) && !word.contains('*') && !word.starts_with('-') {
                assert!(
                    root.join(&word).exists(),
                    "README.md:{}: `{word}` does not exist",
                    block.line
                );
            }
        }
    }
}

#[test]
fn the_runnable_readme_blocks_run_in_order() {
    let root = repository();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let runnable: Vec<Block> = sh_blocks(&readme)
        .into_iter()
        .filter(|b| b.runnable)
        .collect();
    assert!(runnable.len() >= 2, "the README marks its runnable blocks");
    let scratch = std::env::temp_dir().join(format!("searchlab-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for folder in ["benchmarks", "problems", "benches", "scripts"] {
        std::os::unix::fs::symlink(root.join(folder), scratch.join(folder)).unwrap();
    }
    for block in runnable {
        for command in words(&block.text).join(" ").split(" && ") {
            assert!(
                !command.contains("cargo") || command.contains("cargo run --release --"),
                "README.md:{}: a runnable block runs only `searchlab` ({command})",
                block.line
            );
        }
        let script = block
            .text
            .replace("cargo run --release --", "\"$SEARCHLAB\"");
        let output = Command::new("sh")
            .args(["-e", "-c", &script])
            .current_dir(&scratch)
            .env("SEARCHLAB", env!("CARGO_BIN_EXE_searchlab"))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "README.md:{}: the block failed ({}):\n{}\n{}",
            block.line,
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // What the blocks promise to make.
    for made in ["plan.txt", "all.jsonl", "report/report.md"] {
        assert!(scratch.join(made).exists(), "{made} was not made");
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}
