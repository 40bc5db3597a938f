//! Reading a file given to the app from outside (its command line, a second launch, Open
//! Recent, the Open dialog) for the editor: only a regular file, and only up to the import
//! size limit. Anyone can name a pipe or a device there: a FIFO would block the reading
//! thread until something writes to it, `/dev/zero` would fill memory.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

pub use switchyard_ipc::MAX_IMPORT_BYTES;

/// Why a given file was not read, in words for the user ("Could not open F: …").
#[derive(Debug)]
pub enum NotRead {
    /// A pipe, a device, a socket or a folder: what it is.
    NotAFile(&'static str),
    /// Over [`MAX_IMPORT_BYTES`]: its size, or at least how much was there.
    TooLarge(u64),
    NotText,
    Io(io::Error),
}

impl fmt::Display for NotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRead::NotAFile(what) => write!(f, "it is {what}, not a file"),
            NotRead::TooLarge(bytes) => write!(
                f,
                "it is {:.1} MiB; the limit for an imported graph is {} MiB",
                *bytes as f64 / (1024.0 * 1024.0),
                MAX_IMPORT_BYTES / (1024 * 1024)
            ),
            NotRead::NotText => f.write_str("it is not UTF-8 text"),
            NotRead::Io(e) => match e.kind() {
                io::ErrorKind::NotFound => f.write_str("there is no such file"),
                io::ErrorKind::PermissionDenied => f.write_str("it may not be read (permission denied)"),
                _ => write!(f, "{e}"),
            },
        }
    }
}

impl std::error::Error for NotRead {}

/// The text of the regular file at `path`, at most [`MAX_IMPORT_BYTES`] long. It is opened
/// without waiting (a FIFO with no writer would block the open itself) and checked on the
/// open handle, so the file cannot be swapped for another between the check and the read.
pub fn read_given(path: &Path) -> Result<String, NotRead> {
    let file = open_without_waiting(path).map_err(NotRead::Io)?;
    let meta = file.metadata().map_err(NotRead::Io)?;
    if !meta.is_file() {
        return Err(NotRead::NotAFile(kind(&meta)));
    }
    if meta.len() > MAX_IMPORT_BYTES {
        return Err(NotRead::TooLarge(meta.len()));
    }
    // The size can grow while it is read (or lie, as files in /proc do): the read is bounded.
    let mut bytes = Vec::new();
    file.take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes).map_err(NotRead::Io)?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(NotRead::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| NotRead::NotText)
}

/// The clipboard's text for a paste, refused over [`MAX_IMPORT_BYTES`] (it is sent whole
/// to the editor, which parses it).
pub fn pasted(text: String) -> Result<String, NotRead> {
    match text.len() as u64 {
        n if n > MAX_IMPORT_BYTES => Err(NotRead::TooLarge(n)),
        _ => Ok(text),
    }
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Reads of a regular file ignore O_NONBLOCK; only the open of a FIFO or a device sees it.
    OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "something other than a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_file_is_read() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.json");
        std::fs::write(&path, "{\"format\": \"switchyard/graph@1\"}").expect("write");
        assert_eq!(read_given(&path).expect("read"), "{\"format\": \"switchyard/graph@1\"}");
    }

    /// Before, a FIFO blocked the app's main thread in the open until something wrote to it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("pipe.json");
        let made = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", path.display());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(read_given(&path).map_err(|e| e.to_string()));
        });
        // No writer ever comes: a read that waited for one would never answer.
        let read = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the read answers without a writer");
        assert_eq!(read.unwrap_err(), "it is a pipe (FIFO), not a file");
    }

    /// Before, /dev/zero was read until memory ran out.
    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let why = read_given(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(why.to_string(), "it is a device, not a file");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_its_size() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("big.json");
        let file = File::create(&path).expect("create");
        file.set_len(40 * 1024 * 1024).expect("a sparse 40 MiB file");
        let why = read_given(&path).unwrap_err();
        assert_eq!(why.to_string(), "it is 40.0 MiB; the limit for an imported graph is 32 MiB");
        file.set_len(MAX_IMPORT_BYTES).expect("resize");
        assert_eq!(read_given(&path).expect("exactly the limit is read").len() as u64, MAX_IMPORT_BYTES);
    }

    #[test]
    fn pasted_text_over_the_limit_is_refused() {
        let text = "x".repeat(40 * 1024 * 1024);
        let why = pasted(text).unwrap_err().to_string();
        assert_eq!(why, "it is 40.0 MiB; the limit for an imported graph is 32 MiB");
        assert_eq!(pasted("{}".into()).expect("small text passes"), "{}");
    }

    #[test]
    fn a_folder_or_a_missing_file_is_said_so() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        assert_eq!(read_given(dir.path()).unwrap_err().to_string(), "it is a folder, not a file");
        let gone = read_given(&dir.path().join("gone.json")).unwrap_err();
        assert_eq!(gone.to_string(), "there is no such file");
        assert!(matches!(gone, NotRead::Io(ref e) if e.kind() == io::ErrorKind::NotFound));
    }
}
