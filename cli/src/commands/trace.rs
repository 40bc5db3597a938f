//! `switchyard trace RUN.json [--graph GRAPH.json]`: sends an existing run record to the
//! OpenTelemetry collector the `OTEL_*` variables name, as the traces a live export would
//! have sent (one per session, the ids the record keeps, its recorded times): a run made in
//! the browser, or on a machine without a collector, shows up afterwards. Exit 0 when every
//! span was delivered, 1 when nothing is configured or the collector did not take them, 2 on
//! bad input.

use engine::trace::{SpanDoc, record_spans};
use engine::{Graph, RunRecord};
use switchyard_otel::{Config, Exporter, OTEL_EXPORTER_OTLP_ENDPOINT, SHUTDOWN_WAIT};

use crate::args::TraceArgs;
use crate::exit::Printed;
use crate::input::{BadInput, load_graph, plan_or_bad_input, read_record};
use crate::output::say;

/// Exit code when nothing could be delivered.
const NOT_SENT: u8 = 1;

pub fn trace(args: TraceArgs) -> Result<Printed, BadInput> {
    let record = read_record(&args.run)?;
    let graph = args.graph.as_deref().map(|path| graph_of(&record, path, &args.run)).transpose()?;
    let Some(config) = Config::from_env().map_err(|e| BadInput::new(e.to_string()))? else {
        say(&format!(
            "nowhere to send the trace: set {OTEL_EXPORTER_OTLP_ENDPOINT} to the collector's OTLP/HTTP address \
             (e.g. http://127.0.0.1:4318, or Phoenix's http://127.0.0.1:6006)"
        ));
        return Ok(Printed::new(String::new(), NOT_SENT));
    };
    let options = crate::traces::options(config.capture_content, record.steps.as_deref().unwrap_or_default());
    let spans = record_spans(&record, graph.as_ref(), options);
    if spans.is_empty() {
        say(&format!("{}: the record has no session to send", args.run));
        return Ok(Printed::new(String::new(), NOT_SENT));
    }
    let endpoint = config.endpoint_for_display();
    let text = sent_text(&spans, &endpoint);
    let warnings = deliver(config, spans);
    if !warnings.is_empty() {
        warnings.iter().for_each(|w| say(w));
        return Ok(Printed::new(String::new(), NOT_SENT));
    }
    Ok(Printed::new(text, 0))
}

/// The graph at `path`, which must be the one the run belongs to (by name; a changed
/// version is fine: its node kinds are what `--graph` adds).
fn graph_of(record: &RunRecord, path: &str, run_path: &str) -> Result<Graph, BadInput> {
    let graph = load_graph(path)?;
    let plan = plan_or_bad_input(path, &graph)?;
    let name = plan.graph.display_name();
    if record.graph != name {
        return Err(BadInput::new(format!(
            "{run_path}: this run belongs to the graph \"{}\", but {path} is \"{name}\"",
            record.graph
        )));
    }
    Ok(graph)
}

/// Sends every span (waiting for room rather than dropping) and waits for the collector.
fn deliver(config: Config, spans: Vec<SpanDoc>) -> Vec<String> {
    let exporter = Exporter::start(config);
    exporter.send_all(spans, SHUTDOWN_WAIT);
    exporter.shutdown(SHUTDOWN_WAIT)
}

/// `trace <id>` for each session, then how many spans went where.
fn sent_text(spans: &[SpanDoc], endpoint: &str) -> String {
    let mut out = String::new();
    for root in spans.iter().filter(|s| s.parent.is_none()) {
        out.push_str(&format!("trace {} ({})\n", root.trace_id, root.name));
    }
    out.push_str(&format!("sent {} spans to {endpoint}\n", spans.len()));
    out
}
