//! Kill and restart: the server killed while a run is in a step, started again on the same
//! data file, continues the run from its last saved step; the step in progress runs again
//! with the journal's replies, so no model call that had finished is made twice.

mod support;

#[path = "../../serve/tests/support/fake_openai.rs"]
mod fake_openai;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake_openai::FakeOpenAi;
use serde_json::{Value, json};

/// `ask` calls the model; then `tell` (the model again) and `notify` (a slow webhook) run in
/// one step.
fn graph(base_url: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "restartable",
        "state": {"topic": {"type": "string"}, "draft": {"type": "string"}, "final": {"type": "string"},
                  "notified": {"type": "any"}},
        "nodes": [
            {"id": "start", "kind": "start", "required": ["topic"]},
            {"id": "ask", "kind": "llm", "prompt": "first about {{ state.topic }}", "writes": "draft",
             "model": {"provider": "openai", "model": "fake-1", "base_url": base_url}},
            {"id": "tell", "kind": "llm", "prompt": "second about {{ state.topic }}", "writes": "final",
             "model": {"provider": "openai", "model": "fake-1", "base_url": base_url}},
            {"id": "notify", "kind": "http", "method": "POST", "url": format!("{base_url}/hook"),
             "body": {"topic": "{{ state.topic }}"}, "writes": "notified", "timeout_ms": 60000},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "ask"}, {"from": "ask", "to": "tell"}, {"from": "ask", "to": "notify"},
            {"from": "tell", "to": "end"}, {"from": "notify", "to": "end"}
        ]
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The server binary on `port` over `data`.
fn spawn(graph: &std::path::Path, data: &std::path::Path, port: u16) -> Child {
    Command::new(env!("CARGO_BIN_EXE_switchyard-server"))
        .arg(graph)
        .args(["--listen", &format!("127.0.0.1:{port}"), "--data"])
        .arg(data)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts")
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let since = Instant::now();
    while !done() {
        assert!(since.elapsed() < Duration::from_secs(90), "{what} never happened");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Journaled replies in the data file.
fn journaled(data: &std::path::Path) -> i64 {
    let Ok(conn) = rusqlite::Connection::open(data) else { return 0 };
    conn.query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap_or(0)
}

#[test]
fn a_run_killed_mid_step_continues_after_a_restart_without_repeating_a_model_call() {
    let model = FakeOpenAi::start();
    model.set_hook_delay_ms(4000);
    let dir = tempfile::tempdir().expect("a folder");
    let paths = support::write_graphs(&dir, &[graph(&model.base_url())]);
    let data = dir.path().join("server.sqlite");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = spawn(&paths[0], &data, port);
    let agent = support::agent();
    wait_for("the server listening", || agent.get(&format!("{base}/ok")).call().is_ok());

    let post = |path: &str, body: Value| -> Value {
        let mut r = agent.post(&format!("{base}{path}")).send_json(body).expect("answered");
        serde_json::from_str(&r.body_mut().read_to_string().unwrap_or_default()).unwrap_or_default()
    };
    let thread = post("/threads", json!({}));
    let tid = thread["thread_id"].as_str().expect("a thread").to_string();
    let run =
        post(&format!("/threads/{tid}/runs"), json!({"assistant_id": "restartable", "input": {"topic": "ships"}}));
    let rid = run["run_id"].as_str().expect("a run").to_string();

    // Killed while step 2 waits for the slow webhook, `tell`'s model reply already journaled.
    wait_for("both model calls and the webhook", || model.total_calls() == 2 && !model.hooks().is_empty());
    wait_for("the second reply journaled", || journaled(&data) >= 2);
    server.kill().expect("killed");
    let _ = server.wait();

    model.set_hook_delay_ms(0);
    let mut server = spawn(&paths[0], &data, port);
    wait_for("the server listening again", || agent.get(&format!("{base}/ok")).call().is_ok());
    let mut joined = agent.get(&format!("{base}/threads/{tid}/runs/{rid}/join")).call().expect("joined");
    let values: Value =
        serde_json::from_str(&joined.body_mut().read_to_string().unwrap_or_default()).unwrap_or_default();
    let _ = server.kill();
    let _ = server.wait();

    assert_eq!(values["final"], FakeOpenAi::reply_to("second about ships"), "{values}");
    assert_eq!(values["draft"], FakeOpenAi::reply_to("first about ships"));
    assert_eq!(values["notified"], json!({"received": true}));
    let calls = model.calls();
    assert_eq!(calls.get("first about ships"), Some(&1), "{calls:?}");
    assert_eq!(calls.get("second about ships"), Some(&1), "the finished call came from the journal: {calls:?}");
}
