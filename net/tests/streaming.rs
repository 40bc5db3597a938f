//! A model's streamed reply, natively: a real run of an `llm` node against a local server that
//! speaks OpenAI's server-sent events, read through `net::stream` by a host that shows the
//! text as it arrives (as the desktop app does). A hostile server can neither exhaust memory
//! with a tool call's `index` nor slip a key past redaction by splitting it.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::rc::Rc;
use std::time::{Duration, Instant};

use engine::host::{
    Auth, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, Origin, StreamRedactor, check_origin,
};
use engine::{Run, Status};
use serde_json::{Value, json};

const KEY: &str = "sk-split-key-0123456789";

/// A server answering each request with `parts`, one write each, a little apart (so that they
/// arrive as separate reads).
fn sse_server(parts: Vec<String>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}/v1", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().expect("the connection"));
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((_, v)) = line.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n");
            for part in &parts {
                let _ = conn.write_all(part.as_bytes());
                let _ = conn.flush();
                std::thread::sleep(Duration::from_millis(30));
            }
        }
    });
    base
}

/// An OpenAI stream event.
fn event(delta: Value) -> String {
    format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": delta }] }))
}

/// A host that streams model replies through `net::stream` with `KEY`, trusted to the local
/// server, and keeps the text shown.
struct StreamingHost {
    trusted: Vec<Origin>,
    started: Instant,
    shown: RefCell<Vec<String>>,
}

impl Host for StreamingHost {
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn new_run_id(&self) -> String {
        "run-1".into()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move { net::send_bound(&request, Some(KEY), &self.trusted) })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async move { std::thread::sleep(Duration::from_millis(ms)) })
    }

    /// The HTTP client times requests out: the engine need not race them against `sleep`,
    /// which blocks here.
    fn enforces_timeouts(&self) -> bool {
        true
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        check_origin(auth, url, &self.trusted)
    }

    fn streams(&self) -> bool {
        true
    }

    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move { net::stream::send_stream_bound(&request, Some(KEY), &self.trusted, &mut |t| chunk(t)) })
    }

    fn llm_delta(&self, _node: &str, text: &str) {
        self.shown.borrow_mut().push(text.to_string());
    }

    fn stream_redactor(&self) -> StreamRedactor {
        StreamRedactor::new([KEY])
    }
}

/// Runs a one-`llm`-node graph against `base_url` to its end: the record, and the text shown.
fn run_llm(base_url: &str) -> (Value, Vec<String>) {
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "Ask",
        "state": { "answer": { "type": "any", "default": null } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "ask", "kind": "llm", "prompt": "hello", "writes": "answer", "timeout_ms": 30000,
              "model": { "provider": "openai", "model": "m", "base_url": base_url } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [{ "from": "start", "to": "ask" }, { "from": "ask", "to": "end" }]
    });
    let graph = engine::parse::graph_from_value(graph).expect("a graph");
    let plan = engine::compile(&graph).plan.expect("a valid graph");
    let host = StreamingHost {
        trusted: vec![Origin::of(base_url).expect("an origin")],
        started: Instant::now(),
        shown: RefCell::default(),
    };
    let mut run = Run::start(Rc::new(plan), json!({}), &host).expect("the run starts");
    while run.status() == Status::Running {
        pollster::block_on(run.step(&host));
    }
    let record = serde_json::to_value(run.record(true)).expect("a record");
    (record, host.shown.into_inner())
}

#[test]
fn a_tool_call_index_of_four_billion_is_a_protocol_error() {
    let base = sse_server(vec![
        event(json!({ "tool_calls": [{ "index": 4_000_000_000u64, "id": "call_1", "type": "function",
                                       "function": { "name": "add", "arguments": "{}" } }] })),
        "data: [DONE]\n\n".into(),
    ]);
    let (record, _) = run_llm(&base);
    assert_eq!(record["status"], "failed", "{record}");
    let message = record["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("broke the streaming protocol: tool call index 4000000000 after 0 call(s)"), "{record}");
}

#[test]
fn a_key_split_across_two_deltas_is_removed_from_the_live_text_and_the_record() {
    // The key is split between two events, and the second event between two reads.
    let second = event(json!({ "content": "key-0123456789 indeed" }));
    let (a, b) = second.split_at(20);
    let base = sse_server(vec![
        event(json!({ "content": "The key is sk-split-" })),
        a.to_string(),
        b.to_string(),
        "data: [DONE]\n\n".into(),
    ]);
    let (record, shown) = run_llm(&base);
    assert_eq!(record["status"], "completed", "{record}");
    assert_eq!(record["state"]["answer"], "The key is [api key removed] indeed");
    assert!(!record.to_string().contains("0123456789"), "the key reached the record: {record}");
    assert_eq!(shown.concat(), "The key is [api key removed] indeed");
    assert!(shown.iter().all(|piece| !piece.contains("sk-split")), "a piece showed the key's start: {shown:?}");
}
