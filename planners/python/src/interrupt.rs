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
//! The other thread is one of a pool kept for the process (one thread per
//! core, started on first use): starting a thread per call would cost
//! tens of microseconds, several times a small plan. A search goes to the
//! pool only while one of its threads is free, so a search started from
//! inside another (a Python heuristic that plans) never waits for a
//! thread its caller holds; otherwise it gets a thread of its own. A
//! process forked after the pool started has none of its threads, so a
//! forked child gives each search a thread of its own too.
//!
//! A second signal while the search is stopping (a long grounding, which
//! does not look at the flag) raises at once, leaving the search to end
//! on its own thread.

use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use pyo3::prelude::*;

use crate::error;

/// How often the waiting thread looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// What a search thread sends back: the result, or the panic's message.
type Answer<R> = Result<R, String>;

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
    let (sender, receiver) = mpsc::channel();
    let job = move || {
        let answer = catch_unwind(AssertUnwindSafe(search)).map_err(|panic| {
            panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default()
        });
        // The receiver waits for as long as the search runs.
        let _ = sender.send(answer);
    };
    match Pool::get().and_then(Pool::claim) {
        Some(claim) => claim.0.threads.spawn(move || {
            let _claim = claim;
            job();
        }),
        None => {
            thread::Builder::new()
                .name("searchlab-search".to_owned())
                .spawn(job)
                .map_err(|e| error(format!("cannot start a thread for the search: {e}")))?;
        }
    }
    let mut receiver = receiver;
    let mut signal: Option<PyErr> = None;
    loop {
        let (answer, back) = py.allow_threads(move || wait(receiver));
        receiver = back;
        let answer: Answer<R> = match answer {
            Ok(answer) => answer,
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

/// Waits up to [`POLL`] for the search's answer, handing the receiver
/// back (it is not `Sync`, so it moves in and out of the GIL-free closure).
fn wait<R>(receiver: Receiver<R>) -> (Result<R, RecvTimeoutError>, Receiver<R>) {
    (receiver.recv_timeout(POLL), receiver)
}

/// The kept search threads and how many of them are running a search.
struct Pool {
    threads: rayon::ThreadPool,
    size: usize,
    busy: AtomicUsize,
    /// The process that started the threads.
    process: u32,
}

impl Pool {
    /// The pool, started on first use; `None` if its threads cannot start
    /// or belong to the parent of this forked process.
    fn get() -> Option<&'static Self> {
        static POOL: OnceLock<Option<Pool>> = OnceLock::new();
        POOL.get_or_init(|| {
            let size = thread::available_parallelism().map_or(1, NonZeroUsize::get);
            let threads = rayon::ThreadPoolBuilder::new()
                .num_threads(size)
                .thread_name(|i| format!("searchlab-search-{i}"))
                .build()
                .ok()?;
            Some(Self {
                threads,
                size,
                busy: AtomicUsize::new(0),
                process: std::process::id(),
            })
        })
        .as_ref()
        .filter(|pool| pool.process == std::process::id())
    }

    /// Claims a free thread, if there is one.
    fn claim(&'static self) -> Option<Claim> {
        self.busy
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |busy| {
                (busy < self.size).then_some(busy + 1)
            })
            .ok()
            .map(|_| Claim(self))
    }
}

/// A claimed thread, freed when the search on it ends.
struct Claim(&'static Pool);

impl Drop for Claim {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}
