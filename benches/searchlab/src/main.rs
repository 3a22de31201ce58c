//! The `searchlab` program: the whole command line of
//! [`searchlab_lab::Lab`] with the built-in heuristics. A researcher's own
//! program adds heuristics to the same line (see the lab's docs).

fn main() -> std::process::ExitCode {
    searchlab_lab::Lab::new().main()
}
