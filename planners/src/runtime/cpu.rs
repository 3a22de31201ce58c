//! The calling thread's CPU time, for comparisons with planners that report
//! CPU time rather than wall time (Fast Downward, pyperplan): on a busy
//! machine the two differ by however long the thread waited for a core.
//! And the process's peak memory, which they report too.

use std::time::Duration;

/// CPU time the calling thread has run so far, from Linux's
/// `/proc/thread-self/schedstat` (nanoseconds on a CPU); `None` where the
/// system does not say.
///
/// ```
/// let before = planners::cpu::thread_time();
/// let mut x = 0u64;
/// for i in 0..1_000_000u64 { x = x.wrapping_add(i * i); }
/// assert!(x > 0);
/// if let (Some(a), Some(b)) = (before, planners::cpu::thread_time()) {
///     assert!(b >= a);
/// }
/// ```
pub fn thread_time() -> Option<Duration> {
    // The kernel brings a running thread's count up to date only when the
    // thread is scheduled (at a tick or a switch), so without this a read
    // can be a tick behind, and a search shorter than a tick can read 0.
    std::thread::yield_now();
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The CPU time `work` takes on the calling thread, with its result; `None`
/// for the time where the system does not say.
///
/// ```
/// let (_, spent) = planners::cpu::measure(|| {
///     let began = std::time::Instant::now();
///     while began.elapsed() < std::time::Duration::from_micros(300) {}
/// });
/// if let Some(spent) = spent {
///     // Not a tick behind: a busy 0.3 ms shows.
///     assert!(spent >= std::time::Duration::from_micros(100), "{spent:?}");
/// }
/// ```
pub fn measure<T>(work: impl FnOnce() -> T) -> (T, Option<Duration>) {
    let before = thread_time();
    let value = work();
    let spent = before.zip(thread_time()).map(|(a, b)| b.saturating_sub(a));
    (value, spent)
}

/// The process's peak resident memory in bytes (`VmHWM` in Linux's
/// `/proc/self/status`); `None` elsewhere.
///
/// ```
/// if let Some(peak) = planners::cpu::peak_memory_bytes() {
///     assert!(peak > 0);
/// }
/// ```
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}
