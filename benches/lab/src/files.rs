//! The files the lab writes and the results files it reads.
//!
//! Output goes only to a regular file (through a symbolic link too) or to a
//! new path, opened and emptied in place: nothing is ever removed to make
//! way, so that `--plan-file /dev/stdout` or a named pipe given by mistake is
//! refused rather than replaced by a file. Results files (JSON lines) are
//! read line by line under a cap, so that `/dev/zero` is refused at once.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use planners::input::{open_input, too_large_message, MAX_INPUT_BYTES};

use crate::SuiteError;

/// The largest results file read: 1 GiB, about a million runs.
pub const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// The longest line of a results file: one record is far smaller.
const MAX_LINE_BYTES: u64 = MAX_INPUT_BYTES;

/// What a path that is not a regular file is, in words.
fn kind_name(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

fn refused(path: &Path, what: &str) -> SuiteError {
    SuiteError::Invalid(format!(
        "{}: not a regular file but {what}: searchlab writes only to regular files and new \
         paths; give another",
        path.display()
    ))
}

/// Checks that `path` may be written: nothing is there yet, or a regular
/// file (a symbolic link to one is written through, as a shell's `>` does).
///
/// # Errors
/// [`SuiteError::Invalid`] naming the path and what it is: a directory, a
/// named pipe, a device, a socket, or a symbolic link to nothing.
///
/// ```
/// use searchlab_lab::files::check_output;
/// assert!(check_output(std::path::Path::new("no/such/file.txt")).is_ok());
/// let error = check_output(std::path::Path::new(".")).unwrap_err();
/// assert!(error.to_string().contains("not a regular file but a directory"));
/// # #[cfg(unix)]
/// assert!(check_output(std::path::Path::new("/dev/null")).is_err());
/// ```
pub fn check_output(path: &Path) -> Result<(), SuiteError> {
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(()),
        Ok(metadata) => Err(refused(path, kind_name(metadata.file_type()))),
        // A link to nothing: writing would create a file where it points.
        Err(_) if fs::symlink_metadata(path).is_ok() => {
            Err(refused(path, "a symbolic link to nothing"))
        }
        Err(_) => Ok(()),
    }
}

/// Checks that `path` may be replaced by another file renamed over it:
/// nothing is there, or a regular file itself, not a link (a rename
/// would replace the link, not the file it points to).
///
/// # Errors
/// [`SuiteError::Invalid`] naming the path and what it is.
pub(crate) fn check_replaceable(path: &Path) -> Result<(), SuiteError> {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(()),
        Ok(metadata) => Err(refused(path, kind_name(metadata.file_type()))),
        Err(_) => Ok(()),
    }
}

/// Opens `path` for writing ([`check_output`] first): created if new,
/// emptied if a regular file; `append` opens it at its end, keeping what
/// it holds.
///
/// # Errors
/// Those of [`check_output`]; [`SuiteError::Io`] when it cannot be opened.
pub fn open_output(path: &Path, append: bool) -> Result<File, SuiteError> {
    check_output(path)?;
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(|e| SuiteError::io(path, &e))?;
    // What was checked may have been swapped since; a handle does not lie.
    match file.metadata() {
        Ok(metadata) if !metadata.is_file() => Err(refused(path, kind_name(metadata.file_type()))),
        _ => Ok(file),
    }
}

/// Reads the lines of the results file at `path` and hands each to `each`
/// with its number (from 1) and whether a newline ended it (only the last
/// can lack one). Reads at most [`MAX_RESULTS_BYTES`], each line at most
/// 64 MiB; a named pipe, a socket or a directory is refused unopened.
///
/// # Errors
/// [`SuiteError::Io`] when the file cannot be read or is larger than the
/// cap; [`SuiteError::Json`] for a line too long or not UTF-8; the first
/// error of `each`.
pub(crate) fn read_lines(
    path: &Path,
    mut each: impl FnMut(usize, &str, bool) -> Result<(), SuiteError>,
) -> Result<(), SuiteError> {
    let file = open_input(path).map_err(|e| SuiteError::io(path, &e))?;
    let mut reader = BufReader::new(file);
    let mut total: u64 = 0;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| SuiteError::io(path, &e))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        total += read as u64;
        if total > MAX_RESULTS_BYTES {
            return Err(SuiteError::Io {
                path: path.display().to_string(),
                message: too_large_message(MAX_RESULTS_BYTES),
            });
        }
        let malformed = |message: String| SuiteError::Json {
            path: path.display().to_string(),
            line: number,
            message,
        };
        let ended = line.last() == Some(&b'\n');
        if ended {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if line.len() as u64 > MAX_LINE_BYTES {
            return Err(malformed(format!(
                "the line is longer than {} MiB",
                MAX_LINE_BYTES >> 20
            )));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| malformed("the line is not UTF-8 text".to_owned()))?;
        each(number, text, ended)?;
    }
}
