//! A step's spans: the step, one span per task that ran or was passed over (a node, or a
//! map instance `node[i]`), the calls each made, and for a subgraph node the inner run's
//! steps under it. Pure nodes take the step's start and no time; effect tasks take the
//! times the engine stamped (`StepDoc.timings`).

use serde_json::Value;

use super::attrs::Attrs;
use super::calls::{NodeCalls, node_calls};
use super::{SpanDoc, SpanId, SpanKind, SpanStatus, TraceId, TraceOptions, span_id_for};
use crate::document::Graph;
use crate::record::{RecordedReply, RunRecord, StepDoc, split_name};

/// One step to map, with what its spans need beside the step itself.
pub(crate) struct StepInput<'a> {
    pub trace: TraceId,
    pub doc: &'a StepDoc,
    /// Where the step starts when it carries no stamp (laid out from the record's durations).
    pub laid_out_ms: f64,
    /// The calls made in the step, by its tasks and the runs inside them, in order.
    pub replies: &'a [&'a RecordedReply],
    /// The details a task left in the latest earlier step that ran it (a subgraph node
    /// resumed in this step shows only the inner steps it had not shown).
    pub earlier: &'a dyn Fn(&str) -> Option<Value>,
    /// Where in the run the step sits: empty at the top, `<node path>/` inside a subgraph.
    pub prefix: String,
    /// The span the step hangs under: the session's root, or a subgraph's node.
    pub parent: SpanId,
}

/// The step a task's spans hang under: its path, span and time.
struct Frame {
    path: String,
    id: SpanId,
    start: f64,
    end: f64,
}

/// What every span of a step is mapped with.
#[derive(Clone, Copy)]
struct Mapping<'g> {
    graph: Option<&'g Graph>,
    options: TraceOptions,
}

/// The root span's id in trace `trace`.
pub(crate) fn root_id(trace: TraceId) -> SpanId {
    span_id_for(trace, "run")
}

/// The spans of one step, appended to `out`: the step's, its tasks', their calls'.
pub(crate) fn step_tree(input: &StepInput<'_>, graph: Option<&Graph>, options: TraceOptions, out: &mut Vec<SpanDoc>) {
    let doc = input.doc;
    let start = doc.started_ms.unwrap_or(input.laid_out_ms);
    let end = start + doc.duration_ms.max(0.0);
    let path = format!("{}step/{}", input.prefix, doc.step);
    let id = span_id_for(input.trace, &path);
    let mut a = Attrs::default();
    a.count("switchyard.step", doc.step)
        .list("switchyard.step.ran", doc.ran.clone())
        .list("switchyard.step.next", doc.next.clone())
        .list("switchyard.step.edges_taken", doc.taken.iter().map(|&i| edge_name(graph, i)).collect())
        .str("openinference.span.kind", "CHAIN");
    let status = if doc.failed {
        let why = doc.errors.values().next().map_or_else(|| "the step failed".to_string(), |e| e.message.clone());
        SpanStatus::Error(why)
    } else {
        SpanStatus::Unset
    };
    out.push(SpanDoc {
        trace_id: input.trace,
        span_id: id,
        parent: Some(input.parent),
        name: format!("step {}", doc.step),
        kind: SpanKind::Internal,
        start_ms: start,
        end_ms: end,
        status,
        attributes: a.0,
        events: Vec::new(),
        links: Vec::new(),
    });
    let frame = Frame { path, id, start, end };
    let mapping = Mapping { graph, options };
    let tasks = doc.ran.iter().map(|t| (t, false)).chain(doc.skipped.iter().map(|t| (t, true)));
    for (task, skipped) in tasks {
        node_tree(input, &frame, task, skipped, mapping, out);
    }
}

/// A task's span, its calls' spans and (a subgraph node) its inner steps.
fn node_tree(input: &StepInput<'_>, step: &Frame, task: &str, skipped: bool, m: Mapping<'_>, out: &mut Vec<SpanDoc>) {
    let doc = input.doc;
    let (step_start, step_end) = (step.start, step.end);
    let path = format!("{}/node/{task}", step.path);
    let id = span_id_for(input.trace, &path);
    let detail = doc.details.get(task);
    let (start, end) = match doc.timings.get(task) {
        Some([s, e]) => (*s, e.max(*s)),
        // An effect of an unstamped step takes the step's time; a pure node none.
        None if detail.is_some() && !skipped && doc.started_ms.is_none() => (step_start, step_end),
        None => (step_start, step_start),
    };
    let (node_id, index) = split_name(task).unwrap_or((task, None));
    let mut a = Attrs::default();
    a.str("switchyard.node.id", node_id);
    if let Some(kind) = m.graph.and_then(|g| g.nodes.iter().find(|n| n.id == node_id)) {
        a.str("switchyard.node.kind", kind.kind.name());
    }
    if let Some(i) = index {
        a.count("switchyard.node.map_index", i as u64);
    }
    let error = doc.errors.get(task);
    let state = if skipped {
        "skipped"
    } else if error.is_some() {
        "failed"
    } else if detail.is_some_and(|d| d == "pinned") {
        "pinned"
    } else if doc.waiting.iter().any(|w| w == node_id) {
        "waiting"
    } else {
        "ok"
    };
    a.str("switchyard.node.status", state);
    if let Some(n) = detail.and_then(|d| d.get("attempts")).and_then(Value::as_u64) {
        a.count("switchyard.node.attempt", n);
    }
    let status = match error {
        Some(e) => {
            a.str("error.type", e.kind.name());
            SpanStatus::Error(e.message.clone())
        }
        None => SpanStatus::Unset,
    };
    a.str("openinference.span.kind", "CHAIN");
    out.push(SpanDoc {
        trace_id: input.trace,
        span_id: id,
        parent: Some(step.id),
        name: format!("node {task}"),
        kind: SpanKind::Internal,
        start_ms: start,
        end_ms: end,
        status,
        attributes: a.0,
        events: Vec::new(),
        links: Vec::new(),
    });
    let own: Vec<&RecordedReply> = input.replies.iter().copied().filter(|r| r.node == task).collect();
    let calls =
        NodeCalls { trace: input.trace, path: &path, parent: id, start, detail, graph: m.graph, options: m.options };
    node_calls(&calls, &own, out);
    if let Some(inner) = detail.and_then(|d| d.get("subgraph")) {
        let node = Frame { path, id, start, end };
        inner_steps(input, task, &node, inner, m.options, out);
    }
}

/// The steps a subgraph node's inner run took in this step, under the node's span.
fn inner_steps(
    input: &StepInput<'_>,
    task: &str,
    node: &Frame,
    inner: &Value,
    options: TraceOptions,
    out: &mut Vec<SpanDoc>,
) {
    let Ok(record) = serde_json::from_value::<RunRecord>(inner.clone()) else { return };
    let Some(steps) = &record.steps else { return };
    // A subgraph that waited in an earlier step and went on here shows its new steps only.
    let shown = (input.earlier)(task)
        .and_then(|d| d.get("subgraph").cloned())
        .filter(|r| r["status"] == "interrupted")
        .and_then(|r| r["step"].as_u64())
        .unwrap_or(0);
    let prefix = format!("{task}/");
    let renamed: Vec<RecordedReply> = input
        .replies
        .iter()
        .filter_map(|r| {
            let inner_name = r.node.strip_prefix(&prefix)?;
            Some(RecordedReply { node: inner_name.to_string(), ..(*r).clone() })
        })
        .collect();
    let mut at = node.start;
    let mut placed = vec![false; renamed.len()];
    for (i, doc) in steps.iter().enumerate().filter(|(_, d)| d.step > shown) {
        let replies = calls_in(doc, &renamed, &mut placed);
        let earlier_steps = &steps[..i];
        let earlier = |name: &str| earlier_steps.iter().rev().find_map(|s| s.details.get(name).cloned());
        let step_input = StepInput {
            trace: input.trace,
            doc,
            laid_out_ms: at,
            replies: &replies,
            earlier: &earlier,
            prefix: format!("{}/", node.path),
            parent: node.id,
        };
        at += doc.duration_ms.max(0.0);
        step_tree(&step_input, None, options, out);
    }
}

/// The inner run's calls made in its step `doc`. The tape files them under the outer step,
/// so a stamped call goes to the inner step whose time holds it; without stamps, a task's
/// calls go to the first inner step that ran it.
fn calls_in<'r>(doc: &StepDoc, replies: &'r [RecordedReply], placed: &mut [bool]) -> Vec<&'r RecordedReply> {
    let mut out = Vec::new();
    for (k, r) in replies.iter().enumerate() {
        let made_by = |t: &String| r.node == *t || r.node.strip_prefix(t.as_str()).is_some_and(|n| n.starts_with('/'));
        if placed[k] || !doc.ran.iter().any(made_by) {
            continue;
        }
        let fits = match (r.started_ms, doc.started_ms) {
            (Some(at), Some(start)) => at >= start - 0.5 && at <= start + doc.duration_ms.max(0.0) + 0.5,
            _ => true,
        };
        if fits {
            placed[k] = true;
            out.push(r);
        }
    }
    out
}

/// Edge `index` of the graph as `from → to`, or its index when the graph is not known.
fn edge_name(graph: Option<&Graph>, index: usize) -> String {
    match graph.and_then(|g| g.edges.get(index)) {
        Some(e) => format!("{} → {}", e.from, e.to),
        None => index.to_string(),
    }
}
