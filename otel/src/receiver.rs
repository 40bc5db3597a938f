//! A local OTLP/HTTP receiver for tests (feature `receiver`): it listens on 127.0.0.1, decodes
//! every `ExportTraceServiceRequest` it is sent (protobuf or JSON, with the OpenTelemetry
//! project's own message types) back into the engine's span values, and can instead answer
//! with an error status or never answer, to test what a failing collector does to a run.
//! The CLI's, serve's and the desktop's tests share it through a dev-dependency.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use engine::trace::{AttrValue, SpanDoc, SpanEvent, SpanId, SpanKind, SpanLink, SpanStatus, TraceId};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1 as proto;
use prost::Message;

/// How the receiver answers export requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Decode and keep the spans; answer 200.
    Accept,
    /// Read the request, keep nothing, answer with this status.
    Fail(u16),
    /// Read the request and never answer (until the receiver is dropped).
    Hang,
    /// Answer the first `times` requests with `status`, then accept.
    Flaky { status: u16, times: usize },
}

/// A span as it arrived, with the resource it was sent under.
#[derive(Debug, Clone, PartialEq)]
pub struct ReceivedSpan {
    pub span: SpanDoc,
    pub resource: BTreeMap<String, AttrValue>,
    pub scope: String,
}

impl ReceivedSpan {
    /// The attribute `key` of the span, if present.
    pub fn attr(&self, key: &str) -> Option<&AttrValue> {
        self.span.attributes.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// What one export request looked like on the wire (headers with lowercase names).
#[derive(Debug, Clone, PartialEq)]
pub struct SeenRequest {
    pub method: String,
    pub path: String,
    pub headers: BTreeMap<String, String>,
    pub body_len: usize,
}

#[derive(Default)]
struct State {
    spans: Vec<ReceivedSpan>,
    requests: Vec<SeenRequest>,
    undecodable: usize,
}

struct Shared {
    behaviour: Behaviour,
    state: Mutex<State>,
    changed: Condvar,
    stop: AtomicBool,
    /// Requests answered so far (for [`Behaviour::Flaky`]).
    answered: std::sync::atomic::AtomicUsize,
}

/// A running receiver; dropping it stops it (a hanging answer ends then too).
pub struct Receiver {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Receiver {
    pub fn start(behaviour: Behaviour) -> io::Result<Receiver> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            behaviour,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
            answered: std::sync::atomic::AtomicUsize::new(0),
        });
        let accepting = shared.clone();
        thread::Builder::new().name("otlp-receiver".into()).spawn(move || accept_loop(&listener, &accepting))?;
        Ok(Receiver { addr, shared })
    }

    /// The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The traces URL, as `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` takes it.
    pub fn traces_url(&self) -> String {
        format!("{}/v1/traces", self.endpoint())
    }

    /// Every span received so far, in arrival order.
    pub fn spans(&self) -> Vec<ReceivedSpan> {
        self.lock().spans.clone()
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<SeenRequest> {
        self.lock().requests.clone()
    }

    /// Requests whose body could not be decoded as OTLP traces.
    pub fn undecodable(&self) -> usize {
        self.lock().undecodable
    }

    /// Waits until `done` holds for the spans received (or `timeout` passes) and returns them.
    pub fn wait_until(&self, timeout: Duration, done: impl Fn(&[ReceivedSpan]) -> bool) -> Vec<ReceivedSpan> {
        self.wait_for(timeout, |state| done(&state.spans)).spans.clone()
    }

    /// Waits until at least `n` requests arrived (or `timeout` passes); returns how many did.
    pub fn wait_for_requests(&self, n: usize, timeout: Duration) -> usize {
        self.wait_for(timeout, |state| state.requests.len() >= n).requests.len()
    }

    /// The state once `done` holds for it, or as it is when `timeout` passes.
    fn wait_for(&self, timeout: Duration, done: impl Fn(&State) -> bool) -> std::sync::MutexGuard<'_, State> {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        while !done(&state) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = match self.shared.changed.wait_timeout(state, left) {
                Ok((s, _)) => s,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        state
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.stop.load(Ordering::Acquire) {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = shared.clone();
                let _ = thread::Builder::new().name("otlp-receiver-conn".into()).spawn(move || serve(stream, &shared));
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(Duration::from_millis(5)),
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Serves the requests of one connection (keep-alive) until it closes or the receiver stops.
fn serve(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    while let Some((request, body)) = read_request(&mut reader, shared) {
        let behaviour = match shared.behaviour {
            Behaviour::Flaky { status, times } if shared.answered.fetch_add(1, Ordering::AcqRel) < times => {
                Behaviour::Fail(status)
            }
            Behaviour::Flaky { .. } => Behaviour::Accept,
            other => other,
        };
        record(shared, behaviour, request, &body);
        let answered = match behaviour {
            Behaviour::Accept | Behaviour::Flaky { .. } => answer(&mut writer, 200, "OK"),
            Behaviour::Fail(code) => answer(&mut writer, code, "Failing on purpose"),
            Behaviour::Hang => {
                hang(shared);
                return;
            }
        };
        if answered.is_err() {
            return;
        }
    }
}

fn hang(shared: &Shared) {
    while !shared.stop.load(Ordering::Acquire) {
        thread::sleep(Duration::from_millis(20));
    }
}

fn answer(writer: &mut TcpStream, code: u16, reason: &str) -> io::Result<()> {
    let head = format!("HTTP/1.1 {code} {reason}\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n");
    writer.write_all(head.as_bytes())?;
    writer.flush()
}

/// One request's head and body; `None` when the connection closed or the receiver stopped.
fn read_request(reader: &mut BufReader<TcpStream>, shared: &Shared) -> Option<(SeenRequest, Vec<u8>)> {
    let request_line = read_line(reader, shared)?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = BTreeMap::new();
    loop {
        let line = read_line(reader, shared)?;
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let length: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let body = read_body(reader, length, shared)?;
    Some((SeenRequest { method, path, headers, body_len: body.len() }, body))
}

fn read_line(reader: &mut BufReader<TcpStream>, shared: &Shared) -> Option<String> {
    let mut line = String::new();
    loop {
        match reader.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) if line.ends_with('\n') => return Some(line.trim_end().to_string()),
            Ok(_) => {}
            Err(e) if is_timeout(&e) && !shared.stop.load(Ordering::Acquire) => {}
            Err(_) => return None,
        }
    }
}

fn read_body(reader: &mut BufReader<TcpStream>, length: usize, shared: &Shared) -> Option<Vec<u8>> {
    let mut body = vec![0; length];
    let mut filled = 0;
    while filled < length {
        match reader.read(&mut body[filled..]) {
            Ok(0) => return None,
            Ok(n) => filled += n,
            Err(e) if is_timeout(&e) && !shared.stop.load(Ordering::Acquire) => {}
            Err(_) => return None,
        }
    }
    Some(body)
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

fn record(shared: &Shared, behaviour: Behaviour, request: SeenRequest, body: &[u8]) {
    let decoded = if behaviour == Behaviour::Accept { Some(decode(&request, body)) } else { None };
    let mut state = shared.state.lock().unwrap_or_else(|p| p.into_inner());
    match decoded {
        Some(Some(spans)) => state.spans.extend(spans),
        Some(None) => state.undecodable += 1,
        None => {}
    }
    state.requests.push(request);
    shared.changed.notify_all();
}

/// The spans of a request body, protobuf or JSON by its content type.
fn decode(request: &SeenRequest, body: &[u8]) -> Option<Vec<ReceivedSpan>> {
    let json = request.headers.get("content-type").is_some_and(|t| t.contains("json"));
    let message = if json {
        serde_json::from_slice::<ExportTraceServiceRequest>(body).ok()?
    } else {
        ExportTraceServiceRequest::decode(body).ok()?
    };
    Some(received_spans(message))
}

fn received_spans(message: ExportTraceServiceRequest) -> Vec<ReceivedSpan> {
    let mut out = Vec::new();
    for resource_spans in message.resource_spans {
        let resource: BTreeMap<String, AttrValue> =
            resource_spans.resource.map(|r| attributes(r.attributes).into_iter().collect()).unwrap_or_default();
        for scope_spans in resource_spans.scope_spans {
            let scope = scope_spans.scope.map(|s| s.name).unwrap_or_default();
            for span in scope_spans.spans {
                out.push(ReceivedSpan { span: span_doc(span), resource: resource.clone(), scope: scope.clone() });
            }
        }
    }
    out
}

fn span_doc(span: proto::Span) -> SpanDoc {
    SpanDoc {
        trace_id: TraceId(bytes(&span.trace_id)),
        span_id: SpanId(bytes(&span.span_id)),
        parent: (!span.parent_span_id.is_empty()).then(|| SpanId(bytes(&span.parent_span_id))),
        name: span.name,
        kind: if span.kind == proto::span::SpanKind::Client as i32 { SpanKind::Client } else { SpanKind::Internal },
        start_ms: nanos_to_ms(span.start_time_unix_nano),
        end_ms: nanos_to_ms(span.end_time_unix_nano),
        status: status(span.status),
        attributes: attributes(span.attributes),
        events: span.events.into_iter().map(event).collect(),
        links: span.links.into_iter().map(link).collect(),
    }
}

fn bytes<const N: usize>(raw: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    let n = raw.len().min(N);
    out[..n].copy_from_slice(&raw[..n]);
    out
}

fn nanos_to_ms(nanos: u64) -> f64 {
    nanos as f64 / 1_000_000.0
}

fn status(status: Option<proto::Status>) -> SpanStatus {
    match status {
        Some(s) if s.code == proto::status::StatusCode::Error as i32 => SpanStatus::Error(s.message),
        Some(s) if s.code == proto::status::StatusCode::Ok as i32 => SpanStatus::Ok,
        _ => SpanStatus::Unset,
    }
}

fn event(event: proto::span::Event) -> SpanEvent {
    SpanEvent { name: event.name, time_ms: nanos_to_ms(event.time_unix_nano), attributes: attributes(event.attributes) }
}

fn link(link: proto::span::Link) -> SpanLink {
    SpanLink {
        trace_id: TraceId(bytes(&link.trace_id)),
        span_id: SpanId(bytes(&link.span_id)),
        attributes: attributes(link.attributes),
    }
}

fn attributes(attributes: Vec<KeyValue>) -> Vec<(String, AttrValue)> {
    attributes.into_iter().filter_map(|kv| Some((kv.key, value(kv.value?)?))).collect()
}

fn value(value: AnyValue) -> Option<AttrValue> {
    Some(match value.value? {
        any_value::Value::StringValue(s) => AttrValue::Str(s),
        any_value::Value::IntValue(i) => AttrValue::Int(i),
        any_value::Value::DoubleValue(f) => AttrValue::Float(f),
        any_value::Value::BoolValue(b) => AttrValue::Bool(b),
        any_value::Value::ArrayValue(list) => AttrValue::StrList(
            list.values
                .into_iter()
                .filter_map(|v| match v.value {
                    Some(any_value::Value::StringValue(s)) => Some(s),
                    _ => None,
                })
                .collect(),
        ),
        _ => return None,
    })
}
