//! Trace export from the process that runs the engine (`switchyard serve`, and the embedded
//! backend of `switchyard server`): one [`Exporter`] for the process, configured from the
//! standard `OTEL_*` variables when the program starts and shut down with a bounded wait when
//! it stops, and a [`RunTrace`] per engine thread that hands over each step's spans as the
//! step ends and the session's root span when the session ends.
//!
//! A served run replayed by Restate runs its steps again. Replayed in the same process (woken
//! after a wait), it sends only what it had not sent; replayed by another (a worker killed,
//! another replica) it sends them all again: the ids are derived from the run
//! (`engine::trace`) and the clock is journaled, so the second copy names the same spans with
//! the same times.

use std::collections::BTreeMap;
use std::sync::Mutex;

use engine::trace::{SpanId, TraceOptions};
use engine::{Run, Status};
use switchyard_otel::{Config, ConfigError, Exporter, SHUTDOWN_WAIT};

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

/// Stops the process's exporter, waiting at most [`SHUTDOWN_WAIT`] (5 s) for what is queued; the
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

/// What this process has sent of each run that has not ended, by run id: a run Restate
/// replays here (woken after a wait its invocation was suspended for) sends only what is new.
/// Another process replaying it sends it all again, which is harmless (module doc).
static SENT: Mutex<BTreeMap<String, Sent>> = Mutex::new(BTreeMap::new());

/// Runs remembered at most; past it the memory starts afresh (at worst, spans sent twice).
const MAX_REMEMBERED: usize = 10_000;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Sent {
    /// The last step whose spans went out.
    steps: u64,
    /// The last session root sent and the step count then: a run that stops again with no
    /// step between (an answer it refused, a replay) sends its root once.
    root: Option<(SpanId, u64)>,
}

fn sent() -> std::sync::MutexGuard<'static, BTreeMap<String, Sent>> {
    SENT.lock().unwrap_or_else(|e| e.into_inner())
}

/// An engine thread's view of its run's export.
pub struct RunTrace {
    /// The spans' options, fixed when the run starts; `None` when nothing is exported.
    options: Option<TraceOptions>,
    run_id: String,
}

impl RunTrace {
    /// Starts tracing `run` from where it stands: steps it already had (a fork's, a resumed
    /// run's) belong to earlier sessions and are not sent again.
    pub fn new(run: &Run) -> RunTrace {
        let options =
            exporter().as_ref().map(|e| TraceOptions { capture_content: e.capture_content(), ..Default::default() });
        let run_id = run.run_id().to_string();
        if options.is_some() {
            let mut sent = sent();
            if sent.len() >= MAX_REMEMBERED && !sent.contains_key(&run_id) {
                sent.clear();
            }
            let entry = sent.entry(run_id.clone()).or_default();
            entry.steps = entry.steps.max(run.step_count());
        }
        RunTrace { options, run_id }
    }

    /// Sends the spans of the steps `run` took since the last ones sent.
    pub fn steps(&self, run: &Run) {
        let Some(options) = self.options else { return };
        let after = {
            let mut sent = sent();
            let entry = sent.entry(self.run_id.clone()).or_default();
            if run.step_count() <= entry.steps {
                return;
            }
            std::mem::replace(&mut entry.steps, run.step_count())
        };
        send(run.new_spans(after, options));
    }

    /// Sends the steps not yet sent and the session's root span: the run ended, or stopped
    /// to wait for a person. An ended run is forgotten.
    pub fn session_end(&self, run: &Run) {
        self.steps(run);
        let Some(options) = self.options else { return };
        let Some(root) = run.session_span(options) else { return };
        let now = (root.span_id, run.step_count());
        let ended = !matches!(run.status(), Status::Interrupted | Status::Running);
        let again = {
            let mut sent = sent();
            let again = sent.get(&self.run_id).is_some_and(|e| e.root == Some(now));
            if ended {
                sent.remove(&self.run_id);
            } else {
                sent.entry(self.run_id.clone()).or_default().root = Some(now);
            }
            again
        };
        if !again {
            send(vec![root]);
        }
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
