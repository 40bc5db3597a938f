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

/// Whether stdout was closed when the process started. Rust's runtime points a descriptor
/// that is closed at start-up (`>&-`) at `/dev/null`, so that writes to it vanish; after
/// that, a closed stdout looks exactly like a `/dev/null` someone chose on purpose (Python's
/// `subprocess.DEVNULL` and Node's `stdio: "ignore"` open it read-write too). So the
/// descriptor is looked at before the runtime starts, from the `.init_array` constructors
/// that the C library runs before `main`.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    early::STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code, reason = "a constructor run before main, and one read-only fcntl call")]
mod early {
    use std::sync::atomic::{AtomicBool, Ordering};

    pub static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

    #[used]
    #[unsafe(link_section = ".init_array")]
    static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

    extern "C" fn look_at_stdout() {
        // SAFETY: F_GETFD only reads the descriptor's flags; it fails (EBADF) when closed.
        let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
        STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
    }
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

/// One line on stderr as it is.
pub fn raw_line(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}
