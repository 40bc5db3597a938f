//! `switchyard serve` on a real Restate server sends its runs as OpenTelemetry traces to the
//! collector its `OTEL_*` variables name (here a local OTLP receiver): the run's tree with the
//! model call under the trace id the record keeps, stamped with the time of day, and the same
//! spans with the same times when Restate replays the run on a restarted service.

mod support;

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use engine::trace::{AttrValue, SpanDoc};
use serde_json::{Value, json};
use support::approval_graph;
use support::fake_openai::FakeOpenAi;
use support::restate::{Restate, ServeReach};
use switchyard_otel::receiver::{Behaviour, ReceivedSpan, Receiver};

const WAIT: Duration = Duration::from_secs(60);

fn epoch_now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// A Restate server whose `switchyard serve` sends traces to `receiver`, batches going out
/// every 100 ms.
fn restate_sending_to(receiver: &Receiver) -> Restate {
    let endpoint = receiver.endpoint();
    Restate::start_with_env(
        ServeReach::LoopbackButRestate,
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()), ("OTEL_BSP_SCHEDULE_DELAY", "100")],
    )
}

fn cli_ok(restate: &Restate, args: &[&str]) -> String {
    let out = restate.cli(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Waits until `switchyard status` exits with `code` (0 ended, 3 waiting).
fn wait_status(restate: &Restate, run_id: &str, code: i32) {
    let since = Instant::now();
    while restate.cli(&["status", run_id]).status.code() != Some(code) {
        assert!(since.elapsed() < WAIT, "{run_id} never reached exit {code}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The record `switchyard record` prints (its exit code says the run's status).
fn record(restate: &Restate, run_id: &str) -> Value {
    let out = restate.cli(&["record", run_id]);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("record: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The trace ids of the record's sessions, in order.
fn sessions(record: &Value) -> Vec<String> {
    let traces = record["traces"].as_array().expect("the record lists its sessions");
    traces.iter().map(|t| t["trace_id"].as_str().expect("a trace id").to_string()).collect()
}

fn in_trace<'a>(spans: &'a [ReceivedSpan], trace: &str) -> Vec<&'a SpanDoc> {
    spans.iter().map(|s| &s.span).filter(|s| s.trace_id.to_string() == trace).collect()
}

fn root<'a>(spans: &[&'a SpanDoc]) -> Option<&'a SpanDoc> {
    spans.iter().copied().find(|s| s.parent.is_none())
}

fn int(span: &SpanDoc, key: &str) -> Option<i64> {
    span.attributes.iter().find(|(k, _)| k == key).and_then(|(_, v)| match v {
        AttrValue::Int(i) => Some(*i),
        _ => None,
    })
}

/// Whether any span carries `text` in an attribute or event (content is sent only when asked).
fn mentions(spans: &[&SpanDoc], text: &str) -> bool {
    let has = |v: &AttrValue| match v {
        AttrValue::Str(s) => s.contains(text),
        AttrValue::StrList(l) => l.iter().any(|s| s.contains(text)),
        _ => false,
    };
    spans.iter().any(|s| {
        s.attributes.iter().any(|(_, v)| has(v)) || s.events.iter().any(|e| e.attributes.iter().any(|(_, v)| has(v)))
    })
}

/// Every session of `record` has arrived: its root, and a span for each of its steps.
fn arrived(spans: &[ReceivedSpan], record: &Value) -> bool {
    let steps = record["steps"].as_array().map_or(0, Vec::len);
    let named_steps = spans.iter().filter(|s| s.span.name.starts_with("step ")).count();
    sessions(record).iter().all(|t| root(&in_trace(spans, t)).is_some()) && named_steps >= steps
}

#[test]
fn a_served_run_is_sent_as_a_trace_under_the_records_trace_id() {
    let model = FakeOpenAi::start();
    let receiver = Receiver::start(Behaviour::Accept).expect("a receiver");
    let restate = restate_sending_to(&receiver);
    let dir = tempfile::tempdir().expect("dir");
    let graph = dir.path().join("graph.json");
    std::fs::write(&graph, approval_graph(&model.base_url()).to_string()).expect("graph written");
    let before = epoch_now_ms();

    let input = json!({ "request": "Move the launch to Friday" }).to_string();
    let id = cli_ok(&restate, &["submit", &graph.to_string_lossy(), "--input", &input]);
    wait_status(&restate, &id, 3);
    cli_ok(&restate, &["answer", &id, "--answer", r#"{"approve": "approve"}"#]);
    wait_status(&restate, &id, 0);
    let record = record(&restate, &id);
    let after = epoch_now_ms();

    let spans = receiver.wait_until(WAIT, |spans| arrived(spans, &record));
    let traces = sessions(&record);
    assert_eq!(record["trace_id"].as_str(), traces.last().map(String::as_str), "the latest session is the record's");
    for trace in &traces {
        let session = in_trace(&spans, trace);
        let root = root(&session).unwrap_or_else(|| panic!("no root span in trace {trace}: {spans:#?}"));
        assert_eq!(root.name, "run Drafted reply");
        // Stamped with the time of day (journaled), not the service's own clock from zero.
        assert!(
            root.start_ms >= before - 1000.0 && root.end_ms <= after + 1000.0,
            "{root:#?} not in [{before}, {after}]"
        );
        // A tree: every span hangs from one of its trace's spans.
        let ids: Vec<_> = session.iter().map(|s| s.span_id).collect();
        for span in &session {
            assert!(span.parent.is_none_or(|p| ids.contains(&p)), "{} has no parent in its trace", span.name);
        }
    }
    let step_spans: Vec<_> = spans.iter().filter(|s| s.span.name.starts_with("step ")).collect();
    assert!(step_spans.len() >= record["steps"].as_array().map_or(0, Vec::len), "a span per step: {step_spans:#?}");

    let chats: Vec<_> = spans.iter().map(|s| &s.span).filter(|s| s.name == "chat fake-1").collect();
    assert_eq!(chats.len(), 1, "one model call, one chat span: {spans:#?}");
    let chat = chats[0];
    assert_eq!(chat.trace_id.to_string(), traces[0], "the model call ran in the first session");
    // "Write a reply to: Move the launch to Friday": 9 words in, 12 out (the fake's count).
    assert_eq!(int(chat, "gen_ai.usage.input_tokens"), Some(9));
    assert_eq!(int(chat, "gen_ai.usage.output_tokens"), Some(12));
    assert!(chat.start_ms >= before - 1000.0 && chat.end_ms <= after + 1000.0);
    let every: Vec<&SpanDoc> = spans.iter().map(|s| &s.span).collect();
    assert!(!mentions(&every, "launch to Friday"), "no prompt, reply or state is sent by default");
    assert_eq!(model.total_calls(), 1);
}

#[test]
fn a_replayed_run_sends_the_same_spans_with_the_same_times() {
    let model = FakeOpenAi::start();
    let receiver = Receiver::start(Behaviour::Accept).expect("a receiver");
    let mut restate = restate_sending_to(&receiver);
    let dir = tempfile::tempdir().expect("dir");
    let graph = dir.path().join("graph.json");
    std::fs::write(&graph, approval_graph(&model.base_url()).to_string()).expect("graph written");

    let input = json!({ "request": "Ship it" }).to_string();
    let id = cli_ok(&restate, &["submit", &graph.to_string_lossy(), "--input", &input]);
    wait_status(&restate, &id, 3);
    let waiting = record(&restate, &id);
    let first = receiver.wait_until(WAIT, |spans| arrived(spans, &waiting));
    assert!(first.iter().any(|s| s.span.name == "chat fake-1"), "{first:#?}");

    // The service dies while the run waits; the answer wakes it on a new one, which replays
    // the run from the journal (the model is not called again) and sends its spans again.
    restate.kill_service();
    restate.start_service();
    cli_ok(&restate, &["answer", &id, "--answer", r#"{"approve": "reject"}"#]);
    wait_status(&restate, &id, 0);
    let ended = record(&restate, &id);
    let all = receiver.wait_until(WAIT, |spans| {
        arrived(spans, &ended) && spans.iter().filter(|s| s.span.name == "chat fake-1").count() >= 2
    });
    assert_eq!(model.total_calls(), 1, "the replay read the model's reply from the journal");

    let mut seen: HashMap<_, &SpanDoc> = HashMap::new();
    let mut again = 0;
    for span in all.iter().map(|s| &s.span) {
        if let Some(earlier) = seen.insert(span.span_id, span) {
            again += 1;
            assert_eq!(earlier.name, span.name);
            assert_eq!(earlier.trace_id, span.trace_id);
            assert_eq!((earlier.start_ms, earlier.end_ms), (span.start_ms, span.end_ms), "{} moved", span.name);
        }
    }
    assert!(again >= 2, "the replay sent the first session's spans again: {all:#?}");
}
