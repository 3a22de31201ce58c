//! Runs in a child process under operating-system limits, as Downward Lab
//! runs each planner call: a run that blows past its memory, loops, or
//! crashes (abort, stack overflow, the kernel's OOM killer) ends only
//! itself, and the suite records it and goes on.
//!
//! The child is the program itself (`searchlab run-one`, or a researcher's
//! own [`crate::Lab`] binary, so their heuristics come along): it reads one
//! [`ChildRun`] as JSON on standard input and writes its [`RunRecord`] as
//! one JSON line on standard output. The parent starts it through
//! `/bin/sh -c 'ulimit -v KIB; exec ...'`, which caps its address space
//! (`RLIMIT_AS`) at the run's memory limit plus [`Isolation::memory_slack`]
//! for code, stacks and the allocator, and kills it [`Isolation::grace`]
//! after its time limit (the search stops itself at that limit; this is the
//! backstop).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::limits::RunLimits;
use crate::record::{RunOutcome, RunRecord};
use crate::suite::Source;

/// How isolated runs start.
#[derive(Clone, Debug, PartialEq)]
pub struct Isolation {
    /// The program that runs `run-one` (the `searchlab` binary, or a
    /// program built on [`crate::Lab`]).
    pub program: PathBuf,
    /// Address space beyond the run's memory limit: the program's code,
    /// thread stacks and the allocator's own reserve.
    pub memory_slack: usize,
    /// How long after its time limit a child is killed.
    pub grace: Duration,
    /// Runs with a time or memory limit beyond these (or none) run in a
    /// child even on problems that cannot blow up in grounding.
    pub above: RunLimits,
}

impl Isolation {
    /// Children of `program`, with 512 MiB of slack and 5 s of grace,
    /// for PDDL tasks and for runs with limits beyond 60 s or 512 MiB.
    pub fn new(program: PathBuf) -> Self {
        Self {
            program,
            memory_slack: 512 << 20,
            grace: Duration::from_secs(5),
            above: RunLimits {
                max_expansions: None,
                max_time: Some(Duration::from_secs(60)),
                max_memory_bytes: Some(512 << 20),
            },
        }
    }

    /// Whether a run under `limits` on a problem of `kind` runs in a
    /// child: every PDDL task (grounding can blow up), and any run whose
    /// time or memory limit is beyond (or missing from) [`Isolation::above`].
    pub fn applies(&self, kind: crate::suite::Kind, limits: RunLimits) -> bool {
        let beyond = |limit: Option<u128>, above: Option<u128>| match (limit, above) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(limit), Some(above)) => limit > above,
        };
        matches!(
            kind,
            crate::suite::Kind::Pddl | crate::suite::Kind::NumericPddl
        ) || beyond(
            limits.max_time.map(|t| t.as_millis()),
            self.above.max_time.map(|t| t.as_millis()),
        ) || beyond(
            limits.max_memory_bytes.map(|b| b as u128),
            self.above.max_memory_bytes.map(|b| b as u128),
        )
    }

    /// Children of this very program ([`std::env::current_exe`]).
    ///
    /// # Errors
    /// When the program's path cannot be found.
    pub fn this_program() -> std::io::Result<Self> {
        std::env::current_exe().map(Self::new)
    }
}

/// What a child runs: one configuration on one problem.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChildRun {
    /// The problem's domain (family) name in the suite.
    pub domain: String,
    /// The problem's name in the suite.
    pub name: String,
    /// Where the problem comes from (a PDDL task is carried whole).
    pub source: Source,
    /// The configuration's name, for the record.
    pub config: String,
    /// How it plans, as a configuration name that
    /// [`crate::suite::Configuration::by_name_among`] reads
    /// (`fwd-astar-hmax`): a suite may have named it otherwise.
    pub method: String,
    /// The run's limits.
    pub limits: RunLimits,
}

/// The most of a child's standard error kept in a record.
const STDERR_TAIL: usize = 2000;

/// Runs `run` in a child under `isolation`; the record says how it ended,
/// with [`RunOutcome::OutOfMemory`], [`RunOutcome::OutOfTime`] or
/// [`RunOutcome::Crashed`] (and what the child printed) when the operating
/// system or the backstop ended it. `planned` is the run's record before it
/// runs (its number, names, limits and build), which a failure fills in.
pub fn run_child(isolation: &Isolation, run: &ChildRun, planned: RunRecord) -> RunRecord {
    let mut record = planned;
    let fail = |mut record: RunRecord, outcome, message: String| {
        record.outcome = outcome;
        record.error = Some(message);
        record
    };
    let input = match serde_json::to_vec(run) {
        Ok(input) => input,
        Err(e) => {
            return fail(
                record,
                RunOutcome::Error,
                format!("cannot encode the run: {e}"),
            )
        }
    };
    let mut command = Command::new("/bin/sh");
    let script = match run.limits.max_memory_bytes {
        Some(bytes) => {
            let kib = bytes.saturating_add(isolation.memory_slack) / 1024;
            format!("ulimit -v {kib} && exec \"$0\" run-one")
        }
        None => "exec \"$0\" run-one".to_owned(),
    };
    command
        .arg("-c")
        .arg(script)
        .arg(&isolation.program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let began = Instant::now();
    record.started = Some(crate::provenance::rfc3339(std::time::SystemTime::now()));
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let message = format!("cannot start {}: {e}", isolation.program.display());
            return fail(record, RunOutcome::Error, message);
        }
    };
    // A child that dies before reading its input closes the pipe: its
    // status then says why.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&input);
    }
    // Drain both pipes on threads so that a chatty child never blocks.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let deadline = run.limits.max_time.map(|t| t + isolation.grace);
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if deadline.is_some_and(|d| began.elapsed() >= d) {
            let _ = child.kill();
            timed_out = true;
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = tail(&String::from_utf8_lossy(&stderr.join().unwrap_or_default()));
    record.time = began.elapsed().as_secs_f64();
    if timed_out {
        let message = format!(
            "killed {:.1} s after its time limit",
            isolation.grace.as_secs_f64()
        );
        return fail(record, RunOutcome::OutOfTime, join(&message, &stderr));
    }
    let Some(status) = status else {
        return fail(record, RunOutcome::Crashed, join("lost the child", &stderr));
    };
    if status.success() {
        if let Some(mut child_record) = serde_json::from_slice::<RunRecord>(&stdout)
            .ok()
            .filter(|r| r.config == run.config)
        {
            child_record.run = record.run;
            return child_record;
        }
        let message = "the child's output is not a record";
        return fail(record, RunOutcome::Crashed, join(message, &stderr));
    }
    let outcome = if out_of_memory(status, &stderr) {
        RunOutcome::OutOfMemory
    } else {
        RunOutcome::Crashed
    };
    fail(record, outcome, join(&describe(status), &stderr))
}

/// Reads `pipe` to its end on a thread of its own.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Whether a child ended for want of memory: Rust's allocation failure
/// message (then an abort), or the kernel's OOM killer (SIGKILL that the
/// parent did not send).
fn out_of_memory(status: ExitStatus, stderr: &str) -> bool {
    use std::os::unix::process::ExitStatusExt;
    stderr.contains("memory allocation of") || status.signal() == Some(9)
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (_, Some(9)) => {
            "the child was killed (signal 9: the kernel's OOM killer, or another process)"
                .to_owned()
        }
        (_, Some(signal)) => format!("the child died of signal {signal}"),
        (Some(code), None) => format!("the child exited with code {code}"),
        (None, None) => "the child ended".to_owned(),
    }
}

/// The last [`STDERR_TAIL`] bytes of `text`, on a character boundary.
fn tail(text: &str) -> String {
    let text = text.trim_end();
    let mut start = text.len().saturating_sub(STDERR_TAIL);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text[start..].to_owned()
}

fn join(message: &str, stderr: &str) -> String {
    if stderr.is_empty() {
        message.to_owned()
    } else {
        format!("{message}; it printed: {stderr}")
    }
}
