//! Runs sent as OpenTelemetry traces from the desktop app. The app owns one
//! `switchyard_otel::Exporter`, configured by the Traces setting when it is set, else by the
//! standard `OTEL_*` variables (nothing set: no exporter, no thread). It is started with the
//! app, replaced when the setting changes and shut down, with a bounded wait, as the app exits.
//!
//! The editor hands over the record of a run whose session ended; the spans are mapped here,
//! natively, with the engine's mapping (`engine::trace`), and only that session's spans are
//! sent: earlier sessions went when they ended.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use engine::Graph;
use engine::record::RunRecord;
use engine::trace::{SpanDoc, TraceOptions, record_spans};
use switchyard_otel::{Config, Exporter};
use workflow_files::{Settings, TraceSettings};

/// How long the app waits, as it exits, for spans still queued to reach the collector.
pub const EXIT_WAIT: Duration = switchyard_otel::SHUTDOWN_WAIT;

/// The app's exporter, when traces are set up, and the configuration it was started with.
#[derive(Clone, Default)]
pub struct Traces(Arc<Mutex<Option<Running>>>);

struct Running {
    config: Config,
    exporter: Exporter,
}

/// Where traces go by `settings`: the Traces setting when set (it wins), else the `OTEL_*`
/// variables; `None` when neither says anything.
pub fn config_of(settings: &Settings) -> Result<Option<Config>, String> {
    let from_env = Config::from_env().map_err(|e| e.to_string());
    match &settings.traces {
        Some(setting) => Ok(Some(from_setting(setting, from_env.ok().flatten()))),
        None => from_env,
    }
}

/// The setting's endpoint, headers and content choice over what the variables give for the
/// rest (service name, resource attributes, protocol, timeout).
fn from_setting(setting: &TraceSettings, from_env: Option<Config>) -> Config {
    let mut config = from_env.unwrap_or_else(|| Config::for_endpoint(setting.traces_url()));
    config.traces_endpoint = setting.traces_url();
    config.headers = setting.headers.clone();
    config.capture_content = setting.capture_content;
    config
}

impl Traces {
    /// Runs the exporter `config` asks for: the one running when it is the same, else a new
    /// one (the old one finishes sending on a thread of its own), or none.
    pub fn apply(&self, config: Option<Config>) {
        let mut current = self.lock();
        if current.as_ref().map(|r| &r.config) == config.as_ref() {
            return;
        }
        if let Some(old) = current.take() {
            std::thread::spawn(move || warn(old.exporter.shutdown(EXIT_WAIT)));
        }
        *current = config.map(|config| Running { exporter: Exporter::start(config.clone()), config });
    }

    /// Sends the latest session of `record` (its spans mapped with `graph` when given).
    /// Answers the trace id sent; `None` when traces are not set up, or the session ran no
    /// step (a run waiting before its first step): that session goes on under the same trace
    /// when the person answers, and is sent once, then, rather than its root span twice.
    pub fn export(&self, record: &RunRecord, graph: Option<&Graph>) -> Option<String> {
        if !ran_a_step(record) {
            return None;
        }
        let current = self.lock();
        let running = current.as_ref()?;
        let options = TraceOptions { capture_content: running.exporter.capture_content(), ..TraceOptions::default() };
        let trace_id = record.trace_id.clone()?;
        running.exporter.send(latest_session(record, graph, options, &trace_id));
        Some(trace_id)
    }

    /// Sends what is queued, waiting at most [`EXIT_WAIT`], and says on stderr what could
    /// not be sent.
    pub fn shut_down(&self) {
        if let Some(running) = self.lock().take() {
            warn(running.exporter.shutdown(EXIT_WAIT));
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Running>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Whether the record's latest session ran a step of its own.
fn ran_a_step(record: &RunRecord) -> bool {
    record.traces.last().is_some_and(|s| record.step >= s.from_step)
}

/// The spans of the session whose trace is `trace_id`.
fn latest_session(record: &RunRecord, graph: Option<&Graph>, options: TraceOptions, trace_id: &str) -> Vec<SpanDoc> {
    let mut spans = record_spans(record, graph, options);
    spans.retain(|s| s.trace_id.to_string() == trace_id);
    spans
}

fn warn(warnings: Vec<String>) {
    for w in warnings {
        eprintln!("switchyard: {w}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_wins_over_nothing_and_keeps_its_headers() {
        let setting = TraceSettings {
            endpoint: "http://127.0.0.1:4318".into(),
            headers: vec![("x-key".into(), "v".into())],
            capture_content: true,
        };
        let settings = Settings { traces: Some(setting), ..Settings::default() };
        let config = config_of(&settings).expect("a configuration").expect("traces on");
        assert_eq!(config.traces_endpoint, "http://127.0.0.1:4318/v1/traces");
        assert_eq!(config.headers, vec![("x-key".to_string(), "v".to_string())]);
        assert!(config.capture_content);
    }

    /// The approval template, run in the engine and handed over as the editor does when its
    /// session ends: waiting before its first step (nothing sent: the session goes on), then
    /// answered and completed. The session arrives once, under the record's trace id, as one
    /// tree with its chat spans and no content.
    #[test]
    fn each_session_arrives_once_under_its_trace_id() {
        use engine::{OfflineHost, Run, compile, parse_graph};
        use std::rc::Rc;
        use switchyard_otel::receiver::{Behaviour, Receiver};

        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../templates/003-approval.json"))
            .expect("the template");
        let graph = parse_graph(&text).expect("a graph");
        let plan = Rc::new(compile(&graph).plan.expect("valid"));
        let host = OfflineHost::new();
        let receiver = Receiver::start(Behaviour::Accept).expect("a receiver");
        let traces = Traces::default();
        let setting = TraceSettings { endpoint: receiver.endpoint(), ..TraceSettings::default() };
        traces.apply(config_of(&Settings { traces: Some(setting), ..Settings::default() }).expect("config"));

        let mut run = Run::start(plan, serde_json::json!({"request": "two laptops"}), &host).expect("a run");
        pollster::block_on(run.run(&host));
        let waiting = run.record(true);
        assert_eq!(waiting.status, engine::Status::Interrupted);
        assert_eq!(traces.export(&waiting, Some(&graph)), None, "no step of its own yet");
        run.answer("get_approval", serde_json::json!({"decision": "approve"})).expect("answered");
        pollster::block_on(run.run(&host));
        let done = run.record(true);
        let sent = traces.export(&done, Some(&graph)).expect("sent");
        assert_eq!(Some(&sent), waiting.trace_id.as_ref(), "the session the run panel showed while it waited");
        traces.shut_down();

        let got = receiver.wait_until(EXIT_WAIT, |spans| spans.iter().any(|s| s.span.parent.is_none()));
        assert!(got.iter().all(|s| s.span.trace_id.to_string() == sent), "one trace");
        assert_eq!(got.iter().filter(|s| s.span.parent.is_none()).count(), 1, "one root");
        let mut ids: Vec<_> = got.iter().map(|s| s.span.span_id.0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), got.len(), "each span once");
        assert!(got.iter().any(|s| s.span.name.starts_with("chat ")), "a chat span: {:?}", names(&got));
        assert!(got.iter().any(|s| s.span.name == "step 1"), "step spans: {:?}", names(&got));
        assert!(!format!("{got:?}").contains("two laptops"), "no content without the opt-in");
    }

    fn names(spans: &[switchyard_otel::receiver::ReceivedSpan]) -> Vec<&str> {
        spans.iter().map(|s| s.span.name.as_str()).collect()
    }

    #[test]
    fn nothing_set_runs_no_exporter() {
        let traces = Traces::default();
        traces.apply(None);
        let record: RunRecord = serde_json::from_value(serde_json::json!({
            "format": "switchyard/run@1", "run_id": "r1", "graph": "g", "status": "completed",
            "input": {}, "state": {}, "step": 0, "next": [], "waiting": [], "error": null, "outputs": {},
            "trace_id": "0123456789abcdef0123456789abcdef"
        }))
        .expect("a record");
        assert_eq!(traces.export(&record, None), None);
        traces.shut_down();
    }
}
