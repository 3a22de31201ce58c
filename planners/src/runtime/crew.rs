//! A crew of threads kept running for work that comes in rounds: a
//! simulation that plans its agents every step, in shards, one per thread.
//!
//! Waking a sleeping thread costs tens of microseconds on a virtual machine
//! (the host must wake its processor), as much as a shard of a thousand
//! small plans takes: handing each round to a thread pool that sleeps
//! between rounds took 1,000 plans on two cores from 176 µs to 140 µs, not
//! to 88 µs. A crew's helpers spin between rounds instead, for a while
//! ([`Crew::set_spin`]) before they sleep, so a round that follows the last
//! one closely starts at once on every thread.
//!
//! The helpers are scoped threads ([`std::thread::scope`]): they live for
//! one call of [`with_crew`] and may borrow what the caller has. Each round
//! runs the task once per thread, the caller's included, with the thread's
//! number; what a thread keeps from one round to the next (its
//! [`PlanBuffer`](crate::PlanBuffer), its shard of agents) it reaches
//! through that number.
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use planners::crew::with_crew;
//!
//! // Three threads sum their thirds of 0..3000, round after round.
//! let sums: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
//! let task = |k: usize| {
//!     let third = (k as u64 * 1000)..((k as u64 + 1) * 1000);
//!     sums[k].store(third.sum(), Ordering::Relaxed);
//! };
//! with_crew(2, &task, |crew| {
//!     for _ in 0..100 {
//!         crew.round();
//!         let total: u64 = sums.iter().map(|s| s.load(Ordering::Relaxed)).sum();
//!         assert_eq!(total, (0..3000).sum());
//!     }
//! });
//! ```

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How long a helper spins after a round before it sleeps, by default: a
/// few rounds of a thousand plans, so rounds that follow each other closely
/// never wait for a wake-up, while a crew left idle gives its cores back
/// within a millisecond.
pub const DEFAULT_SPIN: Duration = Duration::from_millis(1);

/// The round a helper is told to stop at.
const STOP: u64 = u64::MAX;

/// A crew's threads, as the caller of [`with_crew`] drives them.
pub struct Crew<'c> {
    shared: &'c Shared,
    task: &'c (dyn Fn(usize) + Sync + 'c),
    helpers: Vec<Thread>,
    round: u64,
}

/// What the caller and the helpers share.
struct Shared {
    /// The round the helpers are to run ([`STOP`]: none, end).
    round: AtomicU64,
    /// Per helper: the last round it finished, and whether it sleeps.
    done: Vec<AtomicU64>,
    asleep: Vec<AtomicBool>,
    /// How long a helper spins before it sleeps, in nanoseconds.
    spin: AtomicU64,
    /// A helper's task that panicked, to be raised on the caller's thread.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// Runs `body` with a crew of `helpers` threads beside the caller's. Each
/// [`Crew::round`] runs `task(0)` on the caller's thread and `task(k)` on
/// helper `k` (1 to `helpers`), and returns when all have. The helpers end
/// when `body` returns.
///
/// # Panics
/// If a task panics, [`Crew::round`] raises the panic on the caller's
/// thread once the round is over; the crew stays usable.
pub fn with_crew<T, R>(helpers: usize, task: &T, body: impl FnOnce(&mut Crew<'_>) -> R) -> R
where
    T: Fn(usize) + Sync,
{
    let shared = Shared {
        round: AtomicU64::new(0),
        done: (0..helpers).map(|_| AtomicU64::new(0)).collect(),
        asleep: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
        spin: AtomicU64::new(nanos(DEFAULT_SPIN)),
        panic: Mutex::new(None),
    };
    thread::scope(|scope| {
        let shared = &shared;
        let threads = (0..helpers)
            .map(|i| {
                let handle = scope.spawn(move || helper(shared, i, task));
                handle.thread().clone()
            })
            .collect();
        let mut crew = Crew {
            shared,
            task,
            helpers: threads,
            round: 0,
        };
        let result = catch_unwind(AssertUnwindSafe(|| body(&mut crew)));
        crew.stop();
        result.unwrap_or_else(|payload| resume_unwind(payload))
    })
}

impl Crew<'_> {
    /// Runs one round: the task on every thread, the caller's as number 0.
    ///
    /// # Panics
    /// If a task panicked in this round (the first such panic is raised).
    pub fn round(&mut self) {
        self.round += 1;
        let shared = self.shared;
        shared.round.store(self.round, Ordering::SeqCst);
        self.wake();
        let own = catch_unwind(AssertUnwindSafe(|| (self.task)(0)));
        // The helpers are running: wait for them without sleeping.
        for done in &shared.done {
            let mut waits = 0_u32;
            while done.load(Ordering::Acquire) != self.round {
                pause(&mut waits);
            }
        }
        if let Err(payload) = own {
            resume_unwind(payload);
        }
        let panicked = shared
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(payload) = panicked {
            resume_unwind(payload);
        }
    }

    /// How long the helpers spin after a round before they sleep
    /// ([`DEFAULT_SPIN`] unless set): longer keeps rounds that come
    /// further apart from waiting for a wake-up, at the price of the cores
    /// spent spinning.
    pub fn set_spin(&mut self, spin: Duration) {
        self.shared.spin.store(nanos(spin), Ordering::Relaxed);
    }

    /// The threads a round runs on: the helpers and the caller.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Wakes the helpers that went to sleep.
    fn wake(&self) {
        for (thread, asleep) in self.helpers.iter().zip(&self.shared.asleep) {
            // Sequentially consistent with the helper's own store and read
            // (see `wait_for_round`): one of the two sees the other's.
            if asleep.swap(false, Ordering::SeqCst) {
                thread.unpark();
            }
        }
    }

    /// Tells the helpers to end, and wakes those asleep.
    fn stop(&mut self) {
        self.shared.round.store(STOP, Ordering::Release);
        for thread in &self.helpers {
            thread.unpark();
        }
    }
}

/// Helper `i`'s loop: wait for a round (spinning, then asleep), run
/// `task(i + 1)`, say it is done.
fn helper<T: Fn(usize) + Sync + ?Sized>(shared: &Shared, i: usize, task: &T) {
    let mut last = 0;
    loop {
        let round = wait_for_round(shared, i, last);
        if round == STOP {
            return;
        }
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| task(i + 1))) {
            let mut kept = shared.panic.lock().unwrap_or_else(PoisonError::into_inner);
            kept.get_or_insert(payload);
        }
        last = round;
        shared.done[i].store(round, Ordering::Release);
    }
}

/// Waits until the round is no longer `last`: spinning for the crew's spin
/// time, then asleep (the caller wakes helpers it finds asleep).
fn wait_for_round(shared: &Shared, i: usize, last: u64) -> u64 {
    let began = Instant::now();
    let spin = Duration::from_nanos(shared.spin.load(Ordering::Relaxed));
    let mut spins = 0_u32;
    loop {
        let round = shared.round.load(Ordering::Acquire);
        if round != last {
            return round;
        }
        pause(&mut spins);
        // The clock is read once in a while: a read costs about as much as
        // a hundred spins.
        if spins.is_multiple_of(256) && began.elapsed() >= spin {
            shared.asleep[i].store(true, Ordering::SeqCst);
            // Read again after saying so: a round set before it was said
            // is seen here; one set after wakes this thread.
            while shared.round.load(Ordering::SeqCst) == last {
                thread::park();
            }
            shared.asleep[i].store(false, Ordering::Relaxed);
        }
    }
}

/// One wait of a thread that does not sleep: a spin at first, then a
/// yield, so that a crew of more threads than cores still gets on (a
/// thread spinning for one that has no core would hold the core it needs).
fn pause(waits: &mut u32) {
    *waits = waits.wrapping_add(1);
    if *waits < 1024 {
        std::hint::spin_loop();
    } else {
        thread::yield_now();
    }
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the runs of each thread's task.
    fn counters(threads: usize) -> Vec<AtomicU64> {
        (0..threads).map(|_| AtomicU64::new(0)).collect()
    }

    #[test]
    fn every_thread_runs_once_a_round() {
        for helpers in [0, 1, 3] {
            let runs = counters(helpers + 1);
            let task = |k: usize| {
                runs[k].fetch_add(1, Ordering::Relaxed);
            };
            with_crew(helpers, &task, |crew| {
                assert_eq!(crew.threads(), helpers + 1);
                for _ in 0..500 {
                    crew.round();
                }
            });
            assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 500));
        }
    }

    #[test]
    fn helpers_asleep_are_woken_for_the_next_round() {
        let runs = counters(3);
        let task = |k: usize| {
            runs[k].fetch_add(1, Ordering::Relaxed);
        };
        with_crew(2, &task, |crew| {
            crew.set_spin(Duration::ZERO);
            for round in 1..=20 {
                crew.round();
                // Long enough for the helpers to fall asleep.
                thread::sleep(Duration::from_millis(2));
                assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == round));
            }
        });
    }

    #[test]
    fn a_task_s_panic_reaches_the_caller_and_the_crew_goes_on() {
        let fail = AtomicBool::new(true);
        let runs = counters(2);
        let task = |k: usize| {
            runs[k].fetch_add(1, Ordering::Relaxed);
            assert!(
                k != 1 || !fail.swap(false, Ordering::Relaxed),
                "helper failed"
            );
        };
        with_crew(1, &task, |crew| {
            let raised = catch_unwind(AssertUnwindSafe(|| crew.round()));
            assert!(raised.is_err());
            crew.round();
        });
        assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 2));
    }
}
