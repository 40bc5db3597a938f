//! Files replaced whole: a reader, or a crash, sees the old file or the new one, never a mix.
//! The `--record` file and `switchyard test add`'s suite are written this way.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` so that a reader (or a crash) sees the old file or the new
/// one, whole: a temporary file beside it, synced, renamed over it, the directory synced.
///
/// The temporary file has an unpredictable name and is created exclusively (`O_EXCL`), so a
/// link planted beside FILE is never followed. It takes FILE's permissions when FILE exists
/// (a record kept private stays private); a new FILE is readable by its owner only (0600),
/// since a record holds everything the run saw.
pub fn replace_atomically<'a>(path: &Path, pieces: impl Iterator<Item = &'a [u8]>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut tmp = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(&dir)?;
    if let Ok(existing) = fs::metadata(path) {
        // Set on the open file: the umask does not apply, as it would when creating.
        tmp.as_file().set_permissions(existing.permissions())?;
    }
    for bytes in pieces {
        tmp.write_all(bytes)?;
    }
    tmp.as_file().sync_data()?;
    // On failure the temporary file is dropped, which removes it.
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename itself is durable once the directory is synced.
    File::open(&dir)?.sync_all()
}
