//! Helpers shared by the `searchlab` program's tests.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The exit code, standard output and standard error of `searchlab args`,
/// killed (and the test failed) if it runs for more than a minute.
pub fn searchlab(args: &[&str]) -> (i32, String, String) {
    searchlab_within(args, Duration::from_secs(60))
        .unwrap_or_else(|| panic!("searchlab {args:?} still running after a minute"))
}

/// [`searchlab`], killed after `limit`: `None` if it was (it hangs).
pub fn searchlab_within(args: &[&str], limit: Duration) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}
