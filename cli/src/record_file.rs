//! `--record FILE`: the run's full record kept in a file while the run goes on.
//!
//! The file is replaced atomically — the record is written to a temporary file in the same
//! directory, synced, renamed over FILE, and the directory synced — when the run starts and
//! after every step, with status `running` until the run ends. A kill at any moment leaves
//! either the previous record or the new one, never a mix, and loses at most the step in
//! progress.
//!
//! Writing the whole record after every step would serialize every step again each time
//! (quadratic in the run's length); each step is serialized once instead, when the next one
//! follows it (until then it is the last step, which a complete record gives its state), and
//! only the record's head (status, state, outputs…) and the last step are serialized again.
//! The bytes are those `run` prints (`record_text`): FILE ends up equal to the full record on
//! stdout.

use std::borrow::Cow;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use engine::record::StepDoc;
use engine::{Run, StepStates};

use crate::atomic_write::replace_atomically;
use crate::console::Console;
use crate::drive::Observer;
use crate::record_text;

pub struct RecordFile {
    path: PathBuf,
    /// The lines of the steps before the last, comma-separated, as the record holds them.
    steps: String,
    /// The last step, as a record holds it while more steps follow: its line is final once
    /// another step comes (a complete record gives it its state until then).
    last: Option<StepDoc>,
    /// Why the last write failed, while the file is behind the run.
    behind: Option<String>,
    warned: bool,
    console: Console,
}

/// Why the file could not be written at the start: the run does not start.
#[derive(Debug)]
pub struct CannotCreate(pub String);

/// `--record FILE` names a file the run reads (the graph, or an @FILE argument): the first
/// write would replace it, so the run does not start.
#[derive(Debug)]
pub struct RecordIsAnInput {
    pub record: PathBuf,
    /// What the file is to the run: "the graph", "--input"…
    pub input: &'static str,
}

impl fmt::Display for RecordIsAnInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--record {}: this is the file given as {}; the record would replace it (give --record another file)",
            self.record.display(),
            self.input
        )
    }
}

/// The file of a `JSON|@FILE` argument, if it names one.
pub fn at_file(arg: &Option<String>) -> Option<&str> {
    arg.as_deref().and_then(|a| a.strip_prefix('@'))
}

/// Refuses `record` if it is one of `inputs` (what each file is to the run, and its path if
/// given): the same file under another name, a link or a hard link included.
pub fn refuse_inputs(record: Option<&Path>, inputs: &[(&'static str, Option<&str>)]) -> Result<(), RecordIsAnInput> {
    let Some(record) = record else { return Ok(()) };
    for (input, path) in inputs {
        // A FILE that does not exist yet (or an input that cannot be read) is no input.
        if path.is_some_and(|p| same_file::is_same_file(record, p).unwrap_or(false)) {
            return Err(RecordIsAnInput { record: record.to_path_buf(), input });
        }
    }
    Ok(())
}

impl RecordFile {
    /// Writes the record of `run` as it starts, with the steps' states as `states` says, or
    /// says why FILE cannot be written.
    pub fn create(path: PathBuf, run: &Run, states: StepStates, console: Console) -> Result<RecordFile, CannotCreate> {
        let mut file = RecordFile { path, steps: String::new(), last: None, behind: None, warned: false, console };
        file.add_steps(run.step_docs_with(0, states));
        file.write(run).map_err(|e| CannotCreate(format!("--record {}: cannot write: {e}", file.path.display())))?;
        Ok(file)
    }

    /// Why FILE does not hold the run's last record, if it does not.
    pub fn behind(&self) -> Option<&str> {
        self.behind.as_deref()
    }

    fn add_steps(&mut self, steps: impl IntoIterator<Item = StepDoc>) {
        for s in steps {
            if let Some(before) = self.last.replace(s) {
                if !self.steps.is_empty() {
                    self.steps.push(',');
                }
                self.steps.push_str(&record_text::step_line(&before));
            }
        }
    }

    /// The record's text in four pieces, written one after the other: the head serialized
    /// now, the lines of the steps before the last as kept (not copied), the last step's
    /// line, the end.
    fn pieces(&self, run: &Run) -> [Cow<'_, str>; 4] {
        let head = record_text::head(&run.record(false));
        let Some(last) = &self.last else {
            return [head.into(), "".into(), "".into(), record_text::tail(false).into()];
        };
        let line = match (&last.state, run.state_at(run.step_count())) {
            (None, Some(state)) => record_text::step_line(&StepDoc { state: Some(state.to_json()), ..last.clone() }),
            _ => record_text::step_line(last),
        };
        let last = if self.steps.is_empty() { line } else { format!(",{line}") };
        [head.into(), self.steps.as_str().into(), last.into(), record_text::tail(true).into()]
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
        self.add_steps(new_steps.iter().cloned());
        self.write_after_step(run);
    }
}
