//! The results file of `searchlab bench --out DIR`: JSON lines, one
//! appended and flushed as each run finishes, so that a crash, a kill or a
//! Ctrl-C leaves a valid file with every finished run; `--resume` then
//! completes the experiment. Reports are built from this file alone.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::files::{check_replaceable, open_output, read_lines};
use crate::record::{parse_line, read_jsonl, write_jsonl, ResumeKey, RunRecord};
use crate::SuiteError;

/// What to do with results already in the directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Existing {
    /// Refuse a directory that holds anything (for a shard: its own
    /// non-empty results file), so that nothing is lost by mistake.
    #[default]
    Refuse,
    /// Keep the records of runs planned again with the same configuration,
    /// problem, limits and build ([`RunRecord::resume_key`]) and skip those
    /// runs; move the others to `{stem}.superseded.jsonl`.
    Resume,
    /// Start the results file again; the other files are replaced as they
    /// are written.
    Overwrite,
}

/// What [`ResultsFile::open`] found in the file when resuming.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resumed {
    /// The records kept: their runs need not run again.
    pub kept: Vec<RunRecord>,
    /// Records moved to `{stem}.superseded.jsonl`: another build, other
    /// limits, a run no longer planned, or a second record of one run.
    pub superseded: usize,
    /// Whether an unfinished last line (the process died writing it) was
    /// dropped; a last line without a newline that holds a whole record is
    /// kept, not torn.
    pub torn: bool,
}

impl Resumed {
    /// The keys of the kept records, for [`crate::runner::RunOptions::skip`].
    pub fn skip(&self) -> HashSet<ResumeKey> {
        self.kept.iter().filter_map(RunRecord::resume_key).collect()
    }
}

/// The results file `{dir}/{stem}.jsonl`, open for appending.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens `{dir}/{stem}.jsonl` before the first run, creating `dir`, so
    /// that a directory that cannot be written fails at once. `shared`
    /// says other shards write into `dir` too: then only this shard's own
    /// results count as something already there. `planned` are the records
    /// of the runs to do ([`crate::runner::planned_record`]), against which
    /// [`Existing::Resume`] matches the recorded ones. Two processes must
    /// not write one results file: take its [`ResultsLock`] first (the
    /// lock file does not count as something already there).
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] when `dir` already holds results and
    /// `existing` is [`Existing::Refuse`], or when the file is not a regular
    /// file (a link, a pipe); [`SuiteError::Io`] when `dir` or
    /// the file cannot be created or written; [`SuiteError::Json`] for a
    /// malformed record when resuming (except an unfinished last line that
    /// is not a whole record).
    ///
    /// ```
    /// use searchlab_lab::results::{Existing, ResultsFile};
    /// use searchlab_lab::record::RunRecord;
    ///
    /// let dir = std::env::temp_dir().join(format!("results-doc-{}", std::process::id()));
    /// let (mut file, _) = ResultsFile::open(&dir, "results", Existing::Refuse, false, &[]).unwrap();
    /// file.append(&RunRecord::new(0, "d", "p", "c")).unwrap();
    /// assert_eq!(file.finish().unwrap().len(), 1);
    /// // Not again without --resume or --overwrite.
    /// assert!(ResultsFile::open(&dir, "results", Existing::Refuse, false, &[]).is_err());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn open(
        dir: &Path,
        stem: &str,
        existing: Existing,
        shared: bool,
        planned: &[RunRecord],
    ) -> Result<(ResultsFile, Resumed), SuiteError> {
        let path = dir.join(format!("{stem}.jsonl"));
        refuse_non_directory(dir)?;
        // `finish` renames a new file over it: a link or a pipe would go.
        check_replaceable(&path)?;
        if existing == Existing::Refuse {
            refuse_existing(dir, &path, shared)?;
        }
        fs::create_dir_all(dir).map_err(|e| SuiteError::io(dir, &e))?;
        let resumed = if existing == Existing::Resume && path.exists() {
            resume(dir, stem, &path, planned)?
        } else {
            Resumed::default()
        };
        let file = open_output(&path, existing != Existing::Overwrite)?;
        Ok((ResultsFile { path, file }, resumed))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` as one line and hands it to the system at once: it
    /// survives the process (not a crash of the machine).
    ///
    /// # Errors
    /// [`SuiteError::Io`] when the line cannot be written.
    pub fn append(&mut self, record: &RunRecord) -> Result<(), SuiteError> {
        let mut line = serde_json::to_string(record).map_err(|e| SuiteError::Json {
            path: self.path.display().to_string(),
            line: 0,
            message: e.to_string(),
        })?;
        line.push('\n');
        // One write of the whole line: a kill leaves whole lines only, but
        // for the rare short write.
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| SuiteError::io(&self.path, &e))
    }

    /// Reads every record back, sorts them by run, rewrites the file in that
    /// order (a new file renamed over the old, so that a kill leaves one or
    /// the other) and returns them.
    ///
    /// # Errors
    /// [`SuiteError::Io`] or [`SuiteError::Json`] reading or writing.
    pub fn finish(self) -> Result<Vec<RunRecord>, SuiteError> {
        drop(self.file);
        let mut records = read_jsonl(&self.path)?;
        crate::record::refuse_duplicates(&records, &self.path.display().to_string())?;
        records.sort_by(|a, b| a.run.cmp(&b.run).then_with(|| a.key().cmp(&b.key())));
        replace(&self.path, &records)?;
        Ok(records)
    }
}

/// Refuses an `--out` that is there and not a directory.
fn refuse_non_directory(dir: &Path) -> Result<(), SuiteError> {
    if dir.exists() && !dir.is_dir() {
        return Err(SuiteError::Invalid(format!(
            "--out {}: not a directory",
            dir.display()
        )));
    }
    Ok(())
}

/// Refuses a directory holding anything (`shared`: `path`, non-empty) but
/// the lock of `path` ([`ResultsLock`]).
fn refuse_existing(dir: &Path, path: &Path, shared: bool) -> Result<(), SuiteError> {
    let holds_results = fs::metadata(path).is_ok_and(|m| m.len() > 0);
    let lock = path.with_extension("lock");
    let holds_anything = || {
        fs::read_dir(dir).is_ok_and(|mut entries| {
            entries
                .any(|e| e.is_ok_and(|e| e.path() != lock && (e.path() != path || holds_results)))
        })
    };
    if holds_results || (!shared && holds_anything()) {
        let what = if holds_results {
            format!("{} already holds results", path.display())
        } else {
            format!("{} is not empty", dir.display())
        };
        return Err(SuiteError::Invalid(format!(
            "{what}: give --resume to complete the runs recorded there, --overwrite to start \
             the results again, or another --out"
        )));
    }
    Ok(())
}

/// Reads the records in `path`, keeps those of `planned` runs and moves the
/// others to `{stem}.superseded.jsonl`.
fn resume(
    dir: &Path,
    stem: &str,
    path: &Path,
    planned: &[RunRecord],
) -> Result<Resumed, SuiteError> {
    let mut recorded = Vec::new();
    let mut torn = false;
    // A whole last record without its newline (written by hand, or by a
    // process that died between the two) is kept; the file is rewritten so
    // that the next record starts a line of its own.
    let mut unterminated = false;
    read_lines(path, |number, line, ended| {
        match parse_line(path, number, line) {
            Ok(Some(record)) => {
                unterminated = !ended;
                recorded.push(record);
            }
            Ok(None) => {}
            // The process died writing its last line.
            Err(_) if !ended => torn = true,
            Err(e) => return Err(e),
        }
        Ok(())
    })?;
    // Each planned run's index, by key.
    let mut wanted: HashMap<ResumeKey, usize> = planned
        .iter()
        .filter_map(|r| Some((r.resume_key()?, r.run)))
        .collect();
    let mut renumbered = false;
    let mut kept = Vec::new();
    let mut superseded = Vec::new();
    for mut record in recorded {
        // `remove`: a second record of one run is superseded by the first.
        match record.resume_key().and_then(|key| wanted.remove(&key)) {
            Some(run) => {
                // The run's place in a suite that has grown since.
                renumbered |= record.run != run;
                record.run = run;
                kept.push(record);
            }
            None => superseded.push(record),
        }
    }
    if !superseded.is_empty() {
        let aside = dir.join(format!("{stem}.superseded.jsonl"));
        let mut file = open_output(&aside, true)?;
        for record in &superseded {
            let line = serde_json::to_string(record).map_err(|e| SuiteError::Json {
                path: aside.display().to_string(),
                line: 0,
                message: e.to_string(),
            })?;
            writeln!(file, "{line}").map_err(|e| SuiteError::io(&aside, &e))?;
        }
    }
    if torn || unterminated || renumbered || !superseded.is_empty() {
        replace(path, &kept)?;
    }
    Ok(Resumed {
        kept,
        superseded: superseded.len(),
        torn,
    })
}

/// Replaces `path` by `records`: written beside it, then renamed over it.
fn replace(path: &Path, records: &[RunRecord]) -> Result<(), SuiteError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    write_jsonl(&temporary, records)?;
    check_replaceable(path)?;
    fs::rename(&temporary, path).map_err(|e| SuiteError::io(path, &e))
}

/// The lock of one results file, `{dir}/{stem}.lock`: created new, holding
/// the process id, host and Slurm job (if any) of the bench writing
/// `{dir}/{stem}.jsonl`, and removed when dropped; a second bench on the
/// same results fails at once. A lock left by a process that has ended
/// (killed, so it could not remove it) is taken over: one of this host
/// whose process is gone, or one of this very Slurm job (requeued, perhaps
/// on another node).
#[derive(Debug)]
pub struct ResultsLock {
    path: PathBuf,
}

impl ResultsLock {
    /// Creates `dir` if need be and takes the lock of `{dir}/{stem}.jsonl`.
    ///
    /// # Errors
    /// [`SuiteError::Invalid`] naming the directory and the lock's holder
    /// when another process holds it, or when `dir` is not a directory;
    /// [`SuiteError::Io`] when it cannot be created.
    ///
    /// ```
    /// use searchlab_lab::results::ResultsLock;
    /// let dir = std::env::temp_dir().join(format!("results-lock-doc-{}", std::process::id()));
    /// let lock = ResultsLock::acquire(&dir, "results").unwrap();
    /// let error = ResultsLock::acquire(&dir, "results").unwrap_err();
    /// assert!(error.to_string().contains(&format!("process {}", std::process::id())));
    /// drop(lock);
    /// assert!(ResultsLock::acquire(&dir, "results").is_ok());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn acquire(dir: &Path, stem: &str) -> Result<ResultsLock, SuiteError> {
        refuse_non_directory(dir)?;
        fs::create_dir_all(dir).map_err(|e| SuiteError::io(dir, &e))?;
        let path = dir.join(format!("{stem}.lock"));
        let me = format!(
            "{} {} {}\n",
            std::process::id(),
            this_host(),
            slurm_job().unwrap_or_else(|| "-".to_owned())
        );
        // Twice: once more after taking over a stale lock.
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(me.as_bytes())
                        .map_err(|e| SuiteError::io(&path, &e))?;
                    return Ok(ResultsLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = Holder::read(&path);
                    if holder.as_ref().is_some_and(Holder::ended)
                        && check_replaceable(&path).is_ok()
                    {
                        // Gone already is as good: another bench took it over first.
                        let _ = fs::remove_file(&path);
                        continue;
                    }
                    return Err(in_use(dir, &path, holder.as_ref()));
                }
                Err(e) => return Err(SuiteError::io(&path, &e)),
            }
        }
        Err(in_use(dir, &path, Holder::read(&path).as_ref()))
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ResultsLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Who holds a lock, as its file says.
#[derive(Debug)]
struct Holder {
    pid: u32,
    host: String,
    slurm_job: Option<String>,
}

impl Holder {
    fn read(path: &Path) -> Option<Holder> {
        let bytes = planners::input::read_capped(path, 4096).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let mut words = text.split_whitespace();
        let pid = words.next()?.parse().ok()?;
        let host = words.next().unwrap_or_default().to_owned();
        let slurm_job = words.next().filter(|j| *j != "-").map(str::to_owned);
        Some(Holder {
            pid,
            host,
            slurm_job,
        })
    }

    /// Whether the holder is known to have ended: a process of this host
    /// that no longer runs, or an earlier run of this Slurm job on another
    /// node (Slurm runs one at a time; a process of another host cannot be
    /// asked).
    fn ended(&self) -> bool {
        if self.host == this_host() {
            !process_runs(self.pid)
        } else {
            self.slurm_job.is_some() && self.slurm_job == slurm_job()
        }
    }
}

/// The Slurm job this process runs in, which a requeued job keeps.
fn slurm_job() -> Option<String> {
    std::env::var("SLURM_JOB_ID")
        .ok()
        .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
}

fn this_host() -> String {
    crate::provenance::Machine::this()
        .hostname
        .clone()
        .unwrap_or_else(|| "localhost".to_owned())
        .replace(char::is_whitespace, "-")
}

/// Whether process `pid` runs on this machine: `/proc/PID` where there is a
/// `/proc`, else what `kill -0 PID` says (no system binding needed).
fn process_runs(pid: u32) -> bool {
    if Path::new("/proc/self").exists() {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_or(true, |status| status.success())
}

fn in_use(dir: &Path, lock: &Path, holder: Option<&Holder>) -> SuiteError {
    let by = holder.map_or_else(
        || "another process".to_owned(),
        |h| format!("process {} on {}", h.pid, h.host),
    );
    SuiteError::Invalid(format!(
        "{} is in use by another bench ({by}, which holds {}): wait for it to end or give \
         another --out (if no bench runs there, remove the lock file)",
        dir.display(),
        lock.display()
    ))
}
