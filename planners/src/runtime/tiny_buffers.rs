//! Buffers of tiny searches kept per thread: one slot per thread, on its
//! own cache line, so that threads planning at once with one planner never
//! share a lock or a line.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, TryLockError};

use search_core::TinyWorkspace;

/// Slots per planner and direction; threads beyond this many share slots
/// (a thread that finds its slot taken plans in fresh buffers).
const SLOTS: usize = 16;

/// A value alone on its cache lines (two, for adjacent-line prefetch).
#[repr(align(128))]
struct Padded<T>(T);

/// A thread's slot number, given out in the order threads first plan.
fn thread_slot() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static SLOT: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SLOTS;
    }
    SLOT.with(|slot| *slot)
}

/// One thread slot's buffers.
type Slot<N, A> = Padded<Mutex<TinyWorkspace<N, A, u32>>>;

/// Kept [`TinyWorkspace`]s, one per thread slot.
pub(crate) struct TinyBuffers<N, A> {
    slots: Box<[Slot<N, A>]>,
}

impl<N, A> Default for TinyBuffers<N, A> {
    fn default() -> Self {
        Self {
            slots: (0..SLOTS)
                .map(|_| Padded(Mutex::new(TinyWorkspace::default())))
                .collect(),
        }
    }
}

impl<N, A> TinyBuffers<N, A> {
    /// Runs `f` with this thread's kept buffers: its own slot, which no
    /// other thread touches unless more than [`SLOTS`] threads plan (then,
    /// if the slot is busy, with fresh buffers). A search clears its
    /// buffers first, so buffers a panic left behind are still good.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut TinyWorkspace<N, A, u32>) -> R) -> R {
        match self.slots[thread_slot()].0.try_lock() {
            Ok(mut kept) => f(&mut kept),
            Err(TryLockError::Poisoned(poisoned)) => f(&mut poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => f(&mut TinyWorkspace::default()),
        }
    }
}
