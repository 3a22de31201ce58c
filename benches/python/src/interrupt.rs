//! Searches that Ctrl-C stops.
//!
//! Python runs its signal handlers on the main thread, between bytecodes,
//! so a search running on that thread (the GIL released) would keep
//! Ctrl-C waiting until it ended. Each search therefore runs on another
//! thread while the calling thread, without the GIL, waits for it and
//! looks for signals every [`POLL`]: on one it raises the search's
//! cancellation flag, waits for the search to stop and raises the signal's
//! exception (`KeyboardInterrupt` for Ctrl-C).
//!
//! The other thread is one of planners' [`KeptThreads`] when one is free:
//! starting a thread per call would cost tens of microseconds, several
//! times a small plan. Otherwise (every kept thread busy, as when a Python
//! heuristic plans inside a search, or a process forked after the threads
//! started) the search gets a thread of its own.
//!
//! A second signal while the search is stopping (a long grounding, which
//! does not look at the flag) raises at once, leaving the search to end
//! on its own thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use planners::kept_threads::KeptThreads;
use pyo3::prelude::*;

use crate::error;

/// How often the waiting thread looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `search` on another thread and returns its result, unless a
/// signal's handler raises first: then `cancel` is raised, the search is
/// waited for, and the handler's exception is returned.
///
/// # Errors
/// A signal handler's exception, or a `SearchlabError` if the search
/// panicked or no thread could be started for it.
pub(crate) fn interruptible<R: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    search: impl FnOnce() -> R + Send + 'static,
) -> PyResult<R> {
    let mut receiver = match KeptThreads::get().and_then(KeptThreads::claim) {
        Some(thread) => thread.spawn(search),
        None => own_thread(search)?,
    };
    let mut signal: Option<PyErr> = None;
    loop {
        let (answer, back) = py.allow_threads(move || wait(receiver));
        receiver = back;
        let answer = match answer {
            Ok(answer) => answer.map_err(|panic| {
                panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default()
            }),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(raised) = py.check_signals() {
                    if signal.is_some() {
                        return Err(raised);
                    }
                    cancel.store(true, Ordering::Relaxed);
                    signal = Some(raised);
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err("the search's thread ended without an answer".to_owned())
            }
        };
        if let Some(signal) = signal {
            return Err(signal);
        }
        return answer
            .map_err(|panic| error(format!("the search panicked (a bug in searchlab): {panic}")));
    }
}

/// Runs `search` on a thread started for it, answering as
/// [`ClaimedThread::spawn`](planners::kept_threads::ClaimedThread::spawn)
/// does.
fn own_thread<R: Send + 'static>(
    search: impl FnOnce() -> R + Send + 'static,
) -> PyResult<Receiver<thread::Result<R>>> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("searchlab-search".to_owned())
        .spawn(move || {
            let _ = sender.send(catch_unwind(AssertUnwindSafe(search)));
        })
        .map_err(|e| error(format!("cannot start a thread for the search: {e}")))?;
    Ok(receiver)
}

/// Waits up to [`POLL`] for the search's answer, handing the receiver
/// back (it is not `Sync`, so it moves in and out of the GIL-free closure).
fn wait<R>(receiver: Receiver<R>) -> (Result<R, RecvTimeoutError>, Receiver<R>) {
    (receiver.recv_timeout(POLL), receiver)
}
