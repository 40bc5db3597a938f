//! `switchyard server --restate` on a real Restate server with `switchyard serve` registered:
//! two servers in front of it (sharing nothing but the ingress) serve one thread: a run
//! through one, its interrupt resumed through the other, history, `update_state` and a fork,
//! the stream's events the same as the embedded backend's; and the worker killed mid-run,
//! replayed with no model call made twice.

#[path = "../../serve/tests/support/fake_openai.rs"]
mod fake_openai;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake_openai::FakeOpenAi;
use serde_json::{Value, json};
use switchyard_server::options::Options;

/// A Restate server and `switchyard serve` registered with it, on free loopback ports.
struct Restate {
    server: Child,
    worker: Option<Child>,
    ingress: String,
    admin: String,
    node: String,
    worker_port: u16,
    _dir: tempfile::TempDir,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("a port").local_addr().expect("its address").port()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn wait_for(url: &str) {
    let since = Instant::now();
    while !agent().get(url).call().is_ok_and(|r| r.status().is_success()) {
        assert!(since.elapsed() < Duration::from_secs(90), "{url} did not answer within 90 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

impl Restate {
    fn start() -> Restate {
        let dir = tempfile::tempdir().expect("a folder");
        let binary = std::env::var_os("SWITCHYARD_RESTATE_SERVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("node_modules/@restatedev/restate-server-linux-x64/bin/restate-server"));
        assert!(binary.is_file(), "no Restate server at {} (npm ci installs it)", binary.display());
        let (ingress, admin, node) = (free_port(), free_port(), free_port());
        let server = Command::new(binary)
            .args(["--base-dir", &dir.path().join("data").to_string_lossy(), "--node-name", "n1", "--no-logo"])
            .env("RESTATE_INGRESS__BIND_ADDRESS", format!("127.0.0.1:{ingress}"))
            .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
            .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{node}"))
            .env("RESTATE_LISTEN_MODE", "tcp")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the Restate server starts");
        let mut restate = Restate {
            server,
            worker: None,
            ingress: format!("http://127.0.0.1:{ingress}"),
            admin: format!("http://127.0.0.1:{admin}"),
            node: format!("http://127.0.0.1:{node}"),
            worker_port: free_port(),
            _dir: dir,
        };
        wait_for(&format!("{}/health", restate.admin));
        wait_for(&format!("{}/restate/health", restate.ingress));
        restate.start_worker();
        let body = json!({ "uri": format!("http://127.0.0.1:{}", restate.worker_port) });
        let reply = agent().post(&format!("{}/deployments", restate.admin)).send_json(&body).expect("admin answers");
        assert!(reply.status().is_success(), "registering switchyard serve failed: {}", reply.status());
        restate
    }

    /// `switchyard serve` (built beside this test's server: `cargo build -p switchyard-serve`),
    /// reaching the fake model server on loopback but not Restate's own ports.
    fn start_worker(&mut self) {
        let bin = PathBuf::from(env!("CARGO_BIN_EXE_switchyard-server")).with_file_name("switchyard-serve");
        assert!(bin.is_file(), "{} is missing: cargo build -p switchyard-serve", bin.display());
        let deny = [&self.ingress, &self.admin, &self.node].map(|s| s.as_str()).join(",");
        let child = Command::new(bin)
            .args(["--listen", &format!("127.0.0.1:{}", self.worker_port), "--allow", "127.0.0.1", "--deny", &deny])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("switchyard serve starts");
        self.worker = Some(child);
        let since = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.worker_port)).is_err() {
            assert!(since.elapsed() < Duration::from_secs(30), "switchyard serve did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn kill_worker(&mut self) {
        if let Some(mut child) = self.worker.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Restate {
    fn drop(&mut self) {
        self.kill_worker();
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// A `switchyard server` in this process, on a port of its own.
struct Server {
    base: String,
}

fn serve(runtime: &tokio::runtime::Runtime, graph: &Value, dir: &Path, restate: Option<&str>) -> Server {
    let path = dir.join("graph.json");
    std::fs::write(&path, graph.to_string()).expect("graph written");
    let mut options = Options::new(vec![path]);
    options.listen = format!("127.0.0.1:{}", free_port());
    options.restate = restate.map(str::to_string);
    options.data = Some(":memory:".into());
    // The fake model and webhook listen on loopback, which graphs and webhooks reach only when allowed.
    options.allow = Some("127.0.0.1".into());
    let running = runtime.block_on(switchyard_server::start(&options)).expect("the server starts");
    let base = format!("http://{}", running.addr);
    // Serves until the runtime ends with the test.
    runtime.spawn(running.wait());
    Server { base }
}

impl Server {
    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        read(agent().post(&format!("{}{path}", self.base)).send_json(body))
    }

    fn get(&self, path: &str) -> (u16, Value) {
        read(agent().get(&format!("{}{path}", self.base)).call())
    }

    fn stream(&self, path: &str, body: &Value) -> Vec<(String, Value)> {
        let mut reply = agent().post(&format!("{}{path}", self.base)).send_json(body).expect("sent");
        assert_eq!(reply.status().as_u16(), 200);
        let text = reply.body_mut().read_to_string().unwrap_or_default();
        parse_events(&text)
    }

    fn thread(&self) -> String {
        let (status, t) = self.post("/threads", &json!({}));
        assert_eq!(status, 200, "{t}");
        t["thread_id"].as_str().expect("thread_id").to_string()
    }

    fn assistant(&self) -> String {
        let (_, list) = self.post("/assistants/search", &json!({}));
        list[0]["assistant_id"].as_str().expect("an assistant").to_string()
    }
}

fn read(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut reply = result.expect("answered");
    let status = reply.status().as_u16();
    let text = reply.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn parse_events(text: &str) -> Vec<(String, Value)> {
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

/// A model call, a person's approval, then a webhook: serve/tests' approval graph.
fn approval_graph(base_url: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "approval",
        "state": {
            "request": { "type": "string" },
            "draft": { "type": "string", "default": "" },
            "decision": { "type": "string", "default": "" },
            "published": { "type": "boolean", "default": false },
            "notified": { "type": "any", "default": null }
        },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["request"] },
            { "id": "draft", "kind": "llm", "prompt": "Write a reply to: {{ state.request }}", "writes": "draft",
              "model": { "provider": "openai", "model": "fake-1", "base_url": base_url } },
            { "id": "approve", "kind": "human", "prompt": "Send this? {{ state.draft }}", "writes": "decision",
              "options": ["approve", "reject"] },
            { "id": "publish", "kind": "set", "set": { "published": "true" } },
            { "id": "notify", "kind": "http", "method": "POST", "url": format!("{base_url}/notify"),
              "body": { "published": "{{ state.request }}" }, "writes": "notified", "timeout_ms": 10000 },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "draft" }, { "from": "draft", "to": "approve" },
            { "from": "approve", "to": "publish", "label": "approve" },
            { "from": "approve", "to": "end", "label": "reject" },
            { "from": "publish", "to": "notify" }, { "from": "notify", "to": "end" }
        ]
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime")
}

fn wait_run(server: &Server, thread: &str, body: Value) -> Value {
    let (status, reply) = server.post(&format!("/threads/{thread}/runs/wait"), &body);
    assert_eq!(status, 200, "{reply}");
    reply
}

#[test]
fn two_servers_share_a_thread_run_resume_history_and_fork() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    let rt = runtime();
    let dir = tempfile::tempdir().expect("dir");
    let graph = approval_graph(&model.base_url());
    let a = serve(&rt, &graph, dir.path(), Some(&restate.ingress));
    let b = serve(&rt, &graph, dir.path(), Some(&restate.ingress));
    let assistant = a.assistant();
    assert_eq!(b.assistant(), assistant);

    let thread = a.thread();
    let waited = wait_run(&a, &thread, json!({"assistant_id": assistant, "input": {"request": "Move the launch"}}));
    assert_eq!(waited["draft"], FakeOpenAi::reply_to("Write a reply to: Move the launch"));
    assert_eq!(waited["__interrupt__"][0]["value"]["node"], "approve", "{waited}");

    let (_, seen) = b.get(&format!("/threads/{thread}"));
    assert_eq!(seen["status"], "interrupted", "{seen}");
    let hook = format!("{}/hook", model.base_url());
    let done =
        wait_run(&b, &thread, json!({"assistant_id": assistant, "command": {"resume": "approve"}, "webhook": hook}));
    assert_eq!(done["published"], true, "{done}");
    // The server that started the run calls its webhook once it has ended.
    let since = Instant::now();
    while !model.hooks().keys().any(|body| body.contains("webhook_sent_at") && body.contains("\"published\":true")) {
        assert!(since.elapsed() < Duration::from_secs(30), "no webhook call: {:?}", model.hooks());
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(done.get("__interrupt__").is_none());
    let (_, seen) = a.get(&format!("/threads/{thread}"));
    assert_eq!(seen["status"], "idle", "{seen}");
    assert_eq!(model.total_calls(), 1);

    let (status, history) = a.post(&format!("/threads/{thread}/history"), &json!({"limit": 100}));
    assert_eq!(status, 200, "{history}");
    let history = history.as_array().cloned().expect("a list");
    let steps: Vec<i64> = history.iter().map(|c| c["metadata"]["step"].as_i64().unwrap_or(-9)).collect();
    assert!(steps.windows(2).all(|w| w[0] > w[1]), "newest first: {steps:?}");
    let before = history.iter().find(|c| c["next"] == json!(["approve"])).expect("the checkpoint before approve");
    let checkpoint_id = before["checkpoint"]["checkpoint_id"].as_str().expect("an id").to_string();

    let (status, updated) = b.post(
        &format!("/threads/{thread}/state"),
        &json!({"values": {"request": "edited"}, "checkpoint_id": checkpoint_id}),
    );
    assert_eq!(status, 200, "{updated}");
    let asked = wait_run(&a, &thread, json!({"assistant_id": assistant}));
    assert_eq!(asked["request"], "edited", "{asked}");
    assert!(asked["__interrupt__"].is_array(), "{asked}");
    let rejected = wait_run(&b, &thread, json!({"assistant_id": assistant, "command": {"resume": "reject"}}));
    assert_eq!(rejected["published"], false, "{rejected}");
    assert_eq!(model.total_calls(), 1, "the fork reused the draft");
    let (_, runs) = a.get(&format!("/threads/{thread}/runs"));
    assert_eq!(runs.as_array().map(Vec::len), Some(4), "{runs}");
}

#[test]
fn a_stream_on_restate_tells_what_the_embedded_server_tells() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    let rt = runtime();
    let dir = tempfile::tempdir().expect("dir");
    let graph = approval_graph(&model.base_url());
    let over = serve(&rt, &graph, dir.path(), Some(&restate.ingress));
    let embedded = serve(&rt, &graph, dir.path(), None);
    let body = |assistant: &str| json!({"assistant_id": assistant, "input": {"request": "Stream it"}, "stream_mode": ["values", "updates"]});
    let names = |events: &[(String, Value)]| events.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let t1 = over.thread();
    let on_restate = over.stream(&format!("/threads/{t1}/runs/stream"), &body(&over.assistant()));
    let t2 = embedded.thread();
    let in_process = embedded.stream(&format!("/threads/{t2}/runs/stream"), &body(&embedded.assistant()));
    // docs/server.md, Streaming: a run stopping at an interrupt ends with `updates` {"__interrupt__"}
    // and `values` carrying it.
    assert_eq!(names(&on_restate), ["metadata", "values", "updates", "values", "updates", "values"], "{on_restate:?}");
    assert_eq!(on_restate[4].1["__interrupt__"][0]["value"]["node"], "approve");
    assert_eq!(on_restate[5].1["__interrupt__"][0]["value"]["node"], "approve");
    // The same events as the embedded server's, but for the interrupt's id (it names the run).
    let plain = |events: &[(String, Value)]| {
        events
            .iter()
            .skip(1)
            .map(|(n, v)| {
                let mut v = v.clone();
                if let Some(list) = v.get_mut("__interrupt__").and_then(Value::as_array_mut) {
                    for i in list {
                        i["id"] = json!("…");
                    }
                }
                (n.clone(), v)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(plain(&on_restate), plain(&in_process));
}

#[test]
fn a_worker_killed_mid_run_is_replayed_and_the_other_server_sees_it_end() {
    let model = FakeOpenAi::start();
    let mut restate = Restate::start();
    let rt = runtime();
    let dir = tempfile::tempdir().expect("dir");
    let graph = approval_graph(&model.base_url());
    let a = serve(&rt, &graph, dir.path(), Some(&restate.ingress));
    let b = serve(&rt, &graph, dir.path(), Some(&restate.ingress));
    let assistant = a.assistant();
    let thread = a.thread();
    wait_run(&a, &thread, json!({"assistant_id": assistant, "input": {"request": "Survive a kill"}}));
    model.set_hook_delay_ms(1500);
    let (status, run) = a.post(
        &format!("/threads/{thread}/runs"),
        &json!({"assistant_id": assistant, "command": {"resume": "approve"}}),
    );
    assert_eq!(status, 200, "{run}");
    let run_id = run["run_id"].as_str().expect("run_id").to_string();
    let since = Instant::now();
    while model.hooks().is_empty() {
        assert!(since.elapsed() < Duration::from_secs(60), "the webhook was never called");
        std::thread::sleep(Duration::from_millis(10));
    }
    restate.kill_worker();
    std::thread::sleep(Duration::from_millis(300));
    model.set_hook_delay_ms(0);
    restate.start_worker();
    let (status, done) = b.get(&format!("/threads/{thread}/runs/{run_id}/join"));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["published"], true, "{done}");
    for (prompt, calls) in model.calls() {
        assert_eq!(calls, 1, "{prompt}: asked again after the kill");
    }
    assert_eq!(model.total_calls(), 1);
}

#[test]
fn a_recursion_limit_stops_a_run_on_restate_as_in_process() {
    let restate = Restate::start();
    let rt = runtime();
    let dir = tempfile::tempdir().expect("dir");
    let counter = json!({
        "format": "switchyard/graph@1", "name": "counter",
        "state": { "n": { "type": "number", "reducer": "add", "default": 0 } },
        "nodes": [ { "id": "start", "kind": "start" }, { "id": "inc", "kind": "set", "set": { "n": "1" } }, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "inc" }, { "from": "inc", "to": "inc", "when": "state.n < 100" },
                   { "from": "inc", "to": "end", "when": "state.n >= 100" } ]
    });
    let over = serve(&rt, &counter, dir.path(), Some(&restate.ingress));
    let embedded = serve(&rt, &counter, dir.path(), None);
    let body = |s: &Server| json!({"assistant_id": s.assistant(), "input": {}, "config": {"recursion_limit": 3}});
    let on_restate = wait_run(&over, &over.thread(), body(&over));
    let in_process = wait_run(&embedded, &embedded.thread(), body(&embedded));
    assert_eq!(on_restate["__error__"]["error"], "GraphRecursionError", "{on_restate}");
    assert_eq!(on_restate, in_process);
}
