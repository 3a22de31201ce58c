//! searchlab planners (in progress).
