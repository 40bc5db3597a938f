//! Replaying a fuzz target's committed inputs as a plain test: every seed in
//! `fuzz/corpus/<target>/` and every input that once broke it in `fuzz/regressions/<target>/`,
//! through the same check the fuzz target makes (`fuzz/checks/<target>.rs`). `./dev test`
//! runs these in the normal workspace build; `./dev fuzz` explores beyond them.
//!
//! Each input runs on a thread of its own named after the file, so a failed check names it,
//! and so does a stack overflow, which aborts the test process with the thread's name.

use std::path::{Path, PathBuf};
use std::thread;

/// The fuzz folder, beside the crate whose test includes this file.
const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz");

/// The main thread's stack, on which libFuzzer runs every target but `expression`.
pub const MAIN_STACK: usize = 8 << 20;

/// A committed input: its path from the repository root, and its bytes.
struct Input {
    name: String,
    data: Vec<u8>,
}

/// Runs `check` on every committed input of `target` on a `stack`-byte stack; panics naming
/// each file whose check failed, with its message.
pub fn replay(target: &str, stack: usize, check: fn(&[u8])) {
    let inputs = inputs(target);
    assert!(!inputs.is_empty(), "no seeds in fuzz/corpus/{target}/");
    let failures: Vec<String> = inputs.into_iter().filter_map(|input| run_one(input, stack, check).err()).collect();
    assert!(failures.is_empty(), "{} input(s) of {target} failed:\n{}", failures.len(), failures.join("\n"));
}

/// The seeds and regressions of `target`, by name.
fn inputs(target: &str) -> Vec<Input> {
    let mut files: Vec<PathBuf> =
        ["corpus", "regressions"].iter().flat_map(|kind| files_in(&Path::new(FUZZ).join(kind).join(target))).collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            let relative = path.strip_prefix(FUZZ).unwrap_or(&path);
            Input { name: format!("fuzz/{}", relative.display()), data }
        })
        .collect()
}

/// The files directly in `dir`; none when it does not exist (a target without regressions).
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .map(|entry| entry.unwrap_or_else(|e| panic!("listing {}: {e}", dir.display())).path())
        .filter(|path| path.is_file())
        .collect()
}

/// One input on its own named thread: `Err` names the file and says why the check failed.
fn run_one(input: Input, stack: usize, check: fn(&[u8])) -> Result<(), String> {
    let Input { name, data } = input;
    let worker = thread::Builder::new().name(name.clone()).stack_size(stack).spawn(move || check(&data));
    let joined = worker.unwrap_or_else(|e| panic!("starting a thread for {name}: {e}")).join();
    joined.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(a panic without a message)");
        format!("{name}: {message}")
    })
}
