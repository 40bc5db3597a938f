//! What `run` and `resume` do once their run is ready: drive it with the observers the flags
//! ask for (record file, event lines, progress line) and the environment asks for (traces),
//! then hand back the record to print and the exit code.

use engine::Run;
use engine::host::Host;

use crate::args::Driving;
use crate::console::Console;
use crate::drive::{Observer, drive};
use crate::events::Events;
use crate::exit::{self, EXIT_OUTPUT_FAILED, Printed};
use crate::input::BadInput;
use crate::progress::Progress;
use crate::record_file::RecordFile;
use crate::traces::Traces;

/// Drives `run` to its end as `driving` asks.
pub fn drive_and_print(run: &mut Run, host: &dyn Host, driving: &Driving) -> Result<Printed, BadInput> {
    let mut progress = Progress::on_terminal();
    let console = progress.as_ref().map(|p| Console::with_bar(p.bar())).unwrap_or_default();
    let mut record = open_record(driving, run, &console)?;
    let mut events = driving.events.then(|| Events::new(console.clone()));
    // Started before the first step so that every step is sent as it ends.
    let traces = Traces::from_env();
    let mut tracer = traces.as_ref().map(|t| t.tracer().printing_to(console.clone()));

    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    if let Some(p) = progress.as_mut() {
        observers.push(p);
    }
    if let Some(r) = record.as_mut() {
        observers.push(r);
    }
    if let Some(e) = events.as_mut() {
        observers.push(e);
    }
    if let Some(t) = tracer.as_mut() {
        observers.push(t);
    }
    drive(run, host, &mut observers, driving.states());
    if let Some(traces) = traces {
        traces.finish_and_warn();
    }

    // The file was promised to hold the run's end: if it does not, say so by the exit code
    // (the warning was printed when the write failed).
    let code = match &record {
        Some(r) if r.behind().is_some() => EXIT_OUTPUT_FAILED,
        _ => exit::of_status(run.status()),
    };
    Ok(Printed::new(crate::record_text::printed(run, !driving.summary, driving.states()), code))
}

/// The record file, written once before the first step; a file that cannot be written at
/// all is bad input, before anything has run.
fn open_record(driving: &Driving, run: &Run, console: &Console) -> Result<Option<RecordFile>, BadInput> {
    let Some(path) = driving.record.as_deref() else { return Ok(None) };
    RecordFile::create(path.to_path_buf(), run, driving.states(), console.clone())
        .map(Some)
        .map_err(|e| BadInput::new(e.0))
}
