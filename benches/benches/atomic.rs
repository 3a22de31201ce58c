//! state-atomic benches (in progress).

fn main() {}
