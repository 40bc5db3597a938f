//! The reply tape against real HTTP: a run of a graph calling an OpenAI-compatible model and
//! an HTTP endpoint on a local fake server is recorded once, then replayed with the server
//! gone; a changed request is named; keys never reach the tape. Also run diffs over records
//! with sparse snapshots. (Native only: the fake server listens on a socket.)

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::cell::Cell;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use engine::host::{Auth, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, StreamRedactor};
use engine::record::diff::{describe_first, diff_runs};
use engine::suite::{CaseFailure, ReplayMode, case_from_record, run_case};
use engine::{Host, OfflineHost, ReplyKind, Run, Status};
use serde_json::{Value, json};
use support::*;

const SECRET: &str = "sk-test-0123456789abcdef";

/// A local server speaking just enough HTTP/1.1: OpenAI's chat completions at
/// `/v1/chat/completions`, and `/notes`, which echoes what it was sent (and the key, as a
/// careless server might).
struct FakeServer {
    port: u16,
    stop: Arc<AtomicBool>,
    served: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl FakeServer {
    fn start() -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let served = Arc::new(AtomicUsize::new(0));
        let (stop2, served2) = (stop.clone(), served.clone());
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(mut s) = conn {
                    serve_one(&mut s);
                    served2.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
        FakeServer { port, stop, served, thread: Some(thread) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Stops listening; the port then refuses connections.
    fn shut(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            t.join().expect("the server thread ends");
        }
    }
}

fn serve_one(s: &mut TcpStream) {
    let (head, body) = read_message(s);
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    let reply = if path.ends_with("/chat/completions") {
        let req: Value = serde_json::from_str(&body).unwrap_or_default();
        let asked = req["messages"].as_array().and_then(|m| m.last()).map(|m| m["content"].clone()).unwrap_or_default();
        json!({
            "id": "c1", "object": "chat.completion", "model": "gpt-fake",
            "choices": [{"index": 0, "finish_reason": "stop",
                          "message": {"role": "assistant", "content": format!("Summary of {}", asked.as_str().unwrap_or(""))}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 4}
        })
    } else {
        json!({"saved": true, "echo": serde_json::from_str::<Value>(&body).unwrap_or(Value::Null), "seen_key": SECRET})
    }
    .to_string();
    let _ = write!(
        s,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: session=abc\r\nx-trace: t1\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
        reply.len()
    );
}

/// Reads one HTTP message: its head, and a body of `content-length` bytes.
fn read_message(s: &mut TcpStream) -> (String, String) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).unwrap_or(0) == 0 {
            break;
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).to_string();
    let len = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = s.read_exact(&mut body);
    (head, String::from_utf8_lossy(&body).to_string())
}

/// A host that sends requests over real sockets (blocking: the tests drive one run at a
/// time), holds a key, and counts the requests it makes.
struct SocketHost {
    clock: OfflineHost,
    sent: Cell<usize>,
}

impl SocketHost {
    fn new() -> SocketHost {
        SocketHost { clock: OfflineHost::new(), sent: Cell::new(0) }
    }

    fn send(&self, r: &HttpRequest) -> Result<HttpResponse, HttpFailure> {
        self.sent.set(self.sent.get() + 1);
        let fail = |e: std::io::Error| HttpFailure { message: e.to_string(), timed_out: false };
        let rest =
            r.url.strip_prefix("http://").ok_or(HttpFailure { message: "http only".into(), timed_out: false })?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let mut s = TcpStream::connect(authority).map_err(fail)?;
        let body = r.body.clone().unwrap_or_default();
        let mut head =
            format!("{} {} HTTP/1.1\r\nhost: {authority}\r\ncontent-length: {}\r\n", r.method, path, body.len());
        for (k, v) in &r.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if r.auth.is_some() {
            head.push_str(&format!("authorization: Bearer {SECRET}\r\n"));
        }
        write!(s, "{head}\r\n{body}").map_err(fail)?;
        let mut text = String::new();
        s.read_to_string(&mut text).map_err(fail)?;
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let headers = head
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string())))
            .collect();
        // As every host does: keys it holds are removed from what comes back.
        Ok(HttpResponse { status, body: engine::host::redact(body, [SECRET]), headers })
    }
}

impl Host for SocketHost {
    fn now_ms(&self) -> f64 {
        self.clock.now_ms()
    }
    fn new_run_id(&self) -> String {
        self.clock.new_run_id()
    }
    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        let reply = self.send(&request);
        Box::pin(async move { reply })
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.clock.sleep(ms)
    }
    fn key_allowed(&self, _auth: Auth, _url: &str) -> Result<(), String> {
        Ok(())
    }
    fn stream_redactor(&self) -> StreamRedactor {
        StreamRedactor::new([SECRET])
    }
}

/// A graph that asks an OpenAI-compatible model on `server`, then posts the summary there.
fn graph_text(server: &FakeServer) -> String {
    json!({
        "format": "switchyard/graph@1", "name": "Summarize and save",
        "state": { "topic": { "type": "string" }, "summary": { "type": "string" }, "saved": { "type": "object" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "summarize", "kind": "llm", "prompt": "Summarize {{ state.topic }}", "writes": "summary",
              "model": { "provider": "openai", "model": "gpt-fake", "base_url": server.url("/v1") } },
            { "id": "save", "kind": "http", "method": "POST", "url": server.url("/notes"), "writes": "saved",
              "headers": { "Authorization": "Bearer {{ \"sk-\" + \"in-header-0000\" }}", "x-client": "tests" },
              "body": { "text": "{{ state.summary }}" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "summarize" }, { "from": "summarize", "to": "save" }, { "from": "save", "to": "end" } ]
    })
    .to_string()
}

#[test]
fn a_run_against_real_http_replays_with_the_server_gone_and_a_changed_request_is_named() {
    let server = FakeServer::start();
    let text = graph_text(&server);
    let graph = graph_of(&text);
    let host = SocketHost::new();
    let record = run_with(plan_of(&graph), &json!({"topic": "tides"}), &[], &host);
    assert_eq!(record.status, Status::Completed, "{:?}", record.error);
    assert_eq!(host.sent.get(), 2);
    let served = server.served.load(Ordering::SeqCst);
    server.shut();
    assert_eq!(served, 2);

    // What the tape holds: the model call and the request, without credentials.
    let kinds: Vec<(String, ReplyKind)> = record.replies.iter().map(|r| (r.node.clone(), r.kind)).collect();
    assert_eq!(kinds, [("summarize".to_string(), ReplyKind::Model), ("save".to_string(), ReplyKind::Http)]);
    let tape = serde_json::to_string(&record.replies).expect("as the test set it up");
    assert!(!tape.contains(SECRET) && !tape.contains("in-header-0000"), "no key on the tape: {tape}");
    assert!(!tape.to_ascii_lowercase().contains("authorization") && !tape.contains("session=abc"), "{tape}");
    assert_eq!(record.replies[0].request["messages"][0]["content"], "Summarize tides");
    assert_eq!(record.replies[0].reply["usage"]["input_tokens"], 11);
    assert_eq!(record.replies[1].request["body"], json!({"text": "Summary of Summarize tides"}));
    assert_eq!(record.replies[1].request["headers"]["x-client"], "tests");
    assert_eq!(record.replies[1].reply["status"], 200);

    // Replayed with the server gone: nothing is sent, the run ends as it did.
    let case = case_from_record(&record, "tides");
    let suite = through_json(&suite_of(&graph, vec![case.clone()]));
    let prepared = prepared(&suite, &graph);
    let offline = SocketHost::new();
    let r = pollster::block_on(run_case(plan_of(&graph), &suite.cases[0], &prepared, ReplayMode::Replay, &offline));
    assert!(r.passed, "{}", failures(&r));
    assert_eq!(offline.sent.get(), 0, "replay sends nothing");
    assert_eq!(r.record.usage.input_tokens, 11, "usage comes back with the reply");
    assert_eq!(r.record.replies.len(), 2, "a replayed run records what it replayed");

    // Live, the server being gone, the request fails.
    let gone = SocketHost::new();
    let live = pollster::block_on(run_case(plan_of(&graph), &suite.cases[0], &prepared, ReplayMode::Live, &gone));
    assert!(!live.passed);
    assert_eq!(live.record.status, Status::Failed);
    assert_eq!(gone.sent.get(), 1, "live calls the provider");

    // A changed request body is named, by node and path; the node fails as an http node.
    let changed = graph_of(&text.replace("\"text\":\"{{ state.summary }}\"", "\"text\":\"{{ state.summary }}!\""));
    let r = pollster::block_on(run_case(plan_of(&changed), &suite.cases[0], &prepared, ReplayMode::Replay, &offline));
    let replay = r.failures.iter().find(|f| matches!(f, CaseFailure::Replay { .. })).expect("a replay failure");
    assert_eq!(
        replay.to_string(),
        "step 2: node `save`: the HTTP request changed at /body/text: \"Summary of Summarize tides\" → \"Summary of Summarize tides!\""
    );
    assert_eq!(r.record.errors.get("save").map(|m| m.contains("the HTTP request changed")), Some(true));
    assert_eq!(offline.sent.get(), 0);

    // A call beyond the tape needs --live.
    let mut short = suite.cases[0].clone();
    short.replies.truncate(1);
    let r = pollster::block_on(run_case(plan_of(&graph), &short, &prepared, ReplayMode::Replay, &offline));
    assert!(failures(&r).contains("node `save`: no recorded reply for call 1 (run with --live to call the provider)"));
}

#[test]
fn a_fork_keeps_the_replies_up_to_its_step_and_a_resumed_record_keeps_them_all() {
    let graph = graph_of(&template_text("003-approval.json"));
    let plan = plan_of(&graph);
    let host = OfflineHost::new();
    let mut run = Run::start(plan.clone(), json!({"request": "a day off", "requester": "Kim"}), &host)
        .expect("as the test set it up");
    pollster::block_on(run.run(&host));
    // Through a record, as a saved run is resumed.
    let saved = run.record(true);
    let mut resumed = Run::from_record(plan.clone(), &saved, &host).expect("as the test set it up");
    resumed.answer("get_approval", json!({"decision": "approve"})).expect("as the test set it up");
    pollster::block_on(resumed.run(&host));
    let done = resumed.record(true);
    assert_eq!(done.answers.len(), 1);
    assert_eq!(done.replies.len(), 1);
    let again = Run::from_record(plan.clone(), &done, &host).expect("as the test set it up").record(true);
    assert_eq!((again.replies.len(), again.answers.len()), (1, 1), "a record read back keeps its tape");
    let model_step = done.replies[0].step;
    let fork = resumed.fork(model_step - 1, None, &host).expect("as the test set it up").record(true);
    assert!(fork.replies.is_empty(), "the fork starts before the model call");
    let fork = resumed.fork(model_step, None, &host).expect("as the test set it up").record(true);
    assert_eq!(fork.replies.len(), 1);
    let asked = done.answers[0].step;
    let fork = resumed.fork(asked, None, &host).expect("as the test set it up").record(true);
    assert!(fork.answers.is_empty(), "a fork from where the run asked asks again");
    let fork = resumed.fork(asked + 1, None, &host).expect("as the test set it up").record(true);
    assert_eq!(fork.answers.len(), 1, "a fork after the answer was used keeps it");
}

/// A loop over a large state with small patches, so the record keeps sparse snapshots.
const COUNTER: &str = r#"{
  "format": "switchyard/graph@1", "name": "Counter",
  "state": { "count": { "type": "number", "reducer": "add" }, "big": { "type": "string" },
             "mark_at": { "type": "number" }, "mark": { "type": "string" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "inc", "kind": "set", "set": { "count": "1",
                 "mark": "if state.count + 1 == state.mark_at { \"hit\" } else { state.mark }" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "inc" },
             { "from": "inc", "to": "inc", "when": "state.count < 12" },
             { "from": "inc", "to": "end", "when": "state.count >= 12" } ],
  "limits": { "max_steps": 100 }
}"#;

#[test]
fn run_diffs_rebuild_sparse_snapshots_and_name_the_first_differing_step() {
    let graph = graph_of(COUNTER);
    let host = OfflineHost::new();
    let big = "x".repeat(4000);
    let a = run_with(plan_of(&graph), &json!({"big": big, "mark_at": 0}), &[], &host);
    let marking = graph_of(&COUNTER.replace("== state.mark_at", "== 5"));
    let b = run_with(plan_of(&marking), &json!({"big": big, "mark_at": 0}), &[], &host);
    let steps = a.steps.as_ref().expect("as the test set it up");
    assert!(steps.iter().any(|s| s.state.is_none()), "the record's snapshots are sparse");
    let d = diff_runs(&a, &b);
    assert_eq!(d.first, Some(5));
    assert_eq!(d.status, None);
    assert_eq!(describe_first(&d).as_deref(), Some("step 5: state differs at /mark"));
    assert!(d.steps.iter().all(|s| s.ran.is_none() && s.only_in.is_none()));
    assert_eq!(d.state.0.len(), 1, "the final states differ in `mark` only");
    assert!(diff_runs(&a, &a).is_empty());

    // A run that goes on longer: the extra steps are one-sided.
    let c = run_with(plan_of(&graph_of(&COUNTER.replace("12", "14"))), &json!({"big": big, "mark_at": 0}), &[], &host);
    let d = diff_runs(&a, &c);
    let last = d.steps.last().expect("as the test set it up");
    assert_eq!(last.only_in, Some(engine::record::diff::Side::B));
    let json = serde_json::to_value(&d).expect("as the test set it up");
    assert!(json["steps"].is_array() && json["state"].is_array(), "{json}");
}

/// A host whose person watches replies arrive.
struct Watching {
    base: OfflineHost,
    deltas: std::cell::RefCell<Vec<(String, String)>>,
}

impl Host for Watching {
    fn now_ms(&self) -> f64 {
        self.base.now_ms()
    }
    fn new_run_id(&self) -> String {
        self.base.new_run_id()
    }
    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.base.http(request)
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.base.sleep(ms)
    }
    fn streams(&self) -> bool {
        true
    }
    fn llm_delta(&self, node: &str, text: &str) {
        self.deltas.borrow_mut().push((node.to_string(), text.to_string()));
    }
}

#[test]
fn a_watcher_sees_a_replayed_reply_arrive_in_one_piece() {
    let graph = graph_of(&template_text("003-approval.json"));
    let answers = [("get_approval", json!({"decision": "approve"}))];
    let record =
        run_with(plan_of(&graph), &json!({"request": "a day off", "requester": "Kim"}), &answers, &OfflineHost::new());
    let case = case_from_record(&record, "approve");
    let suite = suite_of(&graph, vec![case]);
    let host = Watching { base: OfflineHost::new(), deltas: Default::default() };
    let r = pollster::block_on(run_case(
        plan_of(&graph),
        &suite.cases[0],
        &prepared(&suite, &graph),
        ReplayMode::Replay,
        &host,
    ));
    assert!(r.passed, "{}", failures(&r));
    let deltas = host.deltas.borrow();
    assert_eq!(deltas.len(), 1, "{deltas:?}");
    assert_eq!(deltas[0].0, "approved_action");
    assert_eq!(json!(deltas[0].1), record.replies[0].reply["content"], "the whole text at once");
}
