//! Runs sent as OpenTelemetry traces when the standard `OTEL_*` variables ask (README, "See
//! runs in Phoenix, Langfuse or Jaeger"; docs/cli.md). One [`Traces`] per process owns the
//! exporter (`switchyard-otel`); a [`RunTracer`] follows one run, sending each step's spans as
//! the step ends and the session's root span when the session ends. Export never changes a
//! run: a malformed variable is a warning and no export, a collector that is down costs one
//! warning at exit and at most [`switchyard_otel::SHUTDOWN_WAIT`].

use std::sync::Arc;

use engine::Run;
use engine::record::StepDoc;
use engine::trace::{AttrValue, SpanDoc, TraceOptions};
use switchyard_otel::{Config, Exporter, SHUTDOWN_WAIT};

use crate::console::Console;
use crate::drive::Observer;
use crate::output::say;

/// The process's exporter, when the environment configures one; clones share it.
#[derive(Clone)]
pub struct Traces {
    exporter: Arc<Exporter>,
}

impl Traces {
    /// The exporter the environment asks for, started; `None` when nothing is configured,
    /// or when a variable is malformed (said on stderr: the run goes on without export).
    pub fn from_env() -> Option<Traces> {
        match Config::from_env() {
            Ok(config) => config.map(Traces::start),
            Err(e) => {
                say(&format!("warning: {e}; traces are not sent"));
                None
            }
        }
    }

    /// The exporter for `config`.
    pub fn start(config: Config) -> Traces {
        Traces { exporter: Arc::new(Exporter::start(config)) }
    }

    /// The configuration's choices as the engine's mapping takes them.
    pub fn options(&self) -> TraceOptions {
        options(self.exporter.capture_content(), &[])
    }

    pub fn send(&self, spans: Vec<SpanDoc>) {
        if !spans.is_empty() {
            self.exporter.send(spans);
        }
    }

    /// A tracer for one run.
    pub fn tracer(&self) -> RunTracer {
        RunTracer { exporter: self.exporter.clone(), options: self.options(), after: 0, open: false, console: None }
    }

    /// Sends what is queued, waiting at most [`SHUTDOWN_WAIT`]; returns the warnings
    /// (`could not send traces to …`), each to be printed as one line.
    pub fn finish(self) -> Vec<String> {
        self.exporter.close(SHUTDOWN_WAIT)
    }

    /// [`Traces::finish`], with the warnings printed.
    pub fn finish_and_warn(self) {
        for warning in self.finish() {
            say(&warning);
        }
    }
}

/// Follows one run: the steps after `after` are the ones not sent yet.
pub struct RunTracer {
    exporter: Arc<Exporter>,
    options: TraceOptions,
    after: u64,
    /// A session has begun and its root span is not sent yet.
    open: bool,
    /// Where `run` prints the trace id (`trace <id>`); `None` stays quiet.
    console: Option<Console>,
}

impl RunTracer {
    /// Prints `trace <id>` on `console` when the session starts.
    pub fn printing_to(mut self, console: Console) -> RunTracer {
        self.console = Some(console);
        self
    }

    /// A session of `run` starts (a run started, resumed or forked): the steps it already
    /// has belong to earlier sessions.
    pub fn begin(&mut self, run: &Run) {
        self.after = run.step_count();
        self.open = true;
        if let (Some(console), Some(id)) = (&self.console, run.trace_id()) {
            console.say(&format!("trace {id}"));
        }
    }

    /// The spans of the steps `run` took since the last call.
    pub fn stepped(&mut self, run: &Run) {
        let spans = run.new_spans(self.after, self.options);
        self.after = run.step_count();
        if !spans.is_empty() {
            self.exporter.send(spans);
        }
    }

    /// The session ended (the run stopped, or waits for a person): its root span, once.
    pub fn session_ended(&mut self, run: &Run) {
        if !std::mem::replace(&mut self.open, false) {
            return;
        }
        if let Some(root) = run.session_span(self.options) {
            self.exporter.send(vec![root]);
        }
    }
}

impl Observer for RunTracer {
    fn wants_steps(&self) -> bool {
        false
    }

    fn started(&mut self, run: &Run) {
        self.begin(run);
    }

    fn stepped(&mut self, run: &Run, _new_steps: &[StepDoc]) {
        RunTracer::stepped(self, run);
    }

    fn finished(&mut self, run: &Run) {
        self.session_ended(run);
    }
}

/// The mapping's options: content as configured, and a record without wall-clock stamps (an
/// older one, or one made offline) laid out so that it ends now rather than in 1970.
pub fn options(capture_content: bool, steps: &[StepDoc]) -> TraceOptions {
    let total_ms: f64 = steps.iter().map(|s| s.duration_ms).sum();
    TraceOptions { capture_content, unstamped_start_ms: epoch_ms() - total_ms }
}

fn epoch_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// `spans` with `key = value` added to each session's root (the span without a parent).
pub fn on_roots(mut spans: Vec<SpanDoc>, key: &str, value: AttrValue) -> Vec<SpanDoc> {
    for root in spans.iter_mut().filter(|s| s.parent.is_none()) {
        root.attributes.push((key.to_string(), value.clone()));
    }
    spans
}
