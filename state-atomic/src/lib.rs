//! searchlab state-atomic (in progress).
