//! Threads kept for the process, one per core, started on first use: for
//! work that must run beside the caller's thread right away (the
//! portfolio's second direction, a search the caller watches), where
//! starting a thread would cost tens of microseconds, more than a small
//! plan takes.
//!
//! Work goes to a kept thread only through a [`ClaimedThread`], and a
//! thread is claimed only while it is free: queued behind other work, a
//! job would start only when that work ended. When every thread is busy
//! the caller starts a thread of its own. A process forked after the
//! threads started has none of them, so there [`KeptThreads::get`] gives
//! `None`.
//!
//! ```
//! use planners::kept_threads::KeptThreads;
//!
//! let job = || 6 * 7;
//! let answer = match KeptThreads::get().and_then(KeptThreads::claim) {
//!     Some(thread) => thread.spawn(job).recv().unwrap(),
//!     None => std::thread::spawn(job).join(),
//! };
//! assert_eq!(answer.unwrap(), 42);
//! ```

use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::OnceLock;

/// The process's kept threads and how many of them are claimed.
#[derive(Debug)]
pub struct KeptThreads {
    pool: rayon::ThreadPool,
    threads: usize,
    busy: AtomicUsize,
    /// The process that started the threads.
    process: u32,
}

impl KeptThreads {
    /// The kept threads, started on first use; `None` if they cannot start
    /// or belong to the parent of this forked process.
    pub fn get() -> Option<&'static Self> {
        static KEPT: OnceLock<Option<KeptThreads>> = OnceLock::new();
        KEPT.get_or_init(|| {
            let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("searchlab-kept-{i}"))
                .build()
                .ok()?;
            Some(Self {
                pool,
                threads,
                busy: AtomicUsize::new(0),
                process: std::process::id(),
            })
        })
        .as_ref()
        .filter(|kept| kept.process == std::process::id())
    }

    /// Claims a free thread, if there is one.
    pub fn claim(&'static self) -> Option<ClaimedThread> {
        self.busy
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |busy| {
                (busy < self.threads).then_some(busy + 1)
            })
            .ok()
            .map(|_| ClaimedThread(self))
    }

    /// How many threads there are.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

/// A kept thread claimed for one job: free again when the job ends (or
/// unwinds), or when the claim is dropped unused.
#[derive(Debug)]
pub struct ClaimedThread(&'static KeptThreads);

impl ClaimedThread {
    /// Runs `job` on the claimed thread; its result, or its panic's
    /// payload (as [`std::thread::JoinHandle::join`] gives it), arrives on
    /// the returned receiver. The receiver may be dropped: the job runs to
    /// its end all the same.
    pub fn spawn<R: Send + 'static>(
        self,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Receiver<std::thread::Result<R>> {
        let (sender, receiver) = mpsc::channel();
        let kept = self.0;
        kept.pool.spawn(move || {
            let _claim = self;
            // Caught: a panic escaping a pool's job aborts the process.
            let _ = sender.send(catch_unwind(AssertUnwindSafe(job)));
        });
        receiver
    }

    /// The pool the thread is in, for a scope that borrows (see
    /// `beside.rs`).
    pub(crate) fn pool(&self) -> &'static rayon::ThreadPool {
        &self.0.pool
    }
}

impl Drop for ClaimedThread {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}
