//! Files holding secrets (tokens): whether others than their owner may read them, for a
//! warning. Always false where there are no Unix permissions.

use std::path::Path;

/// Whether the file's group or others may read it.
#[cfg(unix)]
pub fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o044 != 0)
}

/// Whether the file's group or others may read it.
#[cfg(not(unix))]
pub fn readable_by_others(_path: &Path) -> bool {
    false
}
