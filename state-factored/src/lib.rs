//! searchlab state-factored (in progress).
