//! The engine's [`SpanDoc`] as the SDK's `SpanData`: ids, parent, times, status, attributes,
//! events and links carried over as given (the engine derived them; nothing is drawn or
//! timed here).

use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use engine::trace::{AttrValue, SpanDoc, SpanEvent, SpanKind, SpanLink, SpanStatus};
use opentelemetry::trace::{Event, Link, SpanContext, Status, TraceFlags, TraceState};
use opentelemetry::{Array, InstrumentationScope, KeyValue, SpanId, StringValue, TraceId, Value};
use opentelemetry_sdk::trace::{SpanData, SpanEvents, SpanLinks};

/// The instrumentation scope every span is reported under.
pub fn scope() -> InstrumentationScope {
    InstrumentationScope::builder("switchyard").with_version(env!("CARGO_PKG_VERSION")).build()
}

pub fn span_data(doc: SpanDoc, scope: &InstrumentationScope) -> SpanData {
    let start_time = epoch_time(doc.start_ms);
    // A span never ends before it starts, whatever the record says.
    let end_time = epoch_time(doc.end_ms).max(start_time);
    SpanData {
        span_context: context(doc.trace_id.0, doc.span_id.0),
        parent_span_id: doc.parent.map_or(SpanId::INVALID, |p| SpanId::from_bytes(p.0)),
        parent_span_is_remote: false,
        span_kind: kind(doc.kind),
        name: Cow::Owned(doc.name),
        start_time,
        end_time,
        attributes: attributes(doc.attributes),
        dropped_attributes_count: 0,
        events: events(doc.events),
        links: links(doc.links),
        status: status(doc.status),
        instrumentation_scope: scope.clone(),
    }
}

fn context(trace_id: [u8; 16], span_id: [u8; 8]) -> SpanContext {
    SpanContext::new(
        TraceId::from_bytes(trace_id),
        SpanId::from_bytes(span_id),
        TraceFlags::SAMPLED,
        false,
        TraceState::NONE,
    )
}

/// Milliseconds since the epoch as a time; a value that is not a finite, non-negative number
/// becomes the epoch itself rather than a panic.
pub fn epoch_time(ms: f64) -> SystemTime {
    let nanos = if ms.is_finite() && ms > 0.0 { (ms * 1_000_000.0).round() as u64 } else { 0 };
    UNIX_EPOCH + Duration::from_nanos(nanos)
}

fn kind(kind: SpanKind) -> opentelemetry::trace::SpanKind {
    match kind {
        SpanKind::Internal => opentelemetry::trace::SpanKind::Internal,
        SpanKind::Client => opentelemetry::trace::SpanKind::Client,
    }
}

fn status(status: SpanStatus) -> Status {
    match status {
        SpanStatus::Unset => Status::Unset,
        SpanStatus::Ok => Status::Ok,
        SpanStatus::Error(message) => Status::error(message),
    }
}

fn attributes(attributes: Vec<(String, AttrValue)>) -> Vec<KeyValue> {
    attributes.into_iter().map(|(key, value)| KeyValue::new(key, self::value(value))).collect()
}

fn value(value: AttrValue) -> Value {
    match value {
        AttrValue::Str(s) => Value::String(s.into()),
        AttrValue::Int(i) => Value::I64(i),
        AttrValue::Float(f) => Value::F64(f),
        AttrValue::Bool(b) => Value::Bool(b),
        AttrValue::StrList(list) => Value::Array(Array::String(list.into_iter().map(StringValue::from).collect())),
    }
}

fn events(events: Vec<SpanEvent>) -> SpanEvents {
    let mut out = SpanEvents::default();
    out.events =
        events.into_iter().map(|e| Event::new(e.name, epoch_time(e.time_ms), attributes(e.attributes), 0)).collect();
    out
}

fn links(links: Vec<SpanLink>) -> SpanLinks {
    let mut out = SpanLinks::default();
    out.links =
        links.into_iter().map(|l| Link::new(context(l.trace_id.0, l.span_id.0), attributes(l.attributes), 0)).collect();
    out
}
