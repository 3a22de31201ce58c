//! What planning runs on, below the planners: threads kept for the
//! process and work run beside the caller on one of them, buffers of tiny
//! searches kept per thread, and the calling thread's CPU time. (Input
//! files read under a size cap are `searchlab_pddl::input`, re-exported
//! as `planners::input`.)
//!
//! [`cpu`], [`crew`] and [`kept_threads`] are public, at the crate's root
//! (`planners::cpu`); the rest serves the planners alone.

pub(crate) mod beside;
pub mod cpu;
pub mod crew;
pub mod kept_threads;
pub(crate) mod tiny_buffers;
