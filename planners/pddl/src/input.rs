//! Reading input files with a size cap, so that `/dev/zero`, a pipe that
//! never ends or a runaway generated file is refused with a clear error
//! instead of filling the memory; a named pipe, a socket or a directory is
//! refused before it is opened, since opening a pipe without a writer
//! blocks forever.
//!
//! Every loader reads through here: the PDDL reader's callers, `planners`'
//! `problem::load` and `pddl::solve_files` (which re-exports this module as
//! `planners::input`), and `searchlab`'s suite and results files.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest input file the loaders read: 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads the file at `path` whole, refusing one larger than `limit` bytes.
/// At most `limit + 1` bytes are read, whatever the file is (a device, a
/// pipe).
///
/// # Errors
/// The system's error when the file cannot be opened or read; those of
/// [`open_input`] for a named pipe, a socket or a directory; an error of
/// kind [`io::ErrorKind::FileTooLarge`], saying "file is larger than the
/// N MiB input limit", when it holds more than `limit` bytes.
///
/// ```
/// # #[cfg(unix)] {
/// use searchlab_pddl::input::read_capped;
/// let error = read_capped(std::path::Path::new("/dev/zero"), 1 << 20).unwrap_err();
/// assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
/// assert_eq!(error.to_string(), "file is larger than the 1 MiB input limit");
/// # }
/// ```
pub fn read_capped(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_input(path)?;
    // A regular file says its size: refuse it without reading.
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// Opens the input file at `path` for reading, refusing what cannot be
/// read as a file: a named pipe (FIFO) or a socket, whose opening can block
/// forever, and a directory. Devices open (`/dev/zero`, `/dev/null`): a
/// reader caps what it takes from them.
///
/// # Errors
/// The system's error when the file cannot be opened; an error of kind
/// [`io::ErrorKind::InvalidInput`] saying what the path is, for a pipe, a
/// socket or a directory.
///
/// ```
/// let error = searchlab_pddl::input::open_input(std::path::Path::new(".")).unwrap_err();
/// assert_eq!(error.to_string(), "not a regular file but a directory");
/// ```
pub fn open_input(path: &Path) -> io::Result<File> {
    let kind = std::fs::metadata(path)?.file_type();
    if let Some(what) = unreadable_kind(kind) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file but {what}"),
        ));
    }
    File::open(path)
}

/// What an input of type `kind` is, if it is not to be read.
fn unreadable_kind(kind: std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    kind.is_dir().then_some("a directory")
}

/// [`read_capped`] at [`MAX_INPUT_BYTES`], as UTF-8 text.
///
/// # Errors
/// As for [`read_capped`], and an error of kind
/// [`io::ErrorKind::InvalidData`] for text that is not UTF-8.
///
/// ```
/// let error = searchlab_pddl::input::read_text(std::path::Path::new("no/such/file")).unwrap_err();
/// assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
/// ```
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_capped(path, MAX_INPUT_BYTES)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// "file is larger than the N MiB input limit" (in bytes below 1 MiB).
///
/// ```
/// assert_eq!(searchlab_pddl::input::too_large_message(1 << 30), "file is larger than the 1024 MiB input limit");
/// ```
pub fn too_large_message(limit: u64) -> String {
    if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("file is larger than the {} MiB input limit", limit >> 20)
    } else {
        format!("file is larger than the {limit}-byte input limit")
    }
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, too_large_message(limit))
}
