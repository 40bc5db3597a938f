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

mod ids;

use serde_json::Value;

pub use self::ids::{SpanId, TraceId, span_id_for, trace_id_for};
use crate::document::Graph;
use crate::record::RunRecord;

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

/// What the person chose to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TraceOptions {
    /// Model messages and tool arguments and results as span events
    /// (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). Off by default.
    pub capture_content: bool,
}

/// The spans of step `step` of `record` (the step span, its nodes' spans and their
/// effects' spans), in the trace of the session that ran it.
pub fn step_spans(record: &RunRecord, step: u64, graph: Option<&Graph>, options: TraceOptions) -> Vec<SpanDoc> {
    let _ = (record, step, graph, options);
    Vec::new()
}

/// The root span of the record's latest session, as it stands (ended, waiting, failed…).
pub fn session_span(record: &RunRecord, options: TraceOptions) -> Option<SpanDoc> {
    let _ = (record, options);
    None
}

/// Every span of every session of `record`: what `switchyard trace` exports.
pub fn record_spans(record: &RunRecord, graph: Option<&Graph>, options: TraceOptions) -> Vec<SpanDoc> {
    let _ = (record, graph, options);
    Vec::new()
}

#[allow(dead_code, reason = "skeleton: filled in by the engine part of issue 34")]
fn unused(_: Value) {}
