//! A session's root span, `run <graph>`: the run's identity, how the session ended (an
//! error, or waiting for a person: the `switchyard.interrupt` event), the tokens its steps
//! took, and links to the session it resumes or the run it was forked from.

use serde_json::Value;

use super::attrs::Attrs;
use super::tree::root_id;
use super::{AttrValue, SpanDoc, SpanEvent, SpanKind, SpanLink, SpanStatus, TraceId, TraceOptions};
use crate::record::{RunRecord, Status, StepDoc, TraceSession, Usage};

/// What a session's root span is made from.
pub(crate) struct SessionInput<'a> {
    /// The record (a summary is enough: its steps are not read).
    pub header: &'a RunRecord,
    pub sessions: &'a [TraceSession],
    /// Which of `sessions` to map.
    pub index: usize,
    /// The session's steps, in order, and where each starts when laid out without stamps.
    pub steps: &'a [StepDoc],
    pub starts: &'a [f64],
    /// Where a session that ran no step sits: the end of the step before it.
    pub before_end: f64,
    pub options: TraceOptions,
}

/// The root span of session `input.index`.
pub(crate) fn session_root(input: &SessionInput<'_>) -> Option<SpanDoc> {
    let session = input.sessions.get(input.index)?;
    let trace = TraceId::parse(&session.trace_id)?;
    let rec = input.header;
    let latest = input.index + 1 == input.sessions.len();
    // A run waiting before its session ran a step goes on in the same trace when answered:
    // its root is exported then.
    if latest && input.steps.is_empty() && rec.status == Status::Interrupted {
        return None;
    }
    let (start, end) = bounds(input);
    let mut usage = Usage::default();
    for s in input.steps {
        s.details.values().for_each(|d| usage.add_detail(d));
    }
    let last_step = input.steps.last().map_or(session.from_step.saturating_sub(1), |s| s.step);
    let status_word = if latest { rec.status.name() } else { ended_as(input.steps.last()) };
    let mut a = Attrs::default();
    a.str("switchyard.graph.name", rec.graph.clone())
        .opt_str("switchyard.graph.hash", rec.graph_hash.as_deref())
        .str("switchyard.run.id", rec.run_id.clone())
        .str("switchyard.run.status", status_word)
        .count("switchyard.run.steps", last_step)
        .count("switchyard.session.from_step", session.from_step)
        .count("gen_ai.usage.input_tokens", usage.input_tokens)
        .count("gen_ai.usage.output_tokens", usage.output_tokens)
        .str("openinference.span.kind", "CHAIN");
    if input.options.capture_content && latest {
        a.str("input.value", Value::Object(rec.input.clone()).to_string());
        a.str("output.value", Value::Object(rec.state.clone()).to_string());
    }
    let mut events = Vec::new();
    let status = if latest {
        latest_status(rec, end, &mut a, &mut events)
    } else {
        earlier_status(input.steps.last(), end, &mut a, &mut events)
    };
    Some(SpanDoc {
        trace_id: trace,
        span_id: root_id(trace),
        parent: None,
        name: format!("run {}", rec.graph),
        kind: SpanKind::Internal,
        start_ms: start,
        end_ms: end,
        status,
        attributes: a.0,
        events,
        links: links(input),
    })
}

/// The session's start and end: its first step's start to its last step's end.
fn bounds(input: &SessionInput<'_>) -> (f64, f64) {
    let start_of = |i: usize| input.steps[i].started_ms.unwrap_or(input.starts[i]);
    if input.steps.is_empty() {
        return (input.before_end, input.before_end);
    }
    let last = input.steps.len() - 1;
    let start = start_of(0);
    let end = start_of(last) + input.steps[last].duration_ms.max(0.0);
    (start, end.max(start))
}

/// How the latest session stands: failed or stopped at a limit (an error), or waiting.
fn latest_status(rec: &RunRecord, end: f64, a: &mut Attrs, events: &mut Vec<SpanEvent>) -> SpanStatus {
    match (&rec.error, rec.status) {
        (Some(e), Status::Failed | Status::LimitReached) => {
            a.str("error.type", e.kind.name());
            SpanStatus::Error(e.message.clone())
        }
        (_, Status::Interrupted) => {
            let waiting = rec.waiting.iter().map(|w| w.node.clone()).collect();
            events.push(interrupt(waiting, end));
            SpanStatus::Unset
        }
        _ => SpanStatus::Unset,
    }
}

/// How an earlier session ended: its last step failed, or the run stopped to wait.
fn earlier_status(last: Option<&StepDoc>, end: f64, a: &mut Attrs, events: &mut Vec<SpanEvent>) -> SpanStatus {
    match last {
        Some(s) if s.failed => match s.errors.values().next() {
            Some(e) => {
                a.str("error.type", e.kind.name());
                SpanStatus::Error(e.message.clone())
            }
            None => SpanStatus::Error("the step failed".into()),
        },
        Some(s) => {
            events.push(interrupt(s.next.clone(), end));
            SpanStatus::Unset
        }
        None => SpanStatus::Unset,
    }
}

/// The status word of an earlier session: failed when its last step did, else it waited.
fn ended_as(last: Option<&StepDoc>) -> &'static str {
    if last.is_some_and(|s| s.failed) { "failed" } else { "interrupted" }
}

fn interrupt(waiting: Vec<String>, at: f64) -> SpanEvent {
    SpanEvent {
        name: "switchyard.interrupt".into(),
        time_ms: at,
        attributes: vec![("switchyard.waiting".into(), AttrValue::StrList(waiting))],
    }
}

/// A resumed session links to the one before; a fork's first session to the session of
/// the run it was forked from, when that is known.
fn links(input: &SessionInput<'_>) -> Vec<SpanLink> {
    let kind = |k: &str| vec![("switchyard.link.type".to_string(), AttrValue::Str(k.into()))];
    let to = |trace: TraceId, k: &str| SpanLink { trace_id: trace, span_id: root_id(trace), attributes: kind(k) };
    if input.index > 0 {
        return TraceId::parse(&input.sessions[input.index - 1].trace_id)
            .map(|t| to(t, "resumed"))
            .into_iter()
            .collect();
    }
    let fork = input.header.forked_from.as_ref().and_then(|f| f.trace_id.as_deref());
    fork.and_then(TraceId::parse).map(|t| to(t, "forked")).into_iter().collect()
}
