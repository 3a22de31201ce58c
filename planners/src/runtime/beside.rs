//! Running one closure on another thread while this thread runs a second:
//! the portfolio's two directions, at the same time.
//!
//! The other thread is one of the [`KeptThreads`] when one is free (never
//! from a thread of a rayon pool: waiting for it there would run that
//! pool's other jobs, inside this plan's time); otherwise it is a thread
//! of its own.

use std::panic::resume_unwind;

use super::kept_threads::KeptThreads;

/// Runs `side` on another thread while this one runs `main`, and returns
/// both results once both have ended. A panic in either is resumed here
/// after both ended.
pub(crate) fn run_beside<M, S, RM, RS>(main: M, side: S) -> (RM, RS)
where
    M: FnOnce() -> RM,
    S: FnOnce() -> RS + Send,
    RS: Send,
{
    let claim = rayon::current_thread_index()
        .is_none()
        .then(KeptThreads::get)
        .flatten()
        .and_then(KeptThreads::claim);
    let Some(claim) = claim else {
        return std::thread::scope(|scope| {
            let side = scope.spawn(side);
            let main = main();
            (
                main,
                side.join().unwrap_or_else(|panic| resume_unwind(panic)),
            )
        });
    };
    let mut side_result = None;
    let main_result = claim.pool().in_place_scope(|scope| {
        scope.spawn(|_| {
            let _claim = claim;
            side_result = Some(side());
        });
        main()
    });
    // The scope returns only once `side` has returned (a panic in it is
    // resumed by the scope), so the result is there.
    let side_result = side_result.unwrap_or_else(|| unreachable!("the scope waited for `side`"));
    (main_result, side_result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread::ThreadId;

    /// The two closures run on different threads, at the same time: each
    /// waits for the other to start.
    #[test]
    fn both_closures_run_at_once_on_two_threads() {
        for _ in 0..50 {
            let (main_started, side_started) = (AtomicBool::new(false), AtomicBool::new(false));
            let wait_for = |flag: &AtomicBool| {
                while !flag.load(Ordering::Acquire) {
                    std::hint::spin_loop();
                }
            };
            let (main, side): (ThreadId, ThreadId) = run_beside(
                || {
                    main_started.store(true, Ordering::Release);
                    wait_for(&side_started);
                    std::thread::current().id()
                },
                || {
                    side_started.store(true, Ordering::Release);
                    wait_for(&main_started);
                    std::thread::current().id()
                },
            );
            assert_ne!(main, side);
            assert_eq!(main, std::thread::current().id());
        }
    }

    #[test]
    fn a_panic_on_the_other_thread_reaches_the_caller_and_frees_its_thread() {
        let threads = KeptThreads::get().map_or(1, KeptThreads::threads);
        for _ in 0..=threads {
            let caught = std::panic::catch_unwind(|| run_beside(|| 1, || -> u8 { panic!("side") }));
            assert!(caught.is_err());
        }
        // Had the panics kept their threads, every closure would now get a
        // thread of its own (other tests hold a kept one only briefly).
        let on_a_kept_thread = || {
            let ((), name) = run_beside(|| (), || std::thread::current().name().map(str::to_owned));
            name.is_some_and(|name| name.starts_with("searchlab-kept"))
        };
        assert!((0..100).any(|_| on_a_kept_thread()));
    }

    #[test]
    fn from_a_rayon_thread_the_other_closure_gets_a_thread_of_its_own() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let names =
            pool.install(|| run_beside(|| (), || std::thread::current().name().map(str::to_owned)));
        assert!(!names.1.unwrap_or_default().starts_with("searchlab-kept"));
    }
}
