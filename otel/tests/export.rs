//! Spans handed to the `Exporter` reach a real OTLP/HTTP receiver intact; a collector that is
//! down, failing or hanging costs one warning and a bounded wait, never a blocked `send`.

use std::time::{Duration, Instant};

use engine::trace::{AttrValue, SpanDoc, SpanEvent, SpanId, SpanKind, SpanLink, SpanStatus, TraceId};
use switchyard_otel::receiver::{Behaviour, Receiver};
use switchyard_otel::{Config, Exporter, MAX_QUEUED_SPANS, Protocol};

const WAIT: Duration = Duration::from_secs(30);

/// A small session: root, one step, a chat span with tokens, a failed node with an event,
/// and a link to another trace.
fn session() -> Vec<SpanDoc> {
    let trace = TraceId([0x4b; 16]);
    let start = 1_767_225_600_000.0; // 2026-01-01T00:00:00Z
    let span = |id: u8, parent: Option<u8>, name: &str, kind, from: f64, to: f64| SpanDoc {
        trace_id: trace,
        span_id: SpanId([id; 8]),
        parent: parent.map(|p| SpanId([p; 8])),
        name: name.into(),
        kind,
        start_ms: start + from,
        end_ms: start + to,
        status: SpanStatus::Unset,
        attributes: Vec::new(),
        events: Vec::new(),
        links: Vec::new(),
    };
    let mut root = span(1, None, "run triage", SpanKind::Internal, 0.0, 1500.0);
    root.attributes = vec![
        ("switchyard.run.id".into(), AttrValue::Str("r-1".into())),
        ("switchyard.run.steps".into(), AttrValue::Int(2)),
        ("switchyard.run.cost".into(), AttrValue::Float(0.25)),
        ("switchyard.run.replayed".into(), AttrValue::Bool(false)),
    ];
    root.links = vec![SpanLink {
        trace_id: TraceId([0x11; 16]),
        span_id: SpanId([0x22; 8]),
        attributes: vec![("switchyard.link.type".into(), AttrValue::Str("resumed".into()))],
    }];
    let mut step = span(2, Some(1), "step 1", SpanKind::Internal, 1.0, 1400.0);
    step.attributes = vec![("switchyard.step.ran".into(), AttrValue::StrList(vec!["classify".into(), "fetch".into()]))];
    let mut chat = span(3, Some(2), "chat gpt-4o-mini", SpanKind::Client, 2.5, 900.25);
    chat.attributes = vec![
        ("gen_ai.operation.name".into(), AttrValue::Str("chat".into())),
        ("gen_ai.usage.input_tokens".into(), AttrValue::Int(42)),
        ("gen_ai.usage.output_tokens".into(), AttrValue::Int(7)),
    ];
    let mut failed = span(4, Some(2), "node fetch", SpanKind::Internal, 3.0, 1399.0);
    failed.status = SpanStatus::Error("HTTP 503 from api.example.com".into());
    failed.events = vec![SpanEvent {
        name: "switchyard.interrupt".into(),
        time_ms: start + 1399.0,
        attributes: vec![("switchyard.waiting".into(), AttrValue::StrList(vec!["approve".into()]))],
    }];
    vec![root, step, chat, failed]
}

fn config_for(receiver: &Receiver) -> Config {
    let mut config = Config::for_endpoint(receiver.traces_url());
    config.service_name = "triage-bot".into();
    config.resource = vec![("deployment.environment".into(), "test".into())];
    config.headers = vec![("x-honeycomb-team".into(), "team-key".into())];
    config
}

#[test]
fn spans_arrive_with_ids_parents_times_attributes_events_and_links() {
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let exporter = Exporter::start(config_for(&receiver));
    let sent = session();
    exporter.send(sent.clone());
    let warnings = exporter.shutdown(WAIT);
    assert!(warnings.is_empty(), "{warnings:?}");

    let got = receiver.wait_until(WAIT, |spans| spans.len() >= sent.len());
    assert_eq!(got.len(), sent.len());
    for want in &sent {
        let arrived = got.iter().find(|r| r.span.span_id == want.span_id).expect("every span arrives");
        assert_eq!(arrived.span, *want, "{}", want.name);
        assert_eq!(arrived.scope, "switchyard");
        assert_eq!(arrived.resource.get("service.name"), Some(&AttrValue::Str("triage-bot".into())));
        assert_eq!(arrived.resource.get("deployment.environment"), Some(&AttrValue::Str("test".into())));
    }
    let requests = receiver.requests();
    assert!(requests.iter().all(|r| r.method == "POST" && r.path == "/v1/traces"), "{requests:?}");
    assert!(requests.iter().all(|r| r.headers.get("x-honeycomb-team").map(String::as_str) == Some("team-key")));
    assert!(
        requests.iter().all(|r| r.headers.get("content-type").map(String::as_str) == Some("application/x-protobuf"))
    );
}

#[test]
fn http_json_is_sent_as_json() {
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let mut config = config_for(&receiver);
    config.protocol = Protocol::HttpJson;
    let exporter = Exporter::start(config);
    exporter.send(session());
    assert!(exporter.shutdown(WAIT).is_empty());
    let got = receiver.wait_until(WAIT, |spans| spans.len() >= 4);
    assert_eq!(got.len(), 4, "undecodable requests: {}", receiver.undecodable());
    assert!(receiver.requests().iter().all(|r| r.headers.get("content-type").is_some_and(|t| t.contains("json"))));
    let chat = got.iter().find(|r| r.span.name == "chat gpt-4o-mini").expect("chat span");
    assert_eq!(chat.attr("gen_ai.usage.input_tokens"), Some(&AttrValue::Int(42)));
}

/// `send` for a whole session returns at once, whatever the collector does.
fn assert_send_is_quick(exporter: &Exporter) {
    let started = Instant::now();
    for _ in 0..50 {
        exporter.send(session());
    }
    assert!(started.elapsed() < Duration::from_millis(500), "send took {:?}", started.elapsed());
}

fn one_warning(warnings: &[String], endpoint: &str, why: &str) {
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let line = &warnings[0];
    eprintln!("warning: {line}");
    assert!(line.starts_with(&format!("could not send traces to {endpoint}: ")), "{line}");
    assert!(line.contains(why), "{line} should say {why}");
}

#[test]
fn a_collector_that_is_down_costs_one_warning() {
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let endpoint = format!("http://127.0.0.1:{port}/v1/traces");
    let exporter = Exporter::start(Config::for_endpoint(&endpoint));
    assert_send_is_quick(&exporter);
    let wait = Duration::from_secs(3);
    let started = Instant::now();
    let warnings = exporter.shutdown(wait);
    assert!(started.elapsed() < wait + Duration::from_secs(1), "shutdown took {:?}", started.elapsed());
    one_warning(&warnings, &endpoint, "connection refused");
}

#[test]
fn a_collector_answering_500_costs_one_warning() {
    let receiver = Receiver::start(Behaviour::Fail(500)).expect("receiver");
    let exporter = Exporter::start(Config::for_endpoint(receiver.traces_url()));
    assert_send_is_quick(&exporter);
    let wait = Duration::from_secs(5);
    let started = Instant::now();
    let warnings = exporter.shutdown(wait);
    assert!(started.elapsed() < wait + Duration::from_secs(1), "shutdown took {:?}", started.elapsed());
    one_warning(&warnings, &receiver.traces_url(), "HTTP 500");
    assert!(!receiver.requests().is_empty());
}

#[test]
fn a_hanging_collector_costs_one_warning_and_the_bounded_wait() {
    let receiver = Receiver::start(Behaviour::Hang).expect("receiver");
    let exporter = Exporter::start(Config::for_endpoint(receiver.traces_url()));
    assert_send_is_quick(&exporter);
    let wait = Duration::from_secs(1);
    let started = Instant::now();
    let warnings = exporter.shutdown(wait);
    let took = started.elapsed();
    assert!(took >= wait && took < wait + Duration::from_secs(1), "shutdown took {took:?}");
    one_warning(&warnings, &receiver.traces_url(), "no answer within 1 s");
}

#[test]
fn a_full_queue_drops_spans_and_says_so() {
    let receiver = Receiver::start(Behaviour::Hang).expect("receiver");
    let exporter = Exporter::start(Config::for_endpoint(receiver.traces_url()));
    let started = Instant::now();
    let sessions = MAX_QUEUED_SPANS / 4 + 10;
    for _ in 0..sessions {
        exporter.send(session());
    }
    assert!(started.elapsed() < Duration::from_secs(2), "send took {:?}", started.elapsed());
    let warnings = exporter.shutdown(Duration::from_millis(200));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[1].contains("spans dropped"), "{warnings:?}");
}

#[test]
fn a_refused_exporter_setting_sends_nothing_and_says_why() {
    // Credentials in the URL are not printed back.
    let exporter = Exporter::start(Config::for_endpoint("http://user:pw@[::1"));
    exporter.send(session());
    let warnings = exporter.shutdown(Duration::from_secs(1));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(!warnings[0].contains("pw"), "{warnings:?}");
}
