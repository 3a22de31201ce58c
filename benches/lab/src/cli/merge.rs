//! `searchlab merge`: join result files.

use std::path::{Path, PathBuf};

use crate::record::{merge, read_jsonl, write_jsonl, Prefer};
use crate::SuiteError;

/// Joins the result files `parts` into `out`, keeping one record of each
/// run (`prefer` says which of two that differ).
pub(super) fn merge_files(
    parts: &[PathBuf],
    out: &Path,
    prefer: Option<Prefer>,
) -> Result<(), SuiteError> {
    let mut sets = Vec::new();
    for part in parts {
        sets.push((part.display().to_string(), read_jsonl(part)?));
    }
    let merged = merge(sets, prefer)?;
    write_jsonl(out, &merged.records)?;
    let mut dropped = Vec::new();
    if merged.identical > 0 {
        dropped.push(format!("{} identical duplicates dropped", merged.identical));
    }
    if merged.conflicts > 0 {
        dropped.push(format!(
            "{} conflicting records dropped, keeping the {} file's",
            merged.conflicts,
            if prefer == Some(Prefer::Last) {
                "last"
            } else {
                "first"
            }
        ));
    }
    println!(
        "merged {} files: {} runs into {}{}",
        parts.len(),
        merged.records.len(),
        out.display(),
        if dropped.is_empty() {
            String::new()
        } else {
            format!(" ({})", dropped.join(", "))
        }
    );
    Ok(())
}
