//! How long a source file is, unit tests aside: the lines before its trailing
//! `#[cfg(test)] mod tests { ... }` (or a run of such inline test modules at the very end),
//! without the blank lines just above it.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::refs::{is_test_only, item_attrs};

/// The lines that count in a file's text. A file syn cannot parse counts whole.
pub fn counted_lines(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let Ok(file) = syn::parse_file(text) else {
        return lines.len();
    };
    let mut tests_start = None;
    for item in file.items.iter().rev() {
        let is_test_module = matches!(item, syn::Item::Mod(m) if m.content.is_some()) && is_test_only(item_attrs(item));
        if !is_test_module {
            break;
        }
        // Outer attributes come first in the source, doc comments included.
        tests_start = item_attrs(item).first().map(|attr| attr.pound_token.span.start().line);
    }
    let Some(start) = tests_start else {
        return lines.len();
    };
    let mut kept = &lines[..start.saturating_sub(1).min(lines.len())];
    while let Some((last, rest)) = kept.split_last() {
        if !last.trim().is_empty() {
            break;
        }
        kept = rest;
    }
    kept.len()
}

/// Every `.rs` file under a directory, sorted; none if it does not exist.
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    if dir.is_dir() {
        walk(dir, &mut found)?;
    }
    found.sort();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error(format!("cannot list {}: {e}", dir.display())))?;
    for entry in entries {
        let path = entry.map_err(|e| Error(format!("cannot list {}: {e}", dir.display())))?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
    Ok(())
}
