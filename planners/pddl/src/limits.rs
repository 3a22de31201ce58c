//! Grounding's limits (steps, time, memory) and the budget that counts
//! them: [`ground`](crate::ground) while matching, ADL compilation
//! ([`crate::adl`]) and finalizing after it. Both sides take it from here,
//! so neither imports the other for it.

use std::fmt;
use std::mem::size_of;
use std::time::{Duration, Instant};

use search_core::Limit;

use crate::PddlError;

/// Grounding limits: a grounding that would take more steps, time or
/// memory stops with [`PddlError::GroundingExceeded`] instead of running for
/// hours or exhausting the machine's memory. Time and memory are checked
/// every 1,024 steps, and no step between two checks takes long (the hash
/// tables grow a small part at a time), so a grounding stops within
/// milliseconds of its limit.
///
/// The default allows 2·10⁹ steps and an estimated 2 GiB, without a time
/// limit, and splits an operator's conditional effects into at most 256
/// variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundingLimits {
    /// Matching and enumeration steps (a step is one candidate binding).
    pub max_steps: u64,
    /// Wall time from the start of [`ground`](crate::ground).
    pub max_time: Option<Duration>,
    /// The grounding's estimated memory in bytes: the facts and operators
    /// found, the hash tables and indices built to find them, and the
    /// operators of the result.
    pub max_memory_bytes: Option<usize>,
    /// The most STRIPS variants one ADL operator's conditional effects
    /// split into (one per choice of the effects that fire, so that
    /// regression, LM-cut's precise cuts and pattern databases see STRIPS
    /// actions). An operator that would need more keeps its conditional
    /// effects ([`GroundOperator::effects`](crate::GroundOperator::effects)):
    /// rubiks-cube's turns, which move every cubie under a condition each,
    /// would need billions. 0 keeps every operator's. Numeric tasks always
    /// split (the factored state has no conditional effects).
    pub max_variants: usize,
}

impl Default for GroundingLimits {
    fn default() -> Self {
        Self {
            max_steps: 2_000_000_000,
            max_time: None,
            max_memory_bytes: Some(2 << 30),
            max_variants: 256,
        }
    }
}

/// The grounding limit that stopped [`ground`](crate::ground).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroundingExceeded {
    /// [`GroundingLimits::max_steps`].
    Steps {
        /// The limit.
        limit: u64,
    },
    /// [`GroundingLimits::max_time`].
    Time {
        /// The limit.
        limit: Duration,
    },
    /// [`GroundingLimits::max_memory_bytes`].
    Memory {
        /// The limit.
        limit_bytes: usize,
        /// The estimate when grounding stopped.
        estimated_bytes: usize,
    },
}

impl GroundingExceeded {
    /// The search limit it corresponds to (steps count as expansions).
    pub fn as_limit(self) -> Limit {
        match self {
            GroundingExceeded::Steps { .. } => Limit::Expansions,
            GroundingExceeded::Time { .. } => Limit::Time,
            GroundingExceeded::Memory { .. } => Limit::Memory,
        }
    }
}

impl fmt::Display for GroundingExceeded {
    /// ```
    /// use searchlab_pddl::GroundingExceeded;
    /// let memory = GroundingExceeded::Memory { limit_bytes: 64 << 20, estimated_bytes: 65 << 20 };
    /// assert_eq!(memory.to_string(), "the memory limit of 64 MiB (estimated 65 MiB when it stopped)");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GroundingExceeded::Steps { limit } => {
                write!(f, "the limit of {limit} matching steps")
            }
            GroundingExceeded::Time { limit } => {
                write!(f, "the time limit of {} s", limit.as_secs_f64())
            }
            GroundingExceeded::Memory {
                limit_bytes,
                estimated_bytes,
            } => write!(
                f,
                "the memory limit of {} MiB (estimated {} MiB when it stopped)",
                mebibytes(limit_bytes),
                mebibytes(estimated_bytes)
            ),
        }
    }
}

/// Bytes in MiB: whole, or with one decimal.
#[expect(clippy::cast_precision_loss, reason = "a figure for a message")]
pub(crate) fn mebibytes(bytes: usize) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    if mib.fract() == 0.0 {
        format!("{mib}")
    } else {
        format!("{mib:.1}")
    }
}

/// The time and memory limits are checked when the step count (or the
/// operator count, when finalizing) has these bits clear: every 1,024.
pub(crate) const CHECK_MASK: u64 = (1 << 10) - 1;

impl GroundingLimits {
    /// Whether grounding that `began` and holds `bytes` is within the time
    /// and memory limits.
    pub(crate) fn check(&self, began: Instant, bytes: usize) -> Result<(), GroundingExceeded> {
        if let Some(limit) = self.max_time {
            if began.elapsed() > limit {
                return Err(GroundingExceeded::Time { limit });
            }
        }
        if let Some(limit_bytes) = self.max_memory_bytes {
            if bytes > limit_bytes {
                return Err(GroundingExceeded::Memory {
                    limit_bytes,
                    estimated_bytes: bytes,
                });
            }
        }
        Ok(())
    }
}

/// The steps and memory grounding may still spend once matching is done
/// (instantiating operators, compiling ADL).
pub(crate) struct Budget {
    pub(crate) steps: u64,
    pub(crate) limits: GroundingLimits,
    pub(crate) began: Instant,
    /// Estimated bytes held for good: facts, operators.
    pub(crate) bytes: usize,
}

impl Budget {
    /// Counts a step; every 1,024 steps checks the time and the memory,
    /// with `transient` bytes held for the moment besides.
    pub(crate) fn step(&mut self, transient: usize) -> Result<(), PddlError> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(GroundingExceeded::Steps {
                limit: self.limits.max_steps,
            }
            .into());
        }
        if self.steps & CHECK_MASK == 0 {
            self.limits
                .check(self.began, self.bytes.saturating_add(transient))?;
        }
        Ok(())
    }
}

/// The heap bytes of a list of `u32`s (literals, facts): its allocation
/// at its capacity, nothing when it has none.
pub(crate) fn list_bytes(list: &Vec<u32>) -> usize {
    match list.capacity() {
        0 => 0,
        capacity => allocated(capacity * size_of::<u32>()),
    }
}

/// What an allocation of `bytes` costs: rounded up to 16 bytes, plus 16
/// for the allocator's own bookkeeping (as glibc's `malloc` does, roughly).
pub(crate) fn allocated(bytes: usize) -> usize {
    bytes.next_multiple_of(16) + 16
}
