//! The size limit for an imported graph: a file, pasted text or a drop over it is refused,
//! with its size in the message, before it is read as a document.

/// 32 MiB, as the desktop app reads files and the clipboard for the editor.
pub use switchyard_ipc::MAX_IMPORT_BYTES;

/// A size in MiB with one decimal: "40.2 MiB".
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// `Err` with the named error when `bytes` is over the limit: "“big.json” is 40.2 MiB; the
/// limit for an imported graph is 32 MiB".
pub fn check_size(what: &str, bytes: u64) -> Result<(), String> {
    if bytes > MAX_IMPORT_BYTES {
        Err(format!("{what} is {}; the limit for an imported graph is 32 MiB", mib(bytes)))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_over_32_mib_are_refused_by_name() {
        assert!(check_size("x", MAX_IMPORT_BYTES).is_ok());
        let why = check_size("“big.json”", 42_152_346).unwrap_err();
        assert_eq!(why, "“big.json” is 40.2 MiB; the limit for an imported graph is 32 MiB");
    }
}
