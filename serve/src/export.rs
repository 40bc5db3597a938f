//! Trace export from the process that runs the engine (`switchyard serve`, and the embedded
//! backend of `switchyard server`): one [`Exporter`] for the process, configured from the
//! standard `OTEL_*` variables when the program starts and shut down with a bounded wait when
//! it stops, and a [`RunTrace`] per engine thread that hands over each step's spans as the
//! step ends and the session's root span when the session ends.
//!
//! A served run replayed by Restate runs its steps again, and exports them again: the ids are
//! derived from the run (`engine::trace`) and the clock is journaled, so the second copy
//! names the same spans with the same times, which tracing tools take as one.

use std::cell::Cell;
use std::sync::Mutex;
use std::time::Duration;

use engine::Run;
use engine::trace::{SpanId, TraceOptions};
use switchyard_otel::{Config, ConfigError, Exporter};

/// How long the program waits at exit for queued spans to reach the collector.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(5);

/// The process's exporter: `None` until [`start`], and when nothing is configured.
static EXPORTER: Mutex<Option<Exporter>> = Mutex::new(None);

/// Starts the process's exporter from the environment; `Ok(false)` when nothing is
/// configured (no thread, nothing sent). Called once, when the program starts.
pub fn start() -> Result<bool, ConfigError> {
    let Some(config) = Config::from_env()? else { return Ok(false) };
    start_with(config);
    Ok(true)
}

/// Starts the process's exporter with `config`, replacing (and dropping) any earlier one.
pub fn start_with(config: Config) {
    *exporter() = Some(Exporter::start(config));
}

/// Stops the process's exporter, waiting at most [`SHUTDOWN_WAIT`] for what is queued; the
/// warnings to print (a collector that could not be reached…).
pub fn stop() -> Vec<String> {
    let taken = exporter().take();
    taken.map(|e| e.shutdown(SHUTDOWN_WAIT)).unwrap_or_default()
}

/// The exporter's slot. A thread that panicked while holding it left nothing half-done (a
/// send only queues), so a poisoned lock is taken as it is.
fn exporter() -> std::sync::MutexGuard<'static, Option<Exporter>> {
    EXPORTER.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one engine thread has exported of its run.
pub struct RunTrace {
    /// The spans' options, fixed when the run starts; `None` when nothing is exported.
    options: Option<TraceOptions>,
    /// The last step whose spans went out.
    exported: Cell<u64>,
    /// The last session root sent and the step count then: a run that stops again with no
    /// step between (an answer it refused) sends its root once.
    ended: Cell<Option<(SpanId, u64)>>,
}

impl RunTrace {
    /// Starts tracing `run` from where it stands: steps it already had (a fork's, a resumed
    /// run's) belong to earlier sessions and are not sent again.
    pub fn new(run: &Run) -> RunTrace {
        let options = exporter().as_ref().map(|e| TraceOptions { capture_content: e.capture_content() });
        RunTrace { options, exported: Cell::new(run.step_count()), ended: Cell::new(None) }
    }

    /// Sends the spans of the steps `run` took since the last call.
    pub fn steps(&self, run: &Run) {
        let Some(options) = self.options else { return };
        if run.step_count() <= self.exported.get() {
            return;
        }
        let spans = run.new_spans(self.exported.get(), options);
        self.exported.set(run.step_count());
        send(spans);
    }

    /// Sends the steps not yet sent and the session's root span: the run ended, or stopped
    /// to wait for a person.
    pub fn session_end(&self, run: &Run) {
        self.steps(run);
        let Some(options) = self.options else { return };
        let Some(root) = run.session_span(options) else { return };
        let now = (root.span_id, run.step_count());
        if self.ended.replace(Some(now)) == Some(now) {
            return;
        }
        send(vec![root]);
    }
}

fn send(spans: Vec<engine::trace::SpanDoc>) {
    if spans.is_empty() {
        return;
    }
    if let Some(exporter) = exporter().as_ref() {
        exporter.send(spans);
    }
}
