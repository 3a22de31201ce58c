//! What planning runs on, below the planners: threads kept for the
//! process and work run beside the caller on one of them, buffers of tiny
//! searches kept per thread, the calling thread's CPU time, and input files
//! read under a size cap.
//!
//! [`cpu`], [`input`] and [`kept_threads`] are public, at the crate's root
//! (`planners::input`); the rest serves the planners alone.

pub(crate) mod beside;
pub mod cpu;
pub mod input;
pub mod kept_threads;
pub(crate) mod tiny_buffers;
