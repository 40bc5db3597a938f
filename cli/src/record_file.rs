//! `--record FILE`: the run's full record kept in a file while the run goes on.
//!
//! The file is replaced atomically — the record is written to a temporary file in the same
//! directory, synced, renamed over FILE, and the directory synced — when the run starts and
//! after every step, with status `running` until the run ends. A kill at any moment leaves
//! either the previous record or the new one, never a mix, and loses at most the step in
//! progress.
//!
//! Writing the whole record after every step would serialize every step again each time
//! (quadratic in the run's length); each step is serialized once instead, when it is
//! recorded, and only the record's head (status, state, outputs…) is serialized again. The
//! bytes are those `run` prints: FILE ends up equal to the full record on stdout.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use engine::Run;
use engine::record::StepDoc;

use crate::console::Console;
use crate::drive::Observer;

/// Indentation of a step inside the pretty record (`"steps": [` is one level in).
const STEP_INDENT: &str = "    ";

pub struct RecordFile {
    path: PathBuf,
    /// The steps written so far, pretty and indented as inside the record, comma-separated.
    steps: String,
    step_count: usize,
    /// Why the last write failed, while the file is behind the run.
    behind: Option<String>,
    warned: bool,
    console: Console,
}

/// Why the file could not be written at the start: the run does not start.
#[derive(Debug)]
pub struct CannotCreate(pub String);

impl RecordFile {
    /// Writes the record of `run` as it starts, or says why FILE cannot be written.
    pub fn create(path: PathBuf, run: &Run, console: Console) -> Result<RecordFile, CannotCreate> {
        let mut file = RecordFile { path, steps: String::new(), step_count: 0, behind: None, warned: false, console };
        file.add_steps(&run.step_docs(0));
        file.write(run).map_err(|e| CannotCreate(format!("--record {}: cannot write: {e}", file.path.display())))?;
        Ok(file)
    }

    /// Why FILE does not hold the run's last record, if it does not.
    pub fn behind(&self) -> Option<&str> {
        self.behind.as_deref()
    }

    fn add_steps(&mut self, steps: &[StepDoc]) {
        for s in steps {
            let pretty = serde_json::to_string_pretty(s).unwrap_or_default();
            if self.step_count > 0 {
                self.steps.push_str(",\n");
            }
            self.steps.push_str(STEP_INDENT);
            // Pretty JSON has no newline inside a string (they are escaped), so every newline
            // starts a line that needs the step's indentation.
            self.steps.push_str(&pretty.replace('\n', &format!("\n{STEP_INDENT}")));
            self.step_count += 1;
        }
    }

    /// The record's text in three pieces, written one after the other: the head serialized
    /// now, the steps as kept (not copied), the end.
    fn pieces<'a>(&'a self, run: &Run) -> [std::borrow::Cow<'a, str>; 3] {
        let mut head = serde_json::to_string_pretty(&run.record(false)).unwrap_or_default();
        // The head ends with "\n}"; the steps are its last field.
        head.truncate(head.strip_suffix("\n}").map_or(head.len(), str::len));
        if self.step_count == 0 {
            head.push_str(",\n  \"steps\": []\n}\n");
            return [head.into(), "".into(), "".into()];
        }
        head.push_str(",\n  \"steps\": [\n");
        [head.into(), self.steps.as_str().into(), "\n  ]\n}\n".into()]
    }

    fn write(&mut self, run: &Run) -> io::Result<()> {
        let pieces = self.pieces(run);
        replace_atomically(&self.path, pieces.iter().map(|p| p.as_bytes()))
    }

    /// Writes the record after a step; a failure is told once, and the run goes on.
    fn write_after_step(&mut self, run: &Run) {
        match self.write(run) {
            Ok(()) => self.behind = None,
            Err(e) => {
                if !self.warned {
                    self.warned = true;
                    self.console.say(&format!(
                        "warning: --record {}: cannot write it after step {}: {e}; the run goes on, and exits 1 unless a later write succeeds",
                        self.path.display(),
                        run.step_count()
                    ));
                }
                self.behind = Some(e.to_string());
            }
        }
    }
}

impl Observer for RecordFile {
    fn stepped(&mut self, run: &Run, new_steps: &[StepDoc]) {
        self.add_steps(new_steps);
        self.write_after_step(run);
    }
}

/// Replaces `path` with `bytes` so that a reader (or a crash) sees the old file or the new
/// one, whole: a temporary file beside it, synced, renamed over it, the directory synced.
fn replace_atomically<'a>(path: &Path, pieces: impl Iterator<Item = &'a [u8]>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = write_synced(&tmp, pieces).and_then(|()| fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    // The rename itself is durable once the directory is synced.
    File::open(&dir)?.sync_all()
}

fn write_synced<'a>(path: &Path, pieces: impl Iterator<Item = &'a [u8]>) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create(true).truncate(true).open(path)?;
    for bytes in pieces {
        file.write_all(bytes)?;
    }
    file.sync_data()
}
