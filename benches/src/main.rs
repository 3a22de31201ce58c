//! `searchlab`: until the benchmark suite lands, a grid path-finding demo.

fn main() {}
