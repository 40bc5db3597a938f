//! A run as OpenTelemetry spans, pure: the record (and, when given, its graph) mapped to
//! plain span values that a host hands to an exporter. The same mapping serves a live run
//! (its steps as they end, the session's root span when the session ends) and a record
//! exported after the fact (`switchyard trace`), so both show the same tree.
//!
//! Trace and span ids are derived from the run id and the span's place in the run, never
//! drawn at random: the durable host (Restate) replays to the same ids, and an exported
//! record names the trace its live export used.
//!
//! The tree of one session (see docs/format.md §15):
//! `run <graph>` → `step <n>` → `node <id>` → effect spans (`chat <model>`,
//! `execute_tool <name>`, `<METHOD>` for HTTP, `tools/call <tool>` for MCP) and, for a
//! subgraph node, the inner run's steps.
//!
//! Keys never reach a span: the tape's requests carry none, URLs lose their query and user
//! info, headers are never exported. Content (prompts, replies, tool arguments and results)
//! is exported only with [`TraceOptions::capture_content`]. The mapping never reads a
//! clock: times come from the record's stamps, or from its durations laid out from
//! [`TraceOptions::unstamped_start_ms`].
//!
//! | module | what it holds |
//! |---|---|
//! | `mod.rs` | the span types ([`SpanDoc`]…), [`TraceOptions`], the entry points over a record |
//! | `ids` | trace and span ids derived from the run ([`trace_id_for`], [`span_id_for`]) |
//! | `session` | a session's root span: status, totals, the interrupt event, links to the session it resumes or the run it forks |
//! | `tree` | a step's spans: the step, its nodes (map instances, statuses, errors), a subgraph's inner steps |
//! | `calls` | the spans of the calls a node made: model (`chat`), HTTP, MCP, and a `tools` node's tool calls |
//! | `attrs` | attributes built up, and URLs without their secrets |

mod attrs;
mod calls;
mod ids;
mod session;
mod tree;

use std::collections::BTreeMap;

pub use self::ids::{SpanId, TraceId, span_id_for, trace_id_for, trace_id_for_attempt};
pub(crate) use self::session::{SessionInput, session_root};
pub(crate) use self::tree::{StepInput, root_id, step_tree};
use crate::document::Graph;
use crate::record::{RecordedReply, RunRecord, StepDoc, TraceSession};

/// Whether the span is work done inside the run or a call to something outside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    Internal,
    Client,
}

/// How a span ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanStatus {
    Unset,
    Ok,
    Error(String),
}

/// An attribute's value, in the types OpenTelemetry attributes take.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    StrList(Vec<String>),
}

/// Something that happened at one moment of a span (an interrupt, a message when content
/// capture is on).
#[derive(Debug, Clone, PartialEq)]
pub struct SpanEvent {
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub time_ms: f64,
    pub attributes: Vec<(String, AttrValue)>,
}

/// A link to a span of another trace (the session a resume continues, the run a fork
/// starts from).
#[derive(Debug, Clone, PartialEq)]
pub struct SpanLink {
    pub trace_id: TraceId,
    pub span_id: SpanId,
    pub attributes: Vec<(String, AttrValue)>,
}

/// One span, ready for an exporter.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanDoc {
    pub trace_id: TraceId,
    pub span_id: SpanId,
    pub parent: Option<SpanId>,
    pub name: String,
    pub kind: SpanKind,
    /// Milliseconds since the Unix epoch.
    pub start_ms: f64,
    /// Milliseconds since the Unix epoch; never before `start_ms`.
    pub end_ms: f64,
    pub status: SpanStatus,
    pub attributes: Vec<(String, AttrValue)>,
    pub events: Vec<SpanEvent>,
    pub links: Vec<SpanLink>,
}

/// What the person chose to include, and where an unstamped record's times start.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TraceOptions {
    /// Model messages and tool arguments and results as span attributes
    /// (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). Off by default.
    pub capture_content: bool,
    /// Where a record without wall-clock stamps (an older one, or one made offline) is laid
    /// out from, in milliseconds since the Unix epoch: its steps follow one another from
    /// there, each as long as its `duration_ms`. The caller picks it (e.g. now minus the run's
    /// total time); the mapping never reads a clock.
    pub unstamped_start_ms: f64,
}

/// The sessions of a record: its `traces`, or for a record written before them, one
/// session from step 1 under the id it would have had.
pub fn sessions_of(record: &RunRecord) -> Vec<TraceSession> {
    if record.traces.is_empty() {
        return vec![TraceSession { trace_id: trace_id_for(&record.run_id, 1).to_string(), from_step: 1 }];
    }
    record.traces.clone()
}

/// Where each step of `steps` starts when laid out without stamps: one after the other from
/// `origin`.
pub(crate) fn laid_out_starts(steps: &[StepDoc], origin: f64) -> Vec<f64> {
    let mut at = origin;
    steps
        .iter()
        .map(|s| {
            let here = at;
            at += s.duration_ms.max(0.0);
            here
        })
        .collect()
}

/// Where step `i` of `steps` (laid out from `starts`) ends.
pub(crate) fn end_of(steps: &[StepDoc], starts: &[f64], i: usize) -> f64 {
    steps[i].started_ms.unwrap_or(starts[i]) + steps[i].duration_ms.max(0.0)
}

/// The record's calls by the step they were made in.
fn replies_by_step(record: &RunRecord) -> BTreeMap<u64, Vec<&RecordedReply>> {
    let mut by_step: BTreeMap<u64, Vec<&RecordedReply>> = BTreeMap::new();
    for r in &record.replies {
        by_step.entry(r.step).or_default().push(r);
    }
    by_step
}

/// The details task `name` left in the latest of `steps` that ran it.
fn earlier_detail(steps: &[StepDoc], name: &str) -> Option<serde_json::Value> {
    steps.iter().rev().find_map(|s| s.details.get(name).cloned())
}

/// A record's steps and where each starts when laid out without stamps.
#[derive(Clone, Copy)]
struct Laid<'a> {
    steps: &'a [StepDoc],
    starts: &'a [f64],
}

/// The spans of step index `i` in session trace `trace`, appended to `out`.
fn map_step(
    trace: TraceId,
    laid: Laid<'_>,
    i: usize,
    replies: &[&RecordedReply],
    graph: Option<&Graph>,
    options: TraceOptions,
    out: &mut Vec<SpanDoc>,
) {
    let earlier = |name: &str| earlier_detail(&laid.steps[..i], name);
    let input = StepInput {
        trace,
        doc: &laid.steps[i],
        laid_out_ms: laid.starts[i],
        replies,
        earlier: &earlier,
        prefix: String::new(),
        parent: root_id(trace),
    };
    step_tree(&input, graph, options, out);
}

/// The root span of session `index` of `record`.
fn root_of(
    record: &RunRecord,
    sessions: &[TraceSession],
    index: usize,
    starts: &[f64],
    options: TraceOptions,
) -> Option<SpanDoc> {
    let steps = record.steps.as_deref().unwrap_or_default();
    let from = sessions.get(index)?.from_step;
    let until = sessions.get(index + 1).map_or(u64::MAX, |s| s.from_step);
    let first = steps.iter().position(|s| s.step >= from).unwrap_or(steps.len());
    let last = steps.iter().position(|s| s.step >= until).unwrap_or(steps.len()).max(first);
    let before_end = if first > 0 { end_of(steps, starts, first - 1) } else { options.unstamped_start_ms };
    session_root(&SessionInput {
        header: record,
        sessions,
        index,
        steps: &steps[first..last],
        starts: &starts[first..last],
        before_end,
        options,
    })
}

/// The spans of step `step` of `record` (the step span, its nodes' spans and their
/// effects' spans), in the trace of the session that ran it.
pub fn step_spans(record: &RunRecord, step: u64, graph: Option<&Graph>, options: TraceOptions) -> Vec<SpanDoc> {
    let Some(steps) = &record.steps else { return Vec::new() };
    let Some(i) = steps.iter().position(|s| s.step == step) else { return Vec::new() };
    let sessions = sessions_of(record);
    let Some(session) = sessions.iter().rev().find(|s| s.from_step <= step) else { return Vec::new() };
    let Some(trace) = TraceId::parse(&session.trace_id) else { return Vec::new() };
    let starts = laid_out_starts(steps, options.unstamped_start_ms);
    let replies: Vec<&RecordedReply> = record.replies.iter().filter(|r| r.step == step).collect();
    let mut out = Vec::new();
    map_step(trace, Laid { steps, starts: &starts }, i, &replies, graph, options, &mut out);
    out
}

/// The root span of the record's latest session, as it stands (ended, waiting, failed…).
pub fn session_span(record: &RunRecord, options: TraceOptions) -> Option<SpanDoc> {
    let sessions = sessions_of(record);
    let starts = laid_out_starts(record.steps.as_deref().unwrap_or_default(), options.unstamped_start_ms);
    root_of(record, &sessions, sessions.len().checked_sub(1)?, &starts, options)
}

/// Every span of every session of `record`: what `switchyard trace` exports. Each
/// session's step spans come first, its root span last.
pub fn record_spans(record: &RunRecord, graph: Option<&Graph>, options: TraceOptions) -> Vec<SpanDoc> {
    let sessions = sessions_of(record);
    let steps = record.steps.as_deref().unwrap_or_default();
    let starts = laid_out_starts(steps, options.unstamped_start_ms);
    let by_step = replies_by_step(record);
    let mut out = Vec::new();
    for (k, session) in sessions.iter().enumerate() {
        let Some(trace) = TraceId::parse(&session.trace_id) else { continue };
        let until = sessions.get(k + 1).map_or(u64::MAX, |next| next.from_step);
        for (i, doc) in steps.iter().enumerate() {
            if doc.step >= session.from_step && doc.step < until {
                let replies = by_step.get(&doc.step).map(Vec::as_slice).unwrap_or_default();
                map_step(trace, Laid { steps, starts: &starts }, i, replies, graph, options, &mut out);
            }
        }
        out.extend(root_of(record, &sessions, k, &starts, options));
    }
    out
}
