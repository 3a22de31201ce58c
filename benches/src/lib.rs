//! searchlab's benchmark support: problem generators shared by the criterion
//! benches and the `searchlab` program.

pub mod grid;
