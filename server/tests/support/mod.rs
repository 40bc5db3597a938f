//! The server under test, in this process on a port of its own, and a plain HTTP client.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use switchyard_server::options::Options;

/// A server running on a runtime of its own.
pub struct Server {
    pub base: String,
    pub dir: tempfile::TempDir,
    _runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Serves `graphs` with an in-memory store.
    pub fn start(graphs: &[Value]) -> Server {
        Server::start_with(graphs, |_| {})
    }

    /// Serves `graphs`, the options changed by `edit` first.
    pub fn start_with(graphs: &[Value], edit: impl FnOnce(&mut Options)) -> Server {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = write_graphs(&dir, graphs);
        let mut options = Options::new(paths);
        options.listen = "127.0.0.1:0".into();
        options.data = Some(":memory:".into());
        edit(&mut options);
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
        let running = runtime.block_on(switchyard_server::start(&options)).expect("the server starts");
        let base = format!("http://{}", running.addr);
        runtime.spawn(running.wait());
        Server { base, dir, _runtime: runtime }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        call(agent().get(&self.url(path)).call())
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        call(agent().post(&self.url(path)).send_json(body))
    }

    pub fn delete(&self, path: &str) -> u16 {
        call(agent().delete(&self.url(path)).call()).0
    }

    /// A POST whose answer is an event stream: the events, in order, as (name, data).
    pub fn stream(&self, path: &str, body: &Value) -> (u16, Vec<(String, Value)>) {
        let response = agent().post(&self.url(path)).send_json(body).expect("the request is sent");
        read_events(response)
    }

    pub fn get_stream(&self, path: &str) -> (u16, Vec<(String, Value)>) {
        let response = agent().get(&self.url(path)).call().expect("the request is sent");
        read_events(response)
    }

    /// A new thread's id.
    pub fn thread(&self) -> String {
        let (status, t) = self.post("/threads", &json!({}));
        assert_eq!(status, 200, "{t}");
        t["thread_id"].as_str().expect("a thread id").to_string()
    }

    /// Polls `path` until `done` holds of its JSON (at most a minute).
    pub fn until(&self, path: &str, done: impl Fn(&Value) -> bool) -> Value {
        let since = Instant::now();
        loop {
            let (_, v) = self.get(path);
            if done(&v) {
                return v;
            }
            assert!(since.elapsed() < Duration::from_secs(60), "{path} never got there: {v}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

pub fn write_graphs(dir: &tempfile::TempDir, graphs: &[Value]) -> Vec<PathBuf> {
    graphs
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let path = dir.path().join(format!("graph{i}.json"));
            std::fs::write(&path, g.to_string()).expect("the graph is written");
            path
        })
        .collect()
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

fn call(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = result.expect("the request is answered");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn read_events(mut response: ureq::http::Response<ureq::Body>) -> (u16, Vec<(String, Value)>) {
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    (status, parse_events(&text))
}

/// Server-sent events: `event:` and `data:` lines, a blank line between events.
pub fn parse_events(text: &str) -> Vec<(String, Value)> {
    let mut events = Vec::new();
    let (mut name, mut data) = (String::new(), String::new());
    for line in text.lines() {
        if line.is_empty() {
            if !name.is_empty() || !data.is_empty() {
                events.push((std::mem::take(&mut name), serde_json::from_str(&data).unwrap_or(Value::Null)));
                data.clear();
            }
        } else if let Some(n) = line.strip_prefix("event:") {
            name = n.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data:") {
            data.push_str(d.trim_start());
        }
    }
    events
}

/// LangGraph's `simple` graph: `inc` adds one to `count`, then `shout` echoes `text`.
pub fn simple_graph() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "simple",
        "state": {
            "text": {"type": "string"},
            "count": {"type": "integer", "reducer": "add"},
            "echo": {"type": "string"}
        },
        "nodes": [
            {"id": "start", "kind": "start", "required": ["text"]},
            {"id": "inc", "kind": "set", "set": {"count": "1"}},
            {"id": "shout", "kind": "set", "set": {"echo": "\"echo: \" + state.text"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "inc"}, {"from": "inc", "to": "shout"}, {"from": "shout", "to": "end"}]
    })
}

/// A request a person approves or rejects (a human node with options).
pub fn approval_graph() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "approval",
        "state": {"request": {"type": "string"}, "decision": {"type": "string"}, "done": {"type": "string"}},
        "nodes": [
            {"id": "start", "kind": "start", "required": ["request"]},
            {"id": "review", "kind": "human", "prompt": "Approve {{ state.request }}?", "writes": "decision",
             "options": ["approve", "reject"]},
            {"id": "finish", "kind": "set", "set": {"done": "\"handled: \" + state.decision"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "review"}, {"from": "review", "to": "finish", "label": "default"},
                  {"from": "finish", "to": "end"}]
    })
}

/// A chat: each run appends the input's messages and a mock model's reply.
pub fn chat_graph() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "chat",
        "state": {"messages": {"type": "messages"}},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "messages": "state.messages", "writes": "messages",
             "model": {"provider": "mock", "responses": ["first answer", "second answer", "third answer"]}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "agent"}, {"from": "agent", "to": "end"}]
    })
}
