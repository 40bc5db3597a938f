//! `switchyard server` (the embedded backend) sends its runs as OpenTelemetry traces to the
//! collector its `OTEL_*` variables name (here a local OTLP receiver): each run's session as a
//! tree with the model call, under the trace id the run's metadata names, stamped with the
//! time of day; the run that answers an interrupt is a session of its own, linked to the one
//! that waited.

mod support;

#[path = "../../serve/tests/support/fake_openai.rs"]
mod fake_openai;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use engine::trace::{AttrValue, SpanDoc};
use fake_openai::FakeOpenAi;
use serde_json::{Value, json};
use switchyard_otel::receiver::{Behaviour, ReceivedSpan, Receiver};

const WAIT: Duration = Duration::from_secs(60);

/// `draft` asks the model, `approve` waits for a person.
fn graph(base_url: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "drafted",
        "state": {"request": {"type": "string"}, "draft": {"type": "string", "default": ""},
                  "decision": {"type": "string", "default": ""}},
        "nodes": [
            {"id": "start", "kind": "start", "required": ["request"]},
            {"id": "draft", "kind": "llm", "prompt": "Write a reply to: {{ state.request }}", "writes": "draft",
             "model": {"provider": "openai", "model": "fake-1", "base_url": base_url}},
            {"id": "approve", "kind": "human", "prompt": "Send it?", "writes": "decision",
             "options": ["approve", "reject"]},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "draft"}, {"from": "draft", "to": "approve"},
            {"from": "approve", "to": "end", "label": "approve"}, {"from": "approve", "to": "end", "label": "reject"}
        ]
    })
}

fn epoch_now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

struct Served {
    child: Child,
    base: String,
    _dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server binary serving `graph`, sending traces to `receiver` every 100 ms, with `env`.
fn serve(graph: &Value, receiver: &Receiver, env: &[(&str, &str)]) -> Served {
    let dir = tempfile::tempdir().expect("a folder");
    let paths = support::write_graphs(&dir, std::slice::from_ref(graph));
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let child = Command::new(env!("CARGO_BIN_EXE_switchyard-server"))
        .arg(&paths[0])
        .args(["--listen", &format!("127.0.0.1:{port}"), "--allow", "127.0.0.1", "--data"])
        .arg(dir.path().join("server.sqlite"))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint())
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let mut served = Served { child, base: format!("http://127.0.0.1:{port}"), _dir: dir };
    let since = Instant::now();
    while support::agent().get(&format!("{}/ok", served.base)).call().is_err() {
        assert!(served.child.try_wait().is_ok_and(|ended| ended.is_none()), "the server stopped");
        assert!(since.elapsed() < WAIT, "the server never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
    served
}

fn post(served: &Served, path: &str, body: Value) -> Value {
    let mut r = support::agent().post(&format!("{}{path}", served.base)).send_json(body).expect("answered");
    serde_json::from_str(&r.body_mut().read_to_string().unwrap_or_default()).unwrap_or_default()
}

fn get(served: &Served, path: &str) -> Value {
    let mut r = support::agent().get(&format!("{}{path}", served.base)).call().expect("answered");
    serde_json::from_str(&r.body_mut().read_to_string().unwrap_or_default()).unwrap_or_default()
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

/// The trace id a run's metadata names, once the run has ended.
fn ended_run_trace(served: &Served, tid: &str, rid: &str) -> String {
    let since = Instant::now();
    loop {
        let run = get(served, &format!("/threads/{tid}/runs/{rid}"));
        if !matches!(run["status"].as_str(), Some("pending" | "running")) {
            return run["metadata"]["trace_id"].as_str().unwrap_or_else(|| panic!("no trace id: {run}")).to_string();
        }
        assert!(since.elapsed() < WAIT, "{rid} never ended: {run}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_served_run_and_its_resume_are_sent_as_linked_traces() {
    let model = FakeOpenAi::start();
    let receiver = Receiver::start(Behaviour::Accept).expect("a receiver");
    let served = serve(&graph(&model.base_url()), &receiver, &[]);
    let before = epoch_now_ms();

    let tid = post(&served, "/threads", json!({}))["thread_id"].as_str().expect("a thread").to_string();
    let input = json!({"assistant_id": "drafted", "input": {"request": "Move the launch to Friday"}});
    let first = post(&served, &format!("/threads/{tid}/runs"), input);
    let first_trace = ended_run_trace(&served, &tid, first["run_id"].as_str().expect("a run"));
    let resume = json!({"assistant_id": "drafted", "command": {"resume": "approve"}});
    let second = post(&served, &format!("/threads/{tid}/runs"), resume);
    let second_trace = ended_run_trace(&served, &tid, second["run_id"].as_str().expect("a run"));
    let after = epoch_now_ms();
    assert_ne!(first_trace, second_trace, "the answer starts a session of its own");

    let spans = receiver.wait_until(WAIT, |spans| {
        root(&in_trace(spans, &first_trace)).is_some() && root(&in_trace(spans, &second_trace)).is_some()
    });
    let waited = in_trace(&spans, &first_trace);
    let waited_root = root(&waited).unwrap_or_else(|| panic!("no root for {first_trace}: {spans:#?}"));
    assert_eq!(waited_root.name, "run drafted");
    assert!(waited_root.start_ms >= before - 1000.0 && waited_root.end_ms <= after + 1000.0, "{waited_root:#?}");
    assert!(waited.iter().any(|s| s.name.starts_with("step ") && s.parent == Some(waited_root.span_id)));
    let chat = waited.iter().find(|s| s.name == "chat fake-1").unwrap_or_else(|| panic!("no chat span: {waited:#?}"));
    assert_eq!(int(chat, "gen_ai.usage.input_tokens"), Some(9));
    assert_eq!(int(chat, "gen_ai.usage.output_tokens"), Some(12));
    let ids: Vec<_> = waited.iter().map(|s| s.span_id).collect();
    assert!(waited.iter().all(|s| s.parent.is_none_or(|p| ids.contains(&p))), "a tree: {waited:#?}");

    let resumed = in_trace(&spans, &second_trace);
    let resumed_root = root(&resumed).expect("the resumed session's root");
    assert!(
        resumed_root.links.iter().any(|l| l.span_id == waited_root.span_id),
        "the resumed session links to the one that waited: {resumed_root:#?}"
    );
    let every: Vec<&SpanDoc> = spans.iter().map(|s| &s.span).collect();
    assert!(!mentions(&every, "launch to Friday"), "no prompt, reply or state is sent by default");
    assert_eq!(model.total_calls(), 1);
}

#[test]
fn message_content_is_sent_when_the_operator_opts_in() {
    let model = FakeOpenAi::start();
    let receiver = Receiver::start(Behaviour::Accept).expect("a receiver");
    let opt_in = [("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")];
    let served = serve(&graph(&model.base_url()), &receiver, &opt_in);
    let tid = post(&served, "/threads", json!({}))["thread_id"].as_str().expect("a thread").to_string();
    let input = json!({"assistant_id": "drafted", "input": {"request": "Move the launch to Friday"}});
    let run = post(&served, &format!("/threads/{tid}/runs"), input);
    let trace = ended_run_trace(&served, &tid, run["run_id"].as_str().expect("a run"));
    let spans = receiver.wait_until(WAIT, |spans| in_trace(spans, &trace).iter().any(|s| s.name == "chat fake-1"));
    let chat: Vec<&SpanDoc> = in_trace(&spans, &trace).into_iter().filter(|s| s.name == "chat fake-1").collect();
    assert!(mentions(&chat, "launch to Friday"), "the prompt is on the model call's span: {chat:#?}");
}
