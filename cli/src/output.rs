//! Writing to stdout and stderr without panicking.
//!
//! `println!` panics when stdout cannot be written (a full disk, a closed pipe), which would
//! look like a crash; and Rust's stdout quietly swallows writes to a closed descriptor
//! (`>&-`), which would lose the record while exiting 0. Here every write is checked:
//!
//! - a closed pipe (`| head -c1`): the reader wanted no more, so the command ends quietly,
//!   with the exit code it would have had anyway;
//! - any other failure (`> /dev/full`, stdout closed): one line on stderr and exit 1.

use std::io::{self, Write};

/// Why the output could not be written.
#[derive(Debug)]
pub enum WriteFailure {
    /// The reader went away (EPIPE): not an error worth a message.
    Closed,
    /// The output is unusable: the message says why.
    Failed(String),
}

impl WriteFailure {
    fn of(e: &io::Error) -> WriteFailure {
        if e.kind() == io::ErrorKind::BrokenPipe { WriteFailure::Closed } else { WriteFailure::Failed(e.to_string()) }
    }
}

/// Checks that stdout is open, before any work whose result would be lost.
pub fn check_stdout() -> Result<(), WriteFailure> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // Duplicating the descriptor fails with EBADF when it is closed.
        if let Err(e) = io::stdout().as_fd().try_clone_to_owned() {
            return Err(WriteFailure::Failed(format!("stdout is not open ({e})")));
        }
    }
    if stdout_was_closed() {
        return Err(WriteFailure::Failed("stdout is not open (it was closed when switchyard started)".into()));
    }
    Ok(())
}

/// Rust's runtime points a descriptor that is closed at start-up (`>&-`) at `/dev/null`,
/// opened read-write, so writes to it vanish. A shell's `> /dev/null` opens it write-only;
/// read-write `/dev/null` on stdout therefore means stdout was closed.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else { return false };
    if target != std::path::Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else { return false };
    let flags = info.lines().find_map(|l| l.strip_prefix("flags:")).map(str::trim);
    // O_ACCMODE is 3; O_RDWR is 2.
    flags.and_then(|f| u32::from_str_radix(f, 8).ok()).is_some_and(|f| f & 3 == 2)
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// Writes `text` to stdout through its lock, then flushes.
pub fn write_stdout(text: &str) -> Result<(), WriteFailure> {
    check_stdout()?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(|e| WriteFailure::of(&e))?;
    out.flush().map_err(|e| WriteFailure::of(&e))
}

/// One line on stderr; if even that fails there is nobody left to tell.
pub fn say(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "switchyard: {line}");
    let _ = err.flush();
}
